/* Source generation for the CUDA sort and searchsorted: extern "C"
 * wrappers that instantiate the templates of prelude/sort.cuh and
 * prelude/search.cuh with the geometry of
 * sort_plan.h (the one place it is set) and, for the dtype kernels, the
 * element's storage type and key kind. */
#include <stdio.h>

#include "codegen.h"
#include "sort_plan.h"

bool cn_cu_gen_sort_passes(cn_cu_src *s, char names[][CN_CU_NAME_CAP]) {
  snprintf(names[0], CN_CU_NAME_CAP, "cn_sort_hist");
  snprintf(names[1], CN_CU_NAME_CAP, "cn_sort_scan");
  snprintf(names[2], CN_CU_NAME_CAP, "cn_sort_scatter");
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(%d) "
      "cn_sort_hist(const cn_u64 *keys, long long len, int shift, "
      "long long tiles, long long *counts) {\n"
      "  cn_sort_hist_block<%d, %d, %d>(keys, len, shift, tiles, counts, "
      "blockIdx.x);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(%d) "
      "cn_sort_scan(long long *counts, long long tiles, long long *totals) "
      "{\n  cn_sort_scan_block<%d>(counts, tiles, totals, blockIdx.x);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(%d) "
      "cn_sort_scatter(const cn_u64 *kin, const long long *pin, cn_u64 "
      "*kout, long long *pout, long long len, int shift, long long tiles, "
      "const long long *counts, const long long *totals) {\n"
      "  cn_sort_scatter_block<%d, %d, %d>(kin, pin, kout, pout, len, shift, "
      "tiles, counts, totals, blockIdx.x);\n}\n",
      CN_SORT_THREADS, CN_SORT_RADIX, CN_SORT_THREADS, CN_SORT_ITEMS,
      CN_SORT_THREADS, CN_SORT_THREADS, CN_SORT_THREADS, CN_SORT_RADIX,
      CN_SORT_THREADS, CN_SORT_ITEMS);
  return !s->oom;
}

/* Storage type of an element (of each part, for complex) and key kind. */
static bool sort_elem(cn_dtype dt, const char **u, int *kind, bool *cplx) {
  *cplx = false;
  switch (dt) {
  case CN_BOOL:
    *u = "cn_u8", *kind = 3;
    return true;
  case CN_INT8:
    *u = "cn_u8", *kind = 1;
    return true;
  case CN_UINT8:
    *u = "cn_u8", *kind = 0;
    return true;
  case CN_INT16:
    *u = "cn_u16", *kind = 1;
    return true;
  case CN_UINT16:
    *u = "cn_u16", *kind = 0;
    return true;
  case CN_INT32:
    *u = "cn_u32", *kind = 1;
    return true;
  case CN_UINT32:
    *u = "cn_u32", *kind = 0;
    return true;
  case CN_INT64:
    *u = "cn_u64", *kind = 1;
    return true;
  case CN_UINT64:
    *u = "cn_u64", *kind = 0;
    return true;
  case CN_FLOAT32:
    *u = "cn_u32", *kind = 2;
    return true;
  case CN_FLOAT64:
    *u = "cn_u64", *kind = 2;
    return true;
  case CN_COMPLEX64:
    *u = "cn_u32", *kind = 2, *cplx = true;
    return true;
  case CN_COMPLEX128:
    *u = "cn_u64", *kind = 2, *cplx = true;
    return true;
  default:
    return false;
  }
}

