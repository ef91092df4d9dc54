/* NVTX ranges for cn_range_push / cn_range_pop. NVTX3 is header-only: the
 * calls do nothing until a profiler (Nsight Systems, nvprof) injects its
 * library through NVTX_INJECTION64_PATH, so an unprofiled run pays one
 * branch per call. */
#include <nvtx3/nvToolsExt.h>

#include "cuda_internal.h"

static cn_status range_push(const char *message, uint32_t argb) {
  nvtxEventAttributes_t at = {0};
  at.version = NVTX_VERSION;
  at.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  at.messageType = NVTX_MESSAGE_TYPE_ASCII;
  at.message.ascii = message;
  if (argb != 0) {
    at.colorType = NVTX_COLOR_ARGB;
    at.color = argb;
  }
  /* NVTX reports a nesting level, or a negative value when no tool is
   * attached: neither is an error of ours. */
  (void)nvtxRangePushEx(&at);
  return CN_OK;
}

static cn_status range_pop(void) {
  (void)nvtxRangePop();
  return CN_OK;
}

void cn_cu_profiler_api(struct cn_cuda_api *api) {
  api->range_push = range_push;
  api->range_pop = range_pop;
}
