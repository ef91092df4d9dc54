/* CUDA plugin internals (libcunumpy_cuda.so): shared by its files only. */
#ifndef CUNUMPY_CUDA_INTERNAL_H
#define CUNUMPY_CUDA_INTERNAL_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "../cuda_api.h"
#include "codegen.h"

#define CN_CU_MAX_DEVICES 64

/* Core services (cn_error etc.), set by the entry point. */
extern const cn_plugin_services *cn_cu_svc;
#define cn_cu_error(...) cn_cu_svc->error(__VA_ARGS__)
#define cn_cu_log_slow(...) cn_cu_svc->log_slow(__VA_ARGS__)

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

/* The device a slot's arrays live on is current for the whole slot call:
 * kernels, library handles and scratch are per device, and the caller's
 * current device may be another. CN_CU_DEVICE_SCOPE(device, fn), first in a
 * slot entry, makes `device` current (-1: leave it) and restores the
 * caller's device when the entry returns, on every path (a cleanup
 * attribute). The launches then use the thread's current stream, which
 * must belong to that device (as with CuPy). */
typedef struct cn_cu_device_guard {
  int saved;
  bool switched;
} cn_cu_device_guard;
cn_status cn_cu_device_guard_enter(cn_cu_device_guard *g, int32_t device,
                                   const char *fn);
void cn_cu_device_guard_leave(cn_cu_device_guard *g);
/* Device of an array's buffer; of a device pointer (descriptors that carry
 * raw pointers), -1 when the runtime does not know it. */
#define CN_CU_ARRAY_DEVICE(a) ((a)->buf->device_id)
int32_t cn_cu_pointer_device(const void *p);
#define CN_CU_DEVICE_SCOPE(device, fn)                                           cn_cu_device_guard cn_cu_guard_                                                    __attribute__((cleanup(cn_cu_device_guard_leave))) = {0, false};           do {                                                                             cn_status cn_cu_guard_st_ =                                                        cn_cu_device_guard_enter(&cn_cu_guard_, (device), (fn));                   if (cn_cu_guard_st_ != CN_OK)                                                    return cn_cu_guard_st_;                                                    } while (0)

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

/* NVTX ranges (profiler.c). */
void cn_cu_profiler_api(struct cn_cuda_api *api);

/* Kernels (kernel_cache.c): the compiled kernel for a generated program, by key
 * (a short descriptor string that identifies the source). gen appends the
 * kernels' source to s and fills names; the kernel returned is names[idx]. */
typedef bool (*cn_cu_gen_fn)(cn_cu_src *s, void *ctx,
                             char names[][CN_CU_NAME_CAP]);
cn_status cn_cu_kernel(cudaKernel_t *out, const char *key, int idx,
                       cn_cu_gen_fn gen, void *ctx);
cn_status cn_cu_launch(cudaKernel_t k, long long blocks_x, unsigned blocks_y,
                       unsigned threads, void **args, const char *what);
/* Blocks of 256 threads for a grid-stride loop over n elements (capped at
 * 32 per multiprocessor of the current device). */
long long cn_cu_grid_blocks(long long n);
cn_status cn_cu_kernel_cache_info(int64_t *compiled, int64_t *disk_hits,
                                  int64_t *in_memory);
/* User kernels (kernel.c): struct cn_cuda_api's user_kernel_launch. */
cn_status cn_cu_user_kernel_launch(const char *source, const char *kernel,
                                   int32_t reduce, int64_t n, int64_t r,
                                   const int64_t *geom, int32_t ngeom,
                                   void *const *ptrs, int32_t nptrs);

/* Library handles (library_handles.c). The calling thread's cuSOLVER
 * handle for the current device, bound to cn_cu_stream(); the plugin keeps
 * it (CN_ERR_MEMORY / CN_ERR_BACKEND naming the call on failure). */
typedef struct cusolverDnContext *cusolverDnHandle_t;
cn_status cn_cu_cusolver(cusolverDnHandle_t *h);
/* CN_ERR_MEMORY for CUSOLVER_STATUS_ALLOC_FAILED, else CN_ERR_BACKEND,
 * naming what (the cuSOLVER call) and the status. */
cn_status cn_cu_cusolver_fail(int status, const char *what);

/* Backend table members (elementwise.c, reduce.c, random.c). */
cn_status cn_cu_assign(cn_array_s *dst, const cn_array_s *src);
cn_status cn_cu_fill(cn_array_s *dst, const void *value);
cn_status cn_cu_elementwise(int32_t op, cn_dtype compute, int32_t nin,
                            const cn_array_s *const *in, cn_array_s *out);
cn_status cn_cu_where(const cn_array_s *cond, const cn_array_s *x,
                      const cn_array_s *y, cn_array_s *out);
cn_status cn_cu_reduce(cn_reduce_kind kind, const cn_array_s *in,
                       uint64_t axis_mask, cn_array_s *out);
