/* CPU sort kernel, stable in effect for every dtype: Highway's vectorised
 * quicksort (core/cpu/sort_vq.h) for real dtypes of 2 bytes or more, on
 * the values or on (key, index) records; an LSD radix sort on
 * order-preserving integer keys (core/sort_keys.h) for the 1-byte ones;
 * complex dtypes in NumPy's order by two radix sorts (imaginary, then real
 * key), NaN-part values merge-sorted. Parallel with OpenMP inside long
 * lanes and across lanes otherwise. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../quantile_rank.h"
#include "../sort_keys.h"
#include "cpu.h"
#include "sort_vq.h"

enum { RADIX_MAX_THREADS = 64, SMALL_SORT = 48 };

/* Stable insertion sort of keys (with indices when ix != NULL). */
static void insertion_sort(uint64_t *k, int64_t *ix, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    uint64_t kv = k[i];
    int64_t iv = ix ? ix[i] : 0, j = i - 1;
    while (j >= 0 && k[j] > kv) {
      k[j + 1] = k[j];
      if (ix)
        ix[j + 1] = ix[j];
      j--;
    }
    k[j + 1] = kv;
    if (ix)
      ix[j + 1] = iv;
  }
}

/* Sorts n keys by their low nbytes bytes, carrying ix when not NULL, with
 * nth threads. kt/ixt are scratch of the same size. Returns true when the
 * sorted data ended in the scratch buffers. */
static bool radix_sort(uint64_t *k, uint64_t *kt, int64_t *ix, int64_t *ixt,
                       int64_t n, int nbytes, int nth) {
  if (n <= SMALL_SORT) {
    insertion_sort(k, ix, n);
    return false;
  }
  if (nth > RADIX_MAX_THREADS)
    nth = RADIX_MAX_THREADS;
  if (nth < 1)
    nth = 1;
  /* Histograms of every byte in one read, to skip constant bytes. */
  static _Thread_local int64_t hist[8][256];
  memset(hist, 0, sizeof hist);
  int64_t(*th)[8][256] = nth > 1 ? cn_calloc((size_t)nth, sizeof *th) : NULL;
  if (nth > 1 && !th)
    nth = 1;
  if (nth > 1) {
#pragma omp parallel num_threads(nth)
    {
#ifdef _OPENMP
      int t = omp_get_thread_num();
#else
      int t = 0;
#endif
      int64_t lo = n * t / nth, hi = n * (t + 1) / nth;
      for (int64_t i = lo; i < hi; i++) {
        uint64_t v = k[i];
        for (int b = 0; b < nbytes; b++)
          th[t][b][(v >> (8 * b)) & 255]++;
      }
    }
    for (int t = 0; t < nth; t++)
      for (int b = 0; b < nbytes; b++)
        for (int d = 0; d < 256; d++)
          hist[b][d] += th[t][b][d];
  } else {
    for (int64_t i = 0; i < n; i++) {
      uint64_t v = k[i];
      for (int b = 0; b < nbytes; b++)
        hist[b][(v >> (8 * b)) & 255]++;
    }
  }
  bool swapped = false;
  for (int b = 0; b < nbytes; b++) {
    int shift = 8 * b;
    bool trivial = false;
    for (int d = 0; d < 256; d++)
      if (hist[b][d] == n)
        trivial = true;
    if (trivial)
      continue;
    if (nth == 1) {
      int64_t off[256], s = 0;
      for (int d = 0; d < 256; d++) {
        off[d] = s;
        s += hist[b][d];
      }
      if (ix) {
        for (int64_t i = 0; i < n; i++) {
          uint64_t v = k[i];
          int64_t p = off[(v >> shift) & 255]++;
          kt[p] = v;
          ixt[p] = ix[i];
        }
      } else {
        for (int64_t i = 0; i < n; i++) {
          uint64_t v = k[i];
          kt[off[(v >> shift) & 255]++] = v;
        }
      }
    } else {
      /* Per-thread counts of this byte in the current order; offsets are
       * assigned bucket-major, thread-minor, which keeps the sort stable. */
#pragma omp parallel num_threads(nth)
      {
#ifdef _OPENMP
        int t = omp_get_thread_num();
#else
        int t = 0;
#endif
        int64_t lo = n * t / nth, hi = n * (t + 1) / nth;
        int64_t *c = th[t][0];
        memset(c, 0, sizeof(int64_t) * 256);
        for (int64_t i = lo; i < hi; i++)
          c[(k[i] >> shift) & 255]++;
#pragma omp barrier
#pragma omp single
        {
          int64_t s = 0;
          for (int d = 0; d < 256; d++)
            for (int u = 0; u < nth; u++) {
              int64_t cnt = th[u][0][d];
              th[u][0][d] = s;
              s += cnt;
            }
        }
        int64_t off[256];
        memcpy(off, th[t][0], sizeof off);
        if (ix) {
          for (int64_t i = lo; i < hi; i++) {
            uint64_t v = k[i];
            int64_t p = off[(v >> shift) & 255]++;
            kt[p] = v;
            ixt[p] = ix[i];
          }
        } else {
          for (int64_t i = lo; i < hi; i++) {
            uint64_t v = k[i];
            kt[off[(v >> shift) & 255]++] = v;
          }
        }
      }
    }
    uint64_t *tk = k;
    k = kt;
    kt = tk;
    int64_t *ti = ix;
    ix = ixt;
    ixt = ti;
    swapped = !swapped;
  }
  free(th);
  return swapped;
}

