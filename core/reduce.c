/* Public reductions and scans (include/cunumpy/reduce.h): argument checks,
 * NumPy's accumulator and result dtypes, output shapes, dst handling. The
 * arithmetic is the backend's reduce/moments member.
 *
 * Contract with backends (cn_backend_compute reduce, moments): the input dtype is
 * either the output dtype, or for sums/products/scans of bool and integers
 * the wide accumulator int64/uint64, or float64 for sums (used by mean);
 * anything else is cast here first. moments gets float or complex input
 * (integers only for a mean alone). NaN kinds may get integer inputs, which
 * have no NaN. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every public reduction and scan of core/reduce.def, by its KIND. */
typedef enum red_op {
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc) OP_##KIND,
#include "reduce.def"
#undef CN_REDUCTION
  OP_COUNT_
} red_op;

/* What core/reduce.def says of each op. */
typedef struct red_info {
  int kind;                 /* its cn_reduce_kind, or -1 (moments) */
  int plain_kind;           /* the kind of NaN-free inputs, or -1 */
  bool moments;             /* computed by the moments member */
  bool ddof;                /* takes ddof (the MOMENT family) */
  bool skips_nan;           /* leaves NaNs out */
  const char *empty_error;  /* an empty reduction's error, or NULL */
  const char *allnan_error; /* an all-NaN slice's error, or NULL */
} red_info;

