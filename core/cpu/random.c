/* CPU fill kernel of the counter-based generator: the mapping from counters
 * to variates is specified in core/philox.h. Threads split the counter
 * space, so results do not depend on the thread count. */
#include <math.h>
#include <string.h>

#include "../philox.h"
#include "cpu.h"

#define TWO_M24 (1.0f / 16777216.0f)

/* Per-element stream for rejection samplers: block C+i, then retry rounds
 * in counter word 3. */
typedef struct elem_stream {
  uint32_t key[2];
  uint32_t ctr[4];
  uint32_t w[4];
  int pos;
} elem_stream;

static inline void es_init(elem_stream *s, const uint32_t key[2],
                           const uint32_t base[4], uint64_t i) {
  s->key[0] = key[0];
  s->key[1] = key[1];
  memcpy(s->ctr, base, sizeof s->ctr);
  s->ctr[3] = 0;
  cn_philox_add(s->ctr, i);
  cn_philox4x32_10(s->w, s->ctr, s->key);
  s->pos = 0;
}
static inline uint32_t es_u32(elem_stream *s) {
  if (s->pos == 4) {
    s->ctr[3]++;
    cn_philox4x32_10(s->w, s->ctr, s->key);
    s->pos = 0;
  }
  return s->w[s->pos++];
}
static inline uint64_t es_u64(elem_stream *s) {
  uint64_t lo = es_u32(s);
  return lo | ((uint64_t)es_u32(s) << 32);
}
static inline double es_double(elem_stream *s) {
  return (double)(es_u64(s) >> 11) * CN_PHILOX_TWO_M53;
}
static inline double es_normal(elem_stream *s) {
  double u1 = (double)(es_u64(s) >> 11) * CN_PHILOX_TWO_M53 + CN_PHILOX_TWO_M53;
  double u2 = (double)(es_u64(s) >> 11) * CN_PHILOX_TWO_M53;
  return sqrt(-2.0 * log(u1)) * cos(2.0 * CN_PHILOX_PI * u2);
}

static double gamma_sample(elem_stream *s, double k) {
  if (k <= 0.0)
    return 0.0;
  if (k < 1.0) {
    double g = gamma_sample(s, k + 1.0);
    double u = es_double(s);
    return g * pow(u, 1.0 / k);
  }
  double d = k - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = es_normal(s);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    double u = es_double(s);
    if (u < 1.0 - 0.0331 * (x * x) * (x * x))
      return d * v;
    if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
      return d * v;
  }
}

/* Hormann's BTRS (transformed rejection with squeeze), p <= 0.5; inversion
 * for small n p. */
static int64_t binomial_sample(elem_stream *s, int64_t n, double p) {
  if (n == 0 || p == 0.0)
    return 0;
  if (p == 1.0)
    return n;
  bool flip = p > 0.5;
  if (flip)
    p = 1.0 - p;
  double q = 1.0 - p;
  int64_t k;
  if ((double)n * p < 10.0) {
    /* Inversion by sequential search. */
    double qn = pow(q, (double)n), r = p / q, g = r * (double)(n + 1);
    for (;;) {
      double u = es_double(s), px = qn;
      k = 0;
      while (u > px) {
        u -= px;
        k++;
        if (k > n)
          break;
        px *= g / (double)k - r;
      }
      if (k <= n)
        break;
    }
  } else {
    double spq = sqrt((double)n * p * q);
    double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
    double c = (double)n * p + 0.5, vr = 0.92 - 4.2 / b;
    double alpha = (2.83 + 5.1 / b) * spq, lpq = log(p / q);
    double m = floor((double)(n + 1) * p);
    double h = lgamma(m + 1.0) + lgamma((double)n - m + 1.0);
    for (;;) {
      double u = es_double(s) - 0.5, v = es_double(s);
      double us = 0.5 - fabs(u);
      double kk = floor((2.0 * a / us + b) * u + c);
      if (kk < 0.0 || kk > (double)n)
        continue;
      if (us >= 0.07 && v <= vr) {
        k = (int64_t)kk;
        break;
      }
      v = log(v * alpha / (a / (us * us) + b));
      if (v <= h - lgamma(kk + 1.0) - lgamma((double)n - kk + 1.0) +
                   (kk - m) * lpq) {
        k = (int64_t)kk;
        break;
      }
    }
  }
  return flip ? n - k : k;
}

