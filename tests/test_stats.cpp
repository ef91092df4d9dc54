// Statistics (cunumpy/stats.h) against closed forms, naive loops and
// NumPy's outputs for small inputs (values printed by NumPy 2.4).
#include "array_testutil.hpp"

#include <algorithm>
#include <random>

using namespace tu;
using V = std::vector<double>;

static bool close(const V &a, const V &b, double tol = 1e-12) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::isnan(a[i]) && std::isnan(b[i]))
      continue;
    if (!(std::fabs(a[i] - b[i]) <= tol * (1 + std::fabs(b[i]))))
      return false;
  }
  return true;
}

TEST_CASE("percentile methods match NumPy", "[stats]") {
  Arr a = f64({3, 1, 4, 1, 5, 9, 2, 6}, {8});
  Arr q = f64({0, 10, 25, 50, 62.5, 90, 100}, {7});
  std::vector<V> want = {{1.0, 1.0, 1.75, 3.5, 4.375, 6.8999999999999995, 9.0},
                         {1.0, 1.0, 1.0, 3.0, 4.0, 6.0, 9.0},
                         {1.0, 1.0, 2.0, 4.0, 5.0, 9.0, 9.0},
                         {1.0, 1.0, 2.0, 4.0, 4.0, 6.0, 9.0},
                         {1.0, 1.0, 1.5, 3.5, 4.5, 7.5, 9.0}};
  for (int m = 0; m < 5; m++) {
    INFO("method " << m);
    Arr r;
    CN_REQUIRE_OK(cn_percentile(r.out(), a, q, CN_ALL_AXES, nullptr, m, 0));
    REQUIRE(shape_of(r) == shp{7});
    REQUIRE(dvec(r) == want[m]); // exact, as NumPy
    Arr qq = f64({0, 0.1, 0.25, 0.5, 0.625, 0.9, 1}, {7});
    CN_REQUIRE_OK(cn_quantile(r.out(), a, qq, CN_ALL_AXES, nullptr, m, 0));
    REQUIRE(close(dvec(r), want[m]));
  }
  REQUIRE(dvec(q) == V{0, 10, 25, 50, 62.5, 90, 100}); // q untouched
  // integer input keeps its dtype for lower
  Arr ai = cast(a, CN_INT32), r;
  CN_REQUIRE_OK(cn_percentile(r.out(), ai, scalar_f(50), CN_ALL_AXES, nullptr,
                              CN_QUANTILE_LOWER, 0));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT32);
  REQUIRE(shape_of(r).empty());
  // axis, q array, keepdims
  Arr m = arange(12, {3, 4});
  Arr q3 = f64({0.3}, {1});
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_quantile(r.out(), m, q3, 1, &ax, 0, 0));
  REQUIRE(shape_of(r) == shp{1, 3});
  REQUIRE(dvec(r) == V{0.8999999999999999, 4.9, 8.9});
  CN_REQUIRE_OK(cn_quantile(r.out(), transpose(m), q3, 1, &ax, 0, 1));
  REQUIRE(shape_of(r) == shp{1, 4, 1});
  // NaN handling
  Arr n = f64({1, NAN, 3, 2}, {4});
  CN_REQUIRE_OK(
      cn_percentile(r.out(), n, scalar_f(50), CN_ALL_AXES, nullptr, 0, 0));
  REQUIRE(std::isnan(dvec(r)[0]));
  CN_REQUIRE_OK(
      cn_nanpercentile(r.out(), n, scalar_f(50), CN_ALL_AXES, nullptr, 0, 0));
  REQUIRE(dvec(r)[0] == 2);
  CN_REQUIRE_OK(
      cn_nanquantile(r.out(), n, scalar_f(1), CN_ALL_AXES, nullptr, 0, 0));
  REQUIRE(dvec(r)[0] == 3);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(
      cn_percentile(&out, a, scalar_f(101), CN_ALL_AXES, nullptr, 0, 0),
      CN_ERR_VALUE, "percentiles must be in the range [0, 100]");
  CN_REQUIRE_ERR(
      cn_quantile(&out, a, scalar_f(-0.1), CN_ALL_AXES, nullptr, 0, 0),
      CN_ERR_VALUE, "quantiles must be in the range [0, 1]");
  CN_REQUIRE_ERR(
      cn_quantile(&out, a, scalar_f(0.5), CN_ALL_AXES, nullptr, 13, 0),
      CN_ERR_VALUE, "method");
  int32_t bad = 3;
  CN_REQUIRE_ERR(cn_quantile(&out, m, q3, 1, &bad, 0, 0), CN_ERR_AXIS,
                 "axis 3");
  std::vector<std::complex<double>> z = {{1, 1}};
  Arr za = from_vec(z, {1}, CN_COMPLEX128);
  CN_REQUIRE_ERR(cn_median(&out, za, CN_ALL_AXES, nullptr, 0), CN_ERR_TYPE,
                 "complex");
  REQUIRE(out == nullptr);
}

