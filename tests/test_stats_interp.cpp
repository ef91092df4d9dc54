// cn_interp against a naive loop that follows NumPy 2.4's arr_interp and
// arr_interp_complex (last node j with xp[j] <= x by a linear scan, its
// slope formula and NaN retry, its special cases), compared bit for bit.
// ctest runs this file twice: as it is, and with CUNUMPY_INTERP_COMPOSED=1,
// which sends CPU arrays through the composition device arrays take
// (searchsorted, take and elementwise operations).
#include "array_testutil.hpp"

#include <cstring>
#include <random>

using namespace tu;
using V = std::vector<double>;

namespace {

double segment(double v, double x0, double x1, double f0, double f1,
               bool cplx) {
  double slope = cplx ? (f1 - f0) * (1.0 / (x1 - x0)) : (f1 - f0) / (x1 - x0);
  double r = slope * (v - x0) + f0;
  if (std::isnan(r)) {
    r = slope * (v - x1) + f1;
    if (std::isnan(r) && f0 == f1)
      r = f0;
  }
  return r;
}

// NumPy's interp of one part (fp's real or imaginary values) at each x.
V naive(const V &x, const V &xp, const V &fp, double lv, double rv, bool cplx,
        bool imag_part) {
  size_t n = xp.size();
  V o(x.size());
  for (size_t i = 0; i < x.size(); i++) {
    double v = x[i];
    if (n == 1) {
      o[i] = v < xp[0] ? lv : v > xp[0] ? rv : fp[0];
      continue;
    }
    if (std::isnan(v)) {
      o[i] = imag_part ? 0.0 : v;
      continue;
    }
    if (v < xp[0]) {
      o[i] = lv;
      continue;
    }
    if (v > xp[n - 1]) {
      o[i] = rv;
      continue;
    }
    size_t j = 0;
    while (j + 1 < n && xp[j + 1] <= v)
      j++;
    o[i] = j == n - 1 || xp[j] == v
               ? fp[j]
               : segment(v, xp[j], xp[j + 1], fp[j], fp[j + 1], cplx);
  }
  return o;
}

bool bitwise_same(const V &a, const V &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!(std::isnan(a[i]) && std::isnan(b[i])) &&
        std::memcmp(&a[i], &b[i], sizeof(double)) != 0)
      return false;
  return true;
}

cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  cn_array_dtype(&d, a);
  return d;
}

// Real and imaginary parts of a complex128 array, C order.
void parts(cn_array a, V &re, V &im) {
  Arr r, i;
  CN_REQUIRE_OK(cn_real(r.out(), a, nullptr));
  CN_REQUIRE_OK(cn_imag(i.out(), a, nullptr));
  re = dvec(r);
  im = dvec(i);
}

Arr c128(const V &re, const V &im) {
  V inter;
  for (size_t i = 0; i < re.size(); i++) {
    inter.push_back(re[i]);
    inter.push_back(im[i]);
  }
  Arr f = f64(inter, {(int64_t)re.size(), 2}), c, r;
  CN_REQUIRE_OK(cn_view_dtype(c.out(), f, CN_COMPLEX128));
  int64_t n = (int64_t)re.size();
  CN_REQUIRE_OK(cn_reshape(r.out(), c, 1, &n, CN_ORDER_C));
  return r;
}

// Query points: every node, midpoints, outside, the ends, NaN and inf.
V queries(const V &xp, uint64_t seed, size_t extra) {
  V x = xp;
  for (size_t i = 0; i + 1 < xp.size(); i++)
    x.push_back(0.5 * (xp[i] + xp[i + 1]));
  x.push_back(xp.front() - 1);
  x.push_back(xp.back() + 1);
  x.push_back(NAN);
  x.push_back(INFINITY);
  x.push_back(-INFINITY);
  x.push_back(-0.0);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(xp.front() - 0.5, xp.back() + 0.5);
  for (size_t i = 0; i < extra; i++)
    x.push_back(u(g));
  return x;
}

} // namespace

