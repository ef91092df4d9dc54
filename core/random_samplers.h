/* The scalar samplers of the counter-based generator (the mapping of
 * core/philox.h): element streams, bounded integers, normal, gamma,
 * binomial and Poisson variates, and one work item of a fill. Written in
 * the common subset of C11 and CUDA C++ (see core/philox.h for CN_HD):
 * core/cpu/random.c runs these functions on its threads and the CUDA
 * plugin embeds this text in its device prelude and runs the same
 * functions in its kernels, so both backends compute every variate with
 * one definition (only libm and CUDA's math library differ). */
#ifndef CUNUMPY_RANDOM_SAMPLERS_H
#define CUNUMPY_RANDOM_SAMPLERS_H

#ifndef CN_DEV
#include <stdbool.h>
#include <string.h>

#include "philox.h"
#endif

#define CN_RNG_TWO_M24 (1.0f / 16777216.0f)

/* Counter blocks a fill of n values of dist uses (and the number of work
 * items of cn_rng_work): the amount the state's counter advances. */
CN_HD uint64_t cn_rng_blocks_used(int32_t dist, int f32, int64_t n) {
  int64_t per = cn_rng_per_block(dist, f32);
  return (uint64_t)((n + per - 1) / per);
}

/* Words of counter block base + blk (counter word 3 zero). */
CN_HD void cn_rng_block(uint32_t w[4], const uint32_t key[2],
                        const uint32_t base[4], uint64_t blk) {
  uint32_t c[4] = {base[0], base[1], base[2], 0};
  cn_philox_add(c, blk);
  cn_philox4x32_10(w, c, key);
}

/* Per-element stream of the rejection samplers: the words of block
 * base + i, then of its retry rounds (counter word 3 = 1, 2, ...). A
 * caller that computed round 1's words ahead (in vector lanes) points
 * next at them. */
typedef struct cn_rng_stream {
  uint32_t key[2];
  uint32_t ctr[4];
  uint32_t w[4];
  int pos;
  const uint32_t *next;
} cn_rng_stream;

CN_HD void cn_rng_stream_init(cn_rng_stream *s, const uint32_t key[2],
                              const uint32_t base[4], uint64_t i) {
  s->key[0] = key[0];
  s->key[1] = key[1];
  for (int k = 0; k < 3; k++)
    s->ctr[k] = base[k];
  s->ctr[3] = 0;
  cn_philox_add(s->ctr, i);
  cn_philox4x32_10(s->w, s->ctr, s->key);
  s->pos = 0;
  s->next = 0;
}
CN_HD uint32_t cn_rng_u32(cn_rng_stream *s) {
  if (s->pos == 4) {
    s->ctr[3]++;
    if (s->next && s->ctr[3] == 1)
      for (int k = 0; k < 4; k++)
        s->w[k] = s->next[k];
    else
      cn_philox4x32_10(s->w, s->ctr, s->key);
    s->pos = 0;
  }
  return s->w[s->pos++];
}
CN_HD uint64_t cn_rng_u64(cn_rng_stream *s) {
  uint64_t lo = cn_rng_u32(s);
  return lo | ((uint64_t)cn_rng_u32(s) << 32);
}
CN_HD double cn_rng_double(cn_rng_stream *s) {
  return (double)(cn_rng_u64(s) >> 11) * CN_PHILOX_TWO_M53;
}
CN_HD double cn_rng_normal(cn_rng_stream *s) {
  double u1 = (double)(cn_rng_u64(s) >> 11) * CN_PHILOX_TWO_M53 + CN_PHILOX_TWO_M53;
  double u2 = (double)(cn_rng_u64(s) >> 11) * CN_PHILOX_TWO_M53;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * CN_PHILOX_PI * u2);
}

/* The two standard normals of a NORMAL block's words (Box-Muller). */
CN_HD void cn_rng_box_muller(const uint32_t w[4], double z[2]) {
  uint64_t ua = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
  uint64_t ub = (uint64_t)w[2] | ((uint64_t)w[3] << 32);
  double r = sqrt(-2.0 * log((double)(ua >> 11) * CN_PHILOX_TWO_M53 +
                             CN_PHILOX_TWO_M53));
  double t = 2.0 * CN_PHILOX_PI * ((double)(ub >> 11) * CN_PHILOX_TWO_M53);
  z[0] = r * cos(t);
  z[1] = r * sin(t);
}

/* Marsaglia and Tsang's squeeze for shape k >= 1. */
CN_HD double cn_rng_gamma_ge1(cn_rng_stream *s, double k) {
  double d = k - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = cn_rng_normal(s);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = cn_rng_double(s);
    if (u < 1.0 - 0.0331 * (x * x) * (x * x))
      return d * v;
    if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
      return d * v;
  }
}

