/* DLPack 1.1 export and import (versioned and legacy tensors).
 *
 * Export layout: `data` is the address of element (0,...,0) and byte_offset
 * is 0, as NumPy, CuPy and PyTorch do (consumers that ignore byte_offset are
 * common). Strides are always given, in elements. An empty tensor has data
 * NULL, as the specification asks.
 *
 * Import wraps the producer's memory without copying: the buffer spans the
 * lowest to the highest byte any element touches, and its release callback
 * runs the producer's deleter, once, when the last view goes away. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- export ----------------------------------------------------------- */

/* One allocation per exported tensor: the managed struct first, then the
 * buffer reference, then shape and strides (2*ndim extents). */
typedef struct dl_export {
  union {
    DLManagedTensorVersioned versioned;
    DLManagedTensor legacy;
  } t;
  cn_buffer *buf;
  int64_t dims[];
} dl_export;

/* Deleters run on whatever thread the consumer drops the tensor on: they
 * only drop an atomic buffer reference and free their own block. */
static void export_free(dl_export *e) {
  if (e == NULL)
    return;
  cn_buffer_release(e->buf);
  free(e);
}
static void delete_versioned(DLManagedTensorVersioned *self) {
  if (self != NULL)
    export_free(self->manager_ctx);
}
static void delete_legacy(DLManagedTensor *self) {
  if (self != NULL)
    export_free(self->manager_ctx);
}

/* A broadcast view repeats elements, so a writer through it would see its
 * writes alias: it is exported read-only like a read-only array. */
static bool export_readonly(const cn_array_s *a) {
  if (!cn_array_writeable(a))
    return true;
  for (int32_t i = 0; i < a->ndim; i++)
    if (a->strides[i] == 0 && a->shape[i] > 1)
      return true;
  return false;
}

/* Fills the DLTensor of a new export block for a (block retains a's
 * buffer). */
static cn_status export_block(dl_export **out, const cn_array_s *a,
                              const char *fn) {
  size_t n = 2 * (size_t)a->ndim;
  dl_export *e = cn_calloc(1, sizeof *e + (n ? n : 1) * sizeof(int64_t));
  if (e == NULL)
    return cn_error(CN_ERR_MEMORY,
                    "%s: out of host memory for the DLPack tensor", fn);
  int64_t *shape = e->dims, *strides = e->dims + a->ndim;
  for (int32_t i = 0; i < a->ndim; i++) {
    shape[i] = a->shape[i];
    strides[i] = a->strides[i];
  }
  DLTensor *t = &e->t.versioned.dl_tensor;
  DLTensor tmp = {
      .data = a->size > 0 ? (void *)a->data : NULL,
      .device = {(DLDeviceType)cn_backend_of(a)->device_type,
                 a->buf->device_id},
      .ndim = a->ndim,
      .dtype = {(uint8_t)cn_dtype_code(a->dtype), (uint8_t)(a->dtype & 0xff),
                1},
      .shape = shape,
      .strides = strides,
      .byte_offset = 0,
  };
  *t = tmp;
  cn_buffer_retain(a->buf);
  e->buf = a->buf;
  *out = e;
  return CN_OK;
}

cn_status cn_to_dlpack(DLManagedTensorVersioned **out, cn_array a) {
  CN_CHECK_OUT(out, "cn_to_dlpack");
  CN_CHECK_ARRAY(a, "cn_to_dlpack", "a");
  dl_export *e;
  cn_status st = export_block(&e, a, "cn_to_dlpack");
  if (st != CN_OK)
    return st;
  DLManagedTensorVersioned *v = &e->t.versioned;
  DLTensor t = v->dl_tensor;
  v->version.major = 1;
  v->version.minor = 1;
  v->manager_ctx = e;
  v->deleter = delete_versioned;
  v->flags = export_readonly(a) ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  v->dl_tensor = t;
  *out = v;
  return CN_OK;
}

