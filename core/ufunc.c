/* Public elementwise entry points (cn_<op> for every op of core/ops.def,
 * cn_where, cn_round, cn_ufunc) and the op table. The entry logic is
 * NumPy's ufunc machinery: validate, promote (NEP 50 weak scalars), pick a
 * loop dtype, broadcast, cast, allocate or check the destination, and hand
 * the resolved operands to the backend of the inputs' device. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "array_util.h"
#include "internal.h"

/* ---- the op table ------------------------------------------------------ */

static const cn_op_info cn_ops[CN_OP_COUNT_] = {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  {#name,         nin, CN_LOOPS_##loops,    CN_OUT_##out,                      \
   #expr,         doc, CN_OP_BOOLS_##bools, CN_INTS_##ints,                    \
   CN_WEAK_##weak},
#include "ops.def"
#undef CN_OP
};

/* "cn_<name>", for error messages. */
static const char *const cn_op_fn[CN_OP_COUNT_] = {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc) "cn_" #name,
#include "ops.def"
#undef CN_OP
};

const cn_op_info *cn_op_table(void) { return cn_ops; }

/* The column of a CN_LOOP_CLASS_* row for dt's kind. */
#define CN_LOOP_KIND_(b, i, u, f, c)                                           \
  (cn_is_bool(dt)           ? (b)                                              \
   : cn_is_signed_int(dt)   ? (i)                                              \
   : cn_is_unsigned_int(dt) ? (u)                                              \
   : cn_is_float(dt)        ? (f)                                              \
                            : (c))
#define CN_LOOP_CASE_(name)                                                    \
  case CN_LOOPS_##name:                                                        \
    return CN_LOOP_CLASS_##name(CN_LOOP_KIND_);

bool cn_loop_class_has(cn_loop_class lc, cn_dtype dt) {
  if (!cn_dtype_is_valid(dt))
    return false;
  switch (lc) { CN_LOOP_CLASSES(CN_LOOP_CASE_) }
  return false;
}
#undef CN_LOOP_CASE_
#undef CN_LOOP_KIND_

int32_t cn_op_count(void) { return CN_OP_COUNT_; }

const char *cn_op_name(int32_t i) {
  return i >= 0 && i < CN_OP_COUNT_ ? cn_ops[i].name : NULL;
}

static int32_t cn_op_find(const char *name) {
  if (name == NULL)
    return -1;
  for (int32_t i = 0; i < CN_OP_COUNT_; i++)
    if (strcmp(cn_ops[i].name, name) == 0)
      return i;
  return -1;
}

int32_t cn_op_nin(const char *name) {
  int32_t i = cn_op_find(name);
  return i < 0 ? -1 : cn_ops[i].nin;
}

/* ---- one call's resolution -------------------------------------------- */

typedef struct cn_uf_call {
  const char *fn;
  int32_t n; /* inputs */
  const char *const *argnames;
  const cn_array_s *in[3];
  cn_dtype want[3]; /* dtype each input is computed in */
  cn_dtype odt;     /* dtype the kernel writes */
  cn_dtype rdt;     /* result dtype (odt, or float16 computed in float32) */
  cn_array_s *dst;  /* NULL or the caller's destination */
  const cn_backend *be;
  int32_t nd;
  int64_t shape[CN_MAX_DIMS];
  cn_array_s *view[3]; /* cast + broadcast inputs (owned) */
  cn_array_s *target;  /* what the kernel writes (owned reference) */
  cn_array_s *own[3];  /* substitutes for in[i] (owned), or NULL */
  int32_t constant;    /* 0/1: the result is this bool everywhere; else -1 */
} cn_uf_call;

static const char *const cn_args1[] = {"x"};
static const char *const cn_args2[] = {"x1", "x2"};
static const char *const cn_args3[] = {"x", "lo", "hi"};
static const char *const cn_args_where[] = {"cond", "x", "y"};

static void cn_uf_release(cn_uf_call *c) {
  for (int32_t i = 0; i < c->n; i++) {
    cn_array_release(c->view[i]);
    c->view[i] = NULL;
    cn_array_release(c->own[i]);
    c->own[i] = NULL;
  }
  cn_array_release(c->target);
  c->target = NULL;
}

/* Handles and devices; dst may be NULL. */
static cn_status cn_uf_check_args(cn_uf_call *c, const cn_array *x,
                                  cn_array dst) {
  for (int32_t i = 0; i < c->n; i++) {
    CN_CHECK_ARRAY(x[i], c->fn, c->argnames[i]);
    c->in[i] = x[i];
  }
  if (dst != NULL)
    CN_CHECK_ARRAY(dst, c->fn, "dst");
  c->dst = dst;
  const cn_array_s *a0 = c->in[0];
  c->be = cn_backend_of(a0);
  for (int32_t i = 0; i <= c->n; i++) {
    const cn_array_s *a = i < c->n ? c->in[i] : dst;
    if (a == NULL)
      continue;
    if (cn_backend_of(a) != c->be || a->buf->device_id != a0->buf->device_id)
      return cn_error(CN_ERR_DEVICE,
                      "%s: argument '%s' is on %s:%d but argument '%s' is on "
                      "%s:%d",
                      c->fn, i < c->n ? c->argnames[i] : "dst",
                      cn_backend_of(a)->name, (int)a->buf->device_id,
                      c->argnames[0], c->be->name, (int)a0->buf->device_id);
  }
  return CN_OK;
}

