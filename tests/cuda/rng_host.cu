// Host emulation of the CUDA random fills: the device prelude (with the
// samplers of core/random_samplers.h it embeds) compiled by nvcc as host
// code, its work items run over a fill exactly as the kernels of
// core/cuda/rng_plan.c run them, and compared with the CPU backend's
// cn_random_* results for every distribution: random and integers (every
// integer dtype, full and small ranges) bit for bit, the others within a
// few ulp (the CPU's NORMAL path uses SLEEF), with the same counter blocks
// used. Several seeds, counters (with carries between counter words),
// sizes (empty, partial last blocks) and per-element parameters.
// What this cannot see: CUDA's own libm and the launch; tests/gpu/run.sh.
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cunumpy/cunumpy.h>

#include "host_device.h"
#include "prelude.cuh"

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

struct Dist {
  const char *name; // cn_random_dist's name; "random" for cn_random_random
  int32_t id;
  int nparams;
  double p[3];
  double max_ulps; // 0: bit-identical
};

static const Dist k_dists[] = {
    {"random", CN_RNG_RANDOM, 0, {0, 0, 0}, 0},
    {"uniform", CN_RNG_UNIFORM, 2, {-2.0, 3.0, 0}, 0},
    {"normal", CN_RNG_NORMAL, 2, {1.5, 2.0, 0}, 4},
    {"lognormal", CN_RNG_LOGNORMAL, 2, {0.25, 0.5, 0}, 16},
    {"exponential", CN_RNG_EXPONENTIAL, 1, {2.0, 0, 0}, 2},
    {"gamma", CN_RNG_GAMMA, 2, {2.5, 1.5, 0}, 2},
    {"gamma", CN_RNG_GAMMA, 2, {0.3, 2.0, 0}, 2},
    {"beta", CN_RNG_BETA, 2, {0.5, 3.0, 0}, 2},
    {"chisquare", CN_RNG_CHISQUARE, 1, {3.0, 0, 0}, 2},
    {"laplace", CN_RNG_LAPLACE, 2, {0.5, 2.0, 0}, 2},
    {"logistic", CN_RNG_LOGISTIC, 2, {-1.0, 0.5, 0}, 2},
    {"rayleigh", CN_RNG_RAYLEIGH, 1, {1.5, 0, 0}, 2},
    {"weibull", CN_RNG_WEIBULL, 1, {1.7, 0, 0}, 2},
    {"pareto", CN_RNG_PARETO, 1, {2.5, 0, 0}, 2},
    {"triangular", CN_RNG_TRIANGULAR, 3, {-1.0, 0.5, 4.0}, 2},
    {"binomial", CN_RNG_BINOMIAL, 2, {20, 0.3, 0}, 0},
    {"binomial", CN_RNG_BINOMIAL, 2, {1000, 0.7, 0}, 0},
    {"poisson", CN_RNG_POISSON, 1, {3.5, 0, 0}, 0},
    {"poisson", CN_RNG_POISSON, 1, {250.0, 0, 0}, 0},
    {"geometric", CN_RNG_GEOMETRIC, 1, {0.2, 0, 0}, 0},
};

// Value i of a CPU result of dtype dt, as double and as int64.
static double as_double(const void *d, cn_dtype dt, int64_t i) {
  switch (dt) {
  case CN_FLOAT32:
    return ((const float *)d)[i];
  case CN_FLOAT64:
    return ((const double *)d)[i];
  default:
    return NAN;
  }
}
static int64_t as_int(const void *d, cn_dtype dt, int64_t i) {
  switch (dt) {
  case CN_INT8:
    return ((const int8_t *)d)[i];
  case CN_INT16:
    return ((const int16_t *)d)[i];
  case CN_INT32:
    return ((const int32_t *)d)[i];
  case CN_INT64:
    return ((const int64_t *)d)[i];
  case CN_UINT8:
    return ((const uint8_t *)d)[i];
  case CN_UINT16:
    return ((const uint16_t *)d)[i];
  case CN_UINT32:
    return ((const uint32_t *)d)[i];
  default:
    return (int64_t)((const uint64_t *)d)[i];
  }
}

