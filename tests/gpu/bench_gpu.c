/* GPU benchmark of the CUDA backend (run by tests/gpu/run.sh, group by
 * group, alternating with tests/gpu/bench_cupy.py, which times the same
 * rows with CuPy). One table of rows (k_rows) and one timing helper: each
 * row's inputs are made on the device from a Philox generator, the op runs
 * twice (kernel compilation, plans, handles, pool warm-up), then `iters`
 * times between two CUDA events on the current stream. Prints
 *   RESULT cunumpy <op> <dtype> <ms> <rate> <unit>
 * where unit is GB/s (bytes the op must move at least: bandwidth-bound
 * rows, compared by run.sh with the copy row), GFLOP/s (matmul, solve,
 * cholesky) or '-' (no meaningful rate). Usage:
 *   bench_gpu [N] [iterations] [group]   # N: size of the elementwise rows
 *   bench_gpu --rows                     # the row list, no GPU needed
 * BENCH_SELFTEST=1 runs every row on the CPU backend with small sizes and
 * wall-clock timing, so the row code runs on a machine without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

typedef enum {
  OP_COPY, OP_ADD, OP_FMA, OP_SIN, OP_SUM, OP_STD, OP_ARGMAX, OP_FFT,
  OP_RFFT, OP_FFT2, OP_MATMUL, OP_SOLVE, OP_CHOLESKY, OP_SVD, OP_EIGH,
  OP_SORT, OP_ARGSORT, OP_UNIQUE, OP_NORMAL, OP_TAKE, OP_MASK, OP_MEDIAN
} op_kind;

/* What a row's inputs are: A (and B, C, D) in the row's dtype and shape. */
typedef enum {
  IN_VECTORS, /* A (B, C) random, D empty for copy: elementwise, sorting */
  IN_MATRIX,  /* A random (batch, m, m); B random (m) */
  IN_SPD,     /* A = X @ X^T, X random (m, 2m): positive definite */
  IN_GATHER,  /* A random (n), B random int64 indices (k) in [0, n) */
  IN_MASK,    /* A random (n), B = A < 0 (signbit): half of it */
  IN_NONE
} input_kind;

typedef struct {
  const char *group, *name;
  op_kind op;
  input_kind in;
  cn_dtype dt;
  int32_t ndim;
  int64_t shape[3]; /* 0 in shape[0]: N from the command line */
  int64_t k;        /* indices taken (IN_GATHER) */
  double bytes;     /* per element of the shape (or per index): GB/s rows */
  double flops;     /* times m^3 * batch: GFLOP/s rows */
  int iters;        /* 0: the command line's */
} bench_row;

#define E1(g, nm, op, dt, by)                                                  \
  {g, nm, op, IN_VECTORS, dt, 1, {0, 0, 0}, 0, by, 0, 0}
#define SQ(g, nm, op, in, dt, batch, m, fl, it)                                \
  {g, nm, op, in, dt, 3, {batch, m, m}, 0, 0, fl, it}
