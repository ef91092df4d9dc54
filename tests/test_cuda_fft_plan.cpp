// The CUDA plugin's cuFFT planner (core/cuda/fft_plan.c), checked on the
// CPU: each plan is executed by a small interpreter that follows cuFFT's
// advanced-layout addressing with a naive DFT per transform, and compared
// with a naive DFT of the descriptor itself (NumPy's definitions, C2R as
// C2C over the other axes then the half-spectrum inverse on the last).
// The interpreter also checks that no step reads or writes outside its
// buffers and that every output element is written.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#include "cuda/fft_plan.h"
}

namespace {

using cplx = std::complex<double>;
const double kPi = 3.14159265358979323846;

// A buffer of doubles addressed from element `origin`; every access is
// bounds-checked (elements of `width` doubles: 1 real, 2 complex).
struct Buf {
  std::vector<double> v;
  int64_t origin = 0;
  bool bad = false;
  double *at(int64_t elem, int width) {
    int64_t i = origin + elem * width;
    if (i < 0 || i + width > (int64_t)v.size()) {
      bad = true;
      static double sink[2];
      return sink;
    }
    return &v[(size_t)i];
  }
  cplx get(int64_t e, bool cx) {
    double *p = at(e, cx ? 2 : 1);
    return cx ? cplx(p[0], p[1]) : cplx(p[0], 0);
  }
  void put(int64_t e, bool cx, cplx z) {
    double *p = at(e, cx ? 2 : 1);
    p[0] = z.real();
    if (cx)
      p[1] = z.imag();
  }
};

// A test case: an array of ndim dims, transformed over axes (the last one
// the halved axis of a real transform) with logical lengths len, an input
// layout (dims packed in `perm` order, outermost first, each stride
// multiplied by step, negated where flip) and a C-contiguous output.
struct Case {
  cn_fft_kind kind = CN_FFT_C2C;
  int sign = -1;
  std::vector<int64_t> shape;  // non-axis extents; axis entries ignored
  std::vector<int32_t> axes;
  std::vector<int64_t> len;
  std::vector<int32_t> perm;   // empty: C order
  std::vector<int64_t> step;   // empty: 1
  std::vector<bool> flip;      // empty: none
  std::vector<int32_t> bcast;  // dims given input stride 0
  bool inplace = false;
};

struct Built {
  cn_fft_desc d;
  Buf in, out;
  std::vector<int64_t> ishape, oshape;
  int64_t out_count = 1;
};

void build(const Case &c, Built &b, std::mt19937 &rng) {
  int nd = (int)c.shape.size();
  b.ishape = c.shape;
  b.oshape = c.shape;
  int na = (int)c.axes.size();
  for (int i = 0; i < na; i++) {
    bool last = i == na - 1;
    int64_t n = c.len[(size_t)i];
    b.ishape[(size_t)c.axes[(size_t)i]] =
        (c.kind == CN_FFT_C2R && last) ? n / 2 + 1 : n;
    b.oshape[(size_t)c.axes[(size_t)i]] =
        (c.kind == CN_FFT_R2C && last) ? n / 2 + 1 : n;
  }
  std::vector<int64_t> os((size_t)nd), is((size_t)nd);
  int64_t run = 1;
  for (int k = nd - 1; k >= 0; k--) {
    os[(size_t)k] = run;
    run *= b.oshape[(size_t)k];
  }
  b.out_count = run;
  std::vector<int32_t> perm = c.perm;
  if (perm.empty())
    for (int k = 0; k < nd; k++)
      perm.push_back(k);
  run = 1;
  for (int j = nd - 1; j >= 0; j--) {
    int k = perm[(size_t)j];
    int64_t st = c.step.empty() ? 1 : c.step[(size_t)k];
    is[(size_t)k] = run * st;
    run *= b.ishape[(size_t)k] * st;
  }
  int64_t lo = 0, hi = 0;
  for (int k = 0; k < nd; k++) {
    if (!c.flip.empty() && c.flip[(size_t)k])
      is[(size_t)k] = -is[(size_t)k];
    for (int32_t z : c.bcast)
      if (z == k)
        is[(size_t)k] = 0;
    int64_t reach = (b.ishape[(size_t)k] - 1) * is[(size_t)k];
    (reach < 0 ? lo : hi) += reach;
  }
  bool in_cx = c.kind != CN_FFT_R2C;
  int w = in_cx ? 2 : 1;
  std::uniform_real_distribution<double> u(-1, 1);
  if (c.inplace) {
    REQUIRE(c.kind == CN_FFT_C2C);
    is = os;
    lo = 0;
    hi = b.out_count - 1;
  }
  b.in.v.resize((size_t)((hi - lo + 1) * w));
  for (auto &x : b.in.v)
    x = u(rng);
  b.in.origin = -lo * w;
  bool out_cx = c.kind != CN_FFT_C2R;
  b.out.v.assign((size_t)(b.out_count * (out_cx ? 2 : 1)), NAN);
  cn_fft_desc &d = b.d;
  std::memset(&d, 0, sizeof d);
  d.kind = c.kind;
  d.dtype = CN_COMPLEX128;
  d.sign = c.kind == CN_FFT_C2C ? c.sign : (c.kind == CN_FFT_R2C ? -1 : 1);
  d.rank = na;
  std::vector<bool> is_ax((size_t)nd, false);
  for (int i = 0; i < na; i++) {
    int k = c.axes[(size_t)i];
    is_ax[(size_t)k] = true;
    d.n[i] = c.len[(size_t)i];
    d.is[i] = is[(size_t)k];
    d.os[i] = os[(size_t)k];
  }
  for (int k = 0; k < nd; k++)
    if (!is_ax[(size_t)k] && b.oshape[(size_t)k] != 1) {
      d.hn[d.howmany_rank] = b.oshape[(size_t)k];
      d.his[d.howmany_rank] = is[(size_t)k];
      d.hos[d.howmany_rank] = os[(size_t)k];
      d.howmany_rank++;
    }
  // Distinct fake pointers; equal for in place.
  static char in_tag, out_tag;
  d.in = &in_tag;
  d.out = c.inplace ? (void *)&in_tag : (void *)&out_tag;
  d.out_count = b.out_count;
  d.scale = 1.0;
  if (c.inplace)
    b.out = b.in;
}

// Visits every multi-index of extents n[0..r) (row-major), calling f(idx).
template <class F> void each_index(int r, const int64_t *n, F f) {
  int64_t total = 1;
  for (int k = 0; k < r; k++)
    total *= n[k];
  std::vector<int64_t> idx((size_t)(r > 0 ? r : 1), 0);
  for (int64_t t = 0; t < total; t++) {
    int64_t rem = t;
    for (int k = r - 1; k >= 0; k--) {
      idx[(size_t)k] = rem % n[k];
      rem /= n[k];
    }
    f(idx.data());
  }
}

// The oracle: a naive DFT of the descriptor, straight from its strides.
std::vector<cplx> reference(const cn_fft_desc &d, Buf &in) {
  bool in_cx = d.kind != CN_FFT_R2C, out_cx = d.kind != CN_FFT_C2R;
  int r = d.rank, h = d.howmany_rank;
  int64_t nin[CN_MAX_DIMS], nout[CN_MAX_DIMS];
  for (int k = 0; k < r; k++)
    nin[k] = nout[k] = d.n[k];
  if (d.kind == CN_FFT_R2C)
    nout[r - 1] = d.n[r - 1] / 2 + 1;
  if (d.kind == CN_FFT_C2R)
    nin[r - 1] = d.n[r - 1] / 2 + 1;
  std::vector<cplx> res((size_t)d.out_count, cplx(NAN, NAN));
  (void)out_cx;
  each_index(h, d.hn, [&](const int64_t *l) {
    int64_t ib = 0, ob = 0;
    for (int k = 0; k < h; k++) {
      ib += l[k] * d.his[k];
      ob += l[k] * d.hos[k];
    }
    if (d.kind != CN_FFT_C2R) {
      each_index(r, nout, [&](const int64_t *y) {
        cplx acc = 0;
        each_index(r, nin, [&](const int64_t *x) {
          double ph = 0;
          int64_t off = ib;
          for (int k = 0; k < r; k++) {
            ph += (double)((x[k] * y[k]) % d.n[k]) / (double)d.n[k];
            off += x[k] * d.is[k];
          }
          acc += in.get(off, in_cx) * std::polar(1.0, d.sign * 2 * kPi * ph);
        });
        int64_t o = ob;
        for (int k = 0; k < r; k++)
          o += y[k] * d.os[k];
        res[(size_t)o] = acc;
      });
      return;
    }
    // C2R: C2C (+) over the first r-1 dims, then the Hermitian inverse.
    int64_t n = d.n[r - 1], m = nin[r - 1];
    each_index(r - 1, nout, [&](const int64_t *y) {
      std::vector<cplx> half((size_t)m, 0);
      for (int64_t kk = 0; kk < m; kk++)
        each_index(r - 1, nin, [&](const int64_t *x) {
          double ph = 0;
          int64_t off = ib + kk * d.is[r - 1];
          for (int k = 0; k < r - 1; k++) {
            ph += (double)((x[k] * y[k]) % d.n[k]) / (double)d.n[k];
            off += x[k] * d.is[k];
          }
          half[(size_t)kk] += in.get(off, true) * std::polar(1.0, 2 * kPi * ph);
        });
      for (int64_t j = 0; j < n; j++) {
        cplx acc = 0;
        for (int64_t k = 0; k < n; k++) {
          cplx X = k < m ? half[(size_t)k] : std::conj(half[(size_t)(n - k)]);
          acc += X * std::polar(1.0, 2 * kPi * (double)((j * k) % n) / (double)n);
        }
        int64_t o = ob + j * d.os[r - 1];
        for (int k = 0; k < r - 1; k++)
          o += y[k] * d.os[k];
        res[(size_t)o] = acc.real();
      }
    });
  });
  return res;
}

// Executes one step the way cuFFT would (advanced layout), naively.
void run_step(const cn_cufft_step &s, Buf &src, Buf &dst, bool &ok) {
  bool scx = s.kind != CN_FFT_R2C, dcx = s.kind != CN_FFT_C2R;
  int r = s.rank;
  int64_t nin[3], nout[3];
  for (int k = 0; k < r; k++)
    nin[k] = nout[k] = s.n[k];
  if (s.kind == CN_FFT_R2C)
    nout[r - 1] = s.n[r - 1] / 2 + 1;
  if (s.kind == CN_FFT_C2R) {
    REQUIRE(r == 1);
    nin[0] = s.n[0] / 2 + 1;
  }
  if (s.istride <= 0 || s.ostride <= 0 || s.idist <= 0 || s.odist <= 0 ||
      s.batch < 1)
    ok = false;
  for (int k = 1; k < r; k++)
    if (s.inembed[k] < nin[k] || s.onembed[k] < nout[k])
      ok = false;
  auto lin = [&](const int64_t *x, const int64_t *emb, int64_t stride) {
    int64_t v = x[0];
    for (int k = 1; k < r; k++)
      v = v * emb[k] + x[k];
    return v * stride;
  };
  each_index(s.loop_rank, s.loop_n, [&](const int64_t *l) {
    int64_t ib = 0, ob = 0;
    for (int k = 0; k < s.loop_rank; k++) {
      ib += l[k] * s.loop_is[k];
      ob += l[k] * s.loop_os[k];
    }
    for (int64_t b = 0; b < s.batch; b++) {
      std::vector<cplx> inv;
      each_index(r, nin, [&](const int64_t *x) {
        inv.push_back(src.get(ib + b * s.idist + lin(x, s.inembed, s.istride),
                              scx));
      });
      std::vector<cplx> outv;
      if (s.kind == CN_FFT_C2R) {
        int64_t n = s.n[0], m = nin[0];
        for (int64_t j = 0; j < n; j++) {
          cplx acc = 0;
          for (int64_t k = 0; k < n; k++) {
            cplx X = k < m ? inv[(size_t)k] : std::conj(inv[(size_t)(n - k)]);
            acc += X * std::polar(1.0, 2 * kPi * (double)((j * k) % n) / (double)n);
          }
          outv.push_back(acc.real());
        }
      } else {
        each_index(r, nout, [&](const int64_t *y) {
          cplx acc = 0;
          size_t t = 0;
          each_index(r, nin, [&](const int64_t *x) {
            double ph = 0;
            for (int k = 0; k < r; k++)
              ph += (double)((x[k] * y[k]) % s.n[k]) / (double)s.n[k];
            acc += inv[t++] * std::polar(1.0, s.sign * 2 * kPi * ph);
          });
          outv.push_back(acc);
        });
      }
      size_t t = 0;
      each_index(r, nout, [&](const int64_t *y) {
        dst.put(ob + b * s.odist + lin(y, s.onembed, s.ostride), dcx,
                outv[t++]);
      });
    }
  });
}

// Runs the plan on b's buffers; false when the plan misbehaves.
bool interpret(const cn_cufft_plan &p, Built &b, bool inplace) {
  bool ok = true;
  Buf scratch;
  bool in_cx = b.d.kind != CN_FFT_R2C;
  scratch.v.assign((size_t)(p.scratch_count * (in_cx ? 2 : 1)), NAN);
  Buf &out = inplace ? b.in : b.out;
  auto buf = [&](int32_t id) -> Buf & {
    return id == CN_CUFFT_BUF_IN ? b.in
           : id == CN_CUFFT_BUF_OUT ? out
                                    : scratch;
  };
  if (p.copy) {
    Buf &dst = buf(p.copy_dst);
    each_index(p.copy_rank, p.copy_n, [&](const int64_t *x) {
      int64_t si = 0, so = 0;
      for (int k = 0; k < p.copy_rank; k++) {
        si += x[k] * p.copy_is[k];
        so += x[k] * p.copy_os[k];
      }
      dst.put(so, p.copy_complex, b.in.get(si, p.copy_complex));
    });
  }
  for (int32_t i = 0; i < p.nsteps; i++)
    run_step(p.steps[i], buf(p.steps[i].src), buf(p.steps[i].dst), ok);
  ok = ok && !b.in.bad && !out.bad && !scratch.bad;
  return ok;
}

// Plans, interprets and compares; returns the plan for further checks.
cn_cufft_plan check(const Case &c, uint32_t seed = 1) {
  std::mt19937 rng(seed);
  Built b;
  build(c, b, rng);
  Buf orig = b.in;
  std::vector<cplx> want = reference(b.d, orig);
  cn_cufft_plan p;
  const char *why = nullptr;
  bool made = cn_cufft_plan_make(&p, &b.d, &why);
  INFO((why ? why : ""));
  REQUIRE(made);
  REQUIRE(p.nsteps <= CN_MAX_DIMS);
  REQUIRE(interpret(p, b, c.inplace));
  Buf &out = c.inplace ? b.in : b.out;
  bool out_cx = c.kind != CN_FFT_C2R;
  double scale = 1;
  for (int i = 0; i < b.d.rank; i++)
    scale *= (double)b.d.n[i];
  for (int64_t i = 0; i < b.out_count; i++) {
    cplx got = out.get(i, out_cx);
    INFO("element " << i << " got " << got << " want " << want[(size_t)i]);
    REQUIRE(std::isfinite(got.real()));
    REQUIRE(std::abs(got - want[(size_t)i]) <= 1e-9 * scale);
  }
  for (int32_t i = 0; i < p.nsteps; i++) {
    const cn_cufft_step &s = p.steps[i];
    REQUIRE(s.rank >= 1);
    REQUIRE(s.rank <= 3);
    REQUIRE(s.istride > 0);
    REQUIRE(s.ostride > 0);
  }
  return p;
}

Case c2c(std::vector<int64_t> shape, std::vector<int32_t> axes) {
  Case c;
  c.shape = shape;
  c.axes = axes;
  for (int32_t a : axes)
    c.len.push_back(shape[(size_t)a]);
  return c;
}

} // namespace

