/* NumPy's poly1d-style polynomial functions (include/cunumpy/poly.h).
 * NumPy composes them from array operations whose dtype and rounding rules
 * they inherit; the host loops here repeat those operations in the same
 * dtypes and order (float32 stays float32, integers wrap, complex products
 * and quotients with NumPy's formulas). Fits and roots go through the
 * engine's lstsq, inv and eigvals. */
#include "cunumpy/poly.h"

#include "complex_compat.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/linalg.h"
#include "cunumpy/manip.h"
#include "cunumpy/stats.h"
#include "cunumpy/ufunc.h"
#include "cunumpy/view.h"
#include "stats_util.h"

/* ---- NumPy's complex arithmetic ------------------------------------------- */

/* The textbook product and Smith's quotient, as NumPy's multiply and
 * divide loops compute them (no C Annex G recovery of infinities). */
#define NUMPY_COMPLEX_OPS(T, R, MAKE, RE, IM, SUFFIX)                          \
  static inline T cmul##SUFFIX(T a, T b) {                                     \
    return MAKE(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b)); \
  }                                                                            \
  static inline T cdiv##SUFFIX(T a, T b) {                                     \
    R ar = RE(a), ai = IM(a), br = RE(b), bi = IM(b);                          \
    R abr = br < 0 ? -br : br, abi = bi < 0 ? -bi : bi;                        \
    if (abr >= abi) {                                                          \
      if (abr == 0 && abi == 0)                                                \
        return MAKE(ar / abr, ai / abr);                                       \
      R rat = bi / br, scl = (R)1.0 / (br + bi * rat);                         \
      return MAKE((ar + ai * rat) * scl, (ai - ar * rat) * scl);               \
    }                                                                          \
    R rat = br / bi, scl = (R)1.0 / (bi + br * rat);                           \
    return MAKE((ar * rat + ai) * scl, (ai * rat - ar) * scl);                 \
  }
NUMPY_COMPLEX_OPS(float complex, float, CMPLXF, crealf, cimagf, _f)
NUMPY_COMPLEX_OPS(double complex, double, CMPLX, creal, cimag, _)

/* ---- argument shapes -------------------------------------------------------- */

/* a as a 1-d view (atleast_1d); CN_ERR_VALUE for rank > 1. */
static cn_status as_1d(cn_array_s **out, const cn_array_s *a, const char *fn,
                       const char *arg) {
  if (a->ndim > 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' must be a 1-d coefficient array, got "
                    "%d dimensions",
                    fn, arg, (int)a->ndim);
  if (a->ndim == 1) {
    cn_array_retain((cn_array)a);
    *out = (cn_array_s *)a;
    return CN_OK;
  }
  int64_t one = 1;
  return cn_reshape(out, (cn_array)a, 1, &one, CN_ORDER_C);
}

/* NumPy's len(p) of an iterated coefficient array: 1-d only. */
static cn_status require_1d(const cn_array_s *p, const char *fn,
                            const char *arg) {
  if (p->ndim == 0)
    return cn_error(CN_ERR_TYPE, "%s: argument '%s' is 0-d (len() of unsized "
                    "object)", fn, arg);
  if (p->ndim > 1)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument '%s' must be a 1-d coefficient array, got "
                    "%d dimensions",
                    fn, arg, (int)p->ndim);
  return CN_OK;
}

/* A host copy of a in dtype that the caller may write (cn_host_as may
 * hand back a itself). */
static cn_status host_owned_as(cn_array_s **out, const cn_array_s *a,
                               cn_dtype dtype) {
  cn_array_s *h = NULL;
  cn_status st = cn_host_as(&h, a, dtype);
  if (st != CN_OK)
    return st;
  st = cn_copy(out, h, CN_ORDER_C);
  cn_array_release(h);
  return st;
}

/* The floating dtype NumPy's "a + 0.0" gives. */
static cn_dtype inexact_of(cn_dtype dt) {
  return cn_is_float(dt) || cn_is_complex(dt) ? dt : CN_FLOAT64;
}

/* ---- evaluation --------------------------------------------------------------- */

#define HORNER(T, MUL)                                                         \
  do {                                                                         \
    const T *c = (const T *)hp->data, *xv = (const T *)hx->data;               \
    T *y = (T *)r->data;                                                       \
    for (int64_t i = 0; i < r->size; i++) {                                    \
      T acc = 0;                                                               \
      for (int64_t k = 0; k < np; k++)                                         \
        acc = MUL(acc, xv[i]) + c[k];                                          \
      y[i] = acc;                                                              \
    }                                                                          \
  } while (0)
#define RMUL(a, b) ((a) * (b))
/* integers wrap as NumPy's do: the ring modulo 2**64 truncates to any
 * narrower width */
#define UMUL(a, b) ((uint64_t)(a) * (uint64_t)(b))