/* Stable merge sort by NumPy's complex order, on (re, im, index) records
 * so that merges stream through memory (an index sort chases pointers into
 * the values on every comparison). Runs of CN_CPLX_RUN are insertion-sorted
 * first; passes ping-pong between two buffers, pairs of runs merging in
 * parallel. Returns the buffer holding the result. */
#define CN_CPLX_RUN 24
#define CN_CPLX_REC(NAME, T)                                                   \
  typedef struct NAME##_rec {                                                  \
    T re, im;                                                                  \
    int64_t ix;                                                                \
  } NAME##_rec;                                                                \
  static inline bool NAME##_ltn(const NAME##_rec *a, const NAME##_rec *b) {    \
    return cn_cplx_less(a->re, a->im, b->re, b->im);                           \
  }
#define CN_CPLX_SORT(NAME, REC, LT)                                            \
  static REC *NAME(REC *a, REC *t, int64_t n, int nth) {                       \
    int64_t nruns = (n + CN_CPLX_RUN - 1) / CN_CPLX_RUN;                       \
    _Pragma(                                                                   \
        "omp parallel for num_threads(nth) schedule(static)") for (int64_t r = \
                                                                       0;      \
                                                                   r < nruns;  \
                                                                   r++) {      \
      int64_t lo = r * CN_CPLX_RUN;                                            \
      int64_t hi = lo + CN_CPLX_RUN < n ? lo + CN_CPLX_RUN : n;                \
      for (int64_t i = lo + 1; i < hi; i++) {                                  \
        REC x = a[i];                                                          \
        int64_t j = i;                                                         \
        for (; j > lo && LT(&x, &a[j - 1]); j--)                               \
          a[j] = a[j - 1];                                                     \
        a[j] = x;                                                              \
      }                                                                        \
    }                                                                          \
    for (int64_t w = CN_CPLX_RUN; w < n; w *= 2) {                             \
      int64_t npairs = (n + 2 * w - 1) / (2 * w);                              \
      _Pragma("omp parallel for num_threads(nth) schedule(static)") for (      \
          int64_t q = 0; q < npairs; q++) {                                    \
        int64_t lo = q * 2 * w;                                                \
        int64_t mid = lo + w < n ? lo + w : n;                                 \
        int64_t hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo; \
        while (i < mid && j < hi) {                                            \
          bool c = LT(&a[j], &a[i]);                                           \
          t[o++] = a[c ? j : i];                                               \
          j += c;                                                              \
          i += !c;                                                             \
        }                                                                      \
        while (i < mid)                                                        \
          t[o++] = a[i++];                                                     \
        while (j < hi)                                                         \
          t[o++] = a[j++];                                                     \
      }                                                                        \
      REC *x = a;                                                              \
      a = t;                                                                   \
      t = x;                                                                   \
    }                                                                          \
    return a;                                                                  \
  }
CN_CPLX_REC(sort_c64, float)
CN_CPLX_REC(sort_c128, double)
CN_CPLX_SORT(sort_c64_nan, sort_c64_rec, sort_c64_ltn)
CN_CPLX_SORT(sort_c128_nan, sort_c128_rec, sort_c128_ltn)

/* ---- vectorised quicksort (Highway's vqsort, core/cpu/sort_vq.h) ---------
 * Every real dtype of 2 bytes or more. Values sort as integers (floats as
 * order-preserving integer keys, below), which orders them as the radix
 * sort on non-canonical keys and the CUDA sort do: -0.0 before 0.0, NaNs
 * last; equal integers are indistinguishable, so the values sort is stable
 * in effect. Indices sort as one record per
 * element, the canonical key (-0.0 == 0.0, NaN greatest) above the index:
 * (key32 << 32 | index) in a u64, or (key64, index) in 128 bits, so equal
 * keys keep their index order and the argsort is stable. With several
 * threads each sorts a contiguous chunk and the sorted runs merge in
 * rounds, every merge split among threads along its merge path. */
enum { VQ_PAR_MIN = 1 << 17 };

