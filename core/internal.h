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
typedef struct cn_backend_ops cn_backend_ops;
typedef struct cn_gemm_desc cn_gemm_desc;     /* core/linalg/descriptors.h */
typedef struct cn_lapack_args cn_lapack_args; /* core/linalg/descriptors.h */
typedef struct cn_fft_desc cn_fft_desc;       /* core/linalg/descriptors.h */

/* Reduction kinds shared by every backend. */
typedef enum cn_reduce_kind {
  CN_RED_SUM,
  CN_RED_PROD,
  CN_RED_MIN,
  CN_RED_MAX,
  CN_RED_ANY,
  CN_RED_ALL,
  CN_RED_NANSUM,
  CN_RED_NANPROD,
  CN_RED_NANMIN,
  CN_RED_NANMAX,
  CN_RED_ARGMIN,
  CN_RED_ARGMAX,
  CN_RED_NANARGMIN,
  CN_RED_NANARGMAX,
  CN_RED_CUMSUM,
  CN_RED_CUMPROD,
  CN_RED_COUNT_
} cn_reduce_kind;

/* A backend: a table of function pointers. The CPU table is built in; the
 * CUDA plugin's entry point `cn_cuda_plugin_entry` returns its table. Every
 * member may assume validated inputs (the core checks dtypes, shapes and
 * devices before calling); optional members may be NULL. */
struct cn_backend_ops {
  uint32_t abi_version; /* CUNUMPY_ABI_VERSION the backend was built for */
  uint32_t table_size;  /* sizeof(cn_backend_ops) it was built with */
  const char *name;     /* "cpu", "cuda" */
  int32_t device_type;  /* cn_device_type */

  /* Checks that the backend can run (device present); fills reason. */
  cn_status (*probe)(char *reason, size_t cap);
  int32_t (*device_count)(void);
  int32_t (*current_device)(void);

  /* Memory. alloc returns CN_ERR_MEMORY with a message on failure. */
  cn_status (*alloc)(int32_t device, size_t nbytes, void **ptr);
  void (*free)(int32_t device, void *ptr, size_t nbytes);

  /* Host <-> device copies of raw contiguous bytes (device backends). */
  cn_status (*copy_to_host)(void *dst, const void *src, size_t nbytes);
  cn_status (*copy_from_host)(void *dst, const void *src, size_t nbytes);

  /* dst = (cast) src, same shape (broadcast src already expanded with
   * stride-0 axes), both on this backend. Handles every dtype pair. */
  cn_status (*assign)(cn_array_s *dst, const cn_array_s *src);
  /* Fills dst with a scalar already cast to dst's dtype (raw bytes). */
  cn_status (*fill)(cn_array_s *dst, const void *value);

  /* Elementwise op `op` (index into the op table) with compute dtype
   * `compute`: inputs already broadcast to out's shape and of dtype
   * `compute` (the core casts them when needed), out of the op's output
   * dtype. out may alias an input exactly (same data and strides). */
  cn_status (*elementwise)(int32_t op, cn_dtype compute, int32_t nin,
                           const cn_array_s *const *in, cn_array_s *out);
  /* where(cond, x, y): cond bool, x and y of out's dtype, all broadcast. */
  cn_status (*where)(const cn_array_s *cond, const cn_array_s *x,
                     const cn_array_s *y, cn_array_s *out);

  /* Reduction of `in` over the axes set in axis_mask (bit i = axis i) into
   * out, whose shape is in's with reduced axes set to 1 (keepdims form) and
   * whose dtype is the accumulator / result dtype. For ARG kinds exactly one
   * axis is set and out is int64. For CUM kinds exactly one axis is set and
   * out has in's shape. ddof is unused except by moments. */
  cn_status (*reduce)(cn_reduce_kind kind, const cn_array_s *in,
                      uint64_t axis_mask, cn_array_s *out);
  /* Mean and variance in one pass (Welford/pairwise); mean or var may be
   * NULL. Same shape conventions as reduce. */
  cn_status (*moments)(const cn_array_s *in, uint64_t axis_mask, double ddof,
                       bool nan_skip, cn_array_s *mean, cn_array_s *var);

