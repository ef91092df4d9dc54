/* The CUDA plugin's entry point, backend tables, device probe and device
 * selection, and its extras (the device/stream/event/pool API of
 * core/cuda_api.h, found through get_proc("cuda_api")). Links the CUDA
 * runtime statically (cuBLAS and NVRTC dynamically) and never the driver
 * library (libcuda.so.1 is opened by the runtime when present), so that dlopen
 * of this module succeeds on machines without a driver and the probe can say
 * why CUDA is unavailable. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cufft.h>
#include <cusolver_common.h>

#include "cuda_internal.h"
#include "nvrtc_compile.h"


static __thread const char *tl_last_launch;

void cn_cu_note_launch(const char *what) { tl_last_launch = what; }

static bool is_async_kernel_error(cudaError_t e) {
  switch (e) {
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchFailure:
  case cudaErrorAssert:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorLaunchTimeout:
    return true;
  default:
    return false;
  }
}

cn_status cn_cu_fail(cudaError_t e, const char *what) {
  cn_status st =
      e == cudaErrorMemoryAllocation ? CN_ERR_MEMORY : CN_ERR_BACKEND;
  (void)cudaGetLastError(); /* clear a non-sticky error for the next call */
  const char *last = tl_last_launch;
  if (is_async_kernel_error(e) && last != NULL)
    return cn_cu_error(st,
                       "cuda: %s failed: %s (%s); the failing work was "
                       "issued earlier, the last operation this thread "
                       "launched was '%s'",
                       what, cudaGetErrorName(e), cudaGetErrorString(e), last);
  return cn_cu_error(st, "cuda: %s failed: %s (%s)", what, cudaGetErrorName(e),
                     cudaGetErrorString(e));
}

/* ---- devices ----------------------------------------------------------- */

static pthread_once_t g_dev_once = PTHREAD_ONCE_INIT;
static int32_t g_ndev;
static cn_cu_devinfo g_devinfo[CN_CU_MAX_DEVICES];

static void dev_init(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    n = 0;
  }
  if (n > CN_CU_MAX_DEVICES)
    n = CN_CU_MAX_DEVICES;
  for (int d = 0; d < n; d++) {
    int major = 0, minor = 0, sms = 0, mt = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d);
    cudaDeviceGetAttribute(&mt, cudaDevAttrMaxThreadsPerMultiProcessor, d);
    struct cudaDeviceProp prop;
    size_t total = 0;
    if (cudaGetDeviceProperties(&prop, d) == cudaSuccess)
      total = prop.totalGlobalMem;
    g_devinfo[d] = (cn_cu_devinfo){.cc = major * 10 + minor,
                                   .sms = sms > 0 ? sms : 1,
                                   .max_threads_per_sm = mt > 0 ? mt : 1024,
                                   .total_mem = total};
  }
  (void)cudaGetLastError();
  g_ndev = n;
}

int32_t cn_cu_device_count(void) {
  pthread_once(&g_dev_once, dev_init);
  return g_ndev;
}

const cn_cu_devinfo *cn_cu_devinfo_get(int32_t dev) {
  pthread_once(&g_dev_once, dev_init);
  return (dev >= 0 && dev < g_ndev) ? &g_devinfo[dev] : &g_devinfo[0];
}

cn_status cn_cu_resolve_device(int32_t *dev, int32_t device, const char *fn) {
  int32_t n = cn_cu_device_count();
  if (device == -1) {
    int d = 0;
    CN_CU_TRY(cudaGetDevice(&d), "cudaGetDevice");
    *dev = d;
    return CN_OK;
  }
  if (device < 0 || device >= n)
    return cn_cu_error(CN_ERR_DEVICE,
                       "%s: argument 'device' is %d, but there are %d CUDA "
                       "devices (valid: 0..%d, or -1 for the current one)",
                       fn, (int)device, (int)n, (int)n - 1);
  *dev = device;
  return CN_OK;
}