TEST_CASE("cufft plan: 1-d contiguous C2C is one batched call", "[cuda_fft]") {
  Case c = c2c({5, 8}, {1});
  cn_cufft_plan p = check(c);
  REQUIRE(p.nsteps == 1);
  REQUIRE_FALSE(p.copy);
  REQUIRE(p.steps[0].batch == 5);
  REQUIRE(p.steps[0].loop_rank == 0);
  REQUIRE(p.steps[0].istride == 1);
  REQUIRE(p.steps[0].idist == 8);
  c.sign = 1;
  check(c);
}

TEST_CASE("cufft plan: 2-d, 3-d in one call; 4-d split", "[cuda_fft]") {
  cn_cufft_plan p = check(c2c({3, 4, 5}, {1, 2}));
  REQUIRE(p.nsteps == 1);
  REQUIRE(p.steps[0].rank == 2);
  REQUIRE(p.steps[0].batch == 3);
  p = check(c2c({2, 3, 4, 5}, {1, 2, 3}));
  REQUIRE(p.nsteps == 1);
  REQUIRE(p.steps[0].rank == 3);
  p = check(c2c({2, 3, 2, 5}, {0, 1, 2, 3}));
  REQUIRE(p.nsteps == 2);
  REQUIRE(p.steps[0].rank == 3);
  REQUIRE(p.steps[1].rank == 1);
  REQUIRE(p.steps[1].src == CN_CUFFT_BUF_OUT);
  REQUIRE(p.steps[1].dst == CN_CUFFT_BUF_OUT);
}

