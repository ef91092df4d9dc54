/* Host float64 lanes for the statistics entry points (stats_util.h). */
#include "stats_util.h"

#include <string.h>

cn_status cn_host_as(cn_array_s **out, const cn_array_s *a, cn_dtype dtype) {
  cn_array_s *h = NULL;
  cn_status st = cn_to_host(&h, (cn_array)a);
  if (st != CN_OK)
    return st;
  st = cn_as_contig(out, h, dtype);
  cn_array_release(h);
  return st;
}

cn_status cn_host_f64(cn_array_s **out, const cn_array_s *a) {
  return cn_host_as(out, a, CN_FLOAT64);
}

cn_status cn_require_real(const cn_array_s *a, const char *fn,
                          const char *arg) {
  if (cn_is_complex(a->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: argument '%s' has complex dtype %s, "
                    "which is not supported",
                    fn, arg, cn_dtype_name(a->dtype));
  return CN_OK;
}

cn_status cn_lanes_make(cn_lanes *L, const cn_array_s *a, int32_t naxes,
                        const int32_t *axes, int32_t keepdims, const char *fn) {
  return cn_lanes_make_as(L, a, naxes, axes, keepdims, CN_FLOAT64, fn);
}

static cn_status lanes_make(cn_lanes *L, const cn_array_s *a, int32_t naxes,
                            const int32_t *axes, int32_t keepdims,
                            cn_dtype dtype, bool host, const char *fn) {
  memset(L, 0, sizeof *L);
  uint64_t mask;
  cn_status st = cn_axes_mask(&mask, naxes, axes, a->ndim, fn);
  if (st != CN_OK)
    return st;
  int32_t perm[CN_MAX_DIMS], np = 0;
  L->nlanes = 1;
  L->len = 1;
  for (int32_t d = 0; d < a->ndim; d++)
    if (!(mask >> d & 1)) {
      perm[np++] = d;
      L->nlanes *= a->shape[d];
      L->out_shape[L->out_nd++] = a->shape[d];
    } else if (keepdims) {
      L->out_shape[L->out_nd++] = 1;
    }
  if (keepdims) {
    for (int32_t d = 0; d < a->ndim; d++)
      if (!(mask >> d & 1))
        L->out_shape[d] = a->shape[d];
  }
  for (int32_t d = 0; d < a->ndim; d++)
    if (mask >> d & 1) {
      perm[np++] = d;
      L->len *= a->shape[d];
    }
  cn_array_s *pv = NULL;
  st = cn_permute_dims(&pv, (cn_array)a, a->ndim, perm);
  if (st == CN_OK)
    st = host ? cn_host_as(&L->h, pv, dtype) : cn_as_contig(&L->h, pv, dtype);
  cn_array_release(pv);
  return st;
}

cn_status cn_lanes_make_as(cn_lanes *L, const cn_array_s *a, int32_t naxes,
                           const int32_t *axes, int32_t keepdims,
                           cn_dtype dtype, const char *fn) {
  return lanes_make(L, a, naxes, axes, keepdims, dtype, true, fn);
}

cn_status cn_lanes_make_on(cn_lanes *L, const cn_array_s *a, int32_t naxes,
                           const int32_t *axes, int32_t keepdims,
                           cn_dtype dtype, const char *fn) {
  return lanes_make(L, a, naxes, axes, keepdims, dtype, false, fn);
}

void cn_lanes_free(cn_lanes *L) {
  cn_array_release(L->h);
  L->h = NULL;
}

cn_status cn_result_to(cn_array *out, cn_array_s *h, const cn_array_s *like,
                       cn_dtype dtype) {
  cn_array_s *c = NULL, *d = NULL;
  cn_status st = CN_OK;
  if (dtype != CN_DTYPE_DEFAULT && dtype != h->dtype) {
    st = cn_astype(&c, h, dtype, 1);
  } else {
    cn_array_retain(h);
    c = h;
  }
  cn_array_release(h);
  if (st != CN_OK)
    return st;
  st = cn_idx_to_device_of(&d, c, like);
  cn_array_release(c);
  if (st != CN_OK)
    return st;
  *out = d;
  return CN_OK;
}

cn_status cn_host_new(cn_array_s **out, cn_dtype dt, int32_t nd,
                      const int64_t *shape) {
  return cn_array_new(out, cn_cpu_backend(), 0, dt, nd, shape, CN_ORDER_C);
}

cn_dtype cn_float_result(cn_dtype a) {
  return a == CN_FLOAT32 ? CN_FLOAT32 : CN_FLOAT64;
}

cn_status cn_weak_scalar_like(cn_array_s **out, cn_scalar v,
                              const cn_array_s *like) {
  cn_dtype dt = v.kind == CN_SCALAR_COMPLEX ? CN_COMPLEX128 : CN_FLOAT64;
  cn_array_s *a = NULL;
  cn_status st = cn_array_new(&a, cn_backend_of(like), like->buf->device_id,
                              dt, 0, NULL, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  unsigned char bytes[16];
  cn_scalar_to_bytes(bytes, dt, v);
  if ((st = cn_backend_of(a)->compute->fill(a, bytes)) != CN_OK) {
    cn_array_release(a);
    return st;
  }
  a->flags |= CN_FLAG_WEAK_SCALAR;
  a->weak = v;
  *out = a;
  return CN_OK;
}
