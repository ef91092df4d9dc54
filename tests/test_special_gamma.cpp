// Tests of the gamma and beta family of cunumpy/special.h (core/
// special_gamma.h) through the C ABI against long double oracles: closed
// forms (I_x(a, 1) = x^a, P(n, x) as a Poisson sum, polygamma(1, x) =
// zeta(2, x)), glibc's lgammal and tgammal, direct sums and the AGM in long
// double; the ternary ops' broadcasting, strides and dst; the error paths.
// mpmath and SciPy check the stated bounds (tests/python/
// test_special_gamma.py).
#include "testutil.hpp"

#include <cmath>
#include <cstring>
#include <functional>

namespace {

using LD = long double;

Arr f64(const std::vector<double> &v) {
  return from_vec(v, {(int64_t)v.size()}, CN_FLOAT64);
}

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

typedef cn_status (*f2)(cn_array *, cn_array, cn_array, cn_array);
typedef cn_status (*f3)(cn_array *, cn_array, cn_array, cn_array, cn_array);

std::vector<double> call2(f2 fn, const std::vector<double> &a,
                          const std::vector<double> &b) {
  Arr x = f64(a), y = f64(b), r;
  CN_REQUIRE_OK(fn(r.out(), x, y, nullptr));
  return to_vec<double>(r);
}

std::vector<double> call3(f3 fn, const std::vector<double> &a,
                          const std::vector<double> &b,
                          const std::vector<double> &c) {
  Arr x = f64(a), y = f64(b), z = f64(c), r;
  CN_REQUIRE_OK(fn(r.out(), x, y, z, nullptr));
  return to_vec<double>(r);
}

// Hurwitz zeta(s, q) in long double: 20000 terms and the integral's and
// the first Euler-Maclaurin terms of the tail.
LD zeta_ld(LD s, LD q) {
  LD sum = 0;
  int n = 20000;
  for (int k = 0; k < n; k++)
    sum += std::pow(q + k, -s);
  LD a = q + n;
  return sum + std::pow(a, 1 - s) / (s - 1) + std::pow(a, -s) / 2 +
         s * std::pow(a, -s - 1) / 12;
}

// K(m) and E(m) in long double by the AGM.
LD ellipk_ld(LD m) {
  LD a = 1, g = std::sqrt(1 - m);
  for (int i = 0; i < 30; i++) {
    LD an = (a + g) / 2;
    g = std::sqrt(a * g);
    a = an;
  }
  return M_PI / (2 * a);
}

} // namespace

TEST_CASE("the gamma family's ops are in the op table", "[special]") {
  for (const char *n : {"loggamma", "ellipk", "ellipe"})
    REQUIRE(cn_op_nin((std::string("special_") + n).c_str()) == 1);
  for (const char *n : {"polygamma", "beta", "betaln", "gammainc", "gammaincc",
                        "gammaincinv", "gammainccinv", "zeta", "lambertw"})
    REQUIRE(cn_op_nin((std::string("special_") + n).c_str()) == 2);
  for (const char *n : {"betainc", "betaincinv"})
    REQUIRE(cn_op_nin((std::string("special_") + n).c_str()) == 3);
}

TEST_CASE("gamma, beta and zeta against long double", "[special]") {
  std::vector<double> x = {0.01, 0.3, 0.8, 1.0, 1.2, 1.9, 2.0, 2.6, 7.5, 40.0};
  std::vector<double> lg;
  {
    Arr a = f64(x), r;
    CN_REQUIRE_OK(cn_special_loggamma(r.out(), a, nullptr));
    lg = to_vec<double>(r);
  }
  for (size_t i = 0; i < x.size(); i++) {
    LD want = lgammal((LD)x[i]);
    // near the zeros 1 and 2 the long double oracle has an absolute error
    if (std::fabs((double)want) > 1e-3)
      CHECK(ulps(lg[i], want) <= 4);
    else
      CHECK(std::fabs(lg[i] - (double)want) <= 1e-19);
  }
  std::vector<double> a = {0.5, 1.5, 3.0, 0.1, 7.0, 9.5};
  std::vector<double> b = {0.5, 2.5, 4.0, 9.0, 7.0, 0.3};
  std::vector<double> be = call2(cn_special_beta, a, b);
  std::vector<double> bl = call2(cn_special_betaln, a, b);
  for (size_t i = 0; i < a.size(); i++) {
    LD want = tgammal(a[i]) * tgammal(b[i]) / tgammal((LD)a[i] + b[i]);
    CHECK(ulps(be[i], want) <= 16);
    CHECK(std::fabs(bl[i] - (double)logl(want)) <=
          4 * 2.3e-16 * std::fmax(1.0, std::fabs(bl[i])));
  }
  // zeta, and polygamma(1, x) = zeta(2, x), polygamma(2, x) = -2 zeta(3, x)
  std::vector<double> s = {1.5, 2.0, 3.0, 4.5, 2.0};
  std::vector<double> q = {1.0, 0.5, 2.5, 10.0, 100.0};
  std::vector<double> z = call2(cn_special_zeta, s, q);
  for (size_t i = 0; i < s.size(); i++)
    CHECK(ulps(z[i], zeta_ld(s[i], q[i])) <= 4);
  std::vector<double> pg = call2(cn_special_polygamma, {1, 2}, {0.5, 3.0});
  CHECK(ulps(pg[0], zeta_ld(2, 0.5)) <= 6);
  CHECK(ulps(pg[1], -2 * zeta_ld(3, 3.0)) <= 6);
  // the poles and SciPy's edges
  std::vector<double> e = call2(cn_special_zeta, {1.0, 0.5, 2.0}, {1.0, 1.0, -3});
  CHECK(std::isinf(e[0]));
  CHECK(std::isnan(e[1]));
  CHECK(std::isinf(e[2]));
  std::vector<double> bp = call2(cn_special_beta, {-1.0, 0.0}, {1.0, 2.0});
  CHECK(bp[0] == -1.0); // the limit along a + b = 0
  CHECK(std::isinf(bp[1]));
}

