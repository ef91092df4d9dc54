/* The gamma and beta function family, the Hurwitz zeta function, the
 * complete elliptic integrals and the real branches of Lambert's W, for
 * cunumpy.special: a part of core/special_scalar.h (which includes it in C;
 * the CUDA prelude places it just after that file), in the same subset of
 * C that is also CUDA C++ and with the same conventions (float64 only,
 * CN_SP_FN, CN_SP_NAN, CN_SP_INF, CN_SP_LGAMMA). Written from the
 * mathematics: power series, continued fractions, Stirling's series, the
 * Euler-Maclaurin formula and the arithmetic-geometric mean, with Halley
 * or Newton steps for the inverses. */
#ifndef CUNUMPY_SPECIAL_GAMMA_H
#define CUNUMPY_SPECIAL_GAMMA_H

#define CN_SP_PI 3.14159265358979323846
#define CN_SP_LN_SQRT_2PI 0.91893853320467274178
#define CN_SP_EPS 2.220446049250313e-16
#define CN_SP_TINY 2.2250738585072014e-308

/* ---- log Gamma near its zeros 1 and 2 ------------------------------------ */

/* log Gamma(1 + z) for |z| <= 0.25: -gamma z + sum_k>=2 (-1)^k zeta(k) / k
 * z^k (coefficients from mpmath at 40 digits; the 42nd term is below
 * 1e-25 of the sum). */
CN_SP_FN double cn_sp_lgamma1p_small_(double z) {
  const double c[40] = {
      0.82246703342411322,   -0.40068563438653143,  0.27058080842778455,
      -0.20738555102867399,  0.16955717699740819,   -0.14404989676884612,
      0.12550966952474304,   -0.11133426586956469,  0.10009945751278181,
      -0.090954017145829042, 0.083353840546109004,  -0.076932516411352191,
      0.071432946295361336,  -0.066668705882420468, 0.062500955141213041,
      -0.058823978658684582, 0.055555767627403611,  -0.052631679379616661,
      0.050000047698101694,  -0.047619070330142228, 0.045454556293204669,
      -0.043478266053040259, 0.04166666915034121,   -0.040000001192140141,
      0.038461539034675186,  -0.037037037312989326, 0.035714285847333358,
      -0.034482758684919301, 0.033333333364377581,  -0.032258064531150416,
      0.031250000007275974,  -0.030303030306558046, 0.029411764707594345,
      -0.02857142857226011,  0.027777777778181998,  -0.027027027027223675,
      0.026315789473779947,  -0.025641025641072282, 0.025000000000022737,
      -0.024390243902450116};
  double p = c[39];
  for (int i = 38; i >= 0; i--)
    p = p * z + c[i];
  return z * (-0.57721566490153286061 + z * p);
}

/* log Gamma(2 + z) for |z| <= 0.75: (1 - gamma) z + sum_k>=2 (-1)^k
 * (zeta(k) - 1) / k z^k (the coefficients fall as 2^-k: 40 terms leave
 * 1e-18 at |z| = 0.75). */
CN_SP_FN double cn_sp_lgamma2p_(double z) {
  const double c[40] = {
      0.32246703342411322,    -0.067352301053198095,  0.020580808427784548,
      -0.0073855510286739853, 0.0028905103307415233,  -0.001192753911703261,
      0.00050966952474304242, -0.00022315475845357938, 9.9457512781808534e-5,
      -4.4926236738133142e-5, 2.0507212775670692e-5,  -9.4394882752683959e-6,
      4.3748667899074878e-6,  -2.0392157538013662e-6, 9.5514121304074198e-7,
      -4.492469198764566e-7,  2.1207184805554666e-7,  -1.00432248239681e-7,
      4.7698101693639806e-8,  -2.2711094608943165e-8, 1.0838659214896954e-8,
      -5.1834750419700467e-9, 2.4836745438024783e-9,  -1.1921401405860912e-9,
      5.731367241678862e-10,  -2.7595228851242331e-10, 1.3304764374244489e-10,
      -6.4229645638381e-11,   3.1044247747322273e-11, -1.5021384080754142e-11,
      7.2759744802390797e-12, -3.5277424765759151e-12, 1.7119917905596179e-12,
      -8.3153858414202848e-13, 4.0422005252894401e-13, -1.9664756310966165e-13,
      9.5736303878385558e-14, -4.6640760264283742e-14, 2.2737369600659723e-14,
      -1.1091399470834522e-14};
  double p = c[39];
  for (int i = 38; i >= 0; i--)
    p = p * z + c[i];
  return z * (0.42278433509846713939 + z * p);
}

/* log Gamma(x) for real x (SciPy's real loggamma): the series above on
 * [0.75, 2.75], where libm's lgamma loses relative precision near the
 * zeros; lgamma elsewhere. NaN below 0 and at -inf, inf at +-0. */
CN_SP_FN double cn_sp_loggamma(double x) {
  if (x != x)
    return x;
  if (x < 0.0)
    return CN_SP_NAN;
  if (x >= 0.75 && x <= 2.75) {
    if (x <= 1.25)
      return cn_sp_lgamma1p_small_(x - 1.0);
    return cn_sp_lgamma2p_(x - 2.0);
  }
  return CN_SP_LGAMMA(x);
}

/* log Gamma(1 + a) for a > -1, accurate where it is small. */
CN_SP_FN double cn_sp_lgamma1p_(double a) {
  if (fabs(a) <= 0.25)
    return cn_sp_lgamma1p_small_(a);
  if (a >= 0.25 && a <= 1.75)
    return cn_sp_lgamma2p_(a - 1.0);
  return CN_SP_LGAMMA(1.0 + a);
}

/* Stirling's correction log Gamma(x) - ((x - 1/2) log x - x + log sqrt(2
 * pi)) = sum B_2k / (2k (2k - 1) x^(2k-1)) for x >= 10 (eight terms). */
