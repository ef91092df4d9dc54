/* Weighted averages, covariance and correlation (include/cunumpy/stats.h),
 * on host float64 copies; results go back to the input's device. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include "complex_compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/ufunc.h"
#include "stats_util.h"

/* ---- average ------------------------------------------------------------- */
/* average runs on the backend's reductions and ufuncs (NumPy's formula),
 * not on host copies. */

cn_status cn_average(cn_array *out, cn_array a, cn_array weights,
                     int32_t axis) {
  const char *fn = "cn_average";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_require_real(a, fn, "a");
  if (st != CN_OK)
    return st;
  int32_t ax = 0, naxes = CN_ALL_AXES;
  if (axis != CN_AXIS_NONE) {
    if ((st = cn_normalize_axis(&ax, axis, a->ndim, fn)) != CN_OK)
      return st;
    naxes = 1;
  }
  if (!weights)
    return cn_mean(out, a, naxes, &ax, 0, CN_DTYPE_DEFAULT, NULL);
  CN_CHECK_ARRAY(weights, fn, "weights");
  if ((st = cn_require_real(weights, fn, "weights")) != CN_OK)
    return st;
  bool same = weights->ndim == a->ndim;
  for (int32_t d = 0; same && d < a->ndim; d++)
    same = weights->shape[d] == a->shape[d];
  if (!same && !(axis != CN_AXIS_NONE && weights->ndim == 1 &&
                 weights->size == a->shape[ax]))
    return cn_error(CN_ERR_SHAPE,
                    "%s: weights must have a's shape or be 1-d "
                    "with the axis' length",
                    fn);
  st = cn_average_axes(out, NULL, a, weights, naxes, &ax, 0);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

/* ---- weighted average over several axes ------------------------------------ */

/* NumPy's average dtype: float64 at least for integer/bool a. */
static cn_status average_dtype(cn_dtype *out, cn_dtype a, cn_dtype w) {
  cn_status st = cn_result_type(out, a, w);
  if (st == CN_OK && !cn_is_float(a) && !cn_is_complex(a))
    st = cn_result_type(out, *out, CN_FLOAT64);
  if (st == CN_OK && !cn_is_float(*out) && !cn_is_complex(*out))
    *out = CN_FLOAT64;
  return st;
}

/* weights seen with a's shape: itself, or its dimension i along axes[i]
 * with stride 0 elsewhere (NumPy's weights of the averaged axes' shape). */
static cn_status weights_view(cn_array_s **out, const cn_array_s *a,
                              cn_array_s *w, int32_t naxes, const int32_t *ax,
                              const char *fn) {
  bool same = w->ndim == a->ndim;
  for (int32_t d = 0; same && d < a->ndim; d++)
    same = w->shape[d] == a->shape[d];
  if (same) {
    cn_array_retain(w);
    *out = w;
    return CN_OK;
  }
  if (naxes == CN_ALL_AXES)
    return cn_error(CN_ERR_TYPE,
                    "%s: axis must be specified when shapes of a and weights "
                    "differ",
                    fn);
  bool fits = w->ndim == naxes;
  for (int32_t i = 0; fits && i < naxes; i++)
    fits = w->shape[i] == a->shape[ax[i]];
  if (!fits)
    return cn_error(CN_ERR_SHAPE,
                    "%s: shape of weights must be consistent with shape of a "
                    "along specified axis",
                    fn);
  int64_t sh[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  for (int32_t d = 0; d < a->ndim; d++) {
    sh[d] = a->shape[d];
    strides[d] = 0;
  }
  for (int32_t i = 0; i < naxes; i++)
    strides[ax[i]] = w->strides[i];
  return cn_array_view(out, w, w->data, a->ndim, sh, strides);
}

cn_status cn_average_axes(cn_array *out, cn_array *sum_of_weights, cn_array a,
                          cn_array weights, int32_t naxes, const int32_t *axes,
                          int32_t keepdims) {
  const char *fn = "cn_average_axes";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (weights)
    CN_CHECK_ARRAY(weights, fn, "weights");
  int32_t ax[CN_MAX_DIMS];
  uint64_t mask;
  cn_status st = cn_axes_mask(&mask, naxes, axes, a->ndim, fn);
  if (st != CN_OK)
    return st;
  for (int32_t i = 0; naxes != CN_ALL_AXES && i < naxes; i++)
    if ((st = cn_normalize_axis(&ax[i], axes[i], a->ndim, fn)) != CN_OK)
      return st;
  cn_array_s *avg = NULL, *scl = NULL;
  if (!weights) {
    st = cn_mean(&avg, a, naxes, ax, keepdims, CN_DTYPE_DEFAULT, NULL);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
    if (sum_of_weights) {
      /* the count of averaged values, in avg's dtype */
      double cnt = avg->size ? (double)a->size / (double)avg->size : 0.0;
      st = cn_full_like(&scl, avg, cn_scalar_float(cnt), avg->dtype);
      if (st != CN_OK) {
        cn_array_release(avg);
        return cn_error_prefix(st, fn);
      }
      *sum_of_weights = scl;
    }
    *out = avg;
    return CN_OK;
  }
  cn_dtype rdt;
  if ((st = average_dtype(&rdt, a->dtype, weights->dtype)) != CN_OK)
    return st;
  /* NumPy: scl = w.sum(axes, dtype), then multiply(a, w, dtype).sum(axes)
   * / scl, the weights cast before they are broadcast */
  const int32_t *axp = naxes == CN_ALL_AXES ? NULL : ax;
  cn_array_s *wc = NULL, *w = NULL, *ac = NULL, *prod = NULL, *num = NULL;
  cn_array_s *eq = NULL, *any = NULL, *zw = NULL;
  st = cn_astype(&wc, weights, rdt, 0);
  if (st == CN_OK)
    st = weights_view(&w, a, wc, naxes, ax, fn);
  if (st == CN_OK)
    st = cn_sum(&scl, w, naxes, axp, keepdims, rdt, NULL);
  cn_scalar zero = {0};
  if (st == CN_OK)
    st = cn_weak_scalar_like(&zw, cn_scalar_float(0.0), scl);
  if (st == CN_OK)
    st = cn_equal(&eq, scl, zw, NULL);
  if (st == CN_OK)
    st = cn_any(&any, eq, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_item(&zero, any);
  if (st == CN_OK && zero.i != 0)
    st = cn_error(CN_ERR_ZERO_DIVISION,
                  "%s: weights sum to zero, can't be normalized", fn);
  if (st == CN_OK)
    st = cn_astype(&ac, a, rdt, 0);
  if (st == CN_OK)
    st = cn_multiply(&prod, ac, w, NULL);
  if (st == CN_OK)
    st = cn_sum(&num, prod, naxes, axp, keepdims, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_divide(&avg, num, scl, NULL);
  cn_array_release(wc);
  cn_array_release(w);
  cn_array_release(ac);
  cn_array_release(prod);
  cn_array_release(num);
  cn_array_release(eq);
  cn_array_release(any);
  cn_array_release(zw);
  if (st != CN_OK) {
    cn_array_release(scl);
    cn_array_release(avg);
    return st == CN_ERR_ZERO_DIVISION ? st : cn_error_prefix(st, fn);
  }
  *out = avg;
  if (sum_of_weights)
    *sum_of_weights = scl;
  else
    cn_array_release(scl);
  return CN_OK;
}

/* ---- covariance ---------------------------------------------------------- */

/* Variables as rows of a host (nvar, nobs) array in dtype wt (NumPy's
 * ndmin=2, transposed unless rowvar or a single row). */
static cn_status as_rows(cn_array_s **out, const cn_array_s *m, int32_t rowvar,
                         cn_dtype wt, const char *fn, const char *arg) {
  if (m->ndim > 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' has more than 2 "
                    "dimensions (%d)",
                    fn, arg, (int)m->ndim);
  cn_array_s *v = NULL, *t = NULL;
  cn_status st = cn_atleast_2d(&v, (cn_array)m);
  if (st == CN_OK && !rowvar && v->shape[0] != 1) {
    st = cn_transpose(&t, v);
    cn_array_release(v);
    v = t;
  }
  if (st == CN_OK)
    st = cn_host_as(out, v, wt);
  cn_array_release(v);
  return st;
}

/* Host float64 copy of a 1-d weights array of nobs non-negative values
 * (integral ones for frequency weights). */
static cn_status obs_weights(cn_array_s **out, const cn_array_s *w,
                             int64_t nobs, bool integral, const char *fn,
                             const char *arg) {
  cn_status st = cn_require_real(w, fn, arg);
  if (st != CN_OK)
    return st;
  if (w->ndim != 1)
    return cn_error(CN_ERR_SHAPE, "%s: cannot handle multidimensional %s",
                    fn, arg);
  if (w->shape[0] != nobs)
    return cn_error(CN_ERR_SHAPE,
                    "%s: incompatible numbers of samples (%" PRId64
                    ") and %s (%" PRId64 ")",
                    fn, nobs, arg, w->shape[0]);
  if ((st = cn_host_f64(out, w)) != CN_OK)
    return st;
  const double *v = (const double *)(*out)->data;
  for (int64_t i = 0; i < nobs; i++) {
    if (integral && v[i] != nearbyint(v[i]))
      st = cn_error(CN_ERR_TYPE, "%s: %s must be integer", fn, arg);
    else if (v[i] < 0)
      st = cn_error(CN_ERR_VALUE, "%s: %s cannot be negative", fn, arg);
    if (st != CN_OK) {
      cn_array_release(*out);
      *out = NULL;
      return st;
    }
  }
  return CN_OK;
}

/* The (nv, nv) covariance of m's and y's variables as a host float64 or
 * complex128 array (not squeezed), NumPy's algorithm: weighted means, the
 * products of the centred rows with the conjugate, divided by NumPy's
 * degrees of freedom (0 when not positive, giving inf/nan). */
static cn_status cov_host(cn_array_s **out, const cn_array_s *m,
                          const cn_array_s *y, const cn_array_s *fweights,
                          const cn_array_s *aweights, int32_t rowvar,
                          int32_t bias, int32_t ddof, const char *fn) {
  bool cplx = cn_is_complex(m->dtype) || (y && cn_is_complex(y->dtype));
  cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  cn_array_s *X = NULL, *Y = NULL, *F = NULL, *A = NULL, *r = NULL;
  cn_status st = as_rows(&X, m, rowvar, wt, fn, "m");
  if (st == CN_OK && y)
    st = as_rows(&Y, y, rowvar, wt, fn, "y");
  if (st == CN_OK && Y && Y->shape[1] != X->shape[1])
    st = cn_error(CN_ERR_SHAPE,
                  "%s: m and y have different numbers of "
                  "observations (%" PRId64 " and %" PRId64 ")",
                  fn, X->shape[1], Y->shape[1]);
  int64_t nobs = st == CN_OK ? X->shape[1] : 0;
  if (st == CN_OK && fweights)
    st = obs_weights(&F, fweights, nobs, true, fn, "fweights");
  if (st == CN_OK && aweights)
    st = obs_weights(&A, aweights, nobs, false, fn, "aweights");
  int64_t nx = st == CN_OK ? X->shape[0] : 0, ny = Y ? Y->shape[0] : 0;
  int64_t nv = nx + ny;
  double *w = NULL;
  void *mu = NULL;
  if (st == CN_OK) {
    w = cn_malloc(sizeof(double) * (size_t)(nobs + 1));
    mu = cn_malloc(sizeof(double complex) * (size_t)(nv + 1));
    if (!w || !mu)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  double wsum = 0, fact = 0;
  if (st == CN_OK) {
    long double s = 0, swa = 0;
    for (int64_t k = 0; k < nobs; k++) {
      w[k] = (F ? ((const double *)F->data)[k] : 1.0) *
             (A ? ((const double *)A->data)[k] : 1.0);
      s += w[k];
      if (A)
        swa += (long double)w[k] * ((const double *)A->data)[k];
    }
    wsum = (double)s;
    if (ddof < 0)
      ddof = bias ? 0 : 1;
    if ((F || A) && wsum == 0 && nv > 0)
      st = cn_error(CN_ERR_ZERO_DIVISION,
                    "%s: weights sum to zero, can't be normalized", fn);
    if (!F && !A)
      fact = (double)nobs - ddof;
    else if (ddof == 0)
      fact = wsum;
    else if (!A)
      fact = wsum - ddof;
    else
      fact = wsum - ddof * (double)(swa / s);
    if (fact <= 0)
      fact = 0;
  }
  int64_t sh[2] = {nv, nv};
  if (st == CN_OK)
    st = cn_host_new(&r, wt, 2, sh);
  if (st == CN_OK) {
    /* NumPy scales by 1 / fact, so fact == 0 gives inf or nan. */
    double scale = 1.0 / fact;
    if (cplx) {
#define ROWC(i)                                                                \
  ((i) < nx ? (const double complex *)X->data + (i)*nobs                       \
            : (const double complex *)Y->data + ((i)-nx) * nobs)
      double complex *mc = mu, *c = (double complex *)r->data;
      for (int64_t i = 0; i < nv; i++) {
        double complex s = 0;
        for (int64_t k = 0; k < nobs; k++)
          s += ROWC(i)[k] * w[k];
        mc[i] = s / wsum;
      }
      for (int64_t i = 0; i < nv; i++)
        for (int64_t j = i; j < nv; j++) {
          double complex s = 0;
          for (int64_t k = 0; k < nobs; k++)
            s += (ROWC(i)[k] - mc[i]) * w[k] * conj(ROWC(j)[k] - mc[j]);
          c[i * nv + j] = s * scale;
          c[j * nv + i] = conj(s) * scale;
        }
#undef ROWC
    } else {
#define ROW(i)                                                                 \
  ((i) < nx ? (const double *)X->data + (i)*nobs                               \
            : (const double *)Y->data + ((i)-nx) * nobs)
      double *mr = mu, *c = (double *)r->data;
      bool weighted = F || A;
      for (int64_t i = 0; i < nv; i++) {
        long double s = 0;
        if (weighted)
          for (int64_t k = 0; k < nobs; k++)
            s += (long double)ROW(i)[k] * w[k];
        else
          for (int64_t k = 0; k < nobs; k++)
            s += ROW(i)[k];
        mr[i] = (double)(s / wsum);
      }
      /* The unweighted products have their own loop: the multiply by a
       * weight of 1 costs about a fifth more time. */
      for (int64_t i = 0; i < nv; i++)
        for (int64_t j = i; j < nv; j++) {
          const double *ri = ROW(i), *rj = ROW(j);
          double mi = mr[i], mj = mr[j];
          long double s = 0;
          if (weighted)
            for (int64_t k = 0; k < nobs; k++)
              s += (long double)(ri[k] - mi) * w[k] * (rj[k] - mj);
          else
            for (int64_t k = 0; k < nobs; k++)
              s += (long double)(ri[k] - mi) * (rj[k] - mj);
          c[i * nv + j] = c[j * nv + i] =
              fact > 0 ? (double)(s / fact) : (double)s * scale;
        }
#undef ROW
    }
  }
  free(w);
  free(mu);
  cn_array_release(X);
  cn_array_release(Y);
  cn_array_release(F);
  cn_array_release(A);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* Moves a host (nv, nv) result to like's device in dtype, a single
 * variable squeezed to 0-d as NumPy does. */
static cn_status cov_result(cn_array *out, cn_array_s *r, const cn_array_s *like,
                            cn_dtype dtype) {
  if (r->shape[0] == 1) {
    cn_array_s *z = NULL;
    cn_status st = cn_reshape(&z, r, 0, NULL, CN_ORDER_C);
    cn_array_release(r);
    if (st != CN_OK)
      return st;
    r = z;
  }
  return cn_result_to(out, r, like, dtype);
}

static cn_status check_cov_dtype(cn_dtype dtype, const char *fn) {
  if (dtype != CN_DTYPE_DEFAULT && !cn_is_float(dtype) && !cn_is_complex(dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: dtype must be a float or complex dtype, got %s", fn,
                    cn_dtype_name(dtype));
  return CN_OK;
}

cn_status cn_cov_weighted(cn_array *out, cn_array m, cn_array y,
                          cn_array fweights, cn_array aweights, int32_t rowvar,
                          int32_t bias, int32_t ddof, cn_dtype dtype) {
  const char *fn = "cn_cov_weighted";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(m, fn, "m");
  if (y)
    CN_CHECK_ARRAY(y, fn, "y");
  if (fweights)
    CN_CHECK_ARRAY(fweights, fn, "fweights");
  if (aweights)
    CN_CHECK_ARRAY(aweights, fn, "aweights");
  cn_status st = check_cov_dtype(dtype, fn);
  if (st != CN_OK)
    return st;
  /* NumPy's weighted means promote the dtype with the float64 weights */
  if (dtype != CN_DTYPE_DEFAULT && (fweights || aweights) &&
      (st = cn_result_type(&dtype, dtype, CN_FLOAT64)) != CN_OK)
    return st;
  cn_array_s *r = NULL;
  if ((st = cov_host(&r, m, y, fweights, aweights, rowvar, bias, ddof, fn)) !=
      CN_OK)
    return st;
  return cov_result(out, r, m, dtype);
}

cn_status cn_cov(cn_array *out, cn_array m, cn_array y, int32_t rowvar,
                 int32_t bias, int32_t ddof) {
  const char *fn = "cn_cov";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(m, fn, "m");
  if (y)
    CN_CHECK_ARRAY(y, fn, "y");
  cn_array_s *r = NULL;
  cn_status st = cov_host(&r, m, y, NULL, NULL, rowvar, bias, ddof, fn);
  if (st != CN_OK)
    return st;
  return cov_result(out, r, m, CN_DTYPE_DEFAULT);
}

static double clip1(double v) { return v > 1 ? 1 : (v < -1 ? -1 : v); }

cn_status cn_corrcoef(cn_array *out, cn_array x, cn_array y, int32_t rowvar) {
  const char *fn = "cn_corrcoef";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  if (y)
    CN_CHECK_ARRAY(y, fn, "y");
  cn_array_s *h = NULL;
  cn_status st = cov_host(&h, x, y, NULL, NULL, rowvar, 0, -1, fn);
  if (st != CN_OK)
    return st;
  int64_t n = h->shape[0];
  bool cplx = cn_is_complex(h->dtype);
  if (n == 1) {
    /* NumPy's c / c for a single variable */
    if (cplx) {
      double complex *v = (double complex *)h->data;
      *v = *v / *v;
    } else {
      double *v = (double *)h->data;
      *v = *v / *v;
    }
    return cov_result(out, h, x, CN_DTYPE_DEFAULT);
  }
  double *d = cn_malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
  if (!d) {
    cn_array_release(h);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  /* divided by the standard deviations (of the real diagonal), the real
   * and imaginary parts clipped to [-1, 1] */
  for (int64_t i = 0; i < n; i++)
    d[i] = sqrt(cplx ? creal(((double complex *)h->data)[i * n + i])
                     : ((double *)h->data)[i * n + i]);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      if (cplx) {
        double complex *v = (double complex *)h->data + i * n + j;
        double complex q = *v / d[i] / d[j];
        *v = CMPLX(clip1(creal(q)), clip1(cimag(q)));
      } else {
        double *v = (double *)h->data + i * n + j;
        *v = clip1(*v / d[i] / d[j]);
      }
    }
  free(d);
  return cov_result(out, h, x, CN_DTYPE_DEFAULT);
}