bool cn_cu_gen_sort_keys(cn_cu_src *s, cn_dtype dt,
                         char names[][CN_CU_NAME_CAP]) {
  const char *u, *tag = cn_cu_tag(dt);
  int kind;
  bool cplx;
  if (!sort_elem(dt, &u, &kind, &cplx))
    return false;
  char tp[64];
  snprintf(tp, sizeof tp, "%d, %s, %s", kind, u, cplx ? "true" : "false");
  snprintf(names[0], CN_CU_NAME_CAP, "cn_sort_bits_%s", tag);
  snprintf(names[1], CN_CU_NAME_CAP, "cn_sort_keys_%s", tag);
  snprintf(names[2], CN_CU_NAME_CAP, "cn_sort_out_%s", tag);
  /* bits: a warp folds its AND/OR by shuffles, lane 0 updates the totals */
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const %s "
      "*src, long long total, long long n, int canon, cn_u64 *bits) {\n"
      "  cn_u64 acc[8] = {~0ull, ~0ull, ~0ull, ~0ull, 0, 0, 0, 0};\n"
      "  cn_sort_bits_run<%s>(src, total, n, canon != 0, (long long)blockIdx.x"
      " * blockDim.x + threadIdx.x, (long long)gridDim.x * blockDim.x, acc);\n"
      "  for (int w = 0; w < %d; w++) {\n"
      "    for (int o = 16; o > 0; o >>= 1) {\n"
      "      acc[w] &= __shfl_xor_sync(0xffffffffu, acc[w], o);\n"
      "      acc[4 + w] |= __shfl_xor_sync(0xffffffffu, acc[4 + w], o);\n"
      "    }\n"
      "    if ((threadIdx.x & 31) == 0) {\n"
      "      atomicAnd(&bits[w], acc[w]);\n"
      "      atomicOr(&bits[4 + w], acc[4 + w]);\n"
      "    }\n  }\n}\n",
      CN_SORT_THREADS, names[0], u, tp, cplx ? 3 : 1);
  cn_cu_src_appendf(
      s,
      "extern \"C\" __global__ void __launch_bounds__(%d) %s(const %s *src, "
      "long long *perm, cn_u64 *keys, long long base, long long len, long "
      "long n, int word, int canon, int init) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < len; i += (long long)gridDim.x * blockDim.x)\n"
      "    cn_sort_keys_at<%s>(src, perm, keys, base, n, word, canon != 0, "
      "init != 0, i);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(%d) %s(const %s *src, "
      "const long long *perm, long long total, long long n, long long q, %s "
      "*vals, long long *vperm, int roundtrip) {\n"
      "  for (long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " p < total; p += (long long)gridDim.x * blockDim.x)\n"
      "    cn_sort_out_at<%s>(src, perm, n, q, vals, vperm, roundtrip != 0, "
      "p);\n}\n",
      CN_SORT_THREADS, names[1], u, tp, CN_SORT_THREADS, names[2], u, u, tp);
  return !s->oom;
}

bool cn_cu_gen_search(cn_cu_src *s, cn_dtype dt,
                      char names[][CN_CU_NAME_CAP]) {
  const char *u;
  int kind;
  bool cplx;
  if (!sort_elem(dt, &u, &kind, &cplx))
    return false;
  snprintf(names[0], CN_CU_NAME_CAP, "cn_search_%s", cn_cu_tag(dt));
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const %s "
      "*a, long long n, const %s *v, long long m, int right, long long "
      "*out) {\n"
      "  for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " j < m; j += (long long)gridDim.x * blockDim.x)\n"
      "    out[j] = cn_search_at<%d, %s, %s>(a, n, v, j, right != 0);\n}\n",
      CN_SORT_THREADS, names[0], u, u, kind, u, cplx ? "true" : "false");
  return !s->oom;
}

bool cn_cu_gen_quantile(cn_cu_src *s, cn_dtype dt,
                        char names[][CN_CU_NAME_CAP]) {
  if (dt != CN_FLOAT32 && dt != CN_FLOAT64)
    return false;
  const char *t = dt == CN_FLOAT32 ? "float" : "double";
  snprintf(names[0], CN_CU_NAME_CAP, "cn_quantile_%s", cn_cu_tag(dt));
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(%d) %s(const %s "
      "*x, long long nlanes, long long len, const double *q, long long "
      "total, int method, int nan_skip, double *out) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < total; i += (long long)gridDim.x * blockDim.x)\n"
      "    out[i] = cn_quantile_sorted_%s(x, nlanes, len, q, method, "
      "nan_skip, i);\n}\n",
      CN_SORT_THREADS, names[0], t, t);
  return !s->oom;
}
