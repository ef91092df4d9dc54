/* The CPU backend's table. Domains that add members to cn_backend_ops fill
 * them through their cn_cpu_*_fill functions, called once here. */
#include <pthread.h>

#include "cpu.h"

static cn_status cpu_probe(char *reason, size_t cap) {
  (void)reason;
  (void)cap;
  return CN_OK;
}
static int32_t cpu_device_count(void) { return 1; }
static int32_t cpu_current_device(void) { return 0; }

static cn_backend_ops g_cpu = {
    .abi_version = CUNUMPY_ABI_VERSION,
    .table_size = sizeof(cn_backend_ops),
    .name = "cpu",
    .device_type = CN_DEVICE_CPU,
    .probe = cpu_probe,
    .device_count = cpu_device_count,
    .current_device = cpu_current_device,
    .alloc = cn_cpu_alloc,
    .free = cn_cpu_free,
    .copy_to_host = NULL, /* host memory needs no transfer */
    .copy_from_host = NULL,
    .assign = cn_cpu_assign,
    .fill = cn_cpu_fill,
    .elementwise = cn_cpu_elementwise,
    .where = cn_cpu_where,
    .reduce = cn_cpu_reduce,
    .moments = cn_cpu_moments,
};

static pthread_once_t g_cpu_once = PTHREAD_ONCE_INIT;

static void cpu_init(void) {
  cn_cpu_index_fill(&g_cpu);
  cn_cpu_sort_fill(&g_cpu);
  cn_cpu_random_fill(&g_cpu);
  cn_cpu_linalg_fill(&g_cpu);
  cn_cpu_fft_fill(&g_cpu);
}

const cn_backend_ops *cn_cpu_backend(void) {
  pthread_once(&g_cpu_once, cpu_init);
  return &g_cpu;
}
