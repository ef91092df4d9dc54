/* The public CUDA API of include/cunumpy/cuda.h, in the core: thin
 * forwarders to the CUDA plugin's cn_cuda_api table, so that bindings can
 * call them on machines without CUDA (they then say why CUDA is
 * unavailable). Also the services the plugin calls back into. */
#include <stdint.h>

#include "cuda_api.h"

static const cn_plugin_services g_services = {
    .size = sizeof(cn_plugin_services),
    .error = cn_error,
    .op_table = cn_op_table,
    .loop_class_has = cn_loop_class_has,
    .iter_coalesce = cn_iter_coalesce,
    .real_dtype = cn_real_dtype,
    .complex_dtype = cn_complex_dtype,
    .can_cast_safe = cn_can_cast_safe,
    .result_type = cn_result_type,
    .array_new = cn_array_new,
    .log_slow = cn_log_slow,
    .seconds = cn_seconds,
};

const cn_plugin_services *cn__plugin_services(void) { return &g_services; }

/* The plugin's API table (loading the plugin on first use), or NULL with
 * CN_ERR_DEVICE recorded for fn. */
static const struct cn_cuda_api *cuda_api(const char *fn) {
  const cn_backend *b = cn_cuda_backend_if_loaded();
  if (b == NULL) {
    int32_t avail = 0;
    if (cn_backend_available(&avail, "cuda") == CN_OK && avail)
      b = cn_cuda_backend_if_loaded();
  }
  const struct cn_cuda_api *api = cn_backend_get_proc(b, "cuda_api");
  if (api == NULL || api->size < sizeof(struct cn_cuda_api)) {
    const char *why = cn_backend_unavailable_reason();
    cn_error(CN_ERR_DEVICE, "%s: CUDA is unavailable: %s", fn,
             (why && why[0]) ? why : "the CUDA plugin has no device API table");
    return NULL;
  }
  return api;
}

#define CN_FORWARD(fn, member, ...)                                            \
  do {                                                                         \
    const struct cn_cuda_api *api_ = cuda_api(fn);                             \
    if (api_ == NULL)                                                          \
      return CN_ERR_DEVICE;                                                    \
    return api_->member(__VA_ARGS__);                                          \
  } while (0)

#define CN_CHECK_PTR(p, fn, name)                                              \
  do {                                                                         \
    if (CN_UNLIKELY((p) == NULL))                                              \
      return cn_error(CN_ERR_VALUE, "%s: argument '%s' is NULL", fn, name);    \
  } while (0)

/* ---- devices ---------------------------------------------------------- */

cn_status cn_cuda_device_count(int32_t *out) {
  CN_CHECK_PTR(out, "cn_cuda_device_count", "out");
  *out = cn_device_count();
  return CN_OK;
}

cn_status cn_cuda_get_device(int32_t *out) {
  CN_CHECK_PTR(out, "cn_cuda_get_device", "out");
  CN_FORWARD("cn_cuda_get_device", get_device, out);
}

cn_status cn_cuda_set_device(int32_t device) {
  CN_FORWARD("cn_cuda_set_device", set_device, device);
}

cn_status cn_cuda_set_device_for_rank(int32_t *device, int32_t rank) {
  const char *fn = "cn_cuda_set_device_for_rank";
  CN_CHECK_PTR(device, fn, "device");
  if (rank < 0)
    return cn_error(CN_ERR_VALUE, "%s: argument 'rank' is negative (%d)", fn,
                    (int)rank);
  const struct cn_cuda_api *api = cuda_api(fn);
  if (api == NULL)
    return CN_ERR_DEVICE;
  int32_t n = cn_device_count();
  if (n <= 0)
    return cn_error(CN_ERR_DEVICE, "%s: no CUDA device", fn);
  int32_t d = rank % n;
  cn_status st = api->set_device(d);
  if (st == CN_OK)
    *device = d;
  return st;
}

cn_status cn_cuda_device_properties(char *name, int64_t name_cap,
                                    int64_t *total_memory, int32_t *cc_major,
                                    int32_t *cc_minor, int32_t *multiprocessors,
                                    int32_t device) {
  if (name != NULL && name_cap <= 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_cuda_device_properties: argument 'name_cap' is %lld, "
                    "must be positive when 'name' is given",
                    (long long)name_cap);
  CN_FORWARD("cn_cuda_device_properties", device_properties, name, name_cap,
             total_memory, cc_major, cc_minor, multiprocessors, device);
}

