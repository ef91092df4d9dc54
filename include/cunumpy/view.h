/* cunumpy/view.h: zero-copy views: slicing, indexing, axis permutation,
 * reshaping, broadcasting. Every view shares its source's buffer and
 * read-only flag; the source is never modified. Negative axes count from
 * the end; an axis outside [-ndim, ndim) is CN_ERR_AXIS. Every view's
 * geometry is checked: CN_ERR_VALUE ("array is too big") when the product
 * of its non-zero extents times the item size overflows int64 (as NumPy,
 * even when another extent is 0), and a view never reaches a byte outside
 * its buffer. */
#ifndef CUNUMPY_VIEW_H
#define CUNUMPY_VIEW_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks an omitted slice bound (Python's None). */
#define CN_SLICE_NONE INT64_MIN

/* Basic slicing of the first nslices axes with Python's rules (clamped
 * bounds, negative steps, CN_SLICE_NONE for omitted bounds; any step in
 * [-INT64_MAX, INT64_MAX] but 0, lengths as PySlice_AdjustIndices).
 * CN_ERR_VALUE for step 0 or CN_SLICE_NONE, CN_ERR_INDEX when
 * nslices > ndim. */
CN_API cn_status cn_slice(cn_array *out, cn_array a, int32_t nslices,
                          const int64_t *start, const int64_t *stop,
                          const int64_t *step);
/* Slices one axis. */
CN_API cn_status cn_slice_axis(cn_array *out, cn_array a, int32_t axis,
                               int64_t start, int64_t stop, int64_t step);
/* Integer index on one axis, which is removed (negative indices count from
 * the end). CN_ERR_INDEX for an index out of range. */
CN_API cn_status cn_index_axis(cn_array *out, cn_array a, int32_t axis,
                               int64_t index);
/* Reverses the axes. */
CN_API cn_status cn_transpose(cn_array *out, cn_array a);
/* Permutes axes; axes must be a permutation of [0, ndim) (negatives
 * allowed). CN_ERR_VALUE otherwise. */
CN_API cn_status cn_permute_dims(cn_array *out, cn_array a, int32_t naxes,
                                 const int32_t *axes);
CN_API cn_status cn_swapaxes(cn_array *out, cn_array a, int32_t axis1,
                             int32_t axis2);
/* Moves axes source[i] to destination[i], others keep their order. */
CN_API cn_status cn_moveaxis(cn_array *out, cn_array a, int32_t naxes,
                             const int32_t *source, const int32_t *destination);
/* New shape with at most one -1 extent; a view when the strides allow it,
 * else a copy (as NumPy). CN_ERR_SHAPE when sizes differ. */
CN_API cn_status cn_reshape(cn_array *out, cn_array a, int32_t ndim,
                            const int64_t *shape, cn_order order);
/* 1-d view when possible, else a copy. Order K reads the elements in
 * memory order (the axes by decreasing |stride|), as NumPy. */
CN_API cn_status cn_ravel(cn_array *out, cn_array a, cn_order order);
/* 1-d copy, always. */
CN_API cn_status cn_flatten(cn_array *out, cn_array a, cn_order order);
/* Read-only broadcast view (stride 0 on new and size-1 axes).
 * CN_ERR_SHAPE when a does not broadcast to shape. */
CN_API cn_status cn_broadcast_to(cn_array *out, cn_array a, int32_t ndim,
                                 const int64_t *shape);
/* Broadcast shape of n shapes: writes *out_ndim and out_shape (capacity
 * CN_MAX_DIMS). CN_ERR_SHAPE names the clashing extents. */
CN_API cn_status cn_broadcast_shapes(int32_t *out_ndim, int64_t *out_shape,
                                     int32_t n, const int32_t *ndims,
                                     const int64_t *const *shapes);
/* Broadcasts n arrays against each other; outs receives n new references
 * (all or none). */
CN_API cn_status cn_broadcast_arrays(cn_array *outs, int32_t n,
                                     const cn_array *arrays);
/* Inserts size-1 axes at the given positions of the result. */
CN_API cn_status cn_expand_dims(cn_array *out, cn_array a, int32_t naxes,
                                const int32_t *axes);
/* Removes the given size-1 axes (naxes 0: all size-1 axes). CN_ERR_VALUE for
 * an axis whose extent is not 1. */
CN_API cn_status cn_squeeze(cn_array *out, cn_array a, int32_t naxes,
                            const int32_t *axes);
/* Reverses the given axes (naxes 0: all). */
CN_API cn_status cn_flip(cn_array *out, cn_array a, int32_t naxes,
                         const int32_t *axes);
/* flip on axis 1 (needs ndim >= 2) and on axis 0 (needs ndim >= 1). */
CN_API cn_status cn_fliplr(cn_array *out, cn_array a);
CN_API cn_status cn_flipud(cn_array *out, cn_array a);
/* The same memory seen as another dtype (numpy's a.view(dtype)), no copy.
 * With a different item size the last axis must be contiguous and its
 * byte length a multiple of the new size (its extent scales), and every
 * other stride a whole number of new items. CN_ERR_TYPE for an invalid
 * dtype; CN_ERR_VALUE for a 0-d array with another item size, a layout the
 * new dtype cannot tile, or data not aligned for it. Keeps writeability. */
CN_API cn_status cn_view_dtype(cn_array *out, cn_array a, cn_dtype dtype);

/* The real (imag 0) or imaginary (imag 1) part of a complex array as a
 * view of the real dtype (NumPy's z.real / z.imag): same shape, strides of
 * two real items per complex one, writes go to a. Keeps writeability.
 * CN_ERR_TYPE when a is not complex. */
CN_API cn_status cn_complex_part_view(cn_array *out, cn_array a, int32_t imag);

#ifdef __cplusplus
}
#endif
#endif