/* Promotes the given inputs together: the strong dtypes as a sequence
 * (cn_result_type_seq), then each weak scalar against the result (NEP 50);
 * all-weak inputs promote as dtypes.
 * lenient: a weak integer out of range of an integer result keeps that
 * result (cn_uf_weak_ints decides against the loop dtype), else it is the
 * CN_ERR_OVERFLOW of cn_result_type_scalar. */
static cn_status cn_uf_promote(cn_dtype *out, const cn_uf_call *c,
                               int32_t first, int32_t count, bool lenient) {
  cn_dtype p = CN_DTYPE_DEFAULT;
  cn_dtype strong[sizeof c->in / sizeof c->in[0]];
  int32_t nstrong = 0;
  cn_status st;
  for (int32_t i = first; i < first + count; i++)
    if (!(c->in[i]->flags & CN_FLAG_WEAK_SCALAR))
      strong[nstrong++] = c->in[i]->dtype;
  bool have = nstrong > 0;
  if (have)
    p = cn_result_type_seq(strong, nstrong);
  for (int32_t i = first; i < first + count; i++) {
    const cn_array_s *a = c->in[i];
    if (!(a->flags & CN_FLAG_WEAK_SCALAR))
      continue;
    if (!have) {
      p = a->dtype;
      have = true;
      continue;
    }
    if (lenient && cn_is_integer(p) &&
        (a->weak.kind == CN_SCALAR_INT || a->weak.kind == CN_SCALAR_UINT))
      continue; /* NEP 50: the integer dtype stays */
    if ((st = cn_result_type_scalar(&p, p, a->weak)) != CN_OK)
      return cn_error_prefix(st, c->fn);
  }
  *out = p;
  return CN_OK;
}

/* Loop dtype of op for promoted dtype p: p itself when the op has a loop
 * for it, else the first loop dtype (promotion order) p casts to safely. */
static cn_status cn_uf_loop_dtype(cn_dtype *out, int32_t op, cn_dtype p,
                                  const char *fn) {
  const cn_op_info *info = &cn_ops[op];
  if (info->ints == CN_INTS_FLOAT64 && (cn_is_integer(p) || cn_is_bool(p)))
    p = CN_FLOAT64;
  /* NumPy refuses bool for some ops instead of computing it in int8 */
  if (info->bool_refusal != NULL && cn_is_bool(p))
    return cn_error(CN_ERR_TYPE, "%s: %s", fn, info->bool_refusal);
  if (cn_op_loop_dtype(op, p, out))
    return CN_OK;
  return cn_error(CN_ERR_TYPE, "%s: no loop for dtype %s", fn,
                  cn_dtype_name(p));
}

/* SciPy's special functions have no float16 loops: float16, and the
 * small integers that promote to it, compute and return float32 there. */
static bool cn_op_skips_float16(int32_t op) {
  return strncmp(cn_ops[op].name, "special_", 8) == 0;
}

bool cn_op_loop_dtype(int32_t op, cn_dtype p, cn_dtype *out) {
  const cn_loop_class loops = cn_ops[op].loops;
  const bool skip16 = cn_op_skips_float16(op);
  if (cn_loop_class_has(loops, p) && !(skip16 && p == CN_FLOAT16)) {
    *out = p;
    return true;
  }
  for (int32_t i = 0; i < CN_NUM_DTYPES; i++) {
    cn_dtype d = cn_dtype_from_index(i);
    if (skip16 && d == CN_FLOAT16)
      continue;
    if (cn_loop_class_has(loops, d) && cn_can_cast_safe(p, d)) {
      *out = d;
      return true;
    }
  }
  return false;
}

bool cn_op_float16_loop(int32_t op) {
  return op == CN_OPID_nextafter || op == CN_OPID_spacing;
}

cn_dtype cn_op_out_dtype(int32_t op, cn_dtype ct) {
  switch (cn_ops[op].out) {
  case CN_OUT_BOOL:
    return CN_BOOL;
  case CN_OUT_REAL:
    return cn_real_dtype(ct);
  default:
    return ct;
  }
}

static void cn_uf_fmt_shape(char *buf, size_t cap, int32_t nd,
                            const int64_t *shape) {
  /* Python's tuple spelling: (), (3,), (2,3) */
  size_t k = 0;
  buf[k++] = '(';
  for (int32_t i = 0; i < nd && k + 24 < cap; i++)
    k += (size_t)snprintf(buf + k, cap - k, i ? ",%lld" : "%lld",
                          (long long)shape[i]);
  snprintf(buf + k, cap - k, nd == 1 ? ",)" : ")");
}


