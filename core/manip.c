/* Joining, splitting, repetition, rearranging, matrices and grids
 * (include/cunumpy/manip.h; padding is in core/manip_pad.c), built from
 * views, cn_assign and the gather kernel (cn_take), so every dtype and
 * device the core serves works; repeat of host memory writes its blocks
 * directly. */
#include "cunumpy/manip.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/index.h"
#include "array_util.h"

static cn_status check_list(int32_t n, const cn_array *arrays, const char *fn) {
  if (n < 1 || arrays == NULL)
    return cn_error(CN_ERR_VALUE, "%s: need at least one array (n = %d)", fn,
                    (int)n);
  for (int32_t i = 0; i < n; i++) {
    if (arrays[i] == NULL)
      return cn_error(CN_ERR_VALUE, "%s: array %d is NULL", fn, (int)i);
    if (arrays[i]->magic != CN_ARRAY_MAGIC)
      return cn_error(CN_ERR_VALUE, "%s: array %d is a released handle", fn,
                      (int)i);
    if (i && (arrays[i]->buf->backend != arrays[0]->buf->backend ||
              arrays[i]->buf->device_id != arrays[0]->buf->device_id))
      return cn_error(CN_ERR_DEVICE,
                      "%s: array %d is on a different device than array 0", fn,
                      (int)i);
  }
  return CN_OK;
}

static void release_all(cn_array_s **v, int32_t n) {
  for (int32_t i = 0; i < n; i++)
    cn_array_release(v[i]);
}

/* Joins already-validated arrays along ax (all of equal ndim >= 1). */
static cn_status join(cn_array *out, int32_t n, cn_array_s *const *arrs,
                      int32_t ax, cn_dtype dtype, const char *fn) {
  cn_status st;
  cn_dtype rt = dtype;
  if (rt == CN_DTYPE_DEFAULT) {
    rt = arrs[0]->dtype;
    for (int32_t i = 1; i < n; i++)
      if ((st = cn_result_type(&rt, rt, arrs[i]->dtype)) != CN_OK)
        return st;
  } else if (!cn_dtype_is_valid(rt)) {
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype %d", fn, (int)rt);
  }
  int32_t nd = arrs[0]->ndim;
  int64_t shape[CN_MAX_DIMS];
  memcpy(shape, arrs[0]->shape, sizeof(int64_t) * (size_t)nd);
  shape[ax] = 0;
  for (int32_t i = 0; i < n; i++) {
    if (arrs[i]->ndim != nd)
      return cn_error(CN_ERR_VALUE,
                      "%s: all the input arrays must have the same number of "
                      "dimensions, but array 0 has %d and array %d has %d",
                      fn, (int)nd, (int)i, (int)arrs[i]->ndim);
    for (int32_t d = 0; d < nd; d++)
      if (d != ax && arrs[i]->shape[d] != arrs[0]->shape[d])
        return cn_error(CN_ERR_SHAPE,
                        "%s: all the input array dimensions except for the "
                        "concatenation axis must match exactly, but along "
                        "dimension %d, array 0 has size %" PRId64
                        " and array %d has size %" PRId64,
                        fn, (int)d, arrs[0]->shape[d], (int)i,
                        arrs[i]->shape[d]);
    if (__builtin_add_overflow(shape[ax], arrs[i]->shape[ax], &shape[ax]))
      return cn_error(CN_ERR_VALUE, "%s: result too large", fn);
  }
  cn_array_s *r = NULL;
  st = cn_new_on(&r, arrs[0], rt, nd, shape);
  int64_t off = 0;
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    cn_array_s *part = NULL;
    st = cn_slice_axis(&part, r, ax, off, off + arrs[i]->shape[ax], 1);
    if (st == CN_OK)
      st = cn_assign(part, arrs[i]);
    cn_array_release(part);
    off += arrs[i]->shape[ax];
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_concatenate(cn_array *out, int32_t n, const cn_array *arrays,
                         int32_t axis, cn_dtype dtype) {
  const char *fn = "cn_concatenate";
  CN_CHECK_OUT(out, fn);
  cn_status st = check_list(n, arrays, fn);
  if (st != CN_OK)
    return st;
  cn_array_s **v = cn_calloc((size_t)n, sizeof *v);
  if (!v)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  int32_t ax = 0;
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    if (axis == CN_AXIS_NONE) {
      st = cn_ravel(&v[i], arrays[i], CN_ORDER_C);
    } else if (arrays[i]->ndim == 0) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: zero-dimensional arrays cannot be concatenated "
                    "(array %d)",
                    fn, (int)i);
    } else {
      cn_array_retain(arrays[i]);
      v[i] = arrays[i];
    }
  }
  if (st == CN_OK && axis != CN_AXIS_NONE)
    st = cn_normalize_axis(&ax, axis, v[0]->ndim, fn);
  if (st == CN_OK)
    st = join(out, n, v, ax, dtype, fn);
  release_all(v, n);
  free(v);
  return st;
}

