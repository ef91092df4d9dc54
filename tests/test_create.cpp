// Sequences (cn_arange, cn_arange_int, cn_linspace, cn_indices) against
// NumPy's fill rule written out naively per dtype, and values printed by
// NumPy 2.4. ctest runs this file twice: as is (the CPU's direct loops) and
// with CUNUMPY_COMPOSED_SEQUENCES=1 (the elementwise composition a device
// backend runs), so both must give NumPy's bits.
#include "array_testutil.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace tu;

namespace {

// NumPy's arange fill for a float dtype T: the first two values stored in
// T, then first + i * (second - first) computed in T.
template <class T>
std::vector<T> numpy_arange_float(double start, double stop, double step) {
  double len = std::ceil((stop - start) / step);
  int64_t n = len > 0 ? (int64_t)len : 0;
  std::vector<T> v((size_t)n);
  T first = (T)start, second = (T)(start + step), delta = second - first;
  for (int64_t i = 0; i < n; i++) {
    volatile T prod = (T)i * delta; // no contraction into an FMA
    v[(size_t)i] = prod + first;
  }
  if (n > 1)
    v[1] = second;
  return v;
}

// linspace in double, as NumPy's function_base.linspace.
std::vector<double> numpy_linspace(double start, double stop, int64_t num,
                                   bool endpoint, bool floor_it) {
  std::vector<double> v((size_t)num);
  int64_t div = endpoint ? num - 1 : num;
  double delta = stop - start, step = div > 0 ? delta / (double)div : 0;
  for (int64_t i = 0; i < num; i++) {
    volatile double y = (double)i;
    if (div > 0)
      y = step == 0 ? (y / (double)div) * delta : y * step;
    else
      y = y * delta;
    v[(size_t)i] = y + start;
  }
  if (endpoint && num > 1)
    v[(size_t)num - 1] = stop;
  if (floor_it)
    for (auto &x : v)
      x = std::floor(x);
  return v;
}

template <class T> bool bits_equal(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

} // namespace

TEST_CASE("arange float dtypes follow NumPy's fill rule bit for bit",
          "[create]") {
  const double cases[][3] = {{0, 1, 0.1},      {3, -32.6, -4.7},
                             {8.8, -85.3, -6.5}, {0.5, 5, 1.5},
                             {-1e10, 1e10, 7.3e8}, {1, 1, 1},
                             {0, 1e5, 0.37},   {5, 1, 1}};
  for (auto &c : cases) {
    INFO("start " << c[0] << " stop " << c[1] << " step " << c[2]);
    Arr a;
    CN_REQUIRE_OK(cn_arange(a.out(), c[0], c[1], c[2], CN_FLOAT64));
    REQUIRE(bits_equal(to_vec<double>(a), numpy_arange_float<double>(c[0], c[1], c[2])));
    CN_REQUIRE_OK(cn_arange(a.out(), c[0], c[1], c[2], CN_FLOAT32));
    REQUIRE(bits_equal(to_vec<float>(a), numpy_arange_float<float>(c[0], c[1], c[2])));
    // complex: the real sequence, imaginary parts zero
    CN_REQUIRE_OK(cn_arange(a.out(), c[0], c[1], c[2], CN_COMPLEX64));
    auto cz = to_vec<std::complex<float>>(a);
    auto re = numpy_arange_float<float>(c[0], c[1], c[2]);
    REQUIRE(cz.size() == re.size());
    for (size_t i = 0; i < cz.size(); i++) {
      REQUIRE(cz[i].real() == re[i]);
      REQUIRE(cz[i].imag() == 0.0f);
    }
  }
  // NumPy 2.4: np.arange(8.8, -20, -6.5, dtype=np.float32)
  Arr a;
  CN_REQUIRE_OK(cn_arange(a.out(), 8.8, -20, -6.5, CN_FLOAT32));
  REQUIRE(to_vec<float>(a) ==
          std::vector<float>{8.8f, 2.3f, -4.2f, -10.7f, -17.2f});
  // the second value is stored, not computed: 0.1f * 3 + 0 differs
  CN_REQUIRE_OK(cn_arange(a.out(), 0, 1, 0.1, CN_FLOAT32));
  REQUIRE(to_vec<float>(a)[9] == 0.90000004f);
}

TEST_CASE("arange to integer and bool dtypes as NumPy", "[create]") {
  Arr a;
  // float bounds: the first two values truncated into the dtype
  CN_REQUIRE_OK(cn_arange(a.out(), 0.5, 5, 1.5, CN_INT64));
  REQUIRE(to_vec<int64_t>(a) == std::vector<int64_t>{0, 2, 4});
  CN_REQUIRE_OK(cn_arange(a.out(), -0.5, 5, 1.5, CN_INT32));
  REQUIRE(to_vec<int32_t>(a) == std::vector<int32_t>{0, 1, 2, 3});
  CN_REQUIRE_OK(cn_arange(a.out(), 0, 5, 0.7, CN_UINT8));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>(8, 0));
  // integer bounds wrap into narrow dtypes
  CN_REQUIRE_OK(cn_arange_int(a.out(), 0, 600, 200, CN_UINT8));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{0, 200, 144});
  CN_REQUIRE_OK(cn_arange_int(a.out(), 100, -200, -100, CN_INT8));
  REQUIRE(to_vec<int8_t>(a) == std::vector<int8_t>{100, 0, -100});
  CN_REQUIRE_OK(cn_arange_int(a.out(), INT64_MIN, INT64_MAX, INT64_MAX,
                              CN_INT64));
  REQUIRE(to_vec<int64_t>(a) ==
          std::vector<int64_t>{INT64_MIN, -1, INT64_MAX - 1});
  CN_REQUIRE_OK(cn_arange_int(a.out(), 7, 7, 1, CN_INT16));
  REQUIRE(to_vec<int16_t>(a).empty());
  CN_REQUIRE_OK(cn_arange_int(a.out(), 3, 10, 3, CN_FLOAT32));
  REQUIRE(to_vec<float>(a) == std::vector<float>{3, 6, 9});
  CN_REQUIRE_OK(cn_arange_int(a.out(), -1, 3, 1, CN_BOOL));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{1, 0, 1, 1});
  CN_REQUIRE_OK(cn_arange(a.out(), 0.5, 1.0, 0.25, CN_BOOL));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{1, 1});
  CN_REQUIRE_OK(cn_arange_int(a.out(), 1, 2, 1, CN_BOOL));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{1});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_arange(&out, 0, 3, 1, CN_BOOL), CN_ERR_VALUE,
                 "at most length 2");
  CN_REQUIRE_ERR(cn_arange_int(&out, INT64_MIN, INT64_MAX, 1, CN_INT64),
                 CN_ERR_VALUE, "too large");
  CN_REQUIRE_ERR(cn_arange(&out, 0, 1, NAN, CN_FLOAT64), CN_ERR_VALUE,
                 "finite");
  CN_REQUIRE_ERR(cn_arange(&out, 0, 1, 1, (cn_dtype)3), CN_ERR_TYPE,
                 "invalid dtype");
  CN_REQUIRE_ERR(cn_arange(nullptr, 0, 1, 1, CN_FLOAT64), CN_ERR_VALUE, "");
  REQUIRE(out == nullptr);
}