CN_SP_FN double cn_sp_stirling_corr_(double x) {
  const double b[8] = {0.083333333333333333,  -0.0027777777777777778,
                       0.00079365079365079365, -0.00059523809523809524,
                       0.00084175084175084175, -0.0019175269175269175,
                       0.0064102564102564103,  -0.029550653594771242};
  double v = 1.0 / (x * x), p = b[7];
  for (int i = 6; i >= 0; i--)
    p = p * v + b[i];
  return p / x;
}

/* log1p(t) - t without cancellation: for t in [-0.6, 1.5] through u = t /
 * (2 + t), log1p(t) = 2 atanh(u), as -t^2 / (2 + t) + 2 sum u^(2k+1) /
 * (2k + 1) (|u| <= 0.43; 24 terms). */
CN_SP_FN double cn_sp_log1pmx_(double t) {
  if (t < -0.6 || t > 1.5)
    return log1p(t) - t;
  double u = t / (2.0 + t), u2 = u * u, p = 0.0;
  for (int k = 24; k >= 1; k--)
    p = p * u2 + 1.0 / (2.0 * k + 1.0);
  return -t * t / (2.0 + t) + 2.0 * u * u2 * p;
}

/* ---- polygamma and the Hurwitz zeta function ----------------------------- */

/* zeta(s, q) = sum_k>=0 (q + k)^-s (SciPy's Hurwitz zeta). The first
 * terms directly, until q + N >= 10 + 2 s or the terms fall below an
 * ulp; then the Euler-Maclaurin tail (q + N)^(1-s) / (s - 1) + (q + N)^-s
 * / 2 + sum_j B_2j / (2j)! (s)_(2j-1) (q + N)^(1-s-2j) (twelve terms). inf
 * at s = 1 and at the integers q <= 0, NaN for s < 1 and for q < 0 with s
 * not an integer (q^-s is complex), as SciPy. */
CN_SP_FN double cn_sp_zeta(double s, double q) {
  /* in SciPy's order: s = 1, s < 1, the poles in q, then NaN */
  if (s == 1.0)
    return CN_SP_INF;
  if (s < 1.0)
    return CN_SP_NAN;
  if (q <= 0.0 && q == floor(q))
    return CN_SP_INF;
  if (s != s || q != q)
    return CN_SP_NAN;
  if (q < 0.0 && s != floor(s))
    return CN_SP_NAN;
  if (q == CN_SP_INF)
    return 0.0;
  if (s == CN_SP_INF)
    return q == 1.0 ? 1.0 : q > 1.0 ? 0.0 : CN_SP_INF;
  double a = q, sum = 0.0;
  double lim = 10.0 + 2.0 * s; /* the tail's terms then fall fast */
  for (int k = 0; k < 100000 && a < lim; k++, a = q + k) {
    double t = pow(a, -s);
    sum += t;
    if (fabs(t) <= 1e-18 * fabs(sum))
      return sum;
  }
  const double b[12] = {0.083333333333333333,   -0.0013888888888888889,
                        3.3068783068783069e-5,  -8.2671957671957672e-7,
                        2.0876756987868099e-8,  -5.2841901386874932e-10,
                        1.3382536530684679e-11, -3.3896802963225829e-13,
                        8.5860620562778446e-15, -2.1748686985580619e-16,
                        5.5090028283602295e-18, -1.3954464685812523e-19};
  double ps = pow(a, -s);
  /* a^(1-s) by its own pow: a a^-s underflows first */
  double tail = pow(a, 1.0 - s) / (s - 1.0) + 0.5 * ps;
  double fac = s * ps / a, ia2 = 1.0 / (a * a), em = 0.0;
  for (int j = 0; j < 12; j++) {
    double t = b[j] * fac;
    em += t;
    if (fabs(t) <= 1e-18 * fabs(sum + tail + em))
      break;
    fac *= (s + 2.0 * j + 1.0) * (s + 2.0 * j + 2.0) * ia2;
  }
  return sum + (tail + em);
}

/* polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x), psi(x) for n = 0: SciPy's
 * formula as it stands, so its values for other n too (NaN where (-1)^(n+1)
 * is not real, the limits where n + 1 rounds to an integer). */
CN_SP_FN double cn_sp_polygamma(double n, double x) {
  if (n == 0.0)
    return cn_sp_psi(x);
  double s = n + 1.0;
  double sign = pow(-1.0, s); /* NaN unless s is an integer */
  return sign * tgamma(s) * cn_sp_zeta(s, x);
}

/* ---- beta ------------------------------------------------------------------ */

/* log(Gamma(b) / Gamma(b + a)) + a log b for b >= 10 and 0 < a <= b:
 * Stirling's series for both, with u = a / b, written so that nothing
 * cancels: -b log1pmx(u) - (b u - a) - (a - 1/2) log1p(u) + corr(b) -
 * corr(a + b). */
CN_SP_FN double cn_sp_lgamma_ratio_(double a, double b) {
  double u = a / b;
  return -b * cn_sp_log1pmx_(u) - fma(b, u, -a) - (a - 0.5) * log1p(u) +
         (cn_sp_stirling_corr_(b) - cn_sp_stirling_corr_(a + b));
}

/* log B(a, b) for 0 < a <= b, b >= 10 by Stirling's series: log Gamma(a)
 * + the ratio above - a log b for a < 10, else log sqrt(2 pi c / (a b)) -
 * a log1p(b / a) - b log1p(a / b) + corr(a) + corr(b) - corr(c), c = a + b
 * (no term cancels). */
CN_SP_FN double cn_sp_lbeta_big_(double a, double b) {
  if (a < 10.0)
    return CN_SP_LGAMMA(a) + cn_sp_lgamma_ratio_(a, b) - a * log(b);
  double c = a + b;
  return 0.5 * log(2.0 * CN_SP_PI * (c / a) / b) - a * log1p(b / a) -
         b * log1p(a / b) +
         (cn_sp_stirling_corr_(a) + cn_sp_stirling_corr_(b) -
          cn_sp_stirling_corr_(c));
}