// Counter of rng's state as a 96-bit number's low 64 bits and word 2.
static void counter_of(cn_rng r, uint32_t key[2], uint32_t ctr[4]) {
  uint32_t st[CN_RNG_STATE_WORDS];
  OK(cn_rng_get_state(st, r));
  key[0] = st[0];
  key[1] = st[1];
  for (int k = 0; k < 4; k++)
    ctr[k] = st[2 + k];
}

// Blocks between two counters (word 3 is always 0 in a state).
static uint64_t blocks_between(const uint32_t a[4], const uint32_t b[4]) {
  uint64_t lo_a = a[0] | ((uint64_t)a[1] << 32);
  uint64_t lo_b = b[0] | ((uint64_t)b[1] << 32);
  return lo_b - lo_a; // the tests never advance by 2^64 or more
}

// The host emulation of one CUDA fill (what the kernel's threads compute).
static void emulate(void *out, int kind, int32_t dist, int64_t n,
                    const cn_rng_src *src) {
  int64_t nwork =
      (int64_t)cn_rng_blocks_used(dist, kind == CN_RNG_OUT_F32, n);
  // The kernel's grid-stride order, reversed, to show that items are
  // independent of the order threads run them in.
  for (int64_t t = nwork - 1; t >= 0; t--)
    cn_rng_work(dist, kind, t, n, out, src);
}

static cn_rng make_rng(uint64_t seed, int counter_case) {
  cn_rng r;
  OK(cn_rng_create(&r, seed));
  uint32_t st[CN_RNG_STATE_WORDS];
  OK(cn_rng_get_state(st, r));
  if (counter_case == 1) { // a carry from word 0 into word 1 mid-fill
    st[2] = 0xfffffffcu;
    st[3] = 5;
  } else if (counter_case == 2) { // and from word 1 into word 2
    st[2] = 0xfffffffeu;
    st[3] = 0xffffffffu;
    st[4] = 3;
  }
  OK(cn_rng_set_state(r, st));
  return r;
}

