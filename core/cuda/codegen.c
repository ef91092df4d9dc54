/* CUDA source generation: each generator instantiates the templates of the
 * device prelude (core/cuda/prelude/) for one dtype combination. Op
 * expressions come verbatim from core/ops.def and reduction kernel names
 * from core/reduce.def, so the GPU computes what the tables say. */
#include "codegen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cn_cu_src_init(cn_cu_src *s) {
  s->text = NULL;
  s->len = s->cap = 0;
  s->oom = false;
}

void cn_cu_src_free(cn_cu_src *s) {
  free(s->text);
  cn_cu_src_init(s);
}

void cn_cu_src_appendf(cn_cu_src *s, const char *fmt, ...) {
  if (s->oom)
    return;
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    va_end(ap2);
    s->oom = true;
    return;
  }
  size_t need = s->len + (size_t)n + 1;
  if (need > s->cap) {
    size_t cap = s->cap ? s->cap : 4096;
    while (cap < need)
      cap *= 2;
    char *t = realloc(s->text, cap);
    if (t == NULL) {
      va_end(ap2);
      s->oom = true;
      return;
    }
    s->text = t;
    s->cap = cap;
  }
  vsnprintf(s->text + s->len, s->cap - s->len, fmt, ap2);
  va_end(ap2);
  s->len += (size_t)n;
}

typedef struct {
  cn_dtype dt;
  const char *ctype, *tag;
} dt_info;

static const dt_info k_dtypes[] = {
    {CN_BOOL, "bool", "b1"},
    {CN_INT8, "cn_i8", "i8"},
    {CN_INT16, "cn_i16", "i16"},
    {CN_INT32, "cn_i32", "i32"},
    {CN_INT64, "cn_i64", "i64"},
    {CN_UINT8, "cn_u8", "u8"},
    {CN_UINT16, "cn_u16", "u16"},
    {CN_UINT32, "cn_u32", "u32"},
    {CN_UINT64, "cn_u64", "u64"},
    {CN_FLOAT16, "cn_f16", "f16"},
    {CN_FLOAT32, "float", "f32"},
    {CN_FLOAT64, "double", "f64"},
    {CN_COMPLEX64, "cn_c64", "c64"},
    {CN_COMPLEX128, "cn_c128", "c128"},
};

static const dt_info *find_dt(cn_dtype dt) {
  for (size_t i = 0; i < sizeof k_dtypes / sizeof k_dtypes[0]; i++)
    if (k_dtypes[i].dt == dt)
      return &k_dtypes[i];
  return NULL;
}

const char *cn_cu_ctype(cn_dtype dt) {
  const dt_info *d = find_dt(dt);
  return d ? d->ctype : NULL;
}

const char *cn_cu_tag(cn_dtype dt) {
  const dt_info *d = find_dt(dt);
  return d ? d->tag : "invalid";
}

/* The core's rule, through its services (codegen also runs outside the
 * plugin, in tests/cuda/nvrtc_kernels.c, so it asks the accessor). */
cn_dtype cn_cu_real(cn_dtype dt) {
  return cn__plugin_services()->real_dtype(dt);
}

cn_dtype cn_cu_op_out(const cn_op_info *info, cn_dtype compute) {
  switch (info->out) {
  case CN_OUT_BOOL:
    return CN_BOOL;
  case CN_OUT_REAL:
    return cn_cu_real(compute);
  default:
    return compute;
  }
}

#define CN_RED_NAME_KERNEL(name, KIND) [CN_RED_##KIND] = #name,
#define CN_RED_NAME_MOMENTS(name, KIND)
static const char *const k_red_names[CN_RED_COUNT_] = {
#define CN_REDUCTION(name, KIND, family, backend, empty, nans, doc)            \
  CN_RED_NAME_##backend(name, KIND)
#include "../reduce.def"
#undef CN_REDUCTION
};

const char *cn_cu_red_name(cn_reduce_kind kind) {
  if ((int)kind < 0 || kind >= CN_RED_COUNT_)
    return NULL;
  return k_red_names[kind];
}

/* Emits the functor F_<base> with out_t/in*_t and op() returning body, and
 * the contiguous and strided kernels over it. */