/* Shapes, dst checks, casts, broadcasting and the output allocation. */
static cn_status cn_uf_prepare(cn_uf_call *c) {
  cn_status st =
      cn_broadcast_shape_arrays(&c->nd, c->shape, c->n, c->in, c->fn);
  if (st != CN_OK)
    return st;
  cn_array_s *dst = c->dst;
  if (dst != NULL) {
    int32_t nd2;
    int64_t shape2[CN_MAX_DIMS];
    const cn_array_s *all[4] = {c->in[0], c->in[1], c->in[2], NULL};
    all[c->n] = dst;
    st = cn_broadcast_shape_arrays(&nd2, shape2, c->n + 1, all, c->fn);
    if (st == CN_OK &&
        (nd2 != dst->ndim ||
         memcmp(shape2, dst->shape, sizeof(int64_t) * (size_t)nd2) != 0))
      st = CN_ERR_SHAPE;
    if (st != CN_OK) {
      char b1[200], b2[200];
      cn_uf_fmt_shape(b1, sizeof b1, dst->ndim, dst->shape);
      cn_uf_fmt_shape(b2, sizeof b2, c->nd, c->shape);
      return cn_error(CN_ERR_SHAPE,
                      "%s: argument 'dst' has shape %s but the inputs "
                      "broadcast to shape %s",
                      c->fn, b1, b2);
    }
    c->nd = dst->ndim;
    memcpy(c->shape, dst->shape, sizeof(int64_t) * (size_t)c->nd);
    if (!cn_array_writeable(dst))
      return cn_error(CN_ERR_VALUE, "%s: argument 'dst' is read-only", c->fn);
    int32_t ok = 0;
    cn_can_cast(&ok, c->rdt, dst->dtype, CN_CAST_SAME_KIND);
    if (!ok)
      return cn_error(CN_ERR_TYPE,
                      "%s: cannot cast the result from %s to dst's dtype %s "
                      "with casting rule 'same_kind'",
                      c->fn, cn_dtype_name(c->rdt), cn_dtype_name(dst->dtype));
  }
  /* Inputs: cast in their own shape (cheaper than after broadcasting). */
  for (int32_t i = 0; i < c->n; i++) {
    const cn_array_s *src = c->in[i];
    cn_array_s *cast = NULL;
    if (src->dtype != c->want[i]) {
      st = cn_array_new_like(&cast, src, c->want[i]);
      if (st == CN_OK && (st = c->be->compute->assign(cast, src)) != CN_OK) {
        cn_array_release(cast);
        cast = NULL;
      }
      if (st != CN_OK)
        return cn_error_prefix(st, c->fn);
      src = cast;
    }
    if (src->ndim == c->nd &&
        memcmp(src->shape, c->shape, sizeof(int64_t) * (size_t)c->nd) == 0) {
      /* already full shape: no view handle needed (saves small calls) */
      if (cast == NULL)
        cn_array_retain((cn_array_s *)src);
      c->view[i] = (cn_array_s *)src;
      continue;
    }
    st = cn_broadcast_view(&c->view[i], src, c->nd, c->shape, c->fn);
    cn_array_release(cast);
    if (st != CN_OK)
      return st;
  }
  /* Output: dst itself when its dtype fits and no input overlaps it in a
   * way the loop could clobber, else a fresh array. */
  if (dst != NULL && dst->dtype == c->odt) {
    bool safe = true;
    for (int32_t i = 0; i < c->n && safe; i++)
      safe = !cn_array_unsafe_overlap(dst, c->view[i]);
    if (safe) {
      cn_array_retain(dst);
      c->target = dst;
      return CN_OK;
    }
  }
  const cn_array_s *proto = dst;
  for (int32_t i = 0; i < c->n && proto == NULL; i++) {
    const cn_array_s *a = c->in[i];
    if (a->ndim == c->nd && a->size > 0 &&
        memcmp(a->shape, c->shape, sizeof(int64_t) * (size_t)c->nd) == 0)
      proto = a;
  }
  if (proto != NULL)
    st = cn_array_new_like(&c->target, proto, c->odt);
  else
    st = cn_array_new(&c->target, c->be, c->in[0]->buf->device_id, c->odt,
                      c->nd, c->shape, CN_ORDER_C);
  if (st != CN_OK)
    return cn_error_prefix(st, c->fn);
  return CN_OK;
}

/* Moves the result to dst when it went through a temporary, or rounds a
 * float32 result to the float16 the caller gets; sets *out. */
static cn_status cn_uf_finish(cn_uf_call *c, cn_array *out) {
  if (c->dst == NULL && c->rdt != c->odt) {
    cn_array_s *r = NULL;
    cn_status st = cn_array_new_like(&r, c->target, c->rdt);
    if (st == CN_OK && (st = c->be->compute->assign(r, c->target)) != CN_OK) {
      cn_array_release(r);
      r = NULL;
    }
    if (st != CN_OK)
      return cn_error_prefix(st, c->fn);
    cn_array_release(c->target);
    c->target = r;
  }
  if (c->dst != NULL && c->target != c->dst) {
    cn_status st = c->be->compute->assign(c->dst, c->target);
    if (st != CN_OK)
      return cn_error_prefix(st, c->fn);
    cn_array_release(c->target);
    cn_array_retain(c->dst);
    c->target = c->dst;
  }
  *out = c->target;
  c->target = NULL;
  return CN_OK;
}