TEST_CASE("median against sorting", "[stats]") {
  std::mt19937_64 g(5);
  std::normal_distribution<double> nd;
  for (int64_t n : {1, 2, 3, 10, 101, 1000, 100001}) {
    V v(n);
    for (auto &x : v)
      x = std::floor(nd(g) * 10); // many ties
    Arr a = f64(v, {n});
    Arr r;
    CN_REQUIRE_OK(cn_median(r.out(), a, CN_ALL_AXES, nullptr, 0));
    std::sort(v.begin(), v.end());
    double want = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    REQUIRE(dvec(r)[0] == want);
  }
  Arr m = f64({1, 5, NAN, 2, 8, 3}, {2, 3});
  Arr r;
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_median(r.out(), m, 1, &ax, 0));
  auto v = dvec(r);
  REQUIRE(std::isnan(v[0]));
  REQUIRE(v[1] == 3);
  CN_REQUIRE_OK(cn_nanmedian(r.out(), m, 1, &ax, 1));
  REQUIRE(shape_of(r) == shp{2, 1});
  REQUIRE(dvec(r) == V{3, 3});
  int32_t ax0 = 0;
  CN_REQUIRE_OK(cn_median(r.out(), cast(m, CN_FLOAT32), 1, &ax0, 0));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT32);
  CN_REQUIRE_OK(cn_median(r.out(), arange(0, {0}), CN_ALL_AXES, nullptr, 0));
  REQUIRE(std::isnan(dvec(r)[0]));
}

TEST_CASE("quantiles of long lanes (sampled band selection)", "[stats]") {
  std::mt19937_64 g(11);
  std::uniform_real_distribution<double> ud(-5, 5);
  int64_t n = 300000;
  V v(n);
  for (auto &x : v)
    x = ud(g);
  for (int64_t i = 0; i < n; i += 97)
    v[i] = NAN;
  for (int64_t i = 1; i < n; i += 13)
    v[i] = 1.25; // a heavy tie
  Arr a = f64(v, {n});
  V ok;
  for (double x : v)
    if (!std::isnan(x))
      ok.push_back(x);
  std::sort(ok.begin(), ok.end());
  int64_t m = (int64_t)ok.size();
  V qs = {0, 0.001, 0.25, 0.5, 0.6, 0.999, 1};
  Arr q = f64(qs, {7});
  for (int meth = 0; meth < 5; meth++) {
    Arr r;
    CN_REQUIRE_OK(cn_nanquantile(r.out(), a, q, CN_ALL_AXES, nullptr, meth, 0));
    auto got = dvec(r);
    for (size_t j = 0; j < qs.size(); j++) {
      double h = qs[j] * (m - 1);
      int64_t lo = (int64_t)std::floor(h);
      double t = h - lo, x0 = ok[lo], x1 = ok[std::min(lo + 1, m - 1)], w;
      if (meth == 1)
        w = x0;
      else if (meth == 2)
        w = t > 0 ? x1 : x0;
      else if (meth == 3)
        w = (int64_t)std::nearbyint(h) > lo ? x1 : x0;
      else if (meth == 4)
        w = t > 0 ? x1 - (x1 - x0) * 0.5 : x0;
      else
        w = t == 0 ? x0
                   : (t >= 0.5 ? x1 - (x1 - x0) * (1 - t) : x0 + (x1 - x0) * t);
      INFO("method " << meth << " q " << qs[j]);
      REQUIRE(got[j] == w);
    }
  }
  Arr r;
  CN_REQUIRE_OK(cn_nanmedian(r.out(), a, CN_ALL_AXES, nullptr, 0));
  double med = m % 2 ? ok[m / 2] : (ok[m / 2 - 1] + ok[m / 2]) / 2;
  REQUIRE(dvec(r)[0] == med);
  CN_REQUIRE_OK(cn_median(r.out(), a, CN_ALL_AXES, nullptr, 0));
  REQUIRE(std::isnan(dvec(r)[0]));
}

