// diff, ptp, gradient, trapezoid and average (cunumpy/stats.h), composed
// of views, ufuncs and reductions: NumPy's dtypes (wrapping integers, bool
// xor / or), values against naive long double loops and values printed by
// NumPy 2.4, strides, empty and 0-d inputs, errors.
#include "array_testutil.hpp"

#include <cmath>
#include <complex>
#include <random>

using namespace tu;
using V = std::vector<double>;

namespace {

cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  REQUIRE(cn_array_dtype(&d, a) == CN_OK);
  return d;
}

bool close(const V &a, const V &b, double tol = 1e-12) {
  return values_close(a, b, tol);
}

Arr weak_f(double v) {
  Arr a;
  CN_REQUIRE_OK(cn_scalar_array(a.out(), cn_scalar_float(v)));
  return a;
}

Arr typed_f32(double v) {
  Arr a;
  CN_REQUIRE_OK(cn_from_scalar(a.out(), cn_scalar_float(v), CN_FLOAT32));
  return a;
}

V random_vec(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<double> d;
  V v(n);
  for (auto &x : v)
    x = d(g);
  return v;
}

// NumPy's gradient of one lane f with spacing h or coordinates x, in long
// double.
V naive_gradient(const V &f, double h, const V *x, int edge_order) {
  size_t n = f.size();
  std::vector<long double> s(n - 1);
  for (size_t i = 0; i + 1 < n; i++)
    s[i] = x ? (long double)(*x)[i + 1] - (*x)[i] : h;
  V g(n);
  for (size_t i = 1; i + 1 < n; i++) {
    long double d1 = s[i - 1], d2 = s[i];
    long double a = -d2 / (d1 * (d1 + d2)), b = (d2 - d1) / (d1 * d2),
                c = d1 / (d2 * (d1 + d2));
    g[i] = (double)(a * f[i - 1] + b * f[i] + c * f[i + 1]);
  }
  if (edge_order == 1) {
    g[0] = (double)((f[1] - (long double)f[0]) / s[0]);
    g[n - 1] = (double)((f[n - 1] - (long double)f[n - 2]) / s[n - 2]);
  } else {
    long double d1 = s[0], d2 = s[1];
    g[0] = (double)(-(2 * d1 + d2) / (d1 * (d1 + d2)) * f[0] +
                    (d1 + d2) / (d1 * d2) * f[1] -
                    d1 / (d2 * (d1 + d2)) * f[2]);
    d1 = s[n - 3];
    d2 = s[n - 2];
    g[n - 1] = (double)(d2 / (d1 * (d1 + d2)) * f[n - 3] -
                        (d2 + d1) / (d1 * d2) * f[n - 2] +
                        (2 * d2 + d1) / (d2 * (d1 + d2)) * f[n - 1]);
  }
  return g;
}

} // namespace

