/* User kernels on CUDA (include/cunumpy/kernel.h): the core generates the
 * source (core/kernel_cuda_source.c) and the geometry; here it is compiled
 * through the kernel cache (NVRTC, in memory and on disk, the source being
 * the key; a compile error carries NVRTC's log, whose lines name the body:
 * "operation(2): error ...") and launched on the current stream. */
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

#define THREADS 256
#define MAX_ARGS 40

typedef struct {
  const char *source, *kernel;
} user_src;

static bool gen_user(cn_cu_src *s, void *ctx, char names[][CN_CU_NAME_CAP]) {
  const user_src *u = ctx;
  if (strlen(u->kernel) >= CN_CU_NAME_CAP)
    return false;
  cn_cu_src_appendf(s, "%s\n", u->source);
  snprintf(names[0], CN_CU_NAME_CAP, "%s", u->kernel);
  return !s->oom;
}

cn_status cn_cu_user_kernel_launch(const char *source, const char *kernel,
                                   int32_t reduce, int64_t n, int64_t r,
                                   const int64_t *geom, int32_t ngeom,
                                   void *const *ptrs, int32_t nptrs) {
  if (nptrs < 0 || nptrs + 3 > MAX_ARGS || ngeom <= 0)
    return cn_cu_error(CN_ERR_INTERNAL,
                       "cuda: user kernel '%s': %d pointer arguments", kernel,
                       (int)nptrs);
  if (n <= 0)
    return CN_OK;
  user_src u = {source, kernel};
  cudaKernel_t k = NULL;
  cn_status st = cn_cu_kernel(&k, source, 0, gen_user, &u);
  if (st != CN_OK)
    return st;
  void *dgeom = NULL;
  size_t gbytes = sizeof(int64_t) * (size_t)ngeom;
  st = cn_cu_scratch(&dgeom, gbytes);
  if (st != CN_OK)
    return st;
  /* Pageable source memory: the copy has read geom when it returns. */
  cudaError_t e = cudaMemcpyAsync(dgeom, geom, gbytes, cudaMemcpyHostToDevice,
                                  cn_cu_stream());
  if (e != cudaSuccess) {
    cn_cu_scratch_free(dgeom);
    return cn_cu_fail(e, "cudaMemcpyAsync (user kernel geometry)");
  }
  long long nn = (long long)n, rr = (long long)r;
  void *pv[MAX_ARGS];
  void *args[MAX_ARGS];
  int a = 0;
  args[a++] = &nn;
  if (reduce)
    args[a++] = &rr;
  args[a++] = &dgeom;
  for (int32_t i = 0; i < nptrs; i++) {
    pv[i] = ptrs[i];
    args[a++] = &pv[i];
  }
  long long blocks = reduce ? (nn < (1LL << 20) ? nn : (1LL << 20))
                            : cn_cu_grid_blocks(nn);
  st = cn_cu_launch(k, blocks, 1, THREADS, args, kernel);
  cn_cu_scratch_free(dgeom);
  return st;
}
