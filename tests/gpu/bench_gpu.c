/* GPU benchmark of the CUDA backend (run by tests/gpu/run.sh): a+b, a*b+c,
 * sin, sum, std and argmax on N float32 / float64 elements (default 1e8),
 * timed with CUDA events on the current stream, with the achieved
 * bandwidth against a device-to-device copy of the same array; then fft
 * (complex64, 2^24), rfft (float32, 2^26) and fft2 (complex64, 4096^2),
 * their bandwidth counted as one read and one write; then matmul of two
 * 4096 x 4096 matrices (mm4096) and of 10000 pairs of 32 x 32 ones
 * (mm32x10000) in float32 / float64 / complex128. Prints
 *   RESULT cunumpy <op> <dtype> <ms> <GB/s, or GFLOP/s for matmul>
 * lines (tests/gpu/bench_cupy.py prints the same for CuPy). Usage:
 *   bench_gpu [N] [iterations] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cunumpy/cunumpy.h>

#define OK(expr)                                                               \
  do {                                                                         \
    cn_status st_ = (expr);                                                    \
    if (st_ != CN_OK) {                                                        \
      fprintf(stderr, "bench_gpu: %s -> %s: %s\n", #expr, cn_status_name(st_), \
              cn_last_error());                                                \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static cn_array A, B, C, D;
static int g_which;

/* One run of op g_which; results are released at once (the pool reuses
 * their memory, as CuPy's does). */
