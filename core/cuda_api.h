/* The contract between libcunumpy and the CUDA plugin beyond the backend
 * tables: the plugin's extra API (what get_proc("cuda_api") of its device
 * table returns), which the forwarding functions of include/cunumpy/cuda.h
 * call, and the core services
 * the plugin calls back into (the core's internals are hidden symbols, so
 * the plugin reaches them through one exported accessor). Not installed. */
#ifndef CUNUMPY_CUDA_API_H
#define CUNUMPY_CUDA_API_H

#include "cunumpy/cuda.h"
#include "internal.h"

/* Every member validates what only the plugin can (device ordinals, stream
 * and event handles) and reports errors through the core's cn_error. The
 * core has checked output pointers and simple ranges already. */
struct cn_cuda_api {
  uint32_t size; /* sizeof(struct cn_cuda_api) the plugin was built with */
  cn_status (*get_device)(int32_t *out);
  cn_status (*set_device)(int32_t device);
  cn_status (*device_properties)(char *name, int64_t name_cap,
                                 int64_t *total_memory, int32_t *cc_major,
                                 int32_t *cc_minor, int32_t *multiprocessors,
                                 int32_t device);
  cn_status (*memory_info)(int64_t *free_bytes, int64_t *total_bytes,
                           int32_t device);
  cn_status (*device_synchronize)(void);
  cn_status (*synchronize_all)(void);

  cn_status (*pool_used_bytes)(int64_t *out, int32_t device);
  cn_status (*pool_total_bytes)(int64_t *out, int32_t device);
  cn_status (*pool_free_all_blocks)(int32_t device);
  cn_status (*pool_set_limit)(int32_t device, int64_t limit);
  cn_status (*pool_get_limit)(int64_t *out, int32_t device);
  cn_status (*set_allocator)(int32_t kind);

  cn_status (*pin_memory)(void **out, int64_t nbytes);
  cn_status (*unpin_memory)(void *ptr);
  cn_status (*pinned_free_all_blocks)(int64_t *out);
  cn_status (*pinned_memory_info)(int64_t *used, int64_t *held);

  cn_status (*stream_create)(cn_stream *out, int32_t non_blocking);
  cn_status (*stream_from_native)(cn_stream *out, void *native);
  cn_status (*stream_destroy)(cn_stream s);
  cn_status (*stream_retain)(cn_stream s);
  cn_status (*stream_set_current)(cn_stream s);
  cn_status (*stream_get_current)(cn_stream *out);
  cn_status (*stream_synchronize)(cn_stream s);
  cn_status (*stream_query)(int32_t *done, cn_stream s);
  cn_status (*stream_native)(void **out, cn_stream s);
  cn_status (*stream_wait_event)(cn_stream s, cn_event e);

  cn_status (*event_create)(cn_event *out, int32_t timing);
  cn_status (*event_destroy)(cn_event e);
  cn_status (*event_record)(cn_event e, cn_stream s);
  cn_status (*event_synchronize)(cn_event e);
  cn_status (*event_query)(int32_t *done, cn_event e);
  cn_status (*event_elapsed_ms)(double *out, cn_event start, cn_event end);

  cn_status (*kernel_cache_info)(int64_t *compiled, int64_t *disk_hits,
                                 int64_t *in_memory);

  cn_status (*current_stream_number)(int64_t *out);
  cn_status (*stream_wait_for_current)(int64_t consumer_stream);
  /* Synchronous copy of nbytes from src on src_device to dst on
   * dst_device (peer to peer when possible). */
  cn_status (*copy_peer)(void *dst, int32_t dst_device, const void *src,
                         int32_t src_device, size_t nbytes);
};

/* Core internals a plugin may call. */
typedef struct cn_plugin_services {
  uint32_t size; /* sizeof(cn_plugin_services) of the core */
  cn_status (*error)(cn_status status, const char *fmt, ...)
      __attribute__((format(printf, 2, 3)));
  const cn_op_info *(*op_table)(void);
  bool (*loop_class_has)(cn_loop_class lc, cn_dtype dt);
  void (*iter_coalesce)(cn_iter_shape *it, int32_t nop,
                        const cn_array_s *const *ops);
  /* The dtype rules, so that the plugin never restates them. */
  cn_dtype (*real_dtype)(cn_dtype dt);    /* complex64 -> float32 */
  cn_dtype (*complex_dtype)(cn_dtype dt); /* float32 -> complex64 */
  bool (*can_cast_safe)(cn_dtype from, cn_dtype to);
  cn_status (*result_type)(cn_dtype *out, cn_dtype a, cn_dtype b);
  /* cn_array_new: results whose size only a kernel knows (flatnonzero). */
  cn_status (*array_new)(cn_array_s **out, const cn_backend *backend,
                         int32_t device, cn_dtype dtype, int32_t ndim,
                         const int64_t *shape, cn_order order);
} cn_plugin_services;

/* Exported (default visibility) for plugins only; not part of the ABI. */
CN_API const cn_plugin_services *cn__plugin_services(void);

#endif
