// cov / cov_weighted / corrcoef (cunumpy/stats.h) against a long double
// oracle of NumPy's formulas: rowvar, bias, ddof, frequency and analytic
// weights, y, complex conjugation, strided and transposed inputs, the
// exact symmetry of the product, corrcoef's clipping, errors.
#include "array_testutil.hpp"

#include <random>

using namespace tu;
using LC = std::complex<long double>;
using C = std::complex<double>;
using CV = std::vector<C>;

namespace {

// rows: nv variables of nobs values; w may be empty (unweighted).
std::vector<LC> cov_oracle(const std::vector<std::vector<LC>> &rows,
                           const std::vector<long double> &f,
                           const std::vector<long double> &a, int ddof) {
  size_t nv = rows.size(), nobs = rows[0].size();
  std::vector<long double> w(nobs, 1);
  for (size_t k = 0; k < nobs; k++)
    w[k] = (f.empty() ? 1 : f[k]) * (a.empty() ? 1 : a[k]);
  long double ws = 0, swa = 0;
  for (size_t k = 0; k < nobs; k++) {
    ws += w[k];
    swa += w[k] * (a.empty() ? 1 : a[k]);
  }
  long double fact = f.empty() && a.empty() ? (long double)nobs - ddof
                     : ddof == 0           ? ws
                     : a.empty()           ? ws - ddof
                                           : ws - ddof * swa / ws;
  std::vector<LC> mu(nv);
  for (size_t i = 0; i < nv; i++) {
    LC s = 0;
    for (size_t k = 0; k < nobs; k++)
      s += rows[i][k] * w[k];
    mu[i] = s / ws;
  }
  std::vector<LC> c(nv * nv);
  for (size_t i = 0; i < nv; i++)
    for (size_t j = 0; j < nv; j++) {
      LC s = 0;
      for (size_t k = 0; k < nobs; k++)
        s += (rows[i][k] - mu[i]) * w[k] * std::conj(rows[j][k] - mu[j]);
      c[i * nv + j] = s / fact;
    }
  return c;
}

bool close_to(const CV &got, const std::vector<LC> &want, double tol) {
  if (got.size() != want.size())
    return false;
  for (size_t i = 0; i < got.size(); i++)
    if (!(std::abs(LC(got[i].real(), got[i].imag()) - want[i]) <=
          tol * (1 + std::abs(want[i]))))
      return false;
  return true;
}

CV cvec(cn_array a) { return to_vec<C>(cast(a, CN_COMPLEX128)); }
cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  cn_array_dtype(&d, a);
  return d;
}

// (nv, nobs) random values as an array of dtype dt and as oracle rows.
Arr random_rows(std::mt19937_64 &g, int64_t nv, int64_t nobs, bool cplx,
                std::vector<std::vector<LC>> &rows) {
  std::normal_distribution<double> d;
  CV v((size_t)(nv * nobs));
  rows.assign((size_t)nv, std::vector<LC>((size_t)nobs));
  for (int64_t i = 0; i < nv; i++)
    for (int64_t k = 0; k < nobs; k++) {
      C z(d(g), cplx ? d(g) : 0);
      v[(size_t)(i * nobs + k)] = z;
      rows[(size_t)i][(size_t)k] = LC(z.real(), z.imag());
    }
  Arr a = from_vec<C>(v, {nv, nobs}, CN_COMPLEX128);
  return cplx ? std::move(a) : cast(a, CN_FLOAT64);
}

} // namespace

