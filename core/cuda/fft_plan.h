/* How the CUDA plugin turns one guru-style FFT descriptor (cn_fft_desc) into
 * cuFFT calls: a pure-C planner with no CUDA dependency, so that the CPU
 * tests (tests/test_cuda_fft_plan.cpp) check every layout decision without
 * a GPU. cuFFT's advanced data layout transforms rank <= 3 dims whose
 * strides nest (each a multiple of the next, by at least its extent) over
 * one batch dim (idist / odist); everything else becomes host loops
 * (pointer offsets per call), successive steps over subsets of the
 * transformed dims, or a gather copy of the input into a packed buffer. */
#ifndef CUNUMPY_CUDA_FFT_PLAN_H
#define CUNUMPY_CUDA_FFT_PLAN_H

#include "../linalg/fft_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The buffers a step reads and writes: the descriptor's input and output,
 * or the plan's scratch (scratch_count elements of the input's type). */
typedef enum cn_cufft_buf {
  CN_CUFFT_BUF_IN,
  CN_CUFFT_BUF_OUT,
  CN_CUFFT_BUF_SCRATCH
} cn_cufft_buf;

/* One cufftMakePlanMany64 plan, executed once per host-loop index with the
 * src / dst pointers advanced by sum(index[j] * loop_is[j]) and
 * sum(index[j] * loop_os[j]) elements of the step's source and destination
 * types. kind is that of the call (C2C, or R2C / C2R on the halved dim),
 * sign its direction (C2C). Every stride and dist is positive. */
typedef struct cn_cufft_step {
  int32_t kind;
  int32_t sign;
  int32_t rank; /* 1..3 */
  int64_t n[3];
  int64_t inembed[3], istride, idist;
  int64_t onembed[3], ostride, odist;
  int64_t batch;
  int32_t src, dst; /* cn_cufft_buf */
  int32_t loop_rank;
  int64_t loop_n[CN_MAX_DIMS], loop_is[CN_MAX_DIMS], loop_os[CN_MAX_DIMS];
} cn_cufft_step;

/* The whole transform: an optional gather of the input into copy_dst (an
 * nd strided copy, element strides of either sign on the input side),
 * then the steps in order, then the descriptor's scale over out_count
 * elements (applied by the executor, not described here). */
typedef struct cn_cufft_plan {
  bool copy;
  int32_t copy_dst;     /* CN_CUFFT_BUF_OUT or CN_CUFFT_BUF_SCRATCH */
  bool copy_complex;    /* element type of the copy: complex, else real */
  int32_t copy_rank;
  int64_t copy_n[CN_MAX_DIMS], copy_is[CN_MAX_DIMS], copy_os[CN_MAX_DIMS];
  int64_t scratch_count; /* elements of the input's type; 0: no scratch */
  int32_t nsteps;
  cn_cufft_step steps[CN_MAX_DIMS];
} cn_cufft_plan;

/* Plans d (validated by the core: rank >= 1, extents >= 1, rank +
 * howmany_rank <= CN_MAX_DIMS). Output strides must be positive (the core's
 * output is a fresh C-contiguous array); input strides may be anything.
 * Returns false and sets *why to a static message when d cannot be
 * planned. Writes only *plan and *why. */
bool cn_cufft_plan_make(cn_cufft_plan *plan, const cn_fft_desc *d,
                        const char **why);

/* Number of cuFFT executions of a step (the product of its loop extents). */
int64_t cn_cufft_step_calls(const cn_cufft_step *s);

/* Key of a cached cuFFT plan: everything cufftMakePlanMany64 receives plus
 * the precision, the device and the stream it runs on. Zero-filled before
 * being written, so two keys compare with memcmp. */
typedef struct cn_cufft_key {
  int32_t device;
  int32_t kind;
  int32_t dbl;
  int32_t rank;
  uint64_t stream;
  int64_t n[3], inembed[3], onembed[3];
  int64_t istride, idist, ostride, odist, batch;
} cn_cufft_key;

/* Fills *key for step s of precision dbl on device and stream. */
void cn_cufft_key_make(cn_cufft_key *key, const cn_cufft_step *s, bool dbl,
                       int32_t device, uint64_t stream);

#ifdef __cplusplus
}
#endif
#endif
