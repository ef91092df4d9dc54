// Sorting, partitioning, searching, unique and set operations
// (cunumpy/sort.h): sortedness + permutation checks and naive oracles.
#include "array_testutil.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <type_traits>

using namespace tu;

// NumPy's order on doubles: NaN last, -0.0 == 0.0.
static bool np_less(double a, double b) {
  if (std::isnan(a))
    return false;
  if (std::isnan(b))
    return true;
  return a < b;
}

TEST_CASE("sort and argsort of every real dtype, stable, NaN last", "[sort]") {
  std::mt19937_64 g(42);
  for (cn_dtype dt : all_dtypes()) {
    if (is_complex(dt))
      continue;
    INFO(cn_dtype_name(dt));
    for (int64_t n : {0, 1, 5, 47, 48, 49, 1000, 70000}) {
      std::vector<double> v(n);
      bool uns = dt == CN_BOOL || dt == CN_UINT8 || dt == CN_UINT16 ||
                 dt == CN_UINT32 || dt == CN_UINT64;
      for (auto &x : v)
        x = (double)(int64_t)(g() % 200) - (uns ? 0 : 100);
      if (dt == CN_BOOL)
        for (auto &x : v)
          x = x != 0 ? 1 : 0;
      Arr a = cast(f64(v, {n}), dt);
      std::vector<double> av = dvec(a); // values as the dtype sees them
      Arr s, p;
      CN_REQUIRE_OK(cn_sort(s.out(), a, 0));
      CN_REQUIRE_OK(cn_argsort(p.out(), a, -1));
      cn_dtype sd;
      cn_array_dtype(&sd, s);
      REQUIRE(sd == dt);
      auto sv = dvec(s);
      auto pv = ivec(p);
      std::vector<int64_t> want(n);
      std::iota(want.begin(), want.end(), 0);
      std::stable_sort(want.begin(), want.end(), [&](int64_t x, int64_t y) {
        return np_less(av[x], av[y]);
      });
      REQUIRE(pv == want);
      for (int64_t i = 0; i < n; i++)
        REQUIRE(sv[i] == av[want[i]]);
    }
  }
}

TEST_CASE("float sorting: NaN, inf, -0.0, large lanes in parallel", "[sort]") {
  std::vector<double> v = {3,        NAN,  -INFINITY, 0.0, -0.0,
                           INFINITY, -NAN, -1,        0.0};
  Arr a = f64(v, {(int64_t)v.size()});
  Arr p;
  CN_REQUIRE_OK(cn_argsort(p.out(), a, 0));
  REQUIRE(ivec(p) == std::vector<int64_t>{2, 7, 3, 4, 8, 0, 5, 1, 6});
  Arr s;
  CN_REQUIRE_OK(cn_sort(s.out(), cast(a, CN_FLOAT32), 0));
  auto sv = dvec(s);
  REQUIRE(sv[0] == -INFINITY);
  REQUIRE(sv[6] == INFINITY);
  REQUIRE(std::isnan(sv[7]));
  REQUIRE(std::isnan(sv[8]));
  // 3e6 random doubles: sorted and a permutation (parallel radix path)
  int64_t n = 3000000;
  std::mt19937_64 g(7);
  std::normal_distribution<double> nd;
  std::vector<double> big(n);
  for (auto &x : big)
    x = nd(g);
  big[17] = NAN;
  Arr b = f64(big, {n});
  CN_REQUIRE_OK(cn_argsort(p.out(), b, 0));
  CN_REQUIRE_OK(cn_sort(s.out(), b, 0));
  auto pv = ivec(p);
  auto bs = dvec(s);
  std::vector<char> seen(n, 0);
  for (int64_t i = 0; i < n; i++) {
    REQUIRE_FALSE(seen[pv[i]]);
    seen[pv[i]] = 1;
    if (i + 1 < n - 1)
      REQUIRE(big[pv[i]] <= big[pv[i + 1]]);
  }
  REQUIRE(pv[n - 1] == 17);
  std::vector<double> ref = big;
  std::sort(ref.begin(), ref.end(), np_less);
  REQUIRE(same(bs, ref));
  // int64 extremes
  std::vector<int64_t> iv = {INT64_MAX, INT64_MIN, 0, -1, 1, INT64_MIN + 1};
  Arr ia = i64(iv, {6});
  CN_REQUIRE_OK(cn_sort(s.out(), ia, 0));
  REQUIRE(to_vec<int64_t>(s) ==
          std::vector<int64_t>{INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX});
  std::vector<uint64_t> uv = {UINT64_MAX, 0, 1ull << 63, 5};
  Arr ua = from_vec(uv, {4}, CN_UINT64);
  CN_REQUIRE_OK(cn_sort(s.out(), ua, 0));
  REQUIRE(to_vec<uint64_t>(s) ==
          std::vector<uint64_t>{0, 5, 1ull << 63, UINT64_MAX});
}

