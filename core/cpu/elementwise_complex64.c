/* Elementwise loops of every op of core/ops.def for complex64. */
#define CN_EW_T cn_c64_t
#define CN_EW_R float
#define CN_EW_SFX c64
#define CN_EW_IN_ALL 1
#define CN_EW_IN_NUM 1
#define CN_EW_IN_REAL 0
#define CN_EW_IN_INTEGER 0
#define CN_EW_IN_BITS 0
#define CN_EW_IN_INEXACT 1
#define CN_EW_IN_FLOAT 0
#define CN_EW_IN_NOCPLX_NUM 0
#define CN_EW_CLONES
#include "elementwise_loops.h"
