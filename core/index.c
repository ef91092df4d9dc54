/* Advanced indexing entry points (include/cunumpy/index.h). They validate,
 * normalise indices (on the device for a backend with index_normalize,
 * else on the host), and reduce every form to the backend's take / put /
 * take_along / put_along / flatnonzero / mask_compress members. Positions
 * found by flatnonzero stay on the array's device; only the advanced
 * indexing of cn_index_arrays combines index arrays on the host. */
#include "cunumpy/index.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "array_util.h"
#include "cpu/cpu.h" /* the host count of nonzero elements */

static cn_status check_mode(int32_t mode, const char *fn) {
  if (mode != CN_INDEX_RAISE && mode != CN_INDEX_WRAP && mode != CN_INDEX_CLIP)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'mode' must be RAISE, WRAP or CLIP, got %d",
                    fn, (int)mode);
  return CN_OK;
}

/* Releases up to 8 handles (NULL ignored). */
static void rel(cn_array_s *a, cn_array_s *b, cn_array_s *c, cn_array_s *d) {
  cn_array_release(a);
  cn_array_release(b);
  cn_array_release(c);
  cn_array_release(d);
}

/* Gathers along `axis` of a with host int64 indices idx (already in range),
 * giving shape a.shape[:axis] + idx_shape + a.shape[axis+1:]. */
