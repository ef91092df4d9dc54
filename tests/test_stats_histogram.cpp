// bincount, histogram, histogram2d, histogramdd and digitize against naive
// loops that follow NumPy's rules (a bin holds e[k] <= v < e[k+1], the last
// bin also its right edge; NaN in no bin), and against values printed by
// NumPy 2.4 for the edge cases. ctest runs this file twice: as it is, and
// with CUNUMPY_HISTOGRAM_COMPOSED=1, which sends CPU arrays through the
// composition device arrays take (searchsorted and the scatter_add slot).
#include "array_testutil.hpp"

#include <random>

using namespace tu;
using V = std::vector<double>;
using I = std::vector<int64_t>;

namespace {

// NumPy's bin of v among edges e, or -1 outside (NaN included).
int64_t naive_bin(const V &e, double v) {
  size_t n = e.size() - 1;
  if (!(v >= e[0] && v <= e[n]))
    return -1;
  if (v == e[n])
    return (int64_t)n - 1;
  size_t k = 0;
  while (k + 1 < n && e[k + 1] <= v)
    k++;
  return (int64_t)k;
}

// NumPy's linspace(lo, hi, n + 1).
V linspace_edges(double lo, double hi, int64_t n) {
  V e(n + 1);
  double step = (hi - lo) / (double)n;
  for (int64_t i = 0; i <= n; i++)
    e[i] = lo + (double)i * step;
  e[n] = hi;
  return e;
}

V random_values(size_t n, uint64_t seed, double lo, double hi) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  V v(n);
  for (auto &x : v)
    x = u(g);
  return v;
}

cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  cn_array_dtype(&d, a);
  return d;
}

} // namespace

TEST_CASE("bincount: counts, weights, minlength, dtypes", "[stats]") {
  Arr h;
  Arr x = i64({0, 1, 1, 3, 2, 1, 7}, {7});
  CN_REQUIRE_OK(cn_bincount(h.out(), x, nullptr, 0));
  REQUIRE(dtype_of(h) == CN_INT64);
  REQUIRE(ivec(h) == I{1, 3, 1, 1, 0, 0, 0, 1});
  CN_REQUIRE_OK(cn_bincount(h.out(), x, nullptr, 10));
  REQUIRE(ivec(h) == I{1, 3, 1, 1, 0, 0, 0, 1, 0, 0});
  Arr w = f64({0.5, 1, 2, 4, 8, 16, 32}, {7});
  CN_REQUIRE_OK(cn_bincount(h.out(), x, w, 0));
  REQUIRE(dtype_of(h) == CN_FLOAT64);
  REQUIRE(dvec(h) == V{0.5, 19, 8, 4, 0, 0, 0, 32});
  // float32 and integer weights give float64 sums, as NumPy
  CN_REQUIRE_OK(cn_bincount(h.out(), x, cast(w, CN_FLOAT32), 0));
  REQUIRE(dtype_of(h) == CN_FLOAT64);
  REQUIRE(dvec(h) == V{0.5, 19, 8, 4, 0, 0, 0, 32});
  CN_REQUIRE_OK(cn_bincount(h.out(), x, cast(w, CN_INT32), 0));
  REQUIRE(dvec(h) == V{0, 19, 8, 4, 0, 0, 0, 32});
  // every integer dtype and bool
  for (cn_dtype dt : {CN_INT8, CN_INT16, CN_INT32, CN_UINT8, CN_UINT16,
                      CN_UINT32, CN_UINT64}) {
    INFO(cn_dtype_name(dt));
    CN_REQUIRE_OK(cn_bincount(h.out(), cast(x, dt), nullptr, 0));
    REQUIRE(ivec(h) == I{1, 3, 1, 1, 0, 0, 0, 1});
  }
  Arr b = boolean({1, 0, 1, 1}, {4});
  CN_REQUIRE_OK(cn_bincount(h.out(), b, nullptr, 0));
  REQUIRE(ivec(h) == I{1, 3});
  // empty: minlength zeros
  Arr e = i64({}, {0});
  CN_REQUIRE_OK(cn_bincount(h.out(), e, nullptr, 0));
  REQUIRE(shape_of(h) == std::vector<int64_t>{0});
  CN_REQUIRE_OK(cn_bincount(h.out(), e, nullptr, 3));
  REQUIRE(ivec(h) == I{0, 0, 0});
  CN_REQUIRE_OK(cn_bincount(h.out(), e, f64({}, {0}), 2));
  REQUIRE(dvec(h) == V{0, 0});
  // reversed (negative stride) input and weights
  Arr xr = flip_all(x), wr = flip_all(w);
  CN_REQUIRE_OK(cn_bincount(h.out(), xr, wr, 0));
  REQUIRE(dvec(h) == V{0.5, 19, 8, 4, 0, 0, 0, 32});
  // a strided view: every second element of 0..9
  Arr r10 = arange(10, {10}, CN_INT64), ev;
  CN_REQUIRE_OK(cn_slice_axis(ev.out(), r10, 0, 1, 10, 2));
  CN_REQUIRE_OK(cn_bincount(h.out(), ev, nullptr, 0));
  REQUIRE(ivec(h) == I{0, 1, 0, 1, 0, 1, 0, 1, 0, 1});
  // NaN weights propagate into their bin only
  CN_REQUIRE_OK(cn_bincount(h.out(), i64({0, 1}, {2}), f64({NAN, 1}, {2}), 0));
  auto hv = dvec(h);
  REQUIRE(std::isnan(hv[0]));
  REQUIRE(hv[1] == 1);
}

