// convolve / correlate (cunumpy/stats.h) against a long double oracle that
// follows NumPy's definition step by step: every mode, every dtype family,
// lengths 1 and swapped lengths, strided and reversed views, inf locality,
// the FFT product's accuracy on long kernels, errors with inputs left as
// they were. ctest runs this file once per method (CUNUMPY_CONV_METHOD:
// automatic, composed engine ops as on a device, FFT, direct).
#include "array_testutil.hpp"

#include <algorithm>
#include <random>

using namespace tu;
using LC = std::complex<long double>;
using C = std::complex<double>;
using CV = std::vector<C>;

namespace {

// NumPy's correlate core (multiarraymodule.c _pyarray_correlate) without
// its swap: out[k] = sum_j x[k - left + j] * y[j] over existing indices.
std::vector<LC> correlate_core(const std::vector<LC> &x,
                               const std::vector<LC> &y, int mode) {
  int64_t n1 = (int64_t)x.size(), n2 = (int64_t)y.size();
  int64_t len = n1, left = n2 / 2;
  if (mode == CN_CONV_VALID) {
    len = n1 - n2 + 1;
    left = 0;
  } else if (mode == CN_CONV_FULL) {
    len = n1 + n2 - 1;
    left = n2 - 1;
  }
  std::vector<LC> out((size_t)len);
  for (int64_t k = 0; k < len; k++) {
    LC s = 0;
    for (int64_t j = 0; j < n2; j++) {
      int64_t i = k - left + j;
      if (i >= 0 && i < n1)
        s += x[(size_t)i] * y[(size_t)j];
    }
    out[(size_t)k] = s;
  }
  return out;
}

// numpy.convolve: the longer first, correlate with the other reversed.
std::vector<LC> convolve_oracle(std::vector<LC> a, std::vector<LC> v,
                                int mode) {
  if (v.size() > a.size())
    std::swap(a, v);
  std::reverse(v.begin(), v.end());
  return correlate_core(a, v, mode);
}

// numpy.correlate: v conjugated; a shorter a swaps and reverses.
std::vector<LC> correlate_oracle(std::vector<LC> a, std::vector<LC> v,
                                 int mode) {
  for (auto &z : v)
    z = std::conj(z);
  if (a.size() >= v.size())
    return correlate_core(a, v, mode);
  std::vector<LC> r = correlate_core(v, a, mode);
  std::reverse(r.begin(), r.end());
  return r;
}

Arr from_complex(const std::vector<LC> &v, cn_dtype dt) {
  CV d(v.size());
  for (size_t i = 0; i < v.size(); i++)
    d[i] = C((double)v[i].real(), (double)v[i].imag());
  Arr z = from_vec<C>(d, {(int64_t)v.size()}, CN_COMPLEX128);
  return cast(z, dt);
}

CV cvec(cn_array a) { return to_vec<C>(cast(a, CN_COMPLEX128)); }

std::vector<LC> random_values(std::mt19937_64 &g, int64_t n, bool cplx,
                              bool integral) {
  std::uniform_int_distribution<int> di(-9, 9);
  std::normal_distribution<double> dn;
  std::vector<LC> v((size_t)n);
  for (auto &z : v) {
    double re = integral ? di(g) : dn(g);
    double im = cplx ? (integral ? di(g) : dn(g)) : 0;
    z = LC(re, im);
  }
  return v;
}

// Close within tol relative to the scale of the sum's terms.
bool close_to(const CV &got, const std::vector<LC> &want, double tol,
              long double scale) {
  if (got.size() != want.size())
    return false;
  for (size_t i = 0; i < got.size(); i++) {
    LC d = LC(got[i].real(), got[i].imag()) - want[i];
    if (!(std::abs(d) <= tol * (1 + scale)))
      return false;
  }
  return true;
}

cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  cn_array_dtype(&d, a);
  return d;
}

} // namespace