/* Standard gamma(k); k < 1 by Stuart's boost from gamma(k + 1). */
CN_HD double cn_rng_gamma(cn_rng_stream *s, double k) {
  if (k <= 0.0)
    return 0.0;
  if (k < 1.0) {
    double g = cn_rng_gamma_ge1(s, k + 1.0);
    double u = cn_rng_double(s);
    return g * pow(u, 1.0 / k);
  }
  return cn_rng_gamma_ge1(s, k);
}

/* The parts of a BINOMIAL(n, p) or POISSON(lam) variate that depend only
 * on the parameters, so that a fill with scalar parameters computes them
 * once (the values are the same as computed per element). */
typedef struct cn_rng_binomial_prep {
  int64_t n;
  double p0, p, qn, r, g;
  double a, b, c, vr, alpha, lpq, m, h;
  bool flip, small;
} cn_rng_binomial_prep;

CN_HD void cn_rng_binomial_prepare(cn_rng_binomial_prep *c, int64_t n,
                                   double p) {
  c->qn = c->r = c->g = 0.0;
  c->a = c->b = c->c = c->vr = c->alpha = c->lpq = c->m = c->h = 0.0;
  c->n = n;
  c->p0 = p;
  c->flip = p > 0.5;
  if (c->flip)
    p = 1.0 - p;
  c->p = p;
  double q = 1.0 - p;
  c->small = (double)n * p < 10.0;
  if (n == 0 || p == 0.0 || c->p0 == 1.0)
    return;
  if (c->small) {
    c->qn = pow(q, (double)n);
    c->r = p / q;
    c->g = c->r * (double)(n + 1);
    return;
  }
  double spq = sqrt((double)n * p * q);
  c->b = 1.15 + 2.53 * spq;
  c->a = -0.0873 + 0.0248 * c->b + 0.01 * p;
  c->c = (double)n * p + 0.5;
  c->vr = 0.92 - 4.2 / c->b;
  c->alpha = (2.83 + 5.1 / c->b) * spq;
  c->lpq = log(p / q);
  c->m = floor((double)(n + 1) * p);
  c->h = lgamma(c->m + 1.0) + lgamma((double)n - c->m + 1.0);
}

/* Hormann's BTRS (transformed rejection with squeeze), p <= 0.5; inversion
 * for small n p. */
CN_HD int64_t cn_rng_binomial_prepared(cn_rng_stream *s,
                                       const cn_rng_binomial_prep *c) {
  int64_t n = c->n;
  if (n == 0 || c->p0 == 0.0)
    return 0;
  if (c->p0 == 1.0)
    return n;
  int64_t k;
  if (c->small) {
    /* Inversion by sequential search. */
    for (;;) {
      double u = cn_rng_double(s), px = c->qn;
      k = 0;
      while (u > px) {
        u -= px;
        k++;
        if (k > n)
          break;
        px *= c->g / (double)k - c->r;
      }
      if (k <= n)
        break;
    }
  } else {
    const double a = c->a, b = c->b;
    for (;;) {
      double u = cn_rng_double(s) - 0.5, v = cn_rng_double(s);
      double us = 0.5 - fabs(u);
      double kk = floor((2.0 * a / us + b) * u + c->c);
      if (kk < 0.0 || kk > (double)n)
        continue;
      if (us >= 0.07 && v <= c->vr) {
        k = (int64_t)kk;
        break;
      }
      v = log(v * c->alpha / (a / (us * us) + b));
      if (v <= c->h - lgamma(kk + 1.0) - lgamma((double)n - kk + 1.0) +
                   (kk - c->m) * c->lpq) {
        k = (int64_t)kk;
        break;
      }
    }
  }
  return c->flip ? n - k : k;
}

CN_HD int64_t cn_rng_binomial(cn_rng_stream *s, int64_t n, double p) {
  cn_rng_binomial_prep c;
  cn_rng_binomial_prepare(&c, n, p);
  return cn_rng_binomial_prepared(s, &c);
}

typedef struct cn_rng_poisson_prep {
  double lam, enlam, loglam, a, b, vr, loginvalpha;
} cn_rng_poisson_prep;

CN_HD void cn_rng_poisson_prepare(cn_rng_poisson_prep *c, double lam) {
  c->lam = lam;
  c->enlam = c->loglam = c->a = c->b = c->vr = c->loginvalpha = 0.0;
  if (lam < 10.0) {
    c->enlam = exp(-lam);
    return;
  }
  double slam = sqrt(lam);
  c->loglam = log(lam);
  c->b = 0.931 + 2.53 * slam;
  c->a = -0.059 + 0.02483 * c->b;
  c->loginvalpha = log(1.1239 + 1.1328 / (c->b - 3.4));
  c->vr = 0.9277 - 3.6224 / (c->b - 2);
}

/* Knuth's product method for small lam, Hormann's PTRS otherwise (as
 * NumPy). */
