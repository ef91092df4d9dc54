// Counter-based random numbers (cunumpy/random.h): Philox known-answer
// vectors, the documented counter -> value mapping, reproducibility, and
// statistical tests (moments, Kolmogorov-Smirnov, chi-square) at fixed
// seeds.
#include "random_testutil.hpp"

#include <algorithm>
#include <set>

#include "philox.h"
#include "random_samplers.h"

using namespace tu;

namespace {
std::vector<double> draw(cn_status st, Arr &a) {
  REQUIRE(st == CN_OK);
  return dvec(a);
}
} // namespace

TEST_CASE("Philox4x32-10 known-answer vectors", "[random]") {
  uint32_t out[4];
  uint32_t c0[4] = {0, 0, 0, 0}, k0[2] = {0, 0};
  cn_philox4x32_10(out, c0, k0);
  REQUIRE(out[0] == 0x6627e8d5u);
  REQUIRE(out[1] == 0xe169c58du);
  REQUIRE(out[2] == 0xbc57ac4cu);
  REQUIRE(out[3] == 0x9b00dbd8u);
  uint32_t c1[4] = {~0u, ~0u, ~0u, ~0u}, k1[2] = {~0u, ~0u};
  cn_philox4x32_10(out, c1, k1);
  REQUIRE(out[0] == 0x408f276du);
  REQUIRE(out[1] == 0x41c83b0eu);
  REQUIRE(out[2] == 0xa20bc7c6u);
  REQUIRE(out[3] == 0x6d5451fdu);
  uint32_t c2[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u};
  uint32_t k2[2] = {0xa4093822u, 0x299f31d0u};
  cn_philox4x32_10(out, c2, k2);
  REQUIRE(out[0] == 0xd16cfe09u);
  REQUIRE(out[1] == 0x94fdccebu);
  REQUIRE(out[2] == 0x5001e420u);
  REQUIRE(out[3] == 0x24126ea1u);
}