TEST_CASE("diff keeps the input dtype: wrapping integers, bool xor",
          "[stats][difference]") {
  Arr r;
  CN_REQUIRE_OK(cn_diff(r.out(), cast(i64({1, 0, 5}, {3}), CN_UINT8), 1, 0));
  REQUIRE(dtype_of(r) == CN_UINT8);
  REQUIRE(to_vec<uint8_t>(r) == std::vector<uint8_t>{255, 5});
  CN_REQUIRE_OK(
      cn_diff(r.out(), cast(i64({-100, 100, -100}, {3}), CN_INT8), 1, 0));
  REQUIRE(to_vec<int8_t>(r) == std::vector<int8_t>{-56, 56});
  CN_REQUIRE_OK(cn_diff(r.out(), boolean({1, 0, 0, 1}, {4}), 1, 0));
  REQUIRE(dtype_of(r) == CN_BOOL);
  REQUIRE(to_vec<uint8_t>(r) == std::vector<uint8_t>{1, 0, 1});
  CN_REQUIRE_OK(cn_diff(r.out(), boolean({1, 0, 0, 1}, {4}), 2, 0));
  REQUIRE(to_vec<uint8_t>(r) == std::vector<uint8_t>{1, 1});
  CN_REQUIRE_OK(cn_diff(r.out(), cast(f64({1, 2.5, 2}, {3}), CN_FLOAT32), 1, 0));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(to_vec<float>(r) == std::vector<float>{1.5f, -0.5f});
  Arr z;
  CN_REQUIRE_OK(cn_from_host(z.out(), nullptr, 0, 0, 1,
                             std::vector<int64_t>{0}.data(), nullptr,
                             CN_COMPLEX128));
  CN_REQUIRE_OK(cn_diff(r.out(), z, 1, 0));
  REQUIRE(shape_of(r) == std::vector<int64_t>{0});
  // n = 0 is a copy, not a view
  Arr a = f64({1, 2, 4}, {3});
  CN_REQUIRE_OK(cn_diff(r.out(), a, 0, 0));
  REQUIRE(r.h != a.h);
  REQUIRE(dvec(r) == V{1, 2, 4});
  // reversed, strided 2-d along both axes
  Arr m = arange(12, {3, 4});
  Arr fm = flip_all(m);
  CN_REQUIRE_OK(cn_diff(r.out(), fm, 1, 0));
  REQUIRE(dvec(r) == V(8, -4));
  CN_REQUIRE_OK(cn_diff(r.out(), transpose(fm), 1, -1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{4, 2});
  REQUIRE(dvec(r) == V(8, -4));
  CN_REQUIRE_ERR(cn_diff(r.out(), a, 1, 3), CN_ERR_AXIS, "axis");
}

TEST_CASE("ptp wraps as NumPy for signed integers", "[stats][difference]") {
  Arr r;
  CN_REQUIRE_OK(cn_ptp(r.out(), cast(i64({-100, 100}, {2}), CN_INT8),
                       CN_AXIS_NONE, 0));
  REQUIRE(dtype_of(r) == CN_INT8);
  REQUIRE(to_vec<int8_t>(r) == std::vector<int8_t>{-56});
  CN_REQUIRE_OK(cn_ptp(r.out(), f64({1, NAN, 3}, {3}), 0, 0));
  REQUIRE(std::isnan(dvec(r)[0]));
  CN_REQUIRE_OK(cn_ptp(r.out(), flip_all(arange(6, {2, 3})), 1, 1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{2, 1});
  REQUIRE(dvec(r) == V{2, 2});
}

TEST_CASE("gradient matches NumPy's formulas", "[stats][difference]") {
  // NumPy 2.4: np.gradient([1, 4, 9, 16, 25], 0.5, edge_order=2)
  Arr f = f64({1, 4, 9, 16, 25}, {5});
  Arr r;
  CN_REQUIRE_OK(cn_gradient(r.out(), f, 0, 0.5, 2));
  REQUIRE(close(dvec(r), {4, 8, 12, 16, 20}));
  // np.gradient(f, x) and edge_order=2 with x = [0, 1, 1.5, 3.5, 4]
  Arr x = f64({0, 1, 1.5, 3.5, 4}, {5});
  cn_array outs[4] = {nullptr};
  int32_t nout = 0;
  cn_array sp[1] = {x};
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, f, 1, sp, CN_ALL_AXES, nullptr, 1));
  Arr g0(outs[0]);
  REQUIRE(nout == 1);
  REQUIRE(close(dvec(g0), {3, 7.666666666666667, 8.7, 15.1, 18}));
  CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, f, 1, sp, CN_ALL_AXES, nullptr, 2));
  Arr g1(outs[0]);
  REQUIRE(close(dvec(g1), {-1.6666666666666667, 7.666666666666667, 8.7,
                           15.1, 20.9}));
  // long double oracle on random data, coordinates and uniform spacing
  V fv = random_vec(41, 7), xv = random_vec(41, 8);
  for (size_t i = 1; i < xv.size(); i++)
    xv[i] = xv[i - 1] + std::fabs(xv[i]) + 0.05;
  Arr fa = f64(fv, {41}), xa = f64(xv, {41});
  for (int eo = 1; eo <= 2; eo++) {
    cn_array s1[1] = {xa};
    CN_REQUIRE_OK(cn_gradient_axes(outs, 4, &nout, fa, 1, s1, CN_ALL_AXES, nullptr, eo));
    Arr g(outs[0]);
    REQUIRE(close(dvec(g), naive_gradient(fv, 0, &xv, eo), 1e-9));
    CN_REQUIRE_OK(cn_gradient(r.out(), fa, 0, 0.3, eo));
    REQUIRE(close(dvec(r), naive_gradient(fv, 0.3, nullptr, eo), 1e-12));
  }
}

