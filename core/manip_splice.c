/* Inserting, deleting and appending sub-arrays along an axis
 * (include/cunumpy/manip.h: cn_insert, cn_delete, cn_append). Positions are
 * resolved on the host; the data moves with one concatenate of slices
 * (few positions) or one concatenate and one gather (many), so every dtype
 * and device the core serves works. */
#include "cunumpy/manip.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/index.h"
#include "cunumpy/view.h"
#include "array_util.h"
#include "manip_util.h"

/* Up to this many pieces, insert / delete splice slices with one
 * concatenate; beyond, one gather is cheaper than the per-piece views. */
#define FEW_PIECES 513

cn_status cn_int64_on(cn_array_s **out, const int64_t *data, int64_t n,
                      const cn_array_s *like) {
  cn_array_s *h = NULL;
  int64_t len = n < 0 ? 1 : n;
  cn_status st =
      cn_array_new(&h, cn_cpu_backend(), 0, CN_INT64, n < 0 ? 0 : 1, &len,
                   CN_ORDER_C);
  if (st != CN_OK)
    return st;
  if (len)
    memcpy(h->data, data, sizeof(int64_t) * (size_t)len);
  st = cn_idx_to_device_of(out, h, like);
  cn_array_release(h);
  return st;
}

/* (a, axis) to work on: a flattened and axis 0 for CN_AXIS_NONE. */
static cn_status axis_source(cn_array_s **src, int32_t *ax, cn_array_s *a,
                             int32_t axis, const char *fn) {
  if (axis == CN_AXIS_NONE) {
    *ax = 0;
    if (a->ndim == 1) {
      cn_array_retain(a);
      *src = a;
      return CN_OK;
    }
    return cn_ravel(src, a, CN_ORDER_C);
  }
  cn_status st = cn_normalize_axis(ax, axis, a->ndim, fn);
  if (st != CN_OK)
    return st;
  cn_array_retain(a);
  *src = a;
  return CN_OK;
}

/* Host int64 copy of an integer position array (an empty array of any
 * dtype counts as integer); a bool array gives its nonzero positions.
 * *pos is malloc'ed (NULL when empty). Other dtypes fail as NumPy's
 * indexing does: CN_ERR_TYPE for a single position (a slice bound),
 * CN_ERR_INDEX for an array of them. */
static cn_status host_positions(int64_t **pos, int64_t *n, cn_array_s *idx,
                                const char *fn) {
  *pos = NULL;
  *n = idx->size;
  if (idx->size == 0)
    return CN_OK;
  cn_dtype_kind k = CN_KIND_FLOAT;
  cn_dtype_get_kind(&k, idx->dtype);
  if (k == CN_KIND_BOOL) {
    unsigned char *m = (unsigned char *)cn_malloc((size_t)idx->size);
    int64_t *p = (int64_t *)cn_malloc(sizeof(int64_t) * (size_t)idx->size);
    cn_status st = m && p ? cn_copy_to_buffer(m, idx->size, idx, CN_ORDER_C)
                          : cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    *n = 0;
    for (int64_t i = 0; st == CN_OK && i < idx->size; i++)
      if (m[i])
        p[(*n)++] = i;
    free(m);
    if (st != CN_OK) {
      free(p);
      return st;
    }
    *pos = p;
    return CN_OK;
  }
  if (k != CN_KIND_INT && k != CN_KIND_UINT)
    return idx->size == 1
               ? cn_error(CN_ERR_TYPE,
                          "%s: slice indices must be integers or None or "
                          "have an __index__ method",
                          fn)
               : cn_error(CN_ERR_INDEX,
                          "%s: arrays used as indices must be of integer (or "
                          "boolean) type",
                          fn);
  int64_t *p = (int64_t *)cn_malloc(sizeof(int64_t) * (size_t)idx->size);
  if (!p)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  cn_array_s *c = NULL;
  cn_status st = cn_astype(&c, idx, CN_INT64, 0);
  if (st == CN_OK)
    st = cn_copy_to_buffer(p, (int64_t)sizeof(int64_t) * idx->size, c,
                           CN_ORDER_C);
  cn_array_release(c);
  if (st != CN_OK) {
    free(p);
    return st;
  }
  *pos = p;
  return CN_OK;
}

static bool is_integer_dtype(cn_dtype dt) {
  cn_dtype_kind k = CN_KIND_FLOAT;
  cn_dtype_get_kind(&k, dt);
  return k == CN_KIND_INT || k == CN_KIND_UINT;
}

