/* cunumpy/array.h: the array handle, its properties, creation, copies,
 * casting and host transfer. */
#ifndef CUNUMPY_ARRAY_H
#define CUNUMPY_ARRAY_H

#include "cunumpy/dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque, reference-counted handle to an n-d array view of a buffer. Every
 * function returning a handle returns a new reference. */
typedef struct cn_array_s *cn_array;

/* Maximum number of dimensions. */
#define CN_MAX_DIMS 32

/* Memory order for creation, copies and flattening. K keeps the source's
 * order as closely as possible (C when ambiguous), A is F when the source is
 * F-contiguous and not C-contiguous, else C. */
typedef enum cn_order {
  CN_ORDER_C = 0,
  CN_ORDER_F = 1,
  CN_ORDER_A = 2,
  CN_ORDER_K = 3,
  CN_ORDER_FORCE_INT32_ = 0x7fffffff
} cn_order;

/* Device types; values are DLPack's DLDeviceType. */
typedef enum cn_device_type {
  CN_DEVICE_CPU = 1,
  CN_DEVICE_CUDA = 2,
  CN_DEVICE_CUDA_HOST = 3,
  CN_DEVICE_CUDA_MANAGED = 13,
  CN_DEVICE_FORCE_INT32_ = 0x7fffffff
} cn_device_type;

/* Flags reported by cn_array_flags. */
#define CN_FLAG_C_CONTIGUOUS 0x1
#define CN_FLAG_F_CONTIGUOUS 0x2
#define CN_FLAG_WRITEABLE 0x4
#define CN_FLAG_OWNDATA 0x8
#define CN_FLAG_WEAK_SCALAR 0x10

/* Pass as a dtype argument to mean "the default" (the prototype's dtype in
 * *_like functions, the op's natural dtype in reductions). */
#define CN_DTYPE_DEFAULT ((cn_dtype)0)

/* Called exactly once, with ctx, when the last view of borrowed memory goes
 * away. It may be called from any thread. */
typedef void (*cn_release_fn)(void *ctx);

/* ---- lifetime ------------------------------------------------------ */

/* Adds a reference. CN_ERR_VALUE for NULL or a released handle. */
CN_API cn_status cn_array_retain(cn_array a);

/* Drops a reference; the last one frees the handle (and the buffer when no
 * other view holds it). NULL is a no-op; a released handle is ignored. */
CN_API void cn_array_release(cn_array a);

/* ---- properties: CN_ERR_VALUE for NULL or released handles ---------- */

CN_API cn_status cn_array_ndim(int32_t *out, cn_array a);
/* Writes ndim extents; CN_ERR_VALUE when cap < ndim. */
CN_API cn_status cn_array_shape(int64_t *out, int32_t cap, cn_array a);
/* Writes ndim strides, in elements (any sign); CN_ERR_VALUE when cap < ndim. */
CN_API cn_status cn_array_strides(int64_t *out, int32_t cap, cn_array a);
/* Extent of one axis (negative axes count from the end); CN_ERR_AXIS. */
CN_API cn_status cn_array_dim(int64_t *out, cn_array a, int32_t axis);
CN_API cn_status cn_array_size(int64_t *out, cn_array a);
CN_API cn_status cn_array_dtype(cn_dtype *out, cn_array a);
CN_API cn_status cn_array_itemsize(int64_t *out, cn_array a);
/* CN_FLAG_* bits. */
CN_API cn_status cn_array_flags(int32_t *out, cn_array a);
/* Address of element (0,...,0); device memory for device arrays. The
 * pointer is borrowed: valid while a holds a reference. */
CN_API cn_status cn_array_data(void **out, cn_array a);
/* Device type (cn_device_type) and ordinal of the array's memory. */
CN_API cn_status cn_array_device(int32_t *device_type, int32_t *device_id,
                                 cn_array a);
/* Current reference count of the handle (for tests and debugging). */
CN_API cn_status cn_array_refcount(int64_t *out, cn_array a);
/* Sets *out to 1 when a and b view the same buffer (may overlap). */
CN_API cn_status cn_array_shares_buffer(int32_t *out, cn_array a, cn_array b);

/* ---- creation (on the active backend) ------------------------------ */

/* Uninitialised array. shape may be NULL when ndim is 0. CN_ERR_VALUE for
 * negative extents, ndim outside [0, CN_MAX_DIMS] or sizes that overflow;
 * CN_ERR_TYPE for an invalid dtype; CN_ERR_MEMORY when allocation fails. */
CN_API cn_status cn_empty(cn_array *out, int32_t ndim, const int64_t *shape,
                          cn_dtype dtype, cn_order order);
CN_API cn_status cn_zeros(cn_array *out, int32_t ndim, const int64_t *shape,
                          cn_dtype dtype, cn_order order);
CN_API cn_status cn_ones(cn_array *out, int32_t ndim, const int64_t *shape,
                         cn_dtype dtype, cn_order order);
/* Filled with value cast to dtype (unsafe casting, as NumPy's full). */
CN_API cn_status cn_full(cn_array *out, int32_t ndim, const int64_t *shape,
                         cn_scalar value, cn_dtype dtype, cn_order order);
/* Like-creation: shape (and order K) of proto; dtype CN_DTYPE_DEFAULT keeps
 * proto's dtype. Made on proto's device. */
CN_API cn_status cn_empty_like(cn_array *out, cn_array proto, cn_dtype dtype);
CN_API cn_status cn_zeros_like(cn_array *out, cn_array proto, cn_dtype dtype);
CN_API cn_status cn_ones_like(cn_array *out, cn_array proto, cn_dtype dtype);
CN_API cn_status cn_full_like(cn_array *out, cn_array proto, cn_scalar value,
                              cn_dtype dtype);