/* Replaces input i by a 0-d array of dtype ct holding v (owned by c). */
static cn_status cn_uf_substitute(cn_uf_call *c, int32_t i, cn_dtype ct,
                                  cn_scalar v) {
  char bytes[16];
  cn_scalar_to_bytes(bytes, ct, v);
  cn_status st = cn_array_new(&c->own[i], c->be, c->in[i]->buf->device_id, ct,
                              0, NULL, CN_ORDER_C);
  if (st == CN_OK && (st = c->be->compute->fill(c->own[i], bytes)) != CN_OK) {
    cn_array_release(c->own[i]);
    c->own[i] = NULL;
  }
  if (st != CN_OK)
    return cn_error_prefix(st, c->fn);
  c->in[i] = c->own[i];
  return CN_OK;
}

/* Weak integers out of range of an integer loop dtype ct, as NumPy 2: a
 * comparison has the same answer for every element (c->constant), a
 * logical op sees a nonzero value (1; NumPy takes the value as an int64
 * there, so one above INT64_MAX is an error even for uint64), clip ignores
 * a bound beyond the dtype on its own side (it becomes the dtype's limit);
 * anything else is cn_result_type_scalar's "out of bounds" error. */
__attribute__((noinline, cold)) static cn_status
cn_uf_weak_ints(cn_uf_call *c, int32_t op, cn_dtype ct) {
  const cn_weak_rule rule = cn_ops[op].weak;
  for (int32_t i = 0; i < c->n; i++) {
    const cn_array_s *a = c->in[i];
    cn_scalar s = a->weak;
    if (!(a->flags & CN_FLAG_WEAK_SCALAR) ||
        (s.kind != CN_SCALAR_INT && s.kind != CN_SCALAR_UINT))
      continue;
    cn_dtype unused;
    if (rule == CN_WEAK_TRUTH && s.kind == CN_SCALAR_UINT &&
        (uint64_t)s.i > INT64_MAX)
      /* NumPy reads it as a C long here, whatever the array dtype */
      return cn_error_prefix(cn_result_type_scalar(&unused, CN_INT64, s),
                             c->fn);
    if (cn_scalar_int_fits(ct, s))
      continue;
    /* every in-range value is below s (s above the dtype) or above it */
    bool above = s.kind == CN_SCALAR_UINT || s.i >= 0;
    cn_status st = CN_OK;
    switch (rule) {
    case CN_WEAK_EQ:
    case CN_WEAK_NE:
      c->constant = rule == CN_WEAK_NE;
      break;
    case CN_WEAK_LESS:
    case CN_WEAK_GREATER: {
      bool lt = i == 1 ? above : !above; /* x1 < x2 everywhere */
      c->constant = rule == CN_WEAK_LESS ? lt : !lt;
      break;
    }
    case CN_WEAK_TRUTH:
      st = cn_uf_substitute(c, i, ct, cn_scalar_int(1));
      break;
    case CN_WEAK_CLAMP:
      if (i > 0 && above == (i == 2)) {
        int bits = (int)cn_itemsize(ct) * 8;
        cn_scalar lim;
        if (cn_is_unsigned_int(ct))
          lim = above ? cn_scalar_uint(UINT64_MAX >> (64 - bits))
                      : cn_scalar_int(0);
        else
          lim = above ? cn_scalar_int(INT64_MAX >> (64 - bits))
                      : cn_scalar_int(-(INT64_MAX >> (64 - bits)) - 1);
        st = cn_uf_substitute(c, i, ct, lim);
        break;
      }
      /* fall through */
    case CN_WEAK_ERROR:
    default:
      return cn_error_prefix(cn_result_type_scalar(&unused, ct, s), c->fn);
    }
    if (st != CN_OK)
      return st;
  }
  return CN_OK;
}

/* NumPy's integer power refuses negative exponents (before anything is
 * written): checks x2, unbroadcast, when the result is not empty. */
__attribute__((noinline, cold)) static cn_status
cn_uf_check_exponent(const cn_uf_call *c) {
  const cn_array_s *e = c->in[1];
  bool neg = false;
  if (e->flags & CN_FLAG_WEAK_SCALAR) {
    neg = e->weak.kind == CN_SCALAR_INT && e->weak.i < 0;
  } else if (cn_is_signed_int(e->dtype) && e->size > 0) {
    cn_array m = NULL;
    cn_scalar v;
    cn_status st =
        cn_min(&m, (cn_array)e, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL);
    if (st == CN_OK)
      st = cn_item(&v, m);
    cn_array_release(m);
    if (st != CN_OK)
      return cn_error_prefix(st, c->fn);
    neg = v.i < 0;
  }
  if (neg)
    return cn_error(CN_ERR_VALUE,
                    "%s: Integers to negative integer powers are not allowed.",
                    c->fn);
  return CN_OK;
}

/* The shortcut op for exponent value v in compute dtype ct (see
 * cn_uf_power_shortcut). */
static int32_t cn_uf_power_op(cn_scalar v, cn_dtype ct) {
  double b = v.kind == CN_SCALAR_FLOAT  ? v.re
             : v.kind == CN_SCALAR_UINT ? (double)(uint64_t)v.i
                                        : (double)v.i;
  if (b == 0)
    return CN_OP_COUNT_;
  if (b == 1)
    return CN_OPID_positive;
  if (b == 2)
    return CN_OPID_square;
  if (cn_is_float(ct) && b == 0.5)
    return CN_OPID_sqrt;
  if (cn_is_float(ct) && b == -1)
    return CN_OPID_reciprocal;
  return -1;
}

