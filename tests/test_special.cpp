// Tests of cunumpy/special.h through the C ABI: the special_* ops of the op
// table against long double oracles (glibc's erfl, tgammal, lgammal, j0l,
// ..., and closed forms computed in long double here), dtype rules,
// strided and broadcast operands, dst, and the error paths; the
// reductions logsumexp, softmax and log_softmax against long double sums.
// SciPy and mpmath check the accuracy bounds (tests/python/test_special.py).
#include "testutil.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <iterator>

namespace {

using LD = long double;

Arr f64(const std::vector<double> &v) {
  return from_vec(v, {(int64_t)v.size()}, CN_FLOAT64);
}

// Relative error of got against the long double oracle, in float64 ulp.
double ulps(double got, LD want) {
  if (std::isnan((double)want))
    return std::isnan(got) ? 0 : 1e30;
  if (std::isinf((double)want))
    return got == (double)want ? 0 : 1e30;
  double w = (double)want;
  if (got == w)
    return 0;
  double sp = std::nextafter(std::fabs(w), INFINITY) - std::fabs(w);
  return (double)(std::fabs((LD)got - want) / (LD)sp);
}

typedef cn_status (*f1)(cn_array *, cn_array, cn_array);
typedef cn_status (*f2)(cn_array *, cn_array, cn_array, cn_array);

struct Unary {
  const char *name;
  f1 fn;
  std::function<LD(LD)> oracle;
  double tol;
  std::vector<double> xs;
};

const std::vector<double> kMid = {-3.5, -1.25, -0.5, -1e-3, 1e-3, 0.25,
                                  0.5,  0.75,  1.5,  2.5,   4.0,  7.5};
const std::vector<double> kPos = {1e-3, 0.1, 0.5, 1.0,  1.5,
                                  2.5,  4.0, 7.5, 12.0, 20.0};
const std::vector<double> kUnit = {1e-3, 0.05, 0.2,  0.4,  0.5,
                                   0.6,  0.8,  0.95, 0.999};

LD expit_ld(LD x) { return 1 / (1 + std::exp(-x)); }

} // namespace

TEST_CASE("the special ops are in the op table with their arity", "[special]") {
  const char *unary[] = {
      "erf",      "erfc",  "erfcx", "erfinv",    "erfcinv", "ndtr",  "ndtri",
      "log_ndtr", "expit", "logit", "log_expit", "entr",    "gamma", "gammaln",
      "rgamma",   "psi",   "j0",    "j1",        "y0",      "y1",    "i0",
      "i0e",      "i1",    "i1e",   "exp1",      "expi",    "k0",    "k0e",
      "k1",       "k1e"};
  const char *binary[] = {"xlogy",  "xlog1py",      "rel_entr",
                          "kl_div", "huber",        "pseudo_huber",
                          "jv",     "yv",           "iv",
                          "ive",    "kv",           "kve",
                          "spherical_jn", "spherical_yn"};
  // the gamma family's (tests/test_special_gamma.cpp checks their arity)
  const int32_t gamma_family = 14;
  int32_t special = 0;
  for (int32_t i = 0; i < cn_op_count(); i++)
    special += std::strncmp(cn_op_name(i), "special_", 8) == 0;
  REQUIRE(special ==
          (int32_t)(std::size(unary) + std::size(binary)) + gamma_family);
  for (const char *n : unary)
    REQUIRE(cn_op_nin((std::string("special_") + n).c_str()) == 1);
  for (const char *n : binary)
    REQUIRE(cn_op_nin((std::string("special_") + n).c_str()) == 2);
}

