/* Source generation of the lapack slot's small kernels (templates in
 * core/cuda/lapack.cuh, embedded as cn_cu_lapack_text). Plain C, linked by
 * the NVRTC test as well as the plugin. */
#ifndef CUNUMPY_CUDA_LAPACK_KERNELS_H
#define CUNUMPY_CUDA_LAPACK_KERNELS_H

#include "codegen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernels; each program holds one, names[0]. Arguments, in order:
 *  TRI_ZERO  (ll n, ll batch, int upper, T *a): zeroes the other triangle
 *  EYE       (ll r, ll c, ll batch, T *a): identity r x c matrices
 *  COPY      (ll batch, ll ro, ll co, T *out, ll ldo, ll sbo, const T *in,
 *             ll ldi, ll sbi, ll ri, ll ci, int adjoint, int upper)
 *  NONFINITE (ll count, const T *p, int nan_only, int *flag): flag = 1
 *  SLOGDET   (ll n, ll batch, const T *a, const ll *ipiv, const int *info,
 *             T *sign, R *logdet): one thread per matrix
 *  EIGVEC    (ll n, const R *vr, const C *w, C *v): real dtypes only
 *  AH_B      (ll rows, ll cols, ll L, const T *A, ll lda, const T *B,
 *             ll ldb, T *C, ll ldc): C = A^H B
 *  LSTSQ_CUT (ll mn, ll k, const R *s, double rcond, T *c, ll ldc,
 *             ll *rank): one block; rows of c scaled by 1/s or zeroed */
typedef enum cn_cu_la_kernel {
  CN_CU_LAK_TRI_ZERO,
  CN_CU_LAK_EYE,
  CN_CU_LAK_COPY,
  CN_CU_LAK_NONFINITE,
  CN_CU_LAK_SLOGDET,
  CN_CU_LAK_EIGVEC,
  CN_CU_LAK_AH_B,
  CN_CU_LAK_LSTSQ_CUT,
  CN_CU_LAK_COUNT_
} cn_cu_la_kernel;

/* Short name of a kernel ("tri_zero"), NULL if invalid. */
const char *cn_cu_la_kernel_name(cn_cu_la_kernel which);

/* The lapack helpers (core/cuda/lapack.cuh), embedded at build time. */
extern const char cn_cu_lapack_text[];

/* Appends the helpers (once per program: when with_helpers) and kernel
 * `which` for dtype dt (float32, float64, complex64, complex128) to s and
 * writes its name into names[0]. False for a combination without a kernel
 * (EIGVEC of a complex dtype, any other dtype). */
bool cn_cu_gen_lapack(cn_cu_src *s, cn_cu_la_kernel which, cn_dtype dt,
                      bool with_helpers, char names[][CN_CU_NAME_CAP]);

#ifdef __cplusplus
}
#endif
#endif