  /* Later domains (linalg, fft, random, sort) append their members here;
   * the core checks table_size before using a member past the end. */

  /* Indexing, sorting, random numbers: filled on the CPU by
   * cn_cpu_index_fill / cn_cpu_sort_fill / cn_cpu_random_fill
   * (core/cpu/cpu.h). idx arrays are int64, C-contiguous, on this
   * backend, already bounds-checked and wrapped into [0, extent). */
  /* out = a with axis gathered at idx (1-d): out.shape[axis] = len(idx). */
  cn_status (*take)(cn_array_s *out, const cn_array_s *a,
                    const cn_array_s *idx, int32_t axis);
  /* Inverse of take: a[..., idx[j], ...] = values[..., j, ...] in j order
   * (last write wins); values has take's output shape (stride 0 allowed)
   * and a's dtype. */
  cn_status (*put)(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                   const cn_array_s *values);
  /* take_along_axis: idx has out's shape (any strides), a has out's shape
   * on every axis but axis (stride 0 allowed). */
  cn_status (*take_along)(cn_array_s *out, const cn_array_s *a,
                          const cn_array_s *idx, int32_t axis);
  /* put_along_axis: values and idx share a shape that matches a off axis;
   * writes in C order of idx (last write wins). */
  cn_status (*put_along)(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                         const cn_array_s *values);
  /* New 1-d int64 array of the C-order flat positions of a's non-zero
   * elements. */
  cn_status (*flatnonzero)(cn_array_s **out, const cn_array_s *a);
  /* Stable sort along axis of a real or complex array (NaNs last, complex
   * in NumPy's lexicographic order). vals (may be NULL) receives the sorted
   * values, perm (may be NULL) the int64 argsort; both C-contiguous with
   * a's shape. */
  cn_status (*sort)(cn_array_s *vals, cn_array_s *perm, const cn_array_s *a,
                    int32_t axis);
  /* Fills out (C-contiguous) from the Philox4x32-10 stream (key, counter)
   * with distribution dist (cn_rng_dist in core/philox.h) and its
   * parameters: params[k] (3 doubles), or, where pa is not NULL and pa[k]
   * is, per-element values from pa[k] (C-contiguous, out's size and
   * device; float64, or int64 for INTEGERS). *used returns the number of
   * 128-bit counter blocks used. */
  cn_status (*rng_fill)(cn_array_s *out, int32_t dist, const uint32_t key[2],
                        const uint32_t counter[4], const double *params,
                        const cn_array_s *const *pa, uint64_t *used);

  /* Linear algebra, FFT: filled on the CPU by cn_cpu_linalg_fill /
   * cn_cpu_fft_fill (core/cpu/cpu.h); the descriptors are in
   * core/linalg/descriptors.h. */
  /* Batched out = op(a) @ b over identical batch shapes (cn_gemm_desc). */
  cn_status (*matmul)(const cn_gemm_desc *desc);
  /* One LAPACK driver (args->kind) over a batch of column-major matrices. */
  cn_status (*lapack)(cn_lapack_args *args);
  /* One batched, multi-axis FFT described by desc. */
  cn_status (*fft)(const cn_fft_desc *desc);

  /* CUDA devices, streams, events, pools, pinned memory:
   * the CUDA plugin's extra API (struct cn_cuda_api in core/cuda_api.h),
   * reached by the forwarding functions of include/cunumpy/cuda.h. NULL in
   * the CPU table. */
  const struct cn_cuda_api *cuda_api;
};

