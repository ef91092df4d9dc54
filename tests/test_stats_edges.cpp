// Edge cases of the weighted / multi-axis statistics (cunumpy/stats.h):
// 0-d inputs, NaN/inf, every dtype, NULL and released handles, bad shapes
// and axes with the inputs left as they were. Oracles: values printed by
// NumPy 2.4 and closed forms.
#include "array_testutil.hpp"

using namespace tu;
using V = std::vector<double>;
using C = std::complex<double>;
using CV = std::vector<C>;

static bool cclose(const CV &a, const CV &b, double tol = 1e-12) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++) {
    bool na = std::isnan(a[i].real()) || std::isnan(a[i].imag());
    bool nb = std::isnan(b[i].real()) || std::isnan(b[i].imag());
    if (na || nb) {
      if (na != nb)
        return false;
      continue;
    }
    if (!(std::abs(a[i] - b[i]) <= tol * (1 + std::abs(b[i]))))
      return false;
  }
  return true;
}
static cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  cn_array_dtype(&d, a);
  return d;
}
static Arr c128(const CV &v, std::vector<int64_t> shape) {
  return from_vec<C>(v, shape, CN_COMPLEX128);
}
// A handle that has been released (its memory is still the library's).
struct Released {
  cn_array h = nullptr;
  Released() {
    Arr a = f64({1, 2, 3}, {3});
    h = a.h;
    a.h = nullptr;
    cn_array_release(h);
  }
};

TEST_CASE("cov_weighted: dtypes, 0-d, NaN/inf, errors", "[stats]") {
  Arr r;
  // every real dtype computes in float64 (NumPy: [[1, 2.5], [2.5, 6.33]])
  for (cn_dtype dt : all_dtypes()) {
    if (is_complex(dt) || dt == CN_BOOL)
      continue;
    INFO(cn_dtype_name(dt));
    Arr m = cast(f64({1, 2, 3, 2, 4, 7}, {2, 3}), dt);
    CN_REQUIRE_OK(cn_cov_weighted(r.out(), m, nullptr, nullptr, nullptr, 1, 0,
                                  -1, CN_DTYPE_DEFAULT));
    REQUIRE(dtype_of(r) == CN_FLOAT64);
    REQUIRE(values_close(dvec(r), V{1.0, 2.5, 2.5, 6.333333333333333}));
  }
  CN_REQUIRE_OK(cn_cov_weighted(r.out(),
                                cast(f64({1, 2, 3, 2, 4, 7}, {2, 3}),
                                     CN_COMPLEX64),
                                nullptr, nullptr, nullptr, 1, 0, -1,
                                CN_DTYPE_DEFAULT));
  REQUIRE(dtype_of(r) == CN_COMPLEX128);
  // 0-d: one observation, ddof 1 -> nan
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), scalar_f(5), nullptr, nullptr,
                                nullptr, 1, 0, -1, CN_DTYPE_DEFAULT));
  REQUIRE(shape_of(r).empty());
  REQUIRE(std::isnan(dvec(r)[0]));
  // inf spreads nan through its variable
  Arr mi = f64({1, INFINITY, 3, 1, 2, 3}, {2, 3});
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), mi, nullptr, nullptr, nullptr, 1, 0,
                                -1, CN_DTYPE_DEFAULT));
  REQUIRE(values_close(dvec(r), V{NAN, NAN, NAN, 1.0}));
  // both weights, a float32 dtype: NumPy centres the float32 rows in
  // float32, then promotes with the weights (0.642857181174415)
  Arr x = f64({1, 2, 3}, {3}), fw = i64({1, 2, 1}, {3});
  Arr aw = f64({0.5, 1, 2}, {3});
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), x, nullptr, fw, aw, 1, 0, -1,
                                CN_FLOAT32));
  REQUIRE(dtype_of(r) == CN_FLOAT64); // promoted with the float64 weights
  REQUIRE(values_close(dvec(r), V{0.642857181174415}));
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), x, nullptr, nullptr, nullptr, 1, 0,
                                -1, CN_FLOAT32));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  // errors, inputs untouched
  cn_array out = nullptr;
  Released dead;
  CN_REQUIRE_ERR(cn_cov_weighted(&out, nullptr, nullptr, nullptr, nullptr, 1,
                                 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "'m' is NULL");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, x, nullptr, dead.h, nullptr, 1, 0, -1,
                                 CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "released");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, x, nullptr, f64({1, 2.5, 1}, {3}),
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_TYPE, "integer");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, x, nullptr, nullptr,
                                 f64({1, -2, 1}, {3}), 1, 0, -1,
                                 CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "negative");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, x, nullptr, i64({0, 0, 0}, {3}),
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_ZERO_DIVISION, "sum to zero");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, x, nullptr, i64({1, 1}, {2}), nullptr,
                                 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_SHAPE, "");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, x, nullptr, nullptr, nullptr, 1, 0, -1,
                                 CN_INT32),
                 CN_ERR_TYPE, "dtype");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, arange(8, {2, 2, 2}), nullptr, nullptr,
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(x) == V{1, 2, 3});
  REQUIRE(ivec(fw) == std::vector<int64_t>{1, 2, 1});
}

