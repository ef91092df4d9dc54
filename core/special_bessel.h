/* Bessel functions of real order (jv, yv, iv, ive, kv, kve), the modified
 * Bessel functions of the second kind of orders 0 and 1 (k0, k0e, k1, k1e,
 * from the polynomials of core/special_scalar.h) and the spherical Bessel
 * functions (spherical_jn, spherical_yn): part of the special functions'
 * scalar code, in the same subset of C and CUDA C++
 * as core/special_scalar.h, which includes it in C (in the CUDA prelude it
 * follows that file: core/cuda/CMakeLists.txt). Everything is float64.
 *
 * The order v is split as v = n + mu with n an integer and |mu| <= 1/2.
 * The functions of orders mu and mu + 1 come from Temme's series (x <= 2)
 * or Steed's continued fractions (x > 2); those of the first kind at order
 * v from their continued fraction for the logarithmic derivative, brought
 * down to mu by the (there stable) backward recurrence and normalised by
 * the Wronskian; those of the second kind at order v by the (there stable)
 * forward recurrence from mu. Far out (x above 25 and v^2), where the
 * continued fraction for J and I needs about x terms, the Hankel
 * asymptotic expansions instead. 1 / Gamma(1 +- mu) come from their Taylor
 * series, so no libm gamma enters. The loops run about |v| + x times: past
 * |v| = 1e5 the functions return NaN (no uniform expansion for huge orders
 * here). */
#ifndef CUNUMPY_SPECIAL_BESSEL_H
#define CUNUMPY_SPECIAL_BESSEL_H

#define CN_SP_PI 3.14159265358979323846
#define CN_SP_BESSEL_EPS 1e-16
#define CN_SP_BESSEL_MAXV 1e5
/* Rescaling step of the recurrences, whose values run over many decades. */
#define CN_SP_BESSEL_BIG 6.668014432879854e+240   /* 2^800 */
#define CN_SP_BESSEL_SMALL 1.499696813895631e-241 /* 2^-800 */

/* sin(pi v) and cos(pi v), exact at the integers and half-integers (the
 * reflection formulas for negative orders rely on those zeros). */
CN_SP_FN double cn_sp_sinpi_(double v) {
  double r = v - 2.0 * rint(0.5 * v); /* [-1, 1], exact */
  if (r == 0.0 || fabs(r) == 1.0)
    return 0.0;
  if (r > 0.5)
    r = 1.0 - r;
  else if (r < -0.5)
    r = -1.0 - r;
  return sin(CN_SP_PI * r);
}
CN_SP_FN double cn_sp_cospi_(double v) {
  double r = fabs(v - 2.0 * rint(0.5 * v)); /* [0, 1], exact */
  if (r == 0.5)
    return 0.0;
  if (r > 0.5)
    return -sin(CN_SP_PI * (r - 0.5));
  return sin(CN_SP_PI * (0.5 - r));
}

/* Temme's gamma terms for |mu| <= 1/2: gp = 1 / Gamma(1 + mu), gm = 1 /
 * Gamma(1 - mu), g1 = (gm - gp) / (2 mu) and g2 = (gm + gp) / 2 (both
 * finite at mu = 0), from the Taylor series of 1 / Gamma(1 + z) (its
 * coefficients computed with mpmath at 40 digits; 22 terms leave below
 * 1e-18 at |z| = 1/2). */
