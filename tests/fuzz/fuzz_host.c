/* libFuzzer harness for cn_from_host and cn_wrap_host: shapes, strides,
 * bounds and dtypes from the input over a buffer the harness owns.
 * Input: mode byte, dtype byte, data offset, ndim, then per axis an
 * extent and a stride (fz_i64 each), then the two bounds.
 * Honest mode passes bounds no wider than the buffer around data: an
 * accepted array must then lie inside them, and its elements (copied out
 * through the engine) must equal a naive gather from the buffer. The
 * other mode passes any bounds to cn_wrap_host and touches no element:
 * the setup arithmetic itself must stay defined (UBSan) and the release
 * callback run exactly once on success, never on failure. A copy
 * (cn_from_host) of an array larger than FZ_COPY_MAX bytes is made a wrap
 * instead: stride-0 axes let a tiny buffer describe terabytes, and copying
 * those is the engine working as asked, not a finding (it would only hit
 * libFuzzer's memory limit). */
#include "fuzz_input.h"

#define FZ_BUF 512
#define FZ_COPY_MAX (1 << 20)

/* Whether the array the input describes holds more than FZ_COPY_MAX bytes
 * (any extent < 0 or a product overflow counts as small: the engine must
 * refuse it). */
static int fz_copy_too_big(int32_t ndim, const int64_t *shape, int64_t item) {
  if (ndim < 0 || ndim > CN_MAX_DIMS)
    return 0;
  int64_t n = item;
  for (int32_t i = 0; i < ndim; i++) {
    if (shape[i] < 0)
      return 0;
    if (shape[i] == 0)
      return 0;
    if (__builtin_mul_overflow(n, shape[i], &n))
      return 0;
  }
  return n > FZ_COPY_MAX;
}

static int fz_released;
static void fz_release(void *ctx) { (*(int *)ctx)++; }

static const cn_dtype fz_dtypes[] = {CN_BOOL,    CN_INT8,      CN_INT16,
                                     CN_INT32,   CN_INT64,     CN_UINT8,
                                     CN_UINT16,  CN_UINT32,    CN_UINT64,
                                     CN_FLOAT32, CN_FLOAT64,   CN_COMPLEX64,
                                     CN_COMPLEX128, (cn_dtype)0x0218};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_in in = {data, size};
  uint8_t mode = fz_u8(&in);
  cn_dtype dt = fz_dtypes[fz_small(&in, sizeof fz_dtypes / sizeof fz_dtypes[0])];
  int64_t item = cn_dtype_itemsize(dt);
  int64_t off = fz_small(&in, FZ_BUF / 16 + 1) * 16;
  int32_t ndim = fz_small(&in, 6);
  if (fz_u8(&in) == 0xff)
    ndim = (int32_t)(int8_t)fz_u8(&in); /* negative or > CN_MAX_DIMS */
  int64_t shape[40] = {0}, strides[40] = {0};
  int32_t naxes = ndim < 0 ? 0 : ndim > 40 ? 40 : ndim;
  for (int32_t i = 0; i < naxes; i++) {
    shape[i] = fz_i64(&in);
    strides[i] = fz_i64(&in);
  }
  int use_strides = mode & 2;
  static _Alignas(16) uint8_t buf[FZ_BUF];
  for (int i = 0; i < FZ_BUF; i++)
    buf[i] = (uint8_t)(i * 7 + 3);
  int64_t before = off, after = FZ_BUF - off;
  if (mode & 1) { /* honest: narrow the bounds */
    before -= fz_small(&in, 64);
    after -= fz_small(&in, 64);
    if (before < 0)
      before = 0;
    if (after < 0)
      after = 0;
  } else {
    before = fz_i64(&in);
    after = fz_i64(&in);
  }
  cn_array a = NULL;
  cn_status st;
  if ((mode & 4) && fz_copy_too_big(ndim, shape, item))
    mode &= (uint8_t)~4;
  if ((mode & 1) && (mode & 4)) {
    st = cn_from_host(&a, buf + off, before, after, ndim, shape,
                      use_strides ? strides : NULL, dt);
  } else {
    fz_released = 0;
    st = cn_wrap_host(&a, buf + off, before, after, ndim, shape,
                      use_strides ? strides : NULL, dt, mode & 8,
                      fz_release, &fz_released);
    FZ_CHECK(st == CN_OK || fz_released == 0,
             "release called on a failed cn_wrap_host");
  }
  fz_check_error(st);
  if (st != CN_OK)
    return 0;
  int32_t nd;
  int64_t sh[CN_MAX_DIMS], stv[CN_MAX_DIMS], isz;
  int64_t n = fz_check_meta(a, &nd, sh, stv, &isz);
  FZ_CHECK(nd == ndim && isz == item, "ndim or itemsize changed");
  if ((mode & 1) && n > 0) {
    if (!(mode & 4)) { /* a wrapped view must lie inside the bounds */
      __int128 lo, hi;
      fz_byte_range(nd, sh, stv, isz, &lo, &hi);
      FZ_CHECK(lo >= -before && hi <= after, "element outside the bounds");
    }
    /* the elements, copied out, equal a naive gather from the buffer
     * (through the caller's strides; a copy may be re-laid out) */
    if (n <= 4096) {
      uint8_t *got = malloc((size_t)(n * item));
      FZ_CHECK(got != NULL, "harness out of memory");
      FZ_CHECK(cn_copy_to_buffer(got, n * item, a, CN_ORDER_C) == CN_OK,
               "cn_copy_to_buffer");
      int64_t cs[40];
      int64_t acc = 1;
      for (int32_t i = ndim - 1; i >= 0; i--) {
        cs[i] = use_strides ? strides[i] : acc;
        acc *= shape[i];
      }
      for (int64_t k = 0; k < n; k++) {
        int64_t rem = k, eo = 0;
        for (int32_t i = ndim - 1; i >= 0; i--) {
          eo += (rem % shape[i]) * cs[i];
          rem /= shape[i];
        }
        const uint8_t *src = buf + off + eo * item;
        if (dt == CN_BOOL)
          FZ_CHECK((got[k] != 0) == (src[0] != 0), "bool element differs");
        else
          FZ_CHECK(memcmp(got + k * item, src, (size_t)item) == 0,
                   "element differs from the buffer");
      }
      free(got);
    }
  }
  cn_array_release(a);
  if (!((mode & 1) && (mode & 4)))
    FZ_CHECK(fz_released == 1, "release not called exactly once");
  return 0;
}
