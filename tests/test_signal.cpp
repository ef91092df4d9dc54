// cunumpy/signal.h against long double oracles written from the
// definitions: n-d convolution (every mode, swapped valid inputs, strided
// views, the FFT method, integers), the difference equation of lfilter
// (state in and out, axis), cascaded sections for sosfilt, sorting for
// order_filter; and the error paths, with inputs left as they were.
#include "array_testutil.hpp"

#include <algorithm>
#include <cmath>
#include <random>

using namespace tu;

namespace {

std::vector<double> randn(std::mt19937_64 &g, size_t n) {
  std::normal_distribution<double> d;
  std::vector<double> v(n);
  for (auto &x : v)
    x = d(g);
  return v;
}

// full[p] = sum_j x[p - j] k[j] on 2-d arrays, the mode's window of it.
std::vector<double> conv2_oracle(const std::vector<double> &x, int64_t xr,
                                 int64_t xc, const std::vector<double> &k,
                                 int64_t kr, int64_t kc, int mode,
                                 int64_t *orr, int64_t *oc) {
  int64_t fr = xr + kr - 1, fc = xc + kc - 1;
  std::vector<long double> full((size_t)(fr * fc), 0.0L);
  for (int64_t i = 0; i < xr; i++)
    for (int64_t j = 0; j < xc; j++)
      for (int64_t a = 0; a < kr; a++)
        for (int64_t b = 0; b < kc; b++)
          full[(size_t)((i + a) * fc + j + b)] +=
              (long double)x[(size_t)(i * xc + j)] * k[(size_t)(a * kc + b)];
  int64_t r0 = 0, c0 = 0;
  *orr = fr;
  *oc = fc;
  if (mode == CN_SIGNAL_SAME) {
    *orr = xr, *oc = xc, r0 = (kr - 1) / 2, c0 = (kc - 1) / 2;
  } else if (mode == CN_SIGNAL_VALID) {
    *orr = xr - kr + 1, *oc = xc - kc + 1, r0 = kr - 1, c0 = kc - 1;
  }
  std::vector<double> out;
  for (int64_t i = 0; i < *orr; i++)
    for (int64_t j = 0; j < *oc; j++)
      out.push_back((double)full[(size_t)((i + r0) * fc + j + c0)]);
  return out;
}

// y[n] = (sum b[k] x[n-k] - sum_{k>0} a[k] y[n-k]) / a[0], zero history.
std::vector<double> lfilter_oracle(const std::vector<double> &b,
                                   const std::vector<double> &a,
                                   const std::vector<double> &x) {
  std::vector<long double> y(x.size());
  for (size_t n = 0; n < x.size(); n++) {
    long double s = 0;
    for (size_t k = 0; k < b.size() && k <= n; k++)
      s += (long double)b[k] * x[n - k];
    for (size_t k = 1; k < a.size() && k <= n; k++)
      s -= (long double)a[k] * y[n - k];
    y[n] = s / a[0];
  }
  return std::vector<double>(y.begin(), y.end());
}

cn_dtype dt_of(cn_array a) {
  cn_dtype d;
  REQUIRE(cn_array_dtype(&d, a) == CN_OK);
  return d;
}

bool near(const std::vector<double> &got, const std::vector<double> &want,
          double tol = 1e-10) {
  if (got.size() != want.size())
    return false;
  for (size_t i = 0; i < got.size(); i++)
    if (!(std::fabs(got[i] - want[i]) <= tol * (1 + std::fabs(want[i]))))
      return false;
  return true;
}

} // namespace

