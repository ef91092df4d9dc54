/* Compiles every generated CUDA kernel with NVRTC (no GPU needed), so a
 * broken template or op expression fails the ordinary test run with the
 * compiler's log. Modes:
 *   elementwise  every op of core/ops.def x every compute dtype of its loops
 *   reductions   every reduction kind x every input dtype (natural
 *                accumulator), every sum/cumsum/prod in x out pair, moments
 *   casts        assign for every dtype pair, fill and where for every dtype
 *   index        the indexing programs: the shared one, the copies of
 *                every itemsize, the nonzero compaction of every dtype
 *   lapack       every kernel of the lapack slot (lapack_kernels.h) x every
 *                LAPACK dtype, each dtype's set in one program
 *   sort         the radix sort's passes, and its key, key-bit and output
 *                kernels for every dtype
 *   search       the searchsorted kernel of every dtype, the quantile
 *                kernel over sorted lanes of float32 and float64
 *   cache        the on-disk kernel cache: round trip, corrupt and stale
 *                entries rejected
 *   random       the random fill of every distribution x output dtype, and
 *                their launch plans (work items, blocks, refused pairs)
 *   matmul       the tiled matmul kernel for every integer dtype and bool
 *                (floating dtypes go to cuBLAS: the generator refuses them)
 *   fft          the fft slot's gather, scale and real-DC kernels, both
 *                precisions
 *   scatter_add  the scatter-add kernels: counts (global and shared-memory
 *                forms), float64 and complex128 weights
 *   sparse       the CSR product kernel of bool and every integer dtype x
 *                int32/int64 indices (cuSPARSE has the floating ones)
 * Kernels are compiled in batches (one program per dtype or kind) with the
 * exact text the plugin generates; a failing batch is recompiled kernel by
 * kernel to name the culprit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda/codegen.h"
#include "cuda/disk_cache.h"
#include "cuda/lapack_kernels.h"
#include "cuda/fft_kernels.h"
#include "cuda/nvrtc_compile.h"
#include "cuda/rng_plan.h"
#include "random_samplers.h"

static int g_arch = 90;
static int g_failures;
static long g_kernels;

static const cn_dtype k_all[] = {
    CN_BOOL,    CN_INT8,      CN_INT16,     CN_INT32,  CN_INT64,
    CN_UINT8,   CN_UINT16,    CN_UINT32,    CN_UINT64, CN_FLOAT32,
    CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128};
#define NDT ((int)(sizeof k_all / sizeof k_all[0]))

/* What a job generates. */
typedef enum {
  JOB_ELEMENTWISE,
  JOB_REDUCE,
  JOB_MOMENTS,
  JOB_ASSIGN,
  JOB_FILL,
  JOB_WHERE,
  JOB_RNG,   /* op: the distribution */
  JOB_INDEX, /* op: the index program */
  JOB_LAPACK, /* op: the kernel, flag: with the helpers */
  JOB_MATMUL,
  JOB_SORT_KEYS,
  JOB_SORT_PASSES,
  JOB_SEARCH,
  JOB_QUANTILE,
  JOB_FFT,
  JOB_SCATTER_ADD,
  JOB_SPMM, /* a: value dtype, b: index dtype */
} job_kind;

/* One kernel set to generate: a closure over the generator's arguments. */
typedef struct {
  job_kind what;
  int32_t op;
  const cn_op_info *info;
  cn_reduce_kind kind;
  cn_dtype a, b, c;
  bool flag;
} job;

/* Set while a kernel is compiled alone: lapack kernels then bring their own
 * helpers. */
static bool g_alone;

static bool gen(cn_cu_src *s, const job *j, char names[][CN_CU_NAME_CAP]) {
  switch (j->what) {
  case JOB_LAPACK:
    return cn_cu_gen_lapack(s, (cn_cu_la_kernel)j->op, j->a,
                            j->flag || g_alone, names);
  case JOB_ELEMENTWISE:
    return cn_cu_gen_elementwise(s, j->op, j->info, j->a, names);
  case JOB_REDUCE:
    return cn_cu_gen_reduce(s, j->kind, j->a, j->b, names);
  case JOB_MOMENTS:
    return cn_cu_gen_moments(s, j->a, j->b, j->c, j->flag, names);
  case JOB_ASSIGN:
    return cn_cu_gen_assign(s, j->b, j->a, names);
  case JOB_FILL:
    return cn_cu_gen_fill(s, j->a, names);
  case JOB_FFT:
    return cn_cu_gen_fft(s, j->a, names);
  case JOB_SORT_KEYS:
    return cn_cu_gen_sort_keys(s, j->a, names);
  case JOB_SORT_PASSES:
    return cn_cu_gen_sort_passes(s, names);
  case JOB_SEARCH:
    return cn_cu_gen_search(s, j->a, names);
  case JOB_QUANTILE:
    return cn_cu_gen_quantile(s, j->a, names);
  case JOB_MATMUL:
    return cn_cu_gen_matmul(s, j->a, names);
  case JOB_RNG:
    return cn_cu_gen_rng(s, j->op, j->a, names);
  case JOB_INDEX:
    return cn_cu_gen_index(s, (cn_cu_idx_prog)j->op, j->a, names);
  case JOB_SCATTER_ADD:
    return cn_cu_gen_scatter_add(s, j->a, names);
  case JOB_SPMM:
    return cn_cu_gen_spmm(s, j->a, j->b, names);
  case JOB_WHERE:
  default:
    return cn_cu_gen_where(s, j->a, names);
  }
}

