// Tests of cunumpy/fft.h against a naive O(n^2) DFT in long double (small
// sizes), closed forms (fftfreq, shifts) and identities (round trips,
// Parseval) for sizes where threads are used.
#include "la_testutil.hpp"

#include <thread>

static const long double kPi = 3.141592653589793238462643383279502884L;

// Naive DFT of x with sign (-1 forward, +1 inverse), no scaling.
static std::vector<cld> dft(const std::vector<cld> &x, int sign) {
  size_t n = x.size();
  std::vector<cld> y(n), tw(n);
  for (size_t j = 0; j < n; j++) {
    long double ang = sign * 2 * kPi * (long double)j / n;
    tw[j] = cld(std::cos(ang), std::sin(ang));
  }
  for (size_t k = 0; k < n; k++) {
    cld s = 0;
    for (size_t j = 0; j < n; j++)
      s += x[j] * tw[(j * k) % n];
    y[k] = s;
  }
  return y;
}

// x cropped / zero-padded to n.
static std::vector<cld> fit(std::vector<cld> x, size_t n) {
  x.resize(n, cld(0));
  return x;
}

static long double norm_scale(cn_fft_norm norm, bool inverse, size_t n) {
  if (norm == CN_FFT_NORM_ORTHO)
    return 1.0L / std::sqrt((long double)n);
  if (norm == CN_FFT_NORM_FORWARD)
    return inverse ? 1.0L : 1.0L / n;
  return inverse ? 1.0L / n : 1.0L;
}

static void scale(std::vector<cld> &v, long double s) {
  for (auto &x : v)
    x *= s;
}

TEST_CASE("1-d transforms match a long double DFT", "[fft]") {
  const cn_dtype types[] = {CN_FLOAT32,    CN_FLOAT64, CN_COMPLEX64,
                            CN_COMPLEX128, CN_INT32,   CN_BOOL};
  const cn_fft_norm norms[] = {CN_FFT_NORM_BACKWARD, CN_FFT_NORM_ORTHO,
                               CN_FFT_NORM_FORWARD};
  for (cn_dtype dt : types)
    for (int64_t len : {1, 2, 3, 5, 8, 12, 17}) {
      INFO("dtype " << cn_dtype_name(dt) << " length " << len);
      Arr a = rand_arr({len}, dt, 100 + len);
      auto x = vals(a);
      bool single = is_single(dt);
      double tol = single ? 1e-5 : 1e-13;
      cn_dtype cdt = single ? CN_COMPLEX64 : CN_COMPLEX128;
      for (cn_fft_norm nm : norms)
        for (int64_t n : {(int64_t)CN_FFT_N_NONE, len + 3, (len + 1) / 2}) {
          size_t N = n == CN_FFT_N_NONE ? (size_t)len : (size_t)n;
          Arr f, fi;
          CN_REQUIRE_OK(cn_fft(f.out(), a, n, -1, nm));
          REQUIRE(dtype_of(f) == cdt);
          auto want = dft(fit(x, N), -1);
          scale(want, norm_scale(nm, false, N));
          require_close(vals(f), want, tol);
          CN_REQUIRE_OK(cn_ifft(fi.out(), a, n, 0, nm));
          want = dft(fit(x, N), 1);
          scale(want, norm_scale(nm, true, N));
          require_close(vals(fi), want, tol);
          if (is_cplx(dt))
            continue;
          // rfft: the first N/2+1 entries of the full transform
          Arr r;
          CN_REQUIRE_OK(cn_rfft(r.out(), a, n, 0, nm));
          REQUIRE(dtype_of(r) == cdt);
          REQUIRE(shape_of(r) == std::vector<int64_t>{(int64_t)(N / 2 + 1)});
          want = dft(fit(x, N), -1);
          want.resize(N / 2 + 1);
          scale(want, norm_scale(nm, false, N));
          require_close(vals(r), want, tol);
          // ihfft(x) = conj(rfft(x)) / N (backward)
          Arr ih;
          CN_REQUIRE_OK(cn_ihfft(ih.out(), a, n, 0, nm));
          for (auto &w : want)
            w = std::conj(w);
          scale(want, norm_scale(nm, true, N) / norm_scale(nm, false, N));
          require_close(vals(ih), want, tol);
        }
    }
}