CN_SP_FN void cn_sp_temme_gamma_(double mu, double *gp, double *gm, double *g1,
                                 double *g2) {
  const double c[22] = {1.0,
                        0.57721566490153286061,
                        -0.65587807152025388108,
                        -0.042002635034095235529,
                        0.1665386113822914895,
                        -0.042197734555544336748,
                        -0.0096219715278769735621,
                        0.0072189432466630995424,
                        -0.0011651675918590651121,
                        -0.00021524167411495097282,
                        0.00012805028238811618615,
                        -0.000020134854780788238656,
                        -1.2504934821426706573e-6,
                        1.1330272319816958824e-6,
                        -2.0563384169776071035e-7,
                        6.1160951044814158179e-9,
                        5.0020076444692229301e-9,
                        -1.1812745704870201446e-9,
                        1.0434267116911005105e-10,
                        7.782263439905071254e-12,
                        -3.6968056186422057082e-12,
                        5.100370287454475979e-13};
  double m2 = mu * mu, even = c[20], odd = c[21];
  for (int k = 18; k >= 0; k -= 2) {
    even = even * m2 + c[k];
    odd = odd * m2 + c[k + 1];
  }
  *g1 = -odd;
  *g2 = even;
  *gp = even + mu * odd;
  *gm = even - mu * odd;
}

/* The shared part of Temme's series: with d = log(2/x) and sigma = mu d,
 * f0 = mu pi / sin(mu pi) (g1 cosh(sigma) + g2 d sinh(sigma) / sigma),
 * p0 = (x/2)^-mu / gp and q0 = (x/2)^mu / gm (the 1/pi and 1/2 factors
 * are the callers'). */
CN_SP_FN void cn_sp_temme_start_(double mu, double x, double *f0, double *p0,
                                 double *q0) {
  double gp, gm, g1, g2;
  cn_sp_temme_gamma_(mu, &gp, &gm, &g1, &g2);
  double d = -log(0.5 * x), sigma = mu * d;
  double pm = CN_SP_PI * mu;
  double fact = fabs(pm) < 1e-10 ? 1.0 + pm * pm / 6.0 : pm / sin(pm);
  double sh = fabs(sigma) < 1e-5
                  ? 1.0 + sigma * sigma / 6.0 * (1.0 + sigma * sigma / 20.0)
                  : sinh(sigma) / sigma;
  *f0 = fact * (g1 * cosh(sigma) + g2 * d * sh);
  double e = exp(sigma); /* (x/2)^-mu */
  *p0 = e / gp;
  *q0 = 1.0 / (e * gm);
}

/* K_mu(x) and K_mu+1(x) for 0 < x <= 2 by Temme's series. */
CN_SP_FN void cn_sp_k_temme_(double mu, double x, double *k0, double *k1) {
  double f, p, q;
  cn_sp_temme_start_(mu, x, &f, &p, &q);
  p *= 0.5;
  q *= 0.5;
  double c = 1.0, q4 = 0.25 * x * x, s = f, s1 = p;
  for (int k = 1; k < 500; k++) {
    f = (k * f + p + q) / (k * (double)k - mu * mu);
    c *= q4 / k;
    p /= k - mu;
    q /= k + mu;
    double t = c * f;
    s += t;
    s1 += c * (p - k * f);
    if (fabs(t) < CN_SP_BESSEL_EPS * fabs(s))
      break;
  }
  *k0 = s;
  *k1 = s1 * (2.0 / x);
}

/* exp(x) K_mu(x) and exp(x) K_mu+1(x) for x > 2 by Steed's method on the
 * continued fraction of Temme (the confluent hypergeometric form of K,
 * summed with the series for the normalisation). */
CN_SP_FN void cn_sp_k_steed_(double mu, double x, double *k0, double *k1) {
  double a1 = 0.25 - mu * mu;
  double b = 2.0 * (1.0 + x), d = 1.0 / b, h = d, dh = d;
  double q1 = 0.0, q2 = 1.0, q = a1, c = a1, a = -a1;
  double s = 1.0 + q * dh;
  for (int i = 2; i < 100000; i++) {
    a -= 2.0 * (i - 1);
    c = -a * c / i;
    double qn = (q1 - b * q2) / a;
    q1 = q2;
    q2 = qn;
    q += c * qn;
    b += 2.0;
    d = 1.0 / (b + a * d);
    dh = (b * d - 1.0) * dh;
    h += dh;
    double ds = q * dh;
    s += ds;
    if (fabs(ds) < CN_SP_BESSEL_EPS * fabs(s))
      break;
  }
  *k0 = sqrt(CN_SP_PI / (2.0 * x)) / s;
  *k1 = *k0 * (mu + x + 0.5 - a1 * h) / x;
}

