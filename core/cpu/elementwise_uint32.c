/* Elementwise loops of every op of core/ops.def for uint32. */
#define CN_EW_T uint32_t
#define CN_EW_SFX u32
#define CN_EW_KIND ku
#include "elementwise_loops.h"
