/* Median, percentiles and quantiles (include/cunumpy/stats.h): by
 * introselect on host float64 lanes, or, on a device backend that has the
 * quantile_sorted slot, from lanes sorted on the device. Both take the
 * ranks and weights of core/quantile_rank.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/sort.h"
#include "cunumpy/stats.h"
#include "quantile_rank.h"
#include "stats_util.h"

_Static_assert(CN_QR_LINEAR == CN_QUANTILE_LINEAR &&
                   CN_QR_LOWER == CN_QUANTILE_LOWER &&
                   CN_QR_HIGHER == CN_QUANTILE_HIGHER &&
                   CN_QR_NEAREST == CN_QUANTILE_NEAREST &&
                   CN_QR_MIDPOINT == CN_QUANTILE_MIDPOINT &&
                   CN_QR_INVERTED_CDF == CN_QUANTILE_INVERTED_CDF &&
                   CN_QR_AVERAGED_INVERTED_CDF ==
                       CN_QUANTILE_AVERAGED_INVERTED_CDF &&
                   CN_QR_CLOSEST_OBSERVATION ==
                       CN_QUANTILE_CLOSEST_OBSERVATION &&
                   CN_QR_INTERPOLATED_INVERTED_CDF ==
                       CN_QUANTILE_INTERPOLATED_INVERTED_CDF &&
                   CN_QR_HAZEN == CN_QUANTILE_HAZEN &&
                   CN_QR_WEIBULL == CN_QUANTILE_WEIBULL &&
                   CN_QR_MEDIAN_UNBIASED == CN_QUANTILE_MEDIAN_UNBIASED &&
                   CN_QR_NORMAL_UNBIASED == CN_QUANTILE_NORMAL_UNBIASED,
               "core/quantile_rank.h's method numbers are cn_quantile_method's");

static void dswap(double *a, double *b) {
  double t = *a;
  *a = *b;
  *b = t;
}

/* Places the k-th smallest of v[lo, hi) (no NaNs) at k, smaller before,
 * larger after: quickselect with median-of-3 and Hoare partitions, a full
 * sort after 2 log2(n) rounds. */
static int dcmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}
static void select_k(double *v, int64_t lo, int64_t hi, int64_t k) {
  int depth = 0;
  for (int64_t n = hi - lo; n > 1; n >>= 1)
    depth += 2;
  while (hi - lo > 16) {
    if (depth-- <= 0) {
      qsort(v + lo, (size_t)(hi - lo), sizeof(double), dcmp);
      return;
    }
    int64_t mid = lo + (hi - lo) / 2;
    if (v[mid] < v[lo])
      dswap(&v[mid], &v[lo]);
    if (v[hi - 1] < v[lo])
      dswap(&v[hi - 1], &v[lo]);
    if (v[hi - 1] < v[mid])
      dswap(&v[hi - 1], &v[mid]);
    double p = v[mid];
    /* Hoare partition of (lo, hi-1): v[lo] <= p <= v[hi-1] guard both
     * scans and keep both parts non-empty. */
    int64_t i = lo, j = hi - 1;
    for (;;) {
      do
        i++;
      while (v[i] < p);
      do
        j--;
      while (v[j] > p);
      if (i >= j)
        break;
      dswap(&v[i], &v[j]);
    }
    /* v[lo..j] <= p <= v[j+1..hi) */
    if (k <= j)
      hi = j + 1;
    else
      lo = j + 1;
  }
  for (int64_t i = lo + 1; i < hi; i++) {
    double t = v[i];
    int64_t j = i - 1;
    while (j >= lo && v[j] > t) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = t;
  }
}

/* k-th smallest after select_k(k) was applied: v[k]; the next one is the
 * minimum of the part above k. */
static double next_above(const double *v, int64_t k, int64_t n) {
  double m = v[k + 1];
  for (int64_t i = k + 2; i < n; i++)
    if (v[i] < m)
      m = v[i];
  return m;
}

/* Order statistics x(k) and x(k + 1) (clamped to the last rank) of the
 * NaN-free v[0, n), reordering v. */
static void pair_select(double *v, int64_t n, int64_t k, double *a, double *b) {
  select_k(v, 0, n, k);
  *a = v[k];
  *b = k + 1 < n ? next_above(v, k, n) : v[k];
}