TEST_CASE("average, cov, corrcoef", "[stats]") {
  Arr a = f64({1, 2, 3, 4}, {2, 2});
  Arr w = f64({1, 3}, {2});
  Arr r;
  CN_REQUIRE_OK(cn_average(r.out(), a, w, 1));
  REQUIRE(dvec(r) == V{1.75, 3.75});
  Arr b = f64({1, 2, 3}, {3}), wb = f64({3, 0, 1}, {3});
  CN_REQUIRE_OK(cn_average(r.out(), b, wb, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{1.5});
  CN_REQUIRE_OK(cn_average(r.out(), a, nullptr, 0));
  REQUIRE(dvec(r) == V{2, 3});
  cn_array out = nullptr;
  Arr wz = f64({1, -1}, {2});
  CN_REQUIRE_ERR(cn_average(&out, a, wz, 1), CN_ERR_ZERO_DIVISION, "sum to zero");
  Arr w3 = f64({1, 2, 3}, {3});
  CN_REQUIRE_ERR(cn_average(&out, a, w3, 1), CN_ERR_SHAPE, "weights");

  Arr m = f64({0, 1, 2, 2, 1, 0.5}, {2, 3});
  CN_REQUIRE_OK(cn_cov(r.out(), m, nullptr, 1, 0, -1));
  REQUIRE(close(dvec(r), V{1.0, -0.75, -0.75, 0.5833333333333334}));
  CN_REQUIRE_OK(cn_cov(r.out(), transpose(m), nullptr, 0, 0, -1));
  REQUIRE(close(dvec(r), V{1.0, -0.75, -0.75, 0.5833333333333334}));
  Arr x = f64({0, 1, 2}, {3}), y = f64({2, 1, 0.5}, {3});
  CN_REQUIRE_OK(cn_cov(r.out(), x, y, 1, 0, -1));
  REQUIRE(close(dvec(r), V{1.0, -0.75, -0.75, 0.5833333333333334}));
  CN_REQUIRE_OK(cn_cov(r.out(), f64({1, 2, 4}, {3}), nullptr, 1, 0, -1));
  REQUIRE(shape_of(r).empty());
  REQUIRE(close(dvec(r), V{2.3333333333333335}));
  CN_REQUIRE_OK(cn_cov(r.out(), f64({1, 2, 4}, {3}), nullptr, 1, 1, -1));
  REQUIRE(close(dvec(r), V{14.0 / 9}));
  CN_REQUIRE_OK(cn_corrcoef(r.out(), m, nullptr, 1));
  REQUIRE(
      close(dvec(r), V{1.0, -0.9819805060619656, -0.9819805060619656, 1.0}));
  CN_REQUIRE_ERR(cn_cov(&out, arange(8, {2, 2, 2}), nullptr, 1, 0, -1),
                 CN_ERR_VALUE, "more than 2");
  CN_REQUIRE_ERR(cn_cov(&out, x, f64({1, 2}, {2}), 1, 0, -1), CN_ERR_SHAPE,
                 "observations");
  REQUIRE(out == nullptr);
}

TEST_CASE("histogram, histogram2d, bincount, digitize", "[stats]") {
  Arr a = f64({1, 2, 2, 3, 4, 10}, {6});
  Arr h, e;
  CN_REQUIRE_OK(
      cn_histogram(h.out(), e.out(), a, 3, nullptr, 0, 0, 0, nullptr, 0));
  REQUIRE(ivec(h) == std::vector<int64_t>{4, 1, 1});
  REQUIRE(dvec(e) == V{1, 4, 7, 10});
  Arr edges = f64({0, 2, 5, 10}, {4});
  CN_REQUIRE_OK(
      cn_histogram(h.out(), nullptr, a, 0, edges, 0, 0, 0, nullptr, 0));
  REQUIRE(ivec(h) == std::vector<int64_t>{1, 4, 1});
  Arr d = f64({0.5, 1.5}, {2});
  CN_REQUIRE_OK(
      cn_histogram(h.out(), nullptr, d, 2, nullptr, 1, 0, 2, nullptr, 1));
  REQUIRE(dvec(h) == V{0.5, 0.5});
  Arr wts = f64({1, 1, 1, 1, 1, 0.5}, {6});
  CN_REQUIRE_OK(
      cn_histogram(h.out(), nullptr, a, 3, nullptr, 1, 0, 10, wts, 0));
  REQUIRE(dvec(h) == V{4, 1, 0.5}); // bins [0,3.33) [3.33,6.67) [6.67,10]
  // naive oracle on random data with a range
  std::mt19937_64 g(1);
  std::uniform_real_distribution<double> ud(-1, 2);
  V big(10000);
  for (auto &x : big)
    x = ud(g);
  Arr ba = f64(big, {10000});
  CN_REQUIRE_OK(
      cn_histogram(h.out(), e.out(), ba, 7, nullptr, 1, 0, 1, nullptr, 0));
  auto ev = dvec(e);
  std::vector<int64_t> want(7, 0);
  for (double x : big)
    for (int k = 0; k < 7; k++)
      if (x >= ev[k] && (x < ev[k + 1] || (k == 6 && x == ev[7])))
        want[k]++;
  REQUIRE(ivec(h) == want);
  cn_array out = nullptr;
  Arr nonmono = f64({0, 2, 1}, {3});
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 0, nonmono, 0, 0, 0, nullptr, 0),
      CN_ERR_VALUE, "monotonically");
  Arr na = f64({1, NAN}, {2});
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, na, 2, nullptr, 0, 0, 0, nullptr, 0),
      CN_ERR_VALUE, "not finite");
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 0, nullptr, 0, 0, 0, nullptr, 0),
      CN_ERR_VALUE, ">= 1");

  Arr hx = f64({0, 1, 1, 2}, {4}), hy = f64({0, 0, 1, 2}, {4});
  CN_REQUIRE_OK(cn_histogram2d(h.out(), nullptr, nullptr, hx, hy, 2, 2, nullptr,
                               nullptr, 0));
  REQUIRE(ivec(h) == std::vector<int64_t>{1, 0, 1, 2});

  Arr bx = i64({0, 1, 1, 3, 2, 1, 7}, {7});
  CN_REQUIRE_OK(cn_bincount(h.out(), bx, nullptr, 0));
  REQUIRE(ivec(h) == std::vector<int64_t>{1, 3, 1, 1, 0, 0, 0, 1});
  Arr bw = f64({0.3, 0.5, 0.2, 0.7, 1., -0.6, 1}, {7});
  CN_REQUIRE_OK(cn_bincount(h.out(), bx, bw, 10));
  auto bv = dvec(h);
  REQUIRE(bv.size() == 10);
  REQUIRE(std::fabs(bv[1] - 0.1) < 1e-15);
  Arr bneg = i64({1, -1}, {2});
  CN_REQUIRE_ERR(cn_bincount(&out, bneg, nullptr, 0), CN_ERR_VALUE, "negative");
  CN_REQUIRE_ERR(cn_bincount(&out, a, nullptr, 0), CN_ERR_TYPE, "integer");

  Arr dx = f64({-1, 0, 0.5, 1, 2.5, 10, NAN}, {7});
  Arr bins = f64({0, 1, 2.5}, {3});
  CN_REQUIRE_OK(cn_digitize(h.out(), dx, bins, 0));
  REQUIRE(ivec(h) == std::vector<int64_t>{0, 1, 1, 2, 3, 3, 3});
  Arr dx6 = f64({-1, 0, 0.5, 1, 2.5, 10}, {6});
  CN_REQUIRE_OK(cn_digitize(h.out(), dx6, bins, 1));
  REQUIRE(ivec(h) == std::vector<int64_t>{0, 0, 1, 1, 2, 3});
  Arr rbins = f64({2.5, 1, 0}, {3});
  CN_REQUIRE_OK(cn_digitize(h.out(), dx6, rbins, 0));
  REQUIRE(ivec(h) == std::vector<int64_t>{3, 2, 2, 1, 0, 0});
  CN_REQUIRE_OK(cn_digitize(h.out(), dx6, rbins, 1));
  REQUIRE(ivec(h) == std::vector<int64_t>{3, 3, 2, 2, 1, 0});
  CN_REQUIRE_ERR(cn_digitize(&out, dx6, nonmono, 0), CN_ERR_VALUE, "monoton");
  REQUIRE(out == nullptr);
}