TEST_CASE("sort along axes of strided arrays, complex order", "[sort]") {
  Arr a = f64({3, 1, 2, 9, 7, 8, 5, 6, 4}, {3, 3});
  Arr s;
  CN_REQUIRE_OK(cn_sort(s.out(), a, 0));
  REQUIRE(dvec(s) == std::vector<double>{3, 1, 2, 5, 6, 4, 9, 7, 8});
  CN_REQUIRE_OK(cn_sort(s.out(), a, 1));
  REQUIRE(dvec(s) == std::vector<double>{1, 2, 3, 7, 8, 9, 4, 5, 6});
  CN_REQUIRE_OK(cn_sort(s.out(), a, CN_AXIS_NONE));
  REQUIRE(shape_of(s) == shp{9});
  Arr t = flip_all(transpose(a)); // negative strides
  CN_REQUIRE_OK(cn_sort(s.out(), t, 1));
  // t = [[4,8,2],[6,7,1],[5,9,3]]
  REQUIRE(dvec(s) == std::vector<double>{2, 4, 8, 1, 6, 7, 3, 5, 9});
  Arr p;
  CN_REQUIRE_OK(cn_argsort(p.out(), t, 0));
  REQUIRE(ivec(p) == std::vector<int64_t>{0, 1, 1, 2, 0, 0, 1, 2, 2});
  // 3-d, middle axis, many lanes
  Arr c = arange(2 * 50 * 3, {2, 50, 3});
  Arr cf = flip_all(c);
  CN_REQUIRE_OK(cn_sort(s.out(), cf, 1));
  auto cv = dvec(s);
  for (int o = 0; o < 2; o++)
    for (int j = 0; j < 3; j++)
      for (int i = 0; i + 1 < 50; i++)
        REQUIRE(cv[(o * 50 + i) * 3 + j] < cv[(o * 50 + i + 1) * 3 + j]);
  // complex: real first, then imaginary, NaNs last
  std::vector<std::complex<double>> z = {{1, 2}, {NAN, 0},   {1, NAN}, {1, 1},
                                         {0, 5}, {NAN, NAN}, {-1, 0}};
  Arr za = from_vec(z, {7}, CN_COMPLEX128);
  CN_REQUIRE_OK(cn_argsort(p.out(), za, 0));
  REQUIRE(ivec(p) == std::vector<int64_t>{6, 4, 3, 0, 2, 1, 5});
  CN_REQUIRE_OK(cn_sort(s.out(), cast(za, CN_COMPLEX64), 0));
  auto zs = to_vec<std::complex<float>>(s);
  REQUIRE(zs[0] == std::complex<float>(-1, 0));
  REQUIRE(zs[3] == std::complex<float>(1, 2));
  // errors and 0-d / empty
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_sort(&out, a, 2), CN_ERR_AXIS, "axis 2");
  CN_REQUIRE_ERR(cn_sort(&out, scalar_f(1), 0), CN_ERR_AXIS, "axis 0");
  CN_REQUIRE_OK(cn_sort(s.out(), scalar_f(1), CN_AXIS_NONE));
  REQUIRE(shape_of(s) == shp{1});
  CN_REQUIRE_OK(cn_sort(s.out(), arange(0, {0, 3}), 0));
  REQUIRE(shape_of(s) == shp{0, 3});
  CN_REQUIRE_ERR(cn_argsort(&out, nullptr, 0), CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
}

TEST_CASE("partition and argpartition", "[sort]") {
  std::mt19937_64 g(3);
  for (cn_dtype dt : {CN_FLOAT64, CN_INT32, CN_UINT8, CN_FLOAT32}) {
    int64_t n = 1001;
    std::vector<double> v(n);
    for (auto &x : v)
      x = (double)(g() % 100);
    if (dt == CN_FLOAT64)
      v[5] = NAN;
    Arr a = cast(f64(v, {n}), dt);
    auto av = dvec(a);
    std::vector<double> ref = av;
    std::sort(ref.begin(), ref.end(), np_less);
    int64_t kth[3] = {-1, 500, 3};
    Arr r, p;
    CN_REQUIRE_OK(cn_partition(r.out(), a, 3, kth, 0));
    CN_REQUIRE_OK(cn_argpartition(p.out(), a, 3, kth, 0));
    auto rv = dvec(r);
    auto pv = ivec(p);
    for (int64_t k : {n - 1, (int64_t)500, (int64_t)3}) {
      REQUIRE(same({rv[k]}, {ref[k]}));
      REQUIRE(same({av[pv[k]]}, {ref[k]}));
      for (int64_t i = 0; i < k; i++)
        REQUIRE_FALSE(np_less(rv[k], rv[i]));
      for (int64_t i = k + 1; i < n; i++)
        REQUIRE_FALSE(np_less(rv[i], rv[k]));
    }
    std::vector<double> sorted_r = rv;
    std::sort(sorted_r.begin(), sorted_r.end(), np_less);
    REQUIRE(same(sorted_r, ref));
  }
  Arr m = f64({5, 1, 4, 2, 9, 0}, {2, 3});
  int64_t k1[1] = {1};
  Arr r;
  CN_REQUIRE_OK(cn_partition(r.out(), transpose(m), 1, k1, 1));
  auto rv = dvec(r); // rows (5,2), (1,9), (4,0): kth=1 -> max at end
  REQUIRE(rv[1] == 5);
  REQUIRE(rv[3] == 9);
  REQUIRE(rv[5] == 4);
  cn_array out = nullptr;
  int64_t kb[1] = {6};
  CN_REQUIRE_ERR(cn_partition(&out, m, 1, kb, 1), CN_ERR_INDEX,
                 "kth(=6) out of bounds (3)");
  CN_REQUIRE_ERR(cn_partition(&out, m, 0, kb, 1), CN_ERR_VALUE, "kth");
  REQUIRE(out == nullptr);
}

TEST_CASE("lexsort", "[sort]") {
  Arr first = f64({1, 5, 1, 4, 3, 4, 4}, {7});
  Arr last = f64({9, 4, 0, 4, 0, 2, 1}, {7});
  cn_array keys[2] = {first, last};
  Arr p;
  CN_REQUIRE_OK(cn_lexsort(p.out(), 2, keys, -1));
  REQUIRE(ivec(p) == std::vector<int64_t>{2, 4, 6, 5, 3, 1, 0});
  Arr m1 = f64({1, 0, 1, 0}, {2, 2}), m2 = f64({0, 0, 1, 1}, {2, 2});
  cn_array mk[2] = {m1, m2};
  CN_REQUIRE_OK(cn_lexsort(p.out(), 2, mk, 0));
  REQUIRE(ivec(p) == std::vector<int64_t>{0, 0, 1, 1});
  cn_array out = nullptr;
  Arr short1 = f64({1}, {1});
  cn_array bad[2] = {first, short1};
  CN_REQUIRE_ERR(cn_lexsort(&out, 2, bad, 0), CN_ERR_SHAPE, "same shape");
  CN_REQUIRE_ERR(cn_lexsort(&out, 0, bad, 0), CN_ERR_VALUE, "at least one");
}

