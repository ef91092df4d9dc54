/* Sorting and searching entry points (include/cunumpy/sort.h). Sorting
 * goes through the backend's sort slot and searchsorted through its
 * searchsorted slot; partition on a device backend is a full sort there,
 * on the CPU introselect on order-preserving keys (sort_keys.h). unique,
 * isin and the set operations are compositions of slots and engine
 * operations, so they run where the data lives on every backend. */
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

/* Selection over elements of type T with 64-bit key K(x), defined for
 * key+index pairs (argpartition, and partition of floats with NaNs, whose
 * bits a key does not keep) and for bare keys (every other partition:
 * half the memory traffic).
 *
 * N_split moves the elements of v[lo, hi) whose key is below p (or not above
 * it, with or_equal) to the front and the others to the back, through tmp (same
 * size as v): each element is stored to both candidate places and only the
 * counters decide, so no branch depends on the data (on random input such a
 * branch mispredicts every other element) and no load waits for the previous
 * store, as it would in an in-place split. Returns the end of the front part.
 *
 * N_introselect places the k-th smallest of v[lo, hi) at k with smaller keys
 * before and larger after: quickselect with median-of-3 and a split below the
 * pivot; when nothing is below it (the pivot is the range's minimum), a split
 * at the pivot instead, so that every round shrinks the range and a run of
 * equal keys ends the search. Falls back to a full sort of the range after
 * 2 log2(n) rounds. tmp: scratch as large as v. */