cn_status cn_stack(cn_array *out, int32_t n, const cn_array *arrays,
                   int32_t axis) {
  const char *fn = "cn_stack";
  CN_CHECK_OUT(out, fn);
  cn_status st = check_list(n, arrays, fn);
  if (st != CN_OK)
    return st;
  int32_t nd = arrays[0]->ndim, ax;
  for (int32_t i = 1; i < n; i++) {
    bool same = arrays[i]->ndim == nd;
    for (int32_t d = 0; same && d < nd; d++)
      same = arrays[i]->shape[d] == arrays[0]->shape[d];
    if (!same) {
      char b1[256], b2[256];
      return cn_error(
          CN_ERR_SHAPE,
          "%s: all input arrays must have the same shape, array 0 "
          "has %s and array %d has %s",
          fn, cn_fmt_shape(b1, sizeof b1, nd, arrays[0]->shape), (int)i,
          cn_fmt_shape(b2, sizeof b2, arrays[i]->ndim, arrays[i]->shape));
    }
  }
  if (nd + 1 > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: too many dimensions", fn);
  if ((st = cn_normalize_axis(&ax, axis, nd + 1, fn)) != CN_OK)
    return st;
  cn_array_s **v = cn_calloc((size_t)n, sizeof *v);
  if (!v)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  for (int32_t i = 0; i < n && st == CN_OK; i++)
    st = cn_expand_dims(&v[i], arrays[i], 1, &ax);
  if (st == CN_OK)
    st = join(out, n, v, ax, CN_DTYPE_DEFAULT, fn);
  release_all(v, n);
  free(v);
  return st;
}

typedef cn_status (*view_fn)(cn_array *, cn_array);

/* Applies f to each array, then joins along axis (negative counts from the
 * result's end). */
static cn_status stack_with(cn_array *out, int32_t n, const cn_array *arrays,
                            view_fn f, int32_t axis, bool axis0_if_1d,
                            const char *fn) {
  CN_CHECK_OUT(out, fn);
  cn_status st = check_list(n, arrays, fn);
  if (st != CN_OK)
    return st;
  cn_array_s **v = cn_calloc((size_t)n, sizeof *v);
  if (!v)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  for (int32_t i = 0; i < n && st == CN_OK; i++)
    st = f(&v[i], arrays[i]);
  int32_t ax = axis;
  if (st == CN_OK) {
    if (axis0_if_1d && v[0]->ndim == 1)
      ax = 0;
    st = cn_normalize_axis(&ax, ax, v[0]->ndim, fn);
  }
  if (st == CN_OK)
    st = join(out, n, v, ax, CN_DTYPE_DEFAULT, fn);
  release_all(v, n);
  free(v);
  return st;
}

cn_status cn_vstack(cn_array *out, int32_t n, const cn_array *arrays) {
  return stack_with(out, n, arrays, cn_atleast_2d, 0, false, "cn_vstack");
}

cn_status cn_hstack(cn_array *out, int32_t n, const cn_array *arrays) {
  return stack_with(out, n, arrays, cn_atleast_1d, 1, true, "cn_hstack");
}

cn_status cn_dstack(cn_array *out, int32_t n, const cn_array *arrays) {
  return stack_with(out, n, arrays, cn_atleast_3d, 2, false, "cn_dstack");
}

/* 1-d (and 0-d) arrays become columns (N, 1); others are kept. */
static cn_status as_column(cn_array *out, cn_array a) {
  if (a->ndim >= 2) {
    cn_array_retain(a);
    *out = a;
    return CN_OK;
  }
  int64_t shape[2] = {a->size, 1};
  cn_array_s *r = NULL;
  cn_status st = cn_reshape(&r, a, 2, shape, CN_ORDER_C);
  if (st == CN_OK)
    *out = r;
  return st;
}

cn_status cn_column_stack(cn_array *out, int32_t n, const cn_array *arrays) {
  return stack_with(out, n, arrays, as_column, 1, false, "cn_column_stack");
}

/* ---- splitting ---------------------------------------------------------- */

static cn_status split_impl(cn_array *outs, int32_t cap, int32_t *nout,
                            cn_array a, int64_t sections, int32_t nidx,
                            const int64_t *indices, int32_t axis, bool equal,
                            const char *fn) {
  CN_CHECK_OUT(outs, fn);
  CN_CHECK_OUT(nout, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, fn);
  if (st != CN_OK)
    return st;
  int64_t n = a->shape[ax];
  int64_t parts;
  if (indices == NULL) {
    if (sections < 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: number of sections must be larger than 0, got "
                      "%" PRId64,
                      fn, sections);
    if (equal && n % sections != 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: array split does not result in an equal division "
                      "(%" PRId64 " into %" PRId64 ")",
                      fn, n, sections);
    parts = sections;
  } else {
    if (nidx < 0)
      return cn_error(CN_ERR_VALUE, "%s: negative number of indices %d", fn,
                      (int)nidx);
    parts = (int64_t)nidx + 1;
  }
  if (parts > cap)
    return cn_error(CN_ERR_VALUE,
                    "%s: %" PRId64 " parts do not fit the capacity %d", fn,
                    parts, (int)cap);
  cn_array_s **v = cn_calloc((size_t)parts, sizeof *v);
  if (!v)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  int64_t each = indices ? 0 : n / sections, extra = indices ? 0 : n % sections;
  int64_t lo = 0;
  for (int64_t p = 0; p < parts && st == CN_OK; p++) {
    int64_t start, stop;
    if (indices) {
      start = p == 0 ? 0 : indices[p - 1];
      stop = p == parts - 1 ? n : indices[p];
      /* Python slice clamping; a split point may be negative. */
      if (start < 0)
        start = start + n < 0 ? 0 : start + n;
      if (stop < 0)
        stop = stop + n < 0 ? 0 : stop + n;
      if (start > n)
        start = n;
      if (stop > n)
        stop = n;
      if (stop < start)
        stop = start;
    } else {
      start = lo;
      stop = lo + each + (p < extra ? 1 : 0);
      lo = stop;
    }
    st = cn_slice_axis(&v[p], a, ax, start, stop, 1);
  }
  if (st != CN_OK) {
    release_all(v, (int32_t)parts);
    free(v);
    return st;
  }
  for (int64_t p = 0; p < parts; p++)
    outs[p] = v[p];
  *nout = (int32_t)parts;
  free(v);
  return CN_OK;
}

cn_status cn_split(cn_array *outs, int32_t cap, int32_t *nout, cn_array a,
                   int64_t sections, int32_t nidx, const int64_t *indices,
                   int32_t axis) {
  return split_impl(outs, cap, nout, a, sections, nidx, indices, axis, true,
                    "cn_split");
}

cn_status cn_array_split(cn_array *outs, int32_t cap, int32_t *nout, cn_array a,
                         int64_t sections, int32_t nidx, const int64_t *indices,
                         int32_t axis) {
  return split_impl(outs, cap, nout, a, sections, nidx, indices, axis, false,
                    "cn_array_split");
}

static cn_status split_min(cn_array a, int32_t need, const char *fn) {
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim < need)
    return cn_error(CN_ERR_VALUE,
                    "%s: works only on arrays of %d or more dimensions (got "
                    "%d)",
                    fn, (int)need, (int)a->ndim);
  return CN_OK;
}