TEST_CASE("incomplete gamma and beta against closed forms", "[special]") {
  // P(n, x) = 1 - e^-x sum_k<n x^k / k!
  std::vector<double> n = {1, 2, 5, 12}, x = {0.3, 2.0, 4.5, 20.0};
  std::vector<double> p = call2(cn_special_gammainc, n, x);
  std::vector<double> q = call2(cn_special_gammaincc, n, x);
  for (size_t i = 0; i < n.size(); i++) {
    LD t = 1, s = 0;
    for (int k = 0; k < (int)n[i]; k++) {
      s += t;
      t *= (LD)x[i] / (k + 1);
    }
    LD qq = expl(-(LD)x[i]) * s;
    CHECK(ulps(q[i], qq) <= 32);
    CHECK(ulps(p[i], 1 - qq) <= 32);
  }
  // I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b, I_x(a, b) + I_1-x(b, a) = 1
  std::vector<double> xs = {0.05, 0.3, 0.5, 0.77, 0.99};
  std::vector<double> ia = call3(cn_special_betainc, std::vector<double>(5, 2.5),
                                 std::vector<double>(5, 1.0), xs);
  std::vector<double> ib = call3(cn_special_betainc, std::vector<double>(5, 1.0),
                                 std::vector<double>(5, 3.5), xs);
  for (size_t i = 0; i < xs.size(); i++) {
    CHECK(ulps(ia[i], powl(xs[i], 2.5L)) <= 16);
    CHECK(ulps(ib[i], 1 - powl(1 - (LD)xs[i], 3.5L)) <= 16);
  }
  // the inverses round-trip
  std::vector<double> pr = {1e-10, 0.01, 0.5, 0.9, 0.999};
  std::vector<double> gi =
      call2(cn_special_gammaincinv, std::vector<double>(5, 3.7), pr);
  std::vector<double> back =
      call2(cn_special_gammainc, std::vector<double>(5, 3.7), gi);
  std::vector<double> bi = call3(cn_special_betaincinv, std::vector<double>(5, 2.0),
                                 std::vector<double>(5, 5.0), pr);
  std::vector<double> bback = call3(cn_special_betainc, std::vector<double>(5, 2.0),
                                    std::vector<double>(5, 5.0), bi);
  for (size_t i = 0; i < pr.size(); i++) {
    CHECK(std::fabs(back[i] - pr[i]) <= 1e-14 * pr[i]);
    CHECK(std::fabs(bback[i] - pr[i]) <= 1e-14 * pr[i]);
  }
}

