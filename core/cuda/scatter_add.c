/* The scatter_add slot on the GPU: the generated kernels of
 * scatter_add_codegen.c on the thread's stream. Counts go through shared
 * memory per block when the bins are few and the blocks' flushes are cheap
 * next to the indices (m * blocks <= n), else straight to global memory.
 * The order of the float additions follows the atomics (as CuPy's
 * bincount); counts are exact. */
#include <stdio.h>

#include "cuda_internal.h"

static bool gen_scatter(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  return cn_cu_gen_scatter_add(s, *(cn_dtype *)ctx, names);
}

cn_status cn_cu_scatter_add(cn_array_s *out, const cn_array_s *idx,
                            const cn_array_s *w) {
  CN_CU_DEVICE_SCOPE(CN_CU_ARRAY_DEVICE(out), "cuda scatter_add");
  long long n = idx->size, m = out->size;
  if (n == 0 || m == 0)
    return CN_OK;
  cn_dtype dt = w ? w->dtype : CN_INT64;
  long long blocks = cn_cu_grid_blocks(n);
  int which = 0;
  if (!w && m <= CN_CU_SCATTER_SHARED_BINS && m * blocks <= n)
    which = 1;
  char key[32];
  snprintf(key, sizeof key, "scatter_add:%s", cn_cu_tag(dt));
  cudaKernel_t k;
  cn_status st = cn_cu_kernel(&k, key, which, gen_scatter, &dt);
  if (st != CN_OK)
    return st;
  const void *id = idx->data;
  void *od = out->data;
  if (!w) {
    void *args[] = {(void *)&id, &n, &od, &m};
    return cn_cu_launch(k, blocks, 1, CN_CU_SCATTER_THREADS, args,
                        "scatter_add (counts)");
  }
  const void *wd = w->data;
  void *args[] = {(void *)&id, &n, (void *)&wd, &od, &m};
  return cn_cu_launch(k, blocks, 1, CN_CU_SCATTER_THREADS, args,
                      "scatter_add (weights)");
}