static void emit_ew(cn_cu_src *s, const char *base, const char *out_t,
                    const char *in0, const char *in1, const char *in2,
                    const char *body, char names[][CN_CU_NAME_CAP]) {
  snprintf(names[0], CN_CU_NAME_CAP, "%s_c", base);
  snprintf(names[1], CN_CU_NAME_CAP, "%s_s", base);
  snprintf(names[2], CN_CU_NAME_CAP, "%s_v", base);
  cn_cu_src_appendf(
      s,
      "\nstruct F_%s {\n"
      "  typedef %s out_t; typedef %s in0_t; typedef %s in1_t;"
      " typedef %s in2_t;\n"
      "  static CN_DEV out_t op(const in0_t *pa, const in1_t *pb,"
      " const in2_t *pc, long long i) {\n"
      "    (void)pa; (void)pb; (void)pc;\n"
      "    %s\n"
      "  }\n};\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " %s *out, const %s *a, const %s *b, const %s *c) {\n"
      "  cn_ew_contig<F_%s>(n, out, a, b, c);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " const cn_geom g, char *out, const char *a, const char *b,"
      " const char *c) {\n"
      "  cn_ew_strided<F_%s>(n, g, out, a, b, c);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " %s *out, const %s *a, const %s *b, const %s *c) {\n"
      "  cn_ew_vec<F_%s>(n, out, a, b, c);\n}\n",
      base, out_t, in0, in1, in2, body, names[0], out_t, in0, in1, in2, base,
      names[1], base, names[2], out_t, in0, in1, in2, base);
}

bool cn_cu_gen_elementwise(cn_cu_src *s, int32_t opid, const cn_op_info *info,
                           cn_dtype compute, char names[][CN_CU_NAME_CAP]) {
  (void)opid;
  const char *t = cn_cu_ctype(compute);
  cn_dtype out = cn_cu_op_out(info, compute);
  const char *ot = cn_cu_ctype(out);
  if (t == NULL || ot == NULL || info->nin < 1 || info->nin > 3)
    return false;
  char base[CN_CU_NAME_CAP - 8];
  snprintf(base, sizeof base, "cn_ew_%s_%s", info->name, cn_cu_tag(compute));
  char body[1024];
  snprintf(body, sizeof body,
           "const in0_t a = pa[i];%s%s\n    return (out_t)(%s);",
           info->nin >= 2 ? " const in1_t b = pb[i];" : "",
           info->nin >= 3 ? " const in2_t c = pc[i];" : "", info->expr);
  emit_ew(s, base, ot, t, t, t, body, names);
  return !s->oom;
}

bool cn_cu_gen_assign(cn_cu_src *s, cn_dtype to, cn_dtype from,
                      char names[][CN_CU_NAME_CAP]) {
  const char *tt = cn_cu_ctype(to), *ft = cn_cu_ctype(from);
  if (tt == NULL || ft == NULL)
    return false;
  char base[CN_CU_NAME_CAP - 8];
  snprintf(base, sizeof base, "cn_cast_%s_%s", cn_cu_tag(from), cn_cu_tag(to));
  emit_ew(s, base, tt, ft, ft, ft, "return cn_cast<out_t>(pa[i]);", names);
  return !s->oom;
}

bool cn_cu_gen_where(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]) {
  const char *t = cn_cu_ctype(dt);
  if (t == NULL)
    return false;
  char base[CN_CU_NAME_CAP - 8];
  snprintf(base, sizeof base, "cn_where_%s", cn_cu_tag(dt));
  emit_ew(s, base, t, "bool", t, t, "return pa[i] ? pb[i] : pc[i];", names);
  return !s->oom;
}

bool cn_cu_gen_fill(cn_cu_src *s, cn_dtype dt, char names[][CN_CU_NAME_CAP]) {
  const char *t = cn_cu_ctype(dt);
  if (t == NULL)
    return false;
  snprintf(names[0], CN_CU_NAME_CAP, "cn_fill_%s_c", cn_cu_tag(dt));
  snprintf(names[1], CN_CU_NAME_CAP, "cn_fill_%s_s", cn_cu_tag(dt));
  cn_cu_src_appendf(
      s,
      "\nextern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " %s *out, const %s v) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < n; i += (long long)gridDim.x * blockDim.x) out[i] = v;\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long n,"
      " const cn_geom g, char *out, const %s v) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;"
      " i < n; i += (long long)gridDim.x * blockDim.x) {\n"
      "    long long r = i, o = 0;\n"
      "    for (int d = g.ndim - 1; d >= 0; d--) {\n"
      "      o += (r %% g.shape[d]) * g.st[0][d]; r /= g.shape[d];\n"
      "    }\n"
      "    *reinterpret_cast<%s *>(out + o) = v;\n  }\n}\n",
      names[0], t, t, names[1], t, t);
  return !s->oom;
}

