/* Elementwise loops of every op of core/ops.def for float32. */
#define CN_EW_T float
#define CN_EW_SFX f32
#define CN_EW_KIND kf
#include "elementwise_loops.h"