TEST_CASE("bincount: large inputs against a naive count", "[stats]") {
  // few bins (private rows per thread) and many bins (shared counters)
  for (int64_t m : {int64_t{5}, int64_t{300000}}) {
    INFO("bins " << m);
    const int64_t n = 400000;
    std::mt19937_64 g(7);
    std::uniform_int_distribution<int64_t> u(0, m - 1);
    I v(n);
    for (auto &k : v)
      k = u(g);
    V w = random_values(n, 8, -1, 1);
    I want(m, 0);
    V wsum(m, 0.0);
    for (int64_t i = 0; i < n; i++) {
      want[v[i]]++;
      wsum[v[i]] += w[i]; // sequential, as NumPy
    }
    Arr h, xa = i64(v, {n}), wa = f64(w, {n});
    CN_REQUIRE_OK(cn_bincount(h.out(), xa, nullptr, 0));
    REQUIRE(ivec(h) == want);
    CN_REQUIRE_OK(cn_bincount(h.out(), xa, wa, 0));
    REQUIRE(values_close(dvec(h), wsum, 1e-9));
  }
}

TEST_CASE("bincount: errors", "[stats]") {
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_bincount(&out, i64({1, -3, -1}, {3}), nullptr, 0),
                 CN_ERR_VALUE, "found -3");
  CN_REQUIRE_ERR(cn_bincount(&out, f64({1}, {1}), nullptr, 0), CN_ERR_TYPE,
                 "integer");
  CN_REQUIRE_ERR(cn_bincount(&out, i64({1, 2}, {1, 2}), nullptr, 0),
                 CN_ERR_VALUE, "1-d");
  CN_REQUIRE_ERR(cn_bincount(&out, i64({1}, {1}), nullptr, -1), CN_ERR_VALUE,
                 "minlength");
  CN_REQUIRE_ERR(cn_bincount(&out, i64({1, 2}, {2}), f64({1}, {1}), 0),
                 CN_ERR_SHAPE, "weights");
  Arr cw;
  CN_REQUIRE_OK(cn_astype(cw.out(), f64({1, 2}, {2}), CN_COMPLEX128, 1));
  CN_REQUIRE_ERR(cn_bincount(&out, i64({1, 2}, {2}), cw, 0), CN_ERR_TYPE,
                 "weights");
  CN_REQUIRE_ERR(cn_bincount(nullptr, i64({1}, {1}), nullptr, 0), CN_ERR_VALUE,
                 "");
  REQUIRE(out == nullptr);
}

