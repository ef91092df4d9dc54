/* Elementwise loops of every op of core/ops.def for int32. */
#define CN_EW_T int32_t
#define CN_EW_SFX i32
#define CN_EW_KIND ki
#include "elementwise_loops.h"
