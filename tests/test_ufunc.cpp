// Tests of cunumpy/ufunc.h: every op of the table on every dtype its loops
// accept, against an independent oracle (long double / __int128 / closed
// forms written here), plus layouts, broadcasting, dst, promotion, where,
// round and every error path.
#include "testutil.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>

namespace {

using LD = long double;
using CL = std::complex<long double>;
using i128 = __int128;
using u128 = unsigned __int128;

// ---- dtypes -------------------------------------------------------------

struct DT {
  cn_dtype dt;
  char kind; // b i u f c
  int bits;  // of the integer / of each float part
};
const DT kDTs[] = {
    {CN_BOOL, 'b', 8},       {CN_INT8, 'i', 8},     {CN_INT16, 'i', 16},
    {CN_INT32, 'i', 32},     {CN_INT64, 'i', 64},   {CN_UINT8, 'u', 8},
    {CN_UINT16, 'u', 16},    {CN_UINT32, 'u', 32},  {CN_UINT64, 'u', 64},
    {CN_FLOAT32, 'f', 32},   {CN_FLOAT64, 'f', 64}, {CN_COMPLEX64, 'c', 32},
    {CN_COMPLEX128, 'c', 64}};
const DT &dt_info(cn_dtype d) {
  for (auto &t : kDTs)
    if (t.dt == d)
      return t;
  FAIL("unknown dtype");
  return kDTs[0];
}
int64_t isz(const DT &t) {
  return t.kind == 'b' ? 1 : t.kind == 'c' ? 2 * t.bits / 8 : t.bits / 8;
}

// Loop classes and output rules, spelled independently of core/ops.def.
enum Cls { ALL, NUM, REAL, INTEGER, BITS, INEXACT, FLOAT, NOCPLX };
enum Out { SAME, OBOOL, OREAL };
bool in_class(Cls c, const DT &t) {
  switch (c) {
  case ALL:
    return true;
  case NUM:
    return t.kind != 'b';
  case REAL:
    return t.kind != 'c';
  case INTEGER:
    return t.kind == 'i' || t.kind == 'u';
  case BITS:
    return t.kind == 'i' || t.kind == 'u' || t.kind == 'b';
  case INEXACT:
    return t.kind == 'f' || t.kind == 'c';
  case FLOAT:
    return t.kind == 'f';
  case NOCPLX:
    return t.kind == 'i' || t.kind == 'u' || t.kind == 'f';
  }
  return false;
}
// tol: allowed float error in ulps (complex: relative, in units of eps).
struct OpSpec {
  const char *name;
  int nin;
  Cls cls;
  Out out;
  int tol;
};
const OpSpec kOps[] = {
    {"add", 2, ALL, SAME, 1},
    {"subtract", 2, NUM, SAME, 1},
    {"multiply", 2, ALL, SAME, 1},
    {"divide", 2, INEXACT, SAME, 1},
    {"floor_divide", 2, NOCPLX, SAME, 1},
    {"remainder", 2, NOCPLX, SAME, 1},
    {"power", 2, NUM, SAME, 4},
    {"maximum", 2, ALL, SAME, 0},
    {"minimum", 2, ALL, SAME, 0},
    {"fmax", 2, ALL, SAME, 0},
    {"fmin", 2, ALL, SAME, 0},
    {"logaddexp", 2, FLOAT, SAME, 4},
    {"arctan2", 2, FLOAT, SAME, 4},
    {"hypot", 2, FLOAT, SAME, 2},
    {"copysign", 2, FLOAT, SAME, 0},
    {"clip", 3, ALL, SAME, 0},
    {"abs", 1, ALL, OREAL, 1},
    {"negative", 1, NUM, SAME, 0},
    {"positive", 1, NUM, SAME, 0},
    {"sign", 1, NUM, SAME, 1},
    {"square", 1, NUM, SAME, 1},
    {"reciprocal", 1, NUM, SAME, 1},
    {"sqrt", 1, INEXACT, SAME, 1},
    {"cbrt", 1, FLOAT, SAME, 4},
    {"exp", 1, INEXACT, SAME, 4},
    {"exp2", 1, INEXACT, SAME, 4},
    {"expm1", 1, INEXACT, SAME, 4},
    {"log", 1, INEXACT, SAME, 4},
    {"log1p", 1, INEXACT, SAME, 4},
    {"log2", 1, INEXACT, SAME, 4},
    {"log10", 1, INEXACT, SAME, 4},
    {"sin", 1, INEXACT, SAME, 4},
    {"cos", 1, INEXACT, SAME, 4},
    {"tan", 1, INEXACT, SAME, 4},
    {"arcsin", 1, INEXACT, SAME, 4},
    {"arccos", 1, INEXACT, SAME, 4},
    {"arctan", 1, INEXACT, SAME, 4},
    {"sinh", 1, INEXACT, SAME, 4},
    {"cosh", 1, INEXACT, SAME, 4},
    {"tanh", 1, INEXACT, SAME, 4},
    {"arcsinh", 1, INEXACT, SAME, 4},
    {"arccosh", 1, INEXACT, SAME, 4},
    {"arctanh", 1, INEXACT, SAME, 4},
    {"floor", 1, REAL, SAME, 0},
    {"ceil", 1, REAL, SAME, 0},
    {"trunc", 1, REAL, SAME, 0},
    {"rint", 1, INEXACT, SAME, 0},
    {"isnan", 1, ALL, OBOOL, 0},
    {"isinf", 1, ALL, OBOOL, 0},
    {"isfinite", 1, ALL, OBOOL, 0},
    {"signbit", 1, REAL, OBOOL, 0},
    {"equal", 2, ALL, OBOOL, 0},
    {"not_equal", 2, ALL, OBOOL, 0},
    {"less", 2, ALL, OBOOL, 0},
    {"less_equal", 2, ALL, OBOOL, 0},
    {"greater", 2, ALL, OBOOL, 0},
    {"greater_equal", 2, ALL, OBOOL, 0},
    {"logical_and", 2, ALL, OBOOL, 0},
    {"logical_or", 2, ALL, OBOOL, 0},
    {"logical_xor", 2, ALL, OBOOL, 0},
    {"logical_not", 1, ALL, OBOOL, 0},
    {"bitwise_and", 2, BITS, SAME, 0},
    {"bitwise_or", 2, BITS, SAME, 0},
    {"bitwise_xor", 2, BITS, SAME, 0},
    {"bitwise_invert", 1, BITS, SAME, 0},
    {"left_shift", 2, INTEGER, SAME, 0},
    {"right_shift", 2, INTEGER, SAME, 0},
    {"real", 1, ALL, OREAL, 0},
    {"imag", 1, ALL, OREAL, 0},
    {"conj", 1, NUM, SAME, 0},
    {"angle", 1, INEXACT, OREAL, 2},
    {"fmod", 2, NOCPLX, SAME, 0},
    {"gcd", 2, INTEGER, SAME, 0},
    {"lcm", 2, INTEGER, SAME, 0},
    {"nextafter", 2, FLOAT, SAME, 0},
    {"spacing", 1, FLOAT, SAME, 0},
    {"logaddexp2", 2, FLOAT, SAME, 4},
    {"heaviside", 2, FLOAT, SAME, 0},
};
const OpSpec *spec(const std::string &n) {
  for (auto &s : kOps)
    if (n == s.name)
      return &s;
  return nullptr;
}
cn_dtype out_dtype(const OpSpec &s, cn_dtype ct) {
  if (s.out == OBOOL)
    return CN_BOOL;
  if (s.out == OREAL)
    return ct == CN_COMPLEX64    ? CN_FLOAT32
           : ct == CN_COMPLEX128 ? CN_FLOAT64
                                 : ct;
  return ct;
}

// ---- raw element access -----------------------------------------------------

void put(const DT &t, void *p, CL v) {
  LD r = v.real();
  switch (t.kind) {
  case 'b':
    *(uint8_t *)p = r != 0 || v.imag() != 0;
    return;
  case 'i': {
    int64_t x = (int64_t)r;
    std::memcpy(p, &x, t.bits / 8); // little-endian truncation
    return;
  }
  case 'u': {
    uint64_t x = r < 0 ? (uint64_t)(int64_t)r : (uint64_t)r;
    std::memcpy(p, &x, t.bits / 8);
    return;
  }
  case 'f':
    if (t.bits == 32)
      *(float *)p = (float)r;
    else
      *(double *)p = (double)r;
    return;
  default:
    if (t.bits == 32)
      *(std::complex<float> *)p =
          std::complex<float>((float)r, (float)v.imag());
    else
      *(std::complex<double> *)p =
          std::complex<double>((double)r, (double)v.imag());
  }
}
CL get(const DT &t, const void *p) {
  switch (t.kind) {
  case 'b':
    return *(const uint8_t *)p ? 1 : 0;
  case 'i':
    switch (t.bits) {
    case 8:
      return (LD) * (const int8_t *)p;
    case 16:
      return (LD) * (const int16_t *)p;
    case 32:
      return (LD) * (const int32_t *)p;
    default:
      return (LD) * (const int64_t *)p;
    }
  case 'u':
    switch (t.bits) {
    case 8:
      return (LD) * (const uint8_t *)p;
    case 16:
      return (LD) * (const uint16_t *)p;
    case 32:
      return (LD) * (const uint32_t *)p;
    default:
      return (LD) * (const uint64_t *)p;
    }
  case 'f':
    return t.bits == 32 ? (LD) * (const float *)p : (LD) * (const double *)p;
  default:
    if (t.bits == 32) {
      auto z = *(const std::complex<float> *)p;
      return CL(z.real(), z.imag());
    }
    auto z = *(const std::complex<double> *)p;
    return CL(z.real(), z.imag());
  }
}
Arr make(const DT &t, const std::vector<CL> &v, std::vector<int64_t> shape) {
  std::vector<unsigned char> raw(v.size() * isz(t) + 1);
  for (size_t i = 0; i < v.size(); i++)
    put(t, raw.data() + i * isz(t), v[i]);
  Arr a;
  CN_REQUIRE_OK(
      cn_from_host(a.out(), raw.data(), 0, (int64_t)(v.size() * isz(t)),
                   (int32_t)shape.size(), shape.data(), nullptr, t.dt));
  return a;
}
Arr make1(const DT &t, const std::vector<CL> &v) {
  return make(t, v, {(int64_t)v.size()});
}
std::vector<CL> read(cn_array a) {
  cn_dtype d;
  CN_REQUIRE_OK(cn_array_dtype(&d, a));
  const DT &t = dt_info(d);
  int64_t n = 0;
  cn_array_size(&n, a);
  std::vector<unsigned char> raw(n * isz(t) + 1);
  CN_REQUIRE_OK(cn_copy_to_buffer(raw.data(), n * isz(t), a, CN_ORDER_C));
  std::vector<CL> v(n);
  for (int64_t i = 0; i < n; i++)
    v[i] = get(t, raw.data() + i * isz(t));
  return v;
}
cn_dtype dtype_of(cn_array a) {
  cn_dtype d = CN_DTYPE_DEFAULT;
  cn_array_dtype(&d, a);
  return d;
}

// ---- test values ------------------------------------------------------------

std::vector<CL> values(const DT &t) {
  std::vector<CL> v;
  if (t.kind == 'b')
    return {0, 1};
  if (t.kind == 'i') {
    LD mx = std::ldexp((LD)1, t.bits - 1) - 1, mn = -mx - 1;
    v = {0, 1, -1, 2, -2, 3, -7, 7, 100, -100, mn, mn + 1, mx, 63, 64};
    if (t.bits == 8)
      v.erase(v.begin() + 8, v.begin() + 10); // 100 fits but keep it small
    return v;
  }
  if (t.kind == 'u') {
    LD mx = std::ldexp((LD)1, t.bits) - 1;
    return {0, 1, 2, 3, 7, 100, mx, mx - 1, 63, 64};
  }
  if (t.kind == 'f') {
    LD big = t.bits == 32 ? (LD)std::numeric_limits<float>::max()
                          : (LD)std::numeric_limits<double>::max();
    LD tiny = t.bits == 32 ? (LD)std::numeric_limits<float>::denorm_min()
                           : (LD)std::numeric_limits<double>::denorm_min();
    LD inf = INFINITY, nan = NAN;
    // near exp's overflow / underflow edges too
    LD hi = t.bits == 32 ? 88.5L : 709.5L, lo = t.bits == 32 ? -100 : -740;
    return {0.0L, -0.0L, 1,   -1,     0.5L,  -0.5L, 2.5L,    -3.75L,
            0.1L, 7,     -7,  1e-30L, 1e30L, 100,   -0.999L, inf,
            -inf, nan,   big, tiny,   3,     hi,    lo};
  }
  return {CL(0, 0), CL(1, 0),       CL(-1, 0), CL(0, 1),      CL(0, -1),
          CL(1, 2), CL(-0.5, 0.25), CL(3, -4), CL(0.3, -0.7), CL(-2, -0.1)};
}
// Values as the array holds them (rounded to the dtype).
std::vector<CL> rounded(const DT &t, const std::vector<CL> &v) {
  std::vector<CL> r;
  unsigned char buf[16];
  for (auto x : v) {
    put(t, buf, x);
    r.push_back(get(t, buf));
  }
  return r;
}

// ---- the oracle ------------------------------------------------------------

// Wraps an exact integer to the dtype's range (NumPy's modular results).
LD wrap(const DT &t, i128 x) {
  unsigned __int128 m = (unsigned __int128)1 << t.bits;
  unsigned __int128 u = (unsigned __int128)x % m;
  if (t.kind == 'i' && u >= m / 2)
    return (LD)((i128)u - (i128)m);
  return (LD)u;
}

// Returns false when the op has no rule for this kind (a test bug).
bool oracle_int(const std::string &op, const DT &t, i128 a, i128 b, i128 c,
                LD &r) {
  const bool sgn = t.kind == 'i';
  const int bits = t.bits;
  if (t.kind == 'b') {
    bool x = a != 0, y = b != 0;
    if (op == "add" || op == "maximum" || op == "fmax" || op == "bitwise_or")
      r = x || y;
    else if (op == "multiply" || op == "minimum" || op == "fmin" ||
             op == "bitwise_and")
      r = x && y;
    else if (op == "bitwise_xor")
      r = x != y;
    else if (op == "clip")
      r = std::min(std::max(x, y), c != 0);
    else if (op == "abs" || op == "real" || op == "floor" || op == "ceil" ||
             op == "trunc")
      r = x;
    else if (op == "imag" || op == "signbit" || op == "isnan" || op == "isinf")
      r = 0;
    else if (op == "isfinite")
      r = 1;
    else if (op == "bitwise_invert" || op == "logical_not")
      r = !x;
    else if (op == "equal")
      r = x == y;
    else if (op == "not_equal")
      r = x != y;
    else if (op == "less")
      r = x < y;
    else if (op == "less_equal")
      r = x <= y;
    else if (op == "greater")
      r = x > y;
    else if (op == "greater_equal")
      r = x >= y;
    else if (op == "logical_and")
      r = x && y;
    else if (op == "logical_or")
      r = x || y;
    else if (op == "logical_xor")
      r = x != y;
    else
      return false;
    return true;
  }
  auto pymod = [](i128 x, i128 y) { return ((x % y) + y) % y; };
  if (op == "add")
    r = wrap(t, a + b);
  else if (op == "subtract")
    r = wrap(t, a - b);
  else if (op == "multiply")
    r = wrap(t, (i128)((u128)a * (u128)b)); // modular, no overflow
  else if (op == "floor_divide")
    r = b == 0 ? 0 : wrap(t, (a - pymod(a, b)) / b);
  else if (op == "remainder")
    r = b == 0 ? 0 : wrap(t, pymod(a, b));
  else if (op == "power") {
    if (b < 0)
      return false; // CN_ERR_VALUE, tested on its own
    uint64_t acc = 1;
    for (i128 k = 0; k < b; k++)
      acc *= (uint64_t)a;
    r = wrap(t, (i128)acc);
  } else if (op == "maximum" || op == "fmax")
    r = (LD)std::max(a, b);
  else if (op == "minimum" || op == "fmin")
    r = (LD)std::min(a, b);
  else if (op == "clip")
    r = (LD)std::min(std::max(a, b), c);
  else if (op == "abs")
    r = wrap(t, a < 0 ? -a : a);
  else if (op == "negative")
    r = wrap(t, -a);
  else if (op == "positive" || op == "real" || op == "conj" || op == "floor" ||
           op == "ceil" || op == "trunc")
    r = (LD)a; // NumPy 2.3+: rounding an integer keeps it
  else if (op == "imag" || op == "isnan" || op == "isinf")
    r = 0;
  else if (op == "isfinite")
    r = 1;
  else if (op == "sign")
    r = a > 0 ? 1 : a < 0 ? -1 : 0;
  else if (op == "square")
    r = wrap(t, (i128)((u128)a * (u128)a));
  else if (op == "reciprocal")
    r = a == 0 ? 0 : wrap(t, 1 / a);
  else if (op == "signbit")
    r = a < 0;
  else if (op == "equal")
    r = a == b;
  else if (op == "not_equal")
    r = a != b;
  else if (op == "less")
    r = a < b;
  else if (op == "less_equal")
    r = a <= b;
  else if (op == "greater")
    r = a > b;
  else if (op == "greater_equal")
    r = a >= b;
  else if (op == "logical_and")
    r = a != 0 && b != 0;
  else if (op == "logical_or")
    r = a != 0 || b != 0;
  else if (op == "logical_xor")
    r = (a != 0) != (b != 0);
  else if (op == "logical_not")
    r = a == 0;
  else if (op == "bitwise_and")
    r = wrap(t, a & b);
  else if (op == "bitwise_or")
    r = wrap(t, a | b);
  else if (op == "bitwise_xor")
    r = wrap(t, a ^ b);
  else if (op == "bitwise_invert")
    r = wrap(t, ~a);
  else if (op == "left_shift") {
    i128 x = b < 0 || b >= bits ? 0 : a;
    for (i128 k = 0; x != 0 && k < b; k++)
      x = (i128)((unsigned __int128)x * 2);
    r = wrap(t, x);
  } else if (op == "right_shift") {
    if (b < 0 || b >= bits)
      r = sgn && a < 0 ? -1 : 0;
    else
      r = std::floor((LD)a / std::ldexp((LD)1, (int)b));
  } else if (op == "fmod") {
    r = b == 0 ? 0 : wrap(t, a - (a / b) * b); // i128 / truncates, as C
  } else if (op == "gcd" || op == "lcm") {
    i128 x = a < 0 ? -a : a, y = b < 0 ? -b : b, g;
    for (i128 p = x, q = y; (g = p, q != 0);) {
      i128 m = p % q;
      p = q;
      q = m;
    }
    if (op == "gcd")
      r = wrap(t, g);
    else // modular product, as the engine's unsigned arithmetic
      r = g == 0 ? 0 : wrap(t, (i128)((u128)(x / g) * (u128)y));
  } else
    return false;
  return true;
}

LD pysign0(LD x) { return std::signbit(x) ? -0.0L : 0.0L; }

// One step from a (finite, of the float type of `bits`) towards +inf
// (up) or -inf, from frexp: independent of libm's nextafter.
LD float_step(LD a, bool up, int bits) {
  int mant = bits == 32 ? 24 : 53, emin = bits == 32 ? -125 : -1021;
  if (a == 0) {
    LD tiny = std::ldexp((LD)1, emin - mant);
    return up ? tiny : -tiny;
  }
  int e;
  LD m = std::frexp(std::fabs(a), &e);
  bool away = (a > 0) == up;
  int ue = away || m != 0.5L ? e : e - 1;
  LD ulp = std::ldexp((LD)1, std::max(ue, emin) - mant);
  return a + (up ? ulp : -ulp);
}

bool oracle_float(const std::string &op, LD a, LD b, LD c, LD &r, int bits) {
  auto nan = std::numeric_limits<LD>::quiet_NaN();
  if (op == "add")
    r = a + b;
  else if (op == "subtract")
    r = a - b;
  else if (op == "multiply")
    r = a * b;
  else if (op == "divide")
    r = a / b;
  else if (op == "floor_divide") {
    // Python's float // (floor of the exact quotient), except that an
    // infinite operand gives the Array API's floor(a / b)
    if (b == 0 || std::isnan(a) || std::isnan(b))
      r = a / b;
    else if (std::isinf(a) || std::isinf(b))
      r = std::floor(a / b);
    else {
      LD m = std::fmod(a, b);
      LD q = (a - m) / b; // exact for these test values
      if (m != 0 && ((m < 0) != (b < 0)))
        q -= 1;
      r = q == 0 ? pysign0(a / b) : std::round(q);
    }
  } else if (op == "remainder") {
    LD m = std::fmod(a, b);
    if (b != 0 && !std::isnan(m)) {
      if (m != 0 && ((m < 0) != (b < 0)))
        m += b;
      else if (m == 0)
        m = std::copysign(0.0L, b);
    }
    r = m;
  } else if (op == "power")
    r = std::pow(a, b);
  else if (op == "maximum")
    r = std::isnan(a) || std::isnan(b) ? nan : (a >= b ? a : b);
  else if (op == "minimum")
    r = std::isnan(a) || std::isnan(b) ? nan : (a <= b ? a : b);
  else if (op == "fmax")
    r = std::isnan(a) ? b : std::isnan(b) ? a : (a >= b ? a : b);
  else if (op == "fmin")
    r = std::isnan(a) ? b : std::isnan(b) ? a : (a <= b ? a : b);
  else if (op == "clip") {
    LD m = std::isnan(a) || std::isnan(b) ? nan : (a >= b ? a : b);
    r = std::isnan(m) || std::isnan(c) ? nan : (m <= c ? m : c);
  } else if (op == "logaddexp") {
    if (std::isnan(a) || std::isnan(b))
      r = nan;
    else if (a == b)
      r = a + std::log(2.0L);
    else
      r = std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
  } else if (op == "arctan2")
    r = std::atan2(a, b);
  else if (op == "hypot")
    r = std::hypot(a, b);
  else if (op == "copysign")
    r = std::copysign(a, b);
  else if (op == "fmod")
    r = std::fmod(a, b);
  else if (op == "nextafter")
    r = std::isnan(a) || std::isnan(b) ? nan
        : a == b                       ? b
        : std::isinf(a)
            ? std::copysign(std::ldexp((LD)1, bits == 32 ? 128 : 1024) -
                                std::ldexp((LD)1, (bits == 32 ? 128 : 1024) -
                                                      (bits == 32 ? 24 : 53)),
                            a)
            : float_step(a, b > a, bits);
  else if (op == "spacing") {
    LD big =
        std::ldexp((LD)1, bits == 32 ? 128 : 1024) -
        std::ldexp((LD)1, (bits == 32 ? 128 : 1024) - (bits == 32 ? 24 : 53));
    r = std::isinf(a) || std::isnan(a) ? nan
        : std::fabs(a) == big          ? std::copysign(INFINITY, a)
        : a == 0                       ? float_step(0, true, bits)
                                       : float_step(a, a > 0, bits) - a;
  } else if (op == "logaddexp2") {
    if (std::isnan(a) || std::isnan(b))
      r = nan;
    else if (a == b)
      r = a + 1;
    else
      r = std::max(a, b) +
          std::log1p(std::exp2(-std::fabs(a - b))) / std::log(2.0L);
  } else if (op == "heaviside")
    r = std::isnan(a) ? nan : a < 0 ? 0 : a > 0 ? 1 : b;
  else if (op == "abs")
    r = std::fabs(a);
  else if (op == "negative")
    r = -a;
  else if (op == "positive" || op == "real" || op == "conj")
    r = a;
  else if (op == "imag")
    r = 0;
  else if (op == "sign")
    r = std::isnan(a) ? nan : a > 0 ? 1 : a < 0 ? -1 : 0.0L;
  else if (op == "square")
    r = a * a;
  else if (op == "reciprocal")
    r = 1 / a;
  else if (op == "sqrt")
    r = std::sqrt(a);
  else if (op == "cbrt")
    r = std::cbrt(a);
  else if (op == "exp")
    r = std::exp(a);
  else if (op == "exp2")
    r = std::exp2(a);
  else if (op == "expm1")
    r = std::expm1(a);
  else if (op == "log")
    r = std::log(a);
  else if (op == "log1p")
    r = std::log1p(a);
  else if (op == "log2")
    r = std::log2(a);
  else if (op == "log10")
    r = std::log10(a);
  else if (op == "sin")
    r = std::sin(a);
  else if (op == "cos")
    r = std::cos(a);
  else if (op == "tan")
    r = std::tan(a);
  else if (op == "arcsin")
    r = std::asin(a);
  else if (op == "arccos")
    r = std::acos(a);
  else if (op == "arctan")
    r = std::atan(a);
  else if (op == "sinh")
    r = std::sinh(a);
  else if (op == "cosh")
    r = std::cosh(a);
  else if (op == "tanh")
    r = std::tanh(a);
  else if (op == "arcsinh")
    r = std::asinh(a);
  else if (op == "arccosh")
    r = std::acosh(a);
  else if (op == "arctanh")
    r = std::atanh(a);
  else if (op == "floor")
    r = std::floor(a);
  else if (op == "ceil")
    r = std::ceil(a);
  else if (op == "trunc")
    r = std::trunc(a);
  else if (op == "rint")
    r = std::nearbyint(a);
  else if (op == "isnan")
    r = std::isnan(a);
  else if (op == "isinf")
    r = std::isinf(a);
  else if (op == "isfinite")
    r = std::isfinite(a);
  else if (op == "signbit")
    r = std::signbit(a);
  else if (op == "equal")
    r = a == b;
  else if (op == "not_equal")
    r = a != b;
  else if (op == "less")
    r = a < b;
  else if (op == "less_equal")
    r = a <= b;
  else if (op == "greater")
    r = a > b;
  else if (op == "greater_equal")
    r = a >= b;
  else if (op == "logical_and")
    r = a != 0 && b != 0;
  else if (op == "logical_or")
    r = a != 0 || b != 0;
  else if (op == "logical_xor")
    r = (a != 0) != (b != 0);
  else if (op == "logical_not")
    r = a == 0;
  else if (op == "angle")
    r = std::atan2(0.0L, a);
  else
    return false;
  return true;
}

// NumPy's lexicographic complex order (a NaN part orders nothing).
bool clt(CL a, CL b) {
  return (a.real() < b.real() && !std::isnan(a.imag()) &&
          !std::isnan(b.imag())) ||
         (a.real() == b.real() && a.imag() < b.imag());
}
bool cle(CL a, CL b) {
  return (a.real() < b.real() && !std::isnan(a.imag()) &&
          !std::isnan(b.imag())) ||
         (a.real() == b.real() && a.imag() <= b.imag());
}
bool cnan(CL a) { return std::isnan(a.real()) || std::isnan(a.imag()); }

// expm1 of a non-finite complex z: the Array API's special cases, with the
// signs it leaves unspecified as C99's cexp (glibc) gives them.
CL expm1_special(CL z) {
  LD a = z.real(), b = z.imag();
  const LD inf = INFINITY, nan = NAN;
  if (std::isnan(a))
    return b == 0 ? CL(nan, b) : CL(nan, nan);
  if (std::isfinite(a))
    return CL(nan, nan); // b is infinite or NaN
  if (a > 0) {
    if (b == 0)
      return CL(inf, b);
    if (std::isfinite(b))
      return CL(inf * std::cos(b) - 1, inf * std::sin(b));
    return CL(inf, nan);
  }
  if (std::isfinite(b))
    return CL(0 * std::cos(b) - 1, 0 * std::sin(b));
  return CL(-1, std::isinf(b) ? std::copysign(0.0L, b) : 0.0L);
}

bool oracle_cplx(const std::string &op, CL a, CL b, CL c, CL &r) {
  const LD ln2 = std::log(2.0L), ln10 = std::log(10.0L);
  const CL I(0, 1);
  if (op == "add")
    r = a + b;
  else if (op == "subtract")
    r = a - b;
  else if (op == "multiply")
    r = a * b;
  else if (op == "divide")
    r = a / b;
  else if (op == "power") {
    if (b == CL(0))
      r = 1;
    else if (a == CL(0))
      r = b.real() > 0 ? CL(0) : CL(NAN, NAN); // NumPy: any imag part
    else
      r = std::pow(a, b);
  } else if (op == "maximum")
    r = cnan(a) ? a : cnan(b) ? b : (cle(b, a) ? a : b);
  else if (op == "minimum")
    r = cnan(a) ? a : cnan(b) ? b : (cle(a, b) ? a : b);
  else if (op == "fmax")
    r = cnan(b) ? a : cnan(a) ? b : (cle(b, a) ? a : b);
  else if (op == "fmin")
    r = cnan(b) ? a : cnan(a) ? b : (cle(a, b) ? a : b);
  else if (op == "abs")
    r = std::abs(a);
  else if (op == "clip") { // minimum(maximum(a, b), c), as NumPy 2
    CL m = cnan(a) ? a : cnan(b) ? b : (cle(b, a) ? a : b);
    r = cnan(m) ? m : cnan(c) ? c : (cle(m, c) ? m : c);
  } else if (op == "negative")
    r = -a;
  else if (op == "positive")
    r = a;
  else if (op == "sign")
    r = a == CL(0) ? CL(0) : a / std::abs(a);
  else if (op == "square")
    r = a * a;
  else if (op == "reciprocal")
    r = CL(1) / a;
  else if (op == "sqrt")
    r = std::sqrt(a);
  else if (op == "exp")
    r = std::exp(a);
  else if (op == "exp2")
    r = std::exp(a * ln2);
  else if (op == "expm1")
    // non-finite: the Array API's cases, C99 Annex G cexp less one
    r = std::isfinite(a.real()) && std::isfinite(a.imag())
            ? std::exp(a) - CL(1)
            : expm1_special(a);
  else if (op == "log")
    r = std::log(a);
  else if (op == "log1p")
    r = std::log(CL(1) + a);
  else if (op == "log2")
    r = std::log(a) / ln2;
  else if (op == "log10")
    r = std::log(a) / ln10;
  else if (op == "sin")
    r = std::sin(a);
  else if (op == "cos")
    r = std::cos(a);
  else if (op == "tan")
    r = std::tan(a);
  else if (op == "arcsin")
    r = std::asin(a);
  else if (op == "arccos")
    r = std::acos(a);
  else if (op == "arctan")
    r = std::atan(a);
  else if (op == "sinh")
    r = std::sinh(a);
  else if (op == "cosh")
    r = std::cosh(a);
  else if (op == "tanh")
    r = std::tanh(a);
  else if (op == "arcsinh")
    r = std::asinh(a);
  else if (op == "arccosh")
    r = std::acosh(a);
  else if (op == "arctanh")
    r = std::atanh(a);
  else if (op == "rint")
    r = CL(std::nearbyint(a.real()), std::nearbyint(a.imag()));
  else if (op == "isnan")
    r = cnan(a);
  else if (op == "isinf")
    r = std::isinf(a.real()) || std::isinf(a.imag());
  else if (op == "isfinite")
    r = std::isfinite(a.real()) && std::isfinite(a.imag());
  else if (op == "equal")
    r = a == b;
  else if (op == "not_equal")
    r = a != b;
  else if (op == "less")
    r = clt(a, b);
  else if (op == "less_equal")
    r = cle(a, b);
  else if (op == "greater")
    r = clt(b, a);
  else if (op == "greater_equal")
    r = cle(b, a);
  else if (op == "logical_and")
    r = a != CL(0) && b != CL(0);
  else if (op == "logical_or")
    r = a != CL(0) || b != CL(0);
  else if (op == "logical_xor")
    r = (a != CL(0)) != (b != CL(0));
  else if (op == "logical_not")
    r = a == CL(0);
  else if (op == "real")
    r = a.real();
  else if (op == "imag")
    r = a.imag();
  else if (op == "conj")
    r = std::conj(a);
  else if (op == "angle")
    r = std::atan2(a.imag(), a.real());
  else
    return false;
  (void)I;
  return true;
}

// Expected value of op on compute dtype t (inputs already of that dtype).
CL oracle(const OpSpec &s, const DT &t, CL a, CL b, CL c) {
  LD r = 0;
  bool ok;
  if (t.kind == 'c') {
    CL z;
    ok = oracle_cplx(s.name, a, b, c, z);
    INFO("op " << s.name << " has no complex oracle");
    REQUIRE(ok);
    return z;
  }
  if (t.kind == 'f')
    ok = oracle_float(s.name, a.real(), b.real(), c.real(), r, t.bits);
  else
    ok = oracle_int(s.name, t, (i128)a.real(), (i128)b.real(), (i128)c.real(),
                    r);
  INFO("op " << s.name << " has no oracle for kind " << t.kind);
  REQUIRE(ok);
  return r;
}

// Distance in ulps of two finite values of the float type of `bits`.
LD ulps(LD got, LD want, int bits) {
  if (got == want)
    return 0;
  int e;
  LD w = want != 0 ? want : got;
  std::frexp(w, &e);
  int mant = bits == 32 ? 24 : 53;
  int emin = bits == 32 ? -125 : -1021;
  LD ulp = std::ldexp((LD)1, std::max(e, emin) - mant);
  return std::fabs(got - want) / ulp;
}

// Ops whose result can cancel (max + a small positive term).
bool cancels(const OpSpec &s) {
  return s.name == std::string("logaddexp") ||
         s.name == std::string("logaddexp2");
}

// Compares one result element; returns an empty string when it matches.
std::string mismatch(const OpSpec &s, const DT &ot, CL got, CL want,
                     LD scale = 0) {
  std::ostringstream os;
  os.precision(21);
  if (ot.kind == 'b' || ot.kind == 'i' || ot.kind == 'u') {
    if (got.real() != want.real())
      os << "got " << got.real() << " want " << want.real();
    return os.str();
  }
  if (ot.kind == 'f') {
    // round the long double oracle to the output type first
    unsigned char buf[16];
    put(ot, buf, want);
    LD w = get(ot, buf).real(), g = got.real();
    bool bad;
    if (std::isnan(w) || std::isnan(g))
      bad = std::isnan(w) != std::isnan(g);
    else if (std::isinf(w) || std::isinf(g))
      bad = w != g;
    else if (w == 0 && g == 0)
      bad = std::signbit(w) != std::signbit(g);
    else if (scale != 0 && std::fabs(w) < scale)
      bad = std::fabs(g - w) >
            s.tol * std::ldexp(scale, ot.bits == 32 ? -23 : -52);
    else
      bad = ulps(g, w, ot.bits) > s.tol;
    if (bad)
      os << "got " << g << " want " << w << " (" << want.real() << ")";
    return os.str();
  }
  // complex: exact ops exactly, others within tol * eps relative to |want|
  LD eps = ot.bits == 32 ? 1.2e-7L : 2.3e-16L;
  bool fin = std::isfinite(want.real()) && std::isfinite(want.imag());
  bool gfin = std::isfinite(got.real()) && std::isfinite(got.imag());
  bool bad;
  if (!fin)
    bad = cnan(want) ? !cnan(got) : gfin;
  else
    bad = !gfin || std::abs(got - want) >
                       std::max<LD>(s.tol, 1) * 2 * eps * std::abs(want) +
                           (want == CL(0) ? 0 : 1e-300L);
  if (bad)
    os << "got " << got << " want " << want;
  return os.str();
}

// Equality that treats NaN as equal to NaN (and -0.0 as distinct from 0).
bool same(const std::vector<CL> &x, const std::vector<CL> &y) {
  if (x.size() != y.size())
    return false;
  for (size_t i = 0; i < x.size(); i++) {
    LD p[2] = {x[i].real(), x[i].imag()}, q[2] = {y[i].real(), y[i].imag()};
    for (int k = 0; k < 2; k++)
      if (std::isnan(p[k]) != std::isnan(q[k]) ||
          (!std::isnan(p[k]) &&
           (p[k] != q[k] || std::signbit(p[k]) != std::signbit(q[k]))))
        return false;
  }
  return true;
}

// Runs op on dtype t over all combinations of the test values and checks
// every element. layout 0: contiguous; 1: strided views (every other
// element); 2: reversed (negative strides).
void check_op(const OpSpec &s, const DT &t, int layout) {
  std::vector<CL> v = rounded(t, values(t));
  std::vector<CL> va, vb, vc;
  size_t n = v.size();
  if (s.nin == 1) {
    va = v;
  } else if (s.nin == 2) {
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) {
        va.push_back(v[i]);
        vb.push_back(v[j]);
      }
  } else {
    std::vector<CL> w = {v[0],     v[1 % n], v[2 % n],
                         v[n - 1], v[n / 2], v[3 % n]};
    for (auto x : v)
      for (auto y : w)
        for (auto z : w) {
          va.push_back(x);
          vb.push_back(y);
          vc.push_back(z);
        }
  }
  if (s.name == std::string("power") && t.kind != 'f' && t.kind != 'c') {
    // exponents small enough for the oracle's repeated multiplication and
    // not negative (CN_ERR_VALUE, see "integer power refuses ...")
    for (auto &e : vb)
      if (e.real() > 64 || e.real() < 0)
        e = 5;
  }
  const int64_t m = (int64_t)va.size();
  auto build = [&](const std::vector<CL> &x) -> Arr {
    if (x.empty())
      return Arr();
    if (layout == 0)
      return make1(t, x);
    std::vector<CL> big(2 * x.size());
    if (layout == 1) {
      for (size_t i = 0; i < x.size(); i++)
        big[2 * i] = x[i], big[2 * i + 1] = 42;
      Arr b = make1(t, big);
      Arr view;
      CN_REQUIRE_OK(cn_slice_axis(view.out(), b, 0, 0, CN_SLICE_NONE, 2));
      return view;
    }
    std::vector<CL> rev(x.rbegin(), x.rend());
    Arr b = make1(t, rev);
    Arr view;
    CN_REQUIRE_OK(
        cn_slice_axis(view.out(), b, 0, CN_SLICE_NONE, CN_SLICE_NONE, -1));
    return view;
  };
  Arr A = build(va), B = build(vb), C = build(vc);
  cn_array in[3] = {A, B, C};
  Arr R;
  CN_REQUIRE_OK(cn_ufunc(R.out(), s.name, s.nin, in, nullptr));
  const DT &ot = dt_info(out_dtype(s, t.dt));
  REQUIRE(dtype_of(R) == ot.dt);
  REQUIRE(shape_of(R) == std::vector<int64_t>{m});
  std::vector<CL> got = read(R);
  int bad = 0;
  std::ostringstream log;
  for (int64_t i = 0; i < m && bad < 5; i++) {
    CL want = oracle(s, t, va[i], s.nin > 1 ? vb[i] : 0, s.nin > 2 ? vc[i] : 0);
    // logaddexp(2) computes max + log1p(exp(-|a-b|)) as NumPy does: the sum
    // cancels, so its error scales with the inputs, not the result
    LD scale =
        cancels(s) && std::isfinite(va[i].real()) && std::isfinite(vb[i].real())
            ? std::max(std::fabs(va[i].real()), std::fabs(vb[i].real()))
            : 0;
    std::string msg = mismatch(s, ot, got[i], want, scale);
    if (!msg.empty()) {
      bad++;
      log.precision(21);
      log << s.name << "(" << va[i] << (s.nin > 1 ? ", " : "")
          << (s.nin > 1 ? vb[i] : CL(0)) << ") on " << cn_dtype_name(t.dt)
          << " layout " << layout << ": " << msg << "\n";
    }
  }
  INFO(log.str());
  CHECK(bad == 0);
  // inputs are untouched
  if (layout == 0)
    REQUIRE(same(read(A), va));
}

