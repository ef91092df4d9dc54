// cunumpy CUDA prelude: compiled by NVRTC in front of every generated
// kernel (core/cuda/codegen.c). It defines, for every compute type, the k_*
// helpers that core/ops.def expressions use, with the semantics of
// core/cpu/scalar.h (NumPy's), the unsafe casts of core/cpu/dtypes.h (x86
// results for NaN and out-of-range float -> int), and the templates of the
// elementwise, reduction and scan kernels the generator instantiates.
// Self-contained: NVRTC gets no include path.

// tests/cuda/prelude_host.cu compiles this file as host code (nvcc), with
// its own CN_DEV, CN_SHARED, CN_SYNC and bit casts.
#ifndef CN_DEV
#define CN_DEV __device__ __forceinline__
#define CN_SHARED __shared__
#define CN_SYNC __syncthreads
#define CN_I2F __int_as_float
#define CN_L2D __longlong_as_double
#endif
#define CN_MAX_DIMS 32

typedef signed char cn_i8;
typedef short cn_i16;
typedef int cn_i32;
typedef long long cn_i64;
typedef unsigned char cn_u8;
typedef unsigned short cn_u16;
typedef unsigned int cn_u32;
typedef unsigned long long cn_u64;

// ---- complex --------------------------------------------------------------