TEST_CASE("ptp, diff, gradient", "[stats]") {
  Arr a = f64({4, 9, 2, 7, 1, 8}, {2, 3});
  Arr r;
  CN_REQUIRE_OK(cn_ptp(r.out(), a, CN_AXIS_NONE, 0));
  REQUIRE(dvec(r) == V{8});
  CN_REQUIRE_OK(cn_ptp(r.out(), a, 1, 1));
  REQUIRE(shape_of(r) == shp{2, 1});
  REQUIRE(dvec(r) == V{7, 7});
  CN_REQUIRE_OK(cn_diff(r.out(), a, 1, -1));
  REQUIRE(dvec(r) == V{5, -7, -6, 7});
  CN_REQUIRE_OK(cn_diff(r.out(), a, 2, 1));
  REQUIRE(dvec(r) == V{-12, 13});
  CN_REQUIRE_OK(cn_diff(r.out(), a, 1, 0));
  REQUIRE(dvec(r) == V{3, -8, 6});
  CN_REQUIRE_OK(cn_diff(r.out(), a, 5, 1));
  REQUIRE(shape_of(r) == shp{2, 0});
  Arr bl = boolean({1, 1, 0, 1}, {4});
  CN_REQUIRE_OK(cn_diff(r.out(), bl, 1, 0));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_BOOL);
  REQUIRE(ivec(r) == std::vector<int64_t>{0, 1, 1});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_diff(&out, a, -1, 0), CN_ERR_VALUE, "non-negative");
  CN_REQUIRE_ERR(cn_diff(&out, scalar_f(1), 1, 0), CN_ERR_VALUE,
                 "one dimensional");

  Arr f = f64({1, 2, 4, 7, 11}, {5});
  CN_REQUIRE_OK(cn_gradient(r.out(), f, 0, 1.0, 1));
  REQUIRE(dvec(r) == V{1.0, 1.5, 2.5, 3.5, 4.0});
  CN_REQUIRE_OK(cn_gradient(r.out(), f, 0, 2.0, 2));
  REQUIRE(close(dvec(r), V{0.25, 0.75, 1.25, 1.75, 2.25}));
  Arr f2 = f64({1, 2, 4, 7, 11, 16}, {2, 3});
  CN_REQUIRE_OK(cn_gradient(r.out(), transpose(f2), 0, 1.0, 1)); // (3,2)
  REQUIRE(shape_of(r) == shp{3, 2});
  REQUIRE(dvec(r) == V{1, 4, 1.5, 4.5, 2, 5});
  CN_REQUIRE_ERR(cn_gradient(&out, f64({1}, {1}), 0, 1.0, 1), CN_ERR_VALUE,
                 "too small");
  CN_REQUIRE_ERR(cn_gradient(&out, f, 0, 1.0, 3), CN_ERR_VALUE, "edge_order");
}