cn_status cn_hsplit(cn_array *outs, int32_t cap, int32_t *nout, cn_array a,
                    int64_t sections, int32_t nidx, const int64_t *indices) {
  cn_status st = split_min(a, 1, "cn_hsplit");
  if (st != CN_OK)
    return st;
  return split_impl(outs, cap, nout, a, sections, nidx, indices,
                    a->ndim > 1 ? 1 : 0, true, "cn_hsplit");
}

cn_status cn_vsplit(cn_array *outs, int32_t cap, int32_t *nout, cn_array a,
                    int64_t sections, int32_t nidx, const int64_t *indices) {
  cn_status st = split_min(a, 2, "cn_vsplit");
  if (st != CN_OK)
    return st;
  return split_impl(outs, cap, nout, a, sections, nidx, indices, 0, true,
                    "cn_vsplit");
}

cn_status cn_dsplit(cn_array *outs, int32_t cap, int32_t *nout, cn_array a,
                    int64_t sections, int32_t nidx, const int64_t *indices) {
  cn_status st = split_min(a, 3, "cn_dsplit");
  if (st != CN_OK)
    return st;
  return split_impl(outs, cap, nout, a, sections, nidx, indices, 2, true,
                    "cn_dsplit");
}

/* ---- repetition --------------------------------------------------------- */

