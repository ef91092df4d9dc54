/* cunumpy/linalg.h: products, contractions and linear algebra (NumPy's
 * numpy.* products and numpy.linalg), on OpenBLAS/LAPACKE for the CPU and,
 * for the products, cuBLAS on CUDA arrays (cn_matmul).
 *
 * Common rules. Inputs are never modified and may have any strides.
 * Decompositions accept stacked matrices (..., M, N) and return stacked
 * results. Compute dtypes: float32, float64, complex64, complex128 stay as
 * they are; bool and integer inputs are computed in float64 (products keep
 * integer dtypes, as NumPy). A LAPACK failure (singular matrix, matrix not
 * positive definite, no convergence) and the other cases NumPy reports as
 * numpy.linalg.LinAlgError (called LinAlgError below) are CN_ERR_LINALG
 * (Python raises cunumpy.linalg.LinAlgError); NaNs are never returned in
 * place of an error. Every output handle is a new
 * reference; on failure nothing is written to any output. */
#ifndef CUNUMPY_LINALG_H
#define CUNUMPY_LINALG_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- products ------------------------------------------------------- */

/* Matrix product with NumPy's matmul rules: stacked matrices broadcast over
 * the leading dims; a 1-d operand is a row (a) or column (b) vector whose
 * axis is removed from the result. CN_ERR_VALUE for 0-d operands,
 * CN_ERR_SHAPE for mismatched core dims or batch dims that do not broadcast.
 * dst (may be NULL) receives the result (shape must match, dtype is cast);
 * *out is then a new reference to dst. On CUDA arrays: cuBLAS for float
 * and complex dtypes (float32 / complex64 exact by default; the
 * environment variable CUNUMPY_CUDA_TF32=1, read once, allows TF32 tensor
 * cores), a generated kernel for integers and bool. For float and complex
 * dtypes, CN_ERR_VALUE when a matrix extent exceeds 2^31 - 1 (the int of
 * BLAS and cuBLAS), on either backend. */
CN_API cn_status cn_matmul(cn_array *out, cn_array a, cn_array b, cn_array dst);
/* numpy.dot: scalar product for 0-d operands, inner product of 1-d vectors,
 * matmul for 2-d, else a sum over the last axis of a and the second-to-last
 * of b. CN_ERR_SHAPE when those extents differ. dst as cn_matmul. */
CN_API cn_status cn_dot(cn_array *out, cn_array a, cn_array b, cn_array dst);
/* sum(conj(a.ravel()) * b.ravel()), a 0-d result. CN_ERR_SHAPE when the
 * sizes differ. */
CN_API cn_status cn_vdot(cn_array *out, cn_array a, cn_array b);
/* Sum product over the last axes (0-d operands scale the other). */
CN_API cn_status cn_inner(cn_array *out, cn_array a, cn_array b);
/* Outer product of the flattened operands, shape (a.size, b.size). */
CN_API cn_status cn_outer(cn_array *out, cn_array a, cn_array b);
/* Sum product over axes_a[i] of a and axes_b[i] of b (naxes pairs). With
 * axes_a and axes_b both NULL, naxes is NumPy's integer form: the last
 * naxes axes of a with the first naxes axes of b. CN_ERR_AXIS for an axis
 * out of range, CN_ERR_VALUE for a repeated axis or negative naxes,
 * CN_ERR_SHAPE for extents that differ. */
CN_API cn_status cn_tensordot(cn_array *out, cn_array a, cn_array b,
                              int32_t naxes, const int32_t *axes_a,
                              const int32_t *axes_b);
/* Einstein summation over n operands ("ij,jk->ik", implicit output when
 * "->" is absent, "..." broadcasting). Supported: any subscripts whose
 * operands each have letters a-z/A-Z, repeated letters within an operand
 * (diagonals), sums over letters absent from the output, and contractions
 * between operands (evaluated pairwise, left to right, as batched matmul
 * plus permutations). CN_ERR_VALUE names the offending subscript (a byte
 * >= 0x80, which no subscript is, by its byte position). */
CN_API cn_status cn_einsum(cn_array *out, const char *subscripts, int32_t n,
                           const cn_array *operands);
/* Kronecker product (block matrix of a[i] * b). */
CN_API cn_status cn_kron(cn_array *out, cn_array a, cn_array b);
/* Sum along the diagonal (offset, axis1, axis2) as numpy.trace; dtype
 * CN_DTYPE_DEFAULT uses sum's accumulator dtype. CN_ERR_VALUE for ndim < 2
 * or axis1 == axis2, CN_ERR_AXIS for axes out of range. */
