/* cunumpy/fft.h: discrete Fourier transforms (numpy.fft), on FFTW3 for the
 * CPU.
 *
 * Common rules. n / s select the transform length per axis (the input is
 * cropped or zero-padded); CN_FFT_N_NONE (or s == NULL) keeps the input's
 * extent. Axes may be negative. float32 and complex64 inputs are
 * transformed in single precision (complex64 / float32 results); every other
 * dtype in double precision. Inputs are never modified and may have any
 * strides. Errors: CN_ERR_VALUE for n < 1 (or a length that gives no data),
 * CN_ERR_AXIS for an axis out of range, CN_ERR_VALUE for repeated axes or
 * an invalid norm, CN_ERR_TYPE for a non-numeric dtype. *out receives a new
 * reference; on failure nothing is written. */
#ifndef CUNUMPY_FFT_H
#define CUNUMPY_FFT_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Normalisation, as NumPy's norm=: backward scales the inverse by 1/n,
 * ortho both directions by 1/sqrt(n), forward the forward one by 1/n. */
typedef enum cn_fft_norm {
  CN_FFT_NORM_BACKWARD = 0,
  CN_FFT_NORM_ORTHO = 1,
  CN_FFT_NORM_FORWARD = 2,
  CN_FFT_NORM_FORCE_INT32_ = 0x7fffffff
} cn_fft_norm;

/* "n = None". */
#define CN_FFT_N_NONE INT64_MIN

/* 1-d transforms along axis. */
CN_API cn_status cn_fft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                        cn_fft_norm norm);
CN_API cn_status cn_ifft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                         cn_fft_norm norm);
/* Real input, half spectrum (n/2+1 complex values) out. */
CN_API cn_status cn_rfft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                         cn_fft_norm norm);
/* Inverse of rfft: n real outputs (default 2*(m-1) for m inputs). */
CN_API cn_status cn_irfft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                          cn_fft_norm norm);
/* Transform of a Hermitian-symmetric signal (real output of n points,
 * default 2*(m-1)) and its inverse (half spectrum of a real signal). */
CN_API cn_status cn_hfft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                         cn_fft_norm norm);
CN_API cn_status cn_ihfft(cn_array *out, cn_array a, int64_t n, int32_t axis,
                          cn_fft_norm norm);

/* N-d transforms. s (ns lengths, may be NULL with ns 0) and axes (naxes,
 * may be NULL with naxes -1) as NumPy: with axes omitted the transform runs
 * over the last len(s) axes, or over all axes when s is omitted too; when
 * both are given ns must equal naxes. For the real transforms the last
 * listed axis is the halved one. */
#define CN_FFTN_DECL_(name)                                                    \
  CN_API cn_status name(cn_array *out, cn_array a, int32_t ns,                 \
                        const int64_t *s, int32_t naxes, const int32_t *axes,  \
                        cn_fft_norm norm)
CN_FFTN_DECL_(cn_fftn);
CN_FFTN_DECL_(cn_ifftn);
CN_FFTN_DECL_(cn_rfftn);
CN_FFTN_DECL_(cn_irfftn);
/* 2-d forms: the same with axes defaulting to (-2, -1) (axes NULL,
 * naxes -1). */
CN_FFTN_DECL_(cn_fft2);
CN_FFTN_DECL_(cn_ifft2);
CN_FFTN_DECL_(cn_rfft2);
CN_FFTN_DECL_(cn_irfft2);

/* Sample frequencies (float64): fftfreq gives [0, 1, ..., n/2-1, -n/2, ...,
 * -1] / (d*n), rfftfreq [0, ..., n/2] / (d*n). CN_ERR_VALUE for n < 1 or
 * d == 0. */
CN_API cn_status cn_fftfreq(cn_array *out, int64_t n, double d);
CN_API cn_status cn_rfftfreq(cn_array *out, int64_t n, double d);
/* Rolls the zero frequency to the centre (and back) over the given axes
 * (naxes -1 / axes NULL: all axes). A copy. */
CN_API cn_status cn_fftshift(cn_array *out, cn_array a, int32_t naxes,
                             const int32_t *axes);
CN_API cn_status cn_ifftshift(cn_array *out, cn_array a, int32_t naxes,
                              const int32_t *axes);

/* FFTW planning effort for new plans (numpy has no such knob; pyFFTW and
 * FFTW users know it): ESTIMATE (default) plans at once by heuristics;
 * MEASURE / PATIENT / EXHAUSTIVE time candidate algorithms on scratch
 * buffers (never on the caller's data) at the first transform of each
 * shape, then run faster. The default comes from CUNUMPY_FFT_PLANNER
 * (estimate|measure|patient|exhaustive) when set. CN_ERR_VALUE for another
 * value. Plans already cached keep their effort. */
typedef enum cn_fft_planner {
  CN_FFT_PLANNER_ESTIMATE = 0,
  CN_FFT_PLANNER_MEASURE = 1,
  CN_FFT_PLANNER_PATIENT = 2,
  CN_FFT_PLANNER_EXHAUSTIVE = 3,
  CN_FFT_PLANNER_FORCE_INT32_ = 0x7fffffff
} cn_fft_planner;
CN_API cn_status cn_fft_set_planner(cn_fft_planner effort);
CN_API cn_status cn_fft_get_planner(cn_fft_planner *out);

/* FFTW wisdom (what measured planning learned), double and single
 * precision, saved to / merged from a file, so a later process plans at
 * once. CN_ERR_VALUE for a NULL path, a file that cannot be opened or
 * written, or one that holds no valid wisdom (then nothing is merged). */
CN_API cn_status cn_fft_save_wisdom(const char *path);
CN_API cn_status cn_fft_load_wisdom(const char *path);

/* The CPU backend's FFTW plan cache (bounded, LRU): *plans receives how
 * many plans it holds and *capacity its bound; clear destroys every plan
 * not in use by a running transform. (The CUDA backend keeps its cuFFT
 * plans in a cache of its own.) */
CN_API cn_status cn_fft_plan_cache_info(int64_t *plans, int64_t *capacity);
CN_API cn_status cn_fft_clear_plan_cache(void);

#ifdef __cplusplus
}
#endif
#endif
