/* CPU fill kernel of the counter-based generator: the mapping from counters
 * to variates is specified in core/philox.h and computed by the samplers of
 * core/random_samplers.h, shared with the CUDA plugin; NORMAL fills have an
 * AVX2 + SLEEF path, the other fills with scalar parameters (and RANDOM
 * and INTEGERS) AVX2 or AVX-512 Philox lanes (random_avx512.c), EXPONENTIAL, RAYLEIGH and WEIBULL
 * SLEEF's vector log1p (random_avx2.c). Threads split the counter space,
 * so results do not depend on the thread count. */
#include <math.h>
#include <string.h>

#include "../random_samplers.h"
#include "cpu.h"

static bool have_avx2(void) {
  static int cached = -1;
  if (cached < 0)
    cached = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return cached == 1;
}

/* Work items [t0, t1) of a fill. The cheapest distributions get copies
 * with dist and kind constant and the samplers inlined (flatten), so the
 * compiler drops their switches; the others' cost is their libm calls. */
typedef void (*items_fn)(int32_t dist, int kind, int64_t t0, int64_t t1,
                         int64_t n, void *out, const cn_rng_src *src);
#define ITEMS(name, DIST, KIND)                                                \
  __attribute__((flatten)) static void name(                                   \
      int32_t dist, int kind, int64_t t0, int64_t t1, int64_t n, void *out,    \
      const cn_rng_src *src) {                                                 \
    (void)dist;                                                                \
    (void)kind;                                                                \
    for (int64_t t = t0; t < t1; t++)                                          \
      cn_rng_work(DIST, KIND, t, n, out, src);                                 \
  }
ITEMS(items_random_f64, CN_RNG_RANDOM, CN_RNG_OUT_F64)
ITEMS(items_random_f32, CN_RNG_RANDOM, CN_RNG_OUT_F32)
ITEMS(items_uniform_f64, CN_RNG_UNIFORM, CN_RNG_OUT_F64)
ITEMS(items_uniform_f32, CN_RNG_UNIFORM, CN_RNG_OUT_F32)
ITEMS(items_integers, CN_RNG_INTEGERS, CN_RNG_OUT_I64)
#undef ITEMS

static void items_any(int32_t dist, int kind, int64_t t0, int64_t t1,
                      int64_t n, void *out, const cn_rng_src *src) {
  for (int64_t t = t0; t < t1; t++)
    cn_rng_work(dist, kind, t, n, out, src);
}

static items_fn pick_items(int32_t dist, int kind) {
  bool f32 = kind == CN_RNG_OUT_F32;
  switch (dist) {
  case CN_RNG_RANDOM:
    return f32 ? items_random_f32 : items_random_f64;
  case CN_RNG_UNIFORM:
    return f32 ? items_uniform_f32 : items_uniform_f64;
  case CN_RNG_INTEGERS:
    return items_integers;
  default:
    return items_any;
  }
}

static bool have_avx512(void) {
  static int cached = -1;
  if (cached < 0)
    cached = have_avx2() && __builtin_cpu_supports("avx512f");
  return cached == 1;
}

/* Counter block words in the widest vector lanes the CPU has (AVX2 CPUs
 * only). */
static void philox_blocks_vec(uint32_t *w, int64_t nb, const uint32_t key[2],
                              const uint32_t counter[4], uint64_t first,
                              uint32_t word3) {
  if (have_avx512())
    cn_cpu_philox_blocks_avx512(w, nb, key, counter, first, word3);
  else
    cn_cpu_philox_blocks_avx2(w, nb, key, counter, first, word3);
}

void cn_cpu_philox_blocks(uint32_t *w, int64_t nb, const uint32_t key[2],
                          const uint32_t counter[4], uint64_t first) {
  if (have_avx2()) {
    philox_blocks_vec(w, nb, key, counter, first, 0);
    return;
  }
  for (int64_t i = 0; i < nb; i++)
    cn_rng_block(w + 4 * i, key, counter, first + (uint64_t)i);
}

#define ITEMS_PER_CHUNK 2048

