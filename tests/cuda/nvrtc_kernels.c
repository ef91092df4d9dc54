/* Compiles every generated CUDA kernel with NVRTC (no GPU needed), so a
 * broken template or op expression fails the ordinary test run with the
 * compiler's log. Modes:
 *   elementwise  every op of core/ops.def x every compute dtype of its loops
 *   reductions   every reduction kind x every input dtype (natural
 *                accumulator), every sum/cumsum/prod in x out pair, moments
 *   casts        assign for every dtype pair, fill and where for every dtype
 *   cache        the on-disk kernel cache: round trip, corrupt and stale
 *                entries rejected
 *   fft          the fft slot's gather, scale and real-DC kernels, both
 *                precisions
 * Kernels are compiled in batches (one program per dtype or kind) with the
 * exact text the plugin generates; a failing batch is recompiled kernel by
 * kernel to name the culprit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/codegen.h"
#include "cuda/disk_cache.h"
#include "cuda/fft_kernels.h"
#include "cuda/nvrtc_compile.h"

static int g_arch = 90;
static int g_failures;
static long g_kernels;

static const cn_dtype k_all[] = {
    CN_BOOL,    CN_INT8,      CN_INT16,     CN_INT32,  CN_INT64,
    CN_UINT8,   CN_UINT16,    CN_UINT32,    CN_UINT64, CN_FLOAT32,
    CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128};
#define NDT ((int)(sizeof k_all / sizeof k_all[0]))

/* One kernel set to generate: a closure over the generator's arguments. */
typedef struct {
  int what; /* 0 ew, 1 reduce, 2 moments, 3 assign, 4 fill, 5 where, 6 fft */
  int32_t op;
  const cn_op_info *info;
  cn_reduce_kind kind;
  cn_dtype a, b, c;
  bool flag;
} job;

static bool gen(cn_cu_src *s, const job *j, char names[][CN_CU_NAME_CAP]) {
  switch (j->what) {
  case 0:
    return cn_cu_gen_elementwise(s, j->op, j->info, j->a, names);
  case 1:
    return cn_cu_gen_reduce(s, j->kind, j->a, j->b, names);
  case 2:
    return cn_cu_gen_moments(s, j->a, j->b, j->c, j->flag, names);
  case 3:
    return cn_cu_gen_assign(s, j->b, j->a, names);
  case 4:
    return cn_cu_gen_fill(s, j->a, names);
  case 6:
    return cn_cu_gen_fft(s, j->a, names);
  default:
    return cn_cu_gen_where(s, j->a, names);
  }
}

static void describe(char *buf, size_t cap, const job *j) {
  switch (j->what) {
  case 0:
    snprintf(buf, cap, "elementwise %s (%s)", j->info->name,
             cn_dtype_name(j->a));
    break;
  case 1:
    snprintf(buf, cap, "reduce %s (%s -> %s)", cn_cu_red_name(j->kind),
             cn_dtype_name(j->a), cn_dtype_name(j->b));
    break;
  case 2:
    snprintf(buf, cap, "%smoments (%s -> %s, %s)", j->flag ? "nan" : "",
             cn_dtype_name(j->a), cn_dtype_name(j->b), cn_dtype_name(j->c));
    break;
  case 3:
    snprintf(buf, cap, "assign %s -> %s", cn_dtype_name(j->a),
             cn_dtype_name(j->b));
    break;
  case 4:
    snprintf(buf, cap, "fill %s", cn_dtype_name(j->a));
    break;
  case 6:
    snprintf(buf, cap, "fft kernels %s", cn_dtype_name(j->a));
    break;
  default:
    snprintf(buf, cap, "where %s", cn_dtype_name(j->a));
  }
}

static bool compile_src(const cn_cu_src *s, const char *name, char **log) {
  char *img = NULL;
  size_t size = 0;
  bool ok = !s->oom &&
            cn_cu_nvrtc_compile(s->text, name, g_arch, false, &img, &size, log);
  if (ok && (size < 100 || strstr(img, ".entry") == NULL)) {
    ok = false; /* PTX without kernels: the generator emitted nothing */
    if (log)
      *log = strdup("PTX has no .entry");
  }
  free(img);
  return ok;
}

