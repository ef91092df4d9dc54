/* NVRTC compilation: the one place that calls NVRTC. */
#include "nvrtc_compile.h"

#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_log(nvrtcResult r, nvrtcProgram prog) {
  size_t n = 0;
  if (prog == NULL || nvrtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS)
    n = 0;
  const char *rs = nvrtcGetErrorString(r);
  size_t head = strlen(rs) + 32;
  char *log = malloc(head + n + 1);
  if (log == NULL)
    return NULL;
  int k = snprintf(log, head, "%s:\n", rs);
  if (n > 0 && nvrtcGetProgramLog(prog, log + k) != NVRTC_SUCCESS)
    log[k] = 0;
  return log;
}

bool cn_cu_nvrtc_compile(const char *src, const char *prog_name, int arch,
                         bool cubin, char **image, size_t *size, char **log) {
  *image = NULL;
  *size = 0;
  if (log)
    *log = NULL;
  nvrtcProgram prog = NULL;
  nvrtcResult r = nvrtcCreateProgram(&prog, src, prog_name, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    if (log)
      *log = dup_log(r, NULL);
    return false;
  }
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s_%d",
           cubin ? "sm" : "compute", arch);
  /* No fast-math: results must match the CPU backend's libm/SLEEF ones. */
  const char *opts[] = {archopt, "--std=c++17",
                        "--device-as-default-execution-space", "-DCN_NVRTC=1"};
  r = nvrtcCompileProgram(prog, (int)(sizeof opts / sizeof opts[0]), opts);
  if (r != NVRTC_SUCCESS) {
    if (log)
      *log = dup_log(r, prog);
    nvrtcDestroyProgram(&prog);
    return false;
  }
  size_t n = 0;
  r = cubin ? nvrtcGetCUBINSize(prog, &n) : nvrtcGetPTXSize(prog, &n);
  char *code = r == NVRTC_SUCCESS ? malloc(n ? n : 1) : NULL;
  if (code != NULL)
    r = cubin ? nvrtcGetCUBIN(prog, code) : nvrtcGetPTX(prog, code);
  if (r != NVRTC_SUCCESS || code == NULL) {
    if (log)
      *log = dup_log(r, prog);
    free(code);
    nvrtcDestroyProgram(&prog);
    return false;
  }
  nvrtcDestroyProgram(&prog);
  *image = code;
  *size = n;
  return true;
}

int cn_cu_nvrtc_version(void) {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
    return 0;
  return major * 100 + minor;
}

int cn_cu_nvrtc_best_arch(int arch) {
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 256)
    return 0;
  int archs[256];
  if (nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
    return 0;
  int best = 0;
  for (int i = 0; i < n; i++)
    if (archs[i] <= arch && archs[i] > best)
      best = archs[i];
  return best;
}