cn_status cn_to_dlpack_legacy(DLManagedTensor **out, cn_array a) {
  CN_CHECK_OUT(out, "cn_to_dlpack_legacy");
  CN_CHECK_ARRAY(a, "cn_to_dlpack_legacy", "a");
  /* A legacy tensor cannot say "read-only", and its consumer would write
   * through it; NumPy refuses the same way. */
  if (export_readonly(a))
    return cn_error(CN_ERR_VALUE,
                    "cn_to_dlpack_legacy: argument 'a' is %s, which a legacy "
                    "DLPack tensor cannot mark read-only; use cn_to_dlpack "
                    "(versioned) or export a copy",
                    cn_array_writeable(a) ? "a broadcast (stride 0) view"
                                          : "read-only");
  dl_export *e;
  cn_status st = export_block(&e, a, "cn_to_dlpack_legacy");
  if (st != CN_OK)
    return st;
  /* The DLTensor was written at the versioned position; move it to the
   * legacy one (both live in the same union). */
  DLTensor t = e->t.versioned.dl_tensor;
  DLManagedTensor *l = &e->t.legacy;
  memset(l, 0, sizeof *l);
  l->dl_tensor = t;
  l->manager_ctx = e;
  l->deleter = delete_legacy;
  *out = l;
  return CN_OK;
}

/* ---- import ----------------------------------------------------------- */

static void release_versioned(void *ctx) {
  DLManagedTensorVersioned *t = ctx;
  if (t->deleter != NULL)
    t->deleter(t);
}
static void release_legacy(void *ctx) {
  DLManagedTensor *t = ctx;
  if (t->deleter != NULL)
    t->deleter(t);
}

/* Address given to empty arrays whose producer passed NULL data, so that no
 * later memcpy of zero bytes sees a NULL pointer. Never written. */
static char g_empty_data[16];

static const char *device_name(int32_t type) {
  switch (type) {
  case kDLCPU:
    return "CPU";
  case kDLCUDA:
    return "CUDA";
  case kDLCUDAHost:
    return "CUDA host";
  case kDLOpenCL:
    return "OpenCL";
  case kDLVulkan:
    return "Vulkan";
  case kDLMetal:
    return "Metal";
  case kDLROCM:
    return "ROCm";
  case kDLROCMHost:
    return "ROCm host";
  case kDLCUDAManaged:
    return "CUDA managed";
  case kDLOneAPI:
    return "oneAPI";
  default:
    return "unknown";
  }
}

/* The backend that serves memory of a DLPack device. Pinned (CUDA host)
 * memory is ordinary host memory for the CPU backend. CUDA memory needs
 * the CUDA plugin, loaded on demand. */
static cn_status import_backend(const cn_backend **out, int32_t *device,
                                DLDevice dev, const char *fn) {
  switch ((int32_t)dev.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
    *out = cn_cpu_backend();
    *device = 0;
    return CN_OK;
  case kDLCUDA:
  case kDLCUDAManaged: {
    int32_t ok = 0;
    if (cn_cuda_backend_if_loaded() == NULL)
      (void)cn_backend_available(&ok, "cuda"); /* loads the plugin */
    const cn_backend *cuda = cn_cuda_backend_if_loaded();
    if (cuda == NULL)
      return cn_error(CN_ERR_DEVICE,
                      "%s: the tensor is on %s device %d, but this process "
                      "has no CUDA backend (%s)",
                      fn, device_name(dev.device_type), (int)dev.device_id,
                      cn_backend_unavailable_reason());
    int32_t count = cuda->device->device_count();
    if (dev.device_id < 0 || dev.device_id >= count)
      return cn_error(CN_ERR_DEVICE,
                      "%s: the tensor is on CUDA device %d, but there %s %d "
                      "CUDA device%s",
                      fn, (int)dev.device_id, count == 1 ? "is" : "are",
                      (int)count, count == 1 ? "" : "s");
    *out = cuda;
    *device = dev.device_id;
    return CN_OK;
  }
  default:
    return cn_error(CN_ERR_DEVICE,
                    "%s: the tensor is on a %s device (DLPack device type "
                    "%d), which cunumpy cannot serve (CPU and CUDA only)",
                    fn, device_name(dev.device_type), (int)dev.device_type);
  }
}

