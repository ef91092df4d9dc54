/* Expressions (cunumpy/expr.h): the handle, the type checker that turns a
 * parse tree (core/expr_parse.c) into a typed register program
 * (core/expr_program.h) by the ufuncs' rules, and evaluation: fused by the
 * backend's expr slot, or one instruction at a time through the
 * elementwise, where and assign slots (any backend; also forced with
 * CUNUMPY_EXPR_UNFUSED=1, read once, which the tests use to check one path
 * against the other). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_parse.h"
#include "expr_program.h"

#define CN_EXPR_MAGIC 0x434e4558u /* "CNEX" */

struct cn_expr_s {
  uint32_t magic;
  cn_expr_ast ast;
  bool compiled;
  int32_t nin;
  cn_dtype *in_dtype;
  int32_t *in_ndim;
  int32_t nd; /* broadcast ndim */
  cn_expr_program prog;
  /* reduction axes normalised against nd */
  uint64_t red_mask;
  bool red_all;
};

/* ---- handle ------------------------------------------------------------ */

void cn_expr_release(cn_expr e) {
  if (e == NULL || e->magic != CN_EXPR_MAGIC)
    return;
  e->magic = 0;
  cn_expr_ast_free(&e->ast);
  free(e->in_dtype);
  free(e->in_ndim);
  free(e->prog.regs);
  free(e->prog.insns);
  free(e);
}

#define CN_CHECK_EXPR(e, fn)                                                   \
  do {                                                                         \
    if ((e) == NULL)                                                           \
      return cn_error(CN_ERR_VALUE, "%s: argument 'e' is NULL", fn);           \
    if ((e)->magic != CN_EXPR_MAGIC)                                           \
      return cn_error(CN_ERR_VALUE,                                            \
                      "%s: argument 'e' is a released or invalid handle", fn); \
  } while (0)