/* One concatenate of the pieces along ax (at least one piece). */
static cn_status join_pieces(cn_array *out, int32_t n, cn_array_s **pieces,
                             int32_t ax, cn_dtype dtype) {
  cn_status st = cn_concatenate(out, n, (const cn_array *)pieces, ax, dtype);
  for (int32_t i = 0; i < n; i++)
    cn_array_release(pieces[i]);
  return st;
}

/* values cast to dtype and broadcast to shape (leading extra extents of 1
 * dropped, as assignment does). */
static cn_status values_as(cn_array_s **out, cn_array_s *values, cn_dtype dt,
                           int32_t nd, const int64_t *shape) {
  cn_array_s *v = NULL, *w = NULL;
  cn_status st = cn_astype(&v, values, dt, 0);
  int32_t drop = 0;
  while (st == CN_OK && v->ndim - drop > nd && v->shape[drop] == 1)
    drop++;
  if (st == CN_OK && drop) {
    st = cn_reshape(&w, v, v->ndim - drop, v->shape + drop, CN_ORDER_C);
    cn_array_release(v);
    v = w;
  }
  if (st == CN_OK)
    st = cn_broadcast_to(out, v, nd, shape);
  cn_array_release(v);
  return st;
}

typedef struct {
  int64_t pos, j;
} pos_entry;

static int cmp_pos(const void *x, const void *y) {
  const pos_entry *p = (const pos_entry *)x, *q = (const pos_entry *)y;
  if (p->pos != q->pos)
    return p->pos < q->pos ? -1 : 1;
  return p->j < q->j ? -1 : (p->j > q->j);
}

/* Inserts one block (NumPy's scalar / single-position path). */
static cn_status insert_one(cn_array *out, cn_array_s *src, int32_t ax,
                            int64_t index, bool scalar_pos, cn_array_s *values,
                            const char *fn) {
  cn_array_s *v = NULL, *t = NULL, *r = NULL;
  int32_t nd = src->ndim;
  cn_status st = cn_astype(&v, values, src->dtype, 0);
  if (st == CN_OK && v->ndim < nd) { /* NumPy's ndmin */
    int64_t shape[CN_MAX_DIMS];
    int32_t lead = nd - v->ndim;
    for (int32_t d = 0; d < nd; d++)
      shape[d] = d < lead ? 1 : v->shape[d - lead];
    st = cn_reshape(&t, v, nd, shape, CN_ORDER_C);
    cn_array_release(v);
    v = t;
    t = NULL;
  }
  if (st == CN_OK && scalar_pos && ax != 0) {
    int32_t from = 0, to = ax;
    st = cn_moveaxis(&t, v, 1, &from, &to);
    cn_array_release(v);
    v = t;
    t = NULL;
  }
  if (st != CN_OK) {
    cn_array_release(v);
    return st;
  }
  int64_t numnew = v->ndim > ax ? v->shape[ax] : 1, shape[CN_MAX_DIMS];
  memcpy(shape, src->shape, sizeof(int64_t) * (size_t)nd);
  shape[ax] += numnew;
  int64_t n = src->shape[ax];
  st = cn_new_on(&r, src, src->dtype, nd, shape);
  cn_array_s *dv = NULL, *sv = NULL;
  if (st == CN_OK)
    st = cn_slice_axis(&dv, r, ax, 0, index, 1);
  if (st == CN_OK)
    st = cn_slice_axis(&sv, src, ax, 0, index, 1);
  if (st == CN_OK)
    st = cn_assign(dv, sv);
  cn_array_release(dv);
  cn_array_release(sv);
  dv = sv = NULL;
  if (st == CN_OK)
    st = cn_slice_axis(&dv, r, ax, index, index + numnew, 1);
  if (st == CN_OK)
    st = cn_assign(dv, v);
  cn_array_release(dv);
  dv = NULL;
  if (st == CN_OK)
    st = cn_slice_axis(&dv, r, ax, index + numnew, shape[ax], 1);
  if (st == CN_OK)
    st = cn_slice_axis(&sv, src, ax, index, n, 1);
  if (st == CN_OK)
    st = cn_assign(dv, sv);
  cn_array_release(dv);
  cn_array_release(sv);
  cn_array_release(v);
  if (st != CN_OK) {
    cn_array_release(r);
    return cn_error_prefix(st, fn);
  }
  *out = r;
  return CN_OK;
}

/* Inserts values' slice j before src's index pos[j] for every j (equal
 * positions keep their order, as NumPy's stable argsort). */