TEST_CASE("cufft plan: axes not last and in any order", "[cuda_fft]") {
  cn_cufft_plan p = check(c2c({6, 4}, {0}));
  REQUIRE(p.nsteps == 1);
  REQUIRE(p.steps[0].istride == 4);
  REQUIRE(p.steps[0].idist == 1);
  REQUIRE(p.steps[0].batch == 4);
  p = check(c2c({3, 5, 4}, {1})); // one loop dim each side: a host loop
  REQUIRE(p.nsteps == 1);
  REQUIRE(p.steps[0].batch * cn_cufft_step_calls(&p.steps[0]) == 12);
  check(c2c({3, 5, 4}, {2, 0}));
  check(c2c({2, 3, 4, 3}, {3, 1}));
}

TEST_CASE("cufft plan: strided, transposed and broadcast inputs", "[cuda_fft]") {
  Case c = c2c({4, 6}, {0, 1});
  c.step = {1, 2};
  cn_cufft_plan p = check(c);
  REQUIRE_FALSE(p.copy);
  c.step = {3, 1};
  check(c);
  c = c2c({4, 6}, {0, 1});
  c.perm = {1, 0}; // a transposed input: two rank-1 steps, no copy
  p = check(c);
  REQUIRE_FALSE(p.copy);
  REQUIRE(p.nsteps == 2);
  c = c2c({3, 4, 5}, {1});
  c.perm = {2, 0, 1};
  c.step = {2, 1, 3};
  check(c);
  c = c2c({3, 5}, {1});
  c.bcast = {0}; // stride-0 loop dim: gathered into the output first
  p = check(c);
  REQUIRE(p.copy);
  REQUIRE(p.copy_dst == CN_CUFFT_BUF_OUT);
  REQUIRE(p.scratch_count == 0);
  c.bcast = {1}; // stride-0 transformed dim
  check(c);
}

