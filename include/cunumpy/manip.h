/* cunumpy/manip.h: joining, splitting, tiling, padding and rearranging
 * arrays. Results are new arrays on the inputs' device (rot90 and the
 * atleast_* functions return views, as NumPy), inputs are never modified,
 * and arrays on different devices are CN_ERR_DEVICE. Negative axes count
 * from the end; an axis out of range is CN_ERR_INDEX. */
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
  CN_PAD_MODE_FORCE_INT32_ = 0x7fffffff
} cn_pad_mode;

/* Pads a: pad_width holds 2 * ndim extents (before, after) per axis.
 * Widths larger than the axis reflect / wrap repeatedly, as NumPy.
 * CN_ERR_VALUE for negative widths, an unknown mode, or a non-constant
 * mode on an empty axis that needs padding. */
CN_API cn_status cn_pad(cn_array *out, cn_array a, const int64_t *pad_width,
                        int32_t mode, cn_scalar constant_value);

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
