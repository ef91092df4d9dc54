/* Times the engine's core ops from C; benchmarks/bench_core.py runs this
 * next to the same work in NumPy and prints ratios. Output: one line per
 * row, "name milliseconds". Every op makes a new output, as NumPy's do. */
#include <cunumpy/cunumpy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 10000000;
  int reps = argc > 2 ? atoi(argv[2]) : 7;
  cn_array a, b, c;
  int64_t shape[1] = {n};
  /* deterministic inputs in [0, 1) (the same formula as the .py side) */
  CHECK(cn_arange(&a, 0, (double)n, 1, CN_FLOAT64));
  cn_array k = NULL, t = NULL;
  CHECK(cn_from_scalar(&k, cn_scalar_float(0.6180339887498949), CN_FLOAT64));
  CHECK(cn_multiply(&t, a, k, NULL));
  cn_array_release(a);
  cn_array_release(k);
  CHECK(cn_floor(&k, t, NULL));
  CHECK(cn_subtract(&a, t, k, NULL));
  cn_array_release(t);
  cn_array_release(k);
  CHECK(cn_sqrt(&b, a, NULL));
  CHECK(cn_square(&c, a, NULL));
  (void)shape;

  TIME("add", reps, CHECK(cn_add(&res, a, b, NULL)));
  TIME("fma", reps, {
    cn_array t1 = NULL;
    CHECK(cn_multiply(&t1, a, b, NULL));
    CHECK(cn_add(&res, t1, c, NULL));
    cn_array_release(t1);
  });
  TIME("sin", reps, CHECK(cn_sin(&res, a, NULL)));
  TIME("exp", reps, CHECK(cn_exp(&res, a, NULL)));
  TIME("sum", reps, CHECK(cn_sum(&res, a, CN_ALL_AXES, NULL, 0,
                                 CN_DTYPE_DEFAULT, NULL)));
  TIME("mean", reps, CHECK(cn_mean(&res, a, CN_ALL_AXES, NULL, 0,
                                   CN_DTYPE_DEFAULT, NULL)));
  TIME("std", reps, CHECK(cn_std(&res, a, CN_ALL_AXES, NULL, 0, 0.0,
                                 CN_DTYPE_DEFAULT, NULL)));
  TIME("max", reps, CHECK(cn_max(&res, a, CN_ALL_AXES, NULL, 0,
                                 CN_DTYPE_DEFAULT, NULL)));
  TIME("argmax", reps, CHECK(cn_argmax(&res, a, CN_AXIS_NONE, 0, NULL)));
  TIME("cumsum", reps, CHECK(cn_cumsum(&res, a, CN_AXIS_NONE,
                                       CN_DTYPE_DEFAULT, NULL)));
  TIME("strided_add", reps, {
    cn_array sa = NULL, sb = NULL;
    CHECK(cn_slice_axis(&sa, a, 0, CN_SLICE_NONE, CN_SLICE_NONE, 2));
    CHECK(cn_slice_axis(&sb, b, 0, CN_SLICE_NONE, CN_SLICE_NONE, 2));
    CHECK(cn_add(&res, sa, sb, NULL));
    cn_array_release(sa);
    cn_array_release(sb);
  });
  {
    int64_t sq[2] = {4096, 4096};
    cn_array m = NULL, mt = NULL;
    CHECK(cn_ones(&m, 2, sq, CN_FLOAT64, CN_ORDER_C));
    CHECK(cn_transpose(&mt, m));
    TIME("transpose", reps, CHECK(cn_copy(&res, mt, CN_ORDER_C)));
    cn_array_release(mt);
    cn_array_release(m);
  }
  {
    int64_t ten[1] = {10};
    cn_array x = NULL, y = NULL;
    CHECK(cn_ones(&x, 1, ten, CN_FLOAT64, CN_ORDER_C));
    CHECK(cn_ones(&y, 1, ten, CN_FLOAT64, CN_ORDER_C));
    const int calls = 200000;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
      double t0 = now();
      for (int i = 0; i < calls; i++) {
        cn_array res = NULL;
        cn_add(&res, x, y, NULL);
        cn_array_release(res);
      }
      double dt = (now() - t0) / calls;
      if (dt < best) best = dt;
    }
    printf("small_add_us %.4f\n", best * 1e6);
    best = 1e30;
    for (int r = 0; r < 3; r++) {
      double t0 = now();
      for (int i = 0; i < calls; i++) {
        cn_array res = NULL;
        cn_sum(&res, x, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
        cn_array_release(res);
      }
      double dt = (now() - t0) / calls;
      if (dt < best) best = dt;
    }
    printf("small_sum_us %.4f\n", best * 1e6);
    cn_array_release(x);
    cn_array_release(y);
  }
  cn_array_release(a);
  cn_array_release(b);
  cn_array_release(c);
  return 0;
}