cn_status cn_cu_device_guard_enter(cn_cu_device_guard *g, int32_t device,
                                   const char *fn) {
  g->switched = false;
  if (device < 0)
    return CN_OK;
  int cur = 0;
  cudaError_t e = cudaGetDevice(&cur);
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaGetDevice");
  if (cur == device)
    return CN_OK; /* the usual case: nothing to switch or restore */
  e = cudaSetDevice(device);
  if (e != cudaSuccess)
    return cn_cu_error(CN_ERR_BACKEND,
                       "%s: cudaSetDevice(%d) for the arrays' device failed: "
                       "%s",
                       fn, (int)device, cudaGetErrorString(e));
  g->saved = cur;
  g->switched = true;
  return CN_OK;
}

void cn_cu_device_guard_leave(cn_cu_device_guard *g) {
  if (g->switched)
    (void)cudaSetDevice(g->saved); /* selecting a device known to work */
  g->switched = false;
}

int32_t cn_cu_pointer_device(const void *p) {
  struct cudaPointerAttributes at;
  if (p == NULL || cudaPointerGetAttributes(&at, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged
             ? (int32_t)at.device
             : -1;
}

static cn_status probe(char *reason, size_t cap) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    (void)cudaGetLastError();
    if (e == cudaErrorInsufficientDriver && drv == 0)
      snprintf(reason, cap,
               "no NVIDIA driver is installed (cudaGetDeviceCount: %s, error "
               "%d: %s); the CUDA runtime %d.%d needs libcuda.so.1 from a "
               "driver of that version or newer",
               cudaGetErrorName(e), (int)e, cudaGetErrorString(e), rt / 1000,
               (rt % 1000) / 10);
    else if (e == cudaErrorInsufficientDriver)
      snprintf(reason, cap,
               "the NVIDIA driver supports CUDA %d.%d, older than the CUDA "
               "runtime %d.%d this plugin was built with "
               "(cudaGetDeviceCount: %s, error %d)",
               drv / 1000, (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10,
               cudaGetErrorName(e), (int)e);
    else
      snprintf(reason, cap, "cudaGetDeviceCount failed: %s (error %d: %s)",
               cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
    return CN_ERR_DEVICE;
  }
  if (n <= 0) {
    snprintf(reason, cap, "the NVIDIA driver reports no CUDA device");
    return CN_ERR_DEVICE;
  }
  if (reason && cap)
    reason[0] = 0;
  return CN_OK;
}

static int32_t device_count(void) { return cn_cu_device_count(); }

static int32_t current_device(void) {
  int d = 0;
  if (cudaGetDevice(&d) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return d;
}

static cn_status get_device(int32_t *out) {
  *out = current_device();
  return CN_OK;
}

static cn_status set_device(int32_t device) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, "cn_cuda_set_device");
  if (st != CN_OK)
    return st;
  CN_CU_TRY(cudaSetDevice(d), "cudaSetDevice");
  return CN_OK;
}

static cn_status device_properties(char *name, int64_t name_cap,
                                   int64_t *total_memory, int32_t *cc_major,
                                   int32_t *cc_minor, int32_t *multiprocessors,
                                   int32_t device) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, "cn_cuda_device_properties");
  if (st != CN_OK)
    return st;
  struct cudaDeviceProp prop;
  CN_CU_TRY(cudaGetDeviceProperties(&prop, d), "cudaGetDeviceProperties");
  if (name != NULL)
    snprintf(name, (size_t)name_cap, "%s", prop.name);
  if (total_memory)
    *total_memory = (int64_t)prop.totalGlobalMem;
  if (cc_major)
    *cc_major = prop.major;
  if (cc_minor)
    *cc_minor = prop.minor;
  if (multiprocessors)
    *multiprocessors = prop.multiProcessorCount;
  return CN_OK;
}

/* The core's attribute table names the runtime's enumerators: a renamed
 * or renumbered one fails to compile here. */