/* Checks t and wraps it. *consumed tells the caller whether the release
 * callback now owns the deleter (so that it must not call it again). */
static cn_status import_tensor(cn_array *out, const DLTensor *t, bool readonly,
                               cn_release_fn release, void *ctx, bool *consumed,
                               const char *fn) {
  *consumed = false;
  int32_t nd = t->ndim;
  if (nd < 0 || nd > CN_MAX_DIMS)
    return cn_error(CN_ERR_VALUE, "%s: tensor ndim is %d, outside [0, %d]", fn,
                    (int)nd, CN_MAX_DIMS);
  if (nd > 0 && t->shape == NULL)
    return cn_error(CN_ERR_VALUE, "%s: tensor shape is NULL with ndim %d", fn,
                    (int)nd);
  if (t->dtype.lanes != 1)
    return cn_error(CN_ERR_TYPE,
                    "%s: tensor dtype has %u lanes; only lanes == 1 is "
                    "supported",
                    fn, (unsigned)t->dtype.lanes);
  cn_dtype dtype = (cn_dtype)(((int32_t)t->dtype.code << 8) | t->dtype.bits);
  if (!cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE,
                    "%s: tensor dtype (code %u, bits %u) has no cunumpy dtype",
                    fn, (unsigned)t->dtype.code, (unsigned)t->dtype.bits);
  int64_t itemsize = cn_itemsize(dtype);

  /* The product of the non-zero extents must fit even when another extent
   * is 0: the C strides an empty array gets multiply them. */
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS];
  int64_t size = 1, nonzero = 1;
  bool overflow = false;
  for (int32_t i = 0; i < nd; i++) {
    shape[i] = t->shape[i];
    if (shape[i] < 0)
      return cn_error(CN_ERR_VALUE, "%s: tensor shape[%d] is %lld (negative)",
                      fn, (int)i, (long long)shape[i]);
    if (shape[i] > 0)
      overflow |= __builtin_mul_overflow(nonzero, shape[i], &nonzero);
    else
      size = 0;
  }
  if (size != 0)
    size = nonzero;
  int64_t nbytes;
  if (overflow || __builtin_mul_overflow(nonzero, itemsize, &nbytes))
    return cn_error(CN_ERR_VALUE,
                    "%s: tensor shape has more elements than fit in memory "
                    "(the size overflows)",
                    fn);

  /* Element offsets spanned: [lo, hi] relative to element 0. */
  int64_t lo = 0, hi = 0;
  if (size == 0 || t->strides == NULL) {
    /* An empty tensor's strides address nothing; give it plain ones. */
    cn_default_strides(strides, nd, shape, CN_ORDER_C);
    if (size > 0)
      hi = size - 1;
  } else {
    for (int32_t i = 0; i < nd; i++) {
      strides[i] = t->strides[i];
      int64_t span, sbytes;
      if (__builtin_mul_overflow(strides[i], shape[i] - 1, &span) ||
          __builtin_mul_overflow(strides[i], itemsize, &sbytes) ||
          (span > 0 && __builtin_add_overflow(hi, span, &hi)) ||
          (span < 0 && __builtin_add_overflow(lo, span, &lo)))
        return cn_error(CN_ERR_VALUE,
                        "%s: tensor strides[%d] = %lld with shape[%d] = %lld "
                        "reach past the addressable range (overflow)",
                        fn, (int)i, (long long)strides[i], (int)i,
                        (long long)shape[i]);
    }
  }
  int64_t lo_bytes = 0, hi_bytes = 0, span_bytes = 0;
  if (size > 0 && (__builtin_mul_overflow(lo, itemsize, &lo_bytes) ||
                   __builtin_mul_overflow(hi, itemsize, &hi_bytes) ||
                   __builtin_sub_overflow(hi_bytes, lo_bytes, &span_bytes) ||
                   __builtin_add_overflow(span_bytes, itemsize, &span_bytes)))
    return cn_error(CN_ERR_VALUE,
                    "%s: tensor strides span more bytes than fit in memory "
                    "(overflow)",
                    fn);

  if (t->data == NULL && size > 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: tensor data is NULL but it has %lld elements", fn,
                    (long long)size);
  uintptr_t base = (uintptr_t)t->data, first = 0;
  if (size > 0) {
    /* Element 0 is at data + byte_offset; the lowest and highest bytes
     * touched must be addresses, not wrap around. */
    uintptr_t last;
    if (t->byte_offset > (uint64_t)INT64_MAX ||
        __builtin_add_overflow(base, (uintptr_t)t->byte_offset, &base) ||
        __builtin_sub_overflow(base, (uintptr_t)-lo_bytes, &first) ||
        __builtin_add_overflow(first, (uintptr_t)span_bytes - 1, &last))
      return cn_error(CN_ERR_VALUE,
                      "%s: tensor data %p + byte_offset %llu with its strides "
                      "wraps around the address space",
                      fn, t->data, (unsigned long long)t->byte_offset);
  }

  /* Kernels read elements as their C types or as same-size integers (so
   * complex64 as a uint64_t), which must be aligned; nothing needs more
   * than 8 bytes. Strides are whole elements, so element 0 decides. */
  int64_t align = itemsize < 8 ? itemsize : 8;
  if (size > 0 && base % (uintptr_t)align != 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: tensor element 0 at %p (data + byte_offset %llu) is "
                    "not aligned to %lld bytes as %s needs",
                    fn, (void *)base, (unsigned long long)t->byte_offset,
                    (long long)align, cn_dtype_name(dtype));

  const cn_backend *backend = NULL;
  int32_t device = 0;
  cn_status st = import_backend(&backend, &device, t->device, fn);
  if (st != CN_OK)
    return st;

  char *elem0, *start;
  if (size > 0) {
    elem0 = (char *)base;
    start = (char *)first;
  } else {
    elem0 = start = t->data != NULL ? (char *)t->data : g_empty_data;
    span_bytes = 0;
  }
  cn_buffer *buf;
  st = cn_buffer_wrap(&buf, backend, device, start, (size_t)span_bytes, release,
                      ctx);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *consumed = true;
  cn_array_s *a;
  st = cn_array_make(&a, buf, elem0, dtype, nd, shape, strides, !readonly);
  cn_buffer_release(buf); /* the array holds its own reference, or none */
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = a;
  return CN_OK;
}

