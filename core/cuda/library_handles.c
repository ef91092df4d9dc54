/* Handles of the CUDA math libraries, one per device and thread (a handle
 * is not safe to share between threads), created on first use, bound to
 * the thread's current stream before every use and destroyed when the
 * thread exits. */
#include <pthread.h>

#include <cusolverDn.h>

#include "cuda_internal.h"

/* ---- cuSOLVER ------------------------------------------------------------ */

static __thread cusolverDnHandle_t tl_cusolver[CN_CU_MAX_DEVICES];
static pthread_key_t g_cusolver_key;
static pthread_once_t g_cusolver_once = PTHREAD_ONCE_INIT;

static void cusolver_thread_exit(void *p) {
  cusolverDnHandle_t *hs = p;
  for (int d = 0; d < CN_CU_MAX_DEVICES; d++)
    if (hs[d] != NULL)
      cusolverDnDestroy(hs[d]);
}
static void cusolver_key_init(void) {
  pthread_key_create(&g_cusolver_key, cusolver_thread_exit);
}

cn_status cn_cu_cusolver_fail(int status, const char *what) {
  return cn_cu_error(status == CUSOLVER_STATUS_ALLOC_FAILED ? CN_ERR_MEMORY
                                                            : CN_ERR_BACKEND,
                     "cuda: %s failed: cuSOLVER status %d", what, status);
}

cn_status cn_cu_cusolver(cusolverDnHandle_t *h) {
  int d = 0;
  CN_CU_TRY(cudaGetDevice(&d), "cudaGetDevice");
  if (d < 0 || d >= CN_CU_MAX_DEVICES)
    return cn_cu_error(CN_ERR_DEVICE, "cuda: device %d out of range", d);
  if (tl_cusolver[d] == NULL) {
    pthread_once(&g_cusolver_once, cusolver_key_init);
    cusolverStatus_t s = cusolverDnCreate(&tl_cusolver[d]);
    if (s != CUSOLVER_STATUS_SUCCESS) {
      tl_cusolver[d] = NULL;
      return cn_cu_cusolver_fail((int)s, "cusolverDnCreate");
    }
    pthread_setspecific(g_cusolver_key, tl_cusolver);
  }
  cusolverStatus_t s = cusolverDnSetStream(tl_cusolver[d], cn_cu_stream());
  if (s != CUSOLVER_STATUS_SUCCESS)
    return cn_cu_cusolver_fail((int)s, "cusolverDnSetStream");
  *h = tl_cusolver[d];
  return CN_OK;
}