TEST_CASE("signal convolve: 2-d modes, methods, swapped valid, strides") {
  std::mt19937_64 g(3);
  const int64_t shapes[][4] = {{5, 6, 2, 3}, {2, 3, 5, 6}, {7, 4, 3, 4},
                               {1, 1, 1, 1}, {9, 9, 9, 9}, {6, 5, 4, 1}};
  for (auto &s : shapes) {
    auto x = randn(g, (size_t)(s[0] * s[1]));
    auto k = randn(g, (size_t)(s[2] * s[3]));
    Arr hx = f64(x, {s[0], s[1]}), hk = f64(k, {s[2], s[3]});
    for (int mode : {CN_SIGNAL_FULL, CN_SIGNAL_SAME, CN_SIGNAL_VALID})
      for (int method : {CN_SIGNAL_AUTO, CN_SIGNAL_DIRECT, CN_SIGNAL_FFT}) {
        INFO("shape " << s[0] << "x" << s[1] << " * " << s[2] << "x" << s[3]
                      << " mode " << mode << " method " << method);
        bool big1 = s[0] >= s[2] && s[1] >= s[3];
        bool big2 = s[2] >= s[0] && s[3] >= s[1];
        Arr r;
        if (mode == CN_SIGNAL_VALID && !big1 && !big2) {
          CN_REQUIRE_ERR(cn_signal_convolve(r.out(), hx, hk, mode, method),
                         CN_ERR_VALUE, "at least as large");
          continue;
        }
        CN_REQUIRE_OK(cn_signal_convolve(r.out(), hx, hk, mode, method));
        int64_t orr, oc;
        auto want = (mode == CN_SIGNAL_VALID && !big1)
                        ? conv2_oracle(k, s[2], s[3], x, s[0], s[1], mode,
                                       &orr, &oc)
                        : conv2_oracle(x, s[0], s[1], k, s[2], s[3], mode,
                                       &orr, &oc);
        REQUIRE(shape_of(r) == std::vector<int64_t>{orr, oc});
        REQUIRE(near(dvec(r), want, 1e-9));
      }
  }
  // a reversed, strided view gives its copy's values
  Arr base = arange(24, {4, 6}), k = f64({1, -2, 0.5}, {1, 3});
  Arr view = flip_all(base), vc = copy(view);
  Arr r1, r2;
  CN_REQUIRE_OK(cn_signal_convolve(r1.out(), view, k, CN_SIGNAL_SAME,
                                   CN_SIGNAL_DIRECT));
  CN_REQUIRE_OK(cn_signal_convolve(r2.out(), vc, k, CN_SIGNAL_SAME,
                                   CN_SIGNAL_DIRECT));
  REQUIRE(same(dvec(r1), dvec(r2)));
}

TEST_CASE("signal convolve: integers, correlate, fftconvolve axes") {
  Arr r;
  // int8 wraps as its dtype; the FFT method rounds back to integers
  Arr a8 = cast(i64({100, 100, 3}, {3}), CN_INT8);
  Arr v8 = cast(i64({2, 1}, {2}), CN_INT8);
  CN_REQUIRE_OK(cn_signal_convolve(r.out(), a8, v8, CN_SIGNAL_FULL,
                                   CN_SIGNAL_DIRECT));
  REQUIRE(dt_of(r) == CN_INT8);
  REQUIRE(ivec(r) == std::vector<int64_t>{-56, 44, 106, 3});
  Arr ai = i64({3, -1, 4, 1, -5}, {5}), vi = i64({2, 7}, {2});
  CN_REQUIRE_OK(cn_signal_convolve(r.out(), ai, vi, CN_SIGNAL_FULL,
                                   CN_SIGNAL_FFT));
  REQUIRE(dt_of(r) == CN_INT64);
  REQUIRE(ivec(r) == std::vector<int64_t>{6, 19, 1, 30, -3, -35});
  // correlate slides in2 without reversal
  Arr x = f64({1, 2, 3, 4}, {4}), w = f64({1, 10}, {2});
  CN_REQUIRE_OK(cn_signal_correlate(r.out(), x, w, CN_SIGNAL_VALID,
                                    CN_SIGNAL_DIRECT));
  REQUIRE(values_close(dvec(r), {21, 32, 43}));
  // convolution over axis 1 only; axis 0 broadcasts
  Arr m = f64({1, 2, 3, 4, 5, 6}, {2, 3}), kk = f64({1, 1}, {1, 2});
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_fftconvolve(r.out(), m, kk, CN_SIGNAL_FULL, 1, &ax));
  REQUIRE(shape_of(r) == std::vector<int64_t>{2, 4});
  REQUIRE(values_close(dvec(r), {1, 3, 5, 3, 4, 9, 11, 6}));
  int32_t bad = 3;
  CN_REQUIRE_ERR(cn_fftconvolve(r.out(), m, kk, CN_SIGNAL_FULL, 1, &bad),
                 CN_ERR_AXIS, "");
  Arr k23 = f64({1, 1, 1, 1}, {2, 2});
  Arr m33 = f64({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  CN_REQUIRE_ERR(cn_fftconvolve(r.out(), m33, k23, CN_SIGNAL_FULL, 1, &ax),
                 CN_ERR_VALUE, "incompatible");
}

TEST_CASE("signal convolve: errors leave the output unset") {
  Arr x = f64({1, 2, 3}, {3}), m = f64({1, 2, 3, 4}, {2, 2});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_signal_convolve(&out, x, x, 7, CN_SIGNAL_AUTO),
                 CN_ERR_VALUE, "mode");
  CN_REQUIRE_ERR(cn_signal_convolve(&out, x, x, CN_SIGNAL_FULL, 9),
                 CN_ERR_VALUE, "method");
  CN_REQUIRE_ERR(cn_signal_convolve(&out, x, m, CN_SIGNAL_FULL,
                                    CN_SIGNAL_AUTO),
                 CN_ERR_VALUE, "dimensionality");
  Arr b = boolean({1, 0}, {2});
  CN_REQUIRE_ERR(cn_signal_convolve(&out, b, b, CN_SIGNAL_FULL,
                                    CN_SIGNAL_FFT),
                 CN_ERR_VALUE, "bool");
  REQUIRE(out == nullptr);
  REQUIRE(cn_signal_convolve(nullptr, x, x, 0, 0) != CN_OK);
}

