/* cunumpy/memory.h: memory pools. */
#ifndef CUNUMPY_MEMORY_H
#define CUNUMPY_MEMORY_H

#include "cunumpy/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns every cached (free) block of the host pool to the system, and of
 * the device pools when the CUDA backend is loaded. Arrays stay valid. */
CN_API void cn_free_memory(void);

/* Host pool statistics: bytes in large blocks held by live arrays, and bytes
 * cached for reuse. The cache is bounded by CUNUMPY_CPU_POOL_LIMIT (bytes,
 * default 4 GiB). CN_ERR_VALUE for NULL outputs. */
CN_API cn_status cn_host_memory_info(int64_t *in_use_bytes,
                                     int64_t *cached_bytes);

#ifdef __cplusplus
}
#endif
#endif