static const struct {
  const char *name;
  int32_t number;
} g_device_attributes[] = {
#define CN_DEVICE_ATTRIBUTE(name, number) {#name, number},
#include "cuda_device_attributes.def"
#undef CN_DEVICE_ATTRIBUTE
};
#define CN_N_DEVICE_ATTRIBUTES                                                 \
  ((int32_t)(sizeof g_device_attributes / sizeof g_device_attributes[0]))

cn_status cn_cuda_device_attribute_count(int32_t *out) {
  CN_CHECK_PTR(out, "cn_cuda_device_attribute_count", "out");
  *out = CN_N_DEVICE_ATTRIBUTES;
  return CN_OK;
}

cn_status cn_cuda_device_attribute_info(const char **out, int32_t *number,
                                        int32_t index) {
  const char *fn = "cn_cuda_device_attribute_info";
  CN_CHECK_PTR(out, fn, "out");
  CN_CHECK_PTR(number, fn, "number");
  if (index < 0 || index >= CN_N_DEVICE_ATTRIBUTES)
    return cn_error(CN_ERR_INDEX,
                    "%s: index %d is outside [0, %d) (the named attributes)",
                    fn, (int)index, (int)CN_N_DEVICE_ATTRIBUTES);
  *out = g_device_attributes[index].name;
  *number = g_device_attributes[index].number;
  return CN_OK;
}

cn_status cn_cuda_device_attribute(int32_t *out, int32_t number,
                                   int32_t device) {
  const char *fn = "cn_cuda_device_attribute";
  CN_CHECK_PTR(out, fn, "out");
  const char *name = NULL;
  for (int32_t i = 0; i < CN_N_DEVICE_ATTRIBUTES; i++)
    if (g_device_attributes[i].number == number)
      name = g_device_attributes[i].name;
  if (name == NULL)
    return cn_error(CN_ERR_VALUE,
                    "%s: %d is not a cudaDeviceAttr the engine names (see "
                    "cn_cuda_device_attribute_info)",
                    fn, (int)number);
  CN_FORWARD(fn, device_attribute, out, number, name, device);
}

cn_status cn_cuda_device_uuid(int64_t *uuid_hi, int64_t *uuid_lo, int64_t *luid,
                              int32_t *luid_node_mask, int32_t device) {
  CN_FORWARD("cn_cuda_device_uuid", device_uuid, uuid_hi, uuid_lo, luid,
             luid_node_mask, device);
}

cn_status cn_cuda_memory_info(int64_t *free_bytes, int64_t *total_bytes,
                              int32_t device) {
  CN_FORWARD("cn_cuda_memory_info", memory_info, free_bytes, total_bytes,
             device);
}

cn_status cn_cuda_device_synchronize(void) {
  CN_FORWARD("cn_cuda_device_synchronize", device_synchronize);
}

cn_status cn_cuda_synchronize_all(void) {
  CN_FORWARD("cn_cuda_synchronize_all", synchronize_all);
}

/* ---- pool ----------------------------------------------------------- */

cn_status cn_cuda_pool_used_bytes(int64_t *out, int32_t device) {
  CN_CHECK_PTR(out, "cn_cuda_pool_used_bytes", "out");
  CN_FORWARD("cn_cuda_pool_used_bytes", pool_used_bytes, out, device);
}

cn_status cn_cuda_pool_total_bytes(int64_t *out, int32_t device) {
  CN_CHECK_PTR(out, "cn_cuda_pool_total_bytes", "out");
  CN_FORWARD("cn_cuda_pool_total_bytes", pool_total_bytes, out, device);
}

cn_status cn_cuda_pool_free_all_blocks(int32_t device) {
  CN_FORWARD("cn_cuda_pool_free_all_blocks", pool_free_all_blocks, device);
}

cn_status cn_cuda_pool_set_limit(int32_t device, int64_t limit) {
  if (limit < 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_cuda_pool_set_limit: argument 'limit' is negative "
                    "(%lld)",
                    (long long)limit);
  CN_FORWARD("cn_cuda_pool_set_limit", pool_set_limit, device, limit);
}

