/* Source of the fft slot's helper kernels (fft_kernels.h): grid-stride loops
 * over the prelude's cn_geom (element strides in bytes, operand 0 the
 * output), one program per precision. */
#include <stdio.h>

#include "fft_kernels.h"

bool cn_cu_gen_fft(cn_cu_src *s, cn_dtype cdt, char names[][CN_CU_NAME_CAP]) {
  if (cdt != CN_COMPLEX64 && cdt != CN_COMPLEX128)
    return false;
  cn_dtype rdt = cn_cu_real(cdt);
  const char *rt = cn_cu_ctype(rdt), *ct = cn_cu_ctype(cdt);
  snprintf(names[0], CN_CU_NAME_CAP, "cn_fft_scale_%s", cn_cu_tag(rdt));
  snprintf(names[1], CN_CU_NAME_CAP, "cn_fft_gather_%s", cn_cu_tag(cdt));
  snprintf(names[2], CN_CU_NAME_CAP, "cn_fft_gather_%s", cn_cu_tag(rdt));
  snprintf(names[3], CN_CU_NAME_CAP, "cn_fft_realdc_%s", cn_cu_tag(cdt));
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " %s *x, const %s sc) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < n; i += (long long)gridDim.x * blockDim.x) x[i] *= sc;\n}\n",
      names[0], rt, rt);
  for (int k = 1; k <= 2; k++)
    cn_cu_src_appendf(
        s,
        "extern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
        " const cn_geom g, char *out, const char *in) {\n"
        "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
        " i < n; i += (long long)gridDim.x * blockDim.x) {\n"
        "    long long r = i, o = 0, p = 0;\n"
        "    for (int d = g.ndim - 1; d >= 0; d--) {\n"
        "      long long e = r %% g.shape[d];\n"
        "      o += e * g.st[0][d]; p += e * g.st[1][d]; r /= g.shape[d];\n"
        "    }\n"
        "    *reinterpret_cast<%s *>(out + o) ="
        " *reinterpret_cast<const %s *>(in + p);\n  }\n}\n",
        names[k], k == 1 ? ct : rt, k == 1 ? ct : rt);
  cn_cu_src_appendf(
      s,
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " const cn_geom g, char *x, long long nyq) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < n; i += (long long)gridDim.x * blockDim.x) {\n"
      "    long long r = i, o = 0;\n"
      "    for (int d = g.ndim - 1; d >= 0; d--) {\n"
      "      o += (r %% g.shape[d]) * g.st[0][d]; r /= g.shape[d];\n"
      "    }\n"
      "    reinterpret_cast<%s *>(x + o)->im = 0;\n"
      "    if (nyq > 0) reinterpret_cast<%s *>(x + o + nyq)->im = 0;\n"
      "  }\n}\n",
      names[3], ct, ct);
  return !s->oom;
}