enum { BAND_MIN = 1 << 16, BAND_SAMPLE = 1 << 14 };

/* Floyd-Rivest style selection of x(k) and x(k + 1) among the n non-NaN
 * values of x[0, len) without copying x: a sorted sample brackets rank k
 * with two pivots, one pass counts the values below the lower pivot and
 * gathers those between the pivots into band (room for len values; more
 * than cap of them counts as a miss), and the ranks
 * are selected inside the band. Returns false (nothing computed) when the
 * bracket missed or the band overflowed; the caller then selects on a full
 * copy. */
static bool band_pair(const double *x, int64_t len, int64_t n, int64_t k,
                      double *band, int64_t cap, double *a, double *b) {
  double sample[BAND_SAMPLE];
  int64_t m = 0, stride = len / BAND_SAMPLE;
  if (stride < 1)
    return false;
  for (int64_t i = 0; i < len && m < BAND_SAMPLE; i += stride)
    if (x[i] == x[i])
      sample[m++] = x[i];
  if (m < 64)
    return false;
  qsort(sample, (size_t)m, sizeof(double), dcmp);
  int64_t p = (int64_t)((double)k * (double)m / (double)n);
  int64_t d = 4 * (int64_t)sqrt((double)m) + 8;
  bool has_lo = p - d > 0, has_hi = p + d + 1 < m - 1;
  double lo_p = has_lo ? sample[p - d] : -INFINITY;
  double hi_p = has_hi ? sample[p + d + 1] : INFINITY;
  int64_t below = 0, nb = 0;
  /* Branch-free: half the values fall below the lower pivot, at random.
   * band has room for len values; only the count is capped. NaNs fail
   * both comparisons. */
  for (int64_t i = 0; i < len; i++) {
    double v = x[i];
    below += v < lo_p;
    band[nb] = v;
    nb += (v >= lo_p) & (v <= hi_p);
  }
  if (nb > cap)
    return false;
  int64_t k2 = k + 1 < n ? k + 1 : k;
  if (k < below || k2 >= below + nb)
    return false;
  select_k(band, 0, nb, k - below);
  *a = band[k - below];
  if (k2 == k)
    *b = *a;
  else
    *b = next_above(band, k - below, nb);
  return true;
}

/* Order statistics x(k), x(k + 1) of the lane: the band path for long
 * lanes, else (or when it misses) a NaN-free copy in buf. */
static void lane_pair(const double *x, int64_t len, int64_t n, int64_t k,
                      bool nan_skip, double *buf, double *a, double *b) {
  if (len >= BAND_MIN &&
      band_pair(x, len, n, k, buf, len / 8 > 4096 ? len / 8 : 4096, a, b))
    return;
  int64_t c = 0;
  for (int64_t i = 0; i < len; i++)
    if (!nan_skip || x[i] == x[i])
      buf[c++] = x[i];
  pair_select(buf, c, k, a, b);
}

/* Quantile q in [0, 1] (or, for CN_QR_MEDIAN, the median) of the lane's
 * n non-NaN values: the rank and weight of core/quantile_rank.h, shared
 * with the CUDA kernel over sorted lanes. */
static double quantile1(const double *x, int64_t len, int64_t n, double q,
                        int32_t method, bool nan_skip, double *buf) {
  cn_qrank r = cn_quantile_rank(method, n, q);
  double a, b;
  lane_pair(x, len, n, r.k, nan_skip, buf, &a, &b);
  return cn_quantile_value(r, a, b);
}

/* The device path: L's lanes (on a's device) sorted there by the sort
 * slot, then the quantiles of hq (host fractions; NULL with CN_QR_MEDIAN)
 * by the quantile_sorted slot into *r, float64 of shape on a's device. */