cn_status cn_polyval(cn_array *out, cn_array p, cn_array x) {
  const char *fn = "cn_polyval";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(p, fn, "p");
  CN_CHECK_ARRAY(x, fn, "x");
  cn_status st = require_1d(p, fn, "p");
  if (st != CN_OK)
    return st;
  int64_t np = p->size;
  cn_dtype rt = x->dtype;
  if (np > 0 && (st = cn_result_type(&rt, p->dtype, x->dtype)) != CN_OK)
    return st;
  /* bools: y * x + c is (y and x) or c, which the integer loop computes
   * exactly (no value exceeds the number of coefficients) */
  cn_dtype wt = cn_is_integer(rt) || rt == CN_BOOL ? CN_UINT64 : rt;
  /* float16 runs in float32, rounded once at the end (NumPy rounds after
   * every step: results may differ in the last float16 bit) */
  if (wt == CN_FLOAT16)
    wt = CN_FLOAT32;
  cn_array_s *hp = NULL, *hx = NULL, *r = NULL;
  st = cn_host_as(&hp, p, wt);
  if (st == CN_OK)
    st = cn_host_as(&hx, x, wt);
  if (st == CN_OK)
    st = cn_host_new(&r, wt, x->ndim, x->shape);
  if (st == CN_OK) {
    switch (wt) {
    case CN_UINT64: HORNER(uint64_t, UMUL); break;
    case CN_FLOAT32: HORNER(float, RMUL); break;
    case CN_FLOAT64: HORNER(double, RMUL); break;
    case CN_COMPLEX64: HORNER(float complex, cmul_f); break;
    default: HORNER(double complex, cmul_); break;
    }
  }
  cn_array_release(hp);
  cn_array_release(hx);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  /* bools: a count is true when nonzero, as the cast gives */
  return cn_result_to(out, r, x, rt);
}

/* ---- arithmetic ------------------------------------------------------------- */

/* a1 and a2 as 1-d arrays of one length, the shorter with leading zeros. */
static cn_status padded_pair(cn_array_s **o1, cn_array_s **o2,
                             const cn_array_s *a1, const cn_array_s *a2,
                             const char *fn) {
  cn_array_s *b1 = NULL, *b2 = NULL;
  cn_status st = as_1d(&b1, a1, fn, "a1");
  if (st == CN_OK)
    st = as_1d(&b2, a2, fn, "a2");
  if (st == CN_OK && b1->size != b2->size) {
    cn_array_s **shorter = b1->size < b2->size ? &b1 : &b2;
    int64_t width[2] = {b1->size < b2->size ? b2->size - b1->size
                                            : b1->size - b2->size,
                        0};
    cn_array_s *padded = NULL;
    st = cn_pad(&padded, *shorter, width, CN_PAD_CONSTANT, cn_scalar_int(0));
    cn_array_release(*shorter);
    *shorter = padded;
  }
  if (st != CN_OK) {
    cn_array_release(b1);
    cn_array_release(b2);
    return st;
  }
  *o1 = b1;
  *o2 = b2;
  return CN_OK;
}

static cn_status poly_binary(cn_array *out, cn_array a1, cn_array a2,
                             bool subtract, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a1, fn, "a1");
  CN_CHECK_ARRAY(a2, fn, "a2");
  cn_array_s *b1 = NULL, *b2 = NULL;
  cn_status st = padded_pair(&b1, &b2, a1, a2, fn);
  if (st != CN_OK)
    return st;
  st = subtract ? cn_subtract(out, b1, b2, NULL) : cn_add(out, b1, b2, NULL);
  cn_array_release(b1);
  cn_array_release(b2);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

cn_status cn_polyadd(cn_array *out, cn_array a1, cn_array a2) {
  return poly_binary(out, a1, a2, false, "cn_polyadd");
}

cn_status cn_polysub(cn_array *out, cn_array a1, cn_array a2) {
  return poly_binary(out, a1, a2, true, "cn_polysub");
}

/* a without leading zeros as numpy.poly1d keeps it: a 1-d view, or [0] of
 * a's dtype when nothing is left. */
static cn_status trim_leading(cn_array_s **out, const cn_array_s *a,
                              const char *fn, const char *arg) {
  cn_array_s *b = NULL, *h = NULL;
  cn_status st = as_1d(&b, a, fn, arg);
  if (st == CN_OK)
    st = cn_host_as(&h, b, CN_COMPLEX128);
  int64_t first = 0;
  if (st == CN_OK) {
    const double complex *v = (const double complex *)h->data;
    while (first < h->size && v[first] == 0)
      first++;
  }
  cn_array_release(h);
  if (st == CN_OK && first == b->size) {
    int64_t width[2] = {1, 0};
    cn_array_s *empty = NULL, *zero = NULL;
    st = cn_slice_axis(&empty, b, 0, 0, 0, 1);
    if (st == CN_OK)
      st = cn_pad(&zero, empty, width, CN_PAD_CONSTANT, cn_scalar_int(0));
    cn_array_release(empty);
    cn_array_release(b);
    b = zero;
  } else if (st == CN_OK && first > 0) {
    cn_array_s *rest = NULL;
    st = cn_slice_axis(&rest, b, 0, first, b->size, 1);
    cn_array_release(b);
    b = rest;
  }
  if (st != CN_OK) {
    cn_array_release(b);
    return st;
  }
  *out = b;
  return CN_OK;
}

cn_status cn_polymul(cn_array *out, cn_array a1, cn_array a2) {
  const char *fn = "cn_polymul";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a1, fn, "a1");
  CN_CHECK_ARRAY(a2, fn, "a2");
  cn_array_s *t1 = NULL, *t2 = NULL;
  cn_status st = trim_leading(&t1, a1, fn, "a1");
  if (st == CN_OK)
    st = trim_leading(&t2, a2, fn, "a2");
  if (st == CN_OK)
    st = cn_convolve(out, t1, t2, CN_CONV_FULL);
  cn_array_release(t1);
  cn_array_release(t2);
  return st;
}

/* ---- division ---------------------------------------------------------------- */