/* B(a, b) for 0 < a <= b, b >= 10, through pow where nothing underflows
 * (pow is within an ulp for any exponent, where the exponential of the
 * logarithm above loses |log B| ulp): Gamma(a) b^-a exp(ratio) for a < 10;
 * beyond sqrt(2 pi c / (a b)) p^a q^b exp(corr's) with p = a / c, q = b /
 * c, the rounding errors of p, q and c carried as the factors exp(a
 * delta_p + b delta_q). */
CN_SP_FN double cn_sp_beta_big_(double a, double b) {
  if (a < 10.0) {
    double pw = pow(b, -a);
    if (pw > 1e-300)
      return tgamma(a) * pw * exp(cn_sp_lgamma_ratio_(a, b));
    return exp(cn_sp_lbeta_big_(a, b));
  }
  double c = a + b;
  double ce = (a - (c - (c - a))) + (b - (c - a)); /* a + b = c + ce */
  double p = a / c, q = b / c;
  double pa = pow(p, a), qb = pow(q, b);
  if (!(pa > 1e-300 && qb > 1e-300))
    return exp(cn_sp_lbeta_big_(a, b));
  /* a / (c + ce) = p (1 + dp), dp = (a - p c - p ce) / a */
  double dp = (fma(-p, c, a) - p * ce) / a;
  double dq = (fma(-q, c, b) - q * ce) / b;
  double corr = cn_sp_stirling_corr_(a) + cn_sp_stirling_corr_(b) -
                cn_sp_stirling_corr_(c);
  return sqrt(2.0 * CN_SP_PI * (c / a) / b) * (pa * qb) *
         exp(a * dp + b * dq + corr);
}

/* Gamma(a) Gamma(b) / Gamma(a + b) for a, b < 10: tgamma's, with Gamma(c)
 * corrected for the rounding e of c = a + b by the factor 1 + psi(c) e. */
CN_SP_FN double cn_sp_beta_small_(double a, double b) {
  double c = a + b;
  double bv = c - a, e = (a - (c - bv)) + (b - bv); /* c + e = a + b */
  double gc = tgamma(c);
  if (e != 0.0)
    gc *= 1.0 + cn_sp_psi(c) * e;
  return tgamma(a) / gc * tgamma(b);
}

/* log |B(a, b)| from lgamma, for arguments beyond tgamma's range; where
 * one dwarfs the other (a + b rounds to it), log Gamma(a) / Gamma(a + b)
 * is -b log a. */
CN_SP_FN double cn_sp_lbeta_lgamma_(double a, double b) {
  if (fabs(a) < fabs(b)) {
    double t = a;
    a = b;
    b = t;
  }
  if (a > 1e15 * fabs(b))
    return CN_SP_LGAMMA(b) - b * log(a);
  return CN_SP_LGAMMA(a) + CN_SP_LGAMMA(b) - CN_SP_LGAMMA(a + b);
}

/* The sign of Gamma(x) away from its poles. */
CN_SP_FN double cn_sp_gamma_sign_(double x) {
  return x > 0.0 || fmod(floor(x), 2.0) == 0.0 ? 1.0 : -1.0;
}

/* B(a, b) for a, b > 0: the gamma functions below 10, beyond Stirling's
 * series (see above). */
CN_SP_FN double cn_sp_beta_pos_(double a, double b) {
  if (a > b) {
    double t = a;
    a = b;
    b = t;
  }
  if (b == CN_SP_INF)
    return 0.0;
  if (a < 1e-300) /* B ~ 1/a - psi(b) - gamma, -psi(b) ~ 1/b for tiny b */
    return 1.0 / a + (b < 1e-290 ? 1.0 / b : 0.0);
  if (b < 10.0)
    return cn_sp_beta_small_(a, b);
  return cn_sp_beta_big_(a, b);
}

/* B(a, b) at a pole a (a non-positive integer or -inf): finite, (-1)^b
 * B(1 - a - b, b), where b is an integer with 1 - a - b > 0 (the limit
 * along a + b = const), else inf, as SciPy. */
CN_SP_FN double cn_sp_beta_pole_(double a, double b) {
  if (b == floor(b) && 1.0 - a - b > 0.0) {
    double sign = fmod(b, 2.0) == 0.0 ? 1.0 : -1.0;
    if (b <= 0.0) /* 1 - a - b, b: a pole again, at b */
      return sign * CN_SP_INF;
    return sign * cn_sp_beta_pos_(1.0 - a - b, b);
  }
  return CN_SP_INF;
}

/* B(a, b) = Gamma(a) Gamma(b) / Gamma(a + b). The poles first (SciPy's
 * order: inf or the limit above, also beside a NaN); negative arguments
 * through the gamma functions' ratio, 0 where a + b is a pole. */
CN_SP_FN double cn_sp_beta(double a, double b) {
  if (a <= 0.0 && a == floor(a))
    return cn_sp_beta_pole_(a, b);
  if (b <= 0.0 && b == floor(b))
    return cn_sp_beta_pole_(b, a);
  if (a != a || b != b)
    return CN_SP_NAN;
  if (a > 0.0 && b > 0.0)
    return cn_sp_beta_pos_(a, b);
  double c = a + b;
  if (c <= 0.0 && c == floor(c))
    return 0.0;
  if (fabs(c) < 171.0 && fabs(a) < 171.0 && fabs(b) < 171.0)
    return tgamma(a) / tgamma(c) * tgamma(b);
  return cn_sp_gamma_sign_(a) * cn_sp_gamma_sign_(b) * cn_sp_gamma_sign_(c) *
         exp(cn_sp_lbeta_lgamma_(a, b));
}

/* log |B(a, b)|: the logarithm of the forms of beta, so that it never
 * overflows; inf at the poles, as SciPy. */
