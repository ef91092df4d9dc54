/* The AVX2 normal kernel of the CPU fill (core/cpu/random.c): Philox in
 * vector lanes and SLEEF's log and sincos. The file is compiled for AVX2
 * and FMA as a whole, since clang passes SLEEF's __m256d arguments by the
 * translation unit's ISA; random.c calls it only after a CPU check. */
#include <immintrin.h>
#include <math.h>
#include <sleef.h>
#include <string.h>

#include "../philox.h"
#include "cpu.h"

/* Normals of 4 consecutive blocks (8 values) starting at counter block
 * `first`, with AVX2 Philox lanes and SLEEF's 1-ulp log and sincos. Every
 * block of a NORMAL fill goes through here (a short last group is computed
 * whole and truncated), so a value never depends on how a fill was split. */
void cn_cpu_normal_group4_avx2(double *out8, const uint32_t key[2],
                               const uint32_t counter[4], uint64_t first) {
  /* Lane j holds block first + j, one 32-bit counter word per 64-bit
   * element, so _mm256_mul_epu32 gives Philox's 32x32->64 products. */
  uint64_t w[4][4];
  for (int j = 0; j < 4; j++) {
    uint32_t c[4];
    memcpy(c, counter, sizeof c);
    c[3] = 0;
    cn_philox_add(c, first + (uint64_t)j);
    for (int t = 0; t < 4; t++)
      w[t][j] = c[t];
  }
  __m256i c0 = _mm256_loadu_si256((const __m256i *)w[0]);
  __m256i c1 = _mm256_loadu_si256((const __m256i *)w[1]);
  __m256i c2 = _mm256_loadu_si256((const __m256i *)w[2]);
  __m256i c3 = _mm256_loadu_si256((const __m256i *)w[3]);
  const __m256i m0 = _mm256_set1_epi64x(CN_PHILOX_M0);
  const __m256i m1 = _mm256_set1_epi64x(CN_PHILOX_M1);
  const __m256i lo32 = _mm256_set1_epi64x(0xffffffffll);
  uint32_t k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    __m256i p0 = _mm256_mul_epu32(c0, m0);
    __m256i p1 = _mm256_mul_epu32(c2, m1);
    __m256i n0 =
        _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), c1),
                         _mm256_set1_epi64x(k0));
    __m256i n2 =
        _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), c3),
                         _mm256_set1_epi64x(k1));
    c1 = _mm256_and_si256(p1, lo32);
    c3 = _mm256_and_si256(p0, lo32);
    c0 = n0;
    c2 = n2;
    k0 += CN_PHILOX_W0;
    k1 += CN_PHILOX_W1;
  }
  /* ua = w1:w0, ub = w3:w2, then their top 53 bits. */
  __m256i ua =
      _mm256_srli_epi64(_mm256_or_si256(c0, _mm256_slli_epi64(c1, 32)), 11);
  __m256i ub =
      _mm256_srli_epi64(_mm256_or_si256(c2, _mm256_slli_epi64(c3, 32)), 11);
  uint64_t a4[4], b4[4];
  _mm256_storeu_si256((__m256i *)a4, ua);
  _mm256_storeu_si256((__m256i *)b4, ub);
  double u1[4], th[4];
  for (int j = 0; j < 4; j++) {
    u1[j] = (double)a4[j] * CN_PHILOX_TWO_M53 + CN_PHILOX_TWO_M53;
    th[j] = 2.0 * CN_PHILOX_PI * ((double)b4[j] * CN_PHILOX_TWO_M53);
  }
  __m256d lg = Sleef_logd4_u10avx2(_mm256_loadu_pd(u1));
  __m256d rr = _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), lg));
  Sleef___m256d_2 sc = Sleef_sincosd4_u10avx2(_mm256_loadu_pd(th));
  double r4[4], s4[4], c4[4];
  _mm256_storeu_pd(r4, rr);
  _mm256_storeu_pd(s4, sc.x);
  _mm256_storeu_pd(c4, sc.y);
  for (int j = 0; j < 4; j++) {
    out8[2 * j] = r4[j] * c4[j];
    out8[2 * j + 1] = r4[j] * s4[j];
  }
}