TEST_CASE("unary special functions against long double oracles", "[special]") {
  const LD sqrt2 = std::sqrt((LD)2);
  const std::vector<Unary> ops = {
      {"erf", cn_special_erf, [](LD x) { return std::erf(x); }, 2, kMid},
      {"erfc", cn_special_erfc, [](LD x) { return std::erfc(x); }, 4, kMid},
      {"erfcx", cn_special_erfcx,
       [](LD x) { return std::exp(x * x) * std::erfc(x); }, 8, kMid},
      {"ndtr", cn_special_ndtr,
       [sqrt2](LD x) { return std::erfc(-x / sqrt2) / 2; }, 8, kMid},
      {"log_ndtr", cn_special_log_ndtr,
       [sqrt2](LD x) {
         // right of 0 through the small tail, where erfc(-x/sqrt2) is 2
         return x > 0 ? std::log1p(-std::erfc(x / sqrt2) / 2)
                      : std::log(std::erfc(-x / sqrt2) / 2);
       },
       8, kMid},
      {"expit", cn_special_expit, expit_ld, 2, kMid},
      {"log_expit", cn_special_log_expit,
       [](LD x) { return std::log(expit_ld(x)); }, 2, kMid},
      {"logit", cn_special_logit, [](LD p) { return std::log(p / (1 - p)); }, 2,
       kUnit},
      {"entr", cn_special_entr, [](LD x) { return -x * std::log(x); }, 2, kPos},
      {"gamma", cn_special_gamma, [](LD x) { return std::tgamma(x); }, 4, kMid},
      {"gammaln", cn_special_gammaln, [](LD x) { return std::lgamma(x); }, 8,
       kPos},
      {"rgamma", cn_special_rgamma, [](LD x) { return 1 / std::tgamma(x); }, 4,
       kMid},
      {"j0", cn_special_j0, [](LD x) { return j0l(x); }, 8, kPos},
      {"j1", cn_special_j1, [](LD x) { return j1l(x); }, 8, kPos},
      {"y0", cn_special_y0, [](LD x) { return y0l(x); }, 8, kPos},
      {"y1", cn_special_y1, [](LD x) { return y1l(x); }, 8, kPos},
  };
  for (const Unary &op : ops)
    for (double x : op.xs) {
      Arr a = f64({x}), r;
      CN_REQUIRE_OK(op.fn(r.out(), a, nullptr));
      double got = to_vec<double>(r)[0];
      INFO(op.name << "(" << x << ") = " << got);
      REQUIRE(ulps(got, op.oracle((LD)x)) <= op.tol);
    }
}

TEST_CASE("inverse functions invert erf, erfc and ndtr", "[special]") {
  for (double y : {-0.999, -0.5, -1e-3, 0.0, 0.3, 0.7, 0.9999}) {
    Arr a = f64({y}), r;
    CN_REQUIRE_OK(cn_special_erfinv(r.out(), a, nullptr));
    double x = to_vec<double>(r)[0];
    INFO("erfinv(" << y << ") = " << x);
    // erf is flat near +-1: compare in erfc's scale there
    REQUIRE(std::fabs(std::erfc((LD)x) - (1 - (LD)y)) <=
            1e-15L * (1 - (LD)std::fabs(y)) + 1e-17L);
  }
  for (double p : {1e-300, 1e-20, 0.01, 0.5, 0.8}) {
    Arr a = f64({p}), r;
    CN_REQUIRE_OK(cn_special_ndtri(r.out(), a, nullptr));
    double x = to_vec<double>(r)[0];
    INFO("ndtri(" << p << ") = " << x);
    LD back = std::erfc(-(LD)x / std::sqrt((LD)2)) / 2;
    // an error of 2 ulp in x moves the tail probability by 4 eps x^2
    LD tol = 4 * 2.220446049250313e-16L * std::max((LD)1, (LD)x * x) * p;
    REQUIRE(std::fabs(back - p) <= tol);
  }
  Arr e = f64({0.0, 2.0, -0.5, 2.5}), r;
  CN_REQUIRE_OK(cn_special_erfcinv(r.out(), e, nullptr));
  std::vector<double> v = to_vec<double>(r);
  REQUIRE(v[0] == INFINITY);
  REQUIRE(v[1] == -INFINITY);
  REQUIRE(std::isnan(v[2]));
  REQUIRE(std::isnan(v[3]));
}

