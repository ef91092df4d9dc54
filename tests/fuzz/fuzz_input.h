/* Shared helpers of the libFuzzer harnesses in tests/fuzz: a reader that
 * turns the fuzzer's bytes into integers (biased towards the boundary
 * values where shape and stride arithmetic overflows), and the checks every
 * harness applies to an array the engine accepted. A failed check aborts,
 * which libFuzzer records as a finding with its reproducer. */
#ifndef CUNUMPY_FUZZ_INPUT_H
#define CUNUMPY_FUZZ_INPUT_H

#include <cunumpy/cunumpy.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_in {
  const uint8_t *p;
  size_t n;
} fz_in;

static inline uint8_t fz_u8(fz_in *in) {
  if (in->n == 0)
    return 0;
  in->n--;
  return *in->p++;
}

static inline uint64_t fz_u64(fz_in *in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)fz_u8(in) << (8 * i);
  return v;
}

/* An int64 drawn from: small values (most often), the values next to the
 * int64 limits and powers of two, or any 64-bit pattern. */
static inline int64_t fz_i64(fz_in *in) {
  uint8_t sel = fz_u8(in);
  switch (sel & 7) {
  case 0: {
    static const int64_t edge[] = {INT64_MIN,     INT64_MIN + 1, INT64_MAX,
                                   INT64_MAX - 1, -INT64_MAX / 2,
                                   INT64_MAX / 2, (int64_t)1 << 32,
                                   -((int64_t)1 << 32), (int64_t)1 << 62,
                                   -((int64_t)1 << 62), (int64_t)1 << 31};
    return edge[(sel >> 3) % (sizeof edge / sizeof edge[0])];
  }
  case 1:
    return (int64_t)fz_u64(in);
  default:
    return (int64_t)(int8_t)fz_u8(in);
  }
}

/* Small non-negative int in [0, mod). */
static inline int fz_small(fz_in *in, int mod) { return fz_u8(in) % mod; }

#define FZ_CHECK(cond, what)                                                   \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, __FILE__,      \
              __LINE__);                                                       \
      abort();                                                                 \
    }                                                                          \
  } while (0)

/* A status other than success leaves a message naming the function. */
static inline void fz_check_error(cn_status st) {
  if (st == CN_OK)
    return;
  const char *msg = cn_last_error();
  FZ_CHECK(msg != NULL && msg[0] != '\0', "an error without a message");
  FZ_CHECK(strlen(msg) < 4096, "an unterminated error message");
  cn_clear_error();
}

/* The metadata of an accepted array is consistent: 0 <= ndim <= CN_MAX_DIMS,
 * extents non-negative, size their product (which fits in int64). Writes
 * the layout to shape/strides (capacity CN_MAX_DIMS) and returns size. */
static inline int64_t fz_check_meta(cn_array a, int32_t *ndim, int64_t *shape,
                                    int64_t *strides, int64_t *itemsize) {
  int64_t size = -1;
  FZ_CHECK(cn_array_ndim(ndim, a) == CN_OK, "cn_array_ndim");
  FZ_CHECK(*ndim >= 0 && *ndim <= CN_MAX_DIMS, "ndim out of range");
  FZ_CHECK(cn_array_shape(shape, CN_MAX_DIMS, a) == CN_OK, "cn_array_shape");
  FZ_CHECK(cn_array_strides(strides, CN_MAX_DIMS, a) == CN_OK,
           "cn_array_strides");
  FZ_CHECK(cn_array_size(&size, a) == CN_OK, "cn_array_size");
  FZ_CHECK(cn_array_itemsize(itemsize, a) == CN_OK, "cn_array_itemsize");
  __int128 prod = 1;
  for (int32_t i = 0; i < *ndim; i++) {
    FZ_CHECK(shape[i] >= 0, "negative extent");
    prod *= shape[i];
    if (prod > INT64_MAX)
      prod = (__int128)INT64_MAX + 1; /* saturate: reported below */
  }
  FZ_CHECK(prod <= INT64_MAX, "element count overflows int64");
  FZ_CHECK(size == (int64_t)prod, "size is not the product of the extents");
  return size;
}

/* Byte range [lo, hi) reachable from element (0,...,0) of a non-empty
 * array with these extents and strides (in elements), relative to it. */
static inline void fz_byte_range(int32_t ndim, const int64_t *shape,
                                 const int64_t *strides, int64_t itemsize,
                                 __int128 *lo, __int128 *hi) {
  *lo = 0;
  *hi = itemsize;
  for (int32_t i = 0; i < ndim; i++) {
    __int128 span = (__int128)(shape[i] - 1) * strides[i] * itemsize;
    if (span < 0)
      *lo += span;
    else
      *hi += span;
  }
}

/* Copies every element of a (at most cap bytes of them) out through the
 * engine: with ASan any read outside a's buffer is a finding. */
static inline void fz_read_all(cn_array a, int64_t size, int64_t itemsize,
                               int64_t cap) {
  if (size == 0 || size > cap / itemsize)
    return;
  void *buf = malloc((size_t)(size * itemsize));
  FZ_CHECK(buf != NULL, "harness out of memory");
  cn_status st = cn_copy_to_buffer(buf, size * itemsize, a, CN_ORDER_C);
  FZ_CHECK(st == CN_OK, "cn_copy_to_buffer of an accepted array failed");
  free(buf);
}

#endif
