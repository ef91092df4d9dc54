/* Reference-counted buffers: own allocations (through a backend) or
 * borrowed foreign memory (released through the owner's callback). */
#include <stdlib.h>

#include "internal.h"

cn_status cn_buffer_alloc(cn_buffer **out, const cn_backend *backend,
                          int32_t device, size_t nbytes) {
  cn_buffer *b = cn_malloc(sizeof *b);
  if (b == NULL)
    return cn_error(CN_ERR_MEMORY, "out of host memory allocating a buffer");
  void *p = NULL;
  /* A zero-byte array still gets a distinct, valid pointer. */
  cn_status st = backend->device->alloc(device, nbytes ? nbytes : 1, &p);
  if (st != CN_OK) {
    free(b);
    return st;
  }
  atomic_init(&b->refcount, 1);
  b->data = p;
  b->nbytes = nbytes;
  b->backend = backend;
  b->device_id = device;
  b->release = NULL;
  b->release_ctx = NULL;
  *out = b;
  return CN_OK;
}

/* Foreign memory without a release callback is simply never freed here. */
static void no_release(void *ctx) { (void)ctx; }

cn_status cn_buffer_wrap(cn_buffer **out, const cn_backend *backend,
                         int32_t device, void *data, size_t nbytes,
                         cn_release_fn release, void *ctx) {
  cn_buffer *b = cn_malloc(sizeof *b);
  if (b == NULL)
    return cn_error(CN_ERR_MEMORY, "out of host memory allocating a buffer");
  atomic_init(&b->refcount, 1);
  b->data = data;
  b->nbytes = nbytes;
  b->backend = backend;
  b->device_id = device;
  b->release = release ? release : no_release;
  b->release_ctx = ctx;
  *out = b;
  return CN_OK;
}

void cn_buffer_retain(cn_buffer *b) {
  atomic_fetch_add_explicit(&b->refcount, 1, memory_order_relaxed);
}

void cn_buffer_release(cn_buffer *b) {
  if (b == NULL)
    return;
  if (atomic_fetch_sub_explicit(&b->refcount, 1, memory_order_acq_rel) != 1)
    return;
  if (b->release != NULL)
    b->release(b->release_ctx);
  else
    b->backend->device->free(b->device_id, b->data, b->nbytes ? b->nbytes : 1);
  free(b);
}