// The stride-0 fast paths: every value of the first input against each
// value as a 0-d second (and third) input, and the mirror for binary ops.
void check_op_scalar(const OpSpec &s, const DT &t) {
  std::vector<CL> v = rounded(t, values(t));
  if (s.name == std::string("power") && t.kind != 'f' && t.kind != 'c') {
    // every value may be the exponent: keep the oracle's range (>= 0)
    std::vector<CL> keep;
    for (auto x : v)
      if (x.real() >= 0 && x.real() <= 64)
        keep.push_back(x);
    v = keep;
  }
  const DT &ot = dt_info(out_dtype(s, t.dt));
  std::ostringstream log;
  int bad = 0;
  for (size_t j = 0; j < v.size() && bad < 5; j++) {
    CL sv = s.name == std::string("power") && t.kind != 'f' && t.kind != 'c' &&
                    (v[j].real() > 64 || v[j].real() < 0)
                ? CL(5)
                : v[j];
    Arr vec = make1(t, v), sc = make(t, {sv}, {});
    for (int mirror = 0; mirror < (s.nin == 2 ? 2 : 1); mirror++) {
      cn_array in[3] = {vec, sc, sc};
      if (mirror)
        std::swap(in[0], in[1]);
      Arr R;
      CN_REQUIRE_OK(cn_ufunc(R.out(), s.name, s.nin, in, nullptr));
      REQUIRE(dtype_of(R) == ot.dt);
      std::vector<CL> got = read(R);
      for (size_t i = 0; i < v.size(); i++) {
        CL x = mirror ? sv : v[i], y = mirror ? v[i] : sv;
        if (s.name == std::string("power") && t.kind != 'f' && t.kind != 'c' &&
            mirror && (y.real() > 64 || y.real() < 0))
          continue; // exponent too large for the oracle's loop
        LD scale =
            cancels(s) && std::isfinite(x.real()) && std::isfinite(y.real())
                ? std::max(std::fabs(x.real()), std::fabs(y.real()))
                : 0;
        CL want = oracle(s, t, x, y, sv);
        // NumPy's float power runs a stride-0 exponent 0.5 as sqrt, which
        // keeps -0.0 and gives NaN for -inf (pow gives +0 and +inf)
        if (s.name == std::string("power") && t.kind == 'f' && !mirror &&
            y.real() == 0.5L && (x.real() == 0 || x.real() == -INFINITY))
          want = x.real() == 0 ? x : CL(NAN);
        std::string msg = mismatch(s, ot, got[i], want, scale);
        if (!msg.empty()) {
          bad++;
          log << s.name << "(" << x << ", " << y << ") scalar path on "
              << cn_dtype_name(t.dt) << ": " << msg << "\n";
        }
      }
    }
  }
  INFO(log.str());
  CHECK(bad == 0);
}

