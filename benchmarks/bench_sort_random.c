/* Times sorting, unique, random normals and median from C;
 * benchmarks/bench_sort_random.py runs this next to the same work in NumPy
 * and prints ratios. Output: one line per row, "name milliseconds". Inputs
 * come from splitmix64(i), which the .py side computes identically. */
#include <cunumpy/cunumpy.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"

static uint64_t splitmix64(uint64_t i) {
  uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 10000000;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  int64_t nu = n / 10;
  double *f = malloc(sizeof(double) * (size_t)n);
  int64_t *q = malloc(sizeof(int64_t) * (size_t)n);
  int64_t *u = malloc(sizeof(int64_t) * (size_t)nu);
  float *f4 = malloc(sizeof(float) * (size_t)n);
  int32_t *q4 = malloc(sizeof(int32_t) * (size_t)n);
  if (!f || !q || !u || !f4 || !q4)
    return 1;
  for (int64_t i = 0; i < n; i++) {
    uint64_t h = splitmix64((uint64_t)i);
    f[i] = (double)(h >> 11) * 0x1p-53;
    q[i] = (int64_t)h;
    f4[i] = (float)f[i];
    q4[i] = (int32_t)((int64_t)(h >> 32) - 2147483648ll);
  }
  for (int64_t i = 0; i < nu; i++)
    u[i] = (int64_t)(splitmix64((uint64_t)i) % 100000);
  cn_array af, ai, au, af4, ai4;
  CHECK(cn_from_host(&af, f, 0, n * 8, 1, &n, NULL, CN_FLOAT64));
  CHECK(cn_from_host(&ai, q, 0, n * 8, 1, &n, NULL, CN_INT64));
  CHECK(cn_from_host(&au, u, 0, nu * 8, 1, &nu, NULL, CN_INT64));
  CHECK(cn_from_host(&af4, f4, 0, n * 4, 1, &n, NULL, CN_FLOAT32));
  CHECK(cn_from_host(&ai4, q4, 0, n * 4, 1, &n, NULL, CN_INT32));
  cn_rng rng;
  CHECK(cn_rng_create(&rng, 12345));

  TIME("sort_f64", reps, CHECK(cn_sort(&res, af, 0)));
  TIME("argsort_f64", reps, CHECK(cn_argsort(&res, af, 0)));
  TIME("sort_i64", reps, CHECK(cn_sort(&res, ai, 0)));
  TIME("argsort_i64", reps, CHECK(cn_argsort(&res, ai, 0)));
  TIME("sort_f32", reps, CHECK(cn_sort(&res, af4, 0)));
  TIME("argsort_f32", reps, CHECK(cn_argsort(&res, af4, 0)));
  TIME("sort_i32", reps, CHECK(cn_sort(&res, ai4, 0)));
  TIME("argsort_i32", reps, CHECK(cn_argsort(&res, ai4, 0)));
  TIME("unique_1e6", reps, CHECK(cn_unique(&res, NULL, NULL, NULL, au, 1)));
  TIME("normal", reps,
       CHECK(cn_random_standard_normal(&res, rng, 1, &n, CN_FLOAT64)));
  TIME("median", reps, CHECK(cn_median(&res, af, CN_ALL_AXES, NULL, 0)));

  cn_rng_release(rng);
  cn_array_release(af);
  cn_array_release(ai);
  cn_array_release(au);
  cn_array_release(af4);
  cn_array_release(ai4);
  free(f4);
  free(q4);
  free(f);
  free(q);
  free(u);
  return 0;
}
