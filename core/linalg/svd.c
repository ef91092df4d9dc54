/* SVD-based entry points composed from other operations: the Hermitian SVD
 * (from eigh, as NumPy's svd(hermitian=True)), the pseudo-inverse and the
 * matrix rank, each with and without hermitian. */
#include <math.h>
#include <string.h>

#include "util.h"

/* NumPy's svd(a, hermitian=True): w, v = eigh(a); s = |w| sorted
 * descending; u = v's columns in that order; vh = (u * copysign(1, w))^H.
 * full_matrices has no effect (a is square). */
static cn_status svd_hermitian(cn_array *u, cn_array *s, cn_array *vh,
                               const cn_array_s *a, bool compute_uv,
                               const char *fn) {
  cn_status st = cn_la_check_matrix(a, true, fn, "a");
  if (st != CN_OK)
    return st;
  cn_la_scope sc = {0};
  cn_array_s *W = NULL, *V = NULL, *S = NULL, *idx = NULL, *ridx = NULL;
  cn_array_s *Ss = NULL, *one = NULL, *sg = NULL, *sgs = NULL, *sgr = NULL;
  cn_array_s *idx2 = NULL, *U = NULL, *us = NULL, *ut = NULL, *Vh = NULL;
  int32_t last = -1, row = -2;
  if (compute_uv) {
    CN_LA_TRY(cn_linalg_eigh(&W, &V, (cn_array)a, 0));
    cn_la_keep(&sc, V);
  } else {
    CN_LA_TRY(cn_linalg_eigvalsh(&W, (cn_array)a, 0));
  }
  cn_la_keep(&sc, W);
  CN_LA_TRY(cn_abs(&S, W, NULL));
  cn_la_keep(&sc, S);
  CN_LA_TRY(cn_argsort(&idx, S, -1));
  cn_la_keep(&sc, idx);
  CN_LA_TRY(cn_flip(&ridx, idx, 1, &last));
  cn_la_keep(&sc, ridx);
  CN_LA_TRY(cn_take_along_axis(&Ss, S, ridx, -1));
  cn_la_keep(&sc, Ss);
  if (compute_uv) {
    /* copysign, not sign: a zero eigenvalue keeps a unit row in vh. */
    CN_LA_TRY(cn_la_scalar(&one, a, W->dtype, 1.0));
    cn_la_keep(&sc, one);
    CN_LA_TRY(cn_copysign(&sg, one, W, NULL));
    cn_la_keep(&sc, sg);
    CN_LA_TRY(cn_take_along_axis(&sgs, sg, ridx, -1));
    cn_la_keep(&sc, sgs);
    CN_LA_TRY(cn_expand_dims(&idx2, ridx, 1, &row));
    cn_la_keep(&sc, idx2);
    CN_LA_TRY(cn_take_along_axis(&U, V, idx2, -1));
    cn_la_keep(&sc, U);
    CN_LA_TRY(cn_expand_dims(&sgr, sgs, 1, &row));
    cn_la_keep(&sc, sgr);
    CN_LA_TRY(cn_multiply(&us, U, sgr, NULL));
    cn_la_keep(&sc, us);
    CN_LA_TRY(cn_swapaxes(&ut, us, -1, -2));
    cn_la_keep(&sc, ut);
    CN_LA_TRY(cn_conj(&Vh, ut, NULL));
    cn_la_keep(&sc, Vh);
    cn_array_retain(U);
    cn_array_retain(Vh);
    *u = U;
    *vh = Vh;
  }
  cn_array_retain(Ss);
  *s = Ss;
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return st;
}

