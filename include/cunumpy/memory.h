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
 * cached for reuse. The cache never lifts the pool's footprint above the
 * most bytes ever in use at once plus a sixteenth, and is bounded by
 * CUNUMPY_CPU_POOL_LIMIT (bytes; default a quarter of physical memory, at
 * most 4 GiB). CN_ERR_VALUE for NULL outputs. */
CN_API cn_status cn_host_memory_info(int64_t *in_use_bytes,
                                     int64_t *cached_bytes);

/* Number of blocks the host pool caches for reuse (those cn_free_memory
 * returns to the system; the per-thread cache of small blocks aside).
 * CN_ERR_VALUE for a NULL output. */
CN_API cn_status cn_host_pool_free_blocks(int64_t *out);
/* Caps the bytes of the host pool's large blocks (1 MiB and more, as
 * cn_host_memory_info counts them) in use at once: an allocation above it
 * is CN_ERR_MEMORY. 0 (the default) means no cap; lowering it below what
 * is in use frees nothing. CN_ERR_VALUE when negative. */
CN_API cn_status cn_host_pool_set_limit(int64_t limit);
/* The cap of cn_host_pool_set_limit in *out (0: none). CN_ERR_VALUE for a
 * NULL output. */
CN_API cn_status cn_host_pool_get_limit(int64_t *out);

/* Testing aid: makes the nth host allocation of the engine from now on
 * fail (once), as if the system were out of memory; n <= 0 turns this off.
 * Counts every allocation the core makes (pool, buffers, scratch, the
 * headroom checked before FFTW plans). CUNUMPY_FAULT_ALLOC=n does the same
 * from process start. Not for production use: it is process-wide. */
CN_API void cn_debug_fault_alloc(int64_t n);

/* Testing aid: host allocations counted since cn_debug_fault_alloc armed
 * the hook (0 while it has never been armed); a count below n after a
 * workload means the nth allocation was never reached. */
CN_API int64_t cn_debug_alloc_count(void);

#ifdef __cplusplus
}
#endif
#endif