TEST_CASE("histogram: uniform bins against NumPy's rules", "[stats]") {
  V data = random_values(20000, 3, -2, 3);
  // values exactly on every edge, and just below / above the range
  V e10 = linspace_edges(-2, 3, 10);
  for (double v : e10)
    data.push_back(v);
  data.push_back(std::nextafter(-2.0, -3.0));
  data.push_back(std::nextafter(3.0, 4.0));
  Arr a = f64(data, {(int64_t)data.size()});
  for (int64_t nb : {int64_t{1}, int64_t{10}, int64_t{7}, int64_t{1000}}) {
    INFO("bins " << nb);
    Arr h, e;
    CN_REQUIRE_OK(
        cn_histogram(h.out(), e.out(), a, nb, nullptr, 1, -2, 3, nullptr, 0));
    V ev = dvec(e);
    REQUIRE(ev == linspace_edges(-2, 3, nb));
    I want(nb, 0);
    for (double v : data) {
      int64_t k = naive_bin(ev, v);
      if (k >= 0)
        want[k]++;
    }
    REQUIRE(dtype_of(h) == CN_INT64);
    REQUIRE(ivec(h) == want);
  }
  // the data's own range: min and max in the first and last bins
  Arr h, e;
  CN_REQUIRE_OK(
      cn_histogram(h.out(), e.out(), a, 10, nullptr, 0, 0, 0, nullptr, 0));
  V ev = dvec(e);
  I hv = ivec(h);
  int64_t total = 0;
  for (auto c : hv)
    total += c;
  REQUIRE(total == (int64_t)data.size());
  I want(10, 0);
  for (double v : data)
    want[naive_bin(ev, v)]++;
  REQUIRE(hv == want);
}

TEST_CASE("histogram: edges given, NaN and inf, repeated edges", "[stats]") {
  Arr h;
  // NumPy 2.4: histogram([2., 1.], [0, 1, 2, 2]) -> [0, 1, 1]
  CN_REQUIRE_OK(cn_histogram(h.out(), nullptr, f64({2, 1}, {2}), 0,
                             f64({0, 1, 2, 2}, {4}), 0, 0, 0, nullptr, 0));
  REQUIRE(ivec(h) == I{0, 1, 1});
  // histogram([2., 1., nan], [0, 1, 1, 2]) -> [0, 0, 2]
  CN_REQUIRE_OK(cn_histogram(h.out(), nullptr, f64({2, 1, NAN}, {3}), 0,
                             f64({0, 1, 1, 2}, {4}), 0, 0, 0, nullptr, 0));
  REQUIRE(ivec(h) == I{0, 0, 2});
  // infinities outside a finite range, inside infinite edges
  Arr x = f64({-INFINITY, 0.5, INFINITY, NAN, 1}, {5});
  CN_REQUIRE_OK(
      cn_histogram(h.out(), nullptr, x, 2, nullptr, 1, 0, 1, nullptr, 0));
  REQUIRE(ivec(h) == I{0, 2});
  CN_REQUIRE_OK(cn_histogram(h.out(), nullptr, x, 0,
                             f64({-INFINITY, 0, INFINITY}, {3}), 0, 0, 0,
                             nullptr, 0));
  REQUIRE(ivec(h) == I{1, 3});
  // non-uniform edges against the naive rule, integer edges
  V data = random_values(5000, 4, -1, 11);
  data.insert(data.end(), {0, 1, 3, 7, 10, 10});
  V edges{0, 1, 3, 7, 10};
  Arr a = f64(data, {(int64_t)data.size()});
  CN_REQUIRE_OK(cn_histogram(h.out(), nullptr, a, 0,
                             cast(f64(edges, {5}), CN_INT32), 0, 0, 0, nullptr,
                             0));
  I want(4, 0);
  for (double v : data) {
    int64_t k = naive_bin(edges, v);
    if (k >= 0)
      want[k]++;
  }
  REQUIRE(ivec(h) == want);
}

