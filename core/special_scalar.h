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

/* BEGIN polynomials fitted by tools/fit_bessel01.py */
/* I0(x) for x <= 4 as a polynomial in t = x^2: 13 terms, float64 error below
 * 2.62 x 2^-53 relative. */
CN_SP_FN double cn_sp_i0_near_(double t) {
  const double c[13] = {
      1.0,
      0.25,
      0.015625000000000003,
      0.0004340277777777718,
      6.781684027782046e-06,
      6.781684027596595e-08,
      4.709502802001143e-10,
      2.402807459601657e-12,
      9.385978195189286e-15,
      2.8968077106696324e-17,
      7.247759173655087e-20,
      1.4760389501139803e-22,
      3.0284858712201143e-25};
  double r = c[12];
  for (int k = 11; k >= 0; k--)
    r = r * t + c[k];
  return r;
}
/* I1(x) / x for x <= 4 as a polynomial in t = x^2: 12 terms, float64 error
 * below 2.06 x 2^-53 relative. */
CN_SP_FN double cn_sp_i1_near_(double t) {
  const double c[12] = {
      0.5,
      0.0625,
      0.002604166666666646,
      5.425347222224612e-05,
      6.781684027633903e-07,
      5.651403361589081e-09,
      3.36393045447172e-11,
      1.501756417173189e-13,
      5.214258763412205e-16,
      1.4495378127372925e-18,
      3.2474511248388254e-21,
      7.268581101870115e-24};
  double r = c[11];
  for (int k = 10; k >= 0; k--)
    r = r * t + c[k];
  return r;
}
/* K0(x) + log(x) I0(x) for x <= 1 as a polynomial in t = x^2: 9 terms,
 * float64 error below 1.81 x 2^-53 relative. */
CN_SP_FN double cn_sp_k0_near_(double t) {
  const double c[9] = {
      0.11593151565841245,
      0.2789828789146031,
      0.025248929932162698,
      0.0008460350907081938,
      1.4914719299410551e-05,
      1.627105606146431e-07,
      1.208426900211292e-09,
      6.507971505261944e-12,
      2.6984361912313664e-14};
  double r = c[8];
  for (int k = 7; k >= 0; k--)
    r = r * t + c[k];
  return r;
}
/* x (K1(x) - log(x) I1(x)) for x <= 1 as a polynomial in t = x^2: 9 terms,
 * float64 error below 1.37 x 2^-53 relative. */
CN_SP_FN double cn_sp_k1_near_(double t) {
  const double c[9] = {
      1.0,
      -0.3079657578292062,
      -0.08537071972865083,
      -0.004642182766471044,
      -0.00011253607036896023,
      -1.559288762538369e-06,
      -1.403017669934458e-08,
      -8.870612165017946e-11,
      -4.230108886088264e-13};
  double r = c[8];
  for (int k = 7; k >= 0; k--)
    r = r * t + c[k];
  return r;
}
/* sqrt(x) exp(-x) I0(x) for x > 4 as polynomials in z = 1/x - c on the
 * pieces (float64 error in units of 2^-53 relative) x > 4: 18 terms, 0.66; x
 * > 8: 15 terms, 0.83; x > 16: 14 terms, 1.12. */