TEST_CASE("convolve and correlate match NumPy's definition in every mode, "
          "dtype and length order") {
  std::mt19937_64 g(7);
  const cn_dtype dts[] = {CN_FLOAT64, CN_FLOAT32,   CN_INT64,
                          CN_INT32,   CN_INT16,     CN_UINT8,
                          CN_COMPLEX128, CN_COMPLEX64};
  const int64_t lens[][2] = {{1, 1}, {5, 1}, {1, 5}, {4, 4},  {7, 3},
                             {3, 7}, {6, 2}, {2, 6}, {40, 9}, {9, 40},
                             {50, 16}, {33, 32}};
  for (cn_dtype dt : dts) {
    bool cplx = is_complex(dt), integral = !cplx && dt != CN_FLOAT64 &&
                                           dt != CN_FLOAT32;
    bool single = dt == CN_FLOAT32 || dt == CN_COMPLEX64;
    for (auto &nm : lens) {
      auto a = random_values(g, nm[0], cplx, integral);
      auto v = random_values(g, nm[1], cplx, integral);
      if (dt == CN_UINT8)
        for (auto *w : {&a, &v})
          for (auto &z : *w)
            z = LC(std::fmod(std::abs(z.real()), 3.0L), 0); // no wrap
      Arr ha = from_complex(a, dt), hv = from_complex(v, dt);
      for (int mode : {CN_CONV_FULL, CN_CONV_SAME, CN_CONV_VALID})
        for (bool corr : {false, true}) {
          INFO("dtype " << cn_dtype_name(dt) << " lengths " << nm[0] << ","
                        << nm[1] << " mode " << mode << " corr " << corr);
          Arr r;
          CN_REQUIRE_OK((corr ? cn_correlate : cn_convolve)(r.out(), ha, hv,
                                                             mode));
          REQUIRE(dtype_of(r) == dt);
          auto want = corr ? correlate_oracle(a, v, mode)
                           : convolve_oracle(a, v, mode);
          REQUIRE(shape_of(r) == std::vector<int64_t>{(int64_t)want.size()});
          if (integral) {
            // small integers: exact
            REQUIRE(close_to(cvec(r), want, 0, 0));
          } else {
            REQUIRE(close_to(cvec(r), want, single ? 1e-5 : 1e-12, 9 * 40));
          }
        }
    }
  }
}

TEST_CASE("convolve and correlate: integer wrap-around, bool, 0-d, strides") {
  Arr r;
  // int8 products wrap as NumPy's: 100 * 2 = -56
  Arr a8 = cast(i64({100, 100}, {2}), CN_INT8), v8 = cast(i64({2}, {1}),
                                                         CN_INT8);
  CN_REQUIRE_OK(cn_convolve(r.out(), a8, v8, CN_CONV_FULL));
  REQUIRE(dtype_of(r) == CN_INT8);
  REQUIRE(ivec(r) == std::vector<int64_t>{-56, -56});
  // int64 beyond float64's 2^53: exact modular arithmetic
  Arr big = i64({(int64_t)1 << 62, 3}, {2}), two = i64({2, 1}, {2});
  CN_REQUIRE_OK(cn_convolve(r.out(), big, two, CN_CONV_FULL));
  REQUIRE(ivec(r) == std::vector<int64_t>{INT64_MIN, ((int64_t)1 << 62) + 6,
                                          3});
  // bool: or of ands
  Arr b1 = boolean({1, 0, 1, 0}, {4}), b2 = boolean({1, 1}, {2});
  CN_REQUIRE_OK(cn_convolve(r.out(), b1, b2, CN_CONV_FULL));
  REQUIRE(dtype_of(r) == CN_BOOL);
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 1, 1, 1, 0});
  // mixed dtypes promote
  Arr fi = f64({0.5, 1.5}, {2}), ii = i64({2, 4, 6}, {3});
  CN_REQUIRE_OK(cn_correlate(r.out(), ii, fi, CN_CONV_VALID));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(values_close(dvec(r), {7, 11}));
  // 0-d inputs are one value
  Arr s = scalar_f(3), w = f64({1, 2, 3}, {3});
  CN_REQUIRE_OK(cn_convolve(r.out(), s, w, CN_CONV_FULL));
  REQUIRE(values_close(dvec(r), {3, 6, 9}));
  // a strided and a reversed view give the values of their copies
  Arr base = arange(12, {12});
  Arr strided;
  CN_REQUIRE_OK(cn_slice_axis(strided.out(), base, 0, 1, 12, 3)); // 1 4 7 10
  Arr rev = flip_all(w);                                           // 3 2 1
  for (int mode : {CN_CONV_FULL, CN_CONV_SAME, CN_CONV_VALID}) {
    Arr r1, r2;
    CN_REQUIRE_OK(cn_convolve(r1.out(), strided, rev, mode));
    CN_REQUIRE_OK(cn_convolve(r2.out(), copy(strided), copy(rev), mode));
    REQUIRE(dvec(r1) == dvec(r2));
    CN_REQUIRE_OK(cn_correlate(r1.out(), rev, strided, mode));
    CN_REQUIRE_OK(cn_correlate(r2.out(), copy(rev), copy(strided), mode));
    REQUIRE(dvec(r1) == dvec(r2));
  }
  CN_REQUIRE_OK(cn_convolve(r.out(), strided, rev, CN_CONV_FULL));
  REQUIRE(values_close(dvec(r), {3, 14, 30, 48, 27, 10}));
}

