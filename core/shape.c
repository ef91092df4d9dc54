/* Shape arithmetic: sizes with overflow checks, axes, broadcasting. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Formats a shape as "(2, 3)" into buf for error messages. */
static const char *fmt_shape(char *buf, size_t cap, int32_t ndim,
                             const int64_t *shape) {
  size_t n = 0;
  n += (size_t)snprintf(buf + n, cap - n, "(");
  for (int i = 0; i < ndim && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, i ? ", %lld" : "%lld",
                          (long long)shape[i]);
  if (n < cap)
    snprintf(buf + n, cap - n, ndim == 1 ? ",)" : ")");
  return buf;
}

cn_status cn_shape_size(int64_t *out, int32_t ndim, const int64_t *shape,
                        int64_t itemsize, const char *fn) {
  if (ndim < 0 || ndim > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s%sndim %d outside [0, %d]", fn,
                    *fn ? ": " : "", ndim, CN_MAX_DIMS);
  if (ndim > 0 && shape == NULL)
    return cn_error(CN_ERR_VALUE, "%s%sargument 'shape' is NULL", fn,
                    *fn ? ": " : "");
  int64_t size = 1, span = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return cn_error(CN_ERR_VALUE, "%s%snegative dimensions are not allowed "
                      "(extent %lld on axis %d)", fn, *fn ? ": " : "",
                      (long long)shape[i], i);
    /* As NumPy: the non-zero extents must multiply without overflow even
     * when another extent is 0, so strides stay representable. */
    if (shape[i] > 0 && __builtin_mul_overflow(span, shape[i], &span))
      overflow = true;
    if (!overflow) /* size <= span, so it cannot overflow either */
      size *= shape[i];
  }
  int64_t bytes;
  if (overflow || __builtin_mul_overflow(span, itemsize > 0 ? itemsize : 1, &bytes))
    return cn_error(CN_ERR_VALUE, "%s%sarray is too big: the size of shape "
                    "overflows 64 bits", fn, *fn ? ": " : "");
  *out = size;
  return CN_OK;
}

cn_status cn_normalize_axis(int32_t *out, int32_t axis, int32_t ndim,
                            const char *fn) {
  if (axis < -ndim || axis >= ndim)
    return cn_error(CN_ERR_AXIS,
                    "%s: axis %d is out of bounds for array of dimension %d",
                    fn, axis, ndim);
  *out = axis < 0 ? axis + ndim : axis;
  return CN_OK;
}