TEST_CASE("unique with index, inverse, counts", "[sort]") {
  Arr a = f64({3, 1, NAN, 1, -0.0, 0.0, NAN, 3, 2}, {3, 3});
  Arr v, i, inv, c;
  CN_REQUIRE_OK(cn_unique(v.out(), i.out(), inv.out(), c.out(), a, 1));
  auto vv = dvec(v);
  REQUIRE(vv.size() == 5);
  REQUIRE(vv[0] == 0);
  REQUIRE(vv[1] == 1);
  REQUIRE(vv[3] == 3);
  REQUIRE(std::isnan(vv[4]));
  REQUIRE(ivec(i) == std::vector<int64_t>{4, 1, 8, 0, 2});
  REQUIRE(ivec(c) == std::vector<int64_t>{2, 2, 1, 2, 2});
  REQUIRE(shape_of(inv) == shp{3, 3});
  auto av = dvec(a);
  auto iv = ivec(inv);
  for (int k = 0; k < 9; k++)
    REQUIRE(same({vv[iv[k]]}, {av[k]}));
  CN_REQUIRE_OK(cn_unique(v.out(), nullptr, nullptr, c.out(), a, 0));
  REQUIRE(dvec(v).size() == 6);
  REQUIRE(ivec(c).back() == 1);
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    Arr x = cast(f64({2, 0, 2, 1, 0}, {5}), dt);
    CN_REQUIRE_OK(cn_unique(v.out(), nullptr, nullptr, c.out(), x, 1));
    if (dt == CN_BOOL) {
      REQUIRE(ivec(c) == std::vector<int64_t>{2, 3});
    } else {
      REQUIRE(ivec(c) == std::vector<int64_t>{2, 1, 2});
      Arr vc = cast(v, CN_COMPLEX128);
      auto z = to_vec<std::complex<double>>(vc);
      REQUIRE(z[2].real() == 2);
    }
  }
  Arr e = arange(0, {0});
  CN_REQUIRE_OK(cn_unique(v.out(), i.out(), inv.out(), c.out(), e, 1));
  REQUIRE(shape_of(v) == shp{0});
  REQUIRE(shape_of(inv) == shp{0});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_unique(&out, nullptr, nullptr, nullptr, nullptr, 1),
                 CN_ERR_VALUE, "NULL");
}

TEST_CASE("searchsorted", "[sort]") {
  Arr a = f64({1, 2, 2, 3, NAN}, {5});
  Arr v = f64({2, 0, 3.5, NAN, 2}, {5});
  Arr r;
  CN_REQUIRE_OK(cn_searchsorted(r.out(), a, v, CN_SIDE_LEFT, nullptr));
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 0, 4, 4, 1});
  CN_REQUIRE_OK(cn_searchsorted(r.out(), a, v, CN_SIDE_RIGHT, nullptr));
  REQUIRE(ivec(r) == std::vector<int64_t>{3, 0, 4, 5, 3});
  // sorter, mixed dtypes (int array, float query)
  Arr u = i64({30, 10, 20}, {3});
  Arr srt = i64({1, 2, 0}, {3});
  Arr q = f64({15, 30, 31, -1}, {2, 2});
  CN_REQUIRE_OK(cn_searchsorted(r.out(), u, q, CN_SIDE_LEFT, srt));
  REQUIRE(shape_of(r) == shp{2, 2});
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 2, 3, 0});
  cn_array out = nullptr;
  Arr badsrt = i64({1, 2}, {2});
  CN_REQUIRE_ERR(cn_searchsorted(&out, u, q, 0, badsrt), CN_ERR_SHAPE,
                 "sorter");
  Arr oob = i64({1, 2, 3}, {3});
  CN_REQUIRE_ERR(cn_searchsorted(&out, u, q, 0, oob), CN_ERR_INDEX, "index 3");
  CN_REQUIRE_ERR(cn_searchsorted(&out, u, q, 2, nullptr), CN_ERR_VALUE, "side");
  CN_REQUIRE_ERR(cn_searchsorted(&out, arange(4, {2, 2}), q, 0, nullptr),
                 CN_ERR_SHAPE, "1-d");
  REQUIRE(out == nullptr);
}

TEST_CASE("isin and set operations", "[sort]") {
  Arr e = f64({1, 2, NAN, 4, 5, -0.0}, {2, 3});
  Arr t = i64({4, 0, 2, 2, 7}, {5});
  Arr r;
  CN_REQUIRE_OK(cn_isin(r.out(), e, t, 0));
  REQUIRE(shape_of(r) == shp{2, 3});
  REQUIRE(ivec(r) == std::vector<int64_t>{0, 1, 0, 1, 0, 1});
  CN_REQUIRE_OK(cn_isin(r.out(), e, t, 1));
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 0, 1, 0, 1, 0});
  Arr a = i64({5, 1, 3, 3, 9}, {5});
  Arr b = f64({3, 9, 9, 11, 1.5}, {5});
  CN_REQUIRE_OK(cn_intersect1d(r.out(), a, b));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT64);
  REQUIRE(dvec(r) == std::vector<double>{3, 9});
  CN_REQUIRE_OK(cn_union1d(r.out(), a, b));
  REQUIRE(dvec(r) == std::vector<double>{1, 1.5, 3, 5, 9, 11});
  CN_REQUIRE_OK(cn_setdiff1d(r.out(), a, b));
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT64);
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 5});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_union1d(&out, a, nullptr), CN_ERR_VALUE, "'b' is NULL");
  REQUIRE(out == nullptr);
}

namespace {
using cd = std::complex<double>;
// NumPy's complex order, written independently: NaN-free values by (real,
// imaginary), then R + nan j by R, nan + R j by R, nan + nan j.
int nan_class(cd z) {
  return (std::isnan(z.real()) ? 2 : 0) + (std::isnan(z.imag()) ? 1 : 0);
}
bool cless(cd a, cd b) {
  int ca = nan_class(a), cb = nan_class(b);
  if (ca != cb)
    return ca < cb;
  if (ca == 0)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  if (ca == 1)
    return a.real() < b.real();
  if (ca == 2)
    return a.imag() < b.imag();
  return false;
}
bool cequal(cd a, cd b) { return nan_class(a) == 0 && a == b; }
Arr c128(const std::vector<cd> &v) {
  return from_vec<cd>(v, {(int64_t)v.size()}, CN_COMPLEX128);
}
} // namespace