TEST_CASE("documented counter mapping, reproducibility, state", "[random]") {
  uint64_t seed = 0x0123456789abcdefull;
  Rng r(seed);
  Arr a;
  int64_t n = 7;
  CN_REQUIRE_OK(cn_random_random(a.out(), r, 1, &n, CN_FLOAT64));
  auto v = to_vec<double>(a);
  uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  for (int64_t i = 0; i < n; i++) {
    uint32_t c[4] = {(uint32_t)(i / 2), 0, 0, 0}, w[4];
    cn_philox4x32_10(w, c, key);
    uint64_t u = (i % 2 == 0) ? ((uint64_t)w[1] << 32 | w[0])
                              : ((uint64_t)w[3] << 32 | w[2]);
    REQUIRE(v[i] == (double)(u >> 11) * 0x1p-53);
  }
  // normals: Box-Muller on the block's two 64-bit words (1 ulp of libm)
  Rng rn(seed);
  Arr z;
  int64_t nz = 21;
  CN_REQUIRE_OK(cn_random_normal(z.out(), rn, 0.5, 2.0, 1, &nz, CN_FLOAT64));
  auto zv = to_vec<double>(z);
  for (int64_t i = 0; i < nz; i++) {
    uint32_t c[4] = {(uint32_t)(i / 2), 0, 0, 0}, w[4];
    cn_philox4x32_10(w, c, key);
    uint64_t ua = (uint64_t)w[1] << 32 | w[0], ub = (uint64_t)w[3] << 32 | w[2];
    double r =
        std::sqrt(-2.0 * std::log((double)(ua >> 11) * 0x1p-53 + 0x1p-53));
    double t = 2.0 * M_PI * ((double)(ub >> 11) * 0x1p-53);
    double want = 0.5 + 2.0 * (i % 2 == 0 ? r * std::cos(t) : r * std::sin(t));
    REQUIRE(std::fabs(zv[i] - want) <= 4e-15 * (1 + std::fabs(want)));
  }
  // 7 values used 4 blocks: the next fill starts at block 4
  uint32_t st[CN_RNG_STATE_WORDS];
  CN_REQUIRE_OK(cn_rng_get_state(st, r));
  REQUIRE(st[2] == 4);
  Arr f;
  CN_REQUIRE_OK(cn_random_random(f.out(), r, 1, &n, CN_FLOAT32));
  auto fv = to_vec<float>(f);
  uint32_t c[4] = {4, 0, 0, 0}, w[4];
  cn_philox4x32_10(w, c, key);
  REQUIRE(fv[1] == (float)(w[1] >> 8) * 0x1p-24f);
  // same seed, same stream; split fills concatenate
  Rng r2(seed);
  Arr big, p1, p2;
  int64_t n2 = 2000, n1 = 1000;
  CN_REQUIRE_OK(cn_random_standard_normal(big.out(), r2, 1, &n2, CN_FLOAT64));
  Rng r3(seed);
  CN_REQUIRE_OK(cn_random_standard_normal(p1.out(), r3, 1, &n1, CN_FLOAT64));
  CN_REQUIRE_OK(cn_random_standard_normal(p2.out(), r3, 1, &n1, CN_FLOAT64));
  auto bv = to_vec<double>(big), v1 = to_vec<double>(p1),
       v2 = to_vec<double>(p2);
  v1.insert(v1.end(), v2.begin(), v2.end());
  REQUIRE(bv == v1);
  // state restore replays
  Rng r4(1);
  CN_REQUIRE_OK(cn_rng_get_state(st, r4));
  Arr x1, x2;
  CN_REQUIRE_OK(
      cn_random_integers(x1.out(), r4, 0, 100, 0, 1, &n1, CN_DTYPE_DEFAULT));
  CN_REQUIRE_OK(cn_rng_set_state(r4, st));
  CN_REQUIRE_OK(
      cn_random_integers(x2.out(), r4, 0, 100, 0, 1, &n1, CN_DTYPE_DEFAULT));
  REQUIRE(ivec(x1) == ivec(x2));
  // spawn and jump give different, deterministic streams
  cn_rng kids[2];
  CN_REQUIRE_OK(cn_rng_spawn(kids, 2, r4));
  Rng k0(kids[0]), k1(kids[1]);
  Arr y0, y1;
  CN_REQUIRE_OK(cn_random_random(y0.out(), k0, 1, &n1, CN_FLOAT64));
  CN_REQUIRE_OK(cn_random_random(y1.out(), k1, 1, &n1, CN_FLOAT64));
  REQUIRE(dvec(y0) != dvec(y1));
  Rng r5(1);
  CN_REQUIRE_OK(cn_rng_set_state(r5, st));
  cn_rng kids2[1];
  CN_REQUIRE_OK(cn_rng_spawn(kids2, 1, r5));
  Rng k2(kids2[0]);
  Arr y2;
  CN_REQUIRE_OK(cn_random_random(y2.out(), k2, 1, &n1, CN_FLOAT64));
  REQUIRE(dvec(y2) == dvec(y0));
  CN_REQUIRE_OK(cn_rng_jump(r5, 1));
  CN_REQUIRE_OK(cn_rng_get_state(st, r5));
  REQUIRE(st[4] == 1);
  // errors
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_random_random(&out, nullptr, 1, &n, CN_FLOAT64),
                 CN_ERR_VALUE, "'rng' is NULL");
  CN_REQUIRE_ERR(cn_random_random(&out, r, 1, &n, CN_INT32), CN_ERR_TYPE,
                 "float32 or float64");
  int64_t neg = -1;
  CN_REQUIRE_ERR(cn_random_random(&out, r, 1, &neg, CN_FLOAT64), CN_ERR_VALUE,
                 "negative dimensions");
  CN_REQUIRE_ERR(cn_random_normal(&out, r, 0, -1, 1, &n, CN_FLOAT64),
                 CN_ERR_VALUE, "scale < 0");
  CN_REQUIRE_ERR(cn_random_integers(&out, r, 5, 5, 0, 1, &n, CN_INT64),
                 CN_ERR_VALUE, "low >= high");
  CN_REQUIRE_ERR(cn_random_integers(&out, r, 0, 300, 0, 1, &n, CN_UINT8),
                 CN_ERR_VALUE, "out of bounds for uint8");
  CN_REQUIRE_ERR(cn_random_binomial(&out, r, 5, 1.5, 1, &n, CN_INT64),
                 CN_ERR_VALUE, "p <= 1");
  CN_REQUIRE_ERR(cn_random_poisson(&out, r, -1, 1, &n, CN_INT64), CN_ERR_VALUE,
                 "lam");
  CN_REQUIRE_ERR(cn_random_beta(&out, r, 0, 1, 1, &n, CN_FLOAT64), CN_ERR_VALUE,
                 "> 0");
  REQUIRE(out == nullptr);
}

