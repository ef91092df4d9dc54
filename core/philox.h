/* Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC'11; constants as Random123) and the exact mapping from counters to
 * variates that every backend implements, so one seed gives bit-identical
 * integer streams everywhere (floating results may differ in the last ulp
 * where a backend's log/sin/cos differ).
 *
 * State: key (k0, k1) and a 128-bit counter (c0 least significant word).
 * A fill of n values starts at the state's counter C (c3 is always 0 in
 * the state) and uses blocks C, C+1, ... (96-bit addition on c0..c2):
 *  - RANDOM float64, NORMAL, EXPONENTIAL, UNIFORM: 2 values per block,
 *    value 2i / 2i+1 from block i's 64-bit words u = w1:w0 / w3:w2.
 *    uniform double = (u >> 11) * 2^-53. NORMAL (Box-Muller): from the
 *    pair (u_a, u_b): r = sqrt(-2 log((u_a >> 11) * 2^-53 + 2^-53)),
 *    t = 2 pi (u_b >> 11) * 2^-53, values r cos t and r sin t.
 *    EXPONENTIAL: -log1p(-uniform).
 *  - RANDOM float32: 4 values per block, (w >> 8) * 2^-24.
 *    LOGNORMAL: exp of a NORMAL value. UNIFORM-based (LAPLACE, LOGISTIC,
 *    TRIANGULAR) and EXPONENTIAL-based (RAYLEIGH, WEIBULL, PARETO) values
 *    come from the same u through cn_rng_from_u below; LAPLACE and
 *    LOGISTIC use the open uniform ((u >> 12) + 0.5) * 2^-52 in (0, 1).
 *  - INTEGERS, GAMMA, BETA, BINOMIAL, POISSON, CHISQUARE, GEOMETRIC: 1
 *    value per block: value i
 *    reads the words of block C+i, then, if its rejection loop needs more,
 *    those of the same counter with c3 = 1, 2, ... (the retry rounds).
 *    INTEGERS with count m: m == 2^64: the raw u64 w1:w0; m <= 2^32:
 *    Lemire's multiply-shift on successive 32-bit words with rejection of
 *    low < (2^32 - m) mod m; else the same on successive 64-bit words.
 *    GEOMETRIC: floor(E / -log1p(-p)) + 1 with E = -log1p(-u) from the
 *    block's first 64-bit word; CHISQUARE(df): 2 GAMMA(df / 2).
 * Parameters may vary per element (array-valued parameters): value i uses
 * the parameters of element i and the same counter blocks as with scalar
 * parameters, so the stream never depends on the parameters' shapes.
 * The state's counter then advances by the number of blocks used. */
#ifndef CUNUMPY_PHILOX_H
#define CUNUMPY_PHILOX_H

/* This header and core/random_samplers.h are written in the common subset
 * of C11 and CUDA C++: the CUDA plugin embeds both in its device prelude
 * (core/cuda/CMakeLists.txt), after the prelude's base part, which defines
 * CN_DEV. CN_HD qualifies every function: CN_DEV there (device code under
 * NVRTC, host code in tests/cuda/prelude_host.cu), static inline in C. */
#ifdef CN_DEV
#define CN_HD CN_DEV
#else
#define CN_HD static inline
#include <math.h>
#include <stdint.h>
#endif
#ifdef __CUDACC_RTC__ /* NVRTC has no standard headers */
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INT64_MAX 0x7fffffffffffffffLL
#define UINT64_MAX 0xffffffffffffffffULL
#endif

#define CN_PHILOX_M0 0xD2511F53u
#define CN_PHILOX_M1 0xCD9E8D57u
#define CN_PHILOX_W0 0x9E3779B9u
#define CN_PHILOX_W1 0xBB67AE85u
/* 2^-53 (a double from the top 53 bits of a word) and pi, as the CPU
 * kernels' mappings to uniforms and normals use them. */
#define CN_PHILOX_TWO_M53 (1.0 / 9007199254740992.0)
#define CN_PHILOX_PI 3.14159265358979323846

CN_HD void cn_philox4x32_10(uint32_t out[4], const uint32_t ctr[4],
                                    const uint32_t key[2]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  uint32_t k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)CN_PHILOX_M0 * c0;
    uint64_t p1 = (uint64_t)CN_PHILOX_M1 * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += CN_PHILOX_W0;
    k1 += CN_PHILOX_W1;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/* ctr (words 0..2) += n, carrying; word 3 untouched. */
CN_HD void cn_philox_add(uint32_t ctr[4], uint64_t n) {
  uint64_t lo = (uint64_t)ctr[0] + (n & 0xffffffffu);
  ctr[0] = (uint32_t)lo;
  uint64_t mid = (uint64_t)ctr[1] + (n >> 32) + (lo >> 32);
  ctr[1] = (uint32_t)mid;
  ctr[2] += (uint32_t)(mid >> 32);
}

