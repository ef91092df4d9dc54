/* Kernels and launch plans of the CUDA random fills: each kernel runs the
 * work items of core/random_samplers.h (embedded in the device prelude),
 * with the distribution and output kind as literals so NVRTC folds their
 * switches away. */
#include "rng_plan.h"

#include <stdio.h>

#include "../random_samplers.h"

static int out_kind(int32_t dist, cn_dtype dt) {
  if (dist < CN_RNG_RANDOM || dist > CN_RNG_GEOMETRIC)
    return -1;
  if (cn_rng_is_int(dist))
    return dt == CN_INT64 ? CN_RNG_OUT_I64 : -1;
  return dt == CN_FLOAT32 ? CN_RNG_OUT_F32
         : dt == CN_FLOAT64 ? CN_RNG_OUT_F64
                            : -1;
}

bool cn_cu_rng_plan_make(cn_cu_rng_plan *p, int32_t dist, cn_dtype dt,
                         int64_t n, int sms) {
  int kind = out_kind(dist, dt);
  if (kind < 0 || n < 0)
    return false;
  p->out_kind = kind;
  p->used = cn_rng_blocks_used(dist, kind == CN_RNG_OUT_F32, n);
  p->nwork = (int64_t)p->used;
  /* Enough blocks to fill every multiprocessor several times over; the
   * rejection samplers' uneven items balance across the grid stride. */
  long long cap = (long long)(sms > 0 ? sms : 1) * 32;
  long long b = (p->nwork + CN_CU_RNG_THREADS - 1) / CN_CU_RNG_THREADS;
  p->blocks = b < cap ? b : cap;
  snprintf(p->key, sizeof p->key, "rng:%d:%s", (int)dist, cn_cu_tag(dt));
  return true;
}

bool cn_cu_gen_rng(cn_cu_src *s, int32_t dist, cn_dtype dt,
                   char names[][CN_CU_NAME_CAP]) {
  int kind = out_kind(dist, dt);
  if (kind < 0)
    return false;
  snprintf(names[0], CN_CU_NAME_CAP, "cn_rng_d%d_%s", (int)dist,
           cn_cu_tag(dt));
  cn_cu_src_appendf(
      s,
      "extern \"C\" __global__ void __launch_bounds__(%d) %s(long long nwork,"
      " long long n, void *out, cn_rng_src a) {\n"
      "  long long stride = (long long)gridDim.x * blockDim.x;\n"
      "  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " t < nwork; t += stride)\n"
      "    cn_rng_work(%d, %d, t, n, out, &a);\n}\n",
      CN_CU_RNG_THREADS, names[0], (int)dist, kind);
  return !s->oom;
}
