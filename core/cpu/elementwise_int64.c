/* Elementwise loops of every op of core/ops.def for int64. */
#define CN_EW_T int64_t
#define CN_EW_SFX i64
#define CN_EW_KIND ki
#include "elementwise_loops.h"