#define SELECT_DEF(N, T, K)                                                    \
  static int N##_cmp(const void *x, const void *y) {                           \
    const uint64_t a = K(*(const T *)x), b = K(*(const T *)y);                 \
    return a < b ? -1 : a > b;                                                 \
  }                                                                            \
                                                                               \
  static void N##_swap(T *a, T *b) {                                           \
    T t = *a;                                                                  \
    *a = *b;                                                                   \
    *b = t;                                                                    \
  }                                                                            \
                                                                               \
  static int64_t N##_split(T *v, T *tmp, int64_t lo, int64_t hi, uint64_t p,   \
                           bool or_equal) {                                    \
    int64_t nl = lo, nr = hi - 1;                                              \
    if (or_equal)                                                              \
      for (int64_t i = lo; i < hi; i++) {                                      \
        const T t = v[i];                                                      \
        const int64_t in = K(t) <= p;                                          \
        tmp[nl] = t;                                                           \
        tmp[nr] = t;                                                           \
        nl += in;                                                              \
        nr -= 1 - in;                                                          \
      }                                                                        \
    else                                                                       \
      for (int64_t i = lo; i < hi; i++) {                                      \
        const T t = v[i];                                                      \
        const int64_t in = K(t) < p;                                           \
        tmp[nl] = t;                                                           \
        tmp[nr] = t;                                                           \
        nl += in;                                                              \
        nr -= 1 - in;                                                          \
      }                                                                        \
    memcpy(v + lo, tmp + lo, sizeof(T) * (size_t)(hi - lo));                   \
    return nl;                                                                 \
  }                                                                            \
                                                                               \
  static void N##_introselect(T *v, T *tmp, int64_t lo, int64_t hi,            \
                              int64_t k) {                                     \
    int depth = 0;                                                             \
    for (int64_t n = hi - lo; n > 1; n >>= 1)                                  \
      depth += 2;                                                              \
    while (hi - lo > 16) {                                                     \
      if (depth-- <= 0) {                                                      \
        qsort(v + lo, (size_t)(hi - lo), sizeof(T), N##_cmp);                  \
        return;                                                                \
      }                                                                        \
      int64_t mid = lo + (hi - lo) / 2;                                        \
      if (K(v[mid]) < K(v[lo]))                                                \
        N##_swap(&v[mid], &v[lo]);                                             \
      if (K(v[hi - 1]) < K(v[lo]))                                             \
        N##_swap(&v[hi - 1], &v[lo]);                                          \
      if (K(v[hi - 1]) < K(v[mid]))                                            \
        N##_swap(&v[hi - 1], &v[mid]);                                         \
      const uint64_t p = K(v[mid]);                                            \
      const int64_t lt = N##_split(v, tmp, lo, hi, p, false);                  \
      if (lt > lo) {                                                           \
        if (k < lt)                                                            \
          hi = lt;                                                             \
        else                                                                   \
          lo = lt;                                                             \
        continue;                                                              \
      }                                                                        \
      const int64_t le = N##_split(v, tmp, lo, hi, p, true);                   \
      if (k < le)                                                              \
        return;                                                                \
      lo = le;                                                                 \
    }                                                                          \
    for (int64_t i = lo + 1; i < hi; i++) {                                    \
      T t = v[i];                                                              \
      int64_t j = i - 1;                                                       \
      while (j >= lo && K(v[j]) > K(t)) {                                      \
        v[j + 1] = v[j];                                                       \
        j--;                                                                   \
      }                                                                        \
      v[j + 1] = t;                                                            \
    }                                                                          \
  }

#define SELECT_KEY_KV(x) ((x).k)
#define SELECT_KEY_U64(x) (x)
SELECT_DEF(kv, kv, SELECT_KEY_KV)
SELECT_DEF(key, uint64_t, SELECT_KEY_U64)
#undef SELECT_DEF

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
  uint64_t *kbuf = NULL;
  if (st == CN_OK && src->size > 0) {
    buf = cn_malloc(2 * sizeof(kv) * (size_t)n);
    if (!buf)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  if (st == CN_OK && src->size > 0) {
    int64_t q = 1, is = cn_itemsize(src->dtype);
    for (int32_t d = ax + 1; d < src->ndim; d++)
      q *= src->shape[d];
    int64_t nlanes = src->size / n;
    const bool flt = cn_is_float(src->dtype);
    kbuf = (uint64_t *)(void *)buf;
    for (int64_t lane = 0; lane < nlanes; lane++) {
      int64_t o = lane / q, j = lane % q, base = o * n * q + j;
      if (!arg) {
        /* Bare keys when they give the values back bit for bit: always but
         * for NaNs (all one key). -0.0 keeps its own key, below +0.0's,
         * which NumPy's order allows (the two compare equal). */
        /* a NaN's key: all ones over the float's width, above +inf's */
        const uint64_t nan_key =
            is == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * is)) - 1;
        bool nan = false;
        for (int64_t i = 0; i < n; i++) {
          const uint64_t k =
              cn_key_of(hc->data + (base + i * q) * is, src->dtype, false);
          kbuf[i] = k;
          nan |= flt && k == nan_key;
        }
        if (!nan) {
          int64_t lo = 0;
          for (int32_t t = 0; t < nkth; t++) {
            if (ks[t] >= lo)
              key_introselect(kbuf, kbuf + n, lo, n, ks[t]);
            lo = ks[t] + 1;
          }
          for (int64_t i = 0; i < n; i++)
            cn_unkey_to(r->data + (base + i * q) * is, kbuf[i], src->dtype);
          continue;
        }
      }
      for (int64_t i = 0; i < n; i++) {
        buf[i].k = cn_key_of(hc->data + (base + i * q) * is, src->dtype, true);
        buf[i].i = i;
      }
      int64_t lo = 0;
      for (int32_t t = 0; t < nkth; t++) {
        if (ks[t] >= lo)
          kv_introselect(buf, buf + n, lo, n, ks[t]);
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
  free(buf); /* kbuf shares it */
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
 * Every step is a slot or an engine operation on the input's device: the
 * sort slot (with the permutation only when positions are wanted), the
 * inequality of sorted neighbours as a group-start mask, flatnonzero of the
 * mask for the group starts, take for values and first indices, a
 * difference of the starts for the counts, and cumsum then put for the
 * inverse. Nothing crosses to the host. */

/* A 0-d array of dtype dt holding v on like's device. */
static cn_status scalar_on(cn_array_s **out, cn_scalar v, cn_dtype dt,
                           const cn_array_s *like) {
  cn_array_s *s = NULL;
  cn_status st = cn_from_scalar(&s, v, dt);
  if (st != CN_OK)
    return st;
  st = cn_idx_to_device_of(out, s, like);
  cn_array_release(s);
  return st;
}

static cn_status int64_on(cn_array_s **out, int64_t v, const cn_array_s *like) {
  return scalar_on(out, (cn_scalar){.kind = CN_SCALAR_INT, .i = v}, CN_INT64,
                   like);
}

/* a[lo:hi] along axis 0. */
static cn_status rows_of(cn_array_s **out, const cn_array_s *a, int64_t lo,
                         int64_t hi) {
  return cn_slice_axis(out, (cn_array)a, 0, lo, hi, 1);
}

static void release_all(cn_array_s **v, int n) {
  for (int i = 0; i < n; i++) {
    cn_array_release(v[i]);
    v[i] = NULL;
  }
}

/* Bool mask over the first axis of the sorted s: whether item i starts a
 * group (item 0 does). A 1-d s compares neighbours; with equal_nan the
 * NaNs (sorted last, complex ones with a NaN part too) are one group, as
 * NumPy 2's unique. A 2-d s compares rows, which differ when any element
 * does, so a row holding a NaN equals no other. */
static cn_status group_mask(cn_array_s **out, const cn_array_s *s,
                            bool equal_nan) {
  int64_t n = s->shape[0];
  cn_array_s *t[7] = {0}; /* first, rest, hi, lo, work, work, work */
  cn_array_s *m = NULL;
  cn_status st = cn_new_on(&m, s, CN_BOOL, 1, &n);
  if (st == CN_OK && n > 0)
    st = rows_of(&t[0], m, 0, 1);
  if (st == CN_OK && n > 0)
    st = cn_fill(t[0], (cn_scalar){.kind = CN_SCALAR_BOOL, .i = 1});
  if (st == CN_OK && n > 1) {
    st = rows_of(&t[1], m, 1, n);
    if (st == CN_OK)
      st = rows_of(&t[2], s, 1, n);
    if (st == CN_OK)
      st = rows_of(&t[3], s, 0, n - 1);
    if (st == CN_OK && s->ndim == 1) {
      st = cn_not_equal(&t[4], t[2], t[3], t[1]);
      if (st == CN_OK && equal_nan &&
          (cn_is_float(s->dtype) || cn_is_complex(s->dtype))) {
        /* NaNs sort last: a NaN follows a NaN exactly when the earlier one
         * is NaN, and then starts no group (mask & !isnan(lo)). */
        st = cn_isnan(&t[5], t[3], NULL);
        if (st == CN_OK)
          st = cn_greater(&t[6], t[1], t[5], t[1]);
      }
    } else if (st == CN_OK) {
      int32_t ax1 = 1;
      st = cn_not_equal(&t[5], t[2], t[3], NULL);
      if (st == CN_OK)
        st = cn_any(&t[4], t[5], 1, &ax1, 0, CN_DTYPE_DEFAULT, t[1]);
    }
  }
  release_all(t, 7);
  if (st != CN_OK) {
    cn_array_release(m);
    return st;
  }
  *out = m;
  return CN_OK;
}

/* From the group-start mask of n sorted items and the sorting permutation
 * (NULL when neither index nor inverse is wanted): the group starts, and
 * each requested output (NULL pointers are skipped): the first index of
 * each group, the inverse (1-d, n) and the counts. */
static cn_status group_outputs(cn_array_s **starts, cn_array_s **index,
                               cn_array_s **inverse, cn_array_s **counts,
                               const cn_array_s *mask, const cn_array_s *perm) {
  int64_t n = mask->size;
  cn_array_s *r[3] = {0}, *t[6] = {0};
  cn_status st = cn_flatnonzero(starts, (cn_array)mask);
  int64_t ng = st == CN_OK ? (*starts)->size : 0;
  if (st == CN_OK && index)
    st = cn_take(&r[0], (cn_array)perm, *starts, 0, CN_INDEX_RAISE, NULL);
  if (st == CN_OK && counts) {
    /* counts[g] = starts[g + 1] - starts[g], with starts[ng] = n */
    st = cn_new_on(&r[2], mask, CN_INT64, 1, &ng);
    if (st == CN_OK && ng > 0) {
      st = rows_of(&t[0], r[2], 0, ng - 1);
      if (st == CN_OK)
        st = rows_of(&t[1], *starts, 1, ng);
      if (st == CN_OK)
        st = rows_of(&t[2], *starts, 0, ng - 1);
      if (st == CN_OK)
        st = cn_subtract(&t[3], t[1], t[2], t[0]);
      release_all(t, 4);
      if (st == CN_OK)
        st = rows_of(&t[0], r[2], ng - 1, ng);
      if (st == CN_OK)
        st = rows_of(&t[1], *starts, ng - 1, ng);
      if (st == CN_OK)
        st = int64_on(&t[2], n, mask);
      if (st == CN_OK)
        st = cn_subtract(&t[3], t[2], t[1], t[0]);
      release_all(t, 4);
    }
  }
  if (st == CN_OK && inverse) {
    /* The group of sorted item i is cumsum(mask)[i] - 1; put scatters it
     * to the item's original position. */
    st = cn_cumsum(&t[0], (cn_array)mask, 0, CN_INT64, NULL);
    if (st == CN_OK)
      st = int64_on(&t[1], 1, mask);
    if (st == CN_OK)
      st = cn_subtract(&t[2], t[0], t[1], t[0]);
    if (st == CN_OK)
      st = cn_new_on(&r[1], mask, CN_INT64, 1, &n);
    if (st == CN_OK)
      st = cn_put(r[1], (cn_array)perm, t[0], CN_INDEX_RAISE);
    release_all(t, 3);
  }
  if (st != CN_OK) {
    release_all(r, 3);
    if (*starts) {
      cn_array_release(*starts);
      *starts = NULL;
    }
    return st;
  }
  if (index)
    *index = r[0];
  if (inverse)
    *inverse = r[1];
  if (counts)
    *counts = r[2];
  return CN_OK;
}

cn_status cn_unique(cn_array *values, cn_array *index, cn_array *inverse,
                    cn_array *counts, cn_array a, int32_t equal_nan) {
  const char *fn = "cn_unique";
  CN_CHECK_ARRAY(a, fn, "a");
  cn_array_s *flat = NULL, *perm = NULL, *sorted = NULL, *mask = NULL,
             *starts = NULL;
  cn_array_s *rv = NULL, *ri = NULL, *rinv = NULL, *rinv1 = NULL, *rc = NULL;
  const bool positions = index != NULL || inverse != NULL;
  cn_status st = cn_ravel(&flat, a, CN_ORDER_C);
  /* values (and positions when wanted) from one call of the sort slot */
  if (st == CN_OK)
    st = sort_impl(&sorted, positions ? &perm : NULL, flat, 0,
                   positions ? "cn_argsort" : "cn_sort");
  if (st == CN_OK)
    st = group_mask(&mask, sorted, equal_nan != 0);
  if (st == CN_OK)
    st = group_outputs(&starts, index ? &ri : NULL, inverse ? &rinv1 : NULL,
                       counts ? &rc : NULL, mask, perm);
  if (st == CN_OK && values)
    st = cn_take(&rv, sorted, starts, 0, CN_INDEX_RAISE, NULL);
  if (st == CN_OK && inverse)
    st = cn_reshape(&rinv, rinv1, a->ndim, a->shape, CN_ORDER_C);
  cn_array_release(flat);
  cn_array_release(perm);
  cn_array_release(sorted);
  cn_array_release(mask);
  cn_array_release(starts);
  cn_array_release(rinv1);
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
  if (inverse)
    *inverse = rinv;
  if (counts)
    *counts = rc;
  return CN_OK;
}

/* ---- searching
 * --------------------------------------------------------------- */

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

/* Membership by a table (NumPy's kind="table"): the integer test values
 * span [lo, lo + span]; tab[v - lo] marks each, and element e is in test
 * when lo <= e <= hi and tab[clip(e) - lo]. ec is element in dt, flat the
 * flattened test values in dt; r receives the bool result. */
static cn_status isin_table(cn_array_s **r, const cn_array_s *ec,
                            const cn_array_s *flat, const cn_array_s *mn,
                            const cn_array_s *mx, int64_t lo, int64_t span,
                            bool invert) {
  cn_array_s *t[9] = {0};
  int64_t len = span + 1;
  cn_status st = cn_new_on(&t[0], flat, CN_BOOL, 1, &len);
  if (st == CN_OK)
    st = cn_fill(t[0], (cn_scalar){.kind = CN_SCALAR_BOOL, .i = 0});
  if (st == CN_OK)
    st = cn_astype(&t[1], (cn_array)flat, CN_INT64, 1);
  if (st == CN_OK)
    st = int64_on(&t[2], lo, flat);
  if (st == CN_OK)
    st = cn_subtract(&t[3], t[1], t[2], t[1]);
  if (st == CN_OK)
    st = scalar_on(&t[4], (cn_scalar){.kind = CN_SCALAR_BOOL, .i = 1},
                   CN_BOOL, flat);
  if (st == CN_OK)
    st = cn_put(t[0], t[1], t[4], CN_INDEX_RAISE);
  cn_array_release(t[3]);
  cn_array_release(t[4]);
  t[3] = t[4] = NULL;
  /* c = clip(e, lo, hi) is e exactly when e is in range */
  if (st == CN_OK)
    st = cn_clip(&t[3], (cn_array)ec, (cn_array)mn, (cn_array)mx, NULL);
  if (st == CN_OK)
    st = cn_equal(&t[7], t[3], (cn_array)ec, NULL);
  /* c is ours: an int64 c is shifted in place, after the comparison */
  if (st == CN_OK)
    st = cn_astype(&t[4], t[3], CN_INT64, 0);
  if (st == CN_OK)
    st = cn_subtract(&t[5], t[4], t[2], t[4]);
  if (st == CN_OK)
    st = cn_take(&t[6], t[0], t[4], 0, CN_INDEX_RAISE, NULL);
  if (st == CN_OK)
    st = cn_logical_and(&t[8], t[6], t[7], t[6]);
  if (st == CN_OK && invert) {
    cn_array_release(t[8]);
    t[8] = NULL;
    st = cn_logical_not(&t[8], t[6], t[6]);
  }
  if (st == CN_OK) {
    cn_array_retain(t[6]);
    *r = t[6];
  }
  release_all(t, 9);
  return st;
}

/* Membership by sorting (NumPy's kind="sort"): s = sort(test); element e
 * is in test when s[min(searchsorted(s, e), nt - 1)] == e, which never
 * holds for a NaN. */
static cn_status isin_sort(cn_array_s **r, const cn_array_s *ec,
                           const cn_array_s *flat, bool invert) {
  cn_array_s *t[6] = {0};
  cn_status st = cn_sort(&t[0], (cn_array)flat, 0);
  if (st == CN_OK)
    st = cn_searchsorted(&t[1], t[0], (cn_array)ec, CN_SIDE_LEFT, NULL);
  if (st == CN_OK)
    st = int64_on(&t[2], flat->size - 1, flat);
  if (st == CN_OK)
    st = cn_minimum(&t[3], t[1], t[2], t[1]);
  if (st == CN_OK)
    st = cn_take(&t[4], t[0], t[1], 0, CN_INDEX_RAISE, NULL);
  if (st == CN_OK)
    st = invert ? cn_not_equal(&t[5], t[4], (cn_array)ec, NULL)
                : cn_equal(&t[5], t[4], (cn_array)ec, NULL);
  if (st == CN_OK) {
    cn_array_retain(t[5]);
    *r = t[5];
  }
  release_all(t, 6);
  return st;
}

/* Whether the table method applies to integer test values in dt with
 * extremes mn/mx (0-d), and their low end and span: the span must fit an
 * int64 offset and stay small next to the inputs (NumPy's rule of thumb,
 * with a floor so small inputs with a moderate range still qualify). */
static cn_status table_span(bool *use, int64_t *lo, int64_t *span,
                            const cn_array_s *mn, const cn_array_s *mx,
                            int64_t n, int64_t nt) {
  cn_scalar smn, smx;
  cn_status st = cn_item(&smn, (cn_array)mn);
  if (st == CN_OK)
    st = cn_item(&smx, (cn_array)mx);
  if (st != CN_OK)
    return st;
  *use = false;
  uint64_t umn = (uint64_t)smn.i, umx = (uint64_t)smx.i;
  bool uns = smx.kind == CN_SCALAR_UINT || smx.kind == CN_SCALAR_BOOL;
  if (uns && umx > (uint64_t)INT64_MAX)
    return CN_OK;
  uint64_t d = umx - umn; /* two's complement: exact for mn <= mx */
  uint64_t limit = (uint64_t)(n + nt) * 4 + 4096;
  if (d <= limit && d < ((uint64_t)1 << 30)) {
    *use = true;
    *lo = smn.i;
    *span = (int64_t)d;
  }
  return CN_OK;
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
  cn_array_s *r = NULL, *ec = NULL, *tc = NULL, *flat = NULL, *mn = NULL,
             *mx = NULL;
  if (element->size == 0 || test_elements->size == 0) {
    st = cn_new_on(&r, element, CN_BOOL, element->ndim, element->shape);
    if (st == CN_OK)
      st = cn_fill(r, (cn_scalar){.kind = CN_SCALAR_BOOL, .i = invert != 0});
  } else {
    /* Both sides in the promoted dtype, so equal values compare equal. */
    st = cn_as_contig(&ec, element, dt);
    if (st == CN_OK)
      st = cn_astype(&tc, test_elements, dt, 0);
    if (st == CN_OK)
      st = cn_ravel(&flat, tc, CN_ORDER_C);
    bool table = false;
    int64_t lo = 0, span = 0;
    if (st == CN_OK && cn_is_integer(dt) && dt != CN_BOOL) {
      st = cn_min(&mn, flat, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
      if (st == CN_OK)
        st = cn_max(&mx, flat, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
      if (st == CN_OK)
        st = table_span(&table, &lo, &span, mn, mx, element->size,
                        flat->size);
    }
    if (st == CN_OK)
      st = table ? isin_table(&r, ec, flat, mn, mx, lo, span, invert != 0)
                 : isin_sort(&r, ec, flat, invert != 0);
  }
  cn_array_release(ec);
  cn_array_release(tc);
  cn_array_release(flat);
  cn_array_release(mn);
  cn_array_release(mx);
  if (st != CN_OK) {
    cn_array_release(r);
    return cn_error_prefix(st, fn);
  }
  *out = r;
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

/* ---- unique slices along an axis ------------------------------------------
 * The slices become the rows of an (n, m) array; lexsort over its columns
 * (column 0 most significant) orders them as NumPy's structured rows, and
 * the rows then group as in cn_unique. */

/* The one-group answer when every slice is empty (m == 0 < n): all n are
 * equal, found without a sort (n may be huge). */
static cn_status one_group(cn_array_s **ri, cn_array_s **rinv, cn_array_s **rc,
                           const cn_array_s *like, int64_t n) {
  int64_t one = 1;
  cn_array_s *s = NULL;
  cn_status st = CN_OK;
  int64_t v[2] = {0, n};
  for (int k = 0; k < 2 && st == CN_OK; k++) {
    cn_array_s **dst = k == 0 ? ri : rc;
    if (!dst)
      continue;
    st = int64_on(&s, v[k], like);
    if (st == CN_OK)
      st = cn_reshape(dst, s, 1, &one, CN_ORDER_C);
    cn_array_release(s);
    s = NULL;
  }
  if (st == CN_OK && rinv) {
    st = cn_new_on(rinv, like, CN_INT64, 1, &n);
    if (st == CN_OK)
      st = cn_fill(*rinv, (cn_scalar){.kind = CN_SCALAR_INT, .i = 0});
  }
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
  int64_t n = a->shape[ax], m = 1;
  for (int32_t d = 0; d < a->ndim; d++)
    if (d != ax)
      m *= a->shape[d];
  cn_array_s *moved = NULL, *r2 = NULL, *perm = NULL, *sr = NULL, *mask = NULL,
             *starts = NULL, *first = NULL, *taken = NULL;
  cn_array_s *rv = NULL, *rinv = NULL, *rc = NULL;
  cn_array_s **keys = NULL;
  int64_t shape2[2] = {n, m};
  st = cn_moveaxis(&moved, a, 1, &ax, &zero);
  if (st == CN_OK && m == 0 && n > 0) {
    st = one_group(&first, inverse ? &rinv : NULL, counts ? &rc : NULL, a, n);
  } else if (st == CN_OK) {
    st = cn_reshape(&r2, moved, 2, shape2, CN_ORDER_C);
    if (st == CN_OK && n > 0) {
      /* lexsort's last key is the most significant: column 0 goes last */
      keys = cn_calloc((size_t)m, sizeof(cn_array_s *));
      if (!keys)
        st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
      for (int64_t k = 0; k < m && st == CN_OK; k++)
        st = cn_index_axis(&keys[k], r2, 1, m - 1 - k);
      if (st == CN_OK && m > INT32_MAX)
        st = cn_error(CN_ERR_VALUE, "%s: %" PRId64 " elements per slice", fn,
                      m);
      if (st == CN_OK)
        st = cn_lexsort(&perm, (int32_t)m, (const cn_array *)keys, 0);
    } else if (st == CN_OK) {
      st = cn_new_on(&perm, a, CN_INT64, 1, &n);
    }
    if (st == CN_OK)
      st = cn_take(&sr, r2, perm, 0, CN_INDEX_RAISE, NULL);
    if (st == CN_OK)
      st = group_mask(&mask, sr, false);
    if (st == CN_OK)
      st = group_outputs(&starts, &first, inverse ? &rinv : NULL,
                         counts ? &rc : NULL, mask, perm);
  }
  if (st == CN_OK && values)
    st = cn_take(&taken, moved, first, 0, CN_INDEX_RAISE, NULL);
  if (st == CN_OK && values)
    st = cn_moveaxis(&rv, taken, 1, &zero, &ax);
  if (keys)
    for (int64_t k = 0; k < m; k++)
      cn_array_release(keys[k]);
  free(keys);
  cn_array_release(moved);
  cn_array_release(r2);
  cn_array_release(perm);
  cn_array_release(sr);
  cn_array_release(mask);
  cn_array_release(starts);
  cn_array_release(taken);
  if (st != CN_OK) {
    cn_array_release(first);
    cn_array_release(rv);
    cn_array_release(rinv);
    cn_array_release(rc);
    return cn_error_prefix(st, fn);
  }
  if (values)
    *values = rv;
  if (index)
    *index = first;
  else
    cn_array_release(first);
  if (inverse)
    *inverse = rinv;
  if (counts)
    *counts = rc;
  return CN_OK;
}
