/* Sparse matrices (cunumpy/sparse.h): the handle, validation,
 * construction, conversions and canonical form on the host, and the
 * products and CSR <-> CSC through the sparse slots of the backend the
 * matrix lives on (the CPU, or a CUDA device after cn_sparse_to_device).
 * The steps that loop over the components here (COO, merging duplicates,
 * toarray, eliminate_zeros, the solvers) need a host matrix and say so
 * with CN_ERR_DEVICE.
 *
 * Canonicalisation reuses the stable csr2csc slot: transposing twice
 * sorts every row (a counting sort by column, then by row), after which
 * duplicates are neighbours and one merge pass sums them. */
#include <stdlib.h>
#include <string.h>

#include "float16_bits.h"
#include "sparse_internal.h"

static const char *fmt_name(int32_t f) {
  return f == CN_SPARSE_CSR   ? "csr"
         : f == CN_SPARSE_CSC ? "csc"
         : f == CN_SPARSE_COO ? "coo"
                              : "dia";
}

/* ---- small host helpers --------------------------------------------- */

static cn_status host_vec(cn_array_s **out, cn_dtype dt, int64_t n) {
  return cn_array_new(out, cn_cpu_backend(), 0, dt, 1, &n, CN_ORDER_C);
}

/* A 1-d array of n elements of dt where proto lives (backend, device). */
static cn_status like_vec(cn_array_s **out, const cn_array_s *proto,
                          cn_dtype dt, int64_t n) {
  return cn_array_new(out, cn_backend_of(proto), proto->buf->device_id, dt, 1,
                      &n, CN_ORDER_C);
}

static bool on_host(const struct cn_sparse_s *s) {
  return cn_backend_of(s->data)->device_type == CN_DEVICE_CPU;
}

/* CN_ERR_DEVICE unless s is in host memory, for the steps that read its
 * components on the host. */
static cn_status require_host(const struct cn_sparse_s *s, const char *fn) {
  if (on_host(s))
    return CN_OK;
  return cn_error(CN_ERR_DEVICE,
                  "%s: this step runs on the host and the matrix is on a "
                  "CUDA device (cn_sparse_to_host first)",
                  fn);
}

static inline int64_t ix_get(const cn_array_s *a, int64_t i) {
  return a->dtype == CN_INT64 ? ((const int64_t *)a->data)[i]
                              : (int64_t)((const int32_t *)a->data)[i];
}
static inline void ix_set(cn_array_s *a, int64_t i, int64_t v) {
  if (a->dtype == CN_INT64)
    ((int64_t *)a->data)[i] = v;
  else
    ((int32_t *)a->data)[i] = (int32_t)v;
}

/* The index dtype for a matrix of these dimensions and nonzero count. */
static cn_dtype index_dtype_for(int64_t nrows, int64_t ncols, int64_t nnz) {
  return (nrows <= INT32_MAX && ncols <= INT32_MAX && nnz <= INT32_MAX)
             ? CN_INT32
             : CN_INT64;
}