static cn_status cn_expr_new(cn_expr *out, const char *text, const char *fn) {
  CN_CHECK_OUT(out, fn);
  if (text == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'text' is NULL", fn);
  cn_expr e = cn_calloc(1, sizeof *e);
  if (e == NULL)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  cn_status st = cn_expr_ast_parse(&e->ast, text, fn);
  if (st != CN_OK) {
    free(e);
    return st;
  }
  e->magic = CN_EXPR_MAGIC;
  *out = e;
  return CN_OK;
}

cn_status cn_expr_parse(cn_expr *out, const char *text) {
  return cn_expr_new(out, text, "cn_expr_parse");
}

cn_status cn_expr_variable_count(int32_t *out, cn_expr e) {
  CN_CHECK_OUT(out, "cn_expr_variable_count");
  CN_CHECK_EXPR(e, "cn_expr_variable_count");
  *out = e->ast.nvars;
  return CN_OK;
}

cn_status cn_expr_variable_name(const char **out, cn_expr e, int32_t i) {
  CN_CHECK_OUT(out, "cn_expr_variable_name");
  CN_CHECK_EXPR(e, "cn_expr_variable_name");
  if (i < 0 || i >= e->ast.nvars)
    return cn_error(CN_ERR_INDEX,
                    "cn_expr_variable_name: index %d out of range for %d names",
                    (int)i, (int)e->ast.nvars);
  *out = e->ast.vars[i];
  return CN_OK;
}

const cn_expr_program *cn__expr_program(cn_expr e) {
  return e != NULL && e->magic == CN_EXPR_MAGIC && e->compiled ? &e->prog
                                                               : NULL;
}

cn_status cn_expr_result_dtype(cn_dtype *out, cn_expr e) {
  CN_CHECK_OUT(out, "cn_expr_result_dtype");
  CN_CHECK_EXPR(e, "cn_expr_result_dtype");
  if (!e->compiled)
    return cn_error(CN_ERR_VALUE, "cn_expr_result_dtype: the expression is "
                                  "parsed but not compiled (cn_expr_compile)");
  *out = e->prog.out_dtype;
  return CN_OK;
}

/* ---- the type checker ---------------------------------------------------- */

/* The type of a typed subtree. */
typedef struct {
  int32_t reg;  /* -1 for a literal not yet materialised */
  cn_dtype dt;  /* the dtype (a weak literal: its kind's default) */
  int32_t weak; /* 0 strong, else the kind of a Python scalar: 1 int, 2
                   float, 3 complex */
  bool known;   /* value holds the value */
  cn_scalar value;
} cn_xt;

typedef struct {
  const char *fn;
  const cn_expr_ast *ast;
  const int32_t *var_input;
  cn_expr_program *pr;
  int32_t capreg, capinsn;
  int32_t col; /* column of the node being typed, for messages */
} cn_xb;

static cn_status cn_xb_oom(const cn_xb *b) {
  return cn_error(CN_ERR_MEMORY, "%s: out of memory", b->fn);
}

static cn_status cn_xb_reg(cn_xb *b, int32_t *out, int32_t kind, cn_dtype dt) {
  cn_expr_program *pr = b->pr;
  if (pr->nreg == b->capreg) {
    int32_t cap = b->capreg ? b->capreg * 2 : 16;
    cn_expr_reg *r = cn_realloc(pr->regs, sizeof *r * (size_t)cap);
    if (r == NULL)
      return cn_xb_oom(b);
    pr->regs = r;
    b->capreg = cap;
  }
  cn_expr_reg *r = &pr->regs[pr->nreg];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->dtype = dt;
  r->input = -1;
  r->last_use = -1;
  *out = pr->nreg++;
  return CN_OK;
}

static cn_status cn_xb_insn(cn_xb *b, cn_expr_insn ins, cn_dtype odt,
                            int32_t *out) {
  cn_status st = cn_xb_reg(b, &ins.out, CN_XR_TEMP, odt);
  if (st != CN_OK)
    return st;
  cn_expr_program *pr = b->pr;
  if (pr->ninsn == b->capinsn) {
    int32_t cap = b->capinsn ? b->capinsn * 2 : 16;
    cn_expr_insn *n = cn_realloc(pr->insns, sizeof *n * (size_t)cap);
    if (n == NULL)
      return cn_xb_oom(b);
    pr->insns = n;
    b->capinsn = cap;
  }
  pr->insns[pr->ninsn++] = ins;
  *out = ins.out;
  return CN_OK;
}

/* The register holding t converted to dt (a constant, the register itself,
 * or a cast, shared by every use). */
static cn_status cn_xb_as(cn_xb *b, int32_t *out, const cn_xt *t, cn_dtype dt) {
  cn_expr_program *pr = b->pr;
  if (t->known) {
    cn_status st = cn_xb_reg(b, out, CN_XR_CONST, dt);
    if (st == CN_OK)
      cn_scalar_to_bytes(pr->regs[*out].value, dt, t->value);
    return st;
  }
  if (pr->regs[t->reg].dtype == dt) {
    *out = t->reg;
    return CN_OK;
  }
  for (int32_t i = 0; i < pr->ninsn; i++)
    if (pr->insns[i].kind == CN_XI_CAST && pr->insns[i].in[0] == t->reg &&
        pr->insns[i].ct == dt) {
      *out = pr->insns[i].out;
      return CN_OK;
    }
  cn_expr_insn ins = {.kind = CN_XI_CAST, .ct = dt, .nin = 1,
                      .in = {t->reg, -1, -1}};
  return cn_xb_insn(b, ins, dt, out);
}

static cn_dtype cn_xt_weak_dtype(int32_t weak, cn_scalar v, bool known) {
  if (weak == 1)
    return known && v.kind == CN_SCALAR_UINT ? CN_UINT64 : CN_INT64;
  return weak == 2 ? CN_FLOAT64 : CN_COMPLEX128;
}

/* A scalar standing for a weak subtree in cn_result_type_scalar: its value
 * when known, else 0 of its kind (every dtype holds it). */
static cn_scalar cn_xt_weak_scalar(const cn_xt *t) {
  if (t->known)
    return t->value;
  return t->weak == 1   ? cn_scalar_int(0)
         : t->weak == 2 ? cn_scalar_float(0)
                        : cn_scalar_complex(0, 0);
}

static cn_status cn_xb_err(const cn_xb *b, cn_status st) {
  /* prefixes the promotion table's message with the function and column */
  const char *m = cn_last_error();
  char copy[400];
  snprintf(copy, sizeof copy, "%s", m ? m : "");
  return cn_error(st, "%s: column %d: %s", b->fn, (int)b->col, copy);
}

/* Promotion of the children as cn_uf_promote: strong dtypes as a
 * sequence, then each weak one against the result; lenient leaves an
 * integer result for weak integers (checked against the loop dtype).
 * *all_weak when no child is strong. */
static cn_status cn_xb_promote(cn_xb *b, cn_dtype *out, bool *all_weak,
                               const cn_xt *t, int32_t n, bool lenient) {
  cn_dtype strong[3];
  int32_t ns = 0, maxweak = 0;
  for (int32_t i = 0; i < n; i++) {
    if (t[i].weak == 0)
      strong[ns++] = t[i].dt;
    else if (t[i].weak > maxweak)
      maxweak = t[i].weak;
  }
  *all_weak = ns == 0;
  if (ns == 0) {
    /* Python scalars among themselves: the widest kind's dtype */
    cn_dtype p = CN_INT64;
    for (int32_t i = 0; i < n; i++)
      if (t[i].weak == maxweak) {
        p = cn_xt_weak_dtype(t[i].weak, t[i].value, t[i].known);
        if (p == CN_UINT64)
          break;
      }
    *out = p;
    return CN_OK;
  }
  cn_dtype p = cn_result_type_seq(strong, ns);
  for (int32_t i = 0; i < n; i++) {
    if (t[i].weak == 0)
      continue;
    if (lenient && cn_is_integer(p) && t[i].weak == 1)
      continue;
    cn_status st = cn_result_type_scalar(&p, p, cn_xt_weak_scalar(&t[i]));
    if (st != CN_OK)
      return cn_xb_err(b, st);
  }
  *out = p;
  return CN_OK;
}

/* The ufuncs' loop dtype of op for promoted p (core/ufunc.c's rule). */
static cn_status cn_xb_loop_dtype(cn_xb *b, cn_dtype *out, int32_t op,
                                  cn_dtype p) {
  const cn_op_info *info = &cn_op_table()[op];
  if (info->ints == CN_INTS_FLOAT64 && (cn_is_integer(p) || cn_is_bool(p)))
    p = CN_FLOAT64;
  if (info->bool_refusal != NULL && cn_is_bool(p))
    return cn_error(CN_ERR_TYPE, "%s: column %d: %s: %s", b->fn, (int)b->col,
                    info->name, info->bool_refusal);
  if (cn_op_loop_dtype(op, p, out))
    return CN_OK;
  return cn_error(CN_ERR_TYPE, "%s: column %d: %s: no loop for dtype %s",
                  b->fn, (int)b->col, info->name, cn_dtype_name(p));
}

static int32_t cn_xt_kind_of(cn_dtype dt) {
  return cn_is_complex(dt) ? 3 : cn_is_float(dt) ? 2 : cn_is_bool(dt) ? 0 : 1;
}

/* The value of a known literal as a double (power shortcuts). */
static double cn_xt_number(const cn_xt *t) {
  return t->value.kind == CN_SCALAR_FLOAT  ? t->value.re
         : t->value.kind == CN_SCALAR_UINT ? (double)(uint64_t)t->value.i
                                           : (double)t->value.i;
}

static cn_status cn_xb_node(cn_xb *b, cn_xt *out, int32_t k, int depth);

static cn_status cn_xb_op(cn_xb *b, cn_xt *out, int32_t op, cn_xt *t,
                          int32_t n) {
  cn_dtype p = CN_FLOAT64, ct = CN_FLOAT64;
  bool all_weak;
  cn_status st = cn_xb_promote(b, &p, &all_weak, t, n, true);
  if (st == CN_OK)
    st = cn_xb_loop_dtype(b, &ct, op, p);
  if (st != CN_OK)
    return st;
  /* float16 computes in float32 and rounds each op's result, as the
   * ufuncs (core/ufunc.c) and NumPy's float16 loops */
  const cn_dtype rdt = cn_op_out_dtype(op, ct);
  const bool half = ct == CN_FLOAT16 && !cn_op_float16_loop(op);
  if (half)
    ct = CN_FLOAT32;
  cn_dtype odt = cn_op_out_dtype(op, ct);
  /* a weak integer out of range of an integer loop: the ufuncs' rules
   * (core/ufunc.c, cn_uf_weak_ints) */
  if (cn_is_integer(ct))
    for (int32_t i = 0; i < n; i++) {
      cn_scalar v = t[i].value;
      if (t[i].weak != 1 || !t[i].known)
        continue;
      const cn_weak_rule rule = cn_op_table()[op].weak;
      cn_dtype unused;
      if (rule == CN_WEAK_TRUTH && v.kind == CN_SCALAR_UINT &&
          (uint64_t)v.i > INT64_MAX)
        return cn_xb_err(b, cn_result_type_scalar(&unused, CN_INT64, v));
      if (cn_scalar_int_fits(ct, v))
        continue;
      bool above = v.kind == CN_SCALAR_UINT || v.i >= 0;
      int bits = (int)cn_itemsize(ct) * 8;
      switch (rule) {
      case CN_WEAK_EQ:
      case CN_WEAK_NE:
      case CN_WEAK_LESS:
      case CN_WEAK_GREATER: {
        bool lt = i == 1 ? above : !above; /* x1 < x2 everywhere */
        bool r = rule == CN_WEAK_EQ     ? false
                 : rule == CN_WEAK_NE   ? true
                 : rule == CN_WEAK_LESS ? lt
                                        : !lt;
        memset(out, 0, sizeof *out);
        out->dt = CN_BOOL;
        out->known = true;
        out->value = cn_scalar_bool(r);
        out->reg = -1;
        return CN_OK;
      }
      case CN_WEAK_TRUTH:
        t[i].value = cn_scalar_int(1);
        continue;
      case CN_WEAK_CLAMP:
        if (i > 0 && above == (i == 2)) {
          if (cn_is_unsigned_int(ct))
            t[i].value = above ? cn_scalar_uint(UINT64_MAX >> (64 - bits))
                               : cn_scalar_int(0);
          else
            t[i].value = above
                             ? cn_scalar_int(INT64_MAX >> (64 - bits))
                             : cn_scalar_int(-(INT64_MAX >> (64 - bits)) - 1);
          continue;
        }
        /* fall through */
      default:
        return cn_xb_err(b, cn_result_type_scalar(&unused, ct, v));
      }
    }
  memset(out, 0, sizeof *out);
  out->dt = rdt;
  out->weak = all_weak ? cn_xt_kind_of(rdt) : 0;
  bool check_exp = false;
  /* NumPy's power by one value (a scalar exponent) */
  if (op == CN_OPID_power && t[1].known &&
      (cn_is_float(ct) || cn_is_integer(ct))) {
    double e = cn_xt_number(&t[1]);
    if (cn_is_signed_int(ct) && e < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: column %d: Integers to negative integer powers are "
                      "not allowed.",
                      b->fn, (int)b->col);
    if (e == 0) {
      out->known = true;
      out->value = cn_scalar_int(1);
      out->reg = -1;
      return CN_OK;
    }
    int32_t fast = e == 1                        ? CN_OPID_positive
                   : e == 2                      ? CN_OPID_square
                   : cn_is_float(ct) && e == 0.5 ? CN_OPID_sqrt
                   : cn_is_float(ct) && e == -1  ? CN_OPID_reciprocal
                                                 : -1;
    if (fast >= 0) {
      op = fast;
      n = 1;
    } else if (!half && cn_is_float(ct) && e >= 3 && e <= 16 &&
               e == (int)e) {
      /* numexpr's expansion of a small integer power into products
       * (within a few ulp of pow; a fraction of its cost in a block) */
      int32_t x, acc = -1, sq;
      if ((st = cn_xb_as(b, &x, &t[0], ct)) != CN_OK)
        return st;
      sq = x;
      for (int k = (int)e; k > 0; k >>= 1) {
        if (k & 1) {
          if (acc < 0) {
            acc = sq;
          } else {
            cn_expr_insn m = {.kind = CN_XI_OP, .op = CN_OPID_multiply,
                              .ct = ct, .nin = 2, .in = {acc, sq, -1}};
            if ((st = cn_xb_insn(b, m, ct, &acc)) != CN_OK)
              return st;
          }
        }
        if (k > 1) {
          cn_expr_insn q = {.kind = CN_XI_OP, .op = CN_OPID_square, .ct = ct,
                            .nin = 1, .in = {sq, -1, -1}};
          if ((st = cn_xb_insn(b, q, ct, &sq)) != CN_OK)
            return st;
        }
      }
      out->reg = acc;
      return CN_OK;
    }
  } else if (op == CN_OPID_power && cn_is_signed_int(ct)) {
    check_exp = true;
  }
  cn_expr_insn ins = {.kind = CN_XI_OP, .op = op, .ct = ct, .nin = n,
                      .in = {-1, -1, -1}, .check_exponent = check_exp};
  for (int32_t i = 0; i < n; i++)
    if ((st = cn_xb_as(b, &ins.in[i], &t[i], ct)) != CN_OK)
      return st;
  if (rdt == odt)
    return cn_xb_insn(b, ins, odt, &out->reg);
  cn_xt wide = {0};
  if ((st = cn_xb_insn(b, ins, odt, &wide.reg)) != CN_OK)
    return st;
  return cn_xb_as(b, &out->reg, &wide, rdt);
}

static cn_status cn_xb_node(cn_xb *b, cn_xt *out, int32_t k, int depth) {
  const cn_expr_node *nd = &b->ast->nodes[k];
  cn_xt t[3];
  cn_status st;
  for (int32_t i = 0; i < nd->nchild; i++)
    if ((st = cn_xb_node(b, &t[i], nd->child[i], depth + 1)) != CN_OK)
      return st;
  b->col = nd->col;
  memset(out, 0, sizeof *out);
  switch (nd->kind) {
  case CN_XN_VAR: {
    int32_t in = b->var_input[nd->var];
    out->reg = in;
    out->dt = b->pr->regs[in].dtype;
    return CN_OK;
  }
  case CN_XN_NUM:
    out->reg = -1;
    out->known = true;
    out->value = nd->value;
    switch (nd->value.kind) {
    case CN_SCALAR_BOOL:
      out->dt = CN_BOOL;
      break;
    case CN_SCALAR_INT:
    case CN_SCALAR_UINT:
      out->weak = 1;
      break;
    case CN_SCALAR_FLOAT:
      out->weak = 2;
      break;
    default:
      out->weak = 3;
      break;
    }
    if (out->weak)
      out->dt = cn_xt_weak_dtype(out->weak, out->value, true);
    return CN_OK;
  case CN_XN_OP:
    if ((st = cn_xb_op(b, out, nd->op, t, nd->nchild)) == CN_OK && nd->call)
      out->weak = 0;
    return st;
  case CN_XN_CAST: {
    cn_dtype dt = (cn_dtype)nd->op;
    out->dt = dt;
    if (t[0].known) {
      /* a literal converts now, as astype would */
      unsigned char bytes[16];
      cn_scalar_to_bytes(bytes, dt, t[0].value);
      out->known = true;
      out->value = cn_scalar_from_bytes(bytes, dt);
      out->reg = -1;
      return CN_OK;
    }
    return cn_xb_as(b, &out->reg, &t[0], dt);
  }
  case CN_XN_WHERE: {
    cn_dtype p = CN_FLOAT64;
    bool all_weak;
    if ((st = cn_xb_promote(b, &p, &all_weak, &t[1], 2, false)) != CN_OK)
      return st;
    cn_expr_insn ins = {.kind = CN_XI_WHERE, .ct = p, .nin = 3,
                        .in = {-1, -1, -1}};
    if ((st = cn_xb_as(b, &ins.in[0], &t[0], CN_BOOL)) != CN_OK ||
        (st = cn_xb_as(b, &ins.in[1], &t[1], p)) != CN_OK ||
        (st = cn_xb_as(b, &ins.in[2], &t[2], p)) != CN_OK)
      return st;
    out->dt = p;
    return cn_xb_insn(b, ins, p, &out->reg);
  }
  default:
    return cn_error(CN_ERR_INTERNAL, "%s: unknown node kind %d", b->fn,
                    (int)nd->kind);
  }
}

/* Drops instructions whose results nothing reads (x**0 leaves x's) and
 * records each register's last reader. */
static void cn_xb_finish(cn_expr_program *pr) {
  bool *live = calloc((size_t)pr->nreg + 1, 1);
  if (live != NULL) {
    live[pr->result] = true;
    for (int32_t i = pr->ninsn - 1; i >= 0; i--) {
      const cn_expr_insn *ins = &pr->insns[i];
      if (!live[ins->out])
        continue;
      for (int32_t j = 0; j < ins->nin; j++)
        live[ins->in[j]] = true;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < pr->ninsn; i++)
      if (live[pr->insns[i].out])
        pr->insns[m++] = pr->insns[i];
    pr->ninsn = m;
    free(live);
  }
  for (int32_t r = 0; r < pr->nreg; r++)
    pr->regs[r].last_use = -1;
  for (int32_t i = 0; i < pr->ninsn; i++)
    for (int32_t j = 0; j < pr->insns[i].nin; j++)
      pr->regs[pr->insns[i].in[j]].last_use = i;
  pr->regs[pr->result].last_use = pr->ninsn;
}

static cn_dtype cn_xb_red_dtype(int32_t kind, cn_dtype dt) {
  switch (kind) {
  case CN_RED_SUM:
  case CN_RED_PROD:
    if (dt == CN_BOOL || cn_is_signed_int(dt))
      return CN_INT64;
    return cn_is_unsigned_int(dt) ? CN_UINT64 : dt;
  case CN_RED_ANY:
  case CN_RED_ALL:
    return CN_BOOL;
  default:
    return dt;
  }
}

cn_status cn_expr_compile(cn_expr *out, const char *text, int32_t nin,
                          const char *const *names, const cn_dtype *dtypes,
                          const int32_t *ndims) {
  const char *fn = "cn_expr_compile";
  CN_CHECK_OUT(out, fn);
  if (text == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'text' is NULL", fn);
  if (nin < 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'nin' is %d (must be >= 0)",
                    fn, (int)nin);
  if (nin > 0 && (names == NULL || dtypes == NULL || ndims == NULL))
    return cn_error(CN_ERR_VALUE,
                    "%s: arguments 'names', 'dtypes' and 'ndims' must not be "
                    "NULL when nin > 0",
                    fn);
  int32_t nd = 0;
  for (int32_t i = 0; i < nin; i++) {
    if (names[i] == NULL)
      return cn_error(CN_ERR_VALUE, "%s: names[%d] is NULL", fn, (int)i);
    if (!cn_dtype_is_valid(dtypes[i]))
      return cn_error(CN_ERR_TYPE, "%s: dtypes[%d] is not a valid dtype (%d)",
                      fn, (int)i, (int)dtypes[i]);
    if (ndims[i] < 0 || ndims[i] > CN_MAX_DIMS)
      return cn_error(CN_ERR_VALUE, "%s: ndims[%d] is %d (must be in [0, %d])",
                      fn, (int)i, (int)ndims[i], (int)CN_MAX_DIMS);
    for (int32_t j = 0; j < i; j++)
      if (strcmp(names[i], names[j]) == 0)
        return cn_error(CN_ERR_VALUE, "%s: name '%.64s' is bound twice", fn,
                        names[i]);
    if (ndims[i] > nd)
      nd = ndims[i];
  }
  cn_expr e = NULL;
  cn_status st = cn_expr_new(&e, text, fn);
  if (st != CN_OK)
    return st;
  int32_t *var_input = NULL;
  e->nin = nin;
  e->nd = nd;
  e->in_dtype = cn_malloc(sizeof(cn_dtype) * (size_t)(nin + 1));
  e->in_ndim = cn_malloc(sizeof(int32_t) * (size_t)(nin + 1));
  var_input = cn_malloc(sizeof(int32_t) * (size_t)(e->ast.nvars + 1));
  if (e->in_dtype == NULL || e->in_ndim == NULL || var_input == NULL) {
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    goto fail;
  }
  for (int32_t i = 0; i < nin; i++) {
    e->in_dtype[i] = dtypes[i];
    e->in_ndim[i] = ndims[i];
  }
  for (int32_t v = 0; v < e->ast.nvars; v++) {
    var_input[v] = -1;
    for (int32_t i = 0; i < nin && var_input[v] < 0; i++)
      if (strcmp(e->ast.vars[v], names[i]) == 0)
        var_input[v] = i;
    if (var_input[v] < 0) {
      int32_t col = 0;
      for (int32_t k = 0; k < e->ast.nnodes && col == 0; k++)
        if (e->ast.nodes[k].kind == CN_XN_VAR && e->ast.nodes[k].var == v)
          col = e->ast.nodes[k].col;
      st = cn_error(CN_ERR_VALUE, "%s: column %d: name '%s' is not defined",
                    fn, (int)col, e->ast.vars[v]);
      goto fail;
    }
  }
  if (e->ast.red_kind >= 0) {
    if (e->ast.red_naxes < 0) {
      e->red_mask = nd ? (nd == 64 ? ~0ull : ((1ull << nd) - 1)) : 0;
    } else if ((st = cn_axes_mask(&e->red_mask, e->ast.red_naxes,
                                  e->ast.red_axes, nd, fn)) != CN_OK) {
      goto fail;
    }
    e->red_all = e->red_mask == (nd ? ((1ull << nd) - 1) : 0);
  }
  /* the program */
  cn_xb b = {.fn = fn, .ast = &e->ast, .var_input = var_input, .pr = &e->prog};
  e->prog.nin = nin;
  e->prog.in_dtype = e->in_dtype;
  e->prog.red_kind = e->ast.red_kind;
  for (int32_t i = 0; i < nin; i++) {
    int32_t r;
    if ((st = cn_xb_reg(&b, &r, CN_XR_INPUT, dtypes[i])) != CN_OK)
      goto fail;
    e->prog.regs[r].input = i;
  }
  cn_xt root;
  if ((st = cn_xb_node(&b, &root, e->ast.root, 0)) != CN_OK)
    goto fail;
  if ((st = cn_xb_as(&b, &e->prog.result, &root, root.dt)) != CN_OK)
    goto fail;
  e->prog.result_dtype = root.dt;
  e->prog.out_dtype = e->prog.red_kind >= 0
                          ? cn_xb_red_dtype(e->prog.red_kind, root.dt)
                          : root.dt;
  cn_xb_finish(&e->prog);
  free(var_input);
  e->compiled = true;
  *out = e;
  return CN_OK;
fail:
  free(var_input);
  cn_expr_release(e);
  return st;
}

/* ---- evaluation ---------------------------------------------------------- */

static bool cn_expr_force_unfused(void) {
  static _Atomic int cached = -1;
  int v = cached;
  if (v < 0) {
    const char *s = getenv("CUNUMPY_EXPR_UNFUSED");
    v = s != NULL && s[0] == '1';
    cached = v;
  }
  return v == 1;
}


/* An integer power's exponent must not be negative (NumPy's error). */
static cn_status cn_expr_check_exponent(const cn_array_s *x, const char *fn) {
  if (x->size == 0)
    return CN_OK;
  cn_array m = NULL;
  cn_scalar v;
  cn_status st =
      cn_min(&m, (cn_array)x, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
  if (st == CN_OK)
    st = cn_item(&v, m);
  cn_array_release(m);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  if (v.i < 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: Integers to negative integer powers are not allowed.",
                    fn);
  return CN_OK;
}

/* The program one instruction at a time over whole arrays: in[i] are the
 * inputs broadcast to target's shape; target has the result dtype. */
static cn_status cn_expr_run_unfused(const cn_expr_program *pr,
                                     const cn_array_s *const *in,
                                     cn_array_s *target, const char *fn) {
  const cn_backend *be = cn_backend_of(target);
  cn_array_s **val = cn_calloc((size_t)pr->nreg, sizeof *val);
  if (val == NULL)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  cn_status st = CN_OK;
  const int32_t nd = target->ndim;
  const int64_t *shape = target->shape;
  /* inputs and constants as views of the full shape */
  for (int32_t r = 0; r < pr->nreg && st == CN_OK; r++) {
    const cn_expr_reg *g = &pr->regs[r];
    if (g->last_use < 0)
      continue;
    if (g->kind == CN_XR_INPUT) {
      cn_array_retain((cn_array_s *)in[g->input]);
      val[r] = (cn_array_s *)in[g->input];
    } else if (g->kind == CN_XR_CONST) {
      cn_array_s *one = NULL;
      st = cn_array_new(&one, be, target->buf->device_id, g->dtype, 0, NULL,
                        CN_ORDER_C);
      if (st == CN_OK)
        st = be->compute->fill(one, g->value);
      if (st == CN_OK)
        st = cn_broadcast_view(&val[r], one, nd, shape, fn);
      cn_array_release(one);
    }
  }
  for (int32_t i = 0; i < pr->ninsn && st == CN_OK; i++) {
    const cn_expr_insn *ins = &pr->insns[i];
    cn_array_s *o = NULL;
    if (ins->out == pr->result && target->dtype == pr->regs[ins->out].dtype) {
      cn_array_retain(target);
      o = target;
    } else {
      st = cn_array_new(&o, be, target->buf->device_id,
                        pr->regs[ins->out].dtype, nd, shape, CN_ORDER_C);
    }
    const cn_array_s *args[3] = {NULL, NULL, NULL};
    for (int32_t j = 0; j < ins->nin; j++)
      args[j] = val[ins->in[j]];
    if (st == CN_OK) {
      switch (ins->kind) {
      case CN_XI_CAST:
        st = be->compute->assign(o, args[0]);
        break;
      case CN_XI_WHERE:
        st = be->compute->where(args[0], args[1], args[2], o);
        break;
      default:
        if (ins->check_exponent)
          st = cn_expr_check_exponent(args[1], fn);
        if (st == CN_OK)
          st = be->compute->elementwise(ins->op, ins->ct, ins->nin, args, o);
        break;
      }
    }
    val[ins->out] = o;
    for (int32_t j = 0; j < ins->nin; j++) {
      int32_t r = ins->in[j];
      if (pr->regs[r].last_use == i && r != pr->result) {
        cn_array_release(val[r]);
        val[r] = NULL;
      }
    }
  }
  if (st == CN_OK && val[pr->result] != target)
    st = be->compute->assign(target, val[pr->result]);
  for (int32_t r = 0; r < pr->nreg; r++)
    cn_array_release(val[r]);
  free(val);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}

static const char *cn_expr_red_name(int32_t kind) {
  switch (kind) {
  case CN_RED_SUM:
    return "sum";
  case CN_RED_PROD:
    return "prod";
  case CN_RED_MIN:
    return "minimum";
  case CN_RED_MAX:
    return "maximum";
  case CN_RED_ANY:
    return "any";
  default:
    return "all";
  }
}

/* Reduces t over the program's axes with the public reductions. */
static cn_status cn_expr_reduce_array(cn_array *out, const struct cn_expr_s *e,
                                      cn_array_s *t, cn_array dst) {
  int32_t axes[CN_MAX_DIMS], naxes = 0;
  for (int32_t d = 0; d < t->ndim; d++)
    if (e->red_mask >> d & 1)
      axes[naxes++] = d;
  int32_t keep = e->ast.keepdims;
  switch (e->prog.red_kind) {
  case CN_RED_SUM:
    return cn_sum(out, t, naxes, axes, keep, CN_DTYPE_DEFAULT, dst);
  case CN_RED_PROD:
    return cn_prod(out, t, naxes, axes, keep, CN_DTYPE_DEFAULT, dst);
  case CN_RED_MIN:
    return cn_min(out, t, naxes, axes, keep, CN_DTYPE_DEFAULT, dst);
  case CN_RED_MAX:
    return cn_max(out, t, naxes, axes, keep, CN_DTYPE_DEFAULT, dst);
  case CN_RED_ANY:
    return cn_any(out, t, naxes, axes, keep, CN_DTYPE_DEFAULT, dst);
  default:
    return cn_all(out, t, naxes, axes, keep, CN_DTYPE_DEFAULT, dst);
  }
}

static void cn_expr_fmt_shape(char *buf, size_t cap, int32_t nd,
                              const int64_t *shape) {
  size_t k = 0;
  buf[k++] = '(';
  for (int32_t i = 0; i < nd && k + 24 < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, i ? ",%lld" : "%lld",
                          (long long)shape[i]);
  snprintf(buf + k, cap - k, nd == 1 ? ",)" : ")");
}

cn_status cn_expr_evaluate(cn_array *out, cn_expr e, int32_t nin,
                           const cn_array *inputs, cn_array dst,
                           cn_casting casting) {
  const char *fn = "cn_expr_evaluate";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_EXPR(e, fn);
  if (!e->compiled)
    return cn_error(CN_ERR_VALUE, "%s: the expression is parsed but not "
                                  "compiled (cn_expr_compile)",
                    fn);
  if (nin != e->nin)
    return cn_error(CN_ERR_VALUE, "%s: the expression was compiled for %d "
                                  "inputs, got %d",
                    fn, (int)e->nin, (int)nin);
  if (nin > 0 && inputs == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'inputs' is NULL", fn);
  if (casting < CN_CAST_NO || casting > CN_CAST_UNSAFE)
    return cn_error(CN_ERR_VALUE, "%s: argument 'casting' is %d", fn,
                    (int)casting);
  for (int32_t i = 0; i < nin; i++) {
    if (CN_UNLIKELY(inputs[i] == NULL || inputs[i]->magic != CN_ARRAY_MAGIC))
      return cn_error(CN_ERR_VALUE,
                      "%s: inputs[%d] is NULL or a released handle", fn,
                      (int)i);
    if (inputs[i]->dtype != e->in_dtype[i])
      return cn_error(CN_ERR_TYPE,
                      "%s: inputs[%d] has dtype %s but the expression was "
                      "compiled for %s",
                      fn, (int)i, cn_dtype_name(inputs[i]->dtype),
                      cn_dtype_name(e->in_dtype[i]));
    if (inputs[i]->ndim != e->in_ndim[i])
      return cn_error(CN_ERR_SHAPE,
                      "%s: inputs[%d] has %d dimensions but the expression "
                      "was compiled for %d",
                      fn, (int)i, (int)inputs[i]->ndim, (int)e->in_ndim[i]);
  }
  if (dst != NULL) {
    CN_CHECK_ARRAY(dst, fn, "dst");
  }
  const cn_backend *be = NULL;
  int32_t device = 0;
  if (nin > 0) {
    cn_status st = cn_same_device(nin, (const cn_array_s *const *)inputs, fn);
    if (st != CN_OK)
      return st;
    be = cn_backend_of(inputs[0]);
    device = inputs[0]->buf->device_id;
    if (dst != NULL && (cn_backend_of(dst) != be || dst->buf->device_id !=
                                                        device))
      return cn_error(CN_ERR_DEVICE,
                      "%s: argument 'dst' is on %s:%d but the inputs are on "
                      "%s:%d",
                      fn, cn_backend_of(dst)->name, (int)dst->buf->device_id,
                      be->name, (int)device);
  } else if (dst != NULL) {
    be = cn_backend_of(dst);
    device = dst->buf->device_id;
  } else {
    be = cn_active_backend();
    device = be->device->current_device();
  }
  int32_t nd = 0;
  int64_t shape[CN_MAX_DIMS];
  cn_status st = CN_OK;
  if (nin > 0 &&
      (st = cn_broadcast_shape_arrays(&nd, shape, nin,
                                      (const cn_array_s *const *)inputs, fn)) !=
          CN_OK)
    return st;
  /* the final shape */
  const cn_expr_program *pr = &e->prog;
  const bool red = pr->red_kind >= 0;
  int32_t fnd = 0;
  int64_t fshape[CN_MAX_DIMS];
  int64_t total = 1;
  for (int32_t d = 0; d < nd; d++) {
    total *= shape[d];
    if (red && (e->red_mask >> d & 1)) {
      if (e->ast.keepdims)
        fshape[fnd++] = 1;
    } else {
      fshape[fnd++] = shape[d];
    }
  }
  if (dst != NULL) {
    if (dst->ndim != fnd ||
        memcmp(dst->shape, fshape, sizeof(int64_t) * (size_t)fnd) != 0) {
      char b1[200], b2[200];
      cn_expr_fmt_shape(b1, sizeof b1, dst->ndim, dst->shape);
      cn_expr_fmt_shape(b2, sizeof b2, fnd, fshape);
      return cn_error(CN_ERR_SHAPE,
                      "%s: argument 'dst' has shape %s but the result has "
                      "shape %s",
                      fn, b1, b2);
    }
    if (!cn_array_writeable(dst))
      return cn_error(CN_ERR_VALUE, "%s: argument 'dst' is read-only", fn);
    int32_t ok = 0;
    cn_can_cast(&ok, pr->out_dtype, dst->dtype, casting);
    if (!ok) {
      static const char *const rules[] = {"no", "equiv", "safe", "same_kind",
                                          "unsafe"};
      return cn_error(CN_ERR_TYPE,
                      "%s: cannot cast the result from %s to dst's dtype %s "
                      "with casting rule '%s'",
                      fn, cn_dtype_name(pr->out_dtype),
                      cn_dtype_name(dst->dtype), rules[casting]);
    }
  }
  if (red && (pr->red_kind == CN_RED_MIN || pr->red_kind == CN_RED_MAX)) {
    bool empty = false;
    for (int32_t d = 0; d < nd; d++)
      empty |= (e->red_mask >> d & 1) && shape[d] == 0;
    if (empty || (total == 0 && e->red_all))
      return cn_error(CN_ERR_VALUE,
                      "%s: zero-size array to reduction operation %s which "
                      "has no identity",
                      fn, cn_expr_red_name(pr->red_kind));
  }
  {
    CN_REQUIRE_SLOT(assign, be, assign, fn);
    CN_REQUIRE_SLOT(fill, be, fill, fn);
    CN_REQUIRE_SLOT(elementwise, be, elementwise, fn);
    CN_REQUIRE_SLOT(where, be, where, fn);
    if (red) {
      CN_REQUIRE_SLOT(reduce, be, reduce, fn);
    }
  }
  /* inputs broadcast to the full shape */
  cn_array_s **views = cn_calloc((size_t)nin + 1, sizeof *views);
  if (views == NULL)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  for (int32_t i = 0; i < nin && st == CN_OK; i++) {
    cn_array_s *a = inputs[i];
    if (a->ndim == nd &&
        memcmp(a->shape, shape, sizeof(int64_t) * (size_t)nd) == 0) {
      cn_array_retain(a);
      views[i] = a;
    } else {
      st = cn_broadcast_view(&views[i], a, nd, shape, fn);
    }
  }
  cn_expr_slot_fn fused = cn_expr_force_unfused() ? NULL : be->compute->expr;
  cn_array_s *target = NULL, *res = NULL;
  /* a backend without a fused kernel for this program (CN_ERR_UNSUPPORTED)
   * gets it one op at a time */
  bool fused_red = false;
  if (st == CN_OK && red && fused != NULL) {
    /* one pass: the backend reduces as it evaluates, into the result with
     * the reduced axes kept (extent 1) */
    int64_t kshape[CN_MAX_DIMS];
    for (int32_t d = 0; d < nd; d++)
      kshape[d] = (e->red_mask >> d & 1) ? 1 : shape[d];
    st = cn_array_new(&target, be, device, pr->out_dtype, nd, kshape,
                      CN_ORDER_C);
    if (st == CN_OK) {
      st = fused(pr, (const cn_array_s *const *)views, target);
      if (st == CN_ERR_UNSUPPORTED) {
        cn_array_release(target);
        target = NULL;
        st = CN_OK;
      } else if (st != CN_OK) {
        st = cn_error_prefix(st, fn);
      } else {
        fused_red = true;
      }
    }
    if (st == CN_OK && fused_red) {
      /* without keepdims the reduced axes are dropped */
      int64_t strides[CN_MAX_DIMS];
      int32_t k = 0;
      for (int32_t d = 0; d < nd; d++)
        if (e->ast.keepdims || !(e->red_mask >> d & 1))
          strides[k++] = target->strides[d];
      st = cn_array_view(&res, target, target->data, fnd, fshape, strides);
    }
    if (st == CN_OK && fused_red && dst != NULL) {
      if ((st = be->compute->assign(dst, res)) == CN_OK) {
        cn_array_release(res);
        cn_array_retain(dst);
        res = dst;
      } else {
        st = cn_error_prefix(st, fn);
      }
    }
  }
  if (st == CN_OK && !fused_red) {
    /* the elementwise result: into dst when it can take it directly */
    bool direct = !red && dst != NULL && dst->dtype == pr->result_dtype;
    for (int32_t i = 0; i < nin && direct; i++)
      direct = !cn_array_unsafe_overlap(dst, views[i]);
    if (direct) {
      cn_array_retain(dst);
      target = dst;
    } else {
      st = cn_array_new(&target, be, device, pr->result_dtype, nd, shape,
                        CN_ORDER_C);
      if (st != CN_OK)
        st = cn_error_prefix(st, fn);
    }
    /* the elementwise part alone: the reduction follows over axes */
    cn_expr_program ew = *pr;
    ew.red_kind = -1;
    ew.out_dtype = ew.result_dtype;
    if (st == CN_OK && target->size > 0) {
      if (fused != NULL)
        st = fused(&ew, (const cn_array_s *const *)views, target);
      if (fused != NULL && st != CN_ERR_UNSUPPORTED) {
        if (st != CN_OK)
          st = cn_error_prefix(st, fn);
      } else {
        st = cn_expr_run_unfused(pr, (const cn_array_s *const *)views, target,
                                 fn);
      }
    }
    if (st == CN_OK && red) {
      st = cn_expr_reduce_array(&res, e, target, dst);
      if (st != CN_OK)
        st = cn_error_prefix(st, fn);
    } else if (st == CN_OK && dst != NULL && target != dst) {
      if ((st = be->compute->assign(dst, target)) == CN_OK) {
        cn_array_retain(dst);
        res = dst;
      } else {
        st = cn_error_prefix(st, fn);
      }
    } else if (st == CN_OK) {
      cn_array_retain(target);
      res = target;
    }
  }
  for (int32_t i = 0; i < nin; i++)
    cn_array_release(views[i]);
  free(views);
  cn_array_release(target);
  if (st != CN_OK) {
    cn_array_release(res);
    return st;
  }
  *out = res;
  return CN_OK;
}

cn_status cn_evaluate(cn_array *out, const char *text, int32_t nin,
                      const char *const *names, const cn_array *inputs,
                      cn_array dst) {
  const char *fn = "cn_evaluate";
  CN_CHECK_OUT(out, fn);
  if (nin < 0 || nin > 4096)
    return cn_error(CN_ERR_VALUE, "%s: argument 'nin' is %d", fn, (int)nin);
  if (nin > 0 && (inputs == NULL || names == NULL))
    return cn_error(CN_ERR_VALUE, "%s: 'names' and 'inputs' must not be NULL",
                    fn);
  cn_dtype *dts = cn_malloc(sizeof(cn_dtype) * (size_t)(nin + 1));
  int32_t *nds = cn_malloc(sizeof(int32_t) * (size_t)(nin + 1));
  cn_status st = CN_OK;
  if (dts == NULL || nds == NULL)
    st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  for (int32_t i = 0; i < nin && st == CN_OK; i++) {
    char name[32];
    snprintf(name, sizeof name, "inputs[%d]", (int)i);
    if (inputs[i] == NULL || inputs[i]->magic != CN_ARRAY_MAGIC)
      st = cn_error(CN_ERR_VALUE, "%s: argument '%s' is NULL or released", fn,
                    name);
    else {
      dts[i] = inputs[i]->dtype;
      nds[i] = inputs[i]->ndim;
    }
  }
  cn_expr e = NULL;
  if (st == CN_OK)
    st = cn_expr_compile(&e, text, nin, names, dts, nds);
  if (st == CN_OK)
    st = cn_expr_evaluate(out, e, nin, inputs, dst, CN_CAST_SAME_KIND);
  cn_expr_release(e);
  free(dts);
  free(nds);
  return st;
}
