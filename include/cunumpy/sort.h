/* cunumpy/sort.h: sorting, partitioning, searching, unique and set
 * operations. Orders follow NumPy: NaNs sort last (every NaN after +inf,
 * NaNs equal among themselves, -0.0 equal to 0.0 and kept in input order;
 * cn_sort's values put -0.0 first), bool as 0 < 1, complex
 * lexicographically (real part, then imaginary part, NaNs last in each).
 * Every sort is stable. Results are new arrays on the input's device;
 * inputs are never modified. axis CN_AXIS_NONE (reduce.h) sorts the
 * flattened array; an axis out of range is CN_ERR_AXIS. */
#ifndef CUNUMPY_SORT_H
#define CUNUMPY_SORT_H

#include "cunumpy/array.h"
#include "cunumpy/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sorted copy of a along axis (on the CPU Highway's vectorised quicksort
 * for real dtypes of 2 bytes or more, a radix sort for the others). NaN
 * payloads are not kept: a sorted NaN is the quiet NaN of its sign-less
 * form. CN_ERR_VALUE for a 0-d a with an axis other than CN_AXIS_NONE
 * ("axis out of bounds"). */
CN_API cn_status cn_sort(cn_array *out, cn_array a, int32_t axis);
/* int64 indices that sort a along axis (stable: equal elements keep their
 * order). */
CN_API cn_status cn_argsort(cn_array *out, cn_array a, int32_t axis);

/* Copy of a partitioned along axis so that for every kth[i] the element
 * there is the one a full sort would put there, with no larger element
 * before it and no smaller one after it (introselect; complex values, and
 * arrays on a device backend, get a full stable sort, which is such a
 * partition). kth entries may be negative (counted from the end); out of
 * range is CN_ERR_INDEX. */
CN_API cn_status cn_partition(cn_array *out, cn_array a, int32_t nkth,
                              const int64_t *kth, int32_t axis);
/* int64 indices that partition a (as cn_partition). */
CN_API cn_status cn_argpartition(cn_array *out, cn_array a, int32_t nkth,
                                 const int64_t *kth, int32_t axis);

/* Indirect stable sort by n keys of one shape: keys[n-1] is the primary
 * key, keys[0] the last tie-breaker (NumPy's order). int64 result of the
 * keys' shape (sorted along axis). CN_ERR_VALUE for n < 1, CN_ERR_SHAPE
 * for keys of different shapes. */
CN_API cn_status cn_lexsort(cn_array *out, int32_t n, const cn_array *keys,
                            int32_t axis);

/* Sorted unique elements of the flattened a. Each output pointer may be
 * NULL when not wanted: values (a's dtype), index (int64 first occurrence
 * of each value), inverse (int64, a's shape: values[inverse] == a), counts
 * (int64 occurrences). With equal_nan all NaNs collapse into one entry (the
 * default in NumPy 2), else each NaN is its own value. Together these give
 * the Array API's unique_all / unique_counts / unique_inverse /
 * unique_values. */
CN_API cn_status cn_unique(cn_array *values, cn_array *index, cn_array *inverse,
                           cn_array *counts, cn_array a, int32_t equal_nan);

/* NumPy's unique(axis=): the distinct slices of a along axis, sorted
 * lexicographically (element by element in the order above), as values
 * (a's dtype, a's shape with the axis' extent the number of slices); the
 * other outputs (each may be NULL) as cn_unique's but over slices, inverse
 * being 1-d of the axis' extent. A slice holding a NaN equals no other (as
 * NumPy, whose equal_nan does not apply with an axis). CN_AXIS_NONE is
 * cn_unique with equal_nan. CN_ERR_AXIS for an axis out of range (any
 * axis of a 0-d a). */
CN_API cn_status cn_unique_axis(cn_array *values, cn_array *index,
                                cn_array *inverse, cn_array *counts,
                                cn_array a, int32_t axis);

/* Sides for cn_searchsorted. */
#define CN_SIDE_LEFT 0
#define CN_SIDE_RIGHT 1

/* Insertion points of v (any shape) into the sorted 1-d a: left gives the
 * first suitable index, right the last. sorter (may be NULL) holds int64
 * (any integer) indices that sort a. Compared in the promoted dtype of a
 * and v. int64 result of v's shape. CN_ERR_SHAPE for a not 1-d or a sorter
 * of the wrong length, CN_ERR_INDEX for a sorter index out of range,
 * CN_ERR_VALUE for a bad side. Complex values compare in NumPy's order
 * (real part, then imaginary part; values with NaNs last). */
CN_API cn_status cn_searchsorted(cn_array *out, cn_array a, cn_array v,
                                 int32_t side, cn_array sorter);

/* Bool array of element's shape: whether each element occurs in
 * test_elements (negated with invert). Any dtype (complex too); NaN
 * (a complex value with a NaN part) is in nothing. */
CN_API cn_status cn_isin(cn_array *out, cn_array element,
                         cn_array test_elements, int32_t invert);
/* Sorted unique values present in both a and b (flattened), in their
 * promoted dtype. */
CN_API cn_status cn_intersect1d(cn_array *out, cn_array a, cn_array b);
/* Sorted unique values present in a or b, in their promoted dtype. */
CN_API cn_status cn_union1d(cn_array *out, cn_array a, cn_array b);
/* Sorted unique values of a that are not in b, in a's dtype. */
CN_API cn_status cn_setdiff1d(cn_array *out, cn_array a, cn_array b);

#ifdef __cplusplus
}
#endif
#endif
