// cn_random_dist (cunumpy/random.h): array-valued (broadcast) parameters
// against the scalar streams they must reproduce, the newer distributions
// against their closed-form CDFs / pmfs (Kolmogorov-Smirnov, chi-square at
// fixed seeds), spawn/state reproducibility, and the error paths.
#include "random_testutil.hpp"

#include <algorithm>

using namespace tu;

namespace {
// Column j of a C-ordered (rows, cols) sample.
std::vector<double> column(const std::vector<double> &v, int64_t cols,
                           int64_t j) {
  std::vector<double> c;
  for (size_t i = (size_t)j; i < v.size(); i += (size_t)cols)
    c.push_back(v[i]);
  return c;
}

// One-parameter draw of n values through cn_random_dist with 0-d params.
std::vector<double> draw1(cn_rng r, const char *name, double a, int64_t n,
                          cn_dtype dt = CN_FLOAT64) {
  Arr pa = scalar_f(a), out;
  CN_REQUIRE_OK(
      cn_random_dist(out.out(), r, name, pa, nullptr, nullptr, 1, &n, dt));
  return dvec(out);
}
std::vector<double> draw2(cn_rng r, const char *name, double a, double b,
                          int64_t n) {
  Arr pa = scalar_f(a), pb = scalar_f(b), out;
  CN_REQUIRE_OK(
      cn_random_dist(out.out(), r, name, pa, pb, nullptr, 1, &n, CN_FLOAT64));
  return dvec(out);
}
} // namespace