CN_SP_FN double cn_sp_betaln(double a, double b) {
  if ((a <= 0.0 && a == floor(a)) || (b <= 0.0 && b == floor(b)))
    return log(fabs(cn_sp_beta(a, b)));
  if (a != a || b != b)
    return CN_SP_NAN;
  if (a > b) {
    double t = a;
    a = b;
    b = t;
  }
  if (a > 0.0) {
    if (b == CN_SP_INF)
      return -CN_SP_INF;
    if (a < 1e-300)
      return log1p(a / b) - log(a);
    if (b < 10.0)
      return log(cn_sp_beta_small_(a, b));
    return cn_sp_lbeta_big_(a, b);
  }
  double c = a + b;
  if (c <= 0.0 && c == floor(c))
    return -CN_SP_INF;
  if (fabs(c) < 171.0 && fabs(a) < 171.0 && fabs(b) < 171.0)
    return log(fabs(cn_sp_beta(a, b)));
  return cn_sp_lbeta_lgamma_(a, b);
}

/* ---- regularized incomplete gamma functions ------------------------------ */

/* x^a e^-x / Gamma(a + 1) for a > 0, x > 0. From a = 10 on Stirling's
 * form exp(a log1pmx((x - a) / a) - corr(a)) / sqrt(2 pi a), whose
 * exponent is computed without cancellation; below, pow, exp and tgamma
 * (each within an ulp) where nothing under- or overflows. */
CN_SP_FN double cn_sp_igam_fac_(double a, double x) {
  if (a >= 10.0) {
    double e = a * cn_sp_log1pmx_((x - a) / a) - cn_sp_stirling_corr_(a);
    return exp(e) / sqrt(2.0 * CN_SP_PI * a);
  }
  if (x < 700.0) {
    double p = pow(x, a);
    if (p > 1e-290 && p < 1e290)
      return p * exp(-x) / (a * tgamma(a)); /* a + 1 would round */
  }
  return exp(a * log(x) - x - cn_sp_lgamma1p_(a));
}

/* P(a, x) by its series x^a e^-x / Gamma(a + 1) sum x^k / ((a + 1) ...
 * (a + k)) (positive terms). */
CN_SP_FN double cn_sp_igam_series_(double a, double x) {
  double t = 1.0, s = 1.0, d = a;
  for (int k = 0; k < 1000000; k++) {
    d += 1.0;
    t *= x / d;
    s += t;
    if (t <= 1e-17 * s)
      break;
  }
  return cn_sp_igam_fac_(a, x) * s;
}

/* Q(a, x) for x > 1.1 and x >= a by the continued fraction x^a e^-x /
 * Gamma(a) / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...)),
 * evaluated forwards with the modified Lentz method. */
CN_SP_FN double cn_sp_igamc_cf_(double a, double x) {
  double b = x + 1.0 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
  for (int i = 1; i < 1000000; i++) {
    double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (fabs(d) < 1e-300)
      d = 1e-300;
    c = b + an / c;
    if (fabs(c) < 1e-300)
      c = 1e-300;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1.0) <= 1e-16)
      break;
  }
  return a * cn_sp_igam_fac_(a, x) * h;
}

/* Q(a, x) for x <= 1.1 and small a, without 1 - P's cancellation: Q = (
 * (Gamma(1 + a) - 1) - (x^a - 1)) / Gamma(1 + a) - x^a / Gamma(a) sum_n>=1
 * (-x)^n / (n! (a + n)). */
CN_SP_FN double cn_sp_igamc_series_(double a, double x) {
  double lg = cn_sp_lgamma1p_(a);
  double g1 = expm1(lg), pm1 = expm1(a * log(x));
  double head = (g1 - pm1) / (1.0 + g1);
  double t = 1.0, s = 0.0;
  for (int n = 1; n < 200; n++) {
    t *= -x / n;
    double term = t / (a + n);
    s += term;
    if (fabs(term) <= 1e-17 * fabs(s))
      break;
  }
  return head - (pm1 + 1.0) / (1.0 + g1) * a * s;
}

/* The regularized lower incomplete gamma function P(a, x) = gamma(a, x) /
 * Gamma(a): the series below x = max(1, a), 1 - Q beyond. SciPy's values
 * at the domain's edges: 1 for a = 0 < x, NaN at a = x = 0 and for
 * negative or NaN arguments, 0 at x = 0 and a = inf. */
CN_SP_FN double cn_sp_igam_(double a, double x, int upper);
CN_SP_FN double cn_sp_gammainc(double a, double x) {
  return cn_sp_igam_(a, x, 0);
}
CN_SP_FN double cn_sp_gammaincc(double a, double x) {
  return cn_sp_igam_(a, x, 1);
}
CN_SP_FN double cn_sp_igam_(double a, double x, int upper) {
  if (!(a >= 0.0 && x >= 0.0))
    return CN_SP_NAN;
  if (a == 0.0) {
    if (x == 0.0)
      return CN_SP_NAN;
    return upper ? 0.0 : 1.0;
  }
  if (x == 0.0)
    return upper ? 1.0 : 0.0;
  if (a == CN_SP_INF) {
    if (x == CN_SP_INF)
      return CN_SP_NAN;
    return upper ? 1.0 : 0.0;
  }
  if (x == CN_SP_INF)
    return upper ? 0.0 : 1.0;
  if (a > 1e12) {
    /* the series would take ~sqrt(a) terms: Temme's uniform expansion to
     * its first correction, Q = erfc(eta sqrt(a/2)) / 2 + exp(-a eta^2 /
     * 2) / sqrt(2 pi a) c0(eta), c0 = 1 / (lambda - 1) - 1 / eta, lambda =
     * x / a, eta^2 / 2 = -log1pmx(lambda - 1) (relative error ~1/a) */
    double lm1 = (x - a) / a;
    double h = -cn_sp_log1pmx_(lm1);
    double eta = sqrt(2.0 * h);
    if (lm1 < 0.0)
      eta = -eta;
    double c0 = fabs(eta) < 1e-3 ? -1.0 / 3.0 + eta / 12.0
                                 : 1.0 / lm1 - 1.0 / eta;
    double r = exp(-a * h) / sqrt(2.0 * CN_SP_PI * a) * c0;
    double z = eta * sqrt(0.5 * a);
    return upper ? 0.5 * erfc(z) + r : 0.5 * erfc(-z) - r;
  }
  /* which of P and Q is the small one, computed directly */
  int q_direct;
  if (x > 1.1)
    q_direct = x >= a;
  else if (x <= 0.5)
    q_direct = !(-0.4 / log(x) < a);
  else
    q_direct = !(x * 1.1 < a);
  double v;
  if (!q_direct)
    v = cn_sp_igam_series_(a, x);
  else if (x > 1.1)
    v = cn_sp_igamc_cf_(a, x);
  else
    v = cn_sp_igamc_series_(a, x);
  return (upper == q_direct) ? v : 1.0 - v;
}