template <class T> struct cn_cx {
  T re, im;
  cn_cx() = default;
  CN_DEV constexpr cn_cx(T r, T i = T(0)) : re(r), im(i) {}
  friend CN_DEV cn_cx operator+(cn_cx a, cn_cx b) {
    return cn_cx(a.re + b.re, a.im + b.im);
  }
  friend CN_DEV cn_cx operator-(cn_cx a, cn_cx b) {
    return cn_cx(a.re - b.re, a.im - b.im);
  }
  friend CN_DEV cn_cx operator*(cn_cx a, cn_cx b) {
    return cn_cx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  // Smith's algorithm, as NumPy: no overflow for large operands.
  friend CN_DEV cn_cx operator/(cn_cx a, cn_cx b) {
    T abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
      if (abr == 0 && abi == 0)
        return cn_cx(a.re / abr, a.im / abi);
      T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
      return cn_cx((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return cn_cx((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
  }
  friend CN_DEV cn_cx operator-(cn_cx a) { return cn_cx(-a.re, -a.im); }
  friend CN_DEV bool operator==(cn_cx a, cn_cx b) {
    return a.re == b.re && a.im == b.im;
  }
  friend CN_DEV bool operator!=(cn_cx a, cn_cx b) { return !(a == b); }
};
typedef cn_cx<float> cn_c64;
typedef cn_cx<double> cn_c128;

// ---- traits ---------------------------------------------------------------

template <class T> struct cn_tr {
  static constexpr bool is_bool = false, is_int = true, is_signed = true,
                        is_float = false, is_cplx = false;
  typedef T real;
};
#define CN_TR_(T, B, I, S, F, C, R)                                            \
  template <> struct cn_tr<T> {                                                \
    static constexpr bool is_bool = B, is_int = I, is_signed = S,              \
                          is_float = F, is_cplx = C;                           \
    typedef R real;                                                            \
  };
CN_TR_(bool, true, false, false, false, false, bool)
CN_TR_(cn_i8, false, true, true, false, false, cn_i8)
CN_TR_(cn_i16, false, true, true, false, false, cn_i16)
CN_TR_(cn_i32, false, true, true, false, false, cn_i32)
CN_TR_(cn_i64, false, true, true, false, false, cn_i64)
CN_TR_(cn_u8, false, true, false, false, false, cn_u8)
CN_TR_(cn_u16, false, true, false, false, false, cn_u16)
CN_TR_(cn_u32, false, true, false, false, false, cn_u32)
CN_TR_(cn_u64, false, true, false, false, false, cn_u64)
CN_TR_(float, false, false, true, true, false, float)
CN_TR_(double, false, false, true, true, false, double)
CN_TR_(cn_c64, false, false, true, false, true, float)
CN_TR_(cn_c128, false, false, true, false, true, double)
#undef CN_TR_

template <class T> struct cn_lim;
#define CN_LIM_(T, LO, HI)                                                     \
  template <> struct cn_lim<T> {                                               \
    static CN_DEV T lo() { return LO; }                                        \
    static CN_DEV T hi() { return HI; }                                        \
  };
CN_LIM_(bool, false, true)
CN_LIM_(cn_i8, -128, 127)
CN_LIM_(cn_i16, -32768, 32767)
CN_LIM_(cn_i32, (-2147483647 - 1), 2147483647)
CN_LIM_(cn_i64, (-9223372036854775807LL - 1), 9223372036854775807LL)
CN_LIM_(cn_u8, 0, 255)
CN_LIM_(cn_u16, 0, 65535)
CN_LIM_(cn_u32, 0u, 4294967295u)
CN_LIM_(cn_u64, 0ull, 18446744073709551615ull)
CN_LIM_(float, -CN_I2F(0x7f800000), CN_I2F(0x7f800000))
CN_LIM_(double, -CN_L2D(0x7ff0000000000000LL), CN_L2D(0x7ff0000000000000LL))
CN_LIM_(cn_c64, cn_c64(cn_lim<float>::lo(), cn_lim<float>::lo()),
        cn_c64(cn_lim<float>::hi(), cn_lim<float>::hi()))
CN_LIM_(cn_c128, cn_c128(cn_lim<double>::lo(), cn_lim<double>::lo()),
        cn_c128(cn_lim<double>::hi(), cn_lim<double>::hi()))
#undef CN_LIM_

template <class T> CN_DEV T cn_nan() {
  if constexpr (cn_tr<T>::is_cplx) {
    typedef typename cn_tr<T>::real R;
    return T(cn_nan<R>(), cn_nan<R>());
  } else if constexpr (sizeof(T) == 4) {
    return CN_I2F(0x7fc00000);
  } else {
    return CN_L2D(0x7ff8000000000000LL);
  }
}

// ---- unsafe casts (NumPy / x86 semantics) ----------------------------------

// x86's cvttsd2si: NaN and out-of-range give the "integer indefinite".
CN_DEV cn_i64 cn_f2i64(double d) {
  return (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
             ? (cn_i64)d
             : (cn_i64)0x8000000000000000ull;
}
CN_DEV cn_i32 cn_f2i32(double d) {
  return (d > -2147483649.0 && d < 2147483648.0) ? (cn_i32)d
                                                 : (cn_i32)0x80000000u;
}
template <class To> CN_DEV To cn_f2i(double d) {
  if constexpr (sizeof(To) == 8 && cn_tr<To>::is_signed)
    return cn_f2i64(d);
  else if constexpr (sizeof(To) == 8) // gcc: two cvttsd2si around 2^63
    return d >= 9223372036854775808.0
               ? (cn_u64)cn_f2i64(d - 9223372036854775808.0) ^
                     0x8000000000000000ull
               : (cn_u64)cn_f2i64(d);
  else if constexpr (sizeof(To) == 4 && !cn_tr<To>::is_signed)
    return (To)cn_f2i64(d);
  else
    return (To)cn_f2i32(d);
}

template <class To, class From> CN_DEV To cn_cast(From x) {
  if constexpr (cn_tr<To>::is_cplx) {
    typedef typename cn_tr<To>::real R;
    if constexpr (cn_tr<From>::is_cplx)
      return To((R)x.re, (R)x.im);
    else
      return To(cn_cast<R>(x), R(0));
  } else if constexpr (cn_tr<To>::is_bool) {
    if constexpr (cn_tr<From>::is_cplx) // bool(1j) is True
      return x.re != 0 || x.im != 0;
    else
      return x != 0;
  } else if constexpr (cn_tr<From>::is_cplx) {
    return cn_cast<To>(x.re);
  } else if constexpr (cn_tr<From>::is_float && cn_tr<To>::is_int) {
    return cn_f2i<To>((double)x);
  } else {
    return (To)x;
  }
}

// ---- classification ---------------------------------------------------------

template <class T> CN_DEV bool k_isnan(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return isnan(a.re) || isnan(a.im);
  else if constexpr (cn_tr<T>::is_float)
    return isnan(a);
  else
    return false;
}
template <class T> CN_DEV bool k_isinf(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return isinf(a.re) || isinf(a.im);
  else if constexpr (cn_tr<T>::is_float)
    return isinf(a);
  else
    return false;
}
template <class T> CN_DEV bool k_isfinite(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return isfinite(a.re) && isfinite(a.im);
  else if constexpr (cn_tr<T>::is_float)
    return isfinite(a);
  else
    return true;
}
template <class T> CN_DEV bool k_signbit(T a) {
  if constexpr (cn_tr<T>::is_float)
    return signbit(a);
  else if constexpr (cn_tr<T>::is_signed)
    return a < 0;
  else
    return false;
}

// ---- comparison (complex: NumPy's lexicographic order) ---------------------

template <class T> CN_DEV bool k_lt(T a, T b) {
  if constexpr (cn_tr<T>::is_cplx)
    return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) ||
           (a.re == b.re && a.im < b.im);
  else
    return a < b;
}
template <class T> CN_DEV bool k_le(T a, T b) {
  if constexpr (cn_tr<T>::is_cplx)
    return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) ||
           (a.re == b.re && a.im <= b.im);
  else
    return a <= b;
}

template <class T> CN_DEV T k_maximum(T a, T b) {
  if constexpr (cn_tr<T>::is_bool)
    return a || b;
  else if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(a) ? a : (k_isnan(b) ? b : (k_le(b, a) ? a : b));
  else
    return a >= b ? a : b;
}
template <class T> CN_DEV T k_minimum(T a, T b) {
  if constexpr (cn_tr<T>::is_bool)
    return a && b;
  else if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(a) ? a : (k_isnan(b) ? b : (k_le(a, b) ? a : b));
  else
    return a <= b ? a : b;
}
template <class T> CN_DEV T k_fmax(T a, T b) {
  if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(b) ? a : (k_isnan(a) ? b : k_maximum(a, b));
  else
    return k_maximum(a, b);
}
template <class T> CN_DEV T k_fmin(T a, T b) {
  if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(b) ? a : (k_isnan(a) ? b : k_minimum(a, b));
  else
    return k_minimum(a, b);
}

// ---- integer and float arithmetic -----------------------------------------

template <class T> CN_DEV T k_floordiv(T a, T b) {
  if constexpr (cn_tr<T>::is_float) {
    if (b == 0)
      return a / b;
    T mod = fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
      div -= T(1);
    if (div != 0) {
      T fl = floor(div);
      if (div - fl > T(0.5))
        fl += T(1);
      return fl;
    }
    return copysign(T(0), a / b);
  } else if constexpr (cn_tr<T>::is_signed) {
    if (b == 0)
      return 0;
    if (b == -1) // INT_MIN // -1 wraps, as NumPy
      return (T)(0 - (cn_u64)(cn_i64)a);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
      q -= 1;
    return q;
  } else {
    return b == 0 ? T(0) : (T)(a / b);
  }
}
template <class T> CN_DEV T k_mod(T a, T b) {
  if constexpr (cn_tr<T>::is_float) {
    if (b == 0)
      return fmod(a, b);
    T mod = fmod(a, b);
    if (mod != 0) {
      if ((b < 0) != (mod < 0))
        mod += b;
    } else {
      mod = copysign(T(0), b);
    }
    return mod;
  } else if constexpr (cn_tr<T>::is_signed) {
    if (b == 0 || b == -1)
      return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
      r += b;
    return r;
  } else {
    return b == 0 ? T(0) : (T)(a % b);
  }
}

// ---- complex helpers --------------------------------------------------------

// z * c for real c, per component: a complex product with (c, 0) would
// turn an infinite component into NaN through inf * 0.
template <class R> CN_DEV cn_cx<R> cn_scale(cn_cx<R> z, R c) {
  return cn_cx<R>(z.re * c, z.im * c);
}
template <class R> CN_DEV R cn_cabs(cn_cx<R> z) { return hypot(z.re, z.im); }
// glibc's cexp (Annex G special values, scaled where exp overflows).
template <class R> CN_DEV cn_cx<R> cn_cexp(cn_cx<R> z) {
  R x = z.re, y = z.im;
  const R inf = cn_lim<R>::hi();
  const int t = sizeof(R) == 4 ? 88 : 709;
  if (isfinite(x)) {
    if (!isfinite(y))
      return cn_nan<cn_cx<R>>();
    R s = y, c = R(1);
    if (fabs(y) >
        (sizeof(R) == 4 ? R(1.17549435e-38f) : R(2.2250738585072014e-308))) {
      s = sin(y);
      c = cos(y);
    }
    if (x > R(t)) {
      R exp_t = exp(R(t));
      x -= R(t);
      s *= exp_t;
      c *= exp_t;
      if (x > R(t)) {
        x -= R(t);
        s *= exp_t;
        c *= exp_t;
      }
    }
    if (x > R(t)) {
      R mx = sizeof(R) == 4 ? R(3.40282347e38f) : R(1.7976931348623157e308);
      return cn_cx<R>(mx * c, mx * s);
    }
    R e = exp(x);
    return cn_cx<R>(e * c, e * s);
  }
  if (isinf(x)) {
    if (isfinite(y)) {
      R v = signbit(x) ? R(0) : inf;
      if (y == 0)
        return cn_cx<R>(v, y);
      return cn_cx<R>(copysign(v, cos(y)), copysign(v, sin(y)));
    }
    if (!signbit(x))
      return cn_cx<R>(inf, y - y);
    return cn_cx<R>(R(0), copysign(R(0), y));
  }
  return cn_cx<R>(cn_nan<R>(), y == 0 ? y : cn_nan<R>());
}
template <class R> CN_DEV cn_cx<R> cn_clog(cn_cx<R> z) {
  return cn_cx<R>(log(hypot(z.re, z.im)), atan2(z.im, z.re));
}
template <class R> CN_DEV cn_cx<R> cn_csqrt(cn_cx<R> z) {
  R x = z.re, y = z.im;
  if (x == 0 && y == 0)
    return cn_cx<R>(R(0), y);
  if (isinf(y))
    return cn_cx<R>(cn_lim<R>::hi(), y);
  if (isnan(x))
    return cn_cx<R>(x, x);
  if (isinf(x)) {
    if (signbit(x))
      return cn_cx<R>(fabs(y - y), copysign(x * R(-1), y));
    return cn_cx<R>(x, copysign(y - y, y));
  }
  R t = sqrt((fabs(x) + hypot(x, y)) * R(0.5));
  if (x >= 0)
    return cn_cx<R>(t, y / (2 * t));
  return cn_cx<R>(fabs(y) / (2 * t), copysign(t, y));
}
template <class R> CN_DEV cn_cx<R> cn_mul_i(cn_cx<R> z) {
  return cn_cx<R>(-z.im, z.re);
}
template <class R> CN_DEV cn_cx<R> cn_mul_negi(cn_cx<R> z) {
  return cn_cx<R>(z.im, -z.re);
}

// ---- C99 Annex G special values, as glibc ---------------------------------
// The CPU backend calls glibc's csinh, ccosh, ctanh, casinh, ... . These
// follow glibc's special-value branches (inf/NaN/zero parts) line by line,
// and glibc's scaled formulas where sinh/cosh/exp overflow; the circular
// functions are the hyperbolic ones by sin z = -i sinh(iz) (but see
// cn_csin), cos z =
// cosh(iz), tan z = -i tanh(iz), asin z = -i asinh(iz), atan z = -i
// atanh(iz). tests/cuda/prelude_host.cu checks them against the CPU backend.
template <class R> struct cn_fl {
  static CN_DEV R max() {
    return sizeof(R) == 4 ? R(3.40282347e38f) : R(1.7976931348623157e308);
  }
  static CN_DEV R min() { // smallest normal
    return sizeof(R) == 4 ? R(1.17549435e-38f) : R(2.2250738585072014e-308);
  }
  static CN_DEV R eps() {
    return sizeof(R) == 4 ? R(1.1920929e-07f) : R(2.220446049250313e-16);
  }
  static CN_DEV int t() { return sizeof(R) == 4 ? 88 : 709; } // ln(max)
};
#define CN_PI_2 1.57079632679489661923132169163975144
#define CN_PI_4 0.785398163397448309615660845819875721
#define CN_PI 3.14159265358979323846264338327950288
// fpclassify order: 0 NaN, 1 inf, 2 zero, 3 finite non-zero
template <class R> CN_DEV int cn_fpc(R x) {
  return isnan(x) ? 0 : isinf(x) ? 1 : x == 0 ? 2 : 3;
}
template <class R> CN_DEV void cn_sincos_g(R y, R &s, R &c) {
  if (fabs(y) > cn_fl<R>::min()) {
    s = sin(y);
    c = cos(y);
  } else {
    s = y;
    c = R(1);
  }
}
// exp(|x|) * (c, s) without intermediate overflow, for |x| > t (glibc).
template <class R> CN_DEV cn_cx<R> cn_exp_scaled(R ax, R c, R s) {
  const int t = cn_fl<R>::t();
  R exp_t = exp(R(t));
  ax -= R(t);
  s *= exp_t / 2;
  c *= exp_t / 2;
  if (ax > R(t)) {
    ax -= R(t);
    s *= exp_t;
    c *= exp_t;
  }
  if (ax > R(t))
    return cn_cx<R>(cn_fl<R>::max() * c, cn_fl<R>::max() * s);
  R ev = exp(ax);
  return cn_cx<R>(ev * c, ev * s);
}
template <class R> CN_DEV cn_cx<R> cn_csinh(cn_cx<R> z) {
  bool negate = signbit(z.re);
  int rcls = cn_fpc(z.re), icls = cn_fpc(z.im);
  R x = fabs(z.re), y = z.im;
  if (rcls >= 2) {
    if (icls >= 2) {
      R s, c;
      cn_sincos_g(y, s, c);
      if (negate)
        c = -c;
      if (x > R(cn_fl<R>::t()))
        return cn_exp_scaled(x, c, s);
      return cn_cx<R>(sinh(x) * c, cosh(x) * s);
    }
    if (rcls == 2)
      return cn_cx<R>(copysign(R(0), negate ? R(-1) : R(1)), y - y);
    return cn_nan<cn_cx<R>>();
  }
  if (rcls == 1) {
    if (icls > 2) {
      R s, c;
      cn_sincos_g(y, s, c);
      R re = copysign(cn_lim<R>::hi(), c), im = copysign(cn_lim<R>::hi(), s);
      return cn_cx<R>(negate ? -re : re, im);
    }
    if (icls == 2)
      return cn_cx<R>(negate ? cn_lim<R>::lo() : cn_lim<R>::hi(), y);
    return cn_cx<R>(cn_lim<R>::hi(), y - y);
  }
  return cn_cx<R>(cn_nan<R>(), y == 0 ? y : cn_nan<R>());
}
template <class R> CN_DEV cn_cx<R> cn_ccosh(cn_cx<R> z) {
  int rcls = cn_fpc(z.re), icls = cn_fpc(z.im);
  R x = z.re, y = z.im;
  if (rcls >= 2) {
    if (icls >= 2) {
      R s, c;
      cn_sincos_g(y, s, c);
      if (fabs(x) > R(cn_fl<R>::t()))
        return cn_exp_scaled(fabs(x), c, signbit(x) ? -s : s);
      return cn_cx<R>(cosh(x) * c, sinh(x) * s);
    }
    return cn_cx<R>(y - y, x == 0 ? R(0) : cn_nan<R>());
  }
  if (rcls == 1) {
    if (icls > 2) {
      R s, c;
      cn_sincos_g(y, s, c);
      return cn_cx<R>(copysign(cn_lim<R>::hi(), c),
                      copysign(cn_lim<R>::hi(), s) * copysign(R(1), x));
    }
    if (icls == 2)
      return cn_cx<R>(cn_lim<R>::hi(), y * copysign(R(1), x));
    return cn_cx<R>(cn_lim<R>::hi(), y - y);
  }
  return cn_cx<R>(cn_nan<R>(), y == 0 ? y : cn_nan<R>());
}
template <class R> CN_DEV cn_cx<R> cn_ctanh(cn_cx<R> z) {
  R x = z.re, y = z.im;
  if (!isfinite(x) || !isfinite(y)) {
    if (isinf(x)) {
      R im;
      if (isfinite(y) && fabs(y) > 1) {
        R s, c;
        cn_sincos_g(y, s, c);
        im = copysign(R(0), s * c);
      } else {
        im = copysign(R(0), y);
      }
      return cn_cx<R>(copysign(R(1), x), im);
    }
    if (y == 0)
      return z;
    return cn_cx<R>(x == 0 ? x : cn_nan<R>(), cn_nan<R>());
  }
  const int t = sizeof(R) == 4 ? 44 : 354; // ln(max) / 2
  R s, c;
  cn_sincos_g(y, s, c);
  if (fabs(x) > R(t)) {
    R exp_2t = exp(R(2 * t));
    R im = 4 * s * c, ax = fabs(x) - R(t);
    im /= exp_2t;
    if (ax > R(t))
      im /= exp_2t;
    else
      im /= exp(2 * ax);
    return cn_cx<R>(copysign(R(1), x), im);
  }
  R sh, ch;
  if (fabs(x) > cn_fl<R>::min()) {
    sh = sinh(x);
    ch = cosh(x);
  } else {
    sh = x;
    ch = R(1);
  }
  R den = fabs(sh) > fabs(c) * cn_fl<R>::eps() ? sh * sh + c * c : c * c;
  return cn_cx<R>(sh * ch / den, s * c / den);
}
// asinh for finite non-zero z, in the first quadrant (asinh is odd and
// commutes with conj), so that z + sqrt(z^2 + 1) neither cancels nor meets
// a signed-zero branch cut; log(2|z|) + i arg z where z^2 would overflow.
template <class R> CN_DEV cn_cx<R> cn_casinh_fin(cn_cx<R> z) {
  cn_cx<R> w(fabs(z.re), fabs(z.im)), r;
  R big = sizeof(R) == 4 ? R(2896) : R(6.7e7); // 1 / sqrt(eps)
  if (w.re > big || w.im > big)
    r = cn_cx<R>(log(hypot(w.re, w.im)) + R(0.693147180559945309417232121458),
                 atan2(w.im, w.re));
  else
    r = cn_clog(w + cn_csqrt(w * w + cn_cx<R>(R(1))));
  return cn_cx<R>(copysign(r.re, z.re), copysign(r.im, z.im));
}
template <class R> CN_DEV cn_cx<R> cn_casinh(cn_cx<R> z) {
  int rcls = cn_fpc(z.re), icls = cn_fpc(z.im);
  if (rcls <= 1 || icls <= 1) {
    if (icls == 1)
      return cn_cx<R>(
          copysign(cn_lim<R>::hi(), z.re),
          rcls == 0 ? cn_nan<R>()
                    : copysign(rcls >= 2 ? R(CN_PI_2) : R(CN_PI_4), z.im));
    if (rcls <= 1)
      return cn_cx<R>(z.re, (rcls == 1 && icls >= 2) || (rcls == 0 && icls == 2)
                                ? copysign(R(0), z.im)
                                : cn_nan<R>());
    return cn_nan<cn_cx<R>>();
  }
  if (rcls == 2 && icls == 2)
    return z;
  return cn_casinh_fin(z);
}
// sin z = -i sinh(iz), except glibc's csin gives NaN + inf i for an
// infinite imaginary part with a real part inf or NaN.
template <class R> CN_DEV cn_cx<R> cn_csin(cn_cx<R> z) {
  if (isinf(z.im) && !isfinite(z.re))
    return cn_cx<R>(z.re - z.re, cn_lim<R>::hi());
  return cn_mul_negi(cn_csinh(cn_mul_i(z)));
}
template <class R> CN_DEV cn_cx<R> cn_casin(cn_cx<R> z) {
  if (isnan(z.re) || isnan(z.im)) {
    if (z.re == 0)
      return z;
    if (isinf(z.re) || isinf(z.im))
      return cn_cx<R>(cn_nan<R>(), copysign(cn_lim<R>::hi(), z.im));
    return cn_nan<cn_cx<R>>();
  }
  return cn_mul_negi(cn_casinh(cn_mul_i(z)));
}
template <class R> CN_DEV cn_cx<R> cn_cacos(cn_cx<R> z) {
  cn_cx<R> y = cn_casin(z);
  R re = R(CN_PI_2) - y.re;
  if (re == 0)
    re = R(0);
  return cn_cx<R>(re, -y.im);
}
template <class R> CN_DEV cn_cx<R> cn_cacosh(cn_cx<R> z) {
  int rcls = cn_fpc(z.re), icls = cn_fpc(z.im);
  const R inf = cn_lim<R>::hi();
  if (rcls <= 1 || icls <= 1) {
    if (icls == 1)
      return cn_cx<R>(
          inf, rcls == 0 ? cn_nan<R>()
                         : copysign(rcls == 1 ? (z.re < 0 ? R(CN_PI - CN_PI_4)
                                                          : R(CN_PI_4))
                                              : R(CN_PI_2),
                                    z.im));
    if (rcls == 1)
      return cn_cx<R>(inf, icls >= 2
                               ? copysign(signbit(z.re) ? R(CN_PI) : R(0), z.im)
                               : cn_nan<R>());
    return cn_cx<R>(cn_nan<R>(), rcls == 2 ? R(CN_PI_2) : cn_nan<R>());
  }
  if (rcls == 2 && icls == 2)
    return cn_cx<R>(R(0), copysign(R(CN_PI_2), z.im));
  // acosh(conj z) = conj acosh(z): evaluate with Im >= 0
  cn_cx<R> one(R(1)), w(z.re, fabs(z.im)), r;
  R big = sizeof(R) == 4 ? R(2896) : R(6.7e7);
  if (fabs(w.re) > big || w.im > big)
    r = cn_cx<R>(log(hypot(w.re, w.im)) + R(0.693147180559945309417232121458),
                 atan2(w.im, w.re));
  else
    r = cn_clog(w + cn_csqrt(w + one) * cn_csqrt(w - one));
  return cn_cx<R>(r.re, copysign(r.im, z.im));
}
template <class R> CN_DEV cn_cx<R> cn_clog1p(cn_cx<R> z) {
  R x = z.re + R(1);
  return cn_cx<R>(log(hypot(x, z.im)), atan2(z.im, x));
}
template <class R> CN_DEV cn_cx<R> cn_catanh(cn_cx<R> z) {
  int rcls = cn_fpc(z.re), icls = cn_fpc(z.im);
  if (rcls <= 1 || icls <= 1) {
    if (icls == 1)
      return cn_cx<R>(copysign(R(0), z.re), copysign(R(CN_PI_2), z.im));
    if (rcls == 1 || rcls == 2)
      return cn_cx<R>(copysign(R(0), z.re),
                      icls >= 2 ? copysign(R(CN_PI_2), z.im) : cn_nan<R>());
    return cn_nan<cn_cx<R>>();
  }
  if (rcls == 2 && icls == 2)
    return z;
  cn_cx<R> r = cn_clog1p(z) - cn_clog1p(-z);
  return cn_cx<R>(r.re * R(0.5), r.im * R(0.5));
}
template <class R> CN_DEV cn_cx<R> cn_catan(cn_cx<R> z) {
  int rcls = cn_fpc(z.re), icls = cn_fpc(z.im);
  if (rcls <= 1 || icls <= 1) {
    if (rcls == 1)
      return cn_cx<R>(copysign(R(CN_PI_2), z.re), copysign(R(0), z.im));
    if (icls == 1)
      return cn_cx<R>(rcls >= 2 ? copysign(R(CN_PI_2), z.re) : cn_nan<R>(),
                      copysign(R(0), z.im));
    if (icls == 2)
      return cn_cx<R>(cn_nan<R>(), copysign(R(0), z.im));
    return cn_nan<cn_cx<R>>();
  }
  if (rcls == 2 && icls == 2)
    return z;
  return cn_mul_negi(cn_catanh(cn_mul_i(z)));
}

// C's _Complex product as gcc compiles it (__muldc3: the textbook formula,
// then Annex G recovery of infinities that came out NaN + NaN i); glibc's
// cpow multiplies with it.
template <class R> CN_DEV void cn_nan_to_0(R &x) {
  if (isnan(x))
    x = copysign(R(0), x);
}
// Annex G's "box": an infinite factor (x, y) becomes (+-1 or +-0), and NaNs
// of the other factor (u, v) +-0.
template <class R> CN_DEV bool cn_box_inf(R &x, R &y, R &u, R &v) {
  if (!isinf(x) && !isinf(y))
    return false;
  x = copysign(isinf(x) ? R(1) : R(0), x);
  y = copysign(isinf(y) ? R(1) : R(0), y);
  cn_nan_to_0(u);
  cn_nan_to_0(v);
  return true;
}
template <class R> CN_DEV cn_cx<R> cn_cmul_c99(cn_cx<R> p, cn_cx<R> q) {
  R a = p.re, b = p.im, c = q.re, d = q.im;
  R ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  R x = ac - bd, y = ad + bc;
  if (isnan(x) && isnan(y)) {
    bool recalc = cn_box_inf(a, b, c, d);
    recalc = cn_box_inf(c, d, a, b) || recalc;
    if (!recalc && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
      cn_nan_to_0(a);
      cn_nan_to_0(b);
      cn_nan_to_0(c);
      cn_nan_to_0(d);
      recalc = true;
    }
    if (recalc) {
      x = cn_lim<R>::hi() * (a * c - b * d);
      y = cn_lim<R>::hi() * (a * d + b * c);
    }
  }
  return cn_cx<R>(x, y);
}
// 1 / z as the CPU's k_reciprocal (NumPy's nc_reciprocal, Smith's method).
template <class R> CN_DEV cn_cx<R> cn_crecip(cn_cx<R> z) {
  R re = z.re, im = z.im;
  if (fabs(im) <= fabs(re)) {
    R r = im / re, d = re + im * r;
    return cn_cx<R>(1 / d, -r / d);
  }
  R r = re / im, d = re * r + im;
  return cn_cx<R>(r / d, -1 / d);
}
template <class R> CN_DEV cn_cx<R> cn_cpow(cn_cx<R> a, cn_cx<R> b) {
  if (b.re == 0 && b.im == 0)
    return cn_cx<R>(R(1));
  if (a.re == 0 && a.im == 0) {
    if (b.re > 0) // NumPy: 0 for any exponent with a positive real part
      return cn_cx<R>(R(0));
    return cn_nan<cn_cx<R>>();
  }
  if (b.im == 0 && b.re > -100 && b.re < 100 && b.re == floor(b.re)) {
    // small integer powers by repeated squaring, as the CPU (NumPy's
    // npy_cpow): the same products in the same order
    int n = (int)b.re;
    if (n == 1)
      return a;
    if (n == 2)
      return a * a;
    if (n == 3)
      return a * (a * a);
    cn_cx<R> acc(R(1)), p = a;
    int m = n < 0 ? -n : n;
    for (;;) {
      if (m & 1)
        acc = acc * p;
      m >>= 1;
      if (!m)
        break;
      p = p * p;
    }
    return n < 0 ? cn_crecip(acc) : acc;
  }
  return cn_cexp(cn_cmul_c99(b, cn_clog(a))); // glibc's cpow
}

// ---- k_* math, every inexact type -----------------------------------------

#define CN_K1_(name, realexpr, cplxexpr)                                       \
  template <class T> CN_DEV T name(T a) {                                      \
    if constexpr (cn_tr<T>::is_cplx) {                                         \
      typedef typename cn_tr<T>::real R;                                       \
      (void)sizeof(R);                                                         \
      return cplxexpr;                                                         \
    } else {                                                                   \
      return realexpr;                                                         \
    }                                                                          \
  }
CN_K1_(k_sqrt, sqrt(a), cn_csqrt(a))
CN_K1_(k_exp, exp(a), cn_cexp(a))
CN_K1_(k_exp2, exp2(a),
       cn_cexp(cn_scale(a, R(0.693147180559945309417232121458176568))))
CN_K1_(k_expm1, expm1(a),
       T(expm1(a.re) * cos(a.im) -
             R(2) * sin(a.im * R(0.5)) * sin(a.im * R(0.5)),
         exp(a.re) * sin(a.im)))
CN_K1_(k_log, log(a), cn_clog(a))
CN_K1_(k_log1p, log1p(a), cn_clog1p(a))
CN_K1_(k_log2, log2(a),
       cn_scale(cn_clog(a), R(1.44269504088896340735992468100189214)))
CN_K1_(k_log10, log10(a),
       cn_scale(cn_clog(a), R(0.434294481903251827651128918916605082)))
CN_K1_(k_sin, sin(a), cn_csin(a))
CN_K1_(k_cos, cos(a), cn_ccosh(cn_mul_i(a)))
CN_K1_(k_tan, tan(a), cn_mul_negi(cn_ctanh(cn_mul_i(a))))
CN_K1_(k_sinh, sinh(a), cn_csinh(a))
CN_K1_(k_cosh, cosh(a), cn_ccosh(a))
CN_K1_(k_tanh, tanh(a), cn_ctanh(a))
CN_K1_(k_asinh, asinh(a), cn_casinh(a))
CN_K1_(k_acosh, acosh(a), cn_cacosh(a))
CN_K1_(k_atanh, atanh(a), cn_catanh(a))
CN_K1_(k_asin, asin(a), cn_casin(a))
CN_K1_(k_acos, acos(a), cn_cacos(a))
CN_K1_(k_atan, atan(a), cn_catan(a))
CN_K1_(k_rint, rint(a), T(rint(a.re), rint(a.im)))
#undef CN_K1_

template <class T> CN_DEV T k_cbrt(T a) { return cbrt(a); }
// NumPy 2.3+: rounding a bool or an integer is the value itself
#define CN_KROUND_(name, fn)                                                   \
  template <class T> CN_DEV T name(T a) {                                      \
    if constexpr (cn_tr<T>::is_float)                                          \
      return fn(a);                                                            \
    else                                                                       \
      return a;                                                                \
  }
CN_KROUND_(k_floor, floor)
CN_KROUND_(k_ceil, ceil)
CN_KROUND_(k_trunc, trunc)
#undef CN_KROUND_
template <class T> CN_DEV T k_atan2(T a, T b) { return atan2(a, b); }
template <class T> CN_DEV T k_hypot(T a, T b) { return hypot(a, b); }
template <class T> CN_DEV T k_copysign(T a, T b) { return copysign(a, b); }
template <class T> CN_DEV T k_logaddexp(T a, T b) {
  if (a == b) // also covers equal infinities
    return a + T(0.693147180559945309417232121458176568);
  T d = a - b;
  if (d > 0)
    return a + log1p(exp(-d));
  if (d <= 0)
    return b + log1p(exp(d));
  return d; // NaN
}

// ---- more NumPy ufuncs (core/cpu/scalar.h has the same semantics) ---------
template <class T> CN_DEV T k_fmod(T a, T b) {
  if constexpr (cn_tr<T>::is_float) {
    return fmod(a, b);
  } else {
    if (b == 0 || (cn_tr<T>::is_signed && b == T(-1)))
      return 0;
    return (T)(a % b);
  }
}
// |a| in T's own width (so gcd(MIN, 0) wraps to MIN, as NumPy).
template <class T> CN_DEV unsigned long long cn_uabs(T a) {
  unsigned long long m = (unsigned long long)(long long)a;
  if (cn_tr<T>::is_signed && a < 0)
    m = 0ull - m;
  if (sizeof(T) < 8)
    m &= (1ull << (8 * sizeof(T) % 64)) - 1;
  return m;
}
template <class T> CN_DEV T k_gcd(T a, T b) {
  unsigned long long x = cn_uabs(a), y = cn_uabs(b);
  while (y) {
    unsigned long long t = x % y;
    x = y;
    y = t;
  }
  return (T)x;
}
template <class T> CN_DEV T k_lcm(T a, T b) {
  unsigned long long g = cn_uabs(k_gcd(a, b));
  if (g == 0)
    return 0;
  return (T)(cn_uabs(a) / g * cn_uabs(b));
}
template <class T> CN_DEV T k_nextafter(T a, T b) { return nextafter(a, b); }
template <class T> CN_DEV T k_spacing(T a) {
  if (a == 0)
    return nextafter(T(0), T(1));
  return nextafter(a, copysign(cn_lim<T>::hi(), a)) - a;
}
template <class T> CN_DEV T k_logaddexp2(T a, T b) {
  if (a == b)
    return a + T(1);
  T d = a - b;
  if (d > 0)
    return a + log1p(exp2(-d)) * T(1.442695040888963407359924681001892137);
  if (d <= 0)
    return b + log1p(exp2(d)) * T(1.442695040888963407359924681001892137);
  return d;
}
template <class T> CN_DEV T k_heaviside(T a, T b) {
  return a < 0 ? T(0) : a > 0 ? T(1) : a == 0 ? b : a;
}

template <class T> CN_DEV typename cn_tr<T>::real k_abs(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return cn_cabs(a);
  else if constexpr (cn_tr<T>::is_float)
    return fabs(a);
  else if constexpr (cn_tr<T>::is_signed) // wraps for the minimum, as NumPy
    return a < 0 ? (T)(0 - (cn_u64)(cn_i64)a) : a;
  else
    return a;
}
template <class T> CN_DEV T k_sign(T a) {
  if constexpr (cn_tr<T>::is_cplx) {
    typedef typename cn_tr<T>::real R;
    if (k_isnan(a))
      return cn_nan<T>();
    R m = cn_cabs(a);
    if (m == 0)
      return T(R(0));
    if (isinf(m)) { // keep the direction of an infinite component
      R x = isinf(a.re) ? copysign(R(1), a.re) : R(0);
      R y = isinf(a.im) ? copysign(R(1), a.im) : R(0);
      if (x != 0 && y != 0)
        return cn_nan<T>();
      return T(x, y);
    }
    return T(a.re / m, a.im / m);
  } else if constexpr (cn_tr<T>::is_float) {
    return a > 0 ? T(1) : (a < 0 ? T(-1) : (a == 0 ? T(0) : a));
  } else if constexpr (cn_tr<T>::is_signed) {
    return (T)((a > 0) - (a < 0));
  } else {
    return (T)(a > 0);
  }
}
// ops.def's multiply, square and divide: NumPy's complex formulas are
// cn_cx's operators (textbook product, Smith's quotient).
template <class T> CN_DEV auto k_mul(T a, T b) { return a * b; }
template <class T> CN_DEV auto k_div(T a, T b) { return a / b; }
template <class T> CN_DEV T k_reciprocal(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return cn_crecip(a);
  else if constexpr (cn_tr<T>::is_float)
    return T(1) / a;
  else if constexpr (cn_tr<T>::is_signed)
    return a == 1 ? T(1) : (a == -1 ? T(-1) : T(0));
  else
    return a == 1 ? T(1) : T(0);
}
template <class T> CN_DEV T k_pow(T a, T b) {
  if constexpr (cn_tr<T>::is_cplx) {
    return cn_cpow(a, b);
  } else if constexpr (cn_tr<T>::is_float) {
    return pow(a, b);
  } else {
    if constexpr (cn_tr<T>::is_signed) {
      if (b < 0) {
        if (a == 1)
          return 1;
        if (a == -1)
          return (b & 1) ? T(-1) : T(1);
        return 0;
      }
    }
    cn_u64 base = (cn_u64)(cn_i64)a, acc = 1, e = (cn_u64)b;
    if constexpr (!cn_tr<T>::is_signed)
      base = (cn_u64)a;
    while (e) { // wraps modulo 2^bits, as NumPy
      if (e & 1)
        acc *= base;
      base *= base;
      e >>= 1;
    }
    return (T)acc;
  }
}

// ---- bits ------------------------------------------------------------------

template <class T> CN_DEV T k_invert(T a) {
  if constexpr (cn_tr<T>::is_bool)
    return !a;
  else
    return (T)~a;
}
template <class T> CN_DEV T k_shl(T a, T b) {
  if ((cn_u64)(cn_i64)b < sizeof(T) * 8)
    return (T)((cn_u64)a << b);
  return 0;
}
template <class T> CN_DEV T k_shr(T a, T b) {
  if ((cn_u64)(cn_i64)b < sizeof(T) * 8)
    return (T)(a >> b);
  if constexpr (cn_tr<T>::is_signed)
    return a < 0 ? T(-1) : T(0);
  else
    return 0;
}

// ---- complex parts ---------------------------------------------------------

template <class T> CN_DEV typename cn_tr<T>::real k_real(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return a.re;
  else
    return a;
}
template <class T> CN_DEV typename cn_tr<T>::real k_imag(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return a.im;
  else
    return typename cn_tr<T>::real(0);
}
template <class T> CN_DEV T k_conj(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return T(a.re, -a.im);
  else
    return a;
}
template <class T> CN_DEV typename cn_tr<T>::real k_angle(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return atan2(a.im, a.re);
  else
    return atan2(T(0), a);
}

// ---- elementwise kernels ---------------------------------------------------
// Operand 0 is the output; strides are in bytes, innermost axis last (the
// host coalesces them first).

struct cn_geom {
  int ndim;
  long long shape[CN_MAX_DIMS];
  long long st[4][CN_MAX_DIMS];
};

#define CN_EW_ITEMS 4

template <class T> CN_DEV T cn_ld(const char *p) {
  return *reinterpret_cast<const T *>(p);
}

// Contiguous: each thread handles CN_EW_ITEMS elements blockDim apart, so
// every load and store of a warp is coalesced and several are in flight.
template <class F>
CN_DEV void cn_ew_contig(long long n, typename F::out_t *out,
                         const typename F::in0_t *a, const typename F::in1_t *b,
                         const typename F::in2_t *c) {
  long long base =
      (long long)blockIdx.x * (blockDim.x * CN_EW_ITEMS) + threadIdx.x;
#pragma unroll
  for (int k = 0; k < CN_EW_ITEMS; k++) {
    long long i = base + (long long)k * blockDim.x;
    if (i < n)
      out[i] = F::op(a, b, c, i);
  }
}

// Contiguous and aligned: each thread moves four consecutive elements per
// operand with one vector load/store (16 bytes for float32), the shape that
// reaches copy bandwidth.
template <class T>
struct alignas(sizeof(T) * 4 > 16 ? 16 : sizeof(T) * 4) cn_v4 {
  T v[4];
};
template <class F>
CN_DEV void cn_ew_vec(long long n, typename F::out_t *out,
                      const typename F::in0_t *a, const typename F::in1_t *b,
                      const typename F::in2_t *c) {
  long long nv = n >> 2;
  long long stride = (long long)gridDim.x * blockDim.x;
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (long long j = t; j < nv; j += stride) {
    cn_v4<typename F::in0_t> va =
        reinterpret_cast<const cn_v4<typename F::in0_t> *>(a)[j];
    cn_v4<typename F::in1_t> vb;
    cn_v4<typename F::in2_t> vc;
    if (b)
      vb = reinterpret_cast<const cn_v4<typename F::in1_t> *>(b)[j];
    if (c)
      vc = reinterpret_cast<const cn_v4<typename F::in2_t> *>(c)[j];
    cn_v4<typename F::out_t> vo;
#pragma unroll
    for (int k = 0; k < 4; k++)
      vo.v[k] = F::op(va.v, vb.v, vc.v, k);
    reinterpret_cast<cn_v4<typename F::out_t> *>(out)[j] = vo;
  }
  long long i = (nv << 2) + t;
  if (i < n)
    out[i] = F::op(a, b, c, i);
}

template <class F>
CN_DEV void cn_ew_strided(long long n, const cn_geom &g, char *out,
                          const char *a, const char *b, const char *c) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    long long r = i, o0 = 0, o1 = 0, o2 = 0, o3 = 0;
    for (int d = g.ndim - 1; d >= 0; d--) {
      long long e = g.shape[d];
      long long idx = r % e;
      r /= e;
      o0 += idx * g.st[0][d];
      o1 += idx * g.st[1][d];
      o2 += idx * g.st[2][d];
      o3 += idx * g.st[3][d];
    }
    *reinterpret_cast<typename F::out_t *>(out + o0) =
        F::op(reinterpret_cast<const typename F::in0_t *>(a + o1),
              reinterpret_cast<const typename F::in1_t *>(b + o2),
              reinterpret_cast<const typename F::in2_t *>(c + o3), 0);
  }
}

// ---- reductions -------------------------------------------------------------
// Kept axes (k*) index outputs, reduced axes (r*) the elements folded into
// each; strides in bytes, innermost last.
struct cn_rgeom {
  int nk, nr;
  long long kshape[CN_MAX_DIMS], kin[CN_MAX_DIMS], kout[CN_MAX_DIMS],
      kout2[CN_MAX_DIMS];
  long long rshape[CN_MAX_DIMS], rin[CN_MAX_DIMS], rout[CN_MAX_DIMS];
};

CN_DEV void cn_kept_off(const cn_rgeom &g, long long o, long long &oi,
                        long long &oo, long long &oo2) {
  oi = oo = oo2 = 0;
  for (int d = g.nk - 1; d >= 0; d--) {
    long long e = g.kshape[d], idx = o % e;
    o /= e;
    oi += idx * g.kin[d];
    oo += idx * g.kout[d];
    oo2 += idx * g.kout2[d];
  }
}
CN_DEV long long cn_red_off(const cn_rgeom &g, long long k) {
  if (g.nr == 1)
    return k * g.rin[0];
  long long off = 0;
  for (int d = g.nr - 1; d >= 0; d--) {
    long long e = g.rshape[d], idx = k % e;
    k /= e;
    off += idx * g.rin[d];
  }
  return off;
}

template <class A> CN_DEV A cn_shfl_down(const A &v, int off) {
  constexpr int N = (sizeof(A) + 3) / 4;
  int w[N];
  memcpy(w, &v, sizeof(A));
#pragma unroll
  for (int i = 0; i < N; i++)
    w[i] = __shfl_down_sync(0xffffffffu, w[i], off);
  A r;
  memcpy(&r, w, sizeof(A));
  return r;
}
template <class R>
CN_DEV typename R::acc_t cn_warp_reduce(typename R::acc_t a) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    a = R::merge(a, cn_shfl_down(a, off));
  return a;
}
// Result valid in thread 0. blockDim.x is a multiple of 32.
template <class R>
CN_DEV typename R::acc_t cn_block_reduce(typename R::acc_t a) {
  typedef typename R::acc_t A;
  CN_SHARED __align__(16) unsigned char raw[32 * sizeof(A)];
  A *sh = reinterpret_cast<A *>(raw);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  a = cn_warp_reduce<R>(a);
  if (lane == 0)
    sh[w] = a;
  CN_SYNC();
  if (w == 0) {
    a = lane < (int)(blockDim.x >> 5) ? sh[lane] : R::init();
    a = cn_warp_reduce<R>(a);
  }
  return a;
}

// Pass 1: block (blockIdx.x = output, blockIdx.y = slice of the reduced
// range) folds its slice; with one slice it stores the result, else it
// writes a partial for pass 2. Four loads in flight per thread.
template <class R>
CN_DEV void cn_red_blocks(long long K, cn_rgeom g, const char *in, char *out,
                          char *out2, double param,
                          typename R::acc_t *partial) {
  typedef typename R::in_t I;
  static_assert(sizeof(typename R::acc_t) <= 128,
                "core/cuda/reduce.c: PARTIAL_BYTES is too small");
  long long o = blockIdx.x;
  long long oi, oo, oo2;
  cn_kept_off(g, o, oi, oo, oo2);
  const char *base = in + oi;
  typename R::acc_t acc = R::init();
  long long step = (long long)gridDim.y * blockDim.x;
  long long k = (long long)blockIdx.y * blockDim.x + threadIdx.x;
  if (g.nr == 1) {
    long long s = g.rin[0];
    bool vec = false;
    if constexpr (sizeof(I) <= 8)
      vec = s == (long long)sizeof(I) &&
            (unsigned long long)base % alignof(cn_v4<I>) == 0;
    if (vec) {
      // Contiguous and aligned: four consecutive elements per vector load
      // (16 bytes for float32), two loads in flight, as the copy kernels.
      typedef cn_v4<I> V;
      const V *vp = reinterpret_cast<const V *>(base);
      long long kv = K / 4, j = k;
      for (; j + step < kv; j += 2 * step) {
        V a = vp[j], b = vp[j + step];
#pragma unroll
        for (int q = 0; q < 4; q++)
          R::add(acc, a.v[q], 4 * j + q);
#pragma unroll
        for (int q = 0; q < 4; q++)
          R::add(acc, b.v[q], 4 * (j + step) + q);
      }
      for (; j < kv; j += step) {
        V a = vp[j];
#pragma unroll
        for (int q = 0; q < 4; q++)
          R::add(acc, a.v[q], 4 * j + q);
      }
      k += 4 * kv; // the last K % 4 elements: below
    } else {
      for (; k + 3 * step < K; k += 4 * step) {
        I v0 = cn_ld<I>(base + k * s), v1 = cn_ld<I>(base + (k + step) * s);
        I v2 = cn_ld<I>(base + (k + 2 * step) * s);
        I v3 = cn_ld<I>(base + (k + 3 * step) * s);
        R::add(acc, v0, k);
        R::add(acc, v1, k + step);
        R::add(acc, v2, k + 2 * step);
        R::add(acc, v3, k + 3 * step);
      }
    }
  }
  for (; k < K; k += step)
    R::add(acc, cn_ld<I>(base + cn_red_off(g, k)), k);
  acc = cn_block_reduce<R>(acc);
  if (threadIdx.x == 0) {
    if (gridDim.y == 1)
      R::store(out ? out + oo : out, out2 ? out2 + oo2 : out2, acc, param);
    else
      partial[o * gridDim.y + blockIdx.y] = acc;
  }
}

// Pass 2: one block per output merges its G partials.
template <class R>
CN_DEV void cn_red_pass2(int G, cn_rgeom g, const typename R::acc_t *partial,
                         char *out, char *out2, double param) {
  long long o = blockIdx.x;
  typename R::acc_t acc = R::init();
  for (int i = threadIdx.x; i < G; i += blockDim.x)
    acc = R::merge(acc, partial[o * G + i]);
  acc = cn_block_reduce<R>(acc);
  if (threadIdx.x == 0) {
    long long oi, oo, oo2;
    cn_kept_off(g, o, oi, oo, oo2);
    R::store(out ? out + oo : out, out2 ? out2 + oo2 : out2, acc, param);
  }
}

// Many outputs, short or outer reduced range: one thread per output.
template <class R>
CN_DEV void cn_red_threads(long long M, long long K, cn_rgeom g, const char *in,
                           char *out, char *out2, double param) {
  typedef typename R::in_t I;
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < M;
       o += (long long)gridDim.x * blockDim.x) {
    long long oi, oo, oo2;
    cn_kept_off(g, o, oi, oo, oo2);
    typename R::acc_t acc = R::init();
    for (long long k = 0; k < K; k++)
      R::add(acc, cn_ld<I>(in + oi + cn_red_off(g, k)), k);
    R::store(out ? out + oo : out, out2 ? out2 + oo2 : out2, acc, param);
  }
}

