/* The order-preserving key maps of core/sort_keys.h on raw element bits,
 * in the subset of C that is also CUDA C++: the one definition that the
 * CPU sort and searching code (through core/sort_keys.h) and the CUDA
 * plugin's sort kernels (this file is a part of the device prelude, see
 * core/cuda/CMakeLists.txt) both use, so their orders agree bit for bit.
 * In the prelude CN_DEV is defined (prelude/base.cuh) and qualifies the
 * functions; in C they are static inline. Integer code only: no bit casts,
 * no headers in the prelude. */
#ifndef CUNUMPY_SORT_KEY_BITS_H
#define CUNUMPY_SORT_KEY_BITS_H

#ifdef CN_DEV
#define CN_KEY_FN CN_DEV
typedef cn_u64 cn_key_u64;
typedef cn_u32 cn_key_u32;
#else
#include <stdbool.h>
#include <stdint.h>
#define CN_KEY_FN static inline
typedef uint64_t cn_key_u64;
typedef uint32_t cn_key_u32;
#endif

#define CN_KEY_SIGN64 ((cn_key_u64)1 << 63)

/* Key of the float64 with bits u: NaN -> all ones (after +inf); negative
 * -> ~u; non-negative -> u | sign bit; with canon, -0.0 -> +0.0's key. */
CN_KEY_FN cn_key_u64 cn_key_bits64(cn_key_u64 u, bool canon) {
  if ((u & ~CN_KEY_SIGN64) > 0x7ff0000000000000ull)
    return ~(cn_key_u64)0;
  if (canon && (u & ~CN_KEY_SIGN64) == 0)
    u = 0;
  return (u >> 63) ? ~u : (u | CN_KEY_SIGN64);
}
/* Bits of the float64 whose key is k (NaN keys give a NaN). */
CN_KEY_FN cn_key_u64 cn_unkey_bits64(cn_key_u64 k) {
  return (k >> 63) ? (k & ~CN_KEY_SIGN64) : ~k;
}
/* float32 versions of the two above (keys in the low 32 bits). */
CN_KEY_FN cn_key_u64 cn_key_bits32(cn_key_u32 u, bool canon) {
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0xffffffffu;
  if (canon && (u & 0x7fffffffu) == 0)
    u = 0;
  return (u >> 31) ? (cn_key_u32)~u : (u | 0x80000000u);
}
CN_KEY_FN cn_key_u32 cn_unkey_bits32(cn_key_u64 k) {
  cn_key_u32 kk = (cn_key_u32)k;
  return (kk >> 31) ? (kk & 0x7fffffffu) : (cn_key_u32)~kk;
}
/* float16 versions (keys in the low 16 bits). */
CN_KEY_FN cn_key_u64 cn_key_bits16(cn_key_u32 u, bool canon) {
  u &= 0xffffu;
  if ((u & 0x7fffu) > 0x7c00u)
    return 0xffffu;
  if (canon && (u & 0x7fffu) == 0)
    u = 0;
  return (u >> 15) ? (~u & 0xffffu) : (u | 0x8000u);
}
CN_KEY_FN cn_key_u32 cn_unkey_bits16(cn_key_u64 k) {
  cn_key_u32 kk = (cn_key_u32)k & 0xffffu;
  return (kk >> 15) ? (kk & 0x7fffu) : (~kk & 0xffffu);
}
/* Key of a signed integer of `bits` bits (two's complement, zero-extended
 * into u): the sign bit flipped. Its own inverse. */
CN_KEY_FN cn_key_u64 cn_key_signed(cn_key_u64 u, int bits) {
  return u ^ ((cn_key_u64)1 << (bits - 1));
}

#endif
