/* NVRTC compilation of generated sources (no device needed). */
#ifndef CUNUMPY_CUDA_NVRTC_COMPILE_H
#define CUNUMPY_CUDA_NVRTC_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compiles src for compute capability arch (90 = 9.0): a CUBIN for sm_<arch>
 * when cubin is true, else PTX for compute_<arch>. On success *image (malloc,
 * caller frees) holds the code and *size its bytes (PTX includes its NUL).
 * On failure returns false and *log (malloc, may be NULL) holds the NVRTC
 * result and compiler log. */
bool cn_cu_nvrtc_compile(const char *src, const char *prog_name, int arch,
                         bool cubin, char **image, size_t *size, char **log);
/* Compiles user source (raw modules) with the caller's options after the
 * architecture option, instantiating the nnames name expressions; on
 * success *lowered (malloc, nnames malloc'd strings) holds their lowered
 * names. Failure as cn_cu_nvrtc_compile; *log then starts with NVRTC's
 * result and holds the compiler's messages (prog_name(line): ...). */
bool cn_cu_nvrtc_compile_user(const char *src, const char *prog_name,
                              int arch, bool cubin, int nopts,
                              const char *const *opts, int nnames,
                              const char *const *names, char **image,
                              size_t *size, char ***lowered, char **log);
/* NVRTC's version as major * 100 + minor (0 when unknown). */
int cn_cu_nvrtc_version(void);
/* Highest architecture NVRTC supports that is <= arch (0 if none). */
int cn_cu_nvrtc_best_arch(int arch);

#ifdef __cplusplus
}
#endif
#endif
