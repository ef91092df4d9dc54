/* The per-method rank and weight of NumPy's quantile methods and the
 * median, in the subset of C that is also CUDA C++: the one definition
 * that the CPU's selection (core/stats_quantile.c) and the CUDA plugin's
 * quantile kernel over sorted lanes (this file is a part of the device
 * prelude, see core/cuda/CMakeLists.txt) both use, so their results agree.
 * A quantile of n values is one of four combinations of the order
 * statistics x(k) and x(k + 1) (x(k) again when k is the last rank). In
 * the prelude CN_DEV is defined and qualifies the functions; in C they are
 * static inline. */
#ifndef CUNUMPY_QUANTILE_RANK_H
#define CUNUMPY_QUANTILE_RANK_H

#ifdef CN_DEV
#define CN_QR_FN CN_DEV
#define CN_QR_NAN CN_L2D(0x7ff8000000000000ll)
#else
#include <math.h>
#define CN_QR_FN static inline
#define CN_QR_NAN ((double)NAN)
#endif

/* Method numbers: cn_quantile_method's (include/cunumpy/stats.h, checked
 * by static assertions in core/stats_quantile.c), and the median. */
#define CN_QR_LINEAR 0
#define CN_QR_LOWER 1
#define CN_QR_HIGHER 2
#define CN_QR_NEAREST 3
#define CN_QR_MIDPOINT 4
#define CN_QR_INVERTED_CDF 5
#define CN_QR_AVERAGED_INVERTED_CDF 6
#define CN_QR_CLOSEST_OBSERVATION 7
#define CN_QR_INTERPOLATED_INVERTED_CDF 8
#define CN_QR_HAZEN 9
#define CN_QR_WEIBULL 10
#define CN_QR_MEDIAN_UNBIASED 11
#define CN_QR_NORMAL_UNBIASED 12
#define CN_QR_MEDIAN (-1)

/* How the value comes from a = x(k) and b = x(k + 1). */
#define CN_QR_TAKE_A 0
#define CN_QR_TAKE_B 1
#define CN_QR_LERP 2 /* lerp(a, b, t) */
#define CN_QR_MEAN 3 /* (a + b) / 2: the median of an even count */

typedef struct cn_qrank {
  long long k; /* rank of a, 0-based */
  double t;    /* weight of b for CN_QR_LERP */
  int how;
} cn_qrank;

/* NumPy's _lerp: exact at both ends. */
CN_QR_FN double cn_qr_lerp(double a, double b, double t) {
  double d = b - a;
  return t >= 0.5 ? b - d * (1.0 - t) : a + d * t;
}

/* Rank and weight of quantile q in [0, 1] of n >= 1 values under method
 * (CN_QR_MEDIAN: the median, q unused). The methods past MIDPOINT use the
 * virtual index n q + (alpha + q (1 - alpha - beta)) - 1, clamped to the
 * ranks; the discontinuous ones pick a rank. */