TEST_CASE("continuous distributions: moments and KS", "[random]") {
  Rng r(20240601);
  int64_t n = 200000;
  Arr a;
  auto u = draw(cn_random_random(a.out(), r, 1, &n, CN_FLOAT64), a);
  REQUIRE(*std::min_element(u.begin(), u.end()) >= 0.0);
  REQUIRE(*std::max_element(u.begin(), u.end()) < 1.0);
  REQUIRE(ks(u, [](double x) { return x; }) < KS_CRIT);
  auto uf = draw(cn_random_random(a.out(), r, 1, &n, CN_FLOAT32), a);
  REQUIRE(ks(uf, [](double x) { return x; }) < KS_CRIT);
  auto un = draw(cn_random_uniform(a.out(), r, -2, 3, 1, &n, CN_FLOAT64), a);
  REQUIRE(ks(un, [](double x) { return (x + 2) / 5; }) < KS_CRIT);
  auto z = draw(cn_random_normal(a.out(), r, 1.5, 2.0, 1, &n, CN_FLOAT64), a);
  REQUIRE(std::fabs(mean(z) - 1.5) < 5 * 2.0 / std::sqrt((double)n));
  REQUIRE(std::fabs(var(z) - 4.0) < 5 * 4.0 * std::sqrt(2.0 / n));
  REQUIRE(ks(z, [](double x) {
            return 0.5 * std::erfc(-(x - 1.5) / (2.0 * std::sqrt(2.0)));
          }) < KS_CRIT);
  auto zf = draw(cn_random_standard_normal(a.out(), r, 1, &n, CN_FLOAT32), a);
  REQUIRE(ks(zf, [](double x) {
            return 0.5 * std::erfc(-x / std::sqrt(2.0));
          }) < KS_CRIT);
  auto e = draw(cn_random_exponential(a.out(), r, 3.0, 1, &n, CN_FLOAT64), a);
  REQUIRE(ks(e, [](double x) { return x < 0 ? 0 : 1 - std::exp(-x / 3); }) <
          KS_CRIT);
  for (double k : {0.5, 1.0, 4.5}) {
    auto g = draw(cn_random_gamma(a.out(), r, k, 2.0, 1, &n, CN_FLOAT64), a);
    double m = k * 2, vv = k * 4;
    REQUIRE(std::fabs(mean(g) - m) < 5 * std::sqrt(vv / n));
    REQUIRE(std::fabs(var(g) - vv) < 0.05 * vv);
  }
  // gamma(1) is exponential: KS
  auto g1 = draw(cn_random_gamma(a.out(), r, 1.0, 1.0, 1, &n, CN_FLOAT64), a);
  REQUIRE(ks(g1, [](double x) { return x < 0 ? 0 : 1 - std::exp(-x); }) <
          KS_CRIT);
  auto b = draw(cn_random_beta(a.out(), r, 2.0, 5.0, 1, &n, CN_FLOAT64), a);
  double bm = 2.0 / 7, bv = 2.0 * 5 / (49 * 8);
  REQUIRE(std::fabs(mean(b) - bm) < 5 * std::sqrt(bv / n));
  REQUIRE(std::fabs(var(b) - bv) < 0.05 * bv);
  // beta(1,1) is uniform
  auto b11 = draw(cn_random_beta(a.out(), r, 1.0, 1.0, 1, &n, CN_FLOAT64), a);
  REQUIRE(ks(b11, [](double x) { return x; }) < KS_CRIT);
  // legacy
  CN_REQUIRE_OK(cn_random_seed(5));
  Arr l1, l2;
  CN_REQUIRE_OK(cn_rand(l1.out(), 1, &n));
  CN_REQUIRE_OK(cn_random_seed(5));
  CN_REQUIRE_OK(cn_rand(l2.out(), 1, &n));
  REQUIRE(dvec(l1) == dvec(l2));
  CN_REQUIRE_OK(cn_randn(l2.out(), 1, &n));
  REQUIRE(std::fabs(mean(dvec(l2))) < 5 / std::sqrt((double)n));
}