TEST_CASE("lfilter: difference equation, state, axis") {
  std::mt19937_64 g(5);
  const std::vector<std::vector<double>> bs = {
      {1.0}, {0.5, 0.25}, {0.2, 0.3, 0.1}, {0.1, 0.2, 0.3, 0.2, 0.1}};
  const std::vector<std::vector<double>> as = {
      {1.0}, {2.0, -0.5}, {1.0, -0.4, 0.1}, {1.0, 0.3}};
  for (size_t f = 0; f < bs.size(); f++) {
    auto x = randn(g, 3 * 40);
    Arr hx = f64(x, {3, 40}), hb = f64(bs[f], {(int64_t)bs[f].size()}),
        ha = f64(as[f], {(int64_t)as[f].size()});
    Arr y, zf;
    CN_REQUIRE_OK(cn_lfilter(y.out(), zf.out(), hb, ha, hx, -1, nullptr));
    auto got = dvec(y);
    for (int l = 0; l < 3; l++) {
      std::vector<double> lane(x.begin() + l * 40, x.begin() + (l + 1) * 40);
      auto want = lfilter_oracle(bs[f], as[f], lane);
      std::vector<double> gl(got.begin() + l * 40, got.begin() + (l + 1) * 40);
      INFO("filter " << f << " lane " << l);
      REQUIRE(near(gl, want));
    }
    // filtering in two halves with the state carried gives the whole
    int64_t n = (int64_t)std::max(bs[f].size(), as[f].size()) - 1;
    Arr h1, h2, y1, z1, y2, z2;
    CN_REQUIRE_OK(cn_slice_axis(h1.out(), hx, 1, 0, 17, 1));
    CN_REQUIRE_OK(cn_slice_axis(h2.out(), hx, 1, 17, 40, 1));
    CN_REQUIRE_OK(cn_lfilter(y1.out(), z1.out(), hb, ha, h1, 1, nullptr));
    REQUIRE(shape_of(z1) == std::vector<int64_t>{3, n});
    CN_REQUIRE_OK(cn_lfilter(y2.out(), z2.out(), hb, ha, h2, 1, z1));
    auto g1 = dvec(y1), g2 = dvec(y2);
    for (int l = 0; l < 3; l++)
      for (int i = 0; i < 40; i++) {
        double v = i < 17 ? g1[(size_t)(l * 17 + i)]
                          : g2[(size_t)(l * 23 + i - 17)];
        REQUIRE(std::fabs(v - got[(size_t)(l * 40 + i)]) <=
                1e-12 * (1 + std::fabs(v)));
      }
    REQUIRE(near(dvec(z2), dvec(zf)));
    // axis 0 of the transpose: the same lanes
    Arr t = transpose(hx), yt;
    CN_REQUIRE_OK(cn_lfilter(yt.out(), nullptr, hb, ha, t, 0, nullptr));
    Arr ytt = transpose(yt);
    REQUIRE(near(dvec(ytt), got));
  }
}