static const bench_row k_rows[] = {
    E1("elementwise", "copy", OP_COPY, CN_FLOAT32, 8),
    E1("elementwise", "a+b", OP_ADD, CN_FLOAT32, 12),
    E1("elementwise", "a*b+c", OP_FMA, CN_FLOAT32, 16),
    E1("elementwise", "sin", OP_SIN, CN_FLOAT32, 8),
    E1("elementwise", "sum", OP_SUM, CN_FLOAT32, 4),
    E1("elementwise", "std", OP_STD, CN_FLOAT32, 4),
    E1("elementwise", "argmax", OP_ARGMAX, CN_FLOAT32, 4),
    E1("elementwise", "copy", OP_COPY, CN_FLOAT64, 16),
    E1("elementwise", "a+b", OP_ADD, CN_FLOAT64, 24),
    E1("elementwise", "a*b+c", OP_FMA, CN_FLOAT64, 32),
    E1("elementwise", "sin", OP_SIN, CN_FLOAT64, 16),
    E1("elementwise", "sum", OP_SUM, CN_FLOAT64, 8),
    E1("elementwise", "std", OP_STD, CN_FLOAT64, 8),
    E1("elementwise", "argmax", OP_ARGMAX, CN_FLOAT64, 8),
    /* FFTs: bytes = input + output */
    {"fft", "fft_2^24", OP_FFT, IN_VECTORS, CN_COMPLEX64, 1, {1 << 24}, 0, 16, 0, 0},
    {"fft", "rfft_2^26", OP_RFFT, IN_VECTORS, CN_FLOAT32, 1, {1 << 26}, 0, 12, 0, 0},
    {"fft", "fft2_4096^2", OP_FFT2, IN_VECTORS, CN_COMPLEX64, 2, {4096, 4096}, 0, 16, 0, 0},
    /* matmul: 2 m^3 batch real multiply-adds, 4 real ones per complex one */
    SQ("matmul", "mm4096", OP_MATMUL, IN_MATRIX, CN_FLOAT32, 1, 4096, 2, 5),
    SQ("matmul", "mm4096", OP_MATMUL, IN_MATRIX, CN_FLOAT64, 1, 4096, 2, 5),
    SQ("matmul", "mm4096", OP_MATMUL, IN_MATRIX, CN_COMPLEX128, 1, 4096, 8, 5),
    SQ("matmul", "mm32x10000", OP_MATMUL, IN_MATRIX, CN_FLOAT32, 10000, 32, 2, 20),
    SQ("matmul", "mm32x10000", OP_MATMUL, IN_MATRIX, CN_FLOAT64, 10000, 32, 2, 20),
    SQ("matmul", "mm32x10000", OP_MATMUL, IN_MATRIX, CN_COMPLEX128, 10000, 32, 8, 20),
    /* LU's 2/3 m^3 and Cholesky's 1/3 m^3; the iterative SVD and eigh have
     * no fixed count */
    SQ("linalg", "solve4096", OP_SOLVE, IN_MATRIX, CN_FLOAT64, 1, 4096, 2.0 / 3, 3),
    SQ("linalg", "cholesky4096", OP_CHOLESKY, IN_SPD, CN_FLOAT64, 1, 4096, 1.0 / 3, 3),
    SQ("linalg", "svd1024", OP_SVD, IN_MATRIX, CN_FLOAT64, 1, 1024, 0, 2),
    SQ("linalg", "eigh2048", OP_EIGH, IN_SPD, CN_FLOAT64, 1, 2048, 0, 2),
    {"sorting", "sort_1e8", OP_SORT, IN_VECTORS, CN_FLOAT32, 1, {100000000}, 0, 0, 0, 3},
    {"sorting", "sort_1e8", OP_SORT, IN_VECTORS, CN_FLOAT64, 1, {100000000}, 0, 0, 0, 3},
    {"sorting", "sort_1e8", OP_SORT, IN_VECTORS, CN_INT64, 1, {100000000}, 0, 0, 0, 3},
    {"sorting", "argsort_1e8", OP_ARGSORT, IN_VECTORS, CN_FLOAT32, 1, {100000000}, 0, 0, 0, 3},
    {"sorting", "argsort_1e8", OP_ARGSORT, IN_VECTORS, CN_FLOAT64, 1, {100000000}, 0, 0, 0, 3},
    {"sorting", "argsort_1e8", OP_ARGSORT, IN_VECTORS, CN_INT64, 1, {100000000}, 0, 0, 0, 3},
    {"sorting", "unique_1e7", OP_UNIQUE, IN_VECTORS, CN_INT64, 1, {10000000}, 0, 0, 0, 5},
    {"sorting", "median_1e8", OP_MEDIAN, IN_VECTORS, CN_FLOAT32, 1, {100000000}, 0, 0, 0, 3},
    /* normal: one write; take: index read, gather, write; mask: a and the
     * mask read, the half selected written */
    {"random", "normal_1e8", OP_NORMAL, IN_NONE, CN_FLOAT32, 1, {100000000}, 0, 4, 0, 10},
    {"random", "normal_1e8", OP_NORMAL, IN_NONE, CN_FLOAT64, 1, {100000000}, 0, 8, 0, 10},
    {"indexing", "take_1e7_of_1e8", OP_TAKE, IN_GATHER, CN_FLOAT32, 1, {100000000}, 10000000, 16, 0, 10},
    {"indexing", "mask_1e8", OP_MASK, IN_MASK, CN_FLOAT32, 1, {100000000}, 0, 7, 0, 10},
};
#define NROWS ((int)(sizeof k_rows / sizeof k_rows[0]))

static int g_selftest;
static cn_array A, B, C, D;
static cn_rng g_rng;

static void release_inputs(void) {
  cn_array *all[] = {&A, &B, &C, &D};
  for (int i = 0; i < 4; i++) {
    cn_array_release(*all[i]);
    *all[i] = NULL;
  }
  if (!g_selftest) /* the next row's inputs may be larger: start clean */
    OK(cn_cuda_pool_free_all_blocks(-2));
}