TEST_CASE("cufft plan: negative strides are gathered first", "[cuda_fft]") {
  Case c = c2c({4, 6}, {1});
  c.flip = {false, true};
  cn_cufft_plan p = check(c);
  REQUIRE(p.copy);
  c.flip = {true, false};
  check(c);
  c = c2c({3, 4, 6}, {0, 2});
  c.flip = {true, false, true};
  c.step = {1, 2, 1};
  check(c);
  Case r;
  r.kind = CN_FFT_R2C;
  r.shape = {3, 7};
  r.axes = {1};
  r.len = {7};
  r.flip = {false, true};
  p = check(r);
  REQUIRE(p.copy);
  REQUIRE(p.copy_dst == CN_CUFFT_BUF_SCRATCH);
  REQUIRE_FALSE(p.copy_complex);
  REQUIRE(p.scratch_count == 21);
  r.kind = CN_FFT_C2R;
  r.len = {8};
  p = check(r);
  REQUIRE(p.copy);
  REQUIRE(p.copy_complex);
  REQUIRE(p.scratch_count == 15);
}

TEST_CASE("cufft plan: R2C and C2R, odd and even lengths", "[cuda_fft]") {
  for (int64_t n : {1, 2, 5, 8, 9}) {
    for (cn_fft_kind k : {CN_FFT_R2C, CN_FFT_C2R}) {
      Case c;
      c.kind = k;
      c.shape = {3, n};
      c.axes = {1};
      c.len = {n};
      INFO("n " << n << " kind " << k);
      cn_cufft_plan p = check(c);
      REQUIRE(p.nsteps == 1);
      REQUIRE(p.steps[0].kind == k);
      c.shape = {4, 3, n};
      c.axes = {0, 2};
      c.len = {4, n};
      p = check(c);
      // R2C starts with the halved dim, C2R ends with it.
      REQUIRE(p.steps[k == CN_FFT_R2C ? 0 : p.nsteps - 1].kind == k);
      c.axes = {2, 0}; // the halved axis is not the innermost one
      c.shape = {n, 3, 5};
      c.len = {n, 5};
      check(c);
      c.shape = {2, 3, 4, n};
      c.axes = {0, 1, 2, 3};
      c.len = {2, 3, 4, n};
      check(c);
      c.perm = {3, 2, 1, 0};
      check(c);
    }
  }
}

