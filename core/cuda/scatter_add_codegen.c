/* Source of the scatter_add slot's kernels (core/cuda/scatter_add.c
 * launches them): one thread per index in a grid-stride loop, an atomic
 * add per element. Counts add 1ull with the 64-bit unsigned atomicAdd
 * (exact in any order); a few bins are first counted in shared memory per
 * block, which turns most of the global atomics into shared ones. Weights
 * add with the double atomicAdd (sm_60 and later), a complex weight as its
 * two parts. */
#include <stdio.h>

#include "codegen.h"

bool cn_cu_gen_scatter_add(cn_cu_src *s, cn_dtype wdt,
                           char names[][CN_CU_NAME_CAP]) {
  const char *loop =
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < n; i += (long long)gridDim.x * blockDim.x) {\n"
      "    long long k = idx[i];\n"
      "    if ((unsigned long long)k >= (unsigned long long)m)\n"
      "      continue;\n";
  switch (wdt) {
  case CN_INT64: /* counts */
    snprintf(names[0], CN_CU_NAME_CAP, "cn_scatter_count");
    snprintf(names[1], CN_CU_NAME_CAP, "cn_scatter_count_shared");
    cn_cu_src_appendf(
        s,
        "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const long "
        "long *idx, long long n, unsigned long long *out, long long m) {\n"
        "%s    atomicAdd(out + k, 1ull);\n  }\n}\n",
        CN_CU_SCATTER_THREADS, names[0], loop);
    cn_cu_src_appendf(
        s,
        "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const long "
        "long *idx, long long n, unsigned long long *out, long long m) {\n"
        "  __shared__ unsigned long long bins[%d];\n"
        "  for (long long b = threadIdx.x; b < m; b += blockDim.x)\n"
        "    bins[b] = 0;\n"
        "  __syncthreads();\n"
        "%s    atomicAdd(bins + k, 1ull);\n  }\n"
        "  __syncthreads();\n"
        "  for (long long b = threadIdx.x; b < m; b += blockDim.x)\n"
        "    if (bins[b])\n"
        "      atomicAdd(out + b, bins[b]);\n}\n",
        CN_CU_SCATTER_THREADS, names[1], CN_CU_SCATTER_SHARED_BINS, loop);
    return !s->oom;
  case CN_FLOAT64:
    snprintf(names[0], CN_CU_NAME_CAP, "cn_scatter_add_f64");
    cn_cu_src_appendf(
        s,
        "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const long "
        "long *idx, long long n, const double *w, double *out, long long m) "
        "{\n%s    atomicAdd(out + k, w[i]);\n  }\n}\n",
        CN_CU_SCATTER_THREADS, names[0], loop);
    return !s->oom;
  case CN_COMPLEX128:
    snprintf(names[0], CN_CU_NAME_CAP, "cn_scatter_add_c128");
    cn_cu_src_appendf(
        s,
        "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const long "
        "long *idx, long long n, const double *w, double *out, long long m) "
        "{\n%s    atomicAdd(out + 2 * k, w[2 * i]);\n"
        "    atomicAdd(out + 2 * k + 1, w[2 * i + 1]);\n  }\n}\n",
        CN_CU_SCATTER_THREADS, names[0], loop);
    return !s->oom;
  default:
    return false;
  }
}