TEST_CASE("histogram: weights, density, empty input", "[stats]") {
  Arr a = f64({1, 2, 2, 3, 4, 10}, {6}), h, e;
  Arr w = f64({1, 1, 1, 1, 1, 0.5}, {6});
  CN_REQUIRE_OK(cn_histogram(h.out(), nullptr, a, 3, nullptr, 1, 0, 10, w, 0));
  REQUIRE(dtype_of(h) == CN_FLOAT64);
  REQUIRE(dvec(h) == V{4, 1, 0.5});
  // NumPy 2.4: histogram([1,2,2,3,4,10], 3, density=True)
  //   -> [0.2222222222222222, 0.05555555555555555, 0.05555555555555555]
  CN_REQUIRE_OK(
      cn_histogram(h.out(), nullptr, a, 3, nullptr, 0, 0, 0, nullptr, 1));
  REQUIRE(dvec(h) ==
          V{0.2222222222222222, 0.05555555555555555, 0.05555555555555555});
  // histogram([1,2,2,3,4,10], [0,2,5,10], weights=w, density=True)
  //   -> [0.09090909090909091, 0.2424242424242424, 0.018181818181818184]
  CN_REQUIRE_OK(cn_histogram(h.out(), nullptr, a, 0, f64({0, 2, 5, 10}, {4}), 0,
                             0, 0, w, 1));
  REQUIRE(values_close(
      dvec(h), V{0.09090909090909091, 0.2424242424242424, 0.018181818181818184},
      1e-15));
  // empty: the range (0, 1)
  Arr z = f64({}, {0});
  CN_REQUIRE_OK(
      cn_histogram(h.out(), e.out(), z, 4, nullptr, 0, 0, 0, nullptr, 0));
  REQUIRE(ivec(h) == I{0, 0, 0, 0});
  REQUIRE(dvec(e) == V{0, 0.25, 0.5, 0.75, 1});
  // one distinct value: widened by 0.5
  CN_REQUIRE_OK(cn_histogram(h.out(), e.out(), f64({3, 3}, {2}), 2, nullptr, 0,
                             0, 0, nullptr, 0));
  REQUIRE(ivec(h) == I{0, 2});
  REQUIRE(dvec(e) == V{2.5, 3, 3.5});
}

TEST_CASE("histogram: dtypes, strides and shapes", "[stats]") {
  Arr base = arange(24, {4, 6}, CN_FLOAT64);
  // every real dtype gives the counts of its values
  for (cn_dtype dt :
       {CN_INT8, CN_INT16, CN_INT32, CN_INT64, CN_UINT8, CN_UINT16, CN_UINT32,
        CN_UINT64, CN_FLOAT32, CN_FLOAT64}) {
    INFO(cn_dtype_name(dt));
    Arr h, e;
    CN_REQUIRE_OK(cn_histogram(h.out(), e.out(), cast(base, dt), 4, nullptr, 0,
                               0, 0, nullptr, 0));
    REQUIRE(ivec(h) == I{6, 6, 6, 6});
    REQUIRE(dvec(e) == V{0, 5.75, 11.5, 17.25, 23});
  }
  Arr hb, b = boolean({1, 0, 1, 1}, {4});
  CN_REQUIRE_OK(
      cn_histogram(hb.out(), nullptr, b, 2, nullptr, 0, 0, 0, nullptr, 0));
  REQUIRE(ivec(hb) == I{1, 3});
  // transposed (non-contiguous) and reversed views count the same values
  Arr t = transpose(base), f = flip_all(base), h1, h2;
  Arr w = arange(24, {4, 6}, CN_FLOAT64);
  Arr wt = transpose(w);
  CN_REQUIRE_OK(
      cn_histogram(h1.out(), nullptr, t, 3, nullptr, 1, 0, 24, wt, 0));
  REQUIRE(dvec(h1) == V{28, 92, 156});
  CN_REQUIRE_OK(
      cn_histogram(h2.out(), nullptr, f, 3, nullptr, 1, 0, 24, nullptr, 0));
  REQUIRE(ivec(h2) == I{8, 8, 8});
}