// Compares one CPU fill with its emulation: values and counter blocks.
static void compare(const Dist &d, cn_dtype dt, int64_t n, uint64_t seed,
                    int counter_case, bool per_elem) {
  g_cases++;
  cn_rng r = make_rng(seed, counter_case);
  uint32_t key[2], c0[4], c1[4];
  counter_of(r, key, c0);
  // Parameters: scalars, or per element (varying around d.p).
  std::vector<double> pv[3];
  cn_array pa[3] = {NULL, NULL, NULL};
  int64_t plen = per_elem ? n : 1;
  for (int k = 0; k < d.nparams; k++) {
    pv[k].resize((size_t)(plen ? plen : 1));
    for (int64_t i = 0; i < plen; i++)
      pv[k][(size_t)i] = d.p[k] * (1.0 + 0.125 * (double)(i % 5));
    if (d.id == CN_RNG_TRIANGULAR) // keep left <= mode <= right
      for (int64_t i = 0; i < plen; i++)
        pv[k][(size_t)i] = d.p[k] + 0.25 * (double)(i % 3) * (double)k;
    if (d.id == CN_RNG_BINOMIAL && k == 0)
      for (int64_t i = 0; i < plen; i++)
        pv[k][(size_t)i] = std::floor(pv[k][(size_t)i]);
    if ((d.id == CN_RNG_BINOMIAL && k == 1) || d.id == CN_RNG_GEOMETRIC)
      for (int64_t i = 0; i < plen; i++)
        pv[k][(size_t)i] = std::fmin(pv[k][(size_t)i], 0.95);
    OK(cn_from_host(&pa[k], pv[k].data(), 0, plen * 8, 1, &plen, NULL,
                    CN_FLOAT64));
  }
  cn_array out = NULL;
  if (d.id == CN_RNG_RANDOM)
    OK(cn_random_random(&out, r, 1, &n, dt));
  else
    OK(cn_random_dist(&out, r, d.name, pa[0], pa[1], pa[2], 1, &n, dt));
  counter_of(r, key, c1);
  cn_rng_release(r);
  int kind = cn_rng_is_int(d.id) ? CN_RNG_OUT_I64
             : dt == CN_FLOAT32  ? CN_RNG_OUT_F32
                                 : CN_RNG_OUT_F64;
  const void *pd[3] = {NULL, NULL, NULL};
  double params[3] = {0, 0, 0};
  for (int k = 0; k < d.nparams; k++) {
    if (per_elem)
      pd[k] = pv[k].data();
    else
      params[k] = pv[k][0];
  }
  cn_rng_src src;
  cn_rng_src_init(&src, d.id, key, c0, params, pd);
  std::vector<double> g((size_t)n + 1);
  emulate(g.data(), kind, d.id, n, &src);
  uint64_t used = cn_rng_blocks_used(d.id, kind == CN_RNG_OUT_F32, n);
  if (blocks_between(c0, c1) != used) {
    printf("FAIL %s (%s, n %" PRId64 "): CPU used %" PRIu64
           " blocks, emulation %" PRIu64 "\n",
           d.name, cn_dtype_name(dt), n, blocks_between(c0, c1), used);
    g_fail++;
  }
  void *cd = NULL;
  OK(cn_array_data(&cd, out));
  double eps = dt == CN_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  double mag = d.id == CN_RNG_NORMAL ? fabs(d.p[0]) + 8 * fabs(d.p[1]) : 0;
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 3; i++) {
    double gv = kind == CN_RNG_OUT_F32   ? ((float *)g.data())[i]
                : kind == CN_RNG_OUT_I64 ? (double)((int64_t *)g.data())[i]
                                         : g[(size_t)i];
    double cv = kind == CN_RNG_OUT_I64 ? (double)as_int(cd, dt, i)
                                       : as_double(cd, dt, i);
    double tol = d.max_ulps * eps * fmax(fabs(cv), mag);
    bool same = kind == CN_RNG_OUT_I64
                    ? as_int(cd, dt, i) == ((int64_t *)g.data())[i]
                    : (gv == cv || fabs(gv - cv) <= tol);
    if (!same) {
      printf("FAIL %s p=(%g, %g, %g)%s (%s, n %" PRId64
             ", seed %" PRIu64 ", counter case %d) [%" PRId64
             "]: emulated %.17g, CPU %.17g\n",
             d.name, d.p[0], d.p[1], d.p[2], per_elem ? " per element" : "",
             cn_dtype_name(dt), n, seed, counter_case, i, gv, cv);
      bad++;
    }
  }
  g_fail += bad;
  cn_array_release(out);
  for (int k = 0; k < 3; k++)
    cn_array_release(pa[k]);
}

