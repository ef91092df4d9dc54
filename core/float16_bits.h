/* float16 (IEEE binary16) conversions on bit patterns, NumPy's bit for bit:
 * round to nearest even, overflow to inf, subnormals kept, NaN payloads
 * moved by truncation without quieting (float32 0x7f800001 gives 0x7c01:
 * a NaN stays a NaN). Integer code in the subset of C that is also CUDA
 * C++: the CPU's conversions (core/cpu/float16.h) and the CUDA prelude's
 * (this file is a part of it, see core/cuda/CMakeLists.txt) are this one
 * definition. In the prelude CN_DEV is defined and qualifies the
 * functions; in C they are static inline. */
#ifndef CUNUMPY_FLOAT16_BITS_H
#define CUNUMPY_FLOAT16_BITS_H

#ifdef CN_DEV
#define CN_F16_FN CN_DEV
typedef cn_u16 cn_f16_u16;
typedef cn_u32 cn_f16_u32;
typedef cn_u64 cn_f16_u64;
#else
#include <stdint.h>
#define CN_F16_FN static inline
typedef uint16_t cn_f16_u16;
typedef uint32_t cn_f16_u32;
typedef uint64_t cn_f16_u64;
#endif

/* Position of the highest set bit of a nonzero 10-bit mantissa. */
CN_F16_FN int cn_f16_top_bit(cn_f16_u32 m) {
  int p = 0;
  while (m >> (p + 1))
    p++;
  return p;
}

CN_F16_FN cn_f16_u32 cn_f16_bits_to_f32_bits(cn_f16_u16 h) {
  cn_f16_u32 sign = (cn_f16_u32)(h & 0x8000u) << 16;
  cn_f16_u32 exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f)
    return sign | 0x7f800000u | (man << 13);
  if (exp == 0) {
    if (man == 0)
      return sign;
    /* subnormal: the leading 1 moves up to the implicit bit (bit 10) */
    int shift = 10 - cn_f16_top_bit(man);
    man = (man << shift) & 0x3ffu;
    return sign | ((cn_f16_u32)(113 - shift) << 23) | (man << 13);
  }
  return sign | ((exp + 112u) << 23) | (man << 13);
}

CN_F16_FN cn_f16_u64 cn_f16_bits_to_f64_bits(cn_f16_u16 h) {
  cn_f16_u64 sign = (cn_f16_u64)(h & 0x8000u) << 48;
  cn_f16_u64 exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1f)
    return sign | 0x7ff0000000000000ull | (man << 42);
  if (exp == 0) {
    if (man == 0)
      return sign;
    int shift = 10 - cn_f16_top_bit((cn_f16_u32)man);
    man = (man << shift) & 0x3ffu;
    return sign | ((cn_f16_u64)(1009 - shift) << 52) | (man << 42);
  }
  return sign | ((exp + 1008u) << 52) | (man << 42);
}

/* m * 2^-shift rounded to an integer, ties to even. */
CN_F16_FN cn_f16_u64 cn_f16_round_shift(cn_f16_u64 m, int shift) {
  if (shift >= 64)
    return 0;
  if (shift <= 0)
    return m;
  cn_f16_u64 q = m >> shift, rem = m & ((1ull << shift) - 1);
  cn_f16_u64 half = 1ull << (shift - 1);
  return q + ((rem > half || (rem == half && (q & 1))) ? 1u : 0u);
}

/* float16 magnitude bits of the finite binary value with biased exponent
 * e >= 1 (bias `bias`) and mantissa m of `mbits` bits (inf when it rounds
 * beyond 65504). */
CN_F16_FN cn_f16_u16 cn_f16_from_parts(int e, cn_f16_u64 m, int bias,
                                       int mbits) {
  int he = e - bias + 15; /* float16's biased exponent */
  cn_f16_u64 full = m | (1ull << mbits);
  if (he >= 1) {
    cn_f16_u64 q = cn_f16_round_shift(full, mbits - 10); /* 11 bits */
    cn_f16_u64 bits = ((cn_f16_u64)he << 10) + (q - 0x400u); /* a carry
                                                     bumps the exponent */
    return bits >= 0x7c00u ? (cn_f16_u16)0x7c00u : (cn_f16_u16)bits;
  }
  /* float16 subnormal: units of 2^-24 */
  return (cn_f16_u16)cn_f16_round_shift(full, mbits - 9 - he);
}

CN_F16_FN cn_f16_u16 cn_f32_bits_to_f16_bits(cn_f16_u32 u) {
  cn_f16_u16 sign = (cn_f16_u16)((u >> 16) & 0x8000u);
  cn_f16_u32 e = (u >> 23) & 0xffu, m = u & 0x7fffffu;
  if (e == 0xff) {
    cn_f16_u16 p = (cn_f16_u16)(m >> 13);
    return (cn_f16_u16)(sign | 0x7c00u | ((m != 0 && p == 0) ? 1u : p));
  }
  if (e > 127 + 16) /* >= 2^17: beyond every float16 */
    return (cn_f16_u16)(sign | 0x7c00u);
  if (e == 0) /* zero or a float32 subnormal: far below float16's */
    return sign;
  return (cn_f16_u16)(sign | cn_f16_from_parts((int)e, m, 127, 23));
}

CN_F16_FN cn_f16_u16 cn_f64_bits_to_f16_bits(cn_f16_u64 u) {
  cn_f16_u16 sign = (cn_f16_u16)((u >> 48) & 0x8000u);
  int e = (int)((u >> 52) & 0x7ffu);
  cn_f16_u64 m = u & 0xfffffffffffffull;
  if (e == 0x7ff) {
    cn_f16_u16 p = (cn_f16_u16)(m >> 42);
    return (cn_f16_u16)(sign | 0x7c00u | ((m != 0 && p == 0) ? 1u : p));
  }
  if (e > 1023 + 16)
    return (cn_f16_u16)(sign | 0x7c00u);
  if (e < 1023 - 40) /* below 2^-40 (zero and subnormals too): zero */
    return sign;
  return (cn_f16_u16)(sign | cn_f16_from_parts(e, m, 1023, 52));
}

#endif