TEST_CASE("histogram: errors", "[stats]") {
  cn_array out = nullptr;
  Arr a = f64({1, 2, 3}, {3});
  CN_REQUIRE_ERR(cn_histogram(&out, nullptr, a, 0, f64({0, 2, 1}, {3}), 0, 0, 0,
                              nullptr, 0),
                 CN_ERR_VALUE, "monotonically");
  CN_REQUIRE_ERR(cn_histogram(&out, nullptr, a, 0, f64({0, NAN, 1}, {3}), 0, 0,
                              0, nullptr, 0),
                 CN_ERR_VALUE, "monotonically");
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 0, f64({0}, {1}), 0, 0, 0, nullptr, 0),
      CN_ERR_VALUE, "2 edges");
  CN_REQUIRE_ERR(cn_histogram(&out, nullptr, f64({1, NAN}, {2}), 2, nullptr, 0,
                              0, 0, nullptr, 0),
                 CN_ERR_VALUE, "not finite");
  CN_REQUIRE_ERR(cn_histogram(&out, nullptr, f64({1, INFINITY}, {2}), 2,
                              nullptr, 0, 0, 0, nullptr, 0),
                 CN_ERR_VALUE, "not finite");
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 0, nullptr, 0, 0, 0, nullptr, 0),
      CN_ERR_VALUE, ">= 1");
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 2, nullptr, 1, 2, 1, nullptr, 0),
      CN_ERR_VALUE, "max must be larger");
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 2, nullptr, 1, 0, INFINITY, nullptr, 0),
      CN_ERR_VALUE, "not finite");
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, a, 2, nullptr, 0, 0, 0, f64({1}, {1}), 0),
      CN_ERR_SHAPE, "weights");
  Arr c;
  CN_REQUIRE_OK(cn_astype(c.out(), a, CN_COMPLEX128, 1));
  CN_REQUIRE_ERR(
      cn_histogram(&out, nullptr, c, 2, nullptr, 0, 0, 0, nullptr, 0),
      CN_ERR_TYPE, "");
  REQUIRE(out == nullptr);
}

TEST_CASE("histogram2d against a naive count", "[stats]") {
  V xs = random_values(3000, 5, 0, 1), ys = random_values(3000, 6, -1, 1);
  xs.push_back(1);
  ys.push_back(1); // on both last edges
  int64_t n = (int64_t)xs.size();
  Arr x = f64(xs, {n}), y = f64(ys, {n}), h, ex, ey;
  double range[4] = {0, 1, -1, 1};
  CN_REQUIRE_OK(cn_histogram2d(h.out(), ex.out(), ey.out(), x, y, 4, 3, range,
                               nullptr, 0));
  V exv = dvec(ex), eyv = dvec(ey);
  REQUIRE(exv == linspace_edges(0, 1, 4));
  REQUIRE(eyv == linspace_edges(-1, 1, 3));
  I want(12, 0);
  for (int64_t i = 0; i < n; i++) {
    int64_t kx = naive_bin(exv, xs[i]), ky = naive_bin(eyv, ys[i]);
    if (kx >= 0 && ky >= 0)
      want[kx * 3 + ky]++;
  }
  REQUIRE(shape_of(h) == std::vector<int64_t>{4, 3});
  REQUIRE(ivec(h) == want);
  // density integrates to one
  CN_REQUIRE_OK(
      cn_histogram2d(h.out(), nullptr, nullptr, x, y, 4, 3, range, nullptr, 1));
  V d = dvec(h);
  double s = 0;
  for (int64_t i = 0; i < 4; i++)
    for (int64_t j = 0; j < 3; j++)
      s += d[i * 3 + j] * (exv[i + 1] - exv[i]) * (eyv[j + 1] - eyv[j]);
  REQUIRE(std::fabs(s - 1) < 1e-12);
  // NumPy 2.4: histogram2d([0,1,1,2], [0,0,1,2], 2, weights=[1,2,3,4])
  //   -> [[1, 0], [2, 7]]
  CN_REQUIRE_OK(cn_histogram2d(h.out(), nullptr, nullptr,
                               f64({0, 1, 1, 2}, {4}), f64({0, 0, 1, 2}, {4}),
                               2, 2, nullptr, f64({1, 2, 3, 4}, {4}), 0));
  REQUIRE(dvec(h) == V{1, 0, 2, 7});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_histogram2d(&out, nullptr, nullptr, x, f64({1}, {1}), 2, 2,
                                nullptr, nullptr, 0),
                 CN_ERR_SHAPE, "same");
  CN_REQUIRE_ERR(
      cn_histogram2d(&out, nullptr, nullptr, x, y, 0, 2, nullptr, nullptr, 0),
      CN_ERR_VALUE, "bins");
  REQUIRE(out == nullptr);
}

