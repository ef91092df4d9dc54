/* The typed expression program shared by the core (core/expr.c builds it
 * from the parse tree of core/expr_parse.c) and the backends that run it
 * fused (core/cpu/expr.c, core/cuda/expr.c). Not installed. */
#ifndef CUNUMPY_EXPR_PROGRAM_H
#define CUNUMPY_EXPR_PROGRAM_H

#include "internal.h"

/* Registers: an input array (in its own dtype), a constant (raw bytes of
 * its dtype) or a temporary written by one instruction. */
typedef enum cn_expr_reg_kind {
  CN_XR_INPUT,
  CN_XR_CONST,
  CN_XR_TEMP
} cn_expr_reg_kind;

typedef struct cn_expr_reg {
  int32_t kind; /* cn_expr_reg_kind */
  cn_dtype dtype;
  int32_t input;             /* CN_XR_INPUT: index into the inputs */
  _Alignas(16) unsigned char value[16]; /* CN_XR_CONST: value in dtype */
  int32_t last_use;          /* index of the last instruction reading it */
} cn_expr_reg;

/* Instructions, in order; each writes register out (a temporary). */
typedef enum cn_expr_insn_kind {
  CN_XI_OP,   /* op-table op `op` computed in ct; inputs of dtype ct */
  CN_XI_CAST, /* out = (dtype of out) in[0], astype's conversion */
  CN_XI_WHERE /* out = in[0] ? in[1] : in[2]; in[0] bool, others ct */
} cn_expr_insn_kind;

typedef struct cn_expr_insn {
  int32_t kind; /* cn_expr_insn_kind */
  int32_t op;   /* CN_XI_OP: CN_OPID_* */
  cn_dtype ct;  /* compute dtype (CN_XI_CAST: the destination dtype) */
  int32_t nin;
  int32_t in[3];
  int32_t out;
  /* CN_XI_OP power on signed integers with a non-constant exponent: the
   * exponent is checked for negative values before the op runs. */
  bool check_exponent;
} cn_expr_insn;

typedef struct cn_expr_program {
  int32_t nin;
  const cn_dtype *in_dtype; /* [nin] */
  int32_t nreg;
  cn_expr_reg *regs;
  int32_t ninsn;
  cn_expr_insn *insns;
  int32_t result;        /* register holding the elementwise result */
  cn_dtype result_dtype; /* its dtype */
  /* The reduction applied to the result: CN_RED_SUM, PROD, MIN, MAX, ANY,
   * ALL, or -1 for none; out_dtype is the final dtype. */
  int32_t red_kind;
  cn_dtype out_dtype;
} cn_expr_program;

/* The typed program of a compiled handle, NULL for NULL, a released or a
 * parse-only handle (for tests/cuda/nvrtc_expr.c, which generates the CUDA
 * kernels of programs without a GPU). */
CN_API const cn_expr_program *cn__expr_program(struct cn_expr_s *e);

/* The largest item size of any dtype (complex128). */
#define CN_EXPR_MAX_ITEM 16

/* Coalesces the operands' dimensions (C order): size-1 axes dropped,
 * neighbours merged where every operand's strides allow it. ops[k] strides
 * in bytes, in and out through st[k]. Shared by the backends that run a
 * program fused (core/cpu/expr.c, core/cuda/expr.c). */
static inline void cn_expr_coalesce(int32_t *nd_io, int64_t *shape, int32_t nops,
                           int64_t (*const *st)[CN_MAX_DIMS]) {
  int32_t nd = *nd_io, m = 0;
  for (int32_t d = 0; d < nd; d++) {
    if (shape[d] == 1)
      continue;
    if (m > 0) {
      bool merge = true;
      for (int32_t k = 0; k < nops && merge; k++)
        merge = (*st[k])[m - 1] == (*st[k])[d] * shape[d];
      if (merge) {
        shape[m - 1] *= shape[d];
        for (int32_t k = 0; k < nops; k++)
          (*st[k])[m - 1] = (*st[k])[d];
        continue;
      }
    }
    shape[m] = shape[d];
    for (int32_t k = 0; k < nops; k++)
      (*st[k])[m] = (*st[k])[d];
    m++;
  }
  if (m == 0) {
    shape[0] = 1;
    for (int32_t k = 0; k < nops; k++)
      (*st[k])[0] = 0;
    m = 1;
  }
  *nd_io = m;
}

#endif