static void run_batch(const char *batch, const job *jobs, int n) {
  if (n == 0)
    return;
  cn_cu_src s;
  cn_cu_src_init(&s);
  cn_cu_src_appendf(&s, "%s\n", cn_cu_prelude_text);
  char names[4][CN_CU_NAME_CAP];
  for (int i = 0; i < n; i++) {
    if (!gen(&s, &jobs[i], names)) {
      char d[256];
      describe(d, sizeof d, &jobs[i]);
      fprintf(stderr, "FAIL: the generator has no kernel for %s\n", d);
      g_failures++;
    }
  }
  g_kernels += n;
  char *log = NULL;
  if (compile_src(&s, batch, &log)) {
    printf("ok   %-28s %3d kernel sets\n", batch, n);
    cn_cu_src_free(&s);
    return;
  }
  cn_cu_src_free(&s);
  /* Find the culprits one by one. */
  int before = g_failures;
  for (int i = 0; i < n; i++) {
    cn_cu_src one;
    cn_cu_src_init(&one);
    cn_cu_src_appendf(&one, "%s\n", cn_cu_prelude_text);
    size_t start = one.len;
    gen(&one, &jobs[i], names);
    char *l = NULL;
    if (!compile_src(&one, batch, &l)) {
      char d[256];
      describe(d, sizeof d, &jobs[i]);
      fprintf(stderr,
              "FAIL: NVRTC cannot compile %s\n--- generated kernel ---\n%s\n"
              "--- NVRTC log ---\n%.4000s\n",
              d, one.text ? one.text + start : "", l ? l : "(none)");
      g_failures++;
    }
    free(l);
    cn_cu_src_free(&one);
  }
  if (g_failures == before) { /* each compiles alone: a clash between them */
    fprintf(stderr, "FAIL: batch %s does not compile as a whole:\n%.4000s\n",
            batch, log ? log : "(no log)");
    g_failures++;
  }
  free(log);
}

#define MAXJOBS 512

static void elementwise(void) {
  const cn_plugin_services *svc = cn__plugin_services();
  const cn_op_info *ops = svc->op_table();
  static job jobs[MAXJOBS];
  int total = 0;
  for (int d = 0; d < NDT; d++) {
    int n = 0;
    for (int32_t op = 0; op < CN_OP_COUNT_; op++)
      if (svc->loop_class_has(ops[op].loops, k_all[d]))
        jobs[n++] = (job){.what = 0, .op = op, .info = &ops[op], .a = k_all[d]};
    char batch[64];
    snprintf(batch, sizeof batch, "elementwise_%s", cn_dtype_name(k_all[d]));
    run_batch(batch, jobs, n);
    total += n;
  }
  /* Every op must have at least one loop, else the table is broken. */
  for (int32_t op = 0; op < CN_OP_COUNT_; op++) {
    int has = 0;
    for (int d = 0; d < NDT; d++)
      has += svc->loop_class_has(ops[op].loops, k_all[d]);
    if (!has) {
      fprintf(stderr, "FAIL: op %s has no loop dtype\n", ops[op].name);
      g_failures++;
    }
  }
  if (total < CN_OP_COUNT_) {
    fprintf(stderr, "FAIL: only %d op/dtype pairs for %d ops\n", total,
            (int)CN_OP_COUNT_);
    g_failures++;
  }
}

/* The accumulator NumPy uses for sum/prod (and the scans). */
static cn_dtype natural_acc(cn_reduce_kind k, cn_dtype in) {
  switch (k) {
  case CN_RED_ANY:
  case CN_RED_ALL:
    return CN_BOOL;
  case CN_RED_ARGMIN:
  case CN_RED_ARGMAX:
  case CN_RED_NANARGMIN:
  case CN_RED_NANARGMAX:
    return CN_INT64;
  case CN_RED_SUM:
  case CN_RED_PROD:
  case CN_RED_NANSUM:
  case CN_RED_NANPROD:
  case CN_RED_CUMSUM:
  case CN_RED_CUMPROD:
    if (in == CN_BOOL || cn_dtype_code(in) == 0)
      return CN_INT64;
    if (cn_dtype_code(in) == 1)
      return CN_UINT64;
    return in;
  default:
    return in;
  }
}

