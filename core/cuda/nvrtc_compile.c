/* NVRTC compilation: the one place that calls NVRTC. */
#include "nvrtc_compile.h"

#include "cuda_internal.h"

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

/* The core's services, set by the plugin's entry point. Defined here, in
 * the codegen library that the plugin and the host-side NVRTC tests both
 * link: those tests have no core, so it stays NULL there and compiles go
 * untimed. */
const cn_plugin_services *cn_cu_svc;

static double compile_clock(void) {
  return cn_cu_svc ? cn_cu_svc->seconds() : 0.0;
}

/* The log record of a slow compile (the cache keeps its result: later
 * runs load it). */
static void slow_compile_note(const char *prog_name, double took) {
  if (cn_cu_svc == NULL)
    return;
  cn_cu_log_slow(took,
                 "NVRTC compiled '%s' in %.1f s; the result is cached in "
                 "memory and on disk",
                 prog_name ? prog_name : "kernel", took);
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
  double t0 = compile_clock();
  r = nvrtcCompileProgram(prog, (int)(sizeof opts / sizeof opts[0]), opts);
  slow_compile_note(prog_name, compile_clock() - t0);
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

bool cn_cu_nvrtc_compile_user(const char *src, const char *prog_name,
                              int arch, bool cubin, int nopts,
                              const char *const *opts, int nnames,
                              const char *const *names, char **image,
                              size_t *size, char ***lowered, char **log) {
  *image = NULL;
  *size = 0;
  *lowered = NULL;
  if (log)
    *log = NULL;
  nvrtcProgram prog = NULL;
  nvrtcResult r = nvrtcCreateProgram(&prog, src, prog_name, 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    if (log)
      *log = dup_log(r, NULL);
    return false;
  }
  for (int i = 0; i < nnames && r == NVRTC_SUCCESS; i++)
    r = nvrtcAddNameExpression(prog, names[i]);
  const char **all = malloc((size_t)(nopts + 1) * sizeof *all);
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s_%d",
           cubin ? "sm" : "compute", arch);
  if (all == NULL) {
    nvrtcDestroyProgram(&prog);
    return false;
  }
  all[0] = archopt;
  for (int i = 0; i < nopts; i++)
    all[i + 1] = opts[i];
  if (r == NVRTC_SUCCESS) {
    double t0 = compile_clock();
    r = nvrtcCompileProgram(prog, nopts + 1, all);
    slow_compile_note(prog_name, compile_clock() - t0);
  }
  free(all);
  char **low = NULL;
  char *code = NULL;
  size_t n = 0;
  if (r == NVRTC_SUCCESS)
    r = cubin ? nvrtcGetCUBINSize(prog, &n) : nvrtcGetPTXSize(prog, &n);
  if (r == NVRTC_SUCCESS) {
    code = malloc(n ? n : 1);
    low = calloc((size_t)(nnames > 0 ? nnames : 1), sizeof *low);
    if (code == NULL || low == NULL)
      r = NVRTC_ERROR_OUT_OF_MEMORY;
  }
  if (r == NVRTC_SUCCESS)
    r = cubin ? nvrtcGetCUBIN(prog, code) : nvrtcGetPTX(prog, code);
  for (int i = 0; i < nnames && r == NVRTC_SUCCESS; i++) {
    const char *ln = NULL;
    r = nvrtcGetLoweredName(prog, names[i], &ln);
    if (r == NVRTC_SUCCESS && (low[i] = strdup(ln)) == NULL)
      r = NVRTC_ERROR_OUT_OF_MEMORY;
  }
  if (r != NVRTC_SUCCESS) {
    if (log)
      *log = dup_log(r, prog);
    free(code);
    for (int i = 0; low != NULL && i < nnames; i++)
      free(low[i]);
    free(low);
    nvrtcDestroyProgram(&prog);
    return false;
  }
  nvrtcDestroyProgram(&prog);
  *image = code;
  *size = n;
  *lowered = low;
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