TEST_CASE("histogramdd against a naive count", "[stats]") {
  const int64_t N = 2000;
  V s = random_values(N * 3, 9, -1, 1);
  s[0] = 1;   // on the last given edge of dimension 0
  s[3] = NAN; // dimension 0, whose edges are given: in no bin
  Arr sample = f64(s, {N, 3});
  V e0{-1, -0.5, 0.5, 1, 1}; // repeated last edge
  Arr b0 = f64(e0, {5}), b1 = scalar_i(4), b2 = f64({-0.25, 0, 0.25}, {3});
  cn_array bins[3] = {b0, b1, b2};
  cn_array outs[4] = {nullptr, nullptr, nullptr, nullptr};
  int32_t nout = 0;
  CN_REQUIRE_OK(
      cn_histogramdd(outs, 4, &nout, sample, 3, bins, nullptr, nullptr, 0));
  REQUIRE(nout == 4);
  Arr h(outs[0]), o0(outs[1]), o1(outs[2]), o2(outs[3]);
  REQUIRE(shape_of(h) == std::vector<int64_t>{4, 4, 2});
  REQUIRE(dtype_of(h) == CN_FLOAT64);
  REQUIRE(dvec(o0) == e0);
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t p = 0; p < N; p++) {
    double v = s[p * 3 + 1];
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  V e1 = linspace_edges(lo, hi, 4), e2{-0.25, 0, 0.25};
  REQUIRE(dvec(o1) == e1);
  V want(32, 0);
  for (int64_t p = 0; p < N; p++) {
    int64_t k0 = naive_bin(e0, s[p * 3]), k1 = naive_bin(e1, s[p * 3 + 1]),
            k2 = naive_bin(e2, s[p * 3 + 2]);
    if (k0 >= 0 && k1 >= 0 && k2 >= 0)
      want[(k0 * 4 + k1) * 2 + k2] += 1;
  }
  REQUIRE(dvec(h) == want);
  // empty sample: zeros over (0, 1)
  Arr z = f64({}, {0, 2}), four = scalar_i(4);
  cn_array one[1] = {four};
  CN_REQUIRE_OK(cn_histogramdd(outs, 4, &nout, z, 1, one, nullptr, nullptr, 0));
  Arr hz(outs[0]), z0(outs[1]), z1(outs[2]);
  REQUIRE(shape_of(hz) == std::vector<int64_t>{4, 4});
  REQUIRE(dvec(z0) == V{0, 0.25, 0.5, 0.75, 1});
  V zeros(16, 0);
  REQUIRE(dvec(hz) == zeros);
  // a transposed sample with weights and density, against the naive sums
  V c = random_values(N * 2, 11, 0, 1);
  Arr ct = transpose(f64(c, {2, N})); // (N, 2), column j = c[j * N ...]
  V wv = random_values(N, 10, 0, 1);
  Arr w = f64(wv, {N});
  CN_REQUIRE_OK(cn_histogramdd(outs, 4, &nout, ct, 1, one, nullptr, w, 1));
  Arr hd(outs[0]), d0(outs[1]), d1(outs[2]);
  V ea = dvec(d0), eb = dvec(d1);
  V sums(16, 0);
  double tot = 0;
  for (int64_t p = 0; p < N; p++) {
    int64_t ka = naive_bin(ea, c[p]), kb = naive_bin(eb, c[N + p]);
    sums[ka * 4 + kb] += wv[p];
    tot += wv[p];
  }
  for (int64_t i = 0; i < 4; i++)
    for (int64_t j = 0; j < 4; j++)
      sums[i * 4 + j] /= (ea[i + 1] - ea[i]) * (eb[j + 1] - eb[j]) * tot;
  REQUIRE(values_close(dvec(hd), sums, 1e-12));
}

