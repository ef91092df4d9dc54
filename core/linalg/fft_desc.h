/* The FFT descriptor passed from the core's FFT entry points (core/fft.c) to
 * a backend's fft slot. Apart from descriptors.h so that it depends only on
 * the public headers: the CUDA plugin's cuFFT planner and its C++ test
 * include it without the core's internal header. */
#ifndef CUNUMPY_LINALG_FFT_DESC_H
#define CUNUMPY_LINALG_FFT_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "cunumpy/array.h"

typedef struct cn_fft_desc cn_fft_desc;

/* FFT kinds. R2C: real input (logical sizes n), half-spectrum output with
 * n[rank-1]/2+1 entries on the last transformed dim. C2R: the reverse; the
 * input may be overwritten. */
typedef enum cn_fft_kind { CN_FFT_C2C, CN_FFT_R2C, CN_FFT_C2R } cn_fft_kind;

/* A guru-style transform: `rank` transformed dims (n, input stride is,
 * output stride os) repeated over `howmany_rank` loop dims (hn, his, hos).
 * Strides are in elements of the input / output element type (real or
 * complex), any sign. dtype is complex64 or complex128 (the precision).
 * The output is the contiguous block of out_count elements at out, which is
 * multiplied by scale when scale != 1. in == out means in place (C2C). */
struct cn_fft_desc {
  cn_fft_kind kind;
  cn_dtype dtype;
  int32_t sign; /* -1 forward, +1 backward (C2C) */
  int32_t rank;
  int64_t n[CN_MAX_DIMS], is[CN_MAX_DIMS], os[CN_MAX_DIMS];
  int32_t howmany_rank;
  int64_t hn[CN_MAX_DIMS], his[CN_MAX_DIMS], hos[CN_MAX_DIMS];
  void *in;
  void *out;
  int64_t out_count;
  double scale;
};

#endif
