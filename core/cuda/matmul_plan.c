/* The CUDA matmul planner (matmul_plan.h). cuBLAS reads a matrix without a
 * copy when one of its axes has unit stride and the other a positive
 * leading dimension of at least the first axis's extent (at least 1): a
 * column-major matrix as it is, a row-major one as its transpose. The
 * output's layout picks the orientation (out itself, or out^T = b^T a^T
 * for a row-major out); an input stored the other way is passed with a
 * transpose flag, conj(a) only as a conjugate transpose. Where neither
 * orientation reads an operand, it is packed; the orientation that packs
 * least wins. */
#include "matmul_plan.h"

#include <limits.h>
#include <string.h>

#define FIT_ROW 1 /* row-major: unit column stride */
#define FIT_COL 2 /* column-major: unit row stride */

typedef struct {
  int fits;
  int64_t ld_row, ld_col;
} layout;

static int64_t at_least_1(int64_t v) { return v > 1 ? v : 1; }

/* Which layouts read a rows x cols matrix with strides (rs, cs), each with
 * its leading dimension; an extent-1 axis's stride never matters. */
static layout layout_of(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  layout l = {0, 0, 0};
  int64_t mr = at_least_1(rows), mc = at_least_1(cols);
  if ((cols <= 1 || cs == 1) && (rows <= 1 || rs >= mc)) {
    l.ld_row = rows <= 1 ? mc : rs;
    if (l.ld_row <= INT_MAX)
      l.fits |= FIT_ROW;
  }
  if ((rows <= 1 || rs == 1) && (cols <= 1 || cs >= mr)) {
    l.ld_col = cols <= 1 ? mr : cs;
    if (l.ld_col <= INT_MAX)
      l.fits |= FIT_COL;
  }
  return l;
}

/* Rows and columns of operand op. */
static void dims_of(const cn_mm_geom *g, int op, int64_t *rows, int64_t *cols) {
  *rows = op == CN_MM_B ? g->k : g->m;
  *cols = op == CN_MM_A ? g->k : g->n;
}

static layout operand_layout(const cn_mm_geom *g, const int64_t *st, int op) {
  int64_t rows, cols;
  dims_of(g, op, &rows, &cols);
  int32_t nb = g->nbatch;
  return layout_of(rows, cols, st[nb], st[nb + 1]);
}

/* The storage of an input that cuBLAS reads with op N in orientation swap
 * (column-major without swap, row-major with it); the other one is read
 * with op T (op C for conj(a)). */
static int native_fit(bool swap) { return swap ? FIT_ROW : FIT_COL; }

/* The storage chosen for input op in orientation swap, or 0 when it must
 * be packed. conj(a) has no untransposed cuBLAS op. */
static int input_choice(const layout *l, bool swap, bool conj) {
  int nat = native_fit(swap), other = FIT_ROW + FIT_COL - nat;
  if (conj)
    return (l->fits & other) ? other : 0;
  if (l->fits & nat)
    return nat;
  return (l->fits & other) ? other : 0;
}

/* Strides of the packed copy of operand op: C-contiguous over its matrix
 * and its non-broadcast batch dims; broadcast (stride 0) batch dims stay
 * stride 0, so a broadcast input is packed once. Returns its element
 * count. */
static int64_t pack_strides(const cn_mm_geom *g, int op, int64_t *out) {
  int64_t rows, cols;
  dims_of(g, op, &rows, &cols);
  int32_t nb = g->nbatch;
  int64_t step = rows * cols;
  out[nb + 1] = 1;
  out[nb] = cols;
  for (int32_t i = nb - 1; i >= 0; i--) {
    bool bcast = op != CN_MM_OUT && g->strides[op][i] == 0;
    if (bcast || g->batch_shape[i] == 1) {
      out[i] = 0;
      continue;
    }
    out[i] = step;
    step *= g->batch_shape[i];
  }
  return step;
}

/* Splits the batch dims into one strided-batched dim and host loops:
 * extent-1 dims dropped, neighbours whose strides chain for all three
 * operands merged, then the longest dim cuBLAS can stride over (input
 * strides >= 0, a positive out stride) is batched. */
static void plan_batch(const cn_mm_geom *g, int64_t st[3][CN_MAX_DIMS],
                       cn_mm_plan *p) {
  int64_t shape[CN_MAX_DIMS], s[3][CN_MAX_DIMS];
  int32_t nd = 0;
  for (int32_t i = 0; i < g->nbatch; i++) {
    int64_t e = g->batch_shape[i];
    if (e == 1)
      continue;
    bool merge = nd > 0;
    for (int op = 0; op < 3 && merge; op++)
      merge = s[op][nd - 1] == st[op][i] * e;
    if (merge) {
      shape[nd - 1] *= e;
      for (int op = 0; op < 3; op++)
        s[op][nd - 1] = st[op][i];
      continue;
    }
    shape[nd] = e;
    for (int op = 0; op < 3; op++)
      s[op][nd] = st[op][i];
    nd++;
  }
  int32_t pick = -1;
  for (int32_t i = nd - 1; i >= 0; i--) {
    bool ok = s[CN_MM_A][i] >= 0 && s[CN_MM_B][i] >= 0 && s[CN_MM_OUT][i] > 0 &&
              shape[i] <= INT_MAX;
    if (ok && (pick < 0 || shape[i] > shape[pick]))
      pick = i;
  }
  p->batch = 1;
  for (int op = 0; op < 3; op++)
    p->stride[op] = 0;
  p->nloop = 0;
  for (int32_t i = 0; i < nd; i++) {
    if (i == pick) {
      p->batch = shape[i];
      for (int op = 0; op < 3; op++)
        p->stride[op] = s[op][i];
      continue;
    }
    p->loop_shape[p->nloop] = shape[i];
    for (int op = 0; op < 3; op++)
      p->loop_strides[op][p->nloop] = s[op][i];
    p->nloop++;
  }
}

