/* cunumpy/stats.h: order statistics, averages, covariance, histograms,
 * differences, convolution, interpolation and integration, with NumPy's
 * semantics. Real (and bool) inputs; complex inputs are CN_ERR_TYPE unless
 * stated. Results are new arrays on the input's device; inputs are never
 * modified. Host-only: except ptp, diff and the unweighted averages (which
 * run on the backend's reductions), and the median and quantile family on
 * a device backend that has the sort and quantile_sorted kernels (lanes
 * sorted on the device), these functions compute on host float64
 * (complex128) copies of their inputs and move the result back. Axes follow reduce.h (naxes CN_ALL_AXES = all, CN_AXIS_NONE =
 * flattened for single-axis functions); out-of-range axes are
 * CN_ERR_AXIS. Values are computed in float64 (float32 inputs give
 * float32 results where NumPy keeps the dtype). */
#ifndef CUNUMPY_STATS_H
#define CUNUMPY_STATS_H

#include "cunumpy/array.h"
#include "cunumpy/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Quantile methods (NumPy's method=). */
typedef enum cn_quantile_method {
  CN_QUANTILE_LINEAR = 0,
  CN_QUANTILE_LOWER = 1,
  CN_QUANTILE_HIGHER = 2,
  CN_QUANTILE_NEAREST = 3, /* round half to even on the virtual index */
  CN_QUANTILE_MIDPOINT = 4,
  /* NumPy's other methods (Hyndman and Fan), as numpy.quantile defines
   * them; INVERTED_CDF and CLOSEST_OBSERVATION keep the input dtype. */
  CN_QUANTILE_INVERTED_CDF = 5,
  CN_QUANTILE_AVERAGED_INVERTED_CDF = 6,
  CN_QUANTILE_CLOSEST_OBSERVATION = 7,
  CN_QUANTILE_INTERPOLATED_INVERTED_CDF = 8,
  CN_QUANTILE_HAZEN = 9,
  CN_QUANTILE_WEIBULL = 10,
  CN_QUANTILE_MEDIAN_UNBIASED = 11,
  CN_QUANTILE_NORMAL_UNBIASED = 12,
  CN_QUANTILE_FORCE_INT32_ = 0x7fffffff
} cn_quantile_method;

/* Median over the axes (introselect per lane on the host, or the lanes
 * sorted on a device backend, as above). A NaN in a lane gives NaN;
 * an empty lane gives NaN. float64 result (float32 for float32). */
CN_API cn_status cn_median(cn_array *out, cn_array a, int32_t naxes,
                           const int32_t *axes, int32_t keepdims);
/* Same, ignoring NaNs (all-NaN lanes give NaN). */
CN_API cn_status cn_nanmedian(cn_array *out, cn_array a, int32_t naxes,
                              const int32_t *axes, int32_t keepdims);
/* q-th percentiles (q in [0, 100]) / quantiles (q in [0, 1]) over the axes.
 * q is a real array of any shape; the result has shape q.shape + the
 * reduced shape. LOWER / HIGHER / NEAREST keep a's dtype, the others give
 * float64 (float32 for float32). CN_ERR_VALUE for q out of range or an
 * unknown method. The nan* forms ignore NaNs. */
CN_API cn_status cn_percentile(cn_array *out, cn_array a, cn_array q,
                               int32_t naxes, const int32_t *axes,
                               int32_t method, int32_t keepdims);
CN_API cn_status cn_quantile(cn_array *out, cn_array a, cn_array q,
                             int32_t naxes, const int32_t *axes, int32_t method,
                             int32_t keepdims);
CN_API cn_status cn_nanpercentile(cn_array *out, cn_array a, cn_array q,
                                  int32_t naxes, const int32_t *axes,
                                  int32_t method, int32_t keepdims);
CN_API cn_status cn_nanquantile(cn_array *out, cn_array a, cn_array q,
                                int32_t naxes, const int32_t *axes,
                                int32_t method, int32_t keepdims);

/* Weighted average along axis (CN_AXIS_NONE: all). weights (may be NULL:
 * plain mean) has a's shape or is 1-d with the axis' length.
 * Computed as cn_average_axes on a's backend. CN_ERR_ZERO_DIVISION when
 * the weights of a lane sum to zero, CN_ERR_SHAPE for mismatched weights. */
CN_API cn_status cn_average(cn_array *out, cn_array a, cn_array weights,
                            int32_t axis);

/* Average over the axes (naxes CN_ALL_AXES: all, in any order, no
 * repeats), NumPy's average: weights (may be NULL: the mean, on the
 * backend) has a's shape, or the shape of a along axes in the order given.
 * sum_of_weights (may be NULL) receives the sums of the weights (the counts
 * without weights) in the result's shape, as returned=True. Result dtype:
 * the mean's, else result_type(a, weights) (float64 at least for integer
 * a); complex a and weights accepted. CN_ERR_ZERO_DIVISION when weights
 * sum to zero, CN_ERR_SHAPE for mismatched weights, CN_ERR_TYPE for weights
 * of another shape with CN_ALL_AXES. Runs on a's backend (NumPy's sums). */