TEST_CASE("convolve, correlate", "[stats]") {
  Arr a = f64({1, 2, 3}, {3}), v = f64({0, 1, 0.5}, {3});
  Arr r;
  CN_REQUIRE_OK(cn_convolve(r.out(), a, v, CN_CONV_FULL));
  REQUIRE(dvec(r) == V{0.0, 1.0, 2.5, 4.0, 1.5});
  CN_REQUIRE_OK(cn_convolve(r.out(), a, v, CN_CONV_SAME));
  REQUIRE(dvec(r) == V{1.0, 2.5, 4.0});
  Arr i5 = i64({1, 2, 3, 4, 5}, {5}), i2 = i64({1, 2}, {2});
  CN_REQUIRE_OK(cn_convolve(r.out(), i5, i2, CN_CONV_VALID));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT64);
  REQUIRE(ivec(r) == std::vector<int64_t>{4, 7, 10, 13});
  CN_REQUIRE_OK(cn_convolve(r.out(), i2, i5, CN_CONV_SAME));
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 4, 7, 10, 13});
  CN_REQUIRE_OK(cn_correlate(r.out(), a, v, CN_CONV_FULL));
  REQUIRE(dvec(r) == V{0.5, 2.0, 3.5, 3.0, 0.0});
  Arr v4 = f64({0, 1, 0.5, 2}, {4});
  CN_REQUIRE_OK(cn_correlate(r.out(), a, v4, CN_CONV_FULL));
  REQUIRE(dvec(r) == V{2.0, 4.5, 8.0, 3.5, 3.0, 0.0});
  CN_REQUIRE_OK(cn_correlate(r.out(), a, v4, CN_CONV_SAME));
  REQUIRE(dvec(r) == V{4.5, 8.0, 3.5, 3.0});
  CN_REQUIRE_OK(cn_correlate(r.out(), i5, i2, CN_CONV_VALID));
  REQUIRE(ivec(r) == std::vector<int64_t>{5, 8, 11, 14});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_convolve(&out, a, f64({}, {0}), 0), CN_ERR_VALUE,
                 "v cannot be empty");
  CN_REQUIRE_ERR(cn_convolve(&out, a, v, 3), CN_ERR_VALUE, "mode");
  CN_REQUIRE_ERR(cn_convolve(&out, arange(4, {2, 2}), v, 0), CN_ERR_VALUE,
                 "1-d");
}

TEST_CASE("interp and trapezoid", "[stats]") {
  Arr x = f64({-1, 0, 0.5, 1, 2.5, 3, NAN}, {7});
  Arr xp = f64({0, 1, 3}, {3}), fp = f64({10, 20, 0}, {3});
  Arr r;
  CN_REQUIRE_OK(cn_interp(r.out(), x, xp, fp, nullptr, nullptr));
  auto v = dvec(r);
  REQUIRE(V(v.begin(), v.end() - 1) == V{10.0, 10.0, 15.0, 20.0, 5.0, 0.0});
  REQUIRE(std::isnan(v.back()));
  double lft = -5, rgt = 99;
  Arr x2 = f64({-1, 4}, {2});
  CN_REQUIRE_OK(cn_interp(r.out(), x2, xp, fp, &lft, &rgt));
  REQUIRE(dvec(r) == V{-5, 99});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_interp(&out, x, xp, f64({1}, {1}), nullptr, nullptr),
                 CN_ERR_VALUE, "same length");

  Arr y = f64({1, 2, 3}, {3});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y, nullptr, 1.0, -1));
  REQUIRE(dvec(r) == V{4.0});
  Arr tx = f64({0, 1, 3}, {3});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y, tx, 1.0, 0));
  REQUIRE(dvec(r) == V{6.5});
  Arr y2 = f64({1, 2, 3, 4}, {2, 2});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y2, nullptr, 1.0, 0));
  REQUIRE(dvec(r) == V{2.0, 3.0});
  CN_REQUIRE_ERR(cn_trapezoid(&out, y, f64({1}, {1}), 1.0, 0), CN_ERR_SHAPE,
                 "axis' length");
  REQUIRE(out == nullptr);
}

