/* The CUDA lapack slot's planner (lapack_plan.h): routine choice, shapes
 * and scratch layout as plain arithmetic, so that every decision is tested
 * on the CPU. */
#include "lapack_plan.h"

#include <string.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static bool is_complex(const cn_cu_la_problem *p) {
  return p->itemsize == 2 * p->real_size;
}

/* gesvd on a (m >= n) or on a^H (m < n: gesvd needs rows >= columns, and
 * a = (a^H)^H = V' S U'^H turns the adjoint's factors into a's). */
static void plan_gesvd(cn_cu_lapack_plan *pl, int64_t m, int64_t n,
                       bool vectors, bool full) {
  int64_t mn = min64(m, n);
  pl->ucols = full ? m : mn;
  pl->vrows = full ? n : mn;
  char job = !vectors ? 'N' : full ? 'A' : 'S';
  pl->jobu = pl->jobvt = job;
  if (m >= n) {
    pl->svd_route = CN_CU_LA_GESVD;
    pl->rm = m;
    pl->rn = n;
    pl->lda = m;
    pl->ru_rows = m;
    pl->ru_cols = pl->ucols;
    pl->ldu = m;
    pl->rvt_rows = pl->vrows;
    pl->rvt_cols = n;
    pl->ldvt = max64(pl->vrows, 1);
    return;
  }
  /* a^H is n x m: its u' (n x vrows) gives vh = u'^H, its vt' (m x m)
   * gives u = vt'^H. */
  pl->svd_route = CN_CU_LA_GESVD_ADJOINT;
  pl->rm = n;
  pl->rn = m;
  pl->lda = n;
  pl->ru_rows = n;
  pl->ru_cols = pl->vrows;
  pl->ldu = n;
  pl->rvt_rows = m;
  pl->rvt_cols = m;
  pl->ldvt = m;
  pl->u_via_scratch = pl->vt_via_scratch = vectors;
}

bool cn_cu_lapack_plan_make(cn_cu_lapack_plan *pl, const cn_cu_la_problem *p) {
  memset(pl, 0, sizeof *pl);
  int64_t m = p->m, n = p->n, k = p->k, b = p->batch;
  if (m < 0 || n < 0 || k < 0 || b < 0 || p->itemsize == 0 ||
      p->real_size == 0)
    return false;
  int64_t mn = min64(m, n);
  pl->ninfo = b;
  pl->route = CN_CU_LA_NOTHING;
  switch (p->op) {
  case CN_CU_LA_CHOLESKY:
    if (n > 0)
      pl->route = CN_CU_LA_POTRF;
    pl->rm = pl->rn = pl->lda = n;
    break;
  case CN_CU_LA_QR:
    pl->kr = p->full ? m : mn;
    if (mn > 0) {
      pl->route = CN_CU_LA_GEQRF;
      pl->second_routine = p->vectors;
    }
    pl->rm = m;
    pl->rn = n;
    pl->lda = max64(m, 1);
    break;
  case CN_CU_LA_SVD:
    pl->ucols = p->full ? m : mn;
    pl->vrows = p->full ? n : mn;
    if (mn == 0)
      break;
    pl->finite_check = 1;
    if (b > 1 && m <= CN_CU_LA_JACOBI_MAX && n <= CN_CU_LA_JACOBI_MAX) {
      /* gesvdjBatched: u is m x m and V (not V^H) n x n, always full. */
      pl->route = pl->svd_route = CN_CU_LA_GESVDJ_BATCHED;
      pl->rm = m;
      pl->rn = n;
      pl->lda = m;
      pl->ru_rows = pl->ru_cols = pl->ldu = m;
      pl->rvt_rows = pl->rvt_cols = pl->ldvt = n;
      pl->u_via_scratch = pl->vt_via_scratch = true;
      break;
    }
    plan_gesvd(pl, m, n, p->vectors, p->full);
    pl->route = pl->svd_route;
    break;
  case CN_CU_LA_EIG:
    if (n > 0) {
      pl->route = CN_CU_LA_GEEV;
      pl->finite_check = 2;
    }
    pl->rm = pl->rn = pl->lda = n;
    break;
  case CN_CU_LA_EIGH:
    if (n > 0)
      pl->route = (b > 1 && n <= CN_CU_LA_JACOBI_MAX) ? CN_CU_LA_SYEVJ_BATCHED
                                                     : CN_CU_LA_SYEVD;
    pl->rm = pl->rn = pl->lda = n;
    break;
  case CN_CU_LA_SOLVE:
  case CN_CU_LA_INV:
    if (n > 0 && (p->op == CN_CU_LA_INV || k > 0)) {
      pl->route = CN_CU_LA_GETRF;
      pl->second_routine = true;
    }
    pl->rm = pl->rn = pl->lda = n;
    break;
  case CN_CU_LA_SLOGDET:
    if (n > 0)
      pl->route = CN_CU_LA_GETRF;
    pl->rm = pl->rn = pl->lda = n;
    break;
  case CN_CU_LA_LSTSQ:
    if (mn == 0)
      break;
    /* Full u when m > n: rows n..m-1 of u^H b carry the residual. */
    plan_gesvd(pl, m, n, true, m > n);
    pl->route = CN_CU_LA_LSTSQ_SVD;
    pl->finite_check = 2;
    break;
  default:
    return false;
  }
  if (pl->second_routine)
    pl->ninfo = 2 * b;
  return true;
}

