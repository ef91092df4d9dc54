/* Batched matrix products on the CPU: CBLAS gemm for floating dtypes, a
 * blocked loop for bool and integers. Strided operands go to BLAS without a
 * copy whenever one of their dims has unit stride and the other a valid
 * leading dimension (row- or column-major, possibly a transposed view). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../linalg/descriptors.h"
#include "blas.h"
#include "../cpu.h"
#include "../cpu.h"

#define GEMM_S CN_CBLAS(sgemm)
#define GEMM_D CN_CBLAS(dgemm)
#define GEMM_C CN_CBLAS(cgemm)
#define GEMM_Z CN_CBLAS(zgemm)

void cn_cpu_linalg_fill(cn_backend_compute *t) {
  t->matmul = cn_cpu_matmul;
  t->lapack = cn_cpu_lapack;
}

/* How BLAS can read a rows x cols matrix with element strides (rs, cs):
 * col says column-major, ld is the leading dimension. False when neither
 * layout fits (or ld overflows BLAS's int). */
static bool blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs,
                        bool *col, int64_t *ld) {
  int64_t mr = rows > 1 ? rows : 1, mc = cols > 1 ? cols : 1;
  if ((cs == 1 || cols <= 1) && (rows <= 1 || rs >= mc)) {
    *col = false;
    *ld = rows <= 1 ? mc : rs;
  } else if ((rs == 1 || rows <= 1) && (cols <= 1 || cs >= mr)) {
    *col = true;
    *ld = cols <= 1 ? mr : cs;
  } else {
    return false;
  }
  return *ld <= INT_MAX;
}

/* Copies a strided matrix into packed row-major storage, conjugating
 * complex elements when conj. */
static void pack_rows(char *dst, const char *src, int64_t rows, int64_t cols,
                      int64_t rs, int64_t cs, int64_t isz, bool conj) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      char *d = dst + (i * cols + j) * isz;
      memcpy(d, src + (i * rs + j * cs) * isz, (size_t)isz);
      if (conj) {
        if (isz == 8) {
          float im;
          memcpy(&im, d + 4, 4);
          im = -im;
          memcpy(d + 4, &im, 4);
        } else {
          double im;
          memcpy(&im, d + 8, 8);
          im = -im;
          memcpy(d + 8, &im, 8);
        }
      }
    }
}

static void unpack_rows(char *dst, const char *src, int64_t rows, int64_t cols,
                        int64_t rs, int64_t cs, int64_t isz) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++)
      memcpy(dst + (i * rs + j * cs) * isz, src + (i * cols + j) * isz,
             (size_t)isz);
}

#define GEMV_S CN_CBLAS(sgemv)
#define GEMV_D CN_CBLAS(dgemv)
#define GEMV_C CN_CBLAS(cgemv)
#define GEMV_Z CN_CBLAS(zgemv)

/* C = A @ B with one output column (n == 1) or row (m == 1) through gemv:
 * gemm with a unit extent runs its blocked kernel on a matrix it could
 * stream once, several times slower than gemv on a matrix-vector product.
 * Layouts as gemm_blas's (blas_layout), so the vector's element stride is
 * its matrix's leading dimension or 1. */
static void gemv_blas(cn_dtype dt, int64_t m, int64_t n, int64_t k,
                      const char *A, bool acol, int64_t lda, const char *B,
                      bool bcol, int64_t ldb, char *C, bool ccol, int64_t ldc) {
  enum CBLAS_ORDER ord;
  enum CBLAS_TRANSPOSE tr;
  const char *M, *x;
  int rows, cols, ld, incx, incy;
  if (n == 1) { /* y(m) = A(m x k) x(k) */
    ord = acol ? CblasColMajor : CblasRowMajor;
    tr = CblasNoTrans;
    M = A, rows = (int)m, cols = (int)k, ld = (int)lda;
    x = B, incx = bcol ? 1 : (int)ldb;
    incy = ccol ? 1 : (int)ldc;
  } else { /* y(n) = B(k x n)^T x(k) */
    ord = bcol ? CblasColMajor : CblasRowMajor;
    tr = CblasTrans;
    M = B, rows = (int)k, cols = (int)n, ld = (int)ldb;
    x = A, incx = acol ? (int)lda : 1;
    incy = ccol ? (int)ldc : 1;
  }
  switch (dt) {
  case CN_FLOAT32:
    GEMV_S(ord, tr, rows, cols, 1.0f, (const float *)M, ld, (const float *)x,
           incx, 0.0f, (float *)C, incy);
    break;
  case CN_FLOAT64:
    GEMV_D(ord, tr, rows, cols, 1.0, (const double *)M, ld,
           (const double *)x, incx, 0.0, (double *)C, incy);
    break;
  case CN_COMPLEX64: {
    const float one[2] = {1, 0}, zero[2] = {0, 0};
    GEMV_C(ord, tr, rows, cols, one, M, ld, x, incx, zero, C, incy);
    break;
  }
  default: {
    const double one[2] = {1, 0}, zero[2] = {0, 0};
    GEMV_Z(ord, tr, rows, cols, one, M, ld, x, incx, zero, C, incy);
    break;
  }
  }
}