// ---- weighted covariance, averages over axes, gradient coordinates,
// complex convolution, D-dimensional histograms (oracle: NumPy 2.4) ----

using C = std::complex<double>;
using CV = std::vector<C>;
static Arr c128(const CV &v, std::vector<int64_t> shape) {
  return from_vec<C>(v, shape, CN_COMPLEX128);
}
static bool cclose(const CV &a, const CV &b, double tol = 1e-8) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!(std::abs(a[i] - b[i]) <= tol * (1 + std::abs(b[i]))))
      return false;
  return true;
}

TEST_CASE("cov_weighted and complex cov / corrcoef match NumPy", "[stats]") {
  Arr m = f64({0, 1, 2, 2, 1, 0.5}, {2, 3});
  Arr fw = i64({1, 2, 1}, {3}), aw = f64({0.5, 1, 2}, {3}), r;
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), m, nullptr, fw, aw, 1, 0, -1,
                                CN_DTYPE_DEFAULT));
  REQUIRE(close(dvec(r),
                V{0.64285714, -0.42857143, -0.42857143, 0.30357143}, 1e-7));
  // the same through a transposed, reversed-stride view with rowvar=0
  Arr t = transpose(m);
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), t, nullptr, fw, aw, 0, 0, -1,
                                CN_FLOAT32));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT64); // NumPy promotes with the weights
  REQUIRE(close(dvec(r), V{0.64285714, -0.42857143, -0.42857143, 0.30357143},
                1e-6));
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), t, nullptr, nullptr, nullptr, 0, 0,
                                -1, CN_FLOAT32));
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT32);
  // no weights: the same as cn_cov
  Arr r2;
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), m, nullptr, nullptr, nullptr, 1, 0,
                                -1, CN_DTYPE_DEFAULT));
  CN_REQUIRE_OK(cn_cov(r2.out(), m, nullptr, 1, 0, -1));
  REQUIRE(dvec(r) == dvec(r2));
  // complex: conjugate products
  Arr z = c128({{1, 2}, {3, -1}, {0, 0.5}}, {3});
  CN_REQUIRE_OK(cn_cov(r.out(), z, nullptr, 1, 0, -1));
  REQUIRE(shape_of(r).empty());
  REQUIRE(cclose(to_vec<C>(r), CV{{4.58333333, 0}}));
  Arr zz = c128({{1, 1}, {2, 0}, {0, 3}, {0, 0}, {1, -1}, {2, 0}}, {2, 3});
  CN_REQUIRE_OK(cn_corrcoef(r.out(), zz, nullptr, 1));
  REQUIRE(cclose(to_vec<C>(r), CV{{1, 0},
                                  {0.07905694, 0.71151247},
                                  {0.07905694, -0.71151247},
                                  {1, 0}}));
  // degrees of freedom <= 0: NumPy's 1 / 0 scaling
  CN_REQUIRE_OK(cn_cov(r.out(), f64({1, 2}, {2}), nullptr, 1, 0, 2));
  REQUIRE(std::isinf(dvec(r)[0]));
  // a 2-d (1, N) m is transposed with rowvar=0 (NumPy 2: m.ndim != 1):
  // N variables of one observation, degrees of freedom 0
  CN_REQUIRE_OK(cn_cov(r.out(), f64({1, 2, 4}, {1, 3}), nullptr, 0, 0, -1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{3, 3});
  REQUIRE(std::isnan(dvec(r)[0]));
  // a 1-d m is one variable with rowvar=0
  CN_REQUIRE_OK(cn_cov(r.out(), f64({1, 2, 4}, {3}), nullptr, 0, 0, -1));
  REQUIRE(shape_of(r).empty());
  // errors, inputs unchanged
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, f64({1, 1.5, 1}, {3}),
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_TYPE, "integer");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, nullptr,
                                 f64({1, -1, 1}, {3}), 1, 0, -1,
                                 CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "negative");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, nullptr, f64({1, 1}, {2}),
                                 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_SHAPE, "aweights");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, i64({0, 0, 0}, {3}),
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_ZERO_DIVISION, "zero");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, nullptr, nullptr, 1, 0, -1,
                                 CN_INT32),
                 CN_ERR_TYPE, "dtype");
  CN_REQUIRE_ERR(cn_cov_weighted(nullptr, m, nullptr, nullptr, nullptr, 1, 0,
                                 -1, CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(aw) == V{0.5, 1, 2});
}

