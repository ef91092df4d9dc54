/* Sorting and searching entry points (include/cunumpy/sort.h). Sorting
 * goes through the backend's sort slot and searchsorted through its
 * searchsorted slot; partition on a device backend is a full sort there.
 * Partition on the CPU, unique, isin and the set operations work on
 * order-preserving keys (sort_keys.h) on the host and move results to the
 * input's device. */
#include "cunumpy/sort.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/index.h"
#include "cunumpy/manip.h"
#include "array_util.h"
#include "sort_keys.h"

static cn_status sort_impl(cn_array *vals, cn_array *perm, cn_array a,
                           int32_t axis, const char *fn) {
  CN_CHECK_ARRAY(a, fn, "a");
  cn_array_s *src = NULL, *v = NULL, *p = NULL;
  int32_t ax;
  cn_status st = cn_axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  const cn_backend *be = cn_backend_of(src);
  if (be->compute->sort == NULL) {
    /* src is a new reference (a view or a raveled copy of a) */
    cn_array_release(src);
    return cn_slot_unsupported(fn, be, "sort");
  }
  __typeof__(be->compute->sort) sortk = be->compute->sort;
  if (vals)
    st = cn_new_on(&v, src, src->dtype, src->ndim, src->shape);
  if (st == CN_OK && perm)
    st = cn_new_on(&p, src, CN_INT64, src->ndim, src->shape);
  if (st == CN_OK)
    st = sortk(v, p, src, ax);
  cn_array_release(src);
  if (st != CN_OK) {
    cn_array_release(v);
    cn_array_release(p);
    return st;
  }
  if (vals)
    *vals = v;
  if (perm)
    *perm = p;
  return CN_OK;
}

cn_status cn_sort(cn_array *out, cn_array a, int32_t axis) {
  CN_CHECK_OUT(out, "cn_sort");
  return sort_impl(out, NULL, a, axis, "cn_sort");
}

cn_status cn_argsort(cn_array *out, cn_array a, int32_t axis) {
  CN_CHECK_OUT(out, "cn_argsort");
  return sort_impl(NULL, out, a, axis, "cn_argsort");
}

/* ---- partition (introselect on host keys) ------------------------------- */

typedef struct kv {
  uint64_t k;
  int64_t i;
} kv;

static int kv_cmp(const void *x, const void *y) {
  const kv *a = x, *b = y;
  return a->k < b->k ? -1 : a->k > b->k;
}

static void kv_swap(kv *a, kv *b) {
  kv t = *a;
  *a = *b;
  *b = t;
}

/* Places the k-th smallest of v[lo, hi) at k with smaller keys before and
 * larger after: quickselect with median-of-3 and a three-way split, falling
 * back to a full sort of the range after 2 log2(n) rounds. */
