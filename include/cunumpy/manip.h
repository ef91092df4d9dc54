/* cunumpy/manip.h: joining, splitting, tiling, padding and rearranging
 * arrays. Results are new arrays on the inputs' device (rot90 and the
 * atleast_* functions return views, as NumPy), inputs are never modified,
 * and arrays on different devices are CN_ERR_DEVICE. Negative axes count
 * from the end; an axis out of range is CN_ERR_AXIS. */
#ifndef CUNUMPY_MANIP_H
#define CUNUMPY_MANIP_H

#include "cunumpy/array.h"
#include "cunumpy/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- joining ----------------------------------------------------------- */

/* Joins n >= 1 arrays along an existing axis (CN_AXIS_NONE: flattens each
 * first). dtype CN_DTYPE_DEFAULT promotes the inputs (cn_result_type), else
 * casts unsafely to dtype. CN_ERR_VALUE for n < 1 or differing ndims (or
 * 0-d inputs), CN_ERR_SHAPE when extents off the axis differ. */
CN_API cn_status cn_concatenate(cn_array *out, int32_t n,
                                const cn_array *arrays, int32_t axis,
                                cn_dtype dtype);
/* Joins n >= 1 same-shape arrays along a new axis (in [-ndim-1, ndim]).
 * CN_ERR_SHAPE when shapes differ. */
CN_API cn_status cn_stack(cn_array *out, int32_t n, const cn_array *arrays,
                          int32_t axis);
/* NumPy's vstack (rows; 1-d inputs become (1, N)), hstack (axis 1, or 0
 * for 1-d inputs), dstack (axis 2 after atleast_3d) and column_stack (1-d
 * inputs become columns). */
CN_API cn_status cn_vstack(cn_array *out, int32_t n, const cn_array *arrays);
CN_API cn_status cn_hstack(cn_array *out, int32_t n, const cn_array *arrays);
CN_API cn_status cn_dstack(cn_array *out, int32_t n, const cn_array *arrays);
CN_API cn_status cn_column_stack(cn_array *out, int32_t n,
                                 const cn_array *arrays);

/* ---- splitting ----------------------------------------------------------- */

/* Splits a along axis into views. With indices == NULL, into `sections`
 * parts (cn_split: equal parts, CN_ERR_VALUE when the extent is not
 * divisible; cn_array_split: the first extent % sections parts one longer).
 * With indices (nidx sorted split points, clamped to the extent as Python
 * slices), into nidx + 1 parts. Writes the parts to outs (capacity cap) and
 * their count to *nout; CN_ERR_VALUE when cap is too small (nothing is
 * written) or sections < 1. The parts are views of a. */
CN_API cn_status cn_split(cn_array *outs, int32_t cap, int32_t *nout,
                          cn_array a, int64_t sections, int32_t nidx,
                          const int64_t *indices, int32_t axis);
CN_API cn_status cn_array_split(cn_array *outs, int32_t cap, int32_t *nout,
                                cn_array a, int64_t sections, int32_t nidx,
                                const int64_t *indices, int32_t axis);
/* cn_split along axis 1 (axis 0 for 1-d a), 0 (needs ndim >= 2) and 2
 * (needs ndim >= 3); CN_ERR_VALUE for too few dimensions. */
CN_API cn_status cn_hsplit(cn_array *outs, int32_t cap, int32_t *nout,
                           cn_array a, int64_t sections, int32_t nidx,
                           const int64_t *indices);
CN_API cn_status cn_vsplit(cn_array *outs, int32_t cap, int32_t *nout,
                           cn_array a, int64_t sections, int32_t nidx,
                           const int64_t *indices);
CN_API cn_status cn_dsplit(cn_array *outs, int32_t cap, int32_t *nout,
                           cn_array a, int64_t sections, int32_t nidx,
                           const int64_t *indices);

/* ---- repetition ---------------------------------------------------------- */

/* NumPy's tile: a repeated reps[i] times along each axis (reps is
 * left-padded with 1s, or a's shape with 1s when nreps > ndim).
 * CN_ERR_VALUE for a negative rep. */
CN_API cn_status cn_tile(cn_array *out, cn_array a, int32_t nreps,
                         const int64_t *reps);