TEST_CASE("cov matches the oracle: rowvar, bias, ddof, weights, y, complex") {
  std::mt19937_64 g(3);
  for (bool cplx : {false, true})
    for (auto nm : {std::pair<int64_t, int64_t>{3, 7}, {1, 5}, {6, 40},
                    {40, 6}}) {
      std::vector<std::vector<LC>> rows;
      Arr m = random_rows(g, nm.first, nm.second, cplx, rows);
      Arr mt = transpose(m); // observations as rows: rowvar = 0
      for (int ddof : {-1, 0, 2})
        for (int bias : {0, 1}) {
          INFO("complex " << cplx << " shape " << nm.first << "x"
                          << nm.second << " ddof " << ddof << " bias "
                          << bias);
          int eff = ddof >= 0 ? ddof : (bias ? 0 : 1);
          auto want = cov_oracle(rows, {}, {}, eff);
          Arr r1, r2;
          CN_REQUIRE_OK(cn_cov(r1.out(), m, nullptr, 1, bias, ddof));
          CN_REQUIRE_OK(cn_cov(r2.out(), mt, nullptr, 0, bias, ddof));
          REQUIRE(dtype_of(r1) == (cplx ? CN_COMPLEX128 : CN_FLOAT64));
          if (nm.first == 1) {
            REQUIRE(shape_of(r1).empty());
          } else {
            REQUIRE(shape_of(r1) ==
                    std::vector<int64_t>{nm.first, nm.first});
          }
          if (eff >= nm.second)
            continue; // degrees of freedom <= 0: tested below
          REQUIRE(close_to(cvec(r1), want, 1e-12));
          REQUIRE(close_to(cvec(r2), want, 1e-12));
        }
      // weights: frequencies 0..3 (not all 0), analytic in (0, 1]
      std::vector<int64_t> fw((size_t)nm.second);
      std::vector<double> aw((size_t)nm.second);
      std::vector<long double> fl, al;
      for (int64_t k = 0; k < nm.second; k++) {
        fw[(size_t)k] = (k % 4) + (k == 0);
        aw[(size_t)k] = 0.25 + 0.75 * (double)((k * 7) % 5) / 4.0;
        fl.push_back(fw[(size_t)k]);
        al.push_back(aw[(size_t)k]);
      }
      Arr F = i64(fw, {nm.second}), A = f64(aw, {nm.second});
      for (int which = 0; which < 3; which++)
        for (int ddof : {0, 1}) {
          INFO("weights " << which << " ddof " << ddof);
          Arr r;
          CN_REQUIRE_OK(cn_cov_weighted(r.out(), m, nullptr,
                                        which != 1 ? (cn_array)F : nullptr,
                                        which != 0 ? (cn_array)A : nullptr, 1,
                                        0, ddof, CN_DTYPE_DEFAULT));
          auto want = cov_oracle(rows, which != 1 ? fl : std::vector<long double>{},
                                 which != 0 ? al : std::vector<long double>{},
                                 ddof);
          REQUIRE(close_to(cvec(r), want, 1e-12));
        }
    }
  // y appended as more variables; a single-row y stays one variable with
  // rowvar = 0
  std::vector<std::vector<LC>> rx, ry;
  Arr x = random_rows(g, 2, 9, false, rx), y = random_rows(g, 1, 9, false, ry);
  std::vector<std::vector<LC>> all = rx;
  all.push_back(ry[0]);
  auto want = cov_oracle(all, {}, {}, 1);
  Arr r;
  CN_REQUIRE_OK(cn_cov(r.out(), x, y, 1, 0, -1));
  REQUIRE(close_to(cvec(r), want, 1e-12));
  CN_REQUIRE_OK(cn_cov(r.out(), transpose(x), y, 0, 0, -1));
  REQUIRE(close_to(cvec(r), want, 1e-12));
}

TEST_CASE("cov: exact symmetry, strided views, float32 dtype, degenerate "
          "inputs") {
  std::mt19937_64 g(5);
  std::vector<std::vector<LC>> rows;
  Arr m = random_rows(g, 30, 50, false, rows);
  Arr r;
  CN_REQUIRE_OK(cn_cov(r.out(), m, nullptr, 1, 0, -1));
  auto c = dvec(r);
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < 30; j++)
      REQUIRE(c[(size_t)(i * 30 + j)] == c[(size_t)(j * 30 + i)]);
  // every other variable and observation, reversed
  Arr s1;
  int64_t start[2] = {29, 49}, stop[2] = {CN_SLICE_NONE, CN_SLICE_NONE},
          step[2] = {-2, -3};
  CN_REQUIRE_OK(cn_slice(s1.out(), m, 2, start, stop, step));
  Arr r2, r3;
  CN_REQUIRE_OK(cn_cov(r2.out(), s1, nullptr, 1, 0, -1));
  CN_REQUIRE_OK(cn_cov(r3.out(), copy(s1), nullptr, 1, 0, -1));
  REQUIRE(values_close(dvec(r2), dvec(r3), 1e-13));
  // a float32 dtype computes and returns float32
  CN_REQUIRE_OK(cn_cov_weighted(r.out(), m, nullptr, nullptr, nullptr, 1, 0,
                                -1, CN_FLOAT32));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(values_close(dvec(r), c, 1e-5));
  // no variables: (0, 0); no observations: nan
  Arr e = f64({}, {0, 4});
  CN_REQUIRE_OK(cn_cov(r.out(), e, nullptr, 1, 0, -1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{0, 0});
  Arr e2 = f64({}, {2, 0});
  CN_REQUIRE_OK(cn_cov(r.out(), e2, nullptr, 1, 0, -1));
  REQUIRE(shape_of(r) == std::vector<int64_t>{2, 2});
  for (double v : dvec(r))
    REQUIRE(std::isnan(v));
  // NaN spreads through its variable's row and column only
  Arr mn = f64({1, NAN, 3, 1, 2, 4, 0, 1, 1}, {3, 3});
  CN_REQUIRE_OK(cn_cov(r.out(), mn, nullptr, 1, 0, -1));
  auto cnan = dvec(r);
  REQUIRE(std::isnan(cnan[0]));
  REQUIRE(std::isnan(cnan[1]));
  REQUIRE(std::isnan(cnan[3]));
  REQUIRE(std::isfinite(cnan[4]));
  REQUIRE(std::isfinite(cnan[8]));
}