/* x^(a-1) e^-x / Gamma(a), the derivative of P in x. */
CN_SP_FN double cn_sp_igam_deriv_(double a, double x) {
  return a * cn_sp_igam_fac_(a, x) / x;
}

/* The x with P(a, x) = p (upper = 0) or Q(a, x) = p (upper = 1). It
 * solves for whichever of P and Q is below 1/2 (1 - p is exact there),
 * from Wilson and Hilferty's normal approximation, or the leading term of
 * the series at small x, or of the asymptotic tail at large x, by Newton
 * steps on log F while F is off by more than a factor 2, then Halley steps
 * on F (f''/f' = (a - 1) / x - 1), bisection keeping it inside the
 * bracket where a step leaves it. */
CN_SP_FN double cn_sp_igam_inv_(double a, double p, int upper) {
  if (a != a || p != p || a < 0.0 || p < 0.0 || p > 1.0)
    return CN_SP_NAN;
  if (a == 0.0) /* P(0, x) is 1 for every x > 0 */
    return p == (upper ? 1.0 : 0.0) ? 0.0
           : p == (upper ? 0.0 : 1.0) ? CN_SP_INF
                                        : CN_SP_NAN;
  if (upper) {
    if (p == 0.0)
      return CN_SP_INF;
    if (p == 1.0)
      return 0.0;
  } else {
    if (p == 0.0)
      return 0.0;
    if (p == 1.0)
      return CN_SP_INF;
  }
  if (a == CN_SP_INF)
    return CN_SP_NAN;
  /* target: P(a, x) = t (solve_q = 0) or Q(a, x) = t (solve_q = 1) */
  int solve_q = upper;
  double t = p;
  if (t > 0.5) {
    t = 1.0 - t;
    solve_q = !solve_q;
  }
  /* start: Wilson-Hilferty with z the normal quantile of P */
  double z = solve_q ? -cn_sp_ndtri(t) : cn_sp_ndtri(t);
  double w = 1.0 / (9.0 * a);
  double c = 1.0 - w + z * sqrt(w);
  double x = a * c * c * c;
  double lg1 = cn_sp_lgamma1p_(a);
  if (!solve_q) {
    /* small x: P ~ x^a / Gamma(a + 1) */
    double xs = exp((log(t) + lg1) / a);
    if (!(x > 0.0) || xs < 0.3 * a + 0.3 || c <= 0.0)
      x = xs;
  } else if (!(x > 0.0) || c <= 0.0) {
    /* large x: Q ~ x^(a-1) e^-x / Gamma(a) */
    double lt = log(t) + lg1 - log(a);
    x = -lt;
    for (int i = 0; i < 3; i++)
      x = -lt + (a - 1.0) * log(x > 1.0 ? x : 1.0);
  }
  if (!(x > 0.0))
    x = CN_SP_TINY;
  double lo = 0.0, hi = CN_SP_INF;
  for (int i = 0; i < 200; i++) {
    double f = cn_sp_igam_(a, x, solve_q) - t;
    if (f == 0.0)
      break;
    /* P rises with x, Q falls */
    if ((f < 0.0) != (solve_q != 0))
      lo = x;
    else
      hi = x;
    double d = cn_sp_igam_deriv_(a, x);
    if (solve_q)
      d = -d;
    double xn, fv = f + t;
    if (d == 0.0 || d != d) {
      xn = hi == CN_SP_INF ? 2.0 * x : 0.5 * (lo + hi);
    } else if (fv > 2.0 * t || fv < 0.5 * t) {
      /* far from the root Newton on log F, nearly linear in the tails
       * (where F itself takes a step of 1 per iteration) */
      xn = x - log(fv / t) * (fv / d);
      if (!(xn > lo && xn < hi))
        xn = hi == CN_SP_INF ? 2.0 * (x > lo ? x : lo) + 1.0
                             : 0.5 * (lo + hi);
    } else {
      double u = f / d;
      double h = (a - 1.0) / x - 1.0;
      double den = 1.0 - 0.5 * u * h;
      xn = x - (den > 0.5 && den < 2.0 ? u / den : u);
      if (!(xn > lo && xn < hi))
        xn = hi == CN_SP_INF ? 2.0 * (x > lo ? x : lo) + 1.0
                             : 0.5 * (lo + hi);
    }
    if (fabs(xn - x) <= 2e-16 * x) {
      x = xn;
      break;
    }
    x = xn;
  }
  return x;
}

/* gammaincinv(a, p): P(a, x) = p for a > 0 and p in [0, 1] (0 at p = 0,
 * inf at 1, NaN otherwise and for a = 0, as SciPy). */
CN_SP_FN double cn_sp_gammaincinv(double a, double p) {
  return cn_sp_igam_inv_(a, p, 0);
}
/* gammainccinv(a, q): Q(a, x) = q (inf at q = 0, 0 at q = 1). */
CN_SP_FN double cn_sp_gammainccinv(double a, double q) {
  return cn_sp_igam_inv_(a, q, 1);
}

/* ---- regularized incomplete beta function -------------------------------- */

