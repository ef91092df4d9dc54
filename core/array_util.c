/* Helpers shared by the indexing, manipulation, sorting and statistics
 * entry points (declared in array_util.h). */
#include "array_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cunumpy/index.h"

const char *cn_fmt_shape(char *buf, size_t cap, int32_t nd,
                         const int64_t *shape) {
  size_t n = 0;
  n += (size_t)snprintf(buf + n, cap - n, "(");
  for (int32_t i = 0; i < nd && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%" PRId64, i ? ", " : "",
                          shape[i]);
  if (n < cap)
    snprintf(buf + n, cap - n, nd == 1 ? ",)" : ")");
  return buf;
}

cn_status cn_new_on(cn_array_s **out, const cn_array_s *like, cn_dtype dtype,
                    int32_t ndim, const int64_t *shape) {
  return cn_array_new(out, like->buf->backend, like->buf->device_id, dtype,
                      ndim, shape, CN_ORDER_C);
}

cn_status cn_contig_view(cn_array_s **out, const cn_array_s *a, int32_t ndim,
                         const int64_t *shape) {
  int64_t st[CN_MAX_DIMS];
  cn_default_strides(st, ndim, shape, CN_ORDER_C);
  return cn_array_view(out, a, a->data, ndim, shape, st);
}

cn_status cn_as_contig(cn_array_s **out, const cn_array_s *a, cn_dtype dtype) {
  if (dtype == CN_DTYPE_DEFAULT)
    dtype = a->dtype;
  if (dtype == a->dtype && cn_array_is_c_contig(a)) {
    cn_array_retain((cn_array)a);
    *out = (cn_array_s *)a;
    return CN_OK;
  }
  cn_array_s *r;
  cn_status st = cn_new_on(&r, a, dtype, a->ndim, a->shape);
  if (st != CN_OK)
    return st;
  st = cn_assign(r, (cn_array)a);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_idx_to_device_of(cn_array_s **out, cn_array_s *h,
                              const cn_array_s *like) {
  if (like->buf->backend->device_type == CN_DEVICE_CPU ||
      (h->buf->backend == like->buf->backend &&
       h->buf->device_id == like->buf->device_id)) {
    cn_array_retain(h);
    *out = h;
    return CN_OK;
  }
  return cn_to_device(out, h, like->buf->device_id);
}

/* The message of an out-of-range index (cn_idx_normalize's). */
static cn_status idx_out_of_range(int64_t bad, int64_t extent, int32_t mode,
                                  int32_t axis, const char *fn) {
  if (extent == 0 && mode != CN_INDEX_RAISE)
    return cn_error(CN_ERR_INDEX,
                    "%s: cannot do a non-empty take from an empty axis "
                    "(axis %d)",
                    fn, (int)axis);
  return cn_error(CN_ERR_INDEX,
                  "%s: index %" PRId64
                  " is out of bounds for axis %d with size %" PRId64,
                  fn, bad, (int)axis, extent);
}

cn_status cn_idx_normalize(cn_array_s **out, const cn_array_s *idx,
                           int64_t extent, int32_t mode, int32_t axis,
                           const char *fn) {
  if (!cn_is_integer(idx->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: index arrays must have an integer dtype, got %s", fn,
                    cn_dtype_name(idx->dtype));
  cn_array_s *h = NULL, *r = NULL;
  cn_status st = cn_to_host(&h, (cn_array)idx);
  if (st != CN_OK)
    return st;
  st = cn_array_new(&r, cn_cpu_backend(), 0, CN_INT64, h->ndim, h->shape,
                    CN_ORDER_C);
  if (st == CN_OK && idx->dtype == CN_UINT64) {
    /* uint64 above INT64_MAX is out of range for every extent. */
    cn_array_s *u;
    st = cn_as_contig(&u, h, CN_UINT64);
    if (st == CN_OK) {
      const uint64_t *p = (const uint64_t *)u->data;
      for (int64_t i = 0; i < u->size; i++)
        if (p[i] > (uint64_t)INT64_MAX && mode == CN_INDEX_RAISE) {
          st = cn_error(CN_ERR_INDEX,
                        "%s: index %" PRIu64
                        " is out of bounds for axis %d with size %" PRId64,
                        fn, p[i], (int)axis, extent);
          break;
        }
      cn_array_release(u);
    }
  }
  if (st == CN_OK)
    st = cn_assign(r, h);
  cn_array_release(h);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  int64_t bad = -1;
  st = cn_cpu_backend()->compute->index_normalize(r, extent, mode, &bad);
  if (st == CN_OK && bad >= 0)
    st = idx_out_of_range(((const int64_t *)r->data)[bad], extent, mode, axis,
                          fn);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_idx_normalize_on(cn_array_s **out, const cn_array_s *idx,
                              int64_t extent, int32_t mode, int32_t axis,
                              const char *fn) {
  const cn_backend *be = cn_backend_of(idx);
  if (be->device_type == CN_DEVICE_CPU || be->compute->index_normalize == NULL ||
      idx->dtype == CN_UINT64 || !cn_is_integer(idx->dtype))
    return cn_idx_normalize(out, idx, extent, mode, axis, fn);
  /* WRAP and CLIP have nothing to fold into on an empty axis. */
  if (extent == 0 && mode != CN_INDEX_RAISE && idx->size > 0)
    return idx_out_of_range(0, extent, mode, axis, fn);
  cn_array_s *r = NULL;
  cn_status st = cn_new_on(&r, idx, CN_INT64, idx->ndim, idx->shape);
  if (st == CN_OK)
    st = cn_assign(r, (cn_array)idx);
  int64_t bad = -1, v = 0;
  if (st == CN_OK)
    st = be->compute->index_normalize(r, extent, mode, &bad);
  if (st == CN_OK && bad >= 0) {
    st = be->device->copy_to_host(&v, (const int64_t *)r->data + bad,
                                  sizeof v);
    if (st == CN_OK)
      st = idx_out_of_range(v, extent, mode, axis, fn);
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_merge_axes(cn_array_s **out, bool *copied, const cn_array_s *a,
                        int32_t first, int32_t m) {
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  int32_t nd = 0;
  int64_t p = 1;
  for (int32_t i = 0; i < m; i++)
    p *= a->shape[first + i];
  bool ok = true;
  int64_t s = m > 0 ? a->strides[first + m - 1] : 1;
  int64_t later = 1;
  for (int32_t i = m - 1; i >= 0; i--) {
    int64_t e = a->shape[first + i];
    if (e > 1 && a->strides[first + i] != s * later)
      ok = false;
    later *= e;
  }
  if (p == 0)
    ok = true; /* empty: any strides do */
  const cn_array_s *src = a;
  cn_array_s *tmp = NULL;
  if (!ok) {
    cn_status st = cn_as_contig(&tmp, a, a->dtype);
    if (st != CN_OK)
      return st;
    src = tmp;
    s = src->strides[first + m - 1];
  }
  for (int32_t d = 0; d < first; d++) {
    shape[nd] = src->shape[d];
    strides[nd++] = src->strides[d];
  }
  shape[nd] = p;
  strides[nd++] = s;
  for (int32_t d = first + m; d < src->ndim; d++) {
    shape[nd] = src->shape[d];
    strides[nd++] = src->strides[d];
  }
  cn_status st = cn_array_view(out, src, src->data, nd, shape, strides);
  cn_array_release(tmp);
  *copied = !ok;
  return st;
}

cn_status cn_check_dst(const cn_array_s *dst, int32_t ndim,
                       const int64_t *shape, const cn_array_s *like,
                       const char *fn) {
  CN_CHECK_ARRAY(dst, fn, "dst");
  if (!cn_array_writeable(dst))
    return cn_error(CN_ERR_VALUE, "%s: argument 'dst' is read-only", fn);
  bool same = dst->ndim == ndim;
  for (int32_t d = 0; same && d < ndim; d++)
    same = dst->shape[d] == shape[d];
  if (!same) {
    char b1[256], b2[256];
    return cn_error(CN_ERR_SHAPE,
                    "%s: argument 'dst' has shape %s, the result has shape %s",
                    fn, cn_fmt_shape(b1, sizeof b1, dst->ndim, dst->shape),
                    cn_fmt_shape(b2, sizeof b2, ndim, shape));
  }
  const cn_array_s *pair[2] = {like, dst};
  return cn_same_device(2, pair, fn);
}

cn_status cn_finish_dst(cn_array *out, cn_array_s *r, cn_array_s *dst) {
  if (!dst) {
    *out = r;
    return CN_OK;
  }
  cn_status st = cn_assign(dst, r);
  cn_array_release(r);
  if (st != CN_OK)
    return st;
  cn_array_retain(dst);
  *out = dst;
  return CN_OK;
}
