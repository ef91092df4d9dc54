/* STREAM-style memory bandwidth: copy (c = a), add (c = a + b) and triad
 * (a = b + s*c) over float64 arrays well beyond the caches, best of reps,
 * on one thread. Prints "name GB/s" lines (bytes read plus bytes written,
 * as STREAM counts them), the ceiling that bandwidth-bound rows of the other
 * benchmarks are set against.
 *
 * usage: bench_stream [n] [reps] */
#include "bench_util.h"

#include <string.h>

/* Stops the compiler from folding or fusing the timed loops away. */
static void touch(double *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

int main(int argc, char **argv) {
  const long n = argc > 1 ? atol(argv[1]) : 1L << 24;
  const int reps = argc > 2 ? atoi(argv[2]) : 7;
  if (n < 1 || reps < 1) {
    fprintf(stderr, "usage: bench_stream [n >= 1] [reps >= 1]\n");
    return 2;
  }
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
         *c = malloc(n * sizeof(double));
  if (!a || !b || !c) {
    fprintf(stderr, "bench_stream: out of memory for n = %ld\n", n);
    return 1;
  }
  for (long i = 0; i < n; i++) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.5;
  }
  const double s = 3.0, mb = (double)n * sizeof(double);
  double best[3] = {1e30, 1e30, 1e30};
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    memcpy(c, a, n * sizeof(double));
    touch(c);
    double t1 = now();
    for (long i = 0; i < n; i++)
      c[i] = a[i] + b[i];
    touch(c);
    double t2 = now();
    for (long i = 0; i < n; i++)
      a[i] = b[i] + s * c[i];
    touch(a);
    double t3 = now();
    double t[3] = {t1 - t0, t2 - t1, t3 - t2};
    for (int k = 0; k < 3; k++)
      if (t[k] < best[k])
        best[k] = t[k];
  }
  printf("stream_copy %.3f\n", 2 * mb / best[0] * 1e-9);
  printf("stream_add %.3f\n", 3 * mb / best[1] * 1e-9);
  printf("stream_triad %.3f\n", 3 * mb / best[2] * 1e-9);
  free(a);
  free(b);
  free(c);
  return 0;
}
