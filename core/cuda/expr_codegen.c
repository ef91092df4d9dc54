/* The fused kernel of an expression program (core/expr_program.h): every
 * instruction becomes one statement over registers held in locals, so an
 * element is read once, computed through and written (or folded into the
 * reduction) once. Op statements are the op table's expression texts
 * (core/ops.def), the ones the built-in elementwise kernels use; casts are
 * cn_cast (astype's conversions); the reduction is the built-in
 * reductions' accumulator (prelude/reduce.cuh). Constants are written as
 * their bit patterns, so the kernel computes with exactly the value the
 * program holds. */
#include <stdio.h>
#include <string.h>

#include "../expr_program.h"
#include "codegen.h"

/* An input register the kernel loads: read by an instruction, or the
 * result itself. */
static bool input_read(const cn_expr_program *pr, int32_t r) {
  return pr->regs[r].kind == CN_XR_INPUT &&
         (pr->regs[r].last_use >= 0 || r == pr->result);
}

int32_t cn_cu_expr_inputs_read(const cn_expr_program *pr) {
  int32_t n = 0;
  for (int32_t r = 0; r < pr->nreg; r++)
    n += input_read(pr, r);
  return n;
}

/* The literal of a constant register's value. */
static bool const_literal(char *buf, size_t cap, const cn_expr_reg *g) {
  const unsigned char *v = g->value;
  uint64_t u = 0;
  uint32_t w[4] = {0, 0, 0, 0};
  int64_t isz = cn_itemsize(g->dtype);
  if (isz <= 0 || isz > 16)
    return false;
  memcpy(&u, v, isz < 8 ? (size_t)isz : 8);
  memcpy(w, v, (size_t)isz);
  uint64_t hi = 0;
  if (isz == 16)
    memcpy(&hi, v + 8, 8);
  switch (g->dtype) {
  case CN_BOOL:
    snprintf(buf, cap, "%s", v[0] ? "true" : "false");
    return true;
  case CN_INT8:
  case CN_INT16:
  case CN_INT32:
  case CN_INT64:
  case CN_UINT8:
  case CN_UINT16:
  case CN_UINT32:
  case CN_UINT64:
    snprintf(buf, cap, "(%s)0x%llxull", cn_cu_ctype(g->dtype),
             (unsigned long long)u);
    return true;
  case CN_FLOAT16:
    snprintf(buf, cap, "cn_f16{(cn_u16)0x%llxu}", (unsigned long long)u);
    return true;
  case CN_FLOAT32:
    snprintf(buf, cap, "CN_I2F((int)0x%xu)", (unsigned)w[0]);
    return true;
  case CN_FLOAT64:
    snprintf(buf, cap, "CN_L2D((long long)0x%llxull)", (unsigned long long)u);
    return true;
  case CN_COMPLEX64:
    snprintf(buf, cap, "cn_c64(CN_I2F((int)0x%xu), CN_I2F((int)0x%xu))",
             (unsigned)w[0], (unsigned)w[1]);
    return true;
  case CN_COMPLEX128:
    snprintf(buf, cap,
             "cn_c128(CN_L2D((long long)0x%llxull), "
             "CN_L2D((long long)0x%llxull))",
             (unsigned long long)u, (unsigned long long)hi);
    return true;
  default:
    return false;
  }
}