TEST_CASE("complex searchsorted, isin and set operations", "[sort]") {
  const double nan = NAN;
  std::vector<cd> a = {{3, 1},   {1, -2}, {3, -1}, {nan, 0}, {1, -2},
                       {0, nan}, {-0.0, 0}, {3, 1}, {INFINITY, -1},
                       {nan, nan}, {2, nan}, {nan, -5}};
  std::vector<cd> b = {{1, -2}, {0, 0}, {0, 5}, {INFINITY, -1}, {3, -1},
                       {nan, 0}, {2, nan}, {-1, 0}};
  std::vector<cd> s = a;
  std::stable_sort(s.begin(), s.end(), cless);
  for (cn_dtype dt : {CN_COMPLEX128, CN_COMPLEX64}) {
    INFO(cn_dtype_name(dt));
    Arr as = cast(c128(s), dt), bs = cast(c128(b), dt), r;
    // the library's sort agrees with the oracle order
    CN_REQUIRE_OK(cn_sort(r.out(), cast(c128(a), dt), 0));
    auto got = to_vec<cd>(cast(r, CN_COMPLEX128));
    for (size_t i = 0; i < s.size(); i++)
      REQUIRE((got[i] == s[i] || (nan_class(got[i]) == nan_class(s[i]) &&
                                  nan_class(s[i]) != 0)));
    for (int side : {CN_SIDE_LEFT, CN_SIDE_RIGHT}) {
      CN_REQUIRE_OK(cn_searchsorted(r.out(), as, bs, side, nullptr));
      auto idx = ivec(r);
      for (size_t i = 0; i < b.size(); i++) {
        int64_t want = 0;
        for (cd x : s)
          want += side == CN_SIDE_LEFT ? cless(x, b[i]) : !cless(b[i], x);
        INFO("b[" << i << "] side " << side);
        REQUIRE(idx[i] == want);
      }
    }
    CN_REQUIRE_OK(cn_isin(r.out(), cast(c128(a), dt), bs, 0));
    auto in = ivec(r);
    for (size_t i = 0; i < a.size(); i++) {
      bool want = false;
      for (cd y : b)
        want |= cequal(a[i], y);
      INFO("a[" << i << "]");
      REQUIRE(in[i] == (int64_t)want);
    }
    CN_REQUIRE_OK(cn_isin(r.out(), cast(c128(a), dt), bs, 1));
    for (size_t i = 0; i < a.size(); i++)
      REQUIRE(ivec(r)[i] == 1 - in[i]);
    // intersection: sorted distinct NaN-free values of a found in b
    std::vector<cd> inter;
    for (cd x : s)
      if (std::any_of(b.begin(), b.end(), [&](cd y) { return cequal(x, y); }) &&
          (inter.empty() || !cequal(inter.back(), x)))
        inter.push_back(x);
    CN_REQUIRE_OK(cn_intersect1d(r.out(), cast(c128(a), dt), bs));
    REQUIRE(to_vec<cd>(cast(r, CN_COMPLEX128)) == inter);
    // mixed real / complex promotes
    Arr re = f64({3, 0, -1, 7}, {4});
    CN_REQUIRE_OK(cn_isin(r.out(), re, bs, 0));
    REQUIRE(ivec(r) == std::vector<int64_t>{0, 1, 1, 0});
    CN_REQUIRE_OK(cn_setdiff1d(r.out(), re, bs));
    REQUIRE(dvec(r) == std::vector<double>{3, 7});
    CN_REQUIRE_OK(cn_union1d(r.out(), re, cast(c128({{0, 1}, {3, 0}}), dt)));
    REQUIRE(to_vec<cd>(cast(r, CN_COMPLEX128)) ==
            std::vector<cd>{{-1, 0}, {0, 0}, {0, 1}, {3, 0}, {7, 0}});
  }
}

// Naive unique(axis=0) of a row-major (n, m) matrix: stable lexicographic
// sort of the rows in NumPy's element order; rows with a NaN equal none.
static void naive_unique_rows(const std::vector<double> &a, int64_t n,
                              int64_t m, std::vector<int64_t> &first,
                              std::vector<int64_t> &inverse,
                              std::vector<int64_t> &counts) {
  std::vector<int64_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  auto less = [&](int64_t x, int64_t y) {
    for (int64_t j = 0; j < m; j++) {
      double p = a[x * m + j], q = a[y * m + j];
      if (np_less(p, q))
        return true;
      if (np_less(q, p))
        return false;
    }
    return false;
  };
  std::stable_sort(idx.begin(), idx.end(), less);
  inverse.assign(n, 0);
  first.clear();
  counts.clear();
  for (int64_t k = 0; k < n; k++) {
    bool nan = false;
    for (int64_t j = 0; j < m; j++)
      nan |= std::isnan(a[idx[k] * m + j]);
    if (k == 0 || nan || less(idx[k - 1], idx[k])) {
      first.push_back(idx[k]);
      counts.push_back(0);
    }
    counts.back()++;
    inverse[idx[k]] = (int64_t)first.size() - 1;
  }
}

