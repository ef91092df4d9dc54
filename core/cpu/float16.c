/* Bulk float16 <-> float32 conversions: F16C (8 lanes per instruction) when
 * the CPU has it, the scalar conversions of float16.h otherwise. F16C
 * quiets signalling NaNs where NumPy keeps the payload, so blocks holding a
 * NaN are redone by the scalar code: results are identical on every CPU. */
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "float16.h"

#define CN_F16_UNLIKELY_(x) __builtin_expect(!!(x), 0)

static bool cn_f16_have_f16c(void) {
  /* every thread computes the same answer: relaxed order suffices */
  static atomic_int cached = -1;
  int v = atomic_load_explicit(&cached, memory_order_relaxed);
  if (v < 0) {
    /* clang 14's __builtin_cpu_supports has no "f16c": CPUID.1:ECX bit 29
     * ("avx" also checks that the OS saves the YMM state) */
    unsigned a, b, c, d;
    v = __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) &&
        (c & (1u << 29)) != 0;
    atomic_store_explicit(&cached, v, memory_order_relaxed);
  }
  return v != 0;
}

__attribute__((target("avx,f16c"))) static void
cn_f16_to_f32_f16c(float *dst, const cn_f16_t *src, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
    /* a NaN has all exponent bits set and a nonzero mantissa */
    __m128i mag = _mm_and_si128(h, _mm_set1_epi16(0x7fff));
    __m128i nan = _mm_cmpgt_epi16(mag, _mm_set1_epi16(0x7c00));
    if (CN_F16_UNLIKELY_(_mm_movemask_epi8(nan) != 0)) {
      for (int k = 0; k < 8; k++)
        dst[i + k] = cn_f16_to_f32(src[i + k]);
      continue;
    }
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; i++)
    dst[i] = cn_f16_to_f32(src[i]);
}

__attribute__((target("avx,f16c"))) static void
cn_f32_to_f16_f16c(cn_f16_t *dst, const float *src, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 v = _mm256_loadu_ps(src + i);
    if (CN_F16_UNLIKELY_(_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0)) {
      for (int k = 0; k < 8; k++)
        dst[i + k] = cn_f32_to_f16(src[i + k]);
      continue;
    }
    __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128((__m128i *)(void *)(dst + i), h);
  }
  for (; i < n; i++)
    dst[i] = cn_f32_to_f16(src[i]);
}

void cn_f16_to_f32_n(float *dst, const cn_f16_t *src,
                                   int64_t n) {
  if (cn_f16_have_f16c()) {
    cn_f16_to_f32_f16c(dst, src, n);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    dst[i] = cn_f16_to_f32(src[i]);
}

void cn_f32_to_f16_n(cn_f16_t *dst, const float *src,
                                   int64_t n) {
  if (cn_f16_have_f16c()) {
    cn_f32_to_f16_f16c(dst, src, n);
    return;
  }
  for (int64_t i = 0; i < n; i++)
    dst[i] = cn_f32_to_f16(src[i]);
}
