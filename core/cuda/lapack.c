/* The lapack compute slot on cuSOLVER: every cn_lapack_kind over a batch of
 * packed column-major device matrices, with the CPU backend's results and
 * statuses (core/cpu/linalg/lapack.c). The planner (lapack_plan.c) chooses
 * the routine and lays out one stream-ordered scratch block per call (info
 * slots, finiteness flag, pivots, reflectors, workspace, temporaries); this
 * file queries the workspace sizes, issues the cuSOLVER calls and the small
 * generated kernels (lapack_kernels.c) on the thread's current stream, and
 * reads the device-side info values back once, after the batch. Inputs the
 * CPU refuses for holding NaN or inf are refused the same way, from a
 * device-side flag, before any routine runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusolverDn.h>

#include "../linalg/descriptors.h"
#include "cuda_internal.h"
#include "lapack_kernels.h"
#include "lapack_plan.h"

#define THREADS 256

typedef struct {
  cn_cu_la_kernel which;
  cn_dtype dt;
} lak_ctx;

static bool gen_lak(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  const lak_ctx *c = ctx;
  return cn_cu_gen_lapack(s, c->which, c->dt, true, names);
}

/* Launches kernel `which` over total elements (grid-stride), or as one
 * block for the kernels that work in a single block. */
static cn_status kern(cn_cu_la_kernel which, cn_dtype dt, long long total,
                      void **args) {
  if (total <= 0 && which != CN_CU_LAK_LSTSQ_CUT)
    return CN_OK;
  lak_ctx c = {which, dt};
  char key[64], what[64];
  snprintf(key, sizeof key, "la:%s:%s", cn_cu_la_kernel_name(which),
           cn_cu_tag(dt));
  snprintf(what, sizeof what, "lapack %s (%s)", cn_cu_la_kernel_name(which),
           cn_cu_tag(dt));
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, key, 0, gen_lak, &c);
  if (st != CN_OK)
    return st;
  long long blocks = (total + THREADS - 1) / THREADS;
  if (which == CN_CU_LAK_LSTSQ_CUT || blocks < 1)
    blocks = 1;
  if (blocks > 65536)
    blocks = 65536;
  return cn_cu_launch(k, blocks, 1, THREADS, args, what);
}

/* One call's state. */
typedef struct {
  cn_lapack_args *a;
  cn_cu_la_problem p;
  cn_cu_lapack_plan pl;
  cusolverDnHandle_t h;
  cusolverDnParams_t params;
  gesvdjInfo_t svdj;
  syevjInfo_t syevj;
  cudaDataType t, rt; /* the dtype's and its real part's */
  char *scratch;
  void *hwork;
  size_t dbytes, hbytes;
  int lwork2; /* orgqr's / the Jacobi routines' workspace, in elements */
} la_call;

#define SOLVER(call, what)                                                     \
  do {                                                                         \
    cusolverStatus_t s_ = (call);                                              \
    if (CN_UNLIKELY(s_ != CUSOLVER_STATUS_SUCCESS))                            \
      return cn_cu_cusolver_fail((int)s_, what);                               \
  } while (0)
#define TRY(expr)                                                              \
  do {                                                                         \
    cn_status t_ = (expr);                                                     \
    if (t_ != CN_OK)                                                           \
      return t_;                                                               \
  } while (0)

/* One cuSOLVER function per dtype (the legacy API has no generic form). */
#define PICK(dt, S, D, C, Z, ...)                                              \
  ((dt) == CN_FLOAT32   ? S(__VA_ARGS__)                                       \
   : (dt) == CN_FLOAT64 ? D(__VA_ARGS__)                                       \
   : (dt) == CN_COMPLEX64 ? C(__VA_ARGS__)                                     \
                          : Z(__VA_ARGS__))

