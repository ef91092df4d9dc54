/* The CPU backend's dtype list as an X-macro: (suffix, C type, class, enum).
 * Class: kb bool, ki signed, ku unsigned, kf float, kh float16 (stored as
 * its bits, computed in float32), kc complex (lower case: <complex.h>
 * defines I). CN_CPU_DTYPES lists the compute dtypes, which have their own
 * loops; CN_CPU_STORAGE_DTYPES adds float16, in index order (promotion
 * order), for what only stores, casts and moves elements. */
#ifndef CUNUMPY_CPU_DTYPES_H
#define CUNUMPY_CPU_DTYPES_H

#include "../complex_compat.h"
#include "float16.h"
#include <stdbool.h>
#include <stdint.h>

typedef float _Complex cn_c64_t;
typedef double _Complex cn_c128_t;

#define CN_CPU_DTYPES_(X, H)                                                   \
  X(b, bool, kb, CN_BOOL)                                                       \
  X(i8, int8_t, ki, CN_INT8)                                                    \
  X(i16, int16_t, ki, CN_INT16)                                                 \
  X(i32, int32_t, ki, CN_INT32)                                                 \
  X(i64, int64_t, ki, CN_INT64)                                                 \
  X(u8, uint8_t, ku, CN_UINT8)                                                  \
  X(u16, uint16_t, ku, CN_UINT16)                                               \
  X(u32, uint32_t, ku, CN_UINT32)                                               \
  X(u64, uint64_t, ku, CN_UINT64)                                               \
  H(f16, cn_f16_t, kh, CN_FLOAT16)                                              \
  X(f32, float, kf, CN_FLOAT32)                                                 \
  X(f64, double, kf, CN_FLOAT64)                                                \
  X(c64, cn_c64_t, kc, CN_COMPLEX64)                                            \
  X(c128, cn_c128_t, kc, CN_COMPLEX128)
#define CN_CPU_NO_DTYPE_(sfx, T, cls, E)
#define CN_CPU_DTYPES(X) CN_CPU_DTYPES_(X, CN_CPU_NO_DTYPE_)
#define CN_CPU_STORAGE_DTYPES(X) CN_CPU_DTYPES_(X, X)

/* Float to integer as NumPy 2.x's scalar loops do on x86-64 (truncating
 * cvttsd2si; NaN and out-of-range give the "integer indefinite" INT_MIN of
 * the conversion width), without C's undefined behaviour:
 *   int64            cvtt64(x)
 *   int32            cvtt32(x)
 *   int16/8, uint16/8  low bits of cvtt32(x)
 *   uint32           low bits of cvtt64(x)
 *   uint64           x >= 2^63 ? cvtt64(x - 2^63) ^ 2^63 : cvtt64(x) (gcc)
 * core/cuda/prelude/cast.cuh (cn_f2i) implements the same table. */
static inline int64_t cn_f2i64(double x) {
  if (!(x > -9223372036854775808.0 && x < 9223372036854775808.0))
    return INT64_MIN;
  return (int64_t)x;
}
static inline int32_t cn_f2i32(double x) {
  if (!(x > -2147483649.0 && x < 2147483648.0))
    return INT32_MIN;
  return (int32_t)x;
}
static inline uint64_t cn_f2u64(double x) {
  if (x >= 9223372036854775808.0)
    return (uint64_t)cn_f2i64(x - 9223372036854775808.0) ^ ((uint64_t)1 << 63);
  return (uint64_t)cn_f2i64(x);
}
/* x converted to the integer type TD (sizeof folds at compile time). */
#define CN_F2I_(TD, x) (sizeof(TD) == 8 ? (TD)cn_f2i64(x) : (TD)cn_f2i32(x))
#define CN_F2U_(TD, x)                                                         \
  (sizeof(TD) == 8   ? (TD)cn_f2u64(x)                                         \
   : sizeof(TD) == 4 ? (TD)cn_f2i64(x)                                         \
                     : (TD)cn_f2i32(x))

/* CN_CONV_<dst class><src class>(TD, x): value x converted to type TD. */
#define CN_CONV_kbkb(TD, x) (x)
#define CN_CONV_kbki(TD, x) ((x) != 0)
#define CN_CONV_kbku(TD, x) ((x) != 0)
#define CN_CONV_kbkf(TD, x) ((x) != 0)
#define CN_CONV_kbkc(TD, x) ((x) != 0)
#define CN_CONV_kikb(TD, x) ((TD)(x))
#define CN_CONV_kiki(TD, x) ((TD)(x))
#define CN_CONV_kiku(TD, x) ((TD)(x))
#define CN_CONV_kikf(TD, x) CN_F2I_(TD, (double)(x))
#define CN_CONV_kikc(TD, x) CN_F2I_(TD, creal(x))
#define CN_CONV_kukb(TD, x) ((TD)(x))
#define CN_CONV_kuki(TD, x) ((TD)(x))
#define CN_CONV_kuku(TD, x) ((TD)(x))
#define CN_CONV_kukf(TD, x) CN_F2U_(TD, (double)(x))
#define CN_CONV_kukc(TD, x) CN_F2U_(TD, creal(x))
#define CN_CONV_kfkb(TD, x) ((TD)(x))
#define CN_CONV_kfki(TD, x) ((TD)(x))
#define CN_CONV_kfku(TD, x) ((TD)(x))
#define CN_CONV_kfkf(TD, x) ((TD)(x))
#define CN_CONV_kfkc(TD, x) ((TD)creal(x))
#define CN_CONV_kckb(TD, x) ((TD)(x))
#define CN_CONV_kcki(TD, x) ((TD)(x))
#define CN_CONV_kcku(TD, x) ((TD)(x))
#define CN_CONV_kckf(TD, x) ((TD)(x))
#define CN_CONV_kckc(TD, x) ((TD)(x))
/* float16: through float32, which holds every float16 exactly, except
 * from float64 and complex128 (one rounding, not two) and to float64 and
 * complex (NaN payloads moved bit for bit, as NumPy: a float32 -> float64
 * conversion would quiet a signalling NaN). */
#define CN_CONV_khkb(TD, x) ((x) ? (cn_f16_t)0x3c00u : (cn_f16_t)0)
#define CN_CONV_khki(TD, x) cn_f32_to_f16((float)(x))
#define CN_CONV_khku(TD, x) cn_f32_to_f16((float)(x))
#define CN_CONV_khkh(TD, x) (x)
#define CN_CONV_khkf(TD, x)                                                    \
  _Generic((x), float: cn_f32_to_f16, default: cn_f64_to_f16)(x)
#define CN_CONV_khkc(TD, x)                                                    \
  _Generic((x), cn_c64_t: cn_f32_to_f16(crealf(x)),                            \
           default: cn_f64_to_f16(creal(x)))
#define CN_CONV_kbkh(TD, x) (((x) & 0x7fffu) != 0)
#define CN_CONV_kikh(TD, x) CN_CONV_kikf(TD, cn_f16_to_f32(x))
#define CN_CONV_kukh(TD, x) CN_CONV_kukf(TD, cn_f16_to_f32(x))
#define CN_CONV_kfkh(TD, x)                                                    \
  _Generic((TD)0, float: cn_f16_to_f32, default: cn_f16_to_f64)(x)
#define CN_CONV_kckh(TD, x)                                                    \
  _Generic((TD)0, cn_c64_t: (TD)cn_f16_to_f32(x),                              \
           default: (TD)cn_f16_to_f64(x))
#define CN_CONV(DC, SC, TD, x) CN_CONV_##DC##SC(TD, x)

#endif