TEST_CASE("unique along an axis", "[sort]") {
  // NumPy 2: np.unique(a, axis=0, return_index=True, return_inverse=True,
  // return_counts=True).
  Arr a = f64({1, 0, 2, 1, 0, 2, 0, 5, 1, NAN, 0, 0, NAN, 0, 0, -0.0, 5, 1},
              {6, 3});
  Arr v, i, inv, c;
  CN_REQUIRE_OK(cn_unique_axis(v.out(), i.out(), inv.out(), c.out(), a, 0));
  REQUIRE(shape_of(v) == shp{4, 3});
  REQUIRE(same(dvec(v), {0, 5, 1, 1, 0, 2, NAN, 0, 0, NAN, 0, 0}));
  REQUIRE(ivec(i) == std::vector<int64_t>{2, 0, 3, 4});
  REQUIRE(ivec(inv) == std::vector<int64_t>{1, 1, 0, 2, 3, 0});
  REQUIRE(ivec(c) == std::vector<int64_t>{2, 2, 1, 1});
  // Columns of the transpose (non-contiguous) are the same slices.
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  Arr v2, c2;
  CN_REQUIRE_OK(cn_unique_axis(v2.out(), nullptr, nullptr, c2.out(), t, -1));
  REQUIRE(shape_of(v2) == shp{3, 4});
  REQUIRE(ivec(c2) == std::vector<int64_t>{2, 2, 1, 1});
  // Random small-integer matrices against the naive oracle, every dtype.
  std::mt19937 g(7);
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    std::vector<double> d(40 * 3);
    for (auto &x : d)
      x = (double)(g() % 2);
    Arr x = cast(f64(d, {40, 3}), dt);
    std::vector<int64_t> first, iv, cnt;
    naive_unique_rows(d, 40, 3, first, iv, cnt);
    CN_REQUIRE_OK(cn_unique_axis(v.out(), i.out(), inv.out(), c.out(), x, 0));
    REQUIRE(ivec(i) == first);
    REQUIRE(ivec(inv) == iv);
    REQUIRE(ivec(c) == cnt);
    cn_dtype got;
    cn_array_dtype(&got, v);
    REQUIRE(got == dt);
  }
  // Reversed rows (negative strides) of a 3-d array along axis 1.
  std::vector<double> d3(2 * 5 * 2);
  for (auto &x : d3)
    x = (double)(g() % 2) - 0.5;
  Arr a3 = f64(d3, {2, 5, 2}), f3;
  CN_REQUIRE_OK(cn_flip(f3.out(), a3, 0, nullptr));
  CN_REQUIRE_OK(cn_unique_axis(v.out(), i.out(), nullptr, c.out(), f3, 1));
  Arr moved, mc;
  int32_t src = 1, dst = 0;
  CN_REQUIRE_OK(cn_moveaxis(moved.out(), f3, 1, &src, &dst));
  std::vector<double> rows = dvec(moved);
  std::vector<int64_t> first, iv, cnt;
  naive_unique_rows(rows, 5, 4, first, iv, cnt);
  REQUIRE(ivec(i) == first);
  REQUIRE(ivec(c) == cnt);
  // Empty extents: no slices, or one empty slice repeated.
  Arr e0 = arange(0, {0, 3}), e1 = arange(0, {4, 0});
  CN_REQUIRE_OK(cn_unique_axis(v.out(), i.out(), inv.out(), c.out(), e0, 0));
  REQUIRE(shape_of(v) == shp{0, 3});
  REQUIRE(shape_of(inv) == shp{0});
  CN_REQUIRE_OK(cn_unique_axis(v.out(), i.out(), inv.out(), c.out(), e1, 0));
  REQUIRE(shape_of(v) == shp{1, 0});
  REQUIRE(ivec(c) == std::vector<int64_t>{4});
  REQUIRE(ivec(inv) == std::vector<int64_t>{0, 0, 0, 0});
  // 2^40 empty slices (NumPy: one empty slice, counted 2^40 times, first
  // at 0) are one group without a key or a sort per slice, every dtype,
  // along a leading, middle or last axis.
  const int64_t huge = int64_t{1} << 40;
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    for (int32_t ax : {0, 1, 2}) {
      int64_t sh[3] = {2, 0, 3};
      sh[ax] = huge;
      if (ax == 1)
        sh[2] = 0;
      Arr z;
      CN_REQUIRE_OK(cn_zeros(z.out(), 3, sh, dt, CN_ORDER_C));
      Arr hv, hi, hc;
      CN_REQUIRE_OK(
          cn_unique_axis(hv.out(), hi.out(), nullptr, hc.out(), z, ax));
      shp want(sh, sh + 3);
      want[ax] = 1;
      REQUIRE(shape_of(hv) == want);
      REQUIRE(ivec(hi) == std::vector<int64_t>{0});
      REQUIRE(ivec(hc) == std::vector<int64_t>{huge});
      cn_dtype got;
      cn_array_dtype(&got, hv);
      REQUIRE(got == dt);
    }
  }
  // CN_AXIS_NONE is cn_unique with equal_nan.
  CN_REQUIRE_OK(cn_unique_axis(v.out(), nullptr, nullptr, c.out(), a,
                               CN_AXIS_NONE));
  REQUIRE(ivec(c) == std::vector<int64_t>{8, 4, 2, 2, 2});
  Arr s;
  CN_REQUIRE_OK(cn_from_scalar(s.out(), cn_scalar_float(1), CN_FLOAT64));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_unique_axis(&out, nullptr, nullptr, nullptr, s, 0),
                 CN_ERR_AXIS, "axis");
  CN_REQUIRE_ERR(cn_unique_axis(&out, nullptr, nullptr, nullptr, a, 2),
                 CN_ERR_AXIS, "axis");
  CN_REQUIRE_ERR(cn_unique_axis(&out, nullptr, nullptr, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
}

// Naive unique of doubles in NumPy's order: groups of equal values (-0.0 ==
// 0.0), NaNs one group with equal_nan or each its own; the first index is
// the smallest position in the group (a stable sort's first).
struct naive_groups {
  std::vector<double> values;
  std::vector<int64_t> index, inverse, counts;
};
static naive_groups naive_unique(const std::vector<double> &a,
                                 bool equal_nan) {
  naive_groups g;
  std::vector<int64_t> p(a.size());
  std::iota(p.begin(), p.end(), 0);
  std::stable_sort(p.begin(), p.end(), [&](int64_t x, int64_t y) {
    return np_less(a[x], a[y]);
  });
  g.inverse.assign(a.size(), -1);
  for (size_t k = 0; k < p.size(); k++) {
    double v = a[p[k]];
    bool fresh = k == 0;
    if (!fresh) {
      double u = a[p[k - 1]];
      fresh = std::isnan(v) ? !(equal_nan && std::isnan(u)) : v != u;
    }
    if (fresh) {
      g.values.push_back(v);
      g.index.push_back(p[k]);
      g.counts.push_back(0);
    }
    g.counts.back()++;
    g.inverse[p[k]] = (int64_t)g.values.size() - 1;
  }
  return g;
}

TEST_CASE("unique: every output combination against a naive oracle, strided "
          "and reversed inputs, every real dtype",
          "[sort]") {
  std::mt19937_64 rng(7);
  for (cn_dtype dt : all_dtypes()) {
    if (is_complex(dt))
      continue;
    INFO(cn_dtype_name(dt));
    for (int64_t n : {1, 2, 31, 2000, 70001}) {
      std::vector<double> v(2 * n);
      for (auto &x : v)
        x = (double)(int64_t)(rng() % 23);
      if (dt == CN_BOOL)
        for (auto &x : v)
          x = x > 11 ? 1 : 0;
      if (dt == CN_FLOAT32 || dt == CN_FLOAT64)
        for (int64_t k = 0; k < 2 * n; k += 5)
          v[k] = k % 3 == 0 ? NAN : (k % 3 == 1 ? -0.0 : -INFINITY);
      Arr full = cast(f64(v, {2 * n}), dt), strided, rev;
      CN_REQUIRE_OK(cn_slice_axis(strided.out(), full, 0, 1, 2 * n, 2));
      Arr half = copy(strided);
      rev = flip_all(half);
      Arr revrev = flip_all(rev); // a negative-stride view of half's values
      for (cn_array x : {(cn_array)strided, (cn_array)revrev}) {
        std::vector<double> av = dvec(x);
        for (int equal_nan : {0, 1}) {
          naive_groups want = naive_unique(av, equal_nan != 0);
          for (int mask = 0; mask < 16; mask++) {
            Arr vals, idx, inv, cnt;
            CN_REQUIRE_OK(cn_unique(mask & 1 ? vals.out() : nullptr,
                                    mask & 2 ? idx.out() : nullptr,
                                    mask & 4 ? inv.out() : nullptr,
                                    mask & 8 ? cnt.out() : nullptr, x,
                                    equal_nan));
            if (mask & 1) {
              cn_dtype vd;
              cn_array_dtype(&vd, vals);
              REQUIRE(vd == dt);
              REQUIRE(same(dvec(vals), want.values));
            }
            if (mask & 2)
              REQUIRE(ivec(idx) == want.index);
            if (mask & 4)
              REQUIRE(ivec(inv) == want.inverse);
            if (mask & 8)
              REQUIRE(ivec(cnt) == want.counts);
          }
        }
      }
    }
  }
}

TEST_CASE("unique of complex values: NaNs in either part are one group with "
          "equal_nan; 0-d input",
          "[sort]") {
  std::vector<std::complex<double>> z = {
      {1, 0}, {NAN, 0}, {0, NAN}, {1, 0}, {-0.0, 0}, {0, 0}, {NAN, NAN},
      {1, -1}, {0, NAN}};
  Arr a = from_vec<std::complex<double>>(z, {9}, CN_COMPLEX128);
  for (cn_dtype dt : {CN_COMPLEX64, CN_COMPLEX128}) {
    Arr x = cast(a, dt), v, i, inv, c;
    CN_REQUIRE_OK(cn_unique(v.out(), i.out(), inv.out(), c.out(), x, 1));
    // NumPy's order: 0, 1-1j, 1, then the NaN group led by R+nanj
    auto vz = to_vec<std::complex<double>>(cast(v, CN_COMPLEX128));
    REQUIRE(vz.size() == 4);
    REQUIRE(vz[0] == std::complex<double>(0, 0));
    REQUIRE(vz[1] == std::complex<double>(1, -1));
    REQUIRE(vz[2] == std::complex<double>(1, 0));
    REQUIRE(std::isnan(vz[3].imag()));
    REQUIRE(ivec(i) == std::vector<int64_t>{4, 7, 0, 2});
    REQUIRE(ivec(c) == std::vector<int64_t>{2, 1, 2, 4});
    REQUIRE(ivec(inv) == std::vector<int64_t>{2, 3, 3, 2, 0, 0, 3, 1, 3});
    CN_REQUIRE_OK(cn_unique(v.out(), nullptr, nullptr, c.out(), x, 0));
    REQUIRE(ivec(c) == std::vector<int64_t>{2, 1, 2, 1, 1, 1, 1});
  }
  Arr s = scalar_f(2.5), v, i, inv, c;
  CN_REQUIRE_OK(cn_unique(v.out(), i.out(), inv.out(), c.out(), s, 1));
  REQUIRE(shape_of(v) == shp{1});
  REQUIRE(shape_of(inv).empty());
  REQUIRE(ivec(inv) == std::vector<int64_t>{0});
  REQUIRE(ivec(c) == std::vector<int64_t>{1});
}

// Naive membership in NumPy's sense (NaN is in nothing, -0.0 == 0.0).
static std::vector<int64_t> naive_isin(const std::vector<double> &e,
                                       const std::vector<double> &t,
                                       bool invert) {
  std::vector<int64_t> r(e.size());
  for (size_t i = 0; i < e.size(); i++) {
    bool hit = false;
    for (double x : t)
      hit = hit || x == e[i];
    r[i] = hit != invert;
  }
  return r;
}

TEST_CASE("isin: the table and sorting paths against a naive oracle", "[sort]") {
  std::mt19937_64 rng(3);
  struct tcase {
    cn_dtype de, dt;
    int64_t lo, span, n, nt;
  };
  // Small spans take the membership table, wide ones the sort.
  for (tcase tc : {tcase{CN_INT64, CN_INT64, -40, 80, 5000, 50},
                   tcase{CN_INT8, CN_INT8, -128, 255, 300, 40},
                   tcase{CN_UINT16, CN_INT32, 0, 60000, 3000, 200},
                   tcase{CN_INT32, CN_INT64, -1000000000, 2000000000, 2000, 30},
                   tcase{CN_FLOAT64, CN_INT64, -20, 40, 1000, 25},
                   tcase{CN_FLOAT32, CN_FLOAT64, -20, 40, 1000, 25},
                   tcase{CN_BOOL, CN_UINT8, 0, 1, 100, 3}}) {
    INFO(cn_dtype_name(tc.de) << " in " << cn_dtype_name(tc.dt));
    std::vector<double> e(tc.n), t(tc.nt);
    for (auto &x : e)
      x = (double)(tc.lo + (int64_t)(rng() % (uint64_t)(tc.span + 1)));
    for (auto &x : t)
      x = (double)(tc.lo + (int64_t)(rng() % (uint64_t)(tc.span + 1)));
    if (tc.de == CN_FLOAT64 || tc.de == CN_FLOAT32) {
      e[0] = NAN;
      e[1] = -0.0;
      e[2] = INFINITY;
      e[3] = 0.5;
    }
    Arr xe = cast(f64(e, {tc.n}), tc.de), xt = cast(f64(t, {tc.nt}), tc.dt);
    std::vector<double> ev = dvec(xe), tv = dvec(xt);
    Arr rs; // a strided view of the elements
    CN_REQUIRE_OK(cn_slice_axis(rs.out(), xe, 0, tc.n - 1, CN_SLICE_NONE, -3));
    std::vector<double> sv = dvec(rs);
    for (int invert : {0, 1}) {
      Arr r;
      CN_REQUIRE_OK(cn_isin(r.out(), xe, xt, invert));
      REQUIRE(ivec(r) == naive_isin(ev, tv, invert != 0));
      CN_REQUIRE_OK(cn_isin(r.out(), rs, xt, invert));
      REQUIRE(ivec(r) == naive_isin(sv, tv, invert != 0));
    }
  }
  // uint64 values past INT64_MAX (no int64 offsets: the sort) and a
  // narrow range up there
  std::vector<uint64_t> big = {0, 1ull << 63, ~0ull, 5, (1ull << 63) + 7};
  std::vector<uint64_t> tb = {~0ull, 5, (1ull << 63) + 7};
  Arr xb = from_vec<uint64_t>(big, {5}, CN_UINT64);
  Arr xtb = from_vec<uint64_t>(tb, {3}, CN_UINT64), r;
  CN_REQUIRE_OK(cn_isin(r.out(), xb, xtb, 0));
  REQUIRE(ivec(r) == std::vector<int64_t>{0, 0, 1, 1, 1});
  std::vector<uint64_t> tn = {(1ull << 63) + 7, (1ull << 63) + 9};
  Arr xtn = from_vec<uint64_t>(tn, {2}, CN_UINT64);
  CN_REQUIRE_OK(cn_isin(r.out(), xb, xtn, 1));
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 1, 1, 1, 0});
  // empty sides and a 0-d element
  Arr empty = arange(0, {0});
  CN_REQUIRE_OK(cn_isin(r.out(), xb, empty, 1));
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 1, 1, 1, 1});
  CN_REQUIRE_OK(cn_isin(r.out(), empty, xb, 0));
  REQUIRE(shape_of(r) == shp{0});
  CN_REQUIRE_OK(cn_isin(r.out(), scalar_i(5), xtb, 0));
  REQUIRE(shape_of(r).empty());
  REQUIRE(ivec(r) == std::vector<int64_t>{1});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_isin(&out, xb, nullptr, 0), CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
}
// ---- the vectorised quicksort path (every real dtype of 2 bytes or more)