static cn_status insert_many(cn_array *out, cn_array_s *src, int32_t ax,
                             int64_t *pos, int64_t numnew, cn_array_s *values,
                             const char *fn) {
  int32_t nd = src->ndim;
  int64_t n = src->shape[ax], shape[CN_MAX_DIMS];
  memcpy(shape, src->shape, sizeof(int64_t) * (size_t)nd);
  shape[ax] = numnew;
  pos_entry *order = (pos_entry *)cn_malloc(sizeof(pos_entry) *
                                         (size_t)(numnew ? numnew : 1));
  if (!order)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  for (int64_t j = 0; j < numnew; j++)
    order[j] = (pos_entry){pos[j], j};
  qsort(order, (size_t)numnew, sizeof *order, cmp_pos);
  cn_array_s *vb = NULL;
  cn_status st = values_as(&vb, values, src->dtype, nd, shape);
  if (st != CN_OK) {
    free(order);
    return cn_error_prefix(st, fn);
  }
  if (2 * numnew + 1 <= FEW_PIECES) {
    cn_array_s *pieces[FEW_PIECES];
    int32_t np = 0;
    int64_t prev = 0;
    for (int64_t i = 0; i < numnew && st == CN_OK; i++) {
      int64_t p = order[i].pos, j = order[i].j;
      if (p > prev)
        st = cn_slice_axis(&pieces[np++], src, ax, prev, p, 1);
      if (st == CN_OK)
        st = cn_slice_axis(&pieces[np++], vb, ax, j, j + 1, 1);
      prev = p;
    }
    if (st == CN_OK)
      st = cn_slice_axis(&pieces[np++], src, ax, prev, n, 1);
    if (st == CN_OK) {
      st = join_pieces(out, np, pieces, ax, src->dtype);
    } else {
      for (int32_t i = 0; i < np; i++)
        cn_array_release(pieces[i]);
    }
  } else {
    /* Gather from [src, values] along ax: output slot order[i].pos + i
     * takes value order[i].j, the others src's slices in order. */
    int64_t total = n + numnew;
    int64_t *g = (int64_t *)cn_malloc(sizeof(int64_t) * (size_t)total);
    cn_array_s *both = NULL, *gi = NULL, *pair[2] = {src, vb};
    if (!g)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    int64_t i = 0, o = 0;
    for (int64_t k = 0; st == CN_OK && k < total; k++) {
      if (i < numnew && order[i].pos + i == k) {
        g[k] = n + order[i].j;
        i++;
      } else {
        g[k] = o++;
      }
    }
    if (st == CN_OK)
      st = cn_concatenate(&both, 2, (const cn_array *)pair, ax, src->dtype);
    if (st == CN_OK)
      st = cn_int64_on(&gi, g, total, src);
    if (st == CN_OK)
      st = cn_take(out, both, gi, ax, CN_INDEX_RAISE, NULL);
    free(g);
    cn_array_release(both);
    cn_array_release(gi);
  }
  cn_array_release(vb);
  free(order);
  return st;
}

cn_status cn_insert(cn_array *out, cn_array a, cn_array indices,
                    cn_array values, int32_t axis) {
  const char *fn = "cn_insert";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(indices, fn, "indices");
  CN_CHECK_ARRAY(values, fn, "values");
  if (values->buf->backend != a->buf->backend ||
      values->buf->device_id != a->buf->device_id)
    return cn_error(CN_ERR_DEVICE, "%s: values is on a different device than "
                                   "a", fn);
  if (indices->dtype == CN_BOOL && indices->ndim != 1)
    return cn_error(CN_ERR_VALUE, "%s: boolean array argument obj to insert "
                                  "must be one dimensional", fn);
  if (indices->ndim > 1)
    return cn_error(CN_ERR_VALUE, "%s: index array argument obj to insert "
                                  "must be one dimensional or scalar", fn);
  cn_array_s *src = NULL;
  int32_t ax = 0;
  cn_status st = axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  int64_t *pos = NULL, npos = 0, n = src->shape[ax];
  st = host_positions(&pos, &npos, indices, fn);
  for (int64_t j = 0; j < npos && st == CN_OK; j++) {
    if (pos[j] < -n || pos[j] > n)
      st = cn_error(CN_ERR_INDEX,
                    "%s: index %" PRId64 " is out of bounds for axis %d with "
                    "size %" PRId64,
                    fn, pos[j], (int)ax, n);
    else if (pos[j] < 0)
      pos[j] += n;
  }
  if (st == CN_OK && npos == 1)
    st = insert_one(out, src, ax, pos[0], indices->ndim == 0, values, fn);
  else if (st == CN_OK)
    st = insert_many(out, src, ax, pos, npos, values, fn);
  free(pos);
  cn_array_release(src);
  return st;
}