/* NumPy's allclose(r0, 0, rtol=1e-14): |r0| <= 1e-8, finite. */
static bool near_zero(double complex v) {
  double a = cabs(v);
  return isfinite(a) && a <= 1e-8;
}

/* q, r over T with scale = 1 / v[0] computed in v's own type S first. */
#define POLYDIV(T, S, MUL, DIVS)                                               \
  do {                                                                         \
    const T *vv = (const T *)hv->data;                                         \
    T *qq = (T *)hq->data, *rr = (T *)hr->data;                                \
    T scale = (T)DIVS((S)1, ((const S *)hvs->data)[0]);                        \
    for (int64_t k = 0; k <= m - n; k++) {                                     \
      T d = MUL(scale, rr[k]);                                                 \
      qq[k] = d;                                                               \
      for (int64_t i = 0; i <= n; i++)                                         \
        rr[k + i] -= MUL(d, vv[i]);                                            \
    }                                                                          \
    while (lead < hr->size - 1 && near_zero((double complex)rr[lead]))         \
      lead++;                                                                  \
  } while (0)
#define RDIV(a, b) ((a) / (b))

cn_status cn_polydiv(cn_array *q, cn_array *r, cn_array u, cn_array v) {
  const char *fn = "cn_polydiv";
  CN_CHECK_OUT(q, fn);
  CN_CHECK_OUT(r, fn);
  CN_CHECK_ARRAY(u, fn, "u");
  CN_CHECK_ARRAY(v, fn, "v");
  cn_array_s *bu = NULL, *bv = NULL;
  cn_status st = as_1d(&bu, u, fn, "u");
  if (st == CN_OK)
    st = as_1d(&bv, v, fn, "v");
  if (st == CN_OK && (bu->size == 0 || bv->size == 0))
    st = cn_error(CN_ERR_INDEX, "%s: argument '%s' is empty (index 0 is out "
                  "of bounds)", fn, bu->size == 0 ? "u" : "v");
  cn_dtype vt = bv ? inexact_of(bv->dtype) : CN_FLOAT64, wt = CN_FLOAT64;
  if (st == CN_OK)
    st = cn_result_type(&wt, inexact_of(bu->dtype), vt);
  /* float16 runs in float32 and the results round to float16 */
  const cn_dtype rt = wt;
  if (wt == CN_FLOAT16)
    wt = CN_FLOAT32;
  if (vt == CN_FLOAT16)
    vt = CN_FLOAT32;
  cn_array_s *hr = NULL, *hv = NULL, *hvs = NULL, *hq = NULL;
  int64_t m = bu ? bu->size - 1 : 0, n = bv ? bv->size - 1 : 0;
  int64_t nq = m - n + 1 > 1 ? m - n + 1 : 1, lead = 0;
  if (st == CN_OK)
    st = host_owned_as(&hr, bu, wt);
  if (st == CN_OK)
    st = cn_host_as(&hv, bv, wt);
  if (st == CN_OK)
    st = cn_host_as(&hvs, bv, vt);
  if (st == CN_OK)
    st = cn_host_new(&hq, wt, 1, &nq);
  if (st == CN_OK) {
    memset(hq->data, 0, (size_t)(nq * cn_itemsize(wt)));
    switch (wt) {
    case CN_FLOAT32: POLYDIV(float, float, RMUL, RDIV); break;
    case CN_FLOAT64:
      if (vt == CN_FLOAT32)
        POLYDIV(double, float, RMUL, RDIV);
      else
        POLYDIV(double, double, RMUL, RDIV);
      break;
    case CN_COMPLEX64:
      if (vt == CN_FLOAT32)
        POLYDIV(float complex, float, cmul_f, RDIV);
      else
        POLYDIV(float complex, float complex, cmul_f, cdiv_f);
      break;
    default:
      if (vt == CN_FLOAT32)
        POLYDIV(double complex, float, cmul_, RDIV);
      else if (vt == CN_FLOAT64)
        POLYDIV(double complex, double, cmul_, RDIV);
      else if (vt == CN_COMPLEX64)
        POLYDIV(double complex, float complex, cmul_, cdiv_f);
      else
        POLYDIV(double complex, double complex, cmul_, cdiv_);
      break;
    }
  }
  cn_array_s *rest = NULL;
  if (st == CN_OK)
    st = cn_slice_axis(&rest, hr, 0, lead, hr->size, 1);
  cn_array_s *like = bu;
  cn_array_release(hv);
  cn_array_release(hvs);
  cn_array_release(hr);
  cn_array_release(bv);
  if (st != CN_OK) {
    cn_array_release(hq);
    cn_array_release(bu);
    return st;
  }
  cn_array qo = NULL;
  st = cn_result_to(&qo, hq, like, rt);
  if (st == CN_OK)
    st = cn_result_to(r, rest, like, rt);
  else
    cn_array_release(rest);
  cn_array_release(bu);
  if (st != CN_OK) {
    cn_array_release(qo);
    return st;
  }
  *q = qo;
  return CN_OK;
}

/* ---- derivatives and integrals --------------------------------------------- */

