/* Decompositions and solvers (numpy.linalg): validation, dtype resolution
 * and batching over stacked leading dims; the LAPACK work itself runs in
 * the backend's lapack slot on packed column-major copies. Results are
 * returned as views of those copies (each matrix column-major). */
#include <math.h>
#include <string.h>

#include "util.h"

/* Validates a and packs it into a work copy of its compute dtype; fills
 * the common fields of args. With row == NULL the copy is column-major (the
 * driver sees a). Else *row tells the packing chosen by a's layout: true
 * for C order, where the driver sees a^T (a^H for eigh, whose copy is
 * conjugated) and the caller transposes the problem; false for
 * column-major. */
static cn_status la_input(cn_array_s **work, cn_lapack_args *args,
                          const cn_array_s *a, bool square, cn_lapack_kind kind,
                          const char *fn, bool *row) {
  if (!cn_dtype_is_valid(a->dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'a' has an invalid dtype", fn);
  if (a->dtype == CN_FLOAT16) /* NumPy's refusal: LAPACK has no float16 */
    return cn_error(CN_ERR_TYPE, "%s: array type float16 is unsupported in "
                    "linalg", fn);
  cn_status st = cn_la_check_matrix(a, square, fn, "a");
  if (st != CN_OK)
    return st;
  cn_dtype dt = cn_la_dtype(a->dtype);
  bool r = row != NULL && cn_la_prefers_rows(a);
  if (r)
    st = cn_la_rowmajor(work, a, a, dt, a->ndim, a->shape,
                        kind == CN_LAPACK_EIGH);
  else
    st = cn_la_colmajor(work, a, a, dt, a->ndim, a->shape);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  if (row != NULL)
    *row = r;
  memset(args, 0, sizeof *args);
  args->kind = kind;
  args->dtype = dt;
  args->batch = cn_la_batch(a->ndim, a->shape, 2);
  args->m = a->shape[a->ndim - 2];
  args->n = a->shape[a->ndim - 1];
  args->a = (*work)->data;
  return CN_OK;
}

/* Shape = a's batch dims followed by the given trailing extents. */
static int32_t batch_shape(int64_t *shape, const cn_array_s *a, int32_t nt,
                           int64_t t0, int64_t t1) {
  int32_t nd = 0;
  for (int32_t i = 0; i < a->ndim - 2; i++)
    shape[nd++] = a->shape[i];
  if (nt > 0)
    shape[nd++] = t0;
  if (nt > 1)
    shape[nd++] = t1;
  return nd;
}

cn_status cn_linalg_cholesky(cn_array *out, cn_array a, int32_t upper) {
  const char *fn = "cn_linalg_cholesky";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_lapack_args args;
  cn_array_s *w = NULL;
  bool row = false;
  cn_status st = la_input(&w, &args, a, true, CN_LAPACK_CHOLESKY, fn, &row);
  if (st != CN_OK)
    return st;
  /* Row-major, the driver factors a^T: its upper factor U (U^H U == a^T)
   * read row-major is U^T, the lower factor of a, and vice versa. */
  args.upper = (upper != 0) != row;
  st = cn_la_run(&args, a, fn, "Matrix is not positive definite");
  if (st != CN_OK) {
    cn_array_release(w);
    return st;
  }
  *out = w;
  return CN_OK;
}

cn_status cn_linalg_qr(cn_array *q, cn_array *r, cn_array a, cn_qr_mode mode) {
  const char *fn = "cn_linalg_qr";
  CN_CHECK_OUT(r, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (mode != CN_QR_REDUCED && mode != CN_QR_COMPLETE && mode != CN_QR_R &&
      mode != CN_QR_RAW)
    return cn_error(CN_ERR_VALUE, "%s: unrecognized mode %d", fn, (int)mode);
  if (mode == CN_QR_R)
    q = NULL; /* not computed, never written */
  else if (q == NULL)
    return cn_error(CN_ERR_VALUE, "%s: output pointer 'q' is NULL", fn);
  cn_lapack_args args;
  cn_la_scope sc = {0};
  cn_array_s *w = NULL, *R = NULL, *Q = NULL;
  cn_status st = la_input(&w, &args, a, false, CN_LAPACK_QR, fn, NULL);
  if (st != CN_OK)
    return st;
  int64_t m = args.m, n = args.n, k = m < n ? m : n;
  int64_t shape[CN_MAX_DIMS];
  if (mode == CN_QR_RAW) {
    /* h is the factored work copy itself, seen as (..., N, M) */
    int32_t nd = batch_shape(shape, a, 1, k, 0);
    st = cn_la_new(&R, a, args.dtype, nd, shape);
    if (st == CN_OK) {
      args.out2 = R->data;
      st = cn_la_run(&args, a, fn, "QR factorization failed");
    }
    if (st == CN_OK)
      st = cn_swapaxes(&Q, w, -1, -2);
    cn_array_release(w);
    if (st != CN_OK) {
      cn_array_release(R);
      return cn_error_prefix(st, fn);
    }
    *q = Q;
    *r = R;
    return CN_OK;
  }
  cn_la_keep(&sc, w);
  int64_t kr = mode == CN_QR_COMPLETE ? m : k;
  int32_t nd = batch_shape(shape, a, 2, kr, n);
  CN_LA_TRY(cn_la_colmajor(&R, NULL, a, args.dtype, nd, shape));
  if (q != NULL) {
    batch_shape(shape, a, 2, m, kr);
    CN_LA_TRY(cn_la_colmajor(&Q, NULL, a, args.dtype, nd, shape));
  }
  args.full = mode == CN_QR_COMPLETE;
  args.out0 = R->data;
  args.out1 = Q ? Q->data : NULL;
  CN_LA_TRY(cn_la_run(&args, a, fn, "QR factorization failed"));
  if (q != NULL)
    *q = Q;
  *r = R;
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_array_release(R);
  cn_array_release(Q);
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_svd(cn_array *u, cn_array *s, cn_array *vh, cn_array a,
                        int32_t full_matrices, int32_t compute_uv) {
  const char *fn = "cn_linalg_svd";
  CN_CHECK_OUT(s, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (compute_uv && (u == NULL || vh == NULL))
    return cn_error(CN_ERR_VALUE,
                    "%s: output pointers 'u' and 'vh' are required with "
                    "compute_uv",
                    fn);
  cn_lapack_args args;
  cn_la_scope sc = {0};
  cn_array_s *w = NULL, *S = NULL, *U = NULL, *V = NULL;
  bool row = false;
  cn_status st = la_input(&w, &args, a, false, CN_LAPACK_SVD, fn, &row);
  if (st != CN_OK)
    return st;
  cn_la_keep(&sc, w);
  int64_t m = args.m, n = args.n, k = m < n ? m : n;
  bool full = full_matrices != 0;
  int64_t shape[CN_MAX_DIMS];
  int32_t nd = batch_shape(shape, a, 1, k, 0);
  CN_LA_TRY(cn_la_new(&S, a, cn_real_dtype(args.dtype), nd, shape));
  if (compute_uv && row) {
    /* The driver decomposes a^T = U' S V'^H (n x m), so a = V'^H^T S U'^T:
     * u is vt' and vh is u', each read row-major (C-order results). */
    nd = batch_shape(shape, a, 2, m, full ? m : k);
    CN_LA_TRY(cn_la_new(&U, a, args.dtype, nd, shape));
    batch_shape(shape, a, 2, full ? n : k, n);
    CN_LA_TRY(cn_la_new(&V, a, args.dtype, nd, shape));
  } else if (compute_uv) {
    nd = batch_shape(shape, a, 2, m, full ? m : k);
    CN_LA_TRY(cn_la_colmajor(&U, NULL, a, args.dtype, nd, shape));
    batch_shape(shape, a, 2, full ? n : k, n);
    CN_LA_TRY(cn_la_colmajor(&V, NULL, a, args.dtype, nd, shape));
  }
  args.vectors = compute_uv != 0;
  args.full = full;
  args.out0 = S->data;
  args.out1 = U ? U->data : NULL;
  args.out2 = V ? V->data : NULL;
  if (row) {
    args.m = n;
    args.n = m;
    args.out1 = V ? V->data : NULL;
    args.out2 = U ? U->data : NULL;
  }
  CN_LA_TRY(cn_la_run(&args, a, fn, "SVD did not converge"));
  *s = S;
  if (compute_uv) {
    *u = U;
    *vh = V;
  }
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_array_release(S);
  cn_array_release(U);
  cn_array_release(V);
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

/* 1 when every element of a complex array has a zero imaginary part. */
static cn_status all_real(bool *out, const cn_array_s *x) {
  cn_array_s *im = NULL, *any = NULL;
  cn_status st = cn_imag(&im, (cn_array)x, NULL);
  if (st == CN_OK)
    st = cn_any(&any, im, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  cn_scalar v = {0};
  if (st == CN_OK)
    st = cn_item(&v, any);
  cn_array_release(im);
  cn_array_release(any);
  if (st == CN_OK)
    *out = v.i == 0;
  return st;
}

static cn_status eig_impl(cn_array *w, cn_array *v, cn_array a,
                          const char *fn) {
  CN_CHECK_OUT(w, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_lapack_args args;
  cn_la_scope sc = {0};
  cn_array_s *work = NULL, *W = NULL, *V = NULL;
  cn_status st = la_input(&work, &args, a, true, CN_LAPACK_EIG, fn, NULL);
  if (st != CN_OK)
    return st;
  cn_la_keep(&sc, work);
  cn_dtype cdt = cn_complex_dtype(args.dtype);
  int64_t n = args.n, shape[CN_MAX_DIMS];
  int32_t nd = batch_shape(shape, a, 1, n, 0);
  CN_LA_TRY(cn_la_new(&W, a, cdt, nd, shape));
  cn_la_keep(&sc, W);
  if (v != NULL) {
    nd = batch_shape(shape, a, 2, n, n);
    CN_LA_TRY(cn_la_colmajor(&V, NULL, a, cdt, nd, shape));
    cn_la_keep(&sc, V);
  }
  args.vectors = v != NULL;
  args.out0 = W->data;
  args.out1 = V ? V->data : NULL;
  CN_LA_TRY(cn_la_run(&args, a, fn, "Eigenvalues did not converge"));
  bool real = false;
  if (!cn_is_complex(args.dtype))
    CN_LA_TRY(all_real(&real, W));
  cn_array_s *wo = W, *vo = V;
  if (real) {
    /* NumPy: real input with only real eigenvalues gives real results. */
    CN_LA_TRY(cn_real(&wo, W, NULL));
    cn_la_keep(&sc, wo);
    if (V) {
      CN_LA_TRY(cn_real(&vo, V, NULL));
      cn_la_keep(&sc, vo);
    }
  }
  cn_array_retain(wo);
  *w = wo;
  if (v != NULL) {
    cn_array_retain(vo);
    *v = vo;
  }
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_eig(cn_array *w, cn_array *v, cn_array a) {
  if (v == NULL)
    return cn_error(CN_ERR_VALUE, "cn_linalg_eig: output pointer 'v' is NULL");
  return eig_impl(w, v, a, "cn_linalg_eig");
}

cn_status cn_linalg_eigvals(cn_array *w, cn_array a) {
  return eig_impl(w, NULL, a, "cn_linalg_eigvals");
}

static cn_status eigh_impl(cn_array *w, cn_array *v, cn_array a, int32_t upper,
                           const char *fn) {
  CN_CHECK_OUT(w, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_lapack_args args;
  cn_array_s *work = NULL, *W = NULL;
  bool row = false;
  cn_status st = la_input(&work, &args, a, true, CN_LAPACK_EIGH, fn, &row);
  if (st != CN_OK)
    return st;
  int64_t shape[CN_MAX_DIMS];
  int32_t nd = batch_shape(shape, a, 1, args.n, 0);
  cn_array_s *V = NULL;
  st = cn_la_new(&W, a, cn_real_dtype(args.dtype), nd, shape);
  if (st == CN_OK) {
    args.vectors = v != NULL;
    /* Row-major the driver sees a^H (the copy is conjugated), equal to a
     * with its triangles swapped. */
    args.upper = (upper != 0) != row;
    args.out0 = W->data;
    st = cn_la_run(&args, a, fn, "Eigenvalues did not converge");
  }
  /* The eigenvectors are column-major in the work copy either way. */
  if (st == CN_OK && v != NULL && row)
    st = cn_swapaxes(&V, work, -1, -2);
  else if (st == CN_OK && v != NULL) {
    V = work;
    cn_array_retain(V);
  }
  cn_array_release(work);
  if (st != CN_OK) {
    cn_array_release(W);
    return cn_error_prefix(st, fn);
  }
  *w = W;
  if (v != NULL)
    *v = V;
  return CN_OK;
}

cn_status cn_linalg_eigh(cn_array *w, cn_array *v, cn_array a, int32_t upper) {
  if (v == NULL)
    return cn_error(CN_ERR_VALUE, "cn_linalg_eigh: output pointer 'v' is NULL");
  return eigh_impl(w, v, a, upper, "cn_linalg_eigh");
}

cn_status cn_linalg_eigvalsh(cn_array *w, cn_array a, int32_t upper) {
  return eigh_impl(w, NULL, a, upper, "cn_linalg_eigvalsh");
}

cn_status cn_linalg_solve(cn_array *out, cn_array a, cn_array b) {
  const char *fn = "cn_linalg_solve";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  cn_status st = cn_la_check_matrix(a, true, fn, "a");
  if (st != CN_OK)
    return st;
  if (!cn_dtype_is_valid(a->dtype) || !cn_dtype_is_valid(b->dtype))
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype", fn);
  st = cn_la_same_device(a, b, fn);
  if (st != CN_OK)
    return st;
  if (b->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'b' is 0-d", fn);
  int64_t n = a->shape[a->ndim - 1];
  bool vec = b->ndim == 1;
  int64_t brows = vec ? b->shape[0] : b->shape[b->ndim - 2];
  int64_t k = vec ? 1 : b->shape[b->ndim - 1];
  if (brows != n) {
    char s1[256], s2[256];
    return cn_error(CN_ERR_SHAPE,
                    "%s: a of shape %s and b of shape %s do not match (%lld "
                    "rows in b, %lld expected)",
                    fn, cn_la_shape_str(s1, sizeof s1, a->ndim, a->shape),
                    cn_la_shape_str(s2, sizeof s2, b->ndim, b->shape),
                    (long long)brows, (long long)n);
  }
  int32_t nd = 0;
  int64_t bshape[CN_MAX_DIMS];
  {
    const int64_t *shapes[2] = {a->shape, b->shape};
    int32_t ndims[2] = {a->ndim - 2, vec ? 0 : b->ndim - 2};
    st = cn_broadcast_shapes(&nd, bshape, 2, ndims, shapes);
    if (st != CN_OK)
      return cn_error_prefix(st, fn);
  }
  cn_dtype rt;
  st = cn_result_type(&rt, a->dtype, b->dtype);
  if (st != CN_OK)
    return st;
  if (rt == CN_FLOAT16)
    return cn_error(CN_ERR_TYPE, "%s: array type float16 is unsupported in "
                    "linalg", fn);
  rt = cn_la_dtype(rt);
  cn_la_scope sc = {0};
  cn_array_s *A = NULL, *B = NULL, *bm = NULL, *res = NULL;
  int64_t sh[CN_MAX_DIMS];
  memcpy(sh, bshape, sizeof(int64_t) * (size_t)nd);
  sh[nd] = sh[nd + 1] = n;
  /* Row-major a is solved as the transposed problem (no transposing
   * copy). */
  bool row = cn_la_prefers_rows(a);
  CN_LA_TRY(row ? cn_la_rowmajor(&A, a, a, rt, nd + 2, sh, false)
                : cn_la_colmajor(&A, a, a, rt, nd + 2, sh));
  cn_la_keep(&sc, A);
  const cn_array_s *bsrc = b;
  if (vec) {
    int64_t s2[2] = {n, 1};
    CN_LA_TRY(cn_reshape(&bm, b, 2, s2, CN_ORDER_C));
    bsrc = cn_la_keep(&sc, bm);
  }
  sh[nd + 1] = k;
  CN_LA_TRY(cn_la_colmajor(&B, bsrc, a, rt, nd + 2, sh));
  cn_la_keep(&sc, B);
  cn_lapack_args args;
  memset(&args, 0, sizeof args);
  args.kind = CN_LAPACK_SOLVE;
  args.trans = row;
  args.dtype = rt;
  args.batch = cn_la_batch(nd + 2, sh, 2);
  args.m = args.n = n;
  args.k = k;
  args.a = A->data;
  args.b = B->data;
  CN_LA_TRY(cn_la_run(&args, a, fn, "Singular matrix"));
  if (vec) {
    CN_LA_TRY(cn_index_axis(&res, B, -1, 0));
  } else {
    res = B;
    cn_array_retain(res);
  }
  *out = res;
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}

cn_status cn_linalg_inv(cn_array *out, cn_array a) {
  const char *fn = "cn_linalg_inv";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_lapack_args args;
  cn_array_s *w = NULL, *B = NULL;
  bool row = false;
  cn_status st = la_input(&w, &args, a, true, CN_LAPACK_INV, fn, &row);
  if (st != CN_OK)
    return st;
  /* Row-major the driver inverts a^T; inv(a^T) == inv(a)^T, stored
   * column-major, is inv(a) in C order. */
  st = row ? cn_la_new(&B, a, args.dtype, a->ndim, a->shape)
           : cn_la_colmajor(&B, NULL, a, args.dtype, a->ndim, a->shape);
  if (st == CN_OK) {
    args.k = args.n;
    args.b = B->data;
    st = cn_la_run(&args, a, fn, "Singular matrix");
  }
  cn_array_release(w);
  if (st != CN_OK) {
    cn_array_release(B);
    return cn_error_prefix(st, fn);
  }
  *out = B;
  return CN_OK;
}

cn_status cn_linalg_slogdet(cn_array *sign, cn_array *logabsdet, cn_array a) {
  const char *fn = "cn_linalg_slogdet";
  CN_CHECK_OUT(sign, fn);
  CN_CHECK_OUT(logabsdet, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  cn_lapack_args args;
  cn_array_s *w = NULL, *S = NULL, *L = NULL;
  bool row = false; /* det(a^T) == det(a): either packing will do */
  cn_status st = la_input(&w, &args, a, true, CN_LAPACK_SLOGDET, fn, &row);
  if (st != CN_OK)
    return st;
  int64_t shape[CN_MAX_DIMS];
  int32_t nd = batch_shape(shape, a, 0, 0, 0);
  st = cn_la_new(&S, a, args.dtype, nd, shape);
  if (st == CN_OK)
    st = cn_la_new(&L, a, cn_real_dtype(args.dtype), nd, shape);
  if (st == CN_OK) {
    args.out0 = S->data;
    args.out1 = L->data;
    st = cn_la_run(&args, a, fn, "LU factorization failed");
  }
  cn_array_release(w);
  if (st != CN_OK) {
    cn_array_release(S);
    cn_array_release(L);
    return cn_error_prefix(st, fn);
  }
  *sign = S;
  *logabsdet = L;
  return CN_OK;
}

cn_status cn_linalg_det(cn_array *out, cn_array a) {
  const char *fn = "cn_linalg_det";
  CN_CHECK_OUT(out, fn);
  cn_array_s *S = NULL, *L = NULL, *E = NULL;
  cn_status st = cn_linalg_slogdet(&S, &L, a);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  /* det = sign * exp(logdet), as NumPy computes it. */
  st = cn_exp(&E, L, NULL);
  if (st == CN_OK)
    st = cn_multiply(out, S, E, NULL);
  cn_array_release(S);
  cn_array_release(L);
  cn_array_release(E);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

cn_status cn_linalg_lstsq(cn_array *x, cn_array *residuals, cn_array *rank,
                          cn_array *s, cn_array a, cn_array b, double rcond) {
  const char *fn = "cn_linalg_lstsq";
  CN_CHECK_OUT(x, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  CN_CHECK_ARRAY(b, fn, "b");
  if (a->ndim != 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'a' has %d dimensions; 2 are required", fn,
                    (int)a->ndim);
  if (b->ndim != 1 && b->ndim != 2)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'b' has %d dimensions; 1 or 2 are required",
                    fn, (int)b->ndim);
  if (!cn_dtype_is_valid(a->dtype) || !cn_dtype_is_valid(b->dtype))
    return cn_error(CN_ERR_TYPE, "%s: invalid dtype", fn);
  cn_status st = cn_la_same_device(a, b, fn);
  if (st != CN_OK)
    return st;
  int64_t m = a->shape[0], n = a->shape[1];
  bool vec = b->ndim == 1;
  int64_t k = vec ? 1 : b->shape[1];
  if (b->shape[0] != m)
    return cn_error(CN_ERR_SHAPE,
                    "%s: incompatible dimensions: a has %lld rows, b %lld", fn,
                    (long long)m, (long long)b->shape[0]);
  if (isnan(rcond))
    return cn_error(CN_ERR_VALUE, "%s: rcond is NaN", fn);
  cn_dtype rt;
  st = cn_result_type(&rt, a->dtype, b->dtype);
  if (st != CN_OK)
    return st;
  if (rt == CN_FLOAT16)
    return cn_error(CN_ERR_TYPE, "%s: array type float16 is unsupported in "
                    "linalg", fn);
  rt = cn_la_dtype(rt);
  cn_dtype real = cn_real_dtype(rt);
  int64_t mx = m > n ? m : n, mn = m < n ? m : n;
  if (rcond < 0)
    rcond = cn_la_eps(rt) * (double)mx;
  cn_la_scope sc = {0};
  cn_array_s *A = NULL, *B = NULL, *S = NULL, *R = NULL, *bm = NULL;
  cn_array_s *X = NULL, *res = NULL;
  int64_t sh[2] = {m, n};
  CN_LA_TRY(cn_la_colmajor(&A, a, a, rt, 2, sh));
  cn_la_keep(&sc, A);
  sh[0] = mx > 0 ? mx : 1;
  sh[1] = k;
  CN_LA_TRY(cn_la_colmajor(&B, NULL, a, rt, 2, sh));
  cn_la_keep(&sc, B);
  CN_LA_TRY(B->size ? cn_fill(B, cn_scalar_int(0)) : CN_OK);
  {
    const cn_array_s *bsrc = b;
    cn_array_s *top = NULL;
    if (vec) {
      int64_t s2[2] = {m, 1};
      CN_LA_TRY(cn_reshape(&bm, b, 2, s2, CN_ORDER_C));
      bsrc = cn_la_keep(&sc, bm);
    }
    CN_LA_TRY(cn_slice_axis(&top, B, 0, 0, m, 1));
    cn_la_keep(&sc, top);
    CN_LA_TRY(top->size ? cn_assign(top, (cn_array)bsrc) : CN_OK);
  }
  int64_t s1 = mn;
  CN_LA_TRY(cn_la_new(&S, a, real, 1, &s1));
  cn_la_keep(&sc, S);
  CN_LA_TRY(cn_la_new(&R, a, CN_INT64, 0, NULL));
  cn_la_keep(&sc, R);
  cn_lapack_args args;
  memset(&args, 0, sizeof args);
  args.kind = CN_LAPACK_LSTSQ;
  args.dtype = rt;
  args.batch = 1;
  args.m = m;
  args.n = n;
  args.k = k;
  args.rcond = rcond;
  args.a = A->data;
  args.b = B->data;
  args.out0 = S->data;
  args.out1 = R->data;
  CN_LA_TRY(
      cn_la_run(&args, a, fn, "SVD did not converge in Linear Least Squares"));
  CN_LA_TRY(cn_slice_axis(&X, B, 0, 0, n, 1));
  cn_la_keep(&sc, X);
  if (vec) {
    cn_array_s *x1 = NULL;
    CN_LA_TRY(cn_index_axis(&x1, X, -1, 0));
    X = cn_la_keep(&sc, x1);
  }
  cn_scalar rk = {0};
  CN_LA_TRY(cn_item(&rk, R));
  if (residuals != NULL) {
    if (rk.i == n && m > n) {
      /* Rows n..m-1 of the transformed right-hand side hold the residual. */
      cn_array_s *tail = NULL, *ab = NULL, *sq = NULL;
      int32_t ax = 0;
      CN_LA_TRY(cn_slice_axis(&tail, B, 0, n, m, 1));
      cn_la_keep(&sc, tail);
      CN_LA_TRY(cn_abs(&ab, tail, NULL));
      cn_la_keep(&sc, ab);
      CN_LA_TRY(cn_multiply(&sq, ab, ab, NULL));
      cn_la_keep(&sc, sq);
      CN_LA_TRY(cn_sum(&res, sq, 1, &ax, 0, CN_DTYPE_DEFAULT, NULL));
      cn_la_keep(&sc, res);
    } else {
      int64_t z = 0;
      CN_LA_TRY(cn_la_new(&res, a, real, 1, &z));
      cn_la_keep(&sc, res);
    }
  }
  cn_array_retain(X);
  *x = X;
  if (residuals != NULL) {
    cn_array_retain(res);
    *residuals = res;
  }
  if (rank != NULL) {
    cn_array_retain(R);
    *rank = R;
  }
  if (s != NULL) {
    cn_array_retain(S);
    *s = S;
  }
  cn_la_end(&sc);
  return CN_OK;
fail:
  cn_la_end(&sc);
  return cn_error_prefix(st, fn);
}
