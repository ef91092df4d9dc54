/* GPU correctness check, run by tests/gpu/run.sh on a machine with a GPU:
 * every op of core/ops.def for every dtype, casts, fills, where, every
 * reduction, and every other compute slot the plugin fills (random fills,
 * indexing, LAPACK drivers, matmul, sorting: argsort positions must be
 * equal, so the GPU sort is as stable as the CPU's; the FFTs over strided,
 * reversed and transposed views, every norm, n padding and cropping;
 * sparse products (bool and integer ones through the generated kernel),
 * csr2csc and SpGEMM of matrices moved to the device, DIA products through
 * CSR),
 * computed on the CUDA backend and on the CPU backend from the same inputs
 * (contiguous, strided with negative steps, broadcast), must agree, with
 * the same status and message on errors: integers and bools exactly,
 * floats to a few ulps (the GPU's libm
 * and the CPU's SLEEF differ by an ulp or two), NaN and inf in the same
 * places. Random fills from generators seeded alike must give the same
 * values (random and integers bit for bit; rejection samplers' integers
 * may differ where a last-ulp libm difference flips a decision: at most
 * 1 in 10^5) and advance the counters alike. Prints one line per failing
 * case and a summary; exit 1 on any failure. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cunumpy/cunumpy.h>

#include "float16_bits.h"

static int g_fail, g_cases;

#define OK(expr)                                                               \
  do {                                                                         \
    cn_status st_ = (expr);                                                    \
    if (st_ != CN_OK) {                                                        \
      printf("ERROR %s:%d %s -> %s: %s\n", __FILE__, __LINE__, #expr,          \
             cn_status_name(st_), cn_last_error());                            \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static const cn_dtype k_all[] = {
    CN_BOOL,    CN_INT8,      CN_INT16,     CN_INT32,  CN_INT64,
    CN_UINT8,   CN_UINT16,    CN_UINT32,    CN_UINT64, CN_FLOAT32,
    CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128};
#define NDT 13

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static double rnd(void) { /* [0, 1) */
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return (double)(g_rng >> 11) / 9007199254740992.0;
}

/* Host array of n values typical for dtype, specials first when asked. */
static cn_array make_input(cn_dtype dt, int32_t ndim, const int64_t *shape,
                           int specials, double lo, double hi) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++)
    n *= shape[i];
  double *re = malloc(sizeof(double) * (size_t)(n ? n : 1));
  double *im = malloc(sizeof(double) * (size_t)(n ? n : 1));
  static const double sp[] = {NAN, INFINITY, -INFINITY, -0.0,
                              0.0, 1.0,      -1.0,      0.5};
  bool flt = cn_dtype_itemsize(dt) &&
             (((unsigned)dt >> 8) == 2 || ((unsigned)dt >> 8) == 5);
  for (int64_t i = 0; i < n; i++) {
    double v = lo + (hi - lo) * rnd(), w = lo + (hi - lo) * rnd();
    if (!flt)
      v = floor(v), w = 0;
    if (specials && flt && i < 8)
      v = sp[i], w = (i % 3 == 0) ? sp[(i + 3) % 8] : 0.0;
    re[i] = v;
    im[i] = w;
  }
  /* Build as complex128, cast to dt (unsafe, as NumPy). */
  double *c = malloc(sizeof(double) * 2 * (size_t)(n ? n : 1));
  for (int64_t i = 0; i < n; i++)
    c[2 * i] = re[i], c[2 * i + 1] = ((unsigned)dt >> 8) == 5 ? im[i] : 0.0;
  cn_array z = NULL, r = NULL;
  OK(cn_from_host(&z, c, 0, 16 * (n ? n : 1), ndim, shape, NULL,
                  CN_COMPLEX128));
  if (((unsigned)dt >> 8) == 5) {
    OK(cn_astype(&r, z, dt, 1));
  } else { /* real part first, so complex -> real is not in play */
    cn_array f = NULL;
    double *d = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++)
      d[i] = re[i];
    OK(cn_from_host(&f, d, 0, 8 * (n ? n : 1), ndim, shape, NULL, CN_FLOAT64));
    OK(cn_astype(&r, f, dt, 1));
    cn_array_release(f);
    free(d);
  }
  cn_array_release(z);
  free(re);
  free(im);
  free(c);
  return r;
}

/* mag: the size the error is relative to (|c| for reals; |z| of the whole
 * complex value for a finite complex part, so a small component of a large
 * number may carry the large one's rounding error). */
static bool close_enough(double g, double c, double rtol, double mag) {
  if (isnan(c) || isnan(g))
    return isnan(c) && isnan(g);
  if (isinf(c) || isinf(g))
    return g == c;
  return fabs(g - c) <= rtol * (1.0 + mag);
}

/* Compares a CPU result with a GPU result (any device): same dtype, shape
 * and values. */
static void compare(const char *label, cn_array cpu, cn_array gpu_any,
                    double ulps) {
  g_cases++;
  cn_array gpu = NULL;
  OK(cn_to_host(&gpu, gpu_any));
  cn_dtype dc, dg;
  OK(cn_array_dtype(&dc, cpu));
  OK(cn_array_dtype(&dg, gpu));
  int64_t n = 0, ng = 0;
  OK(cn_array_size(&n, cpu));
  OK(cn_array_size(&ng, gpu));
  if (dc != dg || n != ng) {
    printf("FAIL %s: dtype/size %s/%lld (gpu) vs %s/%lld (cpu)\n", label,
           cn_dtype_name(dg), (long long)ng, cn_dtype_name(dc), (long long)n);
    g_fail++;
    cn_array_release(gpu);
    return;
  }
  int64_t isz = cn_dtype_itemsize(dc);
  unsigned code = (unsigned)dc >> 8;
  char *a = malloc((size_t)(n * isz + 1)), *b = malloc((size_t)(n * isz + 1));
  OK(cn_copy_to_buffer(a, n * isz, cpu, CN_ORDER_C));
  OK(cn_copy_to_buffer(b, n * isz, gpu, CN_ORDER_C));
  double eps = dc == CN_FLOAT16                       ? 9.765625e-04
               : (isz == 4 || dc == CN_COMPLEX64) ? 1.1920929e-07
                                                  : 2.220446049250313e-16;
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    bool same;
    if (code == 2 || code == 5) {
      int parts = code == 5 ? 2 : 1;
      int64_t psz = isz / parts;
      double x[2] = {0, 0}, y[2] = {0, 0};
      for (int p = 0; p < parts; p++) {
        const char *pa = a + i * isz + p * psz, *pb = b + i * isz + p * psz;
        if (psz == 2) { /* float16: compared in its own epsilon */
          uint16_t hx, hy;
          uint64_t bx, by;
          memcpy(&hx, pa, 2);
          memcpy(&hy, pb, 2);
          bx = cn_f16_bits_to_f64_bits(hx);
          by = cn_f16_bits_to_f64_bits(hy);
          memcpy(&x[p], &bx, 8);
          memcpy(&y[p], &by, 8);
        } else if (psz == 4) {
          float fx, fy;
          memcpy(&fx, pa, 4);
          memcpy(&fy, pb, 4);
          x[p] = fx, y[p] = fy;
        } else {
          memcpy(&x[p], pa, 8);
          memcpy(&y[p], pb, 8);
        }
      }
      double mz = hypot(x[0], x[1]);
      same = true;
      for (int p = 0; p < parts; p++)
        same =
            same && close_enough(y[p], x[p], ulps * eps,
                                 parts == 2 && isfinite(mz) ? mz : fabs(x[p]));
    } else {
      same = memcmp(a + i * isz, b + i * isz, (size_t)isz) == 0;
    }
    if (!same && bad++ == 0)
      first = i;
  }
  if (bad) {
    cn_scalar sc, sg;
    cn_array ec = NULL, eg = NULL;
    cn_array fc = NULL, fg = NULL;
    OK(cn_ravel(&fc, cpu, CN_ORDER_C));
    OK(cn_ravel(&fg, gpu, CN_ORDER_C));
    OK(cn_index_axis(&ec, fc, 0, first));
    OK(cn_index_axis(&eg, fg, 0, first));
    OK(cn_item(&sc, ec));
    OK(cn_item(&sg, eg));
    printf("FAIL %s: %lld of %lld differ; first at %lld: gpu (%lld, %.17g, "
           "%.17g) cpu (%lld, %.17g, %.17g)\n",
           label, (long long)bad, (long long)n, (long long)first,
           (long long)sg.i, sg.re, sg.im, (long long)sc.i, sc.re, sc.im);
    cn_array_release(ec);
    cn_array_release(eg);
    cn_array_release(fc);
    cn_array_release(fg);
    g_fail++;
  }
  free(a);
  free(b);
  cn_array_release(gpu);
}

/* GPU_CHECK_SELFTEST=1 runs the harness CPU against CPU (no GPU needed),
 * so its own logic is checked where it is developed. */
static bool g_selftest;

static cn_array dev(cn_array h) {
  cn_array d = NULL;
  if (g_selftest)
    OK(cn_copy(&d, h, CN_ORDER_K));
  else
    OK(cn_to_device(&d, h, 0));
  return d;
}

/* ---- elementwise --------------------------------------------------------- */

typedef cn_status (*f1)(cn_array *, cn_array, cn_array);
typedef cn_status (*f2)(cn_array *, cn_array, cn_array, cn_array);
typedef cn_status (*f3)(cn_array *, cn_array, cn_array, cn_array, cn_array);
typedef struct {
  const char *name;
  int nin;
  void (*fn)(void);
} op_entry;