/* Distributions of a fill (the rng_fill backend member). */
typedef enum cn_rng_dist {
  CN_RNG_RANDOM = 0,      /* [0, 1) of out's float dtype */
  CN_RNG_NORMAL = 1,      /* params: loc, scale */
  CN_RNG_UNIFORM = 2,     /* params: low, high */
  CN_RNG_EXPONENTIAL = 3, /* params: scale */
  CN_RNG_INTEGERS = 4,    /* params: int64 low, uint64 m - 1 (bits copied) */
  CN_RNG_GAMMA = 5,       /* params: shape, scale */
  CN_RNG_BETA = 6,        /* params: a, b */
  CN_RNG_BINOMIAL = 7,    /* params: n, p (out int64) */
  CN_RNG_POISSON = 8,     /* params: lam (out int64) */
  CN_RNG_LOGNORMAL = 9,   /* params: mean, sigma */
  CN_RNG_LAPLACE = 10,    /* params: loc, scale */
  CN_RNG_LOGISTIC = 11,   /* params: loc, scale */
  CN_RNG_RAYLEIGH = 12,   /* params: scale */
  CN_RNG_WEIBULL = 13,    /* params: a */
  CN_RNG_PARETO = 14,     /* params: a */
  CN_RNG_TRIANGULAR = 15, /* params: left, mode, right */
  CN_RNG_CHISQUARE = 16,  /* params: df */
  CN_RNG_GEOMETRIC = 17   /* params: p (out int64) */
} cn_rng_dist;

/* Values per 128-bit block of a fill of dist (float32 RANDOM: 4). */
CN_HD int cn_rng_per_block(int32_t dist, int f32) {
  if (dist == CN_RNG_RANDOM)
    return f32 ? 4 : 2;
  if (dist <= CN_RNG_EXPONENTIAL ||
      (dist >= CN_RNG_LOGNORMAL && dist <= CN_RNG_TRIANGULAR))
    return 2;
  return 1;
}

/* A value of a 2-per-block distribution other than NORMAL / LOGNORMAL from
 * the 64-bit word x of its block, with parameters p[0..2]. */
CN_HD double cn_rng_from_u(int32_t dist, uint64_t x, const double *p) {
  double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
  double uo = ((double)(x >> 12) + 0.5) * (1.0 / 4503599627370496.0);
  switch (dist) {
  case CN_RNG_UNIFORM:
    return p[0] + (p[1] - p[0]) * u;
  case CN_RNG_EXPONENTIAL:
    return -p[0] * log1p(-u);
  case CN_RNG_LAPLACE:
    return uo < 0.5 ? p[0] + p[1] * log(2.0 * uo)
                    : p[0] - p[1] * log(2.0 * (1.0 - uo));
  case CN_RNG_LOGISTIC:
    return p[0] + p[1] * log(uo / (1.0 - uo));
  case CN_RNG_RAYLEIGH:
    return p[0] * sqrt(-2.0 * log1p(-u));
  case CN_RNG_WEIBULL:
    return p[0] == 0.0 ? 0.0 : pow(-log1p(-u), 1.0 / p[0]);
  case CN_RNG_PARETO:
    return expm1(-log1p(-u) / p[0]);
  case CN_RNG_TRIANGULAR: {
    double base = p[2] - p[0], lb = p[1] - p[0];
    return u <= lb / base ? p[0] + sqrt(u * lb * base)
                          : p[2] - sqrt((1.0 - u) * (p[2] - p[1]) * base);
  }
  default:
    return u;
  }
}

/* A NORMAL / LOGNORMAL value from a standard normal z. */
CN_HD double cn_rng_from_z(int32_t dist, double z, const double *p) {
  double v = p[0] + p[1] * z;
  return dist == CN_RNG_LOGNORMAL ? exp(v) : v;
}

/* GEOMETRIC from the 64-bit word x given lq = -log1p(-p) (int64,
 * saturating); a fill with one p computes lq once. */
CN_HD int64_t cn_rng_geometric_lq(uint64_t x, double lq) {
  double u = (double)(x >> 11) * (1.0 / 9007199254740992.0);
  double k = floor(-log1p(-u) / lq) + 1.0;
  return k >= 9.2e18 ? INT64_MAX : (int64_t)k;
}

/* GEOMETRIC(p) from the 64-bit word x. */
CN_HD int64_t cn_rng_geometric(uint64_t x, double p) {
  return cn_rng_geometric_lq(x, -log1p(-p));
}

#endif