/* float16 values computed in float32, as NumPy and the CPU backend do. */
static float f16_load(const void *v) {
  uint16_t h;
  memcpy(&h, v, sizeof h);
  uint32_t u = cn_f16_bits_to_f32_bits(h);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static void f16_store(void *v, float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  uint16_t h = cn_f32_bits_to_f16_bits(u);
  memcpy(v, &h, sizeof h);
}

/* acc += v in dtype dt (bool: or); integers wrap. */
static void value_add(cn_dtype dt, void *acc, const void *v) {
  switch (dt) {
  case CN_FLOAT16: f16_store(acc, f16_load(acc) + f16_load(v)); break;
  case CN_BOOL: *(uint8_t *)acc = (uint8_t)(*(uint8_t *)acc | *(const uint8_t *)v); break;
#define ADD_INT(DT, T, U)                                                      \
  case DT:                                                                     \
    *(T *)acc = (T)((U) * (T *)acc + (U) * (const T *)v);                      \
    break;
    ADD_INT(CN_INT8, int8_t, uint8_t)
    ADD_INT(CN_INT16, int16_t, uint16_t)
    ADD_INT(CN_INT32, int32_t, uint32_t)
    ADD_INT(CN_INT64, int64_t, uint64_t)
    ADD_INT(CN_UINT8, uint8_t, uint8_t)
    ADD_INT(CN_UINT16, uint16_t, uint16_t)
    ADD_INT(CN_UINT32, uint32_t, uint32_t)
    ADD_INT(CN_UINT64, uint64_t, uint64_t)
#undef ADD_INT
  case CN_FLOAT32: *(float *)acc += *(const float *)v; break;
  case CN_FLOAT64: *(double *)acc += *(const double *)v; break;
  case CN_COMPLEX64: {
    float *x = acc;
    const float *y = v;
    x[0] += y[0];
    x[1] += y[1];
    break;
  }
  case CN_COMPLEX128: {
    double *x = acc;
    const double *y = v;
    x[0] += y[0];
    x[1] += y[1];
    break;
  }
  default: break;
  }
}

/* True when the value is zero (-0.0 and complex zeros included). */
static bool value_is_zero(cn_dtype dt, const void *v) {
  switch (dt) {
  case CN_FLOAT16: return f16_load(v) == 0.0f;
  case CN_FLOAT32: return *(const float *)v == 0.0f;
  case CN_FLOAT64: return *(const double *)v == 0.0;
  case CN_COMPLEX64:
    return ((const float *)v)[0] == 0.0f && ((const float *)v)[1] == 0.0f;
  case CN_COMPLEX128:
    return ((const double *)v)[0] == 0.0 && ((const double *)v)[1] == 0.0;
  default: {
    const unsigned char *b = v;
    for (int64_t i = 0; i < cn_itemsize(dt); i++)
      if (b[i])
        return false;
    return true;
  }
  }
}

/* ---- the handle ------------------------------------------------------ */

/* The columns [lo, hi) diagonal k stores in an nrows-row matrix whose
 * data covers columns [0, lc): [max(k, 0), min(nrows + k, lc)). False
 * when empty. */
static bool dia_cols(int64_t k, int64_t nrows, int64_t lc, int64_t *lo,
                     int64_t *hi) {
  if (k >= lc || k <= -nrows)
    return false;
  *lo = k > 0 ? k : 0;
  /* min(nrows + k, lc) without overflowing nrows + k */
  *hi = k >= 0 ? (nrows < lc - k ? nrows + k : lc)
               : (nrows + k < lc ? nrows + k : lc);
  return *hi > *lo;
}

/* scipy's dia nnz: the positions of data (n_diags x L) inside the matrix. */
static int64_t dia_nnz(int64_t nrows, int64_t ncols, const cn_array_s *off,
                       const cn_array_s *data) {
  int64_t L = data->shape[1], lc = L < ncols ? L : ncols, total = 0;
  for (int64_t d = 0; d < off->size; d++) {
    int64_t lo, hi;
    if (dia_cols(ix_get(off, d), nrows, lc, &lo, &hi))
      total += hi - lo;
  }
  return total;
}

/* Takes over the references data, a and b (released on failure too). */
static cn_status sp_make(cn_sparse *out, int32_t format, int64_t nrows,
                         int64_t ncols, cn_array_s *data, cn_array_s *a,
                         cn_array_s *b, bool sorted, bool canonical) {
  struct cn_sparse_s *s = cn_malloc(sizeof *s);
  if (!s) {
    cn_array_release(data);
    cn_array_release(a);
    cn_array_release(b);
    return cn_error(CN_ERR_MEMORY, "sparse matrix: out of memory");
  }
  s->magic = CN_SPARSE_MAGIC;
  atomic_init(&s->refcount, 1);
  s->format = format;
  s->nrows = nrows;
  s->ncols = ncols;
  s->nnz = format == CN_SPARSE_DIA ? dia_nnz(nrows, ncols, a, data)
                                   : data->size;
  s->data = data;
  s->a = a;
  s->b = b;
  s->sorted = sorted || canonical;
  s->canonical = canonical;
  *out = s;
  return CN_OK;
}

cn_status cn_sparse_retain(cn_sparse s) {
  CHECK_SPARSE(s, "cn_sparse_retain", "s");
  atomic_fetch_add(&s->refcount, 1);
  return CN_OK;
}

void cn_sparse_release(cn_sparse s) {
  if (!s || s->magic != CN_SPARSE_MAGIC)
    return;
  if (atomic_fetch_sub(&s->refcount, 1) != 1)
    return;
  s->magic = CN_SPARSE_DEAD;
  cn_array_release(s->data);
  cn_array_release(s->a);
  cn_array_release(s->b);
  free(s);
}

static inline int64_t nmajor(const struct cn_sparse_s *s) {
  return s->format == CN_SPARSE_CSC ? s->ncols : s->nrows;
}
static inline int64_t nminor(const struct cn_sparse_s *s) {
  return s->format == CN_SPARSE_CSC ? s->nrows : s->ncols;
}

/* The CSR view of a compressed matrix: CSR itself, or for CSC the CSR of
 * its transpose. */
static cn_csr_operand operand_of(const struct cn_sparse_s *s) {
  cn_csr_operand o = {nmajor(s), nminor(s), s->a, s->b, s->data};
  return o;
}

/* ---- input arrays ---------------------------------------------------- */

static cn_status check_host_1d(const cn_array_s *x, const char *fn,
                               const char *name) {
  CN_CHECK_ARRAY(x, fn, name);
  if (x->ndim != 1)
    return cn_error(CN_ERR_SHAPE, "%s: '%s' must be 1-d, not %d-d", fn, name,
                    (int)x->ndim);
  if (cn_backend_of(x)->device_type != CN_DEVICE_CPU)
    return cn_error(CN_ERR_DEVICE,
                    "%s: '%s' must be on the CPU (sparse matrices are held "
                    "in host memory)",
                    fn, name);
  return CN_OK;
}

/* A C-contiguous copy of x (its shape) in dtype dt where x lives (a new
 * reference to x when it already is one). */
static cn_status contiguous_as(cn_array_s **out, cn_array_s *x, cn_dtype dt) {
  if (x->dtype == dt && cn_array_is_c_contig(x)) {
    cn_array_retain(x);
    *out = x;
    return CN_OK;
  }
  cn_array_s *c = NULL;
  cn_status st = cn_array_new(&c, cn_backend_of(x), x->buf->device_id, dt,
                              x->ndim, x->shape, CN_ORDER_C);
  if (st == CN_OK && x->size > 0)
    st = cn_backend_of(x)->compute->assign(c, x);
  if (st != CN_OK) {
    cn_array_release(c);
    return st;
  }
  *out = c;
  return CN_OK;
}

/* The integer array x as C-contiguous dtype dt with base subtracted (a new
 * reference to x when nothing changes); range checks are the caller's. */
static cn_status index_input(cn_array_s **out, cn_array_s *x, cn_dtype dt,
                             int32_t base, const char *fn, const char *name) {
  if (!cn_is_integer(x->dtype))
    return cn_error(CN_ERR_TYPE, "%s: '%s' must have an integer dtype, not %s",
                    fn, name, cn_dtype_name(x->dtype));
  if (base == 0 && x->dtype == dt && cn_array_is_c_contig(x)) {
    cn_array_retain(x);
    *out = x;
    return CN_OK;
  }
  cn_array_s *w = NULL, *c = NULL;
  cn_status st = host_vec(&w, CN_INT64, x->size);
  if (st == CN_OK && x->size > 0)
    st = cn_cpu_backend()->compute->assign(w, x);
  if (st != CN_OK) {
    cn_array_release(w);
    return st;
  }
  int64_t *v = (int64_t *)w->data;
  if (x->dtype == CN_UINT64) {
    for (int64_t i = 0; i < x->size; i++)
      if (v[i] < 0) {
        cn_array_release(w);
        return cn_error(CN_ERR_VALUE, "%s: '%s'[%lld] is too large", fn, name,
                        (long long)i);
      }
  }
  for (int64_t i = 0; i < x->size; i++) {
    if (v[i] < INT64_MIN + base) {
      cn_array_release(w);
      return cn_error(CN_ERR_VALUE, "%s: '%s'[%lld] = %lld is below the index "
                      "base %d", fn, name, (long long)i, (long long)v[i],
                      (int)base);
    }
    v[i] -= base;
  }
  if (dt == CN_INT64) {
    *out = w;
    return CN_OK;
  }
  st = host_vec(&c, dt, x->size);
  if (st != CN_OK) {
    cn_array_release(w);
    return st;
  }
  for (int64_t i = 0; i < x->size; i++) {
    /* out-of-range values are clamped so validation still rejects them */
    int64_t e = v[i];
    ((int32_t *)c->data)[i] =
        e > INT32_MAX ? INT32_MAX : e < INT32_MIN ? INT32_MIN : (int32_t)e;
  }
  cn_array_release(w);
  *out = c;
  return CN_OK;
}

/* The index dtype the caller's arrays keep, or the one made for them. */
static cn_dtype choose_index_dtype(const cn_array_s *x, const cn_array_s *y,
                                   int64_t nrows, int64_t ncols, int64_t nnz) {
  cn_dtype fit = index_dtype_for(nrows, ncols, nnz);
  if (x->dtype == y->dtype && (x->dtype == CN_INT64 ||
                               (x->dtype == CN_INT32 && fit == CN_INT32)))
    return x->dtype;
  return fit;
}

static cn_status check_dims(int64_t nrows, int64_t ncols, const char *fn) {
  if (nrows < 0 || ncols < 0)
    return cn_error(CN_ERR_VALUE, "%s: dimensions must be >= 0, not (%lld, "
                    "%lld)", fn, (long long)nrows, (long long)ncols);
  /* an index pointer of n + 1 entries must be representable */
  if (nrows == INT64_MAX || ncols == INT64_MAX)
    return cn_error(CN_ERR_VALUE, "%s: dimension %lld is too large", fn,
                    (long long)INT64_MAX);
  return CN_OK;
}

static cn_status check_base(int32_t base, const char *fn) {
  if (base != 0 && base != 1)
    return cn_error(CN_ERR_VALUE, "%s: index_base must be 0 or 1, not %d", fn,
                    (int)base);
  return CN_OK;
}

/* ---- construction ---------------------------------------------------- */

cn_status cn_sparse_compressed(cn_sparse *out, cn_sparse_format format,
                               int64_t nrows, int64_t ncols, cn_array data,
                               cn_array indices, cn_array indptr,
                               int32_t index_base) {
  static const char fn[] = "cn_sparse_compressed";
  CN_CHECK_OUT(out, fn);
  cn_status st;
  if (format != CN_SPARSE_CSR && format != CN_SPARSE_CSC)
    return cn_error(CN_ERR_VALUE, "%s: format must be CSR or CSC, not %d", fn,
                    (int)format);
  if ((st = check_dims(nrows, ncols, fn)) != CN_OK ||
      (st = check_base(index_base, fn)) != CN_OK ||
      (st = check_host_1d(data, fn, "data")) != CN_OK ||
      (st = check_host_1d(indices, fn, "indices")) != CN_OK ||
      (st = check_host_1d(indptr, fn, "indptr")) != CN_OK)
    return st;
  int64_t nmaj = format == CN_SPARSE_CSR ? nrows : ncols;
  int64_t nmin = format == CN_SPARSE_CSR ? ncols : nrows;
  if (indptr->size != nmaj + 1)
    return cn_error(CN_ERR_VALUE, "%s: indptr has length %lld, expected %lld "
                    "(%s + 1)", fn, (long long)indptr->size,
                    (long long)(nmaj + 1),
                    format == CN_SPARSE_CSR ? "rows" : "columns");
  if (indices->size != data->size)
    return cn_error(CN_ERR_VALUE, "%s: indices (%lld) and data (%lld) differ "
                    "in length", fn, (long long)indices->size,
                    (long long)data->size);
  cn_dtype it = choose_index_dtype(indices, indptr, nrows, ncols, data->size);
  cn_array_s *p = NULL, *ix = NULL, *d = NULL;
  if ((st = index_input(&p, indptr, it, index_base, fn, "indptr")) != CN_OK ||
      (st = index_input(&ix, indices, it, index_base, fn, "indices")) != CN_OK)
    goto fail;
  if (ix_get(p, 0) != 0) {
    st = cn_error(CN_ERR_VALUE, "%s: indptr must start at %d, not %lld", fn,
                  (int)index_base, (long long)(ix_get(p, 0) + index_base));
    goto fail;
  }
  bool sorted = true, canonical = true;
  for (int64_t r = 0; r < nmaj; r++) {
    int64_t lo = ix_get(p, r), hi = ix_get(p, r + 1);
    if (hi < lo) {
      st = cn_error(CN_ERR_VALUE, "%s: indptr decreases at %lld (%lld > %lld)",
                    fn, (long long)r, (long long)(lo + index_base),
                    (long long)(hi + index_base));
      goto fail;
    }
    if (hi > indices->size) {
      st = cn_error(CN_ERR_VALUE, "%s: indptr[%lld] = %lld is past the %lld "
                    "stored entries", fn, (long long)(r + 1),
                    (long long)(hi + index_base), (long long)indices->size);
      goto fail;
    }
    for (int64_t j = lo; j < hi; j++) {
      int64_t c = ix_get(ix, j);
      if (c < 0 || c >= nmin) {
        st = cn_error(CN_ERR_VALUE, "%s: indices[%lld] = %lld is out of range "
                      "[%d, %lld)", fn, (long long)j,
                      (long long)(c + index_base), (int)index_base,
                      (long long)(nmin + index_base));
        goto fail;
      }
      if (j > lo) {
        int64_t prev = ix_get(ix, j - 1);
        sorted = sorted && prev <= c;
        canonical = canonical && prev < c;
      }
    }
  }
  if (ix_get(p, nmaj) != indices->size) {
    st = cn_error(CN_ERR_VALUE, "%s: indptr ends at %lld but there are %lld "
                  "stored entries", fn,
                  (long long)(ix_get(p, nmaj) + index_base),
                  (long long)indices->size);
    goto fail;
  }
  if ((st = contiguous_as(&d, data, data->dtype)) != CN_OK)
    goto fail;
  return sp_make(out, format, nrows, ncols, d, p, ix, sorted, canonical);
fail:
  cn_array_release(p);
  cn_array_release(ix);
  cn_array_release(d);
  return st;
}

cn_status cn_sparse_coo(cn_sparse *out, int64_t nrows, int64_t ncols,
                        cn_array data, cn_array row, cn_array col,
                        int32_t index_base) {
  static const char fn[] = "cn_sparse_coo";
  CN_CHECK_OUT(out, fn);
  cn_status st;
  if ((st = check_dims(nrows, ncols, fn)) != CN_OK ||
      (st = check_base(index_base, fn)) != CN_OK ||
      (st = check_host_1d(data, fn, "data")) != CN_OK ||
      (st = check_host_1d(row, fn, "row")) != CN_OK ||
      (st = check_host_1d(col, fn, "col")) != CN_OK)
    return st;
  if (row->size != data->size || col->size != data->size)
    return cn_error(CN_ERR_VALUE, "%s: row (%lld), col (%lld) and data (%lld) "
                    "differ in length", fn, (long long)row->size,
                    (long long)col->size, (long long)data->size);
  cn_dtype it = choose_index_dtype(row, col, nrows, ncols, data->size);
  cn_array_s *r = NULL, *c = NULL, *d = NULL;
  if ((st = index_input(&r, row, it, index_base, fn, "row")) != CN_OK ||
      (st = index_input(&c, col, it, index_base, fn, "col")) != CN_OK)
    goto fail;
  bool canonical = true;
  for (int64_t j = 0; j < data->size; j++) {
    int64_t ri = ix_get(r, j), ci = ix_get(c, j);
    if (ri < 0 || ri >= nrows || ci < 0 || ci >= ncols) {
      bool bad_row = ri < 0 || ri >= nrows;
      st = cn_error(CN_ERR_VALUE, "%s: %s[%lld] = %lld is out of range [%d, "
                    "%lld)", fn, bad_row ? "row" : "col", (long long)j,
                    (long long)((bad_row ? ri : ci) + index_base),
                    (int)index_base,
                    (long long)((bad_row ? nrows : ncols) + index_base));
      goto fail;
    }
    if (j > 0) {
      int64_t pr = ix_get(r, j - 1), pc = ix_get(c, j - 1);
      canonical = canonical && (pr < ri || (pr == ri && pc < ci));
    }
  }
  if ((st = contiguous_as(&d, data, data->dtype)) != CN_OK)
    goto fail;
  return sp_make(out, CN_SPARSE_COO, nrows, ncols, d, r, c, canonical,
                 canonical);
fail:
  cn_array_release(r);
  cn_array_release(c);
  cn_array_release(d);
  return st;
}

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

cn_status cn_sparse_dia(cn_sparse *out, int64_t nrows, int64_t ncols,
                        cn_array data, cn_array offsets) {
  static const char fn[] = "cn_sparse_dia";
  CN_CHECK_OUT(out, fn);
  cn_status st;
  if ((st = check_dims(nrows, ncols, fn)) != CN_OK ||
      (st = check_host_1d(offsets, fn, "offsets")) != CN_OK)
    return st;
  CN_CHECK_ARRAY(data, fn, "data");
  if (data->ndim != 2)
    return cn_error(CN_ERR_SHAPE, "%s: data must be 2-d (n_diags, L), not "
                    "%d-d", fn, (int)data->ndim);
  if (cn_backend_of(data)->device_type != CN_DEVICE_CPU)
    return cn_error(CN_ERR_DEVICE, "%s: 'data' must be on the CPU (sparse "
                    "matrices are built in host memory)", fn);
  if (offsets->size != data->shape[0])
    return cn_error(CN_ERR_VALUE, "%s: number of diagonals (%lld) does not "
                    "match the number of offsets (%lld)", fn,
                    (long long)data->shape[0], (long long)offsets->size);
  /* int32/int64 kept as given; other integers widened (never clamped) */
  cn_dtype it = offsets->dtype == CN_INT32 ? CN_INT32 : CN_INT64;
  cn_array_s *o = NULL, *d = NULL;
  if ((st = index_input(&o, offsets, it, 0, fn, "offsets")) != CN_OK)
    return st;
  int64_t nd = o->size;
  int64_t *sorted = cn_malloc((size_t)(nd > 0 ? nd : 1) * sizeof *sorted);
  if (!sorted) {
    cn_array_release(o);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  for (int64_t q = 0; q < nd; q++)
    sorted[q] = ix_get(o, q);
  qsort(sorted, (size_t)nd, sizeof *sorted, cmp_i64);
  for (int64_t q = 0; q < nd && st == CN_OK; q++) {
    if (sorted[q] == INT64_MIN)
      st = cn_error(CN_ERR_VALUE, "%s: offset %lld is out of range", fn,
                    (long long)INT64_MIN);
    else if (q > 0 && sorted[q] == sorted[q - 1])
      st = cn_error(CN_ERR_VALUE, "%s: offset array contains duplicate "
                    "values (%lld)", fn, (long long)sorted[q]);
  }
  free(sorted);
  if (st == CN_OK)
    st = contiguous_as(&d, data, data->dtype);
  if (st != CN_OK) {
    cn_array_release(o);
    return st;
  }
  return sp_make(out, CN_SPARSE_DIA, nrows, ncols, d, o, NULL, true, true);
}

static cn_status to_dia(cn_sparse *out, struct cn_sparse_s *s,
                        const char *fn);

cn_status cn_sparse_from_dense(cn_sparse *out, cn_array a,
                               cn_sparse_format format) {
  static const char fn[] = "cn_sparse_from_dense";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (format == CN_SPARSE_DIA) {
    cn_sparse c = NULL;
    cn_status st = cn_sparse_from_dense(&c, a, CN_SPARSE_COO);
    if (st == CN_OK)
      st = to_dia(out, c, fn);
    cn_sparse_release(c);
    return st;
  }
  if (format != CN_SPARSE_CSR && format != CN_SPARSE_CSC &&
      format != CN_SPARSE_COO)
    return cn_error(CN_ERR_VALUE, "%s: unknown format %d", fn, (int)format);
  if (a->ndim != 2)
    return cn_error(CN_ERR_SHAPE, "%s: expected a 2-d array, got %d-d", fn,
                    (int)a->ndim);
  if (cn_backend_of(a)->device_type != CN_DEVICE_CPU)
    return cn_error(CN_ERR_DEVICE, "%s: the array must be on the CPU", fn);
  bool by_col = format == CN_SPARSE_CSC;
  int64_t nrows = a->shape[0], ncols = a->shape[1];
  int64_t nmaj = by_col ? ncols : nrows, nmin = by_col ? nrows : ncols;
  int64_t isz = cn_itemsize(a->dtype);
  int64_t smaj = (by_col ? a->strides[1] : a->strides[0]) * isz;
  int64_t smin = (by_col ? a->strides[0] : a->strides[1]) * isz;
  int64_t nnz = 0;
  for (int64_t i = 0; i < nmaj; i++)
    for (int64_t j = 0; j < nmin; j++)
      nnz += !value_is_zero(a->dtype, a->data + i * smaj + j * smin);
  cn_dtype it = index_dtype_for(nrows, ncols, nnz);
  cn_array_s *p = NULL, *ix = NULL, *d = NULL, *rows = NULL;
  cn_status st;
  if ((st = host_vec(&p, it, nmaj + 1)) != CN_OK ||
      (st = host_vec(&ix, it, nnz)) != CN_OK ||
      (st = host_vec(&d, a->dtype, nnz)) != CN_OK)
    goto fail;
  int64_t k = 0;
  ix_set(p, 0, 0);
  for (int64_t i = 0; i < nmaj; i++) {
    for (int64_t j = 0; j < nmin; j++) {
      const char *e = a->data + i * smaj + j * smin;
      if (!value_is_zero(a->dtype, e)) {
        ix_set(ix, k, j);
        memcpy(d->data + k * isz, e, (size_t)isz);
        k++;
      }
    }
    ix_set(p, i + 1, k);
  }
  if (format != CN_SPARSE_COO)
    return sp_make(out, format, nrows, ncols, d, p, ix, true, true);
  if ((st = host_vec(&rows, it, nnz)) != CN_OK)
    goto fail;
  for (int64_t i = 0; i < nrows; i++)
    for (int64_t j = ix_get(p, i); j < ix_get(p, i + 1); j++)
      ix_set(rows, j, i);
  cn_array_release(p);
  return sp_make(out, CN_SPARSE_COO, nrows, ncols, d, rows, ix, true, true);
fail:
  cn_array_release(p);
  cn_array_release(ix);
  cn_array_release(d);
  cn_array_release(rows);
  return st;
}

/* ---- properties ------------------------------------------------------ */

#define SPARSE_GETTER(name, T, expr)                                           \
  cn_status cn_sparse_##name(T *out, cn_sparse s) {                            \
    CN_CHECK_OUT(out, "cn_sparse_" #name);                                     \
    CHECK_SPARSE(s, "cn_sparse_" #name, "s");                                  \
    *out = (expr);                                                             \
    return CN_OK;                                                              \
  }
SPARSE_GETTER(get_format, int32_t, s->format)
SPARSE_GETTER(nrows, int64_t, s->nrows)
SPARSE_GETTER(ncols, int64_t, s->ncols)
SPARSE_GETTER(nnz, int64_t, s->nnz)
SPARSE_GETTER(dtype, cn_dtype, s->data->dtype)
SPARSE_GETTER(index_dtype, cn_dtype, s->a->dtype)
SPARSE_GETTER(has_canonical_format, int32_t, s->canonical ? 1 : 0)
SPARSE_GETTER(has_sorted_indices, int32_t, s->sorted ? 1 : 0)
#undef SPARSE_GETTER

static cn_status readonly_ref(cn_array *out, cn_array_s *x) {
  cn_array_s *v = NULL;
  cn_status st = cn_array_make(&v, x->buf, x->data, x->dtype, x->ndim,
                               x->shape, x->strides, false);
  if (st == CN_OK)
    *out = v;
  return st;
}

cn_status cn_sparse_data(cn_array *out, cn_sparse s) {
  CN_CHECK_OUT(out, "cn_sparse_data");
  CHECK_SPARSE(s, "cn_sparse_data", "s");
  cn_array_retain(s->data);
  *out = s->data;
  return CN_OK;
}

/* Component a (first) or b of s, when s's format is f1 or f2. */
static cn_status component(cn_array *out, cn_sparse s, int32_t f1, int32_t f2,
                           bool first, const char *fn, const char *what) {
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  if (s->format != f1 && s->format != f2)
    return cn_error(CN_ERR_VALUE, "%s: a %s matrix has no %s", fn,
                    fmt_name(s->format), what);
  return readonly_ref(out, first ? s->a : s->b);
}
cn_status cn_sparse_indptr(cn_array *out, cn_sparse s) {
  return component(out, s, CN_SPARSE_CSR, CN_SPARSE_CSC, true,
                   "cn_sparse_indptr", "indptr");
}
cn_status cn_sparse_indices(cn_array *out, cn_sparse s) {
  return component(out, s, CN_SPARSE_CSR, CN_SPARSE_CSC, false,
                   "cn_sparse_indices", "indices");
}
cn_status cn_sparse_row(cn_array *out, cn_sparse s) {
  return component(out, s, CN_SPARSE_COO, CN_SPARSE_COO, true,
                   "cn_sparse_row", "row");
}
cn_status cn_sparse_col(cn_array *out, cn_sparse s) {
  return component(out, s, CN_SPARSE_COO, CN_SPARSE_COO, false,
                   "cn_sparse_col", "col");
}
cn_status cn_sparse_offsets(cn_array *out, cn_sparse s) {
  return component(out, s, CN_SPARSE_DIA, CN_SPARSE_DIA, true,
                   "cn_sparse_offsets", "offsets");
}

/* ---- placement ------------------------------------------------------- */

cn_status cn_sparse_device(int32_t *device_type, int32_t *device_id,
                           cn_sparse s) {
  static const char fn[] = "cn_sparse_device";
  CN_CHECK_OUT(device_type, fn);
  CN_CHECK_OUT(device_id, fn);
  CHECK_SPARSE(s, fn, "s");
  return cn_array_device(device_type, device_id, s->data);
}

/* s with every component moved by move (cn_to_device or cn_to_host). */
static cn_status sp_move(cn_sparse *out, struct cn_sparse_s *s, bool host,
                         int32_t device_id) {
  cn_array_s *c[3] = {s->data, s->a, s->b}, *m[3] = {NULL, NULL, NULL};
  cn_status st = CN_OK;
  for (int i = 0; i < 3 && st == CN_OK; i++)
    if (c[i])
      st = host ? cn_to_host(&m[i], c[i])
                : cn_to_device(&m[i], c[i], device_id);
  if (st != CN_OK) {
    for (int i = 0; i < 3; i++)
      cn_array_release(m[i]);
    return st;
  }
  return sp_make(out, s->format, s->nrows, s->ncols, m[0], m[1], m[2],
                 s->sorted, s->canonical);
}

cn_status cn_sparse_to_device(cn_sparse *out, cn_sparse s, int32_t device_id) {
  static const char fn[] = "cn_sparse_to_device";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  return sp_move(out, s, false, device_id);
}

cn_status cn_sparse_to_host(cn_sparse *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_to_host";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  return sp_move(out, s, true, 0);
}

/* ---- structural kernels ---------------------------------------------- */

/* The compressed arrays of the other orientation (sorted) through the
 * backend's csr2csc: for CSR s, CSC arrays of s; for CSC s, CSR arrays. */
static cn_status flip_arrays(const struct cn_sparse_s *s, cn_array_s **p,
                             cn_array_s **ix, cn_array_s **d,
                             const char *fn) {
  CN_REQUIRE_SLOT(tr, cn_backend_of(s->data), sparse_transpose, fn);
  cn_csr_operand o = operand_of(s);
  cn_array_s *tp = NULL, *ti = NULL, *tv = NULL;
  cn_status st;
  if ((st = like_vec(&tp, s->data, s->a->dtype, o.ncols + 1)) != CN_OK ||
      (st = like_vec(&ti, s->data, s->a->dtype, s->nnz)) != CN_OK ||
      (st = like_vec(&tv, s->data, s->data->dtype, s->nnz)) != CN_OK ||
      (st = tr(&o, tp, ti, tv)) != CN_OK) {
    cn_array_release(tp);
    cn_array_release(ti);
    cn_array_release(tv);
    return st;
  }
  *p = tp;
  *ix = ti;
  *d = tv;
  return CN_OK;
}

/* CSR <-> CSC of the same matrix, sorted. */
static cn_status compressed_flip(cn_sparse *out, const struct cn_sparse_s *s,
                                 const char *fn) {
  cn_array_s *p = NULL, *ix = NULL, *d = NULL;
  cn_status st = flip_arrays(s, &p, &ix, &d, fn);
  if (st != CN_OK)
    return st;
  int32_t f = s->format == CN_SPARSE_CSR ? CN_SPARSE_CSC : CN_SPARSE_CSR;
  /* a stable transpose of a canonical matrix is canonical */
  return sp_make(out, f, s->nrows, s->ncols, d, p, ix, true, s->canonical);
}

/* Sorted indices, duplicates kept: two stable transposes. */
static cn_status compressed_sorted(cn_sparse *out, struct cn_sparse_s *s,
                                   const char *fn) {
  if (s->sorted) {
    atomic_fetch_add(&s->refcount, 1);
    *out = s;
    return CN_OK;
  }
  cn_sparse t = NULL;
  cn_status st = compressed_flip(&t, s, fn);
  if (st != CN_OK)
    return st;
  st = compressed_flip(out, t, fn);
  cn_sparse_release(t);
  return st;
}

/* Sums neighbouring duplicates of a sorted compressed matrix. */
static cn_status compressed_merge(cn_sparse *out, struct cn_sparse_s *s,
                                  const char *fn) {
  if (s->canonical) {
    atomic_fetch_add(&s->refcount, 1);
    *out = s;
    return CN_OK;
  }
  cn_status hst = require_host(s, fn);
  if (hst != CN_OK)
    return hst;
  int64_t nmaj = nmajor(s), n = 0;
  for (int64_t r = 0; r < nmaj; r++)
    for (int64_t j = ix_get(s->a, r); j < ix_get(s->a, r + 1); j++)
      n += j == ix_get(s->a, r) || ix_get(s->b, j) != ix_get(s->b, j - 1);
  cn_dtype dt = s->data->dtype;
  int64_t isz = cn_itemsize(dt);
  cn_array_s *p = NULL, *ix = NULL, *d = NULL;
  cn_status st;
  if ((st = host_vec(&p, s->a->dtype, nmaj + 1)) != CN_OK ||
      (st = host_vec(&ix, s->a->dtype, n)) != CN_OK ||
      (st = host_vec(&d, dt, n)) != CN_OK) {
    cn_array_release(p);
    cn_array_release(ix);
    cn_array_release(d);
    return st;
  }
  int64_t k = 0;
  ix_set(p, 0, 0);
  for (int64_t r = 0; r < nmaj; r++) {
    int64_t lo = ix_get(s->a, r), hi = ix_get(s->a, r + 1);
    for (int64_t j = lo; j < hi; j++) {
      int64_t c = ix_get(s->b, j);
      if (j > lo && c == ix_get(s->b, j - 1)) {
        value_add(dt, d->data + (k - 1) * isz, s->data->data + j * isz);
      } else {
        ix_set(ix, k, c);
        memcpy(d->data + k * isz, s->data->data + j * isz, (size_t)isz);
        k++;
      }
    }
    ix_set(p, r + 1, k);
  }
  return sp_make(out, s->format, s->nrows, s->ncols, d, p, ix, true, true);
}

/* COO -> compressed arrays of format f by a stable counting sort on the
 * major index (each slice keeps COO order). */
static cn_status coo_compress(cn_sparse *out, const struct cn_sparse_s *s,
                              int32_t f, const char *fn) {
  cn_status hst = require_host(s, fn);
  if (hst != CN_OK)
    return hst;
  const cn_array_s *maj = f == CN_SPARSE_CSR ? s->a : s->b;
  const cn_array_s *min = f == CN_SPARSE_CSR ? s->b : s->a;
  int64_t nmaj = f == CN_SPARSE_CSR ? s->nrows : s->ncols;
  int64_t isz = cn_itemsize(s->data->dtype);
  cn_array_s *p = NULL, *ix = NULL, *d = NULL;
  cn_status st;
  if ((st = host_vec(&p, s->a->dtype, nmaj + 1)) != CN_OK ||
      (st = host_vec(&ix, s->a->dtype, s->nnz)) != CN_OK ||
      (st = host_vec(&d, s->data->dtype, s->nnz)) != CN_OK) {
    cn_array_release(p);
    cn_array_release(ix);
    cn_array_release(d);
    return st;
  }
  int64_t *cnt = cn_calloc((size_t)nmaj + 1, sizeof *cnt);
  if (!cnt) {
    cn_array_release(p);
    cn_array_release(ix);
    cn_array_release(d);
    return cn_error(CN_ERR_MEMORY, "sparse conversion: out of memory");
  }
  for (int64_t j = 0; j < s->nnz; j++)
    cnt[ix_get(maj, j) + 1]++;
  for (int64_t r = 0; r < nmaj; r++)
    cnt[r + 1] += cnt[r];
  for (int64_t r = 0; r <= nmaj; r++)
    ix_set(p, r, cnt[r]);
  for (int64_t j = 0; j < s->nnz; j++) {
    int64_t dst = cnt[ix_get(maj, j)]++;
    ix_set(ix, dst, ix_get(min, j));
    memcpy(d->data + dst * isz, s->data->data + j * isz, (size_t)isz);
  }
  free(cnt);
  return sp_make(out, f, s->nrows, s->ncols, d, p, ix, false, false);
}

/* COO -> canonical CSR or CSC (scipy's tocsr/tocsc). */
static cn_status coo_to_compressed(cn_sparse *out, const struct cn_sparse_s *s,
                                   int32_t f, const char *fn) {
  /* compress on the other axis, then one stable transpose sorts */
  cn_sparse t = NULL, u = NULL;
  cn_status st = coo_compress(
      &t, s, f == CN_SPARSE_CSR ? CN_SPARSE_CSC : CN_SPARSE_CSR, fn);
  if (st != CN_OK)
    return st;
  st = compressed_flip(&u, t, fn);
  cn_sparse_release(t);
  if (st != CN_OK)
    return st;
  st = compressed_merge(out, u, fn);
  cn_sparse_release(u);
  return st;
}

/* Compressed -> COO: the major index expanded, the rest shared. */
static cn_status compressed_to_coo(cn_sparse *out,
                                   const struct cn_sparse_s *s,
                                   const char *fn) {
  cn_array_s *e = NULL;
  cn_status st = require_host(s, fn);
  if (st == CN_OK)
    st = host_vec(&e, s->a->dtype, s->nnz);
  if (st != CN_OK)
    return st;
  for (int64_t r = 0; r < nmajor(s); r++)
    for (int64_t j = ix_get(s->a, r); j < ix_get(s->a, r + 1); j++)
      ix_set(e, j, r);
  cn_array_retain(s->b);
  cn_array_retain(s->data);
  if (s->format == CN_SPARSE_CSR)
    return sp_make(out, CN_SPARSE_COO, s->nrows, s->ncols, s->data, e, s->b,
                   s->sorted, s->canonical);
  return sp_make(out, CN_SPARSE_COO, s->nrows, s->ncols, s->data, s->b, e,
                 s->nnz <= 1, s->nnz <= 1);
}

/* ---- DIA ------------------------------------------------------------ */

/* DIA -> canonical CSR, explicit zeros dropped (scipy's dia tocsr): the
 * diagonals in increasing offset order give each row sorted columns. */
static cn_status dia_to_csr(cn_sparse *out, const struct cn_sparse_s *s,
                            const char *fn) {
  int64_t m = s->nrows, nd = s->a->size, L = s->data->shape[1];
  int64_t lc = L < s->ncols ? L : s->ncols;
  cn_dtype dt = s->data->dtype;
  int64_t isz = cn_itemsize(dt);
  const char *v = s->data->data;
  int64_t *ord = cn_malloc((size_t)(nd > 0 ? nd : 1) * 2 * sizeof *ord);
  int64_t *cur = (uint64_t)m >= SIZE_MAX / sizeof(int64_t) - 1
                     ? NULL
                     : cn_calloc((size_t)m + 1, sizeof *cur);
  if (!ord || !cur) {
    free(ord);
    free(cur);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  /* (offset, diagonal) pairs sorted by offset */
  for (int64_t q = 0; q < nd; q++) {
    ord[2 * q] = ix_get(s->a, q);
    ord[2 * q + 1] = q;
  }
  qsort(ord, (size_t)nd, 2 * sizeof *ord, cmp_i64);
  for (int64_t q = 0; q < nd; q++) {
    int64_t k = ord[2 * q], row = ord[2 * q + 1] * L, lo, hi;
    if (dia_cols(k, m, lc, &lo, &hi))
      for (int64_t j = lo; j < hi; j++)
        cur[j - k + 1] += !value_is_zero(dt, v + (row + j) * isz);
  }
  for (int64_t r = 0; r < m; r++)
    cur[r + 1] += cur[r];
  int64_t nnz = cur[m];
  cn_dtype it = index_dtype_for(m, s->ncols, nnz);
  cn_array_s *p = NULL, *ix = NULL, *d = NULL;
  cn_status st;
  if ((st = host_vec(&p, it, m + 1)) != CN_OK ||
      (st = host_vec(&ix, it, nnz)) != CN_OK ||
      (st = host_vec(&d, dt, nnz)) != CN_OK) {
    cn_array_release(p);
    cn_array_release(ix);
    cn_array_release(d);
    free(ord);
    free(cur);
    return st;
  }
  for (int64_t r = 0; r <= m; r++)
    ix_set(p, r, cur[r]);
  for (int64_t q = 0; q < nd; q++) {
    int64_t k = ord[2 * q], row = ord[2 * q + 1] * L, lo, hi;
    if (!dia_cols(k, m, lc, &lo, &hi))
      continue;
    for (int64_t j = lo; j < hi; j++) {
      const char *e = v + (row + j) * isz;
      if (value_is_zero(dt, e))
        continue;
      int64_t dst = cur[j - k]++;
      ix_set(ix, dst, j);
      memcpy(d->data + dst * isz, e, (size_t)isz);
    }
  }
  free(ord);
  free(cur);
  return sp_make(out, CN_SPARSE_CSR, m, s->ncols, d, p, ix, true, true);
}

/* DIA -> CSR where s lives: a device matrix is converted on a host copy
 * and the CSR moved back (no CUDA kernel reads DIA). */
static cn_status dia_to_csr_staged(cn_sparse *out, struct cn_sparse_s *s,
                                   const char *fn) {
  if (on_host(s))
    return dia_to_csr(out, s, fn);
  cn_sparse h = NULL, c = NULL;
  cn_status st = sp_move(&h, s, true, 0);
  if (st == CN_OK)
    st = dia_to_csr(&c, h, fn);
  if (st == CN_OK)
    st = sp_move(out, c, false, s->data->buf->device_id);
  cn_sparse_release(h);
  cn_sparse_release(c);
  return st;
}

/* scipy's transpose of a DIA matrix: offsets negated, data (n_diags x
 * nrows) gathered as data[d, j - (-k mod max_dim)] with scipy's wrap-around
 * of negative columns over data padded to max(L, max_dim) columns. */
static cn_status dia_transpose(cn_sparse *out, struct cn_sparse_s *s,
                               const char *fn) {
  cn_status st = require_host(s, fn);
  if (st != CN_OK)
    return st;
  int64_t m = s->nrows, n = s->ncols, nd = s->a->size, L = s->data->shape[1];
  int64_t maxd = m > n ? m : n, w = L > maxd ? L : maxd;
  cn_dtype it = s->a->dtype;
  for (int64_t q = 0; q < nd && it == CN_INT32; q++)
    if (ix_get(s->a, q) == INT32_MIN)
      it = CN_INT64; /* -INT32_MIN needs 64 bits */
  int64_t shape[2] = {nd, m}, isz = cn_itemsize(s->data->dtype);
  cn_array_s *o = NULL, *d = NULL;
  if ((st = host_vec(&o, it, nd)) != CN_OK ||
      (st = cn_array_new(&d, cn_cpu_backend(), 0, s->data->dtype, 2, shape,
                         CN_ORDER_C)) != CN_OK) {
    cn_array_release(o);
    return st;
  }
  for (int64_t q = 0; q < nd; q++) {
    int64_t k = ix_get(s->a, q);
    ix_set(o, q, -k);
    int64_t sh = maxd ? (-k) % maxd : 0;
    sh += sh < 0 ? maxd : 0;
    for (int64_t j = 0; j < m; j++) {
      int64_t c = j - sh;
      c += c < 0 ? w : 0;
      char *dst = d->data + (q * m + j) * isz;
      if (c < L)
        memcpy(dst, s->data->data + (q * L + c) * isz, (size_t)isz);
      else
        memset(dst, 0, (size_t)isz);
    }
  }
  return sp_make(out, CN_SPARSE_DIA, n, m, d, o, NULL, true, true);
}

/* Compressed CSR (or CSC with csc) of any format; canonical when s is COO,
 * else s's own order. */
static cn_status as_compressed(cn_sparse *out, struct cn_sparse_s *s,
                               int32_t f, const char *fn) {
  if (s->format == f) {
    atomic_fetch_add(&s->refcount, 1);
    *out = s;
    return CN_OK;
  }
  if (s->format == CN_SPARSE_COO)
    return coo_to_compressed(out, s, f, fn);
  if (s->format == CN_SPARSE_DIA) {
    cn_sparse c = NULL;
    cn_status st = dia_to_csr_staged(&c, s, fn);
    if (st != CN_OK || f == CN_SPARSE_CSR) {
      *out = c;
      return st;
    }
    st = compressed_flip(out, c, fn);
    cn_sparse_release(c);
    return st;
  }
  return compressed_flip(out, s, fn);
}

/* scipy's coo todia: duplicates summed, the sorted distinct diagonals of
 * the stored entries (explicit zeros included), data of (last stored
 * column + 1) columns; (0, 0) data when nothing is stored. */
static cn_status to_dia(cn_sparse *out, struct cn_sparse_s *s,
                        const char *fn) {
  cn_sparse c = NULL, u = NULL;
  cn_status st = require_host(s, fn);
  if (st != CN_OK)
    return st;
  if (s->format == CN_SPARSE_COO) {
    atomic_fetch_add(&s->refcount, 1);
    c = s;
  } else if ((st = compressed_to_coo(&c, s, fn)) != CN_OK) {
    return st;
  }
  st = cn_sparse_sum_duplicates(&u, c);
  cn_sparse_release(c);
  if (st != CN_OK)
    return st;
  int64_t nnz = u->nnz, nd = 0, L = 0;
  int64_t *ks = cn_malloc((size_t)(nnz > 0 ? nnz : 1) * 2 * sizeof *ks);
  if (!ks) {
    cn_sparse_release(u);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  int64_t *uniq = ks + nnz;
  for (int64_t e = 0; e < nnz; e++) {
    int64_t col = ix_get(u->b, e);
    uniq[e] = col - ix_get(u->a, e);
    L = col + 1 > L ? col + 1 : L;
  }
  memcpy(ks, uniq, (size_t)nnz * sizeof *ks);
  qsort(uniq, (size_t)nnz, sizeof *uniq, cmp_i64);
  for (int64_t e = 0; e < nnz; e++)
    if (e == 0 || uniq[e] != uniq[nd - 1])
      uniq[nd++] = uniq[e];
  int64_t shape[2] = {nd, L}, isz = cn_itemsize(u->data->dtype);
  cn_array_s *o = NULL, *d = NULL;
  if ((st = host_vec(&o, index_dtype_for(s->nrows, s->ncols, 0), nd)) !=
          CN_OK ||
      (st = cn_array_new(&d, cn_cpu_backend(), 0, u->data->dtype, 2, shape,
                         CN_ORDER_C)) != CN_OK) {
    cn_array_release(o);
    cn_sparse_release(u);
    free(ks);
    return st;
  }
  for (int64_t q = 0; q < nd; q++)
    ix_set(o, q, uniq[q]);
  if (d->size > 0)
    memset(d->data, 0, (size_t)(d->size * isz));
  for (int64_t e = 0; e < nnz; e++) {
    int64_t *hit = bsearch(&ks[e], uniq, (size_t)nd, sizeof *uniq, cmp_i64);
    memcpy(d->data + ((hit - uniq) * L + ix_get(u->b, e)) * isz,
           u->data->data + e * isz, (size_t)isz);
  }
  free(ks);
  int64_t nrows = s->nrows, ncols = s->ncols;
  cn_sparse_release(u);
  return sp_make(out, CN_SPARSE_DIA, nrows, ncols, d, o, NULL, true, true);
}

/* ---- conversions ----------------------------------------------------- */

static cn_status check_format(int32_t f, const char *fn) {
  if (f != CN_SPARSE_CSR && f != CN_SPARSE_CSC && f != CN_SPARSE_COO &&
      f != CN_SPARSE_DIA)
    return cn_error(CN_ERR_VALUE, "%s: unknown format %d", fn, (int)f);
  return CN_OK;
}

cn_status cn_sparse_asformat(cn_sparse *out, cn_sparse s,
                             cn_sparse_format format) {
  static const char fn[] = "cn_sparse_asformat";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  cn_status st = check_format(format, fn);
  if (st != CN_OK)
    return st;
  if (format == CN_SPARSE_DIA && s->format != CN_SPARSE_DIA)
    return to_dia(out, s, fn);
  if (format == CN_SPARSE_COO && s->format == CN_SPARSE_DIA) {
    cn_sparse c = NULL;
    st = as_compressed(&c, s, CN_SPARSE_CSR, fn);
    if (st == CN_OK)
      st = compressed_to_coo(out, c, fn);
    cn_sparse_release(c);
    return st;
  }
  if (format == CN_SPARSE_COO && s->format != CN_SPARSE_COO)
    return compressed_to_coo(out, s, fn);
  return as_compressed(out, s, format, fn);
}

cn_status cn_sparse_toarray(cn_array *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_toarray";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  cn_status st = require_host(s, fn);
  if (st != CN_OK)
    return st;
  int64_t shape[2] = {s->nrows, s->ncols};
  cn_array_s *d = NULL;
  st = cn_array_new(&d, cn_cpu_backend(), 0, s->data->dtype, 2,
                              shape, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  int64_t isz = cn_itemsize(s->data->dtype);
  if (d->size > 0)
    memset(d->data, 0, (size_t)(d->size * isz));
  cn_dtype dt = s->data->dtype;
  if (s->format == CN_SPARSE_DIA) {
    int64_t L = s->data->shape[1], lc = L < s->ncols ? L : s->ncols;
    for (int64_t q = 0; q < s->a->size; q++) {
      int64_t k = ix_get(s->a, q), lo, hi;
      if (!dia_cols(k, s->nrows, lc, &lo, &hi))
        continue;
      for (int64_t j = lo; j < hi; j++)
        memcpy(d->data + ((j - k) * s->ncols + j) * isz,
               s->data->data + (q * L + j) * isz, (size_t)isz);
    }
    *out = d;
    return CN_OK;
  }
  for (int64_t r = 0, k = 0; k < s->nnz; r += s->format != CN_SPARSE_COO) {
    int64_t hi = s->format == CN_SPARSE_COO ? s->nnz : ix_get(s->a, r + 1);
    for (; k < hi; k++) {
      int64_t i, j;
      if (s->format == CN_SPARSE_COO) {
        i = ix_get(s->a, k);
        j = ix_get(s->b, k);
      } else if (s->format == CN_SPARSE_CSR) {
        i = r;
        j = ix_get(s->b, k);
      } else {
        i = ix_get(s->b, k);
        j = r;
      }
      value_add(dt, d->data + (i * s->ncols + j) * isz,
                s->data->data + k * isz);
    }
  }
  *out = d;
  return CN_OK;
}

cn_status cn_sparse_sort_indices(cn_sparse *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_sort_indices";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  if (s->format != CN_SPARSE_COO)
    return compressed_sorted(out, s, fn);
  if (s->sorted) {
    atomic_fetch_add(&s->refcount, 1);
    *out = s;
    return CN_OK;
  }
  /* by column, then a stable transpose by row, then rows expanded */
  cn_sparse t = NULL, u = NULL;
  cn_status st = coo_compress(&t, s, CN_SPARSE_CSC, fn);
  if (st == CN_OK)
    st = compressed_flip(&u, t, fn);
  cn_sparse_release(t);
  if (st == CN_OK) {
    st = compressed_to_coo(out, u, fn);
    if (st == CN_OK)
      (*out)->sorted = true;
  }
  cn_sparse_release(u);
  return st;
}

cn_status cn_sparse_sum_duplicates(cn_sparse *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_sum_duplicates";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  if (s->canonical) {
    atomic_fetch_add(&s->refcount, 1);
    *out = s;
    return CN_OK;
  }
  cn_sparse t = NULL;
  cn_status st;
  if (s->format == CN_SPARSE_COO) {
    st = coo_to_compressed(&t, s, CN_SPARSE_CSR, fn);
    if (st == CN_OK)
      st = compressed_to_coo(out, t, fn);
  } else {
    st = compressed_sorted(&t, s, fn);
    if (st == CN_OK)
      st = compressed_merge(out, t, fn);
  }
  cn_sparse_release(t);
  return st;
}

cn_status cn_sparse_eliminate_zeros(cn_sparse *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_eliminate_zeros";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  if (s->format == CN_SPARSE_DIA)
    return cn_error(CN_ERR_VALUE, "%s: a dia matrix stores every position of "
                    "its diagonals (convert it to csr, csc or coo first)", fn);
  cn_status hst = require_host(s, fn);
  if (hst != CN_OK)
    return hst;
  cn_dtype dt = s->data->dtype;
  int64_t isz = cn_itemsize(dt), n = 0;
  for (int64_t j = 0; j < s->nnz; j++)
    n += !value_is_zero(dt, s->data->data + j * isz);
  bool coo = s->format == CN_SPARSE_COO;
  cn_array_s *a = NULL, *b = NULL, *d = NULL;
  cn_status st;
  if ((st = host_vec(&a, s->a->dtype, coo ? n : nmajor(s) + 1)) != CN_OK ||
      (st = host_vec(&b, s->a->dtype, n)) != CN_OK ||
      (st = host_vec(&d, dt, n)) != CN_OK) {
    cn_array_release(a);
    cn_array_release(b);
    cn_array_release(d);
    return st;
  }
  int64_t k = 0;
  if (coo) {
    for (int64_t j = 0; j < s->nnz; j++) {
      if (value_is_zero(dt, s->data->data + j * isz))
        continue;
      ix_set(a, k, ix_get(s->a, j));
      ix_set(b, k, ix_get(s->b, j));
      memcpy(d->data + k * isz, s->data->data + j * isz, (size_t)isz);
      k++;
    }
  } else {
    ix_set(a, 0, 0);
    for (int64_t r = 0; r < nmajor(s); r++) {
      for (int64_t j = ix_get(s->a, r); j < ix_get(s->a, r + 1); j++) {
        if (value_is_zero(dt, s->data->data + j * isz))
          continue;
        ix_set(b, k, ix_get(s->b, j));
        memcpy(d->data + k * isz, s->data->data + j * isz, (size_t)isz);
        k++;
      }
      ix_set(a, r + 1, k);
    }
  }
  return sp_make(out, s->format, s->nrows, s->ncols, d, a, b, s->sorted,
                 s->canonical);
}

cn_status cn_sparse_transpose(cn_sparse *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_transpose";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  if (s->format == CN_SPARSE_DIA)
    return dia_transpose(out, s, fn);
  cn_array_retain(s->data);
  cn_array_retain(s->a);
  cn_array_retain(s->b);
  if (s->format == CN_SPARSE_COO)
    return sp_make(out, CN_SPARSE_COO, s->ncols, s->nrows, s->data, s->b, s->a,
                   s->nnz <= 1, s->nnz <= 1);
  int32_t f = s->format == CN_SPARSE_CSR ? CN_SPARSE_CSC : CN_SPARSE_CSR;
  return sp_make(out, f, s->ncols, s->nrows, s->data, s->a, s->b, s->sorted,
                 s->canonical);
}

/* s's structure over data cast to dt (a new reference when unchanged). */
static cn_status with_dtype(cn_sparse *out, struct cn_sparse_s *s,
                            cn_dtype dt) {
  if (s->data->dtype == dt) {
    atomic_fetch_add(&s->refcount, 1);
    *out = s;
    return CN_OK;
  }
  cn_array_s *d = NULL;
  cn_status st = contiguous_as(&d, s->data, dt);
  if (st != CN_OK)
    return st;
  cn_array_retain(s->a);
  if (s->b)
    cn_array_retain(s->b);
  st = sp_make(out, s->format, s->nrows, s->ncols, d, s->a, s->b, s->sorted,
               s->canonical);
  return st;
}

cn_status cn_sparse_astype(cn_sparse *out, cn_sparse s, cn_dtype dtype) {
  static const char fn[] = "cn_sparse_astype";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  if (!cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype %d", fn, (int)dtype);
  return with_dtype(out, s, dtype);
}

/* A copy of x (NULL for a NULL x: DIA has no third component). */
static cn_status copy_vec(cn_array_s **out, cn_array_s *x) {
  if (x == NULL)
    return CN_OK;
  cn_status st = cn_array_new(out, cn_backend_of(x), x->buf->device_id,
                              x->dtype, x->ndim, x->shape, CN_ORDER_C);
  if (st == CN_OK && x->size > 0)
    st = cn_backend_of(x)->compute->assign(*out, x);
  return st;
}

cn_status cn_sparse_copy(cn_sparse *out, cn_sparse s) {
  static const char fn[] = "cn_sparse_copy";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  cn_array_s *d = NULL, *a = NULL, *b = NULL;
  cn_status st;
  if ((st = copy_vec(&d, s->data)) != CN_OK ||
      (st = copy_vec(&a, s->a)) != CN_OK ||
      (st = copy_vec(&b, s->b)) != CN_OK) {
    cn_array_release(d);
    cn_array_release(a);
    cn_array_release(b);
    return st;
  }
  return sp_make(out, s->format, s->nrows, s->ncols, d, a, b, s->sorted,
                 s->canonical);
}

/* ---- products -------------------------------------------------------- */

/* s as CSR (copied structure only where needed) in dtype dt. */
static cn_status csr_in(cn_sparse *out, struct cn_sparse_s *s, cn_dtype dt,
                        const char *fn) {
  cn_sparse c = NULL;
  cn_status st = as_compressed(&c, s, CN_SPARSE_CSR, fn);
  if (st != CN_OK)
    return st;
  st = with_dtype(out, c, dt);
  cn_sparse_release(c);
  return st;
}

/* x (1-d or 2-d) as a 2-d view in dtype dt, and whether it was 1-d. */
static cn_status dense_in(cn_array_s **out, cn_array_s *x, cn_dtype dt,
                          bool transpose, const char *fn) {
  cn_array_s *c = NULL;
  cn_status st;
  if (x->dtype == dt) {
    cn_array_retain(x);
    c = x;
  } else {
    st = cn_array_new(&c, cn_backend_of(x), x->buf->device_id, dt, x->ndim,
                      x->shape, CN_ORDER_C);
    if (st == CN_OK && x->size > 0)
      st = cn_backend_of(x)->compute->assign(c, x);
    if (st != CN_OK) {
      cn_array_release(c);
      return st;
    }
  }
  int64_t shape[2], strides[2];
  if (x->ndim == 1) {
    shape[0] = c->shape[0];
    shape[1] = 1;
    strides[0] = c->strides[0];
    strides[1] = 1;
  } else {
    int t = transpose ? 1 : 0;
    shape[0] = c->shape[t];
    shape[1] = c->shape[1 - t];
    strides[0] = c->strides[t];
    strides[1] = c->strides[1 - t];
  }
  st = cn_array_view(out, c, c->data, 2, shape, strides);
  cn_array_release(c);
  (void)fn;
  return st;
}

/* out = A @ X for CSR operand A and 2-d X (n x k), into a C (m x k) array. */
static cn_status run_spmm(cn_array_s **out, const cn_csr_operand *a,
                          cn_array_s *x, const char *fn) {
  CN_REQUIRE_SLOT(spmm, cn_backend_of(a->data), spmm, fn);
  int64_t shape[2] = {a->nrows, x->shape[1]};
  cn_array_s *o = NULL;
  cn_status st =
      cn_array_new(&o, cn_backend_of(a->data), a->data->buf->device_id,
                   a->data->dtype, 2, shape, CN_ORDER_C);
  if (st == CN_OK)
    st = spmm(a, x, o);
  if (st != CN_OK) {
    cn_array_release(o);
    return st;
  }
  *out = o;
  return CN_OK;
}

/* out = S @ X for a DIA matrix s already in X's dtype (spmm_dia slot). */
static cn_status run_spmm_dia(cn_array_s **out, const struct cn_sparse_s *s,
                              cn_array_s *x, const char *fn) {
  CN_REQUIRE_SLOT(spmm, cn_backend_of(s->data), spmm_dia, fn);
  int64_t shape[2] = {s->nrows, x->shape[1]};
  cn_array_s *o = NULL;
  cn_status st =
      cn_array_new(&o, cn_backend_of(s->data), s->data->buf->device_id,
                   s->data->dtype, 2, shape, CN_ORDER_C);
  cn_dia_operand op = {s->nrows, s->ncols, s->a, s->data};
  if (st == CN_OK)
    st = spmm(&op, x, o);
  if (st != CN_OK) {
    cn_array_release(o);
    return st;
  }
  *out = o;
  return CN_OK;
}

/* The product kernel for c: spmm_dia for DIA, else spmm on its CSR view. */
static cn_status run_product(cn_array_s **out, const struct cn_sparse_s *c,
                             cn_array_s *x, const char *fn) {
  if (c->format == CN_SPARSE_DIA)
    return run_spmm_dia(out, c, x, fn);
  cn_csr_operand op = operand_of(c);
  return run_spmm(out, &op, x, fn);
}

/* True when s is DIA and its backend multiplies DIA directly. */
static bool dia_direct(const struct cn_sparse_s *s) {
  return s->format == CN_SPARSE_DIA &&
         cn_backend_of(s->data)->compute->spmm_dia != NULL;
}

static cn_status check_dense(const cn_array_s *x, const struct cn_sparse_s *s,
                             const char *fn) {
  CN_CHECK_ARRAY(x, fn, "x");
  if (x->ndim != 1 && x->ndim != 2)
    return cn_error(CN_ERR_SHAPE, "%s: x must be 1-d or 2-d, not %d-d", fn,
                    (int)x->ndim);
  const cn_array_s *both[2] = {s->data, x};
  return cn_same_device(2, both, fn);
}

/* The dtype a product computes in: float16 in float32, rounded once at the
 * end (NumPy's float16 matmul accumulates in float32 too). */
static cn_dtype product_dtype(cn_dtype ct) {
  return ct == CN_FLOAT16 ? CN_FLOAT32 : ct;
}

/* *o cast to dt in place of itself when the product computed wider. */
static cn_status round_product(cn_array_s **o, cn_dtype dt) {
  if ((*o)->dtype == dt)
    return CN_OK;
  cn_array_s *r = NULL;
  cn_status st = contiguous_as(&r, *o, dt);
  if (st == CN_OK) {
    cn_array_release(*o);
    *o = r;
  }
  return st;
}

cn_status cn_sparse_matmul_dense(cn_array *out, cn_sparse s, cn_array x) {
  static const char fn[] = "cn_sparse_matmul_dense";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  cn_status st = check_dense(x, s, fn);
  if (st != CN_OK)
    return st;
  if (x->shape[0] != s->ncols)
    return cn_error(CN_ERR_SHAPE, "%s: matmul dimension mismatch: (%lld, "
                    "%lld) @ %lld rows", fn, (long long)s->nrows,
                    (long long)s->ncols, (long long)x->shape[0]);
  cn_dtype ct;
  if ((st = cn_result_type(&ct, s->data->dtype, x->dtype)) != CN_OK)
    return st;
  cn_dtype wt = product_dtype(ct);
  cn_sparse c = NULL;
  cn_array_s *xv = NULL, *o = NULL;
  if ((st = dia_direct(s) ? with_dtype(&c, s, wt) : csr_in(&c, s, wt, fn)) !=
          CN_OK ||
      (st = dense_in(&xv, x, wt, false, fn)) != CN_OK)
    goto done;
  if ((st = run_product(&o, c, xv, fn)) != CN_OK)
    goto done;
  if (x->ndim == 1) {
    cn_array_s *v = NULL;
    st = cn_array_view(&v, o, o->data, 1, o->shape, o->strides);
    cn_array_release(o);
    o = v;
  }
  if (st == CN_OK && (st = round_product(&o, ct)) != CN_OK)
    cn_array_release(o);
  if (st == CN_OK)
    *out = o;
done:
  cn_sparse_release(c);
  cn_array_release(xv);
  return st;
}

cn_status cn_dense_matmul_sparse(cn_array *out, cn_array x, cn_sparse s) {
  static const char fn[] = "cn_dense_matmul_sparse";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  cn_status st = check_dense(x, s, fn);
  if (st != CN_OK)
    return st;
  int64_t inner = x->shape[x->ndim - 1];
  if (inner != s->nrows)
    return cn_error(CN_ERR_SHAPE, "%s: matmul dimension mismatch: %lld "
                    "columns @ (%lld, %lld)", fn, (long long)inner,
                    (long long)s->nrows, (long long)s->ncols);
  cn_dtype ct;
  if ((st = cn_result_type(&ct, s->data->dtype, x->dtype)) != CN_OK)
    return st;
  /* x @ S = (S^T @ x^T)^T; the CSC arrays of S are the CSR of S^T, and a
   * DIA S^T is DIA again */
  cn_sparse c = NULL;
  cn_array_s *xv = NULL, *o = NULL;
  if ((st = dia_direct(s) ? dia_transpose(&c, s, fn)
                          : as_compressed(&c, s, CN_SPARSE_CSC, fn)) != CN_OK)
    goto done;
  cn_dtype wt = product_dtype(ct);
  cn_sparse cd = NULL;
  st = with_dtype(&cd, c, wt);
  cn_sparse_release(c);
  c = cd;
  if (st != CN_OK || (st = dense_in(&xv, x, wt, true, fn)) != CN_OK)
    goto done;
  if ((st = run_product(&o, c, xv, fn)) != CN_OK)
    goto done;
  cn_array_s *v = NULL;
  if (x->ndim == 1) {
    st = cn_array_view(&v, o, o->data, 1, o->shape, o->strides);
  } else {
    int64_t shape[2] = {o->shape[1], o->shape[0]};
    int64_t strides[2] = {o->strides[1], o->strides[0]};
    st = cn_array_view(&v, o, o->data, 2, shape, strides);
  }
  cn_array_release(o);
  if (st == CN_OK && (st = round_product(&v, ct)) != CN_OK)
    cn_array_release(v);
  if (st == CN_OK)
    *out = v;
done:
  cn_sparse_release(c);
  cn_array_release(xv);
  return st;
}

/* The int64 array x narrowed to dt (a new reference for int64). */
static cn_status narrow_index(cn_array_s **out, cn_array_s *x, cn_dtype dt) {
  if (dt == CN_INT64) {
    cn_array_retain(x);
    *out = x;
    return CN_OK;
  }
  return contiguous_as(out, x, dt);
}

cn_status cn_sparse_matmul(cn_sparse *out, cn_sparse a, cn_sparse b) {
  static const char fn[] = "cn_sparse_matmul";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(a, fn, "a");
  CHECK_SPARSE(b, fn, "b");
  if (a->ncols != b->nrows)
    return cn_error(CN_ERR_SHAPE, "%s: matmul dimension mismatch: (%lld, "
                    "%lld) @ (%lld, %lld)", fn, (long long)a->nrows,
                    (long long)a->ncols, (long long)b->nrows,
                    (long long)b->ncols);
  const cn_array_s *both[2] = {a->data, b->data};
  cn_status st = cn_same_device(2, both, fn);
  if (st != CN_OK)
    return st;
  CN_REQUIRE_SLOT(gemm, cn_backend_of(a->data), spgemm, fn);
  cn_dtype ct;
  if ((st = cn_result_type(&ct, a->data->dtype, b->data->dtype)) != CN_OK)
    return st;
  cn_sparse ca = NULL, cb = NULL, wa = NULL, wb = NULL;
  cn_array_s *p = NULL, *ix = NULL, *d = NULL, *pn = NULL, *ixn = NULL;
  if ((st = csr_in(&ca, a, product_dtype(ct), fn)) != CN_OK ||
      (st = csr_in(&cb, b, product_dtype(ct), fn)) != CN_OK)
    goto done;
  /* one index dtype for both operands */
  if (ca->a->dtype != cb->a->dtype) {
    cn_sparse *narrow = ca->a->dtype == CN_INT32 ? &ca : &cb;
    cn_sparse *wide = narrow == &ca ? &wa : &wb;
    cn_array_s *p64 = NULL, *i64 = NULL;
    if ((st = contiguous_as(&p64, (*narrow)->a, CN_INT64)) != CN_OK)
      goto done;
    if ((st = contiguous_as(&i64, (*narrow)->b, CN_INT64)) != CN_OK) {
      cn_array_release(p64);
      goto done;
    }
    cn_array_retain((*narrow)->data);
    if ((st = sp_make(wide, CN_SPARSE_CSR, (*narrow)->nrows, (*narrow)->ncols,
                      (*narrow)->data, p64, i64, (*narrow)->sorted,
                      (*narrow)->canonical)) != CN_OK)
      goto done;
  }
  cn_csr_operand oa = operand_of(wa ? wa : ca), ob = operand_of(wb ? wb : cb);
  if ((st = gemm(&oa, &ob, &p, &ix, &d)) != CN_OK ||
      (st = round_product(&d, ct)) != CN_OK)
    goto done;
  cn_dtype it = index_dtype_for(a->nrows, b->ncols, d->size);
  if ((st = narrow_index(&pn, p, it)) != CN_OK ||
      (st = narrow_index(&ixn, ix, it)) != CN_OK)
    goto done;
  cn_array_retain(d);
  st = sp_make(out, CN_SPARSE_CSR, a->nrows, b->ncols, d, pn, ixn, true,
               true);
  pn = ixn = NULL;
done:
  cn_sparse_release(ca);
  cn_sparse_release(cb);
  cn_sparse_release(wa);
  cn_sparse_release(wb);
  cn_array_release(p);
  cn_array_release(ix);
  cn_array_release(d);
  cn_array_release(pn);
  cn_array_release(ixn);
  return st;
}

cn_status cn_sparse_diagonal(cn_array *out, cn_sparse s, int64_t k) {
  static const char fn[] = "cn_sparse_diagonal";
  CN_CHECK_OUT(out, fn);
  CHECK_SPARSE(s, fn, "s");
  cn_status st = require_host(s, fn);
  if (st != CN_OK)
    return st;
  int64_t m = s->nrows, n = s->ncols, len = 0;
  if (k > -m && k < n) {
    int64_t a = m + (k < 0 ? k : 0), b = n - (k > 0 ? k : 0);
    len = a < b ? a : b;
  }
  cn_dtype dt = s->data->dtype;
  int64_t isz = cn_itemsize(dt);
  cn_array_s *r = NULL;
  if ((st = host_vec(&r, dt, len)) != CN_OK)
    return st;
  if (len > 0)
    memset(r->data, 0, (size_t)(len * isz));
  if (len > 0 && s->format == CN_SPARSE_DIA) {
    int64_t L = s->data->shape[1], lc = L < n ? L : n, lo, hi;
    for (int64_t q = 0; q < s->a->size; q++) {
      if (ix_get(s->a, q) != k || !dia_cols(k, m, lc, &lo, &hi))
        continue;
      memcpy(r->data + (lo - (k > 0 ? k : 0)) * isz,
             s->data->data + (q * L + lo) * isz, (size_t)((hi - lo) * isz));
    }
  } else if (len > 0) {
    /* every stored (i, j) with j - i == k, duplicates summed */
    for (int64_t r0 = 0, e = 0; e < s->nnz; r0 += s->format != CN_SPARSE_COO) {
      int64_t hi = s->format == CN_SPARSE_COO ? s->nnz : ix_get(s->a, r0 + 1);
      for (; e < hi; e++) {
        int64_t i = s->format == CN_SPARSE_COO   ? ix_get(s->a, e)
                    : s->format == CN_SPARSE_CSR ? r0
                                                 : ix_get(s->b, e);
        int64_t j = s->format == CN_SPARSE_COO   ? ix_get(s->b, e)
                    : s->format == CN_SPARSE_CSR ? ix_get(s->b, e)
                                                 : r0;
        if (j - i == k)
          value_add(dt, r->data + (k >= 0 ? i : j) * isz,
                    s->data->data + e * isz);
      }
    }
  }
  *out = r;
  return CN_OK;
}

cn_status cn_sparse_csc_canonical(cn_sparse *out, cn_sparse s, cn_dtype dt,
                                  const char *fn) {
  cn_sparse c = NULL, k = NULL;
  cn_status st = require_host(s, fn);
  if (st == CN_OK)
    st = as_compressed(&c, s, CN_SPARSE_CSC, fn);
  if (st == CN_OK)
    st = compressed_sorted(&k, c, fn);
  cn_sparse_release(c);
  c = NULL;
  if (st == CN_OK)
    st = compressed_merge(&c, k, fn);
  cn_sparse_release(k);
  k = NULL;
  if (st == CN_OK)
    st = with_dtype(&k, c, dt);
  cn_sparse_release(c);
  if (st != CN_OK)
    return st;
  if (k->a->dtype == CN_INT64) {
    *out = k;
    return CN_OK;
  }
  cn_array_s *p = NULL, *ix = NULL;
  if ((st = contiguous_as(&p, k->a, CN_INT64)) != CN_OK ||
      (st = contiguous_as(&ix, k->b, CN_INT64)) != CN_OK) {
    cn_array_release(p);
    cn_sparse_release(k);
    return st;
  }
  cn_array_retain(k->data);
  st = sp_make(out, CN_SPARSE_CSC, k->nrows, k->ncols, k->data, p, ix, true,
               true);
  cn_sparse_release(k);
  return st;
}
