/* Padding (include/cunumpy/manip.h: cn_pad, cn_pad_ext): NumPy's np.pad
 * built from views, cn_assign, reductions and ufuncs, so every dtype and
 * device the core serves works. */
#include "cunumpy/manip.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/stats.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "array_util.h"
#include "manip_util.h"


/* Source position (relative to the valid region of extent n) for an output
 * offset j relative to its start. */
static int64_t pad_source(int64_t j, int64_t n, int32_t mode) {
  switch (mode) {
  case CN_PAD_EDGE:
    return j < 0 ? 0 : (j >= n ? n - 1 : j);
  case CN_PAD_WRAP: {
    int64_t m = j % n;
    return m < 0 ? m + n : m;
  }
  case CN_PAD_REFLECT: {
    if (n == 1)
      return 0;
    int64_t p = 2 * n - 2, m = (j < 0 ? -j : j) % p;
    return m >= n ? p - m : m;
  }
  default: { /* symmetric */
    int64_t p = 2 * n, m = j % p;
    if (m < 0)
      m += p;
    return m >= n ? p - 1 - m : m;
  }
  }
}

/* Copies a into the region of r that the pads surround. */
static cn_status pad_copy_center(cn_array_s *r, const cn_array_s *a,
                                 const int64_t *pad_width) {
  int64_t start[CN_MAX_DIMS], stop[CN_MAX_DIMS], step[CN_MAX_DIMS];
  for (int32_t d = 0; d < a->ndim; d++) {
    start[d] = pad_width[2 * d];
    stop[d] = pad_width[2 * d] + a->shape[d];
    step[d] = 1;
  }
  cn_array_s *center = NULL;
  cn_status st = cn_slice(&center, r, a->ndim, start, stop, step);
  if (st == CN_OK)
    st = cn_assign(center, (cn_array_s *)a);
  cn_array_release(center);
  return st;
}

