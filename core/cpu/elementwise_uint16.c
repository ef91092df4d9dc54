/* Elementwise loops of every op of core/ops.def for uint16. */
#define CN_EW_T uint16_t
#define CN_EW_R uint16_t
#define CN_EW_SFX u16
#define CN_EW_IN_ALL 1
#define CN_EW_IN_NUM 1
#define CN_EW_IN_REAL 1
#define CN_EW_IN_INTEGER 1
#define CN_EW_IN_BITS 1
#define CN_EW_IN_INEXACT 0
#define CN_EW_IN_FLOAT 0
#define CN_EW_IN_NOCPLX_NUM 1
#define CN_EW_CLONES
#include "elementwise_loops.h"
