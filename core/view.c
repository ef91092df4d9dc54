/* Zero-copy views. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define VIEW_PROLOGUE(fn)                                                      \
  CN_CHECK_OUT(out, fn);                                                       \
  CN_CHECK_ARRAY(a, fn, "a")

static int64_t isz(const cn_array_s *a) { return cn_itemsize(a->dtype); }

/* Python's PySlice_AdjustIndices: clamps start/stop (CN_SLICE_NONE for an
 * omitted bound) to extent n and returns the slice length. Every step but 0
 * is accepted: the length is computed so that no term can overflow, and a
 * step below -INT64_MAX (CN_SLICE_NONE) is refused by the callers. */
static int64_t slice_len(int64_t n, int64_t *start, int64_t *stop,
                         int64_t step) {
  int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
  int64_t s = *start, e = *stop;
  if (s == CN_SLICE_NONE)
    s = step < 0 ? hi : lo;
  else if (s < 0)
    s = s + n < 0 ? lo : s + n; /* s < 0 <= n: no overflow */
  else if (s >= n)
    s = hi;
  if (e == CN_SLICE_NONE)
    e = step < 0 ? lo : hi;
  else if (e < 0)
    e = e + n < 0 ? lo : e + n;
  else if (e >= n)
    e = hi;
  *start = s;
  *stop = e;
  /* s and e lie in [-1, n]: the differences fit, and dividing before
   * adding 1 keeps a huge step from overflowing. */
  if (step > 0)
    return s < e ? (e - s - 1) / step + 1 : 0;
  return e < s ? (s - e - 1) / -step + 1 : 0;
}

/* Slices axis i of (shape, strides) in place, adding the element offset of
 * the first selected element to *off. The new stride is only followed when
 * the length is at least 2, and then it lies within the source's extent. */
static cn_status slice_one(int64_t *shape, int64_t *strides, int64_t *off,
                           int i, int64_t start, int64_t stop, int64_t step,
                           const char *fn) {
  int64_t len = slice_len(shape[i], &start, &stop, step), first, stride;
  if (len > 0 && (__builtin_mul_overflow(start, strides[i], &first) ||
                  __builtin_add_overflow(*off, first, off)))
    return cn_error(CN_ERR_VALUE, "%s: the offset of the slice on axis %d "
                    "overflows 64 bits", fn, i);
  if (__builtin_mul_overflow(strides[i], step, &stride)) {
    if (len > 1)
      return cn_error(CN_ERR_VALUE, "%s: stride %lld times step %lld on axis "
                      "%d overflows 64 bits", fn, (long long)strides[i],
                      (long long)step, i);
    stride = 0; /* one element or none: the stride is never followed */
  }
  shape[i] = len;
  strides[i] = stride;
  return CN_OK;
}

cn_status cn_slice(cn_array *out, cn_array a, int32_t nslices,
                   const int64_t *start, const int64_t *stop,
                   const int64_t *step) {
  VIEW_PROLOGUE("cn_slice");
  if (nslices < 0 || nslices > a->ndim)
    return cn_error(CN_ERR_INDEX,
                    "cn_slice: too many indices for array: array is "
                    "%d-dimensional, but %d were indexed",
                    a->ndim, nslices);
  if (nslices > 0 && (start == NULL || stop == NULL || step == NULL))
    return cn_error(CN_ERR_VALUE, "cn_slice: start, stop and step must not be "
                                  "NULL");
  for (int i = 0; i < nslices; i++)
    if (step[i] == 0 || step[i] == CN_SLICE_NONE)
      return cn_error(CN_ERR_VALUE,
                      "cn_slice: slice step cannot be zero "
                      "(axis %d)",
                      i);
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  memcpy(strides, a->strides, sizeof(int64_t) * (size_t)a->ndim);
  int64_t off = 0;
  for (int i = 0; i < nslices; i++) {
    cn_status st = slice_one(shape, strides, &off, i, start[i], stop[i],
                             step[i], "cn_slice");
    if (st != CN_OK)
      return st;
  }
  cn_status st = cn_array_view_at(out, a, off, a->ndim, shape, strides);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_slice");
}

