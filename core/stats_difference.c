/* Ranges, discrete differences, gradients and trapezoidal integrals
 * (include/cunumpy/stats.h), as NumPy writes them: views along the axis and
 * elementwise ops and reductions in NumPy's dtypes, so they run where the
 * data lives on every backend. */
#include "cunumpy/stats.h"

#include <inttypes.h>
#include "complex_compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/manip.h"
#include "cunumpy/reduce.h"
#include "cunumpy/view.h"
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
  if (n == 0) {
    st = cn_copy(out, a, CN_ORDER_C);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  cn_array_s *cur = a;
  cn_array_retain(a);
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

/* ---- gradient ------------------------------------------------------------
 * NumPy's algorithm over views of f along the axis: second-order central
 * differences inside (non-uniform ones for coordinates), one-sided ones of
 * edge_order at the ends, each written into its slice of the result. The
 * arithmetic is NumPy's: in f's dtype with a Python-scalar (weak) spacing,
 * promoted with a typed one, the coefficients of a weak spacing computed
 * in double as Python does. */

/* Temporaries of one computation, released together; the first error
 * sticks and makes every later step a no-op. */
#define TMP_CAP 256
typedef struct tmp_set {
  cn_array_s *t[TMP_CAP];
  int n;
  cn_status st;
  const cn_array_s *like; /* the data: weak scalars are made on its device */
} tmp_set;

static cn_array_s *tmp_keep(tmp_set *T, cn_status st, cn_array_s *r) {
  if (T->st != CN_OK)
    return NULL;
  if (st != CN_OK) {
    T->st = st;
    return NULL;
  }
  if (T->n == TMP_CAP) {
    cn_array_release(r);
    T->st = cn_error(CN_ERR_INTERNAL, "too many temporaries");
    return NULL;
  }
  T->t[T->n++] = r;
  return r;
}

static void tmp_free(tmp_set *T) {
  for (int i = 0; i < T->n; i++)
    cn_array_release(T->t[i]);
  T->n = 0;
}

typedef cn_status (*binary_fn)(cn_array *, cn_array, cn_array, cn_array);

static cn_array_s *t_bin(tmp_set *T, binary_fn op, cn_array_s *x,
                         cn_array_s *y) {
  if (T->st != CN_OK)
    return NULL;
  cn_array_s *r = NULL;
  cn_status st = op(&r, x, y, NULL);
  return tmp_keep(T, st, r);
}

static cn_array_s *t_neg(tmp_set *T, cn_array_s *x) {
  if (T->st != CN_OK)
    return NULL;
  cn_array_s *r = NULL;
  cn_status st = cn_negative(&r, x, NULL);
  return tmp_keep(T, st, r);
}

/* A weak (Python) float, or complex when cplx, on the device of T->like. */
static cn_array_s *t_weak(tmp_set *T, double complex v, bool cplx) {
  if (T->st != CN_OK)
    return NULL;
  cn_array_s *r = NULL;
  cn_status st = cn_weak_scalar_like(
      &r, cplx ? cn_scalar_complex(creal(v), cimag(v))
               : cn_scalar_float(creal(v)),
      T->like);
  return tmp_keep(T, st, r);
}

/* a[start:stop] along ax (a view). */
static cn_array_s *t_slice(tmp_set *T, cn_array_s *a, int32_t ax,
                           int64_t start, int64_t stop) {
  if (T->st != CN_OK)
    return NULL;
  cn_array_s *r = NULL;
  cn_status st = cn_slice_axis(&r, a, ax, start, stop, 1);
  return tmp_keep(T, st, r);
}

/* a[..., i, ...] along ax (a view without that axis). */
static cn_array_s *t_at(tmp_set *T, cn_array_s *a, int32_t ax, int64_t i) {
  if (T->st != CN_OK)
    return NULL;
  cn_array_s *r = NULL;
  cn_status st = cn_index_axis(&r, a, ax, i);
  return tmp_keep(T, st, r);
}

/* dst[...] = v (NumPy's unsafe setitem cast). */
static void t_store(tmp_set *T, cn_array_s *dst, cn_array_s *v) {
  if (T->st == CN_OK)
    T->st = cn_assign(dst, v);
}

/* Whether op(x, y) computes in dt: x has it, y has it or is a weak scalar
 * that dt absorbs (NEP 50). */
static bool keeps_dtype(const cn_array_s *x, const cn_array_s *y, cn_dtype dt) {
  if (x->dtype != dt)
    return false;
  if (y->dtype == dt)
    return true;
  if (!(y->flags & CN_FLAG_WEAK_SCALAR))
    return false;
  return cn_is_complex(dt) || (cn_is_float(dt) && y->weak.kind != CN_SCALAR_COMPLEX);
}

/* dst[...] = op(x, y), written straight into dst when that computes in
 * dst's dtype (the values NumPy's temporary would hold), else through a
 * temporary. */
static void t_bin_into(tmp_set *T, binary_fn op, cn_array_s *dst,
                       cn_array_s *x, cn_array_s *y) {
  if (T->st != CN_OK)
    return;
  if (keeps_dtype(x, y, dst->dtype)) {
    cn_array_s *r = NULL;
    T->st = op(&r, x, y, dst);
    cn_array_release(r);
    return;
  }
  t_store(T, dst, t_bin(T, op, x, y));
}

/* One axis' spacing: h (0-d: weak or typed) for uniform steps, else the
 * n - 1 coordinate steps dx. */
typedef struct axis_spacing {
  cn_array_s *h;
  cn_array_s *dx;
} axis_spacing;

static bool is_weak(const cn_array_s *a) {
  return (a->flags & CN_FLAG_WEAK_SCALAR) != 0;
}

static double complex weak_value(const cn_array_s *a) {
  switch (a->weak.kind) {
  case CN_SCALAR_BOOL:
  case CN_SCALAR_INT:
    return (double)a->weak.i;
  case CN_SCALAR_UINT:
    return (double)(uint64_t)a->weak.i;
  case CN_SCALAR_FLOAT:
    return a->weak.re;
  default:
    return CMPLX(a->weak.re, a->weak.im);
  }
}

/* Python's complex division (Smith's method, as CPython's _Py_c_quot),
 * for the coefficients of a weak complex spacing. */
static double complex py_cdiv(double complex a, double complex b) {
  double br = creal(b), bi = cimag(b), ar = creal(a), ai = cimag(a);
  if (fabs(br) >= fabs(bi)) {
    if (br == 0)
      return CMPLX(ar / br, ai / br); /* Python raises; infinities here */
    double ratio = bi / br, denom = br + bi * ratio;
    return CMPLX((ar + ai * ratio) / denom, (ai - ar * ratio) / denom);
  }
  if (fabs(bi) >= fabs(br)) {
    double ratio = br / bi, denom = br * ratio + bi;
    return CMPLX((ar * ratio + ai) / denom, (ai * ratio - ar) / denom);
  }
  return CMPLX(NAN, NAN);
}

/* num / h (or num * h), as Python computes it for a weak h and as NumPy's
 * ufuncs do for a typed one. */
static cn_array_s *t_over_h(tmp_set *T, double num, cn_array_s *h, bool mul) {
  if (T->st != CN_OK)
    return NULL;
  if (is_weak(h)) {
    double complex v = weak_value(h);
    bool cplx = h->weak.kind == CN_SCALAR_COMPLEX;
    double complex r = mul    ? num * v
                       : cplx ? py_cdiv(num, v)
                              : CMPLX(num / creal(v), 0);
    return t_weak(T, r, cplx);
  }
  return t_bin(T, mul ? cn_multiply : cn_divide, t_weak(T, num, false), h);
}

static cn_status spacing_make(axis_spacing *sp, tmp_set *T, cn_array_s *d,
                              int64_t n, int32_t i, const char *fn) {
  memset(sp, 0, sizeof *sp);
  if (!d) {
    sp->h = t_weak(T, 1.0, false); /* NumPy's default spacing 1.0 */
    return T->st;
  }
  if (d->ndim > 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: distances must be either scalars or 1d (spacing %d "
                    "is %d-d)",
                    fn, (int)i, (int)d->ndim);
  if (d->ndim == 0) {
    sp->h = d;
    return CN_OK;
  }
  if (d->size != n)
    return cn_error(CN_ERR_VALUE,
                    "%s: when 1d, distances must match the length of the "
                    "corresponding dimension (spacing %d has %" PRId64
                    " values, the axis %" PRId64 ")",
                    fn, (int)i, d->size, n);
  /* integer coordinates in float64, as NumPy (no modular differences) */
  cn_array_s *c = d;
  if (cn_is_integer(d->dtype)) {
    cn_array_s *r = NULL;
    cn_status st = cn_astype(&r, d, CN_FLOAT64, 1);
    c = tmp_keep(T, st, r);
  }
  cn_array_s *dx =
      t_bin(T, cn_subtract, t_slice(T, c, 0, 1, n), t_slice(T, c, 0, 0, n - 1));
  if (T->st != CN_OK)
    return T->st;
  /* constant steps take the uniform formulas (h = dx[0], typed) */
  cn_array_s *first = t_at(T, dx, 0, 0);
  cn_array_s *eq = t_bin(T, cn_equal, dx, first), *all = NULL;
  if (T->st == CN_OK) {
    cn_status st = cn_all(&all, eq, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
    tmp_keep(T, st, all);
  }
  cn_scalar v = {0};
  if (T->st == CN_OK)
    T->st = cn_item(&v, all);
  if (T->st != CN_OK)
    return T->st;
  if (v.i != 0)
    sp->h = first;
  else
    sp->dx = dx;
  return CN_OK;
}

/* The gradient of f along ax into out (f's shape, the result dtype). */
static cn_status gradient_axis(cn_array_s *out, cn_array_s *f, int32_t ax,
                               const axis_spacing *sp, int32_t edge_order,
                               tmp_set *T) {
  int64_t n = f->shape[ax];
  cn_array_s *o_in = t_slice(T, out, ax, 1, n - 1);
  cn_array_s *f2 = t_slice(T, f, ax, 0, n - 2);
  cn_array_s *f3 = t_slice(T, f, ax, 1, n - 1);
  cn_array_s *f4 = t_slice(T, f, ax, 2, n);
  if (T->st != CN_OK)
    return T->st;
  if (sp->h) {
    /* (f[2:] - f[:-2]) / (2. * h) */
    cn_array_s *h2 = t_over_h(T, 2.0, sp->h, true);
    if (f->dtype == out->dtype) {
      t_bin_into(T, cn_subtract, o_in, f4, f2);
      t_bin_into(T, cn_divide, o_in, o_in, h2);
    } else {
      t_store(T, o_in, t_bin(T, cn_divide, t_bin(T, cn_subtract, f4, f2), h2));
    }
  } else {
    cn_array_s *dx1 = t_slice(T, sp->dx, 0, 0, n - 2);
    cn_array_s *dx2 = t_slice(T, sp->dx, 0, 1, n - 1);
    cn_array_s *s12 = t_bin(T, cn_add, dx1, dx2);
    cn_array_s *a = t_bin(T, cn_divide, t_neg(T, dx2),
                          t_bin(T, cn_multiply, dx1, s12));
    cn_array_s *b = t_bin(T, cn_divide, t_bin(T, cn_subtract, dx2, dx1),
                          t_bin(T, cn_multiply, dx1, dx2));
    cn_array_s *c = t_bin(T, cn_divide, dx1, t_bin(T, cn_multiply, dx2, s12));
    /* the coefficients along ax, broadcasting over the other axes */
    int64_t sh[CN_MAX_DIMS];
    for (int32_t d = 0; d < f->ndim; d++)
      sh[d] = d == ax ? n - 2 : 1;
    cn_array_s *coef[3] = {a, b, c};
    for (int k = 0; k < 3 && T->st == CN_OK; k++) {
      cn_array_s *r = NULL;
      cn_status st = cn_reshape(&r, coef[k], f->ndim, sh, CN_ORDER_C);
      coef[k] = tmp_keep(T, st, r);
    }
    if (T->st != CN_OK)
      return T->st;
    /* a * f[:-2] + b * f[1:-1] + c * f[2:] */
    cn_array_s *acc =
        t_bin(T, cn_add,
              t_bin(T, cn_add, t_bin(T, cn_multiply, coef[0], f2),
                    t_bin(T, cn_multiply, coef[1], f3)),
              t_bin(T, cn_multiply, coef[2], f4));
    t_store(T, o_in, acc);
  }
  cn_array_s *o0 = t_at(T, out, ax, 0), *on = t_at(T, out, ax, n - 1);
  if (edge_order == 1) {
    cn_array_s *h0 = sp->h ? sp->h : t_at(T, sp->dx, 0, 0);
    cn_array_s *hn = sp->h ? sp->h : t_at(T, sp->dx, 0, n - 2);
    t_store(T, o0,
            t_bin(T, cn_divide,
                  t_bin(T, cn_subtract, t_at(T, f, ax, 1), t_at(T, f, ax, 0)),
                  h0));
    t_store(T, on,
            t_bin(T, cn_divide,
                  t_bin(T, cn_subtract, t_at(T, f, ax, n - 1),
                        t_at(T, f, ax, n - 2)),
                  hn));
    return T->st;
  }
  cn_array_s *c0[3], *cn[3];
  if (sp->h) {
    c0[0] = t_over_h(T, -1.5, sp->h, false);
    c0[1] = t_over_h(T, 2.0, sp->h, false);
    c0[2] = t_over_h(T, -0.5, sp->h, false);
    cn[0] = t_over_h(T, 0.5, sp->h, false);
    cn[1] = t_over_h(T, -2.0, sp->h, false);
    cn[2] = t_over_h(T, 1.5, sp->h, false);
  } else {
    cn_array_s *d1 = t_at(T, sp->dx, 0, 0), *d2 = t_at(T, sp->dx, 0, 1);
    cn_array_s *s = t_bin(T, cn_add, d1, d2);
    cn_array_s *p = t_bin(T, cn_multiply, d1, d2);
    /* -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2)), (dx1 + dx2) / (dx1 * dx2),
     * -dx1 / (dx2 * (dx1 + dx2)) */
    c0[0] = t_bin(T, cn_divide,
                  t_neg(T, t_bin(T, cn_add,
                                 t_bin(T, cn_multiply, t_weak(T, 2.0, false), d1),
                                 d2)),
                  t_bin(T, cn_multiply, d1, s));
    c0[1] = t_bin(T, cn_divide, s, p);
    c0[2] = t_bin(T, cn_divide, t_neg(T, d1), t_bin(T, cn_multiply, d2, s));
    d1 = t_at(T, sp->dx, 0, n - 3);
    d2 = t_at(T, sp->dx, 0, n - 2);
    s = t_bin(T, cn_add, d1, d2);
    /* dx2 / (dx1 * (dx1 + dx2)), -(dx2 + dx1) / (dx1 * dx2),
     * (2. * dx2 + dx1) / (dx2 * (dx1 + dx2)) */
    cn[0] = t_bin(T, cn_divide, d2, t_bin(T, cn_multiply, d1, s));
    cn[1] = t_bin(T, cn_divide, t_neg(T, t_bin(T, cn_add, d2, d1)),
                  t_bin(T, cn_multiply, d1, d2));
    cn[2] = t_bin(T, cn_divide,
                  t_bin(T, cn_add,
                        t_bin(T, cn_multiply, t_weak(T, 2.0, false), d2), d1),
                  t_bin(T, cn_multiply, d2, s));
  }
  /* a * f[0] + b * f[1] + c * f[2]; a * f[-3] + b * f[-2] + c * f[-1] */
  t_store(T, o0,
          t_bin(T, cn_add,
                t_bin(T, cn_add, t_bin(T, cn_multiply, c0[0], t_at(T, f, ax, 0)),
                      t_bin(T, cn_multiply, c0[1], t_at(T, f, ax, 1))),
                t_bin(T, cn_multiply, c0[2], t_at(T, f, ax, 2))));
  t_store(T, on,
          t_bin(T, cn_add,
                t_bin(T, cn_add,
                      t_bin(T, cn_multiply, cn[0], t_at(T, f, ax, n - 3)),
                      t_bin(T, cn_multiply, cn[1], t_at(T, f, ax, n - 2))),
                t_bin(T, cn_multiply, cn[2], t_at(T, f, ax, n - 1))));
  return T->st;
}

/* The gradients of f (bool refused, integers as float64) along nax axes,
 * spacing[k] the spacing of the k-th (NULL: 1.0), in res. */
static cn_status gradient_run(cn_array_s **res, cn_array_s *f, int32_t nax,
                              const int32_t *ax, cn_array_s *const *spacing,
                              int32_t edge_order, const char *fn) {
  tmp_set T = {.n = 0, .st = CN_OK, .like = f};
  cn_dtype otype =
      cn_is_float(f->dtype) || cn_is_complex(f->dtype) ? f->dtype : CN_FLOAT64;
  cn_array_s *ff = f;
  if (f->dtype != otype) {
    cn_array_s *r = NULL;
    cn_status st = cn_astype(&r, f, otype, 1);
    ff = tmp_keep(&T, st, r);
  }
  for (int32_t i = 0; T.st == CN_OK && i < nax; i++) {
    axis_spacing sp;
    cn_status st = spacing_make(&sp, &T, spacing[i], f->shape[ax[i]], i, fn);
    if (st != CN_OK) {
      if (T.st == CN_OK)
        T.st = st;
      break;
    }
    st = cn_empty_like(&res[i], ff, otype);
    if (st != CN_OK) {
      T.st = st;
      break;
    }
    gradient_axis(res[i], ff, ax[i], &sp, edge_order, &T);
  }
  cn_status st = T.st;
  tmp_free(&T);
  if (st != CN_OK) {
    for (int32_t i = 0; i < nax; i++) {
      cn_array_release(res[i]);
      res[i] = NULL;
    }
    return cn_error_prefix(st, fn);
  }
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
  cn_array_s *h = NULL, *res = NULL;
  if ((st = cn_weak_scalar_like(&h, cn_scalar_float(dx), a)) != CN_OK)
    return cn_error_prefix(st, fn);
  /* bool values count as 0 and 1 here (NumPy's gradient refuses them) */
  st = gradient_run(&res, a, 1, &ax, &h, edge_order, fn);
  cn_array_release(h);
  if (st != CN_OK)
    return st;
  *out = res;
  return CN_OK;
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
  for (int32_t i = 0; i < nax; i++)
    if (f->shape[ax[i]] < edge_order + 1)
      return cn_error(CN_ERR_VALUE,
                      "%s: shape of array too small to calculate a numerical "
                      "gradient, at least (edge_order + 1) elements are "
                      "required (axis %d has %" PRId64 ")",
                      fn, (int)ax[i], f->shape[ax[i]]);
  cn_array_s *sps[CN_MAX_DIMS] = {0}, *res[CN_MAX_DIMS] = {0};
  for (int32_t i = 0; i < nax; i++)
    sps[i] = nspacing == 0 ? NULL : spacing[shared ? 0 : i];
  if ((st = gradient_run(res, f, nax, ax, sps, edge_order, fn)) != CN_OK)
    return st;
  for (int32_t i = 0; i < nax; i++)
    outs[i] = res[i];
  *nout = nax;
  return CN_OK;
}

/* ---- trapezoid ------------------------------------------------------------
 * NumPy's (d * (y[1:] + y[:-1]) / 2.0).sum(axis) with d the weak dx or
 * diff(x): neighbouring bools add as a logical or, integers wrap as
 * NumPy's, the dtypes are NumPy's (float64 for integer y, float32 and
 * complex64 kept). */

static bool cn_is_inexact(cn_dtype dt) {
  return cn_is_float(dt) || cn_is_complex(dt);
}

/* op(x, y), in place in x when x is a temporary of the result's dtype. */
static cn_array_s *t_bin_own(tmp_set *T, binary_fn op, cn_array_s *x,
                             cn_array_s *y) {
  if (T->st != CN_OK)
    return NULL;
  if (!keeps_dtype(x, y, x->dtype) || !cn_is_inexact(x->dtype))
    return t_bin(T, op, x, y);
  cn_array_s *r = NULL;
  T->st = op(&r, x, y, x);
  cn_array_release(r);
  return T->st == CN_OK ? x : NULL;
}

cn_status cn_trapezoid(cn_array *out, cn_array y, cn_array x, double dx,
                       int32_t axis) {
  const char *fn = "cn_trapezoid";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(y, fn, "y");
  if (x)
    CN_CHECK_ARRAY(x, fn, "x");
  /* a 0-d y has no axis to integrate along (CN_ERR_AXIS) */
  int32_t ax;
  cn_status st = cn_normalize_axis(&ax, axis, y->ndim, fn);
  if (st != CN_OK)
    return st;
  int64_t n = y->shape[ax];
  if (x && (x->ndim != 1 || x->size != n))
    return cn_error(CN_ERR_SHAPE,
                    "%s: x must be 1-d with the axis' length %" PRId64
                    ", got %" PRId64 " elements",
                    fn, n, x->size);
  tmp_set T = {.n = 0, .st = CN_OK, .like = y};
  int64_t m = n > 0 ? n - 1 : 0;
  cn_array_s *d = NULL;
  if (!x) {
    d = t_weak(&T, dx, false);
  } else {
    /* diff(x) (a logical xor for bools), along ax */
    cn_array_s *x1 = t_slice(&T, x, 0, n > 0 ? 1 : 0, n);
    cn_array_s *x0 = t_slice(&T, x, 0, 0, m);
    d = t_bin(&T, x->dtype == CN_BOOL ? cn_not_equal : cn_subtract, x1, x0);
    int64_t sh[CN_MAX_DIMS];
    for (int32_t k = 0; k < y->ndim; k++)
      sh[k] = k == ax ? m : 1;
    if (T.st == CN_OK) {
      cn_array_s *r = NULL;
      st = cn_reshape(&r, d, y->ndim, sh, CN_ORDER_C);
      d = tmp_keep(&T, st, r);
    }
  }
  cn_array_s *s = t_bin(&T, cn_add, t_slice(&T, y, ax, n > 0 ? 1 : 0, n),
                        t_slice(&T, y, ax, 0, m));
  /* d * s / 2.0: the product in s when d keeps its dtype */
  cn_array_s *p = T.st == CN_OK && keeps_dtype(s, d, s->dtype) &&
                          cn_is_inexact(s->dtype)
                      ? t_bin_own(&T, cn_multiply, s, d)
                      : t_bin(&T, cn_multiply, d, s);
  /* halving is exact in binary floating point (short of subnormals), so
   * the sum is halved once instead of every term */
  cn_array_s *sum = NULL, *r = NULL;
  if (T.st == CN_OK) {
    st = cn_sum(&sum, p, 1, &ax, 0, CN_DTYPE_DEFAULT, NULL);
    tmp_keep(&T, st, sum);
  }
  cn_array_s *two = t_weak(&T, 2.0, false);
  if (T.st == CN_OK)
    T.st = cn_divide(&r, sum, two, NULL);
  st = T.st;
  tmp_free(&T);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = r;
  return CN_OK;
}
