/* Elementwise loops of every op of core/ops.def for float64. */
#define CN_EW_T double
#define CN_EW_SFX f64
#define CN_EW_KIND kf
#include "elementwise_loops.h"