TEST_CASE("interp: real fp against NumPy's loop, bit for bit", "[stats]") {
  std::vector<V> xps = {{2.0},
                        {0.0, 1.0},
                        {-1.0, 0.0, 0.0, 2.5, 3.0, 3.0},
                        {0.0, 1.0, 1.0, 1.0, 4.0, 4.0},
                        {-3.0, -0.0, 1e-300, 7.0, 7.5, 1e10}};
  for (size_t k = 0; k < xps.size(); k++) {
    const V &xp = xps[k];
    V fp(xp.size());
    std::mt19937_64 g(k);
    std::normal_distribution<double> nd;
    for (auto &f : fp)
      f = nd(g) * 100;
    if (fp.size() > 3) {
      fp[1] = INFINITY; // NaN slopes: NumPy's retry from the right node
      fp[2] = INFINITY;
      fp[3] = -INFINITY;
    }
    V x = queries(xp, k + 10, 200);
    Arr ax = f64(x, {(int64_t)x.size()}), axp = f64(xp, {(int64_t)xp.size()}),
        afp = f64(fp, {(int64_t)fp.size()}), r;
    CN_REQUIRE_OK(cn_interp(r.out(), ax, axp, afp, nullptr, nullptr));
    REQUIRE(dtype_of(r) == CN_FLOAT64);
    REQUIRE(bitwise_same(dvec(r),
                         naive(x, xp, fp, fp.front(), fp.back(), false, false)));
    double lv = -7.5, rv = NAN;
    CN_REQUIRE_OK(cn_interp(r.out(), ax, axp, afp, &lv, &rv));
    REQUIRE(bitwise_same(dvec(r), naive(x, xp, fp, lv, rv, false, false)));
  }
}

TEST_CASE("interp: complex fp, per-part formula", "[stats]") {
  V xp = {0.0, 0.5, 2.0, 2.0, 3.0, 8.0};
  V re = {1.0, INFINITY, INFINITY, -2.0, 4.0, 3.0};
  V im = {0.25, -1.0, INFINITY, -INFINITY, 5.0, 5.0};
  V x = queries(xp, 3, 300);
  Arr ax = f64(x, {(int64_t)x.size()}), axp = f64(xp, {(int64_t)xp.size()}),
      afp = c128(re, im), r;
  CN_REQUIRE_OK(cn_interp(r.out(), ax, axp, afp, nullptr, nullptr));
  REQUIRE(dtype_of(r) == CN_COMPLEX128);
  V ore, oim;
  parts(r, ore, oim);
  REQUIRE(bitwise_same(ore, naive(x, xp, re, re[0], re.back(), true, false)));
  REQUIRE(bitwise_same(oim, naive(x, xp, im, im[0], im.back(), true, true)));
  // a real left / right: imaginary part 0
  double lv = 9, rv = -9;
  CN_REQUIRE_OK(cn_interp(r.out(), ax, axp, afp, &lv, &rv));
  parts(r, ore, oim);
  REQUIRE(bitwise_same(ore, naive(x, xp, re, lv, rv, true, false)));
  REQUIRE(bitwise_same(oim, naive(x, xp, im, 0.0, 0.0, true, true)));
  // complex64 fp is interpolated in complex128, as NumPy
  Arr f32 = cast(afp, CN_COMPLEX64);
  CN_REQUIRE_OK(cn_interp(r.out(), ax, axp, f32, nullptr, nullptr));
  REQUIRE(dtype_of(r) == CN_COMPLEX128);
  // one node
  Arr one = c128({2.0}, {-3.0}), x1 = f64({1.0}, {1}), r1;
  CN_REQUIRE_OK(cn_interp(r1.out(), f64({-1, 1, 2, NAN}, {4}), x1, one,
                          nullptr, nullptr));
  parts(r1, ore, oim);
  REQUIRE(ore == V{2.0, 2.0, 2.0, 2.0});
  REQUIRE(oim == V{-3.0, -3.0, -3.0, -3.0});
}

