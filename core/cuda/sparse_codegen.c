/* Source of the sparse product kernel for the dtypes cuSPARSE has no
 * product for (bool and the integers; core/cuda/sparse.c launches it):
 * out = CSR a @ x, one thread per output element in a grid-stride loop,
 * summed with the matmul kernel's accumulator (prelude/matmul.cuh:
 * integers in an unsigned type of at least 32 bits, so they wrap as the
 * CPU's; bool an or of ands), adding a row's entries in the CPU's order. */
#include <stdio.h>

#include "codegen.h"

bool cn_cu_gen_spmm(cn_cu_src *s, cn_dtype dt, cn_dtype it,
                    char names[][CN_CU_NAME_CAP]) {
  bool integer = dt == CN_BOOL || dt == CN_INT8 || dt == CN_INT16 ||
                 dt == CN_INT32 || dt == CN_INT64 || dt == CN_UINT8 ||
                 dt == CN_UINT16 || dt == CN_UINT32 || dt == CN_UINT64;
  if (!integer || (it != CN_INT32 && it != CN_INT64))
    return false;
  const char *t = cn_cu_ctype(dt), *ix = cn_cu_ctype(it);
  snprintf(names[0], CN_CU_NAME_CAP, "cn_spmm_%s_%s", cn_cu_tag(dt),
           cn_cu_tag(it));
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const %s *p, "
      "const %s *ix, const %s *v, const %s *x, long long sr, long long sc, "
      "long long m, long long k, %s *o) {\n"
      "  typedef cn_mm_acc<%s> A;\n"
      "  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " t < m * k; t += (long long)gridDim.x * blockDim.x) {\n"
      "    long long r = t / k, c = t - r * k;\n"
      "    typename A::acc_t acc = A::zero();\n"
      "    for (long long j = (long long)p[r]; j < (long long)p[r + 1]; j++)\n"
      "      acc = A::madd(acc, v[j], x[(long long)ix[j] * sr + c * sc]);\n"
      "    o[t] = A::out(acc);\n  }\n}\n",
      CN_CU_SPMM_THREADS, names[0], ix, ix, t, t, t, t);
  return !s->oom;
}
