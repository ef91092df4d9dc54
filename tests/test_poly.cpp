// Polynomial functions (cunumpy/poly.h) against NumPy's outputs for small
// inputs (values printed by NumPy 2.4) and exact integer arithmetic.
#include "array_testutil.hpp"

using namespace tu;
using V = std::vector<double>;
using C = std::complex<double>;
using CV = std::vector<C>;

static cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  cn_array_dtype(&d, a);
  return d;
}
static Arr c128(const CV &v, std::vector<int64_t> shape) {
  return from_vec<C>(v, shape, CN_COMPLEX128);
}

TEST_CASE("polyval: Horner in the result dtype, integers wrap", "[poly]") {
  Arr p = f64({1, 2, 3}, {3}), x = f64({0.5, -2, INFINITY}, {3}), r;
  CN_REQUIRE_OK(cn_polyval(r.out(), p, x));
  REQUIRE(values_close(dvec(r), V{4.25, 3.0, NAN})); // 0 * inf starts the nan
  // int8 wraps as NumPy's: 100 * 3 + 100 = -112
  Arr pi = cast(f64({100, 100}, {2}), CN_INT8);
  Arr xi = cast(f64({3}, {1}), CN_INT8);
  CN_REQUIRE_OK(cn_polyval(r.out(), pi, xi));
  REQUIRE(dtype_of(r) == CN_INT8);
  REQUIRE(ivec(r) == std::vector<int64_t>{-112});
  // every dtype pair: result_type(p, x), values against the float loop
  for (cn_dtype dp : all_dtypes())
    for (cn_dtype dx : all_dtypes()) {
      INFO(cn_dtype_name(dp) << " " << cn_dtype_name(dx));
      Arr pp = cast(f64({1, 0, 1}, {3}), dp);
      Arr xx = cast(f64({0, 1, 1}, {3}), dx);
      cn_dtype want;
      cn_result_type(&want, dp, dx);
      CN_REQUIRE_OK(cn_polyval(r.out(), pp, xx));
      REQUIRE(dtype_of(r) == want);
      if (want == CN_BOOL) // (y and x) or c
        REQUIRE(dvec(r) == V{1, 1, 1});
      else if (!is_complex(want))
        REQUIRE(dvec(r) == V{1, 2, 2});
    }
  // empty p: zeros of x's dtype; 0-d x; strided x
  Arr e = f64({}, {0});
  CN_REQUIRE_OK(cn_polyval(r.out(), e, cast(x, CN_INT16)));
  REQUIRE(dtype_of(r) == CN_INT16);
  REQUIRE(ivec(r) == std::vector<int64_t>{0, 0, 0});
  CN_REQUIRE_OK(cn_polyval(r.out(), p, scalar_f(2)));
  REQUIRE(shape_of(r).empty());
  REQUIRE(dvec(r) == V{11});
  CN_REQUIRE_OK(cn_polyval(r.out(), flip_all(p), flip_all(x)));
  REQUIRE(values_close(dvec(r), V{NAN, 9, 2.75}));
  // errors leave the inputs alone
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_polyval(&out, scalar_f(1), x), CN_ERR_TYPE, "0-d");
  CN_REQUIRE_ERR(cn_polyval(&out, arange(4, {2, 2}), x), CN_ERR_VALUE,
                 "1-d");
  CN_REQUIRE_ERR(cn_polyval(&out, nullptr, x), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_polyval(nullptr, p, x), CN_ERR_VALUE, "output");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(p) == V{1, 2, 3});
}

