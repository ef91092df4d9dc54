/* float16 (IEEE binary16) storage and conversions on the host. Values are
 * held as their bit patterns (cn_f16_t) and computed in float32, as NumPy
 * does. The conversions are NumPy's bit for bit: round to nearest even,
 * overflow to inf, subnormals kept, and NaN payloads moved by truncation
 * without quieting (0x7f800001 gives 0x7c01, a NaN kept a NaN). */
#ifndef CUNUMPY_CPU_FLOAT16_H
#define CUNUMPY_CPU_FLOAT16_H

#include <stdint.h>
#include <string.h>

typedef uint16_t cn_f16_t;

static inline uint32_t cn_f32_bits_(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}
static inline float cn_f32_from_bits_(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline float cn_f16_to_f32(cn_f16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f)
    return cn_f32_from_bits_(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    if (man == 0)
      return cn_f32_from_bits_(sign);
    /* subnormal: shift the leading 1 up to the implicit bit (bit 10) */
    int shift = __builtin_clz(man) - 21;
    man = (man << shift) & 0x3ffu;
    exp = (uint32_t)(1 - shift);
  }
  return cn_f32_from_bits_(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline double cn_f16_to_f64(cn_f16_t h) {
  uint64_t sign = (uint64_t)(h & 0x8000u) << 48;
  uint64_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  uint64_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7ff0000000000000ull | (man << 42);
  } else if (exp == 0 && man == 0) {
    bits = sign;
  } else {
    if (exp == 0) {
      int shift = __builtin_clzll(man) - 53;
      man = (man << shift) & 0x3ffu;
      exp = (uint64_t)(1 - shift);
    }
    bits = sign | ((exp + 1008u) << 52) | (man << 42);
  }
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

/* Rounds the magnitude m * 2^-shift to an integer, ties to even. */
static inline uint64_t cn_f16_round_shift_(uint64_t m, int shift) {
  if (shift >= 64)
    return 0;
  if (shift == 0)
    return m;
  uint64_t q = m >> shift, rem = m & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  return q + (rem > half || (rem == half && (q & 1)));
}

/* Magnitude bits of a finite non-negative binary value with biased exponent
 * e (bias `bias`) and `mbits` mantissa bits m, as float16 bits (inf when it
 * rounds beyond 65504). */
static inline cn_f16_t cn_f16_from_parts_(int e, uint64_t m, int bias,
                                          int mbits) {
  if (e == 0) /* zero or a subnormal of the source: far below float16's */
    return 0;
  int he = e - bias + 15; /* float16 biased exponent */
  uint64_t full = m | (1ull << mbits);
  if (he >= 1) {
    uint64_t q = cn_f16_round_shift_(full, mbits - 10); /* 11 bits + carry */
    uint64_t bits = ((uint64_t)he << 10) + (q - 0x400u); /* carry bumps he */
    return bits >= 0x7c00u ? (cn_f16_t)0x7c00u : (cn_f16_t)bits;
  }
  /* float16 subnormal: units of 2^-24 */
  return (cn_f16_t)cn_f16_round_shift_(full, mbits - 10 + 1 - he);
}

static inline cn_f16_t cn_f32_to_f16(float f) {
  uint32_t u = cn_f32_bits_(f);
  cn_f16_t sign = (cn_f16_t)((u >> 16) & 0x8000u);
  uint32_t e = (u >> 23) & 0xffu, m = u & 0x7fffffu;
  if (e == 0xff) {
    cn_f16_t p = (cn_f16_t)(m >> 13);
    return (cn_f16_t)(sign | 0x7c00u | (m != 0 && p == 0 ? 1u : p));
  }
  if (e > 127 + 16) /* >= 2^17: beyond any float16 */
    return (cn_f16_t)(sign | 0x7c00u);
  return (cn_f16_t)(sign | cn_f16_from_parts_((int)e, m, 127, 23));
}

static inline cn_f16_t cn_f64_to_f16(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  cn_f16_t sign = (cn_f16_t)((u >> 48) & 0x8000u);
  uint32_t e = (uint32_t)((u >> 52) & 0x7ffu);
  uint64_t m = u & 0xfffffffffffffull;
  if (e == 0x7ff) {
    cn_f16_t p = (cn_f16_t)(m >> 42);
    return (cn_f16_t)(sign | 0x7c00u | (m != 0 && p == 0 ? 1u : p));
  }
  if (e > 1023 + 16)
    return (cn_f16_t)(sign | 0x7c00u);
  if (e < 1023 - 40) /* below 2^-40: rounds to zero */
    return sign;
  return (cn_f16_t)(sign | cn_f16_from_parts_((int)e, m, 1023, 52));
}

/* n contiguous values converted, F16C when the CPU has it (chosen once at
 * run time), else the scalar conversions above; same results either way. */
__attribute__((visibility("hidden"))) void
cn_f16_to_f32_n(float *dst, const cn_f16_t *src, int64_t n);
__attribute__((visibility("hidden"))) void
cn_f32_to_f16_n(cn_f16_t *dst, const float *src, int64_t n);

#endif
