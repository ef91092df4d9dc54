/* AVX-512F SLEEF kernels (the loops are in sleef_kernels.h). This file is
 * compiled for AVX-512F as a whole; its tables are used only after
 * cn_ew_sleef_kernel has checked the CPU. */
#include <immintrin.h>
#include <math.h>

#define CN_SL_ISA avx512
#define CN_SL_SLEEF_ISA avx512f
#define CN_SL_VD __m512d
#define CN_SL_VF __m512
#define CN_SL_WD 8
#define CN_SL_WF 16
#define CN_SL_LOADD _mm512_loadu_pd
#define CN_SL_STORED _mm512_storeu_pd
#define CN_SL_SQRTD _mm512_sqrt_pd
#define CN_SL_SET1D _mm512_set1_pd
#define CN_SL_LOADF _mm512_loadu_ps
#define CN_SL_STOREF _mm512_storeu_ps
#define CN_SL_SQRTF _mm512_sqrt_ps
#define CN_SL_SET1F _mm512_set1_ps

static inline unsigned cn_sl_special_d(__m512d r) {
  __m512d m = _mm512_abs_pd(r);
  return _mm512_cmp_pd_mask(m, _mm512_set1_pd(INFINITY), _CMP_EQ_OQ) |
         _mm512_cmp_pd_mask(m, _mm512_setzero_pd(), _CMP_EQ_OQ);
}
static inline unsigned cn_sl_special_f(__m512 r) {
  __m512 m = _mm512_abs_ps(r);
  return _mm512_cmp_ps_mask(m, _mm512_set1_ps(INFINITY), _CMP_EQ_OQ) |
         _mm512_cmp_ps_mask(m, _mm512_setzero_ps(), _CMP_EQ_OQ);
}

/* Complex abs helpers: n complex parts -> re, im vectors; float parts are
 * widened to double; outside-[lo, hi] (or NaN) lane mask. */
static inline void cn_sl_deint_d(__m512d a, __m512d b, __m512d *re,
                                 __m512d *im) {
  const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
  *re = _mm512_permutex2var_pd(a, even, b);
  *im = _mm512_permutex2var_pd(a, odd, b);
}
static inline __m512d cn_sl_widen_f(const float *p) {
  return _mm512_cvtps_pd(_mm256_loadu_ps(p));
}
static inline void cn_sl_store_narrow_f(float *p, __m512d v) {
  _mm256_storeu_ps(p, _mm512_cvtpd_ps(v));
}
static inline __m512d cn_sl_fma_d(__m512d a, __m512d b, __m512d c) {
  return _mm512_fmadd_pd(a, b, c);
}
static inline unsigned cn_sl_outside_d(__m512d r, double lo, double hi) {
  __mmask8 in = _mm512_cmp_pd_mask(r, _mm512_set1_pd(lo), _CMP_GE_OQ) &
                _mm512_cmp_pd_mask(r, _mm512_set1_pd(hi), _CMP_LE_OQ);
  return (unsigned)(~in & 0xffu);
}

#include "sleef_kernels.h"