/* NumPy's float and integer power loops special-case an exponent that is
 * one value for the whole loop (stride 0: a scalar, a 0-d array or a
 * broadcast one): float 2, 0.5, -1, 1, 0 and integer 2, 1, 0 run as
 * square, sqrt, reciprocal, positive and ones. sqrt differs from pow on
 * -0.0 and -inf, so the choice follows NumPy's (stride 0 only). Returns
 * in *fast the unary op to run, CN_OP_COUNT_ for "fill with 1", or -1
 * for none; fails only when reading the exponent fails. */
static cn_status cn_uf_power_shortcut(int32_t *fast, const cn_uf_call *c,
                                      cn_dtype ct) {
  *fast = -1;
  if (!cn_is_float(ct) && !cn_is_integer(ct))
    return CN_OK;
  const cn_array_s *e = c->view[1];
  for (int32_t d = 0; d < e->ndim; d++)
    if (e->strides[d] != 0)
      return CN_OK;
  cn_array_s *one = NULL; /* the value, as a 0-d view */
  cn_scalar v;
  cn_status st = cn_array_view(&one, e, e->data, 0, NULL, NULL);
  if (st == CN_OK)
    st = cn_item(&v, one);
  cn_array_release(one);
  if (st != CN_OK)
    return cn_error_prefix(st, c->fn);
  *fast = cn_uf_power_op(v, ct);
  return CN_OK;
}

/* Runs x1 ** x2 as the shortcut's op (see cn_uf_power_shortcut). */
static cn_status cn_uf_power_fast(cn_uf_call *c, int32_t fast) {
  if (fast == CN_OP_COUNT_) {
    unsigned char one[16];
    cn_scalar v = {.kind = CN_SCALAR_INT, .i = 1};
    cn_scalar_to_bytes(one, c->target->dtype, v);
    return c->be->compute->fill(c->target, one);
  }
  return c->be->compute->elementwise(fast, c->view[0]->dtype, 1,
                                     (const cn_array_s *const *)c->view,
                                     c->target);
}

static cn_status cn_uf_apply(cn_array *out, int32_t op, const cn_array *x,
                             cn_array dst, const char *fn) {
  cn_uf_call c = {0};
  c.fn = fn;
  c.n = cn_ops[op].nin;
  c.argnames = c.n == 1 ? cn_args1 : c.n == 2 ? cn_args2 : cn_args3;
  CN_CHECK_OUT(out, fn);
  cn_status st = cn_uf_check_args(&c, x, dst);
  if (st != CN_OK)
    return st;
  cn_dtype p = CN_DTYPE_DEFAULT, ct = CN_DTYPE_DEFAULT;
  if ((st = cn_uf_promote(&p, &c, 0, c.n, true)) != CN_OK ||
      (st = cn_uf_loop_dtype(&ct, op, p, fn)) != CN_OK)
    return st;
  /* NumPy's float16 loops compute each element in float32 and round the
   * result, and so does this: the CPU backend a block at a time in its
   * float16 loops, other backends on float32 operands (the inputs cast to
   * float32, the result cast back by cn_uf_finish) */
  c.rdt = cn_op_out_dtype(op, ct);
  if (ct == CN_FLOAT16 && !cn_op_float16_loop(op) &&
      c.be->device_type != CN_DEVICE_CPU)
    ct = CN_FLOAT32;
  for (int32_t i = 0; i < c.n; i++)
    c.want[i] = ct;
  c.odt = cn_op_out_dtype(op, ct);
  {
    CN_REQUIRE_SLOT(elementwise, c.be, elementwise, fn);
    CN_REQUIRE_SLOT(assign, c.be, assign, fn);
    CN_REQUIRE_SLOT(fill, c.be, fill, fn);
  }
  /* weak integers only need a look when the loop is integer (float and
   * complex loops convert any value) */
  c.constant = -1;
  bool weak = false;
  for (int32_t i = 0; i < c.n; i++)
    weak |= (c.in[i]->flags & CN_FLAG_WEAK_SCALAR) != 0;
  if (CN_UNLIKELY(weak && cn_is_integer(ct)))
    st = cn_uf_weak_ints(&c, op, ct);
  if (st == CN_OK)
    st = cn_uf_prepare(&c);
  if (CN_UNLIKELY(st == CN_OK && cn_ops[op].ints == CN_INTS_NONNEG_EXP &&
                  cn_is_signed_int(ct) && c.target->size > 0))
    st = cn_uf_check_exponent(&c);
  if (CN_UNLIKELY(st == CN_OK && c.constant >= 0)) {
    bool v = c.constant == 1;
    if ((st = c.be->compute->fill(c.target, &v)) != CN_OK)
      st = cn_error_prefix(st, fn);
  } else if (st == CN_OK) {
    int32_t fast = -1;
    if (op == CN_OPID_power && c.target->size > 0)
      st = cn_uf_power_shortcut(&fast, &c, ct);
    if (st == CN_OK && fast >= 0)
      st = cn_uf_power_fast(&c, fast);
    else if (st == CN_OK)
      st = c.be->compute->elementwise(op, ct, c.n,
                                      (const cn_array_s *const *)c.view,
                                      c.target);
    if (st != CN_OK)
      st = cn_error_prefix(st, fn);
  }
  if (st == CN_OK)
    st = cn_uf_finish(&c, out);
  cn_uf_release(&c);
  return st;
}