// The Hermitian-symmetric full spectrum of a half spectrum h for n points.
static std::vector<cld> hermitian_full(const std::vector<cld> &h, size_t n) {
  std::vector<cld> f(n);
  for (size_t k = 0; k < n; k++) {
    size_t kk = k <= n / 2 ? k : n - k;
    cld v = kk < h.size() ? h[kk] : cld(0);
    if (k == 0 || (n % 2 == 0 && k == n / 2))
      v = cld(v.real(), 0);
    f[k] = k <= n / 2 ? v : std::conj(v);
  }
  return f;
}

TEST_CASE("irfft and hfft match the DFT of the Hermitian extension", "[fft]") {
  for (cn_dtype dt : {CN_COMPLEX64, CN_COMPLEX128, CN_FLOAT64})
    for (int64_t m : {2, 3, 5, 9})
      for (int64_t n : {(int64_t)CN_FFT_N_NONE, 2 * m - 1, m, (int64_t)3}) {
        INFO("dtype " << cn_dtype_name(dt) << " m " << m << " n " << n);
        Arr a = rand_arr({m}, dt, 200 + m);
        auto h = vals(a);
        size_t N = n == CN_FFT_N_NONE ? (size_t)(2 * (m - 1)) : (size_t)n;
        double tol = is_single(dt) ? 1e-5 : 1e-13;
        for (cn_fft_norm nm :
             {CN_FFT_NORM_BACKWARD, CN_FFT_NORM_ORTHO, CN_FFT_NORM_FORWARD}) {
          Arr r, hf;
          CN_REQUIRE_OK(cn_irfft(r.out(), a, n, -1, nm));
          REQUIRE(dtype_of(r) == (is_single(dt) ? CN_FLOAT32 : CN_FLOAT64));
          REQUIRE(shape_of(r) == std::vector<int64_t>{(int64_t)N});
          auto want = dft(hermitian_full(h, N), 1);
          scale(want, norm_scale(nm, true, N));
          require_close(vals(r), want, tol);
          // hfft(a) = irfft(conj(a)) with the norm direction swapped
          CN_REQUIRE_OK(cn_hfft(hf.out(), a, n, -1, nm));
          std::vector<cld> hc(h.size());
          for (size_t i = 0; i < h.size(); i++)
            hc[i] = std::conj(h[i]);
          want = dft(hermitian_full(hc, N), 1);
          scale(want, norm_scale(nm, false, N));
          require_close(vals(hf), want, tol);
        }
      }
}

// Naive n-d DFT over the listed axes of a C-order array.
static std::vector<cld> dft_axes(std::vector<cld> x,
                                 const std::vector<int64_t> &shape,
                                 const std::vector<int> &axes, int sign) {
  for (int ax : axes) {
    int64_t n = shape[ax], inner = 1, outer = 1;
    for (size_t d = ax + 1; d < shape.size(); d++)
      inner *= shape[d];
    for (int d = 0; d < ax; d++)
      outer *= shape[d];
    for (int64_t o = 0; o < outer; o++)
      for (int64_t i = 0; i < inner; i++) {
        std::vector<cld> line(n);
        for (int64_t k = 0; k < n; k++)
          line[k] = x[(o * n + k) * inner + i];
        line = dft(line, sign);
        for (int64_t k = 0; k < n; k++)
          x[(o * n + k) * inner + i] = line[k];
      }
  }
  return x;
}

