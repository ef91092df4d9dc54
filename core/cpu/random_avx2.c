/* The AVX2 kernels of the CPU fill (core/cpu/random.c): Philox in vector
 * lanes (raw counter-block words, and normals with SLEEF's log and
 * sincos) and the log1p-based transforms of uniforms. The file is compiled for AVX2
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

/* Philox4x32-10 on the 8 blocks of lanes a (4) and b (4), one 32-bit word
 * per 64-bit element; two independent sets hide the multiplies' latency. */
static inline void philox_rounds8(__m256i a[4], __m256i b[4], uint32_t k0,
                                  uint32_t k1) {
  const __m256i m0 = _mm256_set1_epi64x(CN_PHILOX_M0);
  const __m256i m1 = _mm256_set1_epi64x(CN_PHILOX_M1);
  const __m256i lo32 = _mm256_set1_epi64x(0xffffffffll);
  for (int r = 0; r < 10; r++) {
    const __m256i vk0 = _mm256_set1_epi64x(k0), vk1 = _mm256_set1_epi64x(k1);
    __m256i pa0 = _mm256_mul_epu32(a[0], m0), pa1 = _mm256_mul_epu32(a[2], m1);
    __m256i pb0 = _mm256_mul_epu32(b[0], m0), pb1 = _mm256_mul_epu32(b[2], m1);
    a[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pa1, 32), a[1]),
                            vk0);
    a[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pa0, 32), a[3]),
                            vk1);
    b[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pb1, 32), b[1]),
                            vk0);
    b[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pb0, 32), b[3]),
                            vk1);
    a[1] = _mm256_and_si256(pa1, lo32);
    a[3] = _mm256_and_si256(pa0, lo32);
    b[1] = _mm256_and_si256(pb1, lo32);
    b[3] = _mm256_and_si256(pb0, lo32);
    k0 += CN_PHILOX_W0;
    k1 += CN_PHILOX_W1;
  }
}

/* Words w[4 i + k] of the 4 blocks in lanes c (block order). */
static inline void store_blocks4(uint32_t *w, const __m256i c[4]) {
  __m256i u01 = _mm256_or_si256(c[0], _mm256_slli_epi64(c[1], 32));
  __m256i u23 = _mm256_or_si256(c[2], _mm256_slli_epi64(c[3], 32));
  __m256i b02 = _mm256_unpacklo_epi64(u01, u23); /* blocks 0, 2 */
  __m256i b13 = _mm256_unpackhi_epi64(u01, u23); /* blocks 1, 3 */
  _mm256_storeu_si256((__m256i *)w, _mm256_permute2x128_si256(b02, b13, 0x20));
  _mm256_storeu_si256((__m256i *)(w + 8),
                      _mm256_permute2x128_si256(b02, b13, 0x31));
}

void cn_cpu_philox_blocks_avx2(uint32_t *w, int64_t nb, const uint32_t key[2],
                               const uint32_t counter[4], uint64_t first,
                               uint32_t word3) {
  uint32_t base[4];
  memcpy(base, counter, sizeof base);
  base[3] = word3;
  cn_philox_add(base, first);
  int64_t i = 0;
  for (; i + 8 <= nb; i += 8) {
    __m256i a[4], b[4];
    if ((uint64_t)base[0] + (uint64_t)i + 8 <= ((uint64_t)1 << 32)) {
      /* no carry out of word 0 within these 8 blocks */
      const __m256i c0 = _mm256_set1_epi64x((int64_t)base[0] + i);
      a[0] = _mm256_add_epi64(c0, _mm256_setr_epi64x(0, 1, 2, 3));
      b[0] = _mm256_add_epi64(c0, _mm256_setr_epi64x(4, 5, 6, 7));
      a[1] = b[1] = _mm256_set1_epi64x(base[1]);
      a[2] = b[2] = _mm256_set1_epi64x(base[2]);
      a[3] = b[3] = _mm256_set1_epi64x(word3);
    } else {
      uint64_t l[4][8];
      for (int j = 0; j < 8; j++) {
        uint32_t c[4];
        memcpy(c, base, sizeof c);
        cn_philox_add(c, (uint64_t)i + (uint64_t)j);
        for (int t = 0; t < 4; t++)
          l[t][j] = c[t];
      }
      for (int t = 0; t < 4; t++) {
        a[t] = _mm256_loadu_si256((const __m256i *)l[t]);
        b[t] = _mm256_loadu_si256((const __m256i *)(l[t] + 4));
      }
    }
    philox_rounds8(a, b, key[0], key[1]);
    store_blocks4(w + 4 * i, a);
    store_blocks4(w + 4 * i + 16, b);
  }
  for (; i < nb; i++) {
    uint32_t c[4];
    memcpy(c, base, sizeof c);
    cn_philox_add(c, (uint64_t)i);
    cn_philox4x32_10(w + 4 * i, c, key);
  }
}

/* (x >> 11) 2^-53 in each lane, exactly: the 53-bit value's high 21 and
 * low 32 bits become doubles by the exponent-bias trick (AVX2 has no
 * 64-bit integer to double conversion) and their sum is exact. */
static inline __m256d u53_pd(__m256i x) {
  const __m256i v = _mm256_srli_epi64(x, 11);
  const __m256i lo = _mm256_and_si256(v, _mm256_set1_epi64x(0xffffffffll));
  const __m256i hi = _mm256_srli_epi64(v, 32);
  __m256d dlo = _mm256_sub_pd(
      _mm256_castsi256_pd(
          _mm256_or_si256(lo, _mm256_set1_epi64x(0x4330000000000000ll))),
      _mm256_set1_pd(4503599627370496.0)); /* 2^52 */
  __m256d dhi = _mm256_sub_pd(
      _mm256_castsi256_pd(
          _mm256_or_si256(hi, _mm256_set1_epi64x(0x4530000000000000ll))),
      _mm256_set1_pd(19342813113834066795298816.0)); /* 2^84 */
  return _mm256_mul_pd(_mm256_add_pd(dhi, dlo),
                       _mm256_set1_pd(CN_PHILOX_TWO_M53));
}

static inline __m256d from_u4(int32_t dist, __m256i x, double p0) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  __m256d l = Sleef_log1pd4_u10avx2(_mm256_xor_pd(u53_pd(x), sign));
  switch (dist) {
  case CN_RNG_EXPONENTIAL:
    return _mm256_mul_pd(_mm256_set1_pd(-p0), l);
  case CN_RNG_RAYLEIGH:
    return _mm256_mul_pd(_mm256_set1_pd(p0),
                         _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), l)));
  default: /* WEIBULL */
    return Sleef_powd4_u10avx2(_mm256_xor_pd(l, sign),
                               _mm256_set1_pd(1.0 / p0));
  }
}

void cn_cpu_from_u_avx2(int32_t dist, const uint64_t *x, int64_t m, double p0,
                        double *out) {
  int64_t j = 0;
  for (; j + 4 <= m; j += 4)
    _mm256_storeu_pd(out + j,
                     from_u4(dist, _mm256_loadu_si256((const __m256i *)(x + j)),
                             p0));
  if (j < m) {
    uint64_t xt[4] = {0, 0, 0, 0};
    double vt[4];
    memcpy(xt, x + j, (size_t)(m - j) * sizeof *xt);
    _mm256_storeu_pd(vt, from_u4(dist, _mm256_loadu_si256((const __m256i *)xt),
                                 p0));
    memcpy(out + j, vt, (size_t)(m - j) * sizeof *vt);
  }
}
