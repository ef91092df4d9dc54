/* The scalar special functions of cunumpy.special (scipy.special's names),
 * in the subset of C that is also CUDA C++: the one definition that the CPU
 * loops (core/cpu/scalar.h wraps them as k_* helpers) and the CUDA prelude
 * (this file is a part of it, see core/cuda/CMakeLists.txt; prelude/
 * special.cuh wraps them as templates) both compile, so the backends agree.
 * Everything is float64; float32 loops compute in float64 and round (one
 * rounding on top of a result accurate to a few float64 ulp, so float32 is
 * correctly rounded nearly everywhere). Only libm functions that glibc and
 * CUDA both have are used (erf, erfc, exp, log, log1p, expm1, sqrt, fma);
 * the rest is written here from the math. In the prelude CN_DEV is defined
 * and qualifies the functions; in C they are static inline. */
#ifndef CUNUMPY_SPECIAL_SCALAR_H
#define CUNUMPY_SPECIAL_SCALAR_H

#ifdef CN_DEV
#ifdef __CUDACC_RTC__
/* Not CN_DEV's __forceinline__: inlining these large functions (and their
 * helpers, into each caller) into every kernel of a program made NVRTC
 * take minutes per dtype; the compiler still inlines the small ones. */
#define CN_SP_FN static __device__ __noinline__
#else
#define CN_SP_FN CN_DEV
#endif
#define CN_SP_LGAMMA(x) lgamma(x)
#define CN_SP_NAN CN_L2D(0x7ff8000000000000ll)
#define CN_SP_INF CN_L2D(0x7ff0000000000000ll)
#else
#include <math.h>
#define CN_SP_FN static inline
/* lgamma_r: glibc's lgamma writes the global signgam, a race in threads */
#define CN_SP_LGAMMA(x) cn_sp_lgamma_r_(x)
static inline double cn_sp_lgamma_r_(double x) {
  int sign;
  return lgamma_r(x, &sign);
}
#define CN_SP_NAN ((double)NAN)
#define CN_SP_INF ((double)INFINITY)
#endif

#define CN_SP_SQRTPI_2 0.886226925452758013649083741671 /* sqrt(pi) / 2 */
#define CN_SP_2_SQRTPI 1.12837916709551257389615890312  /* 2 / sqrt(pi) */
#define CN_SP_1_SQRTPI 0.564189583547756286948079451561 /* 1 / sqrt(pi) */
/* 1 / sqrt(2) as a sum hi + lo of two doubles (hi is M_SQRT1_2). */
#define CN_SP_SQRT1_2_HI 0.70710678118654757
#define CN_SP_SQRT1_2_LO (-4.8336466567264567e-17)
#define CN_SP_SQRT2 1.41421356237309504880168872421

/* ---- error function family --------------------------------------------- */

/* erfcx(x) = exp(x^2) erfc(x). x^2 is carried as hi + lo (fma) so that
 * exp(x^2) keeps full precision; past x = 25, where erfc nears the
 * subnormal range, the asymptotic series 1/(x sqrt(pi)) sum (-1)^k
 * (2k-1)!! / (2x^2)^k (eight terms: the ninth is below 1e-19). */
CN_SP_FN double cn_sp_erfcx(double x) {
  if (x != x)
    return x;
  if (x >= 25.0) {
    if (x > 1e150) /* 1/x^2 underflows; the first term is exact */
      return CN_SP_1_SQRTPI / x;
    double v = 1.0 / (2.0 * x * x);
    double s = 1.0, t = 1.0;
    for (int k = 1; k <= 8; k++) {
      t *= -(2.0 * k - 1.0) * v;
      s += t;
    }
    return CN_SP_1_SQRTPI / x * s;
  }
  if (x < -26.7)
    return CN_SP_INF;
  double x2 = x * x;
  double lo = fma(x, x, -x2);
  return exp(x2) * erfc(x) * (1.0 + lo);
}

/* Halley's step for erf(x) = y or erfc(x) = z given u = residual / slope:
 * both have f''/f' = -2x. */
CN_SP_FN double cn_sp_halley_(double x, double u) {
  return x - u / (1.0 + x * u);
}

/* erfinv for |y| <= 0.5: the series sqrt(pi)/2 (y + pi/12 y^3 + 7 pi^2/480
 * y^5) as the start (error below 6e-4), three Halley steps on erf. */
