/* The sparse slots on the CPU: SpMV/SpMM (CSR and DIA), SpGEMM and
 * csr2csc.
 *
 * DIA SpMM splits rows evenly between threads; each thread takes its rows
 * in cache-sized blocks and walks the diagonals in offsets order over a
 * block, so the inner loop runs along one diagonal over contiguous data, x
 * and out (vectorised), out and x are read from memory once, and each
 * output sums its terms in the order scipy's dia_matvec does.
 *
 * SpMM splits rows between threads by nonzero count (each thread's first
 * row is found by binary search of indptr for its share of nnz), so a few
 * dense rows do not leave the other threads idle. SpGEMM is Gustavson's
 * two passes: the first counts each output row's distinct columns with a
 * per-thread marker row, the second accumulates into a per-thread dense
 * row and writes the columns sorted. Integer products wrap as scipy's. */
#pragma GCC optimize("wrapv")
#include <complex.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* The value types: (dtype, C type, is bool). Bool computes with or/and. */
#define CN_SP_VALUE_TYPES(X)                                                   \
  X(CN_BOOL, uint8_t, 1)                                                       \
  X(CN_INT8, int8_t, 0)                                                        \
  X(CN_INT16, int16_t, 0)                                                      \
  X(CN_INT32, int32_t, 0)                                                      \
  X(CN_INT64, int64_t, 0)                                                      \
  X(CN_UINT8, uint8_t, 0)                                                      \
  X(CN_UINT16, uint16_t, 0)                                                    \
  X(CN_UINT32, uint32_t, 0)                                                    \
  X(CN_UINT64, uint64_t, 0)                                                    \
  X(CN_FLOAT32, float, 0)                                                      \
  X(CN_FLOAT64, double, 0)                                                     \
  X(CN_COMPLEX64, float _Complex, 0)                                           \
  X(CN_COMPLEX128, double _Complex, 0)

#define CN_SP_MULADD(ISBOOL, T, acc, a, b)                                     \
  ((ISBOOL) ? (T)((acc) || ((a) && (b))) : (T)((acc) + (a) * (b)))

/* Minimum stored entries per thread before threads pay. */
#define CN_SP_NNZ_PER_THREAD 32768

static int sp_threads(int64_t work) {
  int nt = cn_cpu_threads_for(work);
  int64_t cap = work / CN_SP_NNZ_PER_THREAD;
  if (cap < 1)
    cap = 1;
  return nt > cap ? (int)cap : nt;
}

/* First row r with indptr[r] >= target (rows split by nonzero count). */
#define CN_SP_ROW_SPLIT(IT)                                                    \
  static int64_t row_split_##IT(const IT *p, int64_t nrows, int64_t target) { \
    int64_t lo = 0, hi = nrows;                                                \
    while (lo < hi) {                                                          \
      int64_t mid = lo + (hi - lo) / 2;                                        \
      if ((int64_t)p[mid] < target)                                            \
        lo = mid + 1;                                                          \
      else                                                                     \
        hi = mid;                                                              \
    }                                                                          \
    return lo;                                                                 \
  }
CN_SP_ROW_SPLIT(int32_t)
CN_SP_ROW_SPLIT(int64_t)

/* ---- SpMM ------------------------------------------------------------ */

