/* Descriptors passed from the core's linear-algebra and FFT entry points to
 * a backend's matmul / lapack / fft slots (core/internal.h). The core has
 * validated everything, resolved dtypes and allocated every array; the
 * backend only computes. Shared with the CUDA plugin. The FFT descriptor
 * lives in linalg/fft_desc.h, which C++ tests can include. */
#ifndef CUNUMPY_LINALG_BACKEND_H
#define CUNUMPY_LINALG_BACKEND_H

#include "internal.h"
#include "linalg/fft_desc.h"

/* out[i] = op(a[i]) @ b[i] for every batch index i. a is (..., m, k), b is
 * (..., k, n), out is (..., m, n); all three have the same ndim (>= 2), the
 * same batch extents (a and b may have stride 0 there), any strides, one
 * dtype (any numeric dtype or bool). out overlaps neither input. */
struct cn_gemm_desc {
  const cn_array_s *a;
  const cn_array_s *b;
  cn_array_s *out;
  bool conj_a; /* op(a) = conj(a) (complex dtypes only), else a */
};

/* LAPACK drivers. Every matrix argument points at `batch` packed
 * column-major matrices (matrix i starts at ptr + i * rows * cols * itemsize)
 * on the backend's device; vectors are packed the same way. `dtype` is that
 * of a (float32, float64, complex64, complex128); "real" below means the
 * real dtype of the same precision. */
typedef enum cn_lapack_kind {
  /* a (n,n): replaced by its Cholesky factor (lower, or upper when upper),
   * the other triangle zeroed. info > 0: not positive definite. */
  CN_LAPACK_CHOLESKY,
  /* a (m,n) destroyed. out0 = r: NULL, or (kr, n) with kr = min(m,n) or m
   * when full; out1 = q: NULL, or (m, kr); out2 = tau: NULL, or (min(m,n)),
   * a then left as geqrf's result (numpy's mode 'raw'). */
  CN_LAPACK_QR,
  /* a (m,n) destroyed. out0 = s (min(m,n), real); when vectors: out1 = u
   * (m, m or min) and out2 = vh (n or min, n) (full selects m / n).
   * info > 0: no convergence. */
  CN_LAPACK_SVD,
  /* a (n,n) destroyed. out0 = w (n, complex dtype of the precision); out1 =
   * NULL or v (n,n, complex). info > 0: no convergence. */
  CN_LAPACK_EIG,
  /* a (n,n) Hermitian, read from the upper or lower triangle; replaced by
   * the eigenvectors when vectors. out0 = w (n, real, ascending). */
  CN_LAPACK_EIGH,
  /* a (n,n) destroyed, b (n,k) replaced by the solution of a @ x == b, or
   * of a^T @ x == b when trans (a then holds a row-major matrix). info > 0:
   * singular. */
  CN_LAPACK_SOLVE,
  /* a (n,n) destroyed, b (n,n) receives inv(a). info > 0: singular. */
  CN_LAPACK_INV,
  /* a (n,n) destroyed. out0 = sign (1 value, a's dtype), out1 = log|det|
   * (1 value, real); singular gives sign 0 and -inf (no error). */
  CN_LAPACK_SLOGDET,
  /* a (m,n) destroyed; b (max(m,n), k) holds the right-hand sides and
   * receives the solution in its first n rows (residual rows below when
   * m > n). out0 = s (min(m,n), real), out1 = rank (1 int64). rcond as
   * LAPACK's gelsd. */
  CN_LAPACK_LSTSQ,
  CN_LAPACK_KIND_COUNT_
} cn_lapack_kind;

struct cn_lapack_args {
  cn_lapack_kind kind;
  cn_dtype dtype;
  int64_t batch, m, n, k;
  bool upper, vectors, full;
  bool trans; /* CN_LAPACK_SOLVE only, see there */
  double rcond;
  void *a, *b, *out0, *out1, *out2;
  /* Set by the backend: first LAPACK info > 0 and its batch index. */
  int64_t info;
  int64_t info_index;
};

#endif