/* Knuth's product method for small lam, Hormann's PTRS otherwise (as
 * NumPy). */
static int64_t poisson_sample(elem_stream *s, double lam) {
  if (lam == 0.0)
    return 0;
  if (lam < 10.0) {
    double enlam = exp(-lam), prod = 1.0;
    int64_t k = 0;
    for (;;) {
      prod *= es_double(s);
      if (prod > enlam)
        k++;
      else
        return k;
    }
  }
  double slam = sqrt(lam), loglam = log(lam);
  double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = es_double(s) - 0.5, v = es_double(s);
    double us = 0.5 - fabs(u);
    double k = floor((2 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr)
      return (int64_t)k;
    if (k < 0 || (us < 0.013 && v > us))
      continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
        -lam + k * loglam - lgamma(k + 1))
      return (int64_t)k;
  }
}

/* Lemire's unbiased bounded integer in [0, m1] (m1 = m - 1). */
static uint64_t bounded(elem_stream *s, uint64_t m1) {
  if (m1 == UINT64_MAX)
    return es_u64(s);
  uint64_t m = m1 + 1;
  if (m <= ((uint64_t)1 << 32)) {
    uint64_t x = es_u32(s);
    uint64_t prod = x * m;
    uint32_t low = (uint32_t)prod;
    if (low < m) {
      uint32_t t = (uint32_t)((((uint64_t)1 << 32) - m) % m);
      while (low < t) {
        x = es_u32(s);
        prod = x * m;
        low = (uint32_t)prod;
      }
    }
    return prod >> 32;
  }
  unsigned __int128 prod = (unsigned __int128)es_u64(s) * m;
  uint64_t low = (uint64_t)prod;
  if (low < m) {
    uint64_t t = (0 - m) % m;
    while (low < t) {
      prod = (unsigned __int128)es_u64(s) * m;
      low = (uint64_t)prod;
    }
  }
  return (uint64_t)(prod >> 64);
}

static bool have_avx2(void) {
  static int cached = -1;
  if (cached < 0)
    cached = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return cached == 1;
}

/* Parameters of element i: per-element where pa[k] is given. */
static inline void elem_params(double q[3], const double *params,
                               const cn_array_s *const *pa, int64_t i) {
  for (int k = 0; k < 3; k++)
    q[k] = pa && pa[k] ? ((const double *)pa[k]->data)[i] : params[k];
}

static inline void store(cn_array_s *out, int64_t i, double v) {
  if (out->dtype == CN_FLOAT32)
    ((float *)out->data)[i] = (float)v;
  else
    ((double *)out->data)[i] = v;
}

/* One value of a 1-per-block distribution (element i, parameters q). */
static void one_per_block(cn_array_s *out, int32_t dist, elem_stream *s,
                          const double *q, const cn_array_s *const *pa,
                          int64_t i) {
  int64_t *oi = (int64_t *)out->data;
  switch (dist) {
  case CN_RNG_INTEGERS: {
    int64_t ilow;
    uint64_t m1;
    if (pa && pa[0]) {
      ilow = ((const int64_t *)pa[0]->data)[i];
      m1 = (uint64_t)((const int64_t *)pa[1]->data)[i] - (uint64_t)ilow;
    } else {
      memcpy(&ilow, &q[0], 8);
      memcpy(&m1, &q[1], 8);
    }
    oi[i] = (int64_t)((uint64_t)ilow + bounded(s, m1));
    return;
  }
  case CN_RNG_BINOMIAL:
    oi[i] = binomial_sample(s, (int64_t)q[0], q[1]);
    return;
  case CN_RNG_POISSON:
    oi[i] = poisson_sample(s, q[0]);
    return;
  case CN_RNG_GEOMETRIC:
    oi[i] = cn_rng_geometric(es_u64(s), q[0]);
    return;
  case CN_RNG_GAMMA:
    store(out, i, q[1] * gamma_sample(s, q[0]));
    return;
  case CN_RNG_CHISQUARE:
    store(out, i, 2.0 * gamma_sample(s, 0.5 * q[0]));
    return;
  case CN_RNG_BETA: {
    double x = gamma_sample(s, q[0]), y = gamma_sample(s, q[1]);
    store(out, i,
          x + y > 0 ? x / (x + y) : (es_double(s) < q[0] / (q[0] + q[1])));
    return;
  }
  default:
    store(out, i, 0.0);
    return;
  }
}