/* The Hankel expansion's terms a_k(v) / x^k = prod_j=1..k (4v^2 - (2j -
 * 1)^2) / (8 j x), summed with signs sign^k (I: -1, K: +1) while they
 * fall; for J and Y split in P (even k, alternating) and Q (odd k). */
CN_SP_FN double cn_sp_hankel_ik_(double v, double x, double sign) {
  double m = 4.0 * v * v, t = 1.0, s = 1.0, prev = CN_SP_INF;
  for (int j = 1; j < 200; j++) {
    double o = 2.0 * j - 1.0;
    t *= sign * (m - o * o) / (8.0 * j * x);
    if (fabs(t) > prev)
      break;
    s += t;
    prev = fabs(t);
    if (prev < CN_SP_BESSEL_EPS * fabs(s))
      break;
  }
  return s;
}
CN_SP_FN void cn_sp_hankel_pq_(double v, double x, double *P, double *Q) {
  double m = 4.0 * v * v, t = 1.0, p = 1.0, q = 0.0, prev = CN_SP_INF;
  for (int j = 1; j < 400; j++) {
    double o = 2.0 * j - 1.0;
    t *= (m - o * o) / (8.0 * j * x);
    if (fabs(t) > prev)
      break;
    prev = fabs(t);
    /* term j carries i^j: P takes the real, Q the imaginary parts */
    switch (j & 3) {
    case 0: p += t; break;
    case 1: q += t; break;
    case 2: p -= t; break;
    default: q -= t; break;
    }
    if (prev < CN_SP_BESSEL_EPS * (fabs(p) + fabs(q)))
      break;
  }
  *P = p;
  *Q = q;
}
/* The Hankel expansion applies where its terms fall to 1e-17 before they
 * grow again. */
CN_SP_FN int cn_sp_hankel_ok_(double v, double x) {
  return x >= 25.0 && x >= v * v;
}

/* I_v(x) and K_v(x) for v >= 0 and x > 0 (finite), each times exp(-x) and
 * exp(x) when scaled is set. Either output may be NULL. */
CN_SP_FN void cn_sp_bessel_ik_(double v, double x, int scaled, double *ri,
                               double *rk) {
  int n = (int)floor(v + 0.5);
  double mu = v - n;
  double kmu, kmu1; /* scaled by exp(x) when x > 2 */
  if (x <= 2.0)
    cn_sp_k_temme_(mu, x, &kmu, &kmu1);
  else
    cn_sp_k_steed_(mu, x, &kmu, &kmu1);
  if (rk) {
    double a = kmu, b = kmu1;
    if (n == 0)
      b = a;
    for (int i = 1; i < n && b != CN_SP_INF; i++) {
      double t = a + 2.0 * (mu + i) / x * b;
      a = b;
      b = t;
    }
    if (x <= 2.0)
      *rk = scaled ? b * exp(x) : b;
    else if (scaled)
      *rk = b;
    else if (x > 700.0) { /* exp(-x) underflows before the product */
      double h = exp(-0.5 * x);
      *rk = h * b * h;
    } else
      *rk = b * exp(-x);
  }
  if (!ri)
    return;
  if (x > 2.0 && cn_sp_hankel_ok_(v, x)) {
    double s = cn_sp_hankel_ik_(v, x, -1.0) / sqrt(2.0 * CN_SP_PI * x);
    if (scaled)
      *ri = s;
    else {
      double h = exp(0.5 * x);
      *ri = h * s * h;
    }
    return;
  }
  /* r = I_v+1 / I_v by its continued fraction 1 / (b1 + 1 / (b2 + ...)),
   * b_k = 2 (v + k) / x (modified Lentz; positive terms, nothing cancels) */
  double xi = 1.0 / x, f = 1e-300, c = f, d = 0.0;
  for (int k = 1; k < 1000000; k++) {
    double bk = 2.0 * (v + k) * xi;
    d = 1.0 / (bk + d);
    c = bk + 1.0 / c;
    double del = c * d;
    f *= del;
    if (fabs(del - 1.0) < CN_SP_BESSEL_EPS)
      break;
  }
  /* down from i_v = 1, i_v+1 = r to mu by i_l-1 = 2l/x i_l + i_l+1,
   * rescaled as it grows; the Wronskian I_mu+1 K_mu + I_mu K_mu+1 = 1/x
   * (positive terms; K scaled by exp(x) gives I scaled by exp(-x))
   * normalises */
  double i0 = 1.0, i1 = f;
  int down = 0;
  for (int l = n; l >= 1; l--) {
    double t = 2.0 * (mu + l) * xi * i0 + i1;
    i1 = i0;
    i0 = t;
    if (i0 > CN_SP_BESSEL_BIG) {
      i0 *= CN_SP_BESSEL_SMALL;
      i1 *= CN_SP_BESSEL_SMALL;
      down++;
    }
  }
  double r = xi / (i1 * kmu + i0 * kmu1);
  for (int i = 0; i < down && r != 0.0; i++)
    r *= CN_SP_BESSEL_SMALL;
  if (x <= 2.0)
    *ri = scaled ? r * exp(-x) : r;
  else if (scaled)
    *ri = r;
  else {
    double e = exp(0.5 * x);
    *ri = e * r * e;
  }
}