/* Blocks [t0, t1) of a RANDOM or scalar-bounded INTEGERS fill from block
 * words made in vector lanes, BATCH blocks at a time: the same values as the
 * work items'. An integer whose first draw would fall in Lemire's
 * rejection zone (probability m / 2^32 or m / 2^64) is left to its work
 * item, which redraws exactly as the scalar path. */
#define BATCH 256
static void items_batched(int32_t dist, int kind, int64_t t0, int64_t t1,
                          int64_t n, void *out, const cn_rng_src *src) {
  uint32_t w[4 * BATCH];
  for (int64_t b0 = t0; b0 < t1; b0 += BATCH) {
    int64_t nb = t1 - b0 < BATCH ? t1 - b0 : BATCH;
    philox_blocks_vec(w, nb, src->key, src->base, (uint64_t)b0, 0);
    if (dist == CN_RNG_RANDOM && kind == CN_RNG_OUT_F32) {
      float *o = (float *)out + 4 * b0;
      int64_t m = n - 4 * b0 < 4 * nb ? n - 4 * b0 : 4 * nb;
      for (int64_t j = 0; j < m; j++)
        o[j] = (float)(int32_t)(w[j] >> 8) * CN_RNG_TWO_M24;
    } else if (dist == CN_RNG_RANDOM) {
      double *o = (double *)out + 2 * b0;
      int64_t m = n - 2 * b0 < 2 * nb ? n - 2 * b0 : 2 * nb;
      for (int64_t j = 0; j < m; j++) {
        uint64_t x = (uint64_t)w[2 * j] | ((uint64_t)w[2 * j + 1] << 32);
        o[j] = (double)(int64_t)(x >> 11) * CN_PHILOX_TWO_M53;
      }
    } else {
      int64_t *o = (int64_t *)out + b0;
      const uint64_t m1 = src->m1, ilow = (uint64_t)src->ilow;
      if (m1 == UINT64_MAX) {
        for (int64_t j = 0; j < nb; j++)
          o[j] = (int64_t)(ilow + ((uint64_t)w[4 * j] |
                                   ((uint64_t)w[4 * j + 1] << 32)));
      } else if (m1 < ((uint64_t)1 << 32)) {
        const uint64_t m = m1 + 1;
        for (int64_t j = 0; j < nb; j++) {
          uint64_t prod = (uint64_t)w[4 * j] * m;
          if ((uint32_t)prod < m)
            cn_rng_work(dist, kind, b0 + j, n, out, src);
          else
            o[j] = (int64_t)(ilow + (prod >> 32));
        }
      } else {
        const uint64_t m = m1 + 1;
        for (int64_t j = 0; j < nb; j++) {
          uint64_t x = (uint64_t)w[4 * j] | ((uint64_t)w[4 * j + 1] << 32), lo;
          uint64_t hi = cn_rng_mulhi64(x, m, &lo);
          if (lo < m)
            cn_rng_work(dist, kind, b0 + j, n, out, src);
          else
            o[j] = (int64_t)(ilow + hi);
        }
      }
    }
  }
}

/* Blocks [t0, t1) of a fill of a 2-per-block distribution other than
 * NORMAL / LOGNORMAL with scalar parameters, from block words made in
 * vector lanes: EXPONENTIAL, RAYLEIGH and WEIBULL through SLEEF's vector
 * log1p and pow, the others through the scalar transform of
 * core/random_samplers.h (whose libm results the CUDA comparison holds
 * to a tighter bound). */
