// Helpers shared by test_linalg.cpp and test_fft.cpp: deterministic data,
// conversion of any array to complex long double, tolerant comparisons.
#pragma once
#include "testutil.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

using cld = std::complex<long double>;

// Deterministic pseudo-random doubles in [-1, 1).
struct Lcg {
  uint64_t s;
  explicit Lcg(uint64_t seed) : s(seed * 6364136223846793005ULL + 1) {}
  double next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
  }
};

inline bool is_cplx(cn_dtype dt) {
  return dt == CN_COMPLEX64 || dt == CN_COMPLEX128;
}
inline bool is_single(cn_dtype dt) {
  return dt == CN_FLOAT32 || dt == CN_COMPLEX64;
}
inline double tol_for(cn_dtype dt) { return is_single(dt) ? 2e-4 : 1e-10; }

// Random array of shape and dtype (complex dtypes get imaginary parts;
// integer dtypes get small integers).
inline Arr rand_arr(std::vector<int64_t> shape, cn_dtype dt, uint64_t seed) {
  int64_t n = 1;
  for (auto e : shape)
    n *= e;
  Lcg g(seed);
  std::vector<std::complex<double>> v((size_t)n);
  bool integer = !(dt == CN_FLOAT32 || dt == CN_FLOAT64 || is_cplx(dt));
  for (auto &x : v) {
    double re = g.next(), im = is_cplx(dt) ? g.next() : 0.0;
    if (integer)
      re = std::floor(re * 5);
    if (dt == CN_BOOL)
      re = re > 0;
    x = {re, im};
  }
  Arr c = from_vec(v, shape, CN_COMPLEX128);
  Arr out;
  CN_REQUIRE_OK(cn_astype(out.out(), c, dt, 1));
  return out;
}

// Any array's values in C order as complex long double.
inline std::vector<cld> vals(cn_array a) {
  Arr c;
  CN_REQUIRE_OK(cn_astype(c.out(), a, CN_COMPLEX128, 1));
  auto v = to_vec<std::complex<double>>(c);
  std::vector<cld> r(v.size());
  for (size_t i = 0; i < v.size(); i++)
    r[i] = cld(v[i].real(), v[i].imag());
  return r;
}

inline cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  REQUIRE(cn_array_dtype(&d, a) == CN_OK);
  return d;
}

// |got - want| <= tol * (1 + max |want|) elementwise.
inline void require_close(const std::vector<cld> &got,
                          const std::vector<cld> &want, double tol) {
  REQUIRE(got.size() == want.size());
  long double scale = 1;
  for (auto &w : want)
    scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < got.size(); i++) {
    INFO("element " << i << ": got (" << (double)got[i].real() << ","
                    << (double)got[i].imag() << ") want ("
                    << (double)want[i].real() << "," << (double)want[i].imag()
                    << ")");
    REQUIRE((double)std::abs(got[i] - want[i]) <= tol * (double)scale);
  }
}

inline Arr view_T(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  return t;
}