/* The three reduction kernels over functor type R (already typedef'd as
 * R_<base>), plus the all-NaN check for nanarg kinds. */
static void emit_reduce(cn_cu_src *s, const char *base, const char *rtype,
                        bool nan_check, char names[][CN_CU_NAME_CAP]) {
  snprintf(names[0], CN_CU_NAME_CAP, "%s_b", base);
  snprintf(names[1], CN_CU_NAME_CAP, "%s_p", base);
  snprintf(names[2], CN_CU_NAME_CAP, "%s_t", base);
  names[3][0] = 0;
  cn_cu_src_appendf(
      s,
      "\ntypedef %s R_%s;\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long K,"
      " const cn_rgeom g, const char *in, char *out, char *out2,"
      " double param, void *partial) {\n"
      "  cn_red_blocks<R_%s>(K, g, in, out, out2, param,"
      " (R_%s::acc_t *)partial);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(int G,"
      " const cn_rgeom g, const void *partial, char *out, char *out2,"
      " double param) {\n"
      "  cn_red_pass2<R_%s>(G, g, (const R_%s::acc_t *)partial, out, out2,"
      " param);\n}\n"
      "extern \"C\" __global__ void __launch_bounds__(256) %s(long long M,"
      " long long K, const cn_rgeom g, const char *in, char *out,"
      " char *out2, double param) {\n"
      "  cn_red_threads<R_%s>(M, K, g, in, out, out2, param);\n}\n",
      rtype, base, names[0], base, base, names[1], base, base, names[2], base);
  if (nan_check) {
    snprintf(names[3], CN_CU_NAME_CAP, "%s_chk", base);
    cn_cu_src_appendf(
        s,
        "extern \"C\" __global__ void __launch_bounds__(256) %s(long long M,"
        " const cn_rgeom g, const char *out, int *flag) {\n"
        "  for (long long o = (long long)blockIdx.x * blockDim.x +"
        " threadIdx.x; o < M; o += (long long)gridDim.x * blockDim.x) {\n"
        "    long long oi, oo, oo2; cn_kept_off(g, o, oi, oo, oo2);\n"
        "    if (*reinterpret_cast<const long long *>(out + oo) < 0)"
        " *flag = 1;\n  }\n}\n",
        names[3]);
  }
}

bool cn_cu_red_type(char *buf, size_t cap, cn_reduce_kind kind, cn_dtype in,
                    cn_dtype out) {
  const char *it = cn_cu_ctype(in), *ot = cn_cu_ctype(out);
  if (it == NULL || ot == NULL)
    return false;
  switch (kind) {
  case CN_RED_SUM:
  case CN_RED_NANSUM:
    snprintf(buf, cap, "cn_r_sum<%s, %s, %s>", it, ot,
             kind == CN_RED_NANSUM ? "true" : "false");
    return true;
  case CN_RED_PROD:
  case CN_RED_NANPROD:
    snprintf(buf, cap, "cn_r_prod<%s, %s, %s>", it, ot,
             kind == CN_RED_NANPROD ? "true" : "false");
    return true;
  case CN_RED_MIN:
  case CN_RED_MAX:
  case CN_RED_NANMIN:
  case CN_RED_NANMAX:
    snprintf(buf, cap, "cn_r_minmax<%s, %s, %s, %s>", it, ot,
             (kind == CN_RED_MAX || kind == CN_RED_NANMAX) ? "true" : "false",
             (kind == CN_RED_NANMIN || kind == CN_RED_NANMAX) ? "true"
                                                              : "false");
    return true;
  case CN_RED_ANY:
  case CN_RED_ALL:
    if (out != CN_BOOL)
      return false;
    snprintf(buf, cap, "cn_r_anyall<%s, %s>", it,
             kind == CN_RED_ALL ? "true" : "false");
    return true;
  case CN_RED_ARGMIN:
  case CN_RED_ARGMAX:
  case CN_RED_NANARGMIN:
  case CN_RED_NANARGMAX:
    if (out != CN_INT64)
      return false;
    snprintf(buf, cap, "cn_r_arg<%s, %s, %s>", it,
             (kind == CN_RED_ARGMAX || kind == CN_RED_NANARGMAX) ? "true"
                                                                 : "false",
             (kind == CN_RED_NANARGMIN || kind == CN_RED_NANARGMAX) ? "true"
                                                                    : "false");
    return true;
  default:
    return false;
  }
}