TEST_CASE("n-d transforms on strided views", "[fft]") {
  for (cn_dtype dt : {CN_COMPLEX128, CN_COMPLEX64, CN_FLOAT64}) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-5 : 1e-12;
    Arr base = rand_arr({6, 5, 4}, dt, 300);
    // A transposed, negatively-strided view: no copy is taken by the core.
    Arr t, v;
    int32_t perm[3] = {2, 0, 1};
    CN_REQUIRE_OK(cn_permute_dims(t.out(), base, 3, perm)); // (4, 6, 5)
    int32_t fl[1] = {1};
    CN_REQUIRE_OK(cn_flip(v.out(), t, 1, fl));
    Arr vc;
    CN_REQUIRE_OK(cn_copy(vc.out(), v, CN_ORDER_C));
    std::vector<int64_t> shape = {4, 6, 5};
    auto x = vals(vc);
    Arr f, f2, fi;
    CN_REQUIRE_OK(
        cn_fftn(f.out(), v, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD));
    require_close(vals(f), dft_axes(x, shape, {0, 1, 2}, -1), tol);
    CN_REQUIRE_OK(
        cn_fft2(f2.out(), v, 0, nullptr, -1, nullptr, CN_FFT_NORM_ORTHO));
    auto w = dft_axes(x, shape, {1, 2}, -1);
    scale(w, 1.0L / std::sqrt(30.0L));
    require_close(vals(f2), w, tol);
    int32_t axes[2] = {2, 0};
    CN_REQUIRE_OK(
        cn_ifftn(fi.out(), v, 0, nullptr, 2, axes, CN_FFT_NORM_BACKWARD));
    w = dft_axes(x, shape, {0, 2}, 1);
    scale(w, 1.0L / 20);
    require_close(vals(fi), w, tol);
    // s pads and crops: s = (3, 7) on axes (0, 2)
    Arr fs;
    int64_t s[2] = {3, 7};
    CN_REQUIRE_OK(cn_fftn(fs.out(), v, 2, s, 2, axes, CN_FFT_NORM_BACKWARD));
    REQUIRE(shape_of(fs) == std::vector<int64_t>{7, 6, 3});
    std::vector<int64_t> ps = {7, 6, 3};
    std::vector<cld> px(7 * 6 * 3);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 6; j++)
        for (int k = 0; k < 3; k++)
          px[(i * 6 + j) * 3 + k] = x[(i * 6 + j) * 5 + k];
    require_close(vals(fs), dft_axes(px, ps, {0, 2}, -1), tol);
    if (is_cplx(dt))
      continue;
    // rfftn: last listed axis halved; irfftn inverts it
    Arr rf, back;
    CN_REQUIRE_OK(
        cn_rfftn(rf.out(), v, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD));
    REQUIRE(shape_of(rf) == std::vector<int64_t>{4, 6, 3});
    auto full = dft_axes(x, shape, {0, 1, 2}, -1);
    std::vector<cld> half;
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 6; j++)
        for (int k = 0; k < 3; k++)
          half.push_back(full[(i * 6 + j) * 5 + k]);
    require_close(vals(rf), half, tol);
    int64_t s3[3] = {4, 6, 5};
    CN_REQUIRE_OK(
        cn_irfftn(back.out(), rf, 3, s3, -1, nullptr, CN_FFT_NORM_BACKWARD));
    require_close(vals(back), x, tol);
    Arr r2, b2;
    CN_REQUIRE_OK(
        cn_rfft2(r2.out(), v, 0, nullptr, -1, nullptr, CN_FFT_NORM_FORWARD));
    REQUIRE(shape_of(r2) == std::vector<int64_t>{4, 6, 3});
    int64_t s2[2] = {6, 5};
    CN_REQUIRE_OK(
        cn_irfft2(b2.out(), r2, 2, s2, -1, nullptr, CN_FFT_NORM_FORWARD));
    require_close(vals(b2), x, tol);
  }
}

TEST_CASE("large transforms use threads and invert exactly", "[fft]") {
  // 2^18 points: above the threading threshold; Parseval and round trip.
  int64_t n = (int64_t)1 << 18;
  Arr a = rand_arr({n}, CN_COMPLEX128, 400), f, b;
  CN_REQUIRE_OK(cn_fft(f.out(), a, CN_FFT_N_NONE, 0, CN_FFT_NORM_ORTHO));
  CN_REQUIRE_OK(cn_ifft(b.out(), f, CN_FFT_N_NONE, 0, CN_FFT_NORM_ORTHO));
  auto x = vals(a), fx = vals(f);
  require_close(vals(b), x, 1e-12);
  long double e1 = 0, e2 = 0;
  for (int64_t i = 0; i < n; i++) {
    e1 += std::norm(x[i]);
    e2 += std::norm(fx[i]);
  }
  REQUIRE((double)std::abs(e1 - e2) < 1e-9 * (double)e1);
  // a 2-d real transform above the threshold, round trip
  Arr r = rand_arr({512, 384}, CN_FLOAT64, 401), rf, rb;
  CN_REQUIRE_OK(
      cn_rfft2(rf.out(), r, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD));
  int64_t s[2] = {512, 384};
  CN_REQUIRE_OK(
      cn_irfft2(rb.out(), rf, 2, s, -1, nullptr, CN_FFT_NORM_BACKWARD));
  require_close(vals(rb), vals(r), 1e-12);
}