TEST_CASE("polyadd / polysub / polymul pad and trim as NumPy", "[poly]") {
  Arr r;
  CN_REQUIRE_OK(cn_polyadd(r.out(), i64({1, 2}, {2}), i64({1, 2, 3}, {3})));
  REQUIRE(dtype_of(r) == CN_INT64);
  REQUIRE(ivec(r) == std::vector<int64_t>{1, 3, 5});
  CN_REQUIRE_OK(cn_polysub(r.out(), f64({1.5}, {}), f64({1, 2}, {2})));
  REQUIRE(dvec(r) == V{-1.0, -0.5});
  // the padding keeps the shorter one's dtype: uint8 + int8 -> int16
  CN_REQUIRE_OK(cn_polyadd(r.out(), cast(f64({200}, {1}), CN_UINT8),
                           cast(f64({-1, 1}, {2}), CN_INT8)));
  REQUIRE(dtype_of(r) == CN_INT16);
  REQUIRE(ivec(r) == std::vector<int64_t>{-1, 201});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_polysub(&out, boolean({1}, {1}), boolean({0, 1}, {2})),
                 CN_ERR_TYPE, "");
  CN_REQUIRE_ERR(cn_polyadd(&out, arange(4, {2, 2}), f64({1}, {1})),
                 CN_ERR_VALUE, "1-d");
  // polymul: leading zeros dropped, all-zero / empty become [0]
  CN_REQUIRE_OK(
      cn_polymul(r.out(), i64({0, 0, 1, 2}, {4}), i64({0, 3, 1}, {3})));
  REQUIRE(ivec(r) == std::vector<int64_t>{3, 7, 2});
  CN_REQUIRE_OK(cn_polymul(r.out(), f64({}, {0}), f64({0, 0}, {2})));
  REQUIRE(dvec(r) == V{0});
  CN_REQUIRE_OK(cn_polymul(r.out(), c128({{0, 1}, 2}, {2}), f64({2}, {})));
  REQUIRE(to_vec<C>(r) == CV{{0, 2}, 4});
  Arr freed;
  CN_REQUIRE_OK(cn_copy(freed.out(), f64({1}, {1}), CN_ORDER_C));
  cn_array dead = freed.h;
  freed.h = nullptr;
  cn_array_release(dead);
  CN_REQUIRE_ERR(cn_polymul(&out, dead, f64({1}, {1})), CN_ERR_VALUE,
                 "released");
  REQUIRE(out == nullptr);
}

TEST_CASE("polydiv: NumPy's quotient, remainder trimming, inf/nan",
          "[poly]") {
  Arr q, r;
  CN_REQUIRE_OK(cn_polydiv(q.out(), r.out(), f64({3, 5, 2}, {3}),
                           f64({2, 1}, {2})));
  REQUIRE(dvec(q) == V{1.5, 1.75});
  REQUIRE(dvec(r) == V{0.25});
  // integers compute as float64; float32 stays
  CN_REQUIRE_OK(cn_polydiv(q.out(), r.out(), i64({4, 0, 0}, {3}),
                           i64({2}, {1})));
  REQUIRE(dtype_of(q) == CN_FLOAT64);
  REQUIRE(dvec(q) == V{2, 0, 0});
  REQUIRE(dvec(r) == V{0});
  CN_REQUIRE_OK(cn_polydiv(q.out(), r.out(), cast(f64({1, 2}, {2}), CN_FLOAT32),
                           cast(f64({1}, {1}), CN_FLOAT32)));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  // a zero leading divisor: inf / nan as NumPy, no error
  Arr u = f64({1, 2, 3}, {3});
  CN_REQUIRE_OK(cn_polydiv(q.out(), r.out(), u, f64({0, 1}, {2})));
  REQUIRE(dvec(q) == V{INFINITY, -INFINITY});
  REQUIRE(values_close(dvec(r), V{NAN, NAN, INFINITY}));
  REQUIRE(dvec(u) == V{1, 2, 3}); // untouched
  cn_array qo = nullptr, ro = nullptr;
  CN_REQUIRE_ERR(cn_polydiv(&qo, &ro, f64({}, {0}), u), CN_ERR_INDEX,
                 "empty");
  CN_REQUIRE_ERR(cn_polydiv(&qo, nullptr, u, u), CN_ERR_VALUE, "output");
  REQUIRE((qo == nullptr && ro == nullptr));
}

