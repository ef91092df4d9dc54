/* Norms and condition numbers (numpy.linalg.norm, cond), composed from
 * elementwise ops, reductions and the SVD so that they run wherever the
 * input lives. */
#include <math.h>
#include <string.h>

#include "util.h"

static cn_status real_scalar(cn_array_s **out, const cn_array_s *like,
                             cn_dtype dt, double v) {
  cn_status st = cn_la_new(out, like, dt, 0, NULL);
  if (st == CN_OK)
    st = cn_fill(*out, cn_scalar_float(v));
  if (st != CN_OK) {
    cn_array_release(*out);
    *out = NULL;
  }
  return st;
}

/* |x|**2 elementwise (real). */
static cn_status abs2(cn_array_s **out, const cn_array_s *x) {
  cn_array_s *ab = NULL;
  cn_status st = cn_abs(&ab, (cn_array)x, NULL);
  if (st == CN_OK)
    st = cn_multiply(out, ab, ab, NULL);
  cn_array_release(ab);
  return st;
}

static cn_status vector_norm(cn_array_s **out, const cn_array_s *x,
                             cn_norm_ord ord, double p, int32_t ax,
                             int32_t keepdims, const char *fn) {
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_dtype real = cn_real_dtype(x->dtype);
  cn_array_s *ab = NULL, *t = NULL, *s = NULL;
  if (ord == CN_NORM_FRO || ord == CN_NORM_NUC)
    return cn_error(CN_ERR_VALUE, "%s: invalid norm order '%s' for vectors", fn,
                    ord == CN_NORM_FRO ? "fro" : "nuc");
  if (ord != CN_NORM_DEFAULT && ord != CN_NORM_P)
    return cn_error(CN_ERR_VALUE, "%s: invalid norm order %d", fn, (int)ord);
  if (ord == CN_NORM_P && isnan(p))
    return cn_error(CN_ERR_VALUE, "%s: norm order p is NaN", fn);
  if (ord == CN_NORM_DEFAULT || p == 2) {
    CN_LA_TRY(abs2(&t, x));
    cn_la_keep(&sc, t);
    CN_LA_TRY(cn_sum(&s, t, 1, &ax, keepdims, CN_DTYPE_DEFAULT, NULL));
    cn_la_keep(&sc, s);
    CN_LA_TRY(cn_sqrt(out, s, NULL));
  } else if (p == INFINITY || p == -INFINITY) {
    CN_LA_TRY(cn_abs(&ab, (cn_array)x, NULL));
    cn_la_keep(&sc, ab);
    CN_LA_TRY((p > 0 ? cn_max : cn_min)(out, ab, 1, &ax, keepdims,
                                        CN_DTYPE_DEFAULT, NULL));
  } else if (p == 0) {
    cn_array_s *z = NULL;
    CN_LA_TRY(real_scalar(&z, x, real, 0));
    cn_la_keep(&sc, z);
    CN_LA_TRY(cn_not_equal(&t, (cn_array)x, z, NULL));
    cn_la_keep(&sc, t);
    CN_LA_TRY(cn_sum(out, t, 1, &ax, keepdims, real, NULL));
  } else if (p == 1) {
    CN_LA_TRY(cn_abs(&ab, (cn_array)x, NULL));
    cn_la_keep(&sc, ab);
    CN_LA_TRY(cn_sum(out, ab, 1, &ax, keepdims, CN_DTYPE_DEFAULT, NULL));
  } else {
    cn_array_s *ps = NULL, *ip = NULL;
    CN_LA_TRY(cn_abs(&ab, (cn_array)x, NULL));
    cn_la_keep(&sc, ab);
    CN_LA_TRY(real_scalar(&ps, x, real, p));
    cn_la_keep(&sc, ps);
    CN_LA_TRY(cn_power(&t, ab, ps, NULL));
    cn_la_keep(&sc, t);
    CN_LA_TRY(cn_sum(&s, t, 1, &ax, keepdims, CN_DTYPE_DEFAULT, NULL));
    cn_la_keep(&sc, s);
    CN_LA_TRY(real_scalar(&ip, x, real, 1.0 / p));
    cn_la_keep(&sc, ip);
    CN_LA_TRY(cn_power(out, s, ip, NULL));
  }
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

/* Singular values of x with axes (r, c) moved last. */
static cn_status svdvals_axes(cn_array_s **out, const cn_array_s *x, int32_t r,
                              int32_t c) {
  int32_t src[2] = {r, c}, dst[2] = {-2, -1};
  cn_array_s *m = NULL;
  cn_status st = cn_moveaxis(&m, (cn_array)x, 2, src, dst);
  if (st != CN_OK)
    return st;
  st = cn_linalg_svd(NULL, out, NULL, m, 0, 0);
  cn_array_release(m);
  return st;
}

static cn_status matrix_norm(cn_array_s **out, const cn_array_s *x,
                             cn_norm_ord ord, double p, int32_t r, int32_t c,
                             int32_t keepdims, const char *fn) {
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  cn_array_s *t = NULL, *s = NULL, *res = NULL;
  if (r == c)
    return cn_error(CN_ERR_VALUE, "%s: duplicate axes given (%d)", fn, (int)r);
  if (ord == CN_NORM_DEFAULT || ord == CN_NORM_FRO) {
    int32_t axes[2] = {r, c};
    CN_LA_TRY(abs2(&t, x));
    cn_la_keep(&sc, t);
    CN_LA_TRY(cn_sum(&s, t, 2, axes, keepdims, CN_DTYPE_DEFAULT, NULL));
    cn_la_keep(&sc, s);
    CN_LA_TRY(cn_sqrt(out, s, NULL));
    cn_la_end(&sc);
    return CN_OK;
  }
  bool svd_based =
      ord == CN_NORM_NUC || (ord == CN_NORM_P && (p == 2 || p == -2));
  if (svd_based) {
    int32_t ax = -1;
    CN_LA_TRY(svdvals_axes(&s, x, r, c));
    cn_la_keep(&sc, s);
    /* An empty matrix has no singular values: its 2-norm is 0 as in NumPy
     * (the sum of none), while -2 keeps min's empty-reduction error. */
    bool no_values = s->shape[s->ndim - 1] == 0;
    if (ord == CN_NORM_NUC || (no_values && p == 2))
      CN_LA_TRY(cn_sum(&res, s, 1, &ax, 0, CN_DTYPE_DEFAULT, NULL));
    else
      CN_LA_TRY((p > 0 ? cn_max : cn_min)(&res, s, 1, &ax, 0, CN_DTYPE_DEFAULT,
                                          NULL));
    cn_la_keep(&sc, res);
    if (keepdims) {
      int64_t shape[CN_MAX_DIMS];
      memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
      shape[r] = shape[c] = 1;
      CN_LA_TRY(cn_reshape(out, res, x->ndim, shape, CN_ORDER_C));
    } else {
      cn_array_retain(res);
      *out = res;
    }
    cn_la_end(&sc);
    return CN_OK;
  }
  if (ord != CN_NORM_P ||
      !(p == 1 || p == -1 || p == INFINITY || p == -INFINITY)) {
    st = cn_error(CN_ERR_VALUE, "%s: invalid norm order for matrices", fn);
    goto fail;
  }
  /* ord 1: max over columns of column sums; inf: max over rows of row
   * sums (min for the negative orders). */
  int32_t sum_ax = (p == 1 || p == -1) ? r : c;
  int32_t red_ax = (p == 1 || p == -1) ? c : r;
  if (!keepdims && red_ax > sum_ax)
    red_ax--;
  CN_LA_TRY(cn_abs(&t, (cn_array)x, NULL));
  cn_la_keep(&sc, t);
  CN_LA_TRY(cn_sum(&s, t, 1, &sum_ax, keepdims, CN_DTYPE_DEFAULT, NULL));
  cn_la_keep(&sc, s);
  /* Norms are non-negative, so the max over no columns (rows) is 0 as in
   * NumPy; the negative orders keep min's empty-reduction error. */
  bool no_sums = s->shape[red_ax < 0 ? red_ax + s->ndim : red_ax] == 0;
  CN_LA_TRY((p > 0 && no_sums ? cn_sum : p > 0 ? cn_max : cn_min)(
      out, s, 1, &red_ax, keepdims, CN_DTYPE_DEFAULT, NULL));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_norm(cn_array *out, cn_array a, cn_norm_ord ord, double p,
                         int32_t naxes, const int32_t *axes, int32_t keepdims) {
  const char *fn = "cn_linalg_norm";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (!cn_dtype_is_valid(a->dtype))
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype", fn);
  if (ord < CN_NORM_DEFAULT || ord > CN_NORM_NUC)
    return cn_error(CN_ERR_VALUE, "%s: invalid norm order kind %d", fn,
                    (int)ord);
  if (naxes != -1 && naxes != 1 && naxes != 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: improper number of dimensions to norm (%d axes)", fn,
                    (int)naxes);
  if (naxes > 0 && axes == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'axes' is NULL", fn);
  int32_t ax[2] = {0, 0};
  for (int32_t i = 0; i < naxes; i++) {
    cn_status st = cn_normalize_axis(&ax[i], axes[i], a->ndim, fn);
    if (st != CN_OK)
      return st;
  }
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  const cn_array_s *x = a;
  if (!cn_is_float(a->dtype) && !cn_is_complex(a->dtype)) {
    cn_array_s *c = NULL;
    CN_LA_TRY(cn_astype(&c, a, CN_FLOAT64, 1));
    x = cn_la_keep(&sc, c);
  }
  if (naxes == -1) {
    if (ord == CN_NORM_DEFAULT || (a->ndim != 1 && a->ndim != 2)) {
      if (ord != CN_NORM_DEFAULT) {
        st = cn_error(CN_ERR_VALUE,
                      "%s: improper number of dimensions to norm (ndim %d "
                      "with an explicit order)",
                      fn, (int)a->ndim);
        goto fail;
      }
      cn_array_s *f = NULL, *r = NULL;
      CN_LA_TRY(cn_ravel(&f, (cn_array)x, CN_ORDER_C));
      cn_la_keep(&sc, f);
      CN_LA_TRY(vector_norm(&r, f, CN_NORM_DEFAULT, 2, 0, 0, fn));
      cn_la_keep(&sc, r);
      if (keepdims) {
        int64_t ones[CN_MAX_DIMS];
        for (int32_t i = 0; i < a->ndim; i++)
          ones[i] = 1;
        CN_LA_TRY(cn_reshape(out, r, a->ndim, ones, CN_ORDER_C));
      } else {
        cn_array_retain(r);
        *out = r;
      }
      cn_la_end(&sc);
      return CN_OK;
    }
    naxes = a->ndim;
    ax[0] = 0;
    ax[1] = 1;
  }
  if (naxes == 1)
    CN_LA_TRY(vector_norm(out, x, ord, p, ax[0], keepdims, fn));
  else
    CN_LA_TRY(matrix_norm(out, x, ord, p, ax[0], ax[1], keepdims, fn));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

/* cond in a non-2 norm of one stack; singular matrices give inf. */
static cn_status cond_inv(cn_array_s **out, const cn_array_s *a,
                          cn_norm_ord ord, double p, const char *fn) {
  int32_t axes[2] = {-2, -1};
  cn_array_s *inv = NULL, *n1 = NULL, *n2 = NULL;
  cn_status st = cn_linalg_inv(&inv, (cn_array)a);
  if (st == CN_ERR_LINALG && a->ndim == 2) {
    cn_clear_error();
    return real_scalar(out, a, cn_real_dtype(cn_la_dtype(a->dtype)), INFINITY);
  }
  if (st == CN_ERR_LINALG) {
    /* Some matrix of the stack is singular: evaluate one by one. */
    cn_clear_error();
    int64_t nb = cn_la_batch(a->ndim, a->shape, 2);
    int64_t sh3[3] = {nb, a->shape[a->ndim - 2], a->shape[a->ndim - 1]};
    cn_array_s *flat = NULL, *res = NULL, *r1 = NULL;
    st = cn_reshape(&flat, (cn_array)a, 3, sh3, CN_ORDER_C);
    if (st == CN_OK)
      st = cn_la_new(&res, a, cn_real_dtype(cn_la_dtype(a->dtype)), 1, &nb);
    for (int64_t i = 0; st == CN_OK && i < nb; i++) {
      cn_array_s *m = NULL, *c = NULL, *slot = NULL;
      st = cn_index_axis(&m, flat, 0, i);
      if (st == CN_OK)
        st = cond_inv(&c, m, ord, p, fn);
      if (st == CN_OK)
        st = cn_index_axis(&slot, res, 0, i);
      if (st == CN_OK)
        st = cn_assign(slot, c);
      cn_array_release(m);
      cn_array_release(c);
      cn_array_release(slot);
    }
    if (st == CN_OK)
      st = cn_reshape(&r1, res, a->ndim - 2, a->shape, CN_ORDER_C);
    cn_array_release(flat);
    cn_array_release(res);
    if (st == CN_OK)
      *out = r1;
    return st;
  }
  if (st != CN_OK)
    return st;
  st = cn_linalg_norm(&n1, (cn_array)a, ord, p, 2, axes, 0);
  if (st == CN_OK)
    st = cn_linalg_norm(&n2, inv, ord, p, 2, axes, 0);
  if (st == CN_OK)
    st = cn_multiply(out, n1, n2, NULL);
  cn_array_release(inv);
  cn_array_release(n1);
  cn_array_release(n2);
  return st;
}

/* NumPy's rule for cond: a NaN result of a matrix with no NaN in it (inf
 * entries, or 0/0 of a singular one) means infinitely ill-conditioned.
 * Takes *res and replaces it with the corrected result. */
static cn_status cond_nan_to_inf(cn_array_s **res, const cn_array_s *a) {
  int32_t axes[2] = {-2, -1};
  cn_array_s *rn = NULL, *an = NULL, *anyn = NULL, *clean = NULL,
             *mask = NULL, *inf = NULL, *fixed = NULL;
  cn_status st = cn_isnan(&rn, *res, NULL);
  if (st == CN_OK)
    st = cn_isnan(&an, (cn_array)a, NULL);
  if (st == CN_OK)
    st = cn_any(&anyn, an, 2, axes, 0, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_logical_not(&clean, anyn, NULL);
  if (st == CN_OK)
    st = cn_logical_and(&mask, rn, clean, NULL);
  if (st == CN_OK)
    st = real_scalar(&inf, *res, (*res)->dtype, INFINITY);
  if (st == CN_OK)
    st = cn_where(&fixed, mask, inf, *res, NULL);
  cn_array_release(rn);
  cn_array_release(an);
  cn_array_release(anyn);
  cn_array_release(clean);
  cn_array_release(mask);
  cn_array_release(inf);
  if (st == CN_OK) {
    cn_array_release(*res);
    *res = fixed;
  }
  return st;
}

static cn_status cond_of(cn_array *out, cn_array a, cn_norm_ord ord,
                         double p);

cn_status cn_linalg_cond(cn_array *out, cn_array a, cn_norm_ord ord, double p) {
  CN_CHECK_OUT(out, "cn_linalg_cond");
  cn_array_s *res = NULL;
  cn_status st = cond_of(&res, a, ord, p);
  if (st != CN_OK)
    return st;
  st = cond_nan_to_inf(&res, a);
  if (st != CN_OK) {
    cn_array_release(res);
    return cn_error_prefix(st, "cn_linalg_cond");
  }
  *out = res;
  return CN_OK;
}

static cn_status cond_of(cn_array *out, cn_array a, cn_norm_ord ord,
                         double p) {
  const char *fn = "cn_linalg_cond";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_status st = cn_la_check_matrix(a, false, fn, "a");
  if (st != CN_OK)
    return st;
  if (ord == CN_NORM_DEFAULT || (ord == CN_NORM_P && (p == 2 || p == -2))) {
    cn_array_s *S = NULL, *hi = NULL, *lo = NULL;
    st = cn_linalg_svd(NULL, &S, NULL, a, 0, 0);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
    int64_t k = S->shape[S->ndim - 1];
    if (k == 0) {
      cn_array_release(S);
      return cn_error(CN_ERR_VALUE, "%s: empty matrix has no condition number",
                      fn);
    }
    st = cn_index_axis(&hi, S, -1, 0);
    if (st == CN_OK)
      st = cn_index_axis(&lo, S, -1, k - 1);
    if (st == CN_OK)
      st = (ord == CN_NORM_P && p == -2) ? cn_divide(out, lo, hi, NULL)
                                         : cn_divide(out, hi, lo, NULL);
    cn_array_release(S);
    cn_array_release(hi);
    cn_array_release(lo);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  st = cn_la_check_matrix(a, true, fn, "a");
  if (st != CN_OK)
    return st;
  st = cond_inv(out, a, ord, p, fn);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}
