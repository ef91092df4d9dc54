// Host emulation of the CUDA device code: the prelude (core/cuda/prelude/,
// assembled by the build into prelude.cuh) and the lapack helpers
// (core/cuda/lapack.cuh: slogdet's reduction of the LU diagonal is checked
// against the CPU backend's slogdet) compiled by nvcc as
// __host__ __device__ code and run on the CPU (no GPU needed), its
// k_* functions, casts and reduction accumulators compared with the CPU
// backend (the oracle of tests/gpu/gpu_check.c) on special values: inf, NaN,
// signed zeros, overflow, large offsets. The criteria are gpu_check's.
// The indexing part (prelude/index.cuh): index folding against the CPU's
// cn_take, and the stream compaction run block by block on the host (its
// tile counts, Hillis-Steele steps, scan levels from index_plan.c and
// scatter) against a naive loop over strided inputs.
// The integer matmul's accumulation is checked the same way.
// The special functions (core/special_scalar.h through prelude/special.cuh)
// against the CPU's cn_special_* on special and ordinary values.
// What this cannot see: the GPU's own libm (sin, exp, ... run on the host
// here) and the kernels' launch geometry; tests/gpu/run.sh covers those.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cunumpy/cunumpy.h>

#include "host_device.h"
#include "prelude.cuh"
#include "lapack.cuh"

#include "index_plan.h"

static int g_fail, g_cases;