bool cn_cu_gen_reduce(cn_cu_src *s, cn_reduce_kind kind, cn_dtype in,
                      cn_dtype out, char names[][CN_CU_NAME_CAP]) {
  const char *it = cn_cu_ctype(in), *ot = cn_cu_ctype(out);
  const char *kn = cn_cu_red_name(kind);
  if (it == NULL || ot == NULL || kn == NULL)
    return false;
  char base[CN_CU_NAME_CAP - 8], rtype[256];
  snprintf(base, sizeof base, "cn_red_%s_%s_%s", kn, cn_cu_tag(in),
           cn_cu_tag(out));
  switch (kind) {
  case CN_RED_CUMSUM:
  case CN_RED_CUMPROD:
    snprintf(names[0], CN_CU_NAME_CAP, "%s_b", base);
    snprintf(names[1], CN_CU_NAME_CAP, "%s_t", base);
    cn_cu_src_appendf(
        s,
        "\ntypedef cn_s_op<%s, %s, %s> S_%s;\n"
        "extern \"C\" __global__ void __launch_bounds__(256) %s(long long K,"
        " const cn_rgeom g, const char *in, char *out) {\n"
        "  cn_scan_blocks<S_%s>(K, g, in, out);\n}\n"
        "extern \"C\" __global__ void __launch_bounds__(256) %s(long long M,"
        " long long K, const cn_rgeom g, const char *in, char *out) {\n"
        "  cn_scan_threads<S_%s>(M, K, g, in, out);\n}\n",
        it, ot, kind == CN_RED_CUMPROD ? "true" : "false", base, names[0], base,
        names[1], base);
    return !s->oom;
  default:
    if (!cn_cu_red_type(rtype, sizeof rtype, kind, in, out))
      return false;
  }
  emit_reduce(s, base, rtype,
              kind == CN_RED_NANARGMIN || kind == CN_RED_NANARGMAX, names);
  return !s->oom;
}

bool cn_cu_gen_moments(cn_cu_src *s, cn_dtype in, cn_dtype mean, cn_dtype var,
                       bool nan_skip, char names[][CN_CU_NAME_CAP]) {
  const char *it = cn_cu_ctype(in), *mt = cn_cu_ctype(mean);
  const char *vt = cn_cu_ctype(var);
  if (it == NULL || mt == NULL || vt == NULL || cn_is_complex(var))
    return false;
  char base[CN_CU_NAME_CAP - 8], rtype[256];
  snprintf(base, sizeof base, "cn_mom%s_%s_%s_%s", nan_skip ? "nan" : "",
           cn_cu_tag(in), cn_cu_tag(mean), cn_cu_tag(var));
  snprintf(rtype, sizeof rtype, "cn_r_mom<%s, %s, %s, %s>", it, mt, vt,
           nan_skip ? "true" : "false");
  emit_reduce(s, base, rtype, false, names);
  return !s->oom;
}

/* ---- indexing --------------------------------------------------------------
 */

const char *cn_cu_copy_type(cn_dtype dt) {
  if (cn_cu_ctype(dt) == NULL)
    return NULL;
  switch (cn_itemsize(dt)) {
  case 1:
    return "cn_u8";
  case 2:
    return "cn_u16";
  case 4:
    return "cn_u32";
  case 8:
    return "cn_u64";
  case 16:
    return "cn_b16";
  default:
    return NULL;
  }
}

const char *cn_cu_copy_tag(cn_dtype dt) {
  static const char *const tags[] = {"x1", "x2", "x4", "x8", "x16"};
  const char *t = cn_cu_copy_type(dt);
  if (t == NULL)
    return "invalid";
  int64_t sz = cn_itemsize(dt);
  return tags[sz == 1 ? 0 : sz == 2 ? 1 : sz == 4 ? 2 : sz == 8 ? 3 : 4];
}

#define CN_KERNEL "extern \"C\" __global__ void __launch_bounds__(256) "