cn_status cn_cuda_pool_get_limit(int64_t *out, int32_t device) {
  CN_CHECK_PTR(out, "cn_cuda_pool_get_limit", "out");
  CN_FORWARD("cn_cuda_pool_get_limit", pool_get_limit, out, device);
}

cn_status cn_cuda_set_allocator(int32_t kind) {
  if (kind < 0 || kind > 2)
    return cn_error(CN_ERR_VALUE,
                    "cn_cuda_set_allocator: argument 'kind' is %d, must be 0 "
                    "(pool), 1 (managed) or 2 (uncached)",
                    (int)kind);
  CN_FORWARD("cn_cuda_set_allocator", set_allocator, kind);
}

/* ---- pinned memory ---------------------------------------------------- */

cn_status cn_pin_memory(void **out, int64_t nbytes) {
  CN_CHECK_PTR(out, "cn_pin_memory", "out");
  if (nbytes < 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_pin_memory: argument 'nbytes' is negative (%lld)",
                    (long long)nbytes);
  CN_FORWARD("cn_pin_memory", pin_memory, out, nbytes);
}

cn_status cn_unpin_memory(void *ptr) {
  if (ptr == NULL)
    return CN_OK;
  CN_FORWARD("cn_unpin_memory", unpin_memory, ptr);
}

cn_status cn_pinned_free_all_blocks(int64_t *out) {
  CN_FORWARD("cn_pinned_free_all_blocks", pinned_free_all_blocks, out);
}

cn_status cn_pinned_memory_info(int64_t *used, int64_t *held) {
  CN_FORWARD("cn_pinned_memory_info", pinned_memory_info, used, held);
}

cn_status cn_pinned_set_cache(int32_t enabled) {
  CN_FORWARD("cn_pinned_set_cache", pinned_set_cache, enabled != 0);
}

cn_status cn_pinned_free_blocks(int64_t *out) {
  CN_CHECK_OUT(out, "cn_pinned_free_blocks");
  CN_FORWARD("cn_pinned_free_blocks", pinned_free_blocks, out);
}

static void pinned_release(void *ctx) { (void)cn_unpin_memory(ctx); }