#define OK(e)                                                                  \
  do {                                                                         \
    cn_status st_ = (e);                                                       \
    if (st_ != CN_OK) {                                                        \
      printf("%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #e,                  \
             cn_status_name(st_), cn_last_error());                            \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

// gpu_check.c's criterion; complex errors relative to |z|.
static bool close_enough(double g, double c, double rtol, double mag) {
  if (std::isnan(c) || std::isnan(g))
    return std::isnan(c) && std::isnan(g);
  if (std::isinf(c) || std::isinf(g))
    return g == c;
  return fabs(g - c) <= rtol * (1.0 + mag);
}
template <class R> static bool same_cx(cn_cx<R> g, cn_cx<R> c, double rtol) {
  double mag = std::isfinite((double)c.re) && std::isfinite((double)c.im)
                   ? hypot((double)c.re, (double)c.im)
                   : 0;
  return close_enough(g.re, c.re, rtol,
                      std::isfinite(mag) && mag ? mag : fabs((double)c.re)) &&
         close_enough(g.im, c.im, rtol,
                      std::isfinite(mag) && mag ? mag : fabs((double)c.im));
}

static const double k_vals[] = {
    0.0,   -0.0,  1.0,  -1.0, 0.5,    -2.5, 3.0,      1e-5,      50.0, -50.0,
    100.0, 400.0, 800., -800, 1e-310, 2e30, INFINITY, -INFINITY, NAN};
static const int k_nv = sizeof k_vals / sizeof k_vals[0];

template <class C> CN_DEV C k_mul_dev(C a, C b) { return a * b; }
template <class C> CN_DEV C k_div_dev(C a, C b) { return a / b; }

typedef cn_status (*f1)(cn_array *, cn_array, cn_array);
typedef cn_status (*f2)(cn_array *, cn_array, cn_array, cn_array);

// CPU result of a unary/binary ufunc on complex inputs (dt complex64/128).
template <class R>
static std::vector<cn_cx<R>> cpu_op(cn_dtype dt, f1 u, f2 b,
                                    const std::vector<cn_cx<R>> &x,
                                    const std::vector<cn_cx<R>> &y) {
  int64_t n = (int64_t)x.size();
  cn_array ax = NULL, ay = NULL, out = NULL;
  OK(cn_from_host(&ax, x.data(), 0, n * (int64_t)sizeof(x[0]), 1, &n, NULL,
                  dt));
  if (b) {
    OK(cn_from_host(&ay, y.data(), 0, n * (int64_t)sizeof(y[0]), 1, &n, NULL,
                    dt));
    OK(b(&out, ax, ay, NULL));
  } else {
    OK(u(&out, ax, NULL));
  }
  std::vector<cn_cx<R>> r((size_t)n);
  OK(cn_copy_to_buffer(r.data(), n * (int64_t)sizeof(r[0]), out, CN_ORDER_C));
  cn_array_release(ax);
  cn_array_release(ay);
  cn_array_release(out);
  return r;
}

template <class R> static void complex_ops(cn_dtype dt) {
  typedef cn_cx<R> C;
  std::vector<C> x, y;
  for (int i = 0; i < k_nv; i++)
    for (int j = 0; j < k_nv; j++)
      x.push_back(C((R)k_vals[i], (R)k_vals[j]));
  const double eps = sizeof(R) == 4 ? 1.1920929e-07 : 2.220446049250313e-16;
  struct {
    const char *name;
    f1 fn;
    C (*dev)(C);
    double ulps;
  } ops[] = {
      {"sin", cn_sin, k_sin<C>, 4096},
      {"cos", cn_cos, k_cos<C>, 4096},
      {"tan", cn_tan, k_tan<C>, 4096},
      {"sinh", cn_sinh, k_sinh<C>, 4096},
      {"cosh", cn_cosh, k_cosh<C>, 4096},
      {"tanh", cn_tanh, k_tanh<C>, 4096},
      {"arcsin", cn_arcsin, k_asin<C>, 4096},
      {"arccos", cn_arccos, k_acos<C>, 4096},
      {"arctan", cn_arctan, k_atan<C>, 4096},
      {"arcsinh", cn_arcsinh, k_asinh<C>, 4096},
      {"arccosh", cn_arccosh, k_acosh<C>, 4096},
      {"arctanh", cn_arctanh, k_atanh<C>, 4096},
      {"exp", cn_exp, k_exp<C>, 4096},
      {"log", cn_log, k_log<C>, 4096},
      {"sqrt", cn_sqrt, k_sqrt<C>, 4096},
      {"reciprocal", cn_reciprocal, k_reciprocal<C>, 16},
  };
  for (auto &op : ops) {
    g_cases++;
    std::vector<C> c = cpu_op<R>(dt, op.fn, NULL, x, y);
    int bad = 0;
    for (size_t i = 0; i < x.size(); i++) {
      C g = op.dev(x[i]);
      if (!same_cx(g, c[i], op.ulps * eps)) {
        if (bad++ < 4)
          printf("FAIL %s(%s) at (%g, %g): host-emulated gpu (%.17g, %.17g) "
                 "cpu (%.17g, %.17g)\n",
                 op.name, cn_dtype_name(dt), (double)x[i].re, (double)x[i].im,
                 (double)g.re, (double)g.im, (double)c[i].re, (double)c[i].im);
      }
    }
    if (bad)
      g_fail++, printf("FAIL %s(%s): %d of %zu differ\n", op.name,
                       cn_dtype_name(dt), bad, x.size());
  }
  // power and multiply over pairs of a smaller grid
  static const double pv[] = {0.0,   -0.0, 1.0,      -1.0,      0.5,
                              -2.5,  2.0,  3.0,      -3.0,      7.0,
                              100.0, 1e20, INFINITY, -INFINITY, NAN};
  const int np = sizeof pv / sizeof pv[0];
  std::vector<C> a, b;
  for (int i = 0; i < np; i++)
    for (int j = 0; j < np; j++)
      for (int k = 0; k < np; k++)
        for (int l = 0; l < np; l += 2) {
          a.push_back(C((R)pv[i], (R)pv[j]));
          b.push_back(C((R)pv[k], (R)pv[l]));
        }
  struct {
    const char *name;
    f2 fn;
    C (*dev)(C, C);
    double ulps;
  } bops[] = {{"power", cn_power, k_pow<C>, 4096},
              {"multiply", cn_multiply, k_mul_dev<C>, 16},
              {"divide", cn_divide, k_div_dev<C>, 16}};
  for (auto &op : bops) {
    g_cases++;
    std::vector<C> c = cpu_op<R>(dt, NULL, op.fn, a, b);
    int bad = 0;
    for (size_t i = 0; i < a.size(); i++) {
      // 0 ** z is another piece of work (complex power of zero)
      if (op.fn == cn_power && a[i].re == 0 && a[i].im == 0)
        continue;
      C g = op.dev(a[i], b[i]);
      if (!same_cx(g, c[i], op.ulps * eps)) {
        if (bad++ < 4)
          printf("FAIL %s(%s) at (%g, %g), (%g, %g): host-emulated gpu "
                 "(%.17g, %.17g) cpu (%.17g, %.17g)\n",
                 op.name, cn_dtype_name(dt), (double)a[i].re, (double)a[i].im,
                 (double)b[i].re, (double)b[i].im, (double)g.re, (double)g.im,
                 (double)c[i].re, (double)c[i].im);
      }
    }
    if (bad)
      g_fail++, printf("FAIL %s(%s): %d of %zu differ\n", op.name,
                       cn_dtype_name(dt), bad, a.size());
  }
}

// ---- casts: cn_cast (device) against cn_astype (CPU) -----------------------

template <class To, class From>
static void cast_one(cn_dtype to, cn_dtype from) {
  static const double v[] = {
      NAN,          INFINITY, -INFINITY,   3e9,     -3e9,   1e20,   -1.0,
      0x1p63,       70000.,   -70000.,     300.0,   -129.0, 0x1p64, 0x1p32,
      -2147483649., 0x1p31,   4294967295., -0x1p63, 1.8e19, -0.5,   255.5,
      32768.0,      65536.0,  1.9,         -1.9};
  const int64_t n = sizeof v / sizeof v[0];
  cn_array a = NULL, af = NULL, out = NULL;
  OK(cn_from_host(&a, v, 0, n * 8, 1, &n, NULL, CN_FLOAT64));
  OK(cn_astype(&af, a, from, 1));
  OK(cn_astype(&out, af, to, 1));
  std::vector<From> src((size_t)n);
  std::vector<To> want((size_t)n);
  OK(cn_copy_to_buffer(src.data(), n * (int64_t)sizeof(From), af, CN_ORDER_C));
  OK(cn_copy_to_buffer(want.data(), n * (int64_t)sizeof(To), out, CN_ORDER_C));
  g_cases++;
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    To g = cn_cast<To>(src[(size_t)i]);
    if (memcmp(&g, &want[(size_t)i], sizeof(To)) != 0 && bad++ < 4)
      printf("FAIL astype %s -> %s of %g: host-emulated gpu %lld cpu %lld\n",
             cn_dtype_name(from), cn_dtype_name(to), v[i], (long long)g,
             (long long)want[(size_t)i]);
  }
  if (bad)
    g_fail++;
  cn_array_release(a);
  cn_array_release(af);
  cn_array_release(out);
}
template <class From> static void casts_from(cn_dtype from) {
  cast_one<cn_i8, From>(CN_INT8, from);
  cast_one<cn_i16, From>(CN_INT16, from);
  cast_one<cn_i32, From>(CN_INT32, from);
  cast_one<cn_i64, From>(CN_INT64, from);
  cast_one<cn_u8, From>(CN_UINT8, from);
  cast_one<cn_u16, From>(CN_UINT16, from);
  cast_one<cn_u32, From>(CN_UINT32, from);
  cast_one<cn_u64, From>(CN_UINT64, from);
}

// float16: cn_cast from every bit pattern to every dtype and back from
// each dtype's images of them, against the CPU's cn_astype, bit for bit.
template <class T> static void half_cast_one(cn_dtype dt, cn_array h) {
  const int64_t n = 65536;
  cn_array out = NULL, back = NULL;
  OK(cn_astype(&out, h, dt, 1));
  OK(cn_astype(&back, out, CN_FLOAT16, 1));
  std::vector<cn_u16> bits((size_t)n), bits_back((size_t)n);
  std::vector<unsigned char> want((size_t)n * sizeof(T));
  OK(cn_copy_to_buffer(bits.data(), n * 2, h, CN_ORDER_C));
  OK(cn_copy_to_buffer(want.data(), n * (int64_t)sizeof(T), out, CN_ORDER_C));
  OK(cn_copy_to_buffer(bits_back.data(), n * 2, back, CN_ORDER_C));
  g_cases++;
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    cn_f16 x = {bits[(size_t)i]};
    T w;
    memcpy(&w, &want[(size_t)i * sizeof(T)], sizeof(T));
    T g = cn_cast<T>(x);
    cn_f16 r = cn_cast<cn_f16>(w);
    if ((memcmp(&g, &w, sizeof(T)) != 0 ||
         r.bits != bits_back[(size_t)i]) &&
        bad++ < 4)
      printf("FAIL float16 <-> %s of bits 0x%04x\n", cn_dtype_name(dt),
             (unsigned)x.bits);
  }
  if (bad)
    g_fail++;
  cn_array_release(out);
  cn_array_release(back);
}
static void half_casts(void) {
  std::vector<cn_u16> all(65536);
  for (int i = 0; i < 65536; i++)
    all[(size_t)i] = (cn_u16)i;
  const int64_t n = 65536;
  cn_array h = NULL;
  OK(cn_from_host(&h, all.data(), 0, n * 2, 1, &n, NULL, CN_FLOAT16));
  half_cast_one<bool>(CN_BOOL, h);
  half_cast_one<cn_i8>(CN_INT8, h);
  half_cast_one<cn_i16>(CN_INT16, h);
  half_cast_one<cn_i32>(CN_INT32, h);
  half_cast_one<cn_i64>(CN_INT64, h);
  half_cast_one<cn_u8>(CN_UINT8, h);
  half_cast_one<cn_u16>(CN_UINT16, h);
  half_cast_one<cn_u32>(CN_UINT32, h);
  half_cast_one<cn_u64>(CN_UINT64, h);
  half_cast_one<float>(CN_FLOAT32, h);
  half_cast_one<double>(CN_FLOAT64, h);
  half_cast_one<cn_c64>(CN_COMPLEX64, h);
  half_cast_one<cn_c128>(CN_COMPLEX128, h);
  // float32 and float64 values between float16's: the rounding itself
  std::vector<float> f;
  std::vector<double> d;
  uint64_t state = 99;
  for (int i = 0; i < 200000; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    cn_u32 u = (cn_u32)(state >> 32);
    f.push_back(cn_host_i2f((int)u));
    d.push_back(cn_host_l2d((long long)((state >> 1) ^ (state << 40))));
  }
  const int64_t nf = (int64_t)f.size();
  cn_array af = NULL, ad = NULL, rf = NULL, rd = NULL;
  OK(cn_from_host(&af, f.data(), 0, nf * 4, 1, &nf, NULL, CN_FLOAT32));
  OK(cn_from_host(&ad, d.data(), 0, nf * 8, 1, &nf, NULL, CN_FLOAT64));
  OK(cn_astype(&rf, af, CN_FLOAT16, 1));
  OK(cn_astype(&rd, ad, CN_FLOAT16, 1));
  std::vector<cn_u16> wf((size_t)nf), wd((size_t)nf);
  OK(cn_copy_to_buffer(wf.data(), nf * 2, rf, CN_ORDER_C));
  OK(cn_copy_to_buffer(wd.data(), nf * 2, rd, CN_ORDER_C));
  g_cases++;
  int bad = 0;
  for (int64_t i = 0; i < nf; i++)
    if ((cn_cast<cn_f16>(f[(size_t)i]).bits != wf[(size_t)i] ||
         cn_cast<cn_f16>(d[(size_t)i]).bits != wd[(size_t)i]) &&
        bad++ < 4)
      printf("FAIL float32/float64 -> float16 at %lld\n", (long long)i);
  if (bad)
    g_fail++;
  cn_array_release(h);
  cn_array_release(af);
  cn_array_release(ad);
  cn_array_release(rf);
  cn_array_release(rd);
}

// ---- reductions: the accumulators folded as a kernel would ------------------

// Element k to "thread" k % 64 of two warps, then each warp's butterfly
// (__shfl_down_sync: lane l takes lane l + off, lanes past the end keep
// their own value), then the two warp results, as cn_block_reduce.
template <class R>
static void emulate(const char *o, char *o2, const typename R::in_t *x,
                    int64_t n, char *out, double param) {
  typedef typename R::acc_t A;
  A t[64];
  for (int i = 0; i < 64; i++)
    t[i] = R::init();
  for (int64_t k = 0; k < n; k++)
    R::add(t[k % 64], x[k], k);
  A w[2];
  for (int wi = 0; wi < 2; wi++) {
    A *l = t + 32 * wi;
    for (int off = 16; off > 0; off >>= 1) {
      A nxt[32];
      for (int i = 0; i < 32; i++)
        nxt[i] =
            i + off < 32 ? R::merge(l[i], l[i + off]) : R::merge(l[i], l[i]);
      for (int i = 0; i < 32; i++)
        l[i] = nxt[i];
    }
    w[wi] = l[0];
  }
  A a = R::merge(w[0], w[1]);
  (void)o;
  R::store(out, o2, a, param);
}

// One reduction over all of a: the CPU's result from cpu(&r, a) against
// the accumulator R folded by emulate; `var` says which output R stores.
template <class R, class Out, class F>
static void red_case(const char *name, const char *what, cn_dtype dt,
                     cn_array a, const std::vector<typename R::in_t> &x, F cpu,
                     bool var, double ddof) {
  char label[96];
  snprintf(label, sizeof label, "%s[%s]", name, what);
  cn_array r = NULL;
  OK(cpu(&r, a));
  Out c, g;
  OK(cn_copy_to_buffer(&c, sizeof c, r, CN_ORDER_C));
  cn_array_release(r);
  emulate<R>(NULL, var ? (char *)&g : NULL, x.data(), (int64_t)x.size(),
             var ? NULL : (char *)&g, ddof);
  g_cases++;
  bool ok;
  if constexpr (cn_tr<Out>::is_cplx) {
    ok = same_cx(g, c, 64 * cn_fl<decltype(g.re)>::eps());
    if (!ok)
      printf("FAIL %s(%s): host-emulated gpu (%.17g, %.17g) cpu "
             "(%.17g, %.17g)\n",
             label, cn_dtype_name(dt), (double)g.re, (double)g.im, (double)c.re,
             (double)c.im);
  } else {
    ok = close_enough(g, c, 64 * cn_fl<Out>::eps(), fabs((double)c));
    if (!ok)
      printf("FAIL %s(%s): host-emulated gpu %.17g cpu %.17g\n", label,
             cn_dtype_name(dt), (double)g, (double)c);
  }
  if (!ok)
    g_fail++;
}

// sum, nansum, mean, nanmean, var, nanvar of x; R the real type of T.
template <class T, class R>
static void red_all(cn_dtype dt, const std::vector<T> &x, const char *what) {
  int64_t n = (int64_t)x.size();
  cn_array a = NULL;
  OK(cn_from_host(&a, x.data(), 0, n * (int64_t)sizeof(T), 1, &n, NULL, dt));
  const cn_dtype D = CN_DTYPE_DEFAULT;
  const int32_t ALL = CN_ALL_AXES;
  red_case<cn_r_sum<T, T, false>, T>(
      "sum", what, dt, a, x,
      [&](cn_array *r, cn_array v) { return cn_sum(r, v, ALL, 0, 0, D, 0); },
      false, 0);
  red_case<cn_r_sum<T, T, true>, T>(
      "nansum", what, dt, a, x,
      [&](cn_array *r, cn_array v) { return cn_nansum(r, v, ALL, 0, 0, D, 0); },
      false, 0);
  red_case<cn_r_mom<T, T, R, false>, T>(
      "mean", what, dt, a, x,
      [&](cn_array *r, cn_array v) { return cn_mean(r, v, ALL, 0, 0, D, 0); },
      false, 0);
  red_case<cn_r_mom<T, T, R, true>, T>(
      "nanmean", what, dt, a, x,
      [&](cn_array *r, cn_array v) {
        return cn_nanmean(r, v, ALL, 0, 0, D, 0);
      },
      false, 0);
  red_case<cn_r_mom<T, T, R, false>, R>(
      "var(ddof=1)", what, dt, a, x,
      [&](cn_array *r, cn_array v) {
        return cn_var(r, v, ALL, 0, 0, 1.0, D, 0);
      },
      true, 1.0);
  red_case<cn_r_mom<T, T, R, true>, R>(
      "nanvar", what, dt, a, x,
      [&](cn_array *r, cn_array v) {
        return cn_nanvar(r, v, ALL, 0, 0, 0.0, D, 0);
      },
      true, 0.0);
  cn_array_release(a);
}

// nanmin/nanmax over no axes (each output one element), as gpu_check's
// axes#5: one thread per output, acc = merge(init, x).
template <class R> static void nanminmax_one(cn_dtype dt) {
  typedef cn_cx<R> C;
  std::vector<C> x;
  for (int i = 0; i < k_nv; i++)
    for (int j = 0; j < k_nv; j++)
      x.push_back(C((R)k_vals[i], (R)k_vals[j]));
  int64_t n = (int64_t)x.size();
  cn_array a = NULL, r = NULL;
  OK(cn_from_host(&a, x.data(), 0, n * (int64_t)sizeof(C), 1, &n, NULL, dt));
  for (int mx = 0; mx < 2; mx++) {
    OK((mx ? cn_nanmax : cn_nanmin)(&r, a, 0, NULL, 0, CN_DTYPE_DEFAULT, NULL));
    std::vector<C> c(x.size());
    OK(cn_copy_to_buffer(c.data(), (int64_t)(c.size() * sizeof(C)), r,
                         CN_ORDER_C));
    g_cases++;
    int bad = 0;
    for (size_t i = 0; i < x.size(); i++) {
      C g;
      if (mx) {
        typename cn_r_minmax<C, C, true, true>::acc_t acc =
            cn_r_minmax<C, C, true, true>::init();
        cn_r_minmax<C, C, true, true>::add(acc, x[i], 0);
        g = acc;
      } else {
        typename cn_r_minmax<C, C, false, true>::acc_t acc =
            cn_r_minmax<C, C, false, true>::init();
        cn_r_minmax<C, C, false, true>::add(acc, x[i], 0);
        g = acc;
      }
      if (!same_cx(g, c[i], 0) && bad++ < 4)
        printf("FAIL %s(%s) of (%g, %g): host-emulated gpu (%g, %g) cpu (%g, "
               "%g)\n",
               mx ? "nanmax" : "nanmin", cn_dtype_name(dt), (double)x[i].re,
               (double)x[i].im, (double)g.re, (double)g.im, (double)c[i].re,
               (double)c[i].im);
    }
    if (bad)
      g_fail++;
    cn_array_release(r);
  }
  cn_array_release(a);
}

static void reductions(void) {
  std::vector<double> d;
  for (int i = 0; i < 300; i++)
    d.push_back(sin(i * 0.37) * 5);
  red_all<double, double>(CN_FLOAT64, d, "finite");
  std::vector<double> dinf = d;
  dinf[17] = INFINITY;
  red_all<double, double>(CN_FLOAT64, dinf, "with inf");
  dinf[40] = NAN;
  red_all<double, double>(CN_FLOAT64, dinf, "with inf and NaN");
  std::vector<double> dninf = d;
  dninf[3] = -INFINITY;
  dninf[250] = -INFINITY;
  red_all<double, double>(CN_FLOAT64, dninf, "with -inf twice");
  std::vector<double> off; // uint32 values near 2^32, as float64
  for (int i = 0; i < 300; i++)
    off.push_back(4294967295.0 - (double)(i % 7 == 0));
  red_all<double, double>(CN_FLOAT64, off, "offset 2^32");
  std::vector<float> f(d.begin(), d.end());
  f[5] = INFINITY;
  red_all<float, float>(CN_FLOAT32, f, "with inf");
  typedef cn_cx<double> Z;
  typedef cn_cx<float> Zf;
  std::vector<Z> z;
  std::vector<Zf> zf;
  for (int i = 0; i < 300; i++) {
    z.push_back(Z(sin(i * 0.37), cos(i * 0.11)));
    zf.push_back(Zf((float)sin(i * 0.37), (float)cos(i * 0.11)));
  }
  z[7] = Z(INFINITY, 0.5);
  zf[7] = Zf(INFINITY, 0.5f);
  z[9] = Z(1.0, INFINITY);
  zf[9] = Zf(1.0f, INFINITY);
  red_all<Z, double>(CN_COMPLEX128, z, "with inf parts");
  red_all<Zf, float>(CN_COMPLEX64, zf, "with inf parts");
  z[11] = Z(NAN, -0.0);
  red_all<Z, double>(CN_COMPLEX128, z, "with inf and NaN parts");
  nanminmax_one<double>(CN_COMPLEX128);
  nanminmax_one<float>(CN_COMPLEX64);
}

// ---- indexing --------------------------------------------------------------

static void index_fold(void) {
  for (long long extent = 0; extent <= 3; extent++)
    for (int mode = 0; mode < 3; mode++)
      for (long long v = -5; v <= 5; v++) {
        long long got = -99;
        bool ok = cn_idx_fold(v, extent, mode, &got);
        cn_array a = NULL, idx = NULL, r = NULL;
        OK(cn_arange_int(&a, 0, extent, 1, CN_INT64));
        int64_t one = 1;
        OK(cn_from_host(&idx, &v, 0, 8, 1, &one, NULL, CN_INT64));
        cn_status st = cn_take(&r, a, idx, 0, mode, NULL);
        long long want = -99;
        if (st == CN_OK)
          OK(cn_copy_to_buffer(&want, 8, r, CN_ORDER_C));
        g_cases++;
        if (ok != (st == CN_OK) || (ok && got != want)) {
          printf("FAIL index fold v=%lld extent=%lld mode=%d: %d/%lld, CPU "
                 "%s/%lld\n",
                 v, extent, mode, (int)ok, got, cn_status_name(st), want);
          g_fail++;
        }
        cn_array_release(a);
        cn_array_release(idx);
        cn_array_release(r);
      }
}

// One block's exclusive scan through the device steps (double buffer).
static std::vector<long long> emu_block_excl(const std::vector<long long> &v,
                                             long long *total) {
  std::vector<long long> a(v), b(CN_CMP_THREADS);
  for (int off = 1; off < CN_CMP_THREADS; off <<= 1) {
    for (int t = 0; t < CN_CMP_THREADS; t++)
      cn_cmp_scan_step(a.data(), b.data(), t, off);
    a.swap(b);
  }
  *total = a[CN_CMP_THREADS - 1];
  for (int t = 0; t < CN_CMP_THREADS; t++)
    a[t] -= v[t];
  return a;
}

// The compaction of core/cuda/index.c, kernel by kernel on the host.
template <class P, class W>
static long long emu_compact(const P &pred, const W &write, long long n) {
  cn_cu_cmp_plan p;
  if (!cn_cu_cmp_plan_make(&p, n))
    return -1;
  if (n == 0)
    return 0;
  std::vector<long long> s((size_t)p.scratch_entries);
  std::vector<long long> v(CN_CMP_THREADS);
  long long total;
  for (long long tile = 0; tile < p.tiles; tile++) { // count
    for (int t = 0; t < CN_CMP_THREADS; t++)
      v[t] = cn_cmp_thread_count(pred, n, tile, t);
    emu_block_excl(v, &total);
    s[(size_t)(p.off[0] + tile)] = total;
  }
  for (int l = 0; l < p.levels; l++) { // scan tile by tile
    long long *x = s.data() + p.off[l];
    long long *up =
        s.data() + (l + 1 < p.levels ? p.off[l + 1] : p.total_off);
    for (long long tile = 0; tile * CN_CMP_TILE < p.len[l]; tile++) {
      for (int t = 0; t < CN_CMP_THREADS; t++) {
        long long i0 = cn_cmp_first(tile, t), run = 0;
        for (int k = 0; k < CN_CMP_ITEMS; k++)
          if (i0 + k < p.len[l])
            run += x[i0 + k];
        v[t] = run;
      }
      std::vector<long long> ex = emu_block_excl(v, &total);
      for (int t = 0; t < CN_CMP_THREADS; t++) {
        long long i0 = cn_cmp_first(tile, t), acc = ex[t];
        for (int k = 0; k < CN_CMP_ITEMS; k++)
          if (i0 + k < p.len[l]) {
            long long e = x[i0 + k];
            x[i0 + k] = acc;
            acc += e;
          }
      }
      up[tile] = total;
    }
  }
  for (int l = p.levels - 2; l >= 0; l--) // down-sweep
    for (long long i = 0; i < p.len[l]; i++)
      s[(size_t)(p.off[l] + i)] +=
          s[(size_t)(p.off[l + 1] + i / CN_CMP_TILE)];
  const long long *offs = s.data() + p.off[0];
  for (long long tile = 0; tile < p.tiles; tile++) { // scatter
    for (int t = 0; t < CN_CMP_THREADS; t++)
      v[t] = cn_cmp_thread_count(pred, n, tile, t);
    std::vector<long long> ex = emu_block_excl(v, &total);
    for (int t = 0; t < CN_CMP_THREADS; t++) {
      long long slot = offs[tile] + ex[t], i0 = cn_cmp_first(tile, t);
      for (int k = 0; k < CN_CMP_ITEMS; k++)
        if (i0 + k < n && pred(i0 + k))
          write(slot++, i0 + k);
    }
  }
  return s[(size_t)p.total_off];
}

static void index_compaction(void) {
  const double specials[] = {0.0, -0.0, 1.5, NAN, -INFINITY, 0.0, 2.0};
  const long long T = CN_CMP_TILE;
  const long long sizes[] = {0, 1, 5, T - 1, T, T + 1, 3001, T * T + 5};
  for (long long n : sizes)
    for (int pattern = 0; pattern < 3; pattern++) { // mixed, all 1, all 0
      // A reversed every-other-element view of a 2n buffer: stride -2.
      std::vector<double> buf((size_t)(2 * n + 1));
      for (long long i = 0; i < 2 * n + 1; i++)
        buf[(size_t)i] = pattern == 1   ? 1.0
                         : pattern == 2 ? 0.0
                                        : specials[i % 7] * (i % 5 ? 1 : 0);
      cn_igeom g;
      memset(&g, 0, sizeof g);
      g.ndim = 1;
      g.axis = -1;
      g.shape[0] = n;
      g.st[0][0] = -2;
      const double *base = buf.data() + 2 * n;
      cn_nz_pred<double> pred = {base, &g};
      std::vector<long long> want;
      for (long long i = 0; i < n; i++)
        if (base[-2 * i] != 0.0 || std::isnan(base[-2 * i]))
          want.push_back(i);
      std::vector<long long> got(want.size() + 1, -1);
      cn_pos_writer w = {got.data()};
      long long total = emu_compact(pred, w, n);
      got.resize(want.size());
      g_cases++;
      if (total != (long long)want.size() || got != want) {
        printf("FAIL compaction n=%lld pattern %d: %lld selected, want %zu\n",
               n, pattern, total, want.size());
        g_fail++;
      }
      // mask_compress: 16-byte elements selected by a bool mask.
      std::vector<cn_u8> m((size_t)n);
      std::vector<cn_b16> a((size_t)n), out((size_t)n + 1);
      long long k = 0;
      for (long long i = 0; i < n; i++) {
        m[(size_t)i] = base[-2 * i] != 0.0;
        a[(size_t)i] = cn_b16{(cn_u64)i, (cn_u64)(i * 7)};
        k += m[(size_t)i];
      }
      cn_mask_pred mp = {m.data()};
      cn_copy_writer<cn_b16> cw = {out.data(), a.data()};
      long long t2 = emu_compact(mp, cw, n);
      bool ok = t2 == k;
      for (long long i = 0, j = 0; i < n && ok; i++)
        if (m[(size_t)i]) {
          ok = out[(size_t)j].lo == (cn_u64)i &&
               out[(size_t)j].hi == (cn_u64)(i * 7);
          j++;
        }
      g_cases++;
      if (!ok) {
        printf("FAIL mask compaction n=%lld pattern %d\n", n, pattern);
        g_fail++;
      }
    }
}

// slogdet of an upper triangular matrix whose diagonal dominates: getrf
// factors it, or its transpose, without interchanges and with that diagonal
// as U's, so the device reduction of the diagonal with identity pivots must
// give the CPU's sign and log|det|; one interchange flips the sign; info > 0
// gives 0 and -inf.
template <class T>
static void slogdet_one(cn_dtype dt, const std::vector<T> &diag, bool zero) {
  typedef typename cn_tr<T>::real R;
  long long n = (long long)diag.size();
  std::vector<T> a((size_t)(n * n), T(0));
  for (long long i = 0; i < n; i++)
    for (long long j = i; j < n; j++)
      a[(size_t)(i + j * n)] = i == j ? diag[(size_t)i] : T(R(0.25) * R(i + j));
  if (zero)
    a[(size_t)(n + 1)] = T(0);
  std::vector<long long> piv((size_t)n);
  for (long long i = 0; i < n; i++)
    piv[(size_t)i] = i + 1;
  cn_array h = NULL, sign = NULL, ld = NULL;
  int64_t shape[2] = {n, n};
  int64_t strides[2] = {1, n}; /* column-major, as the device sees it */
  OK(cn_from_host(&h, a.data(), 0, (int64_t)(sizeof(T) * a.size()), 2, shape,
                  strides, dt));
  OK(cn_linalg_slogdet(&sign, &ld, h));
  T cs;
  R cl;
  OK(cn_copy_to_buffer(&cs, sizeof cs, sign, CN_ORDER_C));
  OK(cn_copy_to_buffer(&cl, sizeof cl, ld, CN_ORDER_C));
  T gs;
  R gl;
  cn_la_slogdet_one(n, a.data(), piv.data(), zero ? 2 : 0, &gs, &gl);
  double rtol = sizeof(R) == 4 ? 1e-6 : 1e-15;
  bool ok;
  if constexpr (cn_tr<T>::is_cplx)
    ok = same_cx(gs, cs, rtol);
  else
    ok = close_enough(gs, cs, rtol, fabs((double)cs));
  ok = ok && close_enough(gl, cl, rtol, fabs((double)cl));
  g_cases++;
  if (!ok) {
    printf("FAIL slogdet %s n=%lld%s: sign/log differ from the CPU's "
           "(log %.17g vs %.17g)\n",
           cn_dtype_name(dt), n, zero ? " singular" : "", (double)gl,
           (double)cl);
    g_fail++;
  }
  if (!zero && n > 1) { /* one interchange: the sign flips */
    piv[0] = 2;
    T fs;
    R fl;
    cn_la_slogdet_one(n, a.data(), piv.data(), 0, &fs, &fl);
    g_cases++;
    if (!(fs == -gs) || fl != gl) {
      printf("FAIL slogdet %s n=%lld: pivot parity\n", cn_dtype_name(dt), n);
      g_fail++;
    }
  }
  cn_array_release(h);
  cn_array_release(sign);
  cn_array_release(ld);
}

static void lapack_helpers(void) {
  std::vector<double> d = {2.5, -3.5, 3.0, -2.25, 7.0};
  std::vector<float> f = {2.5f, -3.5f, 3.0f, -2.25f, 7.0f};
  std::vector<cn_c128> z = {cn_c128(1, 2), cn_c128(-3, 0.5), cn_c128(0, -2.5),
                            cn_c128(2, 2), cn_c128(-2.5, -0.25)};
  std::vector<cn_c64> c = {cn_c64(1, 2), cn_c64(-3, 0.5), cn_c64(0, -2.5f),
                           cn_c64(2, 2), cn_c64(-2.5f, -0.25f)};
  for (int zero = 0; zero < 2; zero++) {
    slogdet_one<double>(CN_FLOAT64, d, zero);
    slogdet_one<float>(CN_FLOAT32, f, zero);
    slogdet_one<cn_c128>(CN_COMPLEX128, z, zero);
    slogdet_one<cn_c64>(CN_COMPLEX64, c, zero);
  }
  slogdet_one<double>(CN_FLOAT64, std::vector<double>{-4.0}, false);
}

// The integer and bool matmul kernel's accumulation (cn_mm_dot, the
// per-output sum of cn_mm_tiled) against the CPU's cn_matmul: products
// that overflow the dtype must wrap around to the same bits.
template <class T> static void matmul_one(cn_dtype dt) {
  constexpr int64_t m = 3, k = 37, n = 4;
  T a[m * k], b[k * n], c[m * n];
  unsigned long long seed = 0x9e3779b97f4a7c15ull;
  for (T *v : {a, b})
    for (int64_t i = 0; i < (v == a ? m * k : k * n); i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      v[i] = dt == CN_BOOL ? (T)((seed >> 33) % 5 == 0) : (T)(seed >> 17);
    }
  int64_t sa[2] = {m, k}, sb[2] = {k, n};
  cn_array A = NULL, B = NULL, C = NULL;
  OK(cn_from_host(&A, a, 0, (int64_t)sizeof a, 2, sa, NULL, dt));
  OK(cn_from_host(&B, b, 0, (int64_t)sizeof b, 2, sb, NULL, dt));
  OK(cn_matmul(&C, A, B, NULL));
  OK(cn_copy_to_buffer(c, (int64_t)sizeof c, C, CN_ORDER_C));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      T g = cn_mm_dot<T>(&a[i * k], 1, &b[j], n, k);
      g_cases++;
      if (memcmp(&g, &c[i * n + j], sizeof(T)) != 0) {
        printf("FAIL matmul(%s)[%lld, %lld]: host-emulated gpu %lld cpu "
               "%lld\n",
               cn_dtype_name(dt), (long long)i, (long long)j, (long long)g,
               (long long)c[i * n + j]);
        g_fail++;
      }
    }
  cn_array_release(A);
  cn_array_release(B);
  cn_array_release(C);
}