cn_status cn_slice_axis(cn_array *out, cn_array a, int32_t axis, int64_t start,
                        int64_t stop, int64_t step) {
  VIEW_PROLOGUE("cn_slice_axis");
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, "cn_slice_axis");
  if (st != CN_OK)
    return st;
  if (step == 0 || step == CN_SLICE_NONE)
    return cn_error(CN_ERR_VALUE, "cn_slice_axis: slice step cannot be zero");
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  memcpy(strides, a->strides, sizeof(int64_t) * (size_t)a->ndim);
  int64_t off = 0;
  st = slice_one(shape, strides, &off, ax, start, stop, step, "cn_slice_axis");
  if (st == CN_OK)
    st = cn_array_view_at(out, a, off, a->ndim, shape, strides);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_slice_axis");
}

cn_status cn_index_axis(cn_array *out, cn_array a, int32_t axis,
                        int64_t index) {
  VIEW_PROLOGUE("cn_index_axis");
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, "cn_index_axis");
  if (st != CN_OK)
    return st;
  int64_t n = a->shape[ax];
  if (index < -n || index >= n)
    return cn_error(CN_ERR_INDEX,
                    "cn_index_axis: index %lld is out of bounds for axis %d "
                    "with size %lld",
                    (long long)index, ax, (long long)n);
  if (index < 0)
    index += n;
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < a->ndim; i++)
    if (i != ax) {
      shape[k] = a->shape[i];
      strides[k++] = a->strides[i];
    }
  /* index < n, so for a non-empty a the offset lies within its checked
   * extent; an empty a's strides were never checked, and the view of it is
   * empty too, so its offset does not matter */
  int64_t off = 0;
  if (a->size != 0 && __builtin_mul_overflow(index, a->strides[ax], &off))
    off = 0;
  return cn_array_view_at(out, a, off, a->ndim - 1, shape, strides);
}

static cn_status permute(cn_array *out, cn_array_s *a, const int *perm) {
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  for (int i = 0; i < a->ndim; i++) {
    shape[i] = a->shape[perm[i]];
    strides[i] = a->strides[perm[i]];
  }
  return cn_array_view(out, a, a->data, a->ndim, shape, strides);
}

cn_status cn_transpose(cn_array *out, cn_array a) {
  VIEW_PROLOGUE("cn_transpose");
  int perm[CN_MAX_DIMS];
  for (int i = 0; i < a->ndim; i++)
    perm[i] = a->ndim - 1 - i;
  return permute(out, a, perm);
}

cn_status cn_permute_dims(cn_array *out, cn_array a, int32_t naxes,
                          const int32_t *axes) {
  VIEW_PROLOGUE("cn_permute_dims");
  if (naxes != a->ndim || (naxes > 0 && axes == NULL))
    return cn_error(CN_ERR_VALUE,
                    "cn_permute_dims: axes don't match array "
                    "(%d axes for %d dimensions)",
                    naxes, a->ndim);
  int perm[CN_MAX_DIMS];
  uint64_t seen = 0;
  for (int i = 0; i < naxes; i++) {
    int32_t ax;
    cn_status st = cn_normalize_axis(&ax, axes[i], a->ndim, "cn_permute_dims");
    if (st != CN_OK)
      return st;
    if (seen & ((uint64_t)1 << ax))
      return cn_error(CN_ERR_VALUE,
                      "cn_permute_dims: repeated axis %d in "
                      "axes",
                      axes[i]);
    seen |= (uint64_t)1 << ax;
    perm[i] = ax;
  }
  return permute(out, a, perm);
}