static void describe(char *buf, size_t cap, const job *j) {
  switch (j->what) {
  case JOB_ELEMENTWISE:
    snprintf(buf, cap, "elementwise %s (%s)", j->info->name,
             cn_dtype_name(j->a));
    break;
  case JOB_REDUCE:
    snprintf(buf, cap, "reduce %s (%s -> %s)", cn_cu_red_name(j->kind),
             cn_dtype_name(j->a), cn_dtype_name(j->b));
    break;
  case JOB_MOMENTS:
    snprintf(buf, cap, "%smoments (%s -> %s, %s)", j->flag ? "nan" : "",
             cn_dtype_name(j->a), cn_dtype_name(j->b), cn_dtype_name(j->c));
    break;
  case JOB_ASSIGN:
    snprintf(buf, cap, "assign %s -> %s", cn_dtype_name(j->a),
             cn_dtype_name(j->b));
    break;
  case JOB_FILL:
    snprintf(buf, cap, "fill %s", cn_dtype_name(j->a));
    break;
  case JOB_RNG:
    snprintf(buf, cap, "rng_fill distribution %d (%s)", (int)j->op,
             cn_dtype_name(j->a));
    break;
  case JOB_INDEX:
    snprintf(buf, cap, "index program %d (%s)", (int)j->op,
             cn_dtype_name(j->a));
    break;
  case JOB_LAPACK:
    snprintf(buf, cap, "lapack %s (%s)",
             cn_cu_la_kernel_name((cn_cu_la_kernel)j->op),
             cn_dtype_name(j->a));
    break;
  case JOB_MATMUL:
    snprintf(buf, cap, "matmul %s", cn_dtype_name(j->a));
    break;
  case JOB_SORT_KEYS:
    snprintf(buf, cap, "sort keys %s", cn_dtype_name(j->a));
    break;
  case JOB_SORT_PASSES:
    snprintf(buf, cap, "sort passes");
    break;
  case JOB_SEARCH:
    snprintf(buf, cap, "searchsorted %s", cn_dtype_name(j->a));
    break;
  case JOB_QUANTILE:
    snprintf(buf, cap, "quantile of sorted lanes %s", cn_dtype_name(j->a));
    break;
  case JOB_FFT:
    snprintf(buf, cap, "fft kernels %s", cn_dtype_name(j->a));
    break;
  case JOB_SCATTER_ADD:
    snprintf(buf, cap, "scatter_add %s", cn_dtype_name(j->a));
    break;
  case JOB_SPMM:
    snprintf(buf, cap, "spmm %s (%s indices)", cn_dtype_name(j->a),
             cn_dtype_name(j->b));
    break;
  case JOB_WHERE:
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
    g_alone = true;
    gen(&one, &jobs[i], names);
    g_alone = false;
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
        jobs[n++] = (job){.what = JOB_ELEMENTWISE, .op = op, .info = &ops[op], .a = k_all[d]};
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
      jobs[n++] = (job){.what = JOB_REDUCE,
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
            (job){.what = JOB_REDUCE, .kind = CN_RED_SUM, .a = k_all[d], .b = k_all[e]};
  run_batch("reduce_sum_all_dtypes", jobs, n);
  static const cn_reduce_kind float_acc[] = {CN_RED_PROD, CN_RED_CUMSUM,
                                             CN_RED_CUMPROD, CN_RED_NANSUM};
  n = 0;
  for (size_t q = 0; q < sizeof float_acc / sizeof float_acc[0]; q++)
    for (int d = 0; d < NDT; d++)
      if (!cn_is_complex(k_all[d]) &&
          natural_acc(float_acc[q], k_all[d]) != CN_FLOAT64)
        jobs[n++] = (job){
            .what = JOB_REDUCE, .kind = float_acc[q], .a = k_all[d], .b = CN_FLOAT64};
  run_batch("reduce_float64_accumulators", jobs, n);
  n = 0;
  for (int nan = 0; nan < 2; nan++)
    for (int d = 0; d < NDT; d++) {
      cn_dtype in = k_all[d];
      cn_dtype mean = (in == CN_FLOAT32 || cn_is_complex(in)) ? in : CN_FLOAT64;
      cn_dtype var = cn_cu_real(mean);
      jobs[n++] = (job){.what = JOB_MOMENTS, .a = in, .b = mean, .c = var, .flag = nan};
      /* a dtype=float32 request */
      if (!cn_is_complex(in) && in != CN_FLOAT32)
        jobs[n++] = (job){
            .what = JOB_MOMENTS, .a = in, .b = CN_FLOAT32, .c = CN_FLOAT32, .flag = nan};
    }
  run_batch("moments", jobs, n);
}

static void casts(void) {
  static job jobs[MAXJOBS];
  for (int d = 0; d < NDT; d++) {
    int n = 0;
    for (int e = 0; e < NDT; e++)
      jobs[n++] = (job){.what = JOB_ASSIGN, .a = k_all[d], .b = k_all[e]};
    jobs[n++] = (job){.what = JOB_FILL, .a = k_all[d]};
    jobs[n++] = (job){.what = JOB_WHERE, .a = k_all[d]};
    char batch[64];
    snprintf(batch, sizeof batch, "casts_from_%s", cn_dtype_name(k_all[d]));
    run_batch(batch, jobs, n);
  }
  /* float16 is a storage dtype on the device (the core computes it in
   * float32): its casts both ways, fill and where */
  int n = 0;
  for (int d = 0; d < NDT; d++) {
    jobs[n++] = (job){.what = JOB_ASSIGN, .a = CN_FLOAT16, .b = k_all[d]};
    jobs[n++] = (job){.what = JOB_ASSIGN, .a = k_all[d], .b = CN_FLOAT16};
  }
  jobs[n++] = (job){.what = JOB_ASSIGN, .a = CN_FLOAT16, .b = CN_FLOAT16};
  jobs[n++] = (job){.what = JOB_FILL, .a = CN_FLOAT16};
  jobs[n++] = (job){.what = JOB_WHERE, .a = CN_FLOAT16};
  run_batch("casts_float16", jobs, n);
}

/* One program per kind and dtype: the plugin compiles each alone. */
static void index_kernels(void) {
  job j = {.what = JOB_INDEX, .op = CN_CU_IDX_COMMON, .a = CN_INT64};
  run_batch("index_common", &j, 1);
  for (int d = 0; d < NDT; d++) {
    char batch[64];
    j = (job){.what = JOB_INDEX, .op = CN_CU_IDX_COPY, .a = k_all[d]};
    snprintf(batch, sizeof batch, "index_copy_%s", cn_dtype_name(k_all[d]));
    run_batch(batch, &j, 1);
    j = (job){.what = JOB_INDEX, .op = CN_CU_IDX_NONZERO, .a = k_all[d]};
    snprintf(batch, sizeof batch, "index_nonzero_%s", cn_dtype_name(k_all[d]));
    run_batch(batch, &j, 1);
  }
}

/* Every lapack kernel for every LAPACK dtype; EIGVEC exists for the real
 * dtypes only (its output is the complex one). */
static void lapack(void) {
  static const cn_dtype dts[] = {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64,
                                 CN_COMPLEX128};
  static job jobs[CN_CU_LAK_COUNT_];
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    int n = 0;
    for (int k = 0; k < CN_CU_LAK_COUNT_; k++) {
      if (k == CN_CU_LAK_EIGVEC && cn_is_complex(dts[d])) {
        cn_cu_src s;
        char names[4][CN_CU_NAME_CAP];
        cn_cu_src_init(&s);
        if (cn_cu_gen_lapack(&s, (cn_cu_la_kernel)k, dts[d], true, names)) {
          fprintf(stderr, "FAIL: lapack eigvec generated for %s\n",
                  cn_dtype_name(dts[d]));
          g_failures++;
        }
        cn_cu_src_free(&s);
        continue;
      }
      jobs[n] = (job){.what = JOB_LAPACK, .op = k, .a = dts[d], .flag = n == 0};
      n++;
    }
    char batch[64];
    snprintf(batch, sizeof batch, "lapack_%s", cn_dtype_name(dts[d]));
    run_batch(batch, jobs, n);
  }
}

static void sort(void) {
  static job jobs[NDT + 1];
  int n = 0;
  jobs[n++] = (job){.what = JOB_SORT_PASSES};
  for (int d = 0; d < NDT; d++)
    jobs[n++] = (job){.what = JOB_SORT_KEYS, .a = k_all[d]};
  run_batch("sort", jobs, n);
}

static void search(void) {
  static job jobs[NDT + 2];
  int n = 0;
  for (int d = 0; d < NDT; d++)
    jobs[n++] = (job){.what = JOB_SEARCH, .a = k_all[d]};
  jobs[n++] = (job){.what = JOB_QUANTILE, .a = CN_FLOAT32};
  jobs[n++] = (job){.what = JOB_QUANTILE, .a = CN_FLOAT64};
  run_batch("search", jobs, n);
}

/* The scatter_add kernels (counts, float64 and complex128 weights), one
 * program each as in the plugin, and no kernel for any other dtype. */
static void scatter_add(void) {
  static const cn_dtype dts[] = {CN_INT64, CN_FLOAT64, CN_COMPLEX128};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    job j = {.what = JOB_SCATTER_ADD, .a = dts[d]};
    char batch[64];
    snprintf(batch, sizeof batch, "scatter_add_%s", cn_dtype_name(dts[d]));
    run_batch(batch, &j, 1);
  }
  for (int d = 0; d < NDT; d++) {
    if (k_all[d] == CN_INT64 || k_all[d] == CN_FLOAT64 ||
        k_all[d] == CN_COMPLEX128)
      continue;
    cn_cu_src s;
    cn_cu_src_init(&s);
    char names[4][CN_CU_NAME_CAP];
    if (cn_cu_gen_scatter_add(&s, k_all[d], names)) {
      fprintf(stderr, "FAIL: scatter_add generated for %s\n",
              cn_dtype_name(k_all[d]));
      g_failures++;
    }
    cn_cu_src_free(&s);
  }
}