#define CN_SP_SPMM(DT, T, ISBOOL, IT)                                          \
  static void spmm_##DT##_##IT(const cn_csr_operand *a, const char *xb,       \
                               int64_t sr, int64_t sc, int64_t k, T *o) {     \
    const IT *p = (const IT *)a->indptr->data;                                 \
    const IT *ix = (const IT *)a->indices->data;                               \
    const T *v = (const T *)a->data->data;                                     \
    const T *x = (const T *)xb;                                                \
    int64_t m = a->nrows, nnz = (int64_t)p[m];                                 \
    int nt = sp_threads(nnz + m);                                              \
    _Pragma("omp parallel num_threads(nt)") {                                  \
      int t = omp_get_thread_num(), tn = omp_get_num_threads();               \
      int64_t r0 = t == 0 ? 0 : row_split_##IT(p, m, nnz * t / tn);            \
      int64_t r1 = t == tn - 1 ? m : row_split_##IT(p, m, nnz * (t + 1) / tn); \
      if (k == 1) {                                                            \
        for (int64_t r = r0; r < r1; r++) {                                    \
          T acc = 0;                                                           \
          for (int64_t j = (int64_t)p[r]; j < (int64_t)p[r + 1]; j++)          \
            acc = CN_SP_MULADD(ISBOOL, T, acc, v[j], x[(int64_t)ix[j] * sr]);  \
          o[r] = acc;                                                          \
        }                                                                      \
      } else {                                                                 \
        for (int64_t r = r0; r < r1; r++) {                                    \
          T *orow = o + r * k;                                                 \
          for (int64_t c = 0; c < k; c++)                                      \
            orow[c] = 0;                                                       \
          for (int64_t j = (int64_t)p[r]; j < (int64_t)p[r + 1]; j++) {        \
            const T vj = v[j];                                                 \
            const T *xr = x + (int64_t)ix[j] * sr;                             \
            if (sc == 1) {                                                     \
              for (int64_t c = 0; c < k; c++)                                  \
                orow[c] = CN_SP_MULADD(ISBOOL, T, orow[c], vj, xr[c]);         \
            } else {                                                           \
              for (int64_t c = 0; c < k; c++)                                  \
                orow[c] = CN_SP_MULADD(ISBOOL, T, orow[c], vj, xr[c * sc]);    \
            }                                                                  \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  }
#define CN_SP_SPMM_BOTH(DT, T, ISBOOL)                                         \
  CN_SP_SPMM(DT, T, ISBOOL, int32_t) CN_SP_SPMM(DT, T, ISBOOL, int64_t)
CN_SP_VALUE_TYPES(CN_SP_SPMM_BOTH)

static cn_status cpu_spmm(const cn_csr_operand *a, const cn_array_s *x,
                          cn_array_s *out) {
  int64_t k = x->shape[1];
  int64_t sr = x->strides[0], sc = x->strides[1];
  bool i64 = a->indptr->dtype == CN_INT64;
  if (a->nrows == 0 || k == 0)
    return CN_OK;
  if (a->ncols == 0) {
    memset(out->data, 0, (size_t)(a->nrows * k * cn_itemsize(out->dtype)));
    return CN_OK;
  }
  switch (a->data->dtype) {
#define CN_SP_SPMM_CASE(DT, T, ISBOOL)                                         \
  case DT:                                                                     \
    if (i64)                                                                   \
      spmm_##DT##_int64_t(a, x->data, sr, sc, k, (T *)out->data);              \
    else                                                                       \
      spmm_##DT##_int32_t(a, x->data, sr, sc, k, (T *)out->data);              \
    return CN_OK;
    CN_SP_VALUE_TYPES(CN_SP_SPMM_CASE)
#undef CN_SP_SPMM_CASE
  default:
    return cn_error(CN_ERR_TYPE, "spmm: unsupported dtype %s",
                    cn_dtype_name(a->data->dtype));
  }
}

/* ---- DIA SpMM -------------------------------------------------------- */

/* Output elements per DIA block (32 KiB of float64). */
#define CN_SP_DIA_BLOCK 4096

/* Rows r of [r0, r1) whose column r + off lies in [0, lc). */
static void dia_rows(int64_t off, int64_t lc, int64_t r0, int64_t r1,
                     int64_t *lo, int64_t *hi) {
  *lo = off < 0 && -off > r0 ? -off : r0;
  /* r + off < lc, written without overflowing for huge shapes */
  if (off >= 0)
    *hi = lc - off < r1 ? lc - off : r1;
  else
    *hi = r1 + off <= lc ? r1 : lc - off;
}

#define CN_SP_DIA(DT, T, ISBOOL, IT)                                           \
  static void dia_##DT##_##IT(const cn_dia_operand *a, const char *xb,        \
                              int64_t sr, int64_t sc, int64_t k, T *o) {      \
    const IT *off = (const IT *)a->offsets->data;                              \
    const T *v = (const T *)a->data->data;                                     \
    const T *x = (const T *)xb;                                                \
    int64_t m = a->nrows, nd = a->data->shape[0], L = a->data->shape[1];       \
    int64_t lc = L < a->ncols ? L : a->ncols;                                  \
    int64_t span = m < lc ? m : lc;                                            \
    int nt = sp_threads(nd * span * k + m);                                    \
    /* rows per block: a block's out (and the x it reads) stay in cache  \
     * while every diagonal passes over it */                                  \
    int64_t blk = k < CN_SP_DIA_BLOCK / 16 ? CN_SP_DIA_BLOCK / k : 16;         \
    _Pragma("omp parallel num_threads(nt)") {                                  \
      int t = omp_get_thread_num(), tn = omp_get_num_threads();               \
      int64_t r0 = m / tn * t + (t < m % tn ? t : m % tn);                     \
      int64_t r1 = r0 + m / tn + (t < m % tn);                                 \
      for (int64_t b0 = r0; b0 < r1; b0 += blk) {                              \
      int64_t b1 = b0 + blk < r1 ? b0 + blk : r1;                              \
      for (int64_t r = b0 * k; r < b1 * k; r++)                                \
        o[r] = 0;                                                              \
      for (int64_t d = 0; d < nd; d++) {                                       \
        int64_t kk = (int64_t)off[d], lo, hi;                                  \
        if (kk >= lc || kk <= -m)                                              \
          continue;                                                            \
        dia_rows(kk, lc, b0, b1, &lo, &hi);                                    \
        const T *vd = v + d * L;                                               \
        if (k == 1 && sr == 1) {                                               \
          for (int64_t r = lo; r < hi; r++)                                    \
            o[r] = CN_SP_MULADD(ISBOOL, T, o[r], vd[r + kk], x[r + kk]);       \
        } else if (k == 1) {                                                   \
          for (int64_t r = lo; r < hi; r++)                                    \
            o[r] = CN_SP_MULADD(ISBOOL, T, o[r], vd[r + kk],                   \
                                x[(r + kk) * sr]);                             \
        } else {                                                               \
          for (int64_t r = lo; r < hi; r++) {                                  \
            const T vr = vd[r + kk];                                           \
            const T *xr = x + (r + kk) * sr;                                   \
            T *orow = o + r * k;                                               \
            if (sc == 1) {                                                     \
              for (int64_t c = 0; c < k; c++)                                  \
                orow[c] = CN_SP_MULADD(ISBOOL, T, orow[c], vr, xr[c]);         \
            } else {                                                           \
              for (int64_t c = 0; c < k; c++)                                  \
                orow[c] = CN_SP_MULADD(ISBOOL, T, orow[c], vr, xr[c * sc]);    \
            }                                                                  \
          }                                                                    \
        }                                                                      \
      }                                                                        \
      }                                                                        \
    }                                                                          \
  }
#define CN_SP_DIA_BOTH(DT, T, ISBOOL)                                          \
  CN_SP_DIA(DT, T, ISBOOL, int32_t) CN_SP_DIA(DT, T, ISBOOL, int64_t)
CN_SP_VALUE_TYPES(CN_SP_DIA_BOTH)

static cn_status cpu_spmm_dia(const cn_dia_operand *a, const cn_array_s *x,
                              cn_array_s *out) {
  int64_t k = x->shape[1];
  int64_t sr = x->strides[0], sc = x->strides[1];
  bool i64 = a->offsets->dtype == CN_INT64;
  if (a->nrows == 0 || k == 0)
    return CN_OK;
  switch (a->data->dtype) {
#define CN_SP_DIA_CASE(DT, T, ISBOOL)                                          \
  case DT:                                                                     \
    if (i64)                                                                   \
      dia_##DT##_int64_t(a, x->data, sr, sc, k, (T *)out->data);               \
    else                                                                       \
      dia_##DT##_int32_t(a, x->data, sr, sc, k, (T *)out->data);               \
    return CN_OK;
    CN_SP_VALUE_TYPES(CN_SP_DIA_CASE)
#undef CN_SP_DIA_CASE
  default:
    return cn_error(CN_ERR_TYPE, "spmm_dia: unsupported dtype %s",
                    cn_dtype_name(a->data->dtype));
  }
}

/* ---- SpGEMM ---------------------------------------------------------- */

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

/* Sorts a row's columns: insertion sort for the short rows SpGEMM mostly
 * makes (qsort's calls dominate there), qsort beyond. */
static void sort_cols(int64_t *c, int64_t n) {
  if (n > 48) {
    qsort(c, (size_t)n, sizeof *c, cmp_i64);
    return;
  }
  for (int64_t i = 1; i < n; i++) {
    int64_t v = c[i], j = i - 1;
    while (j >= 0 && c[j] > v) {
      c[j + 1] = c[j];
      j--;
    }
    c[j + 1] = v;
  }
}

/* Pass 1: the number of distinct columns of each output row into cnt[r]. */
#define CN_SP_GEMM_COUNT(IT)                                                   \
  static cn_status gemm_count_##IT(const cn_csr_operand *a,                   \
                                   const cn_csr_operand *b, int64_t *cnt,     \
                                   int nt) {                                   \
    const IT *ap = (const IT *)a->indptr->data;                                \
    const IT *ai = (const IT *)a->indices->data;                               \
    const IT *bp = (const IT *)b->indptr->data;                                \
    const IT *bi = (const IT *)b->indices->data;                               \
    int64_t m = a->nrows, n = b->ncols;                                        \
    int64_t *marks = (uint64_t)n > SIZE_MAX / 16 / (uint64_t)nt                \
                         ? NULL                                                \
                         : cn_malloc((size_t)nt * (size_t)n * sizeof *marks); \
    if (n > 0 && !marks)                                                       \
      return cn_error(CN_ERR_MEMORY, "sparse matmul: out of memory");          \
    for (int64_t i = 0; i < (int64_t)nt * n; i++)                              \
      marks[i] = -1;                                                           \
    _Pragma("omp parallel for num_threads(nt) schedule(dynamic, 256)")         \
    for (int64_t r = 0; r < m; r++) {                                          \
      int64_t *mk = marks + (int64_t)omp_get_thread_num() * n;                 \
      int64_t c = 0;                                                           \
      for (int64_t j = (int64_t)ap[r]; j < (int64_t)ap[r + 1]; j++) {          \
        int64_t br = (int64_t)ai[j];                                           \
        for (int64_t q = (int64_t)bp[br]; q < (int64_t)bp[br + 1]; q++) {      \
          int64_t col = (int64_t)bi[q];                                        \
          if (mk[col] != r) {                                                  \
            mk[col] = r;                                                       \
            c++;                                                               \
          }                                                                    \
        }                                                                      \
      }                                                                        \
      cnt[r] = c;                                                              \
    }                                                                          \
    free(marks);                                                               \
    return CN_OK;                                                              \
  }
CN_SP_GEMM_COUNT(int32_t)
CN_SP_GEMM_COUNT(int64_t)

/* Pass 2: each row's columns (sorted) and summed values. */
#define CN_SP_GEMM_FILL(DT, T, ISBOOL, IT)                                     \
  static cn_status gemm_fill_##DT##_##IT(                                      \
      const cn_csr_operand *a, const cn_csr_operand *b, const int64_t *op,    \
      int64_t *oi, T *ov, int nt) {                                            \
    const IT *ap = (const IT *)a->indptr->data;                                \
    const IT *ai = (const IT *)a->indices->data;                               \
    const T *av = (const T *)a->data->data;                                    \
    const IT *bp = (const IT *)b->indptr->data;                                \
    const IT *bi = (const IT *)b->indices->data;                               \
    const T *bv = (const T *)b->data->data;                                    \
    int64_t m = a->nrows, n = b->ncols;                                        \
    bool fits = (uint64_t)n <= SIZE_MAX / 16 / (uint64_t)nt;                   \
    int64_t *marks =                                                           \
        fits ? cn_malloc((size_t)nt * (size_t)n * sizeof *marks) : NULL;      \
    T *accs = fits ? cn_malloc((size_t)nt * (size_t)n * sizeof *accs) : NULL; \
    if (n > 0 && (!marks || !accs)) {                                          \
      free(marks);                                                             \
      free(accs);                                                              \
      return cn_error(CN_ERR_MEMORY, "sparse matmul: out of memory");          \
    }                                                                          \
    for (int64_t i = 0; i < (int64_t)nt * n; i++)                              \
      marks[i] = -1;                                                           \
    _Pragma("omp parallel for num_threads(nt) schedule(dynamic, 256)")         \
    for (int64_t r = 0; r < m; r++) {                                          \
      int64_t tid = omp_get_thread_num();                                      \
      int64_t *mk = marks + tid * n;                                           \
      T *acc = accs + tid * n;                                                 \
      int64_t *cols = oi + op[r];                                              \
      int64_t c = 0;                                                           \
      for (int64_t j = (int64_t)ap[r]; j < (int64_t)ap[r + 1]; j++) {          \
        int64_t br = (int64_t)ai[j];                                           \
        T aj = av[j];                                                          \
        for (int64_t q = (int64_t)bp[br]; q < (int64_t)bp[br + 1]; q++) {      \
          int64_t col = (int64_t)bi[q];                                        \
          if (mk[col] != r) {                                                  \
            mk[col] = r;                                                       \
            acc[col] = 0;                                                      \
            cols[c++] = col;                                                   \
          }                                                                    \
          acc[col] = CN_SP_MULADD(ISBOOL, T, acc[col], aj, bv[q]);             \
        }                                                                      \
      }                                                                        \
      sort_cols(cols, c);                                                      \
      for (int64_t q = 0; q < c; q++)                                          \
        ov[op[r] + q] = acc[cols[q]];                                          \
    }                                                                          \
    free(marks);                                                               \
    free(accs);                                                                \
    return CN_OK;                                                              \
  }
#define CN_SP_GEMM_FILL_BOTH(DT, T, ISBOOL)                                    \
  CN_SP_GEMM_FILL(DT, T, ISBOOL, int32_t)                                      \
  CN_SP_GEMM_FILL(DT, T, ISBOOL, int64_t)
CN_SP_VALUE_TYPES(CN_SP_GEMM_FILL_BOTH)

static cn_status new_host_1d(cn_array_s **out, cn_dtype dt, int64_t n) {
  return cn_array_new(out, cn_cpu_backend(), 0, dt, 1, &n, CN_ORDER_C);
}

static cn_status cpu_spgemm(const cn_csr_operand *a, const cn_csr_operand *b,
                            cn_array_s **indptr, cn_array_s **indices,
                            cn_array_s **data) {
  bool i64 = a->indptr->dtype == CN_INT64;
  int64_t m = a->nrows;
  int nt = sp_threads(a->indices->size + b->indices->size + m);
  cn_array_s *p = NULL, *ix = NULL, *v = NULL;
  cn_status st = new_host_1d(&p, CN_INT64, m + 1);
  if (st != CN_OK)
    return st;
  int64_t *op = (int64_t *)p->data;
  st = i64 ? gemm_count_int64_t(a, b, op + 1, nt)
           : gemm_count_int32_t(a, b, op + 1, nt);
  if (st != CN_OK)
    goto fail;
  op[0] = 0;
  for (int64_t r = 0; r < m; r++)
    op[r + 1] += op[r];
  st = new_host_1d(&ix, CN_INT64, op[m]);
  if (st == CN_OK)
    st = new_host_1d(&v, a->data->dtype, op[m]);
  if (st != CN_OK)
    goto fail;
  switch (a->data->dtype) {
#define CN_SP_GEMM_CASE(DT, T, ISBOOL)                                         \
  case DT:                                                                     \
    st = i64 ? gemm_fill_##DT##_int64_t(a, b, op, (int64_t *)ix->data,         \
                                        (T *)v->data, nt)                      \
             : gemm_fill_##DT##_int32_t(a, b, op, (int64_t *)ix->data,         \
                                        (T *)v->data, nt);                     \
    break;
    CN_SP_VALUE_TYPES(CN_SP_GEMM_CASE)
#undef CN_SP_GEMM_CASE
  default:
    st = cn_error(CN_ERR_TYPE, "spgemm: unsupported dtype %s",
                  cn_dtype_name(a->data->dtype));
  }
  if (st != CN_OK)
    goto fail;
  *indptr = p;
  *indices = ix;
  *data = v;
  return CN_OK;