cn_status cn_from_dlpack(cn_array *out, DLManagedTensorVersioned *t) {
  static const char fn[] = "cn_from_dlpack";
  if (t == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 't' is NULL", fn);
  cn_status st;
  bool consumed = false;
  /* Past the version, a different major may lay the struct out
   * differently: only version and deleter are known to be where we look. */
  if (t->version.major != DLPACK_MAJOR_VERSION)
    st = cn_error(CN_ERR_VALUE,
                  "%s: tensor has DLPack version %u.%u; this build reads "
                  "major version %d",
                  fn, (unsigned)t->version.major, (unsigned)t->version.minor,
                  DLPACK_MAJOR_VERSION);
  else if (out == NULL)
    st = cn_error(CN_ERR_VALUE, "%s: output pointer is NULL", fn);
  else
    st = import_tensor(out, &t->dl_tensor,
                       (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0,
                       release_versioned, t, &consumed, fn);
  if (st != CN_OK && !consumed && t->deleter != NULL)
    t->deleter(t);
  return st;
}

cn_status cn_from_dlpack_legacy(cn_array *out, DLManagedTensor *t) {
  static const char fn[] = "cn_from_dlpack_legacy";
  if (t == NULL)
    return cn_error(CN_ERR_VALUE, "%s: argument 't' is NULL", fn);
  cn_status st;
  bool consumed = false;
  if (out == NULL)
    st = cn_error(CN_ERR_VALUE, "%s: output pointer is NULL", fn);
  else
    st = import_tensor(out, &t->dl_tensor, false, release_legacy, t, &consumed,
                       fn);
  if (st != CN_OK && !consumed && t->deleter != NULL)
    t->deleter(t);
  return st;
}