TEST_CASE("polyder / polyint: dtypes, orders, constants", "[poly]") {
  Arr r;
  CN_REQUIRE_OK(cn_polyder(r.out(), i64({1, 2, 3, 4}, {4}), 2));
  REQUIRE(dtype_of(r) == CN_INT64);
  REQUIRE(ivec(r) == std::vector<int64_t>{6, 4});
  // result_type(p, int64): uint64 and float32 give float64
  CN_REQUIRE_OK(cn_polyder(r.out(), cast(f64({1, 2}, {2}), CN_UINT64), 1));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  CN_REQUIRE_OK(cn_polyder(r.out(), cast(f64({1, 2}, {2}), CN_FLOAT32), 1));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  CN_REQUIRE_OK(cn_polyder(r.out(), f64({1, 2}, {2}), 5)); // past the degree
  REQUIRE(shape_of(r) == shp{0});
  CN_REQUIRE_OK(cn_polyder(r.out(), boolean({1, 1}, {2}), 0));
  REQUIRE(dtype_of(r) == CN_BOOL);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_polyder(&out, f64({1}, {1}), -1), CN_ERR_VALUE,
                 "positive");
  CN_REQUIRE_ERR(cn_polyder(&out, scalar_f(1), 0), CN_ERR_TYPE, "0-d");
  CN_REQUIRE_OK(cn_polyint(r.out(), f64({3, 2, 1}, {3}), 2, f64({1, 2}, {2})));
  REQUIRE(values_close(dvec(r), V{0.25, 1.0 / 3.0, 0.5, 1.0, 2.0}));
  CN_REQUIRE_OK(cn_polyint(r.out(), c128({{0, 1}, 2}, {2}), 1, scalar_f(5)));
  REQUIRE(to_vec<C>(r) == CV{{0, 0.5}, 2, 5});
  CN_REQUIRE_OK(cn_polyint(r.out(), i64({}, {0}), 2, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(dvec(r) == V{0, 0});
  CN_REQUIRE_OK(cn_polyint(r.out(), scalar_f(4), 0, nullptr)); // NumPy: p
  REQUIRE(dvec(r) == V{4});
  CN_REQUIRE_ERR(cn_polyint(&out, f64({1}, {1}), 3, f64({1, 2}, {2})),
                 CN_ERR_VALUE, "length 1 or >m");
  CN_REQUIRE_ERR(cn_polyint(&out, f64({1}, {1}), -2, nullptr), CN_ERR_VALUE,
                 "positive");
  CN_REQUIRE_ERR(cn_polyint(&out, scalar_f(1), 1, nullptr), CN_ERR_TYPE,
                 "0-d");
  REQUIRE(out == nullptr);
}

TEST_CASE("roots and poly match NumPy", "[poly]") {
  Arr r;
  CN_REQUIRE_OK(cn_roots(r.out(), f64({0, 1, -6, 11, -6, 0}, {6})));
  REQUIRE(shape_of(r) == shp{4});
  V got = dvec(r);
  std::sort(got.begin(), got.begin() + 3);
  REQUIRE(values_close(got, V{1, 2, 3, 0}, 1e-12));
  CN_REQUIRE_OK(cn_roots(r.out(), i64({0, 0}, {2})));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(shape_of(r) == shp{0});
  CN_REQUIRE_OK(cn_roots(r.out(), i64({5, 0, 0}, {3})));
  REQUIRE(dvec(r) == V{0, 0});
  CN_REQUIRE_OK(cn_roots(r.out(), f64({1, 0, 1}, {3})));
  REQUIRE(is_complex(dtype_of(r)));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_roots(&out, f64({1, NAN, 1}, {3})), CN_ERR_VALUE,
                 "infs or NaNs");
  CN_REQUIRE_ERR(cn_roots(&out, arange(4, {2, 2})), CN_ERR_VALUE, "rank-1");
  CN_REQUIRE_OK(cn_poly(r.out(), i64({1, 2, 3}, {3})));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(dvec(r) == V{1, -6, 11, -6});
  // conjugate pairs give a real polynomial
  CN_REQUIRE_OK(cn_poly(r.out(), c128({{1, 1}, {1, -1}}, {2})));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(dvec(r) == V{1, -2, 2});
  CN_REQUIRE_OK(cn_poly(r.out(), c128({{1, 1}, 2}, {2})));
  REQUIRE(to_vec<C>(r) == CV{1, {-3, -1}, {2, 2}});
  CN_REQUIRE_OK(cn_poly(r.out(), f64({}, {0})));
  REQUIRE(shape_of(r).empty());
  REQUIRE(dvec(r) == V{1});
  CN_REQUIRE_OK(cn_poly(r.out(), f64({2, 0, 0, 3}, {2, 2})));
  REQUIRE(values_close(dvec(r), V{1, -5, 6}));
  CN_REQUIRE_ERR(cn_poly(&out, f64({}, {0, 0})), CN_ERR_VALUE, "square");
  CN_REQUIRE_ERR(cn_poly(&out, arange(6, {2, 3})), CN_ERR_VALUE, "square");
  REQUIRE(out == nullptr);
}