cn_status cn_tile(cn_array *out, cn_array a, int32_t nreps,
                  const int64_t *reps) {
  const char *fn = "cn_tile";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (nreps < 0 || (nreps > 0 && reps == NULL) || nreps > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: invalid reps list (nreps = %d)", fn,
                    (int)nreps);
  for (int32_t i = 0; i < nreps; i++)
    if (reps[i] < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: negative repetition %" PRId64 " at position %d", fn,
                      reps[i], (int)i);
  int32_t nd = a->ndim > nreps ? a->ndim : nreps;
  if (2 * nd > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: too many dimensions (%d)", fn, (int)nd);
  int64_t r[CN_MAX_DIMS], s[CN_MAX_DIMS];
  for (int32_t d = 0; d < nd; d++) {
    int32_t ir = d - (nd - nreps), ia = d - (nd - a->ndim);
    r[d] = ir >= 0 ? reps[ir] : 1;
    s[d] = ia >= 0 ? a->shape[ia] : 1;
  }
  /* Broadcast a (as shape (1, s0, 1, s1, ...)) to (r0, s0, r1, s1, ...),
   * then copy into the result viewed with that interleaved shape. */
  int64_t inter[CN_MAX_DIMS], fin[CN_MAX_DIMS], sh1[CN_MAX_DIMS];
  for (int32_t d = 0; d < nd; d++) {
    inter[2 * d] = r[d];
    inter[2 * d + 1] = s[d];
    sh1[2 * d] = 1;
    sh1[2 * d + 1] = s[d];
    int64_t t;
    if (__builtin_mul_overflow(r[d], s[d], &t))
      return cn_error(CN_ERR_VALUE, "%s: result too large", fn);
    fin[d] = t;
  }
  cn_array_s *a1 = NULL, *bv = NULL, *res = NULL, *rv = NULL;
  cn_status st = cn_reshape(&a1, a, 2 * nd, sh1, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_broadcast_view(&bv, a1, 2 * nd, inter, fn);
  if (st == CN_OK)
    st = cn_new_on(&res, a, a->dtype, nd, fin);
  if (st == CN_OK)
    st = cn_contig_view(&rv, res, 2 * nd, inter);
  if (st == CN_OK)
    st = cn_assign(rv, bv);
  cn_array_release(a1);
  cn_array_release(bv);
  cn_array_release(rv);
  if (st != CN_OK) {
    cn_array_release(res);
    return st;
  }
  *out = res;
  return CN_OK;
}

/* Writes k copies of the blk-byte block s at d and returns the end: typed
 * stores for one-element blocks (a broadcast the compiler vectorises),
 * memcpy of the block otherwise. */
static char *repeat_block(char *d, const char *s, int64_t blk, int64_t k) {
#define REPEAT_W(T)                                                            \
  {                                                                            \
    T v;                                                                       \
    memcpy(&v, s, sizeof v);                                                   \
    T *o = (T *)(void *)d;                                                     \
    for (int64_t j = 0; j < k; j++)                                            \
      o[j] = v;                                                                \
    return d + k * blk;                                                        \
  }
  switch (blk) {
  case 1: REPEAT_W(uint8_t)
  case 2: REPEAT_W(uint16_t)
  case 4: REPEAT_W(uint32_t)
  case 8: REPEAT_W(uint64_t)
  default:
    for (int64_t j = 0; j < k; j++, d += blk)
      memcpy(d, s, (size_t)blk);
    return d;
  }
#undef REPEAT_W
}

/* repeat of an array in host memory (src non-empty): each block of the
 * axis (its element and everything inside it, contiguous in a C-ordered
 * copy) written c[i] (or c[0] when scalar) times in order, no index. */
static cn_status repeat_host(cn_array_s **out, const cn_array_s *src,
                             int32_t ax, int64_t total, const int64_t *c,
                             bool scalar) {
  cn_array_s *sc = NULL, *r = NULL;
  int64_t sh[CN_MAX_DIMS];
  memcpy(sh, src->shape, sizeof(int64_t) * (size_t)src->ndim);
  sh[ax] = total;
  cn_status st = cn_as_contig(&sc, src, src->dtype);
  if (st == CN_OK)
    st = cn_new_on(&r, src, src->dtype, src->ndim, sh);
  if (st != CN_OK) {
    cn_array_release(sc);
    return st;
  }
  int64_t outer = 1, blk = cn_itemsize(src->dtype);
  for (int32_t d = 0; d < ax; d++)
    outer *= src->shape[d];
  for (int32_t d = ax + 1; d < src->ndim; d++)
    blk *= src->shape[d];
  const int64_t n = src->shape[ax];
  const char *s = sc->data;
  char *d = r->data;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < n; i++, s += blk)
      d = repeat_block(d, s, blk, c[scalar ? 0 : i]);
  cn_array_release(sc);
  *out = r;
  return CN_OK;
}

cn_status cn_repeat(cn_array *out, cn_array a, cn_array repeats, int32_t axis) {
  const char *fn = "cn_repeat";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(repeats, fn, "repeats");
  if (!cn_is_integer(repeats->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: argument 'repeats' must have an integer dtype, got %s",
                    fn, cn_dtype_name(repeats->dtype));
  if (repeats->ndim > 1)
    return cn_error(CN_ERR_SHAPE, "%s: argument 'repeats' must be 0-d or 1-d",
                    fn);
  cn_array_s *src = NULL;
  int32_t ax = 0;
  cn_status st;
  st = cn_axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  int64_t n = src->shape[ax];
  cn_array_s *rh = NULL, *idx = NULL, *r = NULL, *tmp = NULL;
  st = cn_to_host(&tmp, repeats);
  if (st == CN_OK)
    st = cn_as_contig(&rh, tmp, CN_INT64);
  cn_array_release(tmp);
  for (int64_t i = 0; st == CN_OK && i < rh->size; i++) {
    int64_t c = ((const int64_t *)rh->data)[i];
    if (c < 0)
      st = cn_error(CN_ERR_VALUE,
                    "%s: negative dimensions are not allowed (repeats "
                    "contains %" PRId64 ")",
                    fn, c);
  }
  if (st != CN_OK) {
    cn_array_release(rh);
    cn_array_release(src);
    return st;
  }
  if (rh->size != 1 && rh->size != n) {
    cn_array_release(rh);
    cn_array_release(src);
    return cn_error(CN_ERR_SHAPE,
                    "%s: operands could not be broadcast together: repeats "
                    "has %" PRId64 " entries for an axis of size %" PRId64,
                    fn, rh->size, n);
  }
  const int64_t *c = (const int64_t *)rh->data;
  int64_t total = 0;
  if (rh->size == 1) {
    if (__builtin_mul_overflow(n, c[0], &total))
      st = cn_error(CN_ERR_VALUE, "%s: result too large", fn);
  } else {
    for (int64_t i = 0; i < n && st == CN_OK; i++)
      if (__builtin_add_overflow(total, c[i], &total))
        st = cn_error(CN_ERR_VALUE, "%s: result too large", fn);
  }
  if (st == CN_OK && src->size == 0) {
    /* Another extent is 0: the result is empty whatever the axis' new
     * extent, so no index of `total` entries (any size) is built. */
    int64_t sh[CN_MAX_DIMS];
    memcpy(sh, src->shape, sizeof(int64_t) * (size_t)src->ndim);
    sh[ax] = total;
    st = cn_new_on(&r, src, src->dtype, src->ndim, sh);
  } else if (st == CN_OK && src->buf->backend == cn_cpu_backend()) {
    st = repeat_host(&r, src, ax, total, c, rh->size == 1);
  } else if (st == CN_OK) {
    st = cn_array_new(&idx, cn_cpu_backend(), 0, CN_INT64, 1, &total,
                      CN_ORDER_C);
  }
  if (st == CN_OK && idx) {
    int64_t *p = (int64_t *)idx->data, k = 0;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < c[rh->size == 1 ? 0 : i]; j++)
        p[k++] = i;
    cn_array_s *dv = NULL;
    st = cn_idx_to_device_of(&dv, idx, src);
    if (st == CN_OK)
      st = cn_take(&r, src, dv, ax, CN_INDEX_RAISE, NULL);
    cn_array_release(dv);
  }
  cn_array_release(rh);
  cn_array_release(idx);
  cn_array_release(src);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = r;
  return CN_OK;
}

cn_status cn_repeat_n(cn_array *out, cn_array a, int64_t repeats,
                      int32_t axis) {
  const char *fn = "cn_repeat_n";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (repeats < 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: negative dimensions are not allowed (repeats %" PRId64
                    ")",
                    fn, repeats);
  cn_array_s *r = NULL, *res = NULL;
  cn_status st =
      cn_array_new(&r, cn_cpu_backend(), 0, CN_INT64, 0, NULL, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  *(int64_t *)r->data = repeats;
  cn_array_s *dv = NULL;
  st = cn_idx_to_device_of(&dv, r, a);
  if (st == CN_OK)
    st = cn_repeat(&res, a, dv, axis);
  cn_array_release(r);
  cn_array_release(dv);
  if (st != CN_OK)
    return st;
  *out = res;
  return CN_OK;
}

/* ---- rearranging -------------------------------------------------------- */

/* Rolls one axis of a by shift: two slab copies (views and cn_assign, so
 * long contiguous runs on any device), the last s entries to the front
 * and the others after them. */
static cn_status roll_axis(cn_array_s **out, const cn_array_s *a, int32_t ax,
                           int64_t shift, const char *fn) {
  const int64_t n = a->shape[ax];
  int64_t s = n ? shift % n : 0;
  if (s < 0)
    s += n;
  cn_array_s *r = NULL, *v[4] = {NULL, NULL, NULL, NULL};
  cn_status st = cn_new_on(&r, a, a->dtype, a->ndim, a->shape);
  if (st == CN_OK && (s == 0 || a->size == 0)) {
    st = cn_assign(r, (cn_array)a);
  } else if (st == CN_OK) {
    const int64_t isz = cn_itemsize(a->dtype);
    int64_t sh[CN_MAX_DIMS];
    memcpy(sh, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    /* r[..., s:] = a[..., :n-s] and r[..., :s] = a[..., n-s:] */
    sh[ax] = n - s;
    st = cn_array_view(&v[0], r, r->data + s * r->strides[ax] * isz, a->ndim,
                       sh, r->strides);
    if (st == CN_OK)
      st = cn_array_view(&v[1], a, a->data, a->ndim, sh, a->strides);
    sh[ax] = s;
    if (st == CN_OK)
      st = cn_array_view(&v[2], r, r->data, a->ndim, sh, r->strides);
    if (st == CN_OK)
      st = cn_array_view(&v[3], a, a->data + (n - s) * a->strides[ax] * isz,
                         a->ndim, sh, a->strides);
    if (st == CN_OK)
      st = cn_assign(v[0], v[1]);
    if (st == CN_OK)
      st = cn_assign(v[2], v[3]);
  }
  for (int k = 0; k < 4; k++)
    cn_array_release(v[k]);
  if (st != CN_OK) {
    cn_array_release(r);
    return cn_error_prefix(st, fn);
  }
  *out = r;
  return CN_OK;
}

cn_status cn_roll(cn_array *out, cn_array a, int32_t nshift,
                  const int64_t *shifts, const int32_t *axes) {
  const char *fn = "cn_roll";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (nshift < 1 || shifts == NULL)
    return cn_error(CN_ERR_VALUE, "%s: need at least one shift (nshift = %d)",
                    fn, (int)nshift);
  cn_status st;
  if (axes == NULL) {
    cn_array_s *flat = NULL, *rolled = NULL, *res = NULL;
    st = cn_ravel(&flat, a, CN_ORDER_C);
    if (st == CN_OK)
      st = roll_axis(&rolled, flat, 0, shifts[0], fn);
    if (st == CN_OK)
      st = cn_reshape(&res, rolled, a->ndim, a->shape, CN_ORDER_C);
    cn_array_release(flat);
    cn_array_release(rolled);
    if (st != CN_OK)
      return st;
    *out = res;
    return CN_OK;
  }
  /* NumPy sums the shifts of a repeated axis. */
  int64_t total[CN_MAX_DIMS] = {0};
  bool used[CN_MAX_DIMS] = {0};
  for (int32_t i = 0; i < nshift; i++) {
    int32_t ax;
    if ((st = cn_normalize_axis(&ax, axes[i], a->ndim, fn)) != CN_OK)
      return st;
    int64_t n = a->shape[ax];
    total[ax] = n ? (total[ax] + shifts[i] % n) % n : 0;
    used[ax] = true;
  }
  /* Nothing moves in an empty array: no gather index along an axis whose
   * extent may be any size. */
  if (a->size == 0)
    return cn_copy(out, a, CN_ORDER_C);
  cn_array_s *cur = a;
  cn_array_retain(a);
  st = CN_OK;
  for (int32_t d = 0; d < a->ndim && st == CN_OK; d++) {
    if (!used[d] || total[d] == 0)
      continue;
    cn_array_s *nxt = NULL;
    st = roll_axis(&nxt, cur, d, total[d], fn);
    cn_array_release(cur);
    cur = nxt;
  }
  if (st != CN_OK)
    return st;
  if (cur == a) {
    cn_array_release(cur);
    return cn_copy(out, a, CN_ORDER_C);
  }
  *out = cur;
  return CN_OK;
}

cn_status cn_rot90(cn_array *out, cn_array a, int64_t k, int32_t axis0,
                   int32_t axis1) {
  const char *fn = "cn_rot90";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim < 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: axes must be different and the array "
                    "at least 2-d (got %d-d)",
                    fn, (int)a->ndim);
  int32_t a0, a1;
  cn_status st = cn_normalize_axis(&a0, axis0, a->ndim, fn);
  if (st == CN_OK)
    st = cn_normalize_axis(&a1, axis1, a->ndim, fn);
  if (st != CN_OK)
    return st;
  if (a0 == a1)
    return cn_error(CN_ERR_VALUE, "%s: axes must be different (got %d and %d)",
                    fn, (int)axis0, (int)axis1);
  k %= 4;
  if (k < 0)
    k += 4;
  cn_array_s *t = NULL, *r = NULL;
  int32_t fa[2] = {a0, a1};
  switch (k) {
  case 0:
    return cn_array_view(out, a, a->data, a->ndim, a->shape, a->strides);
  case 2:
    return cn_flip(out, a, 2, fa);
  case 1:
    st = cn_flip(&t, a, 1, &a1);
    if (st == CN_OK)
      st = cn_swapaxes(&r, t, a0, a1);
    break;
  default:
    st = cn_swapaxes(&t, a, a0, a1);
    if (st == CN_OK)
      st = cn_flip(&r, t, 1, &a1);
    break;
  }
  cn_array_release(t);
  if (st != CN_OK)
    return st;
  *out = r;
  return CN_OK;
}

static cn_status atleast(cn_array *out, cn_array a, int32_t nd,
                         const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim >= nd)
    return cn_array_view(out, a, a->data, a->ndim, a->shape, a->strides);
  int64_t shape[3];
  int32_t k;
  if (nd == 1) {
    shape[0] = 1;
    k = 1;
  } else if (nd == 2) {
    shape[0] = 1;
    shape[1] = a->ndim == 1 ? a->shape[0] : 1;
    k = 2;
  } else {
    shape[0] = a->ndim == 2 ? a->shape[0] : 1;
    shape[1] = a->ndim == 2 ? a->shape[1] : (a->ndim == 1 ? a->shape[0] : 1);
    shape[2] = 1;
    k = 3;
  }
  return cn_reshape(out, a, k, shape, CN_ORDER_C);
}

cn_status cn_atleast_1d(cn_array *out, cn_array a) {
  return atleast(out, a, 1, "cn_atleast_1d");
}
cn_status cn_atleast_2d(cn_array *out, cn_array a) {
  return atleast(out, a, 2, "cn_atleast_2d");
}
cn_status cn_atleast_3d(cn_array *out, cn_array a) {
  return atleast(out, a, 3, "cn_atleast_3d");
}

/* ---- matrices ----------------------------------------------------------- */

static cn_status tri_impl(cn_array *out, cn_array a, int64_t k, bool lower,
                          const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: input must be at least 1-d", fn);
  cn_array_s *r = NULL;
  cn_status st;
  if (a->ndim == 1) {
    int64_t sh[2] = {a->shape[0], a->shape[0]};
    cn_array_s *bv = NULL;
    st = cn_broadcast_view(&bv, a, 2, sh, fn);
    if (st == CN_OK)
      st = cn_as_contig(&r, bv, a->dtype);
    cn_array_release(bv);
  } else {
    st = cn_copy(&r, a, CN_ORDER_C);
  }
  if (st != CN_OK)
    return st;
  int32_t nd = r->ndim;
  int64_t m = r->shape[nd - 2], n = r->shape[nd - 1];
  cn_scalar zero = cn_scalar_int(0);
  for (int64_t i = 0; i < m && st == CN_OK; i++) {
    /* tril keeps j <= i + k, triu keeps j >= i + k. */
    int64_t lo, hi;
    if (lower) {
      lo = i + k + 1;
      hi = n;
    } else {
      lo = 0;
      hi = i + k;
    }
    if (lo < 0)
      lo = 0;
    if (hi > n)
      hi = n;
    if (lo >= hi)
      continue;
    cn_array_s *row = NULL, *seg = NULL;
    st = cn_slice_axis(&row, r, nd - 2, i, i + 1, 1);
    if (st == CN_OK)
      st = cn_slice_axis(&seg, row, nd - 1, lo, hi, 1);
    if (st == CN_OK)
      st = cn_fill(seg, zero);
    cn_array_release(row);
    cn_array_release(seg);
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

cn_status cn_tril(cn_array *out, cn_array a, int64_t k) {
  return tri_impl(out, a, k, true, "cn_tril");
}
cn_status cn_triu(cn_array *out, cn_array a, int64_t k) {
  return tri_impl(out, a, k, false, "cn_triu");
}

cn_status cn_diag(cn_array *out, cn_array v, int64_t k) {
  const char *fn = "cn_diag";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(v, fn, "v");
  cn_status st;
  int64_t is = cn_itemsize(v->dtype);
  if (v->ndim == 1) {
    int64_t n = v->shape[0], ak = k < 0 ? -k : k, sz;
    if (__builtin_add_overflow(n, ak, &sz))
      return cn_error(CN_ERR_VALUE, "%s: result too large", fn);
    int64_t sh[2] = {sz, sz};
    cn_array_s *r = NULL, *dg = NULL;
    st = cn_new_on(&r, v, v->dtype, 2, sh);
    if (st == CN_OK)
      st = cn_fill(r, cn_scalar_int(0));
    if (st == CN_OK) {
      int64_t off = k >= 0 ? k : -k * sz, stride = sz + 1;
      st = cn_array_view(&dg, r, r->data + off * is, 1, &n, &stride);
    }
    if (st == CN_OK)
      st = cn_assign(dg, v);
    cn_array_release(dg);
    if (st != CN_OK) {
      cn_array_release(r);
      return st;
    }
    *out = r;
    return CN_OK;
  }
  if (v->ndim != 2)
    return cn_error(CN_ERR_VALUE, "%s: input must be 1-d or 2-d, got %d-d", fn,
                    (int)v->ndim);
  int64_t m = v->shape[0], n = v->shape[1], len, off;
  if (k >= 0) {
    len = k < n ? (m < n - k ? m : n - k) : 0;
    off = len > 0 ? k * v->strides[1] : 0;
  } else {
    len = -k < m ? (n < m + k ? n : m + k) : 0;
    off = len > 0 ? -k * v->strides[0] : 0;
  }
  int64_t stride = v->strides[0] + v->strides[1];
  cn_array_s *dg = NULL;
  st = cn_array_view(&dg, v, v->data + off * is, 1, &len, &stride);
  if (st != CN_OK)
    return st;
  st = cn_copy(out, dg, CN_ORDER_C);
  cn_array_release(dg);
  return st;
}

/* ---- grids -------------------------------------------------------------- */

cn_status cn_meshgrid(cn_array *outs, int32_t n, const cn_array *arrays,
                      int32_t ij, int32_t sparse, int32_t copy) {
  const char *fn = "cn_meshgrid";
  CN_CHECK_OUT(outs, fn);
  cn_status st = check_list(n, arrays, fn);
  if (st != CN_OK)
    return st;
  if (n > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: too many arrays (%d)", fn, (int)n);
  int64_t full[CN_MAX_DIMS];
  for (int32_t i = 0; i < n; i++)
    full[i] = arrays[i]->size;
  /* Position of array i's axis in the output. */
  int32_t pos[CN_MAX_DIMS];
  for (int32_t i = 0; i < n; i++)
    pos[i] = i;
  if (!ij && n >= 2) {
    pos[0] = 1;
    pos[1] = 0;
    int64_t t = full[0];
    full[0] = full[1];
    full[1] = t;
  }
  cn_array_s *res[CN_MAX_DIMS] = {0};
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    int64_t sh[CN_MAX_DIMS];
    for (int32_t d = 0; d < n; d++)
      sh[d] = 1;
    sh[pos[i]] = arrays[i]->size;
    cn_array_s *r1 = NULL, *b = NULL;
    st = cn_reshape(&r1, arrays[i], n, sh, CN_ORDER_C);
    if (st == CN_OK && !sparse)
      st = cn_broadcast_to(&b, r1, n, full);
    if (st == CN_OK) {
      cn_array_s *src = sparse ? r1 : b;
      if (copy)
        st = cn_copy(&res[i], src, CN_ORDER_C);
      else if (sparse)
        st = cn_readonly_view(&res[i], src);
      else {
        cn_array_retain(src);
        res[i] = src;
      }
    }
    cn_array_release(r1);
    cn_array_release(b);
  }
  if (st != CN_OK) {
    release_all(res, n);
    return st;
  }
  for (int32_t i = 0; i < n; i++)
    outs[i] = res[i];
  return CN_OK;
}

cn_status cn_indices(cn_array *out, int32_t ndim, const int64_t *dims,
                     cn_dtype dtype) {
  const char *fn = "cn_indices";
  CN_CHECK_OUT(out, fn);
  if (ndim < 0 || ndim + 1 > CN_MAX_DIMS || (ndim > 0 && dims == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid dimensions (ndim = %d)", fn,
                    (int)ndim);
  for (int32_t d = 0; d < ndim; d++)
    if (dims[d] < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: negative dimension %" PRId64 " at position %d", fn,
                      dims[d], (int)d);
  if (dtype == CN_DTYPE_DEFAULT)
    dtype = CN_INT64;
  if (!cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype %d", fn, (int)dtype);
  int64_t sh[CN_MAX_DIMS];
  sh[0] = ndim;
  memcpy(sh + 1, dims, sizeof(int64_t) * (size_t)ndim);
  cn_array_s *r = NULL;
  cn_status st = cn_empty(&r, ndim + 1, sh, dtype, CN_ORDER_C);
  for (int32_t i = 0; i < ndim && st == CN_OK; i++) {
    cn_array_s *ar = NULL, *ar2 = NULL, *slot = NULL;
    int64_t s1[CN_MAX_DIMS];
    for (int32_t d = 0; d < ndim; d++)
      s1[d] = d == i ? dims[i] : 1;
    st = cn_arange_int(&ar, 0, dims[i], 1, CN_INT64);
    if (st == CN_OK)
      st = cn_reshape(&ar2, ar, ndim, s1, CN_ORDER_C);
    if (st == CN_OK)
      st = cn_index_axis(&slot, r, 0, i);
    if (st == CN_OK)
      st = cn_assign(slot, ar2);
    cn_array_release(ar);
    cn_array_release(ar2);
    cn_array_release(slot);
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}
