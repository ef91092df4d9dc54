/* cunumpy/backend.h: backend selection and what each backend can do. The
 * active backend decides where new arrays are made; operations run where
 * their inputs live. Names: "cpu" (alias "numpy") and "cuda" (alias "cupy"),
 * case-insensitive. */
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
/* What this libcunumpy was built with and runs on, one "name: value" line
 * each: its version, the CPU libraries (OpenBLAS with its configuration and
 * threads, LAPACK, FFTW, SLEEF, OpenMP threads), the CUDA plugin's path
 * and whether CUDA is available (loading the plugin if not tried yet) with
 * the reason when not, and the CUDA libraries' versions when the plugin
 * loaded. A per-thread copy: valid until this thread's next call. */
CN_API const char *cn_build_info(void);
/* Number of CUDA devices (0 when CUDA is unavailable). */
CN_API int32_t cn_device_count(void);

/* Sets *out to the canonical name ("cpu" or "cuda"; a static string) of a
 * backend name or alias, matched case-insensitively. CN_ERR_VALUE naming
 * the name when it is NULL or names no backend; *out is then unchanged. */
CN_API cn_status cn_backend_canonical_name(const char **out, const char *name);
/* Number of backend names and aliases, for listing them with
 * cn_backend_alias. */
CN_API int32_t cn_backend_alias_count(void);
/* The i-th backend name or alias (lower case, static), canonical names
 * first among their aliases; NULL when i is out of [0, count). */
CN_API const char *cn_backend_alias(int32_t i);

/* Answers of cn_backend_supports. */
#define CN_SUPPORT_NONE 0   /* not supported: trying gives CN_ERR_UNSUPPORTED */
#define CN_SUPPORT_NATIVE 1 /* runs on the backend's device */
#define CN_SUPPORT_HOST 2   /* runs, by copying through host memory */

/* Sets *out to CN_SUPPORT_NONE, _NATIVE or _HOST: how the backend named
 * backend (any name or alias) serves the capability what, which is
 *   - a compute kernel: "assign", "fill", "elementwise", "where", "reduce",
 *     "moments", "take", "put", "take_along", "put_along", "flatnonzero",
 *     "mask_compress", "index_normalize", "sort", "searchsorted",
 *     "quantile_sorted", "rng_fill" (alias "rng"), "matmul", "lapack",
 *     "fft", "scatter_add", "spmm", "spgemm", "sparse_transpose";
 *   - a domain: "ufunc", "reduction", "linalg", "fft", "random", "sort",
 *     "index", "stats", "sparse";
 *   - a sorting or searching function: "argsort", "lexsort",
 *     "partition" (kernels only; "searchsorted" is the name of its
 *     kernel); the set functions "unique", "union1d", "intersect1d",
 *     "setdiff1d", "setxor1d", "unique_axis", "isin" (kernels only:
 *     compositions of them on the data's device);
 *   - "median", "quantile" (with percentile and the nan-variants): on
 *     host copies, or native on a device backend with the "sort" and
 *     "quantile_sorted" kernels;
 *   - "bincount", "histogram", "histogram2d", "histogramdd", "digitize":
 *     composed where the data is (searchsorted and scatter_add kernels);
 *   - an elementwise op of include/cunumpy/ufunc.h ("add", "sin", ...);
 *   - a reduction: "sum", "prod", "min", "max", "any", "all", "nansum",
 *     "nanprod", "nanmin", "nanmax", "argmin", "argmax", "nanargmin",
 *     "nanargmax", "cumsum", "cumprod", "mean", "var", "std", "nanmean",
 *     "nanvar", "nanstd".
 * The answer comes from the kernels the backend's table has (see also
 * cn_backend_capability). A missing kernel is CN_SUPPORT_NONE even when
 * the fallback of another kernel could serve it (for "mask_compress", a[mask]
 * still works through flatnonzero and take). A function with a step on
 * host copies is native on the CPU and CN_SUPPORT_HOST elsewhere, given
 * the kernels it needs. For "cuda" the
 * answer is read from the CUDA plugin's table whenever the plugin file
 * loads and accepts this libcunumpy, even when no device or driver is
 * present (cn_backend_available says whether it can run); when the plugin
 * cannot be loaded at all, every answer is CN_SUPPORT_NONE. CN_ERR_VALUE
 * naming the argument for a NULL out, an unknown backend or an unknown
 * capability; *out is then unchanged. */
CN_API cn_status cn_backend_supports(int32_t *out, const char *backend,
                                     const char *what);
/* The i-th capability name of cn_backend_supports other than the op names
 * (kernels, domains, reductions, in that order; static strings); NULL when
 * i is out of range. For listing coverage tables. */
CN_API const char *cn_backend_capability(int32_t i);

#ifdef __cplusplus
}
#endif
#endif