static cn_status quantile_sorted_run(cn_array_s **r, const cn_lanes *L,
                                     cn_array_s *hq, int32_t method,
                                     bool nan_skip, int32_t nd,
                                     const int64_t *shape,
                                     const cn_array_s *a) {
  const cn_backend *be = cn_backend_of(a);
  cn_array_s *lanes = NULL, *sorted = NULL, *dq = NULL, *res = NULL;
  int64_t ls[2] = {L->nlanes, L->len};
  cn_status st = cn_contig_view(&lanes, L->h, 2, ls);
  if (st == CN_OK)
    st = cn_sort(&sorted, lanes, 1);
  if (st == CN_OK && hq)
    st = cn_idx_to_device_of(&dq, hq, a);
  if (st == CN_OK)
    st = cn_new_on(&res, a, CN_FLOAT64, nd, shape);
  if (st == CN_OK && res->size > 0)
    st = be->compute->quantile_sorted(res, sorted, dq, method, nan_skip);
  cn_array_release(lanes);
  cn_array_release(sorted);
  cn_array_release(dq);
  if (st != CN_OK) {
    cn_array_release(res);
    return st;
  }
  *r = res;
  return CN_OK;
}

/* Shared driver: qs == NULL computes the median. */
static cn_status quantile_impl(cn_array *out, cn_array a, cn_array q,
                               double scale, int32_t naxes, const int32_t *axes,
                               int32_t method, int32_t keepdims, bool nan_skip,
                               const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_require_real(a, fn, "a");
  if (st != CN_OK)
    return st;
  if (method < CN_QUANTILE_LINEAR || method > CN_QUANTILE_NORMAL_UNBIASED)
    return cn_error(CN_ERR_VALUE, "%s: unknown method %d", fn, (int)method);
  cn_array_s *hq = NULL;
  int64_t nq = 1;
  if (q) {
    CN_CHECK_ARRAY(q, fn, "q");
    if ((st = cn_require_real(q, fn, "q")) != CN_OK)
      return st;
    /* A private copy: q itself may be what cn_host_f64 hands back. */
    cn_array_s *hq0 = NULL;
    if ((st = cn_host_f64(&hq0, q)) != CN_OK)
      return st;
    st = cn_array_new(&hq, cn_cpu_backend(), 0, CN_FLOAT64, hq0->ndim,
                      hq0->shape, CN_ORDER_C);
    if (st == CN_OK)
      memcpy(hq->data, hq0->data, sizeof(double) * (size_t)hq0->size);
    cn_array_release(hq0);
    if (st != CN_OK)
      return st;
    nq = hq->size;
    double *qv = (double *)hq->data;
    for (int64_t i = 0; i < nq; i++) {
      if (!(qv[i] >= 0 && qv[i] <= scale)) {
        double bad = qv[i];
        cn_array_release(hq);
        return cn_error(CN_ERR_VALUE,
                        "%s: %s must be in the range [0, %g], "
                        "got %g",
                        fn, scale == 1 ? "quantiles" : "percentiles", scale,
                        bad);
      }
      qv[i] /= scale;
    }
  }
  /* On a device backend with the slots, the lanes are sorted there (NaNs
   * last) and the quantiles read off the sorted lanes by the
   * quantile_sorted slot: the data never goes through host memory. */
  const cn_backend *be = cn_backend_of(a);
  bool on_dev = be->device_type != CN_DEVICE_CPU && be->compute->sort &&
                be->compute->quantile_sorted;
  cn_lanes L;
  st = on_dev ? cn_lanes_make_on(&L, a, naxes, axes, keepdims,
                                 a->dtype == CN_FLOAT32 ||
                                         a->dtype == CN_FLOAT16
                                     ? CN_FLOAT32
                                     : CN_FLOAT64,
                                 fn)
              : cn_lanes_make(&L, a, naxes, axes, keepdims, fn);
  if (st != CN_OK) {
    cn_array_release(hq);
    return st;
  }
  int32_t nd = 0;
  int64_t shape[CN_MAX_DIMS];
  if (q) {
    if (q->ndim + L.out_nd > CN_MAX_DIMS)
      st = cn_error(CN_ERR_VALUE, "%s: too many dims", fn);
    for (int32_t d = 0; d < q->ndim; d++)
      shape[nd++] = q->shape[d];
  }
  for (int32_t d = 0; d < L.out_nd && nd < CN_MAX_DIMS; d++)
    shape[nd++] = L.out_shape[d];
  cn_array_s *r = NULL;
  if (st == CN_OK && on_dev)
    st = quantile_sorted_run(&r, &L, hq, q ? method : CN_QR_MEDIAN, nan_skip,
                             nd, shape, a);
  else if (st == CN_OK)
    st = cn_array_new(&r, cn_cpu_backend(), 0, CN_FLOAT64, nd, shape,
                      CN_ORDER_C);
  double *buf = NULL;
  /* No lanes (an empty a): nothing to select, and the lane length may be
   * any size, so no scratch for it. */
  if (st == CN_OK && !on_dev && L.nlanes > 0) {
    buf = cn_malloc(sizeof(double) * (size_t)(L.len > 0 ? L.len : 1));
    if (!buf)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  if (st == CN_OK && !on_dev) {
    double *o = (double *)r->data;
    const double *src = (const double *)L.h->data;
    for (int64_t lane = 0; lane < L.nlanes; lane++) {
      const double *x = src + lane * L.len;
      int64_t n = 0;
      for (int64_t i = 0; i < L.len; i++)
        n += x[i] == x[i];
      bool has_nan = n < L.len;
      for (int64_t j = 0; j < nq; j++) {
        double v;
        if ((has_nan && !nan_skip) || n == 0)
          v = NAN;
        else
          v = quantile1(x, L.len, n, q ? ((const double *)hq->data)[j] : 0,
                        q ? method : CN_QR_MEDIAN, nan_skip, buf);
        o[j * L.nlanes + lane] = v;
      }
    }
  }
  free(buf);
  /* float32 and float16 keep their dtype (computed in float64, rounded
   * once), the rest give float64, as NumPy */
  cn_dtype rdt = a->dtype == CN_FLOAT32 || a->dtype == CN_FLOAT16
                     ? a->dtype
                     : CN_FLOAT64;
  if (q &&
      (method == CN_QUANTILE_LOWER || method == CN_QUANTILE_HIGHER ||
       method == CN_QUANTILE_NEAREST || method == CN_QUANTILE_INVERTED_CDF ||
       method == CN_QUANTILE_CLOSEST_OBSERVATION))
    rdt = a->dtype;
  cn_lanes_free(&L);
  cn_array_release(hq);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, a, rdt);
}