Arr weak_i(int64_t v) {
  Arr a;
  CN_REQUIRE_OK(cn_scalar_array(a.out(), cn_scalar_int(v)));
  return a;
}
Arr weak_f(double v) {
  Arr a;
  CN_REQUIRE_OK(cn_scalar_array(a.out(), cn_scalar_float(v)));
  return a;
}

} // namespace

TEST_CASE("the op table and the test's spec agree", "[ufunc]") {
  // the special_* ops (cunumpy/special.h) are tests/test_special.cpp's
  int32_t special = 0;
  for (int32_t i = 0; i < cn_op_count(); i++)
    special += std::strncmp(cn_op_name(i), "special_", 8) == 0;
  REQUIRE(cn_op_count() - special ==
          (int32_t)(sizeof kOps / sizeof kOps[0]));
  for (int32_t i = 0; i < cn_op_count(); i++) {
    const char *name = cn_op_name(i);
    REQUIRE(name != nullptr);
    if (std::strncmp(name, "special_", 8) == 0)
      continue;
    const OpSpec *s = spec(name);
    INFO(name);
    REQUIRE(s != nullptr);
    REQUIRE(cn_op_nin(name) == s->nin);
  }
  REQUIRE(cn_op_name(-1) == nullptr);
  REQUIRE(cn_op_name(cn_op_count()) == nullptr);
  REQUIRE(cn_op_nin("no_such_op") == -1);
  REQUIRE(cn_op_nin(nullptr) == -1);
}

