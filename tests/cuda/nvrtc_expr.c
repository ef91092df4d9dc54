/* Compiles the fused CUDA kernel of expression programs with NVRTC (no GPU
 * needed): every program tests/test_expr.cpp evaluates (same text, its
 * operands' dtypes), the benchmark's rows, and a seeded random sample of
 * expression trees over the whole op table with random dtypes. Each
 * program is compiled in its contiguous and its strided form (over its
 * ndim) in one module, the exact text the plugin generates (prelude +
 * cn_cu_gen_expr). A program the generator refuses must be one it
 * documents (float16 reduction, float16 nextafter or spacing). Usage:
 * cuda_nvrtc_expr [arch] [random count]. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/expr.h"
#include "cuda/codegen.h"
#include "cuda/nvrtc_compile.h"
#include "expr_program.h"

static int g_arch = 90;
static int g_failures, g_compiled, g_refused;

/* names bound with their dtypes and ndims */
typedef struct {
  const char *text;
  const char *names; /* "a:f64:1 b:f64:1" */
} prog_case;

static const prog_case k_cases[] = {
    /* tests/test_expr.cpp */
    {"a * b + c", "a:f64:1 b:f64:1 c:f64:1"},
    {"a * 2", "a:f64:2"},
    {"a + 1", "a:f64:2"},
    {"a + c", "a:f64:2 c:f64:1"},
    {"a ** 2 - 1", "a:f64:1"},
    {"2 ** 3 + 0.5", "a:f64:1"},
    {"b", "b:f64:1"},
    {"b ** 10 + b ** 2.5", "b:f64:1"},
    {"f * 3 + b", "f:f32:1 b:f64:1"},
    {"f * 2", "f:f32:1"},
    {"f * 2.0", "f:f32:1"},
    {"f * 2j", "f:f32:1"},
    {"abs(f * 1j)", "f:f32:1"},
    {"f + (2 * 3.0)", "f:f32:1"},
    {"f + sin(2.0)", "f:f32:1"},
    {"f + i", "f:f32:1 i:i16:1"},
    {"float64(f)", "f:f32:1"},
    {"h + 0", "h:f16:1"},
    {"sin(u)", "u:u8:1"},
    {"sin(i)", "i:i16:1"},
    {"i ** 2", "i:i16:1"},
    {"i + 1", "i:i16:1"},
    {"i + 1.5", "i:i16:1"},
    {"i + u", "i:i16:1 u:u8:1"},
    {"i / 2", "i:i16:1"},
    {"i // 0", "i:i16:1"},
    {"u < -1", "u:u8:1"},
    {"where(u > 1, i, 2.5)", "u:u8:1 i:i16:1"},
    {"where(u, i, 2)", "u:u8:1 i:i16:1"},
    {"sum(i)", "i:i16:1"},
    {"sum(u)", "u:u8:1"},
    {"prod(f)", "f:f32:1"},
    {"any(f)", "f:f32:1"},
    {"max(u)", "u:u8:1"},
    {"all(a > 0.1)", "a:f64:3"},
    {"any(a > 0.19)", "a:f64:3"},
    {"max(a - 1, axis=-1, keepdims=True)", "a:f64:3"},
    {"max(n)", "n:f64:1"},
    {"n", "n:f64:1"},
    {"prod(e)", "e:i32:1"},
    {"sum(a * 3)", "a:f64:3"},
    {"sum(a * 3, axis=(0, 1, 2), keepdims=True)", "a:f64:3"},
    {"sum(a, axis=1)", "a:f64:3"},
    {"sum(e, axis=0)", "e:i32:2"},
    {"sin(x) + y * x - where(z > 1, y, 2)", "x:f64:1 y:f64:1 z:f64:1"},
    {"where(isnan(n), -1, n * z)", "n:f64:1 z:c128:1"},
    {"where(t > 0.25, sqrt((t - 1.5) ** 2 + 1), -t) * 2", "t:f64:2"},
    {"x * x", "x:i64:1"},
    {"x ** y", "x:i64:1 y:i64:1"},
    {"z * 2 + 1", "z:c128:1"},
    {"z ** 0", "z:c128:1"},
    {"z", "z:c128:1"},
    {"e * 2", "e:i32:1"},
    /* benchmarks/bench_fusion.py's rows */
    {"2*a + 3*b", "a:f64:1 b:f64:1"},
    {"2*a + b**10", "a:f64:1 b:f64:1"},
    {"a**2 + b**2 - 2*a*b*cos(c)", "a:f64:1 b:f64:1 c:f64:1"},
    {"sqrt((x - y)**2 + 1)", "x:f64:1 y:f64:1"},
    {"where(a > 0.5, a, b)", "a:f64:1 b:f64:1"},
    {"sum(a*b)", "a:f64:1 b:f64:1"},
    {"f * 2.5 + g", "f:f32:1 g:f32:1"},
    /* every reduction kind over a few dtypes */
    {"sum(c64 * 2)", "c64:c64:1"},
    {"prod(b1)", "b1:b1:1"},
    {"min(u64 + 1)", "u64:u64:2"},
    {"all(i8)", "i8:i8:1"},
    {"max(f * 2)", "f:f32:4"},
};

