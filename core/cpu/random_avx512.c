/* Philox4x32-10 counter blocks in AVX-512 lanes for the CPU fill
 * (core/cpu/random.c): twice the lanes of the AVX2 kernel, the same words.
 * Compiled for AVX-512F as a whole; random.c calls it only after a CPU
 * check. */
#include <immintrin.h>
#include <string.h>

#include "../philox.h"
#include "cpu.h"

/* Philox on the 16 blocks of lanes a (8) and b (8), one 32-bit word per
 * 64-bit element; two independent sets hide the multiplies' latency. */
static inline void philox_rounds16(__m512i a[4], __m512i b[4], uint32_t k0,
                                   uint32_t k1) {
  const __m512i m0 = _mm512_set1_epi64(CN_PHILOX_M0);
  const __m512i m1 = _mm512_set1_epi64(CN_PHILOX_M1);
  const __m512i lo32 = _mm512_set1_epi64(0xffffffffll);
  for (int r = 0; r < 10; r++) {
    const __m512i vk0 = _mm512_set1_epi64(k0), vk1 = _mm512_set1_epi64(k1);
    __m512i pa0 = _mm512_mul_epu32(a[0], m0), pa1 = _mm512_mul_epu32(a[2], m1);
    __m512i pb0 = _mm512_mul_epu32(b[0], m0), pb1 = _mm512_mul_epu32(b[2], m1);
    a[0] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pa1, 32), a[1]),
                            vk0);
    a[2] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pa0, 32), a[3]),
                            vk1);
    b[0] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pb1, 32), b[1]),
                            vk0);
    b[2] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pb0, 32), b[3]),
                            vk1);
    a[1] = _mm512_and_si512(pa1, lo32);
    a[3] = _mm512_and_si512(pa0, lo32);
    b[1] = _mm512_and_si512(pb1, lo32);
    b[3] = _mm512_and_si512(pb0, lo32);
    k0 += CN_PHILOX_W0;
    k1 += CN_PHILOX_W1;
  }
}

/* Words w[4 i + k] of the 8 blocks in lanes c (block order). */
static inline void store_blocks8(uint32_t *w, const __m512i c[4]) {
  __m512i u01 = _mm512_or_si512(c[0], _mm512_slli_epi64(c[1], 32));
  __m512i u23 = _mm512_or_si512(c[2], _mm512_slli_epi64(c[3], 32));
  __m512i ev = _mm512_unpacklo_epi64(u01, u23); /* blocks 0, 2, 4, 6 */
  __m512i od = _mm512_unpackhi_epi64(u01, u23); /* blocks 1, 3, 5, 7 */
  const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
  _mm512_storeu_si512((void *)w, _mm512_permutex2var_epi64(ev, lo, od));
  _mm512_storeu_si512((void *)(w + 16), _mm512_permutex2var_epi64(ev, hi, od));
}

void cn_cpu_philox_blocks_avx512(uint32_t *w, int64_t nb,
                                 const uint32_t key[2],
                                 const uint32_t counter[4], uint64_t first,
                                 uint32_t word3) {
  uint32_t base[4];
  memcpy(base, counter, sizeof base);
  base[3] = word3;
  cn_philox_add(base, first);
  int64_t i = 0;
  for (; i + 16 <= nb; i += 16) {
    __m512i a[4], b[4];
    if ((uint64_t)base[0] + (uint64_t)i + 16 <= ((uint64_t)1 << 32)) {
      /* no carry out of word 0 within these 16 blocks */
      const __m512i c0 = _mm512_set1_epi64((int64_t)base[0] + i);
      a[0] = _mm512_add_epi64(c0, _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
      b[0] = _mm512_add_epi64(c0,
                              _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15));
      a[1] = b[1] = _mm512_set1_epi64(base[1]);
      a[2] = b[2] = _mm512_set1_epi64(base[2]);
      a[3] = b[3] = _mm512_set1_epi64(word3);
    } else {
      uint64_t l[4][16];
      for (int j = 0; j < 16; j++) {
        uint32_t c[4];
        memcpy(c, base, sizeof c);
        cn_philox_add(c, (uint64_t)i + (uint64_t)j);
        for (int t = 0; t < 4; t++)
          l[t][j] = c[t];
      }
      for (int t = 0; t < 4; t++) {
        a[t] = _mm512_loadu_si512((const void *)l[t]);
        b[t] = _mm512_loadu_si512((const void *)(l[t] + 8));
      }
    }
    philox_rounds16(a, b, key[0], key[1]);
    store_blocks8(w + 4 * i, a);
    store_blocks8(w + 4 * i + 32, b);
  }
  if (i < nb) /* the AVX2 kernel for the rest, from block first + i */
    cn_cpu_philox_blocks_avx2(w + 4 * i, nb - i, key, counter,
                              first + (uint64_t)i, word3);
}