TEST_CASE("lfilter and sosfilt: dtypes and errors") {
  Arr x32 = cast(f64({1, 2, 3}, {3}), CN_FLOAT32);
  Arr b32 = cast(f64({1, 1}, {2}), CN_FLOAT32), a32 = cast(f64({1}, {1}),
                                                          CN_FLOAT32);
  Arr y;
  CN_REQUIRE_OK(cn_lfilter(y.out(), nullptr, b32, a32, x32, 0, nullptr));
  REQUIRE(dt_of(y) == CN_FLOAT32);
  Arr xi = i64({1, 2, 3}, {3});
  CN_REQUIRE_OK(cn_lfilter(y.out(), nullptr, b32, a32, xi, 0, nullptr));
  REQUIRE(dt_of(y) == CN_FLOAT64);
  REQUIRE(values_close(dvec(y), {1, 3, 5}));
  Arr x = f64({1, 2, 3}, {3}), empty = f64({}, {0}), a0 = f64({0, 1}, {2});
  Arr zbad = f64({1, 2, 3}, {3});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_lfilter(&out, nullptr, empty, x, x, 0, nullptr),
                 CN_ERR_VALUE, "b");
  CN_REQUIRE_ERR(cn_lfilter(&out, nullptr, x, a0, x, 0, nullptr),
                 CN_ERR_VALUE, "a[0]");
  CN_REQUIRE_ERR(cn_lfilter(&out, nullptr, x, x, x, 0, zbad), CN_ERR_VALUE,
                 "zi");
  CN_REQUIRE_ERR(cn_lfilter(&out, nullptr, x, x, x, 4, nullptr), CN_ERR_AXIS,
                 "");
  // sosfilt: one section equals lfilter with its b, a
  Arr sos = f64({0.2, 0.3, 0.1, 1.0, -0.4, 0.1}, {1, 6});
  Arr b = f64({0.2, 0.3, 0.1}, {3}), a = f64({1.0, -0.4, 0.1}, {3});
  std::mt19937_64 g(9);
  Arr xs = f64(randn(g, 64), {64});
  Arr ys, yl, zs;
  CN_REQUIRE_OK(cn_sosfilt(ys.out(), zs.out(), sos, xs, 0, nullptr));
  CN_REQUIRE_OK(cn_lfilter(yl.out(), nullptr, b, a, xs, 0, nullptr));
  REQUIRE(near(dvec(ys), dvec(yl)));
  REQUIRE(shape_of(zs) == std::vector<int64_t>{1, 2});
  // two sections equal two lfilters in a row
  Arr sos2 = f64({0.2, 0.3, 0.1, 1.0, -0.4, 0.1, 1, 0.5, 0, 1, 0.2, 0},
                 {2, 6});
  Arr b2 = f64({1, 0.5, 0}, {3}), a2 = f64({1, 0.2, 0}, {3}), yl2;
  CN_REQUIRE_OK(cn_sosfilt(ys.out(), nullptr, sos2, xs, 0, nullptr));
  CN_REQUIRE_OK(cn_lfilter(yl2.out(), nullptr, b2, a2, yl, 0, nullptr));
  REQUIRE(near(dvec(ys), dvec(yl2)));
  Arr sos5 = f64({1, 2, 3, 4, 5}, {1, 5});
  Arr sosa = f64({1, 0, 0, 2, 0, 0}, {1, 6});
  CN_REQUIRE_ERR(cn_sosfilt(&out, nullptr, sos5, xs, 0, nullptr),
                 CN_ERR_VALUE, "n_sections");
  CN_REQUIRE_ERR(cn_sosfilt(&out, nullptr, sosa, xs, 0, nullptr),
                 CN_ERR_VALUE, "ones");
  CN_REQUIRE_ERR(cn_sosfilt(&out, nullptr, sos, xs, 0, zbad), CN_ERR_VALUE,
                 "zi");
  REQUIRE(out == nullptr);
}

TEST_CASE("order_filter: ranks of the masked neighbourhood") {
  std::mt19937_64 g(11);
  auto x = randn(g, 7 * 8);
  Arr hx = f64(x, {7, 8});
  Arr dom = f64({1, 0, 1, 1, 1, 0, 0, 1, 1}, {3, 3});
  const int dm[3][3] = {{1, 0, 1}, {1, 1, 0}, {0, 1, 1}};
  for (int64_t rank : {0, 2, 5}) {
    Arr r;
    CN_REQUIRE_OK(cn_order_filter(r.out(), hx, dom, rank));
    auto got = dvec(r);
    for (int i = 0; i < 7; i++)
      for (int j = 0; j < 8; j++) {
        std::vector<double> v;
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++) {
            if (!dm[a][b])
              continue;
            int p = i + a - 1, q = j + b - 1;
            v.push_back(p < 0 || p >= 7 || q < 0 || q >= 8
                            ? 0.0
                            : x[(size_t)(p * 8 + q)]);
          }
        std::sort(v.begin(), v.end());
        REQUIRE(got[(size_t)(i * 8 + j)] == v[(size_t)rank]);
      }
  }
  // NaN ranks after every number
  Arr nx = f64({NAN, 1, 2}, {3}), d3 = f64({1, 1, 1}, {3}), r;
  CN_REQUIRE_OK(cn_order_filter(r.out(), nx, d3, 2));
  auto got = dvec(r);
  REQUIRE(std::isnan(got[0]));
  REQUIRE(std::isnan(got[1]));
  REQUIRE(got[2] == 2);
  cn_array out = nullptr;
  Arr d2 = f64({1, 1}, {2}), cx = cast(nx, CN_COMPLEX128);
  CN_REQUIRE_ERR(cn_order_filter(&out, nx, d2, 0), CN_ERR_VALUE, "odd");
  CN_REQUIRE_ERR(cn_order_filter(&out, nx, d3, 3), CN_ERR_VALUE, "rank");
  CN_REQUIRE_ERR(cn_order_filter(&out, nx, dom, 0), CN_ERR_VALUE,
                 "dimensions");
  CN_REQUIRE_ERR(cn_order_filter(&out, cx, d3, 0), CN_ERR_TYPE, "");
  REQUIRE(out == nullptr);
}