cn_status cn_swapaxes(cn_array *out, cn_array a, int32_t axis1, int32_t axis2) {
  VIEW_PROLOGUE("cn_swapaxes");
  int32_t a1, a2;
  cn_status st = cn_normalize_axis(&a1, axis1, a->ndim, "cn_swapaxes");
  if (st == CN_OK)
    st = cn_normalize_axis(&a2, axis2, a->ndim, "cn_swapaxes");
  if (st != CN_OK)
    return st;
  int perm[CN_MAX_DIMS];
  for (int i = 0; i < a->ndim; i++)
    perm[i] = i;
  perm[a1] = a2;
  perm[a2] = a1;
  return permute(out, a, perm);
}

cn_status cn_moveaxis(cn_array *out, cn_array a, int32_t naxes,
                      const int32_t *source, const int32_t *destination) {
  VIEW_PROLOGUE("cn_moveaxis");
  if (naxes < 0 || (naxes > 0 && (source == NULL || destination == NULL)))
    return cn_error(CN_ERR_VALUE, "cn_moveaxis: invalid axis lists");
  uint64_t ms, md;
  cn_status st = cn_axes_mask(&ms, naxes, source, a->ndim, "cn_moveaxis");
  if (st == CN_OK)
    st = cn_axes_mask(&md, naxes, destination, a->ndim, "cn_moveaxis");
  if (st != CN_OK)
    return st;
  int perm[CN_MAX_DIMS];
  for (int i = 0; i < a->ndim; i++)
    perm[i] = -1;
  for (int i = 0; i < naxes; i++) {
    int32_t s, d;
    cn_normalize_axis(&s, source[i], a->ndim, "cn_moveaxis");
    cn_normalize_axis(&d, destination[i], a->ndim, "cn_moveaxis");
    perm[d] = s;
  }
  int next = 0;
  for (int i = 0; i < a->ndim; i++) {
    if (perm[i] >= 0)
      continue;
    while (ms & ((uint64_t)1 << next))
      next++;
    perm[i] = next++;
  }
  return permute(out, a, perm);
}

/* NumPy's no-copy reshape: new strides for (nd, shape) or false when the
 * old layout cannot be expressed without copying. */