/* Repeats each element repeats[i] times along axis (CN_AXIS_NONE:
 * flattened). repeats is an integer array of size 1 (broadcast) or the
 * axis' extent. CN_ERR_VALUE for negative counts, CN_ERR_SHAPE for a
 * mismatched count array, CN_ERR_TYPE for a non-integer one. */
CN_API cn_status cn_repeat(cn_array *out, cn_array a, cn_array repeats,
                           int32_t axis);
/* Same with one count for every element. */
CN_API cn_status cn_repeat_n(cn_array *out, cn_array a, int64_t repeats,
                             int32_t axis);

/* ---- padding ------------------------------------------------------------- */

typedef enum cn_pad_mode {
  CN_PAD_CONSTANT = 0,  /* constant_value (unsafe cast) */
  CN_PAD_EDGE = 1,      /* the edge value repeated */
  CN_PAD_REFLECT = 2,   /* mirror without repeating the edge: 3 2 | 1 2 3 */
  CN_PAD_SYMMETRIC = 3, /* mirror repeating the edge: 2 1 | 1 2 3 */
  CN_PAD_WRAP = 4,      /* periodic: 2 3 | 1 2 3 */
  /* cn_pad_ext only: */
  CN_PAD_LINEAR_RAMP = 5, /* from the end value towards the edge value */
  CN_PAD_MAXIMUM = 6,     /* statistic of the stat_length edge elements */
  CN_PAD_MINIMUM = 7,
  CN_PAD_MEAN = 8,
  CN_PAD_MEDIAN = 9,
  CN_PAD_EMPTY = 10, /* pads left unspecified by NumPy; here zeros */
  CN_PAD_MODE_FORCE_INT32_ = 0x7fffffff
} cn_pad_mode;

/* Pads a: pad_width holds 2 * ndim extents (before, after) per axis.
 * Widths larger than the axis reflect / wrap repeatedly, as NumPy.
 * CN_ERR_VALUE for negative widths, an unknown mode, or a non-constant
 * mode on an empty axis that needs padding. */
CN_API cn_status cn_pad(cn_array *out, cn_array a, const int64_t *pad_width,
                        int32_t mode, cn_scalar constant_value);
/* NumPy's pad with every mode but a callable: values (may be NULL: 0)
 * broadcasts to (ndim, 2) and gives each axis' (before, after)
 * constant_values (CONSTANT) or end_values (LINEAR_RAMP), cast unsafely;
 * stat_length (integer, may be NULL: the whole axis) broadcasts to
 * (ndim, 2) for the stat modes, each clamped to the extent; reflect_odd
 * selects reflect_type='odd' for REFLECT / SYMMETRIC (2 * edge - mirror).
 * Axes are padded in order, each over the earlier ones' padding, as NumPy
 * (integer stats round half to even, ramps floor). Errors as cn_pad, plus
 * CN_ERR_SHAPE for values / stat_length not broadcasting, CN_ERR_TYPE for
 * a non-integer stat_length, CN_ERR_VALUE for a negative one or a zero
 * stat_length with MAXIMUM / MINIMUM. New array on a's device. */
CN_API cn_status cn_pad_ext(cn_array *out, cn_array a, const int64_t *pad_width,
                            int32_t mode, cn_array values, cn_array stat_length,
                            int32_t reflect_odd);

/* ---- inserting and deleting --------------------------------------------- */

/* NumPy's insert: values (cast unsafely to a's dtype) inserted before the
 * positions `indices` along axis (CN_AXIS_NONE: a flattened). A 0-d integer
 * indices inserts values with its first axis moved to axis (NumPy's scalar
 * rule), any other single position values as they are; more positions
 * insert values broadcast to one slice per position, equal positions in
 * their given order, unsorted ones sorted stably. A 1-d bool indices gives
 * its nonzero positions. Positions lie in [-n, n]. CN_ERR_INDEX out of
 * range, for a bad axis or for several non-integer positions, CN_ERR_TYPE
 * for one non-integer position (NumPy's errors), CN_ERR_VALUE for indices
 * with ndim > 1, CN_ERR_SHAPE when values do not broadcast. New array on
 * a's device. */
CN_API cn_status cn_insert(cn_array *out, cn_array a, cn_array indices,
                           cn_array values, int32_t axis);
