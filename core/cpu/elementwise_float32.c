/* Elementwise loops of every op of core/ops.def for float32. */
#define CN_EW_T float
#define CN_EW_R float
#define CN_EW_SFX f32
#define CN_EW_IN_ALL 1
#define CN_EW_IN_NUM 1
#define CN_EW_IN_REAL 1
#define CN_EW_IN_INTEGER 0
#define CN_EW_IN_BITS 0
#define CN_EW_IN_INEXACT 1
#define CN_EW_IN_FLOAT 1
#define CN_EW_IN_NOCPLX_NUM 1
/* vroundpd, vdivpd and wide compares pay off for floats */
#define CN_EW_CLONES                                                           \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#include "elementwise_loops.h"