/* Y_mu(x), Y_mu+1(x) for 0 < x < 2 by Temme's series. */
CN_SP_FN void cn_sp_y_temme_(double mu, double x, double *y0, double *y1) {
  double f, p, q;
  cn_sp_temme_start_(mu, x, &f, &p, &q);
  f *= 2.0 / CN_SP_PI;
  p /= CN_SP_PI;
  q /= CN_SP_PI;
  /* r = pi mu / 2 * (sin(pi mu / 2) / (pi mu / 2))^2 ... in product form */
  double hm = 0.5 * CN_SP_PI * mu;
  double sc = fabs(hm) < 1e-10 ? 1.0 : sin(hm) / hm;
  double r = CN_SP_PI * hm * sc * sc;
  double c = 1.0, q4 = -0.25 * x * x, s = f + r * q, s1 = p;
  for (int k = 1; k < 500; k++) {
    f = (k * f + p + q) / (k * (double)k - mu * mu);
    c *= q4 / k;
    p /= k - mu;
    q /= k + mu;
    double t = c * (f + r * q);
    s += t;
    s1 += c * p - k * t;
    if (fabs(t) < CN_SP_BESSEL_EPS * (1.0 + fabs(s)))
      break;
  }
  *y0 = -s;
  *y1 = -s1 * (2.0 / x);
}

/* J_v(x) and Y_v(x) by the Hankel expansion, with cx = cos(x) and sx =
 * sin(x): chi = x - (v/2 + 1/4) pi through libm's reduction of x itself. */
CN_SP_FN void cn_sp_hankel_jy_(double v, double x, double cx, double sx,
                               double *J, double *Y) {
  double P, Q;
  cn_sp_hankel_pq_(v, x, &P, &Q);
  double ph = 0.5 * v + 0.25;
  double cp = cn_sp_cospi_(ph), sp = cn_sp_sinpi_(ph);
  double cc = cx * cp + sx * sp, sc = sx * cp - cx * sp;
  double a = sqrt(2.0 / (CN_SP_PI * x));
  *J = a * (P * cc - Q * sc);
  *Y = a * (P * sc + Q * cc);
}

/* J_v(x) and Y_v(x) for v >= 0 and x > 0 (finite). Either output may be
 * NULL. Far out (x >= 25) below v = 0.8 x, where the continued fractions
 * need about x terms and lose digits with them, J and Y at orders mu and
 * mu + 1 come from the Hankel expansion (which converges fast there) and
 * go up to v by the forward recurrence, stable for Y and, short of the
 * turning point v = x, for J. */