/* C = A @ B for one matrix through CBLAS; all pointers already offset. */
static void gemm_blas(cn_dtype dt, int64_t m, int64_t n, int64_t k,
                      const char *A, bool acol, int64_t lda, const char *B,
                      bool bcol, int64_t ldb, char *C, bool ccol, int64_t ldc) {
  if (m == 1 || n == 1) {
    gemv_blas(dt, m, n, k, A, acol, lda, B, bcol, ldb, C, ccol, ldc);
    return;
  }
  /* C's layout decides the CBLAS order; an operand stored the other way is
   * its own transpose in that order. */
  enum CBLAS_ORDER ord = ccol ? CblasColMajor : CblasRowMajor;
  enum CBLAS_TRANSPOSE ta = acol == ccol ? CblasNoTrans : CblasTrans;
  enum CBLAS_TRANSPOSE tb = bcol == ccol ? CblasNoTrans : CblasTrans;
  int im = (int)m, in = (int)n, ik = (int)k;
  switch (dt) {
  case CN_FLOAT32:
    GEMM_S(ord, ta, tb, im, in, ik, 1.0f, (const float *)A, (int)lda,
           (const float *)B, (int)ldb, 0.0f, (float *)C, (int)ldc);
    break;
  case CN_FLOAT64:
    GEMM_D(ord, ta, tb, im, in, ik, 1.0, (const double *)A, (int)lda,
           (const double *)B, (int)ldb, 0.0, (double *)C, (int)ldc);
    break;
  case CN_COMPLEX64: {
    const float one[2] = {1, 0}, zero[2] = {0, 0};
    GEMM_C(ord, ta, tb, im, in, ik, one, A, (int)lda, B, (int)ldb, zero, C,
           (int)ldc);
    break;
  }
  default: {
    const double one[2] = {1, 0}, zero[2] = {0, 0};
    GEMM_Z(ord, ta, tb, im, in, ik, one, A, (int)lda, B, (int)ldb, zero, C,
           (int)ldc);
    break;
  }
  }
}

/* C = A @ A^T for real A through syrk (half gemm's work, as NumPy's dot
 * does for a matrix times its own transpose), the lower triangle mirrored
 * from the upper so that C is exactly symmetric. C is symmetric, so its
 * row-major and column-major readings with ldc are the same matrix: A's
 * layout picks the CBLAS order. */
static void syrk_blas(cn_dtype dt, int64_t n, int64_t k, const char *A,
                      bool acol, int64_t lda, char *C, int64_t ldc) {
  enum CBLAS_ORDER ord = acol ? CblasColMajor : CblasRowMajor;
  if (dt == CN_FLOAT32)
    CN_CBLAS(ssyrk)(ord, CblasUpper, CblasNoTrans, (int)n, (int)k, 1.0f,
                    (const float *)A, (int)lda, 0.0f, (float *)C, (int)ldc);
  else
    CN_CBLAS(dsyrk)(ord, CblasUpper, CblasNoTrans, (int)n, (int)k, 1.0,
                    (const double *)A, (int)lda, 0.0, (double *)C, (int)ldc);
  int64_t isz = cn_itemsize(dt);
  /* element (i, j) in ord's reading */
  int64_t si = acol ? 1 : ldc, sj = acol ? ldc : 1;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = i + 1; j < n; j++)
      memcpy(C + (j * si + i * sj) * isz, C + (i * si + j * sj) * isz,
             (size_t)isz);
}

/* Whether b is a's transpose (same memory, swapped strides): a real
 * product that syrk computes. */
static bool is_self_transpose(const cn_gemm_desc *d, int64_t m, int64_t n,
                              int64_t k) {
  const cn_array_s *a = d->a, *b = d->b;
  int32_t nd = d->out->ndim;
  if (nd != 2 || m != n || b->shape[0] != k || a->data != b->data ||
      !(d->out->dtype == CN_FLOAT32 || d->out->dtype == CN_FLOAT64) ||
      a->dtype != d->out->dtype || b->dtype != d->out->dtype)
    return false;
  return a->strides[0] == b->strides[1] && a->strides[1] == b->strides[0];
}