static void reductions(void) {
  static job jobs[MAXJOBS];
  for (int k = 0; k < CN_RED_COUNT_; k++) {
    int n = 0;
    for (int d = 0; d < NDT; d++)
      jobs[n++] = (job){.what = 1,
                        .kind = (cn_reduce_kind)k,
                        .a = k_all[d],
                        .b = natural_acc((cn_reduce_kind)k, k_all[d])};
    char batch[64];
    snprintf(batch, sizeof batch, "reduce_%s", cn_cu_red_name(k));
    run_batch(batch, jobs, n);
  }
  /* dtype= lets the caller pick any accumulator: every pair for sum (the
   * templates are shared by every kind), float accumulators for the rest. */
  int n = 0;
  for (int d = 0; d < NDT; d++)
    for (int e = 0; e < NDT; e++)
      if (k_all[e] != natural_acc(CN_RED_SUM, k_all[d]))
        jobs[n++] =
            (job){.what = 1, .kind = CN_RED_SUM, .a = k_all[d], .b = k_all[e]};
  run_batch("reduce_sum_all_dtypes", jobs, n);
  static const cn_reduce_kind float_acc[] = {CN_RED_PROD, CN_RED_CUMSUM,
                                             CN_RED_CUMPROD, CN_RED_NANSUM};
  n = 0;
  for (size_t q = 0; q < sizeof float_acc / sizeof float_acc[0]; q++)
    for (int d = 0; d < NDT; d++)
      if (!cn_is_complex(k_all[d]) &&
          natural_acc(float_acc[q], k_all[d]) != CN_FLOAT64)
        jobs[n++] = (job){
            .what = 1, .kind = float_acc[q], .a = k_all[d], .b = CN_FLOAT64};
  run_batch("reduce_float64_accumulators", jobs, n);
  n = 0;
  for (int nan = 0; nan < 2; nan++)
    for (int d = 0; d < NDT; d++) {
      cn_dtype in = k_all[d];
      cn_dtype mean = (in == CN_FLOAT32 || cn_is_complex(in)) ? in : CN_FLOAT64;
      cn_dtype var = cn_cu_real(mean);
      jobs[n++] = (job){.what = 2, .a = in, .b = mean, .c = var, .flag = nan};
      /* a dtype=float32 request */
      if (!cn_is_complex(in) && in != CN_FLOAT32)
        jobs[n++] = (job){
            .what = 2, .a = in, .b = CN_FLOAT32, .c = CN_FLOAT32, .flag = nan};
    }
  run_batch("moments", jobs, n);
}

static void casts(void) {
  static job jobs[MAXJOBS];
  for (int d = 0; d < NDT; d++) {
    int n = 0;
    for (int e = 0; e < NDT; e++)
      jobs[n++] = (job){.what = 3, .a = k_all[d], .b = k_all[e]};
    jobs[n++] = (job){.what = 4, .a = k_all[d]};
    jobs[n++] = (job){.what = 5, .a = k_all[d]};
    char batch[64];
    snprintf(batch, sizeof batch, "casts_from_%s", cn_dtype_name(k_all[d]));
    run_batch(batch, jobs, n);
  }
}

/* The fft kernels of each precision, and no kernel for any other dtype. */
static void fft(void) {
  job jobs[2] = {{.what = 6, .a = CN_COMPLEX64}, {.what = 6, .a = CN_COMPLEX128}};
  run_batch("fft", jobs, 2);
  for (int d = 0; d < NDT; d++) {
    if (k_all[d] == CN_COMPLEX64 || k_all[d] == CN_COMPLEX128)
      continue;
    cn_cu_src s;
    cn_cu_src_init(&s);
    char names[4][CN_CU_NAME_CAP];
    if (cn_cu_gen_fft(&s, k_all[d], names)) {
      fprintf(stderr, "FAIL: fft kernels generated for %s\n",
              cn_dtype_name(k_all[d]));
      g_failures++;
    }
    cn_cu_src_free(&s);
  }
}

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL (%s:%d): ", __FILE__, __LINE__);                   \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      g_failures++;                                                            \
    }                                                                          \
  } while (0)