static const struct {
  const char *tag;
  cn_dtype dt;
} k_tags[] = {{"b1", CN_BOOL},    {"i8", CN_INT8},     {"i16", CN_INT16},
              {"i32", CN_INT32},  {"i64", CN_INT64},   {"u8", CN_UINT8},
              {"u16", CN_UINT16}, {"u32", CN_UINT32},  {"u64", CN_UINT64},
              {"f16", CN_FLOAT16}, {"f32", CN_FLOAT32}, {"f64", CN_FLOAT64},
              {"c64", CN_COMPLEX64}, {"c128", CN_COMPLEX128}};
#define NTAGS ((int)(sizeof k_tags / sizeof k_tags[0]))

static bool has_half(const cn_expr_program *pr) {
  for (int32_t r = 0; r < pr->nreg; r++)
    if (pr->regs[r].dtype == CN_FLOAT16)
      return true;
  return false;
}

/* Generates and compiles the two forms of the program of text; a refusal
 * must be a documented one. Returns false when it did not compile. */
static bool check(const char *text, int32_t nin, const char *const *names,
                  const cn_dtype *dts, const int32_t *nds, bool verbose) {
  cn_expr e = NULL;
  if (cn_expr_compile(&e, text, nin, names, dts, nds) != CN_OK) {
    fprintf(stderr, "FAIL compile '%s': %s\n", text, cn_last_error());
    g_failures++;
    return false;
  }
  const cn_expr_program *pr = cn__expr_program(e);
  int32_t nd = 1;
  for (int32_t i = 0; i < nin; i++)
    nd = nds[i] > nd ? nds[i] : nd;
  cn_cu_src s;
  cn_cu_src_init(&s);
  cn_cu_src_appendf(&s, "%s\n", cn_cu_prelude_text);
  char names0[4][CN_CU_NAME_CAP], names1[4][CN_CU_NAME_CAP];
  bool ok0 = cn_cu_gen_expr(&s, pr, 0, names0);
  bool ok1 = ok0 && cn_cu_gen_expr(&s, pr, nd, names1);
  bool result = true;
  if (!ok0 || !ok1) {
    if (!has_half(pr) || s.oom) {
      fprintf(stderr, "FAIL generator refused '%s'\n", text);
      g_failures++;
      result = false;
    } else {
      g_refused++;
    }
  } else {
    char *img = NULL, *log = NULL;
    size_t size = 0;
    bool ok = cn_cu_nvrtc_compile(s.text, "expr", g_arch, false, &img, &size,
                                  &log);
    if (ok && (strstr(img, names0[0]) == NULL ||
               strstr(img, names1[0]) == NULL ||
               (pr->red_kind >= 0 && strstr(img, names1[1]) == NULL))) {
      ok = false;
      fprintf(stderr, "FAIL '%s': PTX lacks the kernels\n", text);
    }
    if (!ok) {
      fprintf(stderr, "FAIL NVRTC '%s':\n%.3000s\n", text,
              log ? log : "(no log)");
      if (verbose)
        fprintf(stderr, "%s\n", s.text + strlen(cn_cu_prelude_text));
      g_failures++;
      result = false;
    } else {
      g_compiled++;
    }
    free(img);
    free(log);
  }
  cn_cu_src_free(&s);
  cn_expr_release(e);
  return result;
}