#define VQ_LT_PLAIN(x, y) ((x) < (y))
#define VQ_LT_REC128(x, y)                                                     \
  ((x).hi < (y).hi || ((x).hi == (y).hi && (x).lo < (y).lo))

/* NAME_merge_runs: sorted runs (start off[r] in src, length len[r]) merge
 * pairwise, round after round, ping-ponging between src and dst (n
 * elements each) until one run is left; returns the buffer holding it
 * (compact from element 0). Ties take the earlier run first (stable). */
#define VQ_MERGE(NAME, T, LT)                                                  \
  static int64_t NAME##_corank(const T *a, int64_t na, const T *b, int64_t nb, \
                               int64_t d) {                                    \
    int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;                    \
    while (lo < hi) {                                                          \
      int64_t i = lo + (hi - lo) / 2, j = d - i;                               \
      if (j == 0 || i == na || LT(b[j - 1], a[i]))                             \
        hi = i;                                                                \
      else                                                                     \
        lo = i + 1;                                                            \
    }                                                                          \
    return lo;                                                                 \
  }                                                                            \
  static void NAME##_merge_part(const T *a, int64_t na, const T *b,            \
                                int64_t nb, T *o, int64_t d0, int64_t d1) {    \
    int64_t i = NAME##_corank(a, na, b, nb, d0), j = d0 - i;                   \
    int64_t ie = NAME##_corank(a, na, b, nb, d1), je = d1 - ie;                \
    T *p = o + d0;                                                             \
    while (i < ie && j < je) {                                                 \
      bool c = LT(b[j], a[i]);                                                 \
      *p++ = c ? b[j] : a[i];                                                  \
      j += c;                                                                  \
      i += !c;                                                                 \
    }                                                                          \
    while (i < ie)                                                             \
      *p++ = a[i++];                                                           \
    while (j < je)                                                             \
      *p++ = b[j++];                                                           \
  }                                                                            \
  static T *NAME##_merge_runs(T *src, T *dst, int64_t *off, int64_t *len,      \
                              int nr, int nth) {                               \
    while (nr > 1) {                                                           \
      int np = (nr + 1) / 2, parts = nth / np > 1 ? nth / np : 1;              \
      int64_t outoff[RADIX_MAX_THREADS];                                       \
      int64_t s = 0;                                                           \
      for (int q = 0; q < np; q++) {                                           \
        outoff[q] = s;                                                         \
        s += len[2 * q] + (2 * q + 1 < nr ? len[2 * q + 1] : 0);               \
      }                                                                        \
      int ntask = np * parts;                                                  \
      _Pragma(                                                                 \
          "omp parallel for num_threads(nth) schedule(static)") for (int t =   \
                                                                         0;    \
                                                                     t <       \
                                                                     ntask;    \
                                                                     t++) {    \
        int q = t / parts, u = t % parts;                                      \
        const T *a = src + off[2 * q];                                         \
        int64_t na = len[2 * q];                                               \
        const T *b = 2 * q + 1 < nr ? src + off[2 * q + 1] : a;                \
        int64_t nb = 2 * q + 1 < nr ? len[2 * q + 1] : 0, m = na + nb;         \
        NAME##_merge_part(a, na, b, nb, dst + outoff[q], m * u / parts,        \
                          m * (u + 1) / parts);                                \
      }                                                                        \
      for (int q = 0; q < np; q++) {                                           \
        int64_t l = len[2 * q] + (2 * q + 1 < nr ? len[2 * q + 1] : 0);        \
        off[q] = outoff[q];                                                    \
        len[q] = l;                                                            \
      }                                                                        \
      nr = np;                                                                 \
      T *x = src;                                                              \
      src = dst;                                                               \
      dst = x;                                                                 \
    }                                                                          \
    return src;                                                                \
  }

/* Values of one lane: dv (byte stride ds) receives src (byte stride ss)
 * sorted; va is scratch of n elements. Elements are read as the unsigned
 * or signed integers T and sorted as KEY(x); UNKEY maps the sorted keys
 * back. Floats sort as their order-preserving integer keys
 * (core/sort_key_bits.h, non-canonical: -0.0 before 0.0, every NaN last as
 * the one NaN the radix and CUDA sorts write): Highway 1.0.3's float sort
 * pads its networks with the largest finite value, displacing +inf, and
 * misplaces subnormals on some pivot paths. */