TEST_CASE("binary special functions, broadcast and strided", "[special]") {
  // x: a 2 x 3 view with negative and non-unit strides, y: a row of 3
  std::vector<double> xv = {0.0, 0.5, 1.0, 2.0, 3.0, 4.0,
                            5.0, 6.0, 7.0, 8.0, 9.0, 10.0};
  Arr base = from_vec(xv, {4, 3}, CN_FLOAT64), x;
  CN_REQUIRE_OK(cn_slice_axis(x.out(), base, 0, 3, CN_SLICE_NONE, -2));
  // rows 3, 1
  Arr y = f64({0.25, 1.0, 3.0});
  struct {
    const char *name;
    f2 fn;
    std::function<LD(LD, LD)> oracle;
  } ops[] = {
      {"xlogy", cn_special_xlogy,
       [](LD a, LD b) { return a == 0 ? 0 : a * std::log(b); }},
      {"xlog1py", cn_special_xlog1py,
       [](LD a, LD b) { return a == 0 ? 0 : a * std::log1p(b); }},
      {"rel_entr", cn_special_rel_entr,
       [](LD a, LD b) { return a == 0 ? 0 : a * std::log(a / b); }},
      {"kl_div", cn_special_kl_div,
       [](LD a, LD b) { return a == 0 ? b : a * std::log(a / b) - a + b; }},
      {"huber", cn_special_huber,
       [](LD d, LD r) {
         return std::fabs(r) <= d ? r * r / 2 : d * (std::fabs(r) - d / 2);
       }},
      {"pseudo_huber", cn_special_pseudo_huber,
       [](LD d, LD r) {
         return d == 0 ? 0 : d * d * (std::sqrt(1 + (r / d) * (r / d)) - 1);
       }},
  };
  std::vector<double> xs = {xv[9], xv[10], xv[11], xv[3], xv[4], xv[5]};
  std::vector<double> ys = {0.25, 1.0, 3.0};
  for (auto &op : ops) {
    Arr r;
    CN_REQUIRE_OK(op.fn(r.out(), x, y, nullptr));
    REQUIRE(shape_of(r) == std::vector<int64_t>{2, 3});
    std::vector<double> got = to_vec<double>(r);
    for (int i = 0; i < 6; i++) {
      INFO(op.name << "(" << xs[i] << ", " << ys[i % 3] << ") = " << got[i]);
      REQUIRE(ulps(got[i], op.oracle(xs[i], ys[i % 3])) <= 8);
    }
  }
}

TEST_CASE("special ops: dtypes, dst and error paths", "[special]") {
  // integers compute in float64 (entr: int8 in float32), float32 stays
  Arr i8 = from_vec(std::vector<int8_t>{1, 2}, {2}, CN_INT8), r;
  cn_dtype dt;
  CN_REQUIRE_OK(cn_special_erf(r.out(), i8, nullptr));
  CN_REQUIRE_OK(cn_array_dtype(&dt, r));
  REQUIRE(dt == CN_FLOAT64);
  CN_REQUIRE_OK(cn_special_entr(r.out(), i8, nullptr));
  CN_REQUIRE_OK(cn_array_dtype(&dt, r));
  REQUIRE(dt == CN_FLOAT32);
  Arr f32 = from_vec(std::vector<float>{0.5f, 2.0f}, {2}, CN_FLOAT32);
  CN_REQUIRE_OK(cn_special_gamma(r.out(), f32, nullptr));
  CN_REQUIRE_OK(cn_array_dtype(&dt, r));
  REQUIRE(dt == CN_FLOAT32);
  std::vector<float> g = to_vec<float>(r);
  REQUIRE(g[0] == (float)std::sqrt(M_PI));
  REQUIRE(g[1] == 1.0f);

  // dst: written in place, its shape must match
  Arr a = f64({0.0, 1.0}), d = f64({7.0, 7.0}), bad = f64({1.0, 2.0, 3.0});
  CN_REQUIRE_OK(cn_special_expit(r.out(), a, d));
  REQUIRE(r.h == d.h);
  REQUIRE(to_vec<double>(d)[0] == 0.5);
  REQUIRE(ulps(to_vec<double>(d)[1], expit_ld(1)) <= 2);
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_special_expit(&o, a, bad), CN_ERR_SHAPE, "");
  REQUIRE(o == nullptr);
  CN_REQUIRE_ERR(cn_special_xlogy(&o, a, bad, nullptr), CN_ERR_SHAPE, "");

  // complex has no loop; NULL arguments; released handles
  Arr z = from_vec(std::vector<double>{1.0, 0.0}, {1}, CN_COMPLEX128);
  CN_REQUIRE_ERR(cn_special_erfcx(&o, z, nullptr), CN_ERR_TYPE,
                 "cn_special_erfcx");
  CN_REQUIRE_ERR(cn_special_kl_div(&o, a, z, nullptr), CN_ERR_TYPE,
                 "cn_special_kl_div");
  CN_REQUIRE_ERR(cn_special_erf(nullptr, a, nullptr), CN_ERR_VALUE,
                 "output pointer is NULL");
  CN_REQUIRE_ERR(cn_special_huber(&o, a, nullptr, nullptr), CN_ERR_VALUE,
                 "argument 'x2' is NULL");
  REQUIRE(o == nullptr);
  // the inputs are untouched by the failures
  REQUIRE(to_vec<double>(a) == std::vector<double>{0.0, 1.0});
  REQUIRE(to_vec<double>(bad) == std::vector<double>{1.0, 2.0, 3.0});

  // cn_ufunc reaches them by the op table's name
  cn_array in[1] = {a};
  CN_REQUIRE_OK(cn_ufunc(r.out(), "special_ndtr", 1, in, nullptr));
  REQUIRE(to_vec<double>(r)[0] == 0.5);
  CN_REQUIRE_ERR(cn_ufunc(&o, "ndtr", 1, in, nullptr), CN_ERR_VALUE,
                 "unknown op 'ndtr'");
}

