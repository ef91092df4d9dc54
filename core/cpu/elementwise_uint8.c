/* Elementwise loops of every op of core/ops.def for uint8. */
#define CN_EW_T uint8_t
#define CN_EW_R uint8_t
#define CN_EW_SFX u8
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