#define VQ_VALUES_BY(NAME, T, SORT, KEY, UNKEY, HAS_UNKEY)                                               \
  VQ_MERGE(NAME, T, VQ_LT_PLAIN)                                               \
  static void NAME##_gather(T *o, const char *src, int64_t ss, int64_t lo,     \
                            int64_t hi) {                                      \
    if (ss == (int64_t)sizeof(T)) {                                            \
      const T *p = (const T *)src;                                             \
      for (int64_t i = lo; i < hi; i++)                                        \
        o[i - lo] = KEY(p[i]);                                                 \
    } else {                                                                   \
      for (int64_t i = lo; i < hi; i++) {                                      \
        T x;                                                                   \
        memcpy(&x, src + i * ss, sizeof(T));                                   \
        o[i - lo] = KEY(x);                                                    \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  static void NAME##_values(const char *src, int64_t ss, int64_t n, char *dv,  \
                            int64_t ds, T *va, int nth) {                      \
    bool contig = ds == (int64_t)sizeof(T);                                    \
    if (!contig)                                                               \
      nth = 1;                                                                 \
    T *res;                                                                    \
    if (nth == 1) {                                                            \
      res = contig ? (T *)dv : va;                                             \
      NAME##_gather(res, src, ss, 0, n);                                       \
      SORT(res, (size_t)n);                                                    \
    } else {                                                                   \
      int64_t off[RADIX_MAX_THREADS], len[RADIX_MAX_THREADS];                  \
      _Pragma(                                                                 \
          "omp parallel for num_threads(nth) schedule(static)") for (int t =   \
                                                                         0;    \
                                                                     t < nth;  \
                                                                     t++) {    \
        off[t] = n * t / nth;                                                  \
        len[t] = n * (t + 1) / nth - off[t];                                   \
        NAME##_gather(va + off[t], src, ss, off[t], off[t] + len[t]);          \
        SORT(va + off[t], (size_t)len[t]);                                     \
      }                                                                        \
      res = NAME##_merge_runs(va, (T *)dv, off, len, nth, nth);                \
      if (res != (T *)dv)                                                      \
        memcpy(dv, res, sizeof(T) * (size_t)n);                                \
      res = (T *)dv;                                                           \
    }                                                                          \
    if (HAS_UNKEY)                                                             \
      for (int64_t i = 0; i < n; i++)                                          \
        res[i] = UNKEY(res[i]);                                                \
    if (res != (T *)dv)                                                        \
      for (int64_t i = 0; i < n; i++)                                          \
        memcpy(dv + i * ds, res + i, sizeof(T));                               \
  }
#define VQ_SAME(x) (x)
#define VQ_VALUES(NAME, T, SORT) VQ_VALUES_BY(NAME, T, SORT, VQ_SAME, VQ_SAME, 0)
VQ_VALUES(vq_i16, int16_t, cn_vqsort_i16)
VQ_VALUES(vq_u16, uint16_t, cn_vqsort_u16)
VQ_VALUES(vq_i32, int32_t, cn_vqsort_i32)
VQ_VALUES(vq_u32, uint32_t, cn_vqsort_u32)
VQ_VALUES(vq_i64, int64_t, cn_vqsort_i64)
VQ_VALUES(vq_u64, uint64_t, cn_vqsort_u64)
#define VQ_KEY64(u) cn_key_bits64((u), false)
#define VQ_KEY32(u) ((uint32_t)cn_key_bits32((u), false))
#define VQ_UNKEY64(k) cn_unkey_bits64(k)
#define VQ_UNKEY32(k) cn_unkey_bits32(k)
#define VQ_KEY16(u) ((uint16_t)cn_key_bits16((u), false))
#define VQ_UNKEY16(k) ((uint16_t)cn_unkey_bits16(k))
VQ_VALUES_BY(vq_f16, uint16_t, cn_vqsort_u16, VQ_KEY16, VQ_UNKEY16, 1)
VQ_VALUES_BY(vq_f32, uint32_t, cn_vqsort_u32, VQ_KEY32, VQ_UNKEY32, 1)
VQ_VALUES_BY(vq_f64, uint64_t, cn_vqsort_u64, VQ_KEY64, VQ_UNKEY64, 1)
VQ_MERGE(vq_arg64, uint64_t, VQ_LT_PLAIN)
VQ_MERGE(vq_arg128, cn_vq_rec128, VQ_LT_REC128)

/* Canonical keys of src[lo, hi) into recs: MAKE(key, index). Loops by
 * dtype so that the common contiguous ones vectorise. */
#define VQ_ARG_FILL(NAME, R, MAKE)                                             \
  static void NAME##_fill(R *r, const char *src, int64_t ss, cn_dtype dt,      \
                          int64_t lo, int64_t hi) {                            \
    if (dt == CN_FLOAT64 && ss == 8) {                                         \
      const double *p = (const double *)src;                                   \
      for (int64_t i = lo; i < hi; i++)                                        \
        r[i] = MAKE(cn_key_f64(p[i], true), i);                                \
    } else if (dt == CN_INT64 && ss == 8) {                                    \
      const int64_t *p = (const int64_t *)src;                                 \
      for (int64_t i = lo; i < hi; i++)                                        \
        r[i] = MAKE((uint64_t)p[i] ^ ((uint64_t)1 << 63), i);                  \
    } else if (dt == CN_FLOAT32 && ss == 4) {                                  \
      const float *p = (const float *)src;                                     \
      for (int64_t i = lo; i < hi; i++)                                        \
        r[i] = MAKE(cn_key_f32(p[i], true), i);                                \
    } else if (dt == CN_INT32 && ss == 4) {                                    \
      const int32_t *p = (const int32_t *)src;                                 \
      for (int64_t i = lo; i < hi; i++)                                        \
        r[i] = MAKE((uint32_t)p[i] ^ 0x80000000u, i);                          \
    } else {                                                                   \
      for (int64_t i = lo; i < hi; i++)                                        \
        r[i] = MAKE(cn_key_of(src + i * ss, dt, true), i);                     \
    }                                                                          \
  }
#define VQ_MAKE64(k, i) (((uint64_t)(k) << 32) | (uint64_t)(i))
#define VQ_IDX64(r) ((int64_t)((r)&0xffffffffu))
static inline cn_vq_rec128 vq_make128(uint64_t k, int64_t i) {
  cn_vq_rec128 r = {(uint64_t)i, k};
  return r;
}
#define VQ_IDX128(r) ((int64_t)(r).lo)
VQ_ARG_FILL(vq_arg64, uint64_t, VQ_MAKE64)
VQ_ARG_FILL(vq_arg128, cn_vq_rec128, vq_make128)

/* Indices (and values when dv) of one lane by records R; va, vb are
 * scratch of n records (vb only with nth > 1). */
#define VQ_ARGSORT(NAME, R, SORT, IDX)                                         \
  static void NAME##_lane(const char *src, int64_t ss, int64_t n, cn_dtype dt, \
                          char *dv, int64_t ds, int64_t *dp, int64_t ps,       \
                          R *va, R *vb, int nth) {                             \
    R *res = va;                                                               \
    if (nth == 1) {                                                            \
      NAME##_fill(va, src, ss, dt, 0, n);                                      \
      SORT(va, (size_t)n);                                                     \
    } else {                                                                   \
      int64_t off[RADIX_MAX_THREADS], len[RADIX_MAX_THREADS];                  \
      _Pragma(                                                                 \
          "omp parallel for num_threads(nth) schedule(static)") for (int t =   \
                                                                         0;    \
                                                                     t < nth;  \
                                                                     t++) {    \
        off[t] = n * t / nth;                                                  \
        len[t] = n * (t + 1) / nth - off[t];                                   \
        NAME##_fill(va, src, ss, dt, off[t], off[t] + len[t]);                 \
        SORT(va + off[t], (size_t)len[t]);                                     \
      }                                                                        \
      res = NAME##_merge_runs(va, vb, off, len, nth, nth);                     \
    }                                                                          \
    size_t is = (size_t)cn_itemsize(dt);                                       \
    _Pragma(                                                                   \
        "omp parallel for num_threads(nth) if (nth > 1)") for (int64_t i = 0;  \
                                                               i < n; i++) {   \
      int64_t j = IDX(res[i]);                                                 \
      dp[i * ps] = j;                                                          \
      if (dv)                                                                  \
        memcpy(dv + i * ds, src + j * ss, is);                                 \
    }                                                                          \
  }