CN_SP_FN void cn_sp_bessel_jy_(double v, double x, double *J, double *Y) {
  double jr, yr;
  if (cn_sp_hankel_ok_(v, x)) {
    cn_sp_hankel_jy_(v, x, cos(x), sin(x), &jr, &yr);
    if (J)
      *J = jr;
    if (Y)
      *Y = yr;
    return;
  }
  if (x >= 25.0 && v <= 0.8 * x) {
    int n = (int)floor(v + 0.5);
    double mu = v - n, cx = cos(x), sx = sin(x), ja, ya;
    cn_sp_hankel_jy_(mu, x, cx, sx, &ja, &ya);
    jr = ja;
    yr = ya;
    if (n > 0)
      cn_sp_hankel_jy_(mu + 1.0, x, cx, sx, &jr, &yr);
    for (int i = 1; i < n; i++) {
      double c = 2.0 * (mu + i) / x;
      double jt = c * jr - ja, yt = c * yr - ya;
      ja = jr;
      ya = yr;
      jr = jt;
      yr = yt;
    }
    if (J)
      *J = jr;
    if (Y)
      *Y = yr;
    return;
  }
  int n = (int)floor(v + 0.5);
  double mu = v - n, xi = 1.0 / x;
  /* r = J_v+1 / J_v by its continued fraction 1 / (b1 - 1 / (b2 -
   * ...)), b_k = 2 (v + k) / x (modified Lentz); the signs of the
   * denominators' ratios multiply to the sign of J_v (J_v+k > 0 far up) */
  double f = 1e-300, c = f, d = 0.0, sign = 1.0;
  for (int k = 1; k < 1000000; k++) {
    double bk = 2.0 * (v + k) * xi, ak = k == 1 ? 1.0 : -1.0;
    d = bk + ak * d;
    if (fabs(d) < 1e-300)
      d = 1e-300;
    c = bk + ak / c;
    if (fabs(c) < 1e-300)
      c = 1e-300;
    d = 1.0 / d;
    if (d < 0.0)
      sign = -sign;
    double del = c * d;
    f *= del;
    if (fabs(del - 1.0) < CN_SP_BESSEL_EPS)
      break;
  }
  /* down from j_v = sign, j_v+1 = r to mu by j_l-1 = 2l/x j_l - j_l+1,
   * rescaled as it grows */
  double j0 = sign, j1 = sign * f;
  int down = 0;
  for (int l = n; l >= 1; l--) {
    double t = 2.0 * (mu + l) * xi * j0 - j1;
    j1 = j0;
    j0 = t;
    if (fabs(j0) > CN_SP_BESSEL_BIG) {
      j0 *= CN_SP_BESSEL_SMALL;
      j1 *= CN_SP_BESSEL_SMALL;
      down++;
    }
  }
  double w = 2.0 / (CN_SP_PI * x);
  double jmu, ymu, ymu1;
  if (x < 2.0) {
    /* the Wronskian J_mu+1 Y_mu - J_mu Y_mu+1 = 2 / (pi x), whose two
     * terms do not cancel for small x */
    cn_sp_y_temme_(mu, x, &ymu, &ymu1);
    jmu = w / (j1 * ymu - j0 * ymu1) * j0;
  } else {
    if (j0 == 0.0)
      j0 = 1e-300;
    f = mu * xi - j1 / j0; /* J_mu' / J_mu */
    /* p + iq = (J_mu' + i Y_mu') / (J_mu + i Y_mu) by Steed's complex
     * continued fraction (modified Lentz) */
    double a = 0.25 - mu * mu, p = -0.5 * xi, q = 1.0;
    double br = 2.0 * x, bi = 2.0;
    double fct = a * xi / (p * p + q * q);
    double cr = br + q * fct, ci = bi + p * fct;
    double den = br * br + bi * bi;
    double dr = br / den, di = -bi / den;
    double dlr = cr * dr - ci * di, dli = cr * di + ci * dr;
    double t = p * dlr - q * dli;
    q = p * dli + q * dlr;
    p = t;
    for (int i = 2; i < 100000; i++) {
      a += 2.0 * (i - 1);
      bi += 2.0;
      dr = a * dr + br;
      di = a * di + bi;
      if (fabs(dr) + fabs(di) < 1e-300)
        dr = 1e-300;
      fct = a / (cr * cr + ci * ci);
      cr = br + cr * fct;
      ci = bi - ci * fct;
      if (fabs(cr) + fabs(ci) < 1e-300)
        cr = 1e-300;
      den = dr * dr + di * di;
      dr /= den;
      di = -di / den;
      dlr = cr * dr - ci * di;
      dli = cr * di + ci * dr;
      t = p * dlr - q * dli;
      q = p * dli + q * dlr;
      p = t;
      if (fabs(dlr - 1.0) + fabs(dli) < CN_SP_BESSEL_EPS)
        break;
    }
    double g = (p - f) / q;
    jmu = sqrt(w / ((p - f) * g + q));
    if (j0 < 0.0)
      jmu = -jmu;
    ymu = g * jmu;
    double yp = ymu * (p + q / g);
    ymu1 = mu * xi * ymu - yp;
  }
  if (J) {
    double r = sign * jmu / j0;
    for (int i = 0; i < down && r != 0.0; i++)
      r *= CN_SP_BESSEL_SMALL;
    *J = r;
  }
  if (Y) {
    double a = ymu, bb = ymu1;
    if (n == 0)
      bb = a;
    for (int i = 1; i < n && fabs(bb) != CN_SP_INF; i++) {
      double t = 2.0 * (mu + i) * xi * bb - a;
      a = bb;
      bb = t;
    }
    *Y = bb;
  }
}