cn_status cn_cu_rng_fill(cn_array_s *out, int32_t dist, const uint32_t key[2],
                         const uint32_t counter[4], const double *params,
                         const cn_array_s *const *pa, uint64_t *used);
cn_status cn_cu_moments(const cn_array_s *in, uint64_t axis_mask, double ddof,
                        bool nan_skip, cn_array_s *mean, cn_array_s *var);
/* Indexing (index.c). */
cn_status cn_cu_index_normalize(cn_array_s *idx, int64_t extent, int32_t mode,
                                int64_t *bad);
cn_status cn_cu_take(cn_array_s *out, const cn_array_s *a,
                     const cn_array_s *idx, int32_t axis);
cn_status cn_cu_put(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                    const cn_array_s *values);
cn_status cn_cu_take_along(cn_array_s *out, const cn_array_s *a,
                           const cn_array_s *idx, int32_t axis);
cn_status cn_cu_put_along(cn_array_s *a, const cn_array_s *idx, int32_t axis,
                          const cn_array_s *values);
cn_status cn_cu_flatnonzero(cn_array_s **out, const cn_array_s *a);
cn_status cn_cu_mask_compress(cn_array_s **out, const cn_array_s *a,
                              const cn_array_s *mask);
/* The lapack slot on cuSOLVER (lapack.c). */
cn_status cn_cu_lapack(cn_lapack_args *args);

/* Library handles (library_handles.c), one per device and thread, made on
 * first use and destroyed at thread exit. cn_cu_cublas gives the current
 * device's cuBLAS handle bound to cn_cu_stream() (which also drops any
 * workspace set before); errors as cn_cu_cublas_fail. */
cn_status cn_cu_cublas(cublasHandle_t *h);
/* Gives h a workspace from the pool (cn_cu_scratch, recommended size for
 * the device) for the calls the caller issues next on the same stream;
 * the caller frees *ws with cn_cu_scratch_free after them. */
cn_status cn_cu_cublas_workspace(cublasHandle_t h, void **ws);
/* CN_ERR_MEMORY for CUBLAS_STATUS_ALLOC_FAILED, else CN_ERR_BACKEND, with
 * a message naming the call (what) and cuBLAS's status. */
cn_status cn_cu_cublas_fail(cublasStatus_t s, const char *what);

/* Batched matrix products (matmul.c): the compute table's matmul. */
cn_status cn_cu_matmul(const cn_gemm_desc *desc);

/* The sort slot (sort.c). */
cn_status cn_cu_sort(cn_array_s *vals, cn_array_s *perm, const cn_array_s *a,
                     int32_t axis);
/* The searchsorted slot (sort.c): a generated binary-search kernel. */
cn_status cn_cu_searchsorted(cn_array_s *out, const cn_array_s *a,
                             const cn_array_s *v, bool right);
/* The scatter_add slot (scatter_add.c): atomic adds of generated kernels. */
cn_status cn_cu_scatter_add(cn_array_s *out, const cn_array_s *idx,
                            const cn_array_s *w);
/* The quantile_sorted slot (sort.c): quantiles read off sorted lanes. */
cn_status cn_cu_quantile_sorted(cn_array_s *out, const cn_array_s *sorted,
                                const cn_array_s *q, int32_t method,
                                bool nan_skip);

/* The calling thread's cuSPARSE handle for the current device, bound to
 * cn_cu_stream() (library_handles.c); errors as cn_cu_cusparse_fail:
 * CN_ERR_MEMORY for CUSPARSE_STATUS_ALLOC_FAILED, else CN_ERR_BACKEND,
 * naming what and the status. */
typedef struct cusparseContext *cusparseHandle_t;
cn_status cn_cu_cusparse(cusparseHandle_t *h);
cn_status cn_cu_cusparse_fail(int status, const char *what);
/* The sparse slots on cuSPARSE (sparse.c). */
cn_status cn_cu_spmm(const cn_csr_operand *a, const cn_array_s *x,
                     cn_array_s *out);
cn_status cn_cu_spgemm(const cn_csr_operand *a, const cn_csr_operand *b,
                       cn_array_s **indptr, cn_array_s **indices,
                       cn_array_s **data);
cn_status cn_cu_sparse_transpose(const cn_csr_operand *a, cn_array_s *indptr,
                                 cn_array_s *indices, cn_array_s *data);
/* The expr slot (expr.c): an expression program as one generated kernel;
 * CN_ERR_UNSUPPORTED for a program without one (the core then runs it one
 * op at a time). */
struct cn_expr_program;
cn_status cn_cu_expr(const struct cn_expr_program *prog,
                     const cn_array_s *const *in, cn_array_s *out);

/* The fft slot on cuFFT (fft.c). */
cn_status cn_cu_fft(const cn_fft_desc *desc);

#endif
