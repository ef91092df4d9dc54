/* cunumpy/reduce.h: reductions and scans.
 *
 * Axes: naxes == CN_ALL_AXES (or axes == NULL with naxes -1) reduces over all
 * axes; naxes == 0 reduces over none. Axes may be negative; a repeated or
 * out-of-range axis is CN_ERR_VALUE/CN_ERR_AXIS. keepdims keeps reduced axes
 * with extent 1. dtype CN_DTYPE_DEFAULT selects NumPy's accumulator dtype
 * (sum/prod of bool or small ints give int64 / uint64, floats keep theirs).
 * dst (may be NULL) receives the result, as NumPy's out=; *out is then a new
 * reference to dst. Inputs are never modified.
 * Explicit dtypes: sum/prod/cumsum/cumprod accumulate in dtype (inputs are
 * cast to it first unless it is their own or their wide accumulator);
 * mean/var/std need a float or complex dtype (else CN_ERR_TYPE); min/max
 * convert their result; any/all ignore it (it must still be a valid dtype).
 * dst must have the result's shape (CN_ERR_SHAPE), be writeable
 * (CN_ERR_VALUE), live with a (CN_ERR_DEVICE), and take the result dtype
 * under same_kind casting (CN_ERR_TYPE).
 * The functions and their prototype families are the rows of the library's
 * reduction table (core/reduce.def; a test keeps the two in step). */
#ifndef CUNUMPY_REDUCE_H
#define CUNUMPY_REDUCE_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CN_ALL_AXES (-1)
/* For single-axis functions: flatten first (NumPy's axis=None). */
#define CN_AXIS_NONE INT32_MIN

#define CN_REDUCE_DECL_(name)                                                  \
  CN_API cn_status name(cn_array *out, cn_array a, int32_t naxes,             \
                        const int32_t *axes, int32_t keepdims, cn_dtype dtype, \
                        cn_array dst)

/* Sum and product (pairwise summation for floats). Empty: 0 / 1. */
CN_REDUCE_DECL_(cn_sum);
CN_REDUCE_DECL_(cn_prod);
/* Arithmetic mean (float64 for integer inputs). Empty gives NaN. */
CN_REDUCE_DECL_(cn_mean);
/* Minimum / maximum; NaN propagates. CN_ERR_VALUE for an empty reduction
 * ("zero-size array to reduction operation minimum which has no identity").*/
CN_REDUCE_DECL_(cn_min);
CN_REDUCE_DECL_(cn_max);
/* Logical any / all, bool result (dtype ignored). */
CN_REDUCE_DECL_(cn_any);
CN_REDUCE_DECL_(cn_all);
/* NaN-ignoring variants. nanmin/nanmax of all-NaN slices give NaN. */
CN_REDUCE_DECL_(cn_nansum);
CN_REDUCE_DECL_(cn_nanprod);
CN_REDUCE_DECL_(cn_nanmean);
CN_REDUCE_DECL_(cn_nanmin);
CN_REDUCE_DECL_(cn_nanmax);

#define CN_MOMENT_DECL_(name)                                                  \
  CN_API cn_status name(cn_array *out, cn_array a, int32_t naxes,             \
                        const int32_t *axes, int32_t keepdims, double ddof,    \
                        cn_dtype dtype, cn_array dst)
/* Variance and standard deviation with ddof (real result for complex). */
CN_MOMENT_DECL_(cn_var);
CN_MOMENT_DECL_(cn_std);
CN_MOMENT_DECL_(cn_nanvar);
CN_MOMENT_DECL_(cn_nanstd);

#define CN_ARGREDUCE_DECL_(name)                                               \
  CN_API cn_status name(cn_array *out, cn_array a, int32_t axis,              \
                        int32_t keepdims, cn_array dst)
/* Index (int64) of the first min/max along axis (CN_AXIS_NONE: of the
 * flattened array). NaN counts as the extreme, as NumPy. CN_ERR_VALUE when
 * the axis is empty. nanargmin/nanargmax skip NaNs; CN_ERR_VALUE for an
 * all-NaN slice. */
CN_ARGREDUCE_DECL_(cn_argmin);
CN_ARGREDUCE_DECL_(cn_argmax);
CN_ARGREDUCE_DECL_(cn_nanargmin);
CN_ARGREDUCE_DECL_(cn_nanargmax);

#define CN_SCAN_DECL_(name)                                                    \
  CN_API cn_status name(cn_array *out, cn_array a, int32_t axis,              \
                        cn_dtype dtype, cn_array dst)
/* Cumulative sum / product along axis (CN_AXIS_NONE: of the flattened array),
 * same accumulator dtypes as sum/prod. */
CN_SCAN_DECL_(cn_cumsum);
CN_SCAN_DECL_(cn_cumprod);

#ifdef __cplusplus
}
#endif
#endif