TEST_CASE("convolve: inf and NaN stay where the products meet them") {
  std::vector<double> a(300, 1.0);
  a[150] = INFINITY;
  a[20] = NAN;
  std::vector<double> v(200, 0.5);
  Arr ha = f64(a, {300}), hv = f64(v, {200});
  Arr r;
  CN_REQUIRE_OK(cn_convolve(r.out(), ha, hv, CN_CONV_FULL));
  auto got = dvec(r);
  REQUIRE(got.size() == 499);
  for (int64_t k = 0; k < 499; k++) {
    bool nan_window = k >= 20 && k < 220; // outputs whose taps meet a[20]
    bool inf_window = k >= 150 && k < 350;
    INFO("k " << k);
    if (nan_window)
      REQUIRE(std::isnan(got[(size_t)k]));
    else if (inf_window)
      REQUIRE(std::isinf(got[(size_t)k]));
    else
      REQUIRE(std::isfinite(got[(size_t)k]));
  }
  // inf in the kernel: the edge outputs take only the products that exist
  Arr k2 = f64({INFINITY, 1}, {2}), x2 = f64({1, 2, 3}, {3});
  CN_REQUIRE_OK(cn_correlate(r.out(), x2, k2, CN_CONV_FULL));
  auto c = dvec(r);
  REQUIRE(c[0] == 1);
  REQUIRE(std::isinf(c[1]));
  REQUIRE(std::isinf(c[3]));
}

TEST_CASE("convolve / correlate of long kernels (the FFT product where it "
          "pays) stay within rounding of the long double sum") {
  std::mt19937_64 g(11);
  const int64_t lens[][2] = {{3000, 700}, {700, 2000}, {1024, 1024},
                             {12000, 300}};
  for (bool cplx : {false, true})
    for (auto &nm : lens) {
      auto a = random_values(g, nm[0], cplx, false);
      auto v = random_values(g, nm[1], cplx, false);
      Arr ha = from_complex(a, cplx ? CN_COMPLEX128 : CN_FLOAT64);
      Arr hv = from_complex(v, cplx ? CN_COMPLEX128 : CN_FLOAT64);
      for (int mode : {CN_CONV_FULL, CN_CONV_SAME, CN_CONV_VALID})
        for (bool corr : {false, true}) {
          INFO("lengths " << nm[0] << "," << nm[1] << " mode " << mode
                          << " corr " << corr << " complex " << cplx);
          Arr r;
          CN_REQUIRE_OK((corr ? cn_correlate : cn_convolve)(r.out(), ha, hv,
                                                             mode));
          auto want = corr ? correlate_oracle(a, v, mode)
                           : convolve_oracle(a, v, mode);
          // normal values: the terms' magnitudes sum to about
          // sqrt(taps) times the result's; FFT error ~ eps * log2(L) there
          long double scale = 4 * std::sqrt((long double)nm[1]) *
                              std::sqrt((long double)std::min(nm[0], nm[1]));
          REQUIRE(close_to(cvec(r), want, 1e-13, scale));
        }
    }
}

TEST_CASE("convolve / correlate errors leave the inputs as they were") {
  Arr a = f64({1, 2, 3}, {3}), e = f64({}, {0}), m2 = f64({1, 2, 3, 4}, {2, 2});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_convolve(&out, e, a, CN_CONV_FULL), CN_ERR_VALUE,
                 "a cannot be empty");
  CN_REQUIRE_ERR(cn_correlate(&out, a, e, CN_CONV_VALID), CN_ERR_VALUE,
                 "v cannot be empty");
  CN_REQUIRE_ERR(cn_convolve(&out, m2, a, CN_CONV_FULL), CN_ERR_VALUE,
                 "too deep");
  CN_REQUIRE_ERR(cn_convolve(&out, a, a, 3), CN_ERR_VALUE, "mode");
  CN_REQUIRE_ERR(cn_convolve(&out, nullptr, a, 0), CN_ERR_VALUE,
                 "argument 'a' is NULL");
  CN_REQUIRE_ERR(cn_correlate(nullptr, a, a, 0), CN_ERR_VALUE,
                 "output pointer is NULL");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(a) == std::vector<double>{1, 2, 3});
}
