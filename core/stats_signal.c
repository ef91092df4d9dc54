/* Convolution, correlation and interpolation
 * (include/cunumpy/stats.h), on host float64 copies; results go back to
 * the input's device. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/ufunc.h"
#include "stats_util.h"

/* ---- convolution ----------------------------------------------------------
 */

/* full[k] = sum_i x[i] * w[k - i] over the requested window, w = v
 * (convolve) or v reversed and conjugated (correlate, as NumPy). */
#define CONV_WINDOW(T, CONJ)                                                   \
  do {                                                                         \
    const T *x = (const T *)ha->data, *y = (const T *)hv->data;                \
    T *o = (T *)r->data;                                                       \
    for (int64_t t = 0; t < len; t++) {                                        \
      int64_t kk = t + off;                                                    \
      int64_t i0 = kk - (m - 1) > 0 ? kk - (m - 1) : 0;                        \
      int64_t i1 = kk < n - 1 ? kk : n - 1;                                    \
      T s = 0;                                                                 \
      for (int64_t i = i0; i <= i1; i++) {                                     \
        int64_t j = kk - i;                                                    \
        s += x[i] * (corr ? CONJ(y[m - 1 - j]) : y[j]);                        \
      }                                                                        \
      o[t] = s;                                                                \
    }                                                                          \
  } while (0)
#define REAL_CONJ(v) (v)

static cn_status conv_impl(cn_array *out, cn_array a, cn_array v, int32_t mode,
                           bool corr, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(v, fn, "v");
  if (mode < CN_CONV_FULL || mode > CN_CONV_VALID)
    return cn_error(CN_ERR_VALUE,
                    "%s: mode must be FULL, SAME or VALID, got "
                    "%d",
                    fn, (int)mode);
  if (a->ndim > 1 || v->ndim > 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: object too deep for desired array "
                    "(inputs must be 1-d)",
                    fn);
  if (a->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: a cannot be empty", fn);
  if (v->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: v cannot be empty", fn);
  cn_dtype rt;
  cn_status st = cn_result_type(&rt, a->dtype, v->dtype);
  if (st != CN_OK)
    return st;
  bool cplx = cn_is_complex(rt);
  cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  cn_array_s *ha = NULL, *hv = NULL, *r = NULL;
  st = cn_host_as(&ha, a, wt);
  if (st == CN_OK)
    st = cn_host_as(&hv, v, wt);
  int64_t n = a->size, m = v->size, full = n + m - 1;
  int64_t len = mode == CN_CONV_FULL   ? full
                : mode == CN_CONV_SAME ? (n > m ? n : m)
                                       : (n > m ? n - m : m - n) + 1;
  int64_t off = mode == CN_CONV_FULL   ? 0
                : mode == CN_CONV_SAME ? ((n < m ? n : m) - 1) / 2
                                       : (n < m ? n : m) - 1;
  if (st == CN_OK)
    st = cn_host_new(&r, wt, 1, &len);
  if (st == CN_OK) {
    if (cplx)
      CONV_WINDOW(double complex, conj);
    else
      CONV_WINDOW(double, REAL_CONJ);
  }
  cn_array_release(ha);
  cn_array_release(hv);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, a, rt);
}

cn_status cn_convolve(cn_array *out, cn_array a, cn_array v, int32_t mode) {
  return conv_impl(out, a, v, mode, false, "cn_convolve");
}
cn_status cn_correlate(cn_array *out, cn_array a, cn_array v, int32_t mode) {
  return conv_impl(out, a, v, mode, true, "cn_correlate");
}

/* ---- interpolation and integration -----------------------------------------
 */

cn_status cn_interp(cn_array *out, cn_array x, cn_array xp, cn_array fp,
                    const double *left, const double *right) {
  const char *fn = "cn_interp";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(xp, fn, "xp");
  CN_CHECK_ARRAY(fp, fn, "fp");
  cn_status st = cn_require_real(x, fn, "x");
  if (st == CN_OK)
    st = cn_require_real(xp, fn, "xp");
  if (st == CN_OK)
    st = cn_require_real(fp, fn, "fp");
  if (st != CN_OK)
    return st;
  if (xp->ndim != 1 || fp->ndim != 1 || xp->size != fp->size)
    return cn_error(CN_ERR_VALUE,
                    "%s: fp and xp are not of the same length "
                    "(or not 1-d)",
                    fn);
  if (xp->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: array of sample points is empty", fn);
  cn_array_s *hx = NULL, *hxp = NULL, *hfp = NULL, *r = NULL;
  st = cn_host_f64(&hx, x);
  if (st == CN_OK)
    st = cn_host_f64(&hxp, xp);
  if (st == CN_OK)
    st = cn_host_f64(&hfp, fp);
  if (st == CN_OK)
    st = cn_host_new(&r, CN_FLOAT64, x->ndim, x->shape);
  if (st == CN_OK) {
    const double *dx = (const double *)hxp->data,
                 *dy = (const double *)hfp->data;
    const double *xv = (const double *)hx->data;
    int64_t n = xp->size;
    double lv = left ? *left : dy[0], rv = right ? *right : dy[n - 1];
    double *o = (double *)r->data;
    for (int64_t i = 0; i < hx->size; i++) {
      double v = xv[i];
      if (v != v) {
        o[i] = v;
        continue;
      }
      if (v < dx[0]) {
        o[i] = lv;
        continue;
      }
      if (v > dx[n - 1]) {
        o[i] = rv;
        continue;
      }
      int64_t lo = 0, hi = n; /* last j with dx[j] <= v */
      while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (dx[mid] <= v)
          lo = mid;
        else
          hi = mid;
      }
      int64_t j = lo;
      if (j == n - 1)
        o[i] = dy[j];
      else if (v == dx[j])
        o[i] = dy[j];
      else {
        double slope = (dy[j + 1] - dy[j]) / (dx[j + 1] - dx[j]);
        double res = slope * (v - dx[j]) + dy[j];
        if (res != res) {
          res = slope * (v - dx[j + 1]) + dy[j + 1];
          if (res != res && dy[j] == dy[j + 1])
            res = dy[j];
        }
        o[i] = res;
      }
    }
  }
  cn_array_release(hx);
  cn_array_release(hxp);
  cn_array_release(hfp);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, x, CN_DTYPE_DEFAULT);
}