CN_HD int64_t cn_rng_poisson_prepared(cn_rng_stream *s,
                                      const cn_rng_poisson_prep *c) {
  const double lam = c->lam;
  if (lam == 0.0)
    return 0;
  if (lam < 10.0) {
    double prod = 1.0;
    int64_t k = 0;
    for (;;) {
      prod *= cn_rng_double(s);
      if (prod > c->enlam)
        k++;
      else
        return k;
    }
  }
  const double a = c->a, b = c->b;
  for (;;) {
    double u = cn_rng_double(s) - 0.5, v = cn_rng_double(s);
    double us = 0.5 - fabs(u);
    double k = floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= c->vr)
      return (int64_t)k;
    if (k < 0 || (us < 0.013 && v > us))
      continue;
    if (log(v) + c->loginvalpha - log(a / (us * us) + b) <=
        -lam + k * c->loglam - lgamma(k + 1))
      return (int64_t)k;
  }
}

CN_HD int64_t cn_rng_poisson(cn_rng_stream *s, double lam) {
  cn_rng_poisson_prep c;
  cn_rng_poisson_prepare(&c, lam);
  return cn_rng_poisson_prepared(s, &c);
}

/* High 64 bits of a * b (the low ones in *lo). */
CN_HD uint64_t cn_rng_mulhi64(uint64_t a, uint64_t b, uint64_t *lo) {
#ifdef __CUDA_ARCH__
  *lo = a * b;
  return __umul64hi(a, b);
#else
  unsigned __int128 p = (unsigned __int128)a * b;
  *lo = (uint64_t)p;
  return (uint64_t)(p >> 64);
#endif
}

/* Lemire's unbiased bounded integer in [0, m1] (m1 = m - 1). */
CN_HD uint64_t cn_rng_bounded(cn_rng_stream *s, uint64_t m1) {
  if (m1 == UINT64_MAX)
    return cn_rng_u64(s);
  uint64_t m = m1 + 1;
  if (m <= ((uint64_t)1 << 32)) {
    uint64_t x = cn_rng_u32(s);
    uint64_t prod = x * m;
    uint32_t low = (uint32_t)prod;
    if (low < m) {
      uint32_t t = (uint32_t)((((uint64_t)1 << 32) - m) % m);
      while (low < t) {
        x = cn_rng_u32(s);
        prod = x * m;
        low = (uint32_t)prod;
      }
    }
    return prod >> 32;
  }
  uint64_t low, high = cn_rng_mulhi64(cn_rng_u64(s), m, &low);
  if (low < m) {
    uint64_t t = (0 - m) % m;
    while (low < t)
      high = cn_rng_mulhi64(cn_rng_u64(s), m, &low);
  }
  return high;
}

/* Value of a 1-per-block integer distribution (INTEGERS in
 * [ilow, ilow + m1], BINOMIAL, POISSON, GEOMETRIC; parameters q). */
CN_HD int64_t cn_rng_int_value(int32_t dist, cn_rng_stream *s, const double *q,
                               int64_t ilow, uint64_t m1) {
  switch (dist) {
  case CN_RNG_INTEGERS:
    return (int64_t)((uint64_t)ilow + cn_rng_bounded(s, m1));
  case CN_RNG_BINOMIAL:
    return cn_rng_binomial(s, (int64_t)q[0], q[1]);
  case CN_RNG_POISSON:
    return cn_rng_poisson(s, q[0]);
  case CN_RNG_GEOMETRIC:
    return cn_rng_geometric(cn_rng_u64(s), q[0]);
  default:
    return 0;
  }
}

/* Value of a 1-per-block floating distribution (GAMMA, CHISQUARE, BETA). */
CN_HD double cn_rng_real_value(int32_t dist, cn_rng_stream *s,
                               const double *q) {
  switch (dist) {
  case CN_RNG_GAMMA:
    return q[1] * cn_rng_gamma(s, q[0]);
  case CN_RNG_CHISQUARE:
    return 2.0 * cn_rng_gamma(s, 0.5 * q[0]);
  case CN_RNG_BETA: {
    double x = cn_rng_gamma(s, q[0]), y = cn_rng_gamma(s, q[1]);
    return x + y > 0 ? x / (x + y)
                     : (double)(cn_rng_double(s) < q[0] / (q[0] + q[1]));
  }
  default:
    return 0.0;
  }
}

/* Output dtypes of a fill: float64, float32 (floating distributions) or
 * int64 (INTEGERS, BINOMIAL, POISSON, GEOMETRIC). */
enum { CN_RNG_OUT_F64 = 0, CN_RNG_OUT_F32 = 1, CN_RNG_OUT_I64 = 2 };

