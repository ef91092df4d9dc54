/* The rng_fill slot on CUDA: the CPU fill's counter-to-variate mapping
 * (core/philox.h, computed by core/random_samplers.h on both backends), so
 * one seed gives the same streams on either device. cuRAND is not used:
 * its Philox4x32-10 has the same rounds, so its raw 32-bit words could be
 * ours, but its uniform, normal and discrete variates map the words
 * differently; all it could supply is the round function, which the shared
 * header already has. */
#include <stdio.h>
#include <string.h>

#include "../random_samplers.h"
#include "cuda_internal.h"
#include "rng_plan.h"

typedef struct {
  int32_t dist;
  cn_dtype dt;
} rng_ctx;

static bool gen_rng(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  rng_ctx *c = ctx;
  return cn_cu_gen_rng(s, c->dist, c->dt, names);
}

cn_status cn_cu_rng_fill(cn_array_s *out, int32_t dist, const uint32_t key[2],
                         const uint32_t counter[4], const double *params,
                         const cn_array_s *const *pa, uint64_t *used) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda rng_fill");
  int dev = 0;
  CN_CU_TRY(cudaGetDevice(&dev), "cudaGetDevice");
  cn_cu_rng_plan plan;
  if (!cn_cu_rng_plan_make(&plan, dist, out->dtype, out->size,
                           cn_cu_devinfo_get(dev)->sms))
    return cn_cu_error(CN_ERR_TYPE,
                       "cuda rng_fill: no kernel for distribution %d into "
                       "%s (argument 'out')",
                       (int)dist, cn_dtype_name(out->dtype));
  *used = plan.used;
  if (out->size == 0)
    return CN_OK;
  const void *pd[3] = {NULL, NULL, NULL};
  for (int k = 0; pa && k < 3; k++)
    pd[k] = pa[k] ? pa[k]->data : NULL;
  cn_rng_src src;
  cn_rng_src_init(&src, dist, key, counter, params, pd);
  rng_ctx c = {dist, out->dtype};
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, plan.key, 0, gen_rng, &c);
  if (st != CN_OK)
    return st;
  long long nwork = plan.nwork, n = out->size;
  void *data = out->data;
  void *args[] = {&nwork, &n, &data, &src};
  char what[64];
  snprintf(what, sizeof what, "rng_fill (distribution %d, %s)", (int)dist,
           cn_dtype_name(out->dtype));
  return cn_cu_launch(k, plan.blocks, 1, CN_CU_RNG_THREADS, args, what);
}