TEST_CASE("every op on every dtype of its loops matches the oracle",
          "[ufunc]") {
  for (const OpSpec &s : kOps)
    for (const DT &t : kDTs) {
      if (!in_class(s.cls, t))
        continue;
      for (int layout = 0; layout < 3; layout++) {
        INFO(s.name << " on " << cn_dtype_name(t.dt) << " layout " << layout);
        check_op(s, t, layout);
      }
      if (s.nin > 1) {
        INFO(s.name << " on " << cn_dtype_name(t.dt) << " with 0-d operands");
        check_op_scalar(s, t);
      }
    }
}

TEST_CASE("typed entry points match cn_ufunc", "[ufunc]") {
  Arr a = make1(dt_info(CN_FLOAT64), {1.5, -2, 3});
  Arr b = make1(dt_info(CN_FLOAT64), {2, 4, -8});
  Arr r1, r2, r3;
  CN_REQUIRE_OK(cn_add(r1.out(), a, b, nullptr));
  REQUIRE(read(r1) == std::vector<CL>{3.5, 2, -5});
  CN_REQUIRE_OK(cn_sqrt(r2.out(), b, nullptr));
  REQUIRE(read(r2)[0].real() == (LD)std::sqrt(2.0));
  Arr lo = make1(dt_info(CN_FLOAT64), {0}),
      hi = make1(dt_info(CN_FLOAT64), {2});
  CN_REQUIRE_OK(cn_clip(r3.out(), a, lo, hi, nullptr));
  REQUIRE(read(r3) == std::vector<CL>{1.5, 0, 2});
}

TEST_CASE("three dtypes promote as NumPy's sequence, not a left fold",
          "[ufunc]") {
  // numpy.result_type(int8, uint16, float32) is float32 (and complex64 for
  // complex64), although int8 with uint16 alone gives int32.
  Arr a = make1(dt_info(CN_INT8), {-3, 5});
  Arr lo = make1(dt_info(CN_UINT16), {0, 0});
  const cn_dtype tops[] = {CN_FLOAT32, CN_COMPLEX64, CN_INT16};
  const cn_dtype want[] = {CN_FLOAT32, CN_COMPLEX64, CN_INT32};
  for (int k = 0; k < 3; k++) {
    Arr hi = make1(dt_info(tops[k]), {4, 4});
    Arr r;
    CN_REQUIRE_OK(cn_clip(r.out(), a, lo, hi, nullptr));
    REQUIRE(dtype_of(r) == want[k]);
    REQUIRE(read(r) == std::vector<CL>{0, 4});
  }
}

TEST_CASE("integer edge cases never trap", "[ufunc]") {
  const DT &t = dt_info(CN_INT32);
  Arr a = make1(t, {(LD)INT32_MIN, 7, -7, 7, -7, 5});
  Arr b = make1(t, {-1, 0, 0, -2, 2, 40});
  Arr q, r, sl, sr;
  CN_REQUIRE_OK(cn_floor_divide(q.out(), a, b, nullptr));
  REQUIRE(read(q) == std::vector<CL>{(LD)INT32_MIN, 0, 0, -4, -4, 0});
  CN_REQUIRE_OK(cn_remainder(r.out(), a, b, nullptr));
  REQUIRE(read(r) == std::vector<CL>{0, 0, 0, -1, 1, 5});
  CN_REQUIRE_OK(cn_left_shift(sl.out(), a, b, nullptr));
  REQUIRE(read(sl)[5] == CL(0)); // 5 << 40 on int32
  CN_REQUIRE_OK(cn_right_shift(sr.out(), a, b, nullptr));
  REQUIRE(read(sr)[4] == CL(-2)); // -7 >> 2
}

TEST_CASE("0-d, empty and broadcast shapes", "[ufunc]") {
  const DT &f = dt_info(CN_FLOAT64);
  Arr s = make(f, {2}, {}), r;
  CN_REQUIRE_OK(cn_multiply(r.out(), s, s, nullptr));
  REQUIRE(shape_of(r).empty());
  REQUIRE(read(r) == std::vector<CL>{4});

  Arr e = make(f, {}, {0, 3}), re;
  Arr row = make(f, {1, 2, 3}, {3});
  CN_REQUIRE_OK(cn_add(re.out(), e, row, nullptr));
  REQUIRE(shape_of(re) == std::vector<int64_t>{0, 3});

  Arr col = make(f, {10, 20, 30}, {3, 1});
  Arr line = make(f, {1, 2, 3, 4}, {1, 4});
  Arr rb;
  CN_REQUIRE_OK(cn_subtract(rb.out(), col, line, nullptr));
  REQUIRE(shape_of(rb) == std::vector<int64_t>{3, 4});
  auto v = read(rb);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      REQUIRE(v[i * 4 + j] == CL(10.0L * (i + 1) - (j + 1)));

  Arr r0;
  CN_REQUIRE_OK(cn_maximum(r0.out(), s, col, nullptr)); // 0-d with n-d
  REQUIRE(read(r0) == std::vector<CL>{10, 20, 30});

  Arr bad = make(f, {1, 2, 3, 4}, {4}), rr;
  CN_REQUIRE_ERR(cn_add(rr.out(), row, bad, nullptr), CN_ERR_SHAPE, "cn_add");
  REQUIRE(rr.h == nullptr);
}

TEST_CASE("transposed and N-d strided operands, large enough for threads",
          "[ufunc]") {
  const DT &f = dt_info(CN_FLOAT64);
  const int64_t R = 301, C = 257;
  std::vector<CL> va(R * C), vb(R * C);
  for (int64_t i = 0; i < R * C; i++) {
    va[i] = (LD)(i % 1000) * 0.25L - 50;
    vb[i] = (LD)((i * 7) % 333) - 100;
  }
  Arr a = make(f, va, {R, C}), b = make(f, vb, {C, R});
  Arr bt;
  CN_REQUIRE_OK(cn_transpose(bt.out(), b)); // (R, C) with strides (1, R)
  Arr r, s;
  CN_REQUIRE_OK(cn_multiply(r.out(), a, bt, nullptr));
  CN_REQUIRE_OK(cn_sin(s.out(), bt, nullptr));
  auto got = read(r), gs = read(s);
  for (int64_t i = 0; i < R; i++)
    for (int64_t j = 0; j < C; j++) {
      LD want = va[i * C + j].real() * vb[j * R + i].real();
      REQUIRE(got[i * C + j].real() == want);
      REQUIRE(std::fabs(gs[i * C + j].real() - std::sin(vb[j * R + i].real())) <
              1e-15L);
    }
  // a contiguous 1-d array past the threading threshold, SLEEF path
  const int64_t N = 200003;
  std::vector<CL> x(N);
  for (int64_t i = 0; i < N; i++)
    x[i] = (LD)(i - N / 2) * 1e-4L; // |x| <= 10
  const DT &f32 = dt_info(CN_FLOAT32);
  for (const DT *t : {&f, &f32}) {
    Arr X = make1(*t, x), E, L;
    CN_REQUIRE_OK(cn_exp(E.out(), X, nullptr));
    CN_REQUIRE_OK(cn_add(L.out(), X, X, nullptr));
    auto ge = read(E), gl = read(L);
    auto xr = rounded(*t, x);
    for (int64_t i = 0; i < N; i++) {
      LD w = std::exp(xr[i].real());
      REQUIRE(ulps(ge[i].real(), w, t->bits) <= 4);
      REQUIRE(gl[i].real() == 2 * xr[i].real());
    }
  }
}

TEST_CASE("dst: in place, casting, shape and read-only errors", "[ufunc]") {
  const DT &f = dt_info(CN_FLOAT64);
  Arr a = make1(f, {1, 2, 3, 4}), b = make1(f, {10, 20, 30, 40});
  Arr r;
  CN_REQUIRE_OK(cn_add(r.out(), a, b, a)); // in place
  REQUIRE(r.h == a.h);
  REQUIRE(read(a) == std::vector<CL>{11, 22, 33, 44});

  // partial overlap: dst = a[1:], input = a[:-1]  ->  computed via a temp
  Arr c = make1(f, {1, 2, 3, 4, 5}), lo, hi, r2;
  CN_REQUIRE_OK(cn_slice_axis(lo.out(), c, 0, 0, 4, 1));
  CN_REQUIRE_OK(cn_slice_axis(hi.out(), c, 0, 1, 5, 1));
  CN_REQUIRE_OK(cn_multiply(r2.out(), lo, lo, hi));
  REQUIRE(read(c) == std::vector<CL>{1, 1, 4, 9, 16});

  // a result into a dst of another dtype of the same kind
  Arr d32;
  int64_t n4 = 4;
  CN_REQUIRE_OK(cn_zeros(d32.out(), 1, &n4, CN_FLOAT32, CN_ORDER_C));
  Arr r3;
  CN_REQUIRE_OK(cn_multiply(r3.out(), b, b, d32));
  REQUIRE(read(d32) == std::vector<CL>{100, 400, 900, 1600});
  // broadcasting inputs into a larger dst
  Arr d2;
  int64_t sh[2] = {2, 4};
  CN_REQUIRE_OK(cn_zeros(d2.out(), 2, sh, CN_FLOAT64, CN_ORDER_C));
  Arr r4;
  CN_REQUIRE_OK(cn_negative(r4.out(), b, d2));
  REQUIRE(read(d2)[7] == CL(-40));

  // errors: inputs and dst unchanged, *out untouched
  Arr di;
  CN_REQUIRE_OK(cn_zeros(di.out(), 1, &n4, CN_INT64, CN_ORDER_C));
  cn_array sentinel = (cn_array)0x1;
  cn_array o = sentinel;
  CN_REQUIRE_ERR(cn_divide(&o, a, b, di), CN_ERR_TYPE, "same_kind");
  REQUIRE(o == sentinel);
  REQUIRE(read(di) == std::vector<CL>{0, 0, 0, 0});
  Arr d3;
  int64_t n3 = 3;
  CN_REQUIRE_OK(cn_zeros(d3.out(), 1, &n3, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_add(&o, a, b, d3), CN_ERR_SHAPE, "'dst' has shape (3,)");
  REQUIRE(o == sentinel);
  Arr ro;
  CN_REQUIRE_OK(cn_readonly_view(ro.out(), b));
  CN_REQUIRE_ERR(cn_add(&o, a, b, ro), CN_ERR_VALUE, "read-only");
  REQUIRE(o == sentinel);
  REQUIRE(read(b) == std::vector<CL>{10, 20, 30, 40});
  REQUIRE(read(a) == std::vector<CL>{11, 22, 33, 44});
}

TEST_CASE("promotion, weak scalars and loop selection", "[ufunc]") {
  auto dt_of = [](cn_dtype x, cn_dtype y, const char *op = "add") {
    Arr a = make1(dt_info(x), {1, 2}), b = make1(dt_info(y), {1, 2}), r;
    cn_array in[2] = {a, b};
    CN_REQUIRE_OK(cn_ufunc(r.out(), op, 2, in, nullptr));
    return dtype_of(r);
  };
  REQUIRE(dt_of(CN_INT8, CN_UINT8) == CN_INT16);
  REQUIRE(dt_of(CN_INT64, CN_UINT64) == CN_FLOAT64);
  REQUIRE(dt_of(CN_FLOAT32, CN_INT64) == CN_FLOAT64);
  REQUIRE(dt_of(CN_BOOL, CN_BOOL) == CN_BOOL);
  REQUIRE(dt_of(CN_FLOAT32, CN_COMPLEX64) == CN_COMPLEX64);
  REQUIRE(dt_of(CN_INT8, CN_INT8, "divide") == CN_FLOAT64);
  REQUIRE(dt_of(CN_BOOL, CN_BOOL, "arctan2") == CN_FLOAT16);
  REQUIRE(dt_of(CN_BOOL, CN_BOOL, "floor_divide") == CN_INT8);
  REQUIRE(dt_of(CN_INT16, CN_INT16, "hypot") == CN_FLOAT32);
  REQUIRE(dt_of(CN_INT32, CN_INT32, "hypot") == CN_FLOAT64);
  REQUIRE(dt_of(CN_INT32, CN_INT32, "less") == CN_BOOL);

  // unary inexact ops on integers: float16 for 8-bit ints, float32 for
  // 16-bit ones, float64 else (NumPy)
  Arr i8 = make1(dt_info(CN_INT8), {4, 9}), i64 = make1(dt_info(CN_INT64), {4});
  Arr r1, r2, r1f, i16 = make1(dt_info(CN_INT16), {4, 9}), r16;
  CN_REQUIRE_OK(cn_sqrt(r1.out(), i8, nullptr));
  REQUIRE(dtype_of(r1) == CN_FLOAT16);
  CN_REQUIRE_OK(cn_astype(r1f.out(), r1, CN_FLOAT32, 1));
  REQUIRE(read(r1f) == std::vector<CL>{2, 3});
  CN_REQUIRE_OK(cn_sqrt(r16.out(), i16, nullptr));
  REQUIRE(dtype_of(r16) == CN_FLOAT32);
  REQUIRE(read(r16) == std::vector<CL>{2, 3});
  CN_REQUIRE_OK(cn_sqrt(r2.out(), i64, nullptr));
  REQUIRE(dtype_of(r2) == CN_FLOAT64);

  // no loop
  Arr f = make1(dt_info(CN_FLOAT64), {1}),
      c = make1(dt_info(CN_COMPLEX128), {1});
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_bitwise_and(&o, f, f, nullptr), CN_ERR_TYPE,
                 "cn_bitwise_and: no loop for dtype float64");
  CN_REQUIRE_ERR(cn_floor_divide(&o, c, c, nullptr), CN_ERR_TYPE,
                 "no loop for dtype complex128");
  CN_REQUIRE_ERR(cn_left_shift(&o, f, i8, nullptr), CN_ERR_TYPE, "float64");
  REQUIRE(o == nullptr);

  // weak scalars keep the array's dtype within a kind (NEP 50)
  Arr w300 = weak_i(300), w1 = weak_i(1), wf = weak_f(1.5), r3, r4, r5, r6;
  CN_REQUIRE_OK(cn_add(r3.out(), i8, w1, nullptr));
  REQUIRE(dtype_of(r3) == CN_INT8);
  REQUIRE(read(r3) == std::vector<CL>{5, 10});
  CN_REQUIRE_ERR(cn_add(&o, i8, w300, nullptr), CN_ERR_OVERFLOW, "300");
  REQUIRE(std::string(cn_last_error()).rfind("cn_add", 0) == 0);
  Arr f32 = make1(dt_info(CN_FLOAT32), {1, 2});
  CN_REQUIRE_OK(cn_multiply(r4.out(), wf, f32, nullptr));
  REQUIRE(dtype_of(r4) == CN_FLOAT32);
  REQUIRE(read(r4) == std::vector<CL>{1.5, 3});
  CN_REQUIRE_OK(cn_multiply(r5.out(), i8, wf, nullptr));
  REQUIRE(dtype_of(r5) == CN_FLOAT64);
  CN_REQUIRE_OK(cn_add(r6.out(), w1, wf, nullptr)); // two weak scalars
  REQUIRE(dtype_of(r6) == CN_FLOAT64);
  REQUIRE(read(r6) == std::vector<CL>{2.5});
  REQUIRE(read(i8) == std::vector<CL>{4, 9});
}