TEST_CASE("array parameters reproduce the scalar streams", "[random]") {
  const int64_t rows = 500, cols = 4;
  int64_t shape[2] = {rows, cols};
  Arr loc = f64({-1, 0, 2.5, 100}, {cols});
  Arr scale = f64({0.5, 2.0}, {2, 1}); // does not broadcast to (500, 4)
  Arr scale_col = arange(rows, {rows, 1});
  Arr out;
  // normal(loc (4,), scale (500, 1)) == loc + scale * standard_normal
  {
    Rng r(11), r2(11);
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "normal", loc, scale_col,
                                 nullptr, 2, shape, CN_FLOAT64));
    Arr z;
    CN_REQUIRE_OK(cn_random_standard_normal(z.out(), r2, 2, shape, CN_FLOAT64));
    auto v = dvec(out), zv = dvec(z), lv = dvec(loc), sv = dvec(scale_col);
    for (int64_t i = 0; i < rows; i++)
      for (int64_t j = 0; j < cols; j++) {
        double want = lv[j] + sv[i] * zv[i * cols + j];
        REQUIRE(std::fabs(v[i * cols + j] - want) <=
                1e-15 * (1 + std::fabs(want)));
      }
    // both generators advanced by the same number of blocks
    uint32_t s1[CN_RNG_STATE_WORDS], s2[CN_RNG_STATE_WORDS];
    CN_REQUIRE_OK(cn_rng_get_state(s1, r));
    CN_REQUIRE_OK(cn_rng_get_state(s2, r2));
    REQUIRE(std::equal(s1, s1 + CN_RNG_STATE_WORDS, s2));
  }
  // 0-d parameters give exactly the scalar function's values
  {
    Rng r(5), r2(5);
    Arr a0 = scalar_f(1.5), a1 = scalar_f(2.0), o2;
    for (const char *name : {"normal", "uniform", "gamma", "beta"}) {
      CN_REQUIRE_OK(cn_random_dist(out.out(), r, name, a0, a1, nullptr, 2,
                                   shape, CN_FLOAT32));
      std::string s(name);
      if (s == "normal")
        CN_REQUIRE_OK(
            cn_random_normal(o2.out(), r2, 1.5, 2.0, 2, shape, CN_FLOAT32));
      else if (s == "uniform")
        CN_REQUIRE_OK(
            cn_random_uniform(o2.out(), r2, 1.5, 2.0, 2, shape, CN_FLOAT32));
      else if (s == "gamma")
        CN_REQUIRE_OK(
            cn_random_gamma(o2.out(), r2, 1.5, 2.0, 2, shape, CN_FLOAT32));
      else
        CN_REQUIRE_OK(
            cn_random_beta(o2.out(), r2, 1.5, 2.0, 2, shape, CN_FLOAT32));
      INFO(name);
      REQUIRE(dvec(out) == dvec(o2));
    }
    Arr e0 = scalar_f(3.0);
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "exponential", e0, nullptr,
                                 nullptr, 2, shape, CN_FLOAT64));
    CN_REQUIRE_OK(
        cn_random_exponential(o2.out(), r2, 3.0, 2, shape, CN_FLOAT64));
    REQUIRE(dvec(out) == dvec(o2));
    Arr n0 = scalar_i(30), p0 = scalar_f(0.25);
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "binomial", n0, p0, nullptr, 2,
                                 shape, CN_INT32));
    CN_REQUIRE_OK(
        cn_random_binomial(o2.out(), r2, 30, 0.25, 2, shape, CN_INT32));
    REQUIRE(ivec(out) == ivec(o2));
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "poisson", e0, nullptr, nullptr,
                                 2, shape, CN_DTYPE_DEFAULT));
    CN_REQUIRE_OK(
        cn_random_poisson(o2.out(), r2, 3.0, 2, shape, CN_DTYPE_DEFAULT));
    REQUIRE(ivec(out) == ivec(o2));
    Arr lo = scalar_i(-7), hi = scalar_i(12);
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "integers", lo, hi, nullptr, 2,
                                 shape, CN_INT8));
    CN_REQUIRE_OK(
        cn_random_integers(o2.out(), r2, -7, 12, 1, 2, shape, CN_INT8));
    REQUIRE(ivec(out) == ivec(o2));
  }
  // uniform(low (4,), high 0-d) == low + (high - low) * random
  {
    Rng r(8), r2(8);
    Arr hi = scalar_f(200.0), u;
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "uniform", loc, hi, nullptr, 2,
                                 shape, CN_FLOAT64));
    CN_REQUIRE_OK(cn_random_random(u.out(), r2, 2, shape, CN_FLOAT64));
    auto v = dvec(out), uv = dvec(u), lv = dvec(loc);
    for (size_t i = 0; i < v.size(); i++) {
      double want = lv[i % cols] + (200.0 - lv[i % cols]) * uv[i];
      REQUIRE(std::fabs(v[i] - want) <= 1e-13 * (1 + std::fabs(want)));
    }
  }
  // parameters that do not broadcast to the shape
  Rng r(1);
  cn_array bad = nullptr;
  CN_REQUIRE_ERR(cn_random_dist(&bad, r, "normal", loc, scale, nullptr, 2,
                                shape, CN_FLOAT64),
                 CN_ERR_SHAPE, "cn_random_dist");
  REQUIRE(bad == nullptr);
}