// Reduction kinds: in_t the input dtype, T the accumulator / output dtype.
// Float sums are compensated (Neumaier) so they match the CPU's pairwise
// accuracy.
template <class T> struct cn_sum2 { T s, c; };
// Once the sum is inf or NaN the correction would be inf - inf = NaN: it
// stops there, so s + c keeps the CPU's inf (or NaN).
template <class T> CN_DEV void cn_neumaier(T &s, T &c, T x) {
  T t = s + x;
  if (isfinite(t)) {
    if (fabs(s) >= fabs(x))
      c += (s - t) + x;
    else
      c += (x - t) + s;
  }
  s = t;
}
template <class In, class T, bool NAN_SKIP> struct cn_r_sum {
  typedef In in_t;
  typedef cn_sum2<T> acc_t;
  static CN_DEV acc_t init() { return acc_t{T(0), T(0)}; }
  static CN_DEV void add(acc_t &a, In v, long long) {
    if (NAN_SKIP && k_isnan(v))
      return;
    T x = cn_cast<T>(v);
    if constexpr (cn_tr<T>::is_cplx) {
      cn_neumaier(a.s.re, a.c.re, x.re);
      cn_neumaier(a.s.im, a.c.im, x.im);
    } else if constexpr (cn_tr<T>::is_float) {
      cn_neumaier(a.s, a.c, x);
    } else {
      a.s = (T)(a.s + x);
    }
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if constexpr (cn_tr<T>::is_cplx) {
      cn_neumaier(a.s.re, a.c.re, b.s.re);
      cn_neumaier(a.s.im, a.c.im, b.s.im);
      a.c = a.c + b.c;
    } else if constexpr (cn_tr<T>::is_float) {
      cn_neumaier(a.s, a.c, b.s);
      a.c += b.c;
    } else {
      a.s = (T)(a.s + b.s);
    }
    return a;
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
      *reinterpret_cast<T *>(o) = a.s + a.c;
    else
      *reinterpret_cast<T *>(o) = a.s;
  }
};
template <class In, class T, bool NAN_SKIP> struct cn_r_prod {
  typedef In in_t;
  typedef T acc_t;
  static CN_DEV acc_t init() { return T(1); }
  static CN_DEV void add(acc_t &a, In v, long long) {
    if (NAN_SKIP && k_isnan(v))
      return;
    a = (T)(a * cn_cast<T>(v));
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) { return (T)(a * b); }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<T *>(o) = a;
  }
};
// MAX selects max, NAN_SKIP fmax/fmin (identity NaN, so all-NaN gives NaN).
template <class In, class T, bool MAX, bool NAN_SKIP> struct cn_r_minmax {
  typedef In in_t;
  typedef T acc_t;
  static CN_DEV acc_t init() {
    if constexpr (NAN_SKIP && (cn_tr<T>::is_float || cn_tr<T>::is_cplx))
      return cn_nan<T>();
    else
      return MAX ? cn_lim<T>::lo() : cn_lim<T>::hi();
  }
  // NaN-skipping: the CPU's step, "b if it is better or a is NaN" (an
  // all-NaN slice gives its NaN, the imaginary part of a complex one kept).
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if constexpr (NAN_SKIP && (cn_tr<T>::is_float || cn_tr<T>::is_cplx))
      return ((MAX ? k_lt(a, b) : k_lt(b, a)) || k_isnan(a)) ? b : a;
    else if constexpr (NAN_SKIP)
      return MAX ? k_fmax(a, b) : k_fmin(a, b);
    else
      return MAX ? k_maximum(a, b) : k_minimum(a, b);
  }
  static CN_DEV void add(acc_t &a, In v, long long) {
    a = merge(a, cn_cast<T>(v));
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<T *>(o) = a;
  }
};
template <class In, bool ALL> struct cn_r_anyall {
  typedef In in_t;
  typedef int acc_t;
  static CN_DEV acc_t init() { return ALL ? 1 : 0; }
  static CN_DEV void add(acc_t &a, In v, long long) {
    bool t = cn_cast<bool>(v);
    a = ALL ? (a && t) : (a || t);
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    return ALL ? (a && b) : (a || b);
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<bool *>(o) = a != 0;
  }
};
// First index of the extreme; NaN is the extreme (first NaN wins) unless
// NAN_SKIP, which ignores NaNs and leaves -1 for an all-NaN slice.
template <class In, bool MAX, bool NAN_SKIP> struct cn_r_arg {
  typedef In in_t;
  struct acc_t {
    In v;
    long long i;
  };
  static CN_DEV acc_t init() {
    acc_t a;
    a.v = In();
    a.i = -1;
    return a;
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if (a.i < 0)
      return b;
    if (b.i < 0)
      return a;
    if (!NAN_SKIP) {
      bool an = k_isnan(a.v), bn = k_isnan(b.v);
      if (an || bn) {
        if (an && bn)
          return a.i < b.i ? a : b;
        return an ? a : b;
      }
    }
    bool b_wins = MAX ? k_lt(a.v, b.v) : k_lt(b.v, a.v);
    bool a_wins = MAX ? k_lt(b.v, a.v) : k_lt(a.v, b.v);
    if (b_wins)
      return b;
    if (a_wins)
      return a;
    return a.i < b.i ? a : b;
  }
  static CN_DEV void add(acc_t &a, In v, long long k) {
    if (NAN_SKIP && k_isnan(v))
      return;
    acc_t b;
    b.v = v;
    b.i = k;
    a = merge(a, b);
  }
  static CN_DEV void store(char *o, char *, const acc_t &a, double) {
    *reinterpret_cast<long long *>(o) = a.i;
  }
};
// Mean and variance in double precision; out = mean (type M), out2 = var
// (type V); either may be NULL. The mean is a compensated sum divided by n,
// as on the CPU (so inf stays inf). The variance is Welford's update merged
// with Chan's formula, on values shifted by the first finite value each
// thread sees: a large common offset (uint32 data near 4e9) then costs no
// precision, matching the CPU's two-pass sum of squared deviations.
// Complex values are scaled per component (no inf * 0 = NaN).
template <bool C> struct cn_mom_t { typedef double type; };
template <> struct cn_mom_t<true> { typedef cn_c128 type; };
CN_DEV double cn_abs2(double d) { return d * d; }
CN_DEV double cn_abs2(cn_c128 d) { return d.re * d.re + d.im * d.im; }
CN_DEV double cn_mscale(double d, double r) { return d * r; }
CN_DEV cn_c128 cn_mscale(cn_c128 d, double r) { return cn_scale(d, r); }
CN_DEV double cn_mdiv(double d, double n) { return d / n; }
CN_DEV cn_c128 cn_mdiv(cn_c128 d, double n) {
  return cn_c128(d.re / n, d.im / n);
}
CN_DEV double cn_dot2(double a, double b) { return a * b; }
CN_DEV double cn_dot2(cn_c128 a, cn_c128 b) {
  return a.re * b.re + a.im * b.im;
}
CN_DEV void cn_neumaier_c(double &s, double &c, double x) {
  cn_neumaier(s, c, x);
}
CN_DEV void cn_neumaier_c(cn_c128 &s, cn_c128 &c, cn_c128 x) {
  cn_neumaier(s.re, c.re, x.re);
  cn_neumaier(s.im, c.im, x.im);
}
template <class In, class M, class V, bool NAN_SKIP> struct cn_r_mom {
  typedef In in_t;
  typedef typename cn_mom_t<cn_tr<In>::is_cplx>::type C;
  struct acc_t {
    double n;
    C sum, comp;  // compensated sum, for the mean
    C shift, dev; // Welford: mean = shift + dev
    double m2;
  };
  static CN_DEV acc_t init() {
    acc_t a;
    a.n = 0;
    a.sum = a.comp = a.shift = a.dev = C(0);
    a.m2 = 0;
    return a;
  }
  static CN_DEV void add(acc_t &a, In v, long long) {
    if (NAN_SKIP && k_isnan(v))
      return;
    C x = cn_cast<C>(v);
    cn_neumaier_c(a.sum, a.comp, x);
    a.n += 1;
    if (a.n == 1 && k_isfinite(x))
      a.shift = x;
    C y = x - a.shift;
    C d = y - a.dev;
    a.dev = a.dev + cn_mscale(d, 1.0 / a.n);
    a.m2 += cn_dot2(d, y - a.dev);
  }
  static CN_DEV acc_t merge(acc_t a, acc_t b) {
    if (b.n == 0)
      return a;
    if (a.n == 0)
      return b;
    acc_t r;
    r.n = a.n + b.n;
    r.sum = a.sum;
    r.comp = a.comp;
    cn_neumaier_c(r.sum, r.comp, b.sum);
    r.comp = r.comp + b.comp;
    C d = (b.shift - a.shift) + (b.dev - a.dev);
    r.shift = a.shift;
    r.dev = a.dev + cn_mscale(d, b.n / r.n);
    r.m2 = a.m2 + b.m2 + cn_abs2(d) * (a.n * b.n / r.n);
    return r;
  }
  static CN_DEV void store(char *o, char *o2, const acc_t &a, double ddof) {
    if (o)
      *reinterpret_cast<M *>(o) =
          cn_cast<M>(a.n > 0 ? cn_mdiv(a.sum + a.comp, a.n) : cn_nan<C>());
    if (o2) {
      double dn = a.n - ddof;
      *reinterpret_cast<V *>(o2) = (V)(a.m2 / (dn > 0 ? dn : 0.0));
    }
  }
};