/* Values start, start+step, ... below stop (NumPy's length rule
 * ceil((stop-start)/step)), as NumPy fills them: the first two values in
 * the dtype, then first + i * (second - first) in the dtype's arithmetic.
 * Made on the active backend. CN_ERR_VALUE for step 0, a non-finite bound
 * or more than two bool values. CN_DTYPE_DEFAULT gives float64. */
CN_API cn_status cn_arange(cn_array *out, double start, double stop,
                           double step, cn_dtype dtype);
/* Exact integer arange, cast to the dtype (wrapping as NumPy's; bool: each
 * value's truth, any length). CN_DTYPE_DEFAULT gives int64. */
CN_API cn_status cn_arange_int(cn_array *out, int64_t start, int64_t stop,
                               int64_t step, cn_dtype dtype);
/* num evenly spaced samples; endpoint includes stop. NumPy's values:
 * i * step + start in float64, the last exactly stop, floored for integer
 * dtypes, then cast. Made on the active backend. CN_ERR_VALUE for num<0.
 * CN_DTYPE_DEFAULT gives float64. */
CN_API cn_status cn_linspace(cn_array *out, double start, double stop,
                             int64_t num, int32_t endpoint, cn_dtype dtype);
/* n x m matrix with ones on diagonal k (m < 0 means m = n). */
CN_API cn_status cn_eye(cn_array *out, int64_t n, int64_t m, int64_t k,
                        cn_dtype dtype, cn_order order);
CN_API cn_status cn_identity(cn_array *out, int64_t n, cn_dtype dtype);
/* 0-d array holding a Python-style (weak) scalar: it adopts the other
 * operand's dtype within its kind in binary operations (NEP 50). Its own
 * dtype is bool, int64, float64 or complex128 (uint64 for a UINT scalar
 * above INT64_MAX). */
CN_API cn_status cn_scalar_array(cn_array *out, cn_scalar value);
/* 0-d array of a given dtype holding value (unsafe cast). */
CN_API cn_status cn_from_scalar(cn_array *out, cn_scalar value,
                                cn_dtype dtype);

/* ---- host memory ---------------------------------------------------- */

/* Copies caller memory into a new array on the active backend. data points
 * at element (0,...,0); strides are in elements (NULL = C-contiguous).
 * nbytes_before/nbytes_after bound the memory readable below and above data;
 * CN_ERR_VALUE for an element outside them, bounds that wrap around the
 * address space, or a size or stride reach that overflows int64. */
CN_API cn_status cn_from_host(cn_array *out, const void *data,
                              int64_t nbytes_before, int64_t nbytes_after,
                              int32_t ndim, const int64_t *shape,
                              const int64_t *strides, cn_dtype dtype);
/* Borrows caller memory (CPU) without copying, with the same bounds rule as
 * cn_from_host. release(ctx) is called once when the last view goes away
 * (release may be NULL). On failure release is not called: the caller keeps
 * ownership. readonly makes every view read-only. */
CN_API cn_status cn_wrap_host(cn_array *out, void *data, int64_t nbytes_before,
                              int64_t nbytes_after, int32_t ndim,
                              const int64_t *shape, const int64_t *strides,
                              cn_dtype dtype, int32_t readonly,
                              cn_release_fn release, void *ctx);
/* Copies the array's elements into caller memory in C or F order.
 * CN_ERR_VALUE when nbytes is smaller than size*itemsize. */
CN_API cn_status cn_copy_to_buffer(void *dst, int64_t nbytes, cn_array a,
                                   cn_order order);
/* Value of a one-element array as a scalar of its kind; CN_ERR_VALUE for
 * other sizes ("can only convert an array of size 1"). */
CN_API cn_status cn_item(cn_scalar *out, cn_array a);

/* ---- copies and casts ---------------------------------------------- */

/* New array with a copy of a's elements in the given order. */
CN_API cn_status cn_copy(cn_array *out, cn_array a, cn_order order);
/* Cast to dtype with NumPy's unsafe-cast results (float->int truncates,
 * complex->real drops the imaginary part, NaN->int is INT_MIN as on x86).
 * copy=0 returns a new reference to a when no cast is needed. */
CN_API cn_status cn_astype(cn_array *out, cn_array a, cn_dtype dtype,
                           int32_t copy);
/* Writes src into dst with broadcasting and unsafe casting (what
 * dst[...] = src does). CN_ERR_VALUE for a read-only dst, CN_ERR_SHAPE when
 * src does not broadcast to dst, CN_ERR_DEVICE across devices. Overlap
 * between src and dst is handled. */
CN_API cn_status cn_assign(cn_array dst, cn_array src);
/* Fills dst with value (unsafe cast). CN_ERR_VALUE for read-only dst. */
CN_API cn_status cn_fill(cn_array dst, cn_scalar value);
/* Read-only view of a. */
CN_API cn_status cn_readonly_view(cn_array *out, cn_array a);

/* ---- devices -------------------------------------------------------- */

/* Copy on the host (new reference to a when already on the host). */
CN_API cn_status cn_to_host(cn_array *out, cn_array a);
/* Copy on CUDA device device_id (CN_ERR_DEVICE when CUDA is unavailable). */
CN_API cn_status cn_to_device(cn_array *out, cn_array a, int32_t device_id);
/* Copy on the active backend's device (new reference when already there). */
CN_API cn_status cn_to_active(cn_array *out, cn_array a);

#ifdef __cplusplus
}
#endif
#endif