TEST_CASE("per-element parameters: column statistics", "[random]") {
  Rng r(2024);
  const int64_t rows = 40000;
  int64_t shape[2] = {rows, 3};
  Arr out;
  // gamma with shape per column
  Arr k = f64({0.5, 2.0, 9.0}, {3}), sc = f64({2.0, 1.0, 0.5}, {3});
  CN_REQUIRE_OK(cn_random_dist(out.out(), r, "gamma", k, sc, nullptr, 2, shape,
                               CN_FLOAT64));
  auto v = dvec(out);
  double kk[3] = {0.5, 2.0, 9.0}, ss[3] = {2.0, 1.0, 0.5};
  for (int j = 0; j < 3; j++) {
    auto c = column(v, 3, j);
    double m = kk[j] * ss[j], s2 = kk[j] * ss[j] * ss[j];
    REQUIRE(std::fabs(mean(c) - m) < 5 * std::sqrt(s2 / rows));
    REQUIRE(std::fabs(var(c) - s2) < 0.08 * s2);
  }
  // binomial with n and p per column
  Arr n = i64({5, 100, 1000}, {3}), p = f64({0.5, 0.05, 0.7}, {3});
  CN_REQUIRE_OK(cn_random_dist(out.out(), r, "binomial", n, p, nullptr, 2,
                               shape, CN_DTYPE_DEFAULT));
  v = dvec(out);
  double nn[3] = {5, 100, 1000}, pp[3] = {0.5, 0.05, 0.7};
  for (int j = 0; j < 3; j++) {
    auto c = column(v, 3, j);
    double m = nn[j] * pp[j], s2 = m * (1 - pp[j]);
    REQUIRE(std::fabs(mean(c) - m) < 5 * std::sqrt(s2 / rows));
    REQUIRE(*std::max_element(c.begin(), c.end()) <= nn[j]);
  }
  // poisson with lam per column (small and PTRS)
  Arr lam = f64({0.0, 4.0, 80.0}, {3});
  CN_REQUIRE_OK(cn_random_dist(out.out(), r, "poisson", lam, nullptr, nullptr,
                               2, shape, CN_DTYPE_DEFAULT));
  v = dvec(out);
  double ll[3] = {0.0, 4.0, 80.0};
  for (int j = 0; j < 3; j++) {
    auto c = column(v, 3, j);
    if (ll[j] == 0) {
      REQUIRE(*std::max_element(c.begin(), c.end()) == 0);
      continue;
    }
    REQUIRE(std::fabs(mean(c) - ll[j]) < 5 * std::sqrt(ll[j] / rows));
    REQUIRE(std::fabs(var(c) - ll[j]) < 0.08 * ll[j]);
  }
  // integers with per-column closed ranges, uint8 result
  Arr lo = i64({0, 10, 250}, {3}), hi = i64({1, 20, 255}, {3});
  CN_REQUIRE_OK(cn_random_dist(out.out(), r, "integers", lo, hi, nullptr, 2,
                               shape, CN_UINT8));
  cn_dtype dt;
  cn_array_dtype(&dt, out);
  REQUIRE(dt == CN_UINT8);
  v = dvec(out);
  int64_t los[3] = {0, 10, 250}, his[3] = {1, 20, 255};
  for (int j = 0; j < 3; j++) {
    auto c = column(v, 3, j);
    int64_t m = his[j] - los[j] + 1;
    std::vector<double> cnt((size_t)m, 0);
    for (double x : c) {
      REQUIRE(x >= los[j]);
      REQUIRE(x <= his[j]);
      cnt[(size_t)(x - los[j])]++;
    }
    double chi = 0, e = (double)rows / m;
    for (double o : cnt)
      chi += (o - e) * (o - e) / e;
    // p = 0.001 critical values for df 1, 10, 5
    double crit = m == 2 ? 10.83 : m == 11 ? 29.59 : 20.52;
    REQUIRE(chi < crit);
  }
  // normal scale 0 in one column gives loc exactly
  Arr l2 = f64({1.0, -3.0, 0.0}, {3}), s2v = f64({0.0, 1.0, 1.0}, {3});
  CN_REQUIRE_OK(cn_random_dist(out.out(), r, "normal", l2, s2v, nullptr, 2,
                               shape, CN_FLOAT64));
  auto c0 = column(dvec(out), 3, 0);
  REQUIRE(std::all_of(c0.begin(), c0.end(), [](double x) { return x == 1.0; }));
}