TEST_CASE("argument errors name the function and the argument", "[ufunc]") {
  Arr a = make1(dt_info(CN_FLOAT64), {1, 2});
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_add(nullptr, a, a, nullptr), CN_ERR_VALUE,
                 "cn_add: output pointer is NULL");
  CN_REQUIRE_ERR(cn_add(&o, a, nullptr, nullptr), CN_ERR_VALUE,
                 "cn_add: argument 'x2' is NULL");
  CN_REQUIRE_ERR(cn_sin(&o, nullptr, nullptr), CN_ERR_VALUE,
                 "cn_sin: argument 'x' is NULL");
  CN_REQUIRE_ERR(cn_clip(&o, a, a, nullptr, nullptr), CN_ERR_VALUE,
                 "cn_clip: argument 'hi' is NULL");
  // released handles (the engine keeps dead handles recognisable)
  cn_array dead = nullptr;
  int64_t n2 = 2;
  CN_REQUIRE_OK(cn_zeros(&dead, 1, &n2, CN_FLOAT64, CN_ORDER_C));
  cn_array_release(dead);
  CN_REQUIRE_ERR(cn_multiply(&o, a, dead, nullptr), CN_ERR_VALUE,
                 "cn_multiply: argument 'x2' is a released");
  CN_REQUIRE_ERR(cn_add(&o, a, a, dead), CN_ERR_VALUE,
                 "cn_add: argument 'dst' is a released");
  // cn_ufunc's own arguments
  cn_array in[1] = {a};
  CN_REQUIRE_ERR(cn_ufunc(&o, "nope", 2, in, nullptr), CN_ERR_VALUE,
                 "cn_ufunc: unknown op 'nope'");
  CN_REQUIRE_ERR(cn_ufunc(&o, "add", 1, in, nullptr), CN_ERR_VALUE,
                 "op 'add' takes 2 inputs, got 1");
  CN_REQUIRE_ERR(cn_ufunc(&o, nullptr, 1, in, nullptr), CN_ERR_VALUE,
                 "'name' is NULL");
  CN_REQUIRE_ERR(cn_ufunc(&o, "sin", 1, nullptr, nullptr), CN_ERR_VALUE,
                 "'inputs' is NULL");
  CN_REQUIRE_ERR(cn_ufunc(nullptr, "sin", 1, in, nullptr), CN_ERR_VALUE,
                 "output pointer is NULL");
  cn_array in2[2] = {a, nullptr};
  CN_REQUIRE_ERR(cn_ufunc(&o, "add", 2, in2, nullptr), CN_ERR_VALUE,
                 "cn_add: argument 'x2' is NULL");
  REQUIRE(o == nullptr);
  REQUIRE(read(a) == std::vector<CL>{1, 2});
}

TEST_CASE("where", "[ufunc]") {
  const DT &f = dt_info(CN_FLOAT64), &i = dt_info(CN_INT32);
  Arr cond = make(dt_info(CN_BOOL), {1, 0, 1}, {3, 1});
  Arr x = make(i, {1, 2, 3, 4}, {1, 4});
  Arr y = make(f, {-0.5}, {});
  Arr r;
  CN_REQUIRE_OK(cn_where(r.out(), cond, x, y, nullptr));
  REQUIRE(dtype_of(r) == CN_FLOAT64);
  REQUIRE(shape_of(r) == std::vector<int64_t>{3, 4});
  std::vector<CL> want = {1, 2, 3, 4, -0.5, -0.5, -0.5, -0.5, 1, 2, 3, 4};
  REQUIRE(read(r) == want);
  // non-bool cond (nonzero is true), weak scalar branches, complex
  Arr ci = make1(f, {0, 2.5, NAN});
  Arr r2, w7 = weak_i(7), w9 = weak_i(9);
  CN_REQUIRE_OK(cn_where(r2.out(), ci, w7, w9, nullptr));
  REQUIRE(dtype_of(r2) == CN_INT64);
  REQUIRE(read(r2) == std::vector<CL>{9, 7, 7});
  Arr z = make1(dt_info(CN_COMPLEX128), {CL(1, 2), CL(3, 4), CL(5, 6)}), r3;
  CN_REQUIRE_OK(cn_where(r3.out(), ci, z, w9, nullptr));
  REQUIRE(read(r3) == std::vector<CL>{9, CL(3, 4), CL(5, 6)});
  // dst and errors
  Arr d;
  int64_t sh[2] = {3, 4};
  CN_REQUIRE_OK(cn_zeros(d.out(), 2, sh, CN_FLOAT32, CN_ORDER_C));
  Arr r4;
  CN_REQUIRE_OK(cn_where(r4.out(), cond, x, y, d));
  REQUIRE(read(d) == want);
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_where(&o, nullptr, x, y, nullptr), CN_ERR_VALUE,
                 "cn_where: argument 'cond' is NULL");
  Arr bad = make(i, {1, 2}, {2, 1});
  CN_REQUIRE_ERR(cn_where(&o, cond, bad, y, nullptr), CN_ERR_SHAPE, "cn_where");
  Arr di;
  CN_REQUIRE_OK(cn_zeros(di.out(), 2, sh, CN_INT32, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_where(&o, cond, x, y, di), CN_ERR_TYPE, "same_kind");
  REQUIRE(o == nullptr);
}