TEST_CASE("cufft plan: multi-dim R2C is one call, C2R ends on the halved dim",
          "[cuda_fft]") {
  Case c;
  c.kind = CN_FFT_R2C;
  c.shape = {6, 8};
  c.axes = {0, 1};
  c.len = {6, 8};
  cn_cufft_plan p = check(c);
  REQUIRE(p.nsteps == 1);
  REQUIRE(p.steps[0].rank == 2);
  REQUIRE(p.steps[0].onembed[1] == 5);
  c.kind = CN_FFT_C2R;
  p = check(c);
  REQUIRE(p.nsteps == 2);
  REQUIRE(p.steps[0].kind == CN_FFT_C2C);
  REQUIRE(p.steps[0].src == CN_CUFFT_BUF_IN); // the input may be destroyed
  REQUIRE(p.steps[0].dst == CN_CUFFT_BUF_IN);
  REQUIRE(p.steps[1].kind == CN_FFT_C2R);
  REQUIRE(p.steps[1].rank == 1);
  c.step = {1, 2};
  check(c);
}

TEST_CASE("cufft plan: in-place C2C", "[cuda_fft]") {
  Case c = c2c({4, 6}, {0, 1});
  c.inplace = true;
  cn_cufft_plan p = check(c);
  REQUIRE_FALSE(p.copy);
  for (int i = 0; i < p.nsteps; i++) {
    REQUIRE(p.steps[i].src == CN_CUFFT_BUF_IN);
    REQUIRE(p.steps[i].dst == CN_CUFFT_BUF_IN);
  }
  c = c2c({2, 3, 2, 3}, {0, 1, 2, 3});
  c.inplace = true;
  check(c);
}