TEST_CASE("more distributions: KS and chi-square", "[random]") {
  Rng r(314159);
  const int64_t n = 100000;
  auto lgn = draw2(r, "lognormal", 0.5, 0.75, n);
  REQUIRE(ks(lgn, [](double x) {
            return x <= 0 ? 0
                          : 0.5 * std::erfc(-(std::log(x) - 0.5) /
                                            (0.75 * std::sqrt(2.0)));
          }) < KS_CRIT);
  auto lap = draw2(r, "laplace", 1.0, 2.0, n);
  REQUIRE(ks(lap, [](double x) {
            double z = (x - 1.0) / 2.0;
            return z < 0 ? 0.5 * std::exp(z) : 1 - 0.5 * std::exp(-z);
          }) < KS_CRIT);
  auto lgs = draw2(r, "logistic", -2.0, 0.5, n);
  REQUIRE(ks(lgs, [](double x) {
            return 1 / (1 + std::exp(-(x + 2.0) / 0.5));
          }) < KS_CRIT);
  auto ray = draw1(r, "rayleigh", 3.0, n);
  REQUIRE(ks(ray, [](double x) {
            return x < 0 ? 0 : 1 - std::exp(-x * x / 18.0);
          }) < KS_CRIT);
  auto wei = draw1(r, "weibull", 1.7, n);
  REQUIRE(ks(wei, [](double x) {
            return x < 0 ? 0 : 1 - std::exp(-std::pow(x, 1.7));
          }) < KS_CRIT);
  // NumPy's pareto is Lomax: cdf 1 - (1 + x)^-a
  auto par = draw1(r, "pareto", 2.5, n);
  REQUIRE(ks(par, [](double x) {
            return x < 0 ? 0 : 1 - std::pow(1 + x, -2.5);
          }) < KS_CRIT);
  // chisquare(2) is exponential(2); chisquare(5): moments
  auto ch2 = draw1(r, "chisquare", 2.0, n);
  REQUIRE(ks(ch2, [](double x) { return x < 0 ? 0 : 1 - std::exp(-x / 2); }) <
          KS_CRIT);
  auto ch5 = draw1(r, "chisquare", 5.0, n);
  REQUIRE(std::fabs(mean(ch5) - 5) < 5 * std::sqrt(10.0 / n));
  REQUIRE(std::fabs(var(ch5) - 10) < 0.05 * 10);
  {
    Arr a = scalar_f(-1), m = scalar_f(0.5), b = scalar_f(3), out;
    int64_t nn = n;
    CN_REQUIRE_OK(cn_random_dist(out.out(), r, "triangular", a, m, b, 1, &nn,
                                 CN_FLOAT64));
    REQUIRE(ks(dvec(out), [](double x) {
              if (x <= -1)
                return 0.0;
              if (x <= 0.5)
                return (x + 1) * (x + 1) / (4.0 * 1.5);
              if (x < 3)
                return 1 - (3 - x) * (3 - x) / (4.0 * 2.5);
              return 1.0;
            }) < KS_CRIT);
  }
  // geometric(0.3): pmf (1-p)^(k-1) p on k = 1..8 and the tail
  auto geo = draw1(r, "geometric", 0.3, n, CN_DTYPE_DEFAULT);
  std::vector<double> cnt(9, 0), pk(9, 0);
  double tail = 1;
  for (int k = 1; k <= 8; k++) {
    pk[k - 1] = std::pow(0.7, k - 1) * 0.3;
    tail -= pk[k - 1];
  }
  pk[8] = tail;
  for (double x : geo) {
    REQUIRE(x >= 1);
    cnt[(size_t)std::min(x, 9.0) - 1]++;
  }
  double chi = 0;
  for (int k = 0; k < 9; k++)
    chi += (cnt[k] - pk[k] * n) * (cnt[k] - pk[k] * n) / (pk[k] * n);
  REQUIRE(chi < 26.12); // df 8, p = 0.001
  auto g1 = draw1(r, "geometric", 1.0, 100, CN_DTYPE_DEFAULT);
  REQUIRE(std::all_of(g1.begin(), g1.end(), [](double x) { return x == 1; }));
  // weibull(0) is 0, float32 results are float32
  auto w0 = draw1(r, "weibull", 0.0, 50, CN_FLOAT32);
  REQUIRE(std::all_of(w0.begin(), w0.end(), [](double x) { return x == 0; }));
}