/* The statement of instruction i (writing r<out>). */
static bool emit_insn(cn_cu_src *s, const cn_expr_program *pr, int32_t i,
                      const cn_op_info *ops) {
  const cn_expr_insn *ins = &pr->insns[i];
  const cn_dtype od = pr->regs[ins->out].dtype;
  const char *ot = cn_cu_ctype(od);
  if (ot == NULL)
    return false;
  if (ins->kind == CN_XI_CAST) {
    cn_cu_src_appendf(s, "    r%d = cn_cast<%s>(r%d);\n", (int)ins->out, ot,
                      (int)ins->in[0]);
    return true;
  }
  if (ins->kind == CN_XI_WHERE) {
    cn_cu_src_appendf(s, "    r%d = r%d ? r%d : r%d;\n", (int)ins->out,
                      (int)ins->in[0], (int)ins->in[1], (int)ins->in[2]);
    return true;
  }
  if (ins->op < 0 || ins->op >= CN_OP_COUNT_)
    return false;
  const cn_op_info *info = &ops[ins->op];
  if (info->nin != ins->nin || info->nin < 1 || info->nin > 3)
    return false;
  /* float16 is computed in float32, as the core does for the CUDA
   * backend; the two ops with float16 loops of their own have none here */
  const bool half = ins->ct == CN_FLOAT16;
  if (half && (ins->op == CN_OPID_nextafter || ins->op == CN_OPID_spacing))
    return false;
  const cn_dtype cdt = half ? CN_FLOAT32 : ins->ct;
  const char *ct = cn_cu_ctype(cdt);
  const cn_dtype rdt = cn_cu_op_out(info, cdt);
  const char *rt = cn_cu_ctype(rdt);
  if (ct == NULL || rt == NULL)
    return false;
  if (ins->check_exponent)
    cn_cu_src_appendf(s, "    if (r%d < 0) *xa.flag = 1;\n", (int)ins->in[1]);
  static const char vars[3] = {'a', 'b', 'c'};
  cn_cu_src_appendf(s,
                    "    {\n      typedef %s in0_t; typedef %s in1_t;"
                    " typedef %s in2_t; typedef %s out_t;\n",
                    ct, ct, ct, rt);
  for (int32_t j = 0; j < ins->nin; j++) {
    if (half)
      cn_cu_src_appendf(s, "      const %s %c = cn_cast<float>(r%d);\n", ct,
                        vars[j], (int)ins->in[j]);
    else
      cn_cu_src_appendf(s, "      const %s %c = r%d;\n", ct, vars[j],
                        (int)ins->in[j]);
  }
  if (rdt == od)
    cn_cu_src_appendf(s, "      r%d = (out_t)(%s);\n    }\n", (int)ins->out,
                      info->expr);
  else
    cn_cu_src_appendf(s, "      r%d = cn_cast<%s>((out_t)(%s));\n    }\n",
                      (int)ins->out, ot, info->expr);
  return true;
}