TEST_CASE("average_axes over an axis tuple with weights", "[stats]") {
  Arr a = arange(24, {2, 3, 4});
  Arr w = cast(arange(8, {4, 2}), CN_FLOAT64), one = scalar_f(1), w1;
  CN_REQUIRE_OK(cn_add(w1.out(), w, one, nullptr));
  int32_t axes[2] = {2, 0};
  Arr r, s;
  CN_REQUIRE_OK(cn_average_axes(r.out(), s.out(), a, w1, 2, axes, 0));
  REQUIRE(close(dvec(r), V{8.72222222, 12.72222222, 16.72222222}, 1e-8));
  REQUIRE(dvec(s) == V{36, 36, 36});
  CN_REQUIRE_OK(cn_average_axes(r.out(), s.out(), a, w1, 2, axes, 1));
  REQUIRE(shape_of(r) == shp{1, 3, 1});
  REQUIRE(shape_of(s) == shp{1, 3, 1});
  // no weights: the mean and the counts
  CN_REQUIRE_OK(cn_average_axes(r.out(), s.out(), a, nullptr, 2, axes, 0));
  REQUIRE(dvec(r) == V{7.5, 11.5, 15.5});
  REQUIRE(dvec(s) == V{8, 8, 8});
  // complex weights, empty axes tuple
  Arr zc = c128({{1, 1}, {2, 0}}, {2});
  int32_t ax0 = 0;
  CN_REQUIRE_OK(cn_average_axes(r.out(), nullptr, f64({1, 3}, {2}), zc, 1,
                                &ax0, 0));
  REQUIRE(cclose(to_vec<C>(r), CV{C(7, 1) / C(3, 1)}));
  cn_array out = nullptr, so = nullptr;
  CN_REQUIRE_ERR(cn_average_axes(&out, &so, a, w, CN_ALL_AXES, nullptr, 0),
                 CN_ERR_TYPE, "axis must be specified");
  int32_t bad[2] = {0, 2};
  CN_REQUIRE_ERR(cn_average_axes(&out, &so, a, w1, 2, bad, 0), CN_ERR_SHAPE,
                 "consistent");
  int32_t oob = 5;
  CN_REQUIRE_ERR(cn_average_axes(&out, &so, a, nullptr, 1, &oob, 0),
                 CN_ERR_AXIS, "");
  Arr wz = f64({1, -1}, {2});
  CN_REQUIRE_ERR(cn_average_axes(&out, &so, f64({1, 2}, {2}), wz, 1, &ax0, 0),
                 CN_ERR_ZERO_DIVISION, "sum to zero");
  REQUIRE(out == nullptr);
  REQUIRE(so == nullptr);
}

TEST_CASE("gradient_axes with coordinates, edge orders and axes", "[stats]") {
  Arr f = f64({1, 4, 9, 16, 25}, {5}), x = f64({0, 1, 1.5, 3.5, 4}, {5});
  cn_array outs[4] = {nullptr};
  int32_t nout = 0;
  cn_array sp[1] = {x};
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, f, 1, sp, CN_ALL_AXES,
                                 nullptr, 1));
  REQUIRE(nout == 1);
  REQUIRE(close(dvec(outs[0]), V{3, 7.66666667, 8.7, 15.1, 18}, 1e-8));
  cn_array_release(outs[0]);
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, f, 1, sp, CN_ALL_AXES,
                                 nullptr, 2));
  REQUIRE(close(dvec(outs[0]), V{-1.66666667, 7.66666667, 8.7, 15.1, 20.9},
                1e-8));
  cn_array_release(outs[0]);
  // 2-d, both axes, a scalar spacing shared, reversed strides
  Arr g = flip_all(arange(12, {3, 4})), h = scalar_f(2);
  cn_array sh[1] = {h};
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, g, 1, sh, CN_ALL_AXES,
                                 nullptr, 1));
  REQUIRE(nout == 2);
  REQUIRE(dvec(outs[0]) == V(12, -2.0));
  REQUIRE(dvec(outs[1]) == V(12, -0.5));
  cn_array_release(outs[0]);
  cn_array_release(outs[1]);
  // equals cn_gradient for uniform spacing
  Arr ref;
  CN_REQUIRE_OK(cn_gradient(ref.out(), f, 0, 1.0, 1));
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, f, 0, nullptr, CN_ALL_AXES,
                                 nullptr, 1));
  REQUIRE(dvec(outs[0]) == dvec(ref));
  cn_array_release(outs[0]);
  // complex f
  Arr zf = c128({{0, 0}, {1, 1}, {4, 2}}, {3});
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, zf, 0, nullptr, CN_ALL_AXES,
                                 nullptr, 1));
  REQUIRE(cclose(to_vec<C>(outs[0]), CV{{1, 1}, {2, 1}, {3, 1}}));
  cn_array_release(outs[0]);
  outs[0] = nullptr;
  // errors
  Arr x4 = f64({0, 1, 2, 3}, {4});
  cn_array bad[1] = {x4};
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 4, &nout, f, 1, bad, CN_ALL_AXES,
                                  nullptr, 1),
                 CN_ERR_VALUE, "match the length");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 4, &nout, f, 0, nullptr, CN_ALL_AXES,
                                  nullptr, 3),
                 CN_ERR_VALUE, "edge_order");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 4, &nout, f64({1, 2}, {2}), 0, nullptr,
                                  CN_ALL_AXES, nullptr, 2),
                 CN_ERR_VALUE, "too small");
  cn_array two[2] = {x, x};
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 4, &nout, f, 2, two, CN_ALL_AXES,
                                  nullptr, 1),
                 CN_ERR_VALUE, "number of spacings");
  REQUIRE(outs[0] == nullptr);
}

