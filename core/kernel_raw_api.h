/* The CUDA plugin's raw-module API: what get_proc("cuda_raw_api") of its
 * device table returns (core/cuda/kernel_raw.c), called by
 * core/kernel_raw.c. The compile member works without a device (NVRTC
 * only); the others need one. Every member reports errors through the
 * core's cn_error. Not installed. */
#ifndef CUNUMPY_KERNEL_RAW_API_H
#define CUNUMPY_KERNEL_RAW_API_H

#include <stddef.h>
#include <stdint.h>

#include "cunumpy/kernel.h"

typedef struct cn_cuda_raw_api {
  uint32_t size; /* sizeof(cn_cuda_raw_api) the plugin was built with */
  /* Compiles source for arch (0: the current device) through the memory
   * and disk caches. *image (malloc) gets the code, *is_ptx its kind,
   * *arch_used the architecture, *lowered (malloc, nnames malloc'd
   * strings) the lowered names of names[]. */
  cn_status (*compile)(uint8_t **image, size_t *size, int32_t *is_ptx,
                       int32_t *arch_used, char ***lowered, const char *source,
                       const char *source_name, int32_t nopts,
                       const char *const *opts, int32_t nnames,
                       const char *const *names, int32_t arch);
  /* Loads an image (PTX, CUBIN, fatbin) as a library. */
  cn_status (*load)(void **lib, const void *image, size_t size);
  void (*unload)(void *lib);
  /* CN_ERR_VALUE when the library has no kernel called name. */
  cn_status (*get_kernel)(void **kernel, void *lib, const char *name);
  /* which: index in the attribute names of cn_cuda_function_attribute. */
  cn_status (*attribute)(int64_t *out, void *kernel, int32_t which);
  /* args: CUDA kernel parameters (pointers to each argument's bytes). */
  cn_status (*launch)(void *kernel, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t shared_mem,
                      cn_stream stream, int32_t cooperative, void **args);
} cn_cuda_raw_api;

#endif
