/* Host scalars <-> raw element bytes, with NumPy's unsafe-cast results. */
#include <string.h>

#include "cpu/dtypes.h"
#include "internal.h"

void cn_scalar_to_bytes(void *dst, cn_dtype dtype, cn_scalar v) {
#define TO_BYTES(sfx, T, CLS, E)                                               \
  case E: {                                                                    \
    T x;                                                                       \
    switch (v.kind) {                                                          \
    case CN_SCALAR_BOOL:                                                       \
      x = CN_CONV(CLS, kb, T, (bool)(v.i != 0));                                \
      break;                                                                   \
    case CN_SCALAR_INT:                                                        \
      x = CN_CONV(CLS, ki, T, (int64_t)v.i);                                    \
      break;                                                                   \
    case CN_SCALAR_UINT:                                                       \
      x = CN_CONV(CLS, ku, T, (uint64_t)v.i);                                   \
      break;                                                                   \
    case CN_SCALAR_FLOAT:                                                      \
      x = CN_CONV(CLS, kf, T, v.re);                                            \
      break;                                                                   \
    default:                                                                   \
      x = CN_CONV(CLS, kc, T, (cn_c128_t)CMPLX(v.re, v.im));                    \
      break;                                                                   \
    }                                                                          \
    memcpy(dst, &x, sizeof x);                                                 \
    return;                                                                    \
  }
  switch (dtype) {
    CN_CPU_STORAGE_DTYPES(TO_BYTES)
  default:
    return;
  }
#undef TO_BYTES
}

cn_scalar cn_scalar_from_bytes(const void *src, cn_dtype dtype) {
  switch (dtype) {
  case CN_BOOL: {
    bool x;
    memcpy(&x, src, 1);
    return cn_scalar_bool(x);
  }
#define FROM_INT(sfx, T, CLS, E)                                               \
  case E: {                                                                    \
    T x;                                                                       \
    memcpy(&x, src, sizeof x);                                                 \
    return cn_scalar_int((int64_t)x);                                          \
  }
    FROM_INT(i8, int8_t, I, CN_INT8)
    FROM_INT(i16, int16_t, I, CN_INT16)
    FROM_INT(i32, int32_t, I, CN_INT32)
    FROM_INT(i64, int64_t, I, CN_INT64)
    FROM_INT(u8, uint8_t, U, CN_UINT8)
    FROM_INT(u16, uint16_t, U, CN_UINT16)
    FROM_INT(u32, uint32_t, U, CN_UINT32)
#undef FROM_INT
  case CN_UINT64: {
    uint64_t x;
    memcpy(&x, src, sizeof x);
    return x > INT64_MAX ? cn_scalar_uint(x) : cn_scalar_int((int64_t)x);
  }
  case CN_FLOAT16: {
    cn_f16_t x;
    memcpy(&x, src, sizeof x);
    return cn_scalar_float(cn_f16_to_f64(x));
  }
  case CN_FLOAT32: {
    float x;
    memcpy(&x, src, sizeof x);
    return cn_scalar_float(x);
  }
  case CN_FLOAT64: {
    double x;
    memcpy(&x, src, sizeof x);
    return cn_scalar_float(x);
  }
  case CN_COMPLEX64: {
    float x[2];
    memcpy(x, src, sizeof x);
    return cn_scalar_complex(x[0], x[1]);
  }
  case CN_COMPLEX128: {
    double x[2];
    memcpy(x, src, sizeof x);
    return cn_scalar_complex(x[0], x[1]);
  }
  default:
    return cn_scalar_int(0);
  }
}