cn_status cn_axes_mask(uint64_t *out, int32_t naxes, const int32_t *axes,
                       int32_t ndim, const char *fn) {
  if (naxes == CN_ALL_AXES) {
    *out = ndim >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << ndim) - 1);
    return CN_OK;
  }
  if (naxes < 0 || (naxes > 0 && axes == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid axis list (naxes %d)", fn, naxes);
  uint64_t m = 0;
  for (int i = 0; i < naxes; i++) {
    int32_t ax = 0;
    cn_status st = cn_normalize_axis(&ax, axes[i], ndim, fn);
    if (st != CN_OK)
      return st;
    if (m & ((uint64_t)1 << ax))
      return cn_error(CN_ERR_VALUE, "%s: repeated axis %d", fn, axes[i]);
    m |= (uint64_t)1 << ax;
  }
  *out = m;
  return CN_OK;
}

static cn_status broadcast_shapes(int32_t *out_ndim, int64_t *out_shape,
                                  int32_t n, const int32_t *ndims,
                                  const int64_t *const *shapes,
                                  const char *fn) {
  int32_t nd = 0;
  for (int k = 0; k < n; k++) {
    if (ndims[k] < 0 || ndims[k] > CN_MAX_DIMS)
      return cn_error(CN_ERR_VALUE, "%s: ndim %d outside [0, %d]", fn,
                      ndims[k], CN_MAX_DIMS);
    if (ndims[k] > nd)
      nd = ndims[k];
  }
  int64_t res[CN_MAX_DIMS];
  for (int i = 0; i < nd; i++)
    res[i] = 1;
  for (int k = 0; k < n; k++) {
    int off = nd - ndims[k];
    for (int i = 0; i < ndims[k]; i++) {
      int64_t e = shapes[k][i];
      int64_t *r = &res[off + i];
      if (e == *r || e == 1)
        continue;
      if (*r == 1) {
        *r = e;
        continue;
      }
      /* find the clashing operand for the message */
      char b1[256], b2[256];
      int j = 0;
      for (; j < k; j++) {
        int oj = nd - ndims[j];
        if (off + i >= oj && shapes[j][off + i - oj] != 1)
          break;
      }
      return cn_error(CN_ERR_SHAPE,
                      "%s: operands could not be broadcast together with "
                      "shapes %s %s",
                      fn, fmt_shape(b1, sizeof b1, ndims[j], shapes[j]),
                      fmt_shape(b2, sizeof b2, ndims[k], shapes[k]));
    }
  }
  *out_ndim = nd;
  memcpy(out_shape, res, sizeof(int64_t) * (size_t)nd);
  return CN_OK;
}

cn_status cn_broadcast_shapes(int32_t *out_ndim, int64_t *out_shape, int32_t n,
                              const int32_t *ndims,
                              const int64_t *const *shapes) {
  CN_CHECK_OUT(out_ndim, "cn_broadcast_shapes");
  CN_CHECK_OUT(out_shape, "cn_broadcast_shapes");
  if (n < 0 || (n > 0 && (ndims == NULL || shapes == NULL)))
    return cn_error(CN_ERR_VALUE, "cn_broadcast_shapes: invalid shape list");
  for (int k = 0; k < n; k++)
    if (ndims[k] > 0 && shapes[k] == NULL)
      return cn_error(CN_ERR_VALUE, "cn_broadcast_shapes: shape %d is NULL", k);
  int64_t tmp[CN_MAX_DIMS];
  int32_t nd;
  cn_status st = broadcast_shapes(&nd, tmp, n, ndims, shapes,
                                  "cn_broadcast_shapes");
  if (st != CN_OK)
    return st;
  *out_ndim = nd;
  memcpy(out_shape, tmp, sizeof(int64_t) * (size_t)nd);
  return CN_OK;
}

cn_status cn_broadcast_shape_arrays(int32_t *out_ndim, int64_t *out_shape,
                                    int32_t n, const cn_array_s *const *arrs,
                                    const char *fn) {
  int32_t ndims[8];
  const int64_t *shapes[8];
  if (n > 8)
    return cn_error(CN_ERR_INTERNAL, "%s: too many operands", fn);
  for (int k = 0; k < n; k++) {
    ndims[k] = arrs[k]->ndim;
    shapes[k] = arrs[k]->shape;
  }
  return broadcast_shapes(out_ndim, out_shape, n, ndims, shapes, fn);
}

cn_status cn_broadcast_view(cn_array_s **out, const cn_array_s *a,
                            int32_t ndim, const int64_t *shape,
                            const char *fn) {
  if (ndim < a->ndim)
    goto fail;
  int64_t strides[CN_MAX_DIMS];
  int off = ndim - a->ndim;
  for (int i = 0; i < ndim; i++) {
    if (i < off) {
      strides[i] = 0;
      continue;
    }
    int64_t e = a->shape[i - off];
    if (e == shape[i])
      strides[i] = e == 1 ? 0 : a->strides[i - off];
    else if (e == 1)
      strides[i] = 0;
    else
      goto fail;
  }
  cn_status st = cn_array_view(out, a, a->data, ndim, shape, strides);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
fail:;
  char b1[256], b2[256];
  return cn_error(CN_ERR_SHAPE,
                  "%s: cannot broadcast an array of shape %s to shape %s", fn,
                  fmt_shape(b1, sizeof b1, a->ndim, a->shape),
                  fmt_shape(b2, sizeof b2, ndim, shape));
}

cn_status cn_axis_source(cn_array_s **src, int32_t *ax, cn_array_s *a,
                         int32_t axis, const char *fn) {
  if (axis == CN_AXIS_NONE) {
    *ax = 0;
    cn_status st = cn_ravel(src, a, CN_ORDER_C);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  cn_status st = cn_normalize_axis(ax, axis, a->ndim, fn);
  if (st != CN_OK)
    return st;
  cn_array_retain(a);
  *src = a;
  return CN_OK;
}
