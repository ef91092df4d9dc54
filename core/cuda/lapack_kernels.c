/* Generates the lapack slot's kernels: one extern "C" wrapper per kernel
 * and dtype around the templates of core/cuda/lapack.cuh, grid-stride over
 * the elements (or one thread per matrix where the CPU works in order). */
#include "lapack_kernels.h"

#include <stdio.h>

static const char *const k_names[CN_CU_LAK_COUNT_] = {
    "tri_zero", "eye", "copy", "nonfinite",
    "slogdet",  "eigvec", "ah_b", "lstsq_cut"};

const char *cn_cu_la_kernel_name(cn_cu_la_kernel which) {
  return (which >= 0 && which < CN_CU_LAK_COUNT_) ? k_names[which] : NULL;
}

#define LOOP                                                                   \
  "  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;"    \
  " e < total; e += (long long)gridDim.x * blockDim.x) {\n"

bool cn_cu_gen_lapack(cn_cu_src *s, cn_cu_la_kernel which, cn_dtype dt,
                      bool with_helpers, char names[][CN_CU_NAME_CAP]) {
  if (dt != CN_FLOAT32 && dt != CN_FLOAT64 && dt != CN_COMPLEX64 &&
      dt != CN_COMPLEX128)
    return false;
  const char *kn = cn_cu_la_kernel_name(which);
  if (kn == NULL)
    return false;
  bool cplx = dt == CN_COMPLEX64 || dt == CN_COMPLEX128;
  if (which == CN_CU_LAK_EIGVEC && cplx)
    return false;
  const char *T = cn_cu_ctype(dt);
  const char *R = dt == CN_FLOAT32 || dt == CN_COMPLEX64 ? "float" : "double";
  char *nm = names[0];
  snprintf(nm, CN_CU_NAME_CAP, "cn_la_%s_%s", kn, cn_cu_tag(dt));
  if (with_helpers)
    cn_cu_src_appendf(s, "\n%s\n", cn_cu_lapack_text);
  const char *head = "\nextern \"C\" __global__ void __launch_bounds__(256) ";
  switch (which) {
  case CN_CU_LAK_TRI_ZERO:
    cn_cu_src_appendf(
        s,
        "%s%s(long long n, long long batch, int upper, %s *a) {\n"
        "  long long total = n * n * batch;\n" LOOP
        "    long long i = e %% n, j = (e / n) %% n;\n"
        "    if (upper ? i > j : i < j) a[e] = %s(0);\n  }\n}\n",
        head, nm, T, T);
    break;
  case CN_CU_LAK_EYE:
    cn_cu_src_appendf(s,
                      "%s%s(long long r, long long c, long long batch, %s *a) "
                      "{\n"
                      "  long long total = r * c * batch;\n" LOOP
                      "    long long i = e %% r, j = (e / r) %% c;\n"
                      "    a[e] = %s(i == j ? 1 : 0);\n  }\n}\n",
                      head, nm, T, T);
    break;
  case CN_CU_LAK_COPY:
    cn_cu_src_appendf(
        s,
        "%s%s(long long batch, long long ro, long long co, %s *out, "
        "long long ldo, long long sbo, const %s *in, long long ldi, "
        "long long sbi, long long ri, long long ci, int adjoint, int upper) "
        "{\n"
        "  long long total = ro * co * batch;\n" LOOP
        "    long long i = e %% ro, j = (e / ro) %% co, b = e / (ro * co);\n"
        "    out[i + j * ldo + b * sbo] = cn_la_copy_at(i, j, in + b * sbi, "
        "ldi, ri, ci, adjoint != 0, upper != 0);\n  }\n}\n",
        head, nm, T, T);
    break;
  case CN_CU_LAK_NONFINITE:
    cn_cu_src_appendf(s,
                      "%s%s(long long total, const %s *p, int nan_only, "
                      "int *flag) {\n" LOOP
                      "    if (cn_la_bad(p[e], nan_only != 0)) *flag = 1;\n"
                      "  }\n}\n",
                      head, nm, T);
    break;
  case CN_CU_LAK_SLOGDET:
    cn_cu_src_appendf(
        s,
        "%s%s(long long n, long long total, const %s *a, const long long "
        "*ipiv, const int *info, %s *sign, %s *logdet) {\n" LOOP
        "    cn_la_slogdet_one(n, a + e * n * n, ipiv + e * n, info[e], "
        "sign + e, logdet + e);\n  }\n}\n",
        head, nm, T, T, R);
    break;
  case CN_CU_LAK_EIGVEC:
    cn_cu_src_appendf(s,
                      "%s%s(long long n, const %s *vr, const cn_cx<%s> *w, "
                      "cn_cx<%s> *v) {\n"
                      "  long long total = n * n;\n" LOOP
                      "    v[e] = cn_la_eigvec_at(e %% n, e / n, n, vr, w);\n"
                      "  }\n}\n",
                      head, nm, R, R, R);
    break;
  case CN_CU_LAK_AH_B:
    cn_cu_src_appendf(
        s,
        "%s%s(long long rows, long long cols, long long L, const %s *A, "
        "long long lda, const %s *B, long long ldb, %s *C, long long ldc) {\n"
        "  long long total = rows * cols;\n" LOOP
        "    long long i = e %% rows, j = e / rows;\n"
        "    C[i + j * ldc] = cn_la_ah_b_at(i, j, L, A, lda, B, ldb);\n"
        "  }\n}\n",
        head, nm, T, T, T);
    break;
  case CN_CU_LAK_LSTSQ_CUT:
    cn_cu_src_appendf(
        s,
        "%s%s(long long mn, long long k, const %s *s, double rcond, %s *c, "
        "long long ldc, long long *rank) {\n"
        "  if (threadIdx.x == 0) {\n"
        "    long long r = 0;\n"
        "    for (long long i = 0; i < mn; i++) r += cn_la_kept(s, i, rcond);\n"
        "    *rank = r;\n  }\n"
        "  for (long long e = threadIdx.x; e < mn * k; e += blockDim.x) {\n"
        "    long long i = e %% mn, j = e / mn;\n"
        "    %s f = cn_la_kept(s, i, rcond) ? %s(1) / s[i] : %s(0);\n"
        "    c[i + j * ldc] = c[i + j * ldc] * %s(f);\n  }\n}\n",
        head, nm, R, T, R, R, R, T);
    break;
  default:
    return false;
  }
  return !s->oom;
}
