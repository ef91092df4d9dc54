/* cunumpy/cuda.h: CUDA devices, streams, events, memory pools and pinned
 * host memory. These functions live in libcunumpy itself, so they can be
 * called (and bound) on any machine: when the CUDA backend is unavailable
 * each returns CN_ERR_DEVICE "CUDA is unavailable: <reason>" (the reason of
 * cn_backend_unavailable_reason). Errors of the CUDA runtime are
 * CN_ERR_BACKEND naming the call; asynchronous kernel errors surface at the
 * next synchronising call with the name of the operation that failed.
 * Device arguments: -1 means the calling thread's current device. */
#ifndef CUNUMPY_CUDA_H
#define CUNUMPY_CUDA_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque, reference-counted stream and event handles. */
typedef struct cn_stream_s *cn_stream;
typedef struct cn_event_s *cn_event;

/* ---- devices -------------------------------------------------------- */

/* Number of CUDA devices in *out (0 and CN_OK when CUDA is unavailable). */
CN_API cn_status cn_cuda_device_count(int32_t *out);
/* The calling thread's current device. */
CN_API cn_status cn_cuda_get_device(int32_t *out);
/* Selects the calling thread's current device; later arrays, launches and
 * streams use it. CN_ERR_DEVICE for an ordinal outside [0, count). */
CN_API cn_status cn_cuda_set_device(int32_t device);
/* Picks device rank % count for this thread (round-robin over ranks, for
 * MPI) and writes it to *device. CN_ERR_VALUE for a negative rank. */
CN_API cn_status cn_cuda_set_device_for_rank(int32_t *device, int32_t rank);
/* Device name (NUL-terminated, truncated to cap bytes), total memory in
 * bytes, compute capability and multiprocessor count. Any output may be
 * NULL. CN_ERR_DEVICE for a bad ordinal. */
CN_API cn_status cn_cuda_device_properties(char *name, int64_t name_cap,
                                           int64_t *total_memory,
                                           int32_t *cc_major, int32_t *cc_minor,
                                           int32_t *multiprocessors,
                                           int32_t device);
/* Number of device attributes the engine names (every cudaDeviceAttr of the
 * CUDA 13 runtime but the reserved ones); known without CUDA. */
CN_API cn_status cn_cuda_device_attribute_count(int32_t *out);
/* The index-th named attribute: *out its name (cudaDeviceAttr without the
 * cudaDevAttr prefix, "MaxThreadsPerBlock"; a static string) and *number
 * its cudaDeviceAttr value. Known without CUDA. CN_ERR_INDEX for an index
 * outside [0, count). */
CN_API cn_status cn_cuda_device_attribute_info(const char **out,
                                               int32_t *number, int32_t index);
/* Value of attribute `number` (a cudaDeviceAttr the engine names) of the
 * device (cudaDeviceGetAttribute). CN_ERR_VALUE for a number it does not
 * name; CN_ERR_UNSUPPORTED when the driver does not report that attribute. */
CN_API cn_status cn_cuda_device_attribute(int32_t *out, int32_t number,
                                          int32_t device);
/* The device's identifiers (cudaDeviceProp): its 16-byte UUID as two
 * big-endian halves (bytes 0-7 in *uuid_hi, 8-15 in *uuid_lo), its 8-byte
 * LUID (little-endian) and LUID node mask (both 0 except on Windows). Any
 * output may be NULL. */
CN_API cn_status cn_cuda_device_uuid(int64_t *uuid_hi, int64_t *uuid_lo,
                                     int64_t *luid, int32_t *luid_node_mask,
                                     int32_t device);
/* Free and total device memory as the driver reports them. */
CN_API cn_status cn_cuda_memory_info(int64_t *free_bytes, int64_t *total_bytes,
                                     int32_t device);
/* Waits for all work on the current device. */
CN_API cn_status cn_cuda_device_synchronize(void);
/* Waits for all work on every device. */
CN_API cn_status cn_cuda_synchronize_all(void);

/* ---- the device memory pool ----------------------------------------
 * Device arrays come from a stream-ordered pool per device (freed blocks are
 * kept for reuse). Its limit starts at CUNUMPY_GPU_MEMORY_LIMIT (else
 * CUPY_GPU_MEMORY_LIMIT): bytes, or a percentage of the device memory
 * ("50%"); an allocation above it is CN_ERR_MEMORY. */

/* Bytes currently handed out to arrays. */
CN_API cn_status cn_cuda_pool_used_bytes(int64_t *out, int32_t device);
/* Bytes the pool holds from the driver (used plus cached). */
CN_API cn_status cn_cuda_pool_total_bytes(int64_t *out, int32_t device);
/* Returns every cached, unused block to the driver (device -2: all). */
CN_API cn_status cn_cuda_pool_free_all_blocks(int32_t device);
/* Sets the pool limit in bytes (0: no limit). CN_ERR_VALUE when negative. */
CN_API cn_status cn_cuda_pool_set_limit(int32_t device, int64_t limit);
/* Current limit in bytes (0: none). */
CN_API cn_status cn_cuda_pool_get_limit(int64_t *out, int32_t device);
/* Allocator for new device arrays: 0 the pool (default), 1 managed
 * (unified) memory, which the host can also address, 2 no cache (the
 * driver's default pool, which returns freed memory at the next
 * synchronisation). The limit applies to all three. CN_ERR_VALUE for other
 * kinds. Process-wide; existing arrays are unaffected. */
CN_API cn_status cn_cuda_set_allocator(int32_t kind);

/* ---- pinned host memory ---------------------------------------------- */

