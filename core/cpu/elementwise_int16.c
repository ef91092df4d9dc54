/* Elementwise loops of every op of core/ops.def for int16. */
#define CN_EW_T int16_t
#define CN_EW_SFX i16
#define CN_EW_KIND ki
#include "elementwise_loops.h"