__attribute__((flatten)) static void
items_batched_u(int32_t dist, int kind, int64_t t0, int64_t t1, int64_t n,
                void *out, const cn_rng_src *src) {
  uint32_t w[4 * BATCH];
  uint64_t x[2 * BATCH];
  double v[2 * BATCH];
  const double *p = src->params;
  bool vec = dist == CN_RNG_EXPONENTIAL || dist == CN_RNG_RAYLEIGH ||
             (dist == CN_RNG_WEIBULL && p[0] != 0.0);
  for (int64_t b0 = t0; b0 < t1; b0 += BATCH) {
    int64_t nb = t1 - b0 < BATCH ? t1 - b0 : BATCH;
    philox_blocks_vec(w, nb, src->key, src->base, (uint64_t)b0, 0);
    int64_t i0 = 2 * b0, m = n - i0 < 2 * nb ? n - i0 : 2 * nb;
    /* x86: word pair (w[2j], w[2j+1]) is the little-endian u64 w2j+1:w2j */
    memcpy(x, w, (size_t)m * sizeof *x);
    double *dst = kind == CN_RNG_OUT_F64 ? (double *)out + i0 : v;
    if (vec)
      cn_cpu_from_u_avx2(dist, x, m, p[0], dst);
    else
      for (int64_t j = 0; j < m; j++)
        dst[j] = cn_rng_from_u(dist, x[j], p);
    if (kind == CN_RNG_OUT_F32) {
      float *o = (float *)out + i0;
      for (int64_t j = 0; j < m; j++)
        o[j] = (float)v[j];
    }
  }
}

/* Blocks [t0, t1) of a GEOMETRIC fill with scalar p: one -log1p(-p) for
 * the fill and block words from vector lanes; the values are the work
 * items' bit for bit. */
static void items_batched_geometric(int32_t dist, int kind, int64_t t0,
                                    int64_t t1, int64_t n, void *out,
                                    const cn_rng_src *src) {
  (void)dist;
  (void)kind;
  (void)n;
  uint32_t w[4 * BATCH];
  const double lq = -log1p(-src->params[0]);
  for (int64_t b0 = t0; b0 < t1; b0 += BATCH) {
    int64_t nb = t1 - b0 < BATCH ? t1 - b0 : BATCH;
    philox_blocks_vec(w, nb, src->key, src->base, (uint64_t)b0, 0);
    int64_t *o = (int64_t *)out + b0;
    for (int64_t j = 0; j < nb; j++)
      o[j] = cn_rng_geometric_lq(
          (uint64_t)w[4 * j] | ((uint64_t)w[4 * j + 1] << 32), lq);
  }
}

/* Blocks [t0, t1) of a fill of GAMMA, CHISQUARE, BETA, BINOMIAL or POISSON
 * with scalar parameters: each element's stream starts from its block's
 * words made in vector lanes (and but for BINOMIAL's its retry round 1's;
 * later rounds are scalar), and BINOMIAL's
 * and POISSON's parameter-only terms are computed once; the values are
 * the work items' bit for bit. */
static void items_streams(int32_t dist, int kind, int64_t t0, int64_t t1,
                          int64_t n, void *out, const cn_rng_src *src) {
  (void)n;
  uint32_t w[4 * BATCH];
  const double *q = src->params;
  cn_rng_binomial_prep bp;
  cn_rng_poisson_prep pp;
  bool binomial = dist == CN_RNG_BINOMIAL, poisson = dist == CN_RNG_POISSON;
  cn_rng_binomial_prepare(&bp, binomial ? (int64_t)q[0] : 0, q[1]);
  cn_rng_poisson_prepare(&pp, poisson ? q[0] : 0.0);
  /* All but BINOMIAL (one or two uniforms mostly) nearly always read
   * their retry round 1. */
  uint32_t w1[4 * BATCH];
  bool ahead = !binomial;
  cn_rng_stream s;
  memcpy(s.key, src->key, sizeof s.key);
  s.next = NULL;
  for (int64_t b0 = t0; b0 < t1; b0 += BATCH) {
    int64_t nb = t1 - b0 < BATCH ? t1 - b0 : BATCH;
    philox_blocks_vec(w, nb, src->key, src->base, (uint64_t)b0, 0);
    if (ahead)
      philox_blocks_vec(w1, nb, src->key, src->base, (uint64_t)b0, 1);
    for (int64_t j = 0; j < nb; j++) {
      int64_t t = b0 + j;
      memcpy(s.ctr, src->base, sizeof s.ctr);
      s.ctr[3] = 0;
      cn_philox_add(s.ctr, (uint64_t)t);
      memcpy(s.w, w + 4 * j, sizeof s.w);
      s.pos = 0;
      if (ahead)
        s.next = w1 + 4 * j;
      if (binomial)
        ((int64_t *)out)[t] = cn_rng_binomial_prepared(&s, &bp);
      else if (poisson)
        ((int64_t *)out)[t] = cn_rng_poisson_prepared(&s, &pp);
      else
        cn_rng_store(out, kind, t, cn_rng_real_value(dist, &s, q));
    }
  }
}
#undef BATCH

