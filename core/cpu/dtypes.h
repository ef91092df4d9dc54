/* The CPU backend's dtype list as an X-macro: (suffix, C type, class, enum).
 * Class: kb bool, ki signed, ku unsigned, kf float, kc complex (lower case:
 * <complex.h> defines I). Every per-dtype
 * loop is generated from this list. */
#ifndef CUNUMPY_CPU_DTYPES_H
#define CUNUMPY_CPU_DTYPES_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

typedef float _Complex cn_c64_t;
typedef double _Complex cn_c128_t;

#define CN_CPU_DTYPES(X)                                                       \
  X(b, bool, kb, CN_BOOL)                                                       \
  X(i8, int8_t, ki, CN_INT8)                                                    \
  X(i16, int16_t, ki, CN_INT16)                                                 \
  X(i32, int32_t, ki, CN_INT32)                                                 \
  X(i64, int64_t, ki, CN_INT64)                                                 \
  X(u8, uint8_t, ku, CN_UINT8)                                                  \
  X(u16, uint16_t, ku, CN_UINT16)                                               \
  X(u32, uint32_t, ku, CN_UINT32)                                               \
  X(u64, uint64_t, ku, CN_UINT64)                                               \
  X(f32, float, kf, CN_FLOAT32)                                                 \
  X(f64, double, kf, CN_FLOAT64)                                                \
  X(c64, cn_c64_t, kc, CN_COMPLEX64)                                            \
  X(c128, cn_c128_t, kc, CN_COMPLEX128)

/* Float to integer the way NumPy behaves on x86-64: through a 64-bit
 * truncating conversion (NaN and out-of-range give INT64_MIN), then
 * wrapping to the narrower type. Avoids C's undefined behaviour. */
static inline int64_t cn_f2i64(double x) {
  if (!(x > -9223372036854775808.0 && x < 9223372036854775808.0))
    return INT64_MIN;
  return (int64_t)x;
}
static inline uint64_t cn_f2u64(double x) {
  if (x >= 9223372036854775808.0 && x < 18446744073709551616.0)
    return (uint64_t)(x - 9223372036854775808.0) + ((uint64_t)1 << 63);
  return (uint64_t)cn_f2i64(x);
}

/* CN_CONV_<dst class><src class>(TD, x): value x converted to type TD. */
#define CN_CONV_kbkb(TD, x) (x)
#define CN_CONV_kbki(TD, x) ((x) != 0)
#define CN_CONV_kbku(TD, x) ((x) != 0)
#define CN_CONV_kbkf(TD, x) ((x) != 0)
#define CN_CONV_kbkc(TD, x) ((x) != 0)
#define CN_CONV_kikb(TD, x) ((TD)(x))
#define CN_CONV_kiki(TD, x) ((TD)(x))
#define CN_CONV_kiku(TD, x) ((TD)(x))
#define CN_CONV_kikf(TD, x) ((TD)cn_f2i64((double)(x)))
#define CN_CONV_kikc(TD, x) ((TD)cn_f2i64(creal(x)))
#define CN_CONV_kukb(TD, x) ((TD)(x))
#define CN_CONV_kuki(TD, x) ((TD)(x))
#define CN_CONV_kuku(TD, x) ((TD)(x))
#define CN_CONV_kukf(TD, x) ((TD)cn_f2u64((double)(x)))
#define CN_CONV_kukc(TD, x) ((TD)cn_f2u64(creal(x)))
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
#define CN_CONV(DC, SC, TD, x) CN_CONV_##DC##SC(TD, x)

#endif