/* a * b * c bytes, false on overflow. */
static bool bytes3(size_t *out, int64_t a, int64_t b, size_t c) {
  size_t t;
  if (a < 0 || b < 0 || __builtin_mul_overflow((size_t)a, (size_t)b, &t) ||
      __builtin_mul_overflow(t, c, out))
    return false;
  return true;
}

/* Appends a region of `bytes` at the next aligned offset of *end. */
static bool put(cn_cu_la_region *r, size_t *end, size_t bytes) {
  r->off = r->bytes = 0;
  if (bytes == 0)
    return true;
  size_t off = (*end + CN_CU_LA_ALIGN - 1) / CN_CU_LA_ALIGN * CN_CU_LA_ALIGN;
  if (off < *end || __builtin_add_overflow(off, bytes, end))
    return false;
  r->off = off;
  r->bytes = bytes;
  return true;
}

bool cn_cu_lapack_plan_layout(cn_cu_lapack_plan *pl, const cn_cu_la_problem *p,
                              size_t work_bytes) {
  size_t isz = p->itemsize, end = 0, sz = 0;
  int64_t b = p->batch, m = p->m, n = p->n, k = p->k, mn = min64(m, n);
  bool ok = bytes3(&sz, pl->ninfo, 1, sizeof(int32_t));
  pl->info.off = 0;
  pl->info.bytes = sz;
  pl->flag.off = sz;
  pl->flag.bytes = sizeof(int32_t);
  end = sz + sizeof(int32_t);
  /* ipiv: every matrix's pivots for slogdet's kernel, one matrix's else */
  int64_t piv_mats = p->op == CN_CU_LA_SLOGDET ? b : 1;
  bool lu = pl->route == CN_CU_LA_GETRF;
  ok = ok && bytes3(&sz, lu ? n : 0, piv_mats, sizeof(int64_t)) &&
       put(&pl->ipiv, &end, sz);
  ok = ok && bytes3(&sz, pl->route == CN_CU_LA_GEQRF ? mn : 0, 1, isz) &&
       put(&pl->tau, &end, sz);
  ok = ok && put(&pl->work, &end, work_bytes);
  cn_cu_la_route svd = pl->svd_route;
  bool adj = svd == CN_CU_LA_GESVD_ADJOINT;
  bool jac = svd == CN_CU_LA_GESVDJ_BATCHED;
  /* the adjoint of a, and the routine's u / vt when not written in place */
  ok = ok && bytes3(&sz, adj ? m * n : 0, b, isz) && put(&pl->a_adj, &end, sz);
  int64_t u_elems = 0, vt_elems = 0;
  if (jac || (adj && pl->u_via_scratch)) {
    u_elems = pl->ru_rows * pl->ru_cols;
    vt_elems = pl->rvt_rows * pl->rvt_cols;
  }
  if (pl->route == CN_CU_LA_GEEV && !is_complex(p) && p->vectors)
    u_elems = n * n; /* geev's real right vectors, one matrix */
  int64_t per = pl->route == CN_CU_LA_GEEV ? 1 : b;
  ok = ok && bytes3(&sz, u_elems, per, isz) && put(&pl->u_tmp, &end, sz);
  ok = ok && bytes3(&sz, vt_elems, b, isz) && put(&pl->vt_tmp, &end, sz);
  bool lsq = pl->route == CN_CU_LA_LSTSQ_SVD;
  ok = ok && bytes3(&sz, lsq ? m : 0, pl->ucols, isz) &&
       put(&pl->lsq_u, &end, sz);
  ok = ok && bytes3(&sz, lsq ? pl->vrows : 0, n, isz) &&
       put(&pl->lsq_vt, &end, sz);
  ok = ok && bytes3(&sz, lsq ? pl->ucols : 0, k, isz) &&
       put(&pl->c_tmp, &end, sz);
  pl->total = ok ? end : 0;
  return ok;
}

void cn_cu_lapack_first_info(const int32_t *info, int64_t ninfo,
                             int64_t batch, int64_t *first, int64_t *index,
                             int64_t *bad) {
  *first = 0;
  *index = -1;
  *bad = -1;
  for (int64_t i = 0; i < ninfo; i++) {
    if (info[i] < 0 && *bad < 0)
      *bad = i;
    if (i < batch && info[i] > 0 && *index < 0) {
      *first = info[i];
      *index = i;
    }
  }
}