namespace {

template <class T> cn_dtype dtype_of();
template <> cn_dtype dtype_of<int16_t>() { return CN_INT16; }
template <> cn_dtype dtype_of<uint16_t>() { return CN_UINT16; }
template <> cn_dtype dtype_of<int32_t>() { return CN_INT32; }
template <> cn_dtype dtype_of<uint32_t>() { return CN_UINT32; }
template <> cn_dtype dtype_of<int64_t>() { return CN_INT64; }
template <> cn_dtype dtype_of<uint64_t>() { return CN_UINT64; }
template <> cn_dtype dtype_of<float>() { return CN_FLOAT32; }
template <> cn_dtype dtype_of<double>() { return CN_FLOAT64; }

// NumPy's order: NaN last, -0.0 == 0.0.
template <class T> bool np_lt(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a))
      return false;
    if (std::isnan(b))
      return true;
  }
  return a < b;
}

// The same element: equal bits (the sign of a zero included), or both NaN.
template <class T> bool same_elem(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(a) || std::isnan(b))
      return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Values drawn from a small pool (many ties) holding the type's extremes
// and, for floats, NaN, -NaN, +-inf, -0.0, 0.0, subnormals.
template <class T> std::vector<T> pool_values(std::mt19937_64 &g, size_t n) {
  std::vector<T> pool;
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>)
    pool = {L::quiet_NaN(),  -L::quiet_NaN(), L::infinity(), -L::infinity(),
            T(-0.0),         T(0.0),          T(1),          T(-1),
            T(2.5),          T(-2.5),         L::max(),      L::lowest(),
            L::denorm_min(), -L::denorm_min()};
  else
    pool = {L::min(),        L::max(),        T(0), T(1),
            T(L::max() - 1), T(L::min() + 1), T(7), T(100)};
  std::vector<T> v(n);
  for (auto &x : v)
    x = pool[g() % pool.size()];
  return v;
}

