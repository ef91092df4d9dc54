/* Helpers shared by the linear-algebra and FFT entry points. */
#include <float.h>
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "util.h"

/* The CPU table is filled once by its setup and a plugin with a shorter
 * table is refused by the loader, so every table has these members. */
void cn_la_end(cn_la_scope *s) {
  for (int i = 0; i < s->n; i++)
    cn_array_release(s->h[i]);
  s->n = 0;
}

cn_dtype cn_la_dtype(cn_dtype dt) {
  switch (dt) {
  case CN_FLOAT32:
  case CN_FLOAT64:
  case CN_COMPLEX64:
  case CN_COMPLEX128:
    return dt;
  default:
    return CN_FLOAT64;
  }
}

const char *cn_la_shape_str(char *buf, size_t cap, int32_t ndim,
                            const int64_t *shape) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, cap - k, "(");
  for (int32_t i = 0; i < ndim && k < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? ", " : "",
                          (long long)shape[i]);
  if (k < cap)
    snprintf(buf + k, cap - k, ndim == 1 ? ",)" : ")");
  return buf;
}

cn_status cn_la_check_matrix(const cn_array_s *a, bool square, const char *fn,
                             const char *arg) {
  if (a->ndim < 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' has %d dimension(s); at least 2 are "
                    "required",
                    fn, arg, (int)a->ndim);
  int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
  if (square && m != n) {
    char b[256];
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' of shape %s: last 2 dimensions must be "
                    "square",
                    fn, arg, cn_la_shape_str(b, sizeof b, a->ndim, a->shape));
  }
  return CN_OK;
}

cn_status cn_la_same_device(const cn_array_s *a, const cn_array_s *b,
                            const char *fn) {
  if (a->buf->backend != b->buf->backend ||
      a->buf->device_id != b->buf->device_id)
    return cn_error(CN_ERR_DEVICE,
                    "%s: operands are on different devices (%s:%d and %s:%d)",
                    fn, a->buf->backend->name, (int)a->buf->device_id,
                    b->buf->backend->name, (int)b->buf->device_id);
  return CN_OK;
}

cn_status cn_la_new(cn_array_s **out, const cn_array_s *like, cn_dtype dt,
                    int32_t ndim, const int64_t *shape) {
  return cn_array_new(out, like->buf->backend, like->buf->device_id, dt, ndim,
                      shape, CN_ORDER_C);
}

/* dst[...] = src (conjugated when conj) on the calling thread alone. Packing
 * copies are memory-bound (a 1000 x 1000 float64 copy takes 0.3 ms on one core)
 * and are followed by a LAPACK call with its own (OpenBLAS) threads; an OpenMP
 * region here would leave its workers spinning for ~10 ms after it ends
 * (libgomp's default spin count), taking a core from those BLAS threads on
 * a small machine (measured: +10 ms of CPU per solve/svd/eigh call). */
static cn_status assign_serial(cn_array_s *dst, const cn_array_s *src,
                               bool conj) {
#ifdef _OPENMP
  int nt = omp_get_max_threads();
  omp_set_num_threads(1);
#endif
  cn_status st = cn_assign(dst, (cn_array)src);
  if (st == CN_OK && conj && cn_is_complex(dst->dtype)) {
    cn_array_s *c = NULL;
    st = cn_conj(&c, dst, dst);
    cn_array_release(c);
  }
#ifdef _OPENMP
  omp_set_num_threads(nt);
#endif
  return st;
}