static void cache(void) {
  char tmpl[] = "/tmp/cn_kcache_XXXXXX";
  char *root = mkdtemp(tmpl);
  CHECK(root != NULL, "mkdtemp");
  if (root == NULL)
    return;
  char dirv[600];
  snprintf(dirv, sizeof dirv, "%s/a/b", root);
  setenv("CUNUMPY_KERNEL_CACHE", dirv, 1);
  char dir[1024];
  CHECK(cn_cu_cache_dir(dir, sizeof dir), "cache dir not created");
  CHECK(strcmp(dir, dirv) == 0, "cache dir '%s' != '%s'", dir, dirv);
  CHECK(access(dir, W_OK) == 0, "cache dir not writable");
  /* a real compiled image round-trips */
  cn_cu_src s;
  cn_cu_src_init(&s);
  cn_cu_src_appendf(&s, "%s\n", cn_cu_prelude_text);
  char names[4][CN_CU_NAME_CAP];
  cn_cu_gen_fill(&s, CN_FLOAT32, names);
  char *img = NULL, *log = NULL;
  size_t size = 0;
  bool ok =
      cn_cu_nvrtc_compile(s.text, "fill", g_arch, false, &img, &size, &log);
  CHECK(ok, "compile: %s", log ? log : "");
  free(log);
  uint64_t h = cn_cu_fnv1a(s.text, s.len, CN_CU_FNV_INIT);
  CHECK(h != cn_cu_fnv1a(s.text, s.len - 1, CN_CU_FNV_INIT),
        "hash ignores the last byte");
  char path[1200];
  snprintf(path, sizeof path, "%s/%016llx_compute%d_nvrtc%d.bin", dir,
           (unsigned long long)h, g_arch, cn_cu_nvrtc_version());
  CHECK(cn_cu_cache_read(path, h, &size) == NULL, "missing file read");
  if (ok) {
    cn_cu_cache_write(path, h, img, size);
    size_t got = 0;
    char *back = cn_cu_cache_read(path, h, &got);
    CHECK(back != NULL && got == size && memcmp(back, img, size) == 0,
          "round trip failed");
    free(back);
    /* another source hash (stale name collision) is rejected */
    CHECK(cn_cu_cache_read(path, h ^ 1, &got) == NULL, "stale entry used");
    /* flip one payload byte: the checksum rejects it */
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL, "reopen");
    if (f) {
      fseek(f, 40, SEEK_SET);
      int c = fgetc(f);
      fseek(f, 40, SEEK_SET);
      fputc(c ^ 0x5a, f);
      fclose(f);
    }
    CHECK(cn_cu_cache_read(path, h, &got) == NULL, "corrupt entry used");
    /* truncated file */
    CHECK(truncate(path, 20) == 0, "truncate");
    CHECK(cn_cu_cache_read(path, h, &got) == NULL, "truncated entry used");
    /* rebuilt entry replaces the bad one; no temporary files remain */
    cn_cu_cache_write(path, h, img, size);
    back = cn_cu_cache_read(path, h, &got);
    CHECK(back != NULL && got == size, "rewrite failed");
    free(back);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp >/dev/null", dir);
    CHECK(system(cmd) != 0, "temporary file left in %s", dir);
  }
  free(img);
  cn_cu_src_free(&s);
  setenv("CUNUMPY_KERNEL_CACHE", "off", 1);
  CHECK(!cn_cu_cache_dir(dir, sizeof dir), "'off' still gives a cache dir");
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf %s", root);
  CHECK(system(cmd) == 0, "cleanup");
  printf("ok   disk cache\n");
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *mode = argc > 1 ? argv[1] : "elementwise";
  if (argc > 2)
    g_arch = atoi(argv[2]);
  int best = cn_cu_nvrtc_best_arch(g_arch);
  if (best != g_arch) {
    fprintf(stderr, "FAIL: NVRTC %d cannot target compute_%d (best %d)\n",
            cn_cu_nvrtc_version(), g_arch, best);
    return 1;
  }
  if (strcmp(mode, "elementwise") == 0)
    elementwise();
  else if (strcmp(mode, "reductions") == 0)
    reductions();
  else if (strcmp(mode, "casts") == 0)
    casts();
  else if (strcmp(mode, "cache") == 0)
    cache();
  else if (strcmp(mode, "fft") == 0)
    fft();
  else {
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
  }
  printf("%s: %ld kernel sets, %d failures (NVRTC %d.%d, compute_%d)\n", mode,
         g_kernels, g_failures, cn_cu_nvrtc_version() / 100,
         cn_cu_nvrtc_version() % 100, g_arch);
  return g_failures ? 1 : 0;
}