/* Integer and bool products: blocked over k and n so a block of B stays in
 * cache; unsigned accumulation gives NumPy's wrap-around without signed
 * overflow. Strides in elements. */
#define CN_GEMM_BLOCK 64
#define CN_INT_GEMM(sfx, T, INNER)                                             \
  static void igemm_##sfx(int64_t m, int64_t n, int64_t k, const char *A_,     \
                          int64_t ars, int64_t acs, const char *B_,            \
                          int64_t brs, int64_t bcs, char *C_, int64_t crs,     \
                          int64_t ccs) {                                       \
    const T *A = (const T *)A_, *B = (const T *)B_;                            \
    T *C = (T *)C_;                                                            \
    for (int64_t i = 0; i < m; i++)                                            \
      for (int64_t j = 0; j < n; j++)                                          \
        C[i * crs + j * ccs] = 0;                                              \
    for (int64_t p0 = 0; p0 < k; p0 += CN_GEMM_BLOCK)                          \
      for (int64_t j0 = 0; j0 < n; j0 += CN_GEMM_BLOCK) {                      \
        int64_t p1 = p0 + CN_GEMM_BLOCK < k ? p0 + CN_GEMM_BLOCK : k;          \
        int64_t j1 = j0 + CN_GEMM_BLOCK < n ? j0 + CN_GEMM_BLOCK : n;          \
        for (int64_t i = 0; i < m; i++)                                        \
          for (int64_t p = p0; p < p1; p++) {                                  \
            T a = A[i * ars + p * acs];                                        \
            INNER(T)                                                           \
          }                                                                    \
      }                                                                        \
  }
#define CN_IGEMM_INNER_INT(T)                                                  \
  for (int64_t j = j0; j < j1; j++) {                                          \
    T *c = &C[i * crs + j * ccs];                                              \
    *c = (T)((uint64_t)*c + (uint64_t)a * (uint64_t)B[p * brs + j * bcs]);     \
  }
#define CN_IGEMM_INNER_BOOL(T)                                                 \
  if (a)                                                                       \
    for (int64_t j = j0; j < j1; j++)                                          \
      C[i * crs + j * ccs] |= B[p * brs + j * bcs];
/* The integer and bool dtypes, with the inner loop each one uses. */
#define CN_IGEMM_TYPES(X)                                                      \
  X(b, bool, CN_IGEMM_INNER_BOOL, CN_BOOL)                                     \
  X(i8, int8_t, CN_IGEMM_INNER_INT, CN_INT8)                                   \
  X(i16, int16_t, CN_IGEMM_INNER_INT, CN_INT16)                                \
  X(i32, int32_t, CN_IGEMM_INNER_INT, CN_INT32)                                \
  X(i64, int64_t, CN_IGEMM_INNER_INT, CN_INT64)                                \
  X(u8, uint8_t, CN_IGEMM_INNER_INT, CN_UINT8)                                 \
  X(u16, uint16_t, CN_IGEMM_INNER_INT, CN_UINT16)                              \
  X(u32, uint32_t, CN_IGEMM_INNER_INT, CN_UINT32)                              \
  X(u64, uint64_t, CN_IGEMM_INNER_INT, CN_UINT64)
#define CN_IGEMM_DEF(sfx, T, INNER, E) CN_INT_GEMM(sfx, T, INNER)
CN_IGEMM_TYPES(CN_IGEMM_DEF)

typedef void (*igemm_fn)(int64_t, int64_t, int64_t, const char *, int64_t,
                         int64_t, const char *, int64_t, int64_t, char *,
                         int64_t, int64_t);
static igemm_fn igemm_for(cn_dtype dt) {
#define CN_IGEMM_CASE(sfx, T, INNER, E)                                        \
  case E:                                                                      \
    return igemm_##sfx;
  switch ((int)dt) {
    CN_IGEMM_TYPES(CN_IGEMM_CASE)
  default:
    return NULL;
  }
}

