/* Vectorised float min/max over contiguous memory, NaN-aware, for the
 * reduction folds (reduce_typed.c).
 *
 * GCC does not vectorise a NaN-aware float min/max without -ffast-math.
 * maxpd(x, a) is exactly "a < x ? x : a", the fold's step, and keeps a
 * when x is NaN, so one instruction per vector does the step; NaNs are
 * seen by one unordered compare per pair of vectors, and "some number"
 * (for the nan-variants) is only looked for when the extreme is still the
 * initial value. Four independent accumulators keep the loop at memory
 * speed instead of compare-and-blend latency. AVX-512F or AVX2 is picked
 * at run time; elsewhere nothing is consumed and the folds' lane loop runs. */
#include <immintrin.h>
#include <math.h>
#include <string.h>

#include "reduce_typed.h"

/* Whether p[0..n) holds a non-NaN element. */
#define RX_DEF_ANYNUM(N, T)                                                    \
  static int N##_anynum(const T *p, int64_t n) {                              \
    for (int64_t i = 0; i < n; i++)                                            \
      if (p[i] == p[i])                                                        \
        return 1;                                                              \
    return 0;                                                                  \
  }
RX_DEF_ANYNUM(f32, float)
RX_DEF_ANYNUM(f64, double)

/* One kernel: ISA prefix P (_mm256 / _mm512), vector type V, lanes L,
 * suffix S (ps / pd), the op (max / min), its initial value, and the
 * unordered-compare idiom U(x, y) giving a value OR-able into an int. */
#define RX_DEF(NAME, ATTR, T, V, L, LD, OP, SET1, UNORD, NZ, INIT, BETTER)     \
  ATTR static int64_t NAME(const char *p, int64_t n, T *res, int *anynan,      \
                           int *anynum) {                                      \
    const T *x = (const T *)(const void *)p;                                   \
    V a0 = SET1(INIT), a1 = a0, a2 = a0, a3 = a0;                              \
    int nn = 0;                                                                \
    int64_t i = 0;                                                             \
    for (; i + 4 * L <= n; i += 4 * L) {                                       \
      V x0 = LD(x + i), x1 = LD(x + i + L), x2 = LD(x + i + 2 * L),            \
        x3 = LD(x + i + 3 * L);                                                \
      a0 = OP(x0, a0);                                                         \
      a1 = OP(x1, a1);                                                         \
      a2 = OP(x2, a2);                                                         \
      a3 = OP(x3, a3);                                                         \
      nn |= NZ(UNORD(x0, x1)) | NZ(UNORD(x2, x3));                             \
    }                                                                          \
    a0 = OP(OP(a0, a1), OP(a2, a3));                                           \
    T lanes[L], r = (INIT);                                                    \
    memcpy(lanes, &a0, sizeof lanes);                                          \
    for (int k = 0; k < L; k++)                                                \
      if (BETTER(lanes[k], r))                                                 \
        r = lanes[k];                                                          \
    *res = r;                                                                  \
    *anynan = nn != 0;                                                         \
    *anynum = r != (INIT) || N_ANYNUM(T)(x, i);                                \
    return i;                                                                  \
  }
#define N_ANYNUM(T) N_ANYNUM_##T
#define N_ANYNUM_float f32_anynum
#define N_ANYNUM_double f64_anynum
#define RX_MAX_BETTER(v, r) ((r) < (v))
#define RX_MIN_BETTER(v, r) ((v) < (r))

#define RX_A512 __attribute__((target("avx512f")))
#define RX_A256 __attribute__((target("avx2")))
#define RX_U512_PS(a, b) _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q)
#define RX_U512_PD(a, b) _mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q)
#define RX_U256_PS(a, b) _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_UNORD_Q))
#define RX_U256_PD(a, b) _mm256_movemask_pd(_mm256_cmp_pd(a, b, _CMP_UNORD_Q))
#define RX_NZ(m) ((int)(m))

#define RX_DEF_ALL(K, OPNAME, INITF, INITD, BETTER)                            \
  RX_DEF(f32_##K##_avx512, RX_A512, float, __m512, 16, _mm512_loadu_ps,        \
         _mm512_##OPNAME##_ps, _mm512_set1_ps, RX_U512_PS, RX_NZ, INITF,       \
         BETTER)                                                               \
  RX_DEF(f64_##K##_avx512, RX_A512, double, __m512d, 8, _mm512_loadu_pd,       \
         _mm512_##OPNAME##_pd, _mm512_set1_pd, RX_U512_PD, RX_NZ, INITD,       \
         BETTER)                                                               \
  RX_DEF(f32_##K##_avx2, RX_A256, float, __m256, 8, _mm256_loadu_ps,           \
         _mm256_##OPNAME##_ps, _mm256_set1_ps, RX_U256_PS, RX_NZ, INITF,       \
         BETTER)                                                               \
  RX_DEF(f64_##K##_avx2, RX_A256, double, __m256d, 4, _mm256_loadu_pd,         \
         _mm256_##OPNAME##_pd, _mm256_set1_pd, RX_U256_PD, RX_NZ, INITD,       \
         BETTER)
RX_DEF_ALL(vmax, max, -INFINITY, -INFINITY, RX_MAX_BETTER)
RX_DEF_ALL(vmin, min, INFINITY, INFINITY, RX_MIN_BETTER)

/* 2: AVX-512F, 1: AVX2, 0: neither. Computed once; a benign race stores
 * one value. */
static int rx_level(void) {
  static _Atomic int level = -1;
  int l = level;
  if (l < 0) {
    __builtin_cpu_init();
    l = __builtin_cpu_supports("avx512f") ? 2
        : __builtin_cpu_supports("avx2")  ? 1
                                          : 0;
    level = l;
  }
  return l;
}

#define RX_DISPATCH(N, T, K)                                                   \
  int64_t cn_rk_##N##_##K(const char *p, int64_t n, T *res, int *anynan,       \
                          int *anynum) {                                       \
    switch (rx_level()) {                                                      \
    case 2:                                                                    \
      return N##_##K##_avx512(p, n, res, anynan, anynum);                      \
    case 1:                                                                    \
      return N##_##K##_avx2(p, n, res, anynan, anynum);                        \
    default:                                                                   \
      return 0;                                                                \
    }                                                                          \
  }
RX_DISPATCH(f32, float, vmax)
RX_DISPATCH(f64, double, vmax)
RX_DISPATCH(f32, float, vmin)
RX_DISPATCH(f64, double, vmin)