TEST_CASE("linspace keeps NumPy's values for every dtype", "[create]") {
  const double cases[][2] = {{0, 1}, {-5, 0}, {1e-320, 3e-320}, {-1, 1},
                             {2.5, -7.25}, {0, 1e300}};
  const int64_t nums[] = {0, 1, 2, 3, 7, 50};
  for (auto &c : cases)
    for (int64_t num : nums)
      for (int ep = 0; ep < 2; ep++) {
        INFO("start " << c[0] << " stop " << c[1] << " num " << num
                      << " endpoint " << ep);
        Arr a;
        CN_REQUIRE_OK(cn_linspace(a.out(), c[0], c[1], num, ep, CN_FLOAT64));
        REQUIRE(bits_equal(to_vec<double>(a),
                           numpy_linspace(c[0], c[1], num, ep, false)));
        auto want = numpy_linspace(c[0], c[1], num, ep, false);
        CN_REQUIRE_OK(cn_linspace(a.out(), c[0], c[1], num, ep, CN_FLOAT32));
        auto got = to_vec<float>(a);
        REQUIRE(got.size() == want.size());
        for (size_t i = 0; i < got.size(); i++)
          REQUIRE(got[i] == (float)want[i]);
        auto fl = numpy_linspace(c[0], c[1], num, ep, true);
        CN_REQUIRE_OK(cn_linspace(a.out(), c[0], c[1], num, ep, CN_INT64));
        auto gi = to_vec<int64_t>(a);
        REQUIRE(gi.size() == fl.size());
        for (size_t i = 0; i < gi.size(); i++)
          if (std::fabs(fl[i]) < 9e18)
            REQUIRE(gi[i] == (int64_t)fl[i]);
      }
  // NumPy 2.4: np.linspace(-5, 0, 4, dtype=int), np.linspace(-1, 1, 3,
  // dtype=np.uint8), np.linspace(0, 1, 3, dtype=bool), np.linspace(0,
  // np.inf, 1)
  Arr a;
  CN_REQUIRE_OK(cn_linspace(a.out(), -5, 0, 4, 1, CN_INT64));
  REQUIRE(to_vec<int64_t>(a) == std::vector<int64_t>{-5, -4, -2, 0});
  CN_REQUIRE_OK(cn_linspace(a.out(), -1, 1, 3, 1, CN_UINT8));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{255, 0, 1});
  CN_REQUIRE_OK(cn_linspace(a.out(), 0, 1, 3, 1, CN_BOOL));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{0, 1, 1});
  CN_REQUIRE_OK(cn_linspace(a.out(), 0, INFINITY, 1, 1, CN_FLOAT64));
  REQUIRE(std::isnan(to_vec<double>(a)[0]));
  CN_REQUIRE_OK(cn_linspace(a.out(), 1, 2, 4, 1, CN_COMPLEX128));
  auto z = to_vec<std::complex<double>>(a);
  REQUIRE(z.size() == 4);
  REQUIRE(z[3] == std::complex<double>(2, 0));
  REQUIRE(z[1].real() == 1 + 1.0 / 3);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_linspace(&out, 0, 1, -2, 1, CN_FLOAT64), CN_ERR_VALUE,
                 "non-negative");
  CN_REQUIRE_ERR(cn_linspace(&out, 0, 1, 2, 1, (cn_dtype)3), CN_ERR_TYPE,
                 "invalid dtype");
  REQUIRE(out == nullptr);
}