/* True for the distributions whose values are int64. */
CN_HD bool cn_rng_is_int(int32_t dist) {
  return dist == CN_RNG_INTEGERS || dist == CN_RNG_BINOMIAL ||
         dist == CN_RNG_POISSON || dist == CN_RNG_GEOMETRIC;
}

/* What a fill reads besides its index: key and base counter, scalar
 * parameters, per-element float64 parameters pa[k] (NULL: params[k]) and
 * INTEGERS' bounds, scalar (ilow, m1 = high - 1 - low) or per-element
 * int64 low and high - 1 (lo and hi both set). Laid out identically by C
 * and CUDA C++ (the kernels take it by value). */
typedef struct cn_rng_src {
  uint32_t key[2];
  uint32_t base[4];
  double params[3];
  const double *pa[3];
  int64_t ilow;
  uint64_t m1;
  const int64_t *lo, *hi;
} cn_rng_src;

#ifndef __CUDACC_RTC__
/* The cn_rng_src of an rng_fill call (core/backend_iface.h): params may be
 * NULL (zeros); pd[k] is the data of the slot's pa[k] (pd or pd[k] NULL
 * where there is none). */
static inline void cn_rng_src_init(cn_rng_src *a, int32_t dist,
                                   const uint32_t key[2],
                                   const uint32_t counter[4],
                                   const double *params,
                                   const void *const *pd) {
  memset(a, 0, sizeof *a);
  memcpy(a->key, key, sizeof a->key);
  memcpy(a->base, counter, sizeof a->base);
  if (params)
    memcpy(a->params, params, sizeof a->params);
  if (dist == CN_RNG_INTEGERS) { /* bounds as bits of params[0..1] */
    memcpy(&a->ilow, &a->params[0], 8);
    memcpy(&a->m1, &a->params[1], 8);
    if (pd && pd[0]) {
      a->lo = (const int64_t *)pd[0];
      a->hi = (const int64_t *)pd[1];
    }
  } else if (pd) {
    for (int k = 0; k < 3; k++)
      a->pa[k] = (const double *)pd[k];
  }
}
#endif

/* Parameters of element i. */
CN_HD void cn_rng_params_at(double q[3], const cn_rng_src *a, int64_t i) {
  for (int k = 0; k < 3; k++)
    q[k] = a->pa[k] ? a->pa[k][i] : a->params[k];
}

CN_HD void cn_rng_store(void *out, int out_kind, int64_t i, double v) {
  if (out_kind == CN_RNG_OUT_F32)
    ((float *)out)[i] = (float)v;
  else
    ((double *)out)[i] = v;
}

/* Work item t (0 <= t < cn_rng_blocks_used) of a fill of n values of dist
 * into out (C order, out_kind): counter block t's values for the 2- and
 * 4-per-block distributions, element t from its own stream otherwise.
 * Items are independent, so any thread may run any of them. */
CN_HD void cn_rng_work(int32_t dist, int out_kind, int64_t t, int64_t n,
                       void *out, const cn_rng_src *a) {
  int per = cn_rng_per_block(dist, out_kind == CN_RNG_OUT_F32);
  if (per == 1) {
    cn_rng_stream s;
    cn_rng_stream_init(&s, a->key, a->base, (uint64_t)t);
    if (out_kind == CN_RNG_OUT_I64) {
      int64_t ilow = a->ilow;
      uint64_t m1 = a->m1;
      if (a->lo) {
        ilow = a->lo[t];
        m1 = (uint64_t)a->hi[t] - (uint64_t)ilow;
      }
      double q[3];
      cn_rng_params_at(q, a, t);
      ((int64_t *)out)[t] = cn_rng_int_value(dist, &s, q, ilow, m1);
      return;
    }
    double q[3];
    cn_rng_params_at(q, a, t);
    cn_rng_store(out, out_kind, t, cn_rng_real_value(dist, &s, q));
    return;
  }
  uint32_t w[4];
  cn_rng_block(w, a->key, a->base, (uint64_t)t);
  if (per == 4) {
    for (int j = 0; j < 4; j++)
      if (t * 4 + j < n)
        ((float *)out)[t * 4 + j] = (float)(w[j] >> 8) * CN_RNG_TWO_M24;
    return;
  }
  bool by_z = dist == CN_RNG_NORMAL || dist == CN_RNG_LOGNORMAL;
  double z[2] = {0.0, 0.0};
  if (by_z)
    cn_rng_box_muller(w, z);
  for (int j = 0; j < 2 && t * 2 + j < n; j++) {
    int64_t i = t * 2 + j;
    double q[3];
    cn_rng_params_at(q, a, i);
    uint64_t x = (uint64_t)w[2 * j] | ((uint64_t)w[2 * j + 1] << 32);
    cn_rng_store(out, out_kind, i,
                 by_z ? cn_rng_from_z(dist, z[j], q)
                      : cn_rng_from_u(dist, x, q));
  }
}

#endif