TEST_CASE("average_axes: axis tuples, dtypes, 0-d, errors", "[stats]") {
  Arr r, w;
  Arr a = arange(6, {2, 3});
  Arr wt = cast(arange(6, {3, 2}), CN_FLOAT64);
  // weights of the axes' shape in the order given (NumPy: 3.333, 15)
  int32_t ax[2] = {1, 0};
  CN_REQUIRE_OK(cn_average_axes(r.out(), w.out(), cast(a, CN_FLOAT64), wt, 2,
                                ax, 0));
  REQUIRE(values_close(dvec(r), V{3.3333333333333335}));
  REQUIRE(dvec(w) == V{15});
  // every dtype, weights 1..6 (NumPy: 3.333..., 21)
  Arr w16 = arange(6, {2, 3});
  for (cn_dtype dt : all_dtypes()) {
    if (dt == CN_BOOL)
      continue;
    INFO(cn_dtype_name(dt));
    Arr ww = cast(f64({1, 2, 3, 4, 5, 6}, {2, 3}), dt);
    int32_t both[2] = {0, 1};
    CN_REQUIRE_OK(cn_average_axes(r.out(), w.out(), cast(a, dt), ww, 2, both,
                                  1));
    REQUIRE(shape_of(r) == shp{1, 1});
    if (is_complex(dt)) {
      REQUIRE(cclose(to_vec<C>(cast(r, CN_COMPLEX128)),
                     CV{3.3333333333333335}, 1e-6));
    } else {
      REQUIRE(values_close(dvec(r), V{3.3333333333333335},
                           dt == CN_FLOAT16 ? 1e-3 : 1e-6));
      REQUIRE(dvec(w) == V{21});
    }
  }
  // 0-d a: the value itself
  CN_REQUIRE_OK(cn_average_axes(r.out(), nullptr, scalar_f(5), scalar_f(2),
                                CN_ALL_AXES, nullptr, 0));
  REQUIRE(dvec(r) == V{5});
  // NaN with zero weight still spreads (0 * nan), as NumPy
  CN_REQUIRE_OK(cn_average_axes(r.out(), nullptr, f64({1, NAN, INFINITY}, {3}),
                                f64({1, 2, 0}, {3}), CN_ALL_AXES, nullptr, 0));
  REQUIRE(std::isnan(dvec(r)[0]));
  // errors, inputs untouched
  cn_array out = nullptr, sw = nullptr;
  Released dead;
  int32_t bad[2] = {0, 2}, rep[2] = {0, 0};
  CN_REQUIRE_ERR(cn_average_axes(&out, &sw, a, nullptr, 2, bad, 0),
                 CN_ERR_AXIS, "out of bounds");
  CN_REQUIRE_ERR(cn_average_axes(&out, &sw, a, nullptr, 2, rep, 0),
                 CN_ERR_VALUE, "repeated");
  CN_REQUIRE_ERR(cn_average_axes(&out, &sw, a, f64({0, 0, 0, 0, 0, 0}, {2, 3}),
                                 2, ax, 0),
                 CN_ERR_ZERO_DIVISION, "sum to zero");
  CN_REQUIRE_ERR(cn_average_axes(&out, &sw, a, f64({1, 1}, {2}), 1, ax, 0),
                 CN_ERR_SHAPE, "");
  CN_REQUIRE_ERR(cn_average_axes(&out, &sw, dead.h, nullptr, CN_ALL_AXES,
                                 nullptr, 0),
                 CN_ERR_VALUE, "released");
  CN_REQUIRE_ERR(cn_average_axes(&out, &sw, a, dead.h, CN_ALL_AXES, nullptr,
                                 0),
                 CN_ERR_VALUE, "released");
  REQUIRE((out == nullptr && sw == nullptr));
  REQUIRE(ivec(a) == std::vector<int64_t>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("gradient_axes: coordinates, dtypes, NaN/inf, errors", "[stats]") {
  cn_array outs[2] = {nullptr, nullptr};
  int32_t nout = 0;
  // NaN / inf (NumPy: [nan, 1, nan, inf])
  CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, f64({1, NAN, 3, INFINITY},
                                                     {4}),
                                 0, nullptr, CN_ALL_AXES, nullptr, 1));
  REQUIRE(nout == 1);
  REQUIRE(values_close(dvec(outs[0]), V{NAN, 1, NAN, INFINITY}));
  cn_array_release(outs[0]);
  // integer values and coordinates, both edge orders (NumPy's values)
  Arr xs = i64({0, 1, 3, 4}, {4});
  const V want[2] = {{3.0, 2.8333333333333335, 5.499999999999999, 7.0},
                     {3.166666666666667, 2.8333333333333335, 5.499999999999999,
                      8.499999999999998}};
  for (cn_dtype dt : all_dtypes()) {
    if (dt == CN_BOOL)
      continue;
    INFO(cn_dtype_name(dt));
    Arr f = cast(i64({1, 4, 9, 16}, {4}), dt);
    Arr xd = cast(xs, dt);
    cn_array sp[1] = {xd};
    for (int eo = 1; eo <= 2; eo++) {
      CN_REQUIRE_OK(cn_gradient_axes(outs, 2, &nout, f, 1, sp, CN_ALL_AXES,
                                     nullptr, eo));
      cn_dtype rd = dtype_of(outs[0]);
      REQUIRE(rd == (dt == CN_FLOAT16 || dt == CN_FLOAT32 || is_complex(dt)
                         ? dt
                         : CN_FLOAT64));
      if (is_complex(dt)) {
        CV got = to_vec<C>(cast(outs[0], CN_COMPLEX128));
        REQUIRE(cclose(got, CV(want[eo - 1].begin(), want[eo - 1].end()),
                       1e-6));
      } else {
        REQUIRE(values_close(dvec(outs[0]), want[eo - 1],
                             dt == CN_FLOAT16 ? 2e-3 : 1e-6));
      }
      cn_array_release(outs[0]);
    }
  }
  // errors write no output and leave the inputs alone
  outs[0] = outs[1] = nullptr;
  Arr f = f64({1, 2, 4}, {3});
  Released dead;
  Arr two = f64({0, 1}, {2}), flat = f64({1, 1, 1}, {3, 1});
  cn_array bad_len[1] = {two}, bad_nd[1] = {flat}, gone[1] = {dead.h};
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, boolean({1, 0, 1}, {3}), 0,
                                  nullptr, CN_ALL_AXES, nullptr, 1),
                 CN_ERR_TYPE, "boolean");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, f64({1, 2}, {2}), 0, nullptr,
                                  CN_ALL_AXES, nullptr, 2),
                 CN_ERR_VALUE, "");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, f, 0, nullptr, CN_ALL_AXES,
                                  nullptr, 3),
                 CN_ERR_VALUE, "edge_order");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, f, 1, bad_len, CN_ALL_AXES,
                                  nullptr, 1),
                 CN_ERR_VALUE, "");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, f, 1, bad_nd, CN_ALL_AXES,
                                  nullptr, 1),
                 CN_ERR_VALUE, "");
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, f, 1, gone, CN_ALL_AXES,
                                  nullptr, 1),
                 CN_ERR_VALUE, "released");
  int32_t ax = 1;
  CN_REQUIRE_ERR(cn_gradient_axes(outs, 2, &nout, f, 0, nullptr, 1, &ax, 1),
                 CN_ERR_AXIS, "");
  REQUIRE((outs[0] == nullptr && outs[1] == nullptr));
  REQUIRE(dvec(f) == V{1, 2, 4});
}