bool cn_cu_gen_expr(cn_cu_src *s, const cn_expr_program *pr, int32_t nd,
                    char names[][CN_CU_NAME_CAP]) {
  if (pr == NULL || nd < 0 || nd > CN_MAX_DIMS || pr->result < 0 ||
      pr->result >= pr->nreg)
    return false;
  const cn_op_info *ops = cn__plugin_services()->op_table();
  const bool red = pr->red_kind >= 0;
  char rtype[256];
  if (red && (pr->result_dtype == CN_FLOAT16 ||
              !cn_cu_red_type(rtype, sizeof rtype,
                              (cn_reduce_kind)pr->red_kind, pr->result_dtype,
                              pr->out_dtype)))
    return false;
  const int32_t nu = cn_cu_expr_inputs_read(pr);
  snprintf(names[0], CN_CU_NAME_CAP, "cn_expr_%s%d", red ? "fold" : "map",
           (int)nd);
  names[1][0] = 0;
  if (red)
    snprintf(names[1], CN_CU_NAME_CAP, "cn_expr_merge%d", (int)nd);
  cn_cu_src_appendf(s,
                    "\nstruct cn_xargs%d {\n  long long n;\n  char *out;\n"
                    "  int *flag;\n  void *partial;\n"
                    "  const char *in[%d];\n",
                    (int)nd, nu > 0 ? (int)nu : 1);
  if (nd > 0)
    cn_cu_src_appendf(s, "  long long shape[%d];\n  long long st[%d][%d];\n",
                      (int)nd, (int)nu + 1, (int)nd);
  cn_cu_src_appendf(s, "};\n");
  if (red)
    cn_cu_src_appendf(s, "typedef %s R_expr;\n", rtype);
  cn_cu_src_appendf(
      s,
      "extern \"C\" __global__ void __launch_bounds__(256) %s(const "
      "cn_xargs%d xa) {\n",
      names[0], (int)nd);
  if (red)
    cn_cu_src_appendf(s, "  R_expr::acc_t acc = R_expr::init();\n");
  cn_cu_src_appendf(
      s, "  for (long long i = (long long)blockIdx.x * blockDim.x + "
         "threadIdx.x; i < xa.n; i += (long long)gridDim.x * blockDim.x) {\n");
  if (nd > 0) {
    cn_cu_src_appendf(s, "    long long rem = i, o[%d] = {0};\n", (int)nu + 1);
    for (int32_t d = nd - 1; d >= 0; d--) {
      if (d > 0)
        cn_cu_src_appendf(
            s,
            "    { long long x = rem %% xa.shape[%d]; rem /= xa.shape[%d];\n",
            (int)d, (int)d);
      else
        cn_cu_src_appendf(s, "    { long long x = rem;\n");
      cn_cu_src_appendf(s, "#pragma unroll\n      for (int k = 0; k < %d; "
                           "k++) o[k] += x * xa.st[k][%d]; }\n",
                        (int)nu + 1, (int)d);
    }
  }
  /* registers: inputs loaded, constants, temporaries declared */
  int32_t k = 0;
  for (int32_t r = 0; r < pr->nreg; r++) {
    const cn_expr_reg *g = &pr->regs[r];
    const char *t = cn_cu_ctype(g->dtype);
    if (t == NULL)
      return false;
    if (g->kind == CN_XR_INPUT) {
      if (!input_read(pr, r))
        continue;
      if (nd > 0)
        cn_cu_src_appendf(s,
                          "    const %s r%d = *reinterpret_cast<const %s *>"
                          "(xa.in[%d] + o[%d]);\n",
                          t, (int)r, t, (int)k, (int)k + 1);
      else
        cn_cu_src_appendf(s,
                          "    const %s r%d = reinterpret_cast<const %s *>"
                          "(xa.in[%d])[i];\n",
                          t, (int)r, t, (int)k);
      k++;
    } else if (g->kind == CN_XR_CONST) {
      char lit[160];
      if (!const_literal(lit, sizeof lit, g))
        return false;
      cn_cu_src_appendf(s, "    const %s r%d = %s;\n", t, (int)r, lit);
    } else {
      cn_cu_src_appendf(s, "    %s r%d;\n", t, (int)r);
    }
  }
  for (int32_t i = 0; i < pr->ninsn; i++)
    if (!emit_insn(s, pr, i, ops))
      return false;
  const char *res_t = cn_cu_ctype(pr->result_dtype);
  if (red)
    cn_cu_src_appendf(s, "    R_expr::add(acc, r%d, i);\n  }\n",
                      (int)pr->result);
  else if (nd > 0)
    cn_cu_src_appendf(s,
                      "    *reinterpret_cast<%s *>(xa.out + o[0]) = r%d;\n  }\n",
                      res_t, (int)pr->result);
  else
    cn_cu_src_appendf(s,
                      "    reinterpret_cast<%s *>(xa.out)[i] = r%d;\n  }\n",
                      res_t, (int)pr->result);
  if (red) {
    cn_cu_src_appendf(
        s,
        "  acc = cn_block_reduce<R_expr>(acc);\n"
        "  if (threadIdx.x == 0) {\n"
        "    if (gridDim.x == 1) R_expr::store(xa.out, nullptr, acc, 0.0);\n"
        "    else reinterpret_cast<R_expr::acc_t *>(xa.partial)[blockIdx.x] ="
        " acc;\n  }\n}\n"
        "extern \"C\" __global__ void __launch_bounds__(256) %s(const "
        "cn_xargs%d xa, int G) {\n"
        "  const R_expr::acc_t *p = reinterpret_cast<const R_expr::acc_t *>"
        "(xa.partial);\n"
        "  R_expr::acc_t acc = R_expr::init();\n"
        "  for (int j = threadIdx.x; j < G; j += blockDim.x)"
        " acc = R_expr::merge(acc, p[j]);\n"
        "  acc = cn_block_reduce<R_expr>(acc);\n"
        "  if (threadIdx.x == 0) R_expr::store(xa.out, nullptr, acc, 0.0);\n",
        names[1], (int)nd);
  }
  cn_cu_src_appendf(s, "}\n");
  return !s->oom;
}
