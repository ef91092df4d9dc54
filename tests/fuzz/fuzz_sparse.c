/* libFuzzer harness for sparse construction and validation
 * (cunumpy/sparse.h): CSR, CSC or COO matrices from hostile dimensions,
 * index arrays (int32, int64 or uint64 entries, base 0 or 1) and float64
 * values, then, for every matrix the engine accepts with dimensions up
 * to 2^20, each conversion,
 * canonicalisation and product, whose results must agree with the dense
 * form of the input (exactly: the values are small integers).
 * Input: format byte, index dtype byte, base byte, nrows, ncols (int64,
 * biased to the limits), entry counts, then the entries. */
#include "fuzz_input.h"

#include <math.h>

#define FZ_MAX_DENSE 4096 /* elements a dense check may allocate */

static cn_array fz_index_array(fz_in *in, int64_t n, cn_dtype dt) {
  int64_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
  FZ_CHECK(v != NULL, "harness out of memory");
  for (int64_t i = 0; i < n; i++)
    v[i] = fz_i64(in);
  cn_array raw = NULL, out = NULL;
  FZ_CHECK(cn_from_host(&raw, v, 0, n * 8, 1, &n, NULL, CN_INT64) == CN_OK,
           "cn_from_host");
  free(v);
  FZ_CHECK(cn_astype(&out, raw, dt, 1) == CN_OK, "cn_astype");
  cn_array_release(raw);
  return out;
}

/* The dense float64 form, or NULL when it would be too big. */
static double *fz_dense(cn_sparse s, int64_t m, int64_t n) {
  if (m == 0 || n == 0 || m > FZ_MAX_DENSE / n)
    return NULL;
  cn_array d = NULL, f = NULL;
  FZ_CHECK(cn_sparse_toarray(&d, s) == CN_OK, "toarray of an accepted matrix");
  FZ_CHECK(cn_astype(&f, d, CN_FLOAT64, 1) == CN_OK, "astype");
  double *v = malloc((size_t)(m * n) * sizeof *v);
  FZ_CHECK(v != NULL, "harness out of memory");
  FZ_CHECK(cn_copy_to_buffer(v, m * n * 8, f, CN_ORDER_C) == CN_OK, "copy");
  cn_array_release(d);
  cn_array_release(f);
  return v;
}

static void fz_same(const double *ref, cn_sparse s, int64_t m, int64_t n,
                    const char *what) {
  double *got = fz_dense(s, m, n);
  if (ref && got)
    for (int64_t i = 0; i < m * n; i++)
      FZ_CHECK(got[i] == ref[i] || (isnan(got[i]) && isnan(ref[i])), what);
  free(got);
}

static void fz_exercise(cn_sparse s) {
  int64_t m = -1, n = -1, nnz = -1;
  FZ_CHECK(cn_sparse_nrows(&m, s) == CN_OK && m >= 0, "nrows");
  FZ_CHECK(cn_sparse_ncols(&n, s) == CN_OK && n >= 0, "ncols");
  FZ_CHECK(cn_sparse_nnz(&nnz, s) == CN_OK && nnz >= 0, "nnz");
  double *ref = fz_dense(s, m, n);
  for (int32_t f = 0; f < 3; f++) {
    cn_sparse t = NULL;
    cn_status st = cn_sparse_asformat(&t, s, (cn_sparse_format)f);
    fz_check_error(st);
    if (st != CN_OK)
      continue;
    fz_same(ref, t, m, n, "conversion changed the values");
    cn_sparse u = NULL;
    st = cn_sparse_sum_duplicates(&u, t);
    fz_check_error(st);
    if (st == CN_OK) {
      int64_t k = -1;
      FZ_CHECK(cn_sparse_nnz(&k, u) == CN_OK && k <= nnz, "nnz grew");
      fz_same(ref, u, m, n, "sum_duplicates changed the values");
      cn_sparse_release(u);
    }
    st = cn_sparse_eliminate_zeros(&u, t);
    fz_check_error(st);
    if (st == CN_OK)
      cn_sparse_release(u);
    cn_sparse_release(t);
  }
  if (n > 0 && n <= FZ_MAX_DENSE && m <= (1 << 16)) {
    cn_array x = NULL, y = NULL;
    FZ_CHECK(cn_ones(&x, 1, &n, CN_FLOAT64, CN_ORDER_C) == CN_OK, "ones");
    cn_status st = cn_sparse_matmul_dense(&y, s, x);
    fz_check_error(st);
    if (st == CN_OK && ref) {
      double *yv = malloc((size_t)(m > 0 ? m : 1) * sizeof *yv);
      FZ_CHECK(yv != NULL, "harness out of memory");
      FZ_CHECK(cn_copy_to_buffer(yv, m * 8, y, CN_ORDER_C) == CN_OK, "copy");
      for (int64_t i = 0; i < m; i++) {
        double acc = 0;
        for (int64_t j = 0; j < n; j++)
          acc += ref[i * n + j];
        FZ_CHECK(yv[i] == acc, "SpMV differs from the dense row sums");
      }
      free(yv);
    }
    cn_array_release(x);
    cn_array_release(y);
  }
  if (m <= (1 << 12) && n <= (1 << 12)) {
    cn_sparse tr = NULL, g = NULL;
    FZ_CHECK(cn_sparse_transpose(&tr, s) == CN_OK, "transpose");
    cn_status st = cn_sparse_matmul(&g, s, tr);
    fz_check_error(st);
    cn_sparse_release(g);
    cn_sparse_release(tr);
  }
  free(ref);
}

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  fz_in in = {bytes, size};
  static const cn_dtype idts[] = {CN_INT32, CN_INT64, CN_UINT64, CN_INT8};
  int32_t fmt = fz_small(&in, 4); /* 3: an invalid format */
  cn_dtype it = idts[fz_small(&in, 4)];
  int32_t base = fz_small(&in, 3); /* 2: an invalid base */
  int64_t m = fz_i64(&in), n = fz_i64(&in);
  int64_t nnz = fz_small(&in, 64);
  int64_t nptr = fz_small(&in, 66);
  cn_array data = NULL, a = NULL, b = NULL;
  {
    double v[64];
    for (int64_t i = 0; i < nnz; i++)
      v[i] = (double)(int8_t)fz_u8(&in);
    FZ_CHECK(cn_from_host(&data, v, 0, nnz * 8, 1, &nnz, NULL, CN_FLOAT64) ==
                 CN_OK,
             "cn_from_host");
  }
  cn_sparse s = NULL;
  cn_status st;
  if (fmt == CN_SPARSE_COO) {
    a = fz_index_array(&in, nnz, it);
    b = fz_index_array(&in, nnz, it);
    st = cn_sparse_coo(&s, m, n, data, a, b, base);
  } else {
    a = fz_index_array(&in, nnz, it);
    b = fz_index_array(&in, nptr, it);
    st = cn_sparse_compressed(&s, (cn_sparse_format)fmt, m, n, data, a, b,
                              base);
  }
  fz_check_error(st);
  FZ_CHECK((st == CN_OK) == (s != NULL), "a handle only on success");
  /* conversions allocate an index pointer per row or column: exercise
   * matrices whose dimensions fit the fuzzer's memory limit */
  if (st == CN_OK && m <= (1 << 20) && n <= (1 << 20))
    fz_exercise(s);
  cn_sparse_release(s);
  cn_array_release(data);
  cn_array_release(a);
  cn_array_release(b);
  return 0;
}