TEST_CASE("interp: dtypes, shapes and strides", "[stats]") {
  V xp = {0.0, 1.0, 3.0, 4.0};
  V fp = {10.0, -20.0, 0.0, 5.0};
  V x = {-1, 0, 0.5, 1, 2, 3, 3.5, 4, 5, 2.25, 0.75, 1.5};
  V ref = naive(x, xp, fp, fp[0], fp.back(), false, false);
  Arr axp = f64(xp, {4}), afp = f64(fp, {4}), r;
  // 2-d x keeps its shape; transposed (non-contiguous) and flipped inputs
  Arr ax = f64(x, {3, 4});
  CN_REQUIRE_OK(cn_interp(r.out(), ax, axp, afp, nullptr, nullptr));
  int32_t nd;
  cn_array_ndim(&nd, r);
  REQUIRE(nd == 2);
  REQUIRE(bitwise_same(dvec(r), ref));
  Arr t = transpose(ax), rt;
  CN_REQUIRE_OK(cn_interp(rt.out(), t, axp, afp, nullptr, nullptr));
  REQUIRE(bitwise_same(dvec(transpose(rt)), ref));
  Arr fx = flip_all(f64(x, {12})), rf;
  CN_REQUIRE_OK(cn_interp(rf.out(), fx, axp, afp, nullptr, nullptr));
  V rev(ref.rbegin(), ref.rend());
  REQUIRE(bitwise_same(dvec(rf), rev));
  // integer, float32 and bool inputs are interpolated in float64
  Arr xi = cast(f64({-1, 0, 1, 2, 3, 4, 5}, {7}), CN_INT32), ri;
  CN_REQUIRE_OK(cn_interp(ri.out(), xi, cast(axp, CN_INT64),
                          cast(afp, CN_FLOAT32), nullptr, nullptr));
  REQUIRE(dtype_of(ri) == CN_FLOAT64);
  REQUIRE(bitwise_same(dvec(ri), naive({-1, 0, 1, 2, 3, 4, 5}, xp, fp, fp[0],
                                       fp.back(), false, false)));
  Arr xb = boolean({0, 1, 1}, {3}), rb;
  CN_REQUIRE_OK(cn_interp(rb.out(), xb, axp, cast(afp, CN_INT16), nullptr,
                          nullptr));
  REQUIRE(dvec(rb) == V{10.0, -20.0, -20.0});
  // 0-d and empty x
  Arr r0;
  CN_REQUIRE_OK(cn_interp(r0.out(), scalar_f(2.0), axp, afp, nullptr, nullptr));
  cn_array_ndim(&nd, r0);
  REQUIRE(nd == 0);
  REQUIRE(dvec(r0) == V{-10.0});
  Arr re;
  CN_REQUIRE_OK(cn_interp(re.out(), f64({}, {0, 3}), axp, afp, nullptr,
                          nullptr));
  int64_t sz;
  cn_array_size(&sz, re);
  REQUIRE(sz == 0);
  // strided xp / fp views
  Arr big = f64({0, 9, 1, 9, 3, 9, 4, 9}, {8}), xs, fs, rs;
  CN_REQUIRE_OK(cn_slice_axis(xs.out(), big, 0, 0, 8, 2));
  CN_REQUIRE_OK(cn_slice_axis(fs.out(), flip_all(afp), 0, 0, 4, 1));
  CN_REQUIRE_OK(cn_interp(rs.out(), f64(x, {12}), xs, fs, nullptr, nullptr));
  V frev(fp.rbegin(), fp.rend());
  REQUIRE(bitwise_same(dvec(rs),
                       naive(x, xp, frev, frev[0], frev.back(), false, false)));
}

TEST_CASE("interp: errors leave out untouched", "[stats]") {
  Arr xp = f64({0, 1, 2}, {3}), fp = f64({1, 2, 3}, {3});
  Arr x = f64({0.5}, {1});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_interp(&out, x, xp, f64({1, 2}, {2}), nullptr, nullptr),
                 CN_ERR_VALUE, "same length");
  CN_REQUIRE_ERR(cn_interp(&out, x, f64({0, 1, 2, 3}, {2, 2}),
                           f64({0, 1, 2, 3}, {2, 2}), nullptr, nullptr),
                 CN_ERR_VALUE, "1-d");
  CN_REQUIRE_ERR(cn_interp(&out, x, f64({}, {0}), f64({}, {0}), nullptr,
                           nullptr),
                 CN_ERR_VALUE, "empty");
  CN_REQUIRE_ERR(cn_interp(&out, cast(x, CN_COMPLEX128), xp, fp, nullptr,
                           nullptr),
                 CN_ERR_TYPE, "x");
  CN_REQUIRE_ERR(cn_interp(&out, x, cast(xp, CN_COMPLEX128), fp, nullptr,
                           nullptr),
                 CN_ERR_TYPE, "xp");
  CN_REQUIRE_ERR(cn_interp(&out, nullptr, xp, fp, nullptr, nullptr),
                 CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
}
