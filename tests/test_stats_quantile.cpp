// NumPy's quantile methods past MIDPOINT (cunumpy/stats.h) against
// independent formulations: the continuous ones as the piecewise-linear
// curve through the plotting positions p_k = (k - alpha) / (n + 1 - alpha -
// beta) (Hyndman and Fan), the discontinuous ones from their definitions
// and NumPy 2.4's printed values.
#include "array_testutil.hpp"

#include <algorithm>

using namespace tu;
using V = std::vector<double>;

namespace {
// Continuous method oracle: interpolate (p_k, x(k)), clamp outside.
double plotting_oracle(V x, double q, long double al, long double be) {
  std::sort(x.begin(), x.end());
  if (x.size() == 1)
    return x[0];
  long double n = (long double)x.size();
  auto pk = [&](size_t k) { // k is 1-based
    return ((long double)k - al) / (n + 1 - al - be);
  };
  if (q <= pk(1))
    return x.front();
  if (q >= pk(x.size()))
    return x.back();
  size_t k = 1;
  while (pk(k + 1) <= q)
    k++;
  long double t = (q - pk(k)) / (pk(k + 1) - pk(k));
  return (double)(x[k - 1] + t * ((long double)x[k] - x[k - 1]));
}

double quantile_of(cn_array a, double q, int32_t method, cn_dtype *dt) {
  Arr r, qa = scalar_f(q);
  CN_REQUIRE_OK(cn_quantile(r.out(), a, qa, CN_ALL_AXES, nullptr, method, 0));
  if (dt)
    cn_array_dtype(dt, r);
  return dvec(r)[0];
}
} // namespace

TEST_CASE("continuous quantile methods follow the plotting positions",
          "[stats]") {
  struct M {
    int32_t m;
    long double al, be;
  } ms[] = {{CN_QUANTILE_INTERPOLATED_INVERTED_CDF, 0, 1},
            {CN_QUANTILE_HAZEN, 0.5L, 0.5L},
            {CN_QUANTILE_WEIBULL, 0, 0},
            {CN_QUANTILE_MEDIAN_UNBIASED, 1 / 3.0L, 1 / 3.0L},
            {CN_QUANTILE_NORMAL_UNBIASED, 3 / 8.0L, 3 / 8.0L},
            {CN_QUANTILE_LINEAR, 1, 1}};
  V base = {3, -1, 4, 1.5, 9, 2, 6, 5.25, -3};
  for (size_t n = 1; n <= base.size(); n++) {
    V x(base.begin(), base.begin() + (long)n);
    Arr a = f64(x, {(int64_t)n});
    for (const M &m : ms)
      for (int i = 0; i <= 40; i++) {
        double q = i / 40.0;
        cn_dtype dt;
        double got = quantile_of(a, q, m.m, &dt);
        double want = plotting_oracle(x, q, m.al, m.be);
        INFO("n " << n << " method " << m.m << " q " << q);
        REQUIRE(std::fabs(got - want) <= 1e-12 * (1 + std::fabs(want)));
        REQUIRE(dt == CN_FLOAT64);
      }
  }
}

TEST_CASE("discontinuous quantile methods", "[stats]") {
  V x = {3, 1, 4, 1.5, 9, 2, 6};
  Arr a = f64(x, {7});
  V qs = {0, 0.1, 0.2, 0.25, 0.5, 4.0 / 7.0, 0.75, 0.9, 1};
  V sorted = x;
  std::sort(sorted.begin(), sorted.end());
  double n = 7;
  for (double q : qs) {
    INFO("q " << q);
    // inverted_cdf: x(j), j = max(1, ceil(n q)) (1-based)
    double j = std::max(1.0, std::ceil(n * q));
    REQUIRE(quantile_of(a, q, CN_QUANTILE_INVERTED_CDF, nullptr) ==
            sorted[(size_t)j - 1]);
    // averaged_inverted_cdf: the mean of x(nq), x(nq + 1) when nq is whole
    double g = n * q, want;
    if (g == std::floor(g)) {
      size_t lo = (size_t)std::clamp(g, 1.0, n),
             hi = (size_t)std::clamp(g + 1, 1.0, n);
      want = (sorted[lo - 1] + sorted[hi - 1]) / 2;
    } else {
      want = sorted[(size_t)std::ceil(g) - 1];
    }
    REQUIRE(quantile_of(a, q, CN_QUANTILE_AVERAGED_INVERTED_CDF, nullptr) ==
            want);
  }
  // closest_observation: NumPy 2.4's values
  V want_co = {1.0, 1.0, 1.0, 1.5, 3.0, 3.0, 4.0, 6.0, 9.0};
  for (size_t i = 0; i < qs.size(); i++)
    REQUIRE(quantile_of(a, qs[i], CN_QUANTILE_CLOSEST_OBSERVATION, nullptr) ==
            want_co[i]);
  // integer input: the picking methods keep the dtype, the others float64
  Arr ai = cast(f64({30, 10, 40, 15, 90, 20, 60}, {7}), CN_INT16);
  cn_dtype dt;
  REQUIRE(quantile_of(ai, 0.5, CN_QUANTILE_INVERTED_CDF, &dt) == 30);
  REQUIRE(dt == CN_INT16);
  REQUIRE(quantile_of(ai, 0.25, CN_QUANTILE_CLOSEST_OBSERVATION, &dt) == 15);
  REQUIRE(dt == CN_INT16);
  REQUIRE(quantile_of(ai, 4.0 / 7.0, CN_QUANTILE_AVERAGED_INVERTED_CDF, &dt) ==
          35);
  REQUIRE(dt == CN_FLOAT64);
  // axes and nan-variants go through the same code
  Arr m = f64({1, 2, 3, NAN, 10, 20, 30, 40}, {2, 4});
  Arr r, q = scalar_f(0.5);
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_nanquantile(r.out(), m, q, 1, &ax, CN_QUANTILE_HAZEN, 0));
  REQUIRE(dvec(r) == V{2, 25});
  CN_REQUIRE_OK(cn_quantile(r.out(), m, q, 1, &ax, CN_QUANTILE_HAZEN, 0));
  REQUIRE(std::isnan(dvec(r)[0]));
  REQUIRE(dvec(r)[1] == 25);
  // errors
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_quantile(&out, a, q, CN_ALL_AXES, nullptr, 13, 0),
                 CN_ERR_VALUE, "unknown method 13");
  CN_REQUIRE_ERR(cn_quantile(&out, a, q, CN_ALL_AXES, nullptr, -1, 0),
                 CN_ERR_VALUE, "unknown method -1");
  REQUIRE(out == nullptr);
}
