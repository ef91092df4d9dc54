/* Convolution, correlation, interpolation and integration
 * (include/cunumpy/stats.h), on host float64 copies; results go back to
 * the input's device. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/sort.h"
#include "cunumpy/view.h"
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

/* NumPy's arr_interp / arr_interp_complex, per output value. A real fp
 * takes the slope (f1 - f0) / (x1 - x0); each part of a complex fp takes
 * (f1 - f0) * (1 / (x1 - x0)), as NumPy. A NaN result retries from the
 * right node, then takes f0 when both nodes agree. */
static double interp_segment(double v, double x0, double x1, double f0,
                             double f1, bool cplx) {
  double slope = cplx ? (f1 - f0) * (1.0 / (x1 - x0)) : (f1 - f0) / (x1 - x0);
  double res = slope * (v - x0) + f0;
  if (res != res) {
    res = slope * (v - x1) + f1;
    if (res != res && f0 == f1)
      res = f0;
  }
  return res;
}

/* The CPU's direct loop over host float64 copies; fp holds nparts (1, or 2
 * for complex: real and imaginary parts interleaved) values per node, o the
 * same per output value. */
static void interp_direct(double *o, const double *xv, int64_t m,
                          const double *dx, const double *dy, int64_t n,
                          int nparts, const double *lv, const double *rv) {
  bool cplx = nparts == 2;
  for (int64_t i = 0; i < m; i++) {
    double v = xv[i];
    double *oi = o + i * nparts;
    /* NumPy's single-node case compares only: a NaN x gets fp[0] */
    if (n == 1) {
      const double *src = v < dx[0] ? lv : v > dx[0] ? rv : dy;
      for (int p = 0; p < nparts; p++)
        oi[p] = src[p];
      continue;
    }
    if (v != v) {
      oi[0] = v;
      if (cplx)
        oi[1] = 0.0;
      continue;
    }
    if (v < dx[0] || v > dx[n - 1]) {
      const double *src = v < dx[0] ? lv : rv;
      for (int p = 0; p < nparts; p++)
        oi[p] = src[p];
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
    for (int p = 0; p < nparts; p++) {
      double f0 = dy[j * nparts + p];
      oi[p] = j == n - 1 || v == dx[j]
                  ? f0
                  : interp_segment(v, dx[j], dx[j + 1], f0,
                                   dy[(j + 1) * nparts + p], cplx);
    }
  }
}

/* On CPU arrays interp runs the direct loop: one pass, no temporaries,
 * faster there than the composition below. Setting
 * CUNUMPY_INTERP_COMPOSED=1 (read once) runs the composition on CPU arrays
 * too, so that the tests cover the path device arrays take. */
static bool interp_host_path(const cn_array_s *x) {
  static int composed = -1;
  int c = __atomic_load_n(&composed, __ATOMIC_RELAXED);
  if (c < 0) {
    const char *e = getenv("CUNUMPY_INTERP_COMPOSED");
    c = e != NULL && e[0] == '1';
    __atomic_store_n(&composed, c, __ATOMIC_RELAXED);
  }
  return !c && cn_backend_of(x)->device_type == CN_DEVICE_CPU;
}

static cn_status interp_host(cn_array *out, const cn_array_s *x,
                             const cn_array_s *xp, const cn_array_s *fp,
                             const double *left, const double *right) {
  bool cplx = cn_is_complex(fp->dtype);
  int nparts = cplx ? 2 : 1;
  cn_array_s *hx = NULL, *hxp = NULL, *hfp = NULL, *r = NULL;
  cn_status st = cn_host_f64(&hx, x);
  if (st == CN_OK)
    st = cn_host_f64(&hxp, xp);
  if (st == CN_OK)
    st = cplx ? cn_host_as(&hfp, fp, CN_COMPLEX128) : cn_host_f64(&hfp, fp);
  if (st == CN_OK)
    st = cn_host_new(&r, cplx ? CN_COMPLEX128 : CN_FLOAT64, x->ndim, x->shape);
  if (st == CN_OK) {
    const double *dy = (const double *)hfp->data;
    int64_t n = xp->size;
    double lv[2] = {left ? *left : dy[0], left ? 0.0 : dy[nparts - 1]};
    double rv[2] = {right ? *right : dy[(n - 1) * nparts],
                    right ? 0.0 : dy[(n - 1) * nparts + nparts - 1]};
    interp_direct((double *)r->data, (const double *)hx->data, hx->size,
                  (const double *)hxp->data, dy, n, nparts, lv, rv);
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

/* ---- interp composed where the data lives ----------------------------------
 * j = searchsorted(xp, x, right) - 1 clipped to a segment, the nodes taken
 * at j and j + 1, NumPy's formula elementwise, then its special cases
 * applied by where, the later overriding the earlier: x on a node, x at or
 * past the last node, outside (left / right), NaN x. */

#define ITRY(x)                                                                \
  do {                                                                         \
    if ((st = (x)) != CN_OK)                                                   \
      goto done;                                                               \
  } while (0)

static void idrop(cn_array_s **a) {
  cn_array_release(*a);
  *a = NULL;
}

/* *r = where(cond, a, *r). */
static cn_status where_over(cn_array_s **r, cn_array_s *cond, cn_array_s *a) {
  cn_array_s *t = NULL;
  cn_status st = cn_where(&t, cond, a, *r, NULL);
  if (st == CN_OK) {
    cn_array_release(*r);
    *r = t;
  }
  return st;
}

/* 0-d array of dt holding v, on like's device. */
static cn_status scalar_on(cn_array_s **out, const cn_array_s *like,
                           cn_dtype dt, cn_scalar v) {
  cn_status st = cn_new_on(out, like, dt, 0, NULL);
  if (st == CN_OK && (st = cn_fill(*out, v)) != CN_OK)
    idrop(out);
  return st;
}

/* The nodes and the position of x, shared by the parts of a complex fp. */
typedef struct interp_nodes {
  cn_array_s *xf, *xpf;    /* float64 x (its shape), float64 xp */
  cn_array_s *s, *j, *j1;  /* searchsorted right; segment j and j + 1 */
  cn_array_s *x0, *x1;     /* xp[j], xp[j + 1] */
  cn_array_s *xpfirst, *xplast; /* 0-d xp[0], xp[n-1] */
  cn_array_s *nan_x, *below, *above, *at_end, *on_node;
  int64_t n;
} interp_nodes;

static void interp_nodes_free(interp_nodes *N) {
  cn_array_s **all[] = {&N->xf,      &N->xpf,     &N->s,     &N->j,
                        &N->j1,      &N->x0,      &N->x1,    &N->xpfirst,
                        &N->xplast,  &N->nan_x,   &N->below, &N->above,
                        &N->at_end,  &N->on_node};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    idrop(all[i]);
}

static cn_status interp_nodes_make(interp_nodes *N, const cn_array_s *x,
                                   const cn_array_s *xp) {
  memset(N, 0, sizeof *N);
  cn_array_s *t = NULL, *one = NULL, *lo = NULL, *hi = NULL, *nn = NULL;
  cn_status st;
  int64_t n = N->n = xp->size;
  ITRY(cn_as_contig(&N->xf, x, CN_FLOAT64));
  ITRY(cn_as_contig(&N->xpf, xp, CN_FLOAT64));
  ITRY(cn_index_axis(&N->xpfirst, N->xpf, 0, 0));
  ITRY(cn_index_axis(&N->xplast, N->xpf, 0, n - 1));
  ITRY(cn_less(&N->below, N->xf, N->xpfirst, NULL));
  ITRY(cn_greater(&N->above, N->xf, N->xplast, NULL));
  if (n == 1)
    goto done; /* NumPy compares only; no segment */
  ITRY(cn_isnan(&N->nan_x, N->xf, NULL));
  ITRY(cn_searchsorted(&N->s, N->xpf, N->xf, CN_SIDE_RIGHT, NULL));
  ITRY(scalar_on(&one, N->xf, CN_INT64, cn_scalar_int(1)));
  ITRY(scalar_on(&lo, N->xf, CN_INT64, cn_scalar_int(0)));
  ITRY(scalar_on(&hi, N->xf, CN_INT64, cn_scalar_int(n - 2)));
  ITRY(scalar_on(&nn, N->xf, CN_INT64, cn_scalar_int(n)));
  ITRY(cn_subtract(&t, N->s, one, NULL));
  ITRY(cn_clip(&N->j, t, lo, hi, NULL));
  ITRY(cn_add(&N->j1, N->j, one, NULL));
  ITRY(cn_take(&N->x0, N->xpf, N->j, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_take(&N->x1, N->xpf, N->j1, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_equal(&N->at_end, N->s, nn, NULL));
  ITRY(cn_equal(&N->on_node, N->xf, N->x0, NULL));
done:
  cn_array_release(t);
  cn_array_release(one);
  cn_array_release(lo);
  cn_array_release(hi);
  cn_array_release(nn);
  if (st != CN_OK)
    interp_nodes_free(N);
  return st;
}

/* One real part f (float64, xp's length) interpolated at N's x. lv / rv:
 * the left / right values (NULL: f's first / last). nan_value: what a NaN
 * x gives (NULL: x itself). */
static cn_status interp_part(cn_array_s **out, const interp_nodes *N,
                             const cn_array_s *f, const double *lv,
                             const double *rv, const double *nan_value,
                             bool cplx) {
  cn_array_s *ff = NULL, *ffirst = NULL, *flast = NULL, *l = NULL, *rr = NULL;
  cn_array_s *f0 = NULL, *f1 = NULL, *df = NULL, *dx = NULL, *slope = NULL;
  cn_array_s *t = NULL, *res = NULL, *res2 = NULL, *c = NULL, *c2 = NULL;
  cn_array_s *r = NULL, *nanv = NULL, *oned = NULL, *lval, *rval;
  cn_status st;
  int64_t n = N->n;
  ITRY(cn_as_contig(&ff, f, CN_FLOAT64));
  ITRY(cn_index_axis(&ffirst, ff, 0, 0));
  ITRY(cn_index_axis(&flast, ff, 0, n - 1));
  if (lv)
    ITRY(scalar_on(&l, N->xf, CN_FLOAT64, cn_scalar_float(*lv)));
  if (rv)
    ITRY(scalar_on(&rr, N->xf, CN_FLOAT64, cn_scalar_float(*rv)));
  lval = l ? l : ffirst;
  rval = rr ? rr : flast;
  if (n == 1) {
    ITRY(cn_where(&r, N->above, rval, ffirst, NULL));
    ITRY(where_over(&r, N->below, lval));
    goto finish;
  }
  ITRY(cn_take(&f0, ff, N->j, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_take(&f1, ff, N->j1, 0, CN_INDEX_RAISE, NULL));
  ITRY(cn_subtract(&df, f1, f0, NULL));
  ITRY(cn_subtract(&dx, N->x1, N->x0, NULL));
  if (cplx) {
    ITRY(scalar_on(&oned, N->xf, CN_FLOAT64, cn_scalar_float(1.0)));
    ITRY(cn_divide(&t, oned, dx, NULL));
    ITRY(cn_multiply(&slope, df, t, NULL));
  } else {
    ITRY(cn_divide(&slope, df, dx, NULL));
  }
  idrop(&t);
  /* slope * (x - x0) + f0, else slope * (x - x1) + f1, else f0 == f1 */
  ITRY(cn_subtract(&t, N->xf, N->x0, NULL));
  ITRY(cn_multiply(&res, slope, t, NULL));
  idrop(&t);
  ITRY(cn_add(&r, res, f0, NULL));
  idrop(&res);
  ITRY(cn_subtract(&t, N->xf, N->x1, NULL));
  ITRY(cn_multiply(&res, slope, t, NULL));
  idrop(&t);
  ITRY(cn_add(&res2, res, f1, NULL));
  idrop(&res);
  ITRY(cn_isnan(&c, res2, NULL));
  ITRY(cn_equal(&c2, f0, f1, NULL));
  ITRY(cn_logical_and(&t, c, c2, NULL));
  ITRY(where_over(&res2, t, f0));
  idrop(&t);
  idrop(&c);
  ITRY(cn_isnan(&c, r, NULL));
  ITRY(where_over(&r, c, res2));
  ITRY(where_over(&r, N->on_node, f0));
  ITRY(where_over(&r, N->at_end, flast));
  ITRY(where_over(&r, N->above, rval));
  ITRY(where_over(&r, N->below, lval));
  if (nan_value) {
    ITRY(scalar_on(&nanv, N->xf, CN_FLOAT64, cn_scalar_float(*nan_value)));
    ITRY(where_over(&r, N->nan_x, nanv));
  } else {
    ITRY(where_over(&r, N->nan_x, N->xf));
  }
finish:
  *out = r;
  r = NULL;
done:
  cn_array_release(ff);
  cn_array_release(ffirst);
  cn_array_release(flast);
  cn_array_release(l);
  cn_array_release(rr);
  cn_array_release(f0);
  cn_array_release(f1);
  cn_array_release(df);
  cn_array_release(dx);
  cn_array_release(slope);
  cn_array_release(t);
  cn_array_release(res);
  cn_array_release(res2);
  cn_array_release(c);
  cn_array_release(c2);
  cn_array_release(r);
  cn_array_release(nanv);
  cn_array_release(oned);
  return st;
}

static cn_status interp_composed(cn_array *out, const cn_array_s *x,
                             const cn_array_s *xp, const cn_array_s *fp,
                             const double *left, const double *right) {
  interp_nodes N;
  cn_array_s *re = NULL, *im = NULL, *fre = NULL, *fim = NULL, *st2 = NULL,
             *cv = NULL;
  const double zero = 0.0;
  cn_array parts[2];
  cn_status st = interp_nodes_make(&N, x, xp);
  if (st != CN_OK)
    return st;
  if (!cn_is_complex(fp->dtype)) {
    ITRY(interp_part(&re, &N, fp, left, right, NULL, false));
    *out = re;
    re = NULL;
    goto done;
  }
  /* complex fp: each part alone (NumPy's per-part formula); a real left /
   * right has a zero imaginary part, a NaN x gives NaN + 0j */
  ITRY(cn_real(&fre, (cn_array)fp, NULL));
  ITRY(cn_imag(&fim, (cn_array)fp, NULL));
  ITRY(interp_part(&re, &N, fre, left, right, NULL, true));
  ITRY(interp_part(&im, &N, fim, left ? &zero : NULL, right ? &zero : NULL,
                   &zero, true));
  parts[0] = re;
  parts[1] = im;
  ITRY(cn_stack(&st2, 2, parts, -1));
  ITRY(cn_view_dtype(&cv, st2, CN_COMPLEX128));
  ITRY(cn_reshape(out, cv, x->ndim, x->shape, CN_ORDER_C));
done:
  interp_nodes_free(&N);
  cn_array_release(re);
  cn_array_release(im);
  cn_array_release(fre);
  cn_array_release(fim);
  cn_array_release(st2);
  cn_array_release(cv);
  return st;
}

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
  if (st != CN_OK)
    return st;
  if (xp->ndim != 1 || fp->ndim != 1 || xp->size != fp->size)
    return cn_error(CN_ERR_VALUE,
                    "%s: fp and xp are not of the same length "
                    "(or not 1-d)",
                    fn);
  if (xp->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: array of sample points is empty", fn);
  const cn_array_s *devs[3] = {x, xp, fp};
  if ((st = cn_same_device(3, devs, fn)) != CN_OK)
    return st;
  if (interp_host_path(x))
    return interp_host(out, x, xp, fp, left, right);
  st = interp_composed(out, x, xp, fp, left, right);
  return st == CN_OK ? CN_OK : cn_error_prefix(st, fn);
}

cn_status cn_trapezoid(cn_array *out, cn_array y, cn_array x, double dx,
                       int32_t axis) {
  const char *fn = "cn_trapezoid";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(y, fn, "y");
  if (x)
    CN_CHECK_ARRAY(x, fn, "x");
  cn_status st = CN_OK;
  if (y->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: y must be at least 1-d", fn);
  int32_t ax;
  if ((st = cn_normalize_axis(&ax, axis, y->ndim, fn)) != CN_OK)
    return st;
  int64_t n = y->shape[ax];
  if (x && (x->ndim != 1 || x->size != n))
    return cn_error(CN_ERR_SHAPE,
                    "%s: x must be 1-d with the axis' length %" PRId64
                    ", got %" PRId64 " elements",
                    fn, n, x->size);
  /* complex y or x: the sum in complex128, NumPy's result dtype */
  bool cplx = cn_is_complex(y->dtype) || (x && cn_is_complex(x->dtype));
  cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64, rdt = cn_float_result(y->dtype);
  if (cplx) {
    rdt = y->dtype == CN_COMPLEX64 && (!x || x->dtype == CN_COMPLEX64 ||
                                       x->dtype == CN_FLOAT32)
              ? CN_COMPLEX64
              : CN_COMPLEX128;
    if (y->dtype == CN_FLOAT32 && x && x->dtype == CN_COMPLEX64)
      rdt = CN_COMPLEX64;
  }
  cn_array_s *hx = NULL, *r = NULL;
  if (x && (st = cn_host_as(&hx, x, wt)) != CN_OK)
    return st;
  cn_lanes L;
  st = cn_lanes_make_as(&L, y, 1, &ax, 0, wt, fn);
  if (st == CN_OK)
    st = cn_host_new(&r, wt, L.out_nd, L.out_shape);
  if (st == CN_OK && cplx) {
    const double complex *xv = hx ? (const double complex *)hx->data : NULL;
    for (int64_t l = 0; l < L.nlanes; l++) {
      const double complex *f = (const double complex *)L.h->data + l * n;
      double complex s = 0;
      for (int64_t i = 0; i + 1 < n; i++) {
        double complex d = xv ? xv[i + 1] - xv[i] : dx;
        s += d * (f[i + 1] + f[i]) / 2.0;
      }
      ((double complex *)r->data)[l] = s;
    }
  } else if (st == CN_OK) {
    bool ybool = y->dtype == CN_BOOL;
    for (int64_t l = 0; l < L.nlanes; l++) {
      const double *f = (const double *)L.h->data + l * n;
      double s = 0;
      for (int64_t i = 0; i + 1 < n; i++) {
        double d = hx ? ((const double *)hx->data)[i + 1] -
                            ((const double *)hx->data)[i]
                      : dx;
        /* NumPy's y[1:] + y[:-1] is a logical or for bools */
        double pair = ybool ? (double)(f[i + 1] != 0 || f[i] != 0)
                            : f[i + 1] + f[i];
        s += d * pair / 2.0;
      }
      ((double *)r->data)[l] = s;
    }
  }
  if (st == CN_OK || L.h)
    cn_lanes_free(&L);
  cn_array_release(hx);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, y, rdt);
}