static void run_case(const prog_case *c) {
  const char *names[8] = {NULL};
  char buf[8][16];
  cn_dtype dts[8] = {CN_FLOAT64};
  int32_t nds[8] = {0};
  int32_t nin = 0;
  const char *p = c->names;
  while (*p && nin < 8) {
    char tag[8];
    int nd = 0, used = 0;
    if (sscanf(p, " %15[^:]:%7[^:]:%d%n", buf[nin], tag, &nd, &used) != 3)
      break;
    p += used;
    cn_dtype dt = CN_FLOAT64;
    for (int t = 0; t < NTAGS; t++)
      if (strcmp(k_tags[t].tag, tag) == 0)
        dt = k_tags[t].dt;
    names[nin] = buf[nin];
    dts[nin] = dt;
    nds[nin] = nd;
    nin++;
  }
  check(c->text, nin, names, dts, nds, true);
}

/* A random expression over x, y, z: ops of the table by name with their
 * arity, literals, where and casts, depth-limited. */
static unsigned long long g_rng = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return (unsigned)(g_rng % n);
}

/* snprintf, truncating silently (the trees are depth-limited). */
static void put(char *out, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void put(char *out, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out, cap, fmt, ap);
  va_end(ap);
}

static void rand_expr(char *out, size_t cap, int depth) {
  const cn_op_info *ops = cn__plugin_services()->op_table();
  unsigned pick = depth <= 0 ? rnd(4) : rnd(10);
  if (pick < 3) {
    static const char *const leaves[] = {"x", "y", "z", "2", "0.5", "3j",
                                         "True"};
    put(out, cap, "%s", pick < 2 ? leaves[rnd(3)] : leaves[rnd(7)]);
    return;
  }
  char a[600], b[600], c[600];
  rand_expr(a, sizeof a, depth - 1);
  if (pick == 3) {
    put(out, cap, "%s", a);
    return;
  }
  if (pick == 4) {
    rand_expr(b, sizeof b, depth - 1);
    rand_expr(c, sizeof c, depth - 1);
    put(out, cap, "where(%s > 0, %s, %s)", a, b, c);
    return;
  }
  if (pick == 5) {
    static const char *const casts[] = {"float32", "int32", "float64",
                                        "complex64", "uint8", "bool"};
    put(out, cap, "%s(%s)", casts[rnd(6)], a);
    return;
  }
  const cn_op_info *info = &ops[rnd(CN_OP_COUNT_)];
  if (info->nin == 1) {
    put(out, cap, "%s(%s)", info->name, a);
  } else if (info->nin == 2) {
    rand_expr(b, sizeof b, depth - 1);
    put(out, cap, "%s(%s, %s)", info->name, a, b);
  } else {
    rand_expr(b, sizeof b, depth - 1);
    rand_expr(c, sizeof c, depth - 1);
    put(out, cap, "%s(%s, %s, %s)", info->name, a, b, c);
  }
}

static void random_sample(int count) {
  static const char *const names[3] = {"x", "y", "z"};
  static const char *const reds[] = {"sum", "prod", "min", "max", "any",
                                     "all"};
  int done = 0, tries = 0;
  while (done < count && tries < count * 200) {
    tries++;
    char text[1800], inner[1700];
    rand_expr(inner, sizeof inner, 3);
    if (rnd(4) == 0)
      put(text, sizeof text, "%s(%s)", reds[rnd(6)], inner);
    else
      put(text, sizeof text, "%s", inner);
    cn_dtype dts[3];
    int32_t nds[3];
    for (int i = 0; i < 3; i++) {
      dts[i] = k_tags[rnd(NTAGS)].dt;
      nds[i] = (int32_t)rnd(3);
    }
    cn_expr e = NULL;
    /* most random trees fail to type-check (no loop for the dtypes):
     * only the ones the engine accepts are programs */
    if (cn_expr_compile(&e, text, 3, names, dts, nds) != CN_OK)
      continue;
    cn_expr_release(e);
    if (!check(text, 3, names, dts, nds, false))
      fprintf(stderr, "  dtypes %s %s %s\n", cn_dtype_name(dts[0]),
              cn_dtype_name(dts[1]), cn_dtype_name(dts[2]));
    done++;
  }
  if (done < count) {
    fprintf(stderr, "FAIL only %d random programs type-checked\n", done);
    g_failures++;
  }
}

int main(int argc, char **argv) {
  if (argc > 1)
    g_arch = atoi(argv[1]);
  int count = argc > 2 ? atoi(argv[2]) : 40;
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
    run_case(&k_cases[i]);
  random_sample(count);
  printf("%d programs compiled (contiguous and strided forms), %d refused "
         "(float16), %d failures\n",
         g_compiled, g_refused, g_failures);
  return g_failures == 0 ? 0 : 1;
}