/* NumPy's delete: a without the sub-arrays at `indices` along axis
 * (CN_AXIS_NONE: flattened). indices is an integer array of any shape
 * (repeats allowed, in [-n, n)) or a bool mask of shape (n,). CN_ERR_INDEX
 * out of range, for a bad axis or for other dtypes (NumPy's error),
 * CN_ERR_VALUE for a mask of another shape. New array on a's device. */
CN_API cn_status cn_delete(cn_array *out, cn_array a, cn_array indices,
                           int32_t axis);
/* NumPy's append: a and values joined along axis, or both flattened for
 * CN_AXIS_NONE (promoted dtype). Errors as cn_concatenate. */
CN_API cn_status cn_append(cn_array *out, cn_array a, cn_array values,
                           int32_t axis);

/* ---- selecting ------------------------------------------------------------ */

/* NumPy's select: for each element the choice of the first true condition,
 * else default_value. The n conditions (bool) broadcast together, as do
 * the n choices with the default; the result has the conditions' shape
 * broadcast with the choices' (the conditions' alone when the choices are
 * 0-d) and the choices' and default's promoted dtype (Python scalars weak,
 * NEP 50). CN_ERR_VALUE for n < 1 or NULL / released handles, CN_ERR_TYPE
 * for a non-bool condition or no common dtype, CN_ERR_SHAPE when shapes do
 * not broadcast, CN_ERR_DEVICE across devices. New array. */
CN_API cn_status cn_select(cn_array *out, int32_t n, const cn_array *conditions,
                           const cn_array *choices, cn_array default_value);

/* ---- rearranging --------------------------------------------------------- */

/* Rolls elements by shifts[i] along axes[i] (elements leaving one end come
 * back at the other). naxes 0 / axes NULL: rolls the flattened array by
 * shifts[0] and restores the shape. CN_ERR_VALUE for nshift < 1. */
CN_API cn_status cn_roll(cn_array *out, cn_array a, int32_t nshift,
                         const int64_t *shifts, const int32_t *axes);
/* Rotates by 90 degrees k times in the plane (axis0, axis1), from axis0
 * towards axis1. A view. CN_ERR_VALUE when the axes are equal or ndim < 2. */
CN_API cn_status cn_rot90(cn_array *out, cn_array a, int64_t k, int32_t axis0,
                          int32_t axis1);
/* Views with at least 1, 2 or 3 dimensions: (N) -> (1, N) and
 * (N) -> (1, N, 1), (M, N) -> (M, N, 1), as NumPy. */
CN_API cn_status cn_atleast_1d(cn_array *out, cn_array a);
CN_API cn_status cn_atleast_2d(cn_array *out, cn_array a);
CN_API cn_status cn_atleast_3d(cn_array *out, cn_array a);

/* ---- matrices ------------------------------------------------------------ */

/* Copy of a with the elements above (tril) / below (triu) diagonal k of the
 * last two axes zeroed; a 1-d a is treated as (N, N) rows of a.
 * CN_ERR_VALUE for a 0-d a. */
CN_API cn_status cn_tril(cn_array *out, cn_array a, int64_t k);
CN_API cn_status cn_triu(cn_array *out, cn_array a, int64_t k);
/* 1-d v: square matrix with v on diagonal k. 2-d v: copy of its diagonal k
 * (empty when k is past the edge). CN_ERR_VALUE for other ndims. */
CN_API cn_status cn_diag(cn_array *out, cn_array v, int64_t k);

/* ---- grids --------------------------------------------------------------- */

/* Coordinate matrices from n arrays (each flattened): ij indexing gives
 * shape (N0, N1, ...), xy (ij = 0) swaps the first two extents. sparse
 * gives shapes with 1s except on each array's own axis. copy = 0 returns
 * read-only broadcast views instead of new arrays. Writes n handles to
 * outs (all or none). */
CN_API cn_status cn_meshgrid(cn_array *outs, int32_t n, const cn_array *arrays,
                             int32_t ij, int32_t sparse, int32_t copy);
/* Grid indices: shape (ndim, dims...) with out[i] varying along axis i.
 * CN_DTYPE_DEFAULT gives int64. CN_ERR_VALUE for negative dims. */
CN_API cn_status cn_indices(cn_array *out, int32_t ndim, const int64_t *dims,
                            cn_dtype dtype);

#ifdef __cplusplus
}
#endif
#endif
