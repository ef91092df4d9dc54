/* cunumpy/index.h: advanced indexing (integer-array and boolean-mask gather
 * and scatter), take/put, nonzero and friends, compress, extract, choose.
 *
 * Conventions shared by every function here:
 * - Index arrays may have any integer dtype (bool where stated). A negative
 *   index i counts from the end once (i + n); anything still outside [0, n)
 *   is CN_ERR_INDEX naming the index, the axis and its size ("index 7 is out
 *   of bounds for axis 0 with size 5"), unless a mode says otherwise.
 * - Scatter (put, *_set) with repeated indices writes in index order, so the
 *   last write wins, as NumPy (unlike CuPy, where the winner is undefined).
 * - Values written by scatter are cast with NumPy's unsafe rule; a read-only
 *   destination is CN_ERR_VALUE; on any error the destination is untouched.
 * - Results are new C-contiguous arrays on the input's device; arrays on
 *   different devices are CN_ERR_DEVICE.
 * - axis CN_AXIS_NONE (from reduce.h) means "of the flattened array". */
#ifndef CUNUMPY_INDEX_H
#define CUNUMPY_INDEX_H

#include "cunumpy/array.h"
#include "cunumpy/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to do with out-of-range indices (NumPy's mode= of take, put,
 * choose). RAISE: CN_ERR_INDEX; WRAP: index mod n; CLIP: clamp into
 * [0, n-1] (negative indices clip to 0, as NumPy). */
typedef enum cn_index_mode {
  CN_INDEX_RAISE = 0,
  CN_INDEX_WRAP = 1,
  CN_INDEX_CLIP = 2,
  CN_INDEX_MODE_FORCE_INT32_ = 0x7fffffff
} cn_index_mode;

/* ---- take / put ------------------------------------------------------ */

/* Elements of a at indices along axis (CN_AXIS_NONE: of the flattened a).
 * Result shape: a.shape[:axis] + indices.shape + a.shape[axis+1:]. dst (may
 * be NULL) receives the result as NumPy's out= (same shape, any dtype,
 * unsafe cast) and *out is then a new reference to dst. CN_ERR_INDEX for an
 * out-of-range index (mode RAISE) or axis; CN_ERR_TYPE for non-integer
 * indices; CN_ERR_INDEX when taking from an empty axis with a non-empty
 * index array. */
CN_API cn_status cn_take(cn_array *out, cn_array a, cn_array indices,
                         int32_t axis, int32_t mode, cn_array dst);

/* NumPy's take_along_axis: indices has a's ndim and broadcasts against a on
 * every axis but `axis`; out[..., j, ...] = a[..., indices[..., j, ...], ...].
 * CN_AXIS_NONE: a is flattened and indices must be 1-d. CN_ERR_SHAPE when
 * ndims differ or shapes do not broadcast, CN_ERR_INDEX out of range. */
CN_API cn_status cn_take_along_axis(cn_array *out, cn_array a, cn_array indices,
                                    int32_t axis);

/* a.flat[indices] = values, in place. values is flattened and repeated
 * cyclically when shorter than indices (as NumPy's put); an empty values
 * with non-empty indices is CN_ERR_VALUE. Last write wins. */
CN_API cn_status cn_put(cn_array a, cn_array indices, cn_array values,
                        int32_t mode);

/* NumPy's put_along_axis: a[..., indices[..., j, ...], ...] = values, with
 * indices as in take_along_axis and values broadcast to the broadcast shape
 * of a (off axis) and indices. Last write wins. */
CN_API cn_status cn_put_along_axis(cn_array a, cn_array indices,
                                   cn_array values, int32_t axis);

/* ---- advanced indexing --------------------------------------------------- */