TEST_CASE("gradient dtypes: weak spacings keep float32", "[stats][difference]") {
  // NumPy 2.4: np.gradient(np.float32([1.1, 4.3, 9.7, 16.2]), 0.3)
  Arr f = cast(f64({1.1, 4.3, 9.7, 16.2}, {4}), CN_FLOAT32);
  Arr w = weak_f(0.3);
  cn_array outs[2] = {nullptr};
  int32_t nout = 0;
  cn_array sp[1] = {w};
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, f, 1, sp, CN_ALL_AXES, nullptr, 1));
  Arr g(outs[0]);
  REQUIRE(dtype_of(g) == CN_FLOAT32);
  REQUIRE(to_vec<float>(g) ==
          std::vector<float>{10.666667f, 14.333332f, 19.833334f, 21.66667f});
  Arr r;
  CN_REQUIRE_OK(cn_gradient(r.out(), f, 0, 0.3, 1));
  REQUIRE(to_vec<float>(r) == to_vec<float>(g));
  // a typed float32 spacing gives float32 as well; integers give float64
  Arr t = typed_f32(0.5);
  sp[0] = t;
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, f, 1, sp, CN_ALL_AXES, nullptr, 2));
  Arr g2(outs[0]);
  REQUIRE(dtype_of(g2) == CN_FLOAT32);
  Arr fi = i64({1, 4, 9, 16}, {4});
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, fi, 0, nullptr, CN_ALL_AXES, nullptr, 1));
  Arr g3(outs[0]);
  REQUIRE(dtype_of(g3) == CN_FLOAT64);
  REQUIRE(dvec(g3) == V{3, 4, 6, 7});
  // uint8 values do not wrap in the differences (float64 first)
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, cast(fi, CN_UINT8), 0,
                                 nullptr, CN_ALL_AXES, nullptr, 1));
  Arr g4(outs[0]);
  REQUIRE(dvec(g4) == V{3, 4, 6, 7});
  // complex values
  Arr fc = cast(fi, CN_COMPLEX64);
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, fc, 0, nullptr, CN_ALL_AXES, nullptr, 1));
  Arr g5(outs[0]);
  REQUIRE(dtype_of(g5) == CN_COMPLEX64);
  auto zv = to_vec<std::complex<float>>(g5);
  REQUIRE(zv[2] == std::complex<float>(6, 0));
}

TEST_CASE("gradient over several axes, strides, errors", "[stats][difference]") {
  Arr m = arange(12, {3, 4});
  Arr sq;
  CN_REQUIRE_OK(cn_multiply(sq.out(), m, m, nullptr));
  Arr fl = flip_all(sq);
  cn_array outs[2] = {nullptr};
  int32_t nout = 0;
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, fl, 0, nullptr, CN_ALL_AXES, nullptr, 1));
  Arr g0(outs[0]), g1(outs[1]);
  REQUIRE(nout == 2);
  // naive: along axis 0 of the flipped squares
  V v = dvec(fl), e0(12), e1(12);
  for (int j = 0; j < 4; j++) {
    V lane = {v[j], v[4 + j], v[8 + j]};
    V gl = naive_gradient(lane, 1, nullptr, 1);
    for (int i = 0; i < 3; i++)
      e0[i * 4 + j] = gl[i];
  }
  for (int i = 0; i < 3; i++) {
    V lane(v.begin() + 4 * i, v.begin() + 4 * i + 4);
    V gl = naive_gradient(lane, 1, nullptr, 1);
    for (int j = 0; j < 4; j++)
      e1[i * 4 + j] = gl[j];
  }
  REQUIRE(close(dvec(g0), e0));
  REQUIRE(close(dvec(g1), e1));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_gradient(&out, f64({1}, {1}), 0, 1.0, 1), CN_ERR_VALUE,
                 "too small");
  CN_REQUIRE_ERR(cn_gradient(&out, m, 0, 1.0, 3), CN_ERR_VALUE, "edge_order");
  CN_REQUIRE_ERR(cn_gradient(&out, cast(m, CN_COMPLEX128), 0, 1.0, 1),
                 CN_ERR_TYPE, "complex");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, boolean({1, 0, 1}, {3}), 0,
                                  nullptr, CN_ALL_AXES, nullptr, 1),
                 CN_ERR_TYPE, "boolean");
  Arr bad = f64({0, 1}, {2});
  cn_array sp[1] = {bad};
  int32_t ax0 = 0;
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, m, 1, sp, 1, &ax0, 1),
                 CN_ERR_VALUE, "must match the length");
  Arr two = f64({0, 1, 2, 3}, {2, 2});
  sp[0] = two;
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, m, 1, sp, 1, &ax0, 1),
                 CN_ERR_VALUE, "scalars or 1d");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 1, &nout, m, 0, nullptr, CN_ALL_AXES, nullptr, 1),
                 CN_ERR_VALUE, "room for");
  REQUIRE(out == nullptr);
}