TEST_CASE("elliptic integrals and Lambert W", "[special]") {
  std::vector<double> m = {-10.0, -0.5, 0.0, 0.3, 0.9, 0.95, 0.999999};
  Arr am = f64(m), rk, re;
  CN_REQUIRE_OK(cn_special_ellipk(rk.out(), am, nullptr));
  CN_REQUIRE_OK(cn_special_ellipe(re.out(), am, nullptr));
  std::vector<double> k = to_vec<double>(rk), e = to_vec<double>(re);
  for (size_t i = 0; i < m.size(); i++)
    CHECK(ulps(k[i], ellipk_ld(m[i])) <= 4);
  CHECK(e[2] == M_PI / 2);
  // Legendre's relation E K' + E' K - K K' = pi / 2 at m = 0.3, 0.7
  std::vector<double> m2 = {0.3, 0.7};
  Arr a2 = f64(m2), k2, e2;
  CN_REQUIRE_OK(cn_special_ellipk(k2.out(), a2, nullptr));
  CN_REQUIRE_OK(cn_special_ellipe(e2.out(), a2, nullptr));
  std::vector<double> kk = to_vec<double>(k2), ee = to_vec<double>(e2);
  CHECK(std::fabs(ee[0] * kk[1] + ee[1] * kk[0] - kk[0] * kk[1] - M_PI / 2) <=
        4e-16);
  // w e^w = x on both branches
  std::vector<double> xs = {-0.3, -0.1, -1e-5, 0.5, 3.0, 1e10, -0.3, -1e-5};
  std::vector<double> br = {0, 0, 0, 0, 0, 0, -1, -1};
  std::vector<double> w = call2(cn_special_lambertw, xs, br);
  for (size_t i = 0; i < xs.size(); i++) {
    LD wl = w[i];
    CHECK(std::fabs((double)(wl * expl(wl) - xs[i])) <=
          8e-16 * std::fabs(xs[i]) * std::fabs(1 + w[i]) + 1e-300);
    CHECK((br[i] == 0 ? w[i] >= -1 : w[i] <= -1));
  }
  std::vector<double> nan = call2(cn_special_lambertw, {-0.5, 0.5, 1.0},
                                  {0.0, -1.0, 1.0});
  for (double v : nan)
    CHECK(std::isnan(v));
}

TEST_CASE("ternary special ops: broadcast, strides, dst, errors", "[special]") {
  // a: (2, 1), b: (3,), x: a reversed view of 3
  Arr a = from_vec(std::vector<double>{2.0, 0.5}, {2, 1}, CN_FLOAT64);
  Arr b = f64({1.0, 3.0, 0.7});
  Arr base = f64({0.9, 0.2, 0.6}), x, r;
  CN_REQUIRE_OK(cn_slice_axis(x.out(), base, 0, CN_SLICE_NONE, CN_SLICE_NONE,
                              -1)); // 0.6, 0.2, 0.9
  CN_REQUIRE_OK(cn_special_betainc(r.out(), a, b, x, nullptr));
  std::vector<double> got = to_vec<double>(r);
  REQUIRE(got.size() == 6);
  const double xv[3] = {0.6, 0.2, 0.9}, bv[3] = {1.0, 3.0, 0.7};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) {
      double want = -1;
      if (bv[j] == 1.0)
        want = std::pow(xv[j], i == 0 ? 2.0 : 0.5);
      if (want >= 0)
        CHECK(ulps(got[i * 3 + j], want) <= 16);
      CHECK(got[i * 3 + j] > 0);
      CHECK(got[i * 3 + j] < 1);
    }
  // dst written in place; float32 stays float32
  Arr d = f64({0, 0, 0, 0, 0, 0});
  Arr d2;
  CN_REQUIRE_OK(cn_reshape(d2.out(), d, 2, std::vector<int64_t>{2, 3}.data(),
                           CN_ORDER_C));
  CN_REQUIRE_OK(cn_special_betainc(r.out(), a, b, x, d2));
  REQUIRE(to_vec<double>(d) == got);
  Arr f = from_vec(std::vector<float>{0.25f}, {1}, CN_FLOAT32);
  CN_REQUIRE_OK(cn_special_betainc(r.out(), f, f, f, nullptr));
  cn_dtype dt;
  CN_REQUIRE_OK(cn_array_dtype(&dt, r));
  REQUIRE(dt == CN_FLOAT32);
  // errors: shapes that do not broadcast, complex, NULL; inputs untouched
  Arr bad = f64({0.1, 0.2, 0.3, 0.4});
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_special_betainc(&o, a, b, bad, nullptr), CN_ERR_SHAPE, "");
  Arr z = from_vec(std::vector<double>{1.0, 0.0}, {1}, CN_COMPLEX128);
  CN_REQUIRE_ERR(cn_special_betaincinv(&o, z, b, x, nullptr), CN_ERR_TYPE,
                 "cn_special_betaincinv");
  CN_REQUIRE_ERR(cn_special_betainc(&o, a, b, nullptr, nullptr), CN_ERR_VALUE,
                 "NULL");
  REQUIRE(o == nullptr);
  REQUIRE(to_vec<double>(base) == std::vector<double>{0.9, 0.2, 0.6});
  REQUIRE(to_vec<double>(bad) == std::vector<double>{0.1, 0.2, 0.3, 0.4});
}