cn_status cn_empty_pinned(cn_array *out, int32_t ndim, const int64_t *shape,
                          cn_dtype dtype, cn_order order) {
  const char *fn = "cn_empty_pinned";
  CN_CHECK_OUT(out, fn);
  if (ndim < 0 || ndim > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'ndim' is %d, must be in [0, %d]", fn,
                    (int)ndim, CN_MAX_DIMS);
  if (ndim > 0 && shape == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 'shape' is NULL", fn);
  if (!cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE, "%s: argument 'dtype' is invalid (0x%x)", fn,
                    (unsigned)dtype);
  if (order != CN_ORDER_C && order != CN_ORDER_F)
    return cn_error(CN_ERR_VALUE,
                    "%s: argument 'order' is %d, must be C (0) or F (1)", fn,
                    (int)order);
  for (int32_t i = 0; i < ndim; i++)
    if (shape[i] < 0)
      return cn_error(CN_ERR_VALUE, "%s: negative extent %lld on axis %d", fn,
                      (long long)shape[i], (int)i);
  int64_t size = 0;
  cn_status st = cn_shape_size(&size, ndim, shape, cn_itemsize(dtype), fn);
  if (st != CN_OK)
    return st;
  int64_t nbytes = size * cn_itemsize(dtype);
  void *p = NULL;
  st = cn_pin_memory(&p, nbytes > 0 ? nbytes : 1);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  int64_t strides[CN_MAX_DIMS];
  cn_default_strides(strides, ndim, shape, order);
  cn_array a = NULL;
  st = cn_wrap_host(&a, p, 0, nbytes, ndim, shape, strides, dtype, 0,
                    pinned_release, p);
  if (st != CN_OK) {
    (void)cn_unpin_memory(p);
    return cn_error_prefix(st, fn);
  }
  *out = a;
  return CN_OK;
}

/* ---- streams and events ----------------------------------------------- */

cn_status cn_stream_create(cn_stream *out, int32_t non_blocking) {
  CN_CHECK_OUT(out, "cn_stream_create");
  CN_FORWARD("cn_stream_create", stream_create, out, non_blocking);
}

cn_status cn_stream_from_native(cn_stream *out, void *native) {
  CN_CHECK_OUT(out, "cn_stream_from_native");
  CN_FORWARD("cn_stream_from_native", stream_from_native, out, native);
}

cn_status cn_stream_destroy(cn_stream s) {
  if (s == NULL)
    return CN_OK;
  CN_FORWARD("cn_stream_destroy", stream_destroy, s);
}

cn_status cn_stream_retain(cn_stream s) {
  CN_CHECK_PTR(s, "cn_stream_retain", "s");
  CN_FORWARD("cn_stream_retain", stream_retain, s);
}

cn_status cn_stream_set_current(cn_stream s) {
  CN_FORWARD("cn_stream_set_current", stream_set_current, s);
}

cn_status cn_stream_get_current(cn_stream *out) {
  CN_CHECK_OUT(out, "cn_stream_get_current");
  CN_FORWARD("cn_stream_get_current", stream_get_current, out);
}

cn_status cn_stream_synchronize(cn_stream s) {
  CN_FORWARD("cn_stream_synchronize", stream_synchronize, s);
}

cn_status cn_stream_query(int32_t *done, cn_stream s) {
  CN_CHECK_PTR(done, "cn_stream_query", "done");
  CN_FORWARD("cn_stream_query", stream_query, done, s);
}

cn_status cn_stream_native(void **out, cn_stream s) {
  CN_CHECK_OUT(out, "cn_stream_native");
  CN_FORWARD("cn_stream_native", stream_native, out, s);
}

cn_status cn_stream_wait_event(cn_stream s, cn_event e) {
  CN_CHECK_PTR(e, "cn_stream_wait_event", "e");
  CN_FORWARD("cn_stream_wait_event", stream_wait_event, s, e);
}

cn_status cn_cuda_current_stream_number(int64_t *out) {
  CN_CHECK_OUT(out, "cn_cuda_current_stream_number");
  CN_FORWARD("cn_cuda_current_stream_number", current_stream_number, out);
}

cn_status cn_cuda_stream_wait_for_current(int64_t consumer_stream) {
  if (consumer_stream == -1)
    return CN_OK; /* the consumer synchronises itself, if at all */
  CN_FORWARD("cn_cuda_stream_wait_for_current", stream_wait_for_current,
             consumer_stream);
}

cn_status cn_event_create(cn_event *out, int32_t timing) {
  CN_CHECK_OUT(out, "cn_event_create");
  CN_FORWARD("cn_event_create", event_create, out, timing);
}

cn_status cn_event_destroy(cn_event e) {
  if (e == NULL)
    return CN_OK;
  CN_FORWARD("cn_event_destroy", event_destroy, e);
}

cn_status cn_event_record(cn_event e, cn_stream s) {
  CN_CHECK_PTR(e, "cn_event_record", "e");
  CN_FORWARD("cn_event_record", event_record, e, s);
}

cn_status cn_event_synchronize(cn_event e) {
  CN_CHECK_PTR(e, "cn_event_synchronize", "e");
  CN_FORWARD("cn_event_synchronize", event_synchronize, e);
}

cn_status cn_event_query(int32_t *done, cn_event e) {
  CN_CHECK_PTR(done, "cn_event_query", "done");
  CN_CHECK_PTR(e, "cn_event_query", "e");
  CN_FORWARD("cn_event_query", event_query, done, e);
}

cn_status cn_event_elapsed_ms(double *out, cn_event start, cn_event end) {
  CN_CHECK_OUT(out, "cn_event_elapsed_ms");
  CN_CHECK_PTR(start, "cn_event_elapsed_ms", "start");
  CN_CHECK_PTR(end, "cn_event_elapsed_ms", "end");
  CN_FORWARD("cn_event_elapsed_ms", event_elapsed_ms, out, start, end);
}

cn_status cn_cuda_kernel_cache_info(int64_t *compiled, int64_t *disk_hits,
                                    int64_t *in_memory) {
  CN_FORWARD("cn_cuda_kernel_cache_info", kernel_cache_info, compiled,
             disk_hits, in_memory);
}

cn_status cn_cuda_user_kernel_launch(const char *source, const char *kernel,
                                     int32_t reduce, int64_t n, int64_t r,
                                     const int64_t *geom, int32_t ngeom,
                                     void *const *ptrs, int32_t nptrs) {
  CN_FORWARD("cn_kernel", user_kernel_launch, source, kernel, reduce, n, r,
             geom, ngeom, ptrs, nptrs);
}