CN_API cn_status cn_average_axes(cn_array *out, cn_array *sum_of_weights,
                                 cn_array a, cn_array weights, int32_t naxes,
                                 const int32_t *axes, int32_t keepdims);

/* Covariance matrix of the variables in m (1-d or 2-d; rows are variables
 * when rowvar, else columns; a 1-d m, and a single-row y, is one variable),
 * with y's variables appended when y is not NULL. ddof < 0 selects the
 * default (0 with bias, else 1); degrees of freedom <= 0 give inf/nan as
 * NumPy. A single variable gives a 0-d result, no variables a (0, 0)
 * float64 one. float64 result (complex128 for complex input, conjugating
 * as NumPy), computed on m's device with matmul. CN_ERR_VALUE for
 * ndim > 2, CN_ERR_SHAPE for differing numbers of observations,
 * CN_ERR_DEVICE when m and y live on different devices. */
CN_API cn_status cn_cov(cn_array *out, cn_array m, cn_array y, int32_t rowvar,
                        int32_t bias, int32_t ddof);
/* cn_cov with NumPy's frequency weights (fweights, 1-d integral
 * non-negative, one per observation) and analytic weights (aweights, 1-d
 * non-negative); either may be NULL. dtype CN_DTYPE_DEFAULT gives float64
 * (complex128 for complex input), else the float/complex result dtype
 * (promoted with float64 when weights are given, as NumPy).
 * CN_ERR_TYPE for non-integral fweights or a bad dtype, CN_ERR_VALUE for
 * negative weights, CN_ERR_ZERO_DIVISION for weights summing to zero,
 * CN_ERR_SHAPE for weights of the wrong shape. */
CN_API cn_status cn_cov_weighted(cn_array *out, cn_array m, cn_array y,
                                 cn_array fweights, cn_array aweights,
                                 int32_t rowvar, int32_t bias, int32_t ddof,
                                 cn_dtype dtype);
/* Pearson correlation coefficients (cov normalised by the real standard
 * deviations; real and imaginary parts clipped to [-1, 1]). Complex input
 * gives complex128. */
CN_API cn_status cn_corrcoef(cn_array *out, cn_array x, cn_array y,
                             int32_t rowvar);

/* Histogram of the flattened a. Bins are the 1-d increasing edges array
 * when edges is not NULL (CN_ERR_VALUE when not monotonic), else nbins
 * (>= 1) equal bins over [lo, hi] when has_range, else over the data's
 * [min, max] (widened by 0.5 each side when equal; CN_ERR_VALUE when not
 * finite). Values outside the edges are ignored; the last bin includes its
 * right edge. hist is int64 counts, or float64 with weights (a's shape) or
 * density (counts / (total * bin width)). edges_out (may be NULL) receives
 * the float64 edges. The histogram functions (cn_histogram, cn_histogram2d,
 * cn_histogramdd, cn_bincount, cn_digitize) run on their arrays' device:
 * CN_ERR_DEVICE for arrays on different devices, CN_ERR_UNSUPPORTED on a
 * backend without the scatter_add slot (digitize needs searchsorted only). */
CN_API cn_status cn_histogram(cn_array *hist, cn_array *edges_out, cn_array a,
                              int64_t nbins, cn_array edges, int32_t has_range,
                              double lo, double hi, cn_array weights,
                              int32_t density);
/* 2-d histogram of the points (x[i], y[i]) with nx * ny equal bins over
 * range (xlo, xhi, ylo, yhi) when range is not NULL, else over the data.
 * hist (nx, ny) as cn_histogram's; xedges / yedges may be NULL. */
CN_API cn_status cn_histogram2d(cn_array *hist, cn_array *xedges,
                                cn_array *yedges, cn_array x, cn_array y,
                                int64_t nx, int64_t ny, const double *range,
                                cn_array weights, int32_t density);
/* D-dimensional histogram of the N points of sample (N, D), NumPy's
 * histogramdd. bins holds one entry for all dimensions (nbins 1) or one
 * per dimension (nbins D): a 0-d integer count (equal bins over the range,
 * else the data's min/max widened by 0.5 when equal) or 1-d increasing
 * edges (right edge of the last bin included). ranges (may be NULL) is
 * (D, 2) of (min, max), a row with a NaN meaning the data's. weights (may
 * be NULL) has N values. outs receive the float64 hist of shape (bins per
 * dimension), then the D edges arrays (given edges retained as they are),
 * *nout = D + 1; cap must be >= D + 1. density divides by bin volumes and
 * the total. CN_ERR_TYPE for a non-integer count, CN_ERR_VALUE for counts
 * < 1, non-monotonic edges, bad or non-finite ranges, CN_ERR_SHAPE for a
 * bad sample, ranges or weights shape. */
CN_API cn_status cn_histogramdd(cn_array *outs, int32_t cap, int32_t *nout,
                                cn_array sample, int32_t nbins,
                                const cn_array *bins, cn_array ranges,
                                cn_array weights, int32_t density);
/* Occurrences of each value of the non-negative 1-d integer x, length
 * max(max(x) + 1, minlength); float64 sums of weights when weights (x's
 * shape) is not NULL, else int64. CN_ERR_VALUE for negative values or
 * minlength. */
