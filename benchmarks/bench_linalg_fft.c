/* Times the linear-algebra and FFT entry points from C;
 * benchmarks/bench_linalg_fft_numpy.py runs this next to the same work in
 * NumPy and prints ratios. Output: one line per row, "name milliseconds"
 * (best of reps). Inputs follow the formula the .py side uses:
 * x[i] = frac(i * 0.6180339887498949) - 0.5, in C order. */
#include <cunumpy/cunumpy.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

/* Array of the given shape filled by the formula, then cast to dt; with
 * diag > 0 that value is added to the diagonal of a square matrix and with
 * sym the matrix is symmetrised (a + a.T). */
static cn_array make(int32_t nd, const int64_t *shape, cn_dtype dt, double diag,
                     int sym) {
  int64_t n = 1;
  for (int32_t i = 0; i < nd; i++)
    n *= shape[i];
  double *v = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    double x = (double)i * 0.6180339887498949;
    v[i] = x - floor(x) - 0.5;
  }
  if (nd == 2 && shape[0] == shape[1]) {
    int64_t m = shape[0];
    if (sym)
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = i; j < m; j++) {
          double s = v[i * m + j] + v[j * m + i];
          v[i * m + j] = v[j * m + i] = s;
        }
    for (int64_t i = 0; i < m; i++)
      v[i * m + i] += diag;
  }
  cn_array h = NULL, out = NULL;
  CHECK(cn_from_host(&h, v, 0, (int64_t)sizeof(double) * n, nd, shape, NULL,
                     CN_FLOAT64));
  free(v);
  CHECK(cn_astype(&out, h, dt, 1));
  cn_array_release(h);
  return out;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  const char *only = argc > 2 ? argv[2] : NULL;
#define WANT(name) (only == NULL || strstr(name, only) != NULL)
  for (int32_t sz = 1024; sz <= 2048; sz *= 2) {
    int64_t s2[2] = {sz, sz};
    cn_dtype dts[2] = {CN_FLOAT32, CN_FLOAT64};
    for (int d = 0; d < 2; d++) {
      char name[64];
      snprintf(name, sizeof name, "matmul_%s_%d",
               d == 0 ? "float32" : "float64", (int)sz);
      if (!WANT(name))
        continue;
      cn_array a = make(2, s2, dts[d], 0, 0), b = make(2, s2, dts[d], 0, 0);
      TIME(name, reps, CHECK(cn_matmul(&res, a, b, NULL)));
      cn_array_release(a);
      cn_array_release(b);
    }
  }
  if (WANT("solve_1000")) {
    int64_t s2[2] = {1000, 1000}, s1[1] = {1000};
    cn_array a = make(2, s2, CN_FLOAT64, 1000, 0);
    cn_array b = make(1, s1, CN_FLOAT64, 0, 0);
    TIME("solve_1000", reps, CHECK(cn_linalg_solve(&res, a, b)));
    cn_array_release(a);
    cn_array_release(b);
  }
  if (WANT("svd_500")) {
    int64_t s2[2] = {500, 500};
    cn_array a = make(2, s2, CN_FLOAT64, 0, 0);
    TIME("svd_500", reps, CHECK(cn_linalg_svd(&res, &res2, &res3, a, 1, 1)));
    cn_array_release(a);
  }
  if (WANT("eigh_1000")) {
    int64_t s2[2] = {1000, 1000};
    cn_array a = make(2, s2, CN_FLOAT64, 0, 1);
    TIME("eigh_1000", reps, CHECK(cn_linalg_eigh(&res, &res2, a, 0)));
    cn_array_release(a);
  }
  if (WANT("fft_complex128_2^20")) {
    int64_t s1[1] = {1 << 20};
    cn_array a = make(1, s1, CN_COMPLEX128, 0, 0);
    TIME("fft_complex128_2^20", reps + 2,
         CHECK(cn_fft(&res, a, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD)));
    cn_array_release(a);
  }
  if (WANT("rfft_float64_2^22")) {
    int64_t s1[1] = {1 << 22};
    cn_array a = make(1, s1, CN_FLOAT64, 0, 0);
    TIME("rfft_float64_2^22", reps + 2,
         CHECK(cn_rfft(&res, a, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD)));
    cn_array_release(a);
  }
  if (WANT("fft2_complex128_2048")) {
    int64_t s2[2] = {2048, 2048};
    cn_array a = make(2, s2, CN_COMPLEX128, 0, 0);
    TIME("fft2_complex128_2048", reps,
         CHECK(cn_fft2(&res, a, 0, NULL, -1, NULL, CN_FFT_NORM_BACKWARD)));
    cn_array_release(a);
  }
  return 0;
}
