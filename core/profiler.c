/* Profiler ranges (include/cunumpy/profiler.h). The nesting is kept here,
 * per thread, so that a pop without a push is an error on every backend;
 * each range remembers whether it reached the CUDA plugin (NVTX), because
 * the plugin may be loaded between a push and its pop. */
#include "cunumpy/profiler.h"
#include "cuda_api.h"
#include "internal.h"

#define RANGE_MAX_DEPTH 1024

static _Thread_local int32_t t_depth;
static _Thread_local bool t_forwarded[RANGE_MAX_DEPTH];

/* Distinct, readable ARGB colors for color_id 0, 1, ... */
static const uint32_t k_palette[] = {
    0xff4c72b0u, 0xffdd8452u, 0xff55a868u, 0xffc44e52u,
    0xff8172b3u, 0xff937860u, 0xffda8bc3u, 0xff8c8c8cu,
};

/* The plugin's API table when the CUDA backend is already loaded (never
 * loads it: ranges must cost nothing on the CPU). */
static const struct cn_cuda_api *loaded_cuda_api(void) {
  const struct cn_cuda_api *api =
      cn_backend_get_proc(cn_cuda_backend_if_loaded(), "cuda_api");
  return api != NULL && api->size >= sizeof(struct cn_cuda_api) ? api : NULL;
}

cn_status cn_range_push(const char *message, int32_t color_id) {
  const char *fn = "cn_range_push";
  if (message == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'message' is NULL", fn);
  if (color_id < -1)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'color_id' is %d, must be -1 or more", fn,
                    (int)color_id);
  if (t_depth >= RANGE_MAX_DEPTH)
    return cn_error(CN_ERR_VALUE, "%s: %d ranges are open on this thread", fn,
                    RANGE_MAX_DEPTH);
  const struct cn_cuda_api *api = loaded_cuda_api();
  if (api != NULL) {
    uint32_t argb =
        color_id < 0 ? 0u
                     : k_palette[(size_t)color_id %
                                 (sizeof k_palette / sizeof *k_palette)];
    cn_status st = api->range_push(message, argb);
    if (st != CN_OK)
      return st;
  }
  t_forwarded[t_depth++] = api != NULL;
  return CN_OK;
}

cn_status cn_range_pop(void) {
  if (t_depth == 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_range_pop: no range is open on this thread");
  if (t_forwarded[t_depth - 1]) {
    const struct cn_cuda_api *api = loaded_cuda_api();
    if (api != NULL) {
      cn_status st = api->range_pop();
      if (st != CN_OK)
        return st;
    }
  }
  t_depth--;
  return CN_OK;
}

int32_t cn_range_depth(void) { return t_depth; }