TEST_CASE("trapezoid as NumPy's d * (y[1:] + y[:-1]) / 2 summed",
          "[stats][difference]") {
  Arr r;
  // NumPy 2.4: np.trapezoid(np.int8([60, 120, -76]), dx=0.5): the int8 sum
  // of neighbours wraps
  CN_REQUIRE_OK(cn_trapezoid(r.out(), cast(i64({60, 120, -76}, {3}), CN_INT8),
                             nullptr, 0.5, -1));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(dvec(r) == V{-8.0});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), boolean({1, 0, 0, 1}, {4}), nullptr, 1.0, 0));
  REQUIRE(dvec(r) == V{1.0});
  // np.trapezoid([[1, 2, 4], [3, 5, 9]], [0, 1, 3], axis=1)
  Arr y = f64({1, 2, 4, 3, 5, 9}, {2, 3});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y, f64({0, 1, 3}, {3}), 1.0, 1));
  REQUIRE(dvec(r) == V{7.5, 18});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), flip_all(y), nullptr, 2.0, 0));
  REQUIRE(dvec(r) == V{13, 7, 4});
  // float32 stays float32; float64 coordinates promote
  Arr y32 = cast(y, CN_FLOAT32);
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y32, nullptr, 0.1, 1));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y32, f64({0, 1, 3}, {3}), 1.0, 1));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  CN_REQUIRE_OK(cn_trapezoid(r.out(), cast(y, CN_COMPLEX64), nullptr, 1.0, 1));
  REQUIRE(dtype_of(r) == CN_COMPLEX64);
  // long double oracle
  V yv = random_vec(1001, 3), xv = random_vec(1001, 4);
  long double want = 0;
  for (size_t i = 0; i + 1 < yv.size(); i++)
    want += ((long double)xv[i + 1] - xv[i]) * (yv[i + 1] + (long double)yv[i]) / 2;
  CN_REQUIRE_OK(cn_trapezoid(r.out(), f64(yv, {1001}), f64(xv, {1001}), 1.0, 0));
  REQUIRE(close(dvec(r), {(double)want}, 1e-10));
  // empty and one-sample axes integrate to 0
  Arr e;
  CN_REQUIRE_OK(cn_from_host(e.out(), nullptr, 0, 0, 2,
                             std::vector<int64_t>{2, 0}.data(), nullptr,
                             CN_FLOAT64));
  CN_REQUIRE_OK(cn_trapezoid(r.out(), e, nullptr, 1.0, 1));
  REQUIRE(dvec(r) == V{0, 0});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), f64({5}, {1}), nullptr, 1.0, 0));
  REQUIRE(dvec(r) == V{0});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_trapezoid(&out, scalar_f(1), nullptr, 1.0, -1),
                 CN_ERR_AXIS, "axis");
  CN_REQUIRE_ERR(cn_trapezoid(&out, y, f64({0, 1}, {2}), 1.0, 1),
                 CN_ERR_SHAPE, "x must be 1-d");
  CN_REQUIRE_ERR(cn_trapezoid(&out, y, nullptr, 1.0, 2), CN_ERR_AXIS, "axis");
  REQUIRE(out == nullptr);
}

TEST_CASE("average with weights, returned, keepdims", "[stats][difference]") {
  Arr a = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  Arr w = f64({3, 2, 1}, {3});
  Arr r, s;
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_average_axes(r.out(), s.out(), a, w, 1, &ax, 1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{2, 1});
  REQUIRE(close(dvec(r), {10.0 / 6, 28.0 / 6}));
  REQUIRE(dvec(s) == V{6, 6});
  // integer a and weights: float64; bool weights count as 0/1
  Arr ai = i64({1, 2, 3, 4, 5, 6}, {2, 3});
  CN_REQUIRE_OK(cn_average_axes(r.out(), s.out(), ai, boolean({1, 0, 1}, {3}),
                                1, &ax, 0));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(dvec(r) == V{2, 5});
  REQUIRE(dvec(s) == V{2, 2});
  // float32 with float32 weights stays float32; reversed views
  Arr a32 = cast(flip_all(a), CN_FLOAT32), w32 = cast(flip_all(a), CN_FLOAT32);
  CN_REQUIRE_OK(cn_average_axes(r.out(), nullptr, a32, w32, CN_ALL_AXES,
                                nullptr, 0));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(close(dvec(r), {91.0 / 21}, 1e-6));
  // without weights: the mean and the counts in the mean's dtype
  CN_REQUIRE_OK(cn_average_axes(r.out(), s.out(), a32, nullptr, 1, &ax, 0));
  REQUIRE(dtype_of(s) == CN_FLOAT32);
  REQUIRE(dvec(s) == V{3, 3});
  CN_REQUIRE_OK(cn_average(r.out(), a, w, 1));
  REQUIRE(close(dvec(r), {10.0 / 6, 28.0 / 6}));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_average_axes(&out, nullptr, a, f64({1, -1, 0}, {3}), 1,
                                 &ax, 0),
                 CN_ERR_ZERO_DIVISION, "sum to zero");
  CN_REQUIRE_ERR(cn_average_axes(&out, nullptr, a, w, CN_ALL_AXES, nullptr, 0),
                 CN_ERR_TYPE, "axis must be specified");
  CN_REQUIRE_ERR(cn_average_axes(&out, nullptr, a, f64({1, 2}, {2}), 1, &ax, 0),
                 CN_ERR_SHAPE, "consistent");
  CN_REQUIRE_ERR(cn_average(&out, a, f64({1, 2}, {2}), 1), CN_ERR_SHAPE,
                 "weights");
  REQUIRE(out == nullptr);
}