static cn_status cpu_rng_fill(cn_array_s *out, int32_t dist,
                              const uint32_t key[2], const uint32_t counter[4],
                              const double *params, const cn_array_s *const *pa,
                              uint64_t *used) {
  int64_t n = out->size;
  bool f32 = out->dtype == CN_FLOAT32;
  int per = cn_rng_per_block(dist, f32);
  int64_t nblocks = (n + per - 1) / per;
  *used = (uint64_t)nblocks;
  if (n == 0)
    return CN_OK;
  int nth = cn_cpu_threads_for(n * 4);
  const double zero[3] = {0.0, 0.0, 0.0};
  if (!params)
    params = zero;
  bool by_z = dist == CN_RNG_NORMAL || dist == CN_RNG_LOGNORMAL;
  if (by_z && have_avx2()) {
    int64_t ngroups = (nblocks + 3) / 4;
#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t g = 0; g < ngroups; g++) {
      double v[8], q[3];
      cn_cpu_normal_group4_avx2(v, key, counter, (uint64_t)g * 4);
      int64_t base = g * 8;
      for (int j = 0; j < 8 && base + j < n; j++) {
        elem_params(q, params, pa, base + j);
        store(out, base + j, cn_rng_from_z(dist, v[j], q));
      }
    }
    return CN_OK;
  }
  if (per > 1) {
    float *of = (float *)out->data;
#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t blk = 0; blk < nblocks; blk++) {
      uint32_t c[4], w[4];
      memcpy(c, counter, sizeof c);
      c[3] = 0;
      cn_philox_add(c, (uint64_t)blk);
      cn_philox4x32_10(w, c, key);
      if (per == 4) {
        for (int j = 0; j < 4; j++) {
          int64_t i = blk * 4 + j;
          if (i < n)
            of[i] = (float)(w[j] >> 8) * TWO_M24;
        }
        continue;
      }
      uint64_t ua = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
      uint64_t ub = (uint64_t)w[2] | ((uint64_t)w[3] << 32);
      double v[2];
      if (by_z) {
        double r = sqrt(-2.0 * log((double)(ua >> 11) * CN_PHILOX_TWO_M53 + CN_PHILOX_TWO_M53));
        double t = 2.0 * CN_PHILOX_PI * (double)(ub >> 11) * CN_PHILOX_TWO_M53;
        double sn, cs;
        sincos(t, &sn, &cs);
        v[0] = r * cs;
        v[1] = r * sn;
      }
      for (int j = 0; j < 2; j++) {
        int64_t i = blk * 2 + j;
        if (i >= n)
          break;
        double q[3];
        elem_params(q, params, pa, i);
        store(out, i,
              by_z ? cn_rng_from_z(dist, v[j], q)
                   : cn_rng_from_u(dist, j ? ub : ua, q));
      }
    }
    return CN_OK;
  }
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int64_t i = 0; i < n; i++) {
    elem_stream s;
    double q[3];
    es_init(&s, key, counter, (uint64_t)i);
    if (dist == CN_RNG_INTEGERS)
      memcpy(q, params, sizeof q);
    else
      elem_params(q, params, pa, i);
    one_per_block(out, dist, &s, q, pa, i);
  }
  return CN_OK;
}

void cn_cpu_random_fill(cn_backend_compute *t) { t->rng_fill = cpu_rng_fill; }