/* The built-in CPU table. */
CN_INTERNAL const cn_backend_ops *cn_cpu_backend(void);
/* Active backend for new arrays (loads CUDA on demand; falls back to CPU). */
CN_INTERNAL const cn_backend_ops *cn_active_backend(void);
/* The loaded CUDA backend or NULL (never triggers a load). */
CN_INTERNAL const cn_backend_ops *cn_cuda_backend_if_loaded(void);

/* Entry point exported by a backend plugin. */
typedef const cn_backend_ops *(*cn_plugin_entry_fn)(uint32_t core_abi_version);
#define CN_PLUGIN_ENTRY_NAME "cn_cuda_plugin_entry"

/* ---- buffers -------------------------------------------------------- */

/* Reference-counted memory block. Exactly one of these owns the memory:
 * the backend (alloc/free), or a foreign owner (release(ctx)). */
struct cn_buffer {
  atomic_int_fast64_t refcount;
  void *data;
  size_t nbytes;
  const cn_backend_ops *backend; /* who made / serves this memory */
  int32_t device_id;
  cn_release_fn release; /* foreign memory: called once at the end */
  void *release_ctx;
};

/* New buffer of nbytes on backend (refcount 1). */
CN_INTERNAL cn_status cn_buffer_alloc(cn_buffer **out,
                                      const cn_backend_ops *backend,
                                      int32_t device, size_t nbytes);
/* Buffer over foreign memory; release(ctx) runs when the last ref goes. */
CN_INTERNAL cn_status cn_buffer_wrap(cn_buffer **out,
                                     const cn_backend_ops *backend,
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

/* Allocates a handle viewing buf (retains buf). shape/strides copied;
 * computes size and contiguity flags. */
CN_INTERNAL cn_status cn_array_make(cn_array_s **out, cn_buffer *buf,
                                    char *data, cn_dtype dtype, int32_t ndim,
                                    const int64_t *shape,
                                    const int64_t *strides, bool writeable);
/* Same as cn_array_make with a's buffer, dtype, writeability. */
CN_INTERNAL cn_status cn_array_view(cn_array_s **out, const cn_array_s *a,
                                    char *data, int32_t ndim,
                                    const int64_t *shape,
                                    const int64_t *strides);
/* New uninitialised array on backend (device of that backend). */
CN_INTERNAL cn_status cn_array_new(cn_array_s **out,
                                   const cn_backend_ops *backend,
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
static inline const cn_backend_ops *cn_array_backend(const cn_array_s *a) {
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
/* Normalises axis into [0, ndim); CN_ERR_INDEX naming fn and the axis. */
CN_INTERNAL cn_status cn_normalize_axis(int32_t *out, int32_t axis,
                                        int32_t ndim, const char *fn);
/* Normalises an axis list into a bit mask; naxes CN_ALL_AXES = all.
 * Repeated axes are CN_ERR_VALUE. */
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

typedef enum cn_loop_class {
  CN_LOOPS_ALL,
  CN_LOOPS_NUM,
  CN_LOOPS_REAL,
  CN_LOOPS_INTEGER,
  CN_LOOPS_BITS,
  CN_LOOPS_INEXACT,
  CN_LOOPS_FLOAT,
  CN_LOOPS_NOCPLX_NUM
} cn_loop_class;

typedef enum cn_out_rule { CN_OUT_SAME, CN_OUT_BOOL, CN_OUT_REAL } cn_out_rule;

typedef struct cn_op_info {
  const char *name;
  int32_t nin;
  cn_loop_class loops;
  cn_out_rule out;
  const char *expr; /* the C expression text, for code generators */
  const char *doc;
} cn_op_info;

enum {
#define CN_OP(name, nin, loops, out, expr, doc) CN_OPID_##name,
#include "ops.def"
#undef CN_OP
  CN_OP_COUNT_
};

/* Table of every op, indexed by CN_OPID_*. */
CN_INTERNAL const cn_op_info *cn_op_table(void);
/* 1 when the loop class has a loop for dtype. */
CN_INTERNAL bool cn_loop_class_has(cn_loop_class lc, cn_dtype dt);

#endif