VQ_ARGSORT(vq_arg64, uint64_t, cn_vqsort_u64, VQ_IDX64)
VQ_ARGSORT(vq_arg128, cn_vq_rec128, cn_vqsort_rec128, VQ_IDX128)

static bool vq_dtype(cn_dtype dt) {
  return !cn_is_complex(dt) && cn_itemsize(dt) >= 2;
}

/* Bytes of one scratch element of the vqsort path. */
static size_t vq_rec_size(cn_dtype dt, int64_t n, bool idx) {
  if (!idx)
    return (size_t)cn_itemsize(dt);
  return cn_itemsize(dt) <= 4 && n <= (int64_t)UINT32_MAX ? 8 : 16;
}

/* One lane by vqsort (see above). va, vb: scratch of n vq_rec_size
 * elements, vb needed with dp and nth > 1 only. */
static void vq_lane(const char *src, int64_t ss, int64_t n, cn_dtype dt,
                    char *dv, int64_t ds, int64_t *dp, int64_t ps, void *va,
                    void *vb, int nth) {
  if (n < VQ_PAR_MIN)
    nth = 1;
  if (nth > RADIX_MAX_THREADS)
    nth = RADIX_MAX_THREADS;
  if (dp) {
    if (vq_rec_size(dt, n, true) == 8)
      vq_arg64_lane(src, ss, n, dt, dv, ds, dp, ps, va, vb, nth);
    else
      vq_arg128_lane(src, ss, n, dt, dv, ds, dp, ps, va, vb, nth);
    return;
  }
  switch (dt) {
  case CN_INT16:
    vq_i16_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_UINT16:
    vq_u16_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_INT32:
    vq_i32_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_UINT32:
    vq_u32_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_INT64:
    vq_i64_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_UINT64:
    vq_u64_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_FLOAT16:
    vq_f16_values(src, ss, n, dv, ds, va, nth);
    break;
  case CN_FLOAT32:
    vq_f32_values(src, ss, n, dv, ds, va, nth);
    break;
  default:
    vq_f64_values(src, ss, n, dv, ds, va, nth);
    break;
  }
}