/* a[:, ..., :, i0, i1, ..., i(n-1), ...] with the n index arrays applied to
 * the consecutive axes first_axis .. first_axis+n-1 (first_axis may be
 * negative, or ndim; CN_ERR_AXIS outside). Integer index arrays broadcast
 * together to shape B and the result has shape
 * a.shape[:first_axis] + B + a.shape[first_axis+n:], as NumPy's
 * integer-array indexing with adjacent advanced indices. A bool index array
 * of ndim k counts as the k integer arrays of its nonzero(),
 * consumes k axes, and must match their extents (CN_ERR_INDEX otherwise).
 * n == 0 returns a copy of a. CN_ERR_SHAPE when the index arrays do not
 * broadcast, CN_ERR_INDEX when they index more axes than a has or an index
 * is out of range. */
CN_API cn_status cn_index_arrays(cn_array *out, cn_array a, int32_t n,
                                 const cn_array *indices, int32_t first_axis);

/* The assignment form: a[..., i0, ..., i(n-1), ...] = values, in place, with
 * values broadcast to the shape cn_index_arrays would return. Repeated index
 * tuples: last write wins. */
CN_API cn_status cn_index_arrays_set(cn_array a, int32_t n,
                                     const cn_array *indices,
                                     int32_t first_axis, cn_array values);

/* a[mask] for a bool mask whose shape equals a.shape[:mask.ndim]: the
 * selected sub-arrays in C order, shape (count,) + a.shape[mask.ndim:] (1-d
 * when mask has a's shape). A 0-d mask selects all of a (True) or nothing
 * (False) with a new leading axis. CN_ERR_TYPE for a non-bool mask,
 * CN_ERR_INDEX when the mask's shape does not match. */
CN_API cn_status cn_mask_get(cn_array *out, cn_array a, cn_array mask);

/* dst[mask] = values, in place. values broadcasts to the shape cn_mask_get
 * would return (a single value fills every selected element). Errors as
 * cn_mask_get, plus CN_ERR_SHAPE when values does not broadcast. */
CN_API cn_status cn_mask_set(cn_array dst, cn_array mask, cn_array values);

/* ---- nonzero and friends ------------------------------------------------- */

/* Indices of the non-zero (true; NaN counts as non-zero) elements: writes
 * a.ndim new int64 1-d arrays into outs (capacity cap), in C order.
 * CN_ERR_VALUE when cap < ndim or for a 0-d array (as NumPy 2). */
CN_API cn_status cn_nonzero(cn_array *outs, int32_t cap, cn_array a);

/* Same indices as an int64 array of shape (count, a.ndim). */
CN_API cn_status cn_argwhere(cn_array *out, cn_array a);

/* Indices into the flattened a (C order) of its non-zero elements, int64. */
CN_API cn_status cn_flatnonzero(cn_array *out, cn_array a);

/* Number of non-zero elements over the given axes (reduce.h conventions:
 * naxes CN_ALL_AXES = all), int64 result. */
CN_API cn_status cn_count_nonzero(cn_array *out, cn_array a, int32_t naxes,
                                  const int32_t *axes, int32_t keepdims);

/* ---- selection ------------------------------------------------------------
 */

/* Slices of a along axis (CN_AXIS_NONE: flattened) where the 1-d condition
 * is true (any dtype, truth as bool cast). condition may be shorter than the
 * axis (missing entries are false); a true entry past the axis' end is
 * CN_ERR_INDEX. CN_ERR_SHAPE for a condition that is not 1-d. */
CN_API cn_status cn_compress(cn_array *out, cn_array condition, cn_array a,
                             int32_t axis);

/* Elements of the flattened a where the flattened condition is true (1-d
 * result); same length rule as cn_compress. */
CN_API cn_status cn_extract(cn_array *out, cn_array condition, cn_array a);

/* NumPy's choose: out[I] = choices[index[I]][I], with index (integer) and the
 * n choices broadcast together; the result dtype is the choices' promoted
 * dtype. mode as cn_take. dst (may be NULL) as cn_take's. CN_ERR_VALUE for
 * n == 0. */
CN_API cn_status cn_choose(cn_array *out, cn_array index, int32_t n,
                           const cn_array *choices, int32_t mode, cn_array dst);

#ifdef __cplusplus
}
#endif
#endif