TEST_CASE("complex convolve / correlate / trapezoid: 0-d, NaN, dtypes",
          "[stats]") {
  Arr r;
  // 0-d operands count as length 1 (NumPy: [6j])
  CN_REQUIRE_OK(cn_convolve(r.out(), scalar_f(2), c128({{0, 3}}, {}),
                            CN_CONV_FULL));
  REQUIRE(to_vec<C>(r) == CV{{0, 6}});
  // NaN spreads through the windows that see it (NumPy: [1, nan, nan])
  CN_REQUIRE_OK(cn_correlate(r.out(), c128({{0, 1}, NAN}, {2}),
                             c128({1, {0, 1}}, {2}), CN_CONV_FULL));
  REQUIRE(cclose(to_vec<C>(r), CV{1, {NAN, NAN}, {NAN, NAN}}));
  // complex64 stays complex64
  Arr a64 = cast(f64({1, 2}, {2}), CN_COMPLEX64);
  CN_REQUIRE_OK(cn_convolve(r.out(), a64, a64, CN_CONV_FULL));
  REQUIRE(dtype_of(r) == CN_COMPLEX64);
  // trapezoid along axis 0 (NumPy: [1.5+0.5j, 1+2j]), bools as NumPy
  Arr y = c128({{0, 1}, 2, 3, {0, 4}}, {2, 2});
  CN_REQUIRE_OK(cn_trapezoid(r.out(), y, nullptr, 1.0, 0));
  REQUIRE(cclose(to_vec<C>(r), CV{{1.5, 0.5}, {1, 2}}));
  CN_REQUIRE_OK(cn_trapezoid(r.out(), boolean({1, 1, 1}, {3}), nullptr, 1.0,
                             -1));
  REQUIRE(dvec(r) == V{1}); // True + True is True
  // errors, inputs untouched
  cn_array out = nullptr;
  Released dead;
  CN_REQUIRE_ERR(cn_convolve(&out, f64({}, {0}), y, CN_CONV_FULL),
                 CN_ERR_VALUE, "");
  CN_REQUIRE_ERR(cn_convolve(&out, dead.h, a64, CN_CONV_FULL), CN_ERR_VALUE,
                 "released");
  CN_REQUIRE_ERR(cn_correlate(&out, a64, a64, 7), CN_ERR_VALUE, "mode");
  CN_REQUIRE_ERR(cn_trapezoid(&out, y, nullptr, 1.0, 2), CN_ERR_AXIS, "");
  CN_REQUIRE_ERR(cn_trapezoid(&out, y, f64({0, 1, 2}, {3}), 1.0, 0),
                 CN_ERR_SHAPE, "");
  REQUIRE(out == nullptr);
  REQUIRE(to_vec<C>(y) == CV{{0, 1}, 2, 3, {0, 4}});
}