CN_API cn_status cn_bincount(cn_array *out, cn_array x, cn_array weights,
                             int64_t minlength);
/* Indices of the bins (1-d, monotonic increasing or decreasing) each x
 * falls in, as NumPy's digitize (right selects closed right edges). int64
 * result of x's shape. CN_ERR_VALUE for non-monotonic bins. */
CN_API cn_status cn_digitize(cn_array *out, cn_array x, cn_array bins,
                             int32_t right);

/* max - min along axis (CN_AXIS_NONE: all), in a's dtype. */
CN_API cn_status cn_ptp(cn_array *out, cn_array a, int32_t axis,
                        int32_t keepdims);
/* n-th discrete difference along axis (bool uses !=). n == 0 returns a
 * copy; CN_ERR_VALUE for n < 0 or a 0-d a. */
CN_API cn_status cn_diff(cn_array *out, cn_array a, int32_t n, int32_t axis);
/* Gradient along one axis with uniform spacing dx (a Python-like weak
 * scalar): central differences inside, one-sided of edge_order 1 or 2 at
 * the ends, on a's backend. float64 result (float32 for float32, computed
 * in float32 as NumPy's); bool counts as 0/1. CN_ERR_VALUE when the axis
 * has fewer than edge_order + 1 elements or edge_order is not 1 or 2. */
CN_API cn_status cn_gradient(cn_array *out, cn_array a, int32_t axis, double dx,
                             int32_t edge_order);

/* Gradient of f along each of the axes (CN_ALL_AXES: all), NumPy's
 * gradient: spacing holds nothing (unit spacing), one 0-d spacing for all
 * axes, or one per axis, each a 0-d spacing or the axis' 1-d coordinates
 * (non-uniform second-order differences; equal steps use the uniform
 * formulas). outs[i] (cap >= number of axes, *nout set) is the gradient
 * along the i-th axis, in f's float/complex dtype (float64 for integers);
 * complex f and spacings accepted; the arithmetic is NumPy's (a weak 0-d
 * spacing keeps f's dtype), on f's backend. CN_ERR_TYPE for bool f or bool
 * coordinates (NumPy cannot subtract bools). CN_ERR_VALUE for edge_order
 * not 1 or 2, an axis shorter than edge_order + 1, a spacing count or
 * coordinate length that does not match, or a spacing of ndim > 1. */
CN_API cn_status cn_gradient_axes(cn_array *outs, int32_t cap, int32_t *nout,
                                  cn_array f, int32_t nspacing,
                                  const cn_array *spacing, int32_t naxes,
                                  const int32_t *axes, int32_t edge_order);

/* Modes of convolve / correlate. */
#define CN_CONV_FULL 0
#define CN_CONV_SAME 1
#define CN_CONV_VALID 2
/* Discrete 1-d linear convolution / cross-correlation of non-empty 1-d
 * (or 0-d) a and v, as NumPy (full: N+M-1 values, same: max(N, M),
 * valid: max(N, M) - min(N, M) + 1; correlate conjugates v, and with a
 * shorter than v returns the reversed correlation of v with a, as
 * NumPy). Result in the promoted dtype of a and v, on their device:
 * integers and bool wrap as in NumPy; floats are summed in float64 on
 * CPU arrays (in the dtype on a device), or, for long kernels of finite
 * values, by an FFT product (rounding differs from the direct sum).
 * CN_ERR_VALUE for empty or 2-d inputs or a bad mode, CN_ERR_DEVICE for
 * inputs on different devices. */
CN_API cn_status cn_convolve(cn_array *out, cn_array a, cn_array v,
                             int32_t mode);
CN_API cn_status cn_correlate(cn_array *out, cn_array a, cn_array v,
                              int32_t mode);

/* Piecewise-linear interpolation of (xp, fp) at x (any shape), NumPy's
 * interp value for value: float64 result, complex128 for complex fp (each
 * part interpolated, a real left / right with imaginary part 0). xp is 1-d
 * increasing, fp of its length. left / right (may be NULL: fp[0] / fp[-1])
 * are used outside [xp[0], xp[-1]]. Runs on the arrays' device.
 * CN_ERR_VALUE for empty or mismatched xp/fp, CN_ERR_TYPE for complex x or
 * xp, CN_ERR_DEVICE for arrays on different devices. */
CN_API cn_status cn_interp(cn_array *out, cn_array x, cn_array xp, cn_array fp,
                           const double *left, const double *right);
/* Trapezoidal integral of y along axis, with sample points x (1-d of the
 * axis' length, or NULL for uniform spacing dx), NumPy's
 * (d * (y[1:] + y[:-1]) / 2.0).sum(axis) on y's backend: the result dtype
 * promotes y, diff(x) and a weak float (float64 for integer y, complex64
 * for complex64 y with float32/complex64/no x). Neighbouring bools add as
 * a logical or. CN_ERR_SHAPE for a mismatched x. */
CN_API cn_status cn_trapezoid(cn_array *out, cn_array y, cn_array x, double dx,
                              int32_t axis);

#ifdef __cplusplus
}
#endif
#endif