cn_status cn_delete(cn_array *out, cn_array a, cn_array indices,
                    int32_t axis) {
  const char *fn = "cn_delete";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(indices, fn, "indices");
  cn_array_s *src = NULL;
  int32_t ax = 0;
  cn_status st = axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  int64_t n = src->shape[ax];
  unsigned char *drop = (unsigned char *)cn_calloc((size_t)(n ? n : 1), 1);
  int64_t *pos = NULL, npos = 0;
  if (!drop)
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  if (st == CN_OK && indices->dtype == CN_BOOL) {
    if (indices->ndim != 1 || indices->shape[0] != n)
      st = cn_error(CN_ERR_VALUE,
                    "%s: boolean array argument obj to delete must be one "
                    "dimensional and match the axis length of %" PRId64,
                    fn, n);
    else if (n)
      st = cn_copy_to_buffer(drop, n, indices, CN_ORDER_C);
  } else if (st == CN_OK && indices->size == 1 &&
             !is_integer_dtype(indices->dtype)) {
    st = cn_error(CN_ERR_INDEX, "%s: arrays used as indices must be of "
                                "integer (or boolean) type", fn);
  } else if (st == CN_OK) {
    st = host_positions(&pos, &npos, indices, fn);
    for (int64_t j = 0; j < npos && st == CN_OK; j++) {
      if (pos[j] < -n || pos[j] >= n)
        st = cn_error(CN_ERR_INDEX,
                      "%s: index %" PRId64 " is out of bounds for axis %d "
                      "with size %" PRId64,
                      fn, pos[j], (int)ax, n);
      else
        drop[pos[j] < 0 ? pos[j] + n : pos[j]] = 1;
    }
  }
  /* The kept runs [start, stop). */
  int64_t runs = 0, kept = 0;
  for (int64_t i = 0; st == CN_OK && i < n; i++) {
    if (!drop[i]) {
      kept++;
      if (i == 0 || drop[i - 1])
        runs++;
    }
  }
  if (st == CN_OK && runs <= FEW_PIECES) {
    cn_array_s *pieces[FEW_PIECES + 1];
    int32_t np = 0;
    for (int64_t i = 0; i < n && st == CN_OK; i++) {
      if (drop[i] || (i > 0 && !drop[i - 1]))
        continue;
      int64_t stop = i;
      while (stop < n && !drop[stop])
        stop++;
      st = cn_slice_axis(&pieces[np++], src, ax, i, stop, 1);
    }
    if (st == CN_OK && np == 0)
      st = cn_slice_axis(&pieces[np++], src, ax, 0, 0, 1);
    if (st == CN_OK) {
      st = join_pieces(out, np, pieces, ax, src->dtype);
    } else {
      for (int32_t i = 0; i < np; i++)
        cn_array_release(pieces[i]);
    }
  } else if (st == CN_OK) {
    int64_t *keep = (int64_t *)cn_malloc(sizeof(int64_t) * (size_t)kept);
    cn_array_s *ki = NULL;
    if (!keep)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    for (int64_t i = 0, k = 0; st == CN_OK && i < n; i++)
      if (!drop[i])
        keep[k++] = i;
    if (st == CN_OK)
      st = cn_int64_on(&ki, keep, kept, src);
    if (st == CN_OK)
      st = cn_take(out, src, ki, ax, CN_INDEX_RAISE, NULL);
    free(keep);
    cn_array_release(ki);
  }
  free(pos);
  free(drop);
  cn_array_release(src);
  return st;
}

cn_status cn_append(cn_array *out, cn_array a, cn_array values,
                    int32_t axis) {
  const char *fn = "cn_append";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(values, fn, "values");
  if (axis != CN_AXIS_NONE) {
    cn_array pair[2] = {a, values};
    return cn_concatenate(out, 2, pair, axis, CN_DTYPE_DEFAULT);
  }
  cn_array_s *pair[2] = {NULL, NULL};
  cn_status st = cn_ravel(&pair[0], a, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_ravel(&pair[1], values, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_concatenate(out, 2, (const cn_array *)pair, 0, CN_DTYPE_DEFAULT);
  cn_array_release(pair[0]);
  cn_array_release(pair[1]);
  return st;
}