TEST_CASE("corrcoef: normalised, clipped to [-1, 1], single variable c / c") {
  // perfectly (anti)correlated rows give exactly +-1 after the clip
  Arr m = f64({0.1, 0.2, 0.7, 1.3, 0.3, 0.6, 2.1, 3.9, -1, -2, -7, -13},
              {3, 4});
  Arr r;
  CN_REQUIRE_OK(cn_corrcoef(r.out(), m, nullptr, 1));
  auto c = dvec(r);
  REQUIRE(c.size() == 9);
  for (double v : c) {
    REQUIRE(v <= 1.0);
    REQUIRE(v >= -1.0);
  }
  REQUIRE(std::fabs(c[1] - 1) < 1e-12);
  REQUIRE(std::fabs(c[0] - 1) < 1e-15);
  REQUIRE(std::fabs(c[2] + 1) < 1e-12);
  // against the oracle on random complex data
  std::mt19937_64 g(9);
  std::vector<std::vector<LC>> rows;
  Arr z = random_rows(g, 4, 12, true, rows);
  auto cv = cov_oracle(rows, {}, {}, 1);
  std::vector<LC> want(16);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      want[(size_t)(i * 4 + j)] =
          cv[(size_t)(i * 4 + j)] /
          std::sqrt(cv[(size_t)(i * 5)].real() * cv[(size_t)(j * 5)].real());
  CN_REQUIRE_OK(cn_corrcoef(r.out(), z, nullptr, 1));
  REQUIRE(dtype_of(r) == CN_COMPLEX128);
  REQUIRE(close_to(cvec(r), want, 1e-12));
  for (C v : cvec(r)) {
    REQUIRE(std::fabs(v.real()) <= 1.0);
    REQUIRE(std::fabs(v.imag()) <= 1.0);
  }
  // one variable: c / c (1, or nan for a constant)
  CN_REQUIRE_OK(cn_corrcoef(r.out(), f64({1, 2, 4}, {3}), nullptr, 1));
  REQUIRE(shape_of(r).empty());
  REQUIRE(dvec(r)[0] == 1.0);
  CN_REQUIRE_OK(cn_corrcoef(r.out(), f64({2, 2, 2}, {3}), nullptr, 1));
  REQUIRE(std::isnan(dvec(r)[0]));
}

TEST_CASE("cov / corrcoef errors leave the inputs as they were") {
  Arr m = f64({1, 2, 3, 4, 5, 6}, {2, 3});
  cn_array out = nullptr;
  Arr m3 = f64({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  CN_REQUIRE_ERR(cn_cov(&out, m3, nullptr, 1, 0, -1), CN_ERR_VALUE,
                 "more than 2");
  CN_REQUIRE_ERR(cn_cov(&out, m, f64({1, 2}, {2}), 1, 0, -1), CN_ERR_SHAPE,
                 "observations");
  CN_REQUIRE_ERR(cn_corrcoef(&out, m, f64({1, 2}, {1, 2}), 1), CN_ERR_SHAPE,
                 "observations");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, f64({1, 0.5, 1}, {3}),
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_TYPE, "integer");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, nullptr,
                                 f64({1, -1, 1}, {3}), 1, 0, -1,
                                 CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "negative");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, i64({0, 0, 0}, {3}),
                                 nullptr, 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_ZERO_DIVISION, "sum to zero");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, i64({1, 1}, {2}), nullptr,
                                 1, 0, -1, CN_DTYPE_DEFAULT),
                 CN_ERR_SHAPE, "incompatible");
  CN_REQUIRE_ERR(cn_cov_weighted(&out, m, nullptr, nullptr, nullptr, 1, 0, -1,
                                 CN_INT32),
                 CN_ERR_TYPE, "dtype");
  CN_REQUIRE_ERR(cn_corrcoef(&out, nullptr, nullptr, 1), CN_ERR_VALUE,
                 "NULL");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(m) == std::vector<double>{1, 2, 3, 4, 5, 6});
}