// Pearson chi-square statistic of observed counts against probabilities.
static double chi2(const std::vector<int64_t> &obs,
                   const std::vector<double> &p, int64_t n) {
  double s = 0;
  for (size_t i = 0; i < obs.size(); i++) {
    double e = p[i] * n;
    s += (obs[i] - e) * (obs[i] - e) / e;
  }
  return s;
}

TEST_CASE("discrete distributions: chi-square and moments", "[random]") {
  Rng r(77);
  int64_t n = 200000;
  Arr a;
  CN_REQUIRE_OK(cn_random_integers(a.out(), r, -3, 7, 0, 1, &n, CN_INT16));
  cn_dtype dt;
  cn_array_dtype(&dt, a);
  REQUIRE(dt == CN_INT16);
  auto iv = ivec(a);
  std::vector<int64_t> cnt(10, 0);
  for (auto x : iv) {
    REQUIRE(x >= -3);
    REQUIRE(x < 7);
    cnt[x + 3]++;
  }
  // df 9, p = 0.001 critical value 27.88
  REQUIRE(chi2(cnt, std::vector<double>(10, 0.1), n) < 27.88);
  // endpoint, and a range that is not a power of two near 2^32
  CN_REQUIRE_OK(cn_random_integers(a.out(), r, 0, 2, 1, 1, &n, CN_UINT8));
  iv = ivec(a);
  std::vector<int64_t> c3(3, 0);
  for (auto x : iv)
    c3[x]++;
  REQUIRE(chi2(c3, {1 / 3.0, 1 / 3.0, 1 / 3.0}, n) < 13.8);
  int64_t m = 3000000000ll;
  CN_REQUIRE_OK(cn_random_integers(a.out(), r, 0, m, 0, 1, &n, CN_INT64));
  iv = ivec(a);
  std::vector<int64_t> c4(4, 0);
  for (auto x : iv) {
    REQUIRE(x >= 0);
    REQUIRE(x < m);
    c4[x / (m / 4)]++;
  }
  REQUIRE(chi2(c4, {0.25, 0.25, 0.25, 0.25}, n) < 16.3);
  // full int64 range: both signs, upper 3 bits uniform
  CN_REQUIRE_OK(
      cn_random_integers(a.out(), r, INT64_MIN, INT64_MAX, 1, 1, &n, CN_INT64));
  iv = ivec(a);
  std::vector<int64_t> c8(8, 0);
  for (auto x : iv)
    c8[(uint64_t)x >> 61]++;
  REQUIRE(chi2(c8, std::vector<double>(8, 0.125), n) < 24.3);
  // binomial, small n p (inversion) and large (BTRS)
  for (auto np : std::vector<std::pair<int64_t, double>>{
           {20, 0.1}, {1000, 0.3}, {50, 0.9}}) {
    CN_REQUIRE_OK(cn_random_binomial(a.out(), r, np.first, np.second, 1, &n,
                                     CN_DTYPE_DEFAULT));
    auto v = dvec(a);
    double mu = np.first * np.second, s2 = mu * (1 - np.second);
    REQUIRE(std::fabs(mean(v) - mu) < 5 * std::sqrt(s2 / n));
    REQUIRE(std::fabs(var(v) - s2) < 0.05 * s2);
    REQUIRE(*std::min_element(v.begin(), v.end()) >= 0);
    REQUIRE(*std::max_element(v.begin(), v.end()) <= np.first);
  }
  // binomial(20, 0.1) pmf chi-square over 0..5 and the tail
  CN_REQUIRE_OK(cn_random_binomial(a.out(), r, 20, 0.1, 1, &n, CN_INT64));
  iv = ivec(a);
  std::vector<int64_t> cb(7, 0);
  std::vector<double> pb(7, 0);
  for (auto x : iv)
    cb[std::min<int64_t>(x, 6)]++;
  double tail = 1;
  for (int k = 0; k < 6; k++) {
    pb[k] =
        std::exp(std::lgamma(21) - std::lgamma(k + 1) - std::lgamma(21 - k) +
                 k * std::log(0.1) + (20 - k) * std::log(0.9));
    tail -= pb[k];
  }
  pb[6] = tail;
  REQUIRE(chi2(cb, pb, n) < 22.5);
  for (double lam : {0.0, 3.0, 50.0}) {
    CN_REQUIRE_OK(cn_random_poisson(a.out(), r, lam, 1, &n, CN_DTYPE_DEFAULT));
    auto v = dvec(a);
    if (lam == 0) {
      REQUIRE(*std::max_element(v.begin(), v.end()) == 0);
      continue;
    }
    REQUIRE(std::fabs(mean(v) - lam) < 5 * std::sqrt(lam / n));
    REQUIRE(std::fabs(var(v) - lam) < 0.05 * lam);
  }
}