TEST_CASE("large strided n-d transforms (pass-wise path) match the DFT",
          "[fft]") {
  // Above the pass threshold: every dim runs as its own blocked pass.
  for (cn_dtype dt : {CN_COMPLEX128, CN_COMPLEX64, CN_FLOAT64}) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 2e-5 : 1e-12;
    Arr base = rand_arr({40, 3, 300}, dt, 700), t, v, vc;
    int32_t perm[3] = {1, 2, 0};
    CN_REQUIRE_OK(cn_permute_dims(t.out(), base, 3, perm)); // (3, 300, 40)
    int32_t fl[1] = {1};
    CN_REQUIRE_OK(cn_flip(v.out(), t, 1, fl));
    CN_REQUIRE_OK(cn_copy(vc.out(), v, CN_ORDER_C));
    std::vector<int64_t> shape = {3, 300, 40};
    auto x = vals(vc);
    Arr f, f1, fi;
    CN_REQUIRE_OK(
        cn_fftn(f.out(), v, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD));
    require_close(vals(f), dft_axes(x, shape, {0, 1, 2}, -1), tol);
    // one strided axis (axis 1 of the view has stride 1 in memory but the
    // C-order output has stride 40 there)
    CN_REQUIRE_OK(cn_fft(f1.out(), v, CN_FFT_N_NONE, 1, CN_FFT_NORM_ORTHO));
    auto w = dft_axes(x, shape, {1}, -1);
    scale(w, 1.0L / std::sqrt(300.0L));
    require_close(vals(f1), w, tol);
    int32_t axes[2] = {2, 1};
    CN_REQUIRE_OK(
        cn_ifftn(fi.out(), v, 0, nullptr, 2, axes, CN_FFT_NORM_FORWARD));
    require_close(vals(fi), dft_axes(x, shape, {1, 2}, 1), tol);
    if (is_cplx(dt))
      continue;
    Arr rf, back;
    int32_t raxes[2] = {0, 1};
    CN_REQUIRE_OK(
        cn_rfftn(rf.out(), v, 0, nullptr, 2, raxes, CN_FFT_NORM_BACKWARD));
    REQUIRE(shape_of(rf) == std::vector<int64_t>{3, 151, 40});
    auto full = dft_axes(x, shape, {0, 1}, -1);
    std::vector<cld> half;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 151; j++)
        for (int k = 0; k < 40; k++)
          half.push_back(full[(i * 300 + j) * 40 + k]);
    require_close(vals(rf), half, tol);
    int64_t s2[2] = {3, 300};
    CN_REQUIRE_OK(
        cn_irfftn(back.out(), rf, 2, s2, 2, raxes, CN_FFT_NORM_BACKWARD));
    require_close(vals(back), x, tol);
  }
}

TEST_CASE("plans are shared safely between threads", "[fft]") {
  Arr a = rand_arr({64, 48}, CN_COMPLEX128, 500), ref;
  CN_REQUIRE_OK(
      cn_fft2(ref.out(), a, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD));
  auto want = vals(ref);
  std::vector<int> ok(4, 0);
  std::vector<std::thread> th;
  for (int t = 0; t < 4; t++)
    th.emplace_back([&, t] {
      int good = 1;
      for (int it = 0; it < 50; it++) {
        cn_array f = nullptr;
        // vary sizes so the cache also evicts and replans concurrently
        int64_t s[2] = {64, (int64_t)(48 - (it % 7))};
        if (cn_fft2(&f, a, it % 2 ? 2 : 0, s, -1, nullptr,
                    CN_FFT_NORM_BACKWARD) != CN_OK) {
          good = 0;
          break;
        }
        if (it % 2 == 0) {
          int64_t n = 0;
          cn_array_size(&n, f);
          std::vector<std::complex<double>> v((size_t)n);
          cn_copy_to_buffer(v.data(), n * 16, f, CN_ORDER_C);
          for (int64_t i = 0; i < n; i++)
            if (std::abs(cld(v[i].real(), v[i].imag()) - want[i]) > 1e-9L)
              good = 0;
        }
        cn_array_release(f);
      }
      ok[t] = good;
    });
  for (auto &x : th)
    x.join();
  for (int t = 0; t < 4; t++)
    REQUIRE(ok[t] == 1);
}