/* The CSR product kernel of bool and every integer dtype with both index
 * dtypes, in one program, and no kernel for the dtypes cuSPARSE
 * multiplies. */
static void sparse(void) {
  static job jobs[2 * NDT];
  int n = 0;
  for (int d = 0; d < NDT; d++) {
    bool floating = k_all[d] == CN_FLOAT32 || k_all[d] == CN_FLOAT64 ||
                    k_all[d] == CN_COMPLEX64 || k_all[d] == CN_COMPLEX128;
    for (int w = 0; w < 2; w++) {
      cn_dtype it = w ? CN_INT64 : CN_INT32;
      if (!floating) {
        jobs[n++] = (job){.what = JOB_SPMM, .a = k_all[d], .b = it};
        continue;
      }
      cn_cu_src s;
      cn_cu_src_init(&s);
      char names[4][CN_CU_NAME_CAP];
      if (cn_cu_gen_spmm(&s, k_all[d], it, names)) {
        fprintf(stderr, "FAIL: spmm generated for %s\n",
                cn_dtype_name(k_all[d]));
        g_failures++;
      }
      cn_cu_src_free(&s);
    }
  }
  run_batch("sparse", jobs, n);
}

/* The fft kernels of each precision, and no kernel for any other dtype. */
static void fft(void) {
  job jobs[2] = {{.what = JOB_FFT, .a = CN_COMPLEX64}, {.what = JOB_FFT, .a = CN_COMPLEX128}};
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

/* Every (distribution, dtype) the CPU fill produces compiles; every other
 * pair is refused; plans use the CPU's counter blocks and cap the grid. */
static void random_fills(void) {
  static job jobs[MAXJOBS];
  int n = 0;
  for (int32_t d = CN_RNG_RANDOM; d <= CN_RNG_GEOMETRIC; d++)
    for (int e = 0; e < NDT; e++) {
      cn_dtype dt = k_all[e];
      bool ok = cn_rng_is_int(d) ? dt == CN_INT64
                                 : dt == CN_FLOAT32 || dt == CN_FLOAT64;
      cn_cu_rng_plan p;
      CHECK(cn_cu_rng_plan_make(&p, d, dt, 10, 132) == ok,
            "plan of distribution %d into %s", (int)d, cn_dtype_name(dt));
      if (ok)
        jobs[n++] = (job){.what = JOB_RNG, .op = d, .a = dt};
      else {
        cn_cu_src s;
        char names[1][CN_CU_NAME_CAP];
        cn_cu_src_init(&s);
        CHECK(!cn_cu_gen_rng(&s, d, dt, names),
              "kernel for distribution %d into %s", (int)d,
              cn_dtype_name(dt));
        cn_cu_src_free(&s);
      }
    }
  cn_cu_rng_plan p;
  CHECK(!cn_cu_rng_plan_make(&p, -1, CN_FLOAT64, 1, 1) &&
            !cn_cu_rng_plan_make(&p, CN_RNG_GEOMETRIC + 1, CN_INT64, 1, 1) &&
            !cn_cu_rng_plan_make(&p, CN_RNG_RANDOM, CN_FLOAT64, -1, 1),
        "bad distribution or size accepted");
  /* (dist, dtype, n) -> used: 4 float32 RANDOM values a block, 2 for the
   * Box-Muller and inversion distributions, 1 for rejection samplers. */
  static const struct {
    int32_t dist;
    cn_dtype dt;
    int64_t n;
    uint64_t used;
  } k_used[] = {
      {CN_RNG_RANDOM, CN_FLOAT32, 0, 0},   {CN_RNG_RANDOM, CN_FLOAT32, 1, 1},
      {CN_RNG_RANDOM, CN_FLOAT32, 4, 1},   {CN_RNG_RANDOM, CN_FLOAT32, 5, 2},
      {CN_RNG_RANDOM, CN_FLOAT64, 5, 3},   {CN_RNG_NORMAL, CN_FLOAT32, 5, 3},
      {CN_RNG_LOGNORMAL, CN_FLOAT64, 2, 1}, {CN_RNG_TRIANGULAR, CN_FLOAT64, 3, 2},
      {CN_RNG_GAMMA, CN_FLOAT32, 5, 5},    {CN_RNG_INTEGERS, CN_INT64, 7, 7},
      {CN_RNG_BINOMIAL, CN_INT64, 1, 1},   {CN_RNG_BETA, CN_FLOAT64, 0, 0},
  };
  for (size_t i = 0; i < sizeof k_used / sizeof k_used[0]; i++) {
    CHECK(cn_cu_rng_plan_make(&p, k_used[i].dist, k_used[i].dt, k_used[i].n,
                              132) &&
              p.used == k_used[i].used && p.nwork == (int64_t)p.used &&
              p.blocks == (p.nwork + CN_CU_RNG_THREADS - 1) / CN_CU_RNG_THREADS,
          "plan %zu: used %llu, expected %llu", i,
          (unsigned long long)p.used, (unsigned long long)k_used[i].used);
  }
  CHECK(cn_cu_rng_plan_make(&p, CN_RNG_GAMMA, CN_FLOAT64, (int64_t)1 << 40,
                            132) &&
            p.blocks == 132 * 32 && p.used == (uint64_t)1 << 40,
        "large fill: %lld blocks", p.blocks);
  CHECK(cn_cu_rng_plan_make(&p, CN_RNG_GAMMA, CN_FLOAT64, 1000, 0) &&
            p.blocks == 4,
        "no multiprocessor count: %lld blocks", p.blocks);
  run_batch("random", jobs, n);
}

static void matmul(void) {
  static job jobs[MAXJOBS];
  int n = 0;
  for (int d = 0; d < NDT; d++) {
    cn_dtype dt = k_all[d];
    if (dt == CN_BOOL || cn_is_integer(dt)) {
      jobs[n++] = (job){.what = JOB_MATMUL, .a = dt};
      continue;
    }
    cn_cu_src s;
    cn_cu_src_init(&s);
    char names[4][CN_CU_NAME_CAP];
    if (cn_cu_gen_matmul(&s, dt, names)) {
      fprintf(stderr, "FAIL: matmul kernel generated for %s (cuBLAS's)\n",
              cn_dtype_name(dt));
      g_failures++;
    }
    cn_cu_src_free(&s);
  }
  run_batch("matmul", jobs, n);
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
  else if (strcmp(mode, "index") == 0)
    index_kernels();
  else if (strcmp(mode, "sort") == 0)
    sort();
  else if (strcmp(mode, "search") == 0)
    search();
  else if (strcmp(mode, "cache") == 0)
    cache();
  else if (strcmp(mode, "random") == 0)
    random_fills();
  else if (strcmp(mode, "lapack") == 0)
    lapack();
  else if (strcmp(mode, "matmul") == 0)
    matmul();
  else if (strcmp(mode, "fft") == 0)
    fft();
  else if (strcmp(mode, "scatter_add") == 0)
    scatter_add();
  else if (strcmp(mode, "sparse") == 0)
    sparse();
  else {
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
  }
  printf("%s: %ld kernel sets, %d failures (NVRTC %d.%d, compute_%d)\n", mode,
         g_kernels, g_failures, cn_cu_nvrtc_version() / 100,
         cn_cu_nvrtc_version() % 100, g_arch);
  return g_failures ? 1 : 0;
}