static void run_op(void) {
  cn_array r = NULL, t = NULL;
  switch (g_which) {
  case 0:
    OK(cn_assign(D, A));
    return;
  case 1:
    OK(cn_add(&r, A, B, NULL));
    break;
  case 2:
    OK(cn_multiply(&t, A, B, NULL));
    OK(cn_add(&r, t, C, NULL));
    break;
  case 3:
    OK(cn_sin(&r, A, NULL));
    break;
  case 4:
    OK(cn_sum(&r, A, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    break;
  case 5:
    OK(cn_std(&r, A, CN_ALL_AXES, NULL, 0, 0.0, CN_DTYPE_DEFAULT, NULL));
    break;
  case 6:
    OK(cn_argmax(&r, A, CN_AXIS_NONE, 0, NULL));
    break;
  case 7:
    OK(cn_fft(&r, A, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
    break;
  case 8:
    OK(cn_rfft(&r, A, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
    break;
  default:
    OK(cn_fft2(&r, A, 0, NULL, -1, NULL, CN_FFT_NORM_BACKWARD));
  }
  cn_array_release(t);
  cn_array_release(r);
}

/* matmul of (batch, m, m) operands: GFLOP/s of 2 m^3 batch real
 * multiply-adds (4 real ones per complex one). */
static void bench_matmul(cn_event e0, cn_event e1) {
  static const cn_dtype dts[3] = {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX128};
  static const struct {
    const char *name;
    int64_t batch, m;
    int iters;
  } shapes[2] = {{"mm4096", 1, 4096, 5}, {"mm32x10000", 10000, 32, 20}};
  for (int s = 0; s < 2; s++)
    for (int d = 0; d < 3; d++) {
      cn_dtype dt = dts[d];
      int64_t m = shapes[s].m, sh[3] = {shapes[s].batch, m, m};
      OK(cn_set_backend("cpu"));
      cn_array h = NULL, hc = NULL, hr = NULL, a = NULL, r = NULL;
      OK(cn_linspace(&h, -1.0, 1.0, sh[0] * m * m, 1, CN_FLOAT64));
      OK(cn_astype(&hc, h, dt, 1));
      OK(cn_reshape(&hr, hc, 3, sh, CN_ORDER_C));
      OK(cn_to_device(&a, hr, 0));
      OK(cn_matmul(&r, a, a, NULL)); /* handles, kernels, warm-up */
      cn_array_release(r);
      OK(cn_cuda_device_synchronize());
      OK(cn_event_record(e0, NULL));
      for (int i = 0; i < shapes[s].iters; i++) {
        OK(cn_matmul(&r, a, a, NULL));
        cn_array_release(r);
      }
      OK(cn_event_record(e1, NULL));
      OK(cn_event_synchronize(e1));
      double ms = 0;
      OK(cn_event_elapsed_ms(&ms, e0, e1));
      ms /= shapes[s].iters;
      double flops = 2.0 * (double)(m * m * m) * (double)sh[0] *
                     (dt == CN_COMPLEX128 ? 4 : 1);
      printf("RESULT cunumpy %s %s %.4f %.1f\n", shapes[s].name,
             cn_dtype_name(dt), ms, flops / (ms * 1e6));
      fflush(stdout);
      cn_array *all[] = {&h, &hc, &hr, &a};
      for (int i = 0; i < 4; i++)
        cn_array_release(*all[i]);
      OK(cn_cuda_pool_free_all_blocks(-2));
    }
}

/* Times op g_which (two warm-up runs, then iters runs between events) and
 * prints its RESULT line; bytes is what one run must move at least. */
static void time_op(const char *name, cn_dtype dt, double bytes, int iters,
                    cn_event e0, cn_event e1) {
  run_op(); /* compile, plan and warm up */
  run_op();
  OK(cn_cuda_device_synchronize());
  OK(cn_event_record(e0, NULL));
  for (int i = 0; i < iters; i++)
    run_op();
  OK(cn_event_record(e1, NULL));
  OK(cn_event_synchronize(e1));
  double ms = 0;
  OK(cn_event_elapsed_ms(&ms, e0, e1));
  ms /= iters;
  printf("RESULT cunumpy %s %s %.4f %.1f\n", name, cn_dtype_name(dt), ms,
         bytes / (ms * 1e6));
  fflush(stdout);
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 100000000;
  int iters = argc > 2 ? atoi(argv[2]) : 20;
  if (cn_device_count() <= 0) {
    fprintf(stderr, "bench_gpu: no CUDA device: %s\n",
            cn_backend_unavailable_reason());
    return 1;
  }
  static const char *names[] = {"copy", "a+b", "a*b+c", "sin",
                                "sum",  "std", "argmax"};
  /* bytes each op must move at least */
  static const int moved[] = {2, 3, 4, 2, 1, 1, 1};
  cn_dtype dts[2] = {CN_FLOAT32, CN_FLOAT64};
  cn_event e0, e1;
  OK(cn_event_create(&e0, 1));
  OK(cn_event_create(&e1, 1));
  for (int d = 0; d < 2; d++) {
    cn_dtype dt = dts[d];
    OK(cn_set_backend("cpu"));
    cn_array h = NULL;
    OK(cn_linspace(&h, -3.0, 3.0, n, 1, dt));
    OK(cn_to_device(&A, h, 0));
    OK(cn_to_device(&B, h, 0));
    OK(cn_to_device(&C, h, 0));
    cn_array_release(h);
    OK(cn_empty_like(&D, A, CN_DTYPE_DEFAULT));
    for (g_which = 0; g_which < 7; g_which++)
      time_op(names[g_which], dt,
              (double)moved[g_which] * (double)n * (double)cn_dtype_itemsize(dt),
              iters, e0, e1);
    cn_array_release(A);
    cn_array_release(B);
    cn_array_release(C);
    cn_array_release(D);
    OK(cn_cuda_pool_free_all_blocks(-2));
  }
  /* FFTs: the input in A, bytes = input + output. */
  static const struct {
    const char *name;
    cn_dtype dt;
    int32_t ndim;
    int64_t shape[2];
    double bytes;
  } ffts[] = {{"fft_2^24", CN_COMPLEX64, 1, {1 << 24, 0}, 2.0 * 8 * (1 << 24)},
              {"rfft_2^26", CN_FLOAT32, 1, {1 << 26, 0}, 4.0 * 3 * (1 << 26)},
              {"fft2_4096^2", CN_COMPLEX64, 2, {4096, 4096},
               2.0 * 8 * 4096 * 4096}};
  for (int k = 0; k < 3; k++) {
    OK(cn_set_backend("cpu"));
    cn_array h = NULL, hf = NULL;
    int64_t total = ffts[k].shape[0] * (ffts[k].ndim > 1 ? ffts[k].shape[1] : 1);
    OK(cn_linspace(&h, -3.0, 3.0, total, 1, CN_FLOAT32));
    OK(cn_reshape(&hf, h, ffts[k].ndim, ffts[k].shape, CN_ORDER_C));
    cn_array hc = NULL;
    OK(cn_astype(&hc, hf, ffts[k].dt, 1));
    OK(cn_to_device(&A, hc, 0));
    cn_array_release(h);
    cn_array_release(hf);
    cn_array_release(hc);
    g_which = 7 + k;
    time_op(ffts[k].name, ffts[k].dt, ffts[k].bytes, iters, e0, e1);
    cn_array_release(A);
    OK(cn_cuda_pool_free_all_blocks(-2));
  }
  bench_matmul(e0, e1);
  cn_event_destroy(e0);
  cn_event_destroy(e1);
  return 0;
}