TEST_CASE("cufft plan: howmany_rank 0, 1, 2 and length-1 dims", "[cuda_fft]") {
  check(c2c({16}, {0}));
  check(c2c({4, 16}, {1}));
  cn_cufft_plan p = check(c2c({3, 4, 16}, {2})); // loops merge into a batch
  REQUIRE(p.steps[0].batch == 12);
  REQUIRE(p.steps[0].loop_rank == 0);
  p = check(c2c({1}, {0})); // the identity: a copy, no cuFFT call
  REQUIRE(p.nsteps == 0);
  REQUIRE(p.copy);
  Case c = c2c({3, 1}, {1});
  c.inplace = true;
  p = check(c);
  REQUIRE(p.nsteps == 0);
  REQUIRE_FALSE(p.copy);
  check(c2c({1, 5}, {0, 1}));
  p = check(c2c({4, 1, 5}, {1, 2}));
  REQUIRE(p.nsteps == 1);
  REQUIRE(p.steps[0].rank == 1);
}

TEST_CASE("cufft plan: refusals and keys", "[cuda_fft]") {
  std::mt19937 rng(3);
  Built b;
  build(c2c({4, 6}, {1}), b, rng);
  cn_cufft_plan p;
  const char *why = nullptr;
  cn_fft_desc d = b.d;
  d.os[0] = -1;
  REQUIRE_FALSE(cn_cufft_plan_make(&p, &d, &why));
  REQUIRE(why != nullptr);
  d = b.d;
  d.rank = 0;
  REQUIRE_FALSE(cn_cufft_plan_make(&p, &d, &why));
  d = b.d;
  d.kind = CN_FFT_R2C;
  d.out = d.in;
  REQUIRE_FALSE(cn_cufft_plan_make(&p, &d, &why));
  d = b.d;
  d.hn[0] = 0; // an empty loop: nothing to do
  REQUIRE(cn_cufft_plan_make(&p, &d, &why));
  REQUIRE(p.nsteps == 0);
  REQUIRE_FALSE(p.copy);

  REQUIRE(cn_cufft_plan_make(&p, &b.d, &why));
  cn_cufft_key k1, k2;
  cn_cufft_key_make(&k1, &p.steps[0], true, 0, 7);
  cn_cufft_key_make(&k2, &p.steps[0], true, 0, 7);
  REQUIRE(std::memcmp(&k1, &k2, sizeof k1) == 0);
  cn_cufft_key_make(&k2, &p.steps[0], true, 0, 8); // another stream
  REQUIRE(std::memcmp(&k1, &k2, sizeof k1) != 0);
  cn_cufft_key_make(&k2, &p.steps[0], true, 1, 7); // another device
  REQUIRE(std::memcmp(&k1, &k2, sizeof k1) != 0);
  cn_cufft_key_make(&k2, &p.steps[0], false, 0, 7); // another precision
  REQUIRE(std::memcmp(&k1, &k2, sizeof k1) != 0);
  cn_cufft_step s = p.steps[0];
  s.sign = -s.sign; // the direction is given at execution, not planning
  cn_cufft_key_make(&k2, &s, true, 0, 7);
  REQUIRE(std::memcmp(&k1, &k2, sizeof k1) == 0);
  s.idist++;
  cn_cufft_key_make(&k2, &s, true, 0, 7);
  REQUIRE(std::memcmp(&k1, &k2, sizeof k1) != 0);
}