TEST_CASE("round", "[ufunc]") {
  const DT &f = dt_info(CN_FLOAT64);
  Arr x = make1(f, {0.5, 1.5, 2.5, -0.5, 1.2345, -2.675, NAN, INFINITY});
  Arr r0, r2, rn;
  CN_REQUIRE_OK(cn_round(r0.out(), x, 0, nullptr));
  auto v0 = read(r0);
  REQUIRE(v0[0] == CL(0));
  REQUIRE(v0[1] == CL(2));
  REQUIRE(v0[2] == CL(2));
  REQUIRE(std::signbit(v0[3].real()));
  REQUIRE(std::isnan(v0[6].real()));
  REQUIRE(v0[7] == CL(INFINITY));
  CN_REQUIRE_OK(cn_round(r2.out(), x, 2, nullptr));
  auto v2 = read(r2);
  REQUIRE(v2[4].real() == (LD)(std::rint(1.2345 * 100) / 100));
  REQUIRE(v2[5].real() == (LD)(std::rint(-2.675 * 100) / 100));
  Arr big = make1(f, {1234.5, 1250, 1350});
  CN_REQUIRE_OK(cn_round(rn.out(), big, -2, nullptr));
  REQUIRE(read(rn) == std::vector<CL>{1200, 1200, 1400});
  // integers: unchanged for d >= 0, half-to-even tens for d < 0
  const DT &i = dt_info(CN_INT64);
  Arr xi = make1(i, {15, 25, -15, 7, 123456789});
  Arr ri, ri0;
  CN_REQUIRE_OK(cn_round(ri.out(), xi, -1, nullptr));
  REQUIRE(dtype_of(ri) == CN_INT64);
  REQUIRE(read(ri) == std::vector<CL>{20, 20, -20, 10, 123456790});
  CN_REQUIRE_OK(cn_round(ri0.out(), xi, 3, nullptr));
  REQUIRE(read(ri0) == read(xi));
  // float32 and complex keep their dtype
  Arr xf = make1(dt_info(CN_FLOAT32), {2.5f, 0.125f}), rf;
  CN_REQUIRE_OK(cn_round(rf.out(), xf, 1, nullptr));
  REQUIRE(dtype_of(rf) == CN_FLOAT32);
  REQUIRE(read(rf)[0] == CL(2.5));
  Arr xc = make1(dt_info(CN_COMPLEX128), {CL(1.5, -2.5)}), rc;
  CN_REQUIRE_OK(cn_round(rc.out(), xc, 0, nullptr));
  REQUIRE(read(rc) == std::vector<CL>{CL(2, -2)});
  // each part rounds as a real value (NumPy's rule): no NaN from inf * 1,
  // and signed zeros keep their signs
  Arr xci = make1(dt_info(CN_COMPLEX128),
                  {CL(INFINITY, -0.0), CL(-0.25, 0.0)}), rci;
  CN_REQUIRE_OK(cn_round(rci.out(), xci, 1, nullptr));
  auto vci = read(rci);
  REQUIRE(std::isinf(vci[0].real()));
  REQUIRE(vci[0].imag() == 0);
  REQUIRE(std::signbit(vci[0].imag()));
  REQUIRE(vci[1] == CL(-0.2, 0.0));
  // dst and errors
  Arr d;
  int64_t n8 = 8;
  CN_REQUIRE_OK(cn_zeros(d.out(), 1, &n8, CN_FLOAT32, CN_ORDER_C));
  Arr rd;
  CN_REQUIRE_OK(cn_round(rd.out(), x, 0, d));
  REQUIRE(rd.h == d.h);
  REQUIRE(read(d)[1] == CL(2));
  cn_array o = nullptr;
  Arr b = make1(dt_info(CN_BOOL), {1});
  CN_REQUIRE_ERR(cn_round(&o, b, 0, nullptr), CN_ERR_TYPE, "cn_round");
  Arr di;
  CN_REQUIRE_OK(cn_zeros(di.out(), 1, &n8, CN_INT64, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_round(&o, x, 0, di), CN_ERR_TYPE, "same_kind");
  Arr d3;
  int64_t n3 = 3;
  CN_REQUIRE_OK(cn_zeros(d3.out(), 1, &n3, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_round(&o, x, 0, d3), CN_ERR_SHAPE, "shape (3,)");
  CN_REQUIRE_ERR(cn_round(&o, nullptr, 0, nullptr), CN_ERR_VALUE,
                 "argument 'x' is NULL");
  REQUIRE(o == nullptr);
  REQUIRE(read(di) == std::vector<CL>(8, 0));
}

TEST_CASE("complex special values in classification and comparison",
          "[ufunc]") {
  const DT &c = dt_info(CN_COMPLEX128);
  LD inf = INFINITY, nan = NAN;
  std::vector<CL> v = {CL(inf, 0), CL(0, -inf), CL(nan, 1),
                       CL(1, nan), CL(1, 1),    CL(0, 0)};
  Arr a = make1(c, v);
  Arr n, i, f;
  CN_REQUIRE_OK(cn_isnan(n.out(), a, nullptr));
  CN_REQUIRE_OK(cn_isinf(i.out(), a, nullptr));
  CN_REQUIRE_OK(cn_isfinite(f.out(), a, nullptr));
  REQUIRE(read(n) == std::vector<CL>{0, 0, 1, 1, 0, 0});
  REQUIRE(read(i) == std::vector<CL>{1, 1, 0, 0, 0, 0});
  REQUIRE(read(f) == std::vector<CL>{0, 0, 0, 0, 1, 1});
  Arr s;
  CN_REQUIRE_OK(cn_sign(s.out(), a, nullptr));
  auto sv = read(s);
  REQUIRE(sv[0] == CL(1, 0));
  REQUIRE(sv[1] == CL(0, -1));
  REQUIRE(cnan(sv[2]));
  REQUIRE(sv[5] == CL(0, 0));
  Arr m;
  CN_REQUIRE_OK(cn_maximum(m.out(), a, a, nullptr));
  REQUIRE(cnan(read(m)[2]));
}

TEST_CASE("vector (SLEEF) and scalar libm paths agree over wide ranges",
          "[ufunc]") {
  // The contiguous float loops of the transcendental ops use SLEEF; strided
  // ones call libm. Both must agree within a few ulps everywhere, NaN, inf
  // and zero signs included.
  const char *ops[] = {"sin",     "cos",     "tan",     "arcsin", "arccos",
                       "arctan",  "sinh",    "cosh",    "tanh",   "arcsinh",
                       "arccosh", "arctanh", "exp",     "exp2",   "expm1",
                       "log",     "log2",    "log10",   "log1p",  "cbrt",
                       "sqrt",    "power",   "arctan2", "hypot"};
  uint64_t seed = 12345;
  auto rnd = [&]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (LD)(seed >> 11) / (LD)(1ULL << 53);
  };
  for (cn_dtype d : {CN_FLOAT32, CN_FLOAT64}) {
    const DT &t = dt_info(d);
    const int emax = t.bits == 32 ? 38 : 307;
    std::vector<CL> xs, ys;
    for (int i = 0; i < 4000; i++) {
      LD mag = std::pow(10.0L, (rnd() * 2 - 1) * emax);
      LD small = (rnd() * 2 - 1) * 4; // the interesting [-4, 4]
      xs.push_back(i % 2 ? (rnd() < 0.5 ? -mag : mag) : small);
      LD mag2 = std::pow(10.0L, (rnd() * 2 - 1) * 3);
      ys.push_back(i % 3 ? (rnd() < 0.5 ? -mag2 : mag2)
                         : std::round(small * 4));
    }
    for (LD sp :
         {0.0L, -0.0L, (LD)INFINITY, -(LD)INFINITY, (LD)NAN, 1.0L, -1.0L}) {
      xs.push_back(sp);
      ys.push_back(sp);
    }
    xs = rounded(t, xs);
    ys = rounded(t, ys);
    const int64_t n = (int64_t)xs.size();
    std::vector<CL> x2(2 * n), y2(2 * n);
    for (int64_t i = 0; i < n; i++)
      x2[2 * i] = xs[i], y2[2 * i] = ys[i];
    Arr X = make1(t, xs), Y = make1(t, ys), X2 = make1(t, x2),
        Y2 = make1(t, y2), Xs, Ys;
    CN_REQUIRE_OK(cn_slice_axis(Xs.out(), X2, 0, 0, CN_SLICE_NONE, 2));
    CN_REQUIRE_OK(cn_slice_axis(Ys.out(), Y2, 0, 0, CN_SLICE_NONE, 2));
    for (const char *op : ops) {
      const OpSpec &s = *spec(op);
      cn_array in_c[2] = {X, Y}, in_s[2] = {Xs, Ys};
      Arr Rc, Rs;
      CN_REQUIRE_OK(cn_ufunc(Rc.out(), op, s.nin, in_c, nullptr));
      CN_REQUIRE_OK(cn_ufunc(Rs.out(), op, s.nin, in_s, nullptr));
      auto gc = read(Rc), gs = read(Rs);
      std::ostringstream log;
      log.precision(10);
      int bad = 0;
      for (int64_t i = 0; i < n && bad < 5; i++) {
        LD a = gc[i].real(), b = gs[i].real();
        bool ok = std::isnan(a) || std::isnan(b)
                      ? std::isnan(a) == std::isnan(b)
                  : std::isinf(a) || std::isinf(b) ? a == b
                  : a == 0 || b == 0
                      ? (a == b && std::signbit(a) == std::signbit(b)) ||
                            std::fabs(a - b) < 1e-300L
                      : ulps(a, b, t.bits) <= 4;
        if (!ok) {
          bad++;
          log << op << "(" << xs[i].real() << ", " << ys[i].real()
              << "): vector " << a << " libm " << b << "\n";
        }
      }
      INFO(cn_dtype_name(d) << " " << log.str());
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("large outputs are exact, aligned or not", "[ufunc][large]") {
  // 2^21 + 3 float64 (16 MiB + 24 bytes): several threads, odd tail
  const int64_t n = (1 << 21) + 3;
  std::vector<double> va(n), vb(n);
  for (int64_t i = 0; i < n; i++) {
    va[i] = (double)i * 0.5;
    vb[i] = (double)(i % 97) - 48.0;
  }
  Arr a = from_vec(va, {n}, CN_FLOAT64);
  Arr b = from_vec(vb, {n}, CN_FLOAT64);
  Arr s;
  CN_REQUIRE_OK(cn_add(s.out(), a, b, nullptr));
  auto got = to_vec<double>(s);
  for (int64_t i = 0; i < n; i++)
    REQUIRE(got[i] == va[i] + vb[i]);
  // an output starting 8 bytes into its buffer: unaligned head and tail
  int64_t big = n + 1;
  Arr dbuf, dst, sa, sb;
  CN_REQUIRE_OK(cn_zeros(dbuf.out(), 1, &big, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_OK(cn_slice_axis(dst.out(), dbuf, 0, 1, CN_SLICE_NONE, 1));
  Arr r;
  CN_REQUIRE_OK(cn_multiply(r.out(), a, b, dst));
  auto all = to_vec<double>(dbuf);
  REQUIRE(all[0] == 0.0);
  for (int64_t i = 0; i < n; i++)
    REQUIRE(all[i + 1] == va[i] * vb[i]);
  // a wide output dtype (complex128) and a narrow one (bool)
  Arr c, cmp;
  CN_REQUIRE_OK(cn_astype(c.out(), a, CN_COMPLEX128, 1));
  Arr c2;
  CN_REQUIRE_OK(cn_negative(c2.out(), c, nullptr));
  auto gc = to_vec<std::complex<double>>(c2);
  REQUIRE(gc[n - 1] == std::complex<double>(-va[n - 1], 0.0));
  REQUIRE(gc[12345] == std::complex<double>(-va[12345], 0.0));
  int64_t nb = (int64_t)17 << 20; // bool output of 17 MiB
  Arr x, y;
  CN_REQUIRE_OK(cn_arange(x.out(), 0, (double)nb, 1, CN_FLOAT32));
  CN_REQUIRE_OK(cn_isfinite(y.out(), x, nullptr));
  auto gb = to_vec<uint8_t>(y);
  for (int64_t i = 0; i < nb; i += 4099)
    REQUIRE(gb[i] == 1);
  REQUIRE(gb[nb - 1] == 1);
}

// ---- NumPy 2 semantics formerly listed as differences ----------------------

namespace {
Arr weak_u(uint64_t v) {
  Arr a;
  CN_REQUIRE_OK(cn_scalar_array(a.out(), cn_scalar_uint(v)));
  return a;
}
// Integer limits of t as long doubles.
LD int_lo(const DT &t) {
  return t.kind == 'u' ? 0 : -std::ldexp((LD)1, t.bits - 1);
}
LD int_hi(const DT &t) {
  return std::ldexp((LD)1, t.kind == 'u' ? t.bits : t.bits - 1) - 1;
}
} // namespace

TEST_CASE("floor, ceil and trunc keep bool and integer dtypes", "[ufunc]") {
  for (const DT &t : kDTs) {
    if (t.kind == 'f' || t.kind == 'c')
      continue;
    INFO(cn_dtype_name(t.dt));
    std::vector<CL> v = t.kind == 'b'
                            ? std::vector<CL>{1, 0, 1}
                            : std::vector<CL>{int_lo(t), 0, 1, int_hi(t), 7};
    Arr a = make1(t, v);
    for (const char *op : {"floor", "ceil", "trunc"}) {
      INFO(op);
      cn_array in[1] = {a};
      Arr r;
      CN_REQUIRE_OK(cn_ufunc(r.out(), op, 1, in, nullptr));
      REQUIRE(dtype_of(r) == t.dt);
      REQUIRE(read(r) == v);
      // reversed view
      Arr rv, r2;
      CN_REQUIRE_OK(
          cn_slice_axis(rv.out(), a, 0, CN_SLICE_NONE, CN_SLICE_NONE, -1));
      cn_array in2[1] = {rv};
      CN_REQUIRE_OK(cn_ufunc(r2.out(), op, 1, in2, nullptr));
      REQUIRE(read(r2) == std::vector<CL>(v.rbegin(), v.rend()));
      // dst: float64 (same_kind: a safe cast) holds the values exactly
      // below 2**53; complex too; bool from an integer is refused
      Arr d = make1(dt_info(CN_FLOAT64), std::vector<CL>(v.size(), -5));
      Arr r3;
      CN_REQUIRE_OK(cn_ufunc(r3.out(), op, 1, in, d));
      REQUIRE(r3.h == d.h);
      std::vector<CL> want;
      for (auto x : v)
        want.push_back((LD)(double)x.real());
      REQUIRE(read(d) == want);
      if (t.kind != 'b') {
        Arr db = make1(dt_info(CN_BOOL), std::vector<CL>(v.size(), 0));
        cn_array o = nullptr;
        CN_REQUIRE_ERR(cn_ufunc(&o, op, 1, in, db), CN_ERR_TYPE,
                       "with casting rule 'same_kind'");
        REQUIRE(o == nullptr);
        REQUIRE(read(db) == std::vector<CL>(v.size(), 0));
      }
    }
  }
  // 0-d and empty
  Arr z = make(dt_info(CN_INT16), {-3}, {}),
      e = make(dt_info(CN_UINT8), {}, {0});
  Arr rz, re;
  CN_REQUIRE_OK(cn_floor(rz.out(), z, nullptr));
  REQUIRE(dtype_of(rz) == CN_INT16);
  REQUIRE(read(rz) == std::vector<CL>{-3});
  CN_REQUIRE_OK(cn_ceil(re.out(), e, nullptr));
  REQUIRE(dtype_of(re) == CN_UINT8);
  REQUIRE(read(re).empty());
  // rint stays a float op (float32 for small integers)
  Arr ri;
  CN_REQUIRE_OK(cn_rint(ri.out(), z, nullptr));
  REQUIRE(dtype_of(ri) == CN_FLOAT32);
}

TEST_CASE("bool subtract, negative, positive and sign are type errors",
          "[ufunc]") {
  Arr b = make1(dt_info(CN_BOOL), {1, 0, 1});
  Arr wb;
  CN_REQUIRE_OK(cn_scalar_array(wb.out(), cn_scalar_bool(1)));
  Arr sentinel = make1(dt_info(CN_INT8), {9});
  cn_array o = sentinel;
  CN_REQUIRE_ERR(cn_subtract(&o, b, b, nullptr), CN_ERR_TYPE,
                 "cn_subtract: numpy boolean subtract, the `-` operator, is "
                 "not supported, use the bitwise_xor");
  CN_REQUIRE_ERR(cn_subtract(&o, b, wb, nullptr), CN_ERR_TYPE,
                 "numpy boolean subtract");
  CN_REQUIRE_ERR(cn_negative(&o, b, nullptr), CN_ERR_TYPE,
                 "cn_negative: The numpy boolean negative, the `-` operator, "
                 "is not supported, use the `~` operator or the logical_not");
  CN_REQUIRE_ERR(cn_positive(&o, b, nullptr), CN_ERR_TYPE,
                 "cn_positive: no loop for dtype bool");
  CN_REQUIRE_ERR(cn_sign(&o, b, nullptr), CN_ERR_TYPE,
                 "cn_sign: no loop for dtype bool");
  // NumPy has no bool loop for gcd / lcm either (bool would cast to int8)
  CN_REQUIRE_ERR(cn_gcd(&o, b, b, nullptr), CN_ERR_TYPE,
                 "cn_gcd: no loop for dtype bool");
  CN_REQUIRE_ERR(cn_lcm(&o, b, wb, nullptr), CN_ERR_TYPE,
                 "cn_lcm: no loop for dtype bool");
  cn_array in[2] = {b, b};
  CN_REQUIRE_ERR(cn_ufunc(&o, "subtract", 2, in, nullptr), CN_ERR_TYPE,
                 "cn_subtract: numpy boolean subtract");
  REQUIRE(o == sentinel.h);
  REQUIRE(read(b) == std::vector<CL>{1, 0, 1});
  // with a non-bool partner the ops compute as usual
  Arr i8 = make1(dt_info(CN_INT8), {5, 5, 5}), r1, r2;
  CN_REQUIRE_OK(cn_subtract(r1.out(), b, i8, nullptr));
  REQUIRE(dtype_of(r1) == CN_INT8);
  REQUIRE(read(r1) == std::vector<CL>{-4, -5, -4});
  CN_REQUIRE_OK(cn_subtract(r2.out(), b, weak_i(1), nullptr));
  REQUIRE(dtype_of(r2) == CN_INT64);
  REQUIRE(read(r2) == std::vector<CL>{0, -1, 0});
  // NumPy computes these in int8 (conj included), abs keeps bool
  for (const char *op : {"square", "reciprocal", "conj"}) {
    INFO(op);
    cn_array in1[1] = {b};
    Arr r;
    CN_REQUIRE_OK(cn_ufunc(r.out(), op, 1, in1, nullptr));
    REQUIRE(dtype_of(r) == CN_INT8);
    REQUIRE(read(r) == std::vector<CL>{1, 0, 1});
  }
  Arr ra;
  CN_REQUIRE_OK(cn_abs(ra.out(), b, nullptr));
  REQUIRE(dtype_of(ra) == CN_BOOL);
}

TEST_CASE("weak integers out of the array dtype's range", "[ufunc]") {
  struct Case {
    cn_dtype dt;
    bool is_uint; // the weak value is a CN_SCALAR_UINT
    int64_t i;
    uint64_t u;
  };
  const Case cases[] = {
      {CN_UINT8, false, -1, 0},       {CN_UINT8, false, 300, 0},
      {CN_INT8, false, -129, 0},      {CN_INT8, false, 128, 0},
      {CN_UINT64, false, -1, 0},      {CN_INT64, true, 0, 1ull << 63},
      {CN_INT64, true, 0, ~0ull},     {CN_UINT32, false, INT64_MIN, 0},
      {CN_INT16, false, INT64_MAX, 0}};
  const char *cmps[] = {"less",  "less_equal",    "greater",
                        "equal", "greater_equal", "not_equal"};
  for (const Case &k : cases) {
    const DT &t = dt_info(k.dt);
    LD s = k.is_uint ? (LD)k.u : (LD)k.i;
    INFO(cn_dtype_name(k.dt) << " vs " << (double)s);
    std::vector<CL> v = {int_lo(t), 0, 1, int_hi(t)};
    Arr a = make1(t, v);
    Arr w = k.is_uint ? weak_u(k.u) : weak_i(k.i);
    for (const char *op : cmps) {
      for (int mirror = 0; mirror < 2; mirror++) {
        INFO(op << (mirror ? " (scalar first)" : ""));
        cn_array in[2] = {a, w};
        if (mirror)
          std::swap(in[0], in[1]);
        Arr r;
        CN_REQUIRE_OK(cn_ufunc(r.out(), op, 2, in, nullptr));
        REQUIRE(dtype_of(r) == CN_BOOL);
        std::vector<CL> got = read(r);
        REQUIRE(got.size() == v.size());
        for (size_t i = 0; i < v.size(); i++) {
          LD x = mirror ? s : v[i].real(), y = mirror ? v[i].real() : s;
          std::string n = op;
          bool want = n == "less"            ? x < y
                      : n == "less_equal"    ? x <= y
                      : n == "greater"       ? x > y
                      : n == "greater_equal" ? x >= y
                      : n == "equal"         ? x == y
                                             : x != y;
          REQUIRE(got[i] == CL(want));
        }
      }
    }
    // logical ops see a nonzero value (NumPy reads it as an int64)
    for (const char *op : {"logical_and", "logical_or", "logical_xor"}) {
      INFO(op);
      cn_array in[2] = {w, a};
      Arr r;
      if (k.is_uint) {
        cn_array o = nullptr;
        CN_REQUIRE_ERR(cn_ufunc(&o, op, 2, in, nullptr), CN_ERR_OVERFLOW,
                       "out of bounds for int64");
        REQUIRE(o == nullptr);
        continue;
      }
      CN_REQUIRE_OK(cn_ufunc(r.out(), op, 2, in, nullptr));
      std::vector<CL> got = read(r);
      for (size_t i = 0; i < v.size(); i++) {
        bool x = v[i].real() != 0, n = std::string(op) == "logical_and";
        bool want = n ? x : std::string(op) == "logical_or" ? true : !x;
        REQUIRE(got[i] == CL(want));
      }
    }
    // ops computing in floats convert the value; integer ops refuse it
    Arr h;
    cn_array hin[2] = {a, w};
    CN_REQUIRE_OK(cn_ufunc(h.out(), "hypot", 2, hin, nullptr));
    if (dtype_of(h) == CN_FLOAT16) {
      // 8-bit ints compute in float16 (NumPy): checked through float32,
      // which holds every float16; a scalar beyond 65504 is inf there
      Arr h32;
      CN_REQUIRE_OK(cn_astype(h32.out(), h, CN_FLOAT32, 1));
      std::vector<CL> hv = read(h32);
      for (size_t i = 0; i < v.size(); i++) {
        LD want = std::fabs(s) > 65504 ? (LD)INFINITY
                                       : std::hypot(v[i].real(), s);
        if (std::isinf(want))
          REQUIRE(std::isinf(hv[i].real()));
        else
          REQUIRE(std::fabs(hv[i].real() - want) <= 9.8e-4L * want);
      }
    }
    const DT &ft = dt_info(dtype_of(h) == CN_FLOAT16 ? CN_FLOAT32 : dtype_of(h));
    REQUIRE(ft.kind == 'f');
    std::vector<CL> hv = dtype_of(h) == CN_FLOAT16 ? std::vector<CL>() : read(h);
    for (size_t i = 0; i < hv.size(); i++) {
      unsigned char buf[8];
      put(ft, buf, CL(s));
      LD sf = get(ft, buf).real(); // the scalar in the float dtype
      put(ft, buf, v[i]);
      LD xf = get(ft, buf).real();
      LD want = std::hypot(xf, sf), eps = ft.bits == 32 ? 1.2e-7L : 2.3e-16L;
      REQUIRE(std::fabs(hv[i].real() - want) <= 2 * eps * want);
    }
    cn_array o = nullptr;
    for (const char *op :
         {"add", "maximum", "bitwise_and", "floor_divide", "left_shift"}) {
      INFO(op);
      CN_REQUIRE_ERR(cn_ufunc(&o, op, 2, hin, nullptr), CN_ERR_OVERFLOW,
                     "out of bounds for " + std::string(cn_dtype_name(k.dt)));
      REQUIRE(std::string(cn_last_error()).find("Python integer") !=
              std::string::npos);
      REQUIRE(o == nullptr);
    }
    REQUIRE(read(a) == v);
  }
  // ... even when the value fits the array's uint64
  Arr u64 = make1(dt_info(CN_UINT64), {0, 1});
  cn_array o0 = nullptr;
  CN_REQUIRE_ERR(cn_logical_or(&o0, u64, weak_u(~0ull), nullptr),
                 CN_ERR_OVERFLOW,
                 "Python integer 18446744073709551615 out of bounds for int64");
  REQUIRE(o0 == nullptr);
  Arr eq;
  CN_REQUIRE_OK(cn_equal(eq.out(), u64, weak_u(1ull << 63), nullptr));
  REQUIRE(read(eq) == std::vector<CL>{0, 0});
  // arctan2(uint8, -1) gives float16 (NumPy): atan2(x, -1) in float32,
  // rounded to float16 (the cast tests of test_dtype.cpp check that one)
  Arr u8 = make1(dt_info(CN_UINT8), {0, 1, 2}), at, at32, w32, w16, w16f;
  CN_REQUIRE_OK(cn_arctan2(at.out(), u8, weak_i(-1), nullptr));
  REQUIRE(dtype_of(at) == CN_FLOAT16);
  CN_REQUIRE_OK(cn_astype(at32.out(), at, CN_FLOAT32, 1));
  w32 = make1(dt_info(CN_FLOAT32), {(LD)std::atan2(0.0f, -1.0f),
                                    (LD)std::atan2(1.0f, -1.0f),
                                    (LD)std::atan2(2.0f, -1.0f)});
  CN_REQUIRE_OK(cn_astype(w16.out(), w32, CN_FLOAT16, 1));
  CN_REQUIRE_OK(cn_astype(w16f.out(), w16, CN_FLOAT32, 1));
  REQUIRE(read(at32) == read(w16f));
  // dst of another dtype, broadcasting, empty arrays
  Arr m = make(dt_info(CN_UINT8), {0, 1, 2, 3, 4, 5}, {2, 3});
  Arr d = make(dt_info(CN_INT16), {7, 7, 7, 7, 7, 7}, {2, 3}), rd;
  CN_REQUIRE_OK(cn_greater_equal(rd.out(), weak_i(-1), m, d));
  REQUIRE(rd.h == d.h);
  REQUIRE(read(d) == std::vector<CL>(6, 0));
  Arr e = make(dt_info(CN_UINT8), {}, {0, 3}), re;
  CN_REQUIRE_OK(cn_not_equal(re.out(), e, weak_i(300), nullptr));
  REQUIRE(read(re).empty());
  // clip ignores a bound beyond the dtype on its own side (NumPy 2)
  Arr c1, c2;
  CN_REQUIRE_OK(cn_clip(c1.out(), m, weak_i(-1), weak_i(3), nullptr));
  REQUIRE(read(c1) == std::vector<CL>{0, 1, 2, 3, 3, 3});
  CN_REQUIRE_OK(cn_clip(c2.out(), m, weak_i(2), weak_i(300), nullptr));
  REQUIRE(dtype_of(c2) == CN_UINT8);
  REQUIRE(read(c2) == std::vector<CL>{2, 2, 2, 3, 4, 5});
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_clip(&o, m, weak_i(-5), weak_i(-1), nullptr),
                 CN_ERR_OVERFLOW, "Python integer -1 out of bounds for uint8");
  CN_REQUIRE_ERR(cn_clip(&o, m, weak_i(300), weak_i(400), nullptr),
                 CN_ERR_OVERFLOW, "Python integer 300 out of bounds for uint8");
  REQUIRE(o == nullptr);
  // where still refuses an out-of-range weak integer
  Arr cond = make1(dt_info(CN_BOOL), {1, 0, 1});
  CN_REQUIRE_ERR(cn_where(&o, cond, u8, weak_i(-1), nullptr), CN_ERR_OVERFLOW,
                 "Python integer -1 out of bounds for uint8");
}

TEST_CASE("complex 0 ** z follows NumPy", "[ufunc]") {
  const LD n = NAN;
  for (cn_dtype dt : {CN_COMPLEX64, CN_COMPLEX128}) {
    const DT &t = dt_info(dt);
    INFO(cn_dtype_name(dt));
    // NumPy: 1 for z == 0, 0 when Re z > 0 (whatever Im z), else NaN
    std::vector<CL> z = {CL(1, 1), 2, 0,        -1,       CL(0, 1), CL(-1, 1),
                         0.5,      3, CL(1, n), CL(n, 0), CL(0, -2)};
    std::vector<CL> want = {0, 0, 1, CL(n, n), CL(n, n), CL(n, n),
                            0, 0, 0, CL(n, n), CL(n, n)};
    Arr base = make1(t, std::vector<CL>(z.size(), 0)), e = make1(t, z), r;
    CN_REQUIRE_OK(cn_power(r.out(), base, e, nullptr));
    REQUIRE(same(read(r), want));
    Arr negz = make(t, {CL(-0.0, -0.0)}, {}), r2;
    CN_REQUIRE_OK(cn_power(r2.out(), negz, e, nullptr));
    REQUIRE(same(read(r2), want));
  }
}

TEST_CASE("complex clip orders lexicographically; complex sign is z/|z|",
          "[ufunc]") {
  const LD n = NAN, inf = INFINITY;
  for (cn_dtype dt : {CN_COMPLEX64, CN_COMPLEX128}) {
    const DT &t = dt_info(dt);
    INFO(cn_dtype_name(dt));
    Arr x = make1(t, {CL(3, 4), 1, CL(-1, -1), CL(2, 5), CL(2, -5), CL(n, 1),
                      CL(1.5, 1.5)});
    Arr lo = make(t, {CL(1, 1)}, {}), hi = make(t, {CL(2, 2)}, {}), r;
    CN_REQUIRE_OK(cn_clip(r.out(), x, lo, hi, nullptr));
    REQUIRE(dtype_of(r) == dt);
    REQUIRE(same(read(r), {CL(2, 2), CL(1, 1), CL(1, 1), CL(2, 2), CL(2, -5),
                           CL(n, 1), CL(1.5, 1.5)}));
    Arr s = make1(t, {CL(3, 4), 0, CL(inf, 1), CL(inf, inf), CL(n, 0),
                      CL(0, -2), CL(-inf, 5)}),
        rs;
    CN_REQUIRE_OK(cn_sign(rs.out(), s, nullptr));
    std::vector<CL> got = read(rs);
    REQUIRE(std::abs(got[0] - CL(0.6L, 0.8L)) < 1e-6L);
    REQUIRE(same({got[1], got[2], got[3], got[4], got[5], got[6]},
                 {0, 1, CL(n, n), CL(n, n), CL(0, -1), -1}));
  }
}

TEST_CASE("integer power refuses negative exponents", "[ufunc]") {
  const char *msg = "cn_power: Integers to negative integer powers are not "
                    "allowed.";
  for (cn_dtype dt : {CN_INT8, CN_INT16, CN_INT32, CN_INT64}) {
    const DT &t = dt_info(dt);
    INFO(cn_dtype_name(dt));
    Arr base = make(t, {2, 3, -1, 1, 0, 5}, {2, 3});
    Arr d = make(t, {9, 9, 9, 9, 9, 9}, {2, 3});
    Arr sentinel = make1(t, {1});
    cn_array o = sentinel;
    Arr e1 = make1(t, {1, -1, 2}), e0 = make(t, {-2}, {});
    for (cn_array e : {(cn_array)e1, (cn_array)e0}) {
      CN_REQUIRE_ERR(cn_power(&o, base, e, nullptr), CN_ERR_VALUE, msg);
      CN_REQUIRE_ERR(cn_power(&o, base, e, d), CN_ERR_VALUE, msg);
    }
    CN_REQUIRE_ERR(cn_power(&o, base, weak_i(-1), d), CN_ERR_VALUE, msg);
    CN_REQUIRE_ERR(cn_power(&o, base, base, base), CN_ERR_VALUE, msg);
    REQUIRE(o == sentinel.h);
    REQUIRE(read(d) == std::vector<CL>(6, 9)); // nothing written
    REQUIRE(read(base) == std::vector<CL>{2, 3, -1, 1, 0, 5});
    // fine: non-negative exponents, an empty result, a float exponent
    Arr good = make1(t, {0, 1, 2}), r1, r2, r3;
    CN_REQUIRE_OK(cn_power(r1.out(), base, good, nullptr));
    REQUIRE(read(r1) == std::vector<CL>{1, 3, 1, 1, 0, 25});
    Arr empty = make(t, {}, {0, 3});
    CN_REQUIRE_OK(cn_power(r2.out(), empty, e1, nullptr));
    REQUIRE(read(r2).empty());
    CN_REQUIRE_OK(cn_power(r3.out(), base, weak_f(-1.0), nullptr));
    REQUIRE(dtype_of(r3) == CN_FLOAT64);
    REQUIRE(read(r3)[0] == CL(0.5));
  }
  // uint8 ** int8 computes in int16 and is checked; unsigned exponents never
  Arr u = make1(dt_info(CN_UINT8), {2, 3}),
      i = make1(dt_info(CN_INT8), {1, -1});
  cn_array o = nullptr;
  CN_REQUIRE_ERR(cn_power(&o, u, i, nullptr), CN_ERR_VALUE, msg);
  Arr ru;
  CN_REQUIRE_OK(cn_power(ru.out(), i, u, nullptr));
  REQUIRE(dtype_of(ru) == CN_INT16);
  REQUIRE(read(ru) == std::vector<CL>{1, -1});
  REQUIRE(o == nullptr);
}

// An exponent that is one value for the whole loop (0-d, weak scalar or a
// broadcast 1-element array) takes NumPy's shortcuts in the engine, so
// every binding gets them; the oracles are naive loops in long double and
// wrapped integer products.
TEST_CASE("power by a stride-0 exponent: shortcuts and repeated squaring",
          "[ufunc]") {
  const LD inf = INFINITY, n = NAN;
  for (cn_dtype dt : {CN_FLOAT32, CN_FLOAT64}) {
    const DT &t = dt_info(dt);
    INFO(cn_dtype_name(dt));
    std::vector<CL> x = {-0.0L, 0.0L, -inf, inf, n, -2, 3.5, 1e-30L, 0.25};
    for (int rep = 0; rep < 5; rep++) // past the vector widths
      x.push_back(CL(0.75L + rep));
    Arr a = make1(t, x);
    x = read(a); // the values as stored (1e-30 rounded)
    struct Case {
      LD e;
      LD (*f)(LD);
    };
    const Case cases[] = {
        {2, [](LD v) { return v * v; }},
        {0.5, [](LD v) { return std::sqrt(v); }}, // sqrt(-0) = -0, -inf: NaN
        {-1, [](LD v) { return 1 / v; }},
        {1, [](LD v) { return v; }},
        {0, [](LD) { return (LD)1; }}};
    for (const Case &c : cases) {
      INFO("exponent " << (double)c.e);
      std::vector<CL> want;
      for (CL v : x) {
        LD w = c.f(v.real());
        want.push_back(dt == CN_FLOAT32 ? CL((float)w) : CL((double)w));
      }
      Arr e0 = make(t, {c.e}, {}), e1 = make(t, {c.e}, {1}), r0, r1, rw;
      CN_REQUIRE_OK(cn_power(r0.out(), a, e0, nullptr));
      CN_REQUIRE_OK(cn_power(r1.out(), a, e1, nullptr));
      CN_REQUIRE_OK(cn_power(rw.out(), a, weak_f((double)c.e), nullptr));
      REQUIRE(same(read(r0), want));
      REQUIRE(same(read(r1), want));
      REQUIRE(same(read(rw), want));
      // in place
      Arr ip = make1(t, x), rip;
      CN_REQUIRE_OK(cn_power(rip.out(), ip, e0, ip));
      REQUIRE(same(read(ip), want));
    }
    // a strided exponent of 0.5 is pow: +0 for -0.0, +inf for -inf
    Arr x1 = make1(t, {-0.0L, -inf}), h = make1(t, {0.5L, 0.5L}), rp;
    CN_REQUIRE_OK(cn_power(rp.out(), x1, h, nullptr));
    REQUIRE(same(read(rp), {0, inf}));
    // the general case (vector pow with the exponent in every lane)
    Arr e3 = make(t, {3}, {}), r3;
    CN_REQUIRE_OK(cn_power(r3.out(), a, e3, nullptr));
    std::vector<CL> g = read(r3);
    for (size_t i = 0; i < x.size(); i++) {
      LD v = x[i].real(), w = v * v * v;
      LD wr = dt == CN_FLOAT32 ? (LD)(float)w : (LD)(double)w;
      if (std::isnan(wr) || std::isinf(wr) || wr == 0)
        REQUIRE(same({g[i]}, {CL(wr)}));
      else
        REQUIRE(std::fabs(g[i].real() - w) <=
                std::fabs(w) * (dt == CN_FLOAT32 ? 2.4e-7L : 4.5e-16L));
    }
  }
  for (const DT &t : kDTs) {
    if (t.kind != 'i' && t.kind != 'u')
      continue;
    INFO(cn_dtype_name(t.dt));
    std::vector<CL> x;
    for (int v = -13; v <= 300; v++) // > one 256-element block
      x.push_back(t.kind == 'u' && v < 0
                      ? CL(-v)
                      : CL(v % (1LL << (t.bits < 63 ? t.bits - 1 : 62))));
    Arr a = make1(t, x);
    for (int e : {0, 1, 2, 3, 7, 13, 63}) {
      INFO("exponent " << e);
      std::vector<CL> want;
      for (CL v : x) {
        uint64_t r = 1, b = (uint64_t)(int64_t)v.real();
        for (int k = 0; k < e; k++)
          r *= b;
        uint64_t mask = t.bits == 64 ? ~0ull : (1ull << t.bits) - 1;
        r &= mask;
        int64_t sv = t.kind == 'i' && t.bits < 64 && (r >> (t.bits - 1))
                         ? (int64_t)(r | ~mask)
                         : (int64_t)r;
        want.push_back(t.kind == 'u' ? CL((LD)r) : CL((LD)sv));
      }
      Arr e0 = make(t, {CL(e)}, {}), r0, rs;
      CN_REQUIRE_OK(cn_power(r0.out(), a, e0, nullptr));
      REQUIRE(read(r0) == want);
      CN_REQUIRE_OK(cn_power(rs.out(), a, e0, a)); // in place, then restore
      REQUIRE(read(a) == want);
      a = make1(t, x);
    }
  }
}

// ---- ufunc.at --------------------------------------------------------------

TEST_CASE("cn_ufunc_at applies repeated positions in order", "[ufunc]") {
  // oracle: the same updates done one by one in long double
  std::vector<double> base = {1, 2, 3, 4, 5, 6};
  std::vector<int64_t> pos = {0, 2, 0, -1, 0, 2};
  std::vector<double> vals = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5};
  Arr a = from_vec(base, {6}, CN_FLOAT64);
  Arr p = from_vec(pos, {6}, CN_INT64);
  Arr v = from_vec(vals, {6}, CN_FLOAT64);
  CN_REQUIRE_OK(cn_ufunc_at(a, "multiply", p, v));
  std::vector<LD> want(base.begin(), base.end());
  for (size_t k = 0; k < pos.size(); k++)
    want[(size_t)(pos[k] < 0 ? pos[k] + 6 : pos[k])] *= vals[k];
  auto got = to_vec<double>(a);
  for (size_t i = 0; i < got.size(); i++)
    CHECK(got[i] == (double)want[i]);

  // int32 target, float operand: computed in float64, cast back each step
  std::vector<int32_t> ib = {10, 20, 30};
  Arr ia = from_vec(ib, {3}, CN_INT32);
  Arr ip = from_vec(std::vector<int64_t>{1, 1, 1}, {3}, CN_INT64);
  Arr half;
  cn_scalar hv = {CN_SCALAR_FLOAT, 0, 0, 0.75, 0};
  CN_REQUIRE_OK(cn_scalar_array(half.out(), hv));
  CN_REQUIRE_OK(cn_ufunc_at(ia, "add", ip, half));
  CHECK(to_vec<int32_t>(ia) == std::vector<int32_t>{10, 20, 30});
  CN_REQUIRE_OK(cn_ufunc_at(ia, "negative", ip, nullptr));
  CHECK(to_vec<int32_t>(ia) == std::vector<int32_t>{10, -20, 30});

  // a transposed (non-contiguous) target: positions in its C order
  std::vector<double> m = {0, 1, 2, 3, 4, 5}; // 2x3
  Arr ma = from_vec(m, {2, 3}, CN_FLOAT64);
  Arr mt;
  CN_REQUIRE_OK(cn_transpose(mt.out(), ma)); // 3x2: [[0,3],[1,4],[2,5]]
  Arr mp = from_vec(std::vector<int64_t>{1, 1, 4}, {3}, CN_INT64);
  Arr one = from_vec(std::vector<double>{1.0}, {1}, CN_FLOAT64);
  CN_REQUIRE_OK(cn_ufunc_at(mt, "add", mp, one));
  // mt.flat[1] is m[1,0] (3), mt.flat[4] is m[0,2] (2)
  CHECK(to_vec<double>(ma) == std::vector<double>{0, 1, 3, 5, 4, 5});
}

TEST_CASE("cn_ufunc_at rejects bad input and leaves a untouched", "[ufunc]") {
  std::vector<double> base = {1, 2, 3};
  Arr a = from_vec(base, {3}, CN_FLOAT64);
  Arr v = from_vec(std::vector<double>{1, 1}, {2}, CN_FLOAT64);
  Arr good = from_vec(std::vector<int64_t>{0, 1}, {2}, CN_INT64);
  Arr out_of_range = from_vec(std::vector<int64_t>{0, 3}, {2}, CN_INT64);
  Arr too_negative = from_vec(std::vector<int64_t>{-4, 0}, {2}, CN_INT64);
  Arr float_pos = from_vec(std::vector<double>{0, 1}, {2}, CN_FLOAT64);
  Arr three = from_vec(std::vector<double>{1, 1, 1}, {3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_ufunc_at(a, "add", out_of_range, v), CN_ERR_INDEX, "3");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "add", too_negative, v), CN_ERR_INDEX, "-4");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "add", float_pos, v), CN_ERR_TYPE,
                 "integer");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "add", good, three), CN_ERR_SHAPE, "");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "add", good, nullptr), CN_ERR_VALUE,
                 "needs the second operand");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "negative", good, v), CN_ERR_VALUE,
                 "unary");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "no_such_op", good, v), CN_ERR_VALUE,
                 "unknown op");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "clip", good, v), CN_ERR_VALUE, "3 inputs");
  CN_REQUIRE_ERR(cn_ufunc_at(a, nullptr, good, v), CN_ERR_VALUE, "name");
  CN_REQUIRE_ERR(cn_ufunc_at(nullptr, "add", good, v), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_ufunc_at(a, "add", nullptr, v), CN_ERR_VALUE, "pos");
  Arr ro;
  CN_REQUIRE_OK(cn_readonly_view(ro.out(), a));
  CN_REQUIRE_ERR(cn_ufunc_at(ro, "add", good, v), CN_ERR_VALUE, "read-only");
  // bool has no loop for subtract (NumPy refuses it)
  Arr b = from_vec(std::vector<uint8_t>{1, 0}, {2}, CN_BOOL);
  CN_REQUIRE_ERR(cn_ufunc_at(b, "subtract", good, b), CN_ERR_TYPE, "");
  CHECK(to_vec<double>(a) == base);
  CHECK(to_vec<int64_t>(good) == std::vector<int64_t>{0, 1});
  CHECK(to_vec<double>(v) == std::vector<double>{1, 1});
}