static bool gen_index_common(cn_cu_src *s, char names[][CN_CU_NAME_CAP]) {
  snprintf(names[0], CN_CU_NAME_CAP, "cn_idx_norm");
  snprintf(names[1], CN_CU_NAME_CAP, "cn_idx_claim");
  snprintf(names[2], CN_CU_NAME_CAP, "cn_idx_scan_tile");
  snprintf(names[3], CN_CU_NAME_CAP, "cn_idx_scan_add");
  cn_cu_src_appendf(
      s,
      "\n" CN_KERNEL "%s(long long n, long long *idx, long long extent,"
      " int mode, unsigned long long *bad) {\n"
      "  cn_idx_normalize(n, idx, extent, mode, bad);\n}\n" CN_KERNEL
      "%s(long long n, const cn_igeom g, const long long *idx, long long lo,"
      " unsigned long long *win) {\n"
      "  cn_scatter_claim(n, g, idx, lo, win);\n}\n" CN_KERNEL
      "%s(long long len, long long *x, long long *upper) {\n"
      "  cn_cmp_scan_tile<0>(len, x, upper);\n}\n" CN_KERNEL
      "%s(long long len, long long *x, const long long *upper) {\n"
      "  cn_cmp_scan_add<0>(len, x, upper);\n}\n",
      names[0], names[1], names[2], names[3]);
  return !s->oom;
}

static bool gen_index_copy(cn_cu_src *s, cn_dtype dt,
                           char names[][CN_CU_NAME_CAP]) {
  const char *t = cn_cu_copy_type(dt), *tag = cn_cu_copy_tag(dt);
  if (t == NULL)
    return false;
  snprintf(names[0], CN_CU_NAME_CAP, "cn_idx_gather_%s", tag);
  snprintf(names[1], CN_CU_NAME_CAP, "cn_idx_scatter_%s", tag);
  snprintf(names[2], CN_CU_NAME_CAP, "cn_idx_compress_%s", tag);
  snprintf(names[3], CN_CU_NAME_CAP, "cn_idx_scatter1_%s", tag);
  cn_cu_src_appendf(
      s,
      "\n" CN_KERNEL "%s(long long n, const cn_igeom g, %s *out,"
      " const %s *a, const long long *idx) {\n"
      "  cn_gather<%s>(n, g, out, a, idx);\n}\n" CN_KERNEL
      "%s(long long n, const cn_igeom g, %s *a, const %s *v,"
      " const long long *idx, long long lo,"
      " const unsigned long long *win) {\n"
      "  cn_scatter_write<%s>(n, g, a, v, idx, lo, win);\n}\n" CN_KERNEL
      "%s(long long n, const cn_u8 *m, const %s *a, %s *out,"
      " const long long *offs) {\n"
      "  cn_mask_pred p = {m};\n  cn_copy_writer<%s> w = {out, a};\n"
      "  cn_cmp_scatter(p, w, n, offs);\n}\n" CN_KERNEL
      "%s(long long n, const cn_igeom g, %s *a, const %s *v,"
      " const long long *idx) {\n"
      "  cn_scatter_serial<%s>(n, g, a, v, idx);\n}\n",
      names[0], t, t, t, names[1], t, t, t, names[2], t, t, t, names[3], t, t,
      t);
  return !s->oom;
}

static bool gen_index_nonzero(cn_cu_src *s, cn_dtype dt,
                              char names[][CN_CU_NAME_CAP]) {
  const char *t = cn_cu_ctype(dt);
  if (t == NULL)
    return false;
  snprintf(names[0], CN_CU_NAME_CAP, "cn_idx_nzcount_%s", cn_cu_tag(dt));
  snprintf(names[1], CN_CU_NAME_CAP, "cn_idx_nzpos_%s", cn_cu_tag(dt));
  names[2][0] = names[3][0] = 0;
  cn_cu_src_appendf(
      s,
      "\n" CN_KERNEL "%s(long long n, const cn_igeom g, const %s *a,"
      " long long *counts) {\n"
      "  cn_nz_pred<%s> p = {a, &g};\n  cn_cmp_count(p, n, counts);\n}\n"
      CN_KERNEL "%s(long long n, const cn_igeom g, const %s *a,"
      " long long *out, const long long *offs) {\n"
      "  cn_nz_pred<%s> p = {a, &g};\n  cn_pos_writer w = {out};\n"
      "  cn_cmp_scatter(p, w, n, offs);\n}\n",
      names[0], t, t, names[1], t, t);
  return !s->oom;
}

bool cn_cu_gen_index(cn_cu_src *s, cn_cu_idx_prog prog, cn_dtype dt,
                     char names[][CN_CU_NAME_CAP]) {
  switch (prog) {
  case CN_CU_IDX_COMMON:
    return gen_index_common(s, names);
  case CN_CU_IDX_COPY:
    return gen_index_copy(s, dt, names);
  case CN_CU_IDX_NONZERO:
    return gen_index_nonzero(s, dt, names);
  default:
    return false;
  }
}
