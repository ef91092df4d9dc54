/* Handles of the CUDA math libraries, one per device and per thread:
 * library handles are not safe to share between threads that set streams
 * on them, and each is tied to the device current when it was made. They
 * are created on first use, bound to the thread's current stream
 * (cn_cu_stream) on every request, and destroyed when the thread exits
 * (a pthread key destructor). A library has a member in thread_handles,
 * a line in destroy_handles and a getter (cn_cu_cublas, cn_cu_cusolver,
 * cn_cu_cusparse). */
#include <pthread.h>
#include <stdlib.h>

#include <cusolverDn.h>
#include <cusparse.h>

#include "cuda_internal.h"

typedef struct thread_handles {
  cublasHandle_t cublas[CN_CU_MAX_DEVICES];
  cusolverDnHandle_t cusolver[CN_CU_MAX_DEVICES];
  cusparseHandle_t cusparse[CN_CU_MAX_DEVICES];
} thread_handles;

static pthread_key_t g_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;
static int g_key_error;

/* Runs at thread exit: each handle is destroyed on its own device. */
static void destroy_handles(void *p) {
  thread_handles *t = p;
  int cur = 0;
  bool have_cur = cudaGetDevice(&cur) == cudaSuccess;
  for (int d = 0; d < CN_CU_MAX_DEVICES; d++) {
    if (t->cublas[d] == NULL && t->cusolver[d] == NULL &&
        t->cusparse[d] == NULL)
      continue;
    if (cudaSetDevice(d) != cudaSuccess)
      continue;
    if (t->cublas[d] != NULL)
      (void)cublasDestroy(t->cublas[d]);
    if (t->cusolver[d] != NULL)
      (void)cusolverDnDestroy(t->cusolver[d]);
    if (t->cusparse[d] != NULL)
      (void)cusparseDestroy(t->cusparse[d]);
  }
  if (have_cur)
    (void)cudaSetDevice(cur);
  (void)cudaGetLastError();
  free(t);
}

static void make_key(void) {
  g_key_error = pthread_key_create(&g_key, destroy_handles);
}

/* The calling thread's handle table, made on first use. */
static cn_status thread_table(thread_handles **out) {
  pthread_once(&g_key_once, make_key);
  if (g_key_error != 0)
    return cn_cu_error(CN_ERR_BACKEND,
                       "cuda: pthread_key_create for library handles failed "
                       "(error %d)",
                       g_key_error);
  thread_handles *t = pthread_getspecific(g_key);
  if (t == NULL) {
    t = calloc(1, sizeof *t);
    if (t == NULL)
      return cn_cu_error(CN_ERR_MEMORY,
                         "cuda: out of host memory for library handles");
    if (pthread_setspecific(g_key, t) != 0) {
      free(t);
      return cn_cu_error(CN_ERR_MEMORY,
                         "cuda: pthread_setspecific for library handles "
                         "failed");
    }
  }
  *out = t;
  return CN_OK;
}

cn_status cn_cu_cublas_fail(cublasStatus_t s, const char *what) {
  cn_status st =
      s == CUBLAS_STATUS_ALLOC_FAILED ? CN_ERR_MEMORY : CN_ERR_BACKEND;
  return cn_cu_error(st, "cuda: %s failed: %s (%s)", what,
                     cublasGetStatusName(s), cublasGetStatusString(s));
}

/* The current device and the calling thread's handle table. */
static cn_status device_table(int *dev, thread_handles **t) {
  CN_CU_TRY(cudaGetDevice(dev), "cudaGetDevice");
  if (*dev < 0 || *dev >= CN_CU_MAX_DEVICES)
    return cn_cu_error(CN_ERR_DEVICE,
                       "cuda: device %d is beyond the %d "
                       "this plugin supports",
                       *dev, CN_CU_MAX_DEVICES);
  return thread_table(t);
}

