/* AVX2+FMA SLEEF kernels (the loops are in sleef_kernels.h). This file is
 * compiled for AVX2 and FMA as a whole; its tables are used only after
 * cn_ew_sleef_kernel has checked the CPU. */
#include <immintrin.h>
#include <math.h>

#define CN_SL_ISA avx2
#define CN_SL_SLEEF_ISA avx2
#define CN_SL_VD __m256d
#define CN_SL_VF __m256
#define CN_SL_WD 4
#define CN_SL_WF 8
#define CN_SL_LOADD _mm256_loadu_pd
#define CN_SL_STORED _mm256_storeu_pd
#define CN_SL_SQRTD _mm256_sqrt_pd
#define CN_SL_SET1D _mm256_set1_pd
#define CN_SL_LOADF _mm256_loadu_ps
#define CN_SL_STOREF _mm256_storeu_ps
#define CN_SL_SQRTF _mm256_sqrt_ps
#define CN_SL_SET1F _mm256_set1_ps

static inline unsigned cn_sl_special_d(__m256d r) {
  __m256d m = _mm256_andnot_pd(_mm256_set1_pd(-0.0), r);
  return (unsigned)_mm256_movemask_pd(
      _mm256_or_pd(_mm256_cmp_pd(m, _mm256_set1_pd(INFINITY), _CMP_EQ_OQ),
                   _mm256_cmp_pd(m, _mm256_setzero_pd(), _CMP_EQ_OQ)));
}
static inline unsigned cn_sl_special_f(__m256 r) {
  __m256 m = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), r);
  return (unsigned)_mm256_movemask_ps(
      _mm256_or_ps(_mm256_cmp_ps(m, _mm256_set1_ps(INFINITY), _CMP_EQ_OQ),
                   _mm256_cmp_ps(m, _mm256_setzero_ps(), _CMP_EQ_OQ)));
}

/* Complex abs helpers: n complex parts -> re, im vectors; float parts are
 * widened to double; outside-[lo, hi] (or NaN) lane mask. */
static inline void cn_sl_deint_d(__m256d a, __m256d b, __m256d *re,
                                 __m256d *im) {
  /* a = r0 i0 r1 i1, b = r2 i2 r3 i3 */
  *re = _mm256_permute4x64_pd(_mm256_unpacklo_pd(a, b), 0xd8);
  *im = _mm256_permute4x64_pd(_mm256_unpackhi_pd(a, b), 0xd8);
}
static inline __m256d cn_sl_widen_f(const float *p) {
  return _mm256_cvtps_pd(_mm_loadu_ps(p));
}
static inline void cn_sl_store_narrow_f(float *p, __m256d v) {
  _mm_storeu_ps(p, _mm256_cvtpd_ps(v));
}
static inline __m256d cn_sl_fma_d(__m256d a, __m256d b, __m256d c) {
  return _mm256_fmadd_pd(a, b, c);
}
static inline unsigned cn_sl_outside_d(__m256d r, double lo, double hi) {
  __m256d in = _mm256_and_pd(_mm256_cmp_pd(r, _mm256_set1_pd(lo), _CMP_GE_OQ),
                             _mm256_cmp_pd(r, _mm256_set1_pd(hi), _CMP_LE_OQ));
  return (unsigned)_mm256_movemask_pd(in) ^ 0xfu;
}

#include "sleef_kernels.h"