cn_status cn_la_colmajor(cn_array_s **out, const cn_array_s *src,
                         const cn_array_s *like, cn_dtype dt, int32_t ndim,
                         const int64_t *shape) {
  int64_t tshape[CN_MAX_DIMS];
  memcpy(tshape, shape, sizeof(int64_t) * (size_t)ndim);
  tshape[ndim - 2] = shape[ndim - 1];
  tshape[ndim - 1] = shape[ndim - 2];
  cn_array_s *base = NULL;
  cn_status st = cn_la_new(&base, like, dt, ndim, tshape);
  if (st != CN_OK)
    return st;
  int64_t strides[CN_MAX_DIMS];
  memcpy(strides, base->strides, sizeof(int64_t) * (size_t)ndim);
  strides[ndim - 2] = base->strides[ndim - 1];
  strides[ndim - 1] = base->strides[ndim - 2];
  cn_array_s *v = NULL;
  st = cn_array_view(&v, base, base->data, ndim, shape, strides);
  cn_array_release(base);
  if (st != CN_OK)
    return st;
  if (src != NULL && v->size > 0) {
    st = assign_serial(v, src, false);
    if (st != CN_OK) {
      cn_array_release(v);
      return st;
    }
  }
  *out = v;
  return CN_OK;
}

cn_status cn_la_rowmajor(cn_array_s **out, const cn_array_s *src,
                         const cn_array_s *like, cn_dtype dt, int32_t ndim,
                         const int64_t *shape, bool conj) {
  cn_array_s *w = NULL;
  cn_status st = cn_la_new(&w, like, dt, ndim, shape);
  if (st == CN_OK && w->size > 0)
    st = assign_serial(w, src, conj);
  if (st != CN_OK) {
    cn_array_release(w);
    return st;
  }
  *out = w;
  return CN_OK;
}

bool cn_la_prefers_rows(const cn_array_s *a) {
  int64_t rs = a->strides[a->ndim - 2], cs = a->strides[a->ndim - 1];
  rs = rs < 0 ? -rs : rs;
  cs = cs < 0 ? -cs : cs;
  /* extent-1 dims have no say in the layout */
  if (a->shape[a->ndim - 2] <= 1 || a->shape[a->ndim - 1] <= 1)
    return true;
  return cs <= rs;
}

cn_status cn_la_scalar(cn_array_s **out, const cn_array_s *like, cn_dtype dt,
                       double v) {
  cn_array_s *s = NULL;
  cn_status st = cn_la_new(&s, like, dt, 0, NULL);
  if (st == CN_OK)
    st = cn_fill(s, cn_scalar_float(v));
  if (st != CN_OK) {
    cn_array_release(s);
    return st;
  }
  *out = s;
  return CN_OK;
}

int64_t cn_la_batch(int32_t ndim, const int64_t *shape, int32_t core) {
  int64_t b = 1;
  for (int32_t i = 0; i < ndim - core; i++)
    b *= shape[i];
  return b;
}

cn_status cn_la_run(cn_lapack_args *args, const cn_array_s *on, const char *fn,
                    const char *failure) {
  CN_REQUIRE_SLOT(slot, cn_backend_of(on), lapack, fn);
  if (args->batch == 0)
    return CN_OK;
  cn_status st = slot(args);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  if (args->info > 0) {
    if (args->batch > 1)
      return cn_error(CN_ERR_LINALG, "%s: %s (matrix %lld of the stack)", fn,
                      failure, (long long)args->info_index);
    return cn_error(CN_ERR_LINALG, "%s: %s", fn, failure);
  }
  return CN_OK;
}

double cn_la_eps(cn_dtype dt) {
  return (dt == CN_FLOAT32 || dt == CN_COMPLEX64) ? (double)FLT_EPSILON
                                                  : DBL_EPSILON;
}

cn_status cn_la_diag_view(cn_array_s **out, const cn_array_s *a) {
  int32_t nd = a->ndim;
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  for (int32_t i = 0; i < nd - 2; i++) {
    shape[i] = a->shape[i];
    strides[i] = a->strides[i];
  }
  int64_t m = a->shape[nd - 2], n = a->shape[nd - 1];
  shape[nd - 2] = m < n ? m : n;
  strides[nd - 2] = a->strides[nd - 2] + a->strides[nd - 1];
  return cn_array_view(out, a, a->data, nd - 1, shape, strides);
}