/* The sign (-1)^v of an integer v, 0 for a non-integer (a negative x then
 * has no real value). */
CN_SP_FN double cn_sp_int_parity_(double v) {
  if (v != floor(v))
    return 0.0;
  return fmod(fabs(v), 2.0) == 1.0 ? -1.0 : 1.0;
}

/* J_v(x) for real v, x: J_-v = cos(pi v) J_v - sin(pi v) Y_v; a negative x
 * only for integer v, as (-1)^v J_v(-x). NaN at +-inf and for NaN, 0 for
 * infinite orders, as SciPy. */
CN_SP_FN double cn_sp_jv(double v, double x) {
  if (v != v || x != x || fabs(x) == CN_SP_INF)
    return CN_SP_NAN;
  if (fabs(v) == CN_SP_INF)
    return 0.0;
  if (fabs(v) > CN_SP_BESSEL_MAXV)
    return CN_SP_NAN;
  double s = 1.0;
  if (x < 0.0) {
    s = cn_sp_int_parity_(v);
    if (s == 0.0)
      return CN_SP_NAN;
    x = -x;
  }
  if (x == 0.0) {
    if (v == 0.0)
      return 1.0;
    if (v > 0.0 || v == floor(v))
      return s * cn_sp_int_parity_(v < 0 ? v : 0.0) * 0.0;
    /* J_-v(x) ~ (x/2)^-v / Gamma(1 - v): the sign of Gamma(1 - v) */
    return fmod(floor(-v), 2.0) == 0.0 ? CN_SP_INF : -CN_SP_INF;
  }
  if (v >= 0.0) {
    double j;
    cn_sp_bessel_jy_(v, x, &j, 0);
    return s * j;
  }
  double a = -v, j, y;
  double sn = cn_sp_sinpi_(a), cs = cn_sp_cospi_(a);
  cn_sp_bessel_jy_(a, x, &j, sn != 0.0 ? &y : 0);
  return s * (sn != 0.0 ? cs * j - sn * y : cs * j);
}

/* Y_v(x) for real v and x >= 0: Y_-v = sin(pi v) J_v + cos(pi v) Y_v. NaN
 * below 0, at inf and for infinite orders, -inf at 0 (+inf for negative
 * orders whose cos(pi v) is negative), as SciPy. */