TEST_CASE("logsumexp, softmax and log_softmax against long double",
          "[special]") {
  // 2 x 3, one row far beyond exp's range
  std::vector<double> v = {800.0, 801.5, 799.0, -3.0, 0.5, 2.0};
  Arr a = from_vec(v, {2, 3}, CN_FLOAT64), r;
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_special_logsumexp(r.out(), a, 1, &ax, 0));
  REQUIRE(shape_of(r) == std::vector<int64_t>{2});
  std::vector<double> got = to_vec<double>(r);
  for (int i = 0; i < 2; i++) {
    LD m = v[3 * i + 1], s = 0;
    for (int j = 0; j < 3; j++)
      s += std::exp((LD)v[3 * i + j] - m);
    INFO("row " << i << ": " << got[i]);
    REQUIRE(ulps(got[i], m + std::log(s)) <= 4);
  }
  // all axes with keepdims
  CN_REQUIRE_OK(cn_special_logsumexp(r.out(), a, CN_ALL_AXES, nullptr, 1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{1, 1});
  // softmax rows sum to 1; log_softmax is its log
  Arr sm, lsm;
  CN_REQUIRE_OK(cn_special_softmax(sm.out(), a, 1));
  CN_REQUIRE_OK(cn_special_log_softmax(lsm.out(), a, -1));
  std::vector<double> p = to_vec<double>(sm), lp = to_vec<double>(lsm);
  for (int i = 0; i < 2; i++) {
    LD m = v[3 * i + 1], s = 0;
    for (int j = 0; j < 3; j++)
      s += std::exp((LD)v[3 * i + j] - m);
    for (int j = 0; j < 3; j++) {
      LD want = (LD)v[3 * i + j] - m - std::log(s);
      REQUIRE(std::fabs(lp[3 * i + j] - want) <= 1e-13L);
      REQUIRE(ulps(p[3 * i + j], std::exp(want)) <= 64);
    }
  }
  // special values: an all -inf row gives -inf, an inf gives inf
  Arr e = f64({-INFINITY, -INFINITY}), ri;
  CN_REQUIRE_OK(cn_special_logsumexp(ri.out(), e, CN_ALL_AXES, nullptr, 0));
  REQUIRE(to_vec<double>(ri)[0] == -INFINITY);
  Arr f = f64({INFINITY, 1.0});
  CN_REQUIRE_OK(cn_special_logsumexp(ri.out(), f, CN_ALL_AXES, nullptr, 0));
  REQUIRE(to_vec<double>(ri)[0] == INFINITY);
  // integers compute in float64
  Arr i = from_vec(std::vector<int32_t>{0, 1, 2}, {3}, CN_INT32);
  CN_REQUIRE_OK(cn_special_logsumexp(ri.out(), i, CN_ALL_AXES, nullptr, 0));
  cn_dtype dt;
  CN_REQUIRE_OK(cn_array_dtype(&dt, ri));
  REQUIRE(dt == CN_FLOAT64);
  REQUIRE(ulps(to_vec<double>(ri)[0],
               std::log(1 + std::exp((LD)1) + std::exp((LD)2))) <= 4);
}

