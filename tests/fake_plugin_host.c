/* A fake "cuda" backend plugin for the loader tests. Its memory is host
 * memory, but its device type is CUDA, so arrays it makes are "device"
 * arrays to the core: tests can read them directly and still see the core
 * keep devices apart. Compile-time switches build the refusing variants:
 *   FAKE_ABI_VERSION   ABI version the table claims (default: the core's)
 *   FAKE_TABLE_SHRINK  bytes subtracted from the compute table's size
 *   FAKE_NULL_TABLE    entry point returns NULL
 *   FAKE_PROBE_FAILS   probe reports "no CUDA device" */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef FAKE_ABI_VERSION
#define FAKE_ABI_VERSION CUNUMPY_ABI_VERSION
#endif
#ifndef FAKE_TABLE_SHRINK
#define FAKE_TABLE_SHRINK 0
#endif

#define FAKE_DEVICES 2

/* Live allocations, read by the tests through dlsym to check that every
 * buffer made on this backend is freed. */
__attribute__((visibility("default"))) long fake_live_allocations;

static cn_status fake_probe(char *reason, size_t cap) {
#ifdef FAKE_PROBE_FAILS
  strncpy(reason,
          "no CUDA device (fake probe: cudaGetDeviceCount returned "
          "cudaErrorNoDevice)",
          cap - 1);
  reason[cap - 1] = 0;
  return CN_ERR_DEVICE;
#else
  (void)reason;
  (void)cap;
  return CN_OK;
#endif
}
static int32_t fake_device_count(void) { return FAKE_DEVICES; }
static int32_t fake_current_device(void) { return 0; }

static cn_status fake_alloc(int32_t device, size_t nbytes, void **ptr) {
  (void)device;
  *ptr = malloc(nbytes ? nbytes : 1);
  if (*ptr == NULL)
    return CN_ERR_MEMORY;
  __atomic_add_fetch(&fake_live_allocations, 1, __ATOMIC_RELAXED);
  return CN_OK;
}
static void fake_free(int32_t device, void *ptr, size_t nbytes) {
  (void)device;
  (void)nbytes;
  free(ptr);
  __atomic_sub_fetch(&fake_live_allocations, 1, __ATOMIC_RELAXED);
}
static cn_status fake_copy(void *dst, const void *src, size_t nbytes) {
  if (nbytes)
    memcpy(dst, src, nbytes);
  return CN_OK;
}

/* Visits every element of a strided n-d array in C order, calling f with
 * the byte addresses of the element in dst and (if given) src. */
static void walk(int32_t nd, const int64_t *shape, char *d, const int64_t *ds,
                 const char *s, const int64_t *ss, int64_t is,
                 const void *value) {
  if (nd == 0) {
    memcpy(d, s ? s : value, (size_t)is);
    return;
  }
  for (int64_t i = 0; i < shape[0]; i++)
    walk(nd - 1, shape + 1, d + i * ds[0] * is, ds + 1,
         s ? s + i * ss[0] * is : NULL, ss ? ss + 1 : NULL, is, value);
}

/* Same-dtype copies only: enough for the tests, and a clear refusal
 * otherwise. */
static cn_status fake_assign(cn_array_s *dst, const cn_array_s *src) {
  if (dst->dtype != src->dtype)
    return CN_ERR_UNSUPPORTED;
  walk(dst->ndim, dst->shape, dst->data, dst->strides, src->data, src->strides,
       cn_itemsize(dst->dtype), NULL);
  return CN_OK;
}
static cn_status fake_fill(cn_array_s *dst, const void *value) {
  walk(dst->ndim, dst->shape, dst->data, dst->strides, NULL, NULL,
       cn_itemsize(dst->dtype), value);
  return CN_OK;
}

static const cn_backend_device g_device = {
    .probe = fake_probe,
    .device_count = fake_device_count,
    .current_device = fake_current_device,
    .alloc = fake_alloc,
    .free = fake_free,
    .copy_to_host = fake_copy,
    .copy_from_host = fake_copy,
};

/* Copies and fills only: every other compute slot is empty, so the core
 * must refuse those operations on this backend. */
static const cn_backend_compute g_compute = {
    .assign = fake_assign,
    .fill = fake_fill,
};

static const cn_backend g_table = {
    .abi_version = FAKE_ABI_VERSION,
    .record_size = sizeof(cn_backend),
    .device_size = sizeof(cn_backend_device),
    .compute_size = sizeof(cn_backend_compute) - FAKE_TABLE_SHRINK,
    .name = "cuda",
    .device_type = CN_DEVICE_CUDA,
    .device = &g_device,
    .compute = &g_compute,
};

__attribute__((visibility("default"))) const cn_backend *
cn_cuda_plugin_entry(uint32_t core_abi_version) {
  (void)core_abi_version;
#ifdef FAKE_NULL_TABLE
  (void)g_table;
  return NULL;
#else
  return &g_table;
#endif
}
