/* The CUDA sparse planner (sparse_plan.h). */
#include "sparse_plan.h"

#include <string.h>

#define I32_MAX 2147483647LL

cn_sp_value cn_sp_product_value(cn_dtype dt) {
  switch (dt) {
  case CN_FLOAT32:
    return CN_SP_VALUE_R32F;
  case CN_FLOAT64:
    return CN_SP_VALUE_R64F;
  case CN_COMPLEX64:
    return CN_SP_VALUE_C32F;
  case CN_COMPLEX128:
    return CN_SP_VALUE_C64F;
  default:
    return CN_SP_VALUE_NONE;
  }
}

bool cn_sp_mm_make_plan(const cn_sp_mm_geom *g, cn_sp_mm_plan *p) {
  memset(p, 0, sizeof *p);
  p->value = cn_sp_product_value(g->dtype);
  if (p->value == CN_SP_VALUE_NONE ||
      (g->index_bytes != 4 && g->index_bytes != 8))
    return false;
  p->index64 = g->index_bytes == 8;
  p->ldc = g->k;
  if (g->m == 0 || g->k == 0) {
    p->kind = CN_SP_EMPTY;
    return true;
  }
  /* cuSPARSE rejects empty operands; the product is zero anyway */
  if (g->nnz == 0 || g->n == 0) {
    p->kind = CN_SP_ZERO;
    return true;
  }
  p->kind = CN_SP_RUN;
  p->spmv = g->k == 1;
  if (p->spmv) {
    /* dense vectors are contiguous */
    p->pack_x = g->xs0 != 1 && g->n > 1;
    p->ldx = 1;
  } else {
    /* row-major B with C's order; any other layout is packed */
    bool rows = (g->xs1 == 1 && g->xs0 >= g->k) || (g->n == 1 && g->xs1 == 1);
    p->pack_x = !rows;
    p->ldx = rows ? (g->n == 1 ? g->k : g->xs0) : g->k;
  }
  return true;
}

bool cn_sp_tr_make_plan(int64_t m, int64_t n, int64_t nnz, cn_dtype dt,
                        int32_t index_bytes, cn_sp_tr_plan *p) {
  memset(p, 0, sizeof *p);
  if (m > I32_MAX || n > I32_MAX || nnz > I32_MAX ||
      (index_bytes != 4 && index_bytes != 8) || !cn_dtype_is_valid(dt))
    return false;
  p->kind = nnz == 0 ? CN_SP_ZERO : CN_SP_RUN;
  p->narrow_index = index_bytes == 8;
  int64_t isz = cn_dtype_itemsize(dt);
  if (isz < 4) {
    p->widen = true;
    p->widen_dtype = dt == CN_FLOAT16 ? CN_FLOAT32 : CN_INT32;
    isz = 4;
  }
  p->carrier = isz == 4   ? CN_SP_VALUE_R32F
               : isz == 8 ? CN_SP_VALUE_R64F
                          : CN_SP_VALUE_C64F;
  return true;
}

bool cn_sp_gemm_make_plan(int64_t m, int64_t k, int64_t n, int64_t nnz_a,
                          int64_t nnz_b, cn_dtype dt, int32_t index_bytes,
                          cn_sp_gemm_plan *p) {
  memset(p, 0, sizeof *p);
  p->value = cn_sp_product_value(dt);
  if (p->value == CN_SP_VALUE_NONE ||
      (index_bytes != 4 && index_bytes != 8) || m > I32_MAX || k > I32_MAX ||
      n > I32_MAX || nnz_a > I32_MAX || nnz_b > I32_MAX)
    return false;
  p->narrow_index = index_bytes == 8;
  p->kind = (m == 0 || n == 0 || k == 0 || nnz_a == 0 || nnz_b == 0)
                ? CN_SP_ZERO
                : CN_SP_RUN;
  return true;
}