/* x^a y^b / (a B(a, b)) with y = 1 - x (y given exactly where the caller
 * has it). For a, b >= 10 Stirling's form sqrt(a b / (2 pi c)) exp(a
 * log(x / p0) + b log(y / q0) - corr) / a with c = a + b, p0 = a / c, q0 =
 * b / c. The exponent is written through u = c (x - p0) = x b - y a
 * (formed with fma, so that neither the rounding of c nor that of p0 and
 * q0 enters: each would cost up to c ulp): x / p0 = 1 + u / a, y / q0 = 1 -
 * u / b, and near the mean a log1pmx(u / a) + b log1pmx(-u / b), where
 * the linear terms cancel exactly; farther out the logarithms, with x / p0
 * as x + x b / a where it is small (1 + u / a would lose its relative
 * precision there). Otherwise the powers (y^b as exp(b log1p(-x)) where x
 * < 1/2, so the rounding of y does not count b times) over beta. */
CN_SP_FN double cn_sp_ibeta_fac_(double a, double b, double x, double y) {
  if (a >= 10.0 && b >= 10.0) {
    double u;
    if (x >= 0.5) { /* y is exact */
      double p1 = y * a;
      u = fma(x, b, -p1) - fma(y, a, -p1);
    } else {
      u = fma(x, b, fma(a, x, -a));
    }
    double t = u / a, s = -u / b, e;
    if (t >= -0.5 && t <= 1.5 && s >= -0.5 && s <= 1.5)
      e = a * cn_sp_log1pmx_(t) + b * cn_sp_log1pmx_(s);
    else
      e = a * (t < -0.5 ? log(x + x * (b / a)) : log1p(t)) +
          b * (s < -0.5 ? log(y + y * (a / b)) : log1p(s));
    double c = a + b;
    e -= cn_sp_stirling_corr_(a) + cn_sp_stirling_corr_(b) -
         cn_sp_stirling_corr_(c);
    return exp(e) * sqrt(b / (2.0 * CN_SP_PI * c * a));
  }
  double la = a * log(x);
  double lb = x < 0.5 ? b * log1p(-x) : b * log(y);
  double bt = cn_sp_beta(a, b);
  if (la > -700.0 && lb > -700.0 && bt < 1e300 && bt > 1e-300) {
    double pa = pow(x, a);
    double pb = x < 0.5 ? exp(lb) : pow(y, b);
    return pa * pb / (a * bt);
  }
  return exp(la + lb - cn_sp_betaln(a, b) - log(a)); /* a B may overflow */
}

/* log Gamma(a + b) - log Gamma(a) for 0 < b <= 1, accurate in absolute
 * terms where it is small (b tiny): Stirling's ratio above for a >= 10,
 * the recurrence log Gamma(a + 1) = log a + log Gamma(a) as a sum of
 * log1p(b / (a + k)) up to there. */
CN_SP_FN double cn_sp_lgamma_shift_(double a, double b) {
  double s = 0.0;
  while (a < 10.0) {
    s -= log1p(b / a);
    a += 1.0;
  }
  return s + b * log(a) - cn_sp_lgamma_ratio_(b, a);
}

/* I_x(a, b) = 1 - I_y(b, a) for b < 1 and y = 1 - x below the mean of
 * I_y(b, a), where I_y(b, a) = P S is near 1 and the difference would
 * cancel: P = y^b / (b B(a, b)) = exp(L), L = b log y - log Gamma(1 + b) +
 * log Gamma(a + b) - log Gamma(a), and S = 1 + b sum_n>=1 (1 - a)_n y^n /
 * (n! (b + n)) (the power series of B_y; a y < 2 here, so its terms
 * fall). 1 - P S = -expm1(L) - P (S - 1) keeps the relative precision. */
CN_SP_FN double cn_sp_ibeta_small_b_(double a, double b, double y) {
  double l = b * log(y) - cn_sp_lgamma1p_(b) + cn_sp_lgamma_shift_(a, b);
  double t = 1.0, s = 0.0;
  for (int n = 1; n < 1000; n++) {
    t *= (n - a) * y / n;
    double term = t / (b + n);
    s += term;
    if (fabs(term) <= 1e-17 * fabs(s))
      break;
  }
  return -expm1(l) - exp(l) * b * s;
}

/* I_x(a, b) for x below the mean (a + 1) / (a + b + 2): the prefactor
 * times the continued fraction 1 / (1 + d1 / (1 + d2 / (1 + ...))) with
 * d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) and d_2m = m (b -
 * m) x / ((a + 2m - 1)(a + 2m)), by the modified Lentz method. */
CN_SP_FN double cn_sp_ibeta_cf_(double a, double b, double x, double y) {
  double c = 1.0, d = 1.0 - ((a + b) / (a + 1.0)) * x;
  if (fabs(d) < 1e-300)
    d = 1e-300;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 100000; m++) {
    double m2 = 2.0 * m;
    /* as ratios: the products overflow for huge a, b */
    double an = (m / (a + m2 - 1.0)) * ((b - m) / (a + m2)) * x;
    d = 1.0 + an * d;
    if (fabs(d) < 1e-300)
      d = 1e-300;
    c = 1.0 + an / c;
    if (fabs(c) < 1e-300)
      c = 1e-300;
    d = 1.0 / d;
    h *= d * c;
    an = -((a + m) / (a + m2)) * ((a + b + m) / (a + m2 + 1.0)) * x;
    d = 1.0 + an * d;
    if (fabs(d) < 1e-300)
      d = 1e-300;
    c = 1.0 + an / c;
    if (fabs(c) < 1e-300)
      c = 1e-300;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1.0) <= 1e-16)
      return cn_sp_ibeta_fac_(a, b, x, y) * h;
  }
  return CN_SP_NAN; /* not converged (far above the mean) */
}

/* I_x(a, b) with y = 1 - x: the fraction where x is below the mean, 1 -
 * I_y(b, a) beyond (the symmetry I_x(a, b) = 1 - I_(1-x)(b, a)); for b <
 * 1 that difference would cancel (I_y(b, a) nears 1 as b does), and the
 * series above gives it directly. */