CN_QR_FN cn_qrank cn_quantile_rank(int method, long long n, double q) {
  cn_qrank r;
  r.k = 0;
  r.t = 0;
  r.how = CN_QR_TAKE_A;
  double nd = (double)n, h = 0, al = 0, be = 0;
  if (method == CN_QR_MEDIAN) {
    r.k = n % 2 ? n / 2 : n / 2 - 1;
    r.how = n % 2 ? CN_QR_TAKE_A : CN_QR_MEAN;
    return r;
  }
  if (method <= CN_QR_MIDPOINT) {
    h = q * (nd - 1);
    long long lo = (long long)floor(h);
    if (lo > n - 1)
      lo = n - 1;
    if (lo >= n - 1)
      h = (double)lo;
    double t = h - (double)lo;
    r.k = lo;
    if (method == CN_QR_LOWER)
      return r;
    if (method == CN_QR_HIGHER)
      r.how = t > 0 ? CN_QR_TAKE_B : CN_QR_TAKE_A;
    else if (method == CN_QR_NEAREST)
      r.how = (long long)nearbyint(h) > lo ? CN_QR_TAKE_B : CN_QR_TAKE_A;
    else if (t > 0) {
      r.how = CN_QR_LERP;
      r.t = method == CN_QR_MIDPOINT ? 0.5 : t;
    }
    return r;
  }
  switch (method) {
  case CN_QR_INVERTED_CDF:
  case CN_QR_CLOSEST_OBSERVATION: {
    h = method == CN_QR_INVERTED_CDF ? nd * q - 1 : nd * q - 1 - 0.5;
    double f = floor(h);
    /* closest_observation: the nearest even 1-based rank at g = 0, that
     * is an odd 0-based one (NumPy 2's rule). */
    int keep = h == f && (method == CN_QR_INVERTED_CDF ||
                          f - 2.0 * floor(f / 2.0) == 1.0);
    double rk = keep ? f : f + 1;
    r.k = rk < 0 ? 0 : (rk > nd - 1 ? n - 1 : (long long)rk);
    return r;
  }
  case CN_QR_AVERAGED_INVERTED_CDF:
    h = nd * q - 1;
    break;
  case CN_QR_INTERPOLATED_INVERTED_CDF:
    be = 1;
    break;
  case CN_QR_HAZEN:
    al = be = 0.5;
    break;
  case CN_QR_MEDIAN_UNBIASED:
    al = be = 1.0 / 3.0;
    break;
  case CN_QR_NORMAL_UNBIASED:
    al = be = 3.0 / 8.0;
    break;
  default: /* WEIBULL */
    break;
  }
  if (method != CN_QR_AVERAGED_INVERTED_CDF)
    h = nd * q + (al + q * (1 - al - be)) - 1;
  if (!(h >= 0))
    return r;
  if (h >= nd - 1) {
    r.k = n - 1;
    return r;
  }
  double f = floor(h), t = h - f;
  r.k = (long long)f;
  if (method == CN_QR_AVERAGED_INVERTED_CDF)
    t = t == 0 ? 0.5 : 1.0;
  if (t > 0) {
    r.how = CN_QR_LERP;
    r.t = t;
  }
  return r;
}

/* The value of rank r from a = x(r.k) and b = x(r.k + 1) (a when r.k is
 * the last rank). */
CN_QR_FN double cn_quantile_value(cn_qrank r, double a, double b) {
  switch (r.how) {
  case CN_QR_TAKE_B:
    return b;
  case CN_QR_LERP:
    return cn_qr_lerp(a, b, r.t);
  case CN_QR_MEAN:
    return (a + b) / 2.0;
  default:
    return a;
  }
}

/* cn_quantile_sorted_<T>(x, nlanes, len, q, method, nan_skip, i): output
 * i = j * nlanes + lane of the quantiles q[j] (unused for CN_QR_MEDIAN)
 * of nlanes lanes of len values of type T sorted with NaNs last (the sort
 * slot's order), as the quantile_sorted slot computes it on every backend
 * (the CPU's and the CUDA kernel's). The non-NaN count n is where the NaNs
 * begin; an empty lane, or one with a NaN unless nan_skip, gives NaN. */
#define CN_QR_SORTED_AT(T)                                                     \
  CN_QR_FN double cn_quantile_sorted_##T(const T *x, long long nlanes,         \
                                         long long len, const double *q,       \
                                         int method, int nan_skip,             \
                                         long long i) {                        \
    long long j = i / nlanes, lo = 0, hi = len;                                \
    const T *v = x + (i % nlanes) * len;                                       \
    while (lo < hi) {                                                          \
      long long mid = lo + (hi - lo) / 2;                                      \
      if (v[mid] != v[mid])                                                    \
        hi = mid;                                                              \
      else                                                                     \
        lo = mid + 1;                                                          \
    }                                                                          \
    if (lo == 0 || (!nan_skip && lo < len))                                    \
      return CN_QR_NAN;                                                        \
    cn_qrank r =                                                               \
        cn_quantile_rank(method, lo, method == CN_QR_MEDIAN ? 0.0 : q[j]);     \
    double a = (double)v[r.k];                                                 \
    double b = r.k + 1 < lo ? (double)v[r.k + 1] : a;                          \
    return cn_quantile_value(r, a, b);                                         \
  }
CN_QR_SORTED_AT(float)
CN_QR_SORTED_AT(double)
#undef CN_QR_SORTED_AT

#endif