TEST_CASE("fftfreq, rfftfreq, fftshift, ifftshift", "[fft]") {
  for (int64_t n : {1, 4, 5}) {
    Arr f, rf;
    CN_REQUIRE_OK(cn_fftfreq(f.out(), n, 0.5));
    auto v = to_vec<double>(f);
    REQUIRE((int64_t)v.size() == n);
    for (int64_t i = 0; i < n; i++) {
      int64_t k = i < (n + 1) / 2 ? i : i - n;
      REQUIRE(v[i] == (double)k / (n * 0.5));
    }
    CN_REQUIRE_OK(cn_rfftfreq(rf.out(), n, 2.0));
    auto rv = to_vec<double>(rf);
    REQUIRE((int64_t)rv.size() == n / 2 + 1);
    for (int64_t i = 0; i <= n / 2; i++)
      REQUIRE(rv[i] == (double)i / (n * 2.0));
  }
  // shift of a (4, 5) arange over both axes and over one
  std::vector<int64_t> data(20);
  for (int i = 0; i < 20; i++)
    data[i] = i;
  Arr a = from_vec(data, {4, 5}, CN_INT64), s, is, s1, back;
  CN_REQUIRE_OK(cn_fftshift(s.out(), a, -1, nullptr));
  auto sv = to_vec<int64_t>(s);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      REQUIRE(sv[i * 5 + j] == ((i + 4 - 2) % 4) * 5 + (j + 5 - 2) % 5);
  CN_REQUIRE_OK(cn_ifftshift(back.out(), s, -1, nullptr));
  REQUIRE(to_vec<int64_t>(back) == data);
  int32_t ax = 1;
  CN_REQUIRE_OK(cn_ifftshift(s1.out(), a, 1, &ax));
  auto s1v = to_vec<int64_t>(s1);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      REQUIRE(s1v[i * 5 + j] == i * 5 + (j + 2) % 5);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_fftfreq(&out, 0, 1.0), CN_ERR_VALUE, "positive");
  CN_REQUIRE_ERR(cn_fftfreq(&out, 4, 0.0), CN_ERR_VALUE, "non-zero");
  int32_t bad = 2;
  CN_REQUIRE_ERR(cn_fftshift(&out, a, 1, &bad), CN_ERR_AXIS, "axis");
  REQUIRE(out == nullptr);
}