/* Scratch for one lane: keys, indices, and their radix twins. */
typedef struct lane_buf {
  uint64_t *k, *kt;
  int64_t *ix, *ixt;
  void *ra, *rb; /* complex lanes: (re, im, index) records */
  void *va, *vb; /* vqsort lanes: values or (key, index) records */
} lane_buf;

static bool lane_alloc(lane_buf *b, int64_t n, cn_dtype dt, bool idx,
                       bool par) {
  memset(b, 0, sizeof *b);
  size_t sz = (size_t)(n > 0 ? n : 1);
  bool cplx = cn_is_complex(dt);
  int64_t itemsize = cn_itemsize(dt);
  if (vq_dtype(dt)) {
    /* Untouched pages cost nothing: a values sort into a contiguous output
     * never writes va. */
    size_t rs = vq_rec_size(dt, n, idx);
    b->va = cn_aligned_alloc(64, sz * rs);
    if (idx && par)
      b->vb = cn_aligned_alloc(64, sz * rs);
    return b->va && (!idx || !par || b->vb);
  }
  b->k = cn_malloc(sz * 8);
  b->kt = cn_malloc(sz * 8);
  if (!b->k || !b->kt)
    return false;
  if (idx || cplx) {
    b->ix = cn_malloc(sz * 8);
    b->ixt = cn_malloc(sz * 8);
    if (!b->ix || !b->ixt)
      return false;
  }
  if (cplx) {
    size_t rs = itemsize == 8 ? sizeof(sort_c64_rec) : sizeof(sort_c128_rec);
    b->ra = cn_malloc(sz * rs);
    b->rb = cn_malloc(sz * rs);
    if (!b->ra || !b->rb)
      return false;
  }
  return true;
}

static void lane_free(lane_buf *b) {
  free(b->k);
  free(b->kt);
  free(b->ix);
  free(b->ixt);
  free(b->ra);
  free(b->rb);
  free(b->va);
  free(b->vb);
}

/* One complex lane. Values with a NaN part (after all others in NumPy's
 * order) are split off and merge-sorted as records; the rest is sorted by
 * two stable LSD radix sorts, on the imaginary then the real key (0.0 and
 * -0.0 share a key, as they compare equal), carrying the element index. */
#define CN_CPLX_LANE(NAME, T, KEY, NB)                                         \
  static void NAME##_lane(lane_buf *b, const char *src, int64_t ss, int64_t n, \
                          char *dv, int64_t ds, int64_t *dp, int64_t ps,       \
                          int nth) {                                           \
    NAME##_rec *nr = b->ra;                                                    \
    int64_t m = 0, nn = 0;                                                     \
    for (int64_t i = 0; i < n; i++) {                                          \
      T v[2];                                                                  \
      memcpy(v, src + i * ss, 2 * sizeof(T));                                  \
      if (v[0] != v[0] || v[1] != v[1]) {                                      \
        nr[nn].re = v[0];                                                      \
        nr[nn].im = v[1];                                                      \
        nr[nn++].ix = i;                                                       \
      } else {                                                                 \
        b->k[m] = KEY(v[1], true);                                             \
        b->ix[m++] = i;                                                        \
      }                                                                        \
    }                                                                          \
    int th = m >= (1 << 16) ? nth : 1;                                         \
    uint64_t *k = b->k, *kt = b->kt;                                           \
    int64_t *ix = b->ix, *ixt = b->ixt;                                        \
    if (radix_sort(k, kt, ix, ixt, m, NB, th)) {                               \
      uint64_t *t1 = k;                                                        \
      k = kt, kt = t1;                                                         \
      int64_t *t2 = ix;                                                        \
      ix = ixt, ixt = t2;                                                      \
    }                                                                          \
    _Pragma(                                                                   \
        "omp parallel for num_threads(th) schedule(static)") for (int64_t i =  \
                                                                      0;       \
                                                                  i < m;       \
                                                                  i++) {       \
      T re;                                                                    \
      memcpy(&re, src + ix[i] * ss, sizeof(T));                                \
      k[i] = KEY(re, true);                                                    \
    }                                                                          \
    if (radix_sort(k, kt, ix, ixt, m, NB, th))                                 \
      ix = ixt;                                                                \
    NAME##_rec *r2 = NAME##_nan(nr, b->rb, nn, 1);                             \
    _Pragma(                                                                   \
        "omp parallel for num_threads(th) schedule(static)") for (int64_t i =  \
                                                                      0;       \
                                                                  i < m;       \
                                                                  i++) {       \
      if (dv)                                                                  \
        memcpy(dv + i * ds, src + ix[i] * ss, 2 * sizeof(T));                  \
      if (dp)                                                                  \
        dp[i * ps] = ix[i];                                                    \
    }                                                                          \
    for (int64_t i = 0; i < nn; i++) {                                         \
      if (dv)                                                                  \
        memcpy(dv + (m + i) * ds, &r2[i].re, 2 * sizeof(T));                   \
      if (dp)                                                                  \
        dp[(m + i) * ps] = r2[i].ix;                                           \
    }                                                                          \
  }