CN_SP_FN double cn_sp_yv(double v, double x) {
  if (v != v || x != x || x < 0.0 || x == CN_SP_INF || fabs(v) == CN_SP_INF)
    return CN_SP_NAN;
  if (fabs(v) > CN_SP_BESSEL_MAXV)
    return CN_SP_NAN;
  if (x == 0.0) {
    if (v >= 0.0)
      return -CN_SP_INF;
    double cs = cn_sp_cospi_(-v);
    if (cs == 0.0) /* half-integers: SciPy's sign, -sin(pi |v|) */
      return cn_sp_sinpi_(-v) > 0.0 ? -CN_SP_INF : CN_SP_INF;
    return cs > 0.0 ? -CN_SP_INF : CN_SP_INF;
  }
  if (v >= 0.0) {
    double y;
    cn_sp_bessel_jy_(v, x, 0, &y);
    return y;
  }
  double a = -v, j, y;
  double sn = cn_sp_sinpi_(a), cs = cn_sp_cospi_(a);
  cn_sp_bessel_jy_(a, x, sn != 0.0 ? &j : 0, &y);
  return sn != 0.0 ? sn * j + cs * y : cs * y;
}

/* I_v(x) (scaled: exp(-|x|) I_v(x)) for real v, x: I_-v = I_v + (2/pi)
 * sin(pi v) K_v; a negative x only for integer v. */
CN_SP_FN double cn_sp_iv_(double v, double x, int scaled) {
  if (v != v || x != x)
    return CN_SP_NAN;
  if (fabs(v) == CN_SP_INF)
    return scaled ? CN_SP_NAN : 0.0;
  if (fabs(x) == CN_SP_INF || fabs(v) > CN_SP_BESSEL_MAXV)
    return CN_SP_NAN;
  double s = 1.0;
  if (x < 0.0) {
    s = cn_sp_int_parity_(v);
    if (s == 0.0)
      return CN_SP_NAN;
    x = -x;
  }
  if (x == 0.0) {
    if (v == 0.0)
      return 1.0;
    if (v > 0.0 || v == floor(v))
      return 0.0;
    if (scaled)
      return CN_SP_NAN;
    return fmod(floor(-v), 2.0) == 0.0 ? CN_SP_INF : -CN_SP_INF;
  }
  if (v >= 0.0) {
    double i;
    cn_sp_bessel_ik_(v, x, scaled, &i, 0);
    return s * i;
  }
  double a = -v, i, k;
  double sn = cn_sp_sinpi_(a);
  if (sn == 0.0) {
    cn_sp_bessel_ik_(a, x, scaled, &i, 0);
    return s * i;
  }
  cn_sp_bessel_ik_(a, x, scaled, &i, &k);
  /* scaled: exp(-x) K = exp(-2x) (exp(x) K) */
  double kt = scaled ? k * exp(-2.0 * x) : k;
  return s * (i + 2.0 / CN_SP_PI * sn * kt);
}
CN_SP_FN double cn_sp_iv(double v, double x) { return cn_sp_iv_(v, x, 0); }
CN_SP_FN double cn_sp_ive(double v, double x) { return cn_sp_iv_(v, x, 1); }

/* K_v(x) (scaled: exp(x) K_v(x)) for real v and x >= 0; K_-v = K_v. NaN
 * below 0 and for infinite orders, inf at 0; at inf 0 (scaled: NaN), as
 * SciPy. */
CN_SP_FN double cn_sp_kv_(double v, double x, int scaled) {
  if (v != v || x != x || x < 0.0 || fabs(v) == CN_SP_INF)
    return CN_SP_NAN;
  if (x == 0.0)
    return CN_SP_INF;
  if (x == CN_SP_INF)
    return scaled ? CN_SP_NAN : 0.0;
  v = fabs(v);
  if (v > CN_SP_BESSEL_MAXV)
    return CN_SP_NAN;
  double k;
  cn_sp_bessel_ik_(v, x, scaled, 0, &k);
  return k;
}
CN_SP_FN double cn_sp_kv(double v, double x) { return cn_sp_kv_(v, x, 0); }
CN_SP_FN double cn_sp_kve(double v, double x) { return cn_sp_kv_(v, x, 1); }

