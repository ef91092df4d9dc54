/* Ranges, discrete differences and gradients (include/cunumpy/stats.h).
 * ptp and diff run on the backend's reductions and ufuncs; gradient on
 * host float64 copies, its result going back to the input's device. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/ufunc.h"
#include "stats_util.h"

/* ---- differences ----------------------------------------------------------
 */

cn_status cn_ptp(cn_array *out, cn_array a, int32_t axis, int32_t keepdims) {
  const char *fn = "cn_ptp";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  int32_t ax = axis, naxes = axis == CN_AXIS_NONE ? CN_ALL_AXES : 1;
  cn_array_s *mx = NULL, *mn = NULL;
  cn_status st = cn_max(&mx, a, naxes, &ax, keepdims, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_min(&mn, a, naxes, &ax, keepdims, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_subtract(out, mx, mn, NULL);
  cn_array_release(mx);
  cn_array_release(mn);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

cn_status cn_diff(cn_array *out, cn_array a, int32_t n, int32_t axis) {
  const char *fn = "cn_diff";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (n < 0)
    return cn_error(CN_ERR_VALUE, "%s: order must be non-negative but got %d",
                    fn, (int)n);
  if (a->ndim == 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: diff requires input that is at least "
                    "one dimensional",
                    fn);
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, a->ndim, fn);
  if (st != CN_OK)
    return st;
  cn_array_s *cur = NULL;
  st = cn_copy(&cur, a, CN_ORDER_C);
  for (int32_t k = 0; k < n && st == CN_OK; k++) {
    int64_t m = cur->shape[ax];
    cn_array_s *hi = NULL, *lo = NULL, *nx = NULL;
    st = cn_slice_axis(&hi, cur, ax, m > 0 ? 1 : 0, m, 1);
    if (st == CN_OK)
      st = cn_slice_axis(&lo, cur, ax, 0, m > 0 ? m - 1 : 0, 1);
    if (st == CN_OK)
      st = a->dtype == CN_BOOL ? cn_not_equal(&nx, hi, lo, NULL)
                               : cn_subtract(&nx, hi, lo, NULL);
    cn_array_release(hi);
    cn_array_release(lo);
    cn_array_release(cur);
    cur = nx;
  }
  if (st != CN_OK) {
    cn_array_release(cur);
    return cn_error_prefix(st, fn);
  }
  *out = cur;
  return CN_OK;
}

cn_status cn_gradient(cn_array *out, cn_array a, int32_t axis, double dx,
                      int32_t edge_order) {
  const char *fn = "cn_gradient";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_require_real(a, fn, "a");
  if (st != CN_OK)
    return st;
  if (edge_order != 1 && edge_order != 2)
    return cn_error(CN_ERR_VALUE, "%s: edge_order must be 1 or 2, got %d", fn,
                    (int)edge_order);
  int32_t ax;
  if ((st = cn_normalize_axis(&ax, axis, a->ndim, fn)) != CN_OK)
    return st;
  int64_t n = a->shape[ax];
  if (n < edge_order + 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: shape of array too small to calculate "
                    "a numerical gradient, at least (edge_order + 1) elements "
                    "are required (axis %d has %" PRId64 ")",
                    fn, (int)ax, n);
  cn_lanes L;
  if ((st = cn_lanes_make(&L, a, 1, &ax, 1, fn)) != CN_OK)
    return st;
  cn_array_s *r = NULL;
  /* lanes are in moved-axis order: build the result there, move back */
  int64_t sh[CN_MAX_DIMS];
  int32_t k = 0;
  for (int32_t d = 0; d < a->ndim; d++)
    if (d != ax)
      sh[k++] = a->shape[d];
  sh[k++] = n;
  st = cn_host_new(&r, CN_FLOAT64, a->ndim, sh);
  if (st == CN_OK) {
    for (int64_t l = 0; l < L.nlanes; l++) {
      const double *f = (const double *)L.h->data + l * n;
      double *g = (double *)r->data + l * n;
      for (int64_t i = 1; i + 1 < n; i++)
        g[i] = (f[i + 1] - f[i - 1]) / (2 * dx);
      if (edge_order == 1) {
        g[0] = (f[1] - f[0]) / dx;
        g[n - 1] = (f[n - 1] - f[n - 2]) / dx;
      } else {
        g[0] = (-1.5 * f[0] + 2 * f[1] - 0.5 * f[2]) / dx;
        g[n - 1] = (0.5 * f[n - 3] - 2 * f[n - 2] + 1.5 * f[n - 1]) / dx;
      }
    }
  }
  cn_lanes_free(&L);
  cn_array_s *mv = NULL;
  if (st == CN_OK) {
    int32_t src = a->ndim - 1;
    st = cn_moveaxis(&mv, r, 1, &src, &ax);
  }
  cn_array_release(r);
  if (st != CN_OK)
    return st;
  cn_array_s *c = NULL;
  st = cn_as_contig(&c, mv, CN_FLOAT64);
  cn_array_release(mv);
  if (st != CN_OK)
    return st;
  return cn_result_to(out, c, a, cn_float_result(a->dtype));
}

/* ---- gradient over several axes with spacings or coordinates ----------- */

/* One axis' spacing: a scalar h (uniform) or the n - 1 coordinate steps,
 * in complex double when anything is complex. */
typedef struct spacing {
  bool uniform;
  double complex h;
  double complex *steps; /* n - 1 values when !uniform */
} axis_spacing;

static cn_status spacing_make(axis_spacing *sp, const cn_array_s *d, int64_t n,
                              int32_t i, const char *fn) {
  memset(sp, 0, sizeof *sp);
  sp->uniform = true;
  sp->h = 1.0;
  if (!d)
    return CN_OK;
  if (d->ndim > 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: distances must be either scalars or 1d (spacing %d "
                    "is %d-d)",
                    fn, (int)i, (int)d->ndim);
  if (d->ndim == 1 && d->size != n)
    return cn_error(CN_ERR_VALUE,
                    "%s: when 1d, distances must match the length of the "
                    "corresponding dimension (spacing %d has %" PRId64
                    " values, the axis %" PRId64 ")",
                    fn, (int)i, d->size, n);
  cn_array_s *h = NULL;
  cn_status st = cn_host_as(&h, d, CN_COMPLEX128);
  if (st != CN_OK)
    return st;
  const double complex *v = (const double complex *)h->data;
  if (d->ndim == 0) {
    sp->h = v[0];
    cn_array_release(h);
    return CN_OK;
  }
  /* NumPy uses the uniform formulas when all the steps are equal */
  sp->steps = cn_malloc(sizeof(double complex) * (size_t)(n > 1 ? n - 1 : 1));
  if (!sp->steps) {
    cn_array_release(h);
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  bool all_equal = true;
  for (int64_t k = 0; k + 1 < n; k++) {
    sp->steps[k] = v[k + 1] - v[k];
    all_equal = all_equal && sp->steps[k] == sp->steps[0];
  }
  cn_array_release(h);
  if (all_equal && n > 1) {
    sp->h = sp->steps[0];
    free(sp->steps);
    sp->steps = NULL;
  } else {
    sp->uniform = false;
  }
  return CN_OK;
}

/* NumPy's gradient of one lane g of n values (n >= edge_order + 1) into o:
 * second-order central differences inside (non-uniform ones for
 * coordinates), one-sided ones of edge_order at the ends. */
#define GRADIENT_LANE(T, CAST)                                                 \
  do {                                                                         \
    const double complex *hs = sp->steps;                                      \
    for (int64_t i = 1; i + 1 < n; i++) {                                      \
      if (sp->uniform) {                                                       \
        o[i] = (f[i + 1] - f[i - 1]) / CAST(2.0 * sp->h);                      \
      } else {                                                                 \
        double complex d1 = hs[i - 1], d2 = hs[i];                             \
        T a = CAST(-d2 / (d1 * (d1 + d2))), b = CAST((d2 - d1) / (d1 * d2));   \
        T c = CAST(d1 / (d2 * (d1 + d2)));                                     \
        o[i] = a * f[i - 1] + b * f[i] + c * f[i + 1];                         \
      }                                                                        \
    }                                                                          \
    if (edge_order == 1) {                                                     \
      T h0 = CAST(sp->uniform ? sp->h : hs[0]);                                \
      T hn = CAST(sp->uniform ? sp->h : hs[n - 2]);                            \
      o[0] = (f[1] - f[0]) / h0;                                               \
      o[n - 1] = (f[n - 1] - f[n - 2]) / hn;                                   \
    } else {                                                                   \
      double complex a, b, c;                                                  \
      if (sp->uniform) {                                                       \
        a = -1.5 / sp->h, b = 2.0 / sp->h, c = -0.5 / sp->h;                   \
      } else {                                                                 \
        double complex d1 = hs[0], d2 = hs[1];                                 \
        a = -(2.0 * d1 + d2) / (d1 * (d1 + d2));                               \
        b = (d1 + d2) / (d1 * d2);                                             \
        c = -d1 / (d2 * (d1 + d2));                                            \
      }                                                                        \
      o[0] = CAST(a) * f[0] + CAST(b) * f[1] + CAST(c) * f[2];                 \
      if (sp->uniform) {                                                       \
        a = 0.5 / sp->h, b = -2.0 / sp->h, c = 1.5 / sp->h;                    \
      } else {                                                                 \
        double complex d1 = hs[n - 3], d2 = hs[n - 2];                         \
        a = d2 / (d1 * (d1 + d2));                                             \
        b = -(d2 + d1) / (d1 * d2);                                            \
        c = (2.0 * d2 + d1) / (d2 * (d1 + d2));                                \
      }                                                                        \
      o[n - 1] =                                                               \
          CAST(a) * f[n - 3] + CAST(b) * f[n - 2] + CAST(c) * f[n - 1];        \
    }                                                                          \
  } while (0)
#define AS_COMPLEX(v) ((double complex)(v))

/* The gradient of a along ax as a new array on a's device. */
static cn_status gradient_axis(cn_array *out, const cn_array_s *fa, int32_t ax,
                               const axis_spacing *sp, int32_t edge_order,
                               bool cplx, cn_dtype rdt, const char *fn) {
  int64_t n = fa->shape[ax];
  cn_dtype wt = cplx ? CN_COMPLEX128 : CN_FLOAT64;
  cn_lanes L;
  cn_status st = cn_lanes_make_as(&L, fa, 1, &ax, 1, wt, fn);
  if (st != CN_OK)
    return st;
  int64_t sh[CN_MAX_DIMS];
  int32_t k = 0;
  for (int32_t d = 0; d < fa->ndim; d++)
    if (d != ax)
      sh[k++] = fa->shape[d];
  sh[k++] = n;
  cn_array_s *r = NULL;
  st = cn_host_new(&r, wt, fa->ndim, sh);
  for (int64_t l = 0; st == CN_OK && l < L.nlanes; l++) {
    if (cplx) {
      const double complex *f = (const double complex *)L.h->data + l * n;
      double complex *o = (double complex *)r->data + l * n;
      GRADIENT_LANE(double complex, AS_COMPLEX);
    } else {
      const double *f = (const double *)L.h->data + l * n;
      double *o = (double *)r->data + l * n;
      GRADIENT_LANE(double, creal);
    }
  }
  cn_lanes_free(&L);
  cn_array_s *mv = NULL, *c = NULL;
  if (st == CN_OK) {
    int32_t src = fa->ndim - 1;
    st = cn_moveaxis(&mv, r, 1, &src, &ax);
  }
  cn_array_release(r);
  if (st == CN_OK)
    st = cn_as_contig(&c, mv, wt);
  cn_array_release(mv);
  if (st != CN_OK)
    return st;
  return cn_result_to(out, c, fa, rdt);
}

cn_status cn_gradient_axes(cn_array *outs, int32_t cap, int32_t *nout,
                           cn_array f, int32_t nspacing,
                           const cn_array *spacing, int32_t naxes,
                           const int32_t *axes, int32_t edge_order) {
  const char *fn = "cn_gradient_axes";
  CN_CHECK_OUT(outs, fn);
  CN_CHECK_OUT(nout, fn);
  CN_CHECK_ARRAY(f, fn, "f");
  if (nspacing < 0 || (nspacing > 0 && !spacing))
    return cn_error(CN_ERR_VALUE, "%s: bad spacing count %d", fn,
                    (int)nspacing);
  for (int32_t i = 0; i < nspacing; i++)
    CN_CHECK_ARRAY(spacing[i], fn, "spacing");
  if (edge_order != 1 && edge_order != 2)
    return cn_error(CN_ERR_VALUE, "%s: edge_order must be 1 or 2, got %d", fn,
                    (int)edge_order);
  /* NumPy subtracts f's values and the coordinates, which bools refuse */
  if (f->dtype == CN_BOOL)
    return cn_error(CN_ERR_TYPE, "%s: boolean subtract is not supported for "
                    "f (use logical_xor)", fn);
  for (int32_t i = 0; i < nspacing; i++)
    if (spacing[i]->dtype == CN_BOOL && spacing[i]->ndim > 0)
      return cn_error(CN_ERR_TYPE, "%s: boolean coordinates are not "
                      "supported (NumPy's boolean negative)", fn);
  uint64_t mask;
  cn_status st = cn_axes_mask(&mask, naxes, axes, f->ndim, fn);
  if (st != CN_OK)
    return st;
  int32_t ax[CN_MAX_DIMS], nax = naxes == CN_ALL_AXES ? f->ndim : naxes;
  for (int32_t i = 0; i < nax; i++) {
    if (naxes == CN_ALL_AXES)
      ax[i] = i;
    else if ((st = cn_normalize_axis(&ax[i], axes[i], f->ndim, fn)) != CN_OK)
      return st;
  }
  if (cap < nax)
    return cn_error(CN_ERR_VALUE, "%s: room for %d outputs, %d axes", fn,
                    (int)cap, (int)nax);
  bool shared = nspacing == 1 && spacing[0]->ndim == 0;
  if (nspacing != 0 && !shared && nspacing != nax)
    return cn_error(CN_ERR_VALUE,
                    "%s: invalid number of spacings (%d for %d axes)", fn,
                    (int)nspacing, (int)nax);
  bool cplx = cn_is_complex(f->dtype);
  for (int32_t i = 0; i < nspacing; i++)
    cplx = cplx || cn_is_complex(spacing[i]->dtype);
  cn_dtype rdt = cn_is_float(f->dtype) || cn_is_complex(f->dtype)
                     ? f->dtype
                     : CN_FLOAT64;
  for (int32_t i = 0; i < nax; i++)
    if (f->shape[ax[i]] < edge_order + 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: shape of array too small to calculate a numerical "
                      "gradient, at least (edge_order + 1) elements are "
                      "required (axis %d has %" PRId64 ")",
                      fn, (int)ax[i], f->shape[ax[i]]);
  cn_array_s *res[CN_MAX_DIMS] = {0};
  for (int32_t i = 0; st == CN_OK && i < nax; i++) {
    const cn_array_s *d =
        nspacing == 0 ? NULL : spacing[shared ? 0 : i];
    axis_spacing sp;
    st = spacing_make(&sp, d, f->shape[ax[i]], i, fn);
    if (st == CN_OK)
      st = gradient_axis(&res[i], f, ax[i], &sp, edge_order, cplx, rdt, fn);
    free(sp.steps);
  }
  if (st != CN_OK) {
    for (int32_t i = 0; i < nax; i++)
      cn_array_release(res[i]);
    return st;
  }
  for (int32_t i = 0; i < nax; i++)
    outs[i] = res[i];
  *nout = nax;
  return CN_OK;
}