TEST_CASE("polyfit and its covariance match NumPy", "[poly]") {
  Arr x = f64({0, 1, 2, 3, 4}, {5}), y = f64({1, 3, 7, 13, 21.5}, {5});
  Arr c, res, rank, s, cov;
  CN_REQUIRE_OK(cn_polyfit(c.out(), nullptr, nullptr, nullptr, x, y, 2, -1,
                           nullptr));
  REQUIRE(values_close(dvec(c),
                V{1.071428571428572, 0.8142857142857088, 1.0428571428571463},
                1e-12));
  CN_REQUIRE_OK(cn_polyfit(c.out(), res.out(), rank.out(), s.out(), x, y, 1,
                           -1, nullptr));
  REQUIRE(values_close(dvec(res), V{16.10000000000003}, 1e-12));
  REQUIRE(ivec(rank) == std::vector<int64_t>{2});
  REQUIRE(values_close(dvec(s), V{1.3477746773580983, 0.4283729905961322}, 1e-12));
  CN_REQUIRE_OK(cn_polyfit(c.out(), nullptr, nullptr, nullptr, x, y, 1, -1,
                           f64({1, 1, 2, 2, 1}, {5})));
  REQUIRE(values_close(dvec(c), V{5.026119402985075, -1.832089552238805}, 1e-12));
  CN_REQUIRE_OK(cn_polyfit_cov(c.out(), cov.out(), x, y, 1, -1, nullptr, 0));
  REQUIRE(values_close(dvec(c), V{5.1000000000000005, -1.0999999999999974}, 1e-12));
  REQUIRE(values_close(dvec(cov),
                V{0.5366666666666683, -1.0733333333333364,
                  -1.0733333333333366, 3.220000000000008},
                1e-10));
  // the two columns of a 2-d y fit separately
  Arr y2 = f64({1, 2, 3, 6, 7, 14, 13, 26, 21.5, 43}, {5, 2});
  CN_REQUIRE_OK(cn_polyfit_cov(c.out(), cov.out(), x, y2, 1, -1, nullptr, 0));
  REQUIRE(shape_of(c) == shp{2, 2});
  REQUIRE(shape_of(cov) == shp{2, 2, 2});
  // errors: NumPy's TypeError / ValueError, inputs untouched
  cn_array out = nullptr, out2 = nullptr;
  CN_REQUIRE_ERR(cn_polyfit(&out, nullptr, nullptr, nullptr, x, y, -1, -1,
                            nullptr),
                 CN_ERR_VALUE, "deg >= 0");
  CN_REQUIRE_ERR(cn_polyfit(&out, nullptr, nullptr, nullptr, f64({}, {0}),
                            f64({}, {0}), 1, -1, nullptr),
                 CN_ERR_TYPE, "non-empty");
  CN_REQUIRE_ERR(cn_polyfit(&out, nullptr, nullptr, nullptr, arange(4, {2, 2}),
                            y, 1, -1, nullptr),
                 CN_ERR_TYPE, "1D vector");
  CN_REQUIRE_ERR(cn_polyfit(&out, nullptr, nullptr, nullptr, x,
                            f64({1, 2}, {2}), 1, -1, nullptr),
                 CN_ERR_TYPE, "same length");
  CN_REQUIRE_ERR(cn_polyfit(&out, nullptr, nullptr, nullptr, x, y, 1, -1,
                            f64({1}, {1})),
                 CN_ERR_TYPE, "w and y");
  CN_REQUIRE_ERR(cn_polyfit_cov(&out, &out2, x, y, 4, -1, nullptr, 0),
                 CN_ERR_VALUE, "exceed order");
  REQUIRE((out == nullptr && out2 == nullptr));
  REQUIRE(dvec(y) == V{1, 3, 7, 13, 21.5});
}