cn_status cn_pad(cn_array *out, cn_array a, const int64_t *pad_width,
                 int32_t mode, cn_scalar constant_value) {
  const char *fn = "cn_pad";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim > 0 && pad_width == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'pad_width' is NULL", fn);
  if (mode < CN_PAD_CONSTANT || mode > CN_PAD_WRAP)
    return cn_error(CN_ERR_VALUE, "%s: unknown mode %d", fn, (int)mode);
  int64_t shape[CN_MAX_DIMS];
  for (int32_t d = 0; d < a->ndim; d++) {
    int64_t b = pad_width[2 * d], e = pad_width[2 * d + 1];
    if (b < 0 || e < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: index can't contain negative values (axis %d has "
                      "pad widths %" PRId64 ", %" PRId64 ")",
                      fn, (int)d, b, e);
    if (mode != CN_PAD_CONSTANT && a->shape[d] == 0 && (b || e))
      return cn_error(CN_ERR_VALUE,
                      "%s: can't extend empty axis %d using modes other than "
                      "'constant'",
                      fn, (int)d);
    if (__builtin_add_overflow(a->shape[d], b, &shape[d]) ||
        __builtin_add_overflow(shape[d], e, &shape[d]))
      return cn_error(CN_ERR_VALUE, "%s: result too large", fn);
  }
  cn_array_s *r = NULL;
  cn_status st = cn_new_on(&r, a, a->dtype, a->ndim, shape);
  if (st == CN_OK && mode == CN_PAD_CONSTANT)
    st = cn_fill(r, constant_value);
  if (st == CN_OK) {
    st = pad_copy_center(r, a, pad_width);
  }
  /* Axis by axis: earlier axes' pads are then copied along with the rest. */
  for (int32_t d = 0; d < a->ndim && st == CN_OK && mode != CN_PAD_CONSTANT;
       d++) {
    int64_t b = pad_width[2 * d], n = a->shape[d];
    for (int64_t i = 0; i < shape[d] && st == CN_OK; i++) {
      if (i == b)
        i = b + n;
      if (i >= shape[d])
        break;
      int64_t s = b + pad_source(i - b, n, mode);
      cn_array_s *dv = NULL, *sv = NULL;
      st = cn_slice_axis(&dv, r, d, i, i + 1, 1);
      if (st == CN_OK)
        st = cn_slice_axis(&sv, r, d, s, s + 1, 1);
      if (st == CN_OK)
        st = cn_assign(dv, sv);
      cn_array_release(dv);
      cn_array_release(sv);
    }
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}


/* ---- every mode and option (cn_pad_ext) --------------------------------- */

/* Like NumPy's np.pad, each axis in turn works on the view that holds the
 * earlier axes' padding and, on the later axes, only the original area
 * (NumPy's _view_roi), so corners come from the later axes. */
static cn_status pad_roi(cn_array_s **out, cn_array_s *r, const cn_array_s *a,
                         const int64_t *pw, int32_t ax) {
  int64_t start[CN_MAX_DIMS], stop[CN_MAX_DIMS], step[CN_MAX_DIMS];
  for (int32_t d = 0; d < r->ndim; d++) {
    start[d] = d <= ax ? 0 : pw[2 * d];
    stop[d] = d <= ax ? r->shape[d] : pw[2 * d] + a->shape[d];
    step[d] = 1;
  }
  return cn_slice(out, r, r->ndim, start, stop, step);
}

/* roi[start:stop:step] along ax = src (broadcast, unsafe cast). */
static cn_status set_along(cn_array_s *roi, int32_t ax, int64_t start,
                           int64_t stop, int64_t step, cn_array_s *src) {
  cn_array_s *v = NULL;
  cn_status st = cn_slice_axis(&v, roi, ax, start, stop, step);
  if (st == CN_OK)
    st = cn_assign(v, src);
  cn_array_release(v);
  return st;
}

static bool is_integer_kind(cn_dtype dt) {
  cn_dtype_kind k = CN_KIND_FLOAT;
  cn_dtype_get_kind(&k, dt);
  return k == CN_KIND_INT || k == CN_KIND_UINT;
}

/* The 0-d entry (d, side) of values broadcast to (ndim, 2). */
static cn_status pair_value(cn_array_s **out, cn_array_s *vb, int32_t d,
                            int32_t side) {
  cn_array_s *row = NULL;
  cn_status st = cn_index_axis(&row, vb, 0, d);
  if (st == CN_OK)
    st = cn_index_axis(out, row, 0, side);
  cn_array_release(row);
  return st;
}

/* Statistic of roi[start:stop] along ax with the axis kept, rounded half to
 * even for integer arrays (NumPy's _round_if_needed). */
static cn_status pad_stat(cn_array_s **out, cn_array_s *roi, int32_t ax,
                          int64_t start, int64_t stop, int32_t mode) {
  cn_array_s *chunk = NULL, *s = NULL;
  cn_status st = cn_slice_axis(&chunk, roi, ax, start, stop, 1);
  if (st == CN_OK) {
    switch (mode) {
    case CN_PAD_MAXIMUM:
      st = cn_max(&s, chunk, 1, &ax, 1, CN_DTYPE_DEFAULT, NULL);
      break;
    case CN_PAD_MINIMUM:
      st = cn_min(&s, chunk, 1, &ax, 1, CN_DTYPE_DEFAULT, NULL);
      break;
    case CN_PAD_MEAN:
      st = cn_mean(&s, chunk, 1, &ax, 1, CN_DTYPE_DEFAULT, NULL);
      break;
    default:
      st = cn_median(&s, chunk, 1, &ax, 1);
      break;
    }
  }
  cn_array_release(chunk);
  if (st == CN_OK && is_integer_kind(roi->dtype) && !is_integer_kind(s->dtype)) {
    cn_array_s *rounded = NULL;
    st = cn_round(&rounded, s, 0, NULL);
    cn_array_release(s);
    s = rounded;
  }
  if (st != CN_OK) {
    cn_array_release(s);
    return st;
  }
  *out = s;
  return CN_OK;
}

/* NumPy's linspace(end, edge, w, endpoint=False, dtype=roi's) along ax, in
 * its arithmetic: k * step + end, or (k / w) * delta + end when a step is 0
 * (denormals), floored for integer arrays. */
static cn_status pad_ramp(cn_array_s **out, cn_array_s *roi, int32_t ax,
                          int64_t w, cn_array_s *end, cn_array_s *edge) {
  cn_dtype dt = CN_FLOAT64;
  cn_status st = cn_result_type_scalar(&dt, roi->dtype, cn_scalar_float(0));
  cn_dtype_kind ek = CN_KIND_FLOAT;
  if (st == CN_OK)
    st = cn_dtype_get_kind(&ek, end->dtype);
  if (st == CN_OK && ek == CN_KIND_COMPLEX)
    dt = cn_complex_dtype(dt);
  if (st != CN_OK)
    return st;
  cn_array_s *e = NULL, *s = NULL, *delta = NULL, *wa = NULL, *step = NULL,
             *k = NULL, *iszero = NULL, *anyz = NULL, *t = NULL, *y = NULL;
  int64_t kshape[CN_MAX_DIMS];
  for (int32_t d = 0; d < roi->ndim; d++)
    kshape[d] = d == ax ? w : 1;
  int64_t *ks = (int64_t *)cn_malloc(sizeof(int64_t) * (size_t)w);
  if (!ks)
    return cn_error(CN_ERR_MEMORY, "cn_pad_ext: out of memory");
  for (int64_t i = 0; i < w; i++)
    ks[i] = i;
  st = cn_astype(&e, edge, dt, 0);
  if (st == CN_OK)
    st = cn_astype(&s, end, dt, 0);
  if (st == CN_OK)
    st = cn_subtract(&delta, e, s, NULL);
  if (st == CN_OK)
    st = cn_int64_on(&t, &w, -1, roi);
  if (st == CN_OK)
    st = cn_astype(&wa, t, dt, 1);
  cn_array_release(t);
  t = NULL;
  if (st == CN_OK)
    st = cn_divide(&step, delta, wa, NULL);
  if (st == CN_OK)
    st = cn_int64_on(&t, ks, w, roi);
  free(ks);
  if (st == CN_OK)
    st = cn_astype(&y, t, dt, 1);
  cn_array_release(t);
  t = NULL;
  if (st == CN_OK)
    st = cn_reshape(&k, y, roi->ndim, kshape, CN_ORDER_C);
  cn_array_release(y);
  y = NULL;
  if (st == CN_OK)
    st = cn_logical_not(&iszero, step, NULL);
  if (st == CN_OK)
    st = cn_any(&anyz, iszero, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  cn_scalar z;
  memset(&z, 0, sizeof z);
  if (st == CN_OK)
    st = cn_item(&z, anyz);
  if (st == CN_OK && z.i) {
    st = cn_divide(&t, k, wa, NULL);
    if (st == CN_OK)
      st = cn_multiply(&y, t, delta, NULL);
  } else if (st == CN_OK) {
    st = cn_multiply(&y, k, step, NULL);
  }
  cn_array_release(t);
  t = NULL;
  if (st == CN_OK)
    st = cn_add(&t, y, s, y);
  cn_array_release(t);
  t = NULL;
  if (st == CN_OK && is_integer_kind(roi->dtype))
    st = cn_floor(&t, y, y);
  cn_array_release(t);
  cn_array_release(e);
  cn_array_release(s);
  cn_array_release(delta);
  cn_array_release(wa);
  cn_array_release(step);
  cn_array_release(k);
  cn_array_release(iszero);
  cn_array_release(anyz);
  if (st != CN_OK) {
    cn_array_release(y);
    return st;
  }
  *out = y;
  return CN_OK;
}

/* 2 * edge - v, with bool arrays computed in int64 (as NumPy's 2 * x). */
static cn_status odd_reflection(cn_array_s **out, cn_array_s *edge,
                                cn_array_s *v) {
  cn_array_s *e = NULL, *x = NULL, *twice = NULL;
  cn_dtype dt = edge->dtype == CN_BOOL ? CN_INT64 : edge->dtype;
  cn_status st = cn_astype(&e, edge, dt, 0);
  if (st == CN_OK)
    st = cn_astype(&x, v, dt, 0);
  if (st == CN_OK)
    st = cn_add(&twice, e, e, NULL);
  if (st == CN_OK)
    st = cn_subtract(out, twice, x, NULL);
  cn_array_release(e);
  cn_array_release(x);
  cn_array_release(twice);
  return st;
}

/* reflect / symmetric with reflect_type='odd' along ax: NumPy's
 * _set_reflect_both, chunk by chunk, each chunk mirroring the area filled
 * so far (so widths beyond the extent keep extrapolating). */
static cn_status pad_reflect_odd(cn_array_s *roi, int32_t ax, int64_t left,
                                 int64_t right, int64_t n, bool include_edge) {
  int64_t len = roi->shape[ax];
  cn_status st = CN_OK;
  while ((left > 0 || right > 0) && st == CN_OK) {
    int64_t old = len - right - left, edge_offset;
    if (include_edge) {
      old = old / n * n;
      edge_offset = 1;
    } else {
      old = (old - 1) / (n - 1) * (n - 1) + 1 - 1;
      edge_offset = 0;
    }
    cn_array_s *src = NULL, *edge = NULL, *v = NULL;
    if (left > 0) {
      int64_t chunk = old < left ? old : left;
      int64_t stop = left - edge_offset, start = stop + chunk;
      st = cn_slice_axis(&src, roi, ax, start, stop, -1);
      if (st == CN_OK)
        st = cn_slice_axis(&edge, roi, ax, left, left + 1, 1);
      if (st == CN_OK)
        st = odd_reflection(&v, edge, src);
      if (st == CN_OK)
        st = set_along(roi, ax, left - chunk, left, 1, v);
      left -= chunk;
      cn_array_release(src);
      cn_array_release(edge);
      cn_array_release(v);
      src = edge = v = NULL;
    }
    if (right > 0 && st == CN_OK) {
      int64_t chunk = old < right ? old : right;
      int64_t start = -right + edge_offset - 2, stop = start - chunk;
      /* Python's negative indices, clamped as slices clamp them. */
      st = cn_slice_axis(&src, roi, ax, start, stop < -len ? CN_SLICE_NONE
                                                           : stop, -1);
      if (st == CN_OK)
        st = cn_slice_axis(&edge, roi, ax, -right - 1, -right, 1);
      if (st == CN_OK)
        st = odd_reflection(&v, edge, src);
      if (st == CN_OK)
        st = set_along(roi, ax, len - right, len - right + chunk, 1, v);
      right -= chunk;
      cn_array_release(src);
      cn_array_release(edge);
      cn_array_release(v);
    }
  }
  return st;
}

/* Host copy of stat_length broadcast to (ndim, 2) as int64. */
static cn_status stat_lengths(int64_t *sl, const cn_array_s *a,
                              cn_array_s *stat_length, const char *fn) {
  int64_t shape[2] = {a->ndim, 2};
  if (!is_integer_kind(stat_length->dtype))
    return cn_error(CN_ERR_TYPE, "%s: stat_length must be of integral type",
                    fn);
  cn_array_s *b = NULL, *c = NULL;
  cn_status st = cn_broadcast_to(&b, stat_length, 2, shape);
  if (st == CN_OK)
    st = cn_astype(&c, b, CN_INT64, 1);
  if (st == CN_OK)
    st = cn_copy_to_buffer(sl, (int64_t)sizeof(int64_t) * 2 * a->ndim, c,
                           CN_ORDER_C);
  cn_array_release(b);
  cn_array_release(c);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  for (int32_t i = 0; i < 2 * a->ndim; i++)
    if (sl[i] < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: index can't contain negative values (stat_length "
                      "%" PRId64 ")",
                      fn, sl[i]);
  return CN_OK;
}

cn_status cn_pad_ext(cn_array *out, cn_array a, const int64_t *pad_width,
                     int32_t mode, cn_array values, cn_array stat_length,
                     int32_t reflect_odd) {
  const char *fn = "cn_pad_ext";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (values)
    CN_CHECK_ARRAY(values, fn, "values");
  if (stat_length)
    CN_CHECK_ARRAY(stat_length, fn, "stat_length");
  if (a->ndim > 0 && pad_width == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'pad_width' is NULL", fn);
  if (mode < CN_PAD_CONSTANT || mode > CN_PAD_EMPTY)
    return cn_error(CN_ERR_VALUE, "%s: unknown mode %d", fn, (int)mode);
  bool stat = mode >= CN_PAD_MAXIMUM && mode <= CN_PAD_MEDIAN;
  bool odd = reflect_odd &&
             (mode == CN_PAD_REFLECT || mode == CN_PAD_SYMMETRIC);
  bool shaped = mode == CN_PAD_CONSTANT || mode == CN_PAD_LINEAR_RAMP ||
                mode == CN_PAD_EMPTY;
  int64_t shape[CN_MAX_DIMS], sl[2 * CN_MAX_DIMS];
  for (int32_t d = 0; d < a->ndim; d++) {
    int64_t b = pad_width[2 * d], e = pad_width[2 * d + 1];
    if (b < 0 || e < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: index can't contain negative values (axis %d has "
                      "pad widths %" PRId64 ", %" PRId64 ")",
                      fn, (int)d, b, e);
    if (mode != CN_PAD_CONSTANT && mode != CN_PAD_EMPTY && a->shape[d] == 0 &&
        (b || e))
      return cn_error(CN_ERR_VALUE,
                      "%s: can't extend empty axis %d using modes other than "
                      "'constant' or 'empty'",
                      fn, (int)d);
    if (__builtin_add_overflow(a->shape[d], b, &shape[d]) ||
        __builtin_add_overflow(shape[d], e, &shape[d]))
      return cn_error(CN_ERR_VALUE, "%s: result too large", fn);
  }
  cn_array_s *vb = NULL;
  cn_status st = CN_OK;
  if (values && (mode == CN_PAD_CONSTANT || mode == CN_PAD_LINEAR_RAMP)) {
    int64_t vshape[2] = {a->ndim, 2};
    if (values->buf->backend != a->buf->backend ||
        values->buf->device_id != a->buf->device_id)
      return cn_error(CN_ERR_DEVICE, "%s: values is on a different device "
                                     "than a", fn);
    if ((st = cn_broadcast_to(&vb, values, 2, vshape)) != CN_OK)
      return cn_error_prefix(st, fn);
  }
  if (stat && stat_length && a->size > 0 &&
      (st = stat_lengths(sl, a, stat_length, fn)) != CN_OK) {
    cn_array_release(vb);
    return st;
  }
  if (stat && a->size > 0 && (mode == CN_PAD_MAXIMUM || mode == CN_PAD_MINIMUM))
    for (int32_t d = 0; d < a->ndim && stat_length; d++)
      if (sl[2 * d] == 0 || sl[2 * d + 1] == 0) {
        cn_array_release(vb);
        return cn_error(CN_ERR_VALUE, "%s: stat_length of 0 yields no value "
                                      "for padding", fn);
      }
  if (!shaped && !odd && !stat && a->size > 0) { /* cn_pad's modes */
    cn_array_release(vb);
    return cn_pad(out, a, pad_width, mode, cn_scalar_int(0));
  }
  cn_array_s *r = NULL;
  st = cn_new_on(&r, a, a->dtype, a->ndim, shape);
  if (st == CN_OK && (mode == CN_PAD_EMPTY || a->size == 0 || !vb))
    st = cn_fill(r, cn_scalar_int(0));
  if (st == CN_OK && a->ndim > 0) {
    st = pad_copy_center(r, a, pad_width);
  } else if (st == CN_OK) {
    st = cn_assign(r, a);
  }
  bool fill_pads = mode == CN_PAD_CONSTANT ? vb != NULL
                                           : mode != CN_PAD_EMPTY && a->size;
  for (int32_t d = 0; d < a->ndim && st == CN_OK && fill_pads; d++) {
    int64_t b = pad_width[2 * d], e = pad_width[2 * d + 1], n = a->shape[d];
    cn_array_s *roi = NULL, *v0 = NULL, *v1 = NULL, *e0 = NULL, *e1 = NULL;
    st = pad_roi(&roi, r, a, pad_width, d);
    int64_t len = st == CN_OK ? roi->shape[d] : 0;
    if (st != CN_OK) {
    } else if (mode == CN_PAD_CONSTANT) {
      st = pair_value(&v0, vb, d, 0);
      if (st == CN_OK)
        st = pair_value(&v1, vb, d, 1);
      if (st == CN_OK && b)
        st = set_along(roi, d, 0, b, 1, v0);
      if (st == CN_OK && e)
        st = set_along(roi, d, len - e, len, 1, v1);
    } else if (stat) {
      int64_t lb = stat_length && sl[2 * d] < n ? sl[2 * d] : n;
      int64_t le = stat_length && sl[2 * d + 1] < n ? sl[2 * d + 1] : n;
      if (b)
        st = pad_stat(&v0, roi, d, b, b + lb, mode);
      if (st == CN_OK && b)
        st = set_along(roi, d, 0, b, 1, v0);
      if (st == CN_OK && e)
        st = pad_stat(&v1, roi, d, len - e - le, len - e, mode);
      if (st == CN_OK && e)
        st = set_along(roi, d, len - e, len, 1, v1);
    } else if (mode == CN_PAD_LINEAR_RAMP) {
      cn_array_s *end = NULL, *edge = NULL;
      if (vb == NULL)
        st = cn_scalar_array(&end, cn_scalar_int(0));
      for (int32_t side = 0; side < 2 && st == CN_OK; side++) {
        int64_t w = side ? e : b;
        if (!w)
          continue;
        if (vb) {
          cn_array_release(end);
          end = NULL;
          st = pair_value(&end, vb, d, side);
        }
        int64_t at = side ? len - e - 1 : b;
        if (st == CN_OK)
          st = cn_slice_axis(&edge, roi, d, at, at + 1, 1);
        cn_array_s **ramp = side ? &e1 : &e0;
        if (st == CN_OK)
          st = pad_ramp(ramp, roi, d, w, end, edge);
        cn_array_release(edge);
        edge = NULL;
        /* The after side runs from the end value back towards the edge. */
        if (st == CN_OK)
          st = side ? set_along(roi, d, len - 1, len - e - 1, -1, *ramp)
                    : set_along(roi, d, 0, b, 1, *ramp);
      }
      cn_array_release(end);
    } else if (n == 1 && (b || e)) { /* odd reflection of a singleton: edge */
      st = cn_slice_axis(&v0, roi, d, b, b + 1, 1);
      if (st == CN_OK && b)
        st = set_along(roi, d, 0, b, 1, v0);
      if (st == CN_OK && e)
        st = set_along(roi, d, len - e, len, 1, v0);
    } else {
      st = pad_reflect_odd(roi, d, b, e, n, mode == CN_PAD_SYMMETRIC);
    }
    cn_array_release(roi);
    cn_array_release(v0);
    cn_array_release(v1);
    cn_array_release(e0);
    cn_array_release(e1);
  }
  cn_array_release(vb);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}