cn_status cn_median(cn_array *out, cn_array a, int32_t naxes,
                    const int32_t *axes, int32_t keepdims) {
  return quantile_impl(out, a, NULL, 1, naxes, axes, 0, keepdims, false,
                       "cn_median");
}
cn_status cn_nanmedian(cn_array *out, cn_array a, int32_t naxes,
                       const int32_t *axes, int32_t keepdims) {
  return quantile_impl(out, a, NULL, 1, naxes, axes, 0, keepdims, true,
                       "cn_nanmedian");
}
cn_status cn_percentile(cn_array *out, cn_array a, cn_array q, int32_t naxes,
                        const int32_t *axes, int32_t method, int32_t keepdims) {
  if (!q)
    return cn_error(CN_ERR_VALUE, "cn_percentile: argument 'q' is NULL");
  return quantile_impl(out, a, q, 100, naxes, axes, method, keepdims, false,
                       "cn_percentile");
}
cn_status cn_quantile(cn_array *out, cn_array a, cn_array q, int32_t naxes,
                      const int32_t *axes, int32_t method, int32_t keepdims) {
  if (!q)
    return cn_error(CN_ERR_VALUE, "cn_quantile: argument 'q' is NULL");
  return quantile_impl(out, a, q, 1, naxes, axes, method, keepdims, false,
                       "cn_quantile");
}
cn_status cn_nanpercentile(cn_array *out, cn_array a, cn_array q, int32_t naxes,
                           const int32_t *axes, int32_t method,
                           int32_t keepdims) {
  if (!q)
    return cn_error(CN_ERR_VALUE, "cn_nanpercentile: argument 'q' is NULL");
  return quantile_impl(out, a, q, 100, naxes, axes, method, keepdims, true,
                       "cn_nanpercentile");
}
cn_status cn_nanquantile(cn_array *out, cn_array a, cn_array q, int32_t naxes,
                         const int32_t *axes, int32_t method,
                         int32_t keepdims) {
  if (!q)
    return cn_error(CN_ERR_VALUE, "cn_nanquantile: argument 'q' is NULL");
  return quantile_impl(out, a, q, 1, naxes, axes, method, keepdims, true,
                       "cn_nanquantile");
}