CN_SP_FN double cn_sp_erfinv_small_(double y) {
  if (y == 0.0)
    return 0.0; /* +0 for -0 too, as SciPy */
  double y2 = y * y;
  double x = CN_SP_SQRTPI_2 * y *
             (1.0 + y2 * (0.261799387799149436 + y2 * 0.143931264468841769));
  for (int i = 0; i < 3; i++) {
    double u = (erf(x) - y) * CN_SP_SQRTPI_2 * exp(x * x);
    x = cn_sp_halley_(x, u);
  }
  return x;
}

/* erfcinv for 0 < z < 0.5: the normal-tail rational approximation of
 * Abramowitz & Stegun 26.2.23 as the start (error below 5e-4), three Halley
 * steps on erfc with the residual scaled by exp(x^2) through erfcx (so
 * nothing underflows down to the smallest subnormal z). */
CN_SP_FN double cn_sp_erfcinv_tail_(double z) {
  double t = sqrt(-2.0 * log(0.5 * z));
  double x = t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                     (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
  x *= CN_SP_SQRT1_2_HI;
  double lz = log(z);
  for (int i = 0; i < 3; i++) {
    double x2 = x * x;
    double e = exp(x2 + lz + fma(x, x, -x2));
    double u = -CN_SP_SQRTPI_2 * (cn_sp_erfcx(x) - e);
    x = cn_sp_halley_(x, u);
  }
  return x;
}

/* erfcinv(z) for z in [0, 2]: erfcinv(2 - z) = -erfcinv(z), exact for
 * z >= 1; erfcinv(z) = -erfinv(z - 1), exact for z >= 0.5 (-0 at 1, as
 * SciPy). */
CN_SP_FN double cn_sp_erfcinv(double z) {
  if (!(z >= 0.0 && z <= 2.0))
    return CN_SP_NAN;
  double s = 1.0;
  if (z > 1.0) {
    z = 2.0 - z;
    s = -1.0;
  }
  if (z == 0.0)
    return s * CN_SP_INF;
  if (z >= 0.5)
    return -s * cn_sp_erfinv_small_(z - 1.0);
  return s * cn_sp_erfcinv_tail_(z);
}

/* erfinv(y) for y in [-1, 1]; 1 - |y| is exact for |y| >= 0.5. */
CN_SP_FN double cn_sp_erfinv(double y) {
  if (!(y >= -1.0 && y <= 1.0))
    return CN_SP_NAN;
  if (fabs(y) <= 0.5)
    return cn_sp_erfinv_small_(y);
  double r = cn_sp_erfcinv(1.0 - fabs(y));
  return y < 0 ? -r : r;
}

/* ndtr(x) = erfc(-x / sqrt(2)) / 2 with -x / sqrt(2) as hi + lo: the
 * rounding of the scaled argument alone would cost x^2 ulp in the tail. */
CN_SP_FN double cn_sp_ndtr(double x) {
  double t = -x * CN_SP_SQRT1_2_HI;
  double lo = -fma(x, CN_SP_SQRT1_2_HI, -(-t)) - x * CN_SP_SQRT1_2_LO;
  double r = erfc(t);
  if (x > -38.5 && x < 38.5) /* lo's term is 0 or NaN beyond */
    r -= lo * CN_SP_2_SQRTPI * exp(-t * t);
  return 0.5 * r;
}

/* ndtri(p) = -sqrt(2) erfcinv(2p) (2p is exact). */
CN_SP_FN double cn_sp_ndtri(double p) {
  return -CN_SP_SQRT2 * cn_sp_erfcinv(2.0 * p);
}

/* log(ndtr(x)). Left of -1 as log(erfcx(t) / 2) - t^2 with t = -x/sqrt(2)
 * and t^2 = x^2 / 2 from hi + lo, so the far tail keeps full precision;
 * right of 0 as log1p(-ndtr(-x)). */
CN_SP_FN double cn_sp_log_ndtr(double x) {
  if (x != x)
    return x;
  if (x < -1.0) {
    if (x < -1e150) /* -x^2/2 overflows */
      return -CN_SP_INF;
    double x2 = x * x;
    double lo = fma(x, x, -x2);
    return log(0.5 * cn_sp_erfcx(-x * CN_SP_SQRT1_2_HI)) - 0.5 * x2 - 0.5 * lo;
  }
  if (x <= 0.0)
    return log(cn_sp_ndtr(x));
  return log1p(-cn_sp_ndtr(-x));
}

/* ---- logistic and information theory ------------------------------------ */

/* expit(x) = 1 / (1 + exp(-x)), through exp(-|x|) so nothing overflows. */
CN_SP_FN double cn_sp_expit(double x) {
  double e = exp(-fabs(x));
  double r = 1.0 / (1.0 + e);
  return x >= 0.0 ? r : e * r;
}

/* log(expit(x)) = -log1p(exp(-x)), through exp(-|x|). */
CN_SP_FN double cn_sp_log_expit(double x) {
  double l = log1p(exp(-fabs(x)));
  return x >= 0.0 ? -l : x - l;
}

/* logit(p) = log(p / (1 - p)); near 1/2 as log1p((2p - 1) / (1 - p)),
 * whose numerator and denominator are exact there. */
CN_SP_FN double cn_sp_logit(double p) {
  if (p < 0.3 || p > 0.65)
    return log(p / (1.0 - p));
  return log1p((2.0 * p - 1.0) / (1.0 - p));
}

/* x log(y), 0 for x = 0 unless y is NaN. */
CN_SP_FN double cn_sp_xlogy(double x, double y) {
  if (x == 0.0 && y == y)
    return 0.0;
  return x * log(y);
}

/* x log1p(y), 0 for x = 0 unless y is NaN. */
CN_SP_FN double cn_sp_xlog1py(double x, double y) {
  if (x == 0.0 && y == y)
    return 0.0;
  return x * log1p(y);
}

/* -x log(x) for x > 0, 0 at 0, -inf below. */
CN_SP_FN double cn_sp_entr(double x) {
  if (x != x)
    return x;
  if (x > 0.0)
    return -x * log(x);
  return x == 0.0 ? 0.0 : -CN_SP_INF;
}

/* log(x / y) for x, y > 0: through log1p((x - y) / y) where x - y is
 * exact (y/2 <= x <= 2y), log(x) - log(y) where x / y over- or
 * underflows. */
CN_SP_FN double cn_sp_log_ratio_(double x, double y) {
  double q = x / y;
  if (q >= 0.5 && q <= 2.0)
    return log1p((x - y) / y);
  if (q == CN_SP_INF || q < 2.2250738585072014e-308)
    return log(x) - log(y);
  return log(q);
}

/* x log(x / y) for x, y > 0; 0 for x = 0 <= y; inf otherwise. */
CN_SP_FN double cn_sp_rel_entr(double x, double y) {
  if (x != x || y != y)
    return CN_SP_NAN;
  if (x > 0.0 && y > 0.0)
    return x * cn_sp_log_ratio_(x, y);
  return x == 0.0 && y >= 0.0 ? 0.0 : CN_SP_INF;
}

/* x log(x / y) - x + y for x, y > 0; y for x = 0 <= y; inf otherwise.
 * Near x = y it is y f(t) with t = (x - y) / y and f(t) = (1 + t)
 * log1p(t) - t = sum_k>=2 (-t)^k / (k (k - 1)), summed for |t| < 1/2,
 * where the direct form cancels. */
CN_SP_FN double cn_sp_kl_div(double x, double y) {
  if (x != x || y != y)
    return CN_SP_NAN;
  if (x > 0.0 && y > 0.0) {
    double q = x / y;
    if (q > 0.5 && q < 1.5) {
      double t = (x - y) / y, p = t * t, f = 0.0;
      for (int k = 2; k < 60 && fabs(p) > 1e-17 * fabs(f); k++) {
        f += p / (k * (k - 1.0));
        p *= -t;
      }
      return y * f;
    }
    return x * cn_sp_log_ratio_(x, y) - x + y;
  }
  return x == 0.0 && y >= 0.0 ? y : CN_SP_INF;
}

/* r^2 / 2 for |r| <= delta, delta (|r| - delta / 2) beyond; inf for
 * delta < 0. */
CN_SP_FN double cn_sp_huber(double delta, double r) {
  if (delta < 0.0)
    return CN_SP_INF;
  double a = fabs(r);
  if (a <= delta)
    return 0.5 * r * r;
  return delta * (a - 0.5 * delta);
}

/* delta^2 (sqrt(1 + (r / delta)^2) - 1), written as delta^2 v^2 /
 * (sqrt(1 + v^2) + 1) so small r keeps its precision; inf for delta < 0,
 * 0 for delta or r zero. */
CN_SP_FN double cn_sp_pseudo_huber(double delta, double r) {
  if (delta < 0.0)
    return CN_SP_INF;
  if (delta == 0.0 || r == 0.0)
    return 0.0;
  double v = r / delta;
  if (fabs(v) > 1e150) /* v^2 overflows: sqrt(1 + v^2) - 1 is |v| */
    return delta * fabs(r);
  double v2 = v * v;
  return delta * delta * v2 / (sqrt(1.0 + v2) + 1.0);
}

/* ---- gamma function ----------------------------------------------------- */

/* Gamma: libm's tgamma (NaN at the negative integers, +-inf at +-0). */
CN_SP_FN double cn_sp_gamma(double x) { return tgamma(x); }

/* log|Gamma(x)|: libm's lgamma; -inf at -inf, as SciPy. */
CN_SP_FN double cn_sp_gammaln(double x) {
  return x == -CN_SP_INF ? x : CN_SP_LGAMMA(x);
}

/* 1 / Gamma(x): 0 at the poles (+-0 at +-0, +0 at the negative integers
 * and -inf, as SciPy) and at +inf; past 171.6, where Gamma overflows,
 * exp(-lgamma(x)); x (1 + gamma x) near 0, where it overflows too. */
CN_SP_FN double cn_sp_rgamma(double x) {
  if (x > 171.0)
    return exp(-CN_SP_LGAMMA(x));
  if (x <= 0.0 && x == floor(x))
    return x == 0.0 ? x : 0.0;
  if (fabs(x) < 1e-20)
    return x * (1.0 + 0.577215664901532860606512090082 * x);
  return 1.0 / tgamma(x);
}

/* ---- digamma --------------------------------------------------------------
 */

/* psi on [1, 2]: its Taylor series about its positive zero x0 (x0 as
 * hi + lo, so x - x0 keeps full precision where psi vanishes), the
 * coefficients psi^(n)(x0) / n! for n = 1..41 (computed with mpmath at 40
 * digits; |x - x0| <= 0.54 leaves the 42nd term below 1e-18). */
CN_SP_FN double cn_sp_psi_12_(double x) {
  const double c[41] = {
      0.9676722454476212,      -0.44276316898359208,    0.25849976095565103,
      -0.16394270544240652,    0.10782405069126237,     -0.072199561256454714,
      0.04880428816414311,     -0.033161126474847362,   0.022597648232218104,
      -0.01542476590494896,    0.010538791616612175,    -0.0072045343863568687,
      0.0049267813957298533,   -0.0033698016554393282,  0.002305126326734928,
      -0.0015769367714301972,  0.0010788252019162967,   -0.00073807093899600515,
      0.00050495326583460199,  -0.00034546802510630769, 0.00023635601564027053,
      -0.00016170622091974803, 0.0001106337276874741,   -7.5691795821950661e-05,
      5.1785757952220809e-05,  -3.5430070947659604e-05, 2.4240066118601318e-05,
      -1.6584242271854135e-05, 1.134638458466385e-05,   -7.7628176684620943e-06,
      5.3110609208898636e-06,  -3.6336507898010456e-06, 2.4860227331295378e-06,
      -1.7008538854332607e-06, 1.1636675363548843e-06,  -7.9614254312419699e-07,
      5.4469419306694457e-07,  -3.7266161283438227e-07, 2.5496265520215542e-07,
      -1.7443695117727745e-07, 1.1934394829830244e-07};
  double d = (x - 1.4616321449683622) - 9.549995429965697e-17;
  double p = c[40];
  for (int i = 39; i >= 0; i--)
    p = p * d + c[i];
  return p * d;
}

/* digamma(x) = Gamma'(x) / Gamma(x). Above 10 the asymptotic series
 * log x - 1/(2x) - sum B_2k / (2k x^2k) (eight terms); in (0, 10) the
 * recurrence psi(x + 1) = psi(x) + 1/x into [1, 2] (downwards, where x - 1
 * is exact, from above 2); below 0 the reflection psi(1 - x) - pi /
 * tan(pi x) with the argument reduced exactly. -inf at +0, inf at -0, NaN
 * at the negative integers and -inf, as SciPy. */
CN_SP_FN double cn_sp_psi(double x) {
  if (x != x || x == CN_SP_INF)
    return x;
  if (x == 0.0)
    return -copysign(CN_SP_INF, x);
  double refl = 0.0;
  if (x < 0.0) {
    if (x == floor(x))
      return CN_SP_NAN;
    double r = x - rint(x);
    refl = -3.14159265358979323846 / tan(3.14159265358979323846 * r);
    x = 1.0 - x;
  }
  double s = 0.0;
  if (x >= 10.0) {
    double v = 1.0 / (x * x);
    const double b[8] = {0.083333333333333329, -0.0083333333333333332,
                         0.003968253968253968, -0.0041666666666666666,
                         0.007575757575757576, -0.021092796092796094,
                         0.083333333333333329, -0.44325980392156861};
    double p = b[7];
    for (int i = 6; i >= 0; i--)
      p = p * v + b[i];
    s = log(x) - 0.5 / x - p * v;
  } else {
    if (x < 1.0) {
      s = -1.0 / x;
      x += 1.0;
    }
    while (x > 2.0) {
      x -= 1.0;
      s += 1.0 / x;
    }
    s += cn_sp_psi_12_(x);
  }
  return s + refl;
}

/* ---- Bessel functions of integer order 0 and 1 (libm's) ------------------ */

/* SciPy's value at +-inf is NaN (libm's 0): kept for compatibility. */
CN_SP_FN double cn_sp_j0(double x) {
  return fabs(x) == CN_SP_INF ? CN_SP_NAN : j0(x);
}
CN_SP_FN double cn_sp_j1(double x) {
  return fabs(x) == CN_SP_INF ? CN_SP_NAN : j1(x);
}
CN_SP_FN double cn_sp_y0(double x) {
  return fabs(x) == CN_SP_INF ? CN_SP_NAN : y0(x);
}
CN_SP_FN double cn_sp_y1(double x) {
  return fabs(x) == CN_SP_INF ? CN_SP_NAN : y1(x);
}

/* ---- modified Bessel functions of orders 0 and 1 ---------------------------
 */

/* I_nu(x) for nu = 0, 1 and x >= 0, scaled by exp(-x) when scaled is set.
 * Up to 25 the power series sum (x/2)^(2k+nu) / (k! (k+nu)!) (positive
 * terms, no cancellation) in q = x^2/4, with the rounding error ql of q
 * added back through the derivative (sum k t_k) ql / q: every term
 * carries q's error k times, the chief error otherwise; beyond, the asymptotic
 * series exp(x) / sqrt(2 pi x) sum_k (-1)^k prod_j=1..k (4nu^2 - (2j-1)^2) / (8
 * j x), whose terms fall below 1e-17 before they grow again. exp(x) is taken in
 * two halves so that the result overflows only where I_nu itself does. */
CN_SP_FN double cn_sp_bessel_i01_(int nu, double x, int scaled) {
  if (x <= 25.0) {
    double q = 0.25 * x * x, ql = 0.25 * fma(x, x, -x * x);
    double t = nu ? 0.5 * x : 1.0, s = t, u = 0.0;
    for (int k = 1; k < 80 && t > 1e-17 * s; k++) {
      t *= q / (k * (double)(k + nu));
      s += t;
      u += k * t;
    }
    if (q > 0.0)
      s += ql * (u / q);
    return scaled ? s * exp(-x) : s;
  }
  double mu = 4.0 * nu * nu, t = 1.0, s = 1.0;
  for (int j = 1; j < 40; j++) {
    double odd = 2.0 * j - 1.0;
    t *= -(mu - odd * odd) / (8.0 * j * x);
    s += t;
    if (fabs(t) < 1e-17 * s)
      break;
  }
  s /= sqrt(2.0 * 3.14159265358979323846 * x);
  if (scaled)
    return s;
  double h = exp(0.5 * x);
  return h * s * h;
}

/* SciPy's i0 and i1 at +-inf are NaN; i0e and i1e are +-0 there. i1 is odd
 * with i1(-0) = +0, as SciPy. */
CN_SP_FN double cn_sp_i0(double x) {
  return fabs(x) == CN_SP_INF ? CN_SP_NAN : cn_sp_bessel_i01_(0, fabs(x), 0);
}
CN_SP_FN double cn_sp_i0e(double x) {
  return fabs(x) == CN_SP_INF ? 0.0 : cn_sp_bessel_i01_(0, fabs(x), 1);
}
CN_SP_FN double cn_sp_i1(double x) {
  if (fabs(x) == CN_SP_INF)
    return CN_SP_NAN;
  double r = cn_sp_bessel_i01_(1, fabs(x), 0);
  return x < 0.0 ? -r : r;
}
CN_SP_FN double cn_sp_i1e(double x) {
  if (fabs(x) == CN_SP_INF)
    return x < 0.0 ? -0.0 : 0.0;
  double r = cn_sp_bessel_i01_(1, fabs(x), 1);
  return x < 0.0 ? -r : r;
}

/* ---- exponential integrals ------------------------------------------------
 */

#define CN_SP_EULER 0.577215664901532860606512090082

/* E1(x) = int_x^inf exp(-t) / t dt for x >= 0. Up to 1/2 the series -gamma -
 * log x - sum (-x)^k / (k k!); beyond, exp(-x) times the continued fraction
 * 1 / (x + 1 - 1 / (x + 3 - 4 / (x + 5 - ...))) evaluated from its tail
 * (stable, unlike forward evaluation, whose errors grow with the depth) at
 * a depth that converges to double precision (measured against mpmath:
 * 300 terms just above 1/2, 30 beyond 5). inf at +-0, NaN below 0 (SciPy's
 * real exp1). */
CN_SP_FN double cn_sp_exp1(double x) {
  if (x != x)
    return x;
  if (x < 0.0)
    return CN_SP_NAN;
  if (x == 0.0)
    return CN_SP_INF;
  if (x <= 0.5) {
    double t = 1.0, s = 0.0;
    for (int k = 1; k < 40; k++) {
      t *= -x / k;
      s += t / k;
      if (fabs(t) < 1e-18 * fabs(s))
        break;
    }
    return -CN_SP_EULER - log(x) - s;
  }
  if (x > 745.0)
    return 0.0;
  int depth = x < 0.75 ? 300 : x < 1.5 ? 200 : x < 2.5 ? 70 : x < 5.0 ? 45 : 30;
  double f = 0.0;
  for (int k = depth; k > 0; k--)
    f = -(double)k * k / (x + (2.0 * k + 1.0) + f);
  return exp(-x) / (x + 1.0 + f);
}

/* Ei(x) = -PV int_-x^inf exp(-t) / t dt: -E1(-x) below 0; up to 50 the
 * series gamma + log x + sum x^k / (k k!) (positive terms); beyond, the
 * asymptotic series exp(x) / x sum k! / x^k. -inf at 0. */
CN_SP_FN double cn_sp_expi(double x) {
  if (x != x || x == CN_SP_INF)
    return x;
  if (x < 0.0)
    return -cn_sp_exp1(-x);
  if (x == 0.0)
    return -CN_SP_INF;
  if (x <= 50.0) {
    double t = 1.0, s = 0.0;
    for (int k = 1; k < 200; k++) {
      t *= x / k;
      s += t / k;
      if (t < 1e-18 * s)
        break;
    }
    return CN_SP_EULER + log(x) + s;
  }
  double t = 1.0, s = 1.0;
  for (int k = 1; k < 60; k++) {
    t *= k / x;
    s += t;
    if (t < 1e-18 * s)
      break;
  }
  double h = exp(0.5 * x);
  return h * (h / x) * s;
}

/* In the CUDA prelude core/special_bessel.h and core/special_gamma.h
 * follow this file instead. */
#ifndef CN_DEV
#include "special_bessel.h"
#include "special_gamma.h"
#endif

/* The functions above and in core/special_bessel.h and
 * core/special_gamma.h by arity, for the wrappers of both backends
 * (core/cpu/scalar.h, core/cuda/prelude/special.cuh). */
#define CN_SP_UNARY(X)                                                         \
  X(erfcx)                                                                     \
  X(erfinv) X(erfcinv) X(ndtr) X(ndtri) X(log_ndtr) X(expit) X(log_expit)      \
      X(logit) X(entr) X(gamma) X(gammaln) X(rgamma) X(psi) X(j0) X(j1) X(y0)  \
          X(y1) X(i0) X(i0e) X(i1) X(i1e) X(exp1) X(expi)                     \
              CN_SP_BESSEL_UNARY(X) CN_SP_GAMMA_UNARY(X)
#define CN_SP_BINARY(X)                                                        \
  X(xlogy) X(xlog1py) X(rel_entr) X(kl_div) X(huber) X(pseudo_huber)          \
      CN_SP_BESSEL_BINARY(X) CN_SP_GAMMA_BINARY(X)
#define CN_SP_TERNARY(X) CN_SP_GAMMA_TERNARY(X)

#endif