TEST_CASE("spawned streams are reproducible from the state", "[random]") {
  Rng parent(99);
  uint32_t st[CN_RNG_STATE_WORDS];
  CN_REQUIRE_OK(cn_rng_get_state(st, parent));
  cn_rng a[3];
  CN_REQUIRE_OK(cn_rng_spawn(a, 3, parent));
  Rng a0(a[0]), a1(a[1]), a2(a[2]);
  // the same spawn path from the restored state gives the same children
  Rng other(12345);
  CN_REQUIRE_OK(cn_rng_set_state(other, st));
  cn_rng b[3];
  CN_REQUIRE_OK(cn_rng_spawn(b, 3, other));
  Rng b0(b[0]), b1(b[1]), b2(b[2]);
  int64_t n = 64;
  Arr x, y, z;
  CN_REQUIRE_OK(cn_random_random(x.out(), a2, 1, &n, CN_FLOAT64));
  CN_REQUIRE_OK(cn_random_random(y.out(), b2, 1, &n, CN_FLOAT64));
  CN_REQUIRE_OK(cn_random_random(z.out(), a1, 1, &n, CN_FLOAT64));
  REQUIRE(dvec(x) == dvec(y));
  REQUIRE(dvec(x) != dvec(z));
  // a second spawn continues the count: grandchildren differ from children
  cn_rng c[1];
  CN_REQUIRE_OK(cn_rng_spawn(c, 1, parent));
  Rng c0(c[0]);
  CN_REQUIRE_OK(cn_rng_get_state(st, parent));
  REQUIRE(st[6] == 4);
  CN_REQUIRE_OK(cn_random_random(y.out(), c0, 1, &n, CN_FLOAT64));
  REQUIRE(dvec(y) != dvec(x));
  // nested spawn path
  cn_rng g1[1], g2[1];
  CN_REQUIRE_OK(cn_rng_spawn(g1, 1, a0));
  CN_REQUIRE_OK(cn_rng_spawn(g2, 1, b0));
  Rng h1(g1[0]), h2(g2[0]);
  CN_REQUIRE_OK(cn_random_random(x.out(), h1, 1, &n, CN_FLOAT64));
  CN_REQUIRE_OK(cn_random_random(y.out(), h2, 1, &n, CN_FLOAT64));
  REQUIRE(dvec(x) == dvec(y));
  // errors
  CN_REQUIRE_ERR(cn_rng_spawn(g1, -1, parent), CN_ERR_VALUE, "negative count");
  CN_REQUIRE_ERR(cn_rng_get_state(st, nullptr), CN_ERR_VALUE, "'rng' is NULL");
  uint32_t bad[CN_RNG_STATE_WORDS] = {0, 0, 0, 0, 0, 1, 0, 0};
  CN_REQUIRE_ERR(cn_rng_set_state(parent, bad), CN_ERR_VALUE, "counter word 3");
}