// integers: every dtype, small and full ranges, scalar and per-element
// bounds; compares the dtype's values (the core casts the int64 fill).
static void integers(cn_dtype dt, int64_t lo, int64_t hi, int64_t n,
                     uint64_t seed, int counter_case, bool per_elem) {
  g_cases++;
  cn_rng r = make_rng(seed, counter_case);
  uint32_t key[2], c0[4], c1[4];
  counter_of(r, key, c0);
  std::vector<int64_t> lov((size_t)n + 1, lo), hiv((size_t)n + 1, hi);
  if (per_elem)
    for (int64_t i = 0; i < n; i++)
      hiv[(size_t)i] =
          (int64_t)((uint64_t)hi - ((uint64_t)hi - (uint64_t)lo) / 4 *
                                       (uint64_t)(i % 3));
  cn_array out = NULL;
  const void *pd[3] = {NULL, NULL, NULL};
  double params[3] = {0, 0, 0};
  if (per_elem) {
    cn_array a = NULL, b = NULL;
    OK(cn_from_host(&a, lov.data(), 0, n * 8, 1, &n, NULL, CN_INT64));
    OK(cn_from_host(&b, hiv.data(), 0, n * 8, 1, &n, NULL, CN_INT64));
    OK(cn_random_dist(&out, r, "integers", a, b, NULL, 1, &n, dt));
    cn_array_release(a);
    cn_array_release(b);
    pd[0] = lov.data();
    pd[1] = hiv.data();
  } else {
    OK(cn_random_integers(&out, r, lo, hi, 1, 1, &n, dt));
    uint64_t m1 = (uint64_t)hi - (uint64_t)lo;
    memcpy(&params[0], &lo, 8);
    memcpy(&params[1], &m1, 8);
  }
  counter_of(r, key, c1);
  cn_rng_release(r);
  cn_rng_src src;
  cn_rng_src_init(&src, CN_RNG_INTEGERS, key, c0, params, pd);
  std::vector<int64_t> g((size_t)n + 1);
  emulate(g.data(), CN_RNG_OUT_I64, CN_RNG_INTEGERS, n, &src);
  if (blocks_between(c0, c1) != (uint64_t)n) {
    printf("FAIL integers (%s): used %" PRIu64 " blocks for %" PRId64 "\n",
           cn_dtype_name(dt), blocks_between(c0, c1), n);
    g_fail++;
  }
  void *cd = NULL;
  OK(cn_array_data(&cd, out));
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 3; i++) {
    // The core casts int64 to dt as C does (the values are in range).
    int64_t want = g[(size_t)i];
    if (as_int(cd, dt, i) != want) {
      printf("FAIL integers [%" PRId64 ", %" PRId64 "]%s (%s, seed %" PRIu64
             ", counter case %d) [%" PRId64 "]: emulated %" PRId64
             ", CPU %" PRId64 "\n",
             lo, hi, per_elem ? " per element" : "", cn_dtype_name(dt), seed,
             counter_case, i, want, as_int(cd, dt, i));
      bad++;
    }
  }
  g_fail += bad;
  cn_array_release(out);
}

int main(void) {
  static const uint64_t seeds[] = {1, 0x0123456789abcdefull};
  static const int64_t sizes[] = {0, 1, 7, 1001};
  for (const Dist &d : k_dists)
    for (uint64_t seed : seeds)
      for (int cc = 0; cc < 3; cc++)
        for (int64_t n : sizes)
          for (int pe = 0; pe < 2; pe++) {
            if (pe && (d.nparams == 0 || n == 0))
              continue;
            bool is_int = cn_rng_is_int(d.id);
            compare(d, is_int ? CN_INT64 : CN_FLOAT64, n, seed, cc, pe);
            if (!is_int)
              compare(d, CN_FLOAT32, n, seed, cc, pe);
          }
  static const struct {
    cn_dtype dt;
    int64_t lo, hi;
  } k_int[] = {
      {CN_INT8, -128, 127},       {CN_INT8, -3, 4},
      {CN_UINT8, 0, 255},         {CN_INT16, -30000, 30000},
      {CN_UINT16, 7, 65535},      {CN_INT32, INT32_MIN, INT32_MAX},
      {CN_UINT32, 0, UINT32_MAX}, {CN_UINT32, 5, 6},
      {CN_INT64, INT64_MIN, INT64_MAX},
      {CN_INT64, -((int64_t)1 << 40), (int64_t)1 << 40},
      {CN_INT64, 0, ((int64_t)1 << 32)}, // m = 2^32 + 1: the 64-bit path
      {CN_INT64, 0, ((int64_t)1 << 32) - 1}, // m = 2^32
      {CN_UINT64, 0, INT64_MAX},  {CN_INT64, 42, 42},
  };
  for (const auto &c : k_int)
    for (uint64_t seed : seeds)
      for (int cc = 0; cc < 3; cc++)
        for (int pe = 0; pe < 2; pe++)
          integers(c.dt, c.lo, c.hi, 1001, seed, cc, pe);
  printf("rng_host: %d cases, %d failures\n", g_cases, g_fail);
  return g_fail != 0;
}