CN_API cn_status cn_trace(cn_array *out, cn_array a, int64_t offset,
                          int32_t axis1, int32_t axis2, cn_dtype dtype);
/* Read-only view of the diagonal (offset, axis1, axis2), appended as the
 * last axis, as numpy.diagonal. Errors as cn_trace. */
CN_API cn_status cn_diagonal(cn_array *out, cn_array a, int64_t offset,
                             int32_t axis1, int32_t axis2);
/* Cross product of 2- or 3-vectors along axisa of a and axisb of b
 * (broadcast), result vectors along axisc (2-vectors give a scalar z,
 * without that axis). CN_ERR_VALUE for other vector lengths. */
CN_API cn_status cn_cross(cn_array *out, cn_array a, cn_array b, int32_t axisa,
                          int32_t axisb, int32_t axisc);
/* Product of n >= 2 matrices in the cheapest association order; the first
 * and last may be 1-d. CN_ERR_VALUE for n < 2 or operands not 2-d. */
CN_API cn_status cn_linalg_multi_dot(cn_array *out, int32_t n,
                                     const cn_array *arrays);
/* a**n for stacked square matrices (n < 0 inverts first; n == 0 gives the
 * identity). Integer dtypes are kept for n >= 0. */
CN_API cn_status cn_linalg_matrix_power(cn_array *out, cn_array a, int64_t n);

/* ---- decompositions ------------------------------------------------- */

/* Cholesky factor: lower L with L @ L^H == a, or upper U with U^H @ U == a
 * when upper. LinAlgError when not positive definite. */
CN_API cn_status cn_linalg_cholesky(cn_array *out, cn_array a, int32_t upper);

/* numpy.linalg.qr modes. */
typedef enum cn_qr_mode {
  CN_QR_REDUCED = 0,  /* q (M, K), r (K, N), K = min(M, N) */
  CN_QR_COMPLETE = 1, /* q (M, M), r (M, N) */
  CN_QR_R = 2,        /* r (K, N) only */
  CN_QR_RAW = 3,      /* geqrf's result: q <- h (N, M), r <- tau (K) */
  CN_QR_FORCE_INT32_ = 0x7fffffff
} cn_qr_mode;
/* QR factorisation. In mode CN_QR_R, q is not written (it may be NULL);
 * the other modes need it. CN_QR_RAW is numpy's mode='raw': h^T holds R in
 * its upper triangle and the Householder vectors below, tau their scale
 * factors; for a stack (..., M, N), h is (..., N, M) and tau (..., K). */
CN_API cn_status cn_linalg_qr(cn_array *q, cn_array *r, cn_array a,
                              cn_qr_mode mode);
/* Singular values s (real, descending); with compute_uv, u and vh such that
 * u @ diag(s) @ vh == a (full_matrices: square u and vh). Without
 * compute_uv, u and vh are not written (they may be NULL). LinAlgError when
 * the SVD does not converge. */
CN_API cn_status cn_linalg_svd(cn_array *u, cn_array *s, cn_array *vh,
                               cn_array a, int32_t full_matrices,
                               int32_t compute_uv);
/* cn_linalg_svd with NumPy's hermitian flag. With hermitian != 0, a must
 * be square Hermitian (its lower triangle is read) and the SVD comes from
 * eigh: s = |w| descending, u = the eigenvectors in that order, vh =
 * (u * copysign(1, w))^H; full_matrices has no effect. */
CN_API cn_status cn_linalg_svd_ex(cn_array *u, cn_array *s, cn_array *vh,
                                  cn_array a, int32_t full_matrices,
                                  int32_t compute_uv, int32_t hermitian);
/* Eigenvalues w and right eigenvectors v (columns) of square matrices. As
 * NumPy, real inputs give real w and v when every eigenvalue is real, else
 * complex. v may be NULL (eigvals). */
CN_API cn_status cn_linalg_eig(cn_array *w, cn_array *v, cn_array a);
CN_API cn_status cn_linalg_eigvals(cn_array *w, cn_array a);
/* Eigenvalues (real, ascending) and orthonormal eigenvectors of Hermitian
 * matrices, reading the lower triangle (upper when upper != 0). */
CN_API cn_status cn_linalg_eigh(cn_array *w, cn_array *v, cn_array a,
                                int32_t upper);
CN_API cn_status cn_linalg_eigvalsh(cn_array *w, cn_array a, int32_t upper);

/* ---- norms and numbers ---------------------------------------------- */

/* Norm orders (numpy.linalg.norm's ord). CN_NORM_P takes the number p
 * (INFINITY and -INFINITY allowed; p == 0 counts non-zeros for vectors). */