TEST_CASE("upfirdn: zero insertion, FIR, decimation against the naive form") {
  std::mt19937_64 g(13);
  for (int64_t up : {1, 2, 3})
    for (int64_t down : {1, 2, 5})
      for (int64_t nh : {1, 4, 9}) {
        const int64_t nx = 11;
        auto h = randn(g, (size_t)nh);
        auto x = randn(g, (size_t)(2 * nx));
        Arr hh = f64(h, {nh}), hx = f64(x, {2, nx}), r;
        CN_REQUIRE_OK(cn_upfirdn(r.out(), hh, hx, up, down, 1));
        const int64_t ny = ((nx - 1) * up + nh - 1) / down + 1;
        REQUIRE(shape_of(r) == std::vector<int64_t>{2, ny});
        auto got = dvec(r);
        for (int64_t l = 0; l < 2; l++) {
          // upsample, full convolution, keep every down-th sample
          std::vector<long double> xu((size_t)((nx - 1) * up + 1), 0.0L);
          for (int64_t i = 0; i < nx; i++)
            xu[(size_t)(i * up)] = x[(size_t)(l * nx + i)];
          for (int64_t m = 0; m < ny; m++) {
            long double s = 0;
            for (int64_t k = 0; k < nh; k++) {
              int64_t n = m * down - k;
              if (n >= 0 && n < (int64_t)xu.size())
                s += (long double)h[(size_t)k] * xu[(size_t)n];
            }
            INFO("up " << up << " down " << down << " nh " << nh);
            REQUIRE(std::fabs(got[(size_t)(l * ny + m)] - (double)s) <=
                    1e-12 * (1 + std::fabs((double)s)));
          }
        }
      }
  Arr h = f64({1, 2}, {2}), x = f64({1, 2, 3}, {3}), e = f64({}, {0});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_upfirdn(&out, e, x, 1, 1, 0), CN_ERR_VALUE, "h");
  CN_REQUIRE_ERR(cn_upfirdn(&out, h, x, 0, 1, 0), CN_ERR_VALUE, ">= 1");
  CN_REQUIRE_ERR(cn_upfirdn(&out, h, x, 1, 1, 2), CN_ERR_AXIS, "");
  REQUIRE(out == nullptr);
}

TEST_CASE("order_filter along the last axis: long rows across work chunks") {
  std::mt19937_64 g(17);
  const int64_t n = 40000;
  auto x = randn(g, (size_t)(2 * n));
  for (size_t i = 0; i < x.size(); i += 997)
    x[i] = NAN;
  Arr hx = f64(x, {2, n}), dom = f64(std::vector<double>(7, 1.0), {1, 7}), r;
  CN_REQUIRE_OK(cn_order_filter(r.out(), hx, dom, 3));
  auto got = dvec(r);
  for (int64_t row = 0; row < 2; row++)
    for (int64_t j = 0; j < n; j += (j % 16384 < 8 || j % 16384 > 16376)
                                         ? 1
                                         : 37) {
      std::vector<double> v;
      for (int64_t t = j - 3; t <= j + 3; t++)
        v.push_back(t >= 0 && t < n ? x[(size_t)(row * n + t)] : 0.0);
      // NaN last, as the header states
      std::sort(v.begin(), v.end(), [](double p, double q) {
        return p < q || (q != q && p == p);
      });
      double w = v[3], gv = got[(size_t)(row * n + j)];
      INFO("row " << row << " j " << j);
      REQUIRE(((std::isnan(w) && std::isnan(gv)) || w == gv));
    }
}