CN_SP_FN double cn_sp_i0_far_(double x) {
  double u = 1.0 / x;
  if (x > 16.0) {
    const double c[14] = {
        0.40052897918718267,
        0.05171249281224818,
        0.031083533790742073,
        0.035864386211409055,
        0.06319051473429002,
        0.15333707955587259,
        0.4837888129539841,
        1.9153032908443806,
        9.3174520788131,
        54.60389779479808,
        351.4547653692492,
        3017.3924469705867,
        57017.21033429871,
        642133.8253173741};
    double z = u - 0.03125, r = c[13];
    for (int k = 12; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  if (x > 8.0) {
    const double c[15] = {
        0.4038923361468227,
        0.056095719280591545,
        0.039845385066165875,
        0.062238968110039594,
        0.1836742485023636,
        0.8871473640974333,
        3.7681847375217985,
        -19.10683650829625,
        -510.24071635406386,
        -1527.8209535989422,
        41051.945698370844,
        197137.3903323766,
        -3855483.114572836,
        -11632521.678091321,
        306469539.57544124};
    double z = u - 0.09375, r = c[14];
    for (int k = 13; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  {
    const double c[18] = {
        0.4095726275046849,
        0.06606589699541951,
        0.07059805498859113,
        0.1320147874685314,
        -0.22447176667309113,
        -2.9384884289271014,
        2.5685313773644536,
        57.590830012767505,
        -183.1010194719064,
        -701.0905652486348,
        6922.991748519105,
        -14978.500512595976,
        -88986.40871903663,
        853082.9137426523,
        -2820855.5386846066,
        -4970189.671643337,
        103886622.39679465,
        -393794689.9590132};
    double z = u - 0.1875, r = c[17];
    for (int k = 16; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
}
/* sqrt(x) exp(-x) I1(x) for x > 4 as polynomials in z = 1/x - c on the
 * pieces (float64 error in units of 2^-53 relative) x > 4: 19 terms, 1.30; x
 * > 8: 16 terms, 1.25; x > 16: 14 terms, 1.02. */
CN_SP_FN double cn_sp_i1_far_(double x) {
  double u = 1.0 / x;
  if (x > 16.0) {
    const double c[14] = {
        0.394220213406121,
        -0.15265274530923523,
        -0.05096139881081227,
        -0.04937623965876751,
        -0.07986853554712466,
        -0.18416870308662076,
        -0.5616271846425028,
        -2.1698460277587324,
        -10.361781647486964,
        -59.85717974621754,
        -381.46231251566707,
        -3232.126457825541,
        -60412.09027991521,
        -679626.9189907534};
    double z = u - 0.03125, r = c[13];
    for (int k = 12; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  if (x > 8.0) {
    const double c[16] = {
        0.38446685410720083,
        -0.159698290158575,
        -0.06274903222128317,
        -0.08175866351560297,
        -0.21951352877314737,
        -1.0113858300773042,
        -4.351419489984279,
        18.25305029669156,
        543.0908813914018,
        1840.1655323622101,
        -42215.00576928186,
        -225698.7899247897,
        3915318.5236446597,
        13857606.834850976,
        -307503188.55894655,
        -103499870.08601841};
    double z = u - 0.09375, r = c[15];
    for (int k = 14; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  {
    const double c[19] = {
        0.3688525644848755,
        -0.17465273171491147,
        -0.10199133401705454,
        -0.1738070300369947,
        0.18775952527991382,
        3.3149840070993326,
        -1.4625239812954136,
        -64.18249138568532,
        173.27100334614616,
        853.2724534358929,
        -7238.969508346938,
        13083.295859667,
        104487.76410808697,
        -891579.9592138248,
        2679352.8581972336,
        6990373.991519694,
        -112034042.09242655,
        368788539.57958806,
        242087974.08390898};
    double z = u - 0.1875, r = c[18];
    for (int k = 17; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
}
/* sqrt(x) exp(x) K0(x) for x > 1 as polynomials in z = 1/x - c on the pieces
 * (float64 error in units of 2^-53 relative) x > 1: 16 terms, 1.71; x > 2:
 * 14 terms, 0.97; x > 4: 12 terms, 1.28; x > 8: 14 terms, 0.97. */
CN_SP_FN double cn_sp_k0_far_(double x) {
  double u = 1.0 / x;
  if (x > 8.0) {
    const double c[14] = {
        1.2438463520997634,
        -0.14660560767673705,
        0.07364202087998165,
        -0.06512967200251907,
        0.08077402736160509,
        -0.12674289777690206,
        0.23745212424765502,
        -0.5119643263766037,
        1.238914683538177,
        -3.3025679416505382,
        9.448434755387947,
        -29.322379301182096,
        118.8508444260594,
        -425.4520235797554};
    double z = u - 0.0625, r = c[13];
    for (int k = 12; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  if (x > 4.0) {
    const double c[12] = {
        1.226560671018869,
        -0.13073846099740463,
        0.05495007451195605,
        -0.038228729227230356,
        0.03545213806946566,
        -0.039862046765630946,
        0.051599661373996276,
        -0.0744710393065173,
        0.11721570440264137,
        -0.19838373853290314,
        0.3733910744639399,
        -0.7105091362976773};
    double z = u - 0.1875, r = c[11];
    for (int k = 10; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  if (x > 2.0) {
    const double c[14] = {
        1.2037634037320846,
        -0.11342093762206781,
        0.038992808987245796,
        -0.02104006312428899,
        0.014551554773086423,
        -0.011836558949526593,
        0.0108164909112579,
        -0.010799973379307774,
        0.011569130794557231,
        -0.013125394979068308,
        0.015565444188473712,
        -0.019294708165983523,
        0.027528408909944253,
        -0.03668661969856681};
    double z = u - 0.375, r = c[13];
    for (int k = 12; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  {
    const double c[16] = {
        1.1658263717940323,
        -0.09081693634584095,
        0.023469052677277173,
        -0.008993309628035422,
        0.004250067927479478,
        -0.0022963671774693865,
        0.001363766899594035,
        -0.0008695663692846125,
        0.0005862788747429208,
        -0.0004135906368391367,
        0.000303089428681894,
        -0.00022922683624194824,
        0.0001757210823030448,
        -0.00013975604692995249,
        0.00013787788061238996,
        -0.00011492470037571309};
    double z = u - 0.75, r = c[15];
    for (int k = 14; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
}
/* sqrt(x) exp(x) K1(x) for x > 1 as polynomials in z = 1/x - c on the pieces
 * (float64 error in units of 2^-53 relative) x > 1: 16 terms, 0.96; x > 2:
 * 14 terms, 0.87; x > 4: 12 terms, 1.13; x > 8: 14 terms, 1.29. */
CN_SP_FN double cn_sp_k1_far_(double x) {
  double u = 1.0 / x;
  if (x > 8.0) {
    const double c[14] = {
        1.2821438724478937,
        0.45298577046177985,
        -0.1263178106062499,
        0.0937785451190948,
        -0.10674407054338797,
        0.1591304945434799,
        -0.288122185306074,
        0.6062110620361943,
        -1.4402220079496089,
        3.7844092679095365,
        -10.706825081024032,
        32.91481119696137,
        -131.9917832978654,
        469.3535794671151};
    double z = u - 0.0625, r = c[13];
    for (int k = 12; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  if (x > 4.0) {
    const double c[12] = {
        1.336954459907448,
        0.4251218980336152,
        -0.0988254279004978,
        0.0575406502421621,
        -0.048853569129848756,
        0.052078442008444435,
        -0.0650323334037383,
        0.09144636745008126,
        -0.1411174978565891,
        0.23513649832818226,
        -0.4366077332907128,
        0.8221664997147149};
    double z = u - 0.1875, r = c[11];
    for (int k = 10; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  if (x > 2.0) {
    const double c[14] = {
        1.4135192225787472,
        0.39309536275095125,
        -0.07421450891040955,
        0.03334205503316997,
        -0.021028165873163234,
        0.016165403794679102,
        -0.014213487172868834,
        0.013796920513612044,
        -0.014462627727587586,
        0.016127591106627863,
        -0.01886070182090898,
        0.023105552009316084,
        -0.03257957608819501,
        0.04304979164668564};
    double z = u - 0.375, r = c[13];
    for (int k = 12; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
  {
    const double c[16] = {
        1.551926734522259,
        0.3482171781646587,
        -0.0487245090529894,
        0.015399590466387725,
        -0.006590865416667872,
        0.003347760053267225,
        -0.0019048559701035823,
        0.0011766564711904127,
        -0.0007740313419111708,
        0.0005353480105635541,
        -0.00038596120560922755,
        0.00028792415054855334,
        -0.0002182499789751808,
        0.0001718175049181871,
        -0.00016747338347037764,
        0.00013851722633723867};
    double z = u - 0.75, r = c[15];
    for (int k = 14; k >= 0; k--)
      r = r * z + c[k];
    return r;
  }
}
/* END polynomials fitted by tools/fit_bessel01.py */

/* exp(x) v for the scaled value v of a function that grows like exp(x):
 * in two halves past 700, so that the result overflows only where the
 * function itself does (exp(-x) likewise for the decaying ones). */
CN_SP_FN double cn_sp_unscale_(double v, double x) {
  if (fabs(x) <= 700.0)
    return v * exp(x);
  double h = exp(0.5 * x);
  return v * h * h;
}

/* I0 and I1 (I1 of |x|), scaled by exp(-|x|) when scaled is set: up to 4
 * the polynomials in x^2, beyond sqrt(x) exp(-x) I(x) from its
 * polynomials in 1/x (see the fitted block above). */
CN_SP_FN double cn_sp_bessel_i01_(int nu, double x, int scaled) {
  if (x <= 4.0) {
    double t = x * x;
    double r = nu ? x * cn_sp_i1_near_(t) : cn_sp_i0_near_(t);
    return scaled ? r * exp(-x) : r;
  }
  double s = (nu ? cn_sp_i1_far_(x) : cn_sp_i0_far_(x)) / sqrt(x);
  return scaled ? s : cn_sp_unscale_(s, x);
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
  /* an odd subnormal |x|: |x| / 2 is a tie, which rounds to even, while
   * I1(x) = x/2 + x^3/16 + ... lies just above it (the next term is far
   * below the smallest subnormal, so the upper neighbour is correct) */
  if (fabs(x) < 2.2250738585072014e-308 && r + r != fabs(x))
    r = (fabs(x) + 4.9406564584124654e-324) * 0.5;
  return x < 0.0 ? -r : r;
}
CN_SP_FN double cn_sp_i1e(double x) {
  if (fabs(x) == CN_SP_INF)
    return x < 0.0 ? -0.0 : 0.0;
  double r = cn_sp_bessel_i01_(1, fabs(x), 1);
  /* the tie as in i1, but e^-x I1(x) lies just below it */
  if (fabs(x) < 2.2250738585072014e-308 && r + r != fabs(x))
    r = (fabs(x) - 4.9406564584124654e-324) * 0.5;
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