CN_CPLX_LANE(sort_c64, float, cn_key_f32, 4)
CN_CPLX_LANE(sort_c128, double, cn_key_f64, 8)

/* Sorts one lane: src with byte stride ss; writes sorted values to dv (byte
 * stride ds) and indices to dp (element stride ps) when not NULL. */
static void sort_lane(lane_buf *b, const char *src, int64_t ss, int64_t n,
                      cn_dtype dt, char *dv, int64_t ds, int64_t *dp,
                      int64_t ps, int nth) {
  int64_t is = cn_itemsize(dt);
  if (vq_dtype(dt)) {
    vq_lane(src, ss, n, dt, dv, ds, dp, ps, b->va, b->vb, nth);
    return;
  }
  if (cn_is_complex(dt)) {
    if (dt == CN_COMPLEX64)
      sort_c64_lane(b, src, ss, n, dv, ds, dp, ps, nth);
    else
      sort_c128_lane(b, src, ss, n, dv, ds, dp, ps, nth);
    return;
  }
  bool canon = dp != NULL;
  uint64_t *k = b->k;
  int nthk = n >= (1 << 20) ? nth : 1;
  if (dt == CN_FLOAT64 && ss == 8) {
    const double *p = (const double *)src;
#pragma omp parallel for num_threads(nthk) schedule(static)
    for (int64_t i = 0; i < n; i++)
      k[i] = cn_key_f64(p[i], canon);
  } else if (dt == CN_INT64 && ss == 8) {
    const int64_t *p = (const int64_t *)src;
#pragma omp parallel for num_threads(nthk) schedule(static)
    for (int64_t i = 0; i < n; i++)
      k[i] = (uint64_t)p[i] ^ ((uint64_t)1 << 63);
  } else {
#pragma omp parallel for num_threads(nthk) schedule(static)
    for (int64_t i = 0; i < n; i++)
      k[i] = cn_key_of(src + i * ss, dt, canon);
  }
  int64_t *ix = NULL;
  if (dp) {
    ix = b->ix;
#pragma omp parallel for num_threads(nthk) schedule(static)
    for (int64_t i = 0; i < n; i++)
      ix[i] = i;
  }
  bool sw = radix_sort(b->k, b->kt, ix, b->ixt, n, (int)is, nth);
  const uint64_t *rk = sw ? b->kt : b->k;
  const int64_t *rix = sw ? b->ixt : b->ix;
  if (dp) {
#pragma omp parallel for num_threads(nthk) schedule(static)
    for (int64_t i = 0; i < n; i++)
      dp[i * ps] = rix[i];
    if (dv) {
#pragma omp parallel for num_threads(nthk) schedule(static)
      for (int64_t i = 0; i < n; i++)
        memcpy(dv + i * ds, src + rix[i] * ss, (size_t)is);
    }
  } else if (dv) {
    if (dt == CN_FLOAT64 && ds == 8) {
      double *o = (double *)dv;
#pragma omp parallel for num_threads(nthk) schedule(static)
      for (int64_t i = 0; i < n; i++)
        o[i] = cn_unkey_f64(rk[i]);
    } else if (dt == CN_INT64 && ds == 8) {
      int64_t *o = (int64_t *)dv;
#pragma omp parallel for num_threads(nthk) schedule(static)
      for (int64_t i = 0; i < n; i++)
        o[i] = (int64_t)(rk[i] ^ ((uint64_t)1 << 63));
    } else {
      for (int64_t i = 0; i < n; i++)
        cn_unkey_to(dv + i * ds, rk[i], dt);
    }
  }
}