TEST_CASE("histogramdd: errors", "[stats]") {
  Arr s = f64({0, 1, 2, 3}, {2, 2}), two = scalar_i(2);
  cn_array one[1] = {two};
  cn_array outs[3] = {nullptr, nullptr, nullptr};
  int32_t nout = 0;
  Arr nanS = f64({0, NAN, 2, 3}, {2, 2});
  CN_REQUIRE_ERR(
      cn_histogramdd(outs, 3, &nout, nanS, 1, one, nullptr, nullptr, 0),
      CN_ERR_VALUE, "not finite");
  Arr dec = f64({1, 0}, {2});
  cn_array bd[1] = {dec};
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, s, 1, bd, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "monotonically");
  Arr zero = scalar_i(0);
  cn_array bz[1] = {zero};
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, s, 1, bz, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "positive");
  Arr fl = scalar_f(2);
  cn_array bf[1] = {fl};
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, s, 1, bf, nullptr, nullptr, 0),
                 CN_ERR_TYPE, "integer");
  Arr none = f64({}, {0});
  cn_array bn[1] = {none};
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, s, 1, bn, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "edges");
  Arr badr = f64({1, 0, 0, 1}, {2, 2});
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, s, 1, one, badr, nullptr, 0),
                 CN_ERR_VALUE, "max must be larger");
  REQUIRE(outs[0] == nullptr);
}

TEST_CASE("digitize: increasing, decreasing, right, NaN", "[stats]") {
  Arr h;
  Arr x = f64({-1, 0, 0.5, 1, 2.5, 10, NAN}, {7});
  Arr inc = f64({0, 1, 2.5}, {3}), dec = f64({2.5, 1, 0}, {3});
  // NumPy 2.4 values
  CN_REQUIRE_OK(cn_digitize(h.out(), x, inc, 0));
  REQUIRE(ivec(h) == I{0, 1, 1, 2, 3, 3, 3});
  CN_REQUIRE_OK(cn_digitize(h.out(), x, inc, 1));
  REQUIRE(ivec(h) == I{0, 0, 1, 1, 2, 3, 3});
  CN_REQUIRE_OK(cn_digitize(h.out(), x, dec, 0));
  REQUIRE(ivec(h) == I{3, 2, 2, 1, 0, 0, 0});
  CN_REQUIRE_OK(cn_digitize(h.out(), x, dec, 1));
  REQUIRE(ivec(h) == I{3, 3, 2, 2, 1, 0, 0});
  // digitize([nan, 1, 5], [0, 2, nan]) -> [3, 1, 2]
  CN_REQUIRE_OK(
      cn_digitize(h.out(), f64({NAN, 1, 5}, {3}), f64({0, 2, NAN}, {3}), 0));
  REQUIRE(ivec(h) == I{3, 1, 2});
  // equal bins count as increasing; no bins give zeros
  CN_REQUIRE_OK(cn_digitize(h.out(), f64({0, 1, 2}, {3}), f64({1, 1}, {2}), 0));
  REQUIRE(ivec(h) == I{0, 2, 2});
  CN_REQUIRE_OK(cn_digitize(h.out(), f64({0, 1}, {2}), f64({}, {0}), 0));
  REQUIRE(ivec(h) == I{0, 0});
  // shape kept, integer x and bins, a transposed x
  Arr m = arange(6, {2, 3}, CN_INT32);
  CN_REQUIRE_OK(cn_digitize(h.out(), transpose(m), i64({1, 3}, {2}), 1));
  REQUIRE(shape_of(h) == std::vector<int64_t>{3, 2});
  REQUIRE(ivec(h) == I{0, 1, 0, 2, 1, 2});
  // reversed bins view
  CN_REQUIRE_OK(cn_digitize(h.out(), x, flip_all(inc), 0));
  REQUIRE(ivec(h) == I{3, 2, 2, 1, 0, 0, 0});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_digitize(&out, x, f64({0, 2, 1}, {3}), 0), CN_ERR_VALUE,
                 "monoton");
  CN_REQUIRE_ERR(cn_digitize(&out, x, f64({0, 2}, {1, 2}), 0), CN_ERR_VALUE,
                 "1-d");
  REQUIRE(out == nullptr);
}
