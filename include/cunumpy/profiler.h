/* cunumpy/profiler.h: named ranges for profilers. With the CUDA backend
 * loaded a range is an NVTX range (seen by Nsight Systems and nvprof);
 * otherwise pushing and popping only keep the nesting count, so ranges can
 * stay in production code. */
#ifndef CUNUMPY_PROFILER_H
#define CUNUMPY_PROFILER_H

#include "cunumpy/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opens a range named message on the calling thread, nested in the open
 * ones. color_id -1 leaves the color to the profiler; 0, 1, ... pick a
 * color of a fixed palette (cycling). CN_ERR_VALUE for a NULL message, a
 * color_id below -1, or more than 1024 open ranges on the thread. */
CN_API cn_status cn_range_push(const char *message, int32_t color_id);
/* Closes the calling thread's innermost open range. CN_ERR_VALUE when the
 * thread has none open. */
CN_API cn_status cn_range_pop(void);
/* Number of ranges open on the calling thread. */
CN_API int32_t cn_range_depth(void);

#ifdef __cplusplus
}
#endif
#endif
