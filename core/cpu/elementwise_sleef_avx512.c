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

#include "sleef_kernels.h"