TEST_CASE("cn_ufunc_accumulate runs the op left to right", "[ufunc]") {
  std::vector<double> v = {3, 1, 4, 1, 5, 9, 2, 6}; // 2x4
  Arr a = from_vec(v, {2, 4}, CN_FLOAT64);
  Arr r;
  CN_REQUIRE_OK(cn_ufunc_accumulate(r.out(), "minimum", a, 1));
  CHECK(to_vec<double>(r) == std::vector<double>{3, 1, 1, 1, 5, 5, 2, 2});
  CN_REQUIRE_OK(cn_ufunc_accumulate(r.out(), "subtract", a, 0));
  CHECK(to_vec<double>(r) == std::vector<double>{3, 1, 4, 1, -2, -8, 2, -5});
  CN_REQUIRE_OK(cn_ufunc_accumulate(r.out(), "maximum", a, -1));
  CHECK(to_vec<double>(r) == std::vector<double>{3, 3, 4, 4, 5, 9, 9, 9});
  // a strided input, an op without a typed line loop
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a)); // 4x2
  CN_REQUIRE_OK(cn_ufunc_accumulate(r.out(), "hypot", t, 1));
  auto h = to_vec<double>(r);
  for (int i = 0; i < 4; i++)
    CHECK(h[2 * i + 1] == std::hypot(v[i], v[4 + i]));
  CN_REQUIRE_ERR(cn_ufunc_accumulate(r.out(), "minimum", a, 2), CN_ERR_AXIS,
                 "axis 2");
  CN_REQUIRE_ERR(cn_ufunc_accumulate(r.out(), "sin", a, 0), CN_ERR_VALUE,
                 "not binary");
  CN_REQUIRE_ERR(cn_ufunc_accumulate(r.out(), "less", a, 0), CN_ERR_TYPE,
                 "does not map");
  CN_REQUIRE_ERR(cn_ufunc_accumulate(r.out(), "nope", a, 0), CN_ERR_VALUE,
                 "unknown op");
  CN_REQUIRE_ERR(cn_ufunc_accumulate(nullptr, "add", a, 0), CN_ERR_VALUE,
                 "output");
  Arr z;
  cn_scalar one = {CN_SCALAR_FLOAT, 0, 0, 1.0, 0};
  CN_REQUIRE_OK(cn_scalar_array(z.out(), one));
  CN_REQUIRE_ERR(cn_ufunc_accumulate(r.out(), "add", z, 0), CN_ERR_VALUE,
                 "0-d");
  CHECK(to_vec<double>(a) == v);
}
