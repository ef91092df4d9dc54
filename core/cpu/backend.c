/* The CPU backend: its device table (host memory, one device) and its
 * compute table. Domains fill their compute slots through their
 * cn_cpu_*_fill functions, called once here. */
#include <fftw3.h>
#include <omp.h>
#include <pthread.h>
#include <sleef.h>
#include <stdio.h>

#include "cpu.h"
#include "linalg/blas.h"

void cn_cpu_library_versions(char *buf, size_t cap) {
  lapack_int major = 0, minor = 0, patch = 0;
  CN_LAPACKE(ilaver)(&major, &minor, &patch);
  /* SLEEF has no run-time version query: the headers' is the one built
   * against (the soname pins its ABI). */
  snprintf(buf, cap,
           "OpenBLAS: %s\nOpenBLAS threads: %d\nLAPACK: %d.%d.%d\n"
           "FFTW: %s\nSLEEF: %d.%d.%d (headers)\nOpenMP: %d (max threads "
           "%d, processors %d)\n",
           CN_OPENBLAS(get_config)(), CN_OPENBLAS(get_num_threads)(),
           (int)major, (int)minor, (int)patch, fftw_version,
           SLEEF_VERSION_MAJOR, SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL,
           _OPENMP, omp_get_max_threads(), omp_get_num_procs());
}

static cn_status cpu_probe(char *reason, size_t cap) {
  (void)reason;
  (void)cap;
  return CN_OK;
}
static int32_t cpu_device_count(void) { return 1; }
static int32_t cpu_current_device(void) { return 0; }

static const cn_backend_device g_cpu_device = {
    .probe = cpu_probe,
    .device_count = cpu_device_count,
    .current_device = cpu_current_device,
    .alloc = cn_cpu_alloc,
    .free = cn_cpu_free,
    .copy_to_host = NULL, /* host memory needs no transfer */
    .copy_from_host = NULL,
    .get_proc = NULL, /* no extras */
};

static cn_backend_compute g_cpu_compute = {
    .assign = cn_cpu_assign,
    .fill = cn_cpu_fill,
    .elementwise = cn_cpu_elementwise,
    .where = cn_cpu_where,
    .reduce = cn_cpu_reduce,
    .moments = cn_cpu_moments,
};

static const cn_backend g_cpu = {
    .abi_version = CUNUMPY_ABI_VERSION,
    .record_size = sizeof(cn_backend),
    .device_size = sizeof(cn_backend_device),
    .compute_size = sizeof(cn_backend_compute),
    .name = "cpu",
    .device_type = CN_DEVICE_CPU,
    .device = &g_cpu_device,
    .compute = &g_cpu_compute,
};

static pthread_once_t g_cpu_once = PTHREAD_ONCE_INIT;

static void cpu_init(void) {
  cn_cpu_threads_prewarm();
  cn_cpu_index_fill(&g_cpu_compute);
  cn_cpu_sort_fill(&g_cpu_compute);
  cn_cpu_random_fill(&g_cpu_compute);
  cn_cpu_linalg_fill(&g_cpu_compute);
  cn_cpu_fft_fill(&g_cpu_compute);
  cn_cpu_scatter_add_fill(&g_cpu_compute);
  cn_cpu_ufunc_methods_fill(&g_cpu_compute);
  cn_cpu_sparse_fill(&g_cpu_compute);
  cn_cpu_expr_fill(&g_cpu_compute);
}

const cn_backend *cn_cpu_backend(void) {
  pthread_once(&g_cpu_once, cpu_init);
  return &g_cpu;
}