// Sorts lanes of v (shape {n, m}, along axis 0, so the m lanes are strided
// and so are the outputs) and checks values and argsort against the stable
// naive oracle.
template <class T>
void check_lanes(const std::vector<T> &v, int64_t n, int64_t m, bool flip) {
  Arr a = from_vec(v, {n, m}, dtype_of<T>());
  if (flip)
    a = flip_all(a);
  std::vector<T> av = to_vec<T>(a); // C order, as the sort sees it
  Arr s, p;
  CN_REQUIRE_OK(cn_sort(s.out(), a, 0));
  CN_REQUIRE_OK(cn_argsort(p.out(), a, 0));
  std::vector<T> sv = to_vec<T>(s);
  std::vector<int64_t> pv = to_vec<int64_t>(p);
  for (int64_t j = 0; j < m; j++) {
    std::vector<int64_t> want(n);
    std::iota(want.begin(), want.end(), 0);
    std::stable_sort(want.begin(), want.end(), [&](int64_t x, int64_t y) {
      return np_lt(av[x * m + j], av[y * m + j]);
    });
    // values: NumPy's order with -0.0 before 0.0 (as the radix sort)
    std::vector<T> wv(n);
    for (int64_t i = 0; i < n; i++)
      wv[i] = av[i * m + j];
    std::stable_sort(wv.begin(), wv.end(), [](T x, T y) {
      if constexpr (std::is_floating_point_v<T>)
        if (x == 0 && y == 0)
          return std::signbit(x) && !std::signbit(y);
      return np_lt(x, y);
    });
    for (int64_t i = 0; i < n; i++) {
      REQUIRE(pv[i * m + j] == want[i]);
      REQUIRE(same_elem(sv[i * m + j], wv[i]));
    }
  }
}

