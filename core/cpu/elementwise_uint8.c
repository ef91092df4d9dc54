/* Elementwise loops of every op of core/ops.def for uint8. */
#define CN_EW_T uint8_t
#define CN_EW_SFX u8
#define CN_EW_KIND ku
#include "elementwise_loops.h"