cn_status cn_polyder(cn_array *out, cn_array p, int32_t m) {
  const char *fn = "cn_polyder";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(p, fn, "p");
  if (m < 0)
    return cn_error(CN_ERR_VALUE, "%s: order of derivative must be positive "
                    "(see polyint), got %d", fn, (int)m);
  cn_status st = require_1d(p, fn, "p");
  if (st != CN_OK)
    return st;
  if (m == 0)
    return cn_copy(out, p, CN_ORDER_C);
  /* NumPy multiplies by arange(n, 0, -1), an int64 array */
  cn_dtype rt;
  if ((st = cn_result_type(&rt, p->dtype, CN_INT64)) != CN_OK)
    return st;
  cn_array_s *h = NULL;
  if ((st = host_owned_as(&h, p, rt)) != CN_OK)
    return st;
  int64_t len = h->size;
  for (int32_t level = 0; level < m && len > 0; level++) {
    int64_t n = len - 1;
    for (int64_t i = 0; i < n; i++) {
      int64_t f = n - i;
      if (rt == CN_INT64)
        ((int64_t *)h->data)[i] =
            (int64_t)UMUL(((int64_t *)h->data)[i], f);
      else if (rt == CN_FLOAT64)
        ((double *)h->data)[i] *= (double)f;
      else
        ((double complex *)h->data)[i] =
            cmul_(((double complex *)h->data)[i], CMPLX((double)f, 0.0));
    }
    len = n;
  }
  cn_array_s *d = NULL;
  st = cn_slice_axis(&d, h, 0, 0, len, 1);
  cn_array_release(h);
  if (st != CN_OK)
    return st;
  return cn_result_to(out, d, p, rt);
}

cn_status cn_polyint(cn_array *out, cn_array p, int32_t m, cn_array k) {
  const char *fn = "cn_polyint";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(p, fn, "p");
  if (k)
    CN_CHECK_ARRAY(k, fn, "k");
  if (m < 0)
    return cn_error(CN_ERR_VALUE, "%s: order of integral must be positive "
                    "(see polyder), got %d", fn, (int)m);
  if (k && k->ndim > 1)
    return cn_error(CN_ERR_VALUE, "%s: k must be a scalar or a rank-1 array",
                    fn);
  int64_t nk = k ? k->size : m;
  if (nk < m && !(nk == 1 && m > 1))
    return cn_error(CN_ERR_VALUE, "%s: k must be a scalar or a rank-1 array "
                    "of length 1 or >m", fn);
  if (m == 0) /* NumPy returns p before looking at its length */
    return cn_copy(out, p, CN_ORDER_C);
  cn_status st = require_1d(p, fn, "p");
  if (st != CN_OK)
    return st;
  bool kc = k && cn_is_complex(k->dtype);
  bool cur_c = cn_is_complex(p->dtype);
  cn_dtype rt = cur_c || kc ? CN_COMPLEX128 : CN_FLOAT64;
  int64_t len = p->size + m;
  cn_array_s *hp = NULL, *hk = NULL, *r = NULL;
  st = cn_host_as(&hp, p, CN_COMPLEX128);
  if (st == CN_OK && k)
    st = cn_host_as(&hk, k, CN_COMPLEX128);
  if (st == CN_OK)
    st = cn_host_new(&r, CN_COMPLEX128, 1, &len);
  if (st == CN_OK) {
    double complex *y = (double complex *)r->data;
    const double complex *kv = hk ? (const double complex *)hk->data : NULL;
    memcpy(y, hp->data, sizeof(double complex) * (size_t)p->size);
    int64_t n = p->size;
    for (int32_t level = 0; level < m; level++) {
      /* numpy divides by arange(n, 0, -1): Smith's quotient once the
       * coefficients are complex, the real quotient before */
      for (int64_t i = 0; i < n; i++)
        y[i] = cur_c ? cdiv_(y[i], CMPLX((double)(n - i), 0.0))
                     : CMPLX(creal(y[i]) / (double)(n - i), 0.0);
      double complex c = 0;
      if (kv && nk == 1 && m > 1) /* NumPy's k[0] * ones(m) */
        c = kc ? cmul_(kv[0], CMPLX(1.0, 0.0)) : kv[0];
      else if (kv)
        c = kv[level];
      y[n++] = c;
      cur_c = cur_c || kc;
    }
  }
  cn_array_release(hp);
  cn_array_release(hk);
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  return cn_result_to(out, r, p, rt);
}

/* ---- least-squares fits ----------------------------------------------------- */

/* One NumPy array operation in double (complex) arithmetic, rounded to the
 * array's dtype: for float32 the double result rounds to the float32 one. */
static double complex round_to(double complex v, cn_dtype dt) {
  if (dt == CN_FLOAT32)
    return (float)creal(v);
  if (dt == CN_COMPLEX64)
    return CMPLX((float)creal(v), (float)cimag(v));
  return v;
}
static double complex mul_as(double complex a, double complex b, bool cplx) {
  return cplx ? cmul_(a, b) : creal(a) * creal(b);
}
static double complex div_as(double complex a, double complex b, bool cplx) {
  return cplx ? cdiv_(a, b) : creal(a) / creal(b);
}

/* The scaled, weighted system of polyfit and its solution. lhs (n, order)
 * in x's float dtype and rhs in y's, scale (order). */
typedef struct fit_system {
  cn_array_s *lhs, *rhs, *scale;
  double rcond;
} fit_system;

static void fit_system_free(fit_system *f) {
  cn_array_release(f->lhs);
  cn_array_release(f->rhs);
  cn_array_release(f->scale);
}