cn_status cn_linalg_svd_ex(cn_array *u, cn_array *s, cn_array *vh, cn_array a,
                           int32_t full_matrices, int32_t compute_uv,
                           int32_t hermitian) {
  const char *fn = "cn_linalg_svd_ex";
  if (!hermitian) {
    cn_status st = cn_linalg_svd(u, s, vh, a, full_matrices, compute_uv);
    return st == CN_OK ? st : cn_error_prefix(st, fn);
  }
  CN_CHECK_OUT(s, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (compute_uv && (u == NULL || vh == NULL))
    return cn_error(CN_ERR_VALUE,
                    "%s: output pointers 'u' and 'vh' are required with "
                    "compute_uv",
                    fn);
  if (!cn_dtype_is_valid(a->dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'a' has an invalid dtype", fn);
  cn_status st = svd_hermitian(u, s, vh, a, compute_uv != 0, fn);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

static cn_status pinv_impl(cn_array *out, cn_array a, double rcond,
                           int32_t hermitian, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (isnan(rcond))
    return cn_error(CN_ERR_VALUE, "%s: rcond is NaN", fn);
  if (rcond < 0)
    rcond = 1e-15;
  cn_status st = cn_la_check_matrix(a, hermitian != 0, fn, "a");
  if (st != CN_OK)
    return st;
  cn_la_scope sc = {0};
  cn_array_s *U = NULL, *S = NULL, *V = NULL, *smax = NULL, *cut = NULL;
  cn_array_s *big = NULL, *one = NULL, *zero = NULL, *inv = NULL, *sinv = NULL;
  cn_array_s *uh = NULL, *uhc = NULL, *vt = NULL, *vtc = NULL, *sc2 = NULL;
  cn_array_s *scaled = NULL, *rc = NULL;
  int32_t ax = -1;
  CN_LA_TRY(cn_linalg_svd_ex(&U, &S, &V, a, 0, 1, hermitian));
  cn_la_keep(&sc, U);
  cn_la_keep(&sc, S);
  cn_la_keep(&sc, V);
  cn_dtype real = S->dtype;
  /* Singular values above rcond * max(s) are inverted, the rest dropped. */
  if (S->shape[S->ndim - 1] > 0) {
    CN_LA_TRY(cn_max(&smax, S, 1, &ax, 1, CN_DTYPE_DEFAULT, NULL));
    cn_la_keep(&sc, smax);
  } else {
    CN_LA_TRY(cn_la_scalar(&smax, a, real, 0));
    cn_la_keep(&sc, smax);
  }
  CN_LA_TRY(cn_la_scalar(&rc, a, real, rcond));
  cn_la_keep(&sc, rc);
  CN_LA_TRY(cn_multiply(&cut, smax, rc, NULL));
  cn_la_keep(&sc, cut);
  CN_LA_TRY(cn_greater(&big, S, cut, NULL));
  cn_la_keep(&sc, big);
  CN_LA_TRY(cn_la_scalar(&one, a, real, 1));
  cn_la_keep(&sc, one);
  CN_LA_TRY(cn_la_scalar(&zero, a, real, 0));
  cn_la_keep(&sc, zero);
  CN_LA_TRY(cn_where(&sinv, big, S, one, NULL));
  cn_la_keep(&sc, sinv);
  CN_LA_TRY(cn_divide(&inv, one, sinv, NULL));
  cn_la_keep(&sc, inv);
  CN_LA_TRY(cn_where(&sinv, big, inv, zero, NULL));
  cn_la_keep(&sc, sinv);
  /* pinv = Vh^H @ (sinv[..., None] * U^H) */
  CN_LA_TRY(cn_swapaxes(&uh, U, -1, -2));
  cn_la_keep(&sc, uh);
  CN_LA_TRY(cn_conj(&uhc, uh, NULL));
  cn_la_keep(&sc, uhc);
  CN_LA_TRY(cn_expand_dims(&sc2, sinv, 1, &ax));
  cn_la_keep(&sc, sc2);
  CN_LA_TRY(cn_multiply(&scaled, sc2, uhc, NULL));
  cn_la_keep(&sc, scaled);
  CN_LA_TRY(cn_swapaxes(&vt, V, -1, -2));
  cn_la_keep(&sc, vt);
  CN_LA_TRY(cn_conj(&vtc, vt, NULL));
  cn_la_keep(&sc, vtc);
  CN_LA_TRY(cn_matmul(out, vtc, scaled, NULL));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_pinv(cn_array *out, cn_array a, double rcond) {
  return pinv_impl(out, a, rcond, 0, "cn_linalg_pinv");
}

cn_status cn_linalg_pinv_ex(cn_array *out, cn_array a, double rcond,
                            int32_t hermitian) {
  return pinv_impl(out, a, rcond, hermitian, "cn_linalg_pinv_ex");
}

static cn_status rank_impl(cn_array *out, cn_array a, double tol, double rtol,
                           int32_t hermitian, const char *fn) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (isnan(tol))
    return cn_error(CN_ERR_VALUE, "%s: tol is NaN", fn);
  if (isnan(rtol))
    return cn_error(CN_ERR_VALUE, "%s: rtol is NaN", fn);
  if (tol >= 0 && rtol >= 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: tol (%g) and rtol (%g) can't be both set", fn, tol,
                    rtol);
  cn_status st = CN_OK;
  cn_la_scope sc = {0};
  if (a->ndim < 2) {
    /* NumPy: int(not all(a == 0)) */
    cn_array_s *any = NULL;
    CN_LA_TRY(cn_any(&any, a, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    cn_la_keep(&sc, any);
    CN_LA_TRY(cn_astype(out, any, CN_INT64, 1));
    cn_la_end(&sc);
    return CN_OK;
  }
  cn_array_s *S = NULL, *cut = NULL, *big = NULL, *t = NULL;
  int32_t ax = -1;
  CN_LA_TRY(cn_linalg_svd_ex(NULL, &S, NULL, a, 0, 0, hermitian));
  cn_la_keep(&sc, S);
  if (tol < 0) {
    /* tol = max(s) * rtol, rtol defaulting to max(M, N) * eps */
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    if (rtol < 0)
      rtol = (double)(m > n ? m : n) * cn_la_eps(S->dtype);
    if (m == 0 || n == 0) {
      CN_LA_TRY(cn_la_scalar(&cut, a, S->dtype, 0));
    } else {
      cn_array_s *smax = NULL;
      CN_LA_TRY(cn_max(&smax, S, 1, &ax, 1, CN_DTYPE_DEFAULT, NULL));
      cn_la_keep(&sc, smax);
      CN_LA_TRY(cn_la_scalar(&t, a, S->dtype, rtol));
      cn_la_keep(&sc, t);
      CN_LA_TRY(cn_multiply(&cut, smax, t, NULL));
    }
  } else {
    CN_LA_TRY(cn_la_scalar(&cut, a, S->dtype, tol));
  }
  cn_la_keep(&sc, cut);
  CN_LA_TRY(cn_greater(&big, S, cut, NULL));
  cn_la_keep(&sc, big);
  CN_LA_TRY(cn_sum(out, big, 1, &ax, 0, CN_INT64, NULL));
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_matrix_rank(cn_array *out, cn_array a, double tol) {
  return rank_impl(out, a, tol, -1.0, 0, "cn_linalg_matrix_rank");
}

cn_status cn_linalg_matrix_rank_ex(cn_array *out, cn_array a, double tol,
                                   double rtol, int32_t hermitian) {
  return rank_impl(out, a, tol, rtol, hermitian, "cn_linalg_matrix_rank_ex");
}