TEST_CASE("cufft plan: random layouts against the oracle", "[cuda_fft]") {
  std::mt19937 rng(11);
  for (int t = 0; t < 150; t++) {
    Case c;
    int kind = (int)(rng() % 3);
    c.kind = (cn_fft_kind)kind;
    c.sign = rng() % 2 ? 1 : -1;
    int nd = 1 + (int)(rng() % 4);
    for (int k = 0; k < nd; k++)
      c.shape.push_back(1 + (int64_t)(rng() % 4));
    std::vector<int32_t> order;
    for (int k = 0; k < nd; k++)
      order.push_back(k);
    std::shuffle(order.begin(), order.end(), rng);
    int na = 1 + (int)(rng() % nd);
    c.axes.assign(order.begin(), order.begin() + na);
    for (int32_t a : c.axes)
      c.len.push_back(c.shape[(size_t)a]);
    std::shuffle(order.begin(), order.end(), rng);
    c.perm = order;
    for (int k = 0; k < nd; k++) {
      c.step.push_back(1 + (int64_t)(rng() % 2));
      c.flip.push_back(rng() % 4 == 0);
    }
    if (rng() % 6 == 0)
      c.bcast.push_back((int32_t)(rng() % nd));
    INFO("case " << t);
    check(c, (uint32_t)t);
  }
}
