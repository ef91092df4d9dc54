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