CN_SP_FN double cn_sp_ibeta_(double a, double b, double x, double y) {
  double c = a + b;
  if (x > (a + 1.0) / (c + 2.0)) {
    if (b < 1.0)
      return cn_sp_ibeta_small_b_(a, b, y);
    return 1.0 - cn_sp_ibeta_cf_(b, a, y, x);
  }
  if (fabs(1.0 - c * x / (a + 1.0)) < 0.02 && b >= 1.0) {
    double w = cn_sp_ibeta_cf_(b, a, y, x);
    if (w < 0.9)
      return 1.0 - w;
  }
  return cn_sp_ibeta_cf_(a, b, x, y);
}

/* The regularized incomplete beta function I_x(a, b) for a, b >= 0 and x
 * in [0, 1]; NaN outside, and SciPy's values at the edges in its order:
 * NaN for a = b = 0 or inf, 0 and 1 at x = 0 and 1, 1 for a = 0 < b, 0 for
 * b = 0 < a, the limits at a or b = inf. */
CN_SP_FN double cn_sp_betainc(double a, double b, double x) {
  if (!(a >= 0.0 && b >= 0.0 && x >= 0.0 && x <= 1.0))
    return CN_SP_NAN;
  if (a == b && (a == 0.0 || a == CN_SP_INF))
    return CN_SP_NAN;
  if (x == 0.0 || x == 1.0)
    return x;
  if (a == 0.0 || b == 0.0)
    return a == 0.0 ? 1.0 : 0.0;
  if (a == CN_SP_INF || b == CN_SP_INF)
    return a == CN_SP_INF ? 0.0 : 1.0;
  return cn_sp_ibeta_(a, b, x, 1.0 - x);
}

/* The x with I_x(a, b) = p for a, b > 0 and p in [0, 1] (0 at p = 0, 1 at
 * p = 1, NaN otherwise, as SciPy). It solves I_x(a, b) = p where the root
 * is below 1/2 and I_w(b, a) = 1 - p for w = 1 - x beyond, by Newton
 * steps from the normal approximation of the beta quantile (or the leading
 * term x^a / (a B) where that is off; on log I while I is off by more
 * than a factor 2), bisection keeping the iterate inside the bracket. */
CN_SP_FN double cn_sp_betaincinv(double a, double b, double p) {
  if (!(a > 0.0 && b > 0.0 && p >= 0.0 && p <= 1.0))
    return CN_SP_NAN;
  if (p == 0.0 || p == 1.0)
    return p;
  if (a == CN_SP_INF || b == CN_SP_INF)
    return CN_SP_NAN;
  /* solve for the smaller of x and w = 1 - x (each then keeps its
   * relative precision) */
  int flip = cn_sp_ibeta_(a, b, 0.5, 0.5) < p;
  if (flip) {
    double t = a;
    a = b;
    b = t;
    p = 1.0 - p;
  }
  /* start */
  double lb = cn_sp_betaln(a, b);
  double lx = (log(p * a) + lb) / a; /* I ~ x^a / (a B) */
  if (lx < -745.2) /* the root underflows */
    return flip ? 1.0 : 0.0;
  double x = exp(lx);
  double mu = a / (a + b);
  if (a > 1.0 && b > 1.0) {
    double sd = sqrt(a * b / ((a + b) * (a + b) * (a + b + 1.0)));
    double xn = mu + sd * cn_sp_ndtri(p);
    if (xn > 0.0 && xn < 1.0 && !(x < 0.5 * mu))
      x = xn;
  }
  if (!(x > 0.0 && x < 1.0))
    x = x >= 1.0 ? mu : CN_SP_TINY;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 300; i++) {
    double y = 1.0 - x;
    double f = cn_sp_ibeta_(a, b, x, y) - p;
    if (f == 0.0)
      break;
    if (f < 0.0)
      lo = x;
    else
      hi = x;
    /* I' = x^(a-1) y^(b-1) / B = a fac / (x y) */
    double dv = a * cn_sp_ibeta_fac_(a, b, x, y) / (x * y);
    double fv = f + p;
    double xn = (fv > 2.0 * p || fv < 0.5 * p) ? x - log(fv / p) * (fv / dv)
                                               : x - f / dv;
    if (!(dv > 0.0) || !(xn > lo && xn < hi))
      xn = 0.5 * (lo + hi);
    if (fabs(xn - x) <= 2e-16 * x || hi - lo <= 2e-16 * lo) {
      x = xn;
      break;
    }
    x = xn;
  }
  return flip ? 1.0 - x : x;
}

/* ---- complete elliptic integrals (parameter m, as SciPy) ----------------- */

/* K(m) and E(m) from m and m1 = 1 - m (each given exactly). For m1 <= 0.1
 * the logarithmic series of DLMF 19.12.1-2 in m1; otherwise the
 * arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(m1))), E = K (1 -
 * sum 2^(n-1) c_n^2) with c_0^2 = m. */
CN_SP_FN double cn_sp_ellip_(double m, double m1, int want_e) {
  if (m1 <= 0.1) {
    double l = -0.5 * log(m1); /* log(1 / k') */
    double dk = 1.3862943611198906; /* d(0) = log 4 */
    double ck = 1.0, ce = 0.5, sk = 0.0, se = 0.0, mp = 1.0;
    for (int n = 0; n < 60; n++) {
      /* ck = ((1/2)_n / n!)^2, ce = (1/2)(1/2)_n (3/2)_n / ((2)_n n!) */
      double tk = ck * mp * (l + dk);
      double te = ce * mp * m1 * (l + dk - 1.0 / ((2.0 * n + 1.0) * (2.0 * n + 2.0)));
      sk += tk;
      se += te;
      if (fabs(tk) <= 1e-17 * sk && fabs(te) <= 1e-17 * se && n > 1)
        break;
      double h = (n + 0.5) / (n + 1.0);
      ck *= h * h;
      ce *= (n + 0.5) * (n + 1.5) / ((n + 2.0) * (n + 1.0));
      dk -= 1.0 / ((n + 1.0) * (2.0 * n + 1.0));
      mp *= m1;
    }
    return want_e ? 1.0 + se : sk;
  }
  double a = 1.0, g = sqrt(m1), s = 0.5 * m, p2 = 0.5;
  for (int i = 0; i < 40; i++) {
    double c = 0.5 * (a - g);
    double an = 0.5 * (a + g);
    p2 *= 2.0;
    s += p2 * c * c;
    if (fabs(c) <= 1e-17 * an) {
      a = an;
      break;
    }
    g = sqrt(a * g);
    a = an;
  }
  double k = CN_SP_PI / (2.0 * a);
  return want_e ? k * (1.0 - s) : k;
}

