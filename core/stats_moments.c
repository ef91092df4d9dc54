/* Weighted averages (on host float64 copies; results go back to the
 * input's device), covariance and correlation (engine ops on the input's
 * device), include/cunumpy/stats.h. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include "complex_compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/linalg.h"
#include "cunumpy/manip.h"
#include "cunumpy/reduce.h"
#include "cunumpy/view.h"
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

/* cov and corrcoef are compositions of engine ops (mean, subtract, matmul
 * with the conjugate transpose, divide, clip) on the input's device, so
 * they run where the data lives on every backend; only the 1-d weights
 * are validated and summed on the host, as NumPy does. */

/* Variables as rows (nvar, nobs) in dtype wt on m's device (NumPy's
 * ndmin=2; m is transposed unless rowvar or 1-d, y unless rowvar or a
 * single row, as NumPy). */
static cn_status as_rows(cn_array_s **out, const cn_array_s *m, int32_t rowvar,
                         bool is_y, cn_dtype wt, const char *fn,
                         const char *arg) {
  if (m->ndim > 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' has more than 2 "
                    "dimensions (%d)",
                    fn, arg, (int)m->ndim);
  cn_array_s *v = NULL, *t = NULL;
  cn_status st = cn_atleast_2d(&v, (cn_array)m);
  if (st == CN_OK && !rowvar && (is_y ? v->shape[0] != 1 : m->ndim != 1)) {
    st = cn_transpose(&t, v);
    cn_array_release(v);
    v = t;
  }
  if (st == CN_OK)
    st = cn_astype(out, v, wt, 0);
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

/* Releases up to n handles (NULLs skipped). */
static void release_all(cn_array_s **a, int n) {
  for (int i = 0; i < n; i++)
    cn_array_release(a[i]);
}

/* Multiplies (or divides) c in place by the weak scalar v. */
static cn_status scale_in_place(cn_array_s *c, double v, bool divide) {
  cn_array_s *s = NULL, *r = NULL;
  cn_status st = cn_scalar_array(&s, cn_scalar_float(v));
  if (st == CN_OK)
    st = (divide ? cn_divide : cn_multiply)(&r, c, s, c);
  cn_array_release(s);
  cn_array_release(r);
  return st;
}

/* The (nv, nv) covariance of m's and y's variables, as arrays of dtype wt
 * on m's device (the result promoted with the float64 weights when
 * weighted; not squeezed), NumPy's algorithm: (weighted) means, the product
 * of the centred rows with the conjugate transpose of the (weighted)
 * centred rows through matmul, times 1 / NumPy's degrees of freedom (0
 * when not positive, giving inf/nan). No variables in m: a (0, 0)
 * float64 array, as NumPy. */
static cn_status cov_compute(cn_array_s **out, const cn_array_s *m,
                             const cn_array_s *y, const cn_array_s *fweights,
                             const cn_array_s *aweights, int32_t rowvar,
                             int32_t bias, int32_t ddof, cn_dtype wt,
                             const char *fn) {
  enum { X0, Y0, XY, F, A, W, WD, AVG, AVG2, XC0, XC, XW, XT, XH, C, NT };
  cn_array_s *t[NT] = {0};
  cn_status st = as_rows(&t[X0], m, rowvar, false, wt, fn, "m");
  if (st == CN_OK && t[X0]->shape[0] == 0) {
    int64_t sh[2] = {0, 0};
    release_all(t, NT);
    return cn_array_new(out, cn_backend_of(m), m->buf->device_id, CN_FLOAT64,
                        2, sh, CN_ORDER_C);
  }
  if (st == CN_OK && y)
    st = as_rows(&t[Y0], y, rowvar, true, wt, fn, "y");
  if (st == CN_OK && t[Y0] && t[Y0]->shape[1] != t[X0]->shape[1])
    st = cn_error(CN_ERR_SHAPE,
                  "%s: m and y have different numbers of "
                  "observations (%" PRId64 " and %" PRId64 ")",
                  fn, t[X0]->shape[1], t[Y0]->shape[1]);
  if (st == CN_OK && t[Y0]) {
    cn_array pair[2] = {t[X0], t[Y0]};
    st = cn_concatenate((cn_array *)&t[XY], 2, pair, 0, wt);
  } else if (st == CN_OK) {
    cn_array_retain(t[X0]);
    t[XY] = t[X0];
  }
  cn_array_s *X = t[XY];
  int64_t nobs = st == CN_OK ? X->shape[1] : 0;
  if (st == CN_OK && fweights)
    st = obs_weights(&t[F], fweights, nobs, true, fn, "fweights");
  if (st == CN_OK && aweights)
    st = obs_weights(&t[A], aweights, nobs, false, fn, "aweights");
  bool weighted = t[F] || t[A];
  double wsum = (double)nobs, fact = 0;
  if (st == CN_OK && weighted) {
    /* w = f * a on the host, its sum and NumPy's degrees of freedom */
    st = cn_host_new(&t[W], CN_FLOAT64, 1, &nobs);
    /* in double, as NumPy: fact can be 0 (inf/nan) or a rounding above */
    double sw = 0, swa = 0;
    for (int64_t k = 0; st == CN_OK && k < nobs; k++) {
      double wk = (t[F] ? ((const double *)t[F]->data)[k] : 1.0) *
                  (t[A] ? ((const double *)t[A]->data)[k] : 1.0);
      ((double *)t[W]->data)[k] = wk;
      sw += wk;
      if (t[A])
        swa += wk * ((const double *)t[A]->data)[k];
    }
    wsum = sw;
    if (st == CN_OK && wsum == 0)
      st = cn_error(CN_ERR_ZERO_DIVISION,
                    "%s: weights sum to zero, can't be normalized", fn);
    if (ddof < 0)
      ddof = bias ? 0 : 1;
    fact = ddof == 0 ? wsum
           : !t[A]   ? wsum - ddof
                     : wsum - ddof * (swa / sw);
    if (st == CN_OK)
      st = cn_idx_to_device_of(&t[WD], t[W], X);
  } else {
    if (ddof < 0)
      ddof = bias ? 0 : 1;
    fact = (double)nobs - ddof;
  }
  if (fact <= 0)
    fact = 0;
  /* the means as a column */
  int64_t col[2] = {X ? X->shape[0] : 0, 1};
  if (st == CN_OK && !weighted) {
    int32_t ax = 1;
    st = cn_mean(&t[AVG], X, 1, &ax, 1, CN_DTYPE_DEFAULT, NULL);
  } else if (st == CN_OK) {
    st = cn_matmul(&t[AVG2], X, t[WD], NULL);
    if (st == CN_OK)
      st = scale_in_place(t[AVG2], wsum, true);
    if (st == CN_OK)
      st = cn_reshape(&t[AVG], t[AVG2], 2, col, CN_ORDER_C);
  }
  /* NumPy's X -= avg keeps X's dtype (weighted means are float64) */
  if (st == CN_OK)
    st = cn_subtract(&t[XC0], X, t[AVG], NULL);
  if (st == CN_OK)
    st = cn_astype(&t[XC], t[XC0], wt, 0);
  /* the right operand: the (weighted) centred rows, transposed and
   * conjugated */
  const cn_array_s *rhs = t[XC];
  if (st == CN_OK && weighted) {
    st = cn_multiply(&t[XW], t[XC], t[WD], NULL);
    rhs = t[XW];
  }
  if (st == CN_OK)
    st = cn_transpose(&t[XT], (cn_array)rhs);
  bool cplx = cn_is_complex(wt);
  if (st == CN_OK && cplx)
    st = cn_conj(&t[XH], t[XT], NULL);
  if (st == CN_OK)
    st = cn_matmul(&t[C], t[XC], cplx ? t[XH] : t[XT], NULL);
  /* NumPy multiplies by 1 / fact, so fact == 0 gives inf or nan */
  if (st == CN_OK)
    st = scale_in_place(t[C], 1.0 / fact, false);
  cn_array_s *c = t[C];
  t[C] = NULL;
  release_all(t, NT);
  if (st != CN_OK) {
    cn_array_release(c);
    return st;
  }
  *out = c;
  return CN_OK;
}

/* c cast to dtype (DEFAULT keeps it), a single variable squeezed to 0-d
 * as NumPy does. Releases c. */
static cn_status cov_result(cn_array *out, cn_array_s *c, cn_dtype dtype) {
  cn_array_s *z = NULL;
  cn_status st = CN_OK;
  if (c->ndim == 2 && c->shape[0] == 1) {
    st = cn_reshape(&z, c, 0, NULL, CN_ORDER_C);
  } else {
    cn_array_retain(c);
    z = c;
  }
  cn_array_release(c);
  if (st != CN_OK)
    return st;
  if (dtype == CN_DTYPE_DEFAULT || dtype == z->dtype) {
    *out = z;
    return CN_OK;
  }
  st = cn_astype(out, z, dtype, 1);
  cn_array_release(z);
  return st;
}

static cn_status check_cov_dtype(cn_dtype dtype, const char *fn) {
  if (dtype != CN_DTYPE_DEFAULT && !cn_is_float(dtype) && !cn_is_complex(dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: dtype must be a float or complex dtype, got %s", fn,
                    cn_dtype_name(dtype));
  return CN_OK;
}

/* NumPy's computing dtype: dtype, else result_type(m, y, float64). */
static cn_status cov_work_dtype(cn_dtype *wt, const cn_array_s *m,
                                const cn_array_s *y, cn_dtype dtype) {
  cn_status st = CN_OK;
  if (dtype == CN_DTYPE_DEFAULT) {
    st = cn_result_type(&dtype, m->dtype, CN_FLOAT64);
    if (st == CN_OK && y)
      st = cn_result_type(&dtype, dtype, y->dtype);
  }
  *wt = dtype;
  return st;
}

static cn_status check_same_device(const cn_array_s *a, const cn_array_s *b,
                                   const char *fn, const char *arg) {
  if (b && (cn_backend_of(a) != cn_backend_of(b) ||
            a->buf->device_id != b->buf->device_id))
    return cn_error(CN_ERR_DEVICE, "%s: m and %s are on different devices",
                    fn, arg);
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
  if (st == CN_OK)
    st = check_same_device(m, y, fn, "y");
  if (st != CN_OK)
    return st;
  cn_dtype wt;
  if ((st = cov_work_dtype(&wt, m, y, dtype)) != CN_OK)
    return st;
  /* NumPy's weighted means promote the dtype with the float64 weights */
  if (dtype != CN_DTYPE_DEFAULT && (fweights || aweights) &&
      (st = cn_result_type(&dtype, dtype, CN_FLOAT64)) != CN_OK)
    return st;
  cn_array_s *c = NULL;
  if ((st = cov_compute(&c, m, y, fweights, aweights, rowvar, bias, ddof, wt,
                        fn)) != CN_OK)
    return st;
  return cov_result(out, c, c->size == 0 ? CN_DTYPE_DEFAULT : dtype);
}

cn_status cn_cov(cn_array *out, cn_array m, cn_array y, int32_t rowvar,
                 int32_t bias, int32_t ddof) {
  const char *fn = "cn_cov";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(m, fn, "m");
  if (y)
    CN_CHECK_ARRAY(y, fn, "y");
  cn_status st = check_same_device(m, y, fn, "y");
  cn_dtype wt = CN_FLOAT64;
  if (st == CN_OK)
    st = cov_work_dtype(&wt, m, y, CN_DTYPE_DEFAULT);
  cn_array_s *c = NULL;
  if (st == CN_OK)
    st = cov_compute(&c, m, y, NULL, NULL, rowvar, bias, ddof, wt, fn);
  if (st != CN_OK)
    return st;
  return cov_result(out, c, CN_DTYPE_DEFAULT);
}

/* Clips a (real) array to [-1, 1] in place. */
static cn_status clip_unit(cn_array_s *a) {
  cn_array_s *lo = NULL, *hi = NULL, *r = NULL;
  cn_status st = cn_scalar_array(&lo, cn_scalar_float(-1.0));
  if (st == CN_OK)
    st = cn_scalar_array(&hi, cn_scalar_float(1.0));
  if (st == CN_OK)
    st = cn_clip(&r, a, lo, hi, a);
  cn_array_release(lo);
  cn_array_release(hi);
  cn_array_release(r);
  return st;
}

cn_status cn_corrcoef(cn_array *out, cn_array x, cn_array y, int32_t rowvar) {
  const char *fn = "cn_corrcoef";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  if (y)
    CN_CHECK_ARRAY(y, fn, "y");
  cn_status st = check_same_device(x, y, fn, "y");
  cn_dtype wt = CN_FLOAT64;
  if (st == CN_OK)
    st = cov_work_dtype(&wt, x, y, CN_DTYPE_DEFAULT);
  cn_array_s *c = NULL;
  if (st == CN_OK)
    st = cov_compute(&c, x, y, NULL, NULL, rowvar, 0, -1, wt, fn);
  if (st != CN_OK)
    return st;
  int64_t n = c->shape[0];
  enum { D, DR, SD, SDC, C1, C2, CV, NT };
  cn_array_s *t[NT] = {0};
  bool cplx = cn_is_complex(c->dtype);
  if (n == 1) {
    /* NumPy's c / c for a single variable: nan for 0, inf or nan */
    st = cn_divide(&t[C2], c, c, NULL);
  } else {
    /* divided by the standard deviations (of the real diagonal) as NumPy:
     * by rows, then by columns */
    int64_t col[2] = {n, 1};
    st = cn_diagonal(&t[D], c, 0, 0, 1);
    if (st == CN_OK && cplx)
      st = cn_real(&t[DR], t[D], NULL);
    if (st == CN_OK)
      st = cn_sqrt(&t[SD], cplx ? t[DR] : t[D], NULL);
    if (st == CN_OK)
      st = cn_reshape(&t[SDC], t[SD], 2, col, CN_ORDER_C);
    if (st == CN_OK)
      st = cn_divide(&t[C1], c, t[SDC], c);
    if (st == CN_OK)
      st = cn_divide(&t[C2], c, t[SD], c);
    /* the real and imaginary parts clipped to [-1, 1]: complex as its
     * (re, im) pairs */
    if (st == CN_OK && cplx)
      st = cn_view_dtype(&t[CV], t[C2],
                         c->dtype == CN_COMPLEX64 ? CN_FLOAT32 : CN_FLOAT64);
    if (st == CN_OK && n > 0)
      st = clip_unit(cplx ? t[CV] : t[C2]);
  }
  cn_array_release(c);
  cn_array_s *r = t[C2];
  t[C2] = NULL;
  release_all(t, NT);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cov_result(out, r, CN_DTYPE_DEFAULT);
}
