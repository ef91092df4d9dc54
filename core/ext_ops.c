/* Backend tables with issue 4's members (see ext_ops.h). */
#include "ext_ops.h"

#include <pthread.h>
#include <string.h>

#include "cpu/cpu_extra.h"

static cn_backend_ops g_cpu_ext;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void build_cpu_ext(void) {
  g_cpu_ext = *cn_cpu_backend();
  g_cpu_ext.table_size = sizeof(cn_backend_ops);
  if (!g_cpu_ext.take)
    cn_cpu_index_fill(&g_cpu_ext);
  if (!g_cpu_ext.sort)
    cn_cpu_sort_fill(&g_cpu_ext);
  if (!g_cpu_ext.rng_fill)
    cn_cpu_random_fill(&g_cpu_ext);
}

/* A copy of a short (older) plugin table, padded with NULL members, per
 * thread: only its name is read besides the members. */
static _Thread_local cn_backend_ops t_short;

const cn_backend_ops *cn_ext_ops(const cn_array_s *a) {
  const cn_backend_ops *b = cn_array_backend(a);
  if (b->device_type == CN_DEVICE_CPU) {
    if (b->table_size >= sizeof(cn_backend_ops) && b->take && b->sort &&
        b->rng_fill)
      return b;
    pthread_once(&g_once, build_cpu_ext);
    return &g_cpu_ext;
  }
  if (b->table_size >= sizeof(cn_backend_ops))
    return b;
  size_t n = b->table_size < sizeof(cn_backend_ops) ? b->table_size
                                                    : sizeof(cn_backend_ops);
  memset(&t_short, 0, sizeof t_short);
  memcpy(&t_short, b, n);
  return &t_short;
}

cn_status cn_ext_same_device(int32_t n, const cn_array_s *const *arrs,
                             const char *fn) {
  for (int32_t i = 1; i < n; i++) {
    if (arrs[i]->buf->backend != arrs[0]->buf->backend ||
        arrs[i]->buf->device_id != arrs[0]->buf->device_id)
      return cn_error(CN_ERR_DEVICE,
                      "%s: arrays are on different devices (%s:%d and %s:%d)",
                      fn, arrs[0]->buf->backend->name,
                      (int)arrs[0]->buf->device_id, arrs[i]->buf->backend->name,
                      (int)arrs[i]->buf->device_id);
  }
  return CN_OK;
}