/* One definition per op of ops.def. */
#define CN_UF_DEF_1(name)                                                      \
  cn_status cn_##name(cn_array *out, cn_array x, cn_array dst) {               \
    const cn_array in[1] = {x};                                                \
    return cn_uf_apply(out, CN_OPID_##name, in, dst, "cn_" #name);             \
  }
#define CN_UF_DEF_2(name)                                                      \
  cn_status cn_##name(cn_array *out, cn_array x1, cn_array x2, cn_array dst) { \
    const cn_array in[2] = {x1, x2};                                           \
    return cn_uf_apply(out, CN_OPID_##name, in, dst, "cn_" #name);             \
  }
#define CN_UF_DEF_3(name)                                                      \
  cn_status cn_##name(cn_array *out, cn_array x, cn_array lo, cn_array hi,     \
                      cn_array dst) {                                          \
    const cn_array in[3] = {x, lo, hi};                                        \
    return cn_uf_apply(out, CN_OPID_##name, in, dst, "cn_" #name);             \
  }
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  CN_UF_DEF_##nin(name)
#include "ops.def"
#undef CN_OP

cn_status cn_ufunc(cn_array *out, const char *name, int32_t nin,
                   const cn_array *inputs, cn_array dst) {
  CN_CHECK_OUT(out, "cn_ufunc");
  if (name == NULL)
    return cn_error(CN_ERR_VALUE, "cn_ufunc: argument 'name' is NULL");
  int32_t op = cn_op_find(name);
  if (op < 0)
    return cn_error(CN_ERR_VALUE, "cn_ufunc: unknown op '%.64s'", name);
  if (nin != cn_ops[op].nin)
    return cn_error(CN_ERR_VALUE, "cn_ufunc: op '%s' takes %d inputs, got %d",
                    name, (int)cn_ops[op].nin, (int)nin);
  if (inputs == NULL)
    return cn_error(CN_ERR_VALUE, "cn_ufunc: argument 'inputs' is NULL");
  return cn_uf_apply(out, op, inputs, dst, cn_op_fn[op]);
}

/* ---- ufunc.at --------------------------------------------------------- */

cn_status cn_ufunc_at(cn_array a, const char *name, cn_array pos,
                      cn_array b) {
  const char *fn = "cn_ufunc_at";
  if (name == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name' is NULL", fn);
  int32_t op = cn_op_find(name);
  if (op < 0)
    return cn_error(CN_ERR_VALUE, "%s: unknown op '%.64s'", fn, name);
  const int32_t nin = cn_ops[op].nin;
  if (nin > 2)
    return cn_error(CN_ERR_VALUE, "%s: op '%s' takes %d inputs; ufunc.at "
                    "takes unary and binary ops", fn, name, (int)nin);
  if ((b == NULL) != (nin == 1))
    return cn_error(CN_ERR_VALUE,
                    b == NULL ? "%s: op '%s' needs the second operand b"
                              : "%s: op '%s' is unary but b was given",
                    fn, name);
  CN_CHECK_ARRAY(pos, fn, "pos");
  cn_uf_call c = {0};
  c.fn = fn;
  c.n = nin;
  c.argnames = cn_args2;
  const cn_array in[2] = {a, b};
  cn_status st = cn_uf_check_args(&c, in, pos);
  if (st != CN_OK)
    return st;
  if (!cn_array_writeable(a))
    return cn_error(CN_ERR_VALUE, "%s: argument 'x1' is read-only", fn);
  /* NumPy converts the values with asarray: a Python scalar counts as its
   * default dtype here, not as a weak one (np.add.at(uint8, i, -1) wraps) */
  const cn_dtype both[2] = {a->dtype, b != NULL ? b->dtype : a->dtype};
  cn_dtype p = cn_result_type_seq(both, nin), ct = CN_DTYPE_DEFAULT;
  if ((st = cn_uf_loop_dtype(&ct, op, p, fn)) != CN_OK)
    return st;
  if (ct == CN_FLOAT16 && !cn_op_float16_loop(op))
    ct = CN_FLOAT32;
  if (!cn_is_integer(pos->dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: positions must have an integer dtype, got %s", fn,
                    cn_dtype_name(pos->dtype));
  CN_REQUIRE_SLOT(at, c.be, ufunc_at, fn);
  CN_REQUIRE_SLOT(assign, c.be, assign, fn);
  cn_array_s *ix = NULL, *bv = NULL, *bc = NULL;
  st = cn_idx_normalize_on(&ix, pos, a->size, CN_INDEX_RAISE, 0, fn);
  if (st == CN_OK && b != NULL) {
    st = cn_broadcast_view(&bv, b, pos->ndim, pos->shape, fn);
    if (st == CN_OK)
      st = cn_array_new(&bc, c.be, a->buf->device_id, ct, pos->ndim,
                        pos->shape, CN_ORDER_C);
    if (st == CN_OK && (st = assign(bc, bv)) != CN_OK)
      st = cn_error_prefix(st, fn);
  }
  if (st == CN_OK && ix->size > 0 && (st = at(op, ct, a, ix, bc)) != CN_OK)
    st = cn_error_prefix(st, fn);
  cn_array_release(bc);
  cn_array_release(bv);
  cn_array_release(ix);
  return st;
}

cn_status cn_ufunc_accumulate(cn_array *out, const char *name, cn_array a,
                              int32_t axis) {
  const char *fn = "cn_ufunc_accumulate";
  CN_CHECK_OUT(out, fn);
  if (name == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'name' is NULL", fn);
  CN_CHECK_ARRAY(a, fn, "a");
  int32_t op = cn_op_find(name);
  if (op < 0)
    return cn_error(CN_ERR_VALUE, "%s: unknown op '%.64s'", fn, name);
  if (cn_ops[op].nin != 2)
    return cn_error(CN_ERR_VALUE, "%s: op '%s' is not binary", fn, name);
  if (a->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: cannot accumulate on a 0-d array",
                    fn);
  if (axis < -a->ndim || axis >= a->ndim)
    return cn_error(CN_ERR_AXIS,
                    "%s: axis %d is out of bounds for array of dimension %d",
                    fn, (int)axis, (int)a->ndim);
  if (axis < 0)
    axis += a->ndim;
  cn_dtype ct = CN_DTYPE_DEFAULT;
  if (!cn_op_loop_dtype(op, a->dtype, &ct) || ct != a->dtype ||
      cn_op_out_dtype(op, ct) != a->dtype ||
      (ct == CN_FLOAT16 && !cn_op_float16_loop(op)))
    return cn_error(CN_ERR_TYPE,
                    "%s: op '%s' does not map %s to itself; cast the input "
                    "to the result dtype first",
                    fn, name, cn_dtype_name(a->dtype));
  const cn_backend *be = cn_backend_of(a);
  CN_REQUIRE_SLOT(assign, be, assign, fn);
  CN_REQUIRE_SLOT(elementwise, be, elementwise, fn);
  cn_array_s *r = NULL;
  cn_status st = cn_array_new(&r, be, a->buf->device_id, a->dtype, a->ndim,
                              a->shape, CN_ORDER_C);
  if (st == CN_OK && (st = assign(r, a)) != CN_OK)
    st = cn_error_prefix(st, fn);
  const int64_t n = a->shape[axis];
  if (st == CN_OK && r->size > 0 && n > 1) {
    if (be->compute->accumulate != NULL) {
      if ((st = be->compute->accumulate(op, ct, r, axis)) != CN_OK)
        st = cn_error_prefix(st, fn);
    } else {
      /* one elementwise call per step over the slices across the axis */
      int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
      int32_t nd = 0;
      for (int32_t d = 0; d < r->ndim; d++)
        if (d != axis) {
          shape[nd] = r->shape[d];
          strides[nd++] = r->strides[d];
        }
      const int64_t step = r->strides[axis];
      for (int64_t i = 1; i < n && st == CN_OK; i++) {
        cn_array_s *prev = NULL, *cur = NULL;
        st = cn_array_view_at(&prev, r, (i - 1) * step, nd, shape, strides);
        if (st == CN_OK)
          st = cn_array_view_at(&cur, r, i * step, nd, shape, strides);
        const cn_array_s *in[2] = {prev, cur};
        if (st == CN_OK && (st = elementwise(op, ct, 2, in, cur)) != CN_OK)
          st = cn_error_prefix(st, fn);
        cn_array_release(prev);
        cn_array_release(cur);
      }
    }
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

/* ---- where ------------------------------------------------------------- */

cn_status cn_where(cn_array *out, cn_array cond, cn_array x, cn_array y,
                   cn_array dst) {
  const char *fn = "cn_where";
  cn_uf_call c = {0};
  c.fn = fn;
  c.n = 3;
  c.argnames = cn_args_where;
  CN_CHECK_OUT(out, fn);
  const cn_array in[3] = {cond, x, y};
  cn_status st = cn_uf_check_args(&c, in, dst);
  if (st != CN_OK)
    return st;
  cn_dtype p = CN_DTYPE_DEFAULT;
  if ((st = cn_uf_promote(&p, &c, 1, 2, false)) != CN_OK)
    return st;
  c.want[0] = CN_BOOL;
  c.want[1] = c.want[2] = c.odt = c.rdt = p;
  {
    CN_REQUIRE_SLOT(where, c.be, where, fn);
    CN_REQUIRE_SLOT(assign, c.be, assign, fn);
  }
  st = cn_uf_prepare(&c);
  if (st == CN_OK) {
    st = c.be->compute->where(c.view[0], c.view[1], c.view[2], c.target);
    if (st != CN_OK)
      st = cn_error_prefix(st, fn);
  }
  if (st == CN_OK)
    st = cn_uf_finish(&c, out);
  cn_uf_release(&c);
  return st;
}

/* ---- round ------------------------------------------------------------- */

/* Complex x rounds each part as a real array, as NumPy does: a complex
 * multiply by 10**d would mix the parts (inf * (1+0j) has a NaN imaginary
 * part, and -0.0 parts lose their sign). */
static cn_status round_complex_parts(cn_array *out, cn_array x,
                                     int32_t decimals, cn_array dst) {
  cn_array res = NULL;
  cn_status st = cn_copy(&res, x, CN_ORDER_K);
  for (int32_t k = 0; k < 2 && st == CN_OK; k++) {
    cn_array part = NULL, r = NULL;
    st = cn_complex_part_view(&part, res, k);
    if (st == CN_OK)
      st = cn_round(&r, part, decimals, part);
    cn_array_release(r);
    cn_array_release(part);
  }
  if (st == CN_OK && dst != NULL) {
    st = cn_assign(dst, res);
    if (st == CN_OK) {
      cn_array_release(res);
      cn_array_retain(dst);
      res = dst;
    }
  }
  if (st != CN_OK) {
    cn_array_release(res);
    return cn_error_prefix(st, "cn_round");
  }
  *out = res;
  return CN_OK;
}

/* NumPy's around: y = rint(x * 10**d) / 10**d (x / 10**-d and * for d < 0),
 * computed in x's dtype for floats and complex and in float64 for integers,
 * then cast back. */
cn_status cn_round(cn_array *out, cn_array x, int32_t decimals, cn_array dst) {
  const char *fn = "cn_round";
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(x, fn, "x");
  if (dst != NULL) {
    CN_CHECK_ARRAY(dst, fn, "dst");
    if (cn_backend_of(dst) != cn_backend_of(x) ||
        dst->buf->device_id != x->buf->device_id)
      return cn_error(CN_ERR_DEVICE,
                      "%s: argument 'dst' is on %s:%d but argument 'x' is on "
                      "%s:%d",
                      fn, cn_backend_of(dst)->name, (int)dst->buf->device_id,
                      cn_backend_of(x)->name, (int)x->buf->device_id);
    if (dst->ndim != x->ndim ||
        memcmp(dst->shape, x->shape, sizeof(int64_t) * (size_t)x->ndim) != 0) {
      char b1[200], b2[200];
      cn_uf_fmt_shape(b1, sizeof b1, dst->ndim, dst->shape);
      cn_uf_fmt_shape(b2, sizeof b2, x->ndim, x->shape);
      return cn_error(CN_ERR_SHAPE,
                      "%s: argument 'dst' has shape %s but 'x' has shape %s",
                      fn, b1, b2);
    }
    if (!cn_array_writeable(dst))
      return cn_error(CN_ERR_VALUE, "%s: argument 'dst' is read-only", fn);
    int32_t ok = 0;
    cn_can_cast(&ok, x->dtype, dst->dtype, CN_CAST_SAME_KIND);
    if (!ok)
      return cn_error(CN_ERR_TYPE,
                      "%s: cannot cast the result from %s to dst's dtype %s "
                      "with casting rule 'same_kind'",
                      fn, cn_dtype_name(x->dtype), cn_dtype_name(dst->dtype));
  }
  if (cn_is_bool(x->dtype))
    return cn_error(CN_ERR_TYPE, "%s: no loop for dtype bool", fn);
  if (cn_is_complex(x->dtype))
    return round_complex_parts(out, x, decimals, dst);
  bool is_int = cn_is_integer(x->dtype);
  cn_status st;
  if (is_int && decimals >= 0) {
    if (dst != NULL) {
      if ((st = cn_assign(dst, x)) != CN_OK)
        return cn_error_prefix(st, fn);
      cn_array_retain(dst);
      *out = dst;
      return CN_OK;
    }
    if ((st = cn_copy(out, x, CN_ORDER_K)) != CN_OK)
      return cn_error_prefix(st, fn);
    return CN_OK;
  }
  double f = pow(10.0, decimals >= 0 ? (double)decimals : -(double)decimals);
  cn_array fs = NULL, xin = NULL, t = NULL, t2 = NULL, res = NULL;
  if ((st = cn_scalar_array(&fs, cn_scalar_float(f))) != CN_OK)
    goto done;
  if (is_int) {
    if ((st = cn_astype(&xin, x, CN_FLOAT64, 1)) != CN_OK)
      goto done;
  } else {
    cn_array_retain(x);
    xin = x;
  }
  if ((st = decimals >= 0 ? cn_multiply(&t, xin, fs, NULL)
                          : cn_divide(&t, xin, fs, NULL)) != CN_OK)
    goto done;
  if ((st = cn_rint(&t2, t, t)) != CN_OK)
    goto done;
  cn_array_release(t2);
  t2 = NULL;
  if ((st = decimals >= 0 ? cn_divide(&t2, t, fs, t)
                          : cn_multiply(&t2, t, fs, t)) != CN_OK)
    goto done;
  if (is_int) {
    if ((st = cn_astype(&res, t, x->dtype, 0)) != CN_OK)
      goto done;
  } else {
    cn_array_retain(t);
    res = t;
  }
  if (dst != NULL) {
    if ((st = cn_assign(dst, res)) != CN_OK)
      goto done;
    cn_array_retain(dst);
    *out = dst;
  } else {
    *out = res;
    res = NULL;
  }
done:
  cn_array_release(fs);
  cn_array_release(xin);
  cn_array_release(t);
  cn_array_release(t2);
  cn_array_release(res);
  return st == CN_OK ? st : cn_error_prefix(st, fn);
}
