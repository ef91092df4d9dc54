// Helpers for the indexing / manipulation / sorting / random / statistics
// tests: float64 views of any array and small constructors.
#pragma once
#include "testutil.hpp"

#include <cmath>
#include <complex>
#include <numeric>

namespace tu {

inline std::vector<cn_dtype> all_dtypes() {
  std::vector<cn_dtype> v;
  for (int i = 0; i < CN_NUM_DTYPES; i++) {
    cn_dtype d;
    cn_dtype_at(&d, i);
    v.push_back(d);
  }
  return v;
}

inline bool is_complex(cn_dtype d) {
  return d == CN_COMPLEX64 || d == CN_COMPLEX128;
}

// Values of any real array as float64 (C order).
// Equal element by element within a relative tolerance; NaN equals NaN
// and equal infinities are equal.
inline bool values_close(const std::vector<double> &a,
                         const std::vector<double> &b, double tol = 1e-12) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::isnan(a[i]) && std::isnan(b[i]))
      continue;
    if (a[i] == b[i])
      continue;
    if (!(std::fabs(a[i] - b[i]) <= tol * (1 + std::fabs(b[i]))))
      return false;
  }
  return true;
}

inline std::vector<double> dvec(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_astype(t.out(), a, CN_FLOAT64, 1));
  return to_vec<double>(t);
}
inline std::vector<int64_t> ivec(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_astype(t.out(), a, CN_INT64, 1));
  return to_vec<int64_t>(t);
}

inline Arr f64(const std::vector<double> &v, std::vector<int64_t> shape) {
  return from_vec<double>(v, shape, CN_FLOAT64);
}
inline Arr i64(const std::vector<int64_t> &v, std::vector<int64_t> shape) {
  return from_vec<int64_t>(v, shape, CN_INT64);
}
inline Arr boolean(const std::vector<uint8_t> &v, std::vector<int64_t> shape) {
  return from_vec<uint8_t>(v, shape, CN_BOOL);
}
// arange(n) reshaped, of dtype dt.
inline Arr arange(int64_t n, std::vector<int64_t> shape,
                  cn_dtype dt = CN_FLOAT64) {
  Arr r, s;
  CN_REQUIRE_OK(cn_arange_int(r.out(), 0, n, 1, CN_INT64));
  CN_REQUIRE_OK(
      cn_reshape(s.out(), r, (int32_t)shape.size(), shape.data(), CN_ORDER_C));
  Arr t;
  CN_REQUIRE_OK(cn_astype(t.out(), s, dt, 1));
  return t;
}
inline Arr cast(cn_array a, cn_dtype dt) {
  Arr t;
  CN_REQUIRE_OK(cn_astype(t.out(), a, dt, 1));
  return t;
}
inline Arr transpose(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  return t;
}
inline Arr flip_all(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_flip(t.out(), a, 0, nullptr));
  return t;
}
inline Arr readonly(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_readonly_view(t.out(), a));
  return t;
}
inline Arr scalar_i(int64_t v) {
  Arr t;
  CN_REQUIRE_OK(cn_from_scalar(t.out(), cn_scalar_int(v), CN_INT64));
  return t;
}
inline Arr scalar_f(double v) {
  Arr t;
  CN_REQUIRE_OK(cn_from_scalar(t.out(), cn_scalar_float(v), CN_FLOAT64));
  return t;
}
inline Arr copy(cn_array a) {
  Arr t;
  CN_REQUIRE_OK(cn_copy(t.out(), a, CN_ORDER_C));
  return t;
}

// Element-wise equality treating NaN == NaN.
inline bool same(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
      return false;
  return true;
}

using shp = std::vector<int64_t>;

} // namespace tu