#define CN_DEVICE_ATTRIBUTE(name, number)                                      \
  _Static_assert(cudaDevAttr##name == (number),                                \
                 "cudaDevAttr" #name " is not " #number);
#include "../cuda_device_attributes.def"
#undef CN_DEVICE_ATTRIBUTE

static cn_status device_attribute(int32_t *out, int32_t number,
                                  const char *name, int32_t device) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, "cn_cuda_device_attribute");
  if (st != CN_OK)
    return st;
  int v = 0;
  cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)number, d);
  if (e == cudaErrorInvalidValue) {
    (void)cudaGetLastError();
    return cn_cu_error(CN_ERR_UNSUPPORTED,
                       "cn_cuda_device_attribute: the driver does not report "
                       "attribute %s (%d) of device %d",
                       name, (int)number, (int)d);
  }
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaDeviceGetAttribute");
  *out = v;
  return CN_OK;
}

static cn_status device_uuid(int64_t *uuid_hi, int64_t *uuid_lo, int64_t *luid,
                             int32_t *luid_node_mask, int32_t device) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, "cn_cuda_device_uuid");
  if (st != CN_OK)
    return st;
  struct cudaDeviceProp prop;
  CN_CU_TRY(cudaGetDeviceProperties(&prop, d), "cudaGetDeviceProperties");
  uint64_t hi = 0, lo = 0, lu = 0;
  for (int i = 0; i < 8; i++) {
    hi = hi << 8 | (unsigned char)prop.uuid.bytes[i];
    lo = lo << 8 | (unsigned char)prop.uuid.bytes[8 + i];
    lu |= (uint64_t)(unsigned char)prop.luid[i] << (8 * i);
  }
  if (uuid_hi)
    *uuid_hi = (int64_t)hi;
  if (uuid_lo)
    *uuid_lo = (int64_t)lo;
  if (luid)
    *luid = (int64_t)lu;
  if (luid_node_mask)
    *luid_node_mask = (int32_t)prop.luidDeviceNodeMask;
  return CN_OK;
}

static cn_status memory_info(int64_t *free_bytes, int64_t *total_bytes,
                             int32_t device) {
  int32_t d = 0;
  cn_status st = cn_cu_resolve_device(&d, device, "cn_cuda_memory_info");
  if (st != CN_OK)
    return st;
  int cur = 0;
  CN_CU_TRY(cudaGetDevice(&cur), "cudaGetDevice");
  if (cur != d)
    CN_CU_TRY(cudaSetDevice(d), "cudaSetDevice");
  size_t f = 0, t = 0;
  cudaError_t e = cudaMemGetInfo(&f, &t);
  if (cur != d)
    cudaSetDevice(cur);
  if (e != cudaSuccess)
    return cn_cu_fail(e, "cudaMemGetInfo");
  if (free_bytes)
    *free_bytes = (int64_t)f;
  if (total_bytes)
    *total_bytes = (int64_t)t;
  return CN_OK;
}