static cn_array random_array(cn_dtype dt, int32_t ndim, const int64_t *sh) {
  cn_array r = NULL, t = NULL;
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= sh[i];
  if (dt == CN_INT64) /* about ten copies of each value (unique) */
    OK(cn_random_integers(&r, g_rng, 0, n / 10 + 1, 0, ndim, sh, dt));
  else if (dt == CN_COMPLEX64 || dt == CN_COMPLEX128) {
    OK(cn_random_normal(&t, g_rng, 0, 1, ndim, sh,
                        dt == CN_COMPLEX64 ? CN_FLOAT32 : CN_FLOAT64));
    OK(cn_astype(&r, t, dt, 1));
    cn_array_release(t);
  } else
    OK(cn_random_normal(&r, g_rng, 0, 1, ndim, sh, dt));
  return r;
}

/* The row's shape, N filled in; small in the self-test. */
static void row_shape(int64_t sh[3], const bench_row *r, int64_t n) {
  for (int i = 0; i < r->ndim; i++) {
    sh[i] = r->shape[i] ? r->shape[i] : n;
    if (g_selftest && sh[i] > (r->ndim == 1 ? 4096 : 48))
      sh[i] = r->ndim == 1 ? 4096 : 48;
  }
}

static void make_inputs(const bench_row *r, const int64_t *sh, int64_t k) {
  if (r->in == IN_VECTORS) {
    A = random_array(r->dt, r->ndim, sh);
    if (r->op == OP_ADD || r->op == OP_FMA) {
      B = random_array(r->dt, r->ndim, sh);
      C = random_array(r->dt, r->ndim, sh);
    }
    if (r->op == OP_COPY)
      OK(cn_empty_like(&D, A, CN_DTYPE_DEFAULT));
  } else if (r->in == IN_MATRIX) {
    A = random_array(r->dt, sh[0] > 1 ? 3 : 2, sh[0] > 1 ? sh : sh + 1);
    B = random_array(r->dt, 1, sh + 1);
  } else if (r->in == IN_SPD) {
    int64_t xs[2] = {sh[1], 2 * sh[1]};
    cn_array x = random_array(r->dt, 2, xs), xt = NULL;
    OK(cn_transpose(&xt, x));
    OK(cn_matmul(&A, x, xt, NULL));
    cn_array_release(xt);
    cn_array_release(x);
  } else if (r->in == IN_GATHER) {
    A = random_array(r->dt, 1, sh);
    OK(cn_random_integers(&B, g_rng, 0, sh[0], 0, 1, &k, CN_INT64));
  } else if (r->in == IN_MASK) {
    A = random_array(r->dt, 1, sh);
    OK(cn_signbit(&B, A, NULL));
  }
}

/* One run of row r; results are released at once (the pool reuses their
 * memory, as CuPy's does). */
