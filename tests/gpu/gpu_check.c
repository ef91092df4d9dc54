/* GPU correctness check, run by tests/gpu/run.sh on a machine with a GPU:
 * every op of core/ops.def for every dtype, casts, fills, where, and every
 * reduction, and the FFTs (fft, ifft, rfft, irfft, hfft, ihfft and the 2-d
 * and n-d forms over strided, reversed and transposed views, every norm, n
 * padding and cropping), computed on the CUDA backend and on the CPU
 * backend from the same inputs (contiguous, strided with negative steps,
 * broadcast), must
 * agree: integers and bools exactly, floats to a few ulps (the GPU's libm
 * and the CPU's SLEEF differ by an ulp or two), NaN and inf in the same
 * places. Prints one line per failing case and a summary; exit 1 on any
 * failure. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cunumpy/cunumpy.h>

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
  double eps =
      (isz == 4 || dc == CN_COMPLEX64) ? 1.1920929e-07 : 2.220446049250313e-16;
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    bool same;
    if (code == 2 || code == 5) {
      int parts = code == 5 ? 2 : 1;
      int64_t psz = isz / parts;
      double x[2] = {0, 0}, y[2] = {0, 0};
      for (int p = 0; p < parts; p++) {
        const char *pa = a + i * isz + p * psz, *pb = b + i * isz + p * psz;
        if (psz == 4) {
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

static void elementwise(void) {
  for (size_t o = 0; o < sizeof k_ops / sizeof k_ops[0]; o++) {
    const op_entry *op = &k_ops[o];
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

int main(int argc, char **argv) {
  const char *self = getenv("GPU_CHECK_SELFTEST");
  g_selftest = self != NULL && self[0] == '1';
  if (!g_selftest && cn_device_count() <= 0) {
    printf("gpu_check: no CUDA device: %s\n", cn_backend_unavailable_reason());
    return 1;
  }
  OK(cn_set_backend("cpu"));
  const char *only = argc > 1 ? argv[1] : "all";
  if (!strcmp(only, "all") || !strcmp(only, "elementwise"))
    elementwise();
  if (!strcmp(only, "all") || !strcmp(only, "casts"))
    casts();
  if (!strcmp(only, "all") || !strcmp(only, "reductions"))
    reductions();
  if (!strcmp(only, "all") || !strcmp(only, "fft"))
    ffts();
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