cn_status cn_cu_cublas(cublasHandle_t *h) {
  int dev = 0;
  thread_handles *t = NULL;
  cn_status st = device_table(&dev, &t);
  if (st != CN_OK)
    return st;
  cublasStatus_t s;
  if (t->cublas[dev] == NULL) {
    cublasHandle_t made = NULL;
    if ((s = cublasCreate(&made)) != CUBLAS_STATUS_SUCCESS)
      return cn_cu_cublas_fail(s, "cublasCreate");
    t->cublas[dev] = made;
  }
  if ((s = cublasSetStream(t->cublas[dev], cn_cu_stream())) !=
      CUBLAS_STATUS_SUCCESS)
    return cn_cu_cublas_fail(s, "cublasSetStream");
  *h = t->cublas[dev];
  return CN_OK;
}

cn_status cn_cu_cublas_workspace(cublasHandle_t h, void **ws) {
  int dev = 0;
  CN_CU_TRY(cudaGetDevice(&dev), "cudaGetDevice");
  /* cuBLAS's recommended sizes: 32 MiB on Hopper and newer, else 4 MiB. */
  size_t bytes = (size_t)(cn_cu_devinfo_get(dev)->cc >= 90 ? 32 : 4) << 20;
  void *p = NULL;
  cn_status st = cn_cu_scratch(&p, bytes);
  if (st != CN_OK)
    return st;
  cublasStatus_t s = cublasSetWorkspace(h, p, bytes);
  if (s != CUBLAS_STATUS_SUCCESS) {
    cn_cu_scratch_free(p);
    return cn_cu_cublas_fail(s, "cublasSetWorkspace");
  }
  *ws = p;
  return CN_OK;
}

cn_status cn_cu_cusolver_fail(int status, const char *what) {
  return cn_cu_error(status == CUSOLVER_STATUS_ALLOC_FAILED ? CN_ERR_MEMORY
                                                            : CN_ERR_BACKEND,
                     "cuda: %s failed: cuSOLVER status %d", what, status);
}

cn_status cn_cu_cusolver(cusolverDnHandle_t *h) {
  int dev = 0;
  thread_handles *t = NULL;
  cn_status st = device_table(&dev, &t);
  if (st != CN_OK)
    return st;
  cusolverStatus_t s;
  if (t->cusolver[dev] == NULL) {
    cusolverDnHandle_t made = NULL;
    if ((s = cusolverDnCreate(&made)) != CUSOLVER_STATUS_SUCCESS)
      return cn_cu_cusolver_fail((int)s, "cusolverDnCreate");
    t->cusolver[dev] = made;
  }
  if ((s = cusolverDnSetStream(t->cusolver[dev], cn_cu_stream())) !=
      CUSOLVER_STATUS_SUCCESS)
    return cn_cu_cusolver_fail((int)s, "cusolverDnSetStream");
  *h = t->cusolver[dev];
  return CN_OK;
}

cn_status cn_cu_cusparse_fail(int status, const char *what) {
  cusparseStatus_t s = (cusparseStatus_t)status;
  return cn_cu_error(s == CUSPARSE_STATUS_ALLOC_FAILED ? CN_ERR_MEMORY
                                                       : CN_ERR_BACKEND,
                     "cuda: %s failed: %s (%s)", what, cusparseGetErrorName(s),
                     cusparseGetErrorString(s));
}

cn_status cn_cu_cusparse(cusparseHandle_t *h) {
  int dev = 0;
  thread_handles *t = NULL;
  cn_status st = device_table(&dev, &t);
  if (st != CN_OK)
    return st;
  cusparseStatus_t s;
  if (t->cusparse[dev] == NULL) {
    cusparseHandle_t made = NULL;
    if ((s = cusparseCreate(&made)) != CUSPARSE_STATUS_SUCCESS)
      return cn_cu_cusparse_fail((int)s, "cusparseCreate");
    t->cusparse[dev] = made;
  }
  if ((s = cusparseSetStream(t->cusparse[dev], cn_cu_stream())) !=
      CUSPARSE_STATUS_SUCCESS)
    return cn_cu_cusparse_fail((int)s, "cusparseSetStream");
  *h = t->cusparse[dev];
  return CN_OK;
}
