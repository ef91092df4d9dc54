/* How the CUDA lapack slot runs one cn_lapack_args on cuSOLVER: which
 * routine (batched Jacobi or one matrix at a time, gesvd directly or on the
 * adjoint), the shapes and leading dimensions handed to it, and where each
 * temporary lives in the one scratch block of the call. Pure C without CUDA
 * headers, so the CPU tests (tests/test_cuda_lapack_plan.cpp) check every
 * decision; core/cuda/lapack.c only executes the plan. */
#ifndef CUNUMPY_CUDA_LAPACK_PLAN_H
#define CUNUMPY_CUDA_LAPACK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest extent cuSOLVER's batched Jacobi routines (gesvdjBatched,
 * syevjBatched) accept. */
#define CN_CU_LA_JACOBI_MAX 32
/* Alignment of every region of the scratch block (bytes). */
#define CN_CU_LA_ALIGN 256

/* The drivers, in the planner's own terms (core/cuda/lapack.c maps
 * cn_lapack_kind onto them). */
typedef enum cn_cu_la_op {
  CN_CU_LA_CHOLESKY,
  CN_CU_LA_QR,
  CN_CU_LA_SVD,
  CN_CU_LA_EIG,
  CN_CU_LA_EIGH,
  CN_CU_LA_SOLVE,
  CN_CU_LA_INV,
  CN_CU_LA_SLOGDET,
  CN_CU_LA_LSTSQ
} cn_cu_la_op;

typedef enum cn_cu_la_route {
  CN_CU_LA_NOTHING,       /* empty problem: only fills (identity, zeros) */
  CN_CU_LA_POTRF,         /* Xpotrf per matrix, triangle zeroed after */
  CN_CU_LA_GEQRF,         /* Xgeqrf (+ orgqr/ungqr) per matrix */
  CN_CU_LA_GESVD,         /* Xgesvd per matrix on a (m >= n) */
  CN_CU_LA_GESVD_ADJOINT, /* Xgesvd per matrix on a^H (m < n) */
  CN_CU_LA_GESVDJ_BATCHED,
  CN_CU_LA_GEEV,          /* Xgeev per matrix */
  CN_CU_LA_SYEVD,         /* Xsyevd per matrix */
  CN_CU_LA_SYEVJ_BATCHED,
  CN_CU_LA_GETRF,         /* Xgetrf per matrix (+ Xgetrs for solve / inv) */
  CN_CU_LA_LSTSQ_SVD      /* gesvd (svd_route), then small kernels */
} cn_cu_la_route;

/* One region of the scratch block: offset and size in bytes (size 0: not
 * used). */
typedef struct cn_cu_la_region {
  size_t off, bytes;
} cn_cu_la_region;

typedef struct cn_cu_lapack_plan {
  cn_cu_la_route route;
  /* The SVD route inside CN_CU_LA_LSTSQ_SVD (GESVD or GESVD_ADJOINT), else
   * route itself. */
  cn_cu_la_route svd_route;
  /* Shape handed to the factorization routine (the adjoint's for
   * CN_CU_LA_GESVD_ADJOINT) and its leading dimension. */
  int64_t rm, rn, lda;
  /* SVD outputs: ucols = columns of u, vrows = rows of vh (the contract's
   * shapes); the routine's own u/vt shapes (ru_rows x ru_cols, ldu; rvt_rows
   * x rvt_cols, ldvt). */
  int64_t ucols, vrows;
  /* QR: rows of r (min(m,n), or m when complete). */
  int64_t kr;
  int64_t ru_rows, ru_cols, ldu, rvt_rows, rvt_cols, ldvt;
  /* jobu / jobvt of gesvd ('A', 'S', 'N'). */
  char jobu, jobvt;
  /* Whether u and vh are produced in scratch and copied (adjointed) into
   * the outputs afterwards, instead of written in place by the routine. */
  bool u_via_scratch, vt_via_scratch;
  /* Device-side checks before the routine: none (0), any NaN (1), any
   * non-finite value (2); for lstsq the right-hand sides are checked too. */
  int finite_check;
  /* Info slots: batch for the factorization, plus batch for a second
   * routine (orgqr, getrs) when there is one. */
  int64_t ninfo;
  bool second_routine;
  /* Regions of the scratch block. info (int32 x ninfo) and flag (one int32)
   * come first and adjacent, so that one copy reads both back. ipiv: int64
   * pivots (one matrix, or every matrix for slogdet, whose kernel reads
   * them all); tau: geqrf's reflectors (one matrix); work: the routine's
   * device workspace; a_adj: a^H of every matrix; u_tmp / vt_tmp: the
   * routine's u and vt (or V for gesvdj; u_tmp holds geev's real right
   * vectors) when they are not written in place; lsq_u, lsq_vt, c_tmp:
   * lstsq's u, vh and u^H b. */
  cn_cu_la_region info, flag, ipiv, tau, work, a_adj, u_tmp, vt_tmp, lsq_u,
      lsq_vt, c_tmp;
  size_t total;
} cn_cu_lapack_plan;

/* The problem the plan is made for (a subset of cn_lapack_args). itemsize is
 * that of the dtype (8 for complex64), real_size of its real part. */
typedef struct cn_cu_la_problem {
  cn_cu_la_op op;
  int64_t batch, m, n, k;
  bool vectors, full; /* QR: vectors = q wanted */
  size_t itemsize, real_size;
} cn_cu_la_problem;

/* Chooses the route and the shapes for p (lwork not yet known). Returns
 * false (and leaves *plan zeroed) for an unknown kind or negative extents. */
bool cn_cu_lapack_plan_make(cn_cu_lapack_plan *plan,
                            const cn_cu_la_problem *p);

/* Lays out the scratch block once the routine's device workspace size is
 * known (work_bytes, from its bufferSize query): fills the regions and
 * total. Returns false when a size overflows size_t. */
bool cn_cu_lapack_plan_layout(cn_cu_lapack_plan *plan,
                              const cn_cu_la_problem *p, size_t work_bytes);

/* The first info > 0 among the first `batch` slots (1-based LAPACK code)
 * and its batch index, or 0 and -1; *bad is the first negative slot index
 * (or -1), which is an argument error of the routine. */
void cn_cu_lapack_first_info(const int32_t *info, int64_t ninfo,
                             int64_t batch, int64_t *first, int64_t *index,
                             int64_t *bad);

#ifdef __cplusplus
}
#endif
#endif
