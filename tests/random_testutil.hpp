// Helpers of the random-number tests (test_random.cpp,
// test_random_dist.cpp): a generator owner, moments and the
// Kolmogorov-Smirnov statistic.
#pragma once
#include "array_testutil.hpp"

#include <algorithm>

namespace tu {

// RAII owner of a generator.
struct Rng {
  cn_rng h = nullptr;
  explicit Rng(uint64_t seed) { REQUIRE(cn_rng_create(&h, seed) == CN_OK); }
  explicit Rng(cn_rng r) : h(r) {}
  ~Rng() { cn_rng_release(h); }
  Rng(const Rng &) = delete;
  Rng &operator=(const Rng &) = delete;
  operator cn_rng() const { return h; }
};

inline double mean(const std::vector<double> &v) {
  long double s = 0;
  for (double x : v)
    s += x;
  return (double)(s / v.size());
}
inline double var(const std::vector<double> &v) {
  double m = mean(v);
  long double s = 0;
  for (double x : v)
    s += (x - m) * (x - m);
  return (double)(s / v.size());
}
// Kolmogorov-Smirnov statistic times sqrt(n) against cdf.
template <class F> double ks(std::vector<double> v, F cdf) {
  std::sort(v.begin(), v.end());
  double d = 0, n = (double)v.size();
  for (size_t i = 0; i < v.size(); i++) {
    double c = cdf(v[i]);
    d = std::max({d, std::fabs(c - i / n), std::fabs((i + 1) / n - c)});
  }
  return d * std::sqrt(n);
}
// 1.95 is the 0.001 critical value of sqrt(n) D.
const double KS_CRIT = 1.95;

} // namespace tu