static void introselect(kv *v, int64_t lo, int64_t hi, int64_t k) {
  int depth = 0;
  for (int64_t n = hi - lo; n > 1; n >>= 1)
    depth += 2;
  while (hi - lo > 16) {
    if (depth-- <= 0) {
      qsort(v + lo, (size_t)(hi - lo), sizeof(kv), kv_cmp);
      return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    if (v[mid].k < v[lo].k)
      kv_swap(&v[mid], &v[lo]);
    if (v[hi - 1].k < v[lo].k)
      kv_swap(&v[hi - 1], &v[lo]);
    if (v[hi - 1].k < v[mid].k)
      kv_swap(&v[hi - 1], &v[mid]);
    uint64_t p = v[mid].k;
    int64_t lt = lo, i = lo, gt = hi;
    while (i < gt) {
      if (v[i].k < p)
        kv_swap(&v[lt++], &v[i++]);
      else if (v[i].k > p)
        kv_swap(&v[i], &v[--gt]);
      else
        i++;
    }
    if (k < lt)
      hi = lt;
    else if (k >= gt)
      lo = gt;
    else
      return;
  }
  for (int64_t i = lo + 1; i < hi; i++) {
    kv t = v[i];
    int64_t j = i - 1;
    while (j >= lo && v[j].k > t.k) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = t;
  }
}

static cn_status partition_impl(cn_array *out, cn_array a, int32_t nkth,
                                const int64_t *kth, int32_t axis, bool arg,
                                const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (nkth < 1 || kth == NULL)
    return cn_error(CN_ERR_VALUE, "%s: need at least one kth (nkth = %d)", fn,
                    (int)nkth);
  if (cn_is_complex(a->dtype) ||
      cn_backend_of(a)->device_type != CN_DEVICE_CPU) {
    /* A full stable sort is a valid partition (NumPy promises only that
     * the kth elements are in place and each side partitioned around
     * them): complex keys have no one-word integer map for introselect,
     * and on a device backend the sort slot runs where the data is,
     * without a round trip through host memory. */
    CN_REQUIRE_SLOT(sortk, cn_backend_of(a), sort, fn);
    (void)sortk;
    cn_array_s *src = NULL;
    int32_t ax;
    cn_status st = cn_axis_source(&src, &ax, a, axis, fn);
    if (st != CN_OK)
      return st;
    int64_t n = src->shape[ax];
    for (int32_t i = 0; i < nkth && st == CN_OK; i++)
      if (kth[i] < -n || kth[i] >= n)
        st = cn_error(CN_ERR_INDEX,
                      "%s: kth(=%" PRId64 ") out of bounds (%" PRId64 ")", fn,
                      kth[i], n);
    cn_array_release(src);
    if (st != CN_OK)
      return st;
    return arg ? cn_argsort(out, a, axis) : cn_sort(out, a, axis);
  }
  cn_array_s *src = NULL, *h = NULL, *hc = NULL, *r = NULL, *dev = NULL;
  int32_t ax;
  cn_status st = cn_axis_source(&src, &ax, a, axis, fn);
  if (st != CN_OK)
    return st;
  int64_t n = src->shape[ax];
  int64_t *ks = cn_malloc(sizeof(int64_t) * (size_t)nkth);
  if (!ks)
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  for (int32_t i = 0; i < nkth && st == CN_OK; i++) {
    int64_t k = kth[i];
    if (k < -n || k >= n)
      st = cn_error(CN_ERR_INDEX,
                    "%s: kth(=%" PRId64 ") out of bounds (%" PRId64 ")", fn, k,
                    n);
    ks[i] = k < 0 ? k + n : k;
  }
  if (st == CN_OK) {
    /* sort the kth list (small) */
    for (int32_t i = 1; i < nkth; i++)
      for (int32_t j = i; j > 0 && ks[j] < ks[j - 1]; j--) {
        int64_t t = ks[j];
        ks[j] = ks[j - 1];
        ks[j - 1] = t;
      }
    st = cn_to_host(&h, src);
  }
  if (st == CN_OK)
    st = cn_as_contig(&hc, h, h->dtype);
  if (st == CN_OK)
    st = cn_array_new(&r, cn_cpu_backend(), 0, arg ? CN_INT64 : src->dtype,
                      src->ndim, src->shape, CN_ORDER_C);
  kv *buf = NULL;
  if (st == CN_OK && src->size > 0) {
    buf = cn_malloc(sizeof(kv) * (size_t)n);
    if (!buf)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  if (st == CN_OK && src->size > 0) {
    int64_t q = 1, is = cn_itemsize(src->dtype);
    for (int32_t d = ax + 1; d < src->ndim; d++)
      q *= src->shape[d];
    int64_t nlanes = src->size / n;
    for (int64_t lane = 0; lane < nlanes; lane++) {
      int64_t o = lane / q, j = lane % q, base = o * n * q + j;
      for (int64_t i = 0; i < n; i++) {
        buf[i].k = cn_key_of(hc->data + (base + i * q) * is, src->dtype, true);
        buf[i].i = i;
      }
      int64_t lo = 0;
      for (int32_t t = 0; t < nkth; t++) {
        if (ks[t] >= lo)
          introselect(buf, lo, n, ks[t]);
        lo = ks[t] + 1;
      }
      for (int64_t i = 0; i < n; i++) {
        if (arg)
          ((int64_t *)r->data)[base + i * q] = buf[i].i;
        else
          memcpy(r->data + (base + i * q) * is,
                 hc->data + (base + buf[i].i * q) * is, (size_t)is);
      }
    }
  }
  if (st == CN_OK)
    st = cn_idx_to_device_of(&dev, r, src);
  free(buf);
  free(ks);
  cn_array_release(src);
  cn_array_release(h);
  cn_array_release(hc);
  cn_array_release(r);
  if (st != CN_OK)
    return st;
  *out = dev;
  return CN_OK;
}

cn_status cn_partition(cn_array *out, cn_array a, int32_t nkth,
                       const int64_t *kth, int32_t axis) {
  return partition_impl(out, a, nkth, kth, axis, false, "cn_partition");
}

cn_status cn_argpartition(cn_array *out, cn_array a, int32_t nkth,
                          const int64_t *kth, int32_t axis) {
  return partition_impl(out, a, nkth, kth, axis, true, "cn_argpartition");
}

/* ---- lexsort ---------------------------------------------------------------
 */

cn_status cn_lexsort(cn_array *out, int32_t n, const cn_array *keys,
                     int32_t axis) {
  const char *fn = "cn_lexsort";
  CN_CHECK_OUT(out, fn);
  if (n < 1 || keys == NULL)
    return cn_error(CN_ERR_VALUE, "%s: need at least one key (n = %d)", fn,
                    (int)n);
  for (int32_t i = 0; i < n; i++) {
    CN_CHECK_ARRAY(keys[i], fn, "keys");
    bool same = keys[i]->ndim == keys[0]->ndim;
    for (int32_t d = 0; same && d < keys[0]->ndim; d++)
      same = keys[i]->shape[d] == keys[0]->shape[d];
    if (!same)
      return cn_error(CN_ERR_SHAPE,
                      "%s: all keys need to be the same shape (key %d differs "
                      "from key 0)",
                      fn, (int)i);
  }
  const cn_array_s **kk = (const cn_array_s **)keys;
  cn_status st = cn_same_device(n, kk, fn);
  if (st != CN_OK)
    return st;
  if (keys[0]->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: keys must be at least 1-d", fn);
  int32_t ax;
  if (axis == CN_AXIS_NONE)
    axis = -1;
  if ((st = cn_normalize_axis(&ax, axis, keys[0]->ndim, fn)) != CN_OK)
    return st;
  /* Least significant key first; each stable pass keeps earlier ties. */
  cn_array_s *perm = NULL;
  st = cn_argsort(&perm, keys[0], ax);
  for (int32_t i = 1; i < n && st == CN_OK; i++) {
    cn_array_s *ki = NULL, *p2 = NULL, *np = NULL;
    st = cn_take_along_axis(&ki, keys[i], perm, ax);
    if (st == CN_OK)
      st = cn_argsort(&p2, ki, ax);
    if (st == CN_OK)
      st = cn_take_along_axis(&np, perm, p2, ax);
    cn_array_release(ki);
    cn_array_release(p2);
    cn_array_release(perm);
    perm = np;
  }
  if (st != CN_OK) {
    cn_array_release(perm);
    return cn_error_prefix(st, fn);
  }
  *out = perm;
  return CN_OK;
}

/* ---- unique ----------------------------------------------------------------
 */

/* Equality of two sorted neighbours for grouping. */
static bool same_value(const char *x, const char *y, cn_dtype dt,
                       bool equal_nan) {
  if (cn_is_complex(dt)) {
    double a[2], b[2];
    if (dt == CN_COMPLEX64) {
      float fa[2], fb[2];
      memcpy(fa, x, 8);
      memcpy(fb, y, 8);
      a[0] = fa[0];
      a[1] = fa[1];
      b[0] = fb[0];
      b[1] = fb[1];
    } else {
      memcpy(a, x, 16);
      memcpy(b, y, 16);
    }
    bool an = a[0] != a[0] || a[1] != a[1], bn = b[0] != b[0] || b[1] != b[1];
    if (an || bn)
      return equal_nan && an && bn;
    return a[0] == b[0] && a[1] == b[1];
  }
  uint64_t kx = cn_key_of(x, dt, true), ky = cn_key_of(y, dt, true);
  if (kx != ky)
    return false;
  if ((cn_is_float(dt)) &&
      kx == (dt == CN_FLOAT32 ? 0xffffffffu : ~(uint64_t)0))
    return equal_nan;
  return true;
}

cn_status cn_unique(cn_array *values, cn_array *index, cn_array *inverse,
                    cn_array *counts, cn_array a, int32_t equal_nan) {
  const char *fn = "cn_unique";
  CN_CHECK_ARRAY(a, fn, "a");
  cn_array_s *flat = NULL, *perm = NULL, *sorted = NULL, *hs = NULL, *hp = NULL;
  cn_array_s *rv = NULL, *ri = NULL, *rinv = NULL, *rc = NULL;
  cn_status st = cn_ravel(&flat, a, CN_ORDER_C);
  /* values and positions from one call of the sort slot */
  if (st == CN_OK)
    st = sort_impl(&sorted, &perm, flat, 0, "cn_argsort");
  if (st == CN_OK)
    st = cn_to_host(&hs, sorted);
  if (st == CN_OK)
    st = cn_to_host(&hp, perm);
  int64_t n = flat ? flat->size : 0, ng = 0;
  int64_t *starts = NULL;
  if (st == CN_OK) {
    starts = cn_malloc(sizeof(int64_t) * (size_t)(n + 1));
    if (!starts)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  if (st == CN_OK) {
    int64_t is = cn_itemsize(a->dtype);
    for (int64_t i = 0; i < n; i++)
      if (i == 0 || !same_value(hs->data + (i - 1) * is, hs->data + i * is,
                                a->dtype, equal_nan != 0))
        starts[ng++] = i;
    starts[ng] = n;
    const int64_t *pp = (const int64_t *)hp->data;
    if (values) {
      st = cn_array_new(&rv, cn_cpu_backend(), 0, a->dtype, 1, &ng, CN_ORDER_C);
      for (int64_t g = 0; st == CN_OK && g < ng; g++)
        memcpy(rv->data + g * is, hs->data + starts[g] * is, (size_t)is);
    }
    if (st == CN_OK && index) {
      st = cn_array_new(&ri, cn_cpu_backend(), 0, CN_INT64, 1, &ng, CN_ORDER_C);
      for (int64_t g = 0; st == CN_OK && g < ng; g++)
        ((int64_t *)ri->data)[g] = pp[starts[g]];
    }
    if (st == CN_OK && counts) {
      st = cn_array_new(&rc, cn_cpu_backend(), 0, CN_INT64, 1, &ng, CN_ORDER_C);
      for (int64_t g = 0; st == CN_OK && g < ng; g++)
        ((int64_t *)rc->data)[g] = starts[g + 1] - starts[g];
    }
    if (st == CN_OK && inverse) {
      st = cn_array_new(&rinv, cn_cpu_backend(), 0, CN_INT64, a->ndim, a->shape,
                        CN_ORDER_C);
      if (st == CN_OK) {
        int64_t *iv = (int64_t *)rinv->data;
        for (int64_t g = 0; g < ng; g++)
          for (int64_t i = starts[g]; i < starts[g + 1]; i++)
            iv[pp[i]] = g;
      }
    }
  }
  free(starts);
  cn_array_s *res[4] = {rv, ri, rinv, rc}, *dres[4] = {0};
  for (int k = 0; k < 4 && st == CN_OK; k++)
    if (res[k])
      st = cn_idx_to_device_of(&dres[k], res[k], a);
  for (int k = 0; k < 4; k++)
    cn_array_release(res[k]);
  cn_array_release(flat);
  cn_array_release(perm);
  cn_array_release(sorted);
  cn_array_release(hs);
  cn_array_release(hp);
  if (st != CN_OK) {
    for (int k = 0; k < 4; k++)
      cn_array_release(dres[k]);
    return cn_error_prefix(st, fn);
  }
  if (values)
    *values = dres[0];
  if (index)
    *index = dres[1];
  if (inverse)
    *inverse = dres[2];
  if (counts)
    *counts = dres[3];
  return CN_OK;
}

/* ---- searching
 * --------------------------------------------------------------- */

/* Host keys (canonical, cn_key_words(dt) words each) of a cast to dtype, C
 * order. */
static cn_status host_keys(uint64_t **keys, const cn_array_s *a, cn_dtype dt) {
  cn_array_s *h = NULL, *c = NULL;
  cn_status st = cn_to_host(&h, (cn_array)a);
  if (st == CN_OK)
    st = cn_as_contig(&c, h, dt);
  uint64_t *k = NULL;
  int nw = cn_key_words(dt);
  if (st == CN_OK) {
    k = cn_malloc(sizeof(uint64_t) * (size_t)nw *
               (size_t)(c->size > 0 ? c->size : 1));
    if (!k)
      st = cn_error(CN_ERR_MEMORY, "out of memory");
  }
  if (st == CN_OK) {
    int64_t is = cn_itemsize(dt);
    for (int64_t i = 0; i < c->size; i++)
      cn_search_key(k + nw * i, c->data + i * is, dt);
  }
  cn_array_release(h);
  cn_array_release(c);
  if (st != CN_OK) {
    free(k);
    return st;
  }
  *keys = k;
  return CN_OK;
}

static cn_status common_type(cn_dtype *dt, const cn_array_s *a,
                             const cn_array_s *b) {
  return cn_result_type(dt, a->dtype, b->dtype);
}

cn_status cn_searchsorted(cn_array *out, cn_array a, cn_array v, int32_t side,
                          cn_array sorter) {
  const char *fn = "cn_searchsorted";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(v, fn, "v");
  if (sorter)
    CN_CHECK_ARRAY(sorter, fn, "sorter");
  if (side != CN_SIDE_LEFT && side != CN_SIDE_RIGHT)
    return cn_error(CN_ERR_VALUE,
                    "%s: side must be LEFT (0) or RIGHT (1), "
                    "got %d",
                    fn, (int)side);
  if (a->ndim != 1)
    return cn_error(CN_ERR_SHAPE, "%s: argument 'a' must be 1-d, got %d-d", fn,
                    (int)a->ndim);
  const cn_array_s *pair[3] = {a, v, sorter ? sorter : a};
  cn_status st = cn_same_device(3, pair, fn);
  if (st != CN_OK)
    return st;
  CN_REQUIRE_SLOT(searchk, cn_backend_of(a), searchsorted, fn);
  cn_dtype dt;
  if ((st = common_type(&dt, a, v)) != CN_OK)
    return st;
  cn_array_s *src = NULL, *sidx = NULL, *r = NULL;
  if (sorter) {
    if (sorter->ndim != 1 || sorter->size != a->size)
      return cn_error(CN_ERR_SHAPE,
                      "%s: sorter must be 1-d with the length of a (%" PRId64
                      "), got %" PRId64 " elements",
                      fn, a->size, sorter->size);
    st = cn_idx_normalize(&sidx, sorter, a->size, CN_INDEX_RAISE, 0, fn);
    if (st != CN_OK)
      return st;
    cn_array_s *ds = NULL;
    st = cn_idx_to_device_of(&ds, sidx, a);
    if (st == CN_OK)
      st = cn_take(&src, a, ds, 0, CN_INDEX_RAISE, NULL);
    cn_array_release(ds);
    cn_array_release(sidx);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
  } else {
    cn_array_retain(a);
    src = a;
  }
  /* The slot takes both sides C-contiguous in the common type, on the
   * device of a (no host copy). */
  cn_array_s *ca = NULL, *cv = NULL;
  st = cn_as_contig(&ca, src, dt);
  if (st == CN_OK)
    st = cn_as_contig(&cv, v, dt);
  if (st == CN_OK)
    st = cn_new_on(&r, v, CN_INT64, v->ndim, v->shape);
  if (st == CN_OK && v->size > 0)
    st = searchk(r, ca, cv, side == CN_SIDE_RIGHT);
  cn_array_release(ca);
  cn_array_release(cv);
  cn_array_release(src);
  if (st != CN_OK) {
    cn_array_release(r);
    return cn_error_prefix(st, fn);
  }
  *out = r;
  return CN_OK;
}

/* Sorted keys of the flattened b in dtype dt (duplicates kept). */
static cn_status sorted_keys(uint64_t **keys, int64_t *n, const cn_array_s *b,
                             cn_dtype dt) {
  cn_array_s *flat = NULL, *s = NULL;
  cn_status st = cn_ravel(&flat, (cn_array)b, CN_ORDER_C);
  if (st == CN_OK)
    st = cn_sort(&s, flat, 0);
  if (st == CN_OK)
    st = host_keys(keys, s, dt);
  if (st == CN_OK)
    *n = s->size;
  cn_array_release(flat);
  cn_array_release(s);
  return st;
}

cn_status cn_isin(cn_array *out, cn_array element, cn_array test_elements,
                  int32_t invert) {
  const char *fn = "cn_isin";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(element, fn, "element");
  CN_CHECK_ARRAY(test_elements, fn, "test_elements");
  const cn_array_s *pair[2] = {element, test_elements};
  cn_status st = cn_same_device(2, pair, fn);
  if (st != CN_OK)
    return st;
  cn_dtype dt;
  if ((st = common_type(&dt, element, test_elements)) != CN_OK)
    return st;
  /* Sorting happens in the promoted dtype so equal values share keys. */
  cn_array_s *tc = NULL, *r = NULL, *dev = NULL;
  uint64_t *kt = NULL, *ke = NULL;
  int64_t nt = 0;
  st = cn_astype(&tc, test_elements, dt, 0);
  if (st == CN_OK)
    st = sorted_keys(&kt, &nt, tc, dt);
  if (st == CN_OK)
    st = host_keys(&ke, element, dt);
  if (st == CN_OK)
    st = cn_array_new(&r, cn_cpu_backend(), 0, CN_BOOL, element->ndim,
                      element->shape, CN_ORDER_C);
  if (st == CN_OK) {
    uint8_t *o = (uint8_t *)r->data;
    int64_t n = element->size;
    uint8_t hit = invert ? 0 : 1;
    uint64_t span = nt > 0 ? kt[nt - 1] - kt[0] : 0;
    /* Integers whose test values span a small range: a membership table
     * (NumPy's "table" kind), linear instead of n log nt. Integer keys
     * keep differences, so the table is indexed by key - min. */
    if (nt > 0 && !cn_is_float(dt) && !cn_is_complex(dt) &&
        span <= (uint64_t)(n + nt) * 4 + 4096 && span < ((uint64_t)1 << 30)) {
      uint8_t *tab = cn_calloc(span + 1, 1);
      if (!tab) {
        st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
      } else {
        uint64_t lo = kt[0];
        for (int64_t j = 0; j < nt; j++)
          tab[kt[j] - lo] = 1;
#pragma omp parallel for schedule(static) if (n >= ((int64_t)1 << 16))
        for (int64_t i = 0; i < n; i++) {
          uint64_t d = ke[i] - lo;
          o[i] = (uint8_t)((d <= span && tab[d]) ? hit : !hit);
        }
        free(tab);
      }
    } else {
      uint64_t nan_key = dt == CN_FLOAT32 ? 0xffffffffu : ~(uint64_t)0;
      int nw = cn_key_words(dt);
      bool flt = cn_is_float(dt);
#pragma omp parallel for schedule(static) if (n >= ((int64_t)1 << 14))
      for (int64_t i = 0; i < n; i++) {
        const uint64_t *x = ke + i * nw;
        int64_t p = cn_key_bound(kt, nt, x, nw, false);
        /* NaN is never equal to anything, itself included. */
        bool nan = nw == 3 ? x[0] != 0 : (flt && x[0] == nan_key);
        bool found = p < nt && cn_key_cmp(kt + p * nw, x, nw) == 0 && !nan;
        o[i] = (uint8_t)(found ? hit : !hit);
      }
    }
    if (st == CN_OK)
      st = cn_idx_to_device_of(&dev, r, element);
  }
  free(kt);
  free(ke);
  cn_array_release(tc);
  cn_array_release(r);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = dev;
  return CN_OK;
}

/* unique(a) filtered by membership in b (keep == isin), cast to dt. */
static cn_status unique_filtered(cn_array *out, cn_array a, cn_array b,
                                 bool keep, cn_dtype dt, const char *fn) {
  cn_array_s *ua = NULL, *m = NULL, *sel = NULL;
  cn_status st = cn_unique(&ua, NULL, NULL, NULL, a, 1);
  if (st == CN_OK)
    st = cn_isin(&m, ua, b, keep ? 0 : 1);
  if (st == CN_OK)
    st = cn_mask_get(&sel, ua, m);
  cn_array_release(ua);
  cn_array_release(m);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  st = cn_astype(out, sel, dt, 0);
  cn_array_release(sel);
  return st;
}

static cn_status set_args(cn_dtype *dt, cn_array a, cn_array b,
                          const char *fn) {
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  const cn_array_s *pair[2] = {a, b};
  cn_status st = cn_same_device(2, pair, fn);
  if (st != CN_OK)
    return st;
  return common_type(dt, a, b);
}

cn_status cn_intersect1d(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_intersect1d";
  CN_CHECK_OUT(out, fn);
  cn_dtype dt;
  cn_status st = set_args(&dt, a, b, fn);
  if (st != CN_OK)
    return st;
  return unique_filtered(out, a, b, true, dt, fn);
}

cn_status cn_setdiff1d(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_setdiff1d";
  CN_CHECK_OUT(out, fn);
  cn_dtype dt;
  cn_status st = set_args(&dt, a, b, fn);
  if (st != CN_OK)
    return st;
  return unique_filtered(out, a, b, false, a->dtype, fn);
}

cn_status cn_union1d(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_union1d";
  CN_CHECK_OUT(out, fn);
  cn_dtype dt;
  cn_status st = set_args(&dt, a, b, fn);
  if (st != CN_OK)
    return st;
  cn_array ab[2] = {a, b};
  cn_array_s *cat = NULL;
  st = cn_concatenate(&cat, 2, ab, CN_AXIS_NONE, CN_DTYPE_DEFAULT);
  if (st == CN_OK)
    st = cn_unique(out, NULL, NULL, NULL, cat, 1);
  cn_array_release(cat);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

/* ---- unique slices along an axis ------------------------------------------ */

/* Stable merge sort of row indices by their key rows (rw words each). */
static void sort_rows(int64_t *idx, int64_t *tmp, int64_t n,
                      const uint64_t *keys, int64_t rw) {
  if (n < 2)
    return;
  int64_t h = n / 2;
  sort_rows(idx, tmp, h, keys, rw);
  sort_rows(idx + h, tmp, n - h, keys, rw);
  int64_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    tmp[k++] = cn_key_cmp(keys + idx[j] * rw, keys + idx[i] * rw, (int)rw) < 0
                   ? idx[j++]
                   : idx[i++];
  while (i < h)
    tmp[k++] = idx[i++];
  while (j < n)
    tmp[k++] = idx[j++];
  memcpy(idx, tmp, sizeof(int64_t) * (size_t)n);
}

/* Whether a key row holds a NaN (such rows equal no other, as NumPy's
 * comparison of structured rows). */
static bool row_has_nan(const uint64_t *row, int64_t m, cn_dtype dt) {
  if (cn_is_complex(dt)) {
    for (int64_t j = 0; j < m; j++)
      if (row[3 * j])
        return true;
  } else if (cn_is_float(dt)) {
    uint64_t nan = dt == CN_FLOAT32 ? 0xffffffffu : ~(uint64_t)0;
    for (int64_t j = 0; j < m; j++)
      if (row[j] == nan)
        return true;
  }
  return false;
}

/* 1-d int64 host array of v[0..n) moved to like's device. */
static cn_status int64_result(cn_array_s **out, const int64_t *v, int64_t n,
                              const cn_array_s *like) {
  cn_array_s *h = NULL;
  cn_status st = cn_array_new(&h, cn_cpu_backend(), 0, CN_INT64, 1, &n,
                              CN_ORDER_C);
  if (st == CN_OK && n)
    memcpy(h->data, v, sizeof(int64_t) * (size_t)n);
  if (st == CN_OK)
    st = cn_idx_to_device_of(out, h, like);
  cn_array_release(h);
  return st;
}

cn_status cn_unique_axis(cn_array *values, cn_array *index, cn_array *inverse,
                         cn_array *counts, cn_array a, int32_t axis) {
  const char *fn = "cn_unique_axis";
  CN_CHECK_ARRAY(a, fn, "a");
  if (axis == CN_AXIS_NONE)
    return cn_unique(values, index, inverse, counts, a, 1);
  int32_t ax = 0, zero = 0;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *moved = NULL, *taken = NULL, *rv = NULL,
             *ri = NULL, *rinv = NULL, *rc = NULL;
  uint64_t *keys = NULL;
  int64_t n = a->shape[ax], m = 1, ng = 0;
  for (int32_t d = 0; d < a->ndim; d++)
    if (d != ax)
      m *= a->shape[d];
  int64_t rw = m * cn_key_words(a->dtype);
  /* When another extent is 0 every slice is empty, so the n slices are
   * all equal: one group, found without keys or a sort (n may be huge). */
  const bool one_group = m == 0 && n > 0;
  const int64_t cap = one_group ? 1 : n;
  int64_t *perm = cn_malloc(sizeof(int64_t) * (size_t)(3 * cap + 2));
  int64_t *tmp = perm + cap, *starts = perm + 2 * cap;
  st = perm ? cn_moveaxis(&moved, a, 1, &ax, &zero)
            : cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  if (st == CN_OK && !one_group)
    st = host_keys(&keys, moved, a->dtype);
  if (st == CN_OK && one_group) {
    ng = 1;
    starts[0] = 0;
    starts[1] = n;
    tmp[0] = 0;
  } else if (st == CN_OK) {
    for (int64_t i = 0; i < n; i++)
      perm[i] = i;
    sort_rows(perm, tmp, n, keys, rw);
    for (int64_t i = 0; i < n; i++)
      if (i == 0 || row_has_nan(keys + perm[i] * rw, m, a->dtype) ||
          cn_key_cmp(keys + perm[i - 1] * rw, keys + perm[i] * rw, (int)rw))
        starts[ng++] = i;
    starts[ng] = n;
    for (int64_t g = 0; g < ng; g++) /* first occurrences (stable sort) */
      tmp[g] = perm[starts[g]];
  }
  if (st == CN_OK && (values || index))
    st = int64_result(&ri, tmp, ng, a);
  if (st == CN_OK && values)
    st = cn_take(&taken, moved, ri, 0, CN_INDEX_RAISE, NULL);
  if (st == CN_OK && values)
    st = cn_moveaxis(&rv, taken, 1, &zero, &ax);
  if (st == CN_OK && counts) {
    for (int64_t g = 0; g < ng; g++)
      tmp[g] = starts[g + 1] - starts[g];
    st = int64_result(&rc, tmp, ng, a);
  }
  if (st == CN_OK && inverse && one_group) {
    cn_array_s *z = NULL;
    st = cn_zeros(&z, 1, &n, CN_INT64, CN_ORDER_C);
    if (st == CN_OK)
      st = cn_idx_to_device_of(&rinv, z, a);
    cn_array_release(z);
  } else if (st == CN_OK && inverse) {
    for (int64_t g = 0; g < ng; g++)
      for (int64_t i = starts[g]; i < starts[g + 1]; i++)
        tmp[perm[i]] = g;
    st = int64_result(&rinv, tmp, n, a);
  }
  free(perm);
  free(keys);
  cn_array_release(moved);
  cn_array_release(taken);
  if (st != CN_OK) {
    cn_array_release(rv);
    cn_array_release(ri);
    cn_array_release(rinv);
    cn_array_release(rc);
    return cn_error_prefix(st, fn);
  }
  if (values)
    *values = rv;
  if (index)
    *index = ri;
  else
    cn_array_release(ri);
  if (inverse)
    *inverse = rinv;
  if (counts)
    *counts = rc;
  return CN_OK;
}
