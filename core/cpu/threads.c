/* How many OpenMP threads an elementwise-style loop should use, and the
 * OpenMP team started when the CPU backend starts. */
#include <omp.h>

#include "cpu.h"

/* Below this many elements a parallel region costs more than it saves.
 * Measured on the 2-core dev machine (best of 200, float64 add into an
 * existing array): 32k elements 7.7 us on one thread, 5.2 us on two; 16k
 * 3.6 us on one (the fork/join costs ~1.3 us, so two threads would gain
 * little and lose under load). Expensive kernels scale n by a cost factor
 * (sin: 2 threads already pay at 8k elements, 7.6 vs 11.2 us). Each thread
 * gets at least half the threshold. */
#define CN_CPU_PAR_MIN 32768

int cn_cpu_threads_for(int64_t n) {
  if (n < CN_CPU_PAR_MIN)
    return 1;
  int t = omp_get_max_threads();
  int64_t cap = n / (CN_CPU_PAR_MIN / 2);
  if (t > cap)
    t = (int)cap;
  return t < 1 ? 1 : t;
}

/* libgomp cannot report a failure to start a thread or to allocate a team:
 * it prints "Out of memory" or "Thread creation failed" and exits. Starting
 * the full team once, when the backend starts (before any array exists),
 * moves that failure to a point where nothing is lost; later regions of at
 * most that many threads reuse the team's threads. */
void cn_cpu_threads_prewarm(void) {
  int t = omp_get_max_threads();
  if (t <= 1)
    return;
#pragma omp parallel num_threads(t)
  {
    /* nothing: the threads only need to exist */
  }
}