static void *at(const la_call *c, const cn_cu_la_region *r) {
  return r->bytes ? c->scratch + r->off : NULL;
}
static int *info_at(const la_call *c, int64_t slot) {
  return (int *)(c->scratch + c->pl.info.off) + slot;
}
static char *elem(void *base, int64_t idx, size_t isz) {
  return (char *)base + (size_t)idx * isz;
}
static cublasFillMode_t fill(bool upper) {
  return upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

/* out (ro x co, ldo; batch stride sbo) = in's ri x ci block (adjointed, or
 * its upper triangle), zero elsewhere. Strides in elements. */
static cn_status copy_block(const la_call *c, long long batch, long long ro,
                            long long co, void *out, long long ldo,
                            long long sbo, const void *in, long long ldi,
                            long long sbi, long long ri, long long ci,
                            int adjoint, int upper) {
  void *args[] = {&batch, &ro,  &co, &out, &ldo,     &sbo,  &in,
                  &ldi,   &sbi, &ri, &ci,  &adjoint, &upper};
  return kern(CN_CU_LAK_COPY, c->a->dtype, batch * ro * co, args);
}

static cn_status eye(const la_call *c, void *p, long long r, long long cols,
                     long long batch) {
  void *args[] = {&r, &cols, &batch, &p};
  return kern(CN_CU_LAK_EYE, c->a->dtype, r * cols * batch, args);
}

/* ---- workspace queries ---------------------------------------------------- */

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

static cn_status query(la_call *c) {
  cn_lapack_args *a = c->a;
  const cn_cu_lapack_plan *pl = &c->pl;
  int64_t n = a->n, m = a->m;
  size_t d = 0, hb = 0;
  int lw = 0;
  cusolverEigMode_t jobz =
      a->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  switch (pl->route) {
  case CN_CU_LA_POTRF:
    SOLVER(cusolverDnXpotrf_bufferSize(c->h, c->params, fill(a->upper), n,
                                       c->t, a->a, n, c->t, &d, &hb),
           "cusolverDnXpotrf_bufferSize");
    break;
  case CN_CU_LA_GEQRF:
    SOLVER(cusolverDnXgeqrf_bufferSize(c->h, c->params, m, n, c->t, a->a,
                                       pl->lda, c->t, a->a, c->t, &d, &hb),
           "cusolverDnXgeqrf_bufferSize");
    if (pl->second_routine) {
      SOLVER(PICK(a->dtype, cusolverDnSorgqr_bufferSize,
                  cusolverDnDorgqr_bufferSize, cusolverDnCungqr_bufferSize,
                  cusolverDnZungqr_bufferSize, c->h, (int)m, (int)pl->kr,
                  (int)(m < n ? m : n), a->a, (int)m, a->a, &lw),
             "cusolverDnXorgqr_bufferSize");
      c->lwork2 = lw;
      d = max_size(d, (size_t)lw * c->p.itemsize);
    }
    break;
  case CN_CU_LA_GESVD:
  case CN_CU_LA_GESVD_ADJOINT:
  case CN_CU_LA_LSTSQ_SVD:
    SOLVER(cusolverDnXgesvd_bufferSize(
               c->h, c->params, (signed char)pl->jobu, (signed char)pl->jobvt,
               pl->rm, pl->rn, c->t, a->a, pl->lda, c->rt, a->a, c->t, a->a,
               pl->ldu, c->t, a->a, pl->ldvt, c->t, &d, &hb),
           "cusolverDnXgesvd_bufferSize");
    break;
  case CN_CU_LA_GESVDJ_BATCHED:
    SOLVER(cusolverDnCreateGesvdjInfo(&c->svdj), "cusolverDnCreateGesvdjInfo");
    SOLVER(PICK(a->dtype, cusolverDnSgesvdjBatched_bufferSize,
                cusolverDnDgesvdjBatched_bufferSize,
                cusolverDnCgesvdjBatched_bufferSize,
                cusolverDnZgesvdjBatched_bufferSize, c->h, jobz, (int)m,
                (int)n, a->a, (int)m, a->a, a->a, (int)m, a->a, (int)n, &lw,
                c->svdj, (int)a->batch),
           "cusolverDnXgesvdjBatched_bufferSize");
    c->lwork2 = lw;
    d = (size_t)lw * c->p.itemsize;
    break;
  case CN_CU_LA_GEEV: {
    cudaDataType ct = c->t == CUDA_R_32F   ? CUDA_C_32F
                      : c->t == CUDA_R_64F ? CUDA_C_64F
                                           : c->t;
    SOLVER(cusolverDnXgeev_bufferSize(
               c->h, c->params, CUSOLVER_EIG_MODE_NOVECTOR,
               a->out1 ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR,
               n, c->t, a->a, n, ct, a->a, c->t, NULL, 1, c->t, a->a, n, c->t,
               &d, &hb),
           "cusolverDnXgeev_bufferSize");
    break;
  }
  case CN_CU_LA_SYEVD:
    SOLVER(cusolverDnXsyevd_bufferSize(c->h, c->params, jobz, fill(a->upper),
                                       n, c->t, a->a, n, c->rt, a->a, c->t,
                                       &d, &hb),
           "cusolverDnXsyevd_bufferSize");
    break;
  case CN_CU_LA_SYEVJ_BATCHED:
    SOLVER(cusolverDnCreateSyevjInfo(&c->syevj), "cusolverDnCreateSyevjInfo");
    SOLVER(PICK(a->dtype, cusolverDnSsyevjBatched_bufferSize,
                cusolverDnDsyevjBatched_bufferSize,
                cusolverDnCheevjBatched_bufferSize,
                cusolverDnZheevjBatched_bufferSize, c->h, jobz,
                fill(a->upper), (int)n, a->a, (int)n, a->a, &lw, c->syevj,
                (int)a->batch),
           "cusolverDnXsyevjBatched_bufferSize");
    c->lwork2 = lw;
    d = (size_t)lw * c->p.itemsize;
    break;
  case CN_CU_LA_GETRF:
    SOLVER(cusolverDnXgetrf_bufferSize(c->h, c->params, n, n, c->t, a->a, n,
                                       c->t, &d, &hb),
           "cusolverDnXgetrf_bufferSize");
    break;
  default:
    break;
  }
  c->dbytes = d;
  c->hbytes = hb;
  return CN_OK;
}

/* ---- the routines ----------------------------------------------------------- */

/* SVD of every matrix of a (m x n) into s and, when u / vt are not NULL,
 * u (m x ucols) and vt (vrows x n) as the contract shapes them. */
static cn_status run_svd(la_call *c, void *A, void *S, void *U, void *VT) {
  const cn_cu_lapack_plan *pl = &c->pl;
  cn_lapack_args *a = c->a;
  int64_t m = a->m, n = a->n, mn = m < n ? m : n, b = a->batch;
  size_t isz = c->p.itemsize, rsz = c->p.real_size;
  void *work = at(c, &pl->work);
  void *ut = at(c, &pl->u_tmp), *vtt = at(c, &pl->vt_tmp);
  bool vec = U != NULL;
  if (pl->svd_route == CN_CU_LA_GESVDJ_BATCHED) {
    cusolverEigMode_t jobz =
        vec ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    SOLVER(PICK(a->dtype, cusolverDnSgesvdjBatched, cusolverDnDgesvdjBatched,
                cusolverDnCgesvdjBatched, cusolverDnZgesvdjBatched, c->h, jobz,
                (int)m, (int)n, A, (int)m, S, ut, (int)m, vtt, (int)n, work,
                c->lwork2, info_at(c, 0), c->svdj, (int)b),
           "cusolverDnXgesvdjBatched");
    if (!vec)
      return CN_OK;
    TRY(copy_block(c, b, m, pl->ucols, U, m, m * pl->ucols, ut, m, m * m, m,
                   m, 0, 0));
    return copy_block(c, b, pl->vrows, n, VT, pl->vrows, pl->vrows * n, vtt,
                      n, n * n, n, n, 1, 0);
  }
  bool adj = pl->svd_route == CN_CU_LA_GESVD_ADJOINT;
  void *src = A;
  if (adj) { /* a^H, n x m, for every matrix */
    src = at(c, &pl->a_adj);
    TRY(copy_block(c, b, n, m, src, n, n * m, A, m, m * n, m, n, 1, 0));
  }
  for (int64_t bi = 0; bi < b; bi++) {
    void *u = NULL, *vt = NULL;
    if (vec && adj) {
      u = elem(ut, bi * pl->ru_rows * pl->ru_cols, isz);
      vt = elem(vtt, bi * pl->rvt_rows * pl->rvt_cols, isz);
    } else if (vec) {
      u = elem(U, bi * m * pl->ucols, isz);
      vt = elem(VT, bi * pl->vrows * n, isz);
    }
    SOLVER(cusolverDnXgesvd(c->h, c->params, (signed char)pl->jobu,
                            (signed char)pl->jobvt, pl->rm, pl->rn, c->t,
                            elem(src, bi * m * n, isz), pl->lda, c->rt,
                            elem(S, bi * mn, rsz), c->t, u, pl->ldu, c->t, vt,
                            pl->ldvt, c->t, work, c->dbytes, c->hwork,
                            c->hbytes, info_at(c, bi)),
           "cusolverDnXgesvd");
  }
  if (!(vec && adj))
    return CN_OK;
  /* u = vt'^H (m x m), vh = u'^H (vrows x n) */
  TRY(copy_block(c, b, m, m, U, m, m * m, vtt, m, m * m, m, m, 1, 0));
  return copy_block(c, b, pl->vrows, n, VT, pl->vrows, pl->vrows * n, ut, n,
                    n * pl->vrows, n, pl->vrows, 1, 0);
}

/* Sets the flag if a's batch (and, for lstsq, b) holds a NaN (SVD) or any
 * non-finite value; reads it back. */
static cn_status finite_check(la_call *c, bool *bad) {
  cn_lapack_args *a = c->a;
  int *flag = (int *)at(c, &c->pl.flag);
  int nan_only = c->pl.finite_check == 1;
  long long cnt = a->batch * a->m * a->n;
  const void *p = a->a;
  void *args[] = {&cnt, &p, &nan_only, &flag};
  TRY(kern(CN_CU_LAK_NONFINITE, a->dtype, cnt, args));
  if (a->kind == CN_LAPACK_LSTSQ) {
    int64_t ldb = a->m > a->n ? a->m : a->n;
    cnt = (ldb > 0 ? ldb : 1) * a->k;
    p = a->b;
    TRY(kern(CN_CU_LAK_NONFINITE, a->dtype, cnt, args));
  }
  int host = 0;
  TRY(cn_cu_copy_to_host(&host, flag, sizeof host));
  *bad = host != 0;
  return CN_OK;
}

static cn_status run(la_call *c) {
  cn_lapack_args *a = c->a;
  const cn_cu_lapack_plan *pl = &c->pl;
  int64_t m = a->m, n = a->n, k = a->k, b = a->batch, mn = m < n ? m : n;
  size_t isz = c->p.itemsize, rsz = c->p.real_size;
  void *work = at(c, &pl->work);
  cusolverEigMode_t jobz =
      a->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  switch (a->kind) {
  case CN_LAPACK_CHOLESKY:
    if (pl->route == CN_CU_LA_NOTHING)
      return CN_OK;
    for (int64_t bi = 0; bi < b; bi++)
      SOLVER(cusolverDnXpotrf(c->h, c->params, fill(a->upper), n, c->t,
                              elem(a->a, bi * n * n, isz), n, c->t, work,
                              c->dbytes, c->hwork, c->hbytes, info_at(c, bi)),
             "cusolverDnXpotrf");
    {
      long long nn = n, bb = b;
      int up = a->upper;
      void *p = a->a;
      void *args[] = {&nn, &bb, &up, &p};
      return kern(CN_CU_LAK_TRI_ZERO, a->dtype, nn * nn * bb, args);
    }
  case CN_LAPACK_QR: {
    int64_t kr = pl->kr;
    if (pl->route == CN_CU_LA_NOTHING)
      return a->out1 ? eye(c, a->out1, m, kr, b) : CN_OK;
    void *tau = at(c, &pl->tau);
    for (int64_t bi = 0; bi < b; bi++) {
      void *ai = elem(a->a, bi * m * n, isz);
      SOLVER(cusolverDnXgeqrf(c->h, c->params, m, n, c->t, ai, pl->lda, c->t,
                              tau, c->t, work, c->dbytes, c->hwork, c->hbytes,
                              info_at(c, bi)),
             "cusolverDnXgeqrf");
      if (a->out2) /* mode raw: tau; a stays as h^T */
        TRY(copy_block(c, 1, mn, 1, elem(a->out2, bi * mn, isz), mn, 0, tau,
                       mn, 0, mn, 1, 0, 0));
      if (!a->out1)
        continue;
      void *q = elem(a->out1, bi * m * kr, isz);
      TRY(copy_block(c, 1, m, kr, q, m, 0, ai, m, 0, m, n < kr ? n : kr, 0,
                     0));
      SOLVER(PICK(a->dtype, cusolverDnSorgqr, cusolverDnDorgqr,
                  cusolverDnCungqr, cusolverDnZungqr, c->h, (int)m, (int)kr,
                  (int)mn, q, (int)m, tau, work, c->lwork2,
                  info_at(c, b + bi)),
             "cusolverDnXorgqr");
    }
    if (!a->out0)
      return CN_OK;
    return copy_block(c, b, kr, n, a->out0, kr, kr * n, a->a, m, m * n, m, n,
                      0, 1);
  }
  case CN_LAPACK_SVD:
    if (pl->route == CN_CU_LA_NOTHING) {
      if (!a->vectors)
        return CN_OK;
      TRY(eye(c, a->out1, m, pl->ucols, b));
      return eye(c, a->out2, pl->vrows, n, b);
    }
    return run_svd(c, a->a, a->out0, a->vectors ? a->out1 : NULL,
                   a->vectors ? a->out2 : NULL);
  case CN_LAPACK_EIG: {
    if (pl->route == CN_CU_LA_NOTHING)
      return CN_OK;
    bool real = !cn_is_complex(a->dtype);
    cudaDataType ct = real ? (c->t == CUDA_R_32F ? CUDA_C_32F : CUDA_C_64F)
                           : c->t;
    size_t csz = real ? 2 * isz : isz;
    void *vr_tmp = at(c, &pl->u_tmp);
    for (int64_t bi = 0; bi < b; bi++) {
      void *w = elem(a->out0, bi * n, csz);
      void *v = a->out1 ? elem(a->out1, bi * n * n, csz) : NULL;
      void *vr = real && v ? vr_tmp : v;
      SOLVER(cusolverDnXgeev(
                 c->h, c->params, CUSOLVER_EIG_MODE_NOVECTOR,
                 v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR, n,
                 c->t, elem(a->a, bi * n * n, isz), n, ct, w, c->t, NULL, 1,
                 c->t, vr, n, c->t, work, c->dbytes, c->hwork, c->hbytes,
                 info_at(c, bi)),
             "cusolverDnXgeev");
      if (real && v) {
        long long nn = n;
        const void *cvr = vr, *cw = w;
        void *args[] = {&nn, &cvr, &cw, &v};
        TRY(kern(CN_CU_LAK_EIGVEC, a->dtype, nn * nn, args));
      }
    }
    return CN_OK;
  }
  case CN_LAPACK_EIGH:
    if (pl->route == CN_CU_LA_SYEVJ_BATCHED) {
      SOLVER(PICK(a->dtype, cusolverDnSsyevjBatched, cusolverDnDsyevjBatched,
                  cusolverDnCheevjBatched, cusolverDnZheevjBatched, c->h, jobz,
                  fill(a->upper), (int)n, a->a, (int)n, a->out0, work,
                  c->lwork2, info_at(c, 0), c->syevj, (int)b),
             "cusolverDnXsyevjBatched");
      return CN_OK;
    }
    for (int64_t bi = 0; pl->route == CN_CU_LA_SYEVD && bi < b; bi++)
      SOLVER(cusolverDnXsyevd(c->h, c->params, jobz, fill(a->upper), n, c->t,
                              elem(a->a, bi * n * n, isz), n, c->rt,
                              elem(a->out0, bi * n, rsz), c->t, work,
                              c->dbytes, c->hwork, c->hbytes, info_at(c, bi)),
             "cusolverDnXsyevd");
    return CN_OK;
  case CN_LAPACK_SOLVE:
  case CN_LAPACK_INV: {
    if (a->kind == CN_LAPACK_INV)
      TRY(eye(c, a->b, n, n, b));
    int64_t *ipiv = (int64_t *)at(c, &pl->ipiv);
    for (int64_t bi = 0; pl->route == CN_CU_LA_GETRF && bi < b; bi++) {
      void *ai = elem(a->a, bi * n * n, isz);
      SOLVER(cusolverDnXgetrf(c->h, c->params, n, n, c->t, ai, n, ipiv, c->t,
                              work, c->dbytes, c->hwork, c->hbytes,
                              info_at(c, bi)),
             "cusolverDnXgetrf");
      SOLVER(cusolverDnXgetrs(c->h, c->params,
                              a->trans ? CUBLAS_OP_T : CUBLAS_OP_N, n, k, c->t,
                              ai, n, ipiv, c->t, elem(a->b, bi * n * k, isz),
                              n, info_at(c, b + bi)),
             "cusolverDnXgetrs");
    }
    return CN_OK;
  }
  case CN_LAPACK_SLOGDET: {
    int64_t *ipiv = (int64_t *)at(c, &pl->ipiv);
    for (int64_t bi = 0; pl->route == CN_CU_LA_GETRF && bi < b; bi++)
      SOLVER(cusolverDnXgetrf(c->h, c->params, n, n, c->t,
                              elem(a->a, bi * n * n, isz), n, ipiv + bi * n,
                              c->t, work, c->dbytes, c->hwork, c->hbytes,
                              info_at(c, bi)),
             "cusolverDnXgetrf");
    long long nn = n, bb = b;
    const void *ca = a->a, *cp = ipiv, *ci = info_at(c, 0);
    void *args[] = {&nn, &bb, &ca, &cp, &ci, &a->out0, &a->out1};
    return kern(CN_CU_LAK_SLOGDET, a->dtype, bb, args);
  }
  case CN_LAPACK_LSTSQ: {
    long long ldb = m > n ? m : n;
    if (ldb < 1)
      ldb = 1;
    if (pl->route == CN_CU_LA_NOTHING) {
      TRY(copy_block(c, 1, n, k, a->b, ldb, 0, a->b, ldb, 0, 0, 0, 0, 0));
      CN_CU_TRY(cudaMemsetAsync(a->out1, 0, sizeof(int64_t), cn_cu_stream()),
                "cudaMemsetAsync (lstsq rank)");
      return CN_OK;
    }
    void *U = at(c, &pl->lsq_u), *VT = at(c, &pl->lsq_vt);
    void *C = at(c, &pl->c_tmp);
    TRY(run_svd(c, a->a, a->out0, U, VT));
    long long uc = pl->ucols, kk = k, mm = m, nn = n, mnn = mn;
    long long vr = pl->vrows;
    const void *cu = U, *cb = a->b, *cvt = VT, *cc = C;
    void *args1[] = {&uc, &kk, &mm, &cu, &mm, &cb, &ldb, &C, &uc};
    TRY(kern(CN_CU_LAK_AH_B, a->dtype, uc * kk, args1));
    double rc = a->rcond;
    void *args2[] = {&mnn, &kk, &a->out0, &rc, &C, &uc, &a->out1};
    TRY(kern(CN_CU_LAK_LSTSQ_CUT, a->dtype, mnn * kk, args2));
    void *bx = a->b;
    void *args3[] = {&nn, &kk, &mnn, &cvt, &vr, &cc, &uc, &bx, &ldb};
    TRY(kern(CN_CU_LAK_AH_B, a->dtype, nn * kk, args3));
    if (m > n) /* residual rows: rows n..m-1 of u^H b */
      TRY(copy_block(c, 1, m - n, k, elem(a->b, n, isz), ldb, 0,
                     elem(C, n, isz), uc, 0, m - n, k, 0, 0));
    return CN_OK;
  }
  default:
    return cn_cu_error(CN_ERR_INTERNAL, "cuda lapack: kind %d",
                       (int)a->kind);
  }
}

static const char *routine_name(const cn_lapack_args *a, bool second) {
  switch (a->kind) {
  case CN_LAPACK_CHOLESKY:
    return "potrf";
  case CN_LAPACK_QR:
    return second ? "orgqr" : "geqrf";
  case CN_LAPACK_SVD:
  case CN_LAPACK_LSTSQ:
    return "gesvd";
  case CN_LAPACK_EIG:
    return "geev";
  case CN_LAPACK_EIGH:
    return "syevd";
  default:
    return second ? "getrs" : "getrf";
  }
}

static cn_cu_la_op op_of(cn_lapack_kind k) {
  switch (k) {
  case CN_LAPACK_CHOLESKY:
    return CN_CU_LA_CHOLESKY;
  case CN_LAPACK_QR:
    return CN_CU_LA_QR;
  case CN_LAPACK_SVD:
    return CN_CU_LA_SVD;
  case CN_LAPACK_EIG:
    return CN_CU_LA_EIG;
  case CN_LAPACK_EIGH:
    return CN_CU_LA_EIGH;
  case CN_LAPACK_SOLVE:
    return CN_CU_LA_SOLVE;
  case CN_LAPACK_INV:
    return CN_CU_LA_INV;
  case CN_LAPACK_SLOGDET:
    return CN_CU_LA_SLOGDET;
  default:
    return CN_CU_LA_LSTSQ;
  }
}

/* The CPU backend's message for inputs it refuses to factor. */
static cn_status nonfinite_error(const cn_lapack_args *a) {
  if (a->kind == CN_LAPACK_EIG)
    return cn_cu_error(CN_ERR_LINALG,
                       "cn_linalg_eig: Array must not contain infs or NaNs");
  if (a->kind == CN_LAPACK_LSTSQ)
    return cn_cu_error(CN_ERR_LINALG, "cn_linalg_lstsq: SVD did not "
                                      "converge in Linear Least Squares");
  return cn_cu_error(CN_ERR_LINALG, "cn_linalg_svd: SVD did not converge");
}

/* Everything after the plan: workspace, checks, routines, info. */
static cn_status execute(la_call *c) {
  cn_lapack_args *a = c->a;
  TRY(query(c));
  if (!cn_cu_lapack_plan_layout(&c->pl, &c->p, c->dbytes))
    return cn_cu_error(CN_ERR_MEMORY,
                       "cuda lapack: workspace size overflows size_t");
  if (c->hbytes > 0 && (c->hwork = malloc(c->hbytes)) == NULL)
    return cn_cu_error(CN_ERR_MEMORY,
                       "cuda lapack: out of host memory (%zu bytes of "
                       "cuSOLVER host workspace)",
                       c->hbytes);
  TRY(cn_cu_scratch((void **)&c->scratch, c->pl.total));
  size_t head = c->pl.info.bytes + c->pl.flag.bytes;
  CN_CU_TRY(cudaMemsetAsync(c->scratch, 0, head, cn_cu_stream()),
            "cudaMemsetAsync (lapack info)");
  if (c->pl.finite_check) {
    bool bad = false;
    TRY(finite_check(c, &bad));
    if (bad)
      return nonfinite_error(a);
  }
  TRY(run(c));
  int32_t *info = malloc(head);
  if (info == NULL)
    return cn_cu_error(CN_ERR_MEMORY, "cuda lapack: out of host memory");
  cn_status st = cn_cu_copy_to_host(info, c->scratch, head);
  if (st == CN_OK) {
    int64_t first = 0, index = -1, bad = -1;
    cn_cu_lapack_first_info(info, c->pl.ninfo, a->batch, &first, &index,
                            &bad);
    if (bad >= 0)
      st = cn_cu_error(CN_ERR_BACKEND,
                       "cuda: cuSOLVER %s rejected argument %d (matrix %lld)",
                       routine_name(a, bad >= a->batch), (int)-info[bad],
                       (long long)(bad % (a->batch > 0 ? a->batch : 1)));
    else if (a->kind != CN_LAPACK_SLOGDET && first > 0) {
      a->info = first;
      a->info_index = index;
    }
  }
  free(info);
  return st;
}

cn_status cn_cu_lapack(cn_lapack_args *args) {
  CN_CU_DEVICE_SCOPE(cn_cu_pointer_device(args->a), "cuda lapack");
  args->info = 0;
  args->info_index = -1;
  if (args->m > INT32_MAX || args->n > INT32_MAX || args->k > INT32_MAX ||
      args->batch > INT32_MAX)
    return cn_cu_error(CN_ERR_VALUE,
                       "cn_linalg: matrix extents exceed cuSOLVER's 32-bit "
                       "limit");
  la_call c;
  memset(&c, 0, sizeof c);
  c.a = args;
  switch (args->dtype) {
  case CN_FLOAT32:
    c.t = CUDA_R_32F, c.rt = CUDA_R_32F, c.p.real_size = 4;
    break;
  case CN_FLOAT64:
    c.t = CUDA_R_64F, c.rt = CUDA_R_64F, c.p.real_size = 8;
    break;
  case CN_COMPLEX64:
    c.t = CUDA_C_32F, c.rt = CUDA_R_32F, c.p.real_size = 4;
    break;
  case CN_COMPLEX128:
    c.t = CUDA_C_64F, c.rt = CUDA_R_64F, c.p.real_size = 8;
    break;
  default:
    return cn_cu_error(CN_ERR_TYPE, "cn_linalg: no cuSOLVER driver for %s",
                       cn_cu_tag(args->dtype));
  }
  c.p.itemsize = cn_is_complex(args->dtype) ? 2 * c.p.real_size
                                            : c.p.real_size;
  c.p.op = op_of(args->kind);
  c.p.batch = args->batch;
  c.p.m = args->m;
  c.p.n = args->n;
  c.p.k = args->kind == CN_LAPACK_INV ? args->n : args->k;
  c.p.vectors = args->kind == CN_LAPACK_QR || args->kind == CN_LAPACK_EIG
                    ? args->out1 != NULL
                    : args->vectors;
  c.p.full = args->full;
  if (!cn_cu_lapack_plan_make(&c.pl, &c.p))
    return cn_cu_error(CN_ERR_INTERNAL, "cuda lapack: no plan for kind %d",
                       (int)args->kind);
  cn_status st = cn_cu_cusolver(&c.h);
  if (st != CN_OK)
    return st;
  cusolverStatus_t cs = cusolverDnCreateParams(&c.params);
  if (cs != CUSOLVER_STATUS_SUCCESS)
    return cn_cu_cusolver_fail((int)cs, "cusolverDnCreateParams");
  st = execute(&c);
  if (c.hwork != NULL) {
    /* the host workspace may serve work still queued on an error path */
    (void)cudaStreamSynchronize(cn_cu_stream());
    free(c.hwork);
  }
  cn_cu_scratch_free(c.scratch);
  if (c.svdj != NULL)
    cusolverDnDestroyGesvdjInfo(c.svdj);
  if (c.syevj != NULL)
    cusolverDnDestroySyevjInfo(c.syevj);
  cusolverDnDestroyParams(c.params);
  return st;
}