TEST_CASE("histogramdd: NaN, ranges, dtypes, errors", "[stats]") {
  cn_array outs[3] = {nullptr, nullptr, nullptr};
  int32_t nout = 0;
  Arr two = i64({2}, {});
  cn_array bins2[1] = {two};
  // NaN outside a given range is dropped (NumPy: [[0, 0], [0, 1]])
  Arr s = f64({0, NAN, 1, 1}, {2, 2});
  Arr rng = f64({0, 1, 0, 1}, {2, 2});
  CN_REQUIRE_OK(cn_histogramdd(outs, 3, &nout, s, 1, bins2, rng, nullptr, 0));
  REQUIRE(nout == 3);
  REQUIRE(dvec(outs[0]) == V{0, 0, 0, 1});
  for (int i = 0; i < 3; i++)
    cn_array_release(outs[i]);
  // every real dtype of sample: counts in float64
  for (cn_dtype dt : all_dtypes()) {
    if (is_complex(dt))
      continue;
    INFO(cn_dtype_name(dt));
    Arr sd = cast(f64({0, 1, 1, 0, 1, 1}, {3, 2}), dt);
    CN_REQUIRE_OK(
        cn_histogramdd(outs, 3, &nout, sd, 1, bins2, nullptr, nullptr, 0));
    REQUIRE(dtype_of(outs[0]) == CN_FLOAT64);
    REQUIRE(dvec(outs[0]) == V{0, 1, 1, 1});
    for (int i = 0; i < 3; i++)
      cn_array_release(outs[i]);
  }
  // errors write no output and leave the inputs alone
  outs[0] = outs[1] = outs[2] = nullptr;
  Released dead;
  Arr zero = i64({0}, {}), frac = f64({2.5}, {}), down = f64({1, 0}, {2});
  cn_array b0[2] = {zero, two}, bf[2] = {frac, two}, bd[2] = {down, two};
  Arr t = f64({0, 1, 1, 1}, {2, 2});
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, s, 1, bins2, nullptr, nullptr,
                                0),
                 CN_ERR_VALUE, "finite");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, t, 2, b0, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, t, 2, bf, nullptr, nullptr, 0),
                 CN_ERR_TYPE, "");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, t, 2, bd, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "monotonic");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, t, 1, bins2, nullptr,
                                f64({1, 1, 1}, {3}), 0),
                 CN_ERR_SHAPE, "");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, t, 1, bins2, f64({0, 1}, {2}),
                                nullptr, 0),
                 CN_ERR_SHAPE, "");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 2, &nout, t, 1, bins2, nullptr, nullptr,
                                0),
                 CN_ERR_VALUE, "");
  CN_REQUIRE_ERR(cn_histogramdd(outs, 3, &nout, dead.h, 1, bins2, nullptr,
                                nullptr, 0),
                 CN_ERR_VALUE, "released");
  REQUIRE((outs[0] == nullptr && outs[1] == nullptr && outs[2] == nullptr));
  REQUIRE(dvec(t) == V{0, 1, 1, 1});
}