/* Negative m maps to m / (m - 1) in (0, 1) (DLMF 19.7.5): K(m) = K(m') /
 * sqrt(1 - m), E(m) = sqrt(1 - m) E(m') with 1 - m' = 1 / (1 - m). */
CN_SP_FN double cn_sp_ellip_any_(double m, int want_e) {
  if (m != m || m > 1.0)
    return CN_SP_NAN;
  if (m == 1.0)
    return want_e ? 1.0 : CN_SP_INF;
  if (m == -CN_SP_INF)
    return want_e ? CN_SP_INF : 0.0;
  if (m < 0.0) {
    double om = 1.0 - m;
    double r = cn_sp_ellip_(-m / om, 1.0 / om, want_e);
    return want_e ? r * sqrt(om) : r / sqrt(om);
  }
  return cn_sp_ellip_(m, 1.0 - m, want_e);
}

/* ellipk(m) = int_0^pi/2 (1 - m sin^2 t)^-1/2 dt for m < 1 (inf at 1, NaN
 * above, 0 at -inf). */
CN_SP_FN double cn_sp_ellipk(double m) { return cn_sp_ellip_any_(m, 0); }
/* ellipe(m) = int_0^pi/2 (1 - m sin^2 t)^1/2 dt for m <= 1 (1 at 1, NaN
 * above, inf at -inf). */
CN_SP_FN double cn_sp_ellipe(double m) { return cn_sp_ellip_any_(m, 1); }

/* ---- Lambert W, real branches --------------------------------------------- */

/* The real w with w e^w = x on branch k: k = 0 for x >= -1/e (w >= -1),
 * k = -1 for -1/e <= x < 0 (w <= -1); NaN where the branch's value is not
 * real (SciPy returns complex there) and for other k. Start: the series
 * in p = +-sqrt(2 (e x + 1)) about the branch point (e x + 1 with 1/e as
 * hi + lo, so it keeps its precision there), log-based asymptotics far
 * out, Winitzki's approximation between; then Halley steps on w e^w - x. */
CN_SP_FN double cn_sp_lambertw(double x, double k) {
  if (x != x || k != k)
    return CN_SP_NAN;
  if (k != 0.0 && k != -1.0)
    return CN_SP_NAN;
  const double einv_hi = 0.36787944117144233, einv_lo = -1.2428753672788363e-17;
  /* e x + 1 = (x + 1/e) e, with x + 1/e summed exactly (two-sum) */
  double s = x + einv_hi;
  double bb = s - x;
  double se = (x - (s - bb)) + (einv_hi - bb) + einv_lo;
  double q = (s + se) * 2.718281828459045;
  if (q < 0.0)
    return CN_SP_NAN;
  if (k == 0.0) {
    if (x == CN_SP_INF)
      return x;
    if (x == 0.0)
      return x;
  } else {
    if (x >= 0.0)
      return x == 0.0 ? -CN_SP_INF : CN_SP_NAN;
  }
  if (q == 0.0)
    return -1.0;
  double w;
  double p = sqrt(2.0 * q);
  if (k == -1.0)
    p = -p;
  if (q < 0.3) {
    w = -1.0 + p * (1.0 + p * (-1.0 / 3.0 + p * (11.0 / 72.0 + p * (-43.0 / 540.0))));
  } else if (k == 0.0) {
    if (x > 3.0) {
      double l1 = log(x), l2 = log(l1);
      w = l1 - l2 + l2 / l1;
    } else {
      w = x * (1.0 - x * (1.0 - 1.5 * x)); /* small x */
      if (fabs(x) > 0.1) {
        double lx = log1p(x);
        w = lx * (1.0 - log1p(lx) / (2.0 + lx));
      }
    }
  } else {
    double l1 = log(-x), l2 = log(-l1);
    w = l1 - l2 + l2 / l1;
  }
  /* far from the branch point Newton on the logarithm w + log|w| = log|x|
   * (w e^w over- or underflows there) */
  if (w > 3.0 || w < -3.0) {
    double lx = log(fabs(x));
    for (int i = 0; i < 30; i++) {
      double wn = w - (w + log(fabs(w)) - lx) * w / (w + 1.0);
      if (fabs(wn - w) <= 1e-16 * fabs(wn)) {
        w = wn;
        break;
      }
      w = wn;
    }
    return w;
  }
  for (int i = 0; i < 30; i++) {
    double ew = exp(w);
    double f = w * ew - x;
    double wp1 = w + 1.0;
    if (wp1 == 0.0)
      break;
    double den = ew * wp1 - (w + 2.0) * f / (2.0 * wp1);
    double wn = w - f / den;
    if (wn != wn)
      break;
    if (fabs(wn - w) <= 1e-16 * fabs(wn)) {
      w = wn;
      break;
    }
    w = wn;
  }
  return w;
}

/* The functions above by arity, for CN_SP_UNARY, CN_SP_BINARY and
 * CN_SP_TERNARY (core/special_scalar.h). */
#define CN_SP_GAMMA_UNARY(X) X(loggamma) X(ellipk) X(ellipe)
#define CN_SP_GAMMA_BINARY(X)                                                  \
  X(polygamma) X(beta) X(betaln) X(gammainc) X(gammaincc) X(gammaincinv)       \
      X(gammainccinv) X(zeta) X(lambertw)
#define CN_SP_GAMMA_TERNARY(X) X(betainc) X(betaincinv)

#endif