TEST_CASE("fft edge cases and errors", "[fft][errors]") {
  Arr a = rand_arr({3, 4}, CN_COMPLEX128, 600);
  auto before = vals(a);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_fft(&out, a, 0, -1, CN_FFT_NORM_BACKWARD), CN_ERR_VALUE,
                 "invalid number of data points (0)");
  CN_REQUIRE_ERR(cn_fft(&out, a, -3, -1, CN_FFT_NORM_BACKWARD), CN_ERR_VALUE,
                 "(-3)");
  CN_REQUIRE_ERR(cn_fft(&out, a, CN_FFT_N_NONE, 2, CN_FFT_NORM_BACKWARD),
                 CN_ERR_AXIS, "axis 2 is out of bounds");
  CN_REQUIRE_ERR(cn_fft(&out, a, CN_FFT_N_NONE, 0, (cn_fft_norm)9),
                 CN_ERR_VALUE, "norm");
  CN_REQUIRE_ERR(cn_rfft(&out, a, CN_FFT_N_NONE, 0, CN_FFT_NORM_BACKWARD),
                 CN_ERR_TYPE, "real");
  int32_t rep[2] = {0, -2};
  CN_REQUIRE_ERR(cn_fftn(&out, a, 0, nullptr, 2, rep, CN_FFT_NORM_BACKWARD),
                 CN_ERR_VALUE, "repeated");
  int64_t s3[3] = {1, 2, 3};
  int32_t ax2[2] = {0, 1};
  CN_REQUIRE_ERR(cn_fftn(&out, a, 3, s3, 2, ax2, CN_FFT_NORM_BACKWARD),
                 CN_ERR_VALUE, "different lengths");
  Arr one = rand_arr({1}, CN_COMPLEX128, 601);
  CN_REQUIRE_ERR(cn_irfft(&out, one, CN_FFT_N_NONE, 0, CN_FFT_NORM_BACKWARD),
                 CN_ERR_VALUE, "(0)");
  Arr v1 = rand_arr({4}, CN_FLOAT64, 602);
  CN_REQUIRE_ERR(
      cn_fft2(&out, v1, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD),
      CN_ERR_AXIS, "out of bounds");
  CN_REQUIRE_ERR(cn_fft(&out, nullptr, CN_FFT_N_NONE, 0, CN_FFT_NORM_BACKWARD),
                 CN_ERR_VALUE, "'a'");
  REQUIRE(out == nullptr);
  require_close(vals(a), before, 0);
  // empty batch: an empty result of the right shape
  Arr e, fe;
  int64_t es[2] = {0, 8};
  CN_REQUIRE_OK(cn_zeros(e.out(), 2, es, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_OK(cn_rfft(fe.out(), e, CN_FFT_N_NONE, 1, CN_FFT_NORM_BACKWARD));
  REQUIRE(shape_of(fe) == std::vector<int64_t>{0, 5});
  // c2r leaves its input intact (FFTW destroys c2r inputs; we copy)
  Arr h = rand_arr({4, 5}, CN_COMPLEX128, 603), hr;
  auto hb = vals(h);
  CN_REQUIRE_OK(
      cn_irfftn(hr.out(), h, 0, nullptr, -1, nullptr, CN_FFT_NORM_BACKWARD));
  require_close(vals(h), hb, 0);
}

TEST_CASE("measured planning: same results, inputs untouched", "[fft]") {
  cn_fft_planner was;
  CN_REQUIRE_OK(cn_fft_get_planner(&was));
  REQUIRE(was == CN_FFT_PLANNER_ESTIMATE);
  CN_REQUIRE_OK(cn_fft_clear_plan_cache());
  int64_t plans = -1, cap = -1;
  CN_REQUIRE_OK(cn_fft_plan_cache_info(&plans, &cap));
  REQUIRE(plans == 0);
  REQUIRE(cap > 0);
  for (cn_dtype dt : {CN_COMPLEX128, CN_FLOAT32, CN_FLOAT64}) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-5 : 1e-12;
    // a negative-stride view of a strided 3-d array, big enough for the
    // pass-wise (in-place) path, and a small 1-d one
    Arr base = rand_arr({40, 3, 300}, dt, 900), t, v;
    int32_t perm[3] = {1, 2, 0};
    CN_REQUIRE_OK(cn_permute_dims(t.out(), base, 3, perm));
    int32_t fl[1] = {1};
    CN_REQUIRE_OK(cn_flip(v.out(), t, 1, fl));
    Arr small = rand_arr({17}, dt, 901);
    auto before = vals(base), before_small = vals(small);
    std::vector<Arr> est(4), mea(4);
    for (int pass = 0; pass < 2; pass++) {
      CN_REQUIRE_OK(cn_fft_set_planner(pass ? CN_FFT_PLANNER_MEASURE
                                            : CN_FFT_PLANNER_ESTIMATE));
      auto &r = pass ? mea : est;
      CN_REQUIRE_OK(cn_fftn(r[0].out(), v, 0, nullptr, -1, nullptr,
                            CN_FFT_NORM_BACKWARD));
      CN_REQUIRE_OK(
          cn_fft(r[1].out(), small, CN_FFT_N_NONE, 0, CN_FFT_NORM_ORTHO));
      CN_REQUIRE_OK(
          cn_ifft(r[2].out(), v, CN_FFT_N_NONE, 1, CN_FFT_NORM_FORWARD));
      if (is_cplx(dt))
        CN_REQUIRE_OK(cn_fft(r[3].out(), small, 8, 0, CN_FFT_NORM_BACKWARD));
      else
        CN_REQUIRE_OK(cn_irfft(r[3].out(), small, 30, 0, CN_FFT_NORM_BACKWARD));
    }
    for (int i = 0; i < 4; i++)
      require_close(vals(mea[i]), vals(est[i]), tol);
    require_close(vals(base), before, 0);
    require_close(vals(small), before_small, 0);
  }
  CN_REQUIRE_OK(cn_fft_plan_cache_info(&plans, &cap));
  REQUIRE(plans > 0);
  CN_REQUIRE_OK(cn_fft_set_planner(CN_FFT_PLANNER_ESTIMATE));
  CN_REQUIRE_OK(cn_fft_clear_plan_cache());
  CN_REQUIRE_OK(cn_fft_plan_cache_info(&plans, &cap));
  REQUIRE(plans == 0);
}

