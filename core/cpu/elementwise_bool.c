/* Elementwise loops of every op of core/ops.def for bool. */
#define CN_EW_T bool
#define CN_EW_R bool
#define CN_EW_SFX b
#define CN_EW_IN_ALL 1
#define CN_EW_IN_NUM 0
#define CN_EW_IN_REAL 1
#define CN_EW_IN_INTEGER 0
#define CN_EW_IN_BITS 1
#define CN_EW_IN_INEXACT 0
#define CN_EW_IN_FLOAT 0
#define CN_EW_IN_NOCPLX_NUM 0
#define CN_EW_CLONES
/* ops.def spells logical and as k_mul(a, b) = a * b, exact for bool. */
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#include "elementwise_loops.h"
