/* The reductions of cunumpy/special.h (logsumexp, softmax, log_softmax),
 * composed from the engine's reductions and elementwise ops, so they run
 * on the backend of their input. The elementwise special functions are op
 * table entries (core/ops.def, core/special_scalar.h). */
#include "internal.h"

/* a as a float array: itself (a new reference) when float, float64 for
 * bool and integers; CN_ERR_TYPE for complex. */
static cn_status cn_sp_float_input(cn_array *out, cn_array a, const char *fn) {
  cn_dtype dt = a->dtype;
  if (cn_is_complex(dt))
    return cn_error(CN_ERR_TYPE, "%s: complex input is not supported", fn);
  if (cn_is_float(dt)) {
    cn_array_retain(a);
    *out = a;
    return CN_OK;
  }
  return cn_astype(out, a, CN_FLOAT64, 0);
}

/* The shifted terms of x over the axes: m the maximum (0 where it is not
 * finite: all -inf gives -inf below, an inf gives inf, NaN propagates),
 * *d = x - m, *e = exp(*d), *s = sum(*e) with the reduced axes kept and
 * *mf = m. x is a float array; on failure nothing is returned. */
static cn_status cn_sp_shifted(cn_array x, int32_t naxes, const int32_t *axes,
                               cn_array *mf, cn_array *d, cn_array *e,
                               cn_array *s) {
  cn_array m = NULL, fin = NULL, zero = NULL;
  *mf = *d = *e = *s = NULL;
  cn_status st = cn_max(&m, x, naxes, axes, 1, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_isfinite(&fin, m, NULL);
  if (st == CN_OK)
    st = cn_scalar_array(&zero, cn_scalar_float(0.0));
  if (st == CN_OK)
    st = cn_where(mf, fin, m, zero, NULL);
  if (st == CN_OK)
    st = cn_subtract(d, x, *mf, NULL);
  if (st == CN_OK)
    st = cn_exp(e, *d, NULL);
  if (st == CN_OK)
    st = cn_sum(s, *e, naxes, axes, 1, CN_DTYPE_DEFAULT, NULL);
  cn_array_release(m);
  cn_array_release(fin);
  cn_array_release(zero);
  if (st != CN_OK) {
    cn_array_release(*mf);
    cn_array_release(*d);
    cn_array_release(*e);
    cn_array_release(*s);
    *mf = *d = *e = *s = NULL;
  }
  return st;
}

/* log(sum(exp(x))) over the axes = log(s) + m, with the reduced axes kept
 * (keepdims 1) or removed. */
static cn_status cn_sp_lse(cn_array *out, cn_array x, int32_t naxes,
                           const int32_t *axes, int32_t keepdims) {
  cn_array mf, d, e, s, l = NULL, r = NULL, shaped = NULL;
  cn_status st = cn_sp_shifted(x, naxes, axes, &mf, &d, &e, &s);
  if (st != CN_OK)
    return st;
  st = cn_log(&l, s, NULL);
  if (st == CN_OK)
    st = cn_add(keepdims ? out : &r, l, mf, NULL);
  if (st == CN_OK && !keepdims) { /* the shape cn_sum gives without them */
    cn_array ref = NULL;
    st = cn_sum(&ref, s, naxes, axes, 0, CN_DTYPE_DEFAULT, NULL);
    if (st == CN_OK)
      st = cn_reshape(&shaped, r, ref->ndim, ref->shape, CN_ORDER_C);
    cn_array_release(ref);
    if (st == CN_OK)
      *out = shaped;
  }
  cn_array_release(mf);
  cn_array_release(d);
  cn_array_release(e);
  cn_array_release(s);
  cn_array_release(l);
  cn_array_release(r);
  return st;
}

cn_status cn_special_logsumexp(cn_array *out, cn_array a, int32_t naxes,
                               const int32_t *axes, int32_t keepdims) {
  static const char fn[] = "cn_special_logsumexp";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->size == 0)
    return cn_error(CN_ERR_VALUE, "%s: zero-size input", fn);
  cn_array x = NULL;
  cn_status st = cn_sp_float_input(&x, a, fn);
  if (st != CN_OK)
    return st;
  cn_array r = NULL;
  st = cn_sp_lse(&r, x, naxes, axes, keepdims != 0);
  cn_array_release(x);
  if (st == CN_OK)
    *out = r;
  return st;
}

/* SciPy's formulas along one axis (or all): softmax exp(x - m) /
 * sum(exp(x - m)), log_softmax (x - m) - log(sum(exp(x - m))); x - m is
 * exact where it matters (Sterbenz), so no rounding of a logsumexp enters
 * the exponent. */
static cn_status cn_sp_softmax(cn_array *out, cn_array a, int32_t axis,
                               int take_exp, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_array x = NULL;
  cn_status st = cn_sp_float_input(&x, a, fn);
  if (st != CN_OK)
    return st;
  if (x->size == 0) { /* nothing to normalise: an empty float copy */
    st = cn_astype(out, x, x->dtype, 1);
    cn_array_release(x);
    return st;
  }
  int32_t naxes = axis == CN_AXIS_NONE ? CN_ALL_AXES : 1;
  cn_array mf, d, e, s, l = NULL;
  st = cn_sp_shifted(x, naxes, axis == CN_AXIS_NONE ? NULL : &axis, &mf, &d, &e,
                     &s);
  cn_array_release(x);
  if (st != CN_OK)
    return st;
  if (take_exp) {
    st = cn_divide(out, e, s, NULL);
  } else {
    st = cn_log(&l, s, NULL);
    if (st == CN_OK)
      st = cn_subtract(out, d, l, NULL);
  }
  cn_array_release(mf);
  cn_array_release(d);
  cn_array_release(e);
  cn_array_release(s);
  cn_array_release(l);
  return st;
}

cn_status cn_special_softmax(cn_array *out, cn_array a, int32_t axis) {
  return cn_sp_softmax(out, a, axis, 1, "cn_special_softmax");
}

cn_status cn_special_log_softmax(cn_array *out, cn_array a, int32_t axis) {
  return cn_sp_softmax(out, a, axis, 0, "cn_special_log_softmax");
}
