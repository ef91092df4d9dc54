/* Elementwise loops of every op of core/ops.def for uint64. */
#define CN_EW_T uint64_t
#define CN_EW_SFX u64
#define CN_EW_KIND ku
#include "elementwise_loops.h"