/* The scalar paths run the work items of core/random_samplers.h (the
 * CUDA kernels run the same ones). */
static cn_status cpu_rng_fill(cn_array_s *out, int32_t dist,
                              const uint32_t key[2], const uint32_t counter[4],
                              const double *params, const cn_array_s *const *pa,
                              uint64_t *used) {
  int64_t n = out->size;
  bool f32 = out->dtype == CN_FLOAT32;
  int64_t nblocks = (int64_t)cn_rng_blocks_used(dist, f32, n);
  *used = (uint64_t)nblocks;
  if (n == 0)
    return CN_OK;
  int nth = cn_cpu_threads_for(n * 4);
  const void *pd[3] = {NULL, NULL, NULL};
  for (int k = 0; pa && k < 3; k++)
    pd[k] = pa[k] ? pa[k]->data : NULL;
  cn_rng_src src;
  cn_rng_src_init(&src, dist, key, counter, params, pd);
  if ((dist == CN_RNG_NORMAL || dist == CN_RNG_LOGNORMAL) && have_avx2()) {
    int64_t ngroups = (nblocks + 3) / 4;
#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t g = 0; g < ngroups; g++) {
      double v[8], q[3];
      cn_cpu_normal_group4_avx2(v, key, counter, (uint64_t)g * 4);
      int64_t base = g * 8;
      for (int j = 0; j < 8 && base + j < n; j++) {
        cn_rng_params_at(q, &src, base + j);
        cn_rng_store(out->data, f32 ? CN_RNG_OUT_F32 : CN_RNG_OUT_F64,
                     base + j, cn_rng_from_z(dist, v[j], q));
      }
    }
    return CN_OK;
  }
  int kind = cn_rng_is_int(dist) ? CN_RNG_OUT_I64
             : f32                ? CN_RNG_OUT_F32
                                  : CN_RNG_OUT_F64;
  void *data = out->data;
  items_fn items = pick_items(dist, kind);
  bool scalar_params = !src.pa[0] && !src.pa[1] && !src.pa[2];
  if (have_avx2() && (dist == CN_RNG_RANDOM ||
                      (dist == CN_RNG_INTEGERS && !src.lo)))
    items = items_batched;
  else if (have_avx2() && scalar_params && dist == CN_RNG_GEOMETRIC)
    items = items_batched_geometric;
  else if (have_avx2() && scalar_params &&
           (dist == CN_RNG_GAMMA || dist == CN_RNG_CHISQUARE ||
            dist == CN_RNG_BETA || dist == CN_RNG_BINOMIAL ||
            dist == CN_RNG_POISSON))
    items = items_streams;
  else if (have_avx2() && scalar_params && cn_rng_per_block(dist, f32) == 2)
    items = items_batched_u; /* NORMAL and LOGNORMAL returned above */
  int64_t nchunks = (nblocks + ITEMS_PER_CHUNK - 1) / ITEMS_PER_CHUNK;
#pragma omp parallel for num_threads(nth) schedule(static)
  for (int64_t c = 0; c < nchunks; c++) {
    int64_t t0 = c * ITEMS_PER_CHUNK;
    int64_t t1 = t0 + ITEMS_PER_CHUNK < nblocks ? t0 + ITEMS_PER_CHUNK : nblocks;
    items(dist, kind, t0, t1, n, data, &src);
  }
  return CN_OK;
}

void cn_cpu_random_fill(cn_backend_compute *t) { t->rng_fill = cpu_rng_fill; }
