/* Choice of the contiguous float32/float64 kernels built on SLEEF's 1-ulp
 * vector functions (u10; hypot u05) for the CPU at run time: AVX-512F,
 * else AVX2+FMA, else none (the scalar libm loops of elementwise_<dtype>.c
 * run), of the power kernels for an exponent that is one value for the
 * whole loop and of complex abs (hypot of the parts). The kernels
 * themselves are in elementwise_sleef_<isa>.c (and the integer ones in
 * elementwise_<dtype>.c), compiled for their ISA; this file stays baseline
 * x86-64 as it runs first. */
#include <stdlib.h>

#include "elementwise.h"

/* 2: AVX-512F, 1: AVX2+FMA, 0: neither. CUNUMPY_NO_SLEEF=1 forces 0 (to
 * compare against libm). Computed once; a benign race stores one value. */
static int cn_sl_level(void) {
  static _Atomic int level = -1;
  int l = level;
  if (l < 0) {
    const char *env = getenv("CUNUMPY_NO_SLEEF");
    __builtin_cpu_init();
    if (env && env[0] == '1')
      l = 0;
    else if (__builtin_cpu_supports("avx512f"))
      l = 2;
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      l = 1;
    else
      l = 0;
    level = l;
  }
  return l;
}

cn_ew_kernel cn_ew_sleef_kernel(int32_t op, cn_dtype dt) {
  if (op < 0 || op >= CN_OP_COUNT_)
    return NULL;
  int l = cn_sl_level();
  if (dt == CN_FLOAT64)
    return l == 2 ? cn_sl_avx512_d[op] : l == 1 ? cn_sl_avx2_d[op] : NULL;
  if (dt == CN_FLOAT32)
    return l == 2 ? cn_sl_avx512_f[op] : l == 1 ? cn_sl_avx2_f[op] : NULL;
  if (op == CN_OPID_abs && dt == CN_COMPLEX128)
    return l == 2 ? cn_sl_avx512_cabs_d : l == 1 ? cn_sl_avx2_cabs_d : NULL;
  if (op == CN_OPID_abs && dt == CN_COMPLEX64)
    return l == 2 ? cn_sl_avx512_cabs_f : l == 1 ? cn_sl_avx2_cabs_f : NULL;
  return NULL;
}

cn_ew_kernel cn_ew_power_scalar_kernel(cn_dtype dt) {
  int l = cn_sl_level();
  if (dt == CN_FLOAT64)
    return l == 2 ? cn_sl_avx512_pow_scalar_d
           : l == 1 ? cn_sl_avx2_pow_scalar_d
                    : NULL;
  if (dt == CN_FLOAT32)
    return l == 2 ? cn_sl_avx512_pow_scalar_f
           : l == 1 ? cn_sl_avx2_pow_scalar_f
                    : NULL;
  switch (dt) {
#define CN_EW_POWS_CASE_(sfx, ctype, cls, cdt)                                 \
  case cdt:                                                                    \
    return cn_ew_power_scalar_##sfx;
    CN_CPU_DTYPES(CN_EW_POWS_CASE_)
#undef CN_EW_POWS_CASE_
  default:
    return NULL;
  }
}
