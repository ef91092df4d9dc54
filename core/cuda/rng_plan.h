/* Kernels and launch plans of the CUDA random fills (core/cuda/random.c):
 * which kernel serves a (distribution, dtype) pair, how many work items
 * and thread blocks a fill of n values takes, and the kernels' source.
 * Plain C with no CUDA dependency, so the NVRTC test
 * (tests/cuda/nvrtc_kernels.c, mode random) checks it without a GPU. */
#ifndef CUNUMPY_CUDA_RNG_PLAN_H
#define CUNUMPY_CUDA_RNG_PLAN_H

#include "codegen.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CN_CU_RNG_THREADS 256

/* One fill: out_kind is CN_RNG_OUT_* of core/random_samplers.h, nwork the
 * work items (= used, the counter blocks consumed), blocks the grid size
 * (each thread loops over the items past the grid). */
typedef struct cn_cu_rng_plan {
  int out_kind;
  int64_t nwork;
  uint64_t used;
  long long blocks;
  char key[32];
} cn_cu_rng_plan;

/* Plans a fill of n >= 0 values of dist into dtype dt on a device with sms
 * multiprocessors. False when the CPU fill does not produce dt for dist
 * (floating distributions: float32, float64; integer ones: int64). */
bool cn_cu_rng_plan_make(cn_cu_rng_plan *p, int32_t dist, cn_dtype dt,
                         int64_t n, int sms);

/* Appends the kernel of (dist, dt) to s; names[0] is its name. False for
 * a pair cn_cu_rng_plan_make refuses. */
bool cn_cu_gen_rng(cn_cu_src *s, int32_t dist, cn_dtype dt,
                   char names[][CN_CU_NAME_CAP]);

#ifdef __cplusplus
}
#endif
#endif