static cn_status device_synchronize(void) {
  CN_CU_TRY(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  return CN_OK;
}

static cn_status synchronize_all(void) {
  int cur = 0;
  CN_CU_TRY(cudaGetDevice(&cur), "cudaGetDevice");
  cn_status st = CN_OK;
  for (int d = 0; d < cn_cu_device_count() && st == CN_OK; d++) {
    cudaError_t e = cudaSetDevice(d);
    if (e == cudaSuccess)
      e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
      st = cn_cu_fail(e, "cudaDeviceSynchronize (all devices)");
  }
  cudaSetDevice(cur);
  return st;
}

static struct cn_cuda_api g_api;

const void *cn_cu_raw_api(void); /* kernel_raw.c */

static const void *get_proc(const char *name) {
  if (strcmp(name, "cuda_api") == 0)
    return &g_api;
  if (strcmp(name, "cuda_raw_api") == 0)
    return cn_cu_raw_api();
  return NULL;
}

static const cn_backend_device g_device = {
    .probe = probe,
    .device_count = device_count,
    .current_device = current_device,
    .alloc = cn_cu_alloc,
    .free = cn_cu_free,
    .copy_to_host = cn_cu_copy_to_host,
    .copy_from_host = cn_cu_copy_from_host,
    .get_proc = get_proc,
};

/* The kernels this plugin has. A slot left empty makes the core report
 * that operation unsupported on CUDA (cn_backend_supports says which). */
static const cn_backend_compute g_compute = {
    .assign = cn_cu_assign,
    .fill = cn_cu_fill,
    .elementwise = cn_cu_elementwise,
    .where = cn_cu_where,
    .reduce = cn_cu_reduce,
    .moments = cn_cu_moments,
    .rng_fill = cn_cu_rng_fill,
    .take = cn_cu_take,
    .put = cn_cu_put,
    .take_along = cn_cu_take_along,
    .put_along = cn_cu_put_along,
    .flatnonzero = cn_cu_flatnonzero,
    .mask_compress = cn_cu_mask_compress,
    .index_normalize = cn_cu_index_normalize,
    .lapack = cn_cu_lapack,
    .matmul = cn_cu_matmul,
    .sort = cn_cu_sort,
    .searchsorted = cn_cu_searchsorted,
    .quantile_sorted = cn_cu_quantile_sorted,
    .fft = cn_cu_fft,
    .scatter_add = cn_cu_scatter_add,
    .spmm = cn_cu_spmm,
    .spgemm = cn_cu_spgemm,
    .sparse_transpose = cn_cu_sparse_transpose,
    .expr = cn_cu_expr,
};

static const cn_backend g_backend = {
    .abi_version = CUNUMPY_ABI_VERSION,
    .record_size = sizeof(cn_backend),
    .device_size = sizeof(cn_backend_device),
    .compute_size = sizeof(cn_backend_compute),
    .name = "cuda",
    .device_type = CN_DEVICE_CUDA,
    .device = &g_device,
    .compute = &g_compute,
};

/* cn_plugin_versions_fn (backend_iface.h). None of these queries needs a
 * device or a driver (a driver version 0 means none is installed). */
CN_API void cn_cuda_plugin_versions(char *buf, size_t cap);
void cn_cuda_plugin_versions(char *buf, size_t cap) {
  int rt = 0, drv = 0, bmaj = 0, bmin = 0, bpat = 0, fft = 0, sol = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  (void)cudaGetLastError();
  cublasGetProperty(MAJOR_VERSION, &bmaj);
  cublasGetProperty(MINOR_VERSION, &bmin);
  cublasGetProperty(PATCH_LEVEL, &bpat);
  cufftGetVersion(&fft);
  cusolverGetVersion(&sol);
  int nv = cn_cu_nvrtc_version();
  char driver[64];
  if (drv > 0)
    snprintf(driver, sizeof driver, "%d.%d", drv / 1000, (drv % 1000) / 10);
  else
    snprintf(driver, sizeof driver, "none");
  snprintf(buf, cap,
           "CUDA runtime: %d.%d\nCUDA driver: %s\ncuBLAS: %d.%d.%d\n"
           "cuFFT: %d.%d.%d\ncuSOLVER: %d.%d.%d\nNVRTC: %d.%d\n",
           rt / 1000, (rt % 1000) / 10, driver, bmaj, bmin, bpat, fft / 1000,
           (fft % 1000) / 100, fft % 100, sol / 1000, (sol % 1000) / 100,
           sol % 100, nv / 100, nv % 100);
}

CN_API const cn_backend *cn_cuda_plugin_entry(uint32_t core_abi_version);
const cn_backend *cn_cuda_plugin_entry(uint32_t core_abi_version) {
  if (core_abi_version != CUNUMPY_ABI_VERSION)
    return NULL;
  const cn_plugin_services *svc = cn__plugin_services();
  if (svc == NULL || svc->size < sizeof(cn_plugin_services))
    return NULL;
  cn_cu_svc = svc;
  g_api = (struct cn_cuda_api){
      .size = sizeof(struct cn_cuda_api),
      .get_device = get_device,
      .set_device = set_device,
      .device_properties = device_properties,
      .memory_info = memory_info,
      .device_attribute = device_attribute,
      .device_uuid = device_uuid,
      .device_synchronize = device_synchronize,
      .synchronize_all = synchronize_all,
      .kernel_cache_info = cn_cu_kernel_cache_info,
      .user_kernel_launch = cn_cu_user_kernel_launch,
  };
  cn_cu_memory_api(&g_api);
  cn_cu_stream_api(&g_api);
  cn_cu_profiler_api(&g_api);
  return &g_backend;
}