typedef enum cn_norm_ord {
  CN_NORM_DEFAULT = 0, /* ord=None: 2-norm of vectors, Frobenius matrices */
  CN_NORM_P = 1,
  CN_NORM_FRO = 2,
  CN_NORM_NUC = 3,
  CN_NORM_FORCE_INT32_ = 0x7fffffff
} cn_norm_ord;
/* Vector norm over one axis or matrix norm over two (naxes 1 or 2), or,
 * with naxes == -1 (axis=None), the vector norm of a 1-d or flattened
 * array (ord must then be default) or the matrix norm of a 2-d array.
 * Matrix orders: fro, nuc, p in {1, -1, 2, -2, inf, -inf}. Result is real.
 * CN_ERR_VALUE for an invalid order for the number of axes. */
CN_API cn_status cn_linalg_norm(cn_array *out, cn_array a, cn_norm_ord ord,
                                double p, int32_t naxes, const int32_t *axes,
                                int32_t keepdims);
/* Condition number in the given matrix norm (default: 2-norm, via SVD). */
CN_API cn_status cn_linalg_cond(cn_array *out, cn_array a, cn_norm_ord ord,
                                double p);
/* Determinant, and sign with log|det| (singular: 0 and -inf, no error). */
CN_API cn_status cn_linalg_det(cn_array *out, cn_array a);
CN_API cn_status cn_linalg_slogdet(cn_array *sign, cn_array *logabsdet,
                                   cn_array a);
/* Rank: number of singular values > tol (tol < 0: S.max() * max(M, N) *
 * eps, NumPy's default). */
CN_API cn_status cn_linalg_matrix_rank(cn_array *out, cn_array a, double tol);

/* cn_linalg_matrix_rank with NumPy 2's full signature: tol >= 0 is an
 * absolute threshold; else rtol >= 0 a threshold relative to the largest
 * singular value (rtol < 0: max(M, N) * eps); both >= 0 is CN_ERR_VALUE.
 * hermitian: singular values from eigvalsh (a square). */
CN_API cn_status cn_linalg_matrix_rank_ex(cn_array *out, cn_array a, double tol,
                                          double rtol, int32_t hermitian);

/* ---- solving -------------------------------------------------------- */

/* x with a @ x == b. b is (..., M) when its ndim is 1, else (..., M, K)
 * (stacks broadcast). LinAlgError for a singular a. */
CN_API cn_status cn_linalg_solve(cn_array *out, cn_array a, cn_array b);
/* Inverse of stacked square matrices. LinAlgError when singular. */
CN_API cn_status cn_linalg_inv(cn_array *out, cn_array a);
/* Pseudo-inverse via SVD; singular values <= rcond * max(s) are dropped
 * (rcond < 0 selects NumPy's default 1e-15). */
CN_API cn_status cn_linalg_pinv(cn_array *out, cn_array a, double rcond);
/* cn_linalg_pinv with NumPy's hermitian flag (a square Hermitian: the SVD
 * comes from eigh, see cn_linalg_svd_ex). */
CN_API cn_status cn_linalg_pinv_ex(cn_array *out, cn_array a, double rcond,
                                   int32_t hermitian);
/* Inverse of a tensor for tensordot with ind leading axes: a read as a
 * (prod(shape[ind:]), prod(shape[:ind])) matrix, result of shape
 * shape[ind:] + shape[:ind]. CN_ERR_VALUE for ind <= 0 or a non-square
 * reading (LinAlgError), LinAlgError when singular. */
CN_API cn_status cn_linalg_tensorinv(cn_array *out, cn_array a, int32_t ind);
/* x with tensordot(a, x, x.ndim) == b. The naxes axes of a given in axes
 * (negative counts from the end) first move to the end, in that order.
 * Then x has shape a.shape[b.ndim:], whose product must equal that of
 * a.shape[:b.ndim] (else LinAlgError) and b's size (else CN_ERR_SHAPE). */
CN_API cn_status cn_linalg_tensorsolve(cn_array *out, cn_array a, cn_array b,
                                       int32_t naxes, const int32_t *axes);
/* Least-squares solution of a @ x == b for a 2-d a (M, N) and b (M) or
 * (M, K): x, residuals (sum of squared residuals per column when M > N and
 * rank == N, else empty), rank (0-d int64) and s (singular values of a).
 * rcond < 0 selects eps * max(M, N). Any output pointer but x may be NULL. */
CN_API cn_status cn_linalg_lstsq(cn_array *x, cn_array *residuals,
                                 cn_array *rank, cn_array *s, cn_array a,
                                 cn_array b, double rcond);

#ifdef __cplusplus
}
#endif
#endif
