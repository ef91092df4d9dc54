/* Elementwise loops of every op of core/ops.def for int8. */
#define CN_EW_T int8_t
#define CN_EW_SFX i8
#define CN_EW_KIND ki
#include "elementwise_loops.h"