// ---- scans (cumsum / cumprod) along one axis -------------------------------
template <class In, class T, bool PROD> struct cn_s_op {
  typedef In in_t;
  typedef T acc_t;
  static CN_DEV T id() { return PROD ? T(1) : T(0); }
  static CN_DEV T op(T a, T b) { return PROD ? (T)(a * b) : (T)(a + b); }
};

// One thread per line: short lines or many of them.
template <class S>
CN_DEV void cn_scan_threads(long long M, long long K, cn_rgeom g,
                            const char *in, char *out) {
  typedef typename S::acc_t T;
  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < M;
       o += (long long)gridDim.x * blockDim.x) {
    long long oi, oo, oo2;
    cn_kept_off(g, o, oi, oo, oo2);
    T acc = S::id();
    for (long long k = 0; k < K; k++) {
      acc = S::op(acc,
                  cn_cast<T>(cn_ld<typename S::in_t>(in + oi + k * g.rin[0])));
      *reinterpret_cast<T *>(out + oo + k * g.rout[0]) = acc;
    }
  }
}

#define CN_SCAN_ITEMS 8
// One block per line: tiles of blockDim * CN_SCAN_ITEMS elements; each
// thread scans its run, the block scans the run totals (warp shuffles), and
// a carry moves from tile to tile.
template <class S>
CN_DEV void cn_scan_blocks(long long K, cn_rgeom g, const char *in, char *out) {
  typedef typename S::acc_t T;
  CN_SHARED __align__(16) unsigned char raw[33 * sizeof(T)];
  T *sh = reinterpret_cast<T *>(raw);
  long long oi, oo, oo2;
  cn_kept_off(g, blockIdx.x, oi, oo, oo2);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int nw = blockDim.x >> 5;
  T carry = S::id();
  long long tile = (long long)blockDim.x * CN_SCAN_ITEMS;
  for (long long t0 = 0; t0 < K; t0 += tile) {
    T v[CN_SCAN_ITEMS];
    long long k0 = t0 + (long long)threadIdx.x * CN_SCAN_ITEMS;
    T run = S::id();
#pragma unroll
    for (int j = 0; j < CN_SCAN_ITEMS; j++) {
      long long k = k0 + j;
      T x = k < K ? cn_cast<T>(cn_ld<typename S::in_t>(in + oi + k * g.rin[0]))
                  : S::id();
      run = S::op(run, x);
      v[j] = run;
    }
    // inclusive scan of run totals within the warp
    T incl = run;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      T y;
      {
        constexpr int N = (sizeof(T) + 3) / 4;
        int wd[N];
        memcpy(wd, &incl, sizeof(T));
#pragma unroll
        for (int q = 0; q < N; q++)
          wd[q] = __shfl_up_sync(0xffffffffu, wd[q], off);
        memcpy(&y, wd, sizeof(T));
      }
      if (lane >= off)
        incl = S::op(y, incl);
    }
    if (lane == 31)
      sh[w] = incl;
    CN_SYNC();
    if (threadIdx.x == 0) {
      T acc = carry;
      for (int q = 0; q < nw; q++) {
        T tot = sh[q];
        sh[q] = acc; // exclusive prefix of warp q, carry included
        acc = S::op(acc, tot);
      }
      sh[32] = acc;
    }
    CN_SYNC();
    // exclusive prefix of this thread = warp prefix + (incl - run)
    T excl_in_warp;
    {
      constexpr int N = (sizeof(T) + 3) / 4;
      int wd[N];
      memcpy(wd, &incl, sizeof(T));
#pragma unroll
      for (int q = 0; q < N; q++)
        wd[q] = __shfl_up_sync(0xffffffffu, wd[q], 1);
      memcpy(&excl_in_warp, wd, sizeof(T));
      if (lane == 0)
        excl_in_warp = S::id();
    }
    T pre = S::op(sh[w], excl_in_warp);
#pragma unroll
    for (int j = 0; j < CN_SCAN_ITEMS; j++) {
      long long k = k0 + j;
      if (k < K)
        *reinterpret_cast<T *>(out + oo + k * g.rout[0]) = S::op(pre, v[j]);
    }
    carry = sh[32];
    CN_SYNC();
  }
}
