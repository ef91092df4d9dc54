/* Timing helpers shared by the C benchmarks. Each benchmark prints one line
 * per row, "name milliseconds", for its Python driver to set next to NumPy. */
#ifndef CUNUMPY_BENCH_UTIL_H
#define CUNUMPY_BENCH_UTIL_H

#include <cunumpy/cunumpy.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != CN_OK) {                                                        \
      fprintf(stderr, "%s failed: %s\n", #x, cn_last_error());                 \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* Prints the best of `reps` timings of the statements, in ms. They may make
 * up to three arrays in res, res2, res3, which are released after timing. */
#define TIME(name, reps, ...)                                                  \
  do {                                                                         \
    double best = 1e30;                                                        \
    for (int r_ = 0; r_ < (reps); r_++) {                                      \
      cn_array res = NULL, res2 = NULL, res3 = NULL;                           \
      double t0_ = now();                                                      \
      __VA_ARGS__;                                                             \
      double t1_ = now();                                                      \
      cn_array_release(res);                                                   \
      cn_array_release(res2);                                                  \
      cn_array_release(res3);                                                  \
      if (t1_ - t0_ < best)                                                    \
        best = t1_ - t0_;                                                      \
    }                                                                          \
    printf("%s %.4f\n", name, best * 1e3);                                     \
    fflush(stdout);                                                            \
  } while (0)

#endif
