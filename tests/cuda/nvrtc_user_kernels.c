/* NVRTC compiles the CUDA source that cn_kernel_source generates for the
 * custom kernels the tests and the seed examples use (elementwise with
 * placeholders, raw parameters, scalars, several outputs, every dtype;
 * reductions), behind the plugin's device prelude exactly as the plugin
 * would; and a body with a syntax error yields NVRTC's log naming the
 * body's line. No GPU needed. Argument: the compute capability. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/codegen.h"
#include "cuda/nvrtc_compile.h"
#include "cunumpy/cunumpy.h"

static int g_arch = 90, g_failures, g_compiled;

typedef struct {
  int reduction;
  const char *in, *out, *body, *reduce, *post, *identity, *reduce_type;
  int nargs;
  cn_dtype args[4];
  int scalar_last; /* the last argument is a weak Python float */
} kspec;

static const kspec k_specs[] = {
    {0, "float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)", 0, 0, 0,
     0, 2, {CN_FLOAT32, CN_FLOAT32}, 0},
    {0, "T x, T y", "T z", "z = (x - y) * (x - y)", 0, 0, 0, 0, 2,
     {CN_FLOAT64, CN_FLOAT64}, 1},
    {0, "raw T x", "T y",
     "y = (x[i > 0 ? i-1 : 0] + x[i] + x[i < _ind.size()-1 ? i+1 : "
     "_ind.size()-1]) / 3",
     0, 0, 0, 0, 1, {CN_FLOAT64}, 0},
    {0, "T x, T y, T s", "T z", "z = x * 10 + y + s", 0, 0, 0, 0, 3,
     {CN_INT32, CN_INT32, CN_INT32}, 1},
    {0, "raw T x", "T y", "y = x[_ind.size() - 1 - i] + (T)i", 0, 0, 0, 0, 1,
     {CN_FLOAT64}, 0},
    {0, "T x", "T a, T b", "a = x + 1; b = x - 1", 0, 0, 0, 0, 1,
     {CN_FLOAT32}, 0},
    {0, "int32 x", "float64 z", "z = x / 2", 0, 0, 0, 0, 1, {CN_FLOAT64}, 0},
    {0, "T x", "U z", "z = x * 2", 0, 0, 0, 0, 2, {CN_FLOAT32, CN_INT16}, 0},
    {0, "bool x, bool y", "bool z", "z = x && !y", 0, 0, 0, 0, 2,
     {CN_BOOL, CN_BOOL}, 0},
    {0, "complex128 x", "complex128 y", "y = x * x + x", 0, 0, 0, 0, 1,
     {CN_COMPLEX128}, 0},
    {0, "T x, raw T w", "T y", "y = x * w[0]", 0, 0, 0, 0, 2,
     {CN_FLOAT32, CN_FLOAT32}, 0},
    {1, "T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", 0, 1,
     {CN_FLOAT64}, 0},
    {1, "T x", "T y", "x", "a + b", "y = a", "0", 0, 1, {CN_INT64}, 0},
    {1, "T x", "T y", "x", "max(a, b)", "y = a + 1", "-1000", 0, 1,
     {CN_FLOAT64}, 0},
    {1, "T x, T w", "float64 y", "x * w", "a + b", "y = a", "0", "float64", 2,
     {CN_FLOAT32, CN_FLOAT32}, 0},
};

/* The kernel's CUDA source for arguments of the given dtypes. */
static char *source_of(cn_kernel k, int nargs, const cn_dtype *dts,
                       int scalar_last) {
  cn_array args[4] = {NULL, NULL, NULL, NULL};
  int64_t shape[1] = {4};
  char *text = NULL;
  int ok = 1;
  for (int i = 0; i < nargs && ok; i++) {
    if (scalar_last && i == nargs - 1)
      ok = cn_scalar_array(&args[i], cn_scalar_float(2.0)) == CN_OK;
    else
      ok = cn_zeros(&args[i], 1, shape, dts[i], CN_ORDER_C) == CN_OK;
  }
  int64_t len = 0;
  if (ok && cn_kernel_source(NULL, 0, &len, k, CN_KERNEL_SOURCE_CUDA, nargs,
                             args) == CN_OK) {
    text = malloc((size_t)len + 1);
    if (text && cn_kernel_source(text, len + 1, &len, k, CN_KERNEL_SOURCE_CUDA,
                                 nargs, args) != CN_OK) {
      free(text);
      text = NULL;
    }
  }
  if (text == NULL)
    fprintf(stderr, "source: %s\n", cn_last_error());
  for (int i = 0; i < nargs; i++)
    cn_array_release(args[i]);
  return text;
}