static const op_entry k_ops[] = {
#define CN_OP(name, nin, loops, out, bools, ints, weak, expr, doc)             \
  {#name, nin, (void (*)(void))cn_##name},
#include "ops.def"
#undef CN_OP
};

static cn_status call_op(const op_entry *op, cn_array *out, cn_array *in) {
  switch (op->nin) {
  case 1:
    return ((f1)op->fn)(out, in[0], NULL);
  case 2:
    return ((f2)op->fn)(out, in[0], in[1], NULL);
  default:
    return ((f3)op->fn)(out, in[0], in[1], in[2], NULL);
  }
}

static double op_ulps(const char *name, cn_dtype dt) {
  bool cplx = ((unsigned)dt >> 8) == 5;
  static const char *exact[] = {
      "add",     "subtract", "multiply", "negative", "positive", "square",
      "maximum", "minimum",  "fmax",     "fmin",     "clip",     "copysign",
      "floor",   "ceil",     "trunc",    "rint",     "real",     "imag",
      "conj",    "abs",      "sign"};
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
    if (strcmp(name, exact[i]) == 0)
      return cplx ? 16 : 2; /* complex abs/multiply round differently */
  return cplx ? 4096 : 16;  /* libm vs SLEEF, complex formulas */
}

/* A long part may be split across processes run in parallel (its kernels
 * then compile on several cores): "<part>:<i>/<n>" runs the i-th of n
 * shares of the part's outer loops. */
static int g_share, g_nshares = 1;
static bool my_share(size_t i) {
  return (int)(i % (size_t)g_nshares) == g_share;
}

static void elementwise(void) {
  for (size_t o = 0; o < sizeof k_ops / sizeof k_ops[0]; o++) {
    const op_entry *op = &k_ops[o];
    if (!my_share(o))
      continue;
    for (int d = 0; d < NDT; d++) {
      cn_dtype dt = k_all[d];
      bool shift = strstr(op->name, "shift") != NULL;
      bool pw = strcmp(op->name, "power") == 0;
      for (int layout = 0; layout < 2; layout++) {
        cn_array h[3] = {NULL, NULL, NULL}, g[3] = {NULL, NULL, NULL};
        cn_array base[3] = {NULL, NULL, NULL};
        for (int k = 0; k < op->nin; k++) {
          double lo = -6, hi = 6;
          if ((unsigned)dt >> 8 == 1 || dt == CN_BOOL)
            lo = 0;
          if (k == 1 && shift)
            lo = -2, hi = 70;
          if (k == 1 && pw)
            lo = ((unsigned)dt >> 8) == 0 ? -2 : 0, hi = 5;
          if (layout == 0) {
            int64_t shape[1] = {1031};
            h[k] = make_input(dt, 1, shape, 1, lo, hi);
          } else if (k == 0) { /* x[::-1, ::3] of a (40, 51) array */
            int64_t shape[2] = {40, 51};
            base[k] = make_input(dt, 2, shape, 1, lo, hi);
            int64_t st[2] = {CN_SLICE_NONE, CN_SLICE_NONE};
            int64_t sp[2] = {CN_SLICE_NONE, CN_SLICE_NONE};
            int64_t step[2] = {-1, 3};
            OK(cn_slice(&h[k], base[k], 2, st, sp, step));
          } else { /* a (1, 17) row, broadcast */
            int64_t shape[2] = {1, 17};
            h[k] = make_input(dt, 2, shape, 0, lo, hi);
          }
          g[k] = dev(h[k]);
        }
        cn_array rc = NULL, rg = NULL;
        cn_status sc = call_op(op, &rc, h);
        cn_status sg = call_op(op, &rg, g);
        char label[128];
        snprintf(label, sizeof label, "%s(%s, %s)", op->name, cn_dtype_name(dt),
                 layout ? "strided" : "contiguous");
        if (sc != sg) {
          printf("FAIL %s: status gpu %s vs cpu %s (%s)\n", label,
                 cn_status_name(sg), cn_status_name(sc), cn_last_error());
          g_fail++;
        } else if (sc == CN_OK) {
          compare(label, rc, rg, op_ulps(op->name, dt));
        }
        cn_array_release(rc);
        cn_array_release(rg);
        for (int k = 0; k < 3; k++) {
          cn_array_release(h[k]);
          cn_array_release(g[k]);
          cn_array_release(base[k]);
        }
      }
    }
  }
}

/* ---- casts, fill, where ----------------------------------------------------
 */

static void casts(void) {
  for (int d = 0; d < NDT; d++) {
    int64_t shape[2] = {33, 20};
    cn_array h = make_input(k_all[d], 2, shape, 1, -300, 300);
    cn_array t = NULL;
    OK(cn_transpose(&t, h)); /* strided source */
    cn_array g = dev(h), gt = dev(t);
    for (int e = 0; e < NDT; e++) {
      cn_array rc = NULL, rg = NULL, rc2 = NULL, rg2 = NULL;
      OK(cn_astype(&rc, h, k_all[e], 1));
      OK(cn_astype(&rg, g, k_all[e], 1));
      OK(cn_astype(&rc2, t, k_all[e], 1));
      OK(cn_astype(&rg2, gt, k_all[e], 1));
      char label[96];
      snprintf(label, sizeof label, "astype %s -> %s", cn_dtype_name(k_all[d]),
               cn_dtype_name(k_all[e]));
      compare(label, rc, rg, 0);
      strcat(label, " (transposed)");
      compare(label, rc2, rg2, 0);
      cn_array_release(rc);
      cn_array_release(rg);
      cn_array_release(rc2);
      cn_array_release(rg2);
    }
    /* fill and where */
    cn_array fc = NULL, fg = NULL;
    OK(cn_set_backend("cpu"));
    OK(cn_full(&fc, 2, shape, cn_scalar_float(-2.5), k_all[d], CN_ORDER_F));
    OK(cn_set_backend("cuda"));
    OK(cn_full(&fg, 2, shape, cn_scalar_float(-2.5), k_all[d], CN_ORDER_F));
    OK(cn_set_backend("cpu"));
    char label[96];
    snprintf(label, sizeof label, "full %s", cn_dtype_name(k_all[d]));
    compare(label, fc, fg, 0);
    cn_array cond = make_input(CN_BOOL, 2, shape, 0, 0, 2);
    cn_array gcond = dev(cond);
    cn_array wc = NULL, wg = NULL;
    OK(cn_where(&wc, cond, h, fc, NULL));
    OK(cn_where(&wg, gcond, g, fg, NULL));
    snprintf(label, sizeof label, "where %s", cn_dtype_name(k_all[d]));
    compare(label, wc, wg, 0);
    cn_array arr[] = {h, t, g, gt, fc, fg, cond, gcond, wc, wg};
    for (size_t i = 0; i < sizeof arr / sizeof arr[0]; i++)
      cn_array_release(arr[i]);
  }
}

/* ---- reductions -----------------------------------------------------------
 */

typedef cn_status (*red_fn)(cn_array *, cn_array, int32_t, const int32_t *,
                            int32_t, cn_dtype, cn_array);
typedef cn_status (*mom_fn)(cn_array *, cn_array, int32_t, const int32_t *,
                            int32_t, double, cn_dtype, cn_array);
typedef cn_status (*arg_fn)(cn_array *, cn_array, int32_t, int32_t, cn_array);
typedef cn_status (*scan_fn)(cn_array *, cn_array, int32_t, cn_dtype, cn_array);

static void check_status(const char *label, cn_status sc, cn_status sg,
                         cn_array rc, cn_array rg, double ulps) {
  if (sc != sg) {
    printf("FAIL %s: status gpu %s vs cpu %s (%s)\n", label, cn_status_name(sg),
           cn_status_name(sc), cn_last_error());
    g_fail++;
  } else if (sc == CN_OK) {
    compare(label, rc, rg, ulps);
  }
  cn_array_release(rc);
  cn_array_release(rg);
}

static void reductions(void) {
  static const struct {
    const char *name;
    red_fn f;
  } reds[] = {
      {"sum", cn_sum},         {"prod", cn_prod},     {"mean", cn_mean},
      {"min", cn_min},         {"max", cn_max},       {"any", cn_any},
      {"all", cn_all},         {"nansum", cn_nansum}, {"nanprod", cn_nanprod},
      {"nanmean", cn_nanmean}, {"nanmin", cn_nanmin}, {"nanmax", cn_nanmax}};
  static const struct {
    const char *name;
    mom_fn f;
  } moms[] = {{"var", cn_var},
              {"std", cn_std},
              {"nanvar", cn_nanvar},
              {"nanstd", cn_nanstd}};
  static const struct {
    const char *name;
    arg_fn f;
  } args[] = {{"argmin", cn_argmin},
              {"argmax", cn_argmax},
              {"nanargmin", cn_nanargmin},
              {"nanargmax", cn_nanargmax}};
  static const struct {
    const char *name;
    scan_fn f;
  } scans[] = {{"cumsum", cn_cumsum}, {"cumprod", cn_cumprod}};
  /* axis sets on a (7, 300, 5) array: all, 0, 1, 2, (0, 2), none */
  static const int32_t ax_sets[][3] = {{0}, {0}, {1}, {2}, {0, 2}, {0}};
  static const int32_t ax_n[] = {CN_ALL_AXES, 1, 1, 1, 2, 0};
  for (int d = 0; d < NDT; d++) {
    if (!my_share((size_t)d))
      continue;
    cn_dtype dt = k_all[d];
    int64_t shape[3] = {7, 300, 5};
    bool small = dt == CN_BOOL || ((unsigned)dt >> 8) <= 1;
    cn_array h = make_input(dt, 3, shape, 0, small ? 0 : -2, small ? 3 : 2);
    cn_array hs = make_input(dt, 3, shape, 1, -2, 2); /* with NaN etc. */
    cn_array g = dev(h), gs = dev(hs);
    for (int which = 0; which < 2; which++) {
      cn_array hh = which ? hs : h, gg = which ? gs : g;
      for (size_t a = 0; a < sizeof ax_n / sizeof ax_n[0]; a++) {
        for (int keep = 0; keep < 2; keep++) {
          for (size_t r = 0; r < sizeof reds / sizeof reds[0]; r++) {
            char label[128];
            snprintf(label, sizeof label, "%s(%s%s, axes#%zu, keepdims=%d)",
                     reds[r].name, cn_dtype_name(dt), which ? "+specials" : "",
                     a, keep);
            cn_array rc = NULL, rg = NULL;
            bool prod = strstr(reds[r].name, "prod") != NULL;
            cn_status sc = reds[r].f(&rc, hh, ax_n[a], ax_sets[a], keep,
                                     CN_DTYPE_DEFAULT, NULL);
            cn_status sg = reds[r].f(&rg, gg, ax_n[a], ax_sets[a], keep,
                                     CN_DTYPE_DEFAULT, NULL);
            check_status(label, sc, sg, rc, rg, prod ? 4096 : 256);
          }
          for (size_t m = 0; m < sizeof moms / sizeof moms[0]; m++) {
            char label[128];
            snprintf(label, sizeof label, "%s(%s%s, axes#%zu, ddof=1)",
                     moms[m].name, cn_dtype_name(dt), which ? "+specials" : "",
                     a);
            cn_array rc = NULL, rg = NULL;
            cn_status sc = moms[m].f(&rc, hh, ax_n[a], ax_sets[a], keep, 1.0,
                                     CN_DTYPE_DEFAULT, NULL);
            cn_status sg = moms[m].f(&rg, gg, ax_n[a], ax_sets[a], keep, 1.0,
                                     CN_DTYPE_DEFAULT, NULL);
            check_status(label, sc, sg, rc, rg, 4096);
          }
        }
      }
      for (int32_t axis = -1; axis < 3; axis++) {
        int32_t ax = axis < 0 ? CN_AXIS_NONE : axis;
        for (size_t m = 0; m < sizeof args / sizeof args[0]; m++) {
          char label[128];
          snprintf(label, sizeof label, "%s(%s%s, axis=%d)", args[m].name,
                   cn_dtype_name(dt), which ? "+specials" : "", (int)axis);
          cn_array rc = NULL, rg = NULL;
          cn_status sc = args[m].f(&rc, hh, ax, 0, NULL);
          cn_status sg = args[m].f(&rg, gg, ax, 0, NULL);
          check_status(label, sc, sg, rc, rg, 0);
        }
        for (size_t m = 0; m < sizeof scans / sizeof scans[0]; m++) {
          char label[128];
          snprintf(label, sizeof label, "%s(%s%s, axis=%d)", scans[m].name,
                   cn_dtype_name(dt), which ? "+specials" : "", (int)axis);
          cn_array rc = NULL, rg = NULL;
          cn_status sc = scans[m].f(&rc, hh, ax, CN_DTYPE_DEFAULT, NULL);
          cn_status sg = scans[m].f(&rg, gg, ax, CN_DTYPE_DEFAULT, NULL);
          check_status(label, sc, sg, rc, rg, 4096);
        }
      }
    }
    cn_array_release(h);
    cn_array_release(hs);
    cn_array_release(g);
    cn_array_release(gs);
  }
  /* Long reductions (multi-block + second pass) and their accuracy. */
  for (int f = 0; f < 2; f++) {
    if (!my_share((size_t)(NDT + f)))
      continue;
    cn_dtype dt = f ? CN_FLOAT64 : CN_FLOAT32;
    int64_t shape[1] = {10000019};
    cn_array h = make_input(dt, 1, shape, 0, 0, 1), g = dev(h);
    cn_array rc = NULL, rg = NULL;
    OK(cn_sum(&rc, h, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    OK(cn_sum(&rg, g, CN_ALL_AXES, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    compare(f ? "sum(1e7 float64)" : "sum(1e7 float32)", rc, rg, 64);
    cn_array_release(rc);
    cn_array_release(rg);
    OK(cn_std(&rc, h, CN_ALL_AXES, NULL, 0, 0.0, CN_DTYPE_DEFAULT, NULL));
    OK(cn_std(&rg, g, CN_ALL_AXES, NULL, 0, 0.0, CN_DTYPE_DEFAULT, NULL));
    compare(f ? "std(1e7 float64)" : "std(1e7 float32)", rc, rg, 64);
    cn_array_release(rc);
    cn_array_release(rg);
    OK(cn_argmax(&rc, h, CN_AXIS_NONE, 0, NULL));
    OK(cn_argmax(&rg, g, CN_AXIS_NONE, 0, NULL));
    compare(f ? "argmax(1e7 float64)" : "argmax(1e7 float32)", rc, rg, 0);
    cn_array_release(rc);
    cn_array_release(rg);
    OK(cn_cumsum(&rc, h, CN_AXIS_NONE, CN_DTYPE_DEFAULT, NULL));
    OK(cn_cumsum(&rg, g, CN_AXIS_NONE, CN_DTYPE_DEFAULT, NULL));
    compare(f ? "cumsum(1e7 float64)" : "cumsum(1e7 float32)", rc, rg,
            f ? 1e4 : 1e5);
    cn_array_release(rc);
    cn_array_release(rg);
    cn_array_release(h);
    cn_array_release(g);
  }
}

/* ---- LAPACK drivers -------------------------------------------------------
 * Every kind on the GPU against the CPU on the same inputs (stacks of
 * matrices in C order, transposed and with a reversed batch axis), float32
 * to complex128. Unique results are compared directly; SVD, QR and
 * eigenvectors, whose signs and phases are free, through a reconstruction
 * or residual computed on the host from the GPU's factors. Failures (not
 * positive definite, singular, NaN or inf inputs) must give the CPU's
 * status and message. */

static const cn_dtype k_la[] = {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64,
                                CN_COMPLEX128};

static double la_ulps(cn_dtype dt, int64_t n) {
  return (dt == CN_FLOAT32 || dt == CN_COMPLEX64 ? 400.0 : 4000.0) *
         (double)(n + 4);
}

/* Layout `which` of a: 0 as is, 1 transposed (last two axes), 2 with
 * negative strides: the stack axis reversed, or both axes of a single
 * matrix (which keeps a Hermitian matrix Hermitian). */
static cn_array la_view(cn_array a, int which) {
  cn_array v = NULL;
  int32_t nd = 0;
  OK(cn_array_ndim(&nd, a));
  if (which == 1)
    OK(cn_swapaxes(&v, a, -1, -2));
  else if (which == 2) {
    int32_t ax[2] = {0, 1};
    OK(cn_flip(&v, a, nd > 2 ? 1 : 2, ax));
  } else
    OK(cn_copy(&v, a, CN_ORDER_K));
  return v;
}

static cn_array la_host(cn_array g) {
  cn_array h = NULL;
  OK(cn_to_host(&h, g));
  return h;
}

/* x @ x^H + I: Hermitian positive definite. */
static cn_array la_hpd(cn_dtype dt, int32_t nd, const int64_t *shape) {
  cn_array x = make_input(dt, nd, shape, 0, -1, 1), xt = NULL, xh = NULL;
  cn_array p = NULL, e = NULL, out = NULL;
  OK(cn_swapaxes(&xt, x, -1, -2));
  OK(cn_conj(&xh, xt, NULL));
  OK(cn_matmul(&p, x, xh, NULL));
  OK(cn_eye(&e, shape[nd - 1], shape[nd - 1], 0, dt, CN_ORDER_C));
  OK(cn_add(&out, p, e, NULL));
  cn_array rel[] = {x, xt, xh, p, e};
  for (int i = 0; i < 5; i++)
    cn_array_release(rel[i]);
  return out;
}

/* Same status and, on failure, the same message on both backends. */
static bool la_status(const char *label, cn_status sc, const char *mc,
                      cn_status sg, const char *mg) {
  g_cases++;
  if (sc == sg && (sc == CN_OK || strcmp(mc, mg) == 0))
    return sc == CN_OK;
  printf("FAIL %s: gpu %s '%s' vs cpu %s '%s'\n", label, cn_status_name(sg),
         mg, cn_status_name(sc), mc);
  g_fail++;
  return false;
}

#define LA_BOTH(label, call_c, call_g)                                         \
  do {                                                                         \
    char mc_[512];                                                             \
    cn_status sc_ = (call_c);                                                  \
    snprintf(mc_, sizeof mc_, "%s", cn_last_error());                          \
    cn_status sg_ = (call_g);                                                  \
    la_ok = la_status(label, sc_, mc_, sg_, cn_last_error());                  \
  } while (0)

/* |a @ v - v * w| on the host (w broadcast over rows): zero up to rounding. */
static void la_residual(const char *label, cn_array a, cn_array v_g,
                        cn_array w_g, double ulps) {
  cn_array v = la_host(v_g), w = la_host(w_g), av = NULL, w2 = NULL;
  cn_array vw = NULL, r = NULL, z = NULL, ac = NULL;
  int32_t nd = 0;
  int64_t sh[8];
  OK(cn_array_ndim(&nd, w));
  OK(cn_array_shape(sh, 7, w));
  sh[nd] = sh[nd - 1];
  sh[nd - 1] = 1;
  OK(cn_reshape(&w2, w, nd + 1, sh, CN_ORDER_C));
  cn_dtype dv;
  OK(cn_array_dtype(&dv, v));
  OK(cn_astype(&ac, a, dv, 1)); /* real a, complex eig vectors */
  OK(cn_matmul(&av, ac, v, NULL));
  OK(cn_multiply(&vw, v, w2, NULL));
  OK(cn_subtract(&r, av, vw, NULL));
  OK(cn_zeros_like(&z, r, CN_DTYPE_DEFAULT));
  compare(label, z, r, ulps);
  cn_array rel[] = {v, w, av, w2, vw, r, z, ac};
  for (int i = 0; i < 8; i++)
    cn_array_release(rel[i]);
}

static void la_square(cn_dtype dt, int32_t nd, const int64_t *shape) {
  char lab[160];
  int64_t n = shape[nd - 1];
  double ulps = la_ulps(dt, n);
  bool la_ok;
  for (int lay = 0; lay < 3; lay++) {
    cn_array hp = la_hpd(dt, nd, shape), x = make_input(dt, nd, shape, 0, -1, 1);
    cn_array hpc = la_view(hp, lay), hpg0 = dev(hp), hpg = la_view(hpg0, lay);
    cn_array xc = la_view(x, lay), xg0 = dev(x), xg = la_view(xg0, lay);
    const char *dn = cn_dtype_name(dt);
    cn_array rc = NULL, rg = NULL, r2c = NULL, r2g = NULL;
    for (int up = 0; up < 2; up++) {
      snprintf(lab, sizeof lab, "cholesky(%s, n=%lld, layout %d, upper %d)",
               dn, (long long)n, lay, up);
      LA_BOTH(lab, cn_linalg_cholesky(&rc, hpc, up),
              cn_linalg_cholesky(&rg, hpg, up));
      if (la_ok)
        compare(lab, rc, rg, ulps);
      cn_array_release(rc);
      cn_array_release(rg);
      rc = rg = NULL;
      snprintf(lab, sizeof lab, "eigh(%s, n=%lld, layout %d, upper %d)", dn,
               (long long)n, lay, up);
      LA_BOTH(lab, cn_linalg_eigh(&rc, &r2c, hpc, up),
              cn_linalg_eigh(&rg, &r2g, hpg, up));
      if (la_ok) {
        compare(lab, rc, rg, ulps);
        la_residual(lab, hpc, r2g, rg, ulps * 4);
      }
      cn_array rel[] = {rc, rg, r2c, r2g};
      for (int i = 0; i < 4; i++)
        cn_array_release(rel[i]);
      rc = rg = r2c = r2g = NULL;
    }
    snprintf(lab, sizeof lab, "eig(%s, n=%lld, layout %d)", dn, (long long)n,
             lay);
    LA_BOTH(lab, cn_linalg_eig(&rc, &r2c, xc), cn_linalg_eig(&rg, &r2g, xg));
    if (la_ok)
      la_residual(lab, xc, r2g, rg, ulps * 8);
    cn_array rel[] = {rc, rg, r2c, r2g};
    for (int i = 0; i < 4; i++)
      cn_array_release(rel[i]);
    rc = rg = r2c = r2g = NULL;
    snprintf(lab, sizeof lab, "inv(%s, n=%lld, layout %d)", dn, (long long)n,
             lay);
    LA_BOTH(lab, cn_linalg_inv(&rc, hpc), cn_linalg_inv(&rg, hpg));
    if (la_ok)
      compare(lab, rc, rg, ulps * 4);
    cn_array_release(rc);
    cn_array_release(rg);
    rc = rg = NULL;
    snprintf(lab, sizeof lab, "solve(%s, n=%lld, layout %d)", dn, (long long)n,
             lay);
    LA_BOTH(lab, cn_linalg_solve(&rc, hpc, xc), cn_linalg_solve(&rg, hpg, xg));
    if (la_ok)
      compare(lab, rc, rg, ulps * 4);
    cn_array_release(rc);
    cn_array_release(rg);
    rc = rg = NULL;
    snprintf(lab, sizeof lab, "slogdet(%s, n=%lld, layout %d)", dn,
             (long long)n, lay);
    LA_BOTH(lab, cn_linalg_slogdet(&rc, &r2c, xc),
            cn_linalg_slogdet(&rg, &r2g, xg));
    if (la_ok) {
      compare(lab, rc, rg, ulps);
      compare(lab, r2c, r2g, ulps);
    }
    cn_array rel2[] = {rc, rg, r2c, r2g, hp, x, hpc, hpg0, hpg, xc, xg0, xg};
    for (int i = 0; i < 12; i++)
      cn_array_release(rel2[i]);
  }
}

/* u @ diag(s) @ vh (or q @ r) of the GPU's factors, on the host, against
 * the CPU's input. */
static void la_recon(const char *label, cn_array a, cn_array u_g, cn_array s_g,
                     cn_array vh_g, double ulps) {
  cn_array u = la_host(u_g), vh = la_host(vh_g), us = NULL, p = NULL;
  if (s_g != NULL) {
    cn_array s = la_host(s_g), s2 = NULL;
    int32_t nd = 0;
    int64_t sh[8];
    OK(cn_array_ndim(&nd, s));
    OK(cn_array_shape(sh, 7, s));
    sh[nd] = sh[nd - 1];
    sh[nd - 1] = 1;
    OK(cn_reshape(&s2, s, nd + 1, sh, CN_ORDER_C));
    OK(cn_multiply(&us, u, s2, NULL));
    cn_array_release(s);
    cn_array_release(s2);
  } else {
    OK(cn_copy(&us, u, CN_ORDER_K));
  }
  OK(cn_matmul(&p, us, vh, NULL));
  compare(label, a, p, ulps);
  cn_array rel[] = {u, vh, us, p};
  for (int i = 0; i < 4; i++)
    cn_array_release(rel[i]);
}

static void la_rect(cn_dtype dt, int32_t nd, const int64_t *shape) {
  char lab[160];
  int64_t m = shape[nd - 2], n = shape[nd - 1];
  double ulps = la_ulps(dt, m > n ? m : n);
  bool la_ok;
  const char *dn = cn_dtype_name(dt);
  for (int lay = 0; lay < 3; lay++) {
    cn_array x = make_input(dt, nd, shape, 0, -1, 1), xg0 = dev(x);
    cn_array xc = la_view(x, lay), xg = la_view(xg0, lay);
    for (int mode = 0; mode < 3; mode++) { /* values, reduced, full */
      cn_array uc = NULL, sc = NULL, vc = NULL, ug = NULL, sg = NULL, vg = NULL;
      snprintf(lab, sizeof lab, "svd(%s, %lldx%lld, layout %d, mode %d)", dn,
               (long long)m, (long long)n, lay, mode);
      LA_BOTH(lab, cn_linalg_svd(&uc, &sc, &vc, xc, mode == 2, mode > 0),
              cn_linalg_svd(&ug, &sg, &vg, xg, mode == 2, mode > 0));
      if (la_ok) {
        compare(lab, sc, sg, ulps);
        if (mode == 1)
          la_recon(lab, xc, ug, sg, vg, ulps);
      }
      cn_array rel[] = {uc, sc, vc, ug, sg, vg};
      for (int i = 0; i < 6; i++)
        cn_array_release(rel[i]);
    }
    for (int mode = 0; mode < 2; mode++) {
      cn_qr_mode qm = mode ? CN_QR_COMPLETE : CN_QR_REDUCED;
      cn_array qc = NULL, rc = NULL, qg = NULL, rg = NULL, ac = NULL, ag = NULL;
      snprintf(lab, sizeof lab, "qr(%s, %lldx%lld, layout %d, mode %d)", dn,
               (long long)m, (long long)n, lay, mode);
      LA_BOTH(lab, cn_linalg_qr(&qc, &rc, xc, qm),
              cn_linalg_qr(&qg, &rg, xg, qm));
      if (la_ok) {
        OK(cn_abs(&ac, rc, NULL));
        OK(cn_abs(&ag, rg, NULL));
        compare(lab, ac, ag, ulps);
        la_recon(lab, xc, qg, NULL, rg, ulps);
      }
      cn_array rel[] = {qc, rc, qg, rg, ac, ag};
      for (int i = 0; i < 6; i++)
        cn_array_release(rel[i]);
    }
    { /* raw: geqrf's h and tau (cuSOLVER keeps LAPACK's conventions) */
      cn_array hc = NULL, tc = NULL, hg = NULL, tg = NULL;
      snprintf(lab, sizeof lab, "qr raw(%s, %lldx%lld, layout %d)", dn,
               (long long)m, (long long)n, lay);
      LA_BOTH(lab, cn_linalg_qr(&hc, &tc, xc, CN_QR_RAW),
              cn_linalg_qr(&hg, &tg, xg, CN_QR_RAW));
      if (la_ok) {
        compare(lab, hc, hg, ulps);
        compare(lab, tc, tg, ulps);
      }
      cn_array rel[] = {hc, tc, hg, tg};
      for (int i = 0; i < 4; i++)
        cn_array_release(rel[i]);
    }
    cn_array rel[] = {x, xg0, xc, xg};
    for (int i = 0; i < 4; i++)
      cn_array_release(rel[i]);
  }
}

/* lstsq of a (m x n) against b (m x 2): full rank, and rank 2 (a = y @ z). */
static void la_lstsq(cn_dtype dt, int64_t m, int64_t n, bool deficient) {
  char lab[160];
  bool la_ok;
  int64_t sa[2] = {m, n}, sb[2] = {m, 2}, sy[2] = {m, 2}, sz[2] = {2, n};
  cn_array a = NULL, b = make_input(dt, 2, sb, 0, -1, 1);
  if (deficient) {
    cn_array y = make_input(dt, 2, sy, 0, -1, 1), z = make_input(dt, 2, sz, 0, -1, 1);
    OK(cn_matmul(&a, y, z, NULL));
    cn_array_release(y);
    cn_array_release(z);
  } else {
    a = make_input(dt, 2, sa, 0, -1, 1);
  }
  cn_array ag = dev(a), bg = dev(b);
  cn_array c[4] = {NULL}, g[4] = {NULL};
  snprintf(lab, sizeof lab, "lstsq(%s, %lldx%lld%s)", cn_dtype_name(dt),
           (long long)m, (long long)n, deficient ? ", rank 2" : "");
  LA_BOTH(lab, cn_linalg_lstsq(&c[0], &c[1], &c[2], &c[3], a, b, -1),
          cn_linalg_lstsq(&g[0], &g[1], &g[2], &g[3], ag, bg, -1));
  if (la_ok)
    for (int i = 0; i < 4; i++)
      compare(lab, c[i], g[i], la_ulps(dt, m + n) * (deficient ? 100 : 4));
  for (int i = 0; i < 4; i++) {
    cn_array_release(c[i]);
    cn_array_release(g[i]);
  }
  cn_array rel[] = {a, b, ag, bg};
  for (int i = 0; i < 4; i++)
    cn_array_release(rel[i]);
}

/* Not positive definite, singular, NaN and inf: the CPU's status and
 * message (with the index of the failing matrix of a stack). */
static void la_errors(cn_dtype dt) {
  char lab[160];
  bool la_ok;
  int64_t sh[3] = {3, 4, 4};
  cn_array e = NULL, neg = NULL, z = NULL, nanm = NULL, infm = NULL;
  OK(cn_eye(&e, 4, 4, 0, dt, CN_ORDER_C));
  OK(cn_negative(&neg, e, NULL));
  cn_array stack = la_hpd(dt, 3, sh), bad = NULL;
  OK(cn_zeros(&z, 3, sh, dt, CN_ORDER_C));
  OK(cn_full(&nanm, 3, sh, cn_scalar_float(NAN), dt, CN_ORDER_C));
  OK(cn_full(&infm, 3, sh, cn_scalar_float(INFINITY), dt, CN_ORDER_C));
  {
    /* matrix 1 of the stack not positive definite */
    cn_array mid = NULL;
    OK(cn_copy(&bad, stack, CN_ORDER_C));
    OK(cn_index_axis(&mid, bad, 0, 1));
    OK(cn_assign(mid, neg));
    cn_array_release(mid);
  }
  cn_array badg = dev(bad), zg = dev(z), nang = dev(nanm), infg = dev(infm);
  cn_array rc = NULL, rg = NULL, r2c = NULL, r2g = NULL, r3c = NULL, r3g = NULL;
  const char *dn = cn_dtype_name(dt);
#define LA_PAIR(what, callc, callg)                                            \
  do {                                                                         \
    snprintf(lab, sizeof lab, "%s(%s)", what, dn);                            \
    LA_BOTH(lab, callc, callg);                                                \
    if (la_ok && rc != NULL)                                                   \
      compare(lab, rc, rg, 1);                                                 \
    cn_array rel_[] = {rc, rg, r2c, r2g, r3c, r3g};                            \
    for (int i_ = 0; i_ < 6; i_++)                                             \
      cn_array_release(rel_[i_]);                                              \
    rc = rg = r2c = r2g = r3c = r3g = NULL;                                    \
  } while (0)
  LA_PAIR("cholesky not positive definite", cn_linalg_cholesky(&rc, bad, 0),
          cn_linalg_cholesky(&rg, badg, 0));
  LA_PAIR("inv singular", cn_linalg_inv(&rc, z), cn_linalg_inv(&rg, zg));
  LA_PAIR("solve singular", cn_linalg_solve(&rc, z, bad),
          cn_linalg_solve(&rg, zg, badg));
  LA_PAIR("slogdet singular", cn_linalg_slogdet(&rc, &r2c, z),
          cn_linalg_slogdet(&rg, &r2g, zg));
  LA_PAIR("svd NaN", cn_linalg_svd(&r2c, &rc, &r3c, nanm, 0, 1),
          cn_linalg_svd(&r2g, &rg, &r3g, nang, 0, 1));
  LA_PAIR("eig inf", cn_linalg_eig(&rc, &r2c, infm),
          cn_linalg_eig(&rg, &r2g, infg));
  cn_array n2c = NULL, n2g = NULL, b2c = NULL, b2g = NULL;
  OK(cn_index_axis(&n2c, nanm, 0, 0));
  OK(cn_index_axis(&n2g, nang, 0, 0));
  OK(cn_index_axis(&b2c, stack, 0, 0));
  b2g = dev(b2c);
  cn_array r4c = NULL, r4g = NULL;
  LA_PAIR("lstsq NaN", cn_linalg_lstsq(&rc, &r2c, &r3c, &r4c, n2c, b2c, -1),
          cn_linalg_lstsq(&rg, &r2g, &r3g, &r4g, n2g, b2g, -1));
  cn_array_release(r4c);
  cn_array_release(r4g);
#undef LA_PAIR
  cn_array rel[] = {e, neg, z, nanm, infm, stack, bad, badg, zg, nang,
                    infg, n2c, n2g, b2c, b2g};
  for (int i = 0; i < 15; i++)
    cn_array_release(rel[i]);
}

static void lapack(void) {
  static const int64_t sq[][3] = {{1, 1, 1}, {3, 4, 4}, {2, 33, 33},
                                  {1, 40, 40}, {4, 0, 0}};
  static const int64_t re[][3] = {{3, 5, 3}, {3, 3, 5}, {1, 40, 6},
                                  {1, 6, 40}, {2, 0, 3}};
  for (int d = 0; d < 4; d++) {
    cn_dtype dt = k_la[d];
    for (int i = 0; i < 5; i++) {
      bool two_d = sq[i][0] == 1 && i > 0;
      la_square(dt, two_d ? 2 : 3, two_d ? sq[i] + 1 : sq[i]);
      two_d = re[i][0] == 1;
      la_rect(dt, two_d ? 2 : 3, two_d ? re[i] + 1 : re[i]);
    }
    la_lstsq(dt, 8, 5, false);
    la_lstsq(dt, 5, 8, false);
    la_lstsq(dt, 8, 5, true);
    la_lstsq(dt, 5, 8, true);
    la_errors(dt);
  }
}

/* ---- FFTs ------------------------------------------------------------ */

/* The same view of a host array and of its device copy: 0 as is, 1 every
 * other element of the last axis, 2 axis 0 reversed, 3 transposed. */
static cn_array fft_view(cn_array a, int layout) {
  int32_t nd = 0;
  OK(cn_array_ndim(&nd, a));
  cn_array v = NULL;
  if (layout == 1)
    OK(cn_slice_axis(&v, a, nd - 1, 0, CN_SLICE_NONE, 2));
  else if (layout == 2)
    OK(cn_slice_axis(&v, a, 0, CN_SLICE_NONE, CN_SLICE_NONE, -1));
  else if (layout == 3)
    OK(cn_transpose(&v, a));
  else
    OK(cn_copy(&v, a, CN_ORDER_K)); /* an own reference, released alike */
  return v;
}

typedef cn_status (*fft1_fn)(cn_array *, cn_array, int64_t, int32_t,
                             cn_fft_norm);
typedef cn_status (*fftn_fn)(cn_array *, cn_array, int32_t, const int64_t *,
                             int32_t, const int32_t *, cn_fft_norm);

/* Error bound in units of eps relative to 1 + |value|: the rounding of a
 * length-n transform grows like sqrt(n) log n times the input's size. */
static double fft_ulps(int64_t points) {
  return 64.0 * sqrt((double)points) * (2.0 + log2((double)points + 1.0));
}

static void ffts(void) {
  static const struct {
    const char *name;
    fft1_fn f;
    bool real_in, herm_in; /* real input; input is an rfft output */
  } one_d[] = {{"fft", cn_fft, false, false},   {"ifft", cn_ifft, false, false},
            {"rfft", cn_rfft, true, false},  {"irfft", cn_irfft, false, true},
            {"hfft", cn_hfft, false, false}, {"ihfft", cn_ihfft, true, false}};
  static const struct {
    const char *name;
    fftn_fn f;
    bool real_in, herm_in;
  } fnd[] = {{"fft2", cn_fft2, false, false},   {"ifft2", cn_ifft2, false, false},
             {"fftn", cn_fftn, false, false},   {"ifftn", cn_ifftn, false, false},
             {"rfft2", cn_rfft2, true, false},  {"rfftn", cn_rfftn, true, false},
             {"irfft2", cn_irfft2, false, true}, {"irfftn", cn_irfftn, false, true}};
  static const int64_t shapes[][3] = {{64, 0, 0}, {6, 1000, 0}, {12, 20, 0},
                                      {6, 5, 8},  {0, 8, 0},    {3, 1, 7}};
  static const int32_t ndims[] = {1, 2, 2, 3, 2, 3};
  for (int prec = 0; prec < 2; prec++)
    for (size_t si = 0; si < sizeof ndims / sizeof ndims[0]; si++)
      for (int layout = 0; layout < 4; layout++) {
        int32_t nd = ndims[si];
        if (layout == 3 && nd == 1)
          continue;
        int64_t shape[3] = {shapes[si][0], shapes[si][1], shapes[si][2]};
        if (layout == 1)
          shape[nd - 1] *= 2;
        int64_t points = 1;
        for (int32_t k = 0; k < nd; k++)
          points *= shape[k] ? shape[k] : 1;
        cn_dtype rdt = prec ? CN_FLOAT64 : CN_FLOAT32;
        cn_dtype cdt = prec ? CN_COMPLEX128 : CN_COMPLEX64;
        cn_array hr0 = make_input(rdt, nd, shape, 0, -1, 1);
        cn_array hc0 = make_input(cdt, nd, shape, 0, -1, 1);
        cn_array hr = fft_view(hr0, layout), hc = fft_view(hc0, layout);
        /* Hermitian inputs: the CPU's rfftn of the real view (none for an
         * empty one, which has no valid length). */
        cn_array hh = NULL, hh1 = NULL, gh = NULL, gh1 = NULL;
        bool herm = points > 0 && shape[0] > 0;
        if (herm) {
          OK(cn_rfftn(&hh, hr, 0, NULL, -1, NULL, CN_FFT_NORM_BACKWARD));
          OK(cn_rfft(&hh1, hr, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
          gh = dev(hh);
          gh1 = dev(hh1);
        }
        cn_array gr0 = dev(hr0), gc0 = dev(hc0);
        cn_array gr = fft_view(gr0, layout), gc = fft_view(gc0, layout);
        double ulps = fft_ulps(points);
        for (size_t m = 0; m < sizeof one_d / sizeof one_d[0]; m++)
          for (int32_t axis = -1; axis < (nd > 1 ? 1 : 0); axis++)
            for (int norm = 0; norm < 3; norm++)
              for (int nmode = 0; nmode < 3; nmode++) {
                if (one_d[m].herm_in && (nmode || axis != -1 || !herm))
                  continue; /* a cropped spectrum is not Hermitian */
                int32_t ax = axis < 0 ? nd - 1 : axis;
                int64_t len = shape[ax] / (layout == 1 && ax == nd - 1 ? 2 : 1);
                int64_t n = nmode == 0   ? CN_FFT_N_NONE
                            : nmode == 1 ? len + 3
                                         : (len > 2 ? len - 2 : 1);
                cn_array ic = one_d[m].herm_in ? hh1 : one_d[m].real_in ? hr : hc;
                cn_array ig = one_d[m].herm_in ? gh1 : one_d[m].real_in ? gr : gc;
                char label[160];
                snprintf(label, sizeof label,
                         "%s(%s, shape %lldx%lldx%lld, layout %d, axis %d, "
                         "n %lld, norm %d)",
                         one_d[m].name, cn_dtype_name(rdt), (long long)shape[0],
                         (long long)shape[1], (long long)shape[2], layout,
                         (int)axis, (long long)(n == CN_FFT_N_NONE ? -1 : n),
                         norm);
                cn_array rc = NULL, rg = NULL;
                cn_status sc = one_d[m].f(&rc, ic, n, axis, (cn_fft_norm)norm);
                cn_status sg = one_d[m].f(&rg, ig, n, axis, (cn_fft_norm)norm);
                check_status(label, sc, sg, rc, rg, ulps);
              }
        for (size_t m = 0; m < sizeof fnd / sizeof fnd[0]; m++)
          for (int norm = 0; norm < 3; norm += 2)
            for (int variant = 0; variant < 3; variant++) {
              /* 0 default axes; 1 axes (0) / (last, 0) given; 2 s given */
              int32_t axes[2] = {0, nd - 1};
              int64_t s[3] = {5, 9, 4};
              int32_t naxes = variant == 1 ? (nd > 1 ? 2 : 1) : -1;
              if (variant == 1 && nd > 1)
                axes[0] = nd - 1, axes[1] = 0;
              int32_t ns = variant == 2 ? (nd < 2 ? nd : 2) : 0;
              if (fnd[m].herm_in && (variant != 0 || !herm))
                continue;
              if (nd < 2 && (m < 2 || fnd[m].name[1] == 'f'))
                continue; /* the 2-d forms need two axes */
              cn_array ic = fnd[m].herm_in ? hh : fnd[m].real_in ? hr : hc;
              cn_array ig = fnd[m].herm_in ? gh : fnd[m].real_in ? gr : gc;
              char label[160];
              snprintf(label, sizeof label,
                       "%s(%s, shape %lldx%lldx%lld, layout %d, variant %d, "
                       "norm %d)",
                       fnd[m].name, cn_dtype_name(rdt), (long long)shape[0],
                       (long long)shape[1], (long long)shape[2], layout,
                       variant, norm);
              cn_array rc = NULL, rg = NULL;
              cn_status sc = fnd[m].f(&rc, ic, ns, ns ? s : NULL, naxes,
                                      naxes > 0 ? axes : NULL,
                                      (cn_fft_norm)norm);
              cn_status sg = fnd[m].f(&rg, ig, ns, ns ? s : NULL, naxes,
                                      naxes > 0 ? axes : NULL,
                                      (cn_fft_norm)norm);
              check_status(label, sc, sg, rc, rg, ulps);
            }
        cn_array all[] = {hr0, hc0, hr, hc, hh, hh1, gr0, gc0, gr, gc, gh, gh1};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
          cn_array_release(all[k]);
      }
  /* Large transforms (the benchmark sizes' kind): one cuFFT call each. */
  for (int prec = 0; prec < 2; prec++) {
    cn_dtype cdt = prec ? CN_COMPLEX128 : CN_COMPLEX64;
    int64_t shape[2] = {512, 1024};
    cn_array h = make_input(cdt, 2, shape, 0, -1, 1), g = dev(h);
    cn_array rc = NULL, rg = NULL;
    cn_status sc = cn_fft2(&rc, h, 0, NULL, -1, NULL, CN_FFT_NORM_BACKWARD);
    cn_status sg = cn_fft2(&rg, g, 0, NULL, -1, NULL, CN_FFT_NORM_BACKWARD);
    check_status(prec ? "fft2(512x1024 complex128)" : "fft2(512x1024 complex64)",
                 sc, sg, rc, rg, fft_ulps(512 * 1024));
    int32_t ax0 = 0;
    sc = cn_fftn(&rc, h, 0, NULL, 1, &ax0, CN_FFT_NORM_ORTHO);
    sg = cn_fftn(&rg, g, 0, NULL, 1, &ax0, CN_FFT_NORM_ORTHO);
    check_status(prec ? "fft(axis 0, 512x1024 complex128)"
                      : "fft(axis 0, 512x1024 complex64)",
                 sc, sg, rc, rg, fft_ulps(512));
    cn_array_release(h);
    cn_array_release(g);
  }
}

/* Run with CUNUMPY_GPU_MEMORY_LIMIT (or CUPY_GPU_MEMORY_LIMIT) set to
 * LIMIT_BYTES, given as argv[2] ("50%" style limits are checked against
 * the device memory): the pool limit must be in force. */
/* ---- sorting ------------------------------------------------------------- */

static void sorting(void) {
  static const int64_t shapes[][2] = {{10000, 0}, {37, 129}, {2, 300000}};
  static const int32_t nds[] = {1, 2, 2};
  char label[160];
  for (int d = 0; d < NDT; d++) {
    cn_dtype dt = k_all[d];
    for (int si = 0; si < 3; si++) {
      if (si == 2 && dt != CN_FLOAT32 && dt != CN_INT64 && dt != CN_COMPLEX128)
        continue; /* long lanes sorted one by one: a few dtypes */
      /* few distinct values: duplicates everywhere (stability) */
      cn_array h = make_input(dt, nds[si], shapes[si], 1, -6.0, 6.0);
      cn_array g = dev(h);
      for (int view = 0; view < 2; view++) {
        cn_array hv = h, gv = g;
        int32_t ax0 = 0;
        if (view) { /* reversed: negative strides, copied first on the GPU */
          OK(cn_flip(&hv, h, 1, &ax0));
          OK(cn_flip(&gv, g, 1, &ax0));
        }
        for (int32_t axis = -1; axis <= (nds[si] > 1 ? 0 : -1); axis++) {
          cn_array rc = NULL, rg = NULL;
          snprintf(label, sizeof label, "sort %s shape %d view %d axis %d",
                   cn_dtype_name(dt), si, view, (int)axis);
          cn_status sc = cn_sort(&rc, hv, axis), sg = cn_sort(&rg, gv, axis);
          check_status(label, sc, sg, rc, rg, 0);
          snprintf(label, sizeof label, "argsort %s shape %d view %d axis %d",
                   cn_dtype_name(dt), si, view, (int)axis);
          sc = cn_argsort(&rc, hv, axis);
          sg = cn_argsort(&rg, gv, axis);
          check_status(label, sc, sg, rc, rg, 0);
        }
        if (view) {
          cn_array_release(hv);
          cn_array_release(gv);
        }
      }
      if (si == 0) {
        /* unique (values, first index, inverse, counts) */
        cn_array uc[4] = {0}, ug[4] = {0};
        cn_status sc = cn_unique(&uc[0], &uc[1], &uc[2], &uc[3], h, 1);
        cn_status sg = cn_unique(&ug[0], &ug[1], &ug[2], &ug[3], g, 1);
        for (int k = 0; k < 4; k++) {
          snprintf(label, sizeof label, "unique %s output %d",
                   cn_dtype_name(dt), k);
          check_status(label, sc, sg, uc[k], ug[k], 0);
        }
        /* searchsorted of values into the sorted array, both sides */
        cn_array sh = NULL, sgd = NULL;
        OK(cn_sort(&sh, h, 0));
        OK(cn_sort(&sgd, g, 0));
        int64_t vs[1] = {257};
        cn_array vh = make_input(dt, 1, vs, 1, -7.0, 7.0);
        cn_array vg = dev(vh);
        for (int side = 0; side < 2; side++) {
          cn_array rc = NULL, rg = NULL;
          snprintf(label, sizeof label, "searchsorted %s side %d",
                   cn_dtype_name(dt), side);
          sc = cn_searchsorted(&rc, sh, vh, side, NULL);
          sg = cn_searchsorted(&rg, sgd, vg, side, NULL);
          check_status(label, sc, sg, rc, rg, 0);
        }
        cn_array_release(vh);
        cn_array_release(vg);
        cn_array_release(sh);
        cn_array_release(sgd);
        /* errors: an axis out of range, the same status on both */
        cn_array rc = NULL, rg = NULL;
        snprintf(label, sizeof label, "sort %s axis 3", cn_dtype_name(dt));
        sc = cn_sort(&rc, h, 3);
        sg = cn_sort(&rg, g, 3);
        check_status(label, sc, sg, rc, rg, 0);
      }
      cn_array_release(h);
      cn_array_release(g);
    }
  }
  /* empty and one-element arrays */
  static const int64_t small[] = {0, 1};
  for (int k = 0; k < 2; k++) {
    cn_array h = make_input(CN_FLOAT64, 1, &small[k], 1, 0, 1), g = dev(h);
    cn_array rc = NULL, rg = NULL;
    snprintf(label, sizeof label, "argsort float64 of %lld",
             (long long)small[k]);
    cn_status sc = cn_argsort(&rc, h, 0), sg = cn_argsort(&rg, g, 0);
    check_status(label, sc, sg, rc, rg, 0);
    cn_array_release(h);
    cn_array_release(g);
  }
}

static void limit(const char *expect) {
  int64_t lim = 0, total = 0;
  OK(cn_cuda_pool_get_limit(&lim, -1));
  OK(cn_cuda_device_properties(NULL, 0, &total, NULL, NULL, NULL, -1));
  int64_t want = strchr(expect, '%')
                     ? (int64_t)((double)total * atof(expect) / 100.0)
                     : atoll(expect);
  g_cases++;
  if (llabs(lim - want) > 1) {
    printf("FAIL limit: pool limit %lld, expected %lld (%s)\n", (long long)lim,
           (long long)want, expect);
    g_fail++;
    return;
  }
  int64_t shape[1] = {want / 8 + 1024}; /* just over the limit */
  cn_array h = NULL, d = NULL;
  OK(cn_zeros(&h, 1, shape, CN_FLOAT64, CN_ORDER_C));
  cn_status st = cn_to_device(&d, h, 0);
  g_cases++;
  if (st != CN_ERR_MEMORY || strstr(cn_last_error(), "memory limit") == NULL) {
    printf("FAIL limit: allocation over the limit gave %s: %s\n",
           cn_status_name(st), cn_last_error());
    g_fail++;
  }
  cn_array_release(d);
  cn_array_release(h);
  shape[0] = want / 16; /* half the limit fits */
  OK(cn_zeros(&h, 1, shape, CN_FLOAT64, CN_ORDER_C));
  OK(cn_to_device(&d, h, 0));
  cn_array_release(d);
  cn_array_release(h);
}

/* ---- random fills ---------------------------------------------------------
 */

typedef struct {
  const char *dist; /* "random": cn_random_random */
  int nparams;
  double p[3];
  cn_dtype dt;
  double ulps; /* < 0: integers, at most 1 in 10^5 may differ */
} rng_case;

/* One fill of c on the active backend from a fresh generator of seed;
 * per_elem gives array parameters (on the active backend). */
static cn_status rng_run(cn_array *out, uint32_t state[CN_RNG_STATE_WORDS],
                         const rng_case *c, int64_t n, bool per_elem,
                         cn_dtype dt) {
  cn_rng r = NULL;
  OK(cn_rng_create(&r, 20260901));
  OK(cn_rng_advance(r, 12345));
  cn_array pa[3] = {NULL, NULL, NULL};
  int64_t len = per_elem ? n : 1;
  bool ints = !strcmp(c->dist, "integers"); /* int64 bounds */
  double *v = malloc(sizeof(double) * (size_t)(len + 1));
  int64_t *iv = malloc(sizeof(int64_t) * (size_t)(len + 1));
  for (int k = 0; k < c->nparams; k++) {
    for (int64_t i = 0; i < len; i++) {
      v[i] = c->p[k] * (1.0 + (per_elem && k == 0 ? 0.25 * (i % 4) : 0));
      iv[i] = (int64_t)v[i];
    }
    cn_array h = NULL;
    OK(cn_from_host(&h, ints ? (void *)iv : (void *)v, 0, 8 * (len ? len : 1),
                    1, &len, NULL, ints ? CN_INT64 : CN_FLOAT64));
    pa[k] = per_elem ? dev(h) : h;
    if (per_elem)
      cn_array_release(h);
  }
  free(v);
  free(iv);
  cn_status st = !strcmp(c->dist, "random")
                     ? cn_random_random(out, r, 1, &n, dt)
                     : cn_random_dist(out, r, c->dist, pa[0], pa[1], pa[2],
                                      1, &n, dt);
  OK(cn_rng_get_state(state, r));
  cn_rng_release(r);
  for (int k = 0; k < 3; k++)
    cn_array_release(pa[k]);
  return st;
}

/* Integer results that may differ in a few places (rejection samplers). */
static void compare_rare(const char *label, cn_array cpu, cn_array gpu_any) {
  g_cases++;
  cn_array c64 = NULL, g64 = NULL, gh = NULL;
  OK(cn_to_host(&gh, gpu_any));
  OK(cn_astype(&c64, cpu, CN_INT64, 1));
  OK(cn_astype(&g64, gh, CN_INT64, 1));
  int64_t n = 0;
  OK(cn_array_size(&n, cpu));
  int64_t *a = malloc(8 * (size_t)(n + 1)), *b = malloc(8 * (size_t)(n + 1));
  OK(cn_copy_to_buffer(a, 8 * n, c64, CN_ORDER_C));
  OK(cn_copy_to_buffer(b, 8 * n, g64, CN_ORDER_C));
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++)
    bad += a[i] != b[i];
  if (bad * 100000 > n) {
    printf("FAIL %s: %lld of %lld differ\n", label, (long long)bad,
           (long long)n);
    g_fail++;
  } else if (bad) {
    printf("note %s: %lld of %lld differ (libm last-ulp decisions)\n",
           label, (long long)bad, (long long)n);
  }
  free(a);
  free(b);
  cn_array_release(c64);
  cn_array_release(g64);
  cn_array_release(gh);
}

static void random_fills(void) {
  static const rng_case k_cases[] = {
      {"random", 0, {0}, CN_FLOAT64, 0},
      {"random", 0, {0}, CN_FLOAT32, 0},
      {"uniform", 2, {-1, 3}, CN_FLOAT64, 4},
      {"normal", 2, {1.5, 2}, CN_FLOAT64, 8},
      {"normal", 2, {0, 1}, CN_FLOAT32, 4},
      {"lognormal", 2, {0.5, 0.25}, CN_FLOAT64, 16},
      {"exponential", 1, {2}, CN_FLOAT64, 8},
      {"integers", 2, {-7, 1000}, CN_INT64, 0},
      {"integers", 2, {0, 255}, CN_UINT8, 0},
      {"integers", 2, {-9.2e18, 9.2e18}, CN_INT64, 0},
      {"gamma", 2, {0.5, 2}, CN_FLOAT64, 64},
      {"gamma", 2, {4.5, 1}, CN_FLOAT32, 16},
      {"beta", 2, {2, 3}, CN_FLOAT64, 64},
      {"chisquare", 1, {3}, CN_FLOAT64, 64},
      {"laplace", 2, {0, 2}, CN_FLOAT64, 8},
      {"logistic", 2, {1, 0.5}, CN_FLOAT64, 8},
      {"rayleigh", 1, {2}, CN_FLOAT64, 8},
      {"weibull", 1, {1.5}, CN_FLOAT64, 16},
      {"pareto", 1, {3}, CN_FLOAT64, 16},
      {"triangular", 3, {-1, 0, 2}, CN_FLOAT64, 8},
      {"binomial", 2, {20, 0.3}, CN_INT64, -1},
      {"binomial", 2, {1000, 0.6}, CN_INT64, -1},
      {"poisson", 1, {4}, CN_INT64, -1},
      {"poisson", 1, {300}, CN_INT64, -1},
      {"geometric", 1, {0.1}, CN_INT64, -1},
  };
  static const int64_t k_sizes[] = {1000000, 7, 0};
  for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
    for (int s = 0; s < 3; s++)
      for (int pe = 0; pe < 2; pe++) {
        const rng_case *c = &k_cases[i];
        if (pe && (c->nparams == 0 || s > 0 || !strcmp(c->dist, "integers")))
          continue;
        uint32_t sc[CN_RNG_STATE_WORDS], sg[CN_RNG_STATE_WORDS];
        cn_array rc = NULL, rg = NULL;
        OK(cn_set_backend("cpu"));
        cn_status stc = rng_run(&rc, sc, c, k_sizes[s], pe, c->dt);
        OK(cn_set_backend(g_selftest ? "cpu" : "cuda"));
        cn_status stg = rng_run(&rg, sg, c, k_sizes[s], pe, c->dt);
        OK(cn_set_backend("cpu"));
        char label[128];
        snprintf(label, sizeof label, "random %s(%g, %g, %g)%s %s n=%lld",
                 c->dist, c->p[0], c->p[1], c->p[2], pe ? " per element" : "",
                 cn_dtype_name(c->dt), (long long)k_sizes[s]);
        if (stc != CN_OK || memcmp(sc, sg, sizeof sc) != 0) {
          printf("FAIL %s: %s, or the generator states differ after the "
                 "fill\n",
                 label, cn_status_name(stc));
          g_fail++;
        }
        if (c->ulps < 0 && stc == CN_OK && stg == CN_OK) {
          compare_rare(label, rc, rg);
          cn_array_release(rc);
          cn_array_release(rg);
        } else {
          check_status(label, stc, stg, rc, rg, c->ulps);
        }
      }
  /* Errors: the same status on both backends, and no counter advance. */
  static const rng_case k_bad[] = {
      {"integers", 2, {0, 10}, CN_FLOAT64, 0},
      {"gamma", 2, {-1, 1}, CN_FLOAT64, 0},
      {"normal", 2, {0, 1}, CN_INT32, 0},
  };
  for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) {
    uint32_t sc[CN_RNG_STATE_WORDS], sg[CN_RNG_STATE_WORDS];
    cn_array rc = NULL, rg = NULL;
    OK(cn_set_backend("cpu"));
    cn_status stc = rng_run(&rc, sc, &k_bad[i], 100, false, k_bad[i].dt);
    OK(cn_set_backend(g_selftest ? "cpu" : "cuda"));
    cn_status stg = rng_run(&rg, sg, &k_bad[i], 100, false, k_bad[i].dt);
    OK(cn_set_backend("cpu"));
    char label[96];
    snprintf(label, sizeof label, "random error %s %s", k_bad[i].dist,
             cn_dtype_name(k_bad[i].dt));
    g_cases++;
    if (stc == CN_OK || memcmp(sc, sg, sizeof sc) != 0) {
      printf("FAIL %s: accepted, or the states differ\n", label);
      g_fail++;
    }
    check_status(label, stc, stg, rc, rg, 0);
  }
}

/* ---- indexing ------------------------------------------------------------ */

static void rel4(cn_array a, cn_array b, cn_array c, cn_array d) {
  cn_array_release(a);
  cn_array_release(b);
  cn_array_release(c);
  cn_array_release(d);
}

static cn_array host_i64(int64_t n, const int64_t *v) {
  cn_array h = NULL;
  OK(cn_from_host(&h, v, 0, 8 * (n ? n : 1), 1, &n, NULL, CN_INT64));
  return h;
}

/* Same status, same message, same result (r may be NULL: compare a in
 * place instead). */
static void same_outcome(const char *label, cn_status sc, const char *mc,
                         cn_status sg, cn_array rc, cn_array rg) {
  const char *mg = sg != CN_OK ? cn_last_error() : "";
  if (sc != sg || (sc != CN_OK && strcmp(mc, mg) != 0)) {
    g_cases++;
    printf("FAIL %s: gpu %s '%s' vs cpu %s '%s'\n", label, cn_status_name(sg),
           mg, cn_status_name(sc), mc);
    g_fail++;
  } else if (sc == CN_OK && rc != NULL) {
    compare(label, rc, rg, 0);
  } else {
    g_cases++;
  }
  cn_array_release(rc);
  cn_array_release(rg);
}

#define BOTH(label, call_cpu, call_gpu, rc, rg)                                \
  do {                                                                         \
    char msg_[512];                                                            \
    cn_status sc_ = (call_cpu);                                                \
    snprintf(msg_, sizeof msg_, "%s", sc_ != CN_OK ? cn_last_error() : "");    \
    cn_status sg_ = (call_gpu);                                                \
    same_outcome(label, sc_, msg_, sg_, rc, rg);                               \
  } while (0)

static void indexing_dtype(cn_dtype dt) {
  char lb[160];
  int64_t shape[2] = {5, 7};
  cn_array h = make_input(dt, 2, shape, 1, -9, 9), d = dev(h);
  /* A strided source: flipped on both axes and transposed (7 x 5). */
  cn_array fh = NULL, fd = NULL, th = NULL, td = NULL;
  OK(cn_flip(&fh, h, 0, NULL));
  OK(cn_flip(&fd, d, 0, NULL));
  OK(cn_transpose(&th, fh));
  OK(cn_transpose(&td, fd));
  static const int64_t ix[][5] = {{-1, 0, 3, 3, 4},
                                  {6, -7, 2, 2, 0},
                                  {12, -13, 40, 0, 1},
                                  {0, 9, 11, 5, -6}};
  for (int q = 0; q < 4; q++)
    for (int32_t axis = 0; axis < 2; axis++)
      for (int32_t mode = 0; mode < 3; mode++) {
        int64_t n = q == 3 && mode == 1 ? 0 : 5; /* an empty index array */
        cn_array ih = host_i64(n, ix[q]), id = dev(ih), rc = NULL, rg = NULL;
        snprintf(lb, sizeof lb, "take %s idx%d axis %d mode %d",
                 cn_dtype_name(dt), q, axis, mode);
        BOTH(lb, cn_take(&rc, th, ih, axis, mode, NULL),
             cn_take(&rg, td, id, axis, mode, NULL), rc, rg);
        /* put into a contiguous copy: duplicates keep the last write. */
        cn_array ac = NULL, ag = NULL, vh = NULL, vd = NULL;
        OK(cn_copy(&ac, th, CN_ORDER_C));
        OK(cn_copy(&ag, td, CN_ORDER_C));
        int64_t nv = 5;
        vh = make_input(dt, 1, &nv, 0, -50, 50);
        vd = dev(vh);
        snprintf(lb, sizeof lb, "put %s idx%d mode %d", cn_dtype_name(dt), q,
                 mode);
        BOTH(lb, cn_put(ac, ih, vh, mode), cn_put(ag, id, vd, mode), NULL,
             NULL);
        compare(lb, ac, ag, 0); /* also unchanged after a refused put */
        rel4(ac, ag, vh, vd);
        rel4(ih, id, NULL, NULL);
      }
  /* along-axis forms: idx broadcast along one axis, duplicates, bad index */
  int64_t ishape[2] = {7, 3};
  int64_t iv[21];
  for (int i = 0; i < 21; i++)
    iv[i] = (i * 7) % 10 - 5;
  for (int bad = 0; bad < 2; bad++) {
    if (bad)
      iv[17] = 5;
    cn_array ih = NULL, id = NULL, rc = NULL, rg = NULL;
    OK(cn_from_host(&ih, iv, 0, sizeof iv, 2, ishape, NULL, CN_INT64));
    id = dev(ih);
    snprintf(lb, sizeof lb, "take_along_axis %s bad %d", cn_dtype_name(dt),
             bad);
    BOTH(lb, cn_take_along_axis(&rc, th, ih, 1),
         cn_take_along_axis(&rg, td, id, 1), rc, rg);
    cn_array ac = NULL, ag = NULL, vh = NULL, vd = NULL;
    OK(cn_copy(&ac, th, CN_ORDER_C));
    OK(cn_copy(&ag, td, CN_ORDER_C));
    vh = make_input(dt, 2, ishape, 0, -50, 50);
    vd = dev(vh);
    snprintf(lb, sizeof lb, "put_along_axis %s bad %d", cn_dtype_name(dt),
             bad);
    BOTH(lb, cn_put_along_axis(ac, ih, vh, 1),
         cn_put_along_axis(ag, id, vd, 1), NULL, NULL);
    compare(lb, ac, ag, 0);
    rel4(ac, ag, vh, vd);
    rel4(ih, id, NULL, NULL);
  }
  /* masks, compress, extract, nonzero family on the strided source */
  cn_array mh = NULL, md = NULL, zero = NULL;
  OK(cn_from_scalar(&zero, (cn_scalar){.kind = CN_SCALAR_INT, .i = 0}, dt));
  cn_array zd = dev(zero);
  OK(cn_not_equal(&mh, th, zero, NULL));
  OK(cn_not_equal(&md, td, zd, NULL));
  for (int contig = 0; contig < 2; contig++) {
    cn_array sh = th, sd = td, ch = NULL, cd = NULL, rc = NULL, rg = NULL;
    if (contig) {
      OK(cn_copy(&ch, th, CN_ORDER_C));
      OK(cn_copy(&cd, td, CN_ORDER_C));
      sh = ch, sd = cd;
    }
    snprintf(lb, sizeof lb, "mask_get %s contig %d", cn_dtype_name(dt),
             contig);
    BOTH(lb, cn_mask_get(&rc, sh, mh), cn_mask_get(&rg, sd, md), rc, rg);
    rc = rg = NULL;
    snprintf(lb, sizeof lb, "flatnonzero %s contig %d", cn_dtype_name(dt),
             contig);
    BOTH(lb, cn_flatnonzero(&rc, sh), cn_flatnonzero(&rg, sd), rc, rg);
    rc = rg = NULL;
    snprintf(lb, sizeof lb, "argwhere %s contig %d", cn_dtype_name(dt),
             contig);
    BOTH(lb, cn_argwhere(&rc, sh), cn_argwhere(&rg, sd), rc, rg);
    cn_array nc[2] = {NULL, NULL}, ng[2] = {NULL, NULL};
    snprintf(lb, sizeof lb, "nonzero %s contig %d", cn_dtype_name(dt), contig);
    BOTH(lb, cn_nonzero(nc, 2, sh), cn_nonzero(ng, 2, sd), nc[0], ng[0]);
    compare(lb, nc[1], ng[1], 0);
    rel4(nc[1], ng[1], NULL, NULL);
    int32_t ax0 = 0;
    rc = rg = NULL;
    snprintf(lb, sizeof lb, "count_nonzero %s", cn_dtype_name(dt));
    BOTH(lb, cn_count_nonzero(&rc, sh, 1, &ax0, 0),
         cn_count_nonzero(&rg, sd, 1, &ax0, 0), rc, rg);
    rc = rg = NULL;
    cn_array r0c = NULL, r0g = NULL;
    OK(cn_index_axis(&r0c, mh, 1, 0)); /* a 7-long condition */
    OK(cn_index_axis(&r0g, md, 1, 0));
    snprintf(lb, sizeof lb, "compress %s axis 0", cn_dtype_name(dt));
    BOTH(lb, cn_compress(&rc, r0c, sh, 0), cn_compress(&rg, r0g, sd, 0), rc,
         rg);
    rc = rg = NULL;
    snprintf(lb, sizeof lb, "compress %s too long", cn_dtype_name(dt));
    BOTH(lb, cn_compress(&rc, r0c, sh, 1), cn_compress(&rg, r0g, sd, 1), rc,
         rg);
    rc = rg = NULL;
    snprintf(lb, sizeof lb, "extract %s", cn_dtype_name(dt));
    BOTH(lb, cn_extract(&rc, mh, sh), cn_extract(&rg, md, sd), rc, rg);
    /* mask_set: a broadcast scalar, then values of the selection's size */
    cn_array ac = NULL, ag = NULL;
    OK(cn_copy(&ac, sh, CN_ORDER_C));
    OK(cn_copy(&ag, sd, CN_ORDER_C));
    snprintf(lb, sizeof lb, "mask_set %s", cn_dtype_name(dt));
    BOTH(lb, cn_mask_set(ac, mh, zero), cn_mask_set(ag, md, zd), NULL, NULL);
    compare(lb, ac, ag, 0);
    rel4(ac, ag, r0c, r0g);
    rel4(ch, cd, NULL, NULL);
  }
  /* choose among three arrays, every mode, one index out of range */
  cn_array chh[3], chd[3];
  for (int i = 0; i < 3; i++) {
    chh[i] = make_input(dt, 2, shape, 0, -9, 9);
    chd[i] = dev(chh[i]);
  }
  int64_t cv[35];
  for (int i = 0; i < 35; i++)
    cv[i] = i % 4 - (i % 7 == 0 ? 1 : 0);
  cn_array cih = NULL, cid = NULL;
  OK(cn_from_host(&cih, cv, 0, sizeof cv, 2, shape, NULL, CN_INT64));
  cid = dev(cih);
  for (int32_t mode = 0; mode < 3; mode++) {
    cn_array rc = NULL, rg = NULL;
    snprintf(lb, sizeof lb, "choose %s mode %d", cn_dtype_name(dt), mode);
    BOTH(lb, cn_choose(&rc, cih, 3, chh, mode, NULL),
         cn_choose(&rg, cid, 3, chd, mode, NULL), rc, rg);
  }
  for (int i = 0; i < 3; i++)
    rel4(chh[i], chd[i], NULL, NULL);
  rel4(cih, cid, mh, md);
  rel4(zero, zd, fh, fd);
  rel4(th, td, h, d);
}

/* Compactions longer than one tile and than one scan level. */
static void indexing_sizes(void) {
  static const int64_t sizes[] = {1, 1023, 1025, 3000, 1100000};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int64_t n = sizes[k];
    cn_array h = make_input(CN_FLOAT32, 1, &n, 1, -1, 1), d = dev(h);
    cn_array hc = NULL, dc = NULL, rc = NULL, rg = NULL;
    cn_array half = NULL;
    OK(cn_from_scalar(&half, (cn_scalar){.kind = CN_SCALAR_FLOAT, .re = 0.7},
                      CN_FLOAT32));
    cn_array halfd = dev(half);
    OK(cn_greater(&hc, h, half, NULL));
    OK(cn_greater(&dc, d, halfd, NULL));
    char lb[96];
    snprintf(lb, sizeof lb, "flatnonzero n=%lld", (long long)n);
    BOTH(lb, cn_flatnonzero(&rc, hc), cn_flatnonzero(&rg, dc), rc, rg);
    rc = rg = NULL;
    snprintf(lb, sizeof lb, "mask_get n=%lld", (long long)n);
    BOTH(lb, cn_mask_get(&rc, h, hc), cn_mask_get(&rg, d, dc), rc, rg);
    rel4(h, d, hc, dc);
    rel4(half, halfd, NULL, NULL);
  }
}

/* put of a few values with duplicates into a huge array (written in index
 * order by one thread, without claims). */
static void indexing_huge_put(void) {
  int64_t n = 9000000, k = 5;
  cn_array h = NULL;
  OK(cn_zeros(&h, 1, &n, CN_FLOAT32, CN_ORDER_C));
  cn_array d = dev(h);
  static const int64_t iv[] = {5, 8999999, 5, -1, 0};
  cn_array ih = host_i64(k, iv), id = dev(ih);
  cn_array vh = make_input(CN_FLOAT32, 1, &k, 0, -9, 9), vd = dev(vh);
  BOTH("put huge target", cn_put(h, ih, vh, CN_INDEX_RAISE),
       cn_put(d, id, vd, CN_INDEX_RAISE), NULL, NULL);
  compare("put huge target", h, d, 0);
  rel4(h, d, ih, id);
  rel4(vh, vd, NULL, NULL);
}

static void indexing(void) {
  for (int i = 0; i < NDT; i++)
    indexing_dtype(k_all[i]);
  indexing_sizes();
  indexing_huge_put();
}

/* ---- matmul -------------------------------------------------------------- */

/* View kinds of a matmul operand: as made, .mT, last axis reversed, an
 * F-ordered copy, the first two (batch) axes swapped. */
enum { MM_C, MM_T, MM_FLIP, MM_F, MM_SWAPB };

static cn_array mm_view(cn_array x, int kind) {
  cn_array v = NULL;
  int32_t last = -1;
  switch (kind) {
  case MM_T:
    OK(cn_swapaxes(&v, x, -1, -2));
    break;
  case MM_FLIP:
    OK(cn_flip(&v, x, 1, &last));
    break;
  case MM_F:
    OK(cn_copy(&v, x, CN_ORDER_F));
    break;
  case MM_SWAPB:
    OK(cn_swapaxes(&v, x, 0, 1));
    break;
  default:
    cn_array_retain(x);
    v = x;
  }
  return v;
}

/* a (abatch..., m, k) @ b (batch..., k, n) on both backends, the operands
 * viewed as ka / kb (made in the shape that view needs); dst: 0 none, 1 a
 * transposed (column-major) device array, 2 a reversed one. */
static void mm_case(cn_dtype dt, int32_t nab, int32_t nbb, const int64_t *batch,
                    int64_t m, int64_t k, int64_t n, int ka, int kb, int dst) {
  int64_t sa[6], sb[6], sd[6];
  for (int32_t i = 0; i < nab; i++)
    sa[i] = batch[i];
  for (int32_t i = 0; i < nbb; i++)
    sb[i] = sd[i] = batch[i];
  if (ka == MM_SWAPB)
    sa[0] = batch[1], sa[1] = batch[0];
  sa[nab] = ka == MM_T ? k : m, sa[nab + 1] = ka == MM_T ? m : k;
  sb[nbb] = kb == MM_T ? n : k, sb[nbb + 1] = kb == MM_T ? k : n;
  sd[nbb] = dst == 1 ? n : m, sd[nbb + 1] = dst == 1 ? m : n;
  bool flt = cn_dtype_itemsize(dt) &&
             (((unsigned)dt >> 8) == 2 || ((unsigned)dt >> 8) == 5);
  double lo = flt ? -1 : -100, hi = flt ? 1 : 100;
  if (dt == CN_BOOL)
    lo = 0, hi = 1.6;
  cn_array ha = make_input(dt, nab + 2, sa, 0, lo, hi);
  cn_array hb = make_input(dt, nbb + 2, sb, 0, lo, hi);
  cn_array ca = mm_view(ha, ka), cb = mm_view(hb, kb);
  cn_array da = dev(ha), db = dev(hb);
  cn_array ga = mm_view(da, ka), gb = mm_view(db, kb);
  cn_array rc = NULL, rg = NULL, dd = NULL, dv = NULL;
  cn_status sc = cn_matmul(&rc, ca, cb, NULL), sg;
  if (dst) {
    cn_array hz = NULL;
    OK(cn_zeros(&hz, nbb + 2, sd, dt, CN_ORDER_C));
    dd = dev(hz);
    dv = mm_view(dd, dst == 1 ? MM_T : MM_FLIP);
    cn_array_release(hz);
  }
  sg = cn_matmul(&rg, ga, gb, dv);
  char label[160];
  snprintf(label, sizeof label,
           "matmul %s batch %d/%d (%lld) m %lld k %lld n %lld views %d/%d "
           "dst %d",
           cn_dtype_name(dt), (int)nab, (int)nbb,
           (long long)(nbb ? batch[0] : 0), (long long)m, (long long)k,
           (long long)n, ka, kb, dst);
  check_status(label, sc, sg, rc, rg, 16.0 * (double)k + 16.0);
  cn_array *all[] = {&ha, &hb, &ca, &cb, &da, &db, &ga, &gb, &dd, &dv};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    cn_array_release(*all[i]);
}

static void matmuls(void) {
  static const cn_dtype dts[] = {CN_FLOAT32,    CN_FLOAT64, CN_COMPLEX64,
                                 CN_COMPLEX128, CN_INT32,   CN_INT8,
                                 CN_UINT64,     CN_BOOL};
  const int64_t b3[2] = {3, 2}, b23[2] = {2, 3};
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    cn_dtype dt = dts[d];
    for (int ka = MM_C; ka <= MM_F; ka++)
      for (int kb = MM_C; kb <= MM_F; kb++)
        mm_case(dt, 1, 1, b3, 17, 33, 9, ka, kb, 0);
    mm_case(dt, 0, 0, b3, 64, 64, 64, MM_C, MM_C, 0);
    mm_case(dt, 0, 0, b3, 40, 70, 30, MM_F, MM_F, 0);
    mm_case(dt, 0, 1, b3, 5, 7, 6, MM_C, MM_C, 0);      /* a broadcast */
    mm_case(dt, 0, 1, b3, 5, 7, 6, MM_FLIP, MM_T, 0);   /* ... and packed */
    mm_case(dt, 2, 2, b23, 4, 6, 5, MM_SWAPB, MM_C, 0); /* uneven batch */
    mm_case(dt, 1, 1, b3, 6, 5, 4, MM_C, MM_C, 1);      /* F-order out */
    mm_case(dt, 1, 1, b3, 6, 5, 4, MM_T, MM_C, 2);      /* reversed out */
    mm_case(dt, 1, 1, b3, 4, 0, 3, MM_C, MM_C, 0);      /* k = 0 */
    mm_case(dt, 1, 1, b3, 0, 4, 3, MM_C, MM_C, 0);      /* m = 0 */
    mm_case(dt, 0, 0, b3, 1, 1, 1, MM_C, MM_C, 0);
    mm_case(dt, 0, 0, b3, 1, 9, 1, MM_T, MM_T, 0);
  }
  mm_case(CN_FLOAT32, 0, 0, b3, 300, 260, 280, MM_C, MM_T, 0);
  mm_case(CN_INT64, 1, 1, b3, 70, 90, 50, MM_T, MM_C, 0);
  /* Vectors (1-d operands), the conjugated vdot, and a k mismatch. */
  for (int c = 0; c < 2; c++) {
    cn_dtype dt = c ? CN_COMPLEX128 : CN_COMPLEX64;
    int64_t nv = 50, sm[2] = {50, 7};
    cn_array hv = make_input(dt, 1, &nv, 0, -1, 1);
    cn_array hw = make_input(dt, 1, &nv, 0, -1, 1);
    cn_array hm = make_input(dt, 2, sm, 0, -1, 1);
    cn_array dv = dev(hv), dw = dev(hw), dm = dev(hm);
    cn_array rc = NULL, rg = NULL;
    cn_status sc = cn_vdot(&rc, hv, hw), sg = cn_vdot(&rg, dv, dw);
    check_status("vdot (conj)", sc, sg, rc, rg, 200);
    sc = cn_matmul(&rc, hv, hm, NULL), sg = cn_matmul(&rg, dv, dm, NULL);
    check_status("matmul vector @ matrix", sc, sg, rc, rg, 200);
    sc = cn_matmul(&rc, hm, hv, NULL), sg = cn_matmul(&rg, dm, dv, NULL);
    check_status("matmul k mismatch", sc, sg, rc, rg, 200);
    cn_array *all[] = {&hv, &hw, &hm, &dv, &dw, &dm};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
      cn_array_release(*all[i]);
  }
}

/* ---- streams and devices -------------------------------------------------
 * The protocols' stream numbers, a consumer stream waiting for a producer
 * stream, and arrays on device 1 (when there is one) against the CPU. */

static void expect(const char *label, bool cond) {
  g_cases++;
  if (!cond) {
    printf("FAIL %s (%s)\n", label, cn_last_error());
    g_fail++;
  }
}

static cn_array on_device(cn_array h, int32_t device) {
  cn_array d = NULL;
  OK(cn_to_device(&d, h, device));
  return d;
}

static void streams(void) {
  if (g_selftest)
    return;
  const char *a = getenv("CUNUMPY_CUDA_PER_THREAD_DEFAULT_STREAM");
  const char *b = getenv("CUPY_CUDA_PER_THREAD_DEFAULT_STREAM");
  const char *sw = a != NULL && a[0] ? a : b;
  int64_t want = sw != NULL && sw[0] && strcmp(sw, "0") ? 2 : 1, num = 0;
  OK(cn_cuda_current_stream_number(&num));
  expect("the default stream's number", num == want);
  cn_stream prod = NULL, cons = NULL;
  void *np_ = NULL, *nc = NULL;
  OK(cn_stream_create(&prod, 1));
  OK(cn_stream_create(&cons, 1));
  OK(cn_stream_native(&np_, prod));
  OK(cn_stream_native(&nc, cons));
  OK(cn_stream_set_current(prod));
  OK(cn_cuda_current_stream_number(&num));
  expect("a created stream's number is its handle",
         num == (int64_t)(uintptr_t)np_);
  int64_t shape[] = {1 << 22};
  cn_array h = make_input(CN_FLOAT64, 1, shape, 0, 0.0, 4.0);
  cn_array x = on_device(h, 0), y0 = NULL, y = NULL, z = NULL, yc0 = NULL,
           yc = NULL, zc = NULL;
  OK(cn_multiply(&y0, x, x, NULL)); /* enqueued on prod */
  OK(cn_sqrt(&y, y0, NULL));
  OK(cn_cuda_stream_wait_for_current((int64_t)(uintptr_t)nc));
  OK(cn_stream_set_current(cons));
  OK(cn_add(&z, y, y, NULL)); /* on cons, after prod's work */
  OK(cn_stream_synchronize(cons));
  OK(cn_stream_set_current(NULL));
  OK(cn_multiply(&yc0, h, h, NULL));
  OK(cn_sqrt(&yc, yc0, NULL));
  OK(cn_add(&zc, yc, yc, NULL));
  compare("a consumer stream waits for the producer", zc, z, 4);
  expect("wait_for_current(-1)", cn_cuda_stream_wait_for_current(-1) == CN_OK);
  expect("wait_for_current(1)", cn_cuda_stream_wait_for_current(1) == CN_OK);
  expect("wait_for_current(2)", cn_cuda_stream_wait_for_current(2) == CN_OK);
  expect("wait_for_current(0) is CN_ERR_VALUE",
         cn_cuda_stream_wait_for_current(0) == CN_ERR_VALUE);
  expect("wait_for_current(-2) is CN_ERR_VALUE",
         cn_cuda_stream_wait_for_current(-2) == CN_ERR_VALUE);
  cn_array to_free[] = {x, y0, y, z, yc0, yc, zc};
  for (size_t i = 0; i < sizeof to_free / sizeof *to_free; i++)
    cn_array_release(to_free[i]);
  OK(cn_stream_destroy(prod));
  OK(cn_stream_destroy(cons));

  if (cn_device_count() < 2) {
    printf("gpu_check: device-1 checks skipped (one CUDA device)\n");
    cn_array_release(h);
    return;
  }
  OK(cn_cuda_set_device(0)); /* the arrays' device, not this, must count */
  cn_array d1 = on_device(h, 1), d0 = on_device(h, 0), p1 = NULL, r1 = NULL,
           r0 = NULL, pc = NULL, rc = NULL, back = NULL;
  OK(cn_multiply(&p1, d1, d1, NULL));
  OK(cn_sqrt(&r1, p1, NULL));
  int32_t dt = 0, id = -1;
  OK(cn_array_device(&dt, &id, r1));
  expect("a result of device-1 arrays is on device 1", id == 1);
  OK(cn_multiply(&pc, h, h, NULL));
  OK(cn_sqrt(&rc, pc, NULL));
  compare("elementwise on device 1", rc, r1, 4);
  expect("mixed devices are CN_ERR_DEVICE",
         cn_add(&r0, d0, d1, NULL) == CN_ERR_DEVICE && r0 == NULL);
  OK(cn_to_device(&back, r1, 0));
  OK(cn_array_device(&dt, &id, back));
  expect("to_device(1 -> 0) lands on device 0", id == 0);
  compare("to_device(1 -> 0) keeps the values", rc, back, 0);
  cn_array more[] = {h, d1, d0, p1, r1, pc, rc, back};
  for (size_t i = 0; i < sizeof more / sizeof *more; i++)
    cn_array_release(more[i]);
}

/* ---- searching, partition and quantiles ---------------------------------
 * searchsorted (both sides, sorter=, a strided needle array, mixed dtypes),
 * partition / argpartition (a full sort on the GPU: equal to the CPU's
 * sort / argsort, kth errors alike), and median / percentile / quantile
 * of every method, nan-variants, over an axis or all. */
static void search(void) {
  char label[160];
  for (int d = 0; d < NDT; d++) {
    cn_dtype dt = k_all[d];
    int64_t na = 3000, vs[2] = {40, 25};
    cn_array h = make_input(dt, 1, &na, 1, -6.0, 6.0), g = dev(h);
    cn_array hs = NULL, gs = NULL, hp = NULL, gp = NULL;
    OK(cn_sort(&hs, h, 0));
    OK(cn_sort(&gs, g, 0));
    OK(cn_argsort(&hp, h, 0));
    OK(cn_argsort(&gp, g, 0));
    cn_array vh = make_input(dt, 2, vs, 1, -7.0, 7.0), vg = dev(vh);
    cn_array vht = NULL, vgt = NULL;
    OK(cn_transpose(&vht, vh));
    OK(cn_transpose(&vgt, vg));
    for (int side = 0; side < 2; side++) {
      cn_array rc = NULL, rg = NULL;
      snprintf(label, sizeof label, "searchsorted %s side %d",
               cn_dtype_name(dt), side);
      cn_status sc = cn_searchsorted(&rc, hs, vht, side, NULL);
      cn_status sg = cn_searchsorted(&rg, gs, vgt, side, NULL);
      check_status(label, sc, sg, rc, rg, 0);
      snprintf(label, sizeof label, "searchsorted %s side %d sorter",
               cn_dtype_name(dt), side);
      sc = cn_searchsorted(&rc, h, vh, side, hp);
      sg = cn_searchsorted(&rg, g, vg, side, gp);
      check_status(label, sc, sg, rc, rg, 0);
      snprintf(label, sizeof label, "searchsorted %s in float64 side %d",
               cn_dtype_name(dt), side);
      cn_array fh = NULL, fg = NULL;
      OK(cn_astype(&fh, vh, CN_FLOAT64, 1));
      OK(cn_astype(&fg, vg, CN_FLOAT64, 1));
      sc = cn_searchsorted(&rc, hs, fh, side, NULL);
      sg = cn_searchsorted(&rg, gs, fg, side, NULL);
      check_status(label, sc, sg, rc, rg, 0);
      cn_array_release(fh);
      cn_array_release(fg);
    }
    int64_t kth[3] = {0, 17, -1}, bad = 3000;
    for (int arg = 0; arg < 2; arg++) {
      cn_array rc = NULL, rg = NULL;
      snprintf(label, sizeof label, "%spartition %s", arg ? "arg" : "",
               cn_dtype_name(dt));
      /* the self-test's "GPU" is the CPU: its partition is introselect */
      cn_status sc = g_selftest ? (arg ? cn_argpartition(&rc, vh, 3, kth, 0)
                                       : cn_partition(&rc, vh, 3, kth, 0))
                     : arg ? cn_argsort(&rc, vh, 0)
                           : cn_sort(&rc, vh, 0);
      cn_status sg = arg ? cn_argpartition(&rg, vg, 3, kth, 0)
                         : cn_partition(&rg, vg, 3, kth, 0);
      check_status(label, sc, sg, rc, rg, 0);
      snprintf(label, sizeof label, "%spartition %s kth out of range",
               arg ? "arg" : "", cn_dtype_name(dt));
      sc = cn_partition(&rc, h, 1, &bad, 0);
      sg = arg ? cn_argpartition(&rg, g, 1, &bad, 0)
               : cn_partition(&rg, g, 1, &bad, 0);
      check_status(label, sc, sg, rc, rg, 0);
    }
    cn_array_release(vht);
    cn_array_release(vgt);
    cn_array_release(vh);
    cn_array_release(vg);
    cn_array_release(hs);
    cn_array_release(gs);
    cn_array_release(hp);
    cn_array_release(gp);
    cn_array_release(h);
    cn_array_release(g);
  }
  static const double qs[] = {0.0, 0.1, 0.25, 0.5, 0.9, 1.0};
  static const double ps[] = {0.0, 10.0, 25.0, 50.0, 90.0, 100.0};
  int64_t nq = 6, shape[2] = {33, 64};
  cn_array qh = NULL, ph = NULL;
  OK(cn_from_host(&qh, qs, 0, sizeof qs, 1, &nq, NULL, CN_FLOAT64));
  OK(cn_from_host(&ph, ps, 0, sizeof ps, 1, &nq, NULL, CN_FLOAT64));
  cn_array qg = dev(qh), pg = dev(ph);
  for (int di = 0; di < 2; di++) {
    cn_dtype dt = di ? CN_FLOAT64 : CN_FLOAT32;
    for (int nan = 0; nan < 2; nan++) {
      cn_array h = make_input(dt, 2, shape, nan, -5.0, 5.0), g = dev(h);
      for (int32_t axis = -1; axis <= 1; axis++) {
        int32_t na = axis < 0 ? 0 : 1;
        for (int skip = 0; skip < 2; skip++) {
          cn_array rc = NULL, rg = NULL;
          snprintf(label, sizeof label, "%smedian %s nan %d axis %d",
                   skip ? "nan" : "", cn_dtype_name(dt), nan, (int)axis);
          int32_t kd = axis >= 0;
          cn_status sc = skip ? cn_nanmedian(&rc, h, na, &axis, kd)
                              : cn_median(&rc, h, na, &axis, kd);
          cn_status sg = skip ? cn_nanmedian(&rg, g, na, &axis, kd)
                              : cn_median(&rg, g, na, &axis, kd);
          check_status(label, sc, sg, rc, rg, 4);
          for (int32_t m = CN_QUANTILE_LINEAR; m <= CN_QUANTILE_NORMAL_UNBIASED;
               m++) {
            snprintf(label, sizeof label, "%squantile %s nan %d axis %d m %d",
                     skip ? "nan" : "", cn_dtype_name(dt), nan, (int)axis,
                     (int)m);
            sc = skip ? cn_nanquantile(&rc, h, qh, na, &axis, m, 0)
                      : cn_quantile(&rc, h, qh, na, &axis, m, 0);
            sg = skip ? cn_nanquantile(&rg, g, qg, na, &axis, m, 0)
                      : cn_quantile(&rg, g, qg, na, &axis, m, 0);
            check_status(label, sc, sg, rc, rg, 4);
          }
        }
      }
      cn_array rc = NULL, rg = NULL;
      snprintf(label, sizeof label, "percentile %s nan %d", cn_dtype_name(dt),
               nan);
      cn_status sc = cn_percentile(&rc, h, ph, 0, NULL, 0, 0);
      cn_status sg = cn_percentile(&rg, g, pg, 0, NULL, 0, 0);
      check_status(label, sc, sg, rc, rg, 4);
      snprintf(label, sizeof label, "percentile %s out of range",
               cn_dtype_name(dt));
      sc = cn_percentile(&rc, h, qh, 0, NULL, 99, 0);
      sg = cn_percentile(&rg, g, qg, 0, NULL, 99, 0);
      check_status(label, sc, sg, rc, rg, 0);
      cn_array_release(h);
      cn_array_release(g);
    }
  }
  cn_array_release(qh);
  cn_array_release(qg);
  cn_array_release(ph);
  cn_array_release(pg);
}

/* ---- sparse matrices ----------------------------------------------------- */

/* s on the device (a deep host copy in the self-test). */
static cn_sparse sp_dev(cn_sparse h) {
  cn_sparse d = NULL;
  if (g_selftest)
    OK(cn_sparse_copy(&d, h));
  else
    OK(cn_sparse_to_device(&d, h, 0));
  return d;
}

/* Every component and the dense form of a device matrix equal the CPU's:
 * index arrays exactly (sorted order and stable duplicates included). */
static void sp_compare(const char *label, cn_sparse cpu, cn_sparse gpu_any,
                       double ulps) {
  cn_sparse gpu = NULL;
  OK(cn_sparse_to_host(&gpu, gpu_any));
  int32_t fc = -1, fg = -1;
  OK(cn_sparse_get_format(&fc, cpu));
  OK(cn_sparse_get_format(&fg, gpu));
  g_cases++;
  if (fc != fg) {
    printf("FAIL %s: format %d (gpu) vs %d (cpu)\n", label, fg, fc);
    g_fail++;
  } else {
    char lab[160];
    cn_array a = NULL, b = NULL;
    cn_status (*get[3])(cn_array *, cn_sparse) = {
        cn_sparse_data, fc == CN_SPARSE_COO ? cn_sparse_row : cn_sparse_indptr,
        fc == CN_SPARSE_COO ? cn_sparse_col : cn_sparse_indices};
    const char *what[3] = {"data", "indptr/row", "indices/col"};
    for (int i = 0; i < 3; i++) {
      OK(get[i](&a, cpu));
      OK(get[i](&b, gpu));
      cn_dtype dt = CN_FLOAT64;
      OK(cn_array_dtype(&dt, a));
      if (dt == CN_FLOAT16) { /* compare reads float16 as float32 */
        cn_array a32 = NULL, b32 = NULL;
        OK(cn_astype(&a32, a, CN_FLOAT32, 1));
        OK(cn_astype(&b32, b, CN_FLOAT32, 1));
        cn_array_release(a), cn_array_release(b);
        a = a32, b = b32;
      }
      snprintf(lab, sizeof lab, "%s: %s", label, what[i]);
      compare(lab, a, b, i == 0 ? ulps : 0);
      cn_array_release(a);
      cn_array_release(b);
    }
  }
  cn_sparse_release(gpu);
}

/* Random triplets (duplicates, unsorted, explicit zeros) as a CSR matrix
 * over arrays in triplet order (rows unsorted) of value dtype dt. */
static cn_sparse sp_random(int64_t m, int64_t n, int64_t nnz, cn_dtype dt,
                           cn_dtype it) {
  int64_t *r = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
  int64_t *ptr = calloc((size_t)m + 1, sizeof(int64_t));
  int64_t *ix = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
  double *v = malloc(sizeof(double) * (size_t)(nnz + 1));
  for (int64_t k = 0; k < nnz; k++) {
    r[k] = (int64_t)(rnd() * (double)m);
    ptr[r[k] + 1]++;
  }
  for (int64_t i = 0; i < m; i++)
    ptr[i + 1] += ptr[i];
  int64_t *pos = malloc(sizeof(int64_t) * (size_t)(m + 1));
  memcpy(pos, ptr, sizeof(int64_t) * (size_t)(m + 1));
  for (int64_t k = 0; k < nnz; k++) {
    int64_t d = pos[r[k]]++;
    ix[d] = (int64_t)(rnd() * (double)n);
    v[d] = k % 9 == 4 ? 0.0 : (double)(int)(rnd() * 19) - 9;
  }
  cn_array hv = NULL, hi = NULL, hp = NULL, cv = NULL, ci = NULL, cp = NULL;
  int64_t len = nnz, lp = m + 1;
  OK(cn_from_host(&hv, v, 0, 8 * (nnz + 1), 1, &len, NULL, CN_FLOAT64));
  OK(cn_from_host(&hi, ix, 0, 8 * (nnz + 1), 1, &len, NULL, CN_INT64));
  OK(cn_from_host(&hp, ptr, 0, 8 * (m + 1), 1, &lp, NULL, CN_INT64));
  OK(cn_astype(&cv, hv, dt, 1));
  OK(cn_astype(&ci, hi, it, 1));
  OK(cn_astype(&cp, hp, it, 1));
  cn_sparse s = NULL;
  OK(cn_sparse_compressed(&s, CN_SPARSE_CSR, m, n, cv, ci, cp, 0));
  cn_array_release(hv), cn_array_release(hi), cn_array_release(hp);
  cn_array_release(cv), cn_array_release(ci), cn_array_release(cp);
  free(r), free(ptr), free(ix), free(v), free(pos);
  return s;
}

static void sparse_products(cn_dtype dt, cn_dtype it, int64_t m, int64_t n,
                            int64_t nnz) {
  char lab[160];
  const char *tag = cn_dtype_name(dt), *itag = cn_dtype_name(it);
  cn_sparse h = sp_random(m, n, nnz, dt, it), g = sp_dev(h);
  /* SpMV: contiguous and strided x; SpMM: C order, F order, transposed */
  int64_t sv[1] = {2 * n}, sm[2] = {n, 5}, smt[2] = {5, n};
  cn_array xv = make_input(dt, 1, sv, 0, -2, 2), xm = make_input(dt, 2, sm, 0, -2, 2),
           xt = make_input(dt, 2, smt, 0, -2, 2);
  cn_array xs = NULL, x1 = NULL, xf = NULL, xtt = NULL;
  OK(cn_slice_axis(&xs, xv, 0, 0, 2 * n, 2));
  OK(cn_slice_axis(&x1, xv, 0, 0, n, 1));
  OK(cn_copy(&xf, xm, CN_ORDER_F));
  OK(cn_transpose(&xtt, xt));
  cn_array xs_in[4] = {x1, xs, xm, xf};
  const char *xs_name[4] = {"spmv", "spmv strided", "spmm", "spmm F-order"};
  double ulps = 8.0 * (double)(nnz / (m > 0 ? m : 1) + 4);
  for (int i = 0; i < 5; i++) {
    cn_array x = i < 4 ? xs_in[i] : xtt, xd = dev(x), rc = NULL, rg = NULL;
    snprintf(lab, sizeof lab, "sparse %s %s/%s %lldx%lld", i < 4 ? xs_name[i]
             : "spmm transposed", tag, itag, (long long)m, (long long)n);
    OK(cn_sparse_matmul_dense(&rc, h, x));
    OK(cn_sparse_matmul_dense(&rg, g, xd));
    compare(lab, rc, rg, ulps);
    cn_array_release(rc), cn_array_release(rg), cn_array_release(xd);
  }
  /* dense @ sparse (through the CSC arrays: csr2csc on the device) */
  {
    int64_t sh[2] = {3, m};
    cn_array x = make_input(dt, 2, sh, 0, -2, 2), xd = dev(x), rc = NULL, rg = NULL;
    OK(cn_dense_matmul_sparse(&rc, x, h));
    OK(cn_dense_matmul_sparse(&rg, xd, g));
    snprintf(lab, sizeof lab, "sparse dense@sparse %s/%s", tag, itag);
    compare(lab, rc, rg, ulps);
    cn_array_release(x), cn_array_release(xd), cn_array_release(rc),
        cn_array_release(rg);
  }
  /* CSR -> CSC and sort_indices: exact structure */
  cn_sparse cc = NULL, cg = NULL, sc = NULL, sg = NULL;
  OK(cn_sparse_asformat(&cc, h, CN_SPARSE_CSC));
  OK(cn_sparse_asformat(&cg, g, CN_SPARSE_CSC));
  snprintf(lab, sizeof lab, "sparse tocsc %s/%s", tag, itag);
  sp_compare(lab, cc, cg, 0);
  OK(cn_sparse_sort_indices(&sc, h));
  OK(cn_sparse_sort_indices(&sg, g));
  snprintf(lab, sizeof lab, "sparse sort_indices %s/%s", tag, itag);
  sp_compare(lab, sc, sg, 0);
  /* SpGEMM: a @ a^T (CSC of a^T is a's CSR), unsorted with duplicates */
  cn_sparse t = NULL, tg = NULL, pc = NULL, pg = NULL;
  OK(cn_sparse_transpose(&t, h));
  OK(cn_sparse_transpose(&tg, g));
  OK(cn_sparse_matmul(&pc, h, t));
  OK(cn_sparse_matmul(&pg, g, tg));
  snprintf(lab, sizeof lab, "sparse spgemm %s/%s", tag, itag);
  sp_compare(lab, pc, pg, ulps);
  cn_sparse_release(cc), cn_sparse_release(cg), cn_sparse_release(sc),
      cn_sparse_release(sg), cn_sparse_release(t), cn_sparse_release(tg),
      cn_sparse_release(pc), cn_sparse_release(pg);
  cn_array_release(xv), cn_array_release(xm), cn_array_release(xt),
      cn_array_release(xs), cn_array_release(x1), cn_array_release(xf),
      cn_array_release(xtt);
  cn_sparse_release(h), cn_sparse_release(g);
}

static void sparse(void) {
  static const cn_dtype prod[] = {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64,
                                  CN_COMPLEX128};
  static const int64_t dims[][3] = {
      {40, 30, 200}, {1, 7, 5}, {25, 1, 30}, {12, 9, 0}, {300, 280, 4000}};
  for (size_t d = 0; d < sizeof prod / sizeof prod[0]; d++)
    for (int w = 0; w < 2; w++)
      for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++)
        sparse_products(prod[d], w ? CN_INT64 : CN_INT32, dims[k][0],
                        dims[k][1], dims[k][2]);
  /* csr2csc moves every dtype (1- and 2-byte ones through a widened copy) */
  cn_dtype moved[NDT + 1];
  memcpy(moved, k_all, sizeof k_all);
  moved[NDT] = CN_FLOAT16;
  for (size_t i = 0; i < NDT + 1; i++) {
    cn_sparse h = sp_random(33, 21, 150, moved[i], CN_INT32), g = sp_dev(h);
    cn_sparse cc = NULL, cg = NULL;
    OK(cn_sparse_asformat(&cc, h, CN_SPARSE_CSC));
    OK(cn_sparse_asformat(&cg, g, CN_SPARSE_CSC));
    char lab[96];
    snprintf(lab, sizeof lab, "sparse tocsc %s", cn_dtype_name(moved[i]));
    sp_compare(lab, cc, cg, 0);
    cn_sparse_release(cc), cn_sparse_release(cg);
    /* products of bool and the integers (which cuSPARSE lacks) run the
     * generated kernel and equal the CPU's exactly (wrapping included);
     * float16 is refused clearly */
    cn_dtype ct = moved[i];
    bool has = ct == CN_FLOAT32 || ct == CN_FLOAT64 || ct == CN_COMPLEX64 ||
               ct == CN_COMPLEX128;
    if (!has && ct != CN_FLOAT16) {
      int64_t sv[1] = {21}, sm[2] = {21, 3};
      cn_array xv = make_input(ct, 1, sv, 0, -2, 2),
               xm = make_input(ct, 2, sm, 0, -2, 2), xmt = NULL;
      OK(cn_copy(&xmt, xm, CN_ORDER_F));
      cn_array xin[3] = {xv, xm, xmt};
      for (int q = 0; q < 3; q++) {
        cn_array xd = dev(xin[q]), rc = NULL, rg = NULL;
        OK(cn_sparse_matmul_dense(&rc, h, xin[q]));
        OK(cn_sparse_matmul_dense(&rg, g, xd));
        snprintf(lab, sizeof lab, "sparse %s kernel %s",
                 q == 0 ? "spmv" : q == 1 ? "spmm" : "spmm F-order",
                 cn_dtype_name(ct));
        compare(lab, rc, rg, 0);
        cn_array_release(xd), cn_array_release(rc), cn_array_release(rg);
      }
      cn_array_release(xv), cn_array_release(xm), cn_array_release(xmt);
    } else if (!g_selftest && !has) {
      int64_t sh[1] = {21};
      cn_array x = make_input(ct, 1, sh, 0, -2, 2), xd = dev(x), r = NULL;
      cn_status st = cn_sparse_matmul_dense(&r, g, xd);
      g_cases++;
      if (st != CN_ERR_UNSUPPORTED || strstr(cn_last_error(), "cuSPARSE") ==
                                          NULL) {
        printf("FAIL sparse spmv %s: %s (%s), expected CN_ERR_UNSUPPORTED\n",
               cn_dtype_name(ct), cn_status_name(st), cn_last_error());
        g_fail++;
      }
      cn_array_release(x), cn_array_release(xd), cn_array_release(r);
    }
    cn_sparse_release(h), cn_sparse_release(g);
  }
  /* DIA on the device: products and tocsr go through CSR made on the host
   * (no CUDA kernel reads DIA); they must equal the CPU's DIA kernel */
  for (size_t d = 0; d < sizeof prod / sizeof prod[0]; d++) {
    cn_sparse r = sp_random(57, 43, 300, prod[d], CN_INT32), h = NULL;
    OK(cn_sparse_asformat(&h, r, CN_SPARSE_DIA));
    cn_sparse g = sp_dev(h);
    const char *tag = cn_dtype_name(prod[d]);
    char lab[96];
    int64_t sv[1] = {43}, sm[2] = {43, 4}, sl[2] = {3, 57};
    cn_array xs[3] = {make_input(prod[d], 1, sv, 0, -2, 2),
                      make_input(prod[d], 2, sm, 0, -2, 2),
                      make_input(prod[d], 2, sl, 0, -2, 2)};
    for (int i = 0; i < 3; i++) {
      cn_array xd = dev(xs[i]), rc = NULL, rg = NULL;
      if (i < 2) {
        OK(cn_sparse_matmul_dense(&rc, h, xs[i]));
        OK(cn_sparse_matmul_dense(&rg, g, xd));
      } else {
        OK(cn_dense_matmul_sparse(&rc, xs[i], h));
        OK(cn_dense_matmul_sparse(&rg, xd, g));
      }
      snprintf(lab, sizeof lab, "sparse dia %s %s", i == 0 ? "spmv"
               : i == 1 ? "spmm" : "dense@dia", tag);
      compare(lab, rc, rg, 64.0);
      cn_array_release(xd), cn_array_release(rc), cn_array_release(rg);
      cn_array_release(xs[i]);
    }
    cn_sparse cc = NULL, cg = NULL;
    OK(cn_sparse_asformat(&cc, h, CN_SPARSE_CSR));
    OK(cn_sparse_asformat(&cg, g, CN_SPARSE_CSR));
    snprintf(lab, sizeof lab, "sparse dia tocsr %s", tag);
    sp_compare(lab, cc, cg, 0);
    cn_sparse_release(cc), cn_sparse_release(cg);
    cn_sparse_release(r), cn_sparse_release(h), cn_sparse_release(g);
  }
  /* host-only steps refuse a device matrix */
  if (!g_selftest) {
    cn_sparse h = sp_random(5, 5, 9, CN_FLOAT64, CN_INT32), g = sp_dev(h);
    cn_array d = NULL;
    g_cases++;
    if (cn_sparse_toarray(&d, g) != CN_ERR_DEVICE) {
      printf("FAIL sparse toarray on the device: %s\n", cn_last_error());
      g_fail++;
    }
    cn_array_release(d);
    cn_sparse_release(h), cn_sparse_release(g);
  }
}

int main(int argc, char **argv) {
  const char *self = getenv("GPU_CHECK_SELFTEST");
  g_selftest = self != NULL && self[0] == '1';
  if (!g_selftest && cn_device_count() <= 0) {
    printf("gpu_check: no CUDA device: %s\n", cn_backend_unavailable_reason());
    return 1;
  }
  OK(cn_set_backend("cpu"));
  char only[64];
  snprintf(only, sizeof only, "%s", argc > 1 ? argv[1] : "all");
  char *share = strchr(only, ':');
  if (share) {
    *share = '\0';
    if (sscanf(share + 1, "%d/%d", &g_share, &g_nshares) != 2 ||
        g_nshares < 1 || g_share < 0 || g_share >= g_nshares) {
      printf("gpu_check: bad share '%s' (want <part>:<i>/<n>, 0 <= i < n)\n",
             share + 1);
      return 2;
    }
  }
  if (!strcmp(only, "all") || !strcmp(only, "elementwise"))
    elementwise();
  if (!strcmp(only, "all") || !strcmp(only, "casts"))
    casts();
  if (!strcmp(only, "all") || !strcmp(only, "reductions"))
    reductions();
  if (!strcmp(only, "all") || !strcmp(only, "random"))
    random_fills();
  if (!strcmp(only, "all") || !strcmp(only, "indexing"))
    indexing();
  if (!strcmp(only, "all") || !strcmp(only, "lapack"))
    lapack();
  if (!strcmp(only, "all") || !strcmp(only, "matmul"))
    matmuls();
  if (!strcmp(only, "all") || !strcmp(only, "sorting"))
    sorting();
  if (!strcmp(only, "all") || !strcmp(only, "fft"))
    ffts();
  if (!strcmp(only, "all") || !strcmp(only, "streams"))
    streams();
  if (!strcmp(only, "all") || !strcmp(only, "search"))
    search();
  if (!strcmp(only, "all") || !strcmp(only, "sparse"))
    sparse();
  if (!strcmp(only, "limit"))
    limit(argc > 2 ? argv[2] : "0");
  int64_t compiled = 0, hits = 0, mem = 0;
  if (!g_selftest)
    OK(cn_cuda_kernel_cache_info(&compiled, &hits, &mem));
  printf("gpu_check: %d cases, %d failures (kernels: %lld compiled, %lld "
         "from the disk cache, %lld in memory)\n",
         g_cases, g_fail, (long long)compiled, (long long)hits, (long long)mem);
  return g_fail ? 1 : 0;
}
