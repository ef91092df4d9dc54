/* The backend table of an array's device (see dispatch.h). */
#include "dispatch.h"

#include <string.h>

/* The CPU table is filled once by its setup (core/cpu/backend.c) and the
 * loader refuses plugins whose table is shorter than ours, so the members
 * exist (possibly NULL) on every table. */
const cn_backend_ops *cn_ext_ops(const cn_array_s *a) {
  return cn_array_backend(a);
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
