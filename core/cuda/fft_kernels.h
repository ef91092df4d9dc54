/* The kernels around the cuFFT calls of the fft slot (core/cuda/fft.c): a
 * gather of a strided input into a packed buffer, the normalisation scale,
 * and the zeroing of the imaginary parts a C2R ignores by definition. Generated text for NVRTC, with no CUDA dependency, so the NVRTC
 * test compiles them without a GPU (tests/cuda/nvrtc_kernels.c, mode fft). */
#ifndef CUNUMPY_CUDA_FFT_KERNELS_H
#define CUNUMPY_CUDA_FFT_KERNELS_H

#include "codegen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Appends the kernels for precision cdt (complex64 or complex128) to s:
 * names[0] scale (long long n, real *x, real s): x[i] *= s for i < n;
 * names[1] and names[2] gather (long long n, const cn_geom g, char *out,
 * const char *in) of complex and of real elements: out at byte offsets
 * g.st[0], in at g.st[1]; names[3] realdc (long long n, const cn_geom g,
 * char *x, long long nyq): the imaginary part of the complex element at
 * byte offset g.st[0] (and at that + nyq when nyq > 0) set to 0. False for
 * another dtype. */
bool cn_cu_gen_fft(cn_cu_src *s, cn_dtype cdt, char names[][CN_CU_NAME_CAP]);

#ifdef __cplusplus
}
#endif
#endif