static bool reshape_strides(const cn_array_s *a, int32_t nd,
                            const int64_t *shape, bool forder,
                            int64_t *strides) {
  int64_t os[CN_MAX_DIMS], ost[CN_MAX_DIMS];
  int on = 0;
  for (int i = 0; i < a->ndim; i++)
    if (a->shape[i] != 1) {
      os[on] = a->shape[i];
      ost[on++] = a->strides[i];
    }
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < nd && oi < on) {
    int64_t np = shape[ni], op = os[oi];
    while (np != op) {
      if (np < op)
        np *= shape[nj++];
      else
        op *= os[oj++];
    }
    for (int ok = oi; ok < oj - 1; ok++) {
      if (forder) {
        if (ost[ok + 1] != os[ok] * ost[ok])
          return false;
      } else if (ost[ok] != os[ok + 1] * ost[ok + 1]) {
        return false;
      }
    }
    if (forder) {
      strides[ni] = ost[oi];
      for (int nk = ni + 1; nk < nj; nk++)
        strides[nk] = strides[nk - 1] * shape[nk - 1];
    } else {
      strides[nj - 1] = ost[oj - 1];
      for (int nk = nj - 1; nk > ni; nk--)
        strides[nk - 1] = strides[nk] * shape[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  /* trailing size-1 axes */
  int64_t last = ni > 0 ? strides[ni - 1] : 1;
  for (int nk = ni; nk < nd; nk++)
    strides[nk] = last;
  return true;
}

cn_status cn_reshape(cn_array *out, cn_array a, int32_t ndim,
                     const int64_t *shape, cn_order order) {
  VIEW_PROLOGUE("cn_reshape");
  if (ndim < 0 || ndim > CN_MAX_DIMS || (ndim > 0 && shape == NULL))
    return cn_error(CN_ERR_VALUE, "cn_reshape: invalid new shape (ndim %d)",
                    ndim);
  if (order != CN_ORDER_C && order != CN_ORDER_F && order != CN_ORDER_A)
    return cn_error(CN_ERR_VALUE, "cn_reshape: order must be C, F or A");
  if (order == CN_ORDER_A)
    order =
        (a->flags & CN_FLAG_F_CONTIGUOUS) && !(a->flags & CN_FLAG_C_CONTIGUOUS)
            ? CN_ORDER_F
            : CN_ORDER_C;
  int64_t ns[CN_MAX_DIMS];
  int unknown = -1;
  int64_t known = 1;
  for (int i = 0; i < ndim; i++) {
    ns[i] = shape[i];
    if (shape[i] == -1) {
      if (unknown >= 0)
        return cn_error(CN_ERR_VALUE, "cn_reshape: can only specify one "
                                      "unknown dimension");
      unknown = i;
    } else if (shape[i] < 0) {
      return cn_error(CN_ERR_VALUE, "cn_reshape: negative dimension %lld",
                      (long long)shape[i]);
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      return cn_error(CN_ERR_VALUE, "cn_reshape: new shape is too big");
    }
  }
  if (unknown >= 0) {
    if (known == 0 || a->size % known != 0)
      goto bad;
    ns[unknown] = a->size / known;
    known = a->size;
  }
  if (known != a->size)
    goto bad;
  /* An empty target can still have non-zero extents whose product
   * overflows; NumPy refuses it as too big, and its strides would too. */
  int64_t new_size;
  cn_status shape_st =
      cn_shape_size(&new_size, ndim, ns, isz(a), "cn_reshape");
  if (shape_st != CN_OK)
    return shape_st;
  int64_t strides[CN_MAX_DIMS];
  if (a->size == 0 || a->ndim == 0) {
    cn_default_strides(strides, ndim, ns, order);
    return cn_array_view(out, a, a->data, ndim, ns, strides);
  }
  if (reshape_strides(a, ndim, ns, order == CN_ORDER_F, strides))
    return cn_array_view(out, a, a->data, ndim, ns, strides);
  /* the layout needs a copy: copy in the requested order, then view */
  {
    cn_array c = NULL;
    cn_status st = cn_copy(&c, a, order);
    if (st != CN_OK)
      return cn_error_prefix(st, "cn_reshape");
    cn_default_strides(strides, ndim, ns, order);
    st = cn_array_view(out, c, c->data, ndim, ns, strides);
    cn_array_release(c);
    return st;
  }
bad:;
  char msg[512];
  size_t n = 0;
  n += (size_t)snprintf(msg + n, sizeof msg - n, "(");
  for (int i = 0; i < ndim && n < sizeof msg; i++)
    n += (size_t)snprintf(msg + n, sizeof msg - n, i ? ",%lld" : "%lld",
                          (long long)shape[i]);
  if (n < sizeof msg)
    snprintf(msg + n, sizeof msg - n, ")");
  return cn_error(CN_ERR_SHAPE,
                  "cn_reshape: cannot reshape array of size %lld into shape %s",
                  (long long)a->size, msg);
}

cn_status cn_ravel(cn_array *out, cn_array a, cn_order order) {
  VIEW_PROLOGUE("cn_ravel");
  int64_t n = a->size;
  if (order != CN_ORDER_K || a->ndim < 2)
    return cn_reshape(out, a, 1, &n, order == CN_ORDER_K ? CN_ORDER_C : order);
  /* K: memory order, as NumPy: the axes sorted by decreasing |stride|
   * (stably), each still read in its own direction. */
  int32_t nd = a->ndim;
  int32_t perm[CN_MAX_DIMS];
  for (int32_t i = 0; i < nd; i++) {
    int32_t p = i, j = i - 1;
    int64_t sp = llabs(a->strides[i]);
    while (j >= 0 && llabs(a->strides[perm[j]]) < sp) {
      perm[j + 1] = perm[j];
      j--;
    }
    perm[j + 1] = p;
  }
  cn_array v = NULL;
  cn_status st = cn_permute_dims(&v, a, nd, perm);
  if (st != CN_OK)
    return cn_error_prefix(st, "cn_ravel");
  st = cn_reshape(out, v, 1, &n, CN_ORDER_C);
  cn_array_release(v);
  return st;
}

cn_status cn_flatten(cn_array *out, cn_array a, cn_order order) {
  VIEW_PROLOGUE("cn_flatten");
  if (order != CN_ORDER_C && order != CN_ORDER_F && order != CN_ORDER_A)
    return cn_error(CN_ERR_VALUE, "cn_flatten: order must be C, F or A");
  cn_array c = NULL;
  cn_status st = cn_copy(&c, a, order);
  if (st != CN_OK)
    return cn_error_prefix(st, "cn_flatten");
  int64_t n = a->size, s = 1;
  st = cn_array_view(out, c, c->data, 1, &n, &s);
  cn_array_release(c);
  return st;
}

cn_status cn_broadcast_to(cn_array *out, cn_array a, int32_t ndim,
                          const int64_t *shape) {
  VIEW_PROLOGUE("cn_broadcast_to");
  if (ndim < 0 || ndim > CN_MAX_DIMS || (ndim > 0 && shape == NULL))
    return cn_error(CN_ERR_VALUE, "cn_broadcast_to: invalid shape (ndim %d)",
                    ndim);
  for (int i = 0; i < ndim; i++)
    if (shape[i] < 0)
      return cn_error(CN_ERR_VALUE, "cn_broadcast_to: all elements of "
                                    "broadcast shape must be non-negative");
  cn_array_s *v = NULL;
  cn_status st = cn_broadcast_view(&v, a, ndim, shape, "cn_broadcast_to");
  if (st != CN_OK)
    return st;
  v->flags &= ~CN_FLAG_WRITEABLE;
  *out = v;
  return CN_OK;
}

cn_status cn_broadcast_arrays(cn_array *outs, int32_t n,
                              const cn_array *arrays) {
  if (outs == NULL)
    return cn_error(CN_ERR_VALUE, "cn_broadcast_arrays: output pointer is "
                                  "NULL");
  if (n < 0 || (n > 0 && arrays == NULL))
    return cn_error(CN_ERR_VALUE, "cn_broadcast_arrays: invalid array list");
  int32_t *ndims = cn_calloc((size_t)(n ? n : 1), sizeof(int32_t));
  const int64_t **shapes = cn_calloc((size_t)(n ? n : 1), sizeof(int64_t *));
  cn_array *tmp = cn_calloc((size_t)(n ? n : 1), sizeof(cn_array));
  cn_status st = CN_OK;
  if (!ndims || !shapes || !tmp) {
    st = cn_error(CN_ERR_MEMORY, "cn_broadcast_arrays: out of memory");
    goto done;
  }
  for (int k = 0; k < n; k++) {
    if (arrays[k] == NULL || arrays[k]->magic != CN_ARRAY_MAGIC) {
      st = cn_error(CN_ERR_VALUE,
                    "cn_broadcast_arrays: array %d is NULL or "
                    "released",
                    k);
      goto done;
    }
    ndims[k] = arrays[k]->ndim;
    shapes[k] = arrays[k]->shape;
  }
  int32_t nd = 0;
  int64_t shape[CN_MAX_DIMS];
  st = cn_broadcast_shapes(&nd, shape, n, (const int32_t *)ndims,
                           (const int64_t *const *)shapes);
  if (st != CN_OK) {
    cn_error_prefix(st, "cn_broadcast_arrays");
    goto done;
  }
  for (int k = 0; k < n && st == CN_OK; k++) {
    cn_array_s *v = NULL;
    st = cn_broadcast_view(&v, arrays[k], nd, shape, "cn_broadcast_arrays");
    if (st == CN_OK) {
      bool bcast = false;
      for (int i = 0; i < nd; i++)
        if (v->strides[i] == 0 && v->shape[i] > 1)
          bcast = true;
      if (bcast)
        v->flags &= ~CN_FLAG_WRITEABLE;
      tmp[k] = v;
    }
  }
  if (st != CN_OK) {
    for (int k = 0; k < n; k++)
      cn_array_release(tmp[k]);
    goto done;
  }
  memcpy(outs, tmp, sizeof(cn_array) * (size_t)n);
done:
  free(ndims);
  free(shapes);
  free(tmp);
  return st;
}

cn_status cn_expand_dims(cn_array *out, cn_array a, int32_t naxes,
                         const int32_t *axes) {
  VIEW_PROLOGUE("cn_expand_dims");
  int32_t nd = a->ndim + naxes;
  if (naxes < 0 || nd > CN_MAX_DIMS || (naxes > 0 && axes == NULL))
    return cn_error(CN_ERR_VALUE,
                    "cn_expand_dims: invalid axes (%d axes on "
                    "%d dimensions)",
                    naxes, a->ndim);
  uint64_t m;
  cn_status st = cn_axes_mask(&m, naxes, axes, nd, "cn_expand_dims");
  if (st != CN_OK)
    return st;
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < nd; i++) {
    if (m & ((uint64_t)1 << i)) {
      shape[i] = 1;
      strides[i] = 0;
    } else {
      shape[i] = a->shape[k];
      strides[i] = a->strides[k++];
    }
  }
  return cn_array_view(out, a, a->data, nd, shape, strides);
}

cn_status cn_squeeze(cn_array *out, cn_array a, int32_t naxes,
                     const int32_t *axes) {
  VIEW_PROLOGUE("cn_squeeze");
  uint64_t m = 0;
  if (naxes == 0) {
    for (int i = 0; i < a->ndim; i++)
      if (a->shape[i] == 1)
        m |= (uint64_t)1 << i;
  } else {
    cn_status st = cn_axes_mask(&m, naxes, axes, a->ndim, "cn_squeeze");
    if (st != CN_OK)
      return st;
    for (int i = 0; i < a->ndim; i++)
      if ((m & ((uint64_t)1 << i)) && a->shape[i] != 1)
        return cn_error(CN_ERR_VALUE,
                        "cn_squeeze: cannot select an axis to "
                        "squeeze out which has size not equal to one (axis "
                        "%d has size %lld)",
                        i, (long long)a->shape[i]);
  }
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  int k = 0;
  for (int i = 0; i < a->ndim; i++)
    if (!(m & ((uint64_t)1 << i))) {
      shape[k] = a->shape[i];
      strides[k++] = a->strides[i];
    }
  return cn_array_view(out, a, a->data, k, shape, strides);
}

static cn_status flip_mask(cn_array *out, cn_array_s *a, uint64_t m) {
  int64_t strides[CN_MAX_DIMS], off = 0;
  for (int i = 0; i < a->ndim; i++) {
    strides[i] = a->strides[i];
    /* an empty a's strides were never checked, and an extent-1 axis's
     * stride is never followed (it may be any value): neither needs a
     * flip */
    if ((m & ((uint64_t)1 << i)) && a->size > 0 && a->shape[i] > 1) {
      off += (a->shape[i] - 1) * a->strides[i];
      strides[i] = -a->strides[i];
    }
  }
  return cn_array_view_at(out, a, off, a->ndim, a->shape, strides);
}

cn_status cn_flip(cn_array *out, cn_array a, int32_t naxes,
                  const int32_t *axes) {
  VIEW_PROLOGUE("cn_flip");
  uint64_t m;
  cn_status st = cn_axes_mask(&m, naxes == 0 ? CN_ALL_AXES : naxes, axes,
                              a->ndim, "cn_flip");
  if (st != CN_OK)
    return st;
  return flip_mask(out, a, m);
}

cn_status cn_fliplr(cn_array *out, cn_array a) {
  VIEW_PROLOGUE("cn_fliplr");
  if (a->ndim < 2)
    return cn_error(CN_ERR_VALUE, "cn_fliplr: input must be >= 2-d (got %d-d)",
                    a->ndim);
  return flip_mask(out, a, 2);
}

cn_status cn_flipud(cn_array *out, cn_array a) {
  VIEW_PROLOGUE("cn_flipud");
  if (a->ndim < 1)
    return cn_error(CN_ERR_VALUE, "cn_flipud: input must be >= 1-d");
  return flip_mask(out, a, 1);
}

cn_status cn_view_dtype(cn_array *out, cn_array a, cn_dtype dtype) {
  const char *fn = "cn_view_dtype";
  VIEW_PROLOGUE(fn);
  if (!cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'dtype' is not a dtype (%d)", fn,
                    (int)dtype);
  int64_t oi = isz(a), ni = cn_itemsize(dtype);
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  memcpy(strides, a->strides, sizeof(int64_t) * (size_t)a->ndim);
  if (oi != ni) {
    int32_t last = a->ndim - 1;
    if (a->ndim == 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: Changing the dtype of a 0d array is only "
                      "supported if the itemsize is unchanged",
                      fn);
    if (a->shape[last] != 1 && a->strides[last] != 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: To change to a dtype of a different size, the "
                      "last axis must be contiguous",
                      fn);
    int64_t bytes = a->shape[last] * oi;
    if (bytes % ni != 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: When changing to a %s dtype, its size must be a "
                      "divisor of the size of the last axis in bytes (%lld)",
                      fn, ni > oi ? "larger" : "smaller", (long long)bytes);
    /* Axes that are never stepped along (extent 1, or any axis of an empty
     * array) may carry strides of any size: only theirs can overflow, and
     * they become 0. */
    int64_t stride_bytes[CN_MAX_DIMS];
    for (int32_t d = 0; d < last; d++) {
      if (__builtin_mul_overflow(strides[d], oi, &stride_bytes[d]))
        stride_bytes[d] = 0;
      else if (shape[d] > 1 && stride_bytes[d] % ni != 0)
        return cn_error(CN_ERR_VALUE,
                        "%s: the stride of axis %d (%lld bytes) is not a "
                        "multiple of the new item size %lld",
                        fn, (int)d, (long long)stride_bytes[d], (long long)ni);
    }
    for (int32_t d = 0; d < last; d++)
      strides[d] = stride_bytes[d] / ni;
    shape[last] = bytes / ni;
    strides[last] = 1;
  }
  /* The kernels load items through typed pointers. */
  int64_t align = ni > 8 ? 8 : ni;
  if ((uintptr_t)a->data % (uintptr_t)align != 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: the data is not aligned for dtype %s (%lld-byte "
                    "alignment needed)",
                    fn, cn_dtype_name(dtype), (long long)align);
  cn_array_s *r = NULL;
  cn_status st = cn_array_make(&r, a->buf, a->data, dtype, a->ndim, shape,
                               strides, cn_array_writeable(a));
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = r;
  return CN_OK;
}

cn_status cn_complex_part_view(cn_array *out, cn_array a, int32_t imag) {
  const char *fn = "cn_complex_part_view";
  VIEW_PROLOGUE(fn);
  if (!cn_is_complex(a->dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'a' is %s, not complex", fn,
                    cn_dtype_name(a->dtype));
  const cn_dtype rdt = cn_real_dtype(a->dtype);
  int64_t strides[CN_MAX_DIMS];
  for (int32_t d = 0; d < a->ndim; d++)
    /* extent-1 axes may carry any stride: only a stepped one can overflow */
    if (__builtin_mul_overflow(a->strides[d], 2, &strides[d]))
      strides[d] = 0;
  char *data = a->data + (imag ? cn_itemsize(rdt) : 0);
  cn_array_s *r = NULL;
  cn_status st = cn_array_make(&r, a->buf, data, rdt, a->ndim, a->shape,
                               strides, cn_array_writeable(a));
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = r;
  return CN_OK;
}