TEST_CASE("choice, permutation, shuffle", "[random]") {
  Rng r(9);
  Arr a;
  int64_t k = 50;
  CN_REQUIRE_OK(cn_random_choice(a.out(), r, nullptr, 50, 1, &k, 0, nullptr));
  auto v = ivec(a);
  REQUIRE(std::set<int64_t>(v.begin(), v.end()).size() == 50);
  Arr pop = f64({10, 20, 30, 40}, {4});
  Arr p = f64({0.1, 0.0, 0.6, 0.3}, {4});
  int64_t n = 100000;
  CN_REQUIRE_OK(cn_random_choice(a.out(), r, pop, 0, 1, &n, 1, p));
  auto cv = dvec(a);
  std::vector<int64_t> cnt(4, 0);
  for (double x : cv)
    cnt[(int)(x / 10) - 1]++;
  REQUIRE(cnt[1] == 0);
  REQUIRE(chi2({cnt[0], cnt[2], cnt[3]}, {0.1, 0.6, 0.3}, n) < 13.8);
  int64_t two[2] = {2, 1};
  CN_REQUIRE_OK(cn_random_choice(a.out(), r, pop, 0, 2, two, 0, p));
  REQUIRE(shape_of(a) == shp{2, 1});
  auto w2 = dvec(a);
  REQUIRE(w2[0] != w2[1]);
  REQUIRE(w2[0] != 20);
  REQUIRE(w2[1] != 20);
  // weighted without replacement: first pick follows p
  std::vector<int64_t> first(4, 0);
  int64_t one = 1;
  for (int t = 0; t < 20000; t++) {
    CN_REQUIRE_OK(cn_random_choice(a.out(), r, nullptr, 4, 1, &one, 0, p));
    first[ivec(a)[0]]++;
  }
  REQUIRE(first[1] == 0);
  REQUIRE(chi2({first[0], first[2], first[3]}, {0.1, 0.6, 0.3}, 20000) < 13.8);
  // uniform with replacement over 5
  CN_REQUIRE_OK(cn_random_choice(a.out(), r, nullptr, 5, 1, &n, 1, nullptr));
  std::vector<int64_t> c5(5, 0);
  for (auto x : ivec(a))
    c5[x]++;
  REQUIRE(chi2(c5, std::vector<double>(5, 0.2), n) < 18.5);

  Arr perm;
  CN_REQUIRE_OK(cn_random_permutation(perm.out(), r, nullptr, 1000));
  auto pv = ivec(perm);
  std::vector<int64_t> sorted = pv;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 1000; i++)
    REQUIRE(sorted[i] == i);
  REQUIRE(pv != sorted);
  Arr m = arange(12, {4, 3});
  Arr before = copy(m);
  CN_REQUIRE_OK(cn_random_shuffle(r, m));
  auto mv = dvec(m);
  std::multiset<double> rows;
  for (int i = 0; i < 4; i++) {
    REQUIRE(mv[i * 3 + 1] == mv[i * 3] + 1);
    rows.insert(mv[i * 3]);
  }
  REQUIRE(rows == std::multiset<double>{0, 3, 6, 9});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_random_choice(&out, r, nullptr, 3, 1, &k, 0, nullptr),
                 CN_ERR_VALUE, "larger sample");
  Arr badp = f64({0.5, -0.5, 1, 0}, {4});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, badp),
                 CN_ERR_VALUE, "non-negative");
  Arr shortp = f64({1}, {1});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, shortp),
                 CN_ERR_VALUE, "a and p must have same size");
  int64_t three = 4;
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &three, 0, p),
                 CN_ERR_VALUE, "fewer non-zero");
  // p is checked as NumPy's Generator.choice: it must sum to 1 (within
  // sqrt(eps) of float64, or of float32 for a float32 p), be 1-d and finite.
  Arr unnorm = f64({1, 2, 3, 4}, {4});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, unnorm),
                 CN_ERR_VALUE, "probabilities do not sum to 1");
  Arr zeros4 = f64({0, 0, 0, 0}, {4});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, zeros4),
                 CN_ERR_VALUE, "probabilities do not sum to 1");
  Arr nanp = f64({0.5, NAN, 0.5, 0}, {4});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, nanp),
                 CN_ERR_VALUE, "probabilities contain NaN");
  Arr infp = f64({INFINITY, 0, 0, 0}, {4});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, infp),
                 CN_ERR_VALUE, "probabilities contain NaN");
  Arr p2d = f64({0.25, 0.25, 0.25, 0.25}, {2, 2});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, p2d),
                 CN_ERR_VALUE, "p must be 1-dimensional");
  Arr near64 = f64({0.5, 0.5, 1e-8, 0}, {4});
  CN_REQUIRE_OK(cn_random_choice(a.out(), r, pop, 0, 1, &k, 1, near64));
  Arr off64 = f64({0.5, 0.5, 2e-8, 0}, {4});
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, off64),
                 CN_ERR_VALUE, "do not sum to 1");
  Arr near32, off32;
  CN_REQUIRE_OK(cn_astype(near32.out(), f64({0.5, 0.5, 1e-4, 0}, {4}),
                          CN_FLOAT32, 1));
  CN_REQUIRE_OK(cn_random_choice(a.out(), r, pop, 0, 1, &k, 1, near32));
  CN_REQUIRE_OK(cn_astype(off32.out(), f64({0.5, 0.5, 4e-4, 0}, {4}),
                          CN_FLOAT32, 1));
  CN_REQUIRE_ERR(cn_random_choice(&out, r, pop, 0, 1, &k, 1, off32),
                 CN_ERR_VALUE, "do not sum to 1");
  Arr ro = readonly(m);
  CN_REQUIRE_ERR(cn_random_shuffle(r, ro), CN_ERR_VALUE, "read-only");
  REQUIRE(out == nullptr);
}

