/* The CBLAS and LAPACKE interface of the CPU backend, from one of two
 * providers chosen at configure time (CMake option CUNUMPY_BLAS):
 * - "debian": Debian's OpenBLAS with the reference LAPACKE (libopenblas-dev,
 *   liblapacke-dev), plain names (cblas_dgemm, LAPACKE_dgesv);
 * - "scipy-openblas": the OpenBLAS of the scipy-openblas32 wheel, whose
 *   headers declare and whose library exports every name with a "scipy_"
 *   prefix (scipy_cblas_dgemm, scipy_LAPACKE_dgesv), so that it can share a
 *   process with any other BLAS (NumPy's included).
 * Code names a routine through CN_CBLAS(dgemm) / CN_LAPACKE(dgesv). */
#ifndef CUNUMPY_CPU_BLAS_H
#define CUNUMPY_CPU_BLAS_H

#include <cblas.h>
#include <lapacke.h>

#ifdef CUNUMPY_BLAS_SCIPY
#define CN_CBLAS(name) scipy_cblas_##name
#define CN_LAPACKE(name) scipy_LAPACKE_##name
#define CN_OPENBLAS(name) scipy_openblas_##name
#else
#define CN_CBLAS(name) cblas_##name
#define CN_LAPACKE(name) LAPACKE_##name
#define CN_OPENBLAS(name) openblas_##name
#endif

#endif
