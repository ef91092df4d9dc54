/* CUDA plugin internals (libcunumpy_cuda.so): shared by its files only. */
#ifndef CUNUMPY_CUDA_INTERNAL_H
#define CUNUMPY_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#include "../cuda_api.h"
#include "codegen.h"

#define CN_CU_MAX_DEVICES 64

/* Core services (cn_error etc.), set by the entry point. */
extern const cn_plugin_services *cn_cu_svc;
#define cn_cu_error(...) cn_cu_svc->error(__VA_ARGS__)

/* CN_ERR_BACKEND (CN_ERR_MEMORY for allocation failures) naming what failed
 * and the CUDA error; for errors from earlier asynchronous work it names
 * the last operation this thread launched. */
cn_status cn_cu_fail(cudaError_t e, const char *what);
#define CN_CU_TRY(call, what)                                                  \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (CN_UNLIKELY(e_ != cudaSuccess))                                        \
      return cn_cu_fail(e_, what);                                             \
  } while (0)
/* Records the name of the operation being launched (for cn_cu_fail). */
void cn_cu_note_launch(const char *what);

/* Devices (plugin.c). */
int32_t cn_cu_device_count(void);
/* Resolves -1 to the current device; CN_ERR_DEVICE for a bad ordinal. */
cn_status cn_cu_resolve_device(int32_t *dev, int32_t device, const char *fn);
/* Properties cached per device. */
typedef struct cn_cu_devinfo {
  int cc; /* major * 10 + minor */
  int sms;
  int max_threads_per_sm;
  size_t total_mem;
} cn_cu_devinfo;
const cn_cu_devinfo *cn_cu_devinfo_get(int32_t dev);

/* Streams (stream.c): the calling thread's current cudaStream_t. */
cudaStream_t cn_cu_stream(void);
void cn_cu_stream_api(struct cn_cuda_api *api);

/* Memory (memory.c). */
cn_status cn_cu_alloc(int32_t device, size_t nbytes, void **ptr);
void cn_cu_free(int32_t device, void *ptr, size_t nbytes);
cn_status cn_cu_copy_to_host(void *dst, const void *src, size_t nbytes);
cn_status cn_cu_copy_from_host(void *dst, const void *src, size_t nbytes);
/* Scratch device memory on the current stream (pool, outside the limit's
 * accounting of arrays but inside the pool). */
cn_status cn_cu_scratch(void **ptr, size_t nbytes);
void cn_cu_scratch_free(void *ptr);
void cn_cu_memory_api(struct cn_cuda_api *api);

/* Kernels (kernel_cache.c): the compiled kernel for a generated program, by key
 * (a short descriptor string that identifies the source). gen appends the
 * kernels' source to s and fills names; the kernel returned is names[idx]. */
typedef bool (*cn_cu_gen_fn)(cn_cu_src *s, void *ctx,
                             char names[][CN_CU_NAME_CAP]);
cn_status cn_cu_kernel(cudaKernel_t *out, const char *key, int idx,
                       cn_cu_gen_fn gen, void *ctx);
cn_status cn_cu_launch(cudaKernel_t k, long long blocks_x, unsigned blocks_y,
                       unsigned threads, void **args, const char *what);
cn_status cn_cu_kernel_cache_info(int64_t *compiled, int64_t *disk_hits,
                                  int64_t *in_memory);

/* Backend table members (elementwise.c, reduce.c). */
cn_status cn_cu_assign(cn_array_s *dst, const cn_array_s *src);
cn_status cn_cu_fill(cn_array_s *dst, const void *value);
cn_status cn_cu_elementwise(int32_t op, cn_dtype compute, int32_t nin,
                            const cn_array_s *const *in, cn_array_s *out);
cn_status cn_cu_where(const cn_array_s *cond, const cn_array_s *x,
                      const cn_array_s *y, cn_array_s *out);
cn_status cn_cu_reduce(cn_reduce_kind kind, const cn_array_s *in,
                       uint64_t axis_mask, cn_array_s *out);
cn_status cn_cu_moments(const cn_array_s *in, uint64_t axis_mask, double ddof,
                        bool nan_skip, cn_array_s *mean, cn_array_s *var);
/* The fft slot on cuFFT (fft.c). */
cn_status cn_cu_fft(const cn_fft_desc *desc);

#endif