// The batched fills (AVX2 Philox lanes, Lemire's first draw in bulk) give
// the values of the scalar work items of random_samplers.h: counters that
// carry out of word 0 inside a batch, lengths that end mid-block and
// mid-batch, bounds with large rejection zones, the 2^32 and 2^64 edges.
TEST_CASE("batched RANDOM and INTEGERS fills match the scalar mapping",
          "[random]") {
  const uint32_t key[2] = {0x9abcdef0u, 0x12345678u};
  const uint32_t ctrs[3][4] = {
      {0, 0, 0, 0}, {0xfffffff3u, 7, 0, 0}, {0xffffff80u, 0xffffffffu, 3, 0}};
  struct Bounds {
    int64_t low, high;
    int32_t endpoint;
  } bounds[] = {{0, 1000, 0},
                {-5, 5, 0},
                {0, 2147483649ll, 0}, // m = 2^31 + 1: half rejected
                {0, 4294967296ll, 0}, // m = 2^32
                {-3, 4294967297ll, 0},
                {0, (1ll << 62) + 12345, 0},
                {INT64_MIN, INT64_MAX, 1}}; // m = 2^64
  for (const auto &c : ctrs) {
    for (int64_t n : {1, 2, 7, 513, 4099, 6001}) {
      uint32_t st[CN_RNG_STATE_WORDS] = {key[0], key[1], c[0], c[1],
                                         c[2], c[3], 0, 0};
      Rng r(1);
      CN_REQUIRE_OK(cn_rng_set_state(r, st));
      Arr d, f;
      CN_REQUIRE_OK(cn_random_random(d.out(), r, 1, &n, CN_FLOAT64));
      CN_REQUIRE_OK(cn_rng_set_state(r, st));
      CN_REQUIRE_OK(cn_random_random(f.out(), r, 1, &n, CN_FLOAT32));
      auto dv = to_vec<double>(d);
      auto fv = to_vec<float>(f);
      for (int64_t i = 0; i < n; i++) {
        uint32_t w[4];
        cn_rng_block(w, key, c, (uint64_t)(i / 2));
        uint64_t u = (uint64_t)w[2 * (i % 2) + 1] << 32 | w[2 * (i % 2)];
        REQUIRE(dv[i] == (double)(u >> 11) * 0x1p-53);
        cn_rng_block(w, key, c, (uint64_t)(i / 4));
        REQUIRE(fv[i] == (float)(w[i % 4] >> 8) * 0x1p-24f);
      }
      for (const auto &b : bounds) {
        CN_REQUIRE_OK(cn_rng_set_state(r, st));
        Arr x;
        CN_REQUIRE_OK(cn_random_integers(x.out(), r, b.low, b.high, b.endpoint,
                                         1, &n, CN_INT64));
        auto xv = to_vec<int64_t>(x);
        uint64_t m1 = (uint64_t)b.high - (uint64_t)b.low - (b.endpoint ? 0 : 1);
        for (int64_t i = 0; i < n; i++) {
          cn_rng_stream s;
          cn_rng_stream_init(&s, key, c, (uint64_t)i);
          REQUIRE(xv[i] == (int64_t)((uint64_t)b.low + cn_rng_bounded(&s, m1)));
        }
      }
    }
  }
}