TEST_CASE("cn_random_dist errors", "[random]") {
  Rng r(3);
  int64_t n = 4, shape1[1] = {3};
  cn_array out = nullptr;
  Arr one = scalar_f(1.0), neg = f64({1.0, 2.0, -0.5}, {3});
  Arr ints = i64({0, 1, 2}, {3});
  CN_REQUIRE_ERR(
      cn_random_dist(&out, r, "zipf", one, nullptr, nullptr, 1, &n, CN_FLOAT64),
      CN_ERR_VALUE, "unknown distribution 'zipf'");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, nullptr, one, nullptr, nullptr, 1, &n,
                                CN_FLOAT64),
                 CN_ERR_VALUE, "'dist' is NULL");
  CN_REQUIRE_ERR(cn_random_dist(&out, nullptr, "normal", one, one, nullptr, 1,
                                &n, CN_FLOAT64),
                 CN_ERR_VALUE, "'rng' is NULL");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "normal", one, nullptr, nullptr, 1, &n,
                                CN_FLOAT64),
                 CN_ERR_VALUE, "argument 'p1' (scale) is NULL");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "exponential", one, one, nullptr, 1,
                                &n, CN_FLOAT64),
                 CN_ERR_VALUE, "takes 1 parameter(s)");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "normal", one, neg, nullptr, 1, shape1,
                                CN_FLOAT64),
                 CN_ERR_VALUE, "'scale' must be >= 0 (got -0.5 at index 2)");
  CN_REQUIRE_ERR(
      cn_random_dist(&out, r, "normal", one, one, nullptr, 1, &n, CN_INT32),
      CN_ERR_TYPE, "float32 or float64");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "poisson", one, nullptr, nullptr, 1,
                                &n, CN_FLOAT64),
                 CN_ERR_TYPE, "integer dtype");
  Arr cplx = cast(one, CN_COMPLEX128);
  CN_REQUIRE_ERR(
      cn_random_dist(&out, r, "normal", cplx, one, nullptr, 1, &n, CN_FLOAT64),
      CN_ERR_TYPE, "complex128");
  CN_REQUIRE_ERR(
      cn_random_dist(&out, r, "integers", one, one, nullptr, 1, &n, CN_INT64),
      CN_ERR_TYPE, "float64");
  Arr nan = scalar_f(NAN);
  CN_REQUIRE_ERR(
      cn_random_dist(&out, r, "gamma", nan, one, nullptr, 1, &n, CN_FLOAT64),
      CN_ERR_VALUE, "'shape' must be >= 0");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "binomial", ints, neg, nullptr, 1,
                                shape1, CN_INT64),
                 CN_ERR_VALUE, "'p' must be in [0, 1]");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "geometric", scalar_f(0.0), nullptr,
                                nullptr, 1, &n, CN_INT64),
                 CN_ERR_VALUE, "'p' must be in (0, 1]");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "pareto", scalar_f(0.0), nullptr,
                                nullptr, 1, &n, CN_FLOAT64),
                 CN_ERR_VALUE, "'a' must be > 0");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "triangular", scalar_f(2.0), one,
                                scalar_f(3.0), 1, &n, CN_FLOAT64),
                 CN_ERR_VALUE, "left <= mode <= right");
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "uniform", scalar_f(-1e308),
                                scalar_f(1e308), nullptr, 1, &n, CN_FLOAT64),
                 CN_ERR_VALUE, "overflows");
  Arr hi = i64({5, 0, 9}, {3});
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "integers", ints, hi, nullptr, 1,
                                shape1, CN_INT64),
                 CN_ERR_VALUE, "low > high (1, 0 at index 1)");
  Arr big = i64({300, 300, 300}, {3});
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "integers", ints, big, nullptr, 1,
                                shape1, CN_UINT8),
                 CN_ERR_VALUE, "out of bounds for uint8");
  int64_t negshape = -2;
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "normal", one, one, nullptr, 1,
                                &negshape, CN_FLOAT64),
                 CN_ERR_VALUE, "negative dimensions");
  REQUIRE(out == nullptr);
  // a failed call leaves the generator's state alone
  uint32_t s1[CN_RNG_STATE_WORDS], s2[CN_RNG_STATE_WORDS];
  CN_REQUIRE_OK(cn_rng_get_state(s1, r));
  CN_REQUIRE_ERR(cn_random_dist(&out, r, "normal", one, neg, nullptr, 1, shape1,
                                CN_FLOAT64),
                 CN_ERR_VALUE, "index 2");
  CN_REQUIRE_OK(cn_rng_get_state(s2, r));
  REQUIRE(std::equal(s1, s1 + CN_RNG_STATE_WORDS, s2));
  // empty results still validate scalars and use no blocks
  int64_t zero = 0;
  Arr e;
  CN_REQUIRE_OK(cn_random_dist(e.out(), r, "normal", one, one, nullptr, 1,
                               &zero, CN_FLOAT64));
  CN_REQUIRE_OK(cn_rng_get_state(s2, r));
  REQUIRE(std::equal(s1, s1 + CN_RNG_STATE_WORDS, s2));
}