static cn_status gather(cn_array_s **out, const cn_array_s *a, int32_t axis,
                        cn_array_s *idx, int32_t bnd, const int64_t *bshape,
                        const char *fn) {
  CN_REQUIRE_SLOT(take, cn_backend_of(a), take, fn);
  int32_t nd = a->ndim - 1 + bnd;
  if (nd > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE,
                    "%s: result would have %d dimensions (max %d)", fn, (int)nd,
                    CN_MAX_DIMS);
  int64_t shape[CN_MAX_DIMS], flat[CN_MAX_DIMS];
  int32_t k = 0;
  for (int32_t d = 0; d < axis; d++)
    shape[k++] = a->shape[d];
  for (int32_t d = 0; d < bnd; d++)
    shape[k++] = bshape[d];
  for (int32_t d = axis + 1; d < a->ndim; d++)
    shape[k++] = a->shape[d];
  memcpy(flat, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  flat[axis] = idx->size;
  cn_array_s *r = NULL, *rv = NULL, *di = NULL;
  cn_status st = cn_new_on(&r, a, a->dtype, nd, shape);
  if (st == CN_OK)
    st = cn_contig_view(&rv, r, a->ndim, flat);
  if (st == CN_OK)
    st = cn_idx_to_device_of(&di, idx, a);
  if (st == CN_OK)
    st = take(rv, a, di, axis);
  rel(rv, di, NULL, NULL);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* a[..., idx, ...] = values along axis, values broadcast (and cast) to the
 * gather result shape; a is written in place. */
static cn_status scatter(cn_array_s *a, int32_t axis, cn_array_s *idx,
                         int32_t bnd, const int64_t *bshape,
                         const cn_array_s *values, const char *fn) {
  CN_REQUIRE_SLOT(put, cn_backend_of(a), put, fn);
  int32_t nd = a->ndim - 1 + bnd;
  if (nd > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: index result would have %d dimensions",
                    fn, (int)nd);
  int64_t shape[CN_MAX_DIMS], flat[CN_MAX_DIMS];
  int32_t k = 0;
  for (int32_t d = 0; d < axis; d++)
    shape[k++] = a->shape[d];
  for (int32_t d = 0; d < bnd; d++)
    shape[k++] = bshape[d];
  for (int32_t d = axis + 1; d < a->ndim; d++)
    shape[k++] = a->shape[d];
  memcpy(flat, a->shape, sizeof(int64_t) * (size_t)a->ndim);
  flat[axis] = idx->size;
  cn_array_s *bv = NULL, *v = NULL, *vv = NULL, *di = NULL;
  /* Broadcast first so a shape error is reported before any allocation. */
  cn_status st = cn_broadcast_view(&bv, values, nd, shape, fn);
  if (st == CN_OK)
    st = cn_new_on(&v, a, a->dtype, nd, shape);
  if (st == CN_OK)
    st = cn_assign(v, bv);
  if (st == CN_OK)
    st = cn_contig_view(&vv, v, a->ndim, flat);
  if (st == CN_OK)
    st = cn_idx_to_device_of(&di, idx, a);
  if (st == CN_OK)
    st = put(a, di, axis, vv);
  rel(bv, v, vv, di);
  return st;
}

static cn_status check_writeable(const cn_array_s *a, const char *fn,
                                 const char *arg) {
  if (!cn_array_writeable(a))
    return cn_error(CN_ERR_VALUE, "%s: argument '%s' is read-only", fn, arg);
  return CN_OK;
}

/* ---- take / put ------------------------------------------------------- */

cn_status cn_take(cn_array *out, cn_array a, cn_array indices, int32_t axis,
                  int32_t mode, cn_array dst) {
  const char *fn = "cn_take";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(indices, fn, "indices");
  cn_status st = check_mode(mode, fn);
  if (st != CN_OK)
    return st;
  const cn_array_s *pair[2] = {a, indices};
  if ((st = cn_same_device(2, pair, fn)) != CN_OK)
    return st;
  cn_array_s *src = NULL;
  int32_t ax = 0;
  st = cn_axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *idx = NULL, *r = NULL;
  st = cn_idx_normalize_on(&idx, indices, src->shape[ax], mode, ax, fn);
  if (st == CN_OK)
    st = gather(&r, src, ax, idx, indices->ndim, indices->shape, fn);
  if (st == CN_OK && dst) {
    st = cn_check_dst(dst, r->ndim, r->shape, a, fn);
    if (st != CN_OK)
      cn_array_release(r);
  }
  rel(src, idx, NULL, NULL);
  if (st != CN_OK)
    return st;
  return cn_finish_dst(out, r, dst);
}

/* Shape of the broadcast of a and idx off `axis` (idx's extent on axis). */
static cn_status along_shape(int64_t *shape, const cn_array_s *a,
                             const cn_array_s *idx, int32_t axis,
                             const char *fn) {
  if (a->ndim != idx->ndim)
    return cn_error(CN_ERR_SHAPE,
                    "%s: indices and a must have the same number of "
                    "dimensions (got %d and %d)",
                    fn, (int)idx->ndim, (int)a->ndim);
  for (int32_t d = 0; d < a->ndim; d++) {
    int64_t ea = a->shape[d], ei = idx->shape[d];
    if (d == axis)
      shape[d] = ei;
    else if (ea == ei || ei == 1)
      shape[d] = ea;
    else if (ea == 1)
      shape[d] = ei;
    else {
      char b1[256], b2[256];
      return cn_error(CN_ERR_SHAPE,
                      "%s: shape mismatch: a of shape %s and indices of shape "
                      "%s do not broadcast off axis %d",
                      fn, cn_fmt_shape(b1, sizeof b1, a->ndim, a->shape),
                      cn_fmt_shape(b2, sizeof b2, idx->ndim, idx->shape),
                      (int)axis);
    }
  }
  return CN_OK;
}

/* Views of a (axis kept) and idx broadcast to shape; optional values too. */
static cn_status along_views(cn_array_s **av, cn_array_s **iv,
                             const cn_array_s *a, cn_array_s *idx, int32_t axis,
                             const int64_t *shape, const char *fn) {
  int64_t as[CN_MAX_DIMS];
  memcpy(as, shape, sizeof(int64_t) * (size_t)a->ndim);
  as[axis] = a->shape[axis];
  cn_status st = cn_broadcast_view(av, a, a->ndim, as, fn);
  if (st != CN_OK)
    return st;
  st = cn_broadcast_view(iv, idx, a->ndim, shape, fn);
  if (st != CN_OK) {
    cn_array_release(*av);
    *av = NULL;
  }
  return st;
}

cn_status cn_take_along_axis(cn_array *out, cn_array a, cn_array indices,
                             int32_t axis) {
  const char *fn = "cn_take_along_axis";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(indices, fn, "indices");
  const cn_array_s *pair[2] = {a, indices};
  cn_status st = cn_same_device(2, pair, fn);
  if (st != CN_OK)
    return st;
  if (!cn_is_integer(indices->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: argument 'indices' must have an integer dtype, got %s",
                    fn, cn_dtype_name(indices->dtype));
  cn_array_s *src = NULL;
  int32_t ax = 0;
  if (axis == CN_AXIS_NONE && indices->ndim != 1)
    return cn_error(CN_ERR_SHAPE,
                    "%s: when axis is None, indices must be 1-d, got %d-d", fn,
                    (int)indices->ndim);
  st = cn_axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  int64_t shape[CN_MAX_DIMS];
  cn_array_s *idx = NULL, *hv = NULL, *av = NULL, *iv = NULL, *r = NULL;
  st = along_shape(shape, src, indices, ax, fn);
  if (st == CN_OK)
    st =
        cn_idx_normalize_on(&idx, indices, src->shape[ax], CN_INDEX_RAISE, ax,
                            fn);
  if (st == CN_OK)
    st = cn_idx_to_device_of(&hv, idx, src);
  if (st == CN_OK)
    st = along_views(&av, &iv, src, hv, ax, shape, fn);
  if (st == CN_OK)
    st = cn_new_on(&r, src, src->dtype, src->ndim, shape);
  if (st == CN_OK) {
    CN_REQUIRE_SLOT(ta, cn_backend_of(src), take_along, fn);
    st = ta(r, av, iv, ax);
  }
  rel(src, idx, hv, av);
  cn_array_release(iv);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* Runs fn_body on a C-contiguous 1-d view of a when possible, else on a
 * contiguous copy that is assigned back at the end. */
static cn_status flat_target(cn_array_s **flat, cn_array_s **copy,
                             cn_array_s *a) {
  *copy = NULL;
  int64_t n = a->size;
  if (cn_array_is_c_contig(a))
    return cn_contig_view(flat, a, 1, &n);
  cn_status st = cn_as_contig(copy, a, a->dtype);
  if (st != CN_OK)
    return st;
  st = cn_contig_view(flat, *copy, 1, &n);
  if (st != CN_OK) {
    cn_array_release(*copy);
    *copy = NULL;
  }
  return st;
}

cn_status cn_put(cn_array a, cn_array indices, cn_array values, int32_t mode) {
  const char *fn = "cn_put";
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(indices, fn, "indices");
  CN_CHECK_ARRAY(values, fn, "values");
  cn_status st = check_mode(mode, fn);
  if (st != CN_OK)
    return st;
  const cn_array_s *trio[3] = {a, indices, values};
  if ((st = cn_same_device(3, trio, fn)) != CN_OK)
    return st;
  if ((st = check_writeable(a, fn, "a")) != CN_OK)
    return st;
  cn_array_s *idx = NULL;
  st = cn_idx_normalize_on(&idx, indices, a->size, mode, 0, fn);
  if (st != CN_OK)
    return st;
  int64_t k = idx->size;
  if (k == 0) {
    cn_array_release(idx);
    return CN_OK;
  }
  if (values->size == 0) {
    cn_array_release(idx);
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'values' is empty but %" PRId64
                    " indices were given",
                    fn, k);
  }
  /* values repeat cyclically: gather values.flat[j % nv]. */
  cn_array_s *vflat = NULL, *cyc = NULL, *vk = NULL, *flat = NULL, *copy = NULL;
  st = cn_ravel(&vflat, values, CN_ORDER_C);
  if (st == CN_OK && vflat->size == k) { /* one value per index: no repeat */
    cn_array_retain(vflat);
    vk = vflat;
  } else if (st == CN_OK) {
    /* The repeat pattern is made on the host (positions, not data). */
    st = cn_array_new(&cyc, cn_cpu_backend(), 0, CN_INT64, 1, &k, CN_ORDER_C);
  }
  if (st == CN_OK && cyc != NULL) {
    int64_t *c = (int64_t *)cyc->data;
    for (int64_t j = 0; j < k; j++)
      c[j] = j % vflat->size;
    st = gather(&vk, vflat, 0, cyc, 1, &k, fn);
  }
  if (st == CN_OK)
    st = flat_target(&flat, &copy, a);
  if (st == CN_OK)
    st = scatter(flat, 0, idx, 1, &k, vk, fn);
  if (st == CN_OK && copy)
    st = cn_assign(a, copy);
  rel(idx, vflat, cyc, vk);
  rel(flat, copy, NULL, NULL);
  return st;
}

cn_status cn_put_along_axis(cn_array a, cn_array indices, cn_array values,
                            int32_t axis) {
  const char *fn = "cn_put_along_axis";
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(indices, fn, "indices");
  CN_CHECK_ARRAY(values, fn, "values");
  const cn_array_s *trio[3] = {a, indices, values};
  cn_status st = cn_same_device(3, trio, fn);
  if (st != CN_OK)
    return st;
  if ((st = check_writeable(a, fn, "a")) != CN_OK)
    return st;
  if (!cn_is_integer(indices->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: argument 'indices' must have an integer dtype, got %s",
                    fn, cn_dtype_name(indices->dtype));
  cn_array_s *tgt = NULL, *copy = NULL;
  int32_t ax = 0;
  if (axis == CN_AXIS_NONE) {
    if (indices->ndim != 1)
      return cn_error(CN_ERR_SHAPE,
                      "%s: when axis is None, indices must be 1-d, got %d-d",
                      fn, (int)indices->ndim);
    st = flat_target(&tgt, &copy, a);
  } else {
    st = cn_normalize_axis(&ax, axis, a->ndim, fn);
    if (st == CN_OK) {
      cn_array_retain(a);
      tgt = a;
    }
  }
  if (st != CN_OK)
    return st;
  int64_t shape[CN_MAX_DIMS];
  cn_array_s *idx = NULL, *hv = NULL, *av = NULL, *iv = NULL, *bv = NULL,
             *v = NULL;
  st = along_shape(shape, tgt, indices, ax, fn);
  if (st == CN_OK)
    st = cn_broadcast_view(&bv, values, tgt->ndim, shape, fn);
  if (st == CN_OK)
    st =
        cn_idx_normalize_on(&idx, indices, tgt->shape[ax], CN_INDEX_RAISE, ax,
                            fn);
  if (st == CN_OK)
    st = cn_idx_to_device_of(&hv, idx, tgt);
  if (st == CN_OK)
    st = along_views(&av, &iv, tgt, hv, ax, shape, fn);
  if (st == CN_OK)
    st = cn_new_on(&v, tgt, tgt->dtype, tgt->ndim, shape);
  if (st == CN_OK)
    st = cn_assign(v, bv);
  if (st == CN_OK) {
    CN_REQUIRE_SLOT(pa, cn_backend_of(tgt), put_along, fn);
    st = pa(av, iv, ax, v);
  }
  if (st == CN_OK && copy)
    st = cn_assign(a, copy);
  rel(tgt, copy, idx, hv);
  rel(av, iv, bv, v);
  return st;
}

/* ---- advanced indexing -------------------------------------------------- */

static cn_status int64_on(cn_array_s **out, int64_t v, const cn_array_s *like);

/* Expands the index list into int64 arrays on a's device (bool arrays
 * become their nonzero() columns), checks bounds against a's axes from
 * first, and combines them into one array of linear indices into the
 * merged axes by ufuncs on that device (lin = lin * extent + column, with
 * broadcasting). *m returns the number of axes consumed; bnd/bshape the
 * broadcast index shape. */
static cn_status linear_index(cn_array_s **lin, int32_t *m, int32_t *bnd,
                              int64_t *bshape, const cn_array_s *a, int32_t n,
                              const cn_array *indices, int32_t first,
                              const char *fn) {
  cn_array_s *cols[CN_MAX_DIMS] = {0};
  int32_t nc = 0;
  cn_status st = CN_OK;
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    const cn_array_s *ix = indices[i];
    if (ix == NULL) {
      st = cn_error(CN_ERR_VALUE, "%s: index array %d is NULL", fn, (int)i);
      break;
    }
    if (ix->magic != CN_ARRAY_MAGIC) {
      st = cn_error(CN_ERR_VALUE, "%s: index array %d is a released handle", fn,
                    (int)i);
      break;
    }
    if (ix->buf->backend != a->buf->backend) {
      st = cn_error(CN_ERR_DEVICE,
                    "%s: index array %d is on device '%s', a on "
                    "'%s'",
                    fn, (int)i, ix->buf->backend->name, a->buf->backend->name);
      break;
    }
    int32_t need = ix->dtype == CN_BOOL ? ix->ndim : 1;
    if (ix->dtype == CN_BOOL && ix->ndim == 0) {
      st = cn_error(CN_ERR_INDEX,
                    "%s: a 0-d boolean index array is not "
                    "supported here (index array %d; use cn_mask_get)",
                    fn, (int)i);
      break;
    }
    if (first + nc + need > a->ndim) {
      st = cn_error(CN_ERR_INDEX,
                    "%s: too many indices for array: array is %d-dimensional, "
                    "but %d were indexed from axis %d",
                    fn, (int)a->ndim, (int)(nc + need), (int)first);
      break;
    }
    if (ix->dtype == CN_BOOL) {
      for (int32_t d = 0; d < ix->ndim; d++)
        if (ix->shape[d] != a->shape[first + nc + d]) {
          st = cn_error(CN_ERR_INDEX,
                        "%s: boolean index did not match indexed array along "
                        "axis %d; size of axis is %" PRId64
                        " but size of corresponding boolean axis is %" PRId64,
                        fn, (int)(first + nc + d), a->shape[first + nc + d],
                        ix->shape[d]);
          break;
        }
      if (st != CN_OK)
        break;
      cn_array_s *nz[CN_MAX_DIMS];
      st = cn_nonzero(nz, CN_MAX_DIMS, (cn_array)ix);
      if (st != CN_OK)
        break;
      for (int32_t d = 0; d < ix->ndim; d++)
        cols[nc++] = nz[d];
    } else {
      if (!cn_is_integer(ix->dtype)) {
        st = cn_error(CN_ERR_INDEX,
                      "%s: index array %d must have an integer or bool dtype, "
                      "got %s",
                      fn, (int)i, cn_dtype_name(ix->dtype));
        break;
      }
      st = cn_idx_normalize_on(&cols[nc], ix, a->shape[first + nc],
                               CN_INDEX_RAISE, first + nc, fn);
      nc++;
    }
  }
  if (st == CN_OK) {
    st = cn_broadcast_shape_arrays(bnd, bshape, nc,
                                   (const cn_array_s *const *)cols, fn);
    if (st == CN_OK && nc == 0)
      *bnd = 0;
  }
  cn_array_s *r = NULL;
  if (st == CN_OK && nc == 0) {
    st = cn_new_on(&r, a, CN_INT64, 0, bshape);
    if (st == CN_OK)
      st = cn_fill(r, (cn_scalar){.kind = CN_SCALAR_INT, .i = 0});
  } else if (st == CN_OK) {
    cn_array_retain(cols[0]);
    r = cols[0];
  }
  for (int32_t c = 1; c < nc && st == CN_OK; c++) {
    cn_array_s *e = NULL, *t = NULL, *u = NULL;
    st = int64_on(&e, a->shape[first + c], a);
    if (st == CN_OK)
      st = cn_multiply(&t, r, e, NULL);
    if (st == CN_OK)
      st = cn_add(&u, t, cols[c], NULL);
    cn_array_release(e);
    cn_array_release(t);
    cn_array_release(r);
    r = u;
  }
  if (st == CN_OK && (r->ndim != *bnd || !cn_array_is_c_contig(r))) {
    /* one column of a lower rank than the broadcast shape: expand it */
    cn_array_s *bv = NULL, *c = NULL;
    st = cn_broadcast_view(&bv, r, *bnd, bshape, fn);
    if (st == CN_OK)
      st = cn_as_contig(&c, bv, CN_INT64);
    cn_array_release(bv);
    cn_array_release(r);
    r = c;
  }
  for (int32_t c = 0; c < nc; c++)
    cn_array_release(cols[c]);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *m = nc;
  *lin = r;
  return CN_OK;
}

static cn_status index_args(int32_t *first, const cn_array_s *a, int32_t n,
                            const cn_array *indices, int32_t first_axis,
                            const char *fn) {
  if (n < 0 || (n > 0 && indices == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid index list (n = %d)", fn,
                    (int)n);
  /* first_axis may also be ndim itself: the index list starts past the
   * last axis (and then must be empty of axes to index). */
  if (first_axis == a->ndim) {
    *first = a->ndim;
    return CN_OK;
  }
  return cn_normalize_axis(first, first_axis, a->ndim, fn);
}

cn_status cn_index_arrays(cn_array *out, cn_array a, int32_t n,
                          const cn_array *indices, int32_t first_axis) {
  const char *fn = "cn_index_arrays";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  int32_t first = 0, m = 0, bnd = 0;
  int64_t bshape[CN_MAX_DIMS];
  cn_status st = index_args(&first, a, n, indices, first_axis, fn);
  if (st != CN_OK)
    return st;
  if (n == 0)
    return cn_copy(out, a, CN_ORDER_C);
  cn_array_s *lin = NULL, *mv = NULL, *r = NULL;
  bool copied;
  st = linear_index(&lin, &m, &bnd, bshape, a, n, indices, first, fn);
  if (st == CN_OK)
    st = cn_merge_axes(&mv, &copied, a, first, m);
  if (st == CN_OK)
    st = gather(&r, mv, first, lin, bnd, bshape, fn);
  rel(lin, mv, NULL, NULL);
  if (st != CN_OK)
    return st;
  *out = r;
  return CN_OK;
}

/* Scatter through merged axes of a; a copy is written back when the axes
 * cannot be merged in place. */
static cn_status scatter_merged(cn_array_s *a, int32_t first, int32_t m,
                                cn_array_s *lin, int32_t bnd,
                                const int64_t *bshape, const cn_array_s *values,
                                const char *fn) {
  cn_array_s *mv = NULL;
  bool copied;
  cn_status st = cn_merge_axes(&mv, &copied, a, first, m);
  if (st != CN_OK)
    return st;
  if (copied) {
    /* mv views a private copy: scatter there, then write the copy back. */
    cn_array_s *full = NULL;
    st = scatter(mv, first, lin, bnd, bshape, values, fn);
    if (st == CN_OK)
      st = cn_contig_view(&full, mv, a->ndim, a->shape);
    if (st == CN_OK)
      st = cn_assign(a, full);
    cn_array_release(full);
  } else {
    st = scatter(mv, first, lin, bnd, bshape, values, fn);
  }
  cn_array_release(mv);
  return st;
}

cn_status cn_index_arrays_set(cn_array a, int32_t n, const cn_array *indices,
                              int32_t first_axis, cn_array values) {
  const char *fn = "cn_index_arrays_set";
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(values, fn, "values");
  const cn_array_s *pair[2] = {a, values};
  cn_status st = cn_same_device(2, pair, fn);
  if (st != CN_OK)
    return st;
  if ((st = check_writeable(a, fn, "a")) != CN_OK)
    return st;
  int32_t first = 0, m = 0, bnd = 0;
  int64_t bshape[CN_MAX_DIMS];
  if ((st = index_args(&first, a, n, indices, first_axis, fn)) != CN_OK)
    return st;
  if (n == 0)
    return cn_assign(a, values);
  cn_array_s *lin = NULL;
  st = linear_index(&lin, &m, &bnd, bshape, a, n, indices, first, fn);
  if (st == CN_OK)
    st = scatter_merged(a, first, m, lin, bnd, bshape, values, fn);
  cn_array_release(lin);
  return st;
}

/* Validates a mask against a's leading axes. */
static cn_status check_mask(const cn_array_s *a, const cn_array_s *mask,
                            const char *fn) {
  if (mask->dtype != CN_BOOL)
    return cn_error(CN_ERR_TYPE, "%s: argument 'mask' must be bool, got %s", fn,
                    cn_dtype_name(mask->dtype));
  if (mask->ndim > a->ndim)
    return cn_error(CN_ERR_INDEX,
                    "%s: too many indices for array: array is %d-dimensional, "
                    "but the mask is %d-dimensional",
                    fn, (int)a->ndim, (int)mask->ndim);
  for (int32_t d = 0; d < mask->ndim; d++)
    if (mask->shape[d] != a->shape[d])
      return cn_error(CN_ERR_INDEX,
                      "%s: boolean index did not match indexed array along "
                      "axis %d; size of axis is %" PRId64
                      " but size of corresponding boolean axis is %" PRId64,
                      fn, (int)d, a->shape[d], mask->shape[d]);
  const cn_array_s *pair[2] = {a, mask};
  return cn_same_device(2, pair, fn);
}

/* Linear positions of the mask's true entries, on the mask's device; a 0-d
 * mask yields [0] or [] over a new leading axis of extent 1. */
static cn_status mask_positions(cn_array_s **lin, const cn_array_s *mask,
                                const char *fn) {
  CN_REQUIRE_SLOT(fnz, cn_backend_of(mask), flatnonzero, fn);
  return fnz(lin, mask);
}

cn_status cn_mask_get(cn_array *out, cn_array a, cn_array mask) {
  const char *fn = "cn_mask_get";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(mask, fn, "mask");
  cn_status st = check_mask(a, mask, fn);
  if (st != CN_OK)
    return st;
  /* The common case, a[mask] over all of a, in one fused pass where the
   * backend has one (check_mask put both on one device). */
  const cn_backend_compute *k = cn_backend_of(a)->compute;
  if (k->mask_compress != NULL && mask->ndim == a->ndim && mask->ndim > 0 &&
      mask->dtype == CN_BOOL && cn_array_is_c_contig(a) &&
      cn_array_is_c_contig(mask)) {
    st = k->mask_compress(out, a, mask);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  cn_array_s *lin = NULL, *src = NULL, *r = NULL;
  bool copied;
  st = mask_positions(&lin, mask, fn);
  if (st == CN_OK) {
    if (mask->ndim == 0) {
      int32_t ax0 = 0;
      st = cn_expand_dims(&src, a, 1, &ax0);
    } else {
      st = cn_merge_axes(&src, &copied, a, 0, mask->ndim);
    }
  }
  if (st == CN_OK)
    st = gather(&r, src, 0, lin, 1, &lin->size, fn);
  rel(lin, src, NULL, NULL);
  if (st != CN_OK)
    return st;
  *out = r;
  return CN_OK;
}

cn_status cn_mask_set(cn_array dst, cn_array mask, cn_array values) {
  const char *fn = "cn_mask_set";
  CN_CHECK_ARRAY(dst, fn, "dst");
  CN_CHECK_ARRAY(mask, fn, "mask");
  CN_CHECK_ARRAY(values, fn, "values");
  cn_status st = check_mask(dst, mask, fn);
  if (st != CN_OK)
    return st;
  const cn_array_s *pair[2] = {dst, values};
  if ((st = cn_same_device(2, pair, fn)) != CN_OK)
    return st;
  if ((st = check_writeable(dst, fn, "dst")) != CN_OK)
    return st;
  cn_array_s *lin = NULL, *tgt = NULL;
  st = mask_positions(&lin, mask, fn);
  if (st == CN_OK) {
    if (mask->ndim == 0) {
      int32_t ax0 = 0;
      st = cn_expand_dims(&tgt, dst, 1, &ax0);
      if (st == CN_OK)
        st = scatter_merged(tgt, 0, 1, lin, 1, &lin->size, values, fn);
    } else {
      st = scatter_merged(dst, 0, mask->ndim, lin, 1, &lin->size, values, fn);
    }
  }
  rel(lin, tgt, NULL, NULL);
  return st;
}

/* ---- nonzero ------------------------------------------------------------- */


cn_status cn_flatnonzero(cn_array *out, cn_array a) {
  const char *fn = "cn_flatnonzero";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_REQUIRE_SLOT(fnz, cn_backend_of(a), flatnonzero, fn);
  return fnz(out, a);
}

/* Unravels flat C-order positions into columns: writes cols[d][j] at
 * base[d] + j * stride (int64 elements). The positions ascend (they come
 * from flatnonzero), so each chunk divides once for its first position and
 * then carries the step from the previous one through the coordinates,
 * dividing only when a step overflows an axis. */
static void unravel(const cn_array_s *lin, const cn_array_s *a, int64_t **base,
                    int64_t stride) {
  const int64_t *p = (const int64_t *)lin->data;
  const int32_t nd = a->ndim;
  const int64_t n = lin->size;
  const int64_t *shape = a->shape;
  enum { CH = 64 };
  int nch = n >= (1 << 15) ? CH : 1;
#pragma omp parallel for schedule(static) if (nch > 1)
  for (int c = 0; c < nch; c++) {
    int64_t lo = n * c / nch, hi = n * (c + 1) / nch;
    if (lo >= hi)
      continue;
    int64_t co[CN_MAX_DIMS], v = p[lo], prev = p[lo];
    for (int32_t d = nd - 1; d >= 0; d--) {
      co[d] = v % shape[d];
      v /= shape[d];
    }
    for (int64_t j = lo; j < hi; j++) {
      int64_t step = p[j] - prev;
      prev = p[j];
      co[nd - 1] += step;
      for (int32_t d = nd - 1; d > 0 && co[d] >= shape[d]; d--) {
        co[d - 1] += co[d] / shape[d];
        co[d] %= shape[d];
      }
      for (int32_t d = 0; d < nd; d++)
        base[d][j * stride] = co[d];
    }
  }
}

/* A 0-d int64 array holding v on like's device. */
static cn_status int64_on(cn_array_s **out, int64_t v, const cn_array_s *like) {
  cn_array_s *s = NULL;
  cn_status st = cn_from_scalar(&s, (cn_scalar){.kind = CN_SCALAR_INT, .i = v},
                                CN_INT64);
  if (st != CN_OK)
    return st;
  st = cn_idx_to_device_of(out, s, like);
  cn_array_release(s);
  return st;
}

/* Device form of unravel: column d of the coordinates (cols indexed at d
 * along col_axis) is (lin // prod(shape[d+1:])) % shape[d], computed by
 * ufuncs on lin's device. */
static cn_status unravel_on_device(const cn_array_s *lin, const cn_array_s *a,
                                   cn_array_s *cols, int32_t col_axis) {
  cn_status st = CN_OK;
  int64_t step = 1;
  for (int32_t d = a->ndim - 1; d >= 0 && st == CN_OK; d--) {
    cn_array_s *dst = NULL, *sstep = NULL, *sext = NULL, *q = NULL, *o = NULL;
    st = cn_index_axis(&dst, cols, col_axis, d);
    if (st == CN_OK)
      st = int64_on(&sstep, step, lin);
    if (st == CN_OK)
      st = int64_on(&sext, a->shape[d], lin);
    if (st == CN_OK)
      st = cn_floor_divide(&q, (cn_array)lin, sstep, NULL);
    if (st == CN_OK)
      st = cn_remainder(&o, q, sext, dst);
    rel(dst, sstep, sext, q);
    cn_array_release(o);
    step *= a->shape[d];
  }
  return st;
}

static bool on_host(const cn_array_s *a) {
  return a->buf->backend->device_type == CN_DEVICE_CPU;
}

cn_status cn_nonzero(cn_array *outs, int32_t cap, cn_array a) {
  const char *fn = "cn_nonzero";
  CN_CHECK_OUT(outs, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim == 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: calling nonzero on 0d arrays is not allowed; use "
                    "atleast_1d first",
                    fn);
  if (cap < a->ndim)
    return cn_error(CN_ERR_VALUE, "%s: capacity %d is smaller than ndim %d", fn,
                    (int)cap, (int)a->ndim);
  cn_array_s *lin = NULL, *cols = NULL, *dev = NULL;
  cn_status st = mask_positions(&lin, a, fn);
  int64_t shape[2] = {a->ndim, lin ? lin->size : 0};
  if (st == CN_OK && a->ndim == 1) {
    /* The flat positions are the only column. */
    outs[0] = lin;
    return CN_OK;
  }
  if (st == CN_OK && !on_host(a)) {
    st = cn_new_on(&dev, a, CN_INT64, 2, shape);
    if (st == CN_OK)
      st = unravel_on_device(lin, a, dev, 0);
  } else if (st == CN_OK) {
    st = cn_array_new(&cols, cn_cpu_backend(), 0, CN_INT64, 2, shape,
                      CN_ORDER_C);
  }
  if (st == CN_OK && cols != NULL) {
    int64_t *base[CN_MAX_DIMS];
    for (int32_t d = 0; d < a->ndim; d++)
      base[d] = (int64_t *)cols->data + d * shape[1];
    unravel(lin, a, base, 1);
    st = cn_idx_to_device_of(&dev, cols, a);
  }
  cn_array_s *res[CN_MAX_DIMS] = {0};
  for (int32_t d = 0; d < a->ndim && st == CN_OK; d++)
    st = cn_index_axis(&res[d], dev, 0, d);
  rel(lin, cols, dev, NULL);
  if (st != CN_OK) {
    for (int32_t d = 0; d < a->ndim; d++)
      cn_array_release(res[d]);
    return st;
  }
  for (int32_t d = 0; d < a->ndim; d++)
    outs[d] = res[d];
  return CN_OK;
}

cn_status cn_argwhere(cn_array *out, cn_array a) {
  const char *fn = "cn_argwhere";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_array_s *lin = NULL, *r = NULL, *dev = NULL;
  cn_status st = mask_positions(&lin, a, fn);
  if (st != CN_OK)
    return st;
  int64_t shape[2] = {lin->size, a->ndim};
  if (!on_host(a)) {
    st = cn_new_on(&dev, a, CN_INT64, 2, shape);
    if (st == CN_OK)
      st = unravel_on_device(lin, a, dev, 1);
    cn_array_release(lin);
    if (st != CN_OK) {
      cn_array_release(dev);
      return st;
    }
    *out = dev;
    return CN_OK;
  }
  st = cn_array_new(&r, cn_cpu_backend(), 0, CN_INT64, 2, shape, CN_ORDER_C);
  if (st == CN_OK) {
    int64_t *base[CN_MAX_DIMS];
    for (int32_t d = 0; d < a->ndim; d++)
      base[d] = (int64_t *)r->data + d;
    unravel(lin, a, base, a->ndim);
    st = cn_idx_to_device_of(&dev, r, a);
  }
  rel(lin, r, NULL, NULL);
  if (st != CN_OK)
    return st;
  *out = dev;
  return CN_OK;
}

cn_status cn_count_nonzero(cn_array *out, cn_array a, int32_t naxes,
                           const int32_t *axes, int32_t keepdims) {
  const char *fn = "cn_count_nonzero";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  uint64_t mask;
  cn_status st = cn_axes_mask(&mask, naxes, axes, a->ndim, fn);
  if (st != CN_OK)
    return st;
  /* One count on the host: read every element in place, no bool copy. */
  int64_t rshape[CN_MAX_DIMS];
  int32_t rnd = 0;
  bool one = on_host(a);
  for (int32_t d = 0; d < a->ndim && one; d++) {
    if (!(mask >> d & 1))
      one = a->shape[d] == 1;
    if (!(mask >> d & 1) || keepdims)
      rshape[rnd++] = 1;
  }
  if (one) {
    cn_array_s *r = NULL;
    st = cn_array_new(&r, a->buf->backend, a->buf->device_id, CN_INT64, rnd,
                      rshape, CN_ORDER_C);
    if (st != CN_OK)
      return st;
    *(int64_t *)r->data = cn_cpu_count_nonzero(a);
    *out = r;
    return CN_OK;
  }
  cn_array_s *b = NULL;
  st = cn_astype(&b, a, CN_BOOL, 0);
  if (st != CN_OK)
    return st;
  st = cn_sum(out, b, naxes, axes, keepdims, CN_INT64, NULL);
  cn_array_release(b);
  return st;
}

/* ---- selection ---------------------------------------------------------- */

/* Positions where the 1-d condition is true, on its device, checked
 * against extent (the positions ascend: the last one decides). */
static cn_status cond_positions(cn_array_s **out, const cn_array_s *cond,
                                int64_t extent, int32_t axis, const char *fn) {
  cn_array_s *lin = NULL;
  cn_status st = mask_positions(&lin, cond, fn);
  if (st != CN_OK)
    return st;
  if (lin->size > 0) {
    const int64_t *lastp = (const int64_t *)lin->data + (lin->size - 1);
    int64_t last = 0;
    if (on_host(lin))
      last = *lastp;
    else if ((st = cn_backend_of(lin)->device->copy_to_host(
                  &last, lastp, sizeof last)) != CN_OK) {
      cn_array_release(lin);
      return st;
    }
    if (last >= extent) {
      cn_array_release(lin);
      return cn_error(CN_ERR_INDEX,
                      "%s: index %" PRId64
                      " is out of bounds for axis %d with size %" PRId64
                      " (condition is longer than the axis)",
                      fn, last, (int)axis, extent);
    }
  }
  *out = lin;
  return CN_OK;
}

cn_status cn_compress(cn_array *out, cn_array condition, cn_array a,
                      int32_t axis) {
  const char *fn = "cn_compress";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(condition, fn, "condition");
  CN_CHECK_ARRAY(a, fn, "a");
  const cn_array_s *pair[2] = {a, condition};
  cn_status st = cn_same_device(2, pair, fn);
  if (st != CN_OK)
    return st;
  if (condition->ndim != 1)
    return cn_error(CN_ERR_SHAPE, "%s: condition must be a 1-d array, got %d-d",
                    fn, (int)condition->ndim);
  cn_array_s *src = NULL;
  int32_t ax = 0;
  st = cn_axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *lin = NULL, *r = NULL;
  st = cond_positions(&lin, condition, src->shape[ax], ax, fn);
  if (st == CN_OK)
    st = gather(&r, src, ax, lin, 1, &lin->size, fn);
  rel(src, lin, NULL, NULL);
  if (st != CN_OK)
    return st;
  *out = r;
  return CN_OK;
}

cn_status cn_extract(cn_array *out, cn_array condition, cn_array a) {
  const char *fn = "cn_extract";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(condition, fn, "condition");
  CN_CHECK_ARRAY(a, fn, "a");
  const cn_array_s *pair[2] = {a, condition};
  cn_status st = cn_same_device(2, pair, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *src = NULL, *c = NULL, *lin = NULL, *r = NULL;
  st = cn_ravel(&src, a, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_ravel(&c, condition, CN_ORDER_C);
  if (st == CN_OK)
    st = cond_positions(&lin, c, src->size, 0, fn);
  if (st == CN_OK)
    st = gather(&r, src, 0, lin, 1, &lin->size, fn);
  rel(src, c, lin, NULL);
  if (st != CN_OK)
    return st;
  *out = r;
  return CN_OK;
}

cn_status cn_choose(cn_array *out, cn_array index, int32_t n,
                    const cn_array *choices, int32_t mode, cn_array dst) {
  const char *fn = "cn_choose";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(index, fn, "index");
  cn_status st = check_mode(mode, fn);
  if (st != CN_OK)
    return st;
  if (n <= 0 || choices == NULL)
    return cn_error(CN_ERR_VALUE, "%s: at least one choice is needed (n = %d)",
                    fn, (int)n);
  if (n > 31)
    return cn_error(CN_ERR_VALUE,
                    "%s: at most 31 choices are supported, got %d", fn, (int)n);
  if (!cn_is_integer(index->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: argument 'index' must have an integer dtype, got %s",
                    fn, cn_dtype_name(index->dtype));
  const cn_array_s *all[32];
  all[0] = index;
  cn_dtype rt = CN_DTYPE_DEFAULT;
  for (int32_t i = 0; i < n; i++) {
    CN_CHECK_ARRAY(choices[i], fn, "choices");
    all[i + 1] = choices[i];
    if (i == 0)
      rt = choices[0]->dtype;
    else if ((st = cn_result_type(&rt, rt, choices[i]->dtype)) != CN_OK)
      return st;
  }
  if ((st = cn_same_device(n + 1, all, fn)) != CN_OK)
    return st;
  int32_t nd;
  int64_t shape[CN_MAX_DIMS + 1];
  /* cn_broadcast_shape_arrays takes at most 8 operands: fold in groups. */
  {
    int32_t ndims[32];
    const int64_t *shapes[32];
    for (int32_t i = 0; i <= n; i++) {
      ndims[i] = all[i]->ndim;
      shapes[i] = all[i]->shape;
    }
    st = cn_broadcast_shapes(&nd, shape + 1, n + 1, ndims, shapes);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
  }
  if (nd + 1 > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: too many dimensions", fn);
  if (dst && (st = cn_check_dst(dst, nd, shape + 1, index, fn)) != CN_OK)
    return st;
  /* Stack the choices into (n, S) and take along axis 0. */
  shape[0] = n;
  cn_array_s *stack = NULL, *idx = NULL, *bi = NULL, *hv = NULL, *r = NULL,
             *rv = NULL;
  st = cn_idx_normalize_on(&idx, index, n, mode, 0, fn);
  if (st == CN_OK)
    st = cn_new_on(&stack, index, rt, nd + 1, shape);
  for (int32_t i = 0; i < n && st == CN_OK; i++) {
    cn_array_s *slot = NULL;
    st = cn_index_axis(&slot, stack, 0, i);
    if (st == CN_OK)
      st = cn_assign(slot, choices[i]);
    cn_array_release(slot);
  }
  if (st == CN_OK)
    st = cn_idx_to_device_of(&hv, idx, index);
  if (st == CN_OK) {
    shape[0] = 1;
    st = cn_broadcast_view(&bi, hv, nd + 1, shape, fn);
    shape[0] = n;
  }
  if (st == CN_OK)
    st = cn_new_on(&r, index, rt, nd, shape + 1);
  if (st == CN_OK) {
    int64_t one[CN_MAX_DIMS + 1];
    one[0] = 1;
    memcpy(one + 1, shape + 1, sizeof(int64_t) * (size_t)nd);
    st = cn_contig_view(&rv, r, nd + 1, one);
  }
  if (st == CN_OK) {
    CN_REQUIRE_SLOT(ta, cn_backend_of(index), take_along, fn);
    cn_array_s *sv = NULL;
    int64_t as[CN_MAX_DIMS + 1];
    memcpy(as, shape, sizeof(int64_t) * (size_t)(nd + 1));
    st = cn_broadcast_view(&sv, stack, nd + 1, as, fn);
    if (st == CN_OK)
      st = ta(rv, sv, bi, 0);
    cn_array_release(sv);
  }
  rel(stack, idx, bi, hv);
  cn_array_release(rv);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_finish_dst(out, r, dst);
}