TEST_CASE("FFTW wisdom round trip and errors", "[fft][errors]") {
  std::string path = "fft_wisdom_test.txt", bad = "fft_wisdom_bad.txt";
  CN_REQUIRE_OK(cn_fft_set_planner(CN_FFT_PLANNER_MEASURE));
  Arr a = rand_arr({64}, CN_COMPLEX128, 910),
      b = rand_arr({48}, CN_FLOAT32, 911);
  Arr f, g;
  CN_REQUIRE_OK(cn_fft(f.out(), a, CN_FFT_N_NONE, 0, CN_FFT_NORM_BACKWARD));
  CN_REQUIRE_OK(cn_rfft(g.out(), b, CN_FFT_N_NONE, 0, CN_FFT_NORM_BACKWARD));
  CN_REQUIRE_OK(cn_fft_set_planner(CN_FFT_PLANNER_ESTIMATE));
  CN_REQUIRE_OK(cn_fft_save_wisdom(path.c_str()));
  {
    FILE *fp = fopen(path.c_str(), "r");
    REQUIRE(fp != nullptr);
    std::string text;
    for (int c; (c = fgetc(fp)) != EOF;)
      text += (char)c;
    fclose(fp);
    REQUIRE(text.find(" fftw_wisdom") != std::string::npos);
    REQUIRE(text.find(" fftwf_wisdom") != std::string::npos);
  }
  CN_REQUIRE_OK(cn_fft_load_wisdom(path.c_str()));
  FILE *fp = fopen(bad.c_str(), "w");
  fputs("(not wisdom)\n", fp);
  fclose(fp);
  CN_REQUIRE_ERR(cn_fft_load_wisdom(bad.c_str()), CN_ERR_VALUE,
                 "holds no valid FFTW wisdom");
  CN_REQUIRE_ERR(cn_fft_load_wisdom("/nonexistent/dir/w.txt"), CN_ERR_VALUE,
                 "cannot read '/nonexistent/dir/w.txt'");
  CN_REQUIRE_ERR(cn_fft_save_wisdom("/nonexistent/dir/w.txt"), CN_ERR_VALUE,
                 "cannot write");
  CN_REQUIRE_ERR(cn_fft_load_wisdom(nullptr), CN_ERR_VALUE,
                 "argument 'path' is NULL");
  CN_REQUIRE_ERR(cn_fft_save_wisdom(nullptr), CN_ERR_VALUE,
                 "argument 'path' is NULL");
  CN_REQUIRE_ERR(cn_fft_set_planner((cn_fft_planner)7), CN_ERR_VALUE,
                 "argument 'effort' is 7");
  CN_REQUIRE_ERR(cn_fft_get_planner(nullptr), CN_ERR_VALUE, "'out' is NULL");
  int64_t x = 0;
  CN_REQUIRE_ERR(cn_fft_plan_cache_info(nullptr, &x), CN_ERR_VALUE,
                 "argument 'plans' is NULL");
  cn_fft_planner p;
  CN_REQUIRE_OK(cn_fft_get_planner(&p));
  REQUIRE(p == CN_FFT_PLANNER_ESTIMATE);
  remove(path.c_str());
  remove(bad.c_str());
}