TEST_CASE("complex convolve / correlate / trapezoid match NumPy", "[stats]") {
  Arr a = c128({{1, 1}, {2, 0}, {3, 0}}, {3}), v = c128({0, {0, 1}, 0.5}, {3});
  Arr r;
  CN_REQUIRE_OK(cn_convolve(r.out(), a, v, CN_CONV_SAME));
  REQUIRE(cclose(to_vec<C>(r), CV{{-1, 1}, {0.5, 2.5}, {1, 3}}));
  CN_REQUIRE_OK(cn_correlate(r.out(), a, v, CN_CONV_FULL));
  REQUIRE(cclose(to_vec<C>(r), CV{{0.5, 0.5}, {2, -1}, {1.5, -2}, {0, -3}, 0}));
  // mixed real / complex
  CN_REQUIRE_OK(cn_convolve(r.out(), f64({1, 2}, {2}), v, CN_CONV_VALID));
  REQUIRE(cclose(to_vec<C>(r), CV{{0, 1}, {0.5, 2}}));
  Arr y = c128({{1, 1}, 2, {3, -2}}, {3});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y, f64({0, 1, 3}, {3}), 1.0, -1));
  REQUIRE(cclose(to_vec<C>(r), CV{{6.5, -1.5}}));
}

TEST_CASE("histogramdd matches NumPy", "[stats]") {
  Arr s = f64({0, 0, 1, 1, 0.5, 2, 1, 0.2}, {4, 2});
  Arr nb = i64({2}, {}), e1 = f64({0, 1, 2}, {3});
  Arr w = f64({1, 2, 3, 4}, {4});
  cn_array bins[2] = {nb, e1}, outs[4] = {nullptr};
  int32_t nout = 0;
  CN_REQUIRE_OK(cn_histogramdd(outs, 4, &nout, s, 2, bins, nullptr, w, 0));
  REQUIRE(nout == 3);
  REQUIRE(dvec(outs[0]) == V{1, 0, 4, 5});
  REQUIRE(dvec(outs[1]) == V{0, 0.5, 1});
  REQUIRE(outs[2] == (cn_array)e1); // given edges come back as they are
  for (int i = 0; i < 3; i++)
    cn_array_release(outs[i]);
  cn_array one[1] = {nb};
  CN_REQUIRE_OK(cn_histogramdd(outs, 4, &nout, s, 1, one, nullptr, nullptr, 1));
  REQUIRE(close(dvec(outs[0]), V{0.5, 0, 0.5, 1}));
  for (int i = 0; i < 3; i++)
    cn_array_release(outs[i]);
  // ranges, a NaN row meaning the data's
  Arr rg = f64({0, 4, NAN, NAN}, {2, 2});
  CN_REQUIRE_OK(cn_histogramdd(outs, 4, &nout, s, 1, one, rg, nullptr, 0));
  REQUIRE(dvec(outs[0]) == V{2, 2, 0, 0});
  REQUIRE(dvec(outs[1]) == V{0, 2, 4});
  for (int i = 0; i < 3; i++)
    cn_array_release(outs[i]);
  outs[0] = nullptr;
  Arr zero = i64({0}, {}), fl = scalar_f(2.5), dec = f64({1, 0}, {2});
  cn_array bz[1] = {zero}, bf[1] = {fl}, bd[1] = {dec};
  CN_REQUIRE_ERR(cn_histogramdd(outs, 4, &nout, s, 1, bz, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "positive");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 4, &nout, s, 1, bf, nullptr, nullptr, 0),
                 CN_ERR_TYPE, "integer");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 4, &nout, s, 1, bd, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "monotonically");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 4, &nout, f64({1, 2}, {2}), 1, one,
                                nullptr, nullptr, 0),
                 CN_ERR_SHAPE, "sample");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 4, &nout, s, 1, one, nullptr,
                                f64({1}, {1}), 0),
                 CN_ERR_SHAPE, "weights");
  REQUIRE(outs[0] == nullptr);
}