#define RED_KIND_KERNEL(KIND) CN_RED_##KIND
#define RED_KIND_MOMENTS(KIND) (-1)
#define RED_PLAIN_KERNEL(KIND, nans)                                           \
  CN_RED_PLAIN_KIND(CN_RED_##KIND, CN_RED_NANS_BASE_##nans)
#define RED_PLAIN_MOMENTS(KIND, nans) (-1)
#define RED_DDOF_REDUCE false
#define RED_DDOF_MOMENT true
#define RED_DDOF_ARG false
#define RED_DDOF_SCAN false
#define RED_EMPTY_ZERO NULL
#define RED_EMPTY_ONE NULL
#define RED_EMPTY_FALSE NULL
#define RED_EMPTY_TRUE NULL
#define RED_EMPTY_NAN NULL
#define RED_EMPTY_ERROR(text) text
static const red_info red_table[OP_COUNT_] = {
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  [OP_##KIND] = {.kind = RED_KIND_##backend(KIND),                             \
                 .plain_kind = RED_PLAIN_##backend(KIND, nans),                \
                 .moments = RED_KIND_##backend(KIND) < 0,                      \
                 .ddof = RED_DDOF_##family,                                    \
                 .skips_nan = CN_RED_NANS_SKIPS_##nans,                        \
                 .empty_error = RED_EMPTY_##empty,                             \
                 .allnan_error = CN_RED_NANS_ALLNAN_##nans},
#include "reduce.def"
#undef CN_REDUCTION
};

static bool is_inexact(cn_dtype dt) {
  return cn_is_float(dt) || cn_is_complex(dt);
}

/* NumPy's accumulator of sum/prod/cumsum/cumprod. */
static cn_dtype wide_dtype(cn_dtype dt) {
  if (dt == CN_BOOL || cn_is_signed_int(dt))
    return CN_INT64;
  if (cn_is_unsigned_int(dt))
    return CN_UINT64;
  return dt;
}

static void fmt_shape(char *buf, size_t cap, int32_t nd, const int64_t *s) {
  size_t n = (size_t)snprintf(buf, cap, "(");
  for (int i = 0; i < nd && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, i ? ",%lld" : "%lld",
                          (long long)s[i]);
  if (n < cap)
    snprintf(buf + n, cap - n, nd == 1 ? ",)" : ")");
}

/* Checks dst against the result (shape nd/shape, dtype rdt) and a's
 * device. */
static cn_status check_dst(const char *fn, const cn_array_s *dst,
                           const cn_array_s *a, cn_dtype rdt, int32_t nd,
                           const int64_t *shape) {
  bool same = dst->ndim == nd;
  for (int i = 0; same && i < nd; i++)
    same = dst->shape[i] == shape[i];
  if (!same) {
    char got[512], want[512];
    fmt_shape(got, sizeof got, dst->ndim, dst->shape);
    fmt_shape(want, sizeof want, nd, shape);
    return cn_error(CN_ERR_SHAPE,
                    "%s: argument 'dst' has shape %s, the result has shape %s",
                    fn, got, want);
  }
  if (!cn_array_writeable(dst))
    return cn_error(CN_ERR_VALUE, "%s: argument 'dst' is read-only", fn);
  if (dst->buf->backend != a->buf->backend ||
      dst->buf->device_id != a->buf->device_id)
    return cn_error(CN_ERR_DEVICE,
                    "%s: argument 'dst' is on %s:%d but 'a' is on %s:%d", fn,
                    dst->buf->backend->name, dst->buf->device_id,
                    a->buf->backend->name, a->buf->device_id);
  int32_t ok = 0;
  cn_status st = cn_can_cast(&ok, rdt, dst->dtype, CN_CAST_SAME_KIND);
  if (st != CN_OK)
    return st;
  if (!ok)
    return cn_error(CN_ERR_TYPE,
                    "%s: cannot write the %s result into argument 'dst' of "
                    "dtype %s (same_kind casting)",
                    fn, cn_dtype_name(rdt), cn_dtype_name(dst->dtype));
  return CN_OK;
}

static cn_status check_dtype_arg(const char *fn, cn_dtype dtype) {
  if (dtype != CN_DTYPE_DEFAULT && !cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'dtype' is not a dtype (0x%x)",
                    fn, (unsigned)dtype);
  return CN_OK;
}

/* Copy of a in dtype dt (layout of a). */
static cn_status cast_copy(cn_array_s **out, const cn_array_s *a, cn_dtype dt) {
  cn_array_s *c;
  cn_status st = cn_array_new_like(&c, a, dt);
  if (st != CN_OK)
    return st;
  st = a->buf->backend->compute->assign(c, a);
  if (st != CN_OK) {
    cn_array_release(c);
    return st;
  }
  *out = c;
  return CN_OK;
}

/* 1-d view of a (a copy when a is not C-contiguous). New reference. */
static cn_status flat_view(cn_array_s **out, const cn_array_s *a) {
  int64_t n = a->size, one = 1;
  /* always a new handle: callers release it when it is not a */
  if (a->ndim == 1)
    return cn_array_view(out, a, a->data, 1, a->shape, a->strides);
  if (cn_array_is_c_contig(a))
    return cn_array_view(out, a, a->data, 1, &n, &one);
  cn_array_s *c;
  cn_status st = cn_array_new(&c, a->buf->backend, a->buf->device_id, a->dtype,
                              a->ndim, a->shape, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  if ((st = a->buf->backend->compute->assign(c, a)) == CN_OK)
    st = cn_array_view(out, c, c->data, 1, &n, &one);
  cn_array_release(c);
  return st;
}

/* View of dst in the keepdims shape (nd, kshape) of a reduction over mask:
 * reduced axes get stride 0, kept axes dst's strides in order. */
static cn_status dst_keepdims_view(cn_array_s **out, const cn_array_s *dst,
                                   int32_t nd, const int64_t *kshape,
                                   uint64_t mask) {
  int64_t strides[CN_MAX_DIMS];
  const bool dst_keeps = dst->ndim == nd;
  int j = 0;
  for (int d = 0; d < nd; d++) {
    if (mask >> d & 1) {
      strides[d] = 0;
      if (dst_keeps)
        j++;
    } else {
      strides[d] = dst->strides[j++];
    }
  }
  return cn_array_view(out, dst, dst->data, nd, kshape, strides);
}

/* Shapes of a reduction of a over mask. */
typedef struct red_shapes {
  int32_t nd; /* keepdims form: a's ndim */
  int64_t kshape[CN_MAX_DIMS];
  int32_t fnd; /* the result's */
  int64_t fshape[CN_MAX_DIMS];
  int64_t nred; /* reduced elements per output (INT64_MAX: more) */
} red_shapes;

static void red_shapes_make(red_shapes *s, const cn_array_s *a, uint64_t mask,
                            bool keepdims) {
  s->nd = a->ndim;
  s->fnd = 0;
  s->nred = 1;
  for (int d = 0; d < a->ndim; d++) {
    bool r = mask >> d & 1;
    s->kshape[d] = r ? 1 : a->shape[d];
    /* Only compared with 0: saturates rather than overflow when a kept
     * extent is 0 and the reduced ones multiply past int64. */
    if (r && s->nred != 0 &&
        __builtin_mul_overflow(s->nred, a->shape[d], &s->nred))
      s->nred = INT64_MAX;
    if (!r || keepdims)
      s->fshape[s->fnd++] = s->kshape[d];
  }
}

/* Finishes a computation done into res (keepdims shape, C order, dtype
 * kdt): casts to rdt, writes dst or makes the final view. Consumes res. */
static cn_status red_finish(cn_array *out, cn_array_s *res, cn_array_s *dst,
                            bool direct, const red_shapes *s, uint64_t mask,
                            cn_dtype rdt) {
  const cn_backend *be = res->buf->backend;
  cn_status st = CN_OK;
  if (dst) {
    if (!direct) {
      cn_array_s *dv;
      if ((st = dst_keepdims_view(&dv, dst, s->nd, s->kshape, mask)) == CN_OK) {
        st = be->compute->assign(dv, res);
        cn_array_release(dv);
      }
    }
    cn_array_release(res);
    if (st != CN_OK)
      return st;
    cn_array_retain(dst);
    *out = dst;
    return CN_OK;
  }
  if (res->dtype != rdt) {
    cn_array_s *r2;
    st = cast_copy(&r2, res, rdt);
    cn_array_release(res);
    if (st != CN_OK)
      return st;
    res = r2;
  }
  if (s->fnd == res->ndim) {
    *out = res;
    return CN_OK;
  }
  int64_t strides[CN_MAX_DIMS];
  cn_default_strides(strides, s->fnd, s->fshape, CN_ORDER_C);
  cn_array_s *v;
  st = cn_array_view(&v, res, res->data, s->fnd, s->fshape, strides);
  cn_array_release(res);
  if (st == CN_OK)
    *out = v;
  return st;
}

/* Where the computation writes: a keepdims view of dst when dst has the
 * kernel's dtype and cannot overlap the input, else a new array. */
static cn_status red_target(cn_array_s **res, bool *direct, cn_array_s *dst,
                            const cn_array_s *a, const red_shapes *s,
                            uint64_t mask, cn_dtype kdt, bool allow_direct) {
  *direct = allow_direct && dst && dst->dtype == kdt && dst->buf != a->buf;
  if (*direct)
    return dst_keepdims_view(res, dst, s->nd, s->kshape, mask);
  return cn_array_new(res, a->buf->backend, a->buf->device_id, kdt, s->nd,
                      s->kshape, CN_ORDER_C);
}

static cn_status reduce_entry(const char *fn, red_op op, cn_array *out,
                              cn_array a, int32_t naxes, const int32_t *axes,
                              int32_t keepdims, double ddof, cn_dtype dtype,
                              cn_array dst) {
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (dst)
    CN_CHECK_ARRAY(dst, fn, "dst");
  uint64_t mask;
  cn_status st = cn_axes_mask(&mask, naxes, axes, a->ndim, fn);
  if (st != CN_OK)
    return st;
  if ((st = check_dtype_arg(fn, dtype)) != CN_OK)
    return st;
  const red_info *info = &red_table[op];
  if (info->ddof && !isfinite(ddof))
    return cn_error(CN_ERR_VALUE, "%s: argument 'ddof' is %g (must be finite)",
                    fn, ddof);
  const cn_dtype adt = a->dtype;
  const bool given = dtype != CN_DTYPE_DEFAULT;
  cn_dtype in_dt = adt, kdt, rdt;
  const cn_reduce_kind kind = (cn_reduce_kind)info->kind;
  const bool nan = info->skips_nan;
  switch (op) {
  case OP_SUM:
  case OP_NANSUM:
  case OP_PROD:
  case OP_NANPROD: {
    const bool sum = op == OP_SUM || op == OP_NANSUM;
    rdt = kdt = given ? dtype : wide_dtype(adt);
    if (!(rdt == adt || rdt == wide_dtype(adt) ||
          (sum && !is_inexact(adt) && rdt == CN_FLOAT64)))
      in_dt = rdt;
    break;
  }
  case OP_MIN:
  case OP_MAX:
  case OP_NANMIN:
  case OP_NANMAX:
    kdt = adt;
    rdt = given ? dtype : adt;
    break;
  case OP_ANY:
  case OP_ALL:
    kdt = rdt = CN_BOOL;
    break;
  default: /* mean, var, std and their nan forms */
    kdt = given ? dtype : (is_inexact(adt) ? adt : CN_FLOAT64);
    if (!is_inexact(kdt))
      return cn_error(CN_ERR_TYPE,
                      "%s: argument 'dtype' is %s; the mean and moments "
                      "need a float or complex dtype",
                      fn, cn_dtype_name(kdt));
    if (kdt != adt && !((op == OP_MEAN || op == OP_NANMEAN) &&
                        !is_inexact(adt) && kdt == CN_FLOAT64))
      in_dt = kdt;
    if (op != OP_MEAN && op != OP_NANMEAN)
      kdt = cn_real_dtype(kdt);
    rdt = kdt;
    break;
  }
  /* float16 has no kernels: it is reduced in float32 and the result
   * rounded once (NumPy's float16 sum does the same along a contiguous
   * axis: a float32 pairwise sum; its mean uses a float32 sum) */
  if (kdt == CN_FLOAT16)
    kdt = CN_FLOAT32;
  red_shapes s;
  red_shapes_make(&s, a, mask, keepdims != 0);
  /* ...except any/all of a whole host array, whose truth scan reads
   * float16 bits in place. */
  bool whole = a->size > 0;
  for (int32_t d = 0; d < s.nd; d++)
    whole = whole && s.kshape[d] == 1;
  if (in_dt == CN_FLOAT16 &&
      !((op == OP_ANY || op == OP_ALL) && whole &&
        a->buf->backend->device_type == CN_DEVICE_CPU))
    in_dt = CN_FLOAT32;
  if (info->empty_error != NULL && s.nred == 0)
    return cn_error(CN_ERR_VALUE, "%s: %s", fn, info->empty_error);
  if (dst && (st = check_dst(fn, dst, a, rdt, s.fnd, s.fshape)) != CN_OK)
    return st;
  const cn_backend *be = a->buf->backend;
  const bool moment = info->moments;
  if (moment) {
    CN_REQUIRE_SLOT(moments, be, moments, fn);
  } else {
    CN_REQUIRE_SLOT(reduce, be, reduce, fn);
  }
  if (op == OP_STD || op == OP_NANSTD) {
    CN_REQUIRE_SLOT(elementwise, be, elementwise, fn);
  }

  /* Validated: compute. */
  cn_array_s *src = a, *res = NULL;
  if (in_dt != adt && (st = cast_copy(&src, a, in_dt)) != CN_OK)
    return st;
  bool direct;
  st = red_target(&res, &direct, dst, a, &s, mask, kdt, true);
  if (st == CN_OK) {
    if (!moment)
      st = be->compute->reduce(kind, src, mask, res);
    else if (op == OP_MEAN || op == OP_NANMEAN)
      st = be->compute->moments(src, mask, 0.0, nan, res, NULL);
    else
      st = be->compute->moments(src, mask, ddof, nan, NULL, res);
    if (st == CN_OK && (op == OP_STD || op == OP_NANSTD)) {
      const cn_array_s *ins[1] = {res};
      st = be->compute->elementwise(CN_OPID_sqrt, res->dtype, 1, ins, res);
    }
  }
  if (src != a)
    cn_array_release(src);
  if (st != CN_OK) {
    cn_array_release(res);
    return st;
  }
  return red_finish(out, res, dst, direct, &s, mask, rdt);
}

/* The REDUCE and MOMENT rows of reduce.def; the ARG and SCAN rows follow
 * their entry functions below. */
#define RED_DEF_REDUCE(name, KIND)                                             \
  cn_status cn_##name(cn_array *out, cn_array a, int32_t naxes,                \
                      const int32_t *axes, int32_t keepdims, cn_dtype dtype,   \
                      cn_array dst) {                                          \
    return reduce_entry("cn_" #name, OP_##KIND, out, a, naxes, axes, keepdims, \
                        0.0, dtype, dst);                                      \
  }
#define RED_DEF_MOMENT(name, KIND)                                             \
  cn_status cn_##name(cn_array *out, cn_array a, int32_t naxes,                \
                      const int32_t *axes, int32_t keepdims, double ddof,      \
                      cn_dtype dtype, cn_array dst) {                          \
    return reduce_entry("cn_" #name, OP_##KIND, out, a, naxes, axes, keepdims, \
                        ddof, dtype, dst);                                     \
  }
#define RED_DEF_ARG(name, KIND)
#define RED_DEF_SCAN(name, KIND)
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  RED_DEF_##family(name, KIND)
#include "reduce.def"
#undef CN_REDUCTION
#undef RED_DEF_REDUCE
#undef RED_DEF_MOMENT
#undef RED_DEF_ARG
#undef RED_DEF_SCAN

/* ---- argmin / argmax -------------------------------------------------- */

/* Source of a single-axis operation: a itself and the normalised axis, or
 * for CN_AXIS_NONE the flattened array and axis 0. */
static cn_status axis_source(const char *fn, const cn_array_s *a, int32_t axis,
                             int32_t *ax) {
  if (axis == CN_AXIS_NONE) {
    *ax = 0;
    return CN_OK;
  }
  return cn_normalize_axis(ax, axis, a->ndim, fn);
}

static cn_status arg_entry(const char *fn, red_op op, cn_array *out, cn_array a,
                           int32_t axis, int32_t keepdims, cn_array dst) {
  const red_info *info = &red_table[op];
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (dst)
    CN_CHECK_ARRAY(dst, fn, "dst");
  int32_t ax;
  cn_status st = axis_source(fn, a, axis, &ax);
  if (st != CN_OK)
    return st;
  const bool flat = axis == CN_AXIS_NONE;
  if (flat ? a->size == 0 : a->shape[ax] == 0)
    return cn_error(CN_ERR_VALUE, "%s: %s", fn, info->empty_error);
  red_shapes s;
  if (flat) {
    /* The result's shape: () or a's ndim ones; the kernel's: (1,). */
    s.nd = 1;
    s.kshape[0] = 1;
    s.nred = a->size;
    s.fnd = keepdims ? a->ndim : 0;
    for (int d = 0; d < s.fnd; d++)
      s.fshape[d] = 1;
  } else {
    red_shapes_make(&s, a, (uint64_t)1 << ax, keepdims != 0);
  }
  if (dst && (st = check_dst(fn, dst, a, CN_INT64, s.fnd, s.fshape)) != CN_OK)
    return st;
  const cn_backend *be = a->buf->backend;
  {
    CN_REQUIRE_SLOT(reduce, be, reduce, fn);
  }
  /* inputs without NaN run the plain kind, which cannot fail */
  const cn_reduce_kind kind =
      (cn_reduce_kind)(is_inexact(a->dtype) ? info->kind : info->plain_kind);
  const bool nan = info->allnan_error != NULL && kind == info->kind;
  const uint64_t mask = flat ? 1 : (uint64_t)1 << ax;

  cn_array_s *src = a, *res = NULL;
  if (flat && (st = flat_view(&src, a)) != CN_OK)
    return st;
  if (a->dtype == CN_FLOAT16) { /* no kernels: float32 orders the same */
    cn_array_s *c;
    st = cast_copy(&c, src, CN_FLOAT32);
    if (src != a)
      cn_array_release(src);
    if (st != CN_OK)
      return st;
    src = c;
  }
  bool direct;
  /* NaN kinds can fail after writing: they never write into dst directly. */
  st = red_target(&res, &direct, dst, a, &s, mask, CN_INT64, !nan);
  if (st == CN_OK)
    st = be->compute->reduce(kind, src, mask, res);
  if (src != a)
    cn_array_release(src);
  if (st != CN_OK) {
    cn_array_release(res);
    if (nan && cn_last_status() == CN_ERR_VALUE)
      return cn_error(CN_ERR_VALUE, "%s: %s", fn, info->allnan_error);
    return st;
  }
  return red_finish(out, res, dst, direct, &s, mask, CN_INT64);
}

#define RED_DEF_ARG(name, KIND)                                                \
  cn_status cn_##name(cn_array *out, cn_array a, int32_t axis,                 \
                      int32_t keepdims, cn_array dst) {                        \
    return arg_entry("cn_" #name, OP_##KIND, out, a, axis, keepdims, dst);     \
  }
#define RED_DEF_OTHER(name, KIND)
#define RED_DEF_REDUCE RED_DEF_OTHER
#define RED_DEF_MOMENT RED_DEF_OTHER
#define RED_DEF_SCAN RED_DEF_OTHER
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  RED_DEF_##family(name, KIND)
#include "reduce.def"
#undef CN_REDUCTION
#undef RED_DEF_ARG
#undef RED_DEF_REDUCE
#undef RED_DEF_MOMENT
#undef RED_DEF_SCAN

/* ---- cumsum / cumprod ------------------------------------------------- */

static cn_status scan_entry(const char *fn, red_op op, cn_array *out,
                            cn_array a, int32_t axis, cn_dtype dtype,
                            cn_array dst) {
  const cn_reduce_kind kind = (cn_reduce_kind)red_table[op].kind;
  CN_CHECK_OUT(out, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (dst)
    CN_CHECK_ARRAY(dst, fn, "dst");
  int32_t ax;
  cn_status st = axis_source(fn, a, axis, &ax);
  if (st != CN_OK)
    return st;
  if ((st = check_dtype_arg(fn, dtype)) != CN_OK)
    return st;
  const bool flat = axis == CN_AXIS_NONE;
  const cn_dtype rdt = dtype != CN_DTYPE_DEFAULT ? dtype : wide_dtype(a->dtype);
  cn_dtype in_dt =
      rdt == a->dtype || rdt == wide_dtype(a->dtype) ? a->dtype : rdt;
  /* float16 runs in float32 (no kernels), rounded at the end */
  const cn_dtype kdt = rdt == CN_FLOAT16 ? CN_FLOAT32 : rdt;
  if (in_dt == CN_FLOAT16)
    in_dt = CN_FLOAT32;
  red_shapes s;
  s.nd = s.fnd = flat ? 1 : a->ndim;
  for (int d = 0; d < s.nd; d++)
    s.kshape[d] = s.fshape[d] = flat ? a->size : a->shape[d];
  s.nred = 0;
  if (dst && (st = check_dst(fn, dst, a, rdt, s.fnd, s.fshape)) != CN_OK)
    return st;
  const cn_backend *be = a->buf->backend;
  {
    CN_REQUIRE_SLOT(reduce, be, reduce, fn);
  }

  cn_array_s *src = a, *res = NULL;
  if (flat && (st = flat_view(&src, a)) != CN_OK)
    return st;
  if (in_dt != a->dtype) {
    cn_array_s *c;
    st = cast_copy(&c, src, in_dt);
    if (src != a)
      cn_array_release(src);
    if (st != CN_OK)
      return st;
    src = c;
  }
  bool direct = dst && dst->dtype == kdt && dst->buf != a->buf;
  if (direct) {
    cn_array_retain(dst);
    res = dst;
  } else {
    st = cn_array_new(&res, be, a->buf->device_id, kdt, s.nd, s.kshape,
                      CN_ORDER_C);
  }
  if (st == CN_OK)
    st = be->compute->reduce(kind, src, (uint64_t)1 << ax, res);
  if (src != a)
    cn_array_release(src);
  if (st == CN_OK && dst && !direct)
    st = be->compute->assign(dst, res);
  if (st != CN_OK) {
    cn_array_release(res);
    return st;
  }
  if (dst && !direct) {
    cn_array_release(res);
    cn_array_retain(dst);
    res = dst;
  } else if (res->dtype != rdt) {
    cn_array_s *r2;
    st = cast_copy(&r2, res, rdt);
    cn_array_release(res);
    if (st != CN_OK)
      return st;
    res = r2;
  }
  *out = res;
  return CN_OK;
}

#define RED_DEF_SCAN(name, KIND)                                               \
  cn_status cn_##name(cn_array *out, cn_array a, int32_t axis, cn_dtype dtype, \
                      cn_array dst) {                                          \
    return scan_entry("cn_" #name, OP_##KIND, out, a, axis, dtype, dst);       \
  }
#define RED_DEF_REDUCE RED_DEF_OTHER
#define RED_DEF_MOMENT RED_DEF_OTHER
#define RED_DEF_ARG RED_DEF_OTHER
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  RED_DEF_##family(name, KIND)
#include "reduce.def"
#undef CN_REDUCTION