TEST_CASE("indices are built from arange", "[create]") {
  int64_t dims[2] = {2, 3};
  Arr g;
  CN_REQUIRE_OK(cn_indices(g.out(), 2, dims, CN_INT32));
  REQUIRE(shape_of(g) == std::vector<int64_t>{2, 2, 3});
  REQUIRE(to_vec<int32_t>(g) ==
          std::vector<int32_t>{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2});
  int64_t zero[1] = {0};
  CN_REQUIRE_OK(cn_indices(g.out(), 1, zero, CN_DTYPE_DEFAULT));
  REQUIRE(shape_of(g) == std::vector<int64_t>{1, 0});
}

TEST_CASE("a large arange matches the formula everywhere", "[create]") {
  // spans several OpenMP chunks of the elementwise loops
  Arr a;
  CN_REQUIRE_OK(cn_arange(a.out(), -3.25, 2.0e5, 0.7, CN_FLOAT64));
  REQUIRE(bits_equal(to_vec<double>(a),
                     numpy_arange_float<double>(-3.25, 2.0e5, 0.7)));
  CN_REQUIRE_OK(cn_arange_int(a.out(), -1000000, 1000000, 7, CN_INT32));
  auto v = to_vec<int32_t>(a);
  REQUIRE(v.size() == 285715);
  for (size_t i = 0; i < v.size(); i++)
    REQUIRE(v[i] == (int32_t)(-1000000 + 7 * (int64_t)i));
}