static cn_status cpu_sort(cn_array_s *vals, cn_array_s *perm,
                          const cn_array_s *a, int32_t axis) {
  if (a->size == 0)
    return CN_OK;
  int64_t n = a->shape[axis], is = cn_itemsize(a->dtype);
  int64_t nlanes = a->size / n, q = 1;
  for (int32_t d = axis + 1; d < a->ndim; d++)
    q *= a->shape[d];
  int64_t ss = a->strides[axis] * is;
  int nth = cn_cpu_threads_for(a->size);
  cn_status st = CN_OK;
  if (nlanes == 1) {
    /* One long lane: the threads work inside the radix passes. */
    lane_buf b;
    if (lane_alloc(&b, n, a->dtype, perm != NULL, nth > 1))
      sort_lane(&b, a->data, ss, n, a->dtype, vals ? vals->data : NULL, is,
                perm ? (int64_t *)perm->data : NULL, 1, nth);
    else
      st = cn_error(CN_ERR_MEMORY, "cn_sort: out of memory for %lld elements",
                    (long long)n);
    lane_free(&b);
    return st;
  }
#pragma omp parallel num_threads(nth)
  {
    lane_buf b;
    bool ok = lane_alloc(&b, n, a->dtype, perm != NULL, false);
    if (!ok) {
#pragma omp critical
      st = cn_error(CN_ERR_MEMORY, "cn_sort: out of memory for %lld elements",
                    (long long)n);
    }
#pragma omp for schedule(dynamic, 16)
    for (int64_t lane = 0; lane < nlanes; lane++) {
      if (!ok)
        continue;
      /* Lane = (outer o, inner j): element offsets in a and in the
       * C-contiguous outputs. */
      int64_t o = lane / q, j = lane % q, off = 0, rem = o;
      for (int32_t d = axis - 1; d >= 0; d--) {
        off += (rem % a->shape[d]) * a->strides[d];
        rem /= a->shape[d];
      }
      rem = j;
      for (int32_t d = a->ndim - 1; d > axis; d--) {
        off += (rem % a->shape[d]) * a->strides[d];
        rem /= a->shape[d];
      }
      int64_t obase = o * n * q + j;
      sort_lane(&b, a->data + off * is, ss, n, a->dtype,
                vals ? vals->data + obase * is : NULL, q * is,
                perm ? (int64_t *)perm->data + obase : NULL, q, 1);
    }
    lane_free(&b);
  }
  return st;
}

/* searchsorted: the keys of a once, then one binary search per needle
 * (core/sort_keys.h's search keys, shared with the set operations). */
static cn_status cpu_searchsorted(cn_array_s *out, const cn_array_s *a,
                                  const cn_array_s *v, bool right) {
  cn_dtype dt = a->dtype;
  int nw = cn_key_words(dt);
  int64_t is = cn_itemsize(dt), n = a->size;
  uint64_t *ka = cn_malloc(sizeof(uint64_t) * (size_t)nw *
                           (size_t)(n > 0 ? n : 1));
  if (!ka)
    return cn_error(CN_ERR_MEMORY, "cn_searchsorted: out of memory");
  for (int64_t i = 0; i < n; i++)
    cn_search_key(ka + nw * i, a->data + i * is, dt);
  int64_t *o = (int64_t *)out->data;
#pragma omp parallel for schedule(static) if (v->size >= ((int64_t)1 << 14))
  for (int64_t i = 0; i < v->size; i++) {
    uint64_t x[3];
    cn_search_key(x, v->data + i * is, dt);
    o[i] = cn_key_bound(ka, n, x, nw, right);
  }
  free(ka);
  return CN_OK;
}

/* quantile_sorted: the same per-output function as the CUDA kernel's
 * (core/quantile_rank.h). The CPU's own quantile entry points select on
 * host lanes instead, which needs no full sort. */
static cn_status cpu_quantile_sorted(cn_array_s *out, const cn_array_s *sorted,
                                     const cn_array_s *q, int32_t method,
                                     bool nan_skip) {
  if (sorted->dtype != CN_FLOAT32 && sorted->dtype != CN_FLOAT64)
    return cn_error(CN_ERR_TYPE,
                    "quantile_sorted: lanes must be float32 or float64, got %s",
                    cn_dtype_name(sorted->dtype));
  long long len = sorted->ndim ? sorted->shape[sorted->ndim - 1] : 1;
  long long nlanes = out->size / (q ? q->size : 1);
  const double *qv = q ? (const double *)q->data : NULL;
  double *o = (double *)out->data;
  for (int64_t i = 0; i < out->size; i++)
    o[i] = sorted->dtype == CN_FLOAT32
               ? cn_quantile_sorted_float((const float *)sorted->data, nlanes,
                                          len, qv, method, nan_skip, i)
               : cn_quantile_sorted_double((const double *)sorted->data,
                                           nlanes, len, qv, method, nan_skip,
                                           i);
  return CN_OK;
}

void cn_cpu_sort_fill(cn_backend_compute *t) {
  t->sort = cpu_sort;
  t->searchsorted = cpu_searchsorted;
  t->quantile_sorted = cpu_quantile_sorted;
}