static void run_op(const bench_row *r, const int64_t *sh) {
  cn_array o[3] = {NULL, NULL, NULL};
  switch (r->op) {
  case OP_COPY: OK(cn_assign(D, A)); break;
  case OP_ADD: OK(cn_add(&o[0], A, B, NULL)); break;
  case OP_FMA:
    OK(cn_multiply(&o[1], A, B, NULL));
    OK(cn_add(&o[0], o[1], C, NULL));
    break;
  case OP_SIN: OK(cn_sin(&o[0], A, NULL)); break;
  case OP_SUM:
    OK(cn_sum(&o[0], A, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    break;
  case OP_STD:
    OK(cn_std(&o[0], A, CN_ALL_AXES, NULL, 0, 0.0, CN_DTYPE_DEFAULT, NULL));
    break;
  case OP_ARGMAX: OK(cn_argmax(&o[0], A, CN_AXIS_NONE, 0, NULL)); break;
  case OP_FFT:
    OK(cn_fft(&o[0], A, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
    break;
  case OP_RFFT:
    OK(cn_rfft(&o[0], A, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
    break;
  case OP_FFT2:
    OK(cn_fft2(&o[0], A, 0, NULL, -1, NULL, CN_FFT_NORM_BACKWARD));
    break;
  case OP_MATMUL: OK(cn_matmul(&o[0], A, A, NULL)); break;
  case OP_SOLVE: OK(cn_linalg_solve(&o[0], A, B)); break;
  case OP_CHOLESKY: OK(cn_linalg_cholesky(&o[0], A, 0)); break;
  case OP_SVD: OK(cn_linalg_svd(&o[0], &o[1], &o[2], A, 0, 1)); break;
  case OP_EIGH: OK(cn_linalg_eigh(&o[0], &o[1], A, 0)); break;
  case OP_SORT: OK(cn_sort(&o[0], A, -1)); break;
  case OP_ARGSORT: OK(cn_argsort(&o[0], A, -1)); break;
  case OP_UNIQUE: OK(cn_unique(&o[0], NULL, NULL, NULL, A, 1)); break;
  case OP_NORMAL:
    OK(cn_random_normal(&o[0], g_rng, 0, 1, r->ndim, sh, r->dt));
    break;
  case OP_TAKE: OK(cn_take(&o[0], A, B, 0, CN_INDEX_RAISE, NULL)); break;
  case OP_MASK: OK(cn_mask_get(&o[0], A, B)); break;
  case OP_MEDIAN: OK(cn_median(&o[0], A, CN_ALL_AXES, NULL, 0)); break;
  }
  for (int i = 0; i < 3; i++)
    cn_array_release(o[i]);
}

static double now_ms(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC); /* C11; the self-test's coarse timing */
  return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

/* The timing helper: two warm-up runs, then iters runs between events
 * (wall clock in the self-test); milliseconds per run. */
static double time_row(const bench_row *r, const int64_t *sh, int iters) {
  static cn_event e0, e1;
  run_op(r, sh);
  run_op(r, sh);
  if (g_selftest) {
    double t0 = now_ms();
    for (int i = 0; i < iters; i++)
      run_op(r, sh);
    return (now_ms() - t0) / iters;
  }
  if (!e0) {
    OK(cn_event_create(&e0, 1));
    OK(cn_event_create(&e1, 1));
  }
  OK(cn_cuda_device_synchronize());
  OK(cn_event_record(e0, NULL));
  for (int i = 0; i < iters; i++)
    run_op(r, sh);
  OK(cn_event_record(e1, NULL));
  OK(cn_event_synchronize(e1));
  double ms = 0;
  OK(cn_event_elapsed_ms(&ms, e0, e1));
  return ms / iters;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--rows")) {
    for (int i = 0; i < NROWS; i++)
      printf("ROW %s %s %s %s\n", k_rows[i].group, k_rows[i].name,
             cn_dtype_name(k_rows[i].dt),
             k_rows[i].bytes ? "GB/s" : k_rows[i].flops ? "GFLOP/s" : "-");
    return 0;
  }
  int64_t n = argc > 1 ? atoll(argv[1]) : 100000000;
  int iters = argc > 2 ? atoi(argv[2]) : 20;
  const char *group = argc > 3 ? argv[3] : "all";
  const char *self = getenv("BENCH_SELFTEST");
  g_selftest = self && self[0] == '1';
  if (!g_selftest && cn_device_count() <= 0) {
    fprintf(stderr, "bench_gpu: no CUDA device: %s\n",
            cn_backend_unavailable_reason());
    return 1;
  }
  OK(cn_set_backend(g_selftest ? "cpu" : "cuda")); /* where inputs are made */
  OK(cn_rng_create(&g_rng, 20261202));
  int ran = 0;
  for (int i = 0; i < NROWS; i++) {
    const bench_row *r = &k_rows[i];
    if (strcmp(group, "all") && strcmp(group, r->group))
      continue;
    int64_t sh[3] = {1, 1, 1}, k = g_selftest && r->k > 1000 ? 1000 : r->k;
    row_shape(sh, r, n);
    make_inputs(r, sh, k);
    double ms = time_row(r, sh, r->iters ? r->iters : iters), rate = 0;
    int64_t count = 1;
    for (int d = 0; d < r->ndim; d++)
      count *= sh[d];
    if (r->bytes)
      rate = r->bytes * (double)(r->k ? k : count) / (ms * 1e6);
    else if (r->flops)
      rate = r->flops * (double)sh[1] * (double)sh[1] * (double)sh[2] *
             (double)sh[0] / (ms * 1e6);
    printf("RESULT cunumpy %s %s %.4f %.1f %s\n", r->name,
           cn_dtype_name(r->dt), ms, rate,
           r->bytes ? "GB/s" : r->flops ? "GFLOP/s" : "-");
    fflush(stdout);
    release_inputs();
    ran++;
  }
  cn_rng_release(g_rng);
  if (!ran) {
    fprintf(stderr, "bench_gpu: no row in group '%s'\n", group);
    return 1;
  }
  return 0;
}
