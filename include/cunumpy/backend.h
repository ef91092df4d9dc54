/* cunumpy/backend.h: backend selection. The active backend decides where new
 * arrays are made; operations run where their inputs live. Names: "cpu"
 * (alias "numpy") and "cuda" (alias "cupy"). */
#ifndef CUNUMPY_BACKEND_H
#define CUNUMPY_BACKEND_H

#include "cunumpy/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Selects the active backend, process-wide. Asking for "cuda" when it is
 * unavailable selects "cpu" and returns CN_OK; cn_get_backend then says
 * "cpu" and cn_backend_unavailable_reason why. CN_ERR_VALUE for an unknown
 * name. */
CN_API cn_status cn_set_backend(const char *name);
/* Canonical name of the active backend ("cpu" or "cuda"); static string. On
 * first use (of any backend or creation function) it reads CUNUMPY_BACKEND
 * (cpu|cuda), else ARRAY_BACKEND (numpy|cupy); both take every name and
 * alias. Unset or empty variables are skipped; a value naming no backend is
 * skipped too and noted in cn_backend_unavailable_reason. */
CN_API const char *cn_get_backend(void);
/* Pushes the active backend and selects name (same fallback as set).
 * CN_ERR_VALUE for an unknown name or when 128 pushes are outstanding. The
 * stack is process-wide, like the selection. */
CN_API cn_status cn_push_backend(const char *name);
/* Restores the backend saved by the matching push. CN_ERR_VALUE when the
 * stack is empty. */
CN_API cn_status cn_pop_backend(void);
/* Sets *out to 1 when the named backend can be used (loading the CUDA plugin
 * if needed). CN_ERR_VALUE for an unknown name. */
CN_API cn_status cn_backend_available(int32_t *out, const char *name);
/* Why CUDA is unavailable (which file, what the loader or driver said) and
 * which environment values were ignored, or "" when it is available or has
 * not been asked for. A per-thread copy: valid until this thread's next call
 * of this function. */
CN_API const char *cn_backend_unavailable_reason(void);
/* Loads the CUDA plugin from an explicit path instead of the default search
 * (the path in CUNUMPY_CUDA_PLUGIN when set, else libcunumpy_cuda.so next to
 * libcunumpy). Loading does not select CUDA. CN_ERR_DEVICE with the reason
 * when it cannot be used; CN_OK and no change when a plugin is loaded. */
CN_API cn_status cn_backend_load_plugin(const char *path);
/* Number of CUDA devices (0 when CUDA is unavailable). */
CN_API int32_t cn_device_count(void);

#ifdef __cplusplus
}
#endif
#endif