static cn_status fit_system_make(fit_system *f, const cn_array_s *x,
                                 const cn_array_s *y, int32_t deg,
                                 double rcond, const cn_array_s *w,
                                 const char *fn) {
  memset(f, 0, sizeof *f);
  if (deg < 0)
    return cn_error(CN_ERR_VALUE, "%s: expected deg >= 0, got %d", fn,
                    (int)deg);
  if (x->ndim != 1)
    return cn_error(CN_ERR_TYPE, "%s: expected 1D vector for x", fn);
  if (x->size == 0)
    return cn_error(CN_ERR_TYPE, "%s: expected non-empty vector for x", fn);
  if (y->ndim < 1 || y->ndim > 2)
    return cn_error(CN_ERR_TYPE, "%s: expected 1D or 2D array for y", fn);
  if (x->shape[0] != y->shape[0])
    return cn_error(CN_ERR_TYPE, "%s: expected x and y to have same length",
                    fn);
  if (w && w->ndim != 1)
    return cn_error(CN_ERR_TYPE, "%s: expected a 1-d array for weights", fn);
  if (w && w->shape[0] != y->shape[0])
    return cn_error(CN_ERR_TYPE, "%s: expected w and y to have the same "
                    "length", fn);
  /* numpy.vander builds in promote_types(x.dtype, int): float64 or
   * complex128; x's own float type only sets the default rcond */
  if (y->dtype == CN_FLOAT16) /* NumPy's lstsq refuses it */
    return cn_error(CN_ERR_TYPE, "%s: array type float16 is unsupported in "
                    "linalg", fn);
  cn_dtype xt = inexact_of(x->dtype), yt = inexact_of(y->dtype);
  cn_dtype eps_t = cn_real_dtype(xt);
  xt = cn_is_complex(xt) ? CN_COMPLEX128 : CN_FLOAT64;
  cn_dtype wt = w ? inexact_of(w->dtype) : CN_FLOAT64;
  if (wt == CN_FLOAT16) /* scales float64 rows: its values, exactly */
    wt = CN_FLOAT64;
  if (w && cn_is_complex(wt) && (!cn_is_complex(xt) || !cn_is_complex(yt)))
    return cn_error(CN_ERR_TYPE, "%s: complex weights cannot scale real x "
                    "or y in place (NumPy's same_kind casting)", fn);
  int64_t n = x->size, order = (int64_t)deg + 1;
  int64_t ncol = y->ndim == 2 ? y->shape[1] : 1;
  bool xc = cn_is_complex(xt), yc = cn_is_complex(yt);
  cn_array_s *hx = NULL, *hw = NULL, *L = NULL, *R = NULL, *S = NULL;
  int64_t lsh[2] = {n, order};
  cn_status st = cn_host_as(&hx, x, CN_COMPLEX128);
  if (st == CN_OK && w)
    st = cn_host_as(&hw, w, CN_COMPLEX128);
  if (st == CN_OK)
    st = cn_host_new(&L, CN_COMPLEX128, 2, lsh);
  if (st == CN_OK)
    st = host_owned_as(&R, y, CN_COMPLEX128);
  if (st == CN_OK)
    st = cn_host_new(&S, CN_COMPLEX128, 1, &order);
  if (st == CN_OK) {
    const double complex *xv = (const double complex *)hx->data;
    const double complex *wv = hw ? (const double complex *)hw->data : NULL;
    double complex *l = (double complex *)L->data;
    double complex *r = (double complex *)R->data;
    double complex *sc = (double complex *)S->data;
    for (int64_t i = 0; i < n; i++) {
      /* vander: x**0 = 1, then running products, highest power first */
      double complex v = 1;
      for (int64_t j = order - 1; j >= 0; j--) {
        l[i * order + j] = v;
        v = round_to(mul_as(v, xv[i], xc), xt);
      }
      if (wv) {
        for (int64_t j = 0; j < order; j++)
          l[i * order + j] =
              round_to(mul_as(l[i * order + j], wv[i], xc), xt);
        for (int64_t k = 0; k < ncol; k++)
          r[i * ncol + k] =
              round_to(mul_as(r[i * ncol + k], wv[i], yc), yt);
      }
    }
    /* scale = sqrt((lhs * lhs).sum(axis=0)), row by row as NumPy sums */
    for (int64_t j = 0; j < order; j++) {
      double complex acc = 0;
      for (int64_t i = 0; i < n; i++)
        acc = round_to(acc + round_to(mul_as(l[i * order + j],
                                             l[i * order + j], xc), xt),
                       xt);
      sc[j] = round_to(xc ? csqrt(acc) : sqrt(creal(acc)), xt);
    }
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < order; j++)
        l[i * order + j] = round_to(div_as(l[i * order + j], sc[j], xc), xt);
  }
  cn_array_release(hx);
  cn_array_release(hw);
  cn_array_s *Lt = NULL, *Rt = NULL;
  if (st == CN_OK)
    st = cn_astype(&Lt, L, xt, 1);
  if (st == CN_OK)
    st = cn_astype(&Rt, R, yt, 1);
  cn_array_release(L);
  cn_array_release(R);
  if (st != CN_OK) {
    cn_array_release(Lt);
    cn_array_release(Rt);
    cn_array_release(S);
    return st;
  }
  double eps = eps_t == CN_FLOAT16   ? 0x1p-10 /* float16's epsilon */
               : eps_t == CN_FLOAT32 ? (double)FLT_EPSILON
                                     : DBL_EPSILON;
  f->lhs = Lt;
  f->rhs = Rt;
  f->scale = S;
  f->rcond = rcond < 0 ? (double)n * eps : rcond;
  return CN_OK;
}