template <class T> void check_small_lengths() {
  INFO(cn_dtype_name(dtype_of<T>()));
  std::mt19937_64 g(11);
  for (int64_t n = 0; n <= 70; n++) {
    INFO("n = " << n);
    for (int trial = 0; trial < 3; trial++) {
      check_lanes(pool_values<T>(g, n), n, 1, false);
      check_lanes(pool_values<T>(g, n), n, 1, true);
    }
    check_lanes(pool_values<T>(g, n * 3), n, 3, n % 2 == 1);
  }
}

// Random values over the whole type (bits), or few distinct ones.
template <class T>
std::vector<T> random_values(std::mt19937_64 &g, size_t n, bool few) {
  std::vector<T> v(n);
  for (auto &x : v) {
    uint64_t h = g();
    if (few)
      h %= 50;
    if constexpr (std::is_floating_point_v<T>) {
      x = few ? T((int64_t)h - 25) * T(0.5) : T(0);
      if (!few) {
        using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        U u = (U)h;
        std::memcpy(&x, &u, sizeof x); // any bits: NaNs, infs, subnormals
      }
      if (few && h % 7 == 0)
        x = h % 2 ? T(-0.0) : std::numeric_limits<T>::quiet_NaN();
    } else {
      x = (T)h;
    }
  }
  return v;
}

template <class T> void check_large() {
  INFO(cn_dtype_name(dtype_of<T>()));
  std::mt19937_64 g(5);
  for (int64_t n : {(int64_t)(1 << 17) + 7, (int64_t)400003})
    for (bool few : {false, true}) {
      INFO("n = " << n << (few ? ", few distinct" : ""));
      check_lanes(random_values<T>(g, n, few), n, 1, few);
    }
}

} // namespace

TEST_CASE("vqsort path: every dtype, lengths 0..70, NaN/inf/-0.0 placement",
          "[sort][vqsort]") {
  check_small_lengths<int16_t>();
  check_small_lengths<uint16_t>();
  check_small_lengths<int32_t>();
  check_small_lengths<uint32_t>();
  check_small_lengths<int64_t>();
  check_small_lengths<uint64_t>();
  check_small_lengths<float>();
  check_small_lengths<double>();
}

TEST_CASE("vqsort path: large random arrays in parallel chunks and merges",
          "[sort][vqsort]") {
  check_large<int16_t>();
  check_large<uint16_t>();
  check_large<int32_t>();
  check_large<uint32_t>();
  check_large<int64_t>();
  check_large<uint64_t>();
  check_large<float>();
  check_large<double>();
}

TEST_CASE("vqsort path: -0.0 before 0.0 in values, in input order in argsort",
          "[sort][vqsort]") {
  // Values sort as the radix sort on non-canonical keys (and the CUDA
  // sort) order them, -0.0 first; argsort compares them equal (stable).
  std::vector<double> v = {0.0, 2, -0.0, -1, 0.0, -0.0, NAN, -0.0};
  for (cn_dtype dt : {CN_FLOAT64, CN_FLOAT32}) {
    Arr s, p;
    Arr a = cast(f64(v, {8}), dt);
    CN_REQUIRE_OK(cn_sort(s.out(), a, 0));
    CN_REQUIRE_OK(cn_argsort(p.out(), a, 0));
    auto sv = dvec(s);
    REQUIRE(ivec(p) == std::vector<int64_t>{3, 0, 2, 4, 5, 7, 1, 6});
    std::vector<bool> neg;
    for (int i = 1; i <= 5; i++) {
      REQUIRE(sv[i] == 0.0);
      neg.push_back(std::signbit(sv[i]));
    }
    REQUIRE(neg == std::vector<bool>{true, true, true, false, false});
    REQUIRE(sv[6] == 2);
    REQUIRE(std::isnan(sv[7]));
  }
}

TEST_CASE("vqsort path: out of memory leaves the output untouched",
          "[sort][vqsort]") {
  int64_t n = 300000;
  std::vector<double> v(n);
  std::mt19937_64 g(3);
  for (auto &x : v)
    x = (double)(g() % 1000);
  Arr a = f64(v, {n});
  for (bool arg : {false, true}) {
    bool done = false;
    for (int64_t k = 1; k < 50 && !done; k++) {
      cn_array out = nullptr;
      cn_debug_fault_alloc(k);
      cn_status st = arg ? cn_argsort(&out, a, 0) : cn_sort(&out, a, 0);
      cn_debug_fault_alloc(0);
      if (st == CN_OK) {
        done = true;
        Arr r(out);
        REQUIRE(dvec(r).size() == (size_t)n);
      } else {
        REQUIRE(st == CN_ERR_MEMORY);
        REQUIRE(out == nullptr);
      }
    }
    REQUIRE(done);
  }
}