// The special ops: the prelude's k_* against the CPU's cn_special_* over
// k_vals and arguments inside (0, 1) and (0, 2) (the inverse functions'
// domains), pairs of them for the binary ops. Both run the same scalar
// code; the tolerance covers only contraction differences between the two
// host compilers.
template <class R> static bool same_real(R g, R c, double eps) {
  if (std::isnan((double)c) || std::isnan((double)g))
    return std::isnan((double)c) && std::isnan((double)g);
  if (g == c)
    return std::signbit((double)g) == std::signbit((double)c) || g != 0;
  return fabs((double)g - (double)c) <= 8 * eps * fabs((double)c);
}

template <class R>
static std::vector<R> cpu_real(cn_dtype dt, f1 u, f2 b, const std::vector<R> &x,
                               const std::vector<R> &y) {
  int64_t n = (int64_t)x.size();
  cn_array ax = NULL, ay = NULL, out = NULL;
  OK(cn_from_host(&ax, x.data(), 0, n * (int64_t)sizeof(R), 1, &n, NULL, dt));
  if (b) {
    OK(cn_from_host(&ay, y.data(), 0, n * (int64_t)sizeof(R), 1, &n, NULL,
                    dt));
    OK(b(&out, ax, ay, NULL));
  } else {
    OK(u(&out, ax, NULL));
  }
  std::vector<R> r((size_t)n);
  OK(cn_copy_to_buffer(r.data(), n * (int64_t)sizeof(R), out, CN_ORDER_C));
  cn_array_release(ax);
  cn_array_release(ay);
  cn_array_release(out);
  return r;
}

