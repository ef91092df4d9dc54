/* Elementwise loops of every op of core/ops.def for uint16. */
#define CN_EW_T uint16_t
#define CN_EW_SFX u16
#define CN_EW_KIND ku
#include "elementwise_loops.h"
