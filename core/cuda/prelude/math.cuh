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
       (!isfinite(a.re) || !isfinite(a.im))
           ? T(cn_cexp(a).re - R(1), cn_cexp(a).im) // Annex G, less one
           : T(expm1(a.re) * cos(a.im) -
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

