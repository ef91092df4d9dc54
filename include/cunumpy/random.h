/* cunumpy/random.h: counter-based random numbers (Philox4x32-10) with a
 * NumPy Generator-style API.
 *
 * A cn_rng holds a 64-bit key (from the seed) and a 128-bit counter. Every
 * backend maps (key, counter) to variates the same way (documented in
 * core/philox.h), so one seed gives bit-identical integer and uniform
 * streams on every backend; transcendental-based variates (normal, gamma,
 * ...) agree to the last ulp of the backend's log/sin/cos. Fills are split
 * over threads by counter ranges, so results do not depend on the number
 * of threads. Normals use Box-Muller (2 per 128-bit block).
 *
 * Results are new C-contiguous arrays of shape (ndim, shape) on the active
 * backend; dtype CN_DTYPE_DEFAULT gives float64 (int64 for integer
 * distributions). A generator may be shared between threads (calls are
 * serialised on it). cn_random_dist takes array-valued parameters. */
#ifndef CUNUMPY_RANDOM_H
#define CUNUMPY_RANDOM_H

#include "cunumpy/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque, reference-counted generator handle. */
typedef struct cn_rng_s *cn_rng;

/* Number of uint32 words of a generator state: key (2), counter (4),
 * spawn count (2, low word first). */
#define CN_RNG_STATE_WORDS 8

/* New generator: key = (seed low 32 bits, seed high 32 bits), counter 0. */
CN_API cn_status cn_rng_create(cn_rng *out, uint64_t seed);
/* Reference counting; release of NULL is a no-op. */
CN_API cn_status cn_rng_retain(cn_rng rng);
CN_API void cn_rng_release(cn_rng rng);
/* n independent child generators: child i's key is the first two words of
 * Philox(counter = (parent spawn count + i, 0, 0, 0xffffffff), parent key),
 * with counter 0 (a stream no fill of the parent touches). The parent's
 * spawn count advances by n. Writes n new handles (all or none). */
CN_API cn_status cn_rng_spawn(cn_rng *outs, int32_t n, cn_rng parent);
/* Advances the counter by jumps * 2^64 blocks (independent sub-streams of
 * one key for up to 2^32 jumps). */
CN_API cn_status cn_rng_jump(cn_rng rng, uint64_t jumps);
/* Advances the counter by n 128-bit blocks. */
CN_API cn_status cn_rng_advance(cn_rng rng, uint64_t n);
/* Copies the state out / restores it (CN_RNG_STATE_WORDS words). */
CN_API cn_status cn_rng_get_state(uint32_t *state, cn_rng rng);
CN_API cn_status cn_rng_set_state(cn_rng rng, const uint32_t *state);

/* Uniform [0, 1): float64 with 53 random bits, float32 with 24.
 * CN_ERR_TYPE for other dtypes. */
CN_API cn_status cn_random_random(cn_array *out, cn_rng rng, int32_t ndim,
                                  const int64_t *shape, cn_dtype dtype);
/* Uniform [low, high) (float dtypes). CN_ERR_VALUE for non-finite bounds. */
CN_API cn_status cn_random_uniform(cn_array *out, cn_rng rng, double low,
                                   double high, int32_t ndim,
                                   const int64_t *shape, cn_dtype dtype);
/* Normal(loc, scale) (float dtypes); standard_normal is (0, 1).
 * CN_ERR_VALUE for scale < 0. */
CN_API cn_status cn_random_standard_normal(cn_array *out, cn_rng rng,
                                           int32_t ndim, const int64_t *shape,
                                           cn_dtype dtype);
CN_API cn_status cn_random_normal(cn_array *out, cn_rng rng, double loc,
                                  double scale, int32_t ndim,
                                  const int64_t *shape, cn_dtype dtype);
/* Unbiased integers in [low, high) (or [low, high] with endpoint) by
 * Lemire's method; any integer dtype able to hold the range (the full
 * int64 range works with endpoint). CN_ERR_VALUE for an empty range or
 * bounds outside the dtype. */
CN_API cn_status cn_random_integers(cn_array *out, cn_rng rng, int64_t low,
                                    int64_t high, int32_t endpoint,
                                    int32_t ndim, const int64_t *shape,
                                    cn_dtype dtype);
/* Exponential with the given scale (> 0... 0 gives zeros). */
CN_API cn_status cn_random_exponential(cn_array *out, cn_rng rng, double scale,
                                       int32_t ndim, const int64_t *shape,
                                       cn_dtype dtype);