/* Compiles prelude + source; returns NVRTC's log on failure. */
static int compile(const char *src, const char *name, char **log) {
  size_t n = strlen(cn_cu_prelude_text) + strlen(src) + 2;
  char *full = malloc(n);
  if (full == NULL)
    return 0;
  snprintf(full, n, "%s\n%s", cn_cu_prelude_text, src);
  char *img = NULL;
  size_t size = 0;
  int ok = cn_cu_nvrtc_compile(full, name, g_arch, false, &img, &size, log);
  if (ok && (img == NULL || strstr(img, ".entry") == NULL))
    ok = 0;
  free(img);
  free(full);
  return ok;
}

static cn_kernel make(const kspec *s) {
  cn_kernel k = NULL;
  cn_status st =
      s->reduction
          ? cn_reduction_kernel_create(&k, s->in, s->out, s->body, s->reduce,
                                       s->post, s->identity, "test_red",
                                       s->reduce_type, NULL, NULL)
          : cn_elementwise_kernel_create(&k, s->in, s->out, s->body,
                                         "test_ew", NULL, NULL, NULL, NULL);
  if (st != CN_OK)
    fprintf(stderr, "create '%s': %s\n", s->body, cn_last_error());
  return k;
}

int main(int argc, char **argv) {
  if (argc > 1)
    g_arch = atoi(argv[1]);
  for (size_t i = 0; i < sizeof k_specs / sizeof k_specs[0]; i++) {
    const kspec *s = &k_specs[i];
    cn_kernel k = make(s);
    char *src = k ? source_of(k, s->nargs, s->args, s->scalar_last) : NULL;
    char *log = NULL;
    if (src == NULL || !compile(src, "user_kernel.cu", &log)) {
      fprintf(stderr, "FAIL kernel %zu '%s':\n%s\n%s\n", i, s->body,
              log ? log : "", src ? src : "");
      g_failures++;
    } else {
      g_compiled++;
    }
    free(log);
    free(src);
    cn_kernel_release(k);
  }
  /* Every dtype through one placeholder kernel. */
  static const cn_dtype all[] = {
      CN_BOOL,   CN_INT8,   CN_INT16,   CN_INT32,     CN_INT64,
      CN_UINT8,  CN_UINT16, CN_UINT32,  CN_UINT64,    CN_FLOAT32,
      CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128};
  kspec twice = {0, "T x", "T y", "y = x + x", 0, 0, 0, 0, 1, {CN_BOOL}, 0};
  cn_kernel k = make(&twice);
  for (size_t d = 0; k && d < sizeof all / sizeof all[0]; d++) {
    char *src = source_of(k, 1, &all[d], 0);
    char *log = NULL;
    if (src == NULL || !compile(src, "user_kernel.cu", &log)) {
      fprintf(stderr, "FAIL y = x + x for %s:\n%s\n", cn_dtype_name(all[d]),
              log ? log : "");
      g_failures++;
    } else {
      g_compiled++;
    }
    free(log);
    free(src);
  }
  cn_kernel_release(k);
  /* A syntax error: NVRTC's log names the body and its line. */
  kspec bad = {0, "T x", "T y", "y = x;\ny = x +* ;", 0, 0, 0, 0, 1,
               {CN_FLOAT32}, 0};
  k = make(&bad);
  char *src = k ? source_of(k, 1, bad.args, 0) : NULL;
  char *log = NULL;
  if (src == NULL || compile(src, "user_kernel.cu", &log) || log == NULL ||
      strstr(log, "operation(2)") == NULL) {
    fprintf(stderr, "FAIL: the bad body's log lacks 'operation(2)':\n%s\n",
            log ? log : "(none)");
    g_failures++;
  }
  free(log);
  free(src);
  cn_kernel_release(k);
  printf("%d custom kernels compiled to PTX for compute_%d, %d failures\n",
         g_compiled, g_arch, g_failures);
  return g_failures ? 1 : 0;
}