fail:
  cn_array_release(p);
  cn_array_release(ix);
  cn_array_release(v);
  return st;
}

/* ---- csr2csc --------------------------------------------------------- */

/* Counting sort by column: stable, so entries of one column keep their
 * row order and come out sorted by row. Values move as raw bytes. */
#define CN_SP_TRANSPOSE(IT)                                                    \
  static void transpose_##IT(const cn_csr_operand *a, IT *tp, IT *ti,         \
                             char *tv, int64_t isz) {                          \
    const IT *p = (const IT *)a->indptr->data;                                 \
    const IT *ix = (const IT *)a->indices->data;                               \
    const char *v = a->data->data;                                             \
    int64_t m = a->nrows, n = a->ncols, nnz = (int64_t)p[m];                   \
    memset(tp, 0, (size_t)(n + 1) * sizeof *tp);                               \
    for (int64_t j = 0; j < nnz; j++)                                          \
      tp[(int64_t)ix[j] + 1]++;                                                \
    for (int64_t c = 0; c < n; c++)                                            \
      tp[c + 1] += tp[c];                                                      \
    for (int64_t r = 0; r < m; r++) {                                          \
      for (int64_t j = (int64_t)p[r]; j < (int64_t)p[r + 1]; j++) {            \
        int64_t d = (int64_t)tp[ix[j]]++;                                      \
        ti[d] = (IT)r;                                                         \
        switch (isz) {                                                         \
        case 1: tv[d] = v[j]; break;                                           \
        case 2: ((uint16_t *)tv)[d] = ((const uint16_t *)v)[j]; break;         \
        case 4: ((uint32_t *)tv)[d] = ((const uint32_t *)v)[j]; break;         \
        case 8: ((uint64_t *)tv)[d] = ((const uint64_t *)v)[j]; break;         \
        default: memcpy(tv + d * isz, v + j * isz, (size_t)isz);               \
        }                                                                      \
      }                                                                        \
    }                                                                          \
    for (int64_t c = n; c > 0; c--)                                            \
      tp[c] = tp[c - 1];                                                       \
    tp[0] = 0;                                                                 \
  }
CN_SP_TRANSPOSE(int32_t)
CN_SP_TRANSPOSE(int64_t)

static cn_status cpu_sparse_transpose(const cn_csr_operand *a,
                                      cn_array_s *indptr, cn_array_s *indices,
                                      cn_array_s *data) {
  int64_t isz = cn_itemsize(data->dtype);
  if (a->indptr->dtype == CN_INT64)
    transpose_int64_t(a, (int64_t *)indptr->data, (int64_t *)indices->data,
                      data->data, isz);
  else
    transpose_int32_t(a, (int32_t *)indptr->data, (int32_t *)indices->data,
                      data->data, isz);
  return CN_OK;
}

void cn_cpu_sparse_fill(cn_backend_compute *t) {
  t->spmm = cpu_spmm;
  t->spgemm = cpu_spgemm;
  t->sparse_transpose = cpu_sparse_transpose;
  t->spmm_dia = cpu_spmm_dia;
}