/* K_0, K_1 and their scaled forms (inf at +-0, NaN below 0, 0 at inf also
 * scaled, as SciPy's k0e): up to 1 K0 = k0_near(x^2) - log(x) I0(x) and
 * K1 = k1_near(x^2) / x + log(x) I1(x) (below 1 both terms of K0 are
 * positive, and the log term of K1 is a tenth of the other at most),
 * beyond sqrt(x) exp(x) K(x) from its polynomials in 1/x (the fitted block
 * of core/special_scalar.h). */
CN_SP_FN double cn_sp_k01_(int nu, double x, int scaled) {
  if (x != x || x < 0.0)
    return CN_SP_NAN;
  if (x == 0.0)
    return CN_SP_INF;
  if (x == CN_SP_INF)
    return 0.0;
  if (x <= 1.0) {
    double t = x * x, l = log(x);
    double r = nu ? cn_sp_k1_near_(t) / x + l * (x * cn_sp_i1_near_(t))
                  : cn_sp_k0_near_(t) - l * cn_sp_i0_near_(t);
    return scaled ? r * exp(x) : r;
  }
  double s = (nu ? cn_sp_k1_far_(x) : cn_sp_k0_far_(x)) / sqrt(x);
  return scaled ? s : cn_sp_unscale_(s, -x);
}
CN_SP_FN double cn_sp_k0(double x) { return cn_sp_k01_(0, x, 0); }
CN_SP_FN double cn_sp_k0e(double x) { return cn_sp_k01_(0, x, 1); }
CN_SP_FN double cn_sp_k1(double x) { return cn_sp_k01_(1, x, 0); }
CN_SP_FN double cn_sp_k1e(double x) { return cn_sp_k01_(1, x, 1); }

/* Spherical Bessel functions j_n(x) = sqrt(pi / (2x)) J_n+1/2(x) and y_n
 * likewise from Y_n+1/2, for integer n >= 0 (NaN otherwise); j_n(-x) =
 * (-1)^n j_n(x), y_n(-x) = (-1)^(n+1) y_n(x). j_n(0) is 1 for n = 0 and 0
 * beyond, y_n(+-0) is -inf, both are 0 at +-inf, as SciPy. */
CN_SP_FN double cn_sp_spherical_(double n, double x, int second) {
  if (n != n || x != x || n < 0.0 || n != floor(n) || n > CN_SP_BESSEL_MAXV)
    return CN_SP_NAN;
  double par = cn_sp_int_parity_(n), s = 1.0;
  if (x < 0.0) {
    s = second ? -par : par;
    x = -x;
  }
  if (x == CN_SP_INF)
    return s * 0.0;
  if (x == 0.0)
    return second ? -CN_SP_INF : (n == 0.0 ? 1.0 : 0.0);
  double j, y, a = sqrt(CN_SP_PI / (2.0 * x));
  if (second) {
    cn_sp_bessel_jy_(n + 0.5, x, 0, &y);
    return s * a * y;
  }
  cn_sp_bessel_jy_(n + 0.5, x, &j, 0);
  return s * a * j;
}
CN_SP_FN double cn_sp_spherical_jn(double n, double x) {
  return cn_sp_spherical_(n, x, 0);
}
CN_SP_FN double cn_sp_spherical_yn(double n, double x) {
  return cn_sp_spherical_(n, x, 1);
}

#define CN_SP_BESSEL_UNARY(X) X(k0) X(k0e) X(k1) X(k1e)
#define CN_SP_BESSEL_BINARY(X)                                                 \
  X(jv) X(yv) X(iv) X(ive) X(kv) X(kve) X(spherical_jn) X(spherical_yn)

#endif