TEST_CASE("logsumexp and softmax error paths", "[special]") {
  Arr a = f64({1.0, 2.0});
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_special_logsumexp(nullptr, a, CN_ALL_AXES, nullptr, 0),
                 CN_ERR_VALUE, "cn_special_logsumexp: output pointer");
  CN_REQUIRE_ERR(cn_special_softmax(&o, nullptr, 0), CN_ERR_VALUE,
                 "cn_special_softmax: argument 'a' is NULL");
  Arr z = from_vec(std::vector<double>{1.0, 0.0}, {1}, CN_COMPLEX128);
  CN_REQUIRE_ERR(cn_special_log_softmax(&o, z, 0), CN_ERR_TYPE,
                 "cn_special_log_softmax: complex");
  int64_t zero = 0;
  Arr empty;
  CN_REQUIRE_OK(cn_zeros(empty.out(), 1, &zero, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_special_logsumexp(&o, empty, CN_ALL_AXES, nullptr, 0),
                 CN_ERR_VALUE, "zero-size");
  int32_t bad = 3;
  cn_status st = cn_special_logsumexp(&o, a, 1, &bad, 0);
  REQUIRE(st != CN_OK);
  REQUIRE(o == nullptr);
  REQUIRE(cn_special_softmax(&o, a, 2) != CN_OK);
  REQUIRE(o == nullptr);
  REQUIRE(to_vec<double>(a) == std::vector<double>{1.0, 2.0});
}

TEST_CASE("Bessel functions of real order against glibc's long double ones",
          "[special]") {
  // integer orders 0 and 1 against j0l/j1l/y0l/y1l, a half order against
  // the closed forms sqrt(2/(pi x)) sin x and -sqrt(2/(pi x)) cos x
  for (double x : {0.1, 1.0, 1.9, 2.5, 7.5, 30.0}) {
    Arr v0 = f64({0.0}), v1 = f64({1.0}), vh = f64({0.5}), a = f64({x}), r;
    LD env = std::sqrt(2 / (M_PIl * (LD)x));
    struct {
      f2 fn;
      Arr *v;
      LD want;
    } rows[] = {{cn_special_jv, &v0, j0l(x)},
                {cn_special_jv, &v1, j1l(x)},
                {cn_special_yv, &v0, y0l(x)},
                {cn_special_yv, &v1, y1l(x)},
                {cn_special_jv, &vh, env * std::sin((LD)x)},
                {cn_special_yv, &vh, -env * std::cos((LD)x)}};
    for (auto &row : rows) {
      CN_REQUIRE_OK(row.fn(r.out(), *row.v, a, nullptr));
      double got = to_vec<double>(r)[0];
      INFO("x = " << x << ": " << got << " vs " << (double)row.want);
      REQUIRE(std::fabs((LD)got - row.want) <= 1e-14L * env);
    }
  }
  // special values: kv at 0 is inf, below 0 NaN; jv of a non-integer
  // order at a negative x is NaN; spherical_jn(0, 0) is 1
  Arr v = f64({2.5, 2.5, 0.0}), x = f64({0.0, -1.0, 0.0}), r;
  CN_REQUIRE_OK(cn_special_kv(r.out(), v, x, nullptr));
  std::vector<double> k = to_vec<double>(r);
  REQUIRE(k[0] == INFINITY);
  REQUIRE(std::isnan(k[1]));
  CN_REQUIRE_OK(cn_special_jv(r.out(), v, x, nullptr));
  REQUIRE(std::isnan(to_vec<double>(r)[1]));
  CN_REQUIRE_OK(cn_special_spherical_jn(r.out(), v, x, nullptr));
  REQUIRE(to_vec<double>(r)[2] == 1.0);
}