typedef cn_status (*f3)(cn_array *, cn_array, cn_array, cn_array, cn_array);

template <class R>
static std::vector<R> cpu_real3(cn_dtype dt, f3 fn, const std::vector<R> &x,
                                const std::vector<R> &y,
                                const std::vector<R> &z) {
  int64_t n = (int64_t)x.size(), nb = n * (int64_t)sizeof(R);
  cn_array ax = NULL, ay = NULL, az = NULL, out = NULL;
  OK(cn_from_host(&ax, x.data(), 0, nb, 1, &n, NULL, dt));
  OK(cn_from_host(&ay, y.data(), 0, nb, 1, &n, NULL, dt));
  OK(cn_from_host(&az, z.data(), 0, nb, 1, &n, NULL, dt));
  OK(fn(&out, ax, ay, az, NULL));
  std::vector<R> r((size_t)n);
  OK(cn_copy_to_buffer(r.data(), nb, out, CN_ORDER_C));
  cn_array_release(ax);
  cn_array_release(ay);
  cn_array_release(az);
  cn_array_release(out);
  return r;
}

template <class R> static void special_ops(cn_dtype dt) {
  std::vector<R> v(k_vals, k_vals + k_nv);
  const double more[] = {0.1,  0.25,  0.3,  0.45, 0.7,   0.9,   0.999,
                         1.5,  1.999, 1e-8, 1e-30, 25.5, -26.5, 27.0,
                         -5.0, 6.0,   -40., 40.0, 700.0, -700.0};
  for (double m : more)
    v.push_back((R)m);
  std::vector<R> x, y;
  for (R a : v)
    for (R b : v)
      x.push_back(a), y.push_back(b);
  const double eps = sizeof(R) == 4 ? 1.1920929e-07 : 2.220446049250313e-16;
  struct {
    const char *name;
    f1 fn;
    R (*dev)(R);
  } un[] = {
      {"erf", cn_special_erf, k_erf<R>},
      {"erfc", cn_special_erfc, k_erfc<R>},
#define CN_SP_ROW1_(f) {#f, cn_special_##f, k_sp_##f<R>},
      CN_SP_UNARY(CN_SP_ROW1_)
#undef CN_SP_ROW1_
  };
  struct {
    const char *name;
    f2 fn;
    R (*dev)(R, R);
  } bin[] = {
#define CN_SP_ROW2_(f) {#f, cn_special_##f, k_sp_##f<R>},
      CN_SP_BINARY(CN_SP_ROW2_)
#undef CN_SP_ROW2_
  };
  for (auto &op : un) {
    g_cases++;
    std::vector<R> c = cpu_real<R>(dt, op.fn, NULL, v, v);
    int bad = 0;
    for (size_t i = 0; i < v.size(); i++) {
      R g = op.dev(v[i]);
      if (!same_real(g, c[i], eps) && bad++ < 4)
        printf("FAIL special %s(%s) at %.17g: host-emulated gpu %.17g cpu "
               "%.17g\n",
               op.name, cn_dtype_name(dt), (double)v[i], (double)g,
               (double)c[i]);
    }
    if (bad)
      g_fail++;
  }
  // ternary ops over triples of a smaller set (the incomplete beta's
  // shape parameters and arguments in [0, 1] among them)
  const double tv[] = {0.0,  -1.0, 0.5, 1.0,    3.0,      1e-5, 50.0,
                       0.25, 0.7,  2.5, 0.999, INFINITY, NAN};
  std::vector<R> t1, t2, t3;
  for (double a : tv)
    for (double b : tv)
      for (double c : tv)
        t1.push_back((R)a), t2.push_back((R)b), t3.push_back((R)c);
  struct {
    const char *name;
    f3 fn;
    R (*dev)(R, R, R);
  } ter[] = {
#define CN_SP_ROW3_(f) {#f, cn_special_##f, k_sp_##f<R>},
      CN_SP_TERNARY(CN_SP_ROW3_)
#undef CN_SP_ROW3_
  };
  for (auto &op : ter) {
    g_cases++;
    std::vector<R> c = cpu_real3<R>(dt, op.fn, t1, t2, t3);
    int bad = 0;
    for (size_t i = 0; i < t1.size(); i++) {
      R g = op.dev(t1[i], t2[i], t3[i]);
      if (!same_real(g, c[i], eps) && bad++ < 4)
        printf("FAIL special %s(%s) at (%.17g, %.17g, %.17g): host-emulated "
               "gpu %.17g cpu %.17g\n",
               op.name, cn_dtype_name(dt), (double)t1[i], (double)t2[i],
               (double)t3[i], (double)g, (double)c[i]);
    }
    if (bad)
      g_fail++;
  }
  for (auto &op : bin) {
    g_cases++;
    std::vector<R> c = cpu_real<R>(dt, NULL, op.fn, x, y);
    int bad = 0;
    for (size_t i = 0; i < x.size(); i++) {
      R g = op.dev(x[i], y[i]);
      if (!same_real(g, c[i], eps) && bad++ < 4)
        printf("FAIL special %s(%s) at (%.17g, %.17g): host-emulated gpu "
               "%.17g cpu %.17g\n",
               op.name, cn_dtype_name(dt), (double)x[i], (double)y[i],
               (double)g, (double)c[i]);
    }
    if (bad)
      g_fail++;
  }
}

static void matmuls(void) {
  matmul_one<bool>(CN_BOOL);
  matmul_one<cn_i8>(CN_INT8);
  matmul_one<cn_i16>(CN_INT16);
  matmul_one<cn_i32>(CN_INT32);
  matmul_one<cn_i64>(CN_INT64);
  matmul_one<cn_u8>(CN_UINT8);
  matmul_one<cn_u16>(CN_UINT16);
  matmul_one<cn_u32>(CN_UINT32);
  matmul_one<cn_u64>(CN_UINT64);
}

int main(void) {
  complex_ops<double>(CN_COMPLEX128);
  complex_ops<float>(CN_COMPLEX64);
  casts_from<double>(CN_FLOAT64);
  casts_from<float>(CN_FLOAT32);
  casts_from<cn_c128>(CN_COMPLEX128);
  casts_from<cn_c64>(CN_COMPLEX64);
  half_casts();
  reductions();
  index_fold();
  index_compaction();
  lapack_helpers();
  matmuls();
  special_ops<double>(CN_FLOAT64);
  special_ops<float>(CN_FLOAT32);
  printf("prelude_host: %d cases, %d failures\n", g_cases, g_fail);
  return g_fail != 0;
}
