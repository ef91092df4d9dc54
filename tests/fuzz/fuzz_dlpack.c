/* libFuzzer harness for DLPack import (cn_from_dlpack and the legacy
 * cn_from_dlpack_legacy): version, flags, device, dtype, ndim, extents,
 * strides (or none) and byte offset come from the input.
 * Input: mode byte, version major/minor, flags, device type, dtype code,
 * bits, lanes, byte offset, ndim, then per axis an extent and a stride.
 * When the tensor's reachable bytes are small the harness backs them with
 * exactly that much memory, as an honest producer would; otherwise data
 * is a small buffer and no element is read. Checked: the deleter runs
 * exactly once in every case (at release on success, before return on
 * failure), an accepted array has consistent metadata, and its elements
 * can be copied out (ASan reports any read outside the producer's bytes). */
#include "fuzz_input.h"

#define FZ_MAX_BYTES 8192

typedef struct fz_producer {
  int deleted;
  void *mem;
  int64_t shape[40], strides[40];
} fz_producer;

static void fz_del_v(DLManagedTensorVersioned *self) {
  fz_producer *p = self->manager_ctx;
  p->deleted++;
}
static void fz_del_l(DLManagedTensor *self) {
  fz_producer *p = self->manager_ctx;
  p->deleted++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  fz_producer prod = {0};
  uint8_t mode = fz_u8(&in);
  DLManagedTensorVersioned v;
  memset(&v, 0, sizeof v);
  v.version.major = fz_small(&in, 4) == 0 ? fz_u8(&in) : 1;
  v.version.minor = fz_u8(&in);
  v.flags = fz_u8(&in) & 3;
  DLTensor *t = &v.dl_tensor;
  uint8_t dev = fz_u8(&in);
  t->device.device_type = (dev & 0xf0) ? (DLDeviceType)(dev & 0x1f) : kDLCPU;
  t->device.device_id = (dev & 0x80) ? (int32_t)(int8_t)fz_u8(&in) : 0;
  t->dtype.code = (uint8_t)(fz_u8(&in) % 8);
  static const uint8_t bits[] = {8, 16, 32, 64, 128, 1, 0, 24, 255};
  t->dtype.bits = bits[fz_small(&in, sizeof bits)];
  t->dtype.lanes = fz_small(&in, 8) == 0 ? (uint16_t)fz_u8(&in) : 1;
  uint64_t byte_offset = fz_small(&in, 4) == 0 ? (uint64_t)fz_i64(&in)
                                               : (uint64_t)fz_small(&in, 4) * 8;
  t->ndim = fz_small(&in, 6);
  if (fz_u8(&in) == 0xff)
    t->ndim = (int32_t)(int8_t)fz_u8(&in);
  int32_t naxes = t->ndim < 0 ? 0 : t->ndim > 40 ? 40 : t->ndim;
  for (int32_t i = 0; i < naxes; i++) {
    prod.shape[i] = fz_i64(&in);
    prod.strides[i] = fz_i64(&in);
  }
  t->shape = prod.shape;
  t->strides = (mode & 1) ? prod.strides : NULL;
  /* The bytes an honest producer would own: element offsets in
   * [lo, hi) items around data + byte_offset. */
  int64_t item = t->dtype.bits >= 8 ? t->dtype.bits / 8 : 1;
  __int128 lo = 0, hi = 1, cont = 1;
  int honest = t->ndim >= 0 && t->ndim <= 40;
  for (int32_t i = 0; i < naxes && honest; i++) {
    int64_t e = prod.shape[i];
    if (e < 0 || e > FZ_MAX_BYTES)
      honest = 0;
    else if (e == 0)
      lo = hi = 0, cont = 0;
    else if (t->strides) {
      int64_t s = prod.strides[i];
      if (s > FZ_MAX_BYTES || s < -FZ_MAX_BYTES)
        honest = 0;
      else if (s < 0)
        lo += (__int128)(e - 1) * s;
      else
        hi += (__int128)(e - 1) * s;
    } else if (cont > FZ_MAX_BYTES)
      honest = 0; /* bounded before each product: 40 axes overflow __int128 */
    else
      cont *= e;
  }
  if (!t->strides && cont > 0)
    hi = cont;
  if (hi - lo > FZ_MAX_BYTES / item || byte_offset > FZ_MAX_BYTES)
    honest = 0;
  size_t nbytes = honest ? (size_t)((hi - lo) * item + byte_offset) : 64;
  prod.mem = malloc(nbytes ? nbytes : 1);
  FZ_CHECK(prod.mem != NULL, "harness out of memory");
  memset(prod.mem, 0x5a, nbytes ? nbytes : 1);
  /* data + byte_offset + lo*item is the lowest byte the tensor reaches */
  t->data = honest ? (char *)prod.mem + (size_t)(-lo * item) : prod.mem;
  t->byte_offset = byte_offset;
  if ((mode & 4) && honest && hi == lo)
    t->data = NULL; /* an empty tensor may come without memory */

  cn_array a = NULL;
  cn_status st;
  int legacy = (mode & 0x10) != 0;
  /* The array keeps a pointer to the managed tensor until its release, so
   * both live as long as the array. */
  DLManagedTensor l;
  if (legacy) {
    l.dl_tensor = v.dl_tensor;
    l.manager_ctx = &prod;
    l.deleter = fz_del_l;
    st = cn_from_dlpack_legacy(&a, &l);
  } else {
    v.manager_ctx = &prod;
    v.deleter = fz_del_v;
    st = cn_from_dlpack(&a, &v);
  }
  fz_check_error(st);
  if (st != CN_OK) {
    FZ_CHECK(prod.deleted == 1, "deleter not run exactly once on failure");
    free(prod.mem);
    return 0;
  }
  FZ_CHECK(prod.deleted == 0, "deleter run while the array lives");
  int32_t nd;
  int64_t sh[CN_MAX_DIMS], stv[CN_MAX_DIMS], isz;
  int64_t n = fz_check_meta(a, &nd, sh, stv, &isz);
  FZ_CHECK(nd == t->ndim, "ndim changed");
  if (honest)
    fz_read_all(a, n, isz, FZ_MAX_BYTES);
  if (mode & 0x20) { /* and back out again */
    DLManagedTensorVersioned *back = NULL;
    st = cn_to_dlpack(&back, a);
    fz_check_error(st);
    if (st == CN_OK)
      back->deleter(back);
  }
  cn_array_release(a);
  FZ_CHECK(prod.deleted == 1, "deleter not run exactly once at release");
  free(prod.mem);
  return 0;
}
