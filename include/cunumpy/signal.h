/* cunumpy/signal.h: signal processing (scipy.signal's names and semantics):
 * n-d convolution and correlation (direct sum or FFT product on the
 * engine's FFT), linear recursive filters (lfilter, sosfilt) and rank
 * filters (order_filter, medfilt).
 *
 * Common rules. Inputs are never modified and may have any strides; *out
 * (and every other output) receives a new reference, and on failure
 * nothing is written. The kernels run on host copies of the data (the
 * result goes back to the inputs' device); inputs must share a device
 * (CN_ERR_DEVICE). Independent lanes (rows of a convolution, channels of
 * a filter) share the OpenMP threads; a single filter channel is a
 * sequential recursion and runs on one thread. */
#ifndef CUNUMPY_SIGNAL_H
#define CUNUMPY_SIGNAL_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Output modes (scipy.signal's mode=): full, same (centred, in1's shape),
 * valid (only where the inputs overlap fully). */
#define CN_SIGNAL_FULL 0
#define CN_SIGNAL_SAME 1
#define CN_SIGNAL_VALID 2
/* Methods (method=): auto picks the cheaper by a cost model (direct
 * products against FFT work, its ratio measured on the CPU for 1-d
 * inputs), and the direct sum for integers, bools and non-finite values. */
#define CN_SIGNAL_AUTO 0
#define CN_SIGNAL_DIRECT 1
#define CN_SIGNAL_FFT 2

/* N-d convolution of in1 with in2 (same ndim), scipy.signal.convolve /
 * correlate (correlate slides conj(in2): convolve with in2 reversed on
 * every axis and conjugated). Result in the promoted dtype; the direct
 * sum runs in float64 / complex128 / wrapping 64-bit integers, the FFT
 * product in float64 / complex128 (integers rounded back). Two 0-d
 * inputs give their product; an empty input gives an empty 1-d result.
 * CN_ERR_VALUE for a bad mode or method, different ndims, valid mode
 * where neither input is at least as large as the other on every axis,
 * or method FFT on bool. */
CN_API cn_status cn_signal_convolve(cn_array *out, cn_array in1, cn_array in2,
                                    int32_t mode, int32_t method);
CN_API cn_status cn_signal_correlate(cn_array *out, cn_array in1,
                                     cn_array in2, int32_t mode,
                                     int32_t method);
/* scipy.signal.fftconvolve: the FFT product over the listed axes (naxes
 * -1 / axes NULL: all axes); on the other axes the inputs broadcast
 * (extents equal or 1). Float64 / complex128 arithmetic, result float32 /
 * complex64 for single-precision inputs, float64 for integers.
 * CN_ERR_VALUE as cn_signal_convolve, and for non-broadcastable extents
 * on the other axes; CN_ERR_AXIS for an axis out of range. */
CN_API cn_status cn_fftconvolve(cn_array *out, cn_array in1, cn_array in2,
                                int32_t mode, int32_t naxes,
                                const int32_t *axes);

/* Direct-form II transposed IIR/FIR filter along axis, scipy.signal.
 * lfilter: y[n] = (sum b[k] x[n-k] - sum_{k>0} a[k] y[n-k]) / a[0], with
 * b, a 1-d (0-d taken as length 1). zi (may be NULL: zero state) holds
 * the initial delays, x's shape with the axis' extent max(len a, len b)
 * - 1 (extents of 1 broadcast); *zf (may be NULL) receives the final
 * delays in that shape. Result dtype: promoted b, a,
 * x as float64 or complex128 (float32 / complex64 when every input is
 * single precision); arithmetic in double precision. CN_ERR_VALUE for
 * empty or >1-d b or a, a[0] == 0 or a zi of the wrong shape;
 * CN_ERR_AXIS for a bad axis. */
CN_API cn_status cn_lfilter(cn_array *y, cn_array *zf, cn_array b, cn_array a,
                            cn_array x, int32_t axis, cn_array zi);
/* Cascade of second-order sections along axis, scipy.signal.sosfilt: sos
 * is (n_sections, 6) rows [b0 b1 b2 a0 a1 a2] with a0 == 1 (other a0 are
 * rejected, as SciPy). zi (may be NULL) has shape (n_sections, ..., 2,
 * ...): x's shape with the axis' extent 2; *zf (may be NULL) the final
 * state in that shape. Dtypes as cn_lfilter.
 * CN_ERR_VALUE for a bad sos shape, a0 != 1, a bad zi shape. */
CN_API cn_status cn_sosfilt(cn_array *y, cn_array *zf, cn_array sos,
                            cn_array x, int32_t axis, cn_array zi);

/* N-d rank filter, scipy.signal.order_filter: out[i] is the rank-th
 * smallest of the in_ values under the nonzero entries of domain (same
 * ndim as in_, odd extents), centred on i, zero outside in_. NaN sorts
 * after every number; values are compared as float64. Result in in_'s
 * dtype. CN_ERR_VALUE for a domain of another ndim or an even extent, a
 * rank outside [0, nonzeros); CN_ERR_TYPE for complex or bool input. */
CN_API cn_status cn_order_filter(cn_array *out, cn_array in_, cn_array domain,
                                 int64_t rank);

/* scipy.signal.upfirdn: x upsampled by up (zeros inserted), filtered by
 * the 1-d FIR h, downsampled by down, along axis (zero outside x): ((n -
 * 1) * up + len(h) - 1) / down + 1 outputs per lane, only those computed
 * (polyphase). Dtype as cn_lfilter (float32 / complex64 when h and x are
 * single precision). CN_ERR_VALUE for an empty or >1-d h, up or down <
 * 1; CN_ERR_AXIS for a bad axis. */
CN_API cn_status cn_upfirdn(cn_array *out, cn_array h, cn_array x, int64_t up,
                            int64_t down, int32_t axis);

#ifdef __cplusplus
}
#endif
#endif