bool cn_mm_make_plan(const cn_mm_geom *g, cn_mm_plan *p) {
  memset(p, 0, sizeof *p);
  int64_t batch = 1;
  for (int32_t i = 0; i < g->nbatch; i++)
    batch *= g->batch_shape[i];
  if (g->m == 0 || g->n == 0 || batch == 0) {
    p->kind = CN_MM_EMPTY;
    return true;
  }
  if (g->k == 0) {
    p->kind = CN_MM_ZERO;
    return true;
  }
  if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX)
    return false;
  p->kind = CN_MM_GEMM;
  int64_t st[3][CN_MAX_DIMS];
  memcpy(st, g->strides, sizeof st);

  layout lo = operand_layout(g, st[CN_MM_OUT], CN_MM_OUT);
  if (lo.fits == 0) {
    p->pack[CN_MM_OUT] = true;
    p->packed_size[CN_MM_OUT] =
        pack_strides(g, CN_MM_OUT, p->packed_strides[CN_MM_OUT]);
    memcpy(st[CN_MM_OUT], p->packed_strides[CN_MM_OUT], sizeof st[0]);
    lo = operand_layout(g, st[CN_MM_OUT], CN_MM_OUT);
  }
  layout la = operand_layout(g, st[CN_MM_A], CN_MM_A);
  layout lb = operand_layout(g, st[CN_MM_B], CN_MM_B);
  /* The orientation that packs fewer inputs (row-major out on a tie). */
  int best_cost = 3;
  for (int s = 1; s >= 0; s--) {
    bool swap = s == 1;
    if (!(lo.fits & (swap ? FIT_ROW : FIT_COL)))
      continue;
    int cost = (input_choice(&la, swap, g->conj_a) == 0) +
               (input_choice(&lb, swap, false) == 0);
    if (cost < best_cost) {
      best_cost = cost;
      p->swap = swap;
    }
  }
  bool conj = g->conj_a;
  int ca = input_choice(&la, p->swap, conj);
  int cb = input_choice(&lb, p->swap, false);
  if (ca == 0) { /* packed: C-contiguous (conjugated while copying) */
    p->pack[CN_MM_A] = true;
    p->packed_size[CN_MM_A] =
        pack_strides(g, CN_MM_A, p->packed_strides[CN_MM_A]);
    memcpy(st[CN_MM_A], p->packed_strides[CN_MM_A], sizeof st[0]);
    la = operand_layout(g, st[CN_MM_A], CN_MM_A);
    conj = false;
    ca = input_choice(&la, p->swap, false);
  }
  if (cb == 0) {
    p->pack[CN_MM_B] = true;
    p->packed_size[CN_MM_B] =
        pack_strides(g, CN_MM_B, p->packed_strides[CN_MM_B]);
    memcpy(st[CN_MM_B], p->packed_strides[CN_MM_B], sizeof st[0]);
    lb = operand_layout(g, st[CN_MM_B], CN_MM_B);
    cb = input_choice(&lb, p->swap, false);
  }
  int nat = native_fit(p->swap);
  cn_mm_op op_a = ca == nat ? CN_MM_OP_N : (conj ? CN_MM_OP_C : CN_MM_OP_T);
  cn_mm_op op_b = cb == nat ? CN_MM_OP_N : CN_MM_OP_T;
  int64_t lda = ca == FIT_ROW ? la.ld_row : la.ld_col;
  int64_t ldb = cb == FIT_ROW ? lb.ld_row : lb.ld_col;
  if (p->swap) {
    p->op_x = op_b, p->op_y = op_a;
    p->ldx = (int32_t)ldb, p->ldy = (int32_t)lda;
    p->m = (int32_t)g->n, p->n = (int32_t)g->m;
    p->ldc = (int32_t)lo.ld_row;
  } else {
    p->op_x = op_a, p->op_y = op_b;
    p->ldx = (int32_t)lda, p->ldy = (int32_t)ldb;
    p->m = (int32_t)g->m, p->n = (int32_t)g->n;
    p->ldc = (int32_t)lo.ld_col;
  }
  p->k = (int32_t)g->k;
  plan_batch(g, st, p);
  return true;
}