/* Page-locked host block of at least nbytes from the pinned cache (fast
 * transfers). Free it with cn_unpin_memory. CN_ERR_MEMORY on failure,
 * CN_ERR_VALUE for nbytes < 0. */
CN_API cn_status cn_pin_memory(void **out, int64_t nbytes);
/* Returns a block from cn_pin_memory to the cache. CN_ERR_VALUE for a
 * pointer the cache did not hand out; NULL is a no-op. */
CN_API cn_status cn_unpin_memory(void *ptr);
/* Frees the cached (unused) pinned blocks; *out (may be NULL) gets the
 * bytes released. */
CN_API cn_status cn_pinned_free_all_blocks(int64_t *out);
/* Bytes of pinned memory in use and held (used plus cached). */
CN_API cn_status cn_pinned_memory_info(int64_t *used, int64_t *held);
/* enabled != 0 (the default) keeps returned pinned blocks for reuse; 0
 * frees them at once (and frees the cached ones now). Process-wide. */
CN_API cn_status cn_pinned_set_cache(int32_t enabled);
/* Number of cached (unused) pinned blocks. */
CN_API cn_status cn_pinned_free_blocks(int64_t *out);
/* Host array (CPU device) whose memory is pinned; it goes back to the
 * pinned cache when the last view is released. Same arguments and errors
 * as cn_empty. */
CN_API cn_status cn_empty_pinned(cn_array *out, int32_t ndim,
                                 const int64_t *shape, cn_dtype dtype,
                                 cn_order order);

/* ---- streams ----------------------------------------------------------
 * Every launch and copy is issued on the calling thread's current stream;
 * NULL names the default stream. The default stream is the legacy default
 * stream, or CUDA's per-thread default stream (cudaStreamPerThread) when
 * CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM (else
 * CUPY_CUDA_PER_THREAD_DEFAULT_STREAM) is a non-zero integer when the CUDA
 * backend is loaded; the CUNUMPY_ variable wins when both are set. */

/* New stream on the current device; non_blocking != 0 makes it not
 * synchronise with the legacy default stream. Release with
 * cn_stream_destroy. */
CN_API cn_status cn_stream_create(cn_stream *out, int32_t non_blocking);
/* Wraps a foreign cudaStream_t (e.g. CuPy's) without owning it. */
CN_API cn_status cn_stream_from_native(cn_stream *out, void *native);
/* Drops a reference; the last one destroys the stream (after its work).
 * NULL is a no-op. */
CN_API cn_status cn_stream_destroy(cn_stream s);
/* Adds a reference. */
CN_API cn_status cn_stream_retain(cn_stream s);
/* Makes s (NULL: default stream) the calling thread's current stream. The
 * thread holds a reference until it selects another. */
CN_API cn_status cn_stream_set_current(cn_stream s);
/* New reference to the current stream, or NULL for the default stream. */
CN_API cn_status cn_stream_get_current(cn_stream *out);
/* Waits for s's work (NULL: the current stream). */
CN_API cn_status cn_stream_synchronize(cn_stream s);
/* *done = 1 when s has no pending work. */
CN_API cn_status cn_stream_query(int32_t *done, cn_stream s);
/* The underlying cudaStream_t (as void *; NULL for the default stream). */
CN_API cn_status cn_stream_native(void **out, cn_stream s);
/* Makes future work on s wait for e. */
CN_API cn_status cn_stream_wait_event(cn_stream s, cn_event e);
/* The current stream as DLPack and the CUDA Array Interface number streams
 * in *out: 1 the legacy default stream, 2 the per-thread default stream,
 * else its cudaStream_t. */
CN_API cn_status cn_cuda_current_stream_number(int64_t *out);
/* Makes future work on a DLPack consumer's stream wait for the work issued
 * so far on the current stream (an event recorded here, waited for there);
 * consumer_stream follows DLPack's CUDA numbering: -1 no synchronisation
 * (returns at once, also without CUDA), 1 legacy default, 2 per-thread
 * default, larger values a cudaStream_t. CN_ERR_VALUE for 0 (ambiguous) and
 * values below -1. */
CN_API cn_status cn_cuda_stream_wait_for_current(int64_t consumer_stream);

/* ---- events -------------------------------------------------------- */

/* New event; timing != 0 enables cn_event_elapsed_ms. Release with
 * cn_event_destroy (NULL is a no-op). */
CN_API cn_status cn_event_create(cn_event *out, int32_t timing);
CN_API cn_status cn_event_destroy(cn_event e);
/* Records e on s (NULL: the current stream). */
CN_API cn_status cn_event_record(cn_event e, cn_stream s);
/* Waits until the work before e's last record has finished. */
CN_API cn_status cn_event_synchronize(cn_event e);
/* *done = 1 when e's work has finished. */
CN_API cn_status cn_event_query(int32_t *done, cn_event e);
/* Milliseconds between two recorded timing events. CN_ERR_VALUE when one
 * was created without timing or has not completed. */
CN_API cn_status cn_event_elapsed_ms(double *out, cn_event start, cn_event end);

/* ---- generated kernels --------------------------------------------- */

/* Statistics of the NVRTC kernel cache: modules compiled by this process,
 * loaded from the disk cache (~/.cache/cunumpy/kernels or
 * $CUNUMPY_KERNEL_CACHE), and held in memory. Any output may be NULL. */
CN_API cn_status cn_cuda_kernel_cache_info(int64_t *compiled,
                                           int64_t *disk_hits,
                                           int64_t *in_memory);

#ifdef __cplusplus
}
#endif
#endif
