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

/* The largest item size of any dtype (complex128). */
#define CN_EXPR_MAX_ITEM 16

#endif