TEST_CASE("order statistics and averages of empty arrays along a 2^40 axis",
          "[stats]") {
  // (2^40, 0) over axis 0 and (0, 2^40) over axis 1 have no lanes: NumPy
  // 2.4 gives shape (0,) (q.shape + (0,) for array q) for median,
  // quantile, percentile and their nan- forms, and for a weighted average
  // (weights 0 of shape (0,)). A pass over the long axis would take hours.
  const int64_t huge = int64_t{1} << 40;
  Arr q = f64({0.25, 0.5, 1}, {3}), pq = f64({25, 50, 100}, {3});
  Arr w1 = f64({1}, {1}), wb;
  CN_REQUIRE_OK(cn_broadcast_to(wb.out(), w1, 1, &huge));
  for (int32_t ax : {0, 1}) {
    INFO("axis " << ax);
    int64_t sh[2] = {huge, 0};
    if (ax == 1)
      std::swap(sh[0], sh[1]);
    for (cn_dtype dt : {CN_FLOAT64, CN_FLOAT32, CN_INT64}) {
      INFO(cn_dtype_name(dt));
      Arr z;
      CN_REQUIRE_OK(cn_zeros(z.out(), 2, sh, dt, CN_ORDER_C));
      Arr r;
      CN_REQUIRE_OK(cn_median(r.out(), z, 1, &ax, 0));
      REQUIRE(shape_of(r) == shp{0});
      CN_REQUIRE_OK(cn_median(r.out(), z, 1, &ax, 1));
      REQUIRE(shape_of(r) == (ax ? shp{0, 1} : shp{1, 0}));
      CN_REQUIRE_OK(cn_nanmedian(r.out(), z, 1, &ax, 0));
      REQUIRE(shape_of(r) == shp{0});
      for (int32_t m : {CN_QUANTILE_LINEAR, CN_QUANTILE_NEAREST,
                        CN_QUANTILE_HAZEN}) {
        CN_REQUIRE_OK(cn_quantile(r.out(), z, q, 1, &ax, m, 0));
        REQUIRE(shape_of(r) == shp{3, 0});
        CN_REQUIRE_OK(cn_nanquantile(r.out(), z, q, 1, &ax, m, 0));
        REQUIRE(shape_of(r) == shp{3, 0});
        CN_REQUIRE_OK(cn_percentile(r.out(), z, pq, 1, &ax, m, 0));
        REQUIRE(shape_of(r) == shp{3, 0});
        CN_REQUIRE_OK(cn_nanpercentile(r.out(), z, pq, 1, &ax, m, 1));
        REQUIRE(shape_of(r) == (ax ? shp{3, 0, 1} : shp{3, 1, 0}));
      }
      Arr sw;
      CN_REQUIRE_OK(cn_average(r.out(), z, wb, ax));
      REQUIRE(shape_of(r) == shp{0});
      CN_REQUIRE_OK(cn_average_axes(r.out(), sw.out(), z, wb, 1, &ax, 0));
      REQUIRE(shape_of(r) == shp{0});
      REQUIRE(shape_of(sw) == shp{0});
    }
  }
}