// choice draws from the generator's serial stream (blocks made ahead in
// batches): Lemire's 64-bit method on consecutive words, rejections (a
// quarter of draws for 3 * 2^61) shifting the alignment, and the state
// advanced by the blocks read, not by those made.
TEST_CASE("choice reads the serial stream block by block", "[random]") {
  const uint32_t key[2] = {0x01020304u, 0xa0b0c0d0u};
  for (int64_t pop : {(int64_t)1000, (int64_t)3 << 61}) {
    for (int64_t k : {(int64_t)1, (int64_t)5, (int64_t)300, (int64_t)1001}) {
      uint32_t st[CN_RNG_STATE_WORDS] = {key[0], key[1], 0xfffffff0u, 0, 0,
                                         0, 0, 0};
      Rng r(1);
      CN_REQUIRE_OK(cn_rng_set_state(r, st));
      Arr x;
      CN_REQUIRE_OK(cn_random_choice(x.out(), r, nullptr, pop, 1, &k, 1,
                                     nullptr));
      auto xv = to_vec<int64_t>(x);
      uint32_t c[4] = {st[2], st[3], st[4], 0}, w[4];
      int pos = 4;
      uint64_t blocks = 0;
      auto u32 = [&]() {
        if (pos == 4) {
          cn_philox4x32_10(w, c, key);
          cn_philox_add(c, 1);
          blocks++;
          pos = 0;
        }
        return w[pos++];
      };
      auto u64 = [&]() {
        uint64_t lo = u32();
        return lo | (uint64_t)u32() << 32;
      };
      for (int64_t i = 0; i < k; i++) {
        uint64_t m = (uint64_t)pop, t = (0 - m) % m, lo;
        uint64_t hi = cn_rng_mulhi64(u64(), m, &lo);
        while (lo < t)
          hi = cn_rng_mulhi64(u64(), m, &lo);
        REQUIRE(xv[i] == (int64_t)hi);
      }
      uint32_t after[CN_RNG_STATE_WORDS];
      CN_REQUIRE_OK(cn_rng_get_state(after, r));
      uint32_t want[4] = {st[2], st[3], st[4], 0};
      cn_philox_add(want, blocks);
      REQUIRE(after[2] == want[0]);
      REQUIRE(after[3] == want[1]);
    }
  }
}