cn_status cn_cpu_matmul(const cn_gemm_desc *d) {
  const cn_array_s *a = d->a, *b = d->b;
  cn_array_s *c = d->out;
  int32_t nd = c->ndim, nb = nd - 2;
  int64_t m = c->shape[nd - 2], n = c->shape[nd - 1], k = a->shape[nd - 1];
  cn_dtype dt = c->dtype;
  int64_t isz = cn_itemsize(dt);
  if (c->size == 0)
    return CN_OK;
  bool blas = cn_is_float(dt) || cn_is_complex(dt);
  if (blas && (m > INT_MAX || n > INT_MAX || k > INT_MAX))
    return cn_error(CN_ERR_VALUE,
                    "cn_matmul: matrix extents (%lld, %lld, %lld) exceed "
                    "BLAS's 32-bit limit",
                    (long long)m, (long long)n, (long long)k);
  int64_t ars = a->strides[nd - 2], acs = a->strides[nd - 1];
  int64_t brs = b->strides[nd - 2], bcs = b->strides[nd - 1];
  int64_t crs = c->strides[nd - 2], ccs = c->strides[nd - 1];
  bool acol = false, bcol = false, ccol = false;
  int64_t lda = 0, ldb = 0, ldc = 0;
  bool conj = d->conj_a && cn_is_complex(dt);
  bool pa = !blas_layout(m, k, ars, acs, &acol, &lda) || conj;
  bool pb = !blas_layout(k, n, brs, bcs, &bcol, &ldb);
  bool pc = !blas_layout(m, n, crs, ccs, &ccol, &ldc);
  char *ta = NULL, *tb = NULL, *tc = NULL;
  if (blas) {
    if (pa)
      ta = cn_malloc((size_t)(m * k * isz) + 1);
    if (pb)
      tb = cn_malloc((size_t)(k * n * isz) + 1);
    if (pc)
      tc = cn_malloc((size_t)(m * n * isz) + 1);
    if ((pa && !ta) || (pb && !tb) || (pc && !tc)) {
      free(ta);
      free(tb);
      free(tc);
      return cn_error(CN_ERR_MEMORY, "cn_matmul: out of memory for a packed "
                                     "operand");
    }
  }
  igemm_fn ig = blas ? NULL : igemm_for(dt);
  if (!blas && !ig)
    return cn_error(CN_ERR_TYPE, "cn_matmul: no loop for dtype %s",
                    cn_dtype_name(dt));
  int64_t batch = 1;
  for (int32_t i = 0; i < nb; i++)
    batch *= c->shape[i];
  /* Many small products (einsum's batched dots, vecdot, stacks of small
   * matrices) run a batch per thread, but only below the sizes at which
   * OpenBLAS threads a call itself (gemv: m*n < 2304*4, gemm: m*n*k <
   * 65536*4 with its default GEMM_MULTITHREAD_THRESHOLD): two threads
   * calling a threaded BLAS wait on its one pool (a 16x slowdown here).
   * Packing shares the scratch buffers, so it stays serial. */
  int nth = 1;
  const int64_t blas_serial = m == 1 || n == 1 ? 2304 * 4 : 65536 * 4;
  if (batch > 1 && !pa && !pb && !pc && m * n * k < blas_serial)
    nth = cn_cpu_threads_for(batch * m * n * (k > 0 ? k : 1));
#pragma omp parallel for num_threads(nth) schedule(static) if (nth > 1)
  for (int64_t t = 0; t < batch; t++) {
    int64_t idx[CN_MAX_DIMS] = {0};
    int64_t oa = 0, ob = 0, oc = 0, rem = t;
    for (int32_t i = nb - 1; i >= 0; i--) {
      idx[i] = rem % c->shape[i];
      rem /= c->shape[i];
      oa += idx[i] * a->strides[i];
      ob += idx[i] * b->strides[i];
      oc += idx[i] * c->strides[i];
    }
    const char *A = a->data + oa * isz, *B = b->data + ob * isz;
    char *C = c->data + oc * isz;
    bool acol_t = acol, bcol_t = bcol;
    int64_t lda_t = lda, ldb_t = ldb;
    if (!blas) {
      ig(m, n, k, A, ars, acs, B, brs, bcs, C, crs, ccs);
      continue;
    }
    if (k == 0) {
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
          memset(C + (i * crs + j * ccs) * isz, 0, (size_t)isz);
      continue;
    }
    if (!pa && !pc && is_self_transpose(d, m, n, k)) {
      syrk_blas(dt, n, k, A, acol, lda, C, ldc);
      continue;
    }
    if (pa) {
      pack_rows(ta, A, m, k, ars, acs, isz, conj);
      A = ta;
      acol_t = false;
      lda_t = k;
    }
    if (pb) {
      pack_rows(tb, B, k, n, brs, bcs, isz, false);
      B = tb;
      bcol_t = false;
      ldb_t = n;
    }
    gemm_blas(dt, m, n, k, A, acol_t, lda_t, B, bcol_t, ldb_t, pc ? tc : C,
              pc ? false : ccol, pc ? n : ldc);
    if (pc)
      unpack_rows(C, tc, m, n, crs, ccs, isz);
  }
  free(ta);
  free(tb);
  free(tc);
  return CN_OK;
}
