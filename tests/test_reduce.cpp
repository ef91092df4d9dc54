// Tests of cunumpy/reduce.h: every reduction and scan on every dtype it
// accepts against a long double oracle written here (grouping the logical
// values of the input by output element), over axis sets, keepdims, dtype
// overrides, dst, empty and 0-d arrays, NaN/inf, non-contiguous, negative
// stride, transposed and broadcast inputs, the summation accuracy claims,
// the parallel paths, and every error path.
#include "testutil.hpp"

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>

namespace {

using LD = long double;
using CL = std::complex<long double>;

const cn_dtype kAll[] = {CN_BOOL,      CN_INT8,    CN_INT16,   CN_INT32,
                         CN_INT64,     CN_UINT8,   CN_UINT16,  CN_UINT32,
                         CN_UINT64,    CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64,
                         CN_COMPLEX128};

bool is_bool(cn_dtype d) { return d == CN_BOOL; }
bool is_sint(cn_dtype d) {
  return d == CN_INT8 || d == CN_INT16 || d == CN_INT32 || d == CN_INT64;
}
bool is_uint(cn_dtype d) {
  return d == CN_UINT8 || d == CN_UINT16 || d == CN_UINT32 || d == CN_UINT64;
}
bool is_cplx(cn_dtype d) { return d == CN_COMPLEX64 || d == CN_COMPLEX128; }
bool is_flt(cn_dtype d) { return d == CN_FLOAT32 || d == CN_FLOAT64; }
bool inexact(cn_dtype d) { return is_flt(d) || is_cplx(d); }
bool single(cn_dtype d) { return d == CN_FLOAT32 || d == CN_COMPLEX64; }

// ---- element access by dtype ------------------------------------------

CL get_elem(const unsigned char *p, cn_dtype d) {
  switch (d) {
  case CN_BOOL:
    return CL(*p != 0, 0);
  case CN_INT8:
    return CL(*(const int8_t *)p, 0);
  case CN_INT16:
    return CL(*(const int16_t *)p, 0);
  case CN_INT32:
    return CL(*(const int32_t *)p, 0);
  case CN_INT64:
    return CL(*(const int64_t *)p, 0);
  case CN_UINT8:
    return CL(*(const uint8_t *)p, 0);
  case CN_UINT16:
    return CL(*(const uint16_t *)p, 0);
  case CN_UINT32:
    return CL(*(const uint32_t *)p, 0);
  case CN_UINT64:
    return CL(*(const uint64_t *)p, 0);
  case CN_FLOAT32:
    return CL(*(const float *)p, 0);
  case CN_FLOAT64:
    return CL(*(const double *)p, 0);
  case CN_COMPLEX64:
    return CL(((const float *)p)[0], ((const float *)p)[1]);
  case CN_COMPLEX128:
    return CL(((const double *)p)[0], ((const double *)p)[1]);
  default:
    FAIL("bad dtype");
    return CL();
  }
}

// Truncation of r to a signed integer of `width` bits as x86-64's cvtt
// instructions do (the engine's documented float-to-integer table):
// NaN and values outside the range give the "integer indefinite" minimum.
// Spelled out because C leaves out-of-range conversions undefined.
uint64_t cvtt_bits(LD r, int width) {
  const LD lim = width == 64 ? 9223372036854775808.0L : 2147483648.0L;
  const LD t = std::trunc(r);
  if (!(t >= -lim && t < lim))
    return width == 64 ? (uint64_t)1 << 63 : (uint64_t)(uint32_t)INT32_MIN;
  return (uint64_t)(int64_t)t;
}

void put_elem(unsigned char *p, cn_dtype d, CL v) {
  LD r = v.real();
  // integers take the low bits of the conversion the engine's table names
  // for their width (uint64 above 2^63 through the 2^63 offset)
  const bool wide_int = d == CN_INT64 || d == CN_UINT32 || d == CN_UINT64;
  uint64_t bits = cvtt_bits(r, wide_int ? 64 : 32);
  if (d == CN_UINT64 && r >= 9223372036854775808.0L)
    bits = cvtt_bits(r - 9223372036854775808.0L, 64) ^ ((uint64_t)1 << 63);
  switch (d) {
  case CN_BOOL:
    *p = r != 0 || v.imag() != 0;
    break;
  case CN_INT8:
    *(int8_t *)p = (int8_t)bits;
    break;
  case CN_INT16:
    *(int16_t *)p = (int16_t)bits;
    break;
  case CN_INT32:
    *(int32_t *)p = (int32_t)bits;
    break;
  case CN_INT64:
    *(int64_t *)p = (int64_t)bits;
    break;
  case CN_UINT8:
    *(uint8_t *)p = (uint8_t)bits;
    break;
  case CN_UINT16:
    *(uint16_t *)p = (uint16_t)bits;
    break;
  case CN_UINT32:
    *(uint32_t *)p = (uint32_t)bits;
    break;
  case CN_UINT64:
    *(uint64_t *)p = bits;
    break;
  case CN_FLOAT32:
    *(float *)p = (float)r;
    break;
  case CN_FLOAT64:
    *(double *)p = (double)r;
    break;
  case CN_COMPLEX64:
    ((float *)p)[0] = (float)r;
    ((float *)p)[1] = (float)v.imag();
    break;
  case CN_COMPLEX128:
    ((double *)p)[0] = (double)r;
    ((double *)p)[1] = (double)v.imag();
    break;
  default:
    FAIL("bad dtype");
  }
}

Arr make(cn_dtype d, std::vector<int64_t> shape, const std::vector<CL> &v) {
  const int64_t sz = cn_dtype_itemsize(d);
  std::vector<unsigned char> buf(v.size() * sz + 16);
  for (size_t i = 0; i < v.size(); i++)
    put_elem(buf.data() + i * sz, d, v[i]);
  Arr a;
  CN_REQUIRE_OK(cn_from_host(a.out(), buf.data(), 0, (int64_t)(v.size() * sz),
                             (int32_t)shape.size(), shape.data(), nullptr, d));
  return a;
}

cn_dtype dtype_of(cn_array a) {
  cn_dtype d;
  REQUIRE(cn_array_dtype(&d, a) == CN_OK);
  return d;
}

std::vector<CL> values(cn_array a) {
  int64_t n = 0;
  REQUIRE(cn_array_size(&n, a) == CN_OK);
  cn_dtype d = dtype_of(a);
  const int64_t sz = cn_dtype_itemsize(d);
  std::vector<unsigned char> buf(n * sz + 16);
  REQUIRE(cn_copy_to_buffer(buf.data(), n * sz, a, CN_ORDER_C) == CN_OK);
  std::vector<CL> v(n);
  for (int64_t i = 0; i < n; i++)
    v[i] = get_elem(buf.data() + i * sz, d);
  return v;
}

int64_t prod_of(const std::vector<int64_t> &s) {
  int64_t n = 1;
  for (auto e : s)
    n *= e;
  return n;
}

// Deterministic values that every dtype holds exactly (quarters for floats).
std::vector<CL> gen(cn_dtype d, int64_t n, int seed) {
  std::vector<CL> v(n);
  for (int64_t i = 0; i < n; i++) {
    int64_t k = i * 7 + seed;
    if (is_bool(d))
      v[i] = CL(k % 3 == 0, 0);
    else if (is_sint(d))
      v[i] = CL(k % 11 - 5, 0);
    else if (is_uint(d))
      v[i] = CL(k % 11, 0);
    else if (is_flt(d))
      v[i] = CL((LD)((i * 37 + seed) % 23 - 11) / 4, 0);
    else
      v[i] = CL((LD)((i * 37 + seed) % 23 - 11) / 4,
                (LD)((i * 13 + seed) % 17 - 8) / 2);
  }
  return v;
}

bool cnan(CL x) { return std::isnan(x.real()) || std::isnan(x.imag()); }
// Lexicographic order of complex values (NumPy's).
bool lt(CL a, CL b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}

// ---- the oracle ----------------------------------------------------------

enum Op {
  SUM,
  PROD,
  MEAN,
  MIN,
  MAX,
  ANY,
  ALL,
  NANSUM,
  NANPROD,
  NANMEAN,
  NANMIN,
  NANMAX,
  VAR,
  STD,
  NANVAR,
  NANSTD
};
const char *op_name(Op op) {
  static const char *n[] = {"sum",     "prod",    "mean",   "min",
                            "max",     "any",     "all",    "nansum",
                            "nanprod", "nanmean", "nanmin", "nanmax",
                            "var",     "std",     "nanvar", "nanstd"};
  return n[op];
}
bool is_nan_op(Op op) {
  return op == NANSUM || op == NANPROD || op == NANMEAN || op == NANMIN ||
         op == NANMAX || op == NANVAR || op == NANSTD;
}

cn_dtype wide(cn_dtype d) {
  if (is_bool(d) || is_sint(d))
    return CN_INT64;
  if (is_uint(d))
    return CN_UINT64;
  return d;
}
cn_dtype real_of(cn_dtype d) {
  return d == CN_COMPLEX64 ? CN_FLOAT32 : d == CN_COMPLEX128 ? CN_FLOAT64 : d;
}

cn_dtype result_dtype(Op op, cn_dtype d) {
  switch (op) {
  case SUM:
  case PROD:
  case NANSUM:
  case NANPROD:
    return wide(d);
  case MEAN:
  case NANMEAN:
    return inexact(d) ? d : CN_FLOAT64;
  case VAR:
  case STD:
  case NANVAR:
  case NANSTD:
    return real_of(inexact(d) ? d : CN_FLOAT64);
  case ANY:
  case ALL:
    return CN_BOOL;
  default:
    return d;
  }
}

// Wraps an integer to the accumulator dtype (two's complement, as C).
CL wrap_int(unsigned __int128 u, cn_dtype acc) {
  uint64_t w = (uint64_t)u;
  if (acc == CN_UINT64)
    return CL((LD)w, 0);
  return CL((LD)(int64_t)w, 0);
}

CL oracle(Op op, std::vector<CL> g, cn_dtype d, double ddof) {
  const LD nan = std::numeric_limits<LD>::quiet_NaN();
  if (is_nan_op(op) && inexact(d)) {
    std::vector<CL> h;
    for (auto x : g)
      if (!cnan(x))
        h.push_back(x);
    g = h;
  }
  const bool integral = !inexact(d);
  switch (op) {
  case SUM:
  case NANSUM: {
    if (integral) {
      unsigned __int128 s = 0;
      for (auto x : g)
        s += x.real() < 0 ? (unsigned __int128)(__int128)(int64_t)x.real()
                          : (unsigned __int128)(uint64_t)x.real();
      return wrap_int(s, wide(d));
    }
    CL s = 0;
    for (auto x : g)
      s += x;
    return s;
  }
  case PROD:
  case NANPROD: {
    if (integral) {
      uint64_t p = 1;
      for (auto x : g)
        p *= x.real() < 0 ? (uint64_t)(int64_t)x.real() : (uint64_t)x.real();
      return wrap_int(p, wide(d));
    }
    CL p = 1;
    for (auto x : g)
      p = is_cplx(d) ? CL(p.real() * x.real() - p.imag() * x.imag(),
                          p.real() * x.imag() + p.imag() * x.real())
                     : CL(p.real() * x.real(), 0);
    return p;
  }
  case MEAN:
  case NANMEAN: {
    CL s = 0;
    for (auto x : g)
      s += x;
    return g.empty() ? CL(nan, is_cplx(d) ? nan : 0) : s / (LD)g.size();
  }
  case VAR:
  case STD:
  case NANVAR:
  case NANSTD: {
    CL m = 0;
    for (auto x : g)
      m += x;
    m /= (LD)g.size();
    LD s = 0;
    for (auto x : g)
      s += std::norm(x - m);
    LD den = (LD)g.size() - ddof;
    if (den < 0)
      den = 0;
    LD v = s / den;
    return CL(op == STD || op == NANSTD ? std::sqrt(v) : v, 0);
  }
  case MIN:
  case MAX:
  case NANMIN:
  case NANMAX: {
    if (g.empty())
      return CL(nan, 0); // nanmin of an all-NaN slice
    CL best = g[0];
    for (auto x : g) {
      if (cnan(best))
        break;
      if (cnan(x)) {
        best = x;
        break;
      }
      if ((op == MIN || op == NANMIN) ? lt(x, best) : lt(best, x))
        best = x;
    }
    return best;
  }
  case ANY: {
    bool r = false;
    for (auto x : g)
      r = r || x != CL(0);
    return CL(r, 0);
  }
  case ALL: {
    bool r = true;
    for (auto x : g)
      r = r && x != CL(0);
    return CL(r, 0);
  }
  }
  return CL();
}

// got vs want in result dtype rd: exact for integers, relative otherwise.
void check_val(CL got, CL want, cn_dtype rd, LD tol_scale = 1) {
  INFO("got " << (double)got.real() << "+" << (double)got.imag() << "j want "
              << (double)want.real() << "+" << (double)want.imag() << "j");
  if (!inexact(rd)) {
    REQUIRE(got == want);
    return;
  }
  if (is_cplx(rd) && cnan(want)) {
    REQUIRE(cnan(got)); // which parts are NaN is not specified
    return;
  }
  // complex parts are judged against the modulus (cancellation in a part)
  const LD scale = std::max<LD>(1, std::abs(want));
  auto part = [&](LD g, LD w) {
    if (std::isnan(w)) {
      REQUIRE(std::isnan(g));
      return;
    }
    if (std::isinf(w)) {
      REQUIRE(g == w);
      return;
    }
    LD tol = (single(rd) ? 2e-6L : 1e-13L) * tol_scale;
    LD sc = std::isfinite(scale) ? std::max(scale, std::fabs(w)) : std::fabs(w);
    REQUIRE(std::fabs(g - w) <= tol * std::max<LD>(1, sc));
  };
  part(got.real(), want.real());
  part(got.imag(), want.imag());
}

cn_status call(Op op, cn_array *out, cn_array a, int32_t naxes,
               const int32_t *axes, int32_t keepdims, cn_dtype dtype,
               cn_array dst, double ddof = 0) {
  switch (op) {
  case SUM:
    return cn_sum(out, a, naxes, axes, keepdims, dtype, dst);
  case PROD:
    return cn_prod(out, a, naxes, axes, keepdims, dtype, dst);
  case MEAN:
    return cn_mean(out, a, naxes, axes, keepdims, dtype, dst);
  case MIN:
    return cn_min(out, a, naxes, axes, keepdims, dtype, dst);
  case MAX:
    return cn_max(out, a, naxes, axes, keepdims, dtype, dst);
  case ANY:
    return cn_any(out, a, naxes, axes, keepdims, dtype, dst);
  case ALL:
    return cn_all(out, a, naxes, axes, keepdims, dtype, dst);
  case NANSUM:
    return cn_nansum(out, a, naxes, axes, keepdims, dtype, dst);
  case NANPROD:
    return cn_nanprod(out, a, naxes, axes, keepdims, dtype, dst);
  case NANMEAN:
    return cn_nanmean(out, a, naxes, axes, keepdims, dtype, dst);
  case NANMIN:
    return cn_nanmin(out, a, naxes, axes, keepdims, dtype, dst);
  case NANMAX:
    return cn_nanmax(out, a, naxes, axes, keepdims, dtype, dst);
  case VAR:
    return cn_var(out, a, naxes, axes, keepdims, ddof, dtype, dst);
  case STD:
    return cn_std(out, a, naxes, axes, keepdims, ddof, dtype, dst);
  case NANVAR:
    return cn_nanvar(out, a, naxes, axes, keepdims, ddof, dtype, dst);
  case NANSTD:
    return cn_nanstd(out, a, naxes, axes, keepdims, ddof, dtype, dst);
  }
  return CN_ERR_INTERNAL;
}

// Groups a's C-order values by output element of a reduction over mask.
std::vector<std::vector<CL>> group(const std::vector<CL> &v,
                                   const std::vector<int64_t> &shape,
                                   uint64_t mask,
                                   std::vector<int64_t> &kshape) {
  const int nd = (int)shape.size();
  kshape = shape;
  for (int d = 0; d < nd; d++)
    if (mask >> d & 1)
      kshape[d] = 1;
  std::vector<std::vector<CL>> g(prod_of(kshape));
  std::vector<int64_t> idx(nd, 0);
  for (size_t i = 0; i < v.size(); i++) {
    int64_t o = 0;
    for (int d = 0; d < nd; d++)
      o = o * kshape[d] + ((mask >> d & 1) ? 0 : idx[d]);
    g[o].push_back(v[i]);
    for (int d = nd - 1; d >= 0; d--) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  return g;
}

uint64_t mask_of(const std::vector<int32_t> &axes, int nd, bool all) {
  if (all)
    return nd >= 64 ? ~0ull : (1ull << nd) - 1;
  uint64_t m = 0;
  for (auto ax : axes)
    m |= 1ull << (ax < 0 ? ax + nd : ax);
  return m;
}

// Runs op over axes (all when `all`) and compares with the oracle.
void check_reduce(Op op, cn_array a, const std::vector<int32_t> &axes, bool all,
                  bool keepdims, double ddof = 0,
                  cn_dtype dtype = CN_DTYPE_DEFAULT, LD tol_scale = 1) {
  const cn_dtype d = dtype_of(a);
  const std::vector<int64_t> shape = shape_of(a);
  const uint64_t mask = mask_of(axes, (int)shape.size(), all);
  INFO(op_name(op) << " dtype " << cn_dtype_name(d) << " axes mask " << mask
                   << " keepdims " << keepdims);
  std::vector<int64_t> kshape;
  auto groups = group(values(a), shape, mask, kshape);
  Arr r;
  CN_REQUIRE_OK(call(op, r.out(), a, all ? CN_ALL_AXES : (int32_t)axes.size(),
                     all ? nullptr : axes.data(), keepdims, dtype, nullptr,
                     ddof));
  std::vector<int64_t> want_shape;
  for (size_t i = 0; i < shape.size(); i++)
    if (!(mask >> i & 1) || keepdims)
      want_shape.push_back(kshape[i]);
  REQUIRE(shape_of(r) == want_shape);
  const cn_dtype rd = dtype == CN_DTYPE_DEFAULT ? result_dtype(op, d) : dtype;
  REQUIRE(dtype_of(r) == rd);
  auto got = values(r);
  REQUIRE(got.size() == groups.size());
  for (size_t o = 0; o < got.size(); o++) {
    INFO("output " << o);
    check_val(got[o], oracle(op, groups[o], d, ddof), rd, tol_scale);
  }
}

const Op kValueOps[] = {SUM, PROD,   MEAN,    MIN,     MAX,    ANY,
                        ALL, NANSUM, NANPROD, NANMEAN, NANMIN, NANMAX,
                        VAR, STD,    NANVAR,  NANSTD};

// ---- arg and scan oracles ----------------------------------------------

enum ArgOp { ARGMIN, ARGMAX, NANARGMIN, NANARGMAX };
cn_status call_arg(ArgOp op, cn_array *out, cn_array a, int32_t axis,
                   int32_t keepdims, cn_array dst) {
  switch (op) {
  case ARGMIN:
    return cn_argmin(out, a, axis, keepdims, dst);
  case ARGMAX:
    return cn_argmax(out, a, axis, keepdims, dst);
  case NANARGMIN:
    return cn_nanargmin(out, a, axis, keepdims, dst);
  case NANARGMAX:
    return cn_nanargmax(out, a, axis, keepdims, dst);
  }
  return CN_ERR_INTERNAL;
}

int64_t arg_oracle(ArgOp op, const std::vector<CL> &g) {
  int64_t best = -1;
  const bool skip = op == NANARGMIN || op == NANARGMAX;
  const bool mn = op == ARGMIN || op == NANARGMIN;
  for (size_t i = 0; i < g.size(); i++) {
    if (cnan(g[i])) {
      if (skip)
        continue;
      return (int64_t)i;
    }
    if (best < 0 || (mn ? lt(g[i], g[best]) : lt(g[best], g[i])))
      best = (int64_t)i;
  }
  return best;
}

void check_arg(ArgOp op, cn_array a, int32_t axis, bool keepdims) {
  const std::vector<int64_t> shape = shape_of(a);
  const int nd = (int)shape.size();
  INFO("arg op " << op << " dtype " << cn_dtype_name(dtype_of(a)) << " axis "
                 << axis << " keepdims " << keepdims);
  Arr r;
  CN_REQUIRE_OK(call_arg(op, r.out(), a, axis, keepdims, nullptr));
  REQUIRE(dtype_of(r) == CN_INT64);
  auto v = values(a);
  if (axis == CN_AXIS_NONE) {
    REQUIRE(shape_of(r) ==
            (keepdims ? std::vector<int64_t>(nd, 1) : std::vector<int64_t>{}));
    REQUIRE(values(r)[0].real() == (LD)arg_oracle(op, v));
    return;
  }
  const int ax = axis < 0 ? axis + nd : axis;
  std::vector<int64_t> kshape;
  auto groups = group(v, shape, 1ull << ax, kshape);
  std::vector<int64_t> want = kshape;
  if (!keepdims)
    want.erase(want.begin() + ax);
  REQUIRE(shape_of(r) == want);
  auto got = values(r);
  for (size_t o = 0; o < got.size(); o++)
    REQUIRE(got[o].real() == (LD)arg_oracle(op, groups[o]));
}

// Scan oracle: running sums/products along axis of the C-order values.
void check_scan(bool sum, cn_array a, int32_t axis,
                cn_dtype dtype = CN_DTYPE_DEFAULT) {
  const cn_dtype d = dtype_of(a);
  std::vector<int64_t> shape = shape_of(a);
  auto v = values(a);
  int ax = 0;
  if (axis == CN_AXIS_NONE)
    shape = {(int64_t)v.size()};
  else
    ax = axis < 0 ? axis + (int)shape.size() : axis;
  const cn_dtype rd = dtype == CN_DTYPE_DEFAULT ? wide(d) : dtype;
  INFO((sum ? "cumsum" : "cumprod") << " dtype " << cn_dtype_name(d) << " axis "
                                    << axis << " -> " << cn_dtype_name(rd));
  Arr r;
  CN_REQUIRE_OK(sum ? cn_cumsum(r.out(), a, axis, dtype, nullptr)
                    : cn_cumprod(r.out(), a, axis, dtype, nullptr));
  REQUIRE(shape_of(r) == shape);
  REQUIRE(dtype_of(r) == rd);
  auto got = values(r);
  int64_t inner = 1;
  for (size_t k = ax + 1; k < shape.size(); k++)
    inner *= shape[k];
  const int64_t n = shape.empty() ? 1 : shape[ax];
  const int64_t outer = n == 0 ? 0 : (int64_t)v.size() / (n * inner);
  // NumPy: inputs are cast to the result dtype first unless it is the
  // input's own or its wide accumulator; the running value is kept in the
  // wide accumulator and converted at each store.
  const bool direct = rd == d || rd == wide(d);
  const cn_dtype acc = direct ? wide(d) : wide(rd);
  const bool integral = !inexact(acc);
  for (int64_t o = 0; o < outer; o++) {
    for (int64_t j = 0; j < inner; j++) {
      uint64_t iacc = sum ? 0 : 1;
      CL facc = sum ? CL(0) : CL(1);
      for (int64_t i = 0; i < n; i++) {
        int64_t idx = (o * n + i) * inner + j;
        CL x = v[idx];
        unsigned char tmp[16];
        if (!direct) {
          put_elem(tmp, rd, x);
          x = get_elem(tmp, rd);
        }
        CL want;
        if (integral) {
          uint64_t xb =
              x.real() < 0 ? (uint64_t)(int64_t)x.real() : (uint64_t)x.real();
          iacc = sum ? iacc + xb : iacc * xb;
          want = wrap_int(iacc, acc);
        } else {
          facc = sum ? facc + x
                 : is_cplx(acc)
                     ? CL(facc.real() * x.real() - facc.imag() * x.imag(),
                          facc.real() * x.imag() + facc.imag() * x.real())
                     : CL(facc.real() * x.real(), 0);
          want = facc;
        }
        put_elem(tmp, rd, want);
        want = get_elem(tmp, rd);
        INFO("line element " << idx);
        check_val(got[idx], want, real_of(rd), 4);
      }
    }
  }
}

// Layout variants of a (3,4,5) array holding gen(d) logically.
std::vector<Arr> layouts(cn_dtype d) {
  std::vector<Arr> out;
  out.push_back(make(d, {3, 4, 5}, gen(d, 60, 1)));
  // transposed view of a (5,4,3) array
  {
    Arr base = make(d, {5, 4, 3}, gen(d, 60, 2));
    Arr t;
    CN_REQUIRE_OK(cn_transpose(t.out(), base));
    out.push_back(std::move(t));
  }
  // every other row, reversed last axis (negative stride)
  {
    Arr base = make(d, {6, 4, 5}, gen(d, 120, 3));
    Arr s, f;
    CN_REQUIRE_OK(cn_slice_axis(s.out(), base, 0, 0, 6, 2));
    CN_REQUIRE_OK(
        cn_slice_axis(f.out(), s, 2, CN_SLICE_NONE, CN_SLICE_NONE, -1));
    out.push_back(std::move(f));
  }
  // broadcast (stride 0) along axis 1
  {
    Arr base = make(d, {3, 1, 5}, gen(d, 15, 4));
    Arr b;
    int64_t shp[3] = {3, 4, 5};
    CN_REQUIRE_OK(cn_broadcast_to(b.out(), base, 3, shp));
    out.push_back(std::move(b));
  }
  return out;
}

const std::vector<std::vector<int32_t>> kAxisSets = {
    {0}, {1}, {2}, {-1}, {0, 2}, {2, 0}, {0, 1}, {1, 2}, {}, {0, 1, 2}};

} // namespace

// ---- value reductions ---------------------------------------------------

TEST_CASE("every reduction on every dtype, axis set and layout",
          "[reduce][oracle]") {
  for (cn_dtype d : kAll) {
    auto ls = layouts(d);
    for (size_t li = 0; li < ls.size(); li++) {
      INFO("layout " << li);
      for (Op op : kValueOps) {
        for (int keep = 0; keep < 2; keep++) {
          check_reduce(op, ls[li], {}, true, keep);
          for (auto &axes : kAxisSets)
            check_reduce(op, ls[li], axes, false, keep);
        }
      }
    }
  }
}

TEST_CASE("var and std with ddof", "[reduce][moments]") {
  for (cn_dtype d :
       {CN_INT32, CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128}) {
    Arr a = make(d, {4, 6}, gen(d, 24, 5));
    for (double ddof : {0.0, 1.0, 2.5, 6.0, 7.0, -1.0}) {
      for (Op op : {VAR, STD, NANVAR, NANSTD}) {
        check_reduce(op, a, {1}, false, false, ddof);
        check_reduce(op, a, {0}, false, true, ddof);
        check_reduce(op, a, {}, true, false, ddof);
      }
    }
  }
  // ddof == n gives inf (x/0) or NaN (0/0), as NumPy.
  Arr c = make(CN_FLOAT64, {2}, {CL(1), CL(2)});
  Arr r;
  CN_REQUIRE_OK(cn_var(r.out(), c, CN_ALL_AXES, nullptr, 0, 2.0,
                       CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(std::isinf(values(r)[0].real()));
  Arr k = make(CN_FLOAT64, {2}, {CL(3), CL(3)});
  CN_REQUIRE_OK(cn_std(r.out(), k, CN_ALL_AXES, nullptr, 0, 2.0,
                       CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(std::isnan(values(r)[0].real()));
}

TEST_CASE("accumulator dtypes and dtype overrides", "[reduce][dtype]") {
  // int8 sums wrap only when asked to accumulate in int8.
  Arr a = make(CN_INT8, {3}, {CL(100), CL(100), CL(100)});
  Arr r;
  CN_REQUIRE_OK(
      cn_sum(r.out(), a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(dtype_of(r) == CN_INT64);
  REQUIRE(values(r)[0].real() == 300);
  CN_REQUIRE_OK(cn_sum(r.out(), a, CN_ALL_AXES, nullptr, 0, CN_INT8, nullptr));
  REQUIRE(dtype_of(r) == CN_INT8);
  REQUIRE(values(r)[0].real() == (int8_t)300);
  CN_REQUIRE_OK(
      cn_sum(r.out(), a, CN_ALL_AXES, nullptr, 0, CN_FLOAT32, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(values(r)[0].real() == 300);
  CN_REQUIRE_OK(
      cn_prod(r.out(), a, CN_ALL_AXES, nullptr, 0, CN_INT16, nullptr));
  REQUIRE(values(r)[0].real() == (int16_t)1000000);
  // uint8 -> uint64; bool -> int64 counts; bool with dtype bool is "any".
  Arr u = make(CN_UINT8, {2}, {CL(255), CL(255)});
  CN_REQUIRE_OK(
      cn_sum(r.out(), u, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(dtype_of(r) == CN_UINT64);
  REQUIRE(values(r)[0].real() == 510);
  Arr b = make(CN_BOOL, {300}, std::vector<CL>(300, CL(1)));
  CN_REQUIRE_OK(
      cn_sum(r.out(), b, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(dtype_of(r) == CN_INT64);
  REQUIRE(values(r)[0].real() == 300);
  CN_REQUIRE_OK(cn_sum(r.out(), b, CN_ALL_AXES, nullptr, 0, CN_BOOL, nullptr));
  REQUIRE(dtype_of(r) == CN_BOOL);
  REQUIRE(values(r)[0].real() == 1);
  // float sums keep float32; a float64 accumulator is used when asked.
  Arr f = make(CN_FLOAT32, {3}, {CL(1e8), CL(1), CL(-1e8)});
  CN_REQUIRE_OK(
      cn_sum(r.out(), f, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  CN_REQUIRE_OK(
      cn_sum(r.out(), f, CN_ALL_AXES, nullptr, 0, CN_FLOAT64, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(values(r)[0].real() == 1);
  // float -> int sums cast each element first (truncation), as NumPy.
  Arr g = make(CN_FLOAT64, {2}, {CL(1.75), CL(2.75)});
  CN_REQUIRE_OK(cn_sum(r.out(), g, CN_ALL_AXES, nullptr, 0, CN_INT32, nullptr));
  REQUIRE(dtype_of(r) == CN_INT32);
  REQUIRE(values(r)[0].real() == 3);
  // mean: integers -> float64, explicit float32, complex keeps complex.
  Arr i = make(CN_INT64, {3}, {CL(1), CL(2), CL(4)});
  CN_REQUIRE_OK(
      cn_mean(r.out(), i, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  check_val(values(r)[0], CL(7.0L / 3), CN_FLOAT64);
  CN_REQUIRE_OK(
      cn_mean(r.out(), i, CN_ALL_AXES, nullptr, 0, CN_FLOAT32, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  check_val(values(r)[0], CL(7.0L / 3), CN_FLOAT32);
  // var of complex is real; of float32 with a float64 dtype is float64.
  Arr c = make(CN_COMPLEX64, {2}, {CL(0, 1), CL(0, -1)});
  CN_REQUIRE_OK(cn_var(r.out(), c, CN_ALL_AXES, nullptr, 0, 0, CN_DTYPE_DEFAULT,
                       nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(values(r)[0].real() == 1);
  CN_REQUIRE_OK(
      cn_std(r.out(), c, CN_ALL_AXES, nullptr, 0, 0, CN_COMPLEX128, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(values(r)[0].real() == 1);
  // min/max with a dtype give the extreme converted.
  CN_REQUIRE_OK(
      cn_max(r.out(), g, CN_ALL_AXES, nullptr, 0, CN_FLOAT32, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(values(r)[0].real() == 2.75);
  // any/all ignore dtype and give bool
  CN_REQUIRE_OK(cn_any(r.out(), g, CN_ALL_AXES, nullptr, 0, CN_INT32, nullptr));
  REQUIRE(dtype_of(r) == CN_BOOL);
}

TEST_CASE("empty reductions and zero-size axes", "[reduce][empty]") {
  for (cn_dtype d : kAll) {
    INFO(cn_dtype_name(d));
    Arr e = make(d, {0}, {});
    Arr r;
    CN_REQUIRE_OK(
        cn_sum(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(shape_of(r).empty());
    REQUIRE(values(r)[0] == CL(0));
    CN_REQUIRE_OK(cn_prod(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
                          nullptr));
    REQUIRE(values(r)[0] == CL(1));
    CN_REQUIRE_OK(
        cn_any(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(values(r)[0] == CL(0));
    CN_REQUIRE_OK(
        cn_all(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(values(r)[0] == CL(1));
    CN_REQUIRE_OK(cn_mean(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
                          nullptr));
    REQUIRE(std::isnan(values(r)[0].real()));
    CN_REQUIRE_OK(cn_var(r.out(), e, CN_ALL_AXES, nullptr, 0, 0,
                         CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(std::isnan(values(r)[0].real()));
    r.out();
    CN_REQUIRE_ERR(
        cn_min(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr),
        CN_ERR_VALUE,
        "zero-size array to reduction operation minimum which has "
        "no identity");
    REQUIRE(r.h == nullptr);
    CN_REQUIRE_ERR(cn_nanmax(r.out(), e, CN_ALL_AXES, nullptr, 0,
                             CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE, "reduction operation maximum");
    CN_REQUIRE_ERR(cn_argmin(r.out(), e, CN_AXIS_NONE, 0, nullptr),
                   CN_ERR_VALUE, "attempt to get argmin of an empty sequence");
    CN_REQUIRE_ERR(cn_nanargmax(r.out(), e, 0, 0, nullptr), CN_ERR_VALUE,
                   "empty sequence");
    REQUIRE(r.h == nullptr);
    // every message names the function and the reduction as NumPy does
    CN_REQUIRE_ERR(
        cn_max(r.out(), e, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr),
        CN_ERR_VALUE,
        "cn_max: zero-size array to reduction operation maximum which has "
        "no identity");
    CN_REQUIRE_ERR(cn_nanmin(r.out(), e, CN_ALL_AXES, nullptr, 0,
                             CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE,
                   "cn_nanmin: zero-size array to reduction operation minimum "
                   "which has no identity");
    CN_REQUIRE_ERR(cn_argmax(r.out(), e, 0, 0, nullptr), CN_ERR_VALUE,
                   "cn_argmax: attempt to get argmax of an empty sequence");
    CN_REQUIRE_ERR(cn_nanargmin(r.out(), e, CN_AXIS_NONE, 0, nullptr),
                   CN_ERR_VALUE,
                   "cn_nanargmin: attempt to get nanargmin of an empty "
                   "sequence");
    REQUIRE(r.h == nullptr);
    CN_REQUIRE_OK(cn_cumsum(r.out(), e, 0, CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(shape_of(r) == std::vector<int64_t>{0});
  }
  // (3,0): reducing the empty axis gives identities; the other axis gives
  // an empty result.
  Arr z = make(CN_FLOAT64, {3, 0}, {});
  int32_t ax0 = 0, ax1 = 1;
  Arr r;
  CN_REQUIRE_OK(cn_sum(r.out(), z, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(shape_of(r) == std::vector<int64_t>{3});
  REQUIRE(values(r) == std::vector<CL>(3, CL(0)));
  CN_REQUIRE_OK(cn_prod(r.out(), z, 1, &ax1, 1, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(shape_of(r) == (std::vector<int64_t>{3, 1}));
  REQUIRE(values(r) == std::vector<CL>(3, CL(1)));
  CN_REQUIRE_OK(cn_max(r.out(), z, 1, &ax0, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(shape_of(r) == std::vector<int64_t>{0});
  CN_REQUIRE_OK(cn_argmax(r.out(), z, 0, 0, nullptr));
  REQUIRE(shape_of(r) == std::vector<int64_t>{0});
  CN_REQUIRE_ERR(cn_max(r.out(), z, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr),
                 CN_ERR_VALUE, "zero-size array");
  CN_REQUIRE_ERR(cn_argmax(r.out(), z, 1, 0, nullptr), CN_ERR_VALUE,
                 "empty sequence");
  CN_REQUIRE_OK(cn_mean(r.out(), z, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(shape_of(r) == std::vector<int64_t>{3});
  REQUIRE(std::isnan(values(r)[2].real()));
  CN_REQUIRE_OK(cn_cumprod(r.out(), z, 1, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(shape_of(r) == (std::vector<int64_t>{3, 0}));
}

TEST_CASE("0-d inputs", "[reduce][0d]") {
  Arr s;
  CN_REQUIRE_OK(cn_from_scalar(s.out(), cn_scalar_float(2.5), CN_FLOAT64));
  Arr r;
  for (Op op : kValueOps) {
    INFO(op_name(op));
    CN_REQUIRE_OK(call(op, r.out(), s, CN_ALL_AXES, nullptr, 0,
                       CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(shape_of(r).empty());
    check_val(values(r)[0], oracle(op, {CL(2.5)}, CN_FLOAT64, 0),
              real_of(result_dtype(op, CN_FLOAT64)));
    CN_REQUIRE_OK(
        call(op, r.out(), s, 0, nullptr, 1, CN_DTYPE_DEFAULT, nullptr));
    REQUIRE(shape_of(r).empty());
  }
  CN_REQUIRE_OK(cn_argmax(r.out(), s, CN_AXIS_NONE, 0, nullptr));
  REQUIRE(shape_of(r).empty());
  REQUIRE(values(r)[0] == CL(0));
  CN_REQUIRE_OK(cn_cumsum(r.out(), s, CN_AXIS_NONE, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(shape_of(r) == std::vector<int64_t>{1});
  REQUIRE(values(r)[0] == CL(2.5));
  int32_t ax = 0;
  CN_REQUIRE_ERR(cn_sum(r.out(), s, 1, &ax, 0, CN_DTYPE_DEFAULT, nullptr),
                 CN_ERR_AXIS, "out of bounds");
  CN_REQUIRE_ERR(cn_argmax(r.out(), s, 0, 0, nullptr), CN_ERR_AXIS,
                 "out of bounds");
  CN_REQUIRE_ERR(cn_cumsum(r.out(), s, 0, CN_DTYPE_DEFAULT, nullptr),
                 CN_ERR_AXIS, "out of bounds");
}

TEST_CASE("NaN, inf and signed zero", "[reduce][nan]") {
  const LD nan = std::numeric_limits<LD>::quiet_NaN();
  const LD inf = std::numeric_limits<LD>::infinity();
  for (cn_dtype d : {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128}) {
    INFO(cn_dtype_name(d));
    // rows: no NaN; one NaN; all NaN; infinities; NaN only in imag
    std::vector<CL> v = {CL(1),    CL(-2),     CL(3),   CL(0.5),  CL(-0.0),
                         CL(1),    CL(nan),    CL(-5),  CL(7),    CL(2),
                         CL(nan),  CL(nan),    CL(nan), CL(nan),  CL(nan),
                         CL(inf),  CL(-inf),   CL(2),   CL(-inf), CL(inf),
                         CL(4, 0), CL(3, nan), CL(1),   CL(1, 1), CL(1, -1)};
    if (!is_cplx(d))
      v[21] = CL(3);
    Arr a = make(d, {5, 5}, v);
    for (Op op : kValueOps) {
      check_reduce(op, a, {1}, false, false);
      check_reduce(op, a, {0}, false, false);
      check_reduce(op, a, {}, true, false);
    }
    for (ArgOp op : {ARGMIN, ARGMAX}) {
      check_arg(op, a, 1, false);
      check_arg(op, a, 0, true);
      check_arg(op, a, CN_AXIS_NONE, false);
    }
    // nanarg on rows without an all-NaN slice
    Arr ok;
    CN_REQUIRE_OK(cn_slice_axis(ok.out(), a, 0, 0, 2, 1));
    for (ArgOp op : {NANARGMIN, NANARGMAX}) {
      check_arg(op, ok, 1, false);
      check_arg(op, ok, CN_AXIS_NONE, true);
      check_arg(op, a, CN_AXIS_NONE, false);
      Arr r;
      CN_REQUIRE_ERR(call_arg(op, r.out(), a, 1, 0, nullptr), CN_ERR_VALUE,
                     "All-NaN slice encountered");
      REQUIRE(r.h == nullptr);
      // dst is left untouched on that failure
      Arr dst = make(CN_INT64, {5}, std::vector<CL>(5, CL(-7)));
      CN_REQUIRE_ERR(call_arg(op, r.out(), a, 1, 0, dst), CN_ERR_VALUE,
                     "All-NaN");
      REQUIRE(values(dst) == std::vector<CL>(5, CL(-7)));
    }
  }
  // NaN found late in a long contiguous array (vectorised paths)
  for (cn_dtype d : {CN_FLOAT32, CN_FLOAT64}) {
    std::vector<CL> v(5000);
    for (int i = 0; i < 5000; i++)
      v[i] = CL((LD)((i * 7919) % 4999) - 2500);
    v[3333] = CL(nan);
    v[4444] = CL(nan);
    Arr a = make(d, {5000}, v);
    for (Op op : {MIN, MAX, NANMIN, NANMAX, SUM, NANSUM})
      check_reduce(op, a, {}, true, false);
    for (ArgOp op : {ARGMIN, ARGMAX, NANARGMIN, NANARGMAX})
      check_arg(op, a, 0, false);
  }
}

TEST_CASE("argmin/argmax on every dtype, axis and layout", "[reduce][arg]") {
  for (cn_dtype d : kAll) {
    auto ls = layouts(d);
    for (auto &a : ls) {
      for (ArgOp op : {ARGMIN, ARGMAX, NANARGMIN, NANARGMAX}) {
        for (int keep = 0; keep < 2; keep++) {
          check_arg(op, a, CN_AXIS_NONE, keep);
          for (int32_t ax : {0, 1, 2, -1, -3})
            check_arg(op, a, ax, keep);
        }
      }
    }
  }
  // ties give the first index; long arrays use the blocked search
  for (cn_dtype d : kAll) {
    std::vector<CL> v(3000);
    for (int i = 0; i < 3000; i++)
      v[i] = gen(d, 1, (i * 31) % 17)[0];
    Arr a = make(d, {3000}, v);
    for (ArgOp op : {ARGMIN, ARGMAX})
      check_arg(op, a, 0, false);
  }
}

TEST_CASE("cumsum and cumprod", "[reduce][scan]") {
  for (cn_dtype d : kAll) {
    auto ls = layouts(d);
    for (auto &a : ls) {
      for (bool sum : {true, false}) {
        check_scan(sum, a, CN_AXIS_NONE);
        for (int32_t ax : {0, 1, 2, -1})
          check_scan(sum, a, ax);
      }
    }
  }
  // dtype overrides: same dtype (wrapping), float accumulator, bool
  Arr a = make(CN_INT8, {4}, {CL(100), CL(100), CL(-50), CL(3)});
  check_scan(true, a, 0, CN_INT8);
  check_scan(true, a, 0, CN_FLOAT64);
  check_scan(false, a, 0, CN_INT16);
  Arr b = make(CN_BOOL, {4}, {CL(0), CL(1), CL(0), CL(1)});
  check_scan(true, b, 0, CN_BOOL);
  check_scan(true, b, 0);
  Arr f =
      make(CN_FLOAT64, {3, 2}, {CL(1.5), CL(2), CL(3), CL(4), CL(5), CL(6)});
  check_scan(true, f, 1, CN_FLOAT32);
  check_scan(false, f, 0, CN_COMPLEX64);
}

TEST_CASE("dst receives the result", "[reduce][dst]") {
  Arr a = make(CN_FLOAT64, {3, 4}, gen(CN_FLOAT64, 12, 7));
  int32_t ax1 = 1;
  // exact dtype and shape: written in place, *out is a new reference to dst
  Arr dst;
  CN_REQUIRE_OK(cn_zeros(dst.out(), 1, std::vector<int64_t>{3}.data(),
                         CN_FLOAT64, CN_ORDER_C));
  Arr r;
  CN_REQUIRE_OK(cn_sum(r.out(), a, 1, &ax1, 0, CN_DTYPE_DEFAULT, dst));
  REQUIRE(r.h == dst.h);
  int64_t rc = 0;
  CN_REQUIRE_OK(cn_array_refcount(&rc, dst));
  REQUIRE(rc == 2);
  Arr want;
  CN_REQUIRE_OK(cn_sum(want.out(), a, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(values(dst) == values(want));
  // keepdims dst, strided (every other element of a longer array)
  Arr big, strided;
  CN_REQUIRE_OK(cn_zeros(big.out(), 2, std::vector<int64_t>{6, 1}.data(),
                         CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_OK(cn_slice_axis(strided.out(), big, 0, 0, 6, 2));
  CN_REQUIRE_OK(cn_max(r.out(), a, 1, &ax1, 1, CN_DTYPE_DEFAULT, strided));
  Arr wmax;
  CN_REQUIRE_OK(cn_max(wmax.out(), a, 1, &ax1, 1, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(values(strided) == values(wmax));
  auto bv = values(big);
  REQUIRE(bv[1] == CL(0));
  REQUIRE(bv[3] == CL(0));
  // another dtype of the same kind: cast on the way out
  Arr d32;
  CN_REQUIRE_OK(cn_zeros(d32.out(), 1, std::vector<int64_t>{3}.data(),
                         CN_FLOAT32, CN_ORDER_C));
  CN_REQUIRE_OK(cn_mean(r.out(), a, 1, &ax1, 0, CN_DTYPE_DEFAULT, d32));
  REQUIRE(r.h == d32.h);
  auto mv = values(d32);
  Arr wmean;
  CN_REQUIRE_OK(cn_mean(wmean.out(), a, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr));
  auto wm = values(wmean);
  for (int i = 0; i < 3; i++)
    check_val(mv[i], wm[i], CN_FLOAT32);
  // std into dst, argmax into dst, cumsum into dst
  CN_REQUIRE_OK(cn_std(r.out(), a, 1, &ax1, 0, 1.0, CN_DTYPE_DEFAULT, dst));
  Arr wstd;
  CN_REQUIRE_OK(
      cn_std(wstd.out(), a, 1, &ax1, 0, 1.0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(values(dst) == values(wstd));
  Arr di;
  CN_REQUIRE_OK(cn_zeros(di.out(), 1, std::vector<int64_t>{3}.data(), CN_INT64,
                         CN_ORDER_C));
  CN_REQUIRE_OK(cn_argmax(r.out(), a, 1, 0, di));
  Arr wam;
  CN_REQUIRE_OK(cn_argmax(wam.out(), a, 1, 0, nullptr));
  REQUIRE(values(di) == values(wam));
  Arr dc;
  CN_REQUIRE_OK(cn_zeros(dc.out(), 1, std::vector<int64_t>{12}.data(),
                         CN_FLOAT32, CN_ORDER_C));
  CN_REQUIRE_OK(cn_cumsum(r.out(), a, CN_AXIS_NONE, CN_DTYPE_DEFAULT, dc));
  REQUIRE(r.h == dc.h);
  Arr wcs;
  CN_REQUIRE_OK(
      cn_cumsum(wcs.out(), a, CN_AXIS_NONE, CN_DTYPE_DEFAULT, nullptr));
  auto cv = values(dc), cw = values(wcs);
  for (int i = 0; i < 12; i++)
    check_val(cv[i], cw[i], CN_FLOAT32);
  // dst sharing the input's buffer: computed aside, then written
  Arr self;
  CN_REQUIRE_OK(cn_copy(self.out(), a, CN_ORDER_C));
  Arr col;
  CN_REQUIRE_OK(cn_index_axis(col.out(), self, 1, 0));
  Arr before = make(CN_FLOAT64, {3, 4}, values(self));
  CN_REQUIRE_OK(cn_sum(r.out(), self, 1, &ax1, 0, CN_DTYPE_DEFAULT, col));
  Arr wsum;
  CN_REQUIRE_OK(
      cn_sum(wsum.out(), before, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(values(col) == values(wsum));
}

TEST_CASE("summation accuracy", "[reduce][accuracy]") {
  const int64_t n = 10000000;
  Arr ones;
  CN_REQUIRE_OK(cn_ones(ones.out(), 1, &n, CN_FLOAT32, CN_ORDER_C));
  Arr r;
  CN_REQUIRE_OK(cn_sum(r.out(), ones, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
                       nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT32);
  REQUIRE(values(r)[0].real() == 1e7L);
  // random float32 values: relative error <= 1e-5 against a float64 sum
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  std::vector<float> v(n);
  LD ref = 0;
  for (auto &x : v) {
    x = U(rng);
    ref += x;
  }
  Arr a;
  CN_REQUIRE_OK(
      cn_from_host(a.out(), v.data(), 0, n * 4, 1, &n, nullptr, CN_FLOAT32));
  CN_REQUIRE_OK(
      cn_sum(r.out(), a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  LD got = values(r)[0].real();
  REQUIRE(std::fabs(got - ref) / ref <= 1e-5L);
  CN_REQUIRE_OK(
      cn_mean(r.out(), a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr));
  REQUIRE(std::fabs(values(r)[0].real() - ref / n) / (ref / n) <= 1e-5L);
  // the same values as (n/2, 2): sums over the outer axis (row mode) and
  // the inner axis are as accurate
  int64_t shp[2] = {n / 2, 2};
  Arr m;
  CN_REQUIRE_OK(
      cn_from_host(m.out(), v.data(), 0, n * 4, 2, shp, nullptr, CN_FLOAT32));
  int32_t ax0 = 0;
  CN_REQUIRE_OK(cn_sum(r.out(), m, 1, &ax0, 0, CN_DTYPE_DEFAULT, nullptr));
  auto cols = values(r);
  LD c0 = 0, c1 = 0;
  for (int64_t i = 0; i < n; i += 2) {
    c0 += v[i];
    c1 += v[i + 1];
  }
  REQUIRE(std::fabs(cols[0].real() - c0) / c0 <= 1e-5L);
  REQUIRE(std::fabs(cols[1].real() - c1) / c1 <= 1e-5L);
  // float32 variance of values with a large offset (two-pass accuracy)
  std::vector<float> w(1000000);
  LD mean = 0;
  for (auto &x : w) {
    x = 1000.0f + U(rng);
    mean += x;
  }
  mean /= w.size();
  LD var = 0;
  for (auto x : w)
    var += (x - mean) * (x - mean);
  var /= w.size();
  int64_t wn = (int64_t)w.size();
  Arr b;
  CN_REQUIRE_OK(
      cn_from_host(b.out(), w.data(), 0, wn * 4, 1, &wn, nullptr, CN_FLOAT32));
  CN_REQUIRE_OK(cn_var(r.out(), b, CN_ALL_AXES, nullptr, 0, 0, CN_DTYPE_DEFAULT,
                       nullptr));
  REQUIRE(std::fabs(values(r)[0].real() - var) / var <= 1e-3L);
}

TEST_CASE("large inputs take the parallel paths", "[reduce][parallel]") {
  // sizes above the threading threshold, for every strategy: one output
  // (split), many outputs (per output), outer axis (rows), and scans.
  for (cn_dtype d :
       {CN_FLOAT64, CN_FLOAT32, CN_INT32, CN_COMPLEX128, CN_UINT8}) {
    INFO(cn_dtype_name(d));
    Arr a = make(d, {400, 700}, gen(d, 280000, 9));
    for (Op op : {SUM, MEAN, MIN, MAX, NANMAX, VAR, NANSTD, ANY, PROD}) {
      check_reduce(op, a, {}, true, false, 0, CN_DTYPE_DEFAULT, 64);
      check_reduce(op, a, {0}, false, false, 0, CN_DTYPE_DEFAULT, 64);
      check_reduce(op, a, {1}, false, true, 0, CN_DTYPE_DEFAULT, 64);
    }
    for (ArgOp op : {ARGMIN, ARGMAX}) {
      check_arg(op, a, CN_AXIS_NONE, false);
      check_arg(op, a, 0, false);
      check_arg(op, a, 1, false);
    }
    check_scan(true, a, CN_AXIS_NONE);
    check_scan(true, a, 0);
    check_scan(true, a, 1);
  }
  // wide rows: a row needs several tiles of states (outer-axis reductions)
  Arr w = make(CN_FLOAT64, {3, 600000}, gen(CN_FLOAT64, 1800000, 3));
  for (Op op : {SUM, MAX, VAR, NANMIN})
    check_reduce(op, w, {0}, false, false);
  check_arg(ARGMAX, w, 0, false);
  check_scan(true, w, 0);
  // a reduced block that does not coalesce (every other column): the
  // pairwise tree runs over two reduced axes, split between threads
  Arr big = make(CN_FLOAT32, {400, 1400}, gen(CN_FLOAT32, 560000, 5));
  Arr half;
  CN_REQUIRE_OK(cn_slice_axis(half.out(), big, 1, 0, 1400, 2));
  for (Op op : {SUM, MEAN, STD, MIN, ANY})
    check_reduce(op, half, {}, true, false, 0, CN_DTYPE_DEFAULT, 64);
  // a long 1-d cumprod of +-1 (exact) through the two-pass scan
  std::vector<CL> v(300000);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = CL((i * 7) % 13 == 0 ? -1 : 1);
  Arr p = make(CN_FLOAT64, {300000}, v);
  check_scan(false, p, 0);
  Arr q = make(CN_INT16, {300000}, v);
  check_scan(false, q, 0);
}

// ---- errors ---------------------------------------------------------------

TEST_CASE("reduction argument errors", "[reduce][errors]") {
  Arr a = make(CN_FLOAT64, {2, 3}, gen(CN_FLOAT64, 6, 1));
  const auto before = values(a);
  cn_array sentinel = (cn_array)(uintptr_t)0x1;
  cn_array out = sentinel;
  int32_t bad[1] = {2}, neg[1] = {-3}, rep[2] = {1, -1};
  for (Op op : kValueOps) {
    INFO(op_name(op));
    out = sentinel;
    CN_REQUIRE_ERR(call(op, &out, a, 1, bad, 0, CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_AXIS, "axis 2 is out of bounds");
    CN_REQUIRE_ERR(call(op, &out, a, 1, neg, 0, CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_AXIS, "axis -3");
    CN_REQUIRE_ERR(call(op, &out, a, 2, rep, 0, CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE, "repeated axis");
    CN_REQUIRE_ERR(call(op, &out, a, 1, nullptr, 0, CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE, "naxes");
    CN_REQUIRE_ERR(call(op, &out, a, -5, nullptr, 0, CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE, "naxes");
    CN_REQUIRE_ERR(call(op, &out, nullptr, CN_ALL_AXES, nullptr, 0,
                        CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE,
                   std::string("cn_") + op_name(op) + ": argument 'a' is NULL");
    CN_REQUIRE_ERR(call(op, nullptr, a, CN_ALL_AXES, nullptr, 0,
                        CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE, "output pointer is NULL");
    CN_REQUIRE_ERR(
        call(op, &out, a, CN_ALL_AXES, nullptr, 0, (cn_dtype)12345, nullptr),
        CN_ERR_TYPE, "argument 'dtype'");
    // dst: wrong shape, read-only, wrong kind, released
    Arr d2;
    CN_REQUIRE_OK(cn_zeros(d2.out(), 1, std::vector<int64_t>{2}.data(),
                           CN_FLOAT64, CN_ORDER_C));
    int32_t ax0 = 0;
    CN_REQUIRE_ERR(call(op, &out, a, 1, &ax0, 0, CN_DTYPE_DEFAULT, d2),
                   CN_ERR_SHAPE, "argument 'dst' has shape (2,)");
    Arr d3, ro;
    CN_REQUIRE_OK(cn_zeros(d3.out(), 1, std::vector<int64_t>{3}.data(),
                           CN_FLOAT64, CN_ORDER_C));
    CN_REQUIRE_OK(cn_readonly_view(ro.out(), d3));
    CN_REQUIRE_ERR(call(op, &out, a, 1, &ax0, 0, CN_DTYPE_DEFAULT, ro),
                   CN_ERR_VALUE, "'dst' is read-only");
    CN_REQUIRE_ERR(call(op, &out, a, 1, &ax0, 1, CN_DTYPE_DEFAULT, d3),
                   CN_ERR_SHAPE, "the result has shape (1,3)");
    if (op != ANY && op != ALL) {
      Arr di;
      CN_REQUIRE_OK(cn_zeros(di.out(), 1, std::vector<int64_t>{3}.data(),
                             CN_INT8, CN_ORDER_C));
      CN_REQUIRE_ERR(call(op, &out, a, 1, &ax0, 0, CN_DTYPE_DEFAULT, di),
                     CN_ERR_TYPE, "same_kind");
      REQUIRE(values(di) == std::vector<CL>(3, CL(0)));
    }
    Arr gone;
    CN_REQUIRE_OK(cn_zeros(gone.out(), 1, std::vector<int64_t>{3}.data(),
                           CN_FLOAT64, CN_ORDER_C));
    cn_array g = gone.h;
    gone.h = nullptr;
    cn_array_release(g);
    CN_REQUIRE_ERR(call(op, &out, a, 1, &ax0, 0, CN_DTYPE_DEFAULT, g),
                   CN_ERR_VALUE, "argument 'dst' is a released");
    CN_REQUIRE_ERR(
        call(op, &out, g, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr),
        CN_ERR_VALUE, "argument 'a' is a released");
    REQUIRE(out == sentinel);
    REQUIRE(values(a) == before);
    REQUIRE(values(d3) == std::vector<CL>(3, CL(0)));
  }
  // mean/var need an inexact dtype; ddof must be finite
  Arr i = make(CN_INT32, {3}, {CL(1), CL(2), CL(3)});
  CN_REQUIRE_ERR(cn_mean(&out, i, CN_ALL_AXES, nullptr, 0, CN_INT32, nullptr),
                 CN_ERR_TYPE, "float or complex");
  CN_REQUIRE_ERR(cn_std(&out, i, CN_ALL_AXES, nullptr, 0, 0, CN_INT64, nullptr),
                 CN_ERR_TYPE, "float or complex");
  CN_REQUIRE_ERR(
      cn_var(&out, a, CN_ALL_AXES, nullptr, 0, NAN, CN_DTYPE_DEFAULT, nullptr),
      CN_ERR_VALUE, "argument 'ddof' is nan");
  REQUIRE(out == sentinel);
}

TEST_CASE("arg and scan argument errors", "[reduce][errors]") {
  Arr a = make(CN_FLOAT64, {2, 3}, gen(CN_FLOAT64, 6, 1));
  const auto before = values(a);
  cn_array sentinel = (cn_array)(uintptr_t)0x1;
  cn_array out = sentinel;
  for (ArgOp op : {ARGMIN, ARGMAX, NANARGMIN, NANARGMAX}) {
    CN_REQUIRE_ERR(call_arg(op, &out, a, 2, 0, nullptr), CN_ERR_AXIS,
                   "axis 2 is out of bounds");
    CN_REQUIRE_ERR(call_arg(op, &out, a, -3, 0, nullptr), CN_ERR_AXIS,
                   "out of bounds");
    CN_REQUIRE_ERR(call_arg(op, &out, nullptr, 0, 0, nullptr), CN_ERR_VALUE,
                   "argument 'a' is NULL");
    CN_REQUIRE_ERR(call_arg(op, nullptr, a, 0, 0, nullptr), CN_ERR_VALUE,
                   "output pointer");
    Arr df, d2;
    CN_REQUIRE_OK(cn_zeros(df.out(), 1, std::vector<int64_t>{3}.data(), CN_BOOL,
                           CN_ORDER_C));
    CN_REQUIRE_ERR(call_arg(op, &out, a, 0, 0, df), CN_ERR_TYPE, "same_kind");
    CN_REQUIRE_OK(cn_zeros(d2.out(), 1, std::vector<int64_t>{2}.data(),
                           CN_INT64, CN_ORDER_C));
    CN_REQUIRE_ERR(call_arg(op, &out, a, 0, 0, d2), CN_ERR_SHAPE,
                   "argument 'dst' has shape (2,)");
    CN_REQUIRE_ERR(call_arg(op, &out, a, CN_AXIS_NONE, 1, d2), CN_ERR_SHAPE,
                   "the result has shape (1,1)");
    REQUIRE(values(d2) == std::vector<CL>(2, CL(0)));
  }
  for (bool sum : {true, false}) {
    auto scan = [&](cn_array *o, cn_array x, int32_t ax, cn_dtype dt,
                    cn_array dst) {
      return sum ? cn_cumsum(o, x, ax, dt, dst) : cn_cumprod(o, x, ax, dt, dst);
    };
    const char *fn = sum ? "cn_cumsum" : "cn_cumprod";
    CN_REQUIRE_ERR(scan(&out, a, 2, CN_DTYPE_DEFAULT, nullptr), CN_ERR_AXIS,
                   std::string(fn) + ": axis 2 is out of bounds");
    CN_REQUIRE_ERR(scan(&out, nullptr, 0, CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_VALUE, "argument 'a' is NULL");
    CN_REQUIRE_ERR(scan(&out, a, 0, (cn_dtype)7, nullptr), CN_ERR_TYPE,
                   "argument 'dtype'");
    Arr d6, ro;
    CN_REQUIRE_OK(cn_zeros(d6.out(), 1, std::vector<int64_t>{6}.data(),
                           CN_FLOAT64, CN_ORDER_C));
    CN_REQUIRE_ERR(scan(&out, a, 0, CN_DTYPE_DEFAULT, d6), CN_ERR_SHAPE,
                   "the result has shape (2,3)");
    CN_REQUIRE_OK(cn_readonly_view(ro.out(), d6));
    CN_REQUIRE_ERR(scan(&out, a, CN_AXIS_NONE, CN_DTYPE_DEFAULT, ro),
                   CN_ERR_VALUE, "read-only");
    Arr di;
    CN_REQUIRE_OK(cn_zeros(di.out(), 1, std::vector<int64_t>{6}.data(),
                           CN_INT64, CN_ORDER_C));
    CN_REQUIRE_ERR(scan(&out, a, CN_AXIS_NONE, CN_DTYPE_DEFAULT, di),
                   CN_ERR_TYPE, "same_kind");
    REQUIRE(values(d6) == std::vector<CL>(6, CL(0)));
  }
  REQUIRE(out == sentinel);
  REQUIRE(values(a) == before);
}

TEST_CASE("integer sums and scans wrap around as NumPy's", "[reduce]") {
  Arr a = from_vec(std::vector<int64_t>{INT64_MAX, 1, 1}, {3}, CN_INT64);
  Arr c, s;
  CN_REQUIRE_OK(cn_cumsum(c.out(), a, CN_AXIS_NONE, CN_DTYPE_DEFAULT,
                          nullptr));
  REQUIRE(to_vec<int64_t>(c) ==
          std::vector<int64_t>{INT64_MAX, INT64_MIN, INT64_MIN + 1});
  CN_REQUIRE_OK(cn_sum(s.out(), a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
                       nullptr));
  REQUIRE(to_vec<int64_t>(s)[0] == INT64_MIN + 1);
  Arr p;
  CN_REQUIRE_OK(cn_prod(p.out(), a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
                        nullptr));
  REQUIRE(to_vec<int64_t>(p)[0] == INT64_MAX);
  Arr cp;
  Arr b = from_vec(std::vector<int64_t>{INT64_MAX, 2}, {2}, CN_INT64);
  CN_REQUIRE_OK(cn_cumprod(cp.out(), b, CN_AXIS_NONE, CN_DTYPE_DEFAULT,
                           nullptr));
  REQUIRE(to_vec<int64_t>(cp)[1] == -2);
}

// An empty input costs nothing in the product of its other extents: each
// of these took seconds to minutes when the reduced (or kept) empty extent
// still let the drivers loop over the 2**31 others.
TEST_CASE("empty inputs with huge other extents return at once",
          "[reduce][empty]") {
  const int64_t big = (int64_t)1 << 31;
  const auto t0 = std::chrono::steady_clock::now();
  for (cn_dtype d : {CN_FLOAT64, CN_INT32, CN_BOOL, CN_COMPLEX64}) {
    INFO(cn_dtype_name(d));
    for (const auto &shape : {std::vector<int64_t>{big, 0, 0},
                              std::vector<int64_t>{0, big},
                              std::vector<int64_t>{big, 0}}) {
      Arr z;
      CN_REQUIRE_OK(cn_zeros(z.out(), (int32_t)shape.size(), shape.data(), d,
                             CN_ORDER_C));
      Arr r;
      // Every axis: a 0-d identity (or NumPy's error).
      CN_REQUIRE_OK(cn_sum(r.out(), z, CN_ALL_AXES, nullptr, 0,
                           CN_DTYPE_DEFAULT, nullptr));
      REQUIRE(values(r)[0] == CL(0));
      CN_REQUIRE_OK(cn_prod(r.out(), z, CN_ALL_AXES, nullptr, 0,
                            CN_DTYPE_DEFAULT, nullptr));
      REQUIRE(values(r)[0] == CL(1));
      CN_REQUIRE_OK(cn_sum(r.out(), z, CN_ALL_AXES, nullptr, 0, CN_FLOAT32,
                           nullptr));
      REQUIRE(values(r)[0] == CL(0));
      CN_REQUIRE_OK(cn_all(r.out(), z, CN_ALL_AXES, nullptr, 0,
                           CN_DTYPE_DEFAULT, nullptr));
      REQUIRE(values(r)[0] == CL(1));
      CN_REQUIRE_OK(cn_mean(r.out(), z, CN_ALL_AXES, nullptr, 0,
                            CN_DTYPE_DEFAULT, nullptr));
      REQUIRE(std::isnan(values(r)[0].real()));
      CN_REQUIRE_OK(cn_nanvar(r.out(), z, CN_ALL_AXES, nullptr, 0, 0,
                              CN_DTYPE_DEFAULT, nullptr));
      REQUIRE(std::isnan(values(r)[0].real()));
      CN_REQUIRE_ERR(cn_max(r.out(), z, CN_ALL_AXES, nullptr, 0,
                            CN_DTYPE_DEFAULT, nullptr),
                     CN_ERR_VALUE,
                     "cn_max: zero-size array to reduction operation maximum "
                     "which has no identity");
      CN_REQUIRE_ERR(cn_argmin(r.out(), z, CN_AXIS_NONE, 0, nullptr),
                     CN_ERR_VALUE, "attempt to get argmin of an empty sequence");
      // Each axis alone where the result stays small (empty or 0 long),
      // and every scan.
      for (int32_t ax = 0; ax < (int32_t)shape.size(); ax++) {
        std::vector<int64_t> want;
        bool small = false;
        for (int32_t k = 0; k < (int32_t)shape.size(); k++) {
          if (k != ax) {
            want.push_back(shape[k]);
            small = small || shape[k] == 0;
          }
        }
        if (!small)
          continue; // a result of 2**31 identities: costs its own size
        CN_REQUIRE_OK(
            cn_sum(r.out(), z, 1, &ax, 0, CN_DTYPE_DEFAULT, nullptr));
        REQUIRE(shape_of(r) == want);
        CN_REQUIRE_OK(cn_std(r.out(), z, 1, &ax, 0, 1, CN_DTYPE_DEFAULT,
                             nullptr));
        REQUIRE(shape_of(r) == want);
        if (shape[ax] == 0) { // NumPy: no identity along an empty axis
          CN_REQUIRE_ERR(
              cn_nanmin(r.out(), z, 1, &ax, 0, CN_DTYPE_DEFAULT, nullptr),
              CN_ERR_VALUE, "no identity");
          CN_REQUIRE_ERR(cn_argmax(r.out(), z, ax, 0, nullptr), CN_ERR_VALUE,
                         "empty sequence");
          continue;
        }
        CN_REQUIRE_OK(
            cn_nanmin(r.out(), z, 1, &ax, 0, CN_DTYPE_DEFAULT, nullptr));
        REQUIRE(shape_of(r) == want);
        CN_REQUIRE_OK(cn_argmax(r.out(), z, ax, 0, nullptr));
        REQUIRE(shape_of(r) == want);
      }
      for (int32_t ax = 0; ax < (int32_t)shape.size(); ax++) {
        CN_REQUIRE_OK(cn_cumsum(r.out(), z, ax, CN_DTYPE_DEFAULT, nullptr));
        REQUIRE(shape_of(r) == shape);
        CN_REQUIRE_OK(cn_cumprod(r.out(), z, ax, CN_INT8, nullptr));
        REQUIRE(shape_of(r) == shape);
      }
    }
  }
  const double secs = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - t0)
                          .count();
  REQUIRE(secs < 1.0);
}

// NumPy's wrapping results of integer sums, products and scans in every
// driver (per output, rows, scan lines and scan rows), with the dtype of
// the input kept (int8 wraps modulo 256) or widened to int64.
TEST_CASE("integer sums and products wrap in every driver", "[reduce]") {
  std::vector<int64_t> v(64);
  for (size_t i = 0; i < v.size(); i++)
    v[i] = i % 2 ? INT64_MIN + (int64_t)i : INT64_MAX - (int64_t)i;
  Arr a = from_vec(v, {8, 8}, CN_INT64);
  for (int32_t ax : {0, 1}) {
    INFO("axis " << ax);
    Arr s, p, c;
    CN_REQUIRE_OK(cn_sum(s.out(), a, 1, &ax, 0, CN_DTYPE_DEFAULT, nullptr));
    CN_REQUIRE_OK(cn_prod(p.out(), a, 1, &ax, 0, CN_DTYPE_DEFAULT, nullptr));
    CN_REQUIRE_OK(cn_cumsum(c.out(), a, ax, CN_DTYPE_DEFAULT, nullptr));
    const auto sv = to_vec<int64_t>(s), pv = to_vec<int64_t>(p),
               cv = to_vec<int64_t>(c);
    for (int o = 0; o < 8; o++) {
      uint64_t us = 0, up = 1; // the oracle: arithmetic modulo 2**64
      for (int k = 0; k < 8; k++) {
        const int i = ax == 0 ? k * 8 + o : o * 8 + k;
        us += (uint64_t)v[i];
        up *= (uint64_t)v[i];
        REQUIRE(cv[i] == (int64_t)us);
      }
      REQUIRE(sv[o] == (int64_t)us);
      REQUIRE(pv[o] == (int64_t)up);
    }
  }
  std::vector<int8_t> w(300);
  for (size_t i = 0; i < w.size(); i++)
    w[i] = (int8_t)(i % 2 ? -127 + (int)(i % 5) : 126 - (int)(i % 3));
  Arr b = from_vec(w, {300}, CN_INT8);
  Arr s8, c8, p8, s64;
  CN_REQUIRE_OK(cn_sum(s8.out(), b, CN_ALL_AXES, nullptr, 0, CN_INT8, nullptr));
  CN_REQUIRE_OK(cn_cumsum(c8.out(), b, 0, CN_INT8, nullptr));
  CN_REQUIRE_OK(cn_prod(p8.out(), b, CN_ALL_AXES, nullptr, 0,
                        CN_DTYPE_DEFAULT, nullptr));
  CN_REQUIRE_OK(cn_sum(s64.out(), b, CN_ALL_AXES, nullptr, 0,
                       CN_DTYPE_DEFAULT, nullptr));
  uint64_t us = 0, up = 1;
  int64_t exact = 0;
  const auto cv = to_vec<int8_t>(c8);
  for (size_t i = 0; i < w.size(); i++) {
    us += (uint64_t)(int64_t)w[i];
    up *= (uint64_t)(int64_t)w[i];
    exact += w[i];
    REQUIRE(cv[i] == (int8_t)(uint8_t)us);
  }
  REQUIRE(to_vec<int8_t>(s8)[0] == (int8_t)(uint8_t)us);
  REQUIRE(to_vec<int64_t>(p8)[0] == (int64_t)up);
  REQUIRE(to_vec<int64_t>(s64)[0] == exact);
}