/* Gamma(shape k, scale) by Marsaglia-Tsang; CN_ERR_VALUE for k < 0 or
 * scale < 0. */
CN_API cn_status cn_random_gamma(cn_array *out, cn_rng rng, double k,
                                 double scale, int32_t ndim,
                                 const int64_t *shape, cn_dtype dtype);
/* Beta(a, b) from two gammas; CN_ERR_VALUE for a <= 0 or b <= 0. */
CN_API cn_status cn_random_beta(cn_array *out, cn_rng rng, double a, double b,
                                int32_t ndim, const int64_t *shape,
                                cn_dtype dtype);
/* Binomial(n, p) (int64 default; BTRS, inversion for small n p);
 * CN_ERR_VALUE for n < 0 or p outside [0, 1]. */
CN_API cn_status cn_random_binomial(cn_array *out, cn_rng rng, int64_t n,
                                    double p, int32_t ndim,
                                    const int64_t *shape, cn_dtype dtype);
/* Poisson(lam) (int64 default; PTRS for lam >= 10); CN_ERR_VALUE for
 * lam < 0 or lam > 1e10. */
CN_API cn_status cn_random_poisson(cn_array *out, cn_rng rng, double lam,
                                   int32_t ndim, const int64_t *shape,
                                   cn_dtype dtype);

/* Samples of distribution dist with array-valued parameters p0, p1, p2
 * (NULL past the distribution's count), each broadcast to (ndim, shape)
 * as NumPy's Generator does with size=; value i uses element i's
 * parameters and the same counter blocks as the scalar functions above.
 * dist and its parameters: "uniform" (low, high), "normal" (loc,
 * scale >= 0), "lognormal" (mean, sigma >= 0), "exponential" (scale >= 0),
 * "gamma" (shape >= 0, scale >= 0), "beta" (a > 0, b > 0), "chisquare"
 * (df > 0), "laplace" / "logistic" (loc, scale >= 0), "rayleigh"
 * (scale >= 0), "weibull" (a >= 0), "pareto" (a > 0), "triangular" (left
 * <= mode <= right, left < right), float dtypes; "binomial" (n >= 0, p in
 * [0, 1]), "poisson" (lam in [0, 1e10]), "geometric" (p in (0, 1]),
 * "integers" (integer low <= high: the closed range), integer dtypes.
 * CN_ERR_VALUE for an unknown name, a parameter out of its domain (the
 * message names it and its index) or a missing/extra parameter;
 * CN_ERR_SHAPE when a parameter does not broadcast to the shape;
 * CN_ERR_TYPE for complex parameters or a wrong dtype. */
CN_API cn_status cn_random_dist(cn_array *out, cn_rng rng, const char *dist,
                                cn_array p0, cn_array p1, cn_array p2,
                                int32_t ndim, const int64_t *shape,
                                cn_dtype dtype);

/* Samples of shape (ndim, shape) from the 1-d array pool, or from
 * arange(pop) when pool is NULL (int64). replace = 0 draws without replacement
 * (CN_ERR_VALUE when more than the population is asked for). p (may be
 * NULL) holds the probabilities, checked as NumPy's Generator.choice:
 * CN_ERR_VALUE unless p is 1-d of the population's size, finite,
 * non-negative and sums to 1 within sqrt(eps) (of float32 for a float32
 * p, else float64), and without replacement has at least as many non-zero
 * entries as samples. Weighted draws without replacement use
 * Efraimidis-Spirakis keys. */
CN_API cn_status cn_random_choice(cn_array *out, cn_rng rng, cn_array pool,
                                  int64_t pop, int32_t ndim,
                                  const int64_t *shape, int32_t replace,
                                  cn_array p);
/* Random permutation of arange(n) (pool NULL) or a copy of pool shuffled
 * along axis 0 (Fisher-Yates with Lemire draws). */
CN_API cn_status cn_random_permutation(cn_array *out, cn_rng rng,
                                       cn_array pool, int64_t n);
/* Shuffles a along axis 0 in place. CN_ERR_VALUE for read-only or 0-d a. */
CN_API cn_status cn_random_shuffle(cn_rng rng, cn_array a);

/* Legacy global generator (numpy.random.seed / rand / randn): seeded with
 * 0 until cn_random_seed is called; float64 results. */
CN_API cn_status cn_random_seed(uint64_t seed);
CN_API cn_status cn_rand(cn_array *out, int32_t ndim, const int64_t *shape);
CN_API cn_status cn_randn(cn_array *out, int32_t ndim, const int64_t *shape);

#ifdef __cplusplus
}
#endif
#endif