/* c / scale along c's first axis, in c's dtype; replaces *c. */
static cn_status unscale(cn_array_s **c, const fit_system *f) {
  cn_array_s *h = NULL;
  cn_dtype dt = (*c)->dtype;
  bool cplx = cn_is_complex(dt) || cn_is_complex(f->lhs->dtype);
  cn_dtype rt = dt;
  cn_status st = cn_result_type(&rt, dt, f->lhs->dtype);
  if (st == CN_OK)
    st = host_owned_as(&h, *c, CN_COMPLEX128);
  if (st != CN_OK)
    return st;
  int64_t rows = h->ndim ? h->shape[0] : 1;
  int64_t cols = rows ? h->size / rows : 0;
  double complex *v = (double complex *)h->data;
  const double complex *sc = (const double complex *)f->scale->data;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t k = 0; k < cols; k++)
      v[i * cols + k] = round_to(div_as(v[i * cols + k], sc[i], cplx), rt);
  cn_array_s *r = NULL;
  st = cn_astype(&r, h, rt, 1);
  cn_array_release(h);
  if (st != CN_OK)
    return st;
  cn_array_release(*c);
  *c = r;
  return CN_OK;
}

cn_status cn_polyfit(cn_array *coef, cn_array *residuals, cn_array *rank,
                     cn_array *s, cn_array x, cn_array y, int32_t deg,
                     double rcond, cn_array w) {
  const char *fn = "cn_polyfit";
  CN_CHECK_OUT(coef, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(y, fn, "y");
  if (w)
    CN_CHECK_ARRAY(w, fn, "w");
  fit_system f;
  cn_status st = fit_system_make(&f, x, y, deg, rcond, w, fn);
  if (st != CN_OK)
    return st;
  cn_array c = NULL, res = NULL, rk = NULL, sv = NULL;
  st = cn_linalg_lstsq(&c, &res, &rk, &sv, f.lhs, f.rhs, f.rcond);
  if (st == CN_OK)
    st = unscale(&c, &f);
  fit_system_free(&f);
  cn_array outs[4] = {NULL, NULL, NULL, NULL}, ins[4] = {c, res, rk, sv};
  for (int i = 0; i < 4 && st == CN_OK; i++) {
    cn_array_retain(ins[i]);
    st = cn_result_to(&outs[i], ins[i], x, CN_DTYPE_DEFAULT);
  }
  for (int i = 0; i < 4; i++)
    cn_array_release(ins[i]);
  if (st != CN_OK) {
    for (int i = 0; i < 4; i++)
      cn_array_release(outs[i]);
    return st;
  }
  cn_array *dst[4] = {coef, residuals, rank, s};
  for (int i = 0; i < 4; i++) {
    if (dst[i])
      *dst[i] = outs[i];
    else
      cn_array_release(outs[i]);
  }
  return CN_OK;
}

cn_status cn_polyfit_cov(cn_array *coef, cn_array *cov, cn_array x,
                         cn_array y, int32_t deg, double rcond, cn_array w,
                         int32_t unscaled) {
  const char *fn = "cn_polyfit_cov";
  CN_CHECK_OUT(coef, fn);
  CN_CHECK_OUT(cov, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  CN_CHECK_ARRAY(y, fn, "y");
  if (w)
    CN_CHECK_ARRAY(w, fn, "w");
  fit_system f;
  cn_status st = fit_system_make(&f, x, y, deg, rcond, w, fn);
  if (st != CN_OK)
    return st;
  int64_t order = (int64_t)deg + 1;
  if (!unscaled && x->size <= order) {
    fit_system_free(&f);
    return cn_error(CN_ERR_VALUE, "%s: the number of data points must exceed "
                    "order to scale the covariance matrix", fn);
  }
  cn_array c = NULL, res = NULL, lt = NULL, ata = NULL, vb = NULL;
  st = cn_linalg_lstsq(&c, &res, NULL, NULL, f.lhs, f.rhs, f.rcond);
  if (st == CN_OK)
    st = unscale(&c, &f);
  /* Vbase = inv(lhs.T @ lhs) / outer(scale, scale) */
  if (st == CN_OK)
    st = cn_transpose(&lt, f.lhs);
  if (st == CN_OK)
    st = cn_matmul(&ata, lt, f.lhs, NULL);
  if (st == CN_OK)
    st = cn_linalg_inv(&vb, ata);
  cn_array_s *hv = NULL;
  if (st == CN_OK)
    st = host_owned_as(&hv, vb, CN_COMPLEX128);
  cn_dtype vt = vb ? vb->dtype : CN_FLOAT64;
  if (st == CN_OK) {
    bool cplx = cn_is_complex(vt);
    double complex *v = (double complex *)hv->data;
    const double complex *sc = (const double complex *)f.scale->data;
    for (int64_t i = 0; i < order; i++)
      for (int64_t j = 0; j < order; j++)
        v[i * order + j] = round_to(
            div_as(v[i * order + j],
                   round_to(mul_as(sc[i], sc[j], cplx), f.lhs->dtype), cplx),
            vt);
  }
  cn_array_release(lt);
  cn_array_release(ata);
  cn_array_release(vb);
  cn_array vbase = NULL, fac = NULL, cv = NULL;
  if (st == CN_OK)
    st = cn_astype(&vbase, hv, vt, 1);
  cn_array_release(hv);
  if (st == CN_OK && !unscaled) {
    /* fac = resids / (len(x) - order), over Vbase[:, :, None] for 2-d y */
    cn_array_s *hr = NULL;
    st = host_owned_as(&hr, res, CN_COMPLEX128);
    if (st == CN_OK) {
      double complex *rv = (double complex *)hr->data;
      for (int64_t k = 0; k < hr->size; k++) /* a weak Python int */
        rv[k] = round_to(rv[k] / (double)(x->size - order), res->dtype);
      st = cn_astype(&fac, hr, res->dtype, 1);
    }
    cn_array_release(hr);
    if (st == CN_OK && y->ndim == 2) {
      cn_array_s *v3 = NULL;
      int64_t sh3[3] = {order, order, 1};
      st = cn_reshape(&v3, vbase, 3, sh3, CN_ORDER_C);
      cn_array_release(vbase);
      vbase = v3;
    }
    if (st == CN_OK)
      st = cn_multiply(&cv, vbase, fac, NULL);
  } else if (st == CN_OK) {
    cn_array_retain(vbase);
    cv = vbase;
  }
  cn_array_release(vbase);
  cn_array_release(fac);
  cn_array_release(res);
  fit_system_free(&f);
  cn_array co = NULL, cvo = NULL;
  if (st == CN_OK)
    st = cn_result_to(&co, c, x, CN_DTYPE_DEFAULT);
  else
    cn_array_release(c);
  if (st == CN_OK)
    st = cn_result_to(&cvo, cv, x, CN_DTYPE_DEFAULT);
  else
    cn_array_release(cv);
  if (st != CN_OK) {
    cn_array_release(co);
    return st;
  }
  *coef = co;
  *cov = cvo;
  return CN_OK;
}

/* NumPy's linalg refuses non-finite matrices (LinAlgError, a ValueError),
 * before LAPACK sees them. */
static cn_status require_finite(const cn_array_s *h, const char *fn) {
  cn_array_s *c = NULL;
  cn_status st = cn_host_as(&c, h, CN_COMPLEX128);
  if (st != CN_OK)
    return st;
  const double complex *v = (const double complex *)c->data;
  bool finite = true;
  for (int64_t i = 0; i < c->size && finite; i++)
    finite = isfinite(creal(v[i])) && isfinite(cimag(v[i]));
  cn_array_release(c);
  if (!finite)
    return cn_error(CN_ERR_VALUE, "%s: Array must not contain infs or NaNs",
                    fn);
  return CN_OK;
}

/* ---- roots -------------------------------------------------------------------- */

/* Companion matrix of c[0..N) in T (first row -c[1:] / c[0], ones below
 * the diagonal). */
#define COMPANION(T, DIV)                                                      \
  do {                                                                         \
    const T *c = (const T *)hp->data + first;                                  \
    T *A = (T *)ha->data;                                                      \
    memset(A, 0, sizeof(T) * (size_t)(N1 * N1));                               \
    for (int64_t j = 0; j < N1; j++)                                           \
      A[j] = DIV(-c[j + 1], c[0]);                                             \
    for (int64_t i = 1; i < N1; i++)                                           \
      A[i * N1 + i - 1] = 1;                                                   \
  } while (0)

cn_status cn_roots(cn_array *out, cn_array p) {
  const char *fn = "cn_roots";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(p, fn, "p");
  if (p->ndim > 1)
    return cn_error(CN_ERR_VALUE, "%s: input must be a rank-1 array", fn);
  if (p->dtype == CN_FLOAT16) /* NumPy's eigvals refuses it */
    return cn_error(CN_ERR_TYPE, "%s: array type float16 is unsupported in "
                    "linalg", fn);
  cn_dtype ct = inexact_of(p->dtype);
  cn_array_s *hp = NULL, *ha = NULL, *hz = NULL;
  cn_status st = cn_host_as(&hp, p, ct);
  if (st == CN_OK)
    st = cn_host_as(&hz, p, CN_COMPLEX128);
  int64_t first = 0, last = -1;
  if (st == CN_OK) {
    const double complex *z = (const double complex *)hz->data;
    for (int64_t i = 0; i < hz->size; i++)
      if (z[i] != 0) {
        if (last < 0)
          first = i;
        last = i;
      }
  }
  cn_array_release(hz);
  int64_t trailing = last < 0 ? 0 : p->size - last - 1;
  int64_t N1 = last < 0 ? 0 : last - first; /* companion order N - 1 */
  cn_array w = NULL;
  if (st == CN_OK && N1 > 0) {
    int64_t sh[2] = {N1, N1};
    st = cn_host_new(&ha, ct, 2, sh);
    if (st == CN_OK) {
      switch (ct) {
      case CN_FLOAT32: COMPANION(float, RDIV); break;
      case CN_FLOAT64: COMPANION(double, RDIV); break;
      case CN_COMPLEX64: COMPANION(float complex, cdiv_f); break;
      default: COMPANION(double complex, cdiv_); break;
      }
      st = require_finite(ha, fn);
      if (st == CN_OK)
        st = cn_linalg_eigvals(&w, ha);
    }
  } else if (st == CN_OK) {
    int64_t zero = 0;
    st = cn_host_new(&ha, CN_FLOAT64, 1, &zero);
    if (st == CN_OK) {
      w = ha;
      ha = NULL;
    }
  }
  cn_array_release(hp);
  cn_array_release(ha);
  cn_array_s *res = NULL;
  if (st == CN_OK) {
    cn_array_s *hw = NULL;
    int64_t len = w->size + trailing;
    st = cn_host_as(&hw, w, w->dtype);
    if (st == CN_OK)
      st = cn_host_new(&res, w->dtype, 1, &len);
    if (st == CN_OK) {
      size_t isz = (size_t)cn_itemsize(w->dtype);
      memcpy(res->data, hw->data, isz * (size_t)w->size);
      memset((char *)res->data + isz * (size_t)w->size, 0,
             isz * (size_t)trailing);
    }
    cn_array_release(hw);
  }
  cn_array_release(w);
  if (st != CN_OK) {
    cn_array_release(res);
    return st;
  }
  return cn_result_to(out, res, p, CN_DTYPE_DEFAULT);
}

/* ---- the polynomial of given roots ------------------------------------------- */

static int cmp_lex(const void *pa, const void *pb) {
  double complex a = *(const double complex *)pa,
                 b = *(const double complex *)pb;
  if (creal(a) != creal(b))
    return creal(a) < creal(b) ? -1 : 1;
  if (cimag(a) != cimag(b))
    return cimag(a) < cimag(b) ? -1 : 1;
  return 0;
}

/* NumPy's test for a real polynomial: sort(z) == sort(conj(z)). */
static bool conjugate_pairs(const double complex *z, int64_t n, bool *ok) {
  double complex *a = cn_malloc(sizeof *a * (size_t)(2 * n + 1));
  if (!a) {
    *ok = false;
    return false;
  }
  double complex *b = a + n;
  bool same = true;
  for (int64_t i = 0; i < n; i++) {
    if (isnan(creal(z[i])) || isnan(cimag(z[i])))
      same = false;
    a[i] = z[i];
    b[i] = conj(z[i]);
  }
  if (same) {
    qsort(a, (size_t)n, sizeof *a, cmp_lex);
    qsort(b, (size_t)n, sizeof *b, cmp_lex);
    for (int64_t i = 0; i < n && same; i++)
      same = a[i] == b[i];
  }
  free(a);
  *ok = true;
  return same;
}

/* a = convolve(a, [1, -z]) for every root z, in T. */
#define FROM_ROOTS(T, MUL)                                                     \
  do {                                                                         \
    const T *zv = (const T *)hz->data;                                         \
    T *a = (T *)hr->data;                                                      \
    a[0] = 1;                                                                  \
    for (int64_t j = 0; j < nz; j++) {                                         \
      a[j + 1] = MUL(a[j], -zv[j]);                                            \
      for (int64_t i = j; i > 0; i--)                                          \
        a[i] = MUL(a[i], (T)1) + MUL(a[i - 1], -zv[j]);                        \
    }                                                                          \
  } while (0)

cn_status cn_poly(cn_array *out, cn_array seq_of_zeros) {
  const char *fn = "cn_poly";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(seq_of_zeros, fn, "seq_of_zeros");
  const cn_array_s *s = seq_of_zeros;
  bool square = s->ndim == 2 && s->shape[0] == s->shape[1] && s->shape[0];
  if (s->ndim > 1 && !square)
    return cn_error(CN_ERR_VALUE, "%s: input must be 1d or non-empty square "
                    "2d array", fn);
  cn_array z = NULL;
  cn_status st = square ? require_finite(s, fn) : CN_OK;
  if (st == CN_OK)
    st = square ? cn_linalg_eigvals(&z, seq_of_zeros)
                : cn_reshape(&z, seq_of_zeros, 1, &s->size, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  /* mintypecode: float32, float64 and complex kept, the rest float64 */
  cn_dtype dt = z->dtype == CN_FLOAT16 ? CN_FLOAT64 : inexact_of(z->dtype);
  int64_t nz = z->size, len = nz + 1;
  cn_array_s *hz = NULL, *hr = NULL, *hc = NULL;
  st = cn_host_as(&hz, z, dt);
  if (st == CN_OK)
    st = cn_host_new(&hr, dt, 1, &len);
  if (st == CN_OK) {
    switch (dt) {
    case CN_FLOAT32: FROM_ROOTS(float, RMUL); break;
    case CN_FLOAT64: FROM_ROOTS(double, RMUL); break;
    case CN_COMPLEX64: FROM_ROOTS(float complex, cmul_f); break;
    default: FROM_ROOTS(double complex, cmul_); break;
    }
  }
  cn_dtype rt = dt;
  if (st == CN_OK && cn_is_complex(dt)) {
    st = cn_host_as(&hc, z, CN_COMPLEX128);
    bool ok = true;
    if (st == CN_OK &&
        conjugate_pairs((const double complex *)hc->data, nz, &ok))
      rt = cn_real_dtype(dt); /* the real part, as NumPy's a.real.copy() */
    if (st == CN_OK && !ok)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  cn_array_release(hz);
  cn_array_release(hc);
  if (st == CN_OK && nz == 0) {
    /* NumPy returns the Python float 1.0 */
    cn_array_s *one = NULL;
    st = cn_host_new(&one, CN_FLOAT64, 0, NULL);
    if (st == CN_OK)
      *(double *)one->data = 1.0;
    cn_array_release(hr);
    hr = one;
    rt = CN_FLOAT64;
  }
  cn_array_s *like = z;
  if (st != CN_OK) {
    cn_array_release(hr);
    cn_array_release(z);
    return st;
  }
  if (rt != dt) {
    cn_array_s *re = NULL;
    st = cn_real(&re, hr, NULL);
    cn_array_release(hr);
    hr = re;
  }
  st = st == CN_OK ? cn_result_to(out, hr, like, rt) : st;
  cn_array_release(z);
  return st;
}
