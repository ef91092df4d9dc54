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

#include "sleef_kernels.h"
