/* Engine internals shared by the core and the backends (the CUDA plugin
 * compiles against this header too). Not installed. */
#ifndef CUNUMPY_INTERNAL_H
#define CUNUMPY_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cunumpy/cunumpy.h"

#define CN_INTERNAL __attribute__((visibility("hidden")))
#define CN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CN_LIKELY(x) __builtin_expect(!!(x), 1)

/* ---- errors --------------------------------------------------------- */

/* Records status and a printf-style message for cn_last_error and returns
 * status, so callers write `return cn_error(CN_ERR_VALUE, "...", ...)`. */
CN_INTERNAL cn_status cn_error(cn_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prefixes the current last-error message with "fn: " if not already. */
CN_INTERNAL cn_status cn_error_prefix(cn_status status, const char *fn);
/* A record of the log channel (status.h: CN_LOG_*): made only when the
 * level or a handler wants it, so callers need not check first. Never
 * call with a lock that the handler's thread may wait for. */
CN_INTERNAL void cn_log_record(int32_t level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A CN_LOG_INFO record about one-off work (planning, compiling) that took
 * `took` seconds, made only when that exceeds CUNUMPY_SLOW_LOG_SECONDS
 * (default 1; read once). */
CN_INTERNAL void cn_log_slow(double took, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Seconds on a monotonic clock, for timing work worth a log record. */
CN_INTERNAL double cn_seconds(void);

/* ---- dtypes --------------------------------------------------------- */

/* Dense index 0..CN_NUM_DTYPES-1 in promotion order, -1 for invalid. */
CN_INTERNAL int cn_dtype_index(cn_dtype dt);
CN_INTERNAL cn_dtype cn_dtype_from_index(int i);
static inline int64_t cn_itemsize(cn_dtype dt) { return (int64_t)((dt & 0xff) / 8); }
static inline int cn_dtype_code(cn_dtype dt) { return (int)((unsigned)dt >> 8); }
static inline bool cn_is_complex(cn_dtype dt) { return cn_dtype_code(dt) == 5; }
static inline bool cn_is_float(cn_dtype dt) { return cn_dtype_code(dt) == 2; }
static inline bool cn_is_bool(cn_dtype dt) { return dt == CN_BOOL; }
static inline bool cn_is_signed_int(cn_dtype dt) { return cn_dtype_code(dt) == 0; }
static inline bool cn_is_unsigned_int(cn_dtype dt) { return cn_dtype_code(dt) == 1; }
static inline bool cn_is_integer(cn_dtype dt) { return cn_dtype_code(dt) <= 1; }
/* Real dtype of the same precision (complex64 -> float32); identity else. */
CN_INTERNAL cn_dtype cn_real_dtype(cn_dtype dt);
/* complex dtype of the same precision (float32 -> complex64). */
CN_INTERNAL cn_dtype cn_complex_dtype(cn_dtype dt);
CN_INTERNAL bool cn_can_cast_safe(cn_dtype from, cn_dtype to);
/* Promotion of n >= 1 valid dtypes as NumPy promotes a sequence: not a
 * left fold (int8, uint16, float32 give float32, not float64). */
CN_INTERNAL cn_dtype cn_result_type_seq(const cn_dtype *dtypes, int32_t n);

/* ---- backends ------------------------------------------------------- */

typedef struct cn_array_s cn_array_s;
typedef struct cn_buffer cn_buffer;

/* Reduction kinds shared by every backend: CN_RED_<KIND> for each line of
 * core/reduce.def computed by the reduce member (backend column KERNEL). */
#define CN_REDUCTION_KIND_KERNEL(KIND) CN_RED_##KIND,
#define CN_REDUCTION_KIND_MOMENTS(KIND)
typedef enum cn_reduce_kind {
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  CN_REDUCTION_KIND_##backend(KIND)
#include "reduce.def"
#undef CN_REDUCTION
  CN_RED_COUNT_
} cn_reduce_kind;

/* Readers of reduce.def's nans column, for CN_REDUCTION expansions:
 * CN_RED_NANS_SKIPS_<nans> is 1 when NaNs are left out;
 * CN_RED_NANS_BASE_<nans> is the NaN-free kind CN_RED_<BASE> or -1 (for
 * kernel rows, the row's own kind then: CN_RED_PLAIN_KIND);
 * CN_RED_NANS_ALLNAN_<nans> is the all-NaN error text or NULL. */
#define CN_RED_NANS_SKIPS_PROPAGATE 0
#define CN_RED_NANS_SKIPS_TRUTHY 0
#define CN_RED_NANS_SKIPS_SKIP(BASE) 1
#define CN_RED_NANS_SKIPS_SKIP_OR_ERROR(BASE, text) 1
#define CN_RED_NANS_BASE_PROPAGATE (-1)
#define CN_RED_NANS_BASE_TRUTHY (-1)
#define CN_RED_NANS_BASE_SKIP(BASE) CN_RED_##BASE
#define CN_RED_NANS_BASE_SKIP_OR_ERROR(BASE, text) CN_RED_##BASE
#define CN_RED_NANS_ALLNAN_PROPAGATE NULL
#define CN_RED_NANS_ALLNAN_TRUTHY NULL
#define CN_RED_NANS_ALLNAN_SKIP(BASE) NULL
#define CN_RED_NANS_ALLNAN_SKIP_OR_ERROR(BASE, text) text
#define CN_RED_PLAIN_KIND(kind, base) ((int)(base) < 0 ? (int)(kind) : (int)(base))

/* The backend interface (tables, handshake, slot access). */
#include "backend_iface.h"

/* ---- buffers -------------------------------------------------------- */

/* Reference-counted memory block. Exactly one of these owns the memory:
 * the backend (alloc/free), or a foreign owner (release(ctx)). */
struct cn_buffer {
  atomic_int_fast64_t refcount;
  void *data;
  size_t nbytes;
  const cn_backend *backend; /* who made / serves this memory */
  int32_t device_id;
  cn_release_fn release; /* foreign memory: called once at the end */
  void *release_ctx;
};

/* New buffer of nbytes on backend (refcount 1). */
CN_INTERNAL cn_status cn_buffer_alloc(cn_buffer **out,
                                      const cn_backend *backend,
                                      int32_t device, size_t nbytes);
/* Buffer over foreign memory; release(ctx) runs when the last ref goes. */
CN_INTERNAL cn_status cn_buffer_wrap(cn_buffer **out,
                                     const cn_backend *backend,
                                     int32_t device, void *data, size_t nbytes,
                                     cn_release_fn release, void *ctx);
CN_INTERNAL void cn_buffer_retain(cn_buffer *b);
CN_INTERNAL void cn_buffer_release(cn_buffer *b);

/* ---- arrays --------------------------------------------------------- */

#define CN_ARRAY_MAGIC 0x434e4152u /* "CNAR" */
#define CN_ARRAY_DEAD 0x44454144u  /* "DEAD" */

struct cn_array_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  cn_buffer *buf;
  char *data; /* address of element (0,...,0) = buf->data + byte offset */
  cn_dtype dtype;
  int32_t ndim;
  int32_t flags; /* CN_FLAG_* (contiguity recomputed at creation) */
  int64_t size;
  int64_t shape[CN_MAX_DIMS];
  int64_t strides[CN_MAX_DIMS]; /* in elements */
  cn_scalar weak;               /* value, when CN_FLAG_WEAK_SCALAR is set */
};

/* Validates a handle argument: non-NULL and not released.
 * Usage: CN_CHECK_ARRAY(a, "cn_add", "x1"). */
#define CN_CHECK_ARRAY(a, fn, argname)                                         \
  do {                                                                         \
    if (CN_UNLIKELY((a) == NULL))                                              \
      return cn_error(CN_ERR_VALUE, "%s: argument '%s' is NULL", fn, argname); \
    if (CN_UNLIKELY((a)->magic != CN_ARRAY_MAGIC))                             \
      return cn_error(CN_ERR_VALUE,                                            \
                      "%s: argument '%s' is a released or invalid handle", fn, \
                      argname);                                                \
  } while (0)

#define CN_CHECK_OUT(out, fn)                                                  \
  do {                                                                         \
    if (CN_UNLIKELY((out) == NULL))                                            \
      return cn_error(CN_ERR_VALUE, "%s: output pointer is NULL", fn);         \
  } while (0)

/* Checks the geometry of a view of items of itemsize bytes: extents >= 0,
 * the product of the non-zero extents times itemsize within int64 (NumPy's
 * rule, so even an empty shape must be representable), and the bytes a
 * non-empty view reaches from its element 0, [*lo, *hi), computed without
 * overflow (both 0 when empty). CN_ERR_VALUE ("array is too big", or the
 * axis whose stride overflows) otherwise. */
CN_INTERNAL cn_status cn_view_geometry(int64_t *size, int64_t *lo, int64_t *hi,
                                       int64_t itemsize, int32_t ndim,
                                       const int64_t *shape,
                                       const int64_t *strides);
/* Allocates a handle viewing buf (retains buf) with element 0 at byte
 * `offset` of buf; shape/strides copied; computes size and contiguity
 * flags. Every array is made here: CN_ERR_VALUE when cn_view_geometry
 * rejects the shape and strides or a non-empty view reaches a byte outside
 * buf (an empty one is put at the buffer's start if its offset is outside). */
CN_INTERNAL cn_status cn_array_make_at(cn_array_s **out, cn_buffer *buf,
                                       int64_t offset, cn_dtype dtype,
                                       int32_t ndim, const int64_t *shape,
                                       const int64_t *strides, bool writeable);
/* cn_array_make_at with element 0 at data (an address of buf or just past
 * it). */
CN_INTERNAL cn_status cn_array_make(cn_array_s **out, cn_buffer *buf,
                                    char *data, cn_dtype dtype, int32_t ndim,
                                    const int64_t *shape,
                                    const int64_t *strides, bool writeable);
/* Same as cn_array_make with a's buffer, dtype, writeability. */
CN_INTERNAL cn_status cn_array_view(cn_array_s **out, const cn_array_s *a,
                                    char *data, int32_t ndim,
                                    const int64_t *shape,
                                    const int64_t *strides);
/* View of a's buffer, dtype and writeability with element 0 `elements`
 * items from a's element 0 (any sign): the offset is computed with overflow
 * checks before any pointer is formed. Errors as cn_array_make_at. */
CN_INTERNAL cn_status cn_array_view_at(cn_array_s **out, const cn_array_s *a,
                                       int64_t elements, int32_t ndim,
                                       const int64_t *shape,
                                       const int64_t *strides);
/* New uninitialised array on backend (device of that backend). */
CN_INTERNAL cn_status cn_array_new(cn_array_s **out,
                                   const cn_backend *backend,
                                   int32_t device, cn_dtype dtype,
                                   int32_t ndim, const int64_t *shape,
                                   cn_order order);
/* New uninitialised array shaped like proto on proto's device, laid out
 * in proto's stride order (order K). */
CN_INTERNAL cn_status cn_array_new_like(cn_array_s **out,
                                        const cn_array_s *proto,
                                        cn_dtype dtype);
/* Recomputes size and the contiguity flags. */
CN_INTERNAL void cn_array_update_flags(cn_array_s *a);
/* True when writing dst element by element (or block by block) could
 * clobber v before it is read: they share memory and are not exactly the
 * same elements. */
CN_INTERNAL bool cn_array_unsafe_overlap(const cn_array_s *dst,
                                         const cn_array_s *v);
/* The backend serving a (its buffer's). Never NULL. */
static inline const cn_backend *cn_backend_of(const cn_array_s *a) {
  return a->buf->backend;
}
static inline bool cn_array_writeable(const cn_array_s *a) {
  return (a->flags & CN_FLAG_WRITEABLE) != 0;
}
static inline bool cn_array_is_c_contig(const cn_array_s *a) {
  return (a->flags & CN_FLAG_C_CONTIGUOUS) != 0;
}

/* ---- shapes --------------------------------------------------------- */

/* Product of extents with overflow check (and the byte size fits ptrdiff).*/
CN_INTERNAL cn_status cn_shape_size(int64_t *out, int32_t ndim,
                                    const int64_t *shape, int64_t itemsize,
                                    const char *fn);
/* Normalises axis into [0, ndim); CN_ERR_AXIS with NumPy's AxisError text
 * ("axis 3 is out of bounds for array of dimension 2") after fn. The one
 * check of an axis argument: every entry point taking one goes through it. */
CN_INTERNAL cn_status cn_normalize_axis(int32_t *out, int32_t axis,
                                        int32_t ndim, const char *fn);
/* Normalises an axis list into a bit mask; naxes CN_ALL_AXES = all.
 * Axes out of range are CN_ERR_AXIS (cn_normalize_axis), repeated axes
 * CN_ERR_VALUE. */
CN_INTERNAL cn_status cn_axes_mask(uint64_t *out, int32_t naxes,
                                   const int32_t *axes, int32_t ndim,
                                   const char *fn);
/* Resolves a single-axis argument: for CN_AXIS_NONE a raveled view (or
 * copy) of a and axis 0, else a new reference to a and the normalised axis.
 * *src is a new reference on success. */
CN_INTERNAL cn_status cn_axis_source(cn_array_s **src, int32_t *ax,
                                     cn_array_s *a, int32_t axis,
                                     const char *fn);
/* Broadcast shape of n arrays; error names fn. */
CN_INTERNAL cn_status cn_broadcast_shape_arrays(int32_t *out_ndim,
                                                int64_t *out_shape, int32_t n,
                                                const cn_array_s *const *arrs,
                                                const char *fn);
/* View of a broadcast to (ndim, shape) with stride-0 axes (no checks
 * beyond compatibility; read-only flag kept as a's). */
CN_INTERNAL cn_status cn_broadcast_view(cn_array_s **out, const cn_array_s *a,
                                        int32_t ndim, const int64_t *shape,
                                        const char *fn);
/* Strides (elements) of a new array of shape in order C or F. */
CN_INTERNAL void cn_default_strides(int64_t *strides, int32_t ndim,
                                    const int64_t *shape, cn_order order);

/* ---- iteration ------------------------------------------------------ */

/* Coalesces a group of same-shape strided operands into the fewest
 * dimensions (merging axes that are contiguous in every operand, dropping
 * size-1 axes, and ordering axes so the innermost has the smallest strides
 * of the first operand). Used by every strided CPU loop. */
typedef struct cn_iter_shape {
  int32_t ndim;                          /* >= 1 after coalescing */
  int64_t shape[CN_MAX_DIMS];            /* innermost axis last */
  int64_t strides[4][CN_MAX_DIMS];       /* bytes, per operand */
} cn_iter_shape;
CN_INTERNAL void cn_iter_coalesce(cn_iter_shape *it, int32_t nop,
                                  const cn_array_s *const *ops);

/* ---- casting helpers ------------------------------------------------ */

/* Converts a scalar to raw bytes of dtype (unsafe cast, NumPy semantics). */
CN_INTERNAL void cn_scalar_to_bytes(void *dst, cn_dtype dtype, cn_scalar v);
/* Reads one element as a scalar of its kind. */
CN_INTERNAL cn_scalar cn_scalar_from_bytes(const void *src, cn_dtype dtype);
/* True when the integer scalar s (kind INT or UINT) lies in the range of
 * the integer dtype dt. */
CN_INTERNAL bool cn_scalar_int_fits(cn_dtype dt, cn_scalar s);

/* ---- the op table --------------------------------------------------- */

/* The loop classes of ops.def's loops column, each as the dtype kinds it
 * has loops for: CN_LOOP_CLASS_<name>(F) is F(bool, signed, unsigned,
 * float, complex) with 1 where it has them. cn_loop_class_has and the CPU
 * loop generator (core/cpu/elementwise_loops.h) both read these rows. */
#define CN_LOOP_CLASS_ALL(F) F(1, 1, 1, 1, 1)
#define CN_LOOP_CLASS_NUM(F) F(0, 1, 1, 1, 1)
#define CN_LOOP_CLASS_REAL(F) F(1, 1, 1, 1, 0)
#define CN_LOOP_CLASS_INTEGER(F) F(0, 1, 1, 0, 0)
#define CN_LOOP_CLASS_BITS(F) F(1, 1, 1, 0, 0)
#define CN_LOOP_CLASS_INEXACT(F) F(0, 0, 0, 1, 1)
#define CN_LOOP_CLASS_FLOAT(F) F(0, 0, 0, 1, 0)
#define CN_LOOP_CLASS_NOCPLX_NUM(F) F(0, 1, 1, 1, 0)
#define CN_LOOP_CLASSES(X)                                                     \
  X(ALL) X(NUM) X(REAL) X(INTEGER) X(BITS) X(INEXACT) X(FLOAT) X(NOCPLX_NUM)

typedef enum cn_loop_class {
#define CN_LOOP_CLASS_ENUM_(name) CN_LOOPS_##name,
  CN_LOOP_CLASSES(CN_LOOP_CLASS_ENUM_)
#undef CN_LOOP_CLASS_ENUM_
} cn_loop_class;

typedef enum cn_out_rule { CN_OUT_SAME, CN_OUT_BOOL, CN_OUT_REAL } cn_out_rule;

/* ops.def's ints column: how integer and bool inputs are computed. */
typedef enum cn_int_rule {
  CN_INTS_LOOP,
  CN_INTS_FLOAT64,
  CN_INTS_NONNEG_EXP
} cn_int_rule;

/* ops.def's weak column: a weak integer out of range of an integer loop. */
typedef enum cn_weak_rule {
  CN_WEAK_ERROR,
  CN_WEAK_EQ,
  CN_WEAK_NE,
  CN_WEAK_LESS,
  CN_WEAK_GREATER,
  CN_WEAK_TRUTH,
  CN_WEAK_CLAMP
} cn_weak_rule;

/* ops.def's bools column as C: NULL for LOOP, the message for REFUSE. */
#define CN_OP_BOOLS_LOOP NULL
#define CN_OP_BOOLS_REFUSE(text) text

typedef struct cn_op_info {
  const char *name;
  int32_t nin;
  cn_loop_class loops;
  cn_out_rule out;
  const char *expr; /* the C expression text, for code generators */
  const char *doc;
  const char *bool_refusal; /* NULL, or why bool is CN_ERR_TYPE */
  cn_int_rule ints;
  cn_weak_rule weak;
} cn_op_info;

enum {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  CN_OPID_##name,
#include "ops.def"
#undef CN_OP
  CN_OP_COUNT_
};

/* Table of every op, indexed by CN_OPID_*. */
CN_INTERNAL const cn_op_info *cn_op_table(void);
/* 1 when the loop class has a loop for dtype. */
CN_INTERNAL bool cn_loop_class_has(cn_loop_class lc, cn_dtype dt);
/* The dtype op computes in for the promoted dtype p: p when it has a loop,
 * else the first dtype p casts to safely (never float16 for the special_
 * ops, as SciPy's); false for none (core/ufunc.c, shared by ufuncs and
 * expressions). */
CN_INTERNAL bool cn_op_loop_dtype(int32_t op, cn_dtype p, cn_dtype *out);
/* 1 for the ops with a float16 loop of their own (nextafter, spacing:
 * NumPy steps through float16 values there); every other op computes
 * float16 in float32 and rounds each element (core/ufunc.c). */
CN_INTERNAL bool cn_op_float16_loop(int32_t op);
/* The output dtype of op computed in ct: bool for comparisons, the real
 * dtype for the ops that return one, else ct. */
CN_INTERNAL cn_dtype cn_op_out_dtype(int32_t op, cn_dtype ct);

/* The host allocator every core allocation goes through. */
#include "alloc.h"

#endif
