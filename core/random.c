/* Generator handles and distribution entry points (include/cunumpy/
 * random.h). Fills go through the backend's rng_fill member; the few
 * inherently sequential algorithms (permutations, sampling without
 * replacement, weighted choice) draw from the same Philox stream on the
 * host. */
#include "cunumpy/random.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cunumpy/index.h"
#include "array_util.h"
#include "cpu/cpu.h" /* the host streams' block maker */
#include "philox.h"

#define CN_RNG_MAGIC 0x434e5247u /* "CNRG" */

struct cn_rng_s {
  uint32_t magic;
  atomic_int_fast64_t refcount;
  uint32_t key[2];
  uint32_t ctr[4];
  uint64_t spawned;
  pthread_mutex_t lock;
};

#define CHECK_RNG(r, fn)                                                       \
  do {                                                                         \
    if ((r) == NULL)                                                           \
      return cn_error(CN_ERR_VALUE, "%s: argument 'rng' is NULL", fn);         \
    if ((r)->magic != CN_RNG_MAGIC)                                            \
      return cn_error(CN_ERR_VALUE,                                            \
                      "%s: argument 'rng' is a released or invalid handle",    \
                      fn);                                                     \
  } while (0)

static cn_status rng_new(cn_rng *out, const uint32_t key[2]) {
  cn_rng r = cn_calloc(1, sizeof *r);
  if (!r)
    return cn_error(CN_ERR_MEMORY, "cn_rng_create: out of memory");
  r->magic = CN_RNG_MAGIC;
  atomic_init(&r->refcount, 1);
  r->key[0] = key[0];
  r->key[1] = key[1];
  pthread_mutex_init(&r->lock, NULL);
  *out = r;
  return CN_OK;
}

cn_status cn_rng_create(cn_rng *out, uint64_t seed) {
  CN_CHECK_OUT(out, "cn_rng_create");
  uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
  return rng_new(out, key);
}

cn_status cn_rng_retain(cn_rng rng) {
  CHECK_RNG(rng, "cn_rng_retain");
  atomic_fetch_add(&rng->refcount, 1);
  return CN_OK;
}

void cn_rng_release(cn_rng rng) {
  if (!rng || rng->magic != CN_RNG_MAGIC)
    return;
  if (atomic_fetch_sub(&rng->refcount, 1) == 1) {
    rng->magic = 0;
    pthread_mutex_destroy(&rng->lock);
    free(rng);
  }
}

cn_status cn_rng_spawn(cn_rng *outs, int32_t n, cn_rng parent) {
  const char *fn = "cn_rng_spawn";
  CN_CHECK_OUT(outs, fn);
  CHECK_RNG(parent, fn);
  if (n < 0)
    return cn_error(CN_ERR_VALUE, "%s: negative count %d", fn, (int)n);
  cn_rng *tmp = cn_calloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
  if (!tmp)
    return cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  pthread_mutex_lock(&parent->lock);
  cn_status st = CN_OK;
  int32_t made = 0;
  for (; made < n && st == CN_OK; made++) {
    uint64_t id = parent->spawned + (uint64_t)made;
    uint32_t c[4] = {(uint32_t)id, (uint32_t)(id >> 32), 0, 0xffffffffu}, w[4];
    cn_philox4x32_10(w, c, parent->key);
    st = rng_new(&tmp[made], w);
  }
  if (st == CN_OK)
    parent->spawned += (uint64_t)n;
  pthread_mutex_unlock(&parent->lock);
  if (st != CN_OK) {
    for (int32_t i = 0; i < made; i++)
      cn_rng_release(tmp[i]);
    free(tmp);
    return cn_error_prefix(st, fn);
  }
  memcpy(outs, tmp, sizeof(cn_rng) * (size_t)n);
  free(tmp);
  return CN_OK;
}

cn_status cn_rng_jump(cn_rng rng, uint64_t jumps) {
  CHECK_RNG(rng, "cn_rng_jump");
  pthread_mutex_lock(&rng->lock);
  rng->ctr[2] += (uint32_t)jumps;
  pthread_mutex_unlock(&rng->lock);
  return CN_OK;
}

cn_status cn_rng_advance(cn_rng rng, uint64_t n) {
  CHECK_RNG(rng, "cn_rng_advance");
  pthread_mutex_lock(&rng->lock);
  cn_philox_add(rng->ctr, n);
  pthread_mutex_unlock(&rng->lock);
  return CN_OK;
}

cn_status cn_rng_get_state(uint32_t *state, cn_rng rng) {
  CN_CHECK_OUT(state, "cn_rng_get_state");
  CHECK_RNG(rng, "cn_rng_get_state");
  pthread_mutex_lock(&rng->lock);
  state[0] = rng->key[0];
  state[1] = rng->key[1];
  memcpy(state + 2, rng->ctr, sizeof rng->ctr);
  state[6] = (uint32_t)rng->spawned;
  state[7] = (uint32_t)(rng->spawned >> 32);
  pthread_mutex_unlock(&rng->lock);
  return CN_OK;
}

cn_status cn_rng_set_state(cn_rng rng, const uint32_t *state) {
  CHECK_RNG(rng, "cn_rng_set_state");
  if (!state)
    return cn_error(CN_ERR_VALUE, "cn_rng_set_state: argument 'state' is NULL");
  if (state[5] != 0)
    return cn_error(CN_ERR_VALUE,
                    "cn_rng_set_state: counter word 3 must be 0, got %u",
                    (unsigned)state[5]);
  pthread_mutex_lock(&rng->lock);
  rng->key[0] = state[0];
  rng->key[1] = state[1];
  memcpy(rng->ctr, state + 2, sizeof rng->ctr);
  rng->spawned = (uint64_t)state[6] | ((uint64_t)state[7] << 32);
  pthread_mutex_unlock(&rng->lock);
  return CN_OK;
}

/* ---- fills -------------------------------------------------------------- */

static cn_status check_shape(int32_t ndim, const int64_t *shape,
                             const char *fn) {
  if (ndim < 0 || ndim > CN_MAX_DIMS || (ndim > 0 && shape == NULL))
    return cn_error(CN_ERR_VALUE, "%s: invalid shape (ndim = %d)", fn,
                    (int)ndim);
  for (int32_t d = 0; d < ndim; d++)
    if (shape[d] < 0)
      return cn_error(CN_ERR_VALUE,
                      "%s: negative dimensions are not allowed (%" PRId64
                      " at position %d)",
                      fn, shape[d], (int)d);
  int64_t sz;
  return cn_shape_size(&sz, ndim, shape, 8, fn);
}

/* Runs one fill of dist into a new array of kernel dtype kdt, then casts to
 * dtype. */
static cn_status fill(cn_array *out, cn_rng rng, int32_t dist, int32_t ndim,
                      const int64_t *shape, cn_dtype kdt, cn_dtype dtype,
                      const double *params, const cn_array_s *const *pa,
                      const char *fn) {
  cn_status st = check_shape(ndim, shape, fn);
  if (st != CN_OK)
    return st;
  const cn_backend *be = cn_active_backend();
  CN_REQUIRE_SLOT(rng_fill, be, rng_fill, fn);
  cn_array_s *r = NULL;
  st = cn_array_new(&r, be, 0, kdt, ndim, shape, CN_ORDER_C);
  if (st != CN_OK)
    return st;
  pthread_mutex_lock(&rng->lock);
  uint64_t used = 0;
  st = rng_fill(r, dist, rng->key, rng->ctr, params, pa, &used);
  if (st == CN_OK)
    cn_philox_add(rng->ctr, used);
  pthread_mutex_unlock(&rng->lock);
  if (st == CN_OK && dtype != kdt) {
    cn_array_s *c = NULL;
    st = cn_astype(&c, r, dtype, 1);
    cn_array_release(r);
    r = c;
  }
  if (st != CN_OK) {
    cn_array_release(r);
    return st;
  }
  *out = r;
  return CN_OK;
}

static cn_status float_dtype(cn_dtype *dt, const char *fn) {
  if (*dt == CN_DTYPE_DEFAULT)
    *dt = CN_FLOAT64;
  if (*dt != CN_FLOAT32 && *dt != CN_FLOAT64)
    return cn_error(CN_ERR_TYPE, "%s: dtype must be float32 or float64, got %s",
                    fn, cn_dtype_name(*dt));
  return CN_OK;
}

#define FLOAT_PROLOGUE(fn)                                                     \
  CN_CHECK_OUT(out, fn);                                                       \
  CHECK_RNG(rng, fn);                                                          \
  cn_status st_ = float_dtype(&dtype, fn);                                     \
  if (st_ != CN_OK)                                                            \
  return st_

cn_status cn_random_random(cn_array *out, cn_rng rng, int32_t ndim,
                           const int64_t *shape, cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_random");
  return fill(out, rng, CN_RNG_RANDOM, ndim, shape, dtype, dtype, NULL, NULL,
              "cn_random_random");
}

cn_status cn_random_uniform(cn_array *out, cn_rng rng, double low, double high,
                            int32_t ndim, const int64_t *shape,
                            cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_uniform");
  if (!isfinite(low) || !isfinite(high) || !isfinite(high - low))
    return cn_error(CN_ERR_VALUE,
                    "cn_random_uniform: bounds must be finite (low %g, high "
                    "%g)",
                    low, high);
  double p[3] = {low, high, 0};
  return fill(out, rng, CN_RNG_UNIFORM, ndim, shape, dtype, dtype, p, NULL,
              "cn_random_uniform");
}

cn_status cn_random_normal(cn_array *out, cn_rng rng, double loc, double scale,
                           int32_t ndim, const int64_t *shape, cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_normal");
  if (!(scale >= 0))
    return cn_error(CN_ERR_VALUE, "cn_random_normal: scale < 0 (%g)", scale);
  double p[3] = {loc, scale, 0};
  return fill(out, rng, CN_RNG_NORMAL, ndim, shape, dtype, dtype, p, NULL,
              "cn_random_normal");
}

cn_status cn_random_standard_normal(cn_array *out, cn_rng rng, int32_t ndim,
                                    const int64_t *shape, cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_standard_normal");
  double p[3] = {0.0, 1.0, 0.0};
  return fill(out, rng, CN_RNG_NORMAL, ndim, shape, dtype, dtype, p, NULL,
              "cn_random_standard_normal");
}

cn_status cn_random_exponential(cn_array *out, cn_rng rng, double scale,
                                int32_t ndim, const int64_t *shape,
                                cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_exponential");
  if (!(scale >= 0))
    return cn_error(CN_ERR_VALUE, "cn_random_exponential: scale < 0 (%g)",
                    scale);
  double p[3] = {scale, 0};
  return fill(out, rng, CN_RNG_EXPONENTIAL, ndim, shape, dtype, dtype, p, NULL,
              "cn_random_exponential");
}

cn_status cn_random_gamma(cn_array *out, cn_rng rng, double k, double scale,
                          int32_t ndim, const int64_t *shape, cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_gamma");
  if (!(k >= 0) || !(scale >= 0))
    return cn_error(CN_ERR_VALUE,
                    "cn_random_gamma: shape %g and scale %g "
                    "must be >= 0",
                    k, scale);
  double p[3] = {k, scale};
  return fill(out, rng, CN_RNG_GAMMA, ndim, shape, dtype, dtype, p, NULL,
              "cn_random_gamma");
}

cn_status cn_random_beta(cn_array *out, cn_rng rng, double a, double b,
                         int32_t ndim, const int64_t *shape, cn_dtype dtype) {
  FLOAT_PROLOGUE("cn_random_beta");
  if (!(a > 0) || !(b > 0))
    return cn_error(CN_ERR_VALUE, "cn_random_beta: a %g and b %g must be > 0",
                    a, b);
  double p[3] = {a, b};
  return fill(out, rng, CN_RNG_BETA, ndim, shape, dtype, dtype, p, NULL,
              "cn_random_beta");
}

static cn_status int_dtype(cn_dtype *dt, const char *fn) {
  if (*dt == CN_DTYPE_DEFAULT)
    *dt = CN_INT64;
  if (!cn_is_integer(*dt))
    return cn_error(CN_ERR_TYPE, "%s: dtype must be an integer dtype, got %s",
                    fn, cn_dtype_name(*dt));
  return CN_OK;
}

cn_status cn_random_integers(cn_array *out, cn_rng rng, int64_t low,
                             int64_t high, int32_t endpoint, int32_t ndim,
                             const int64_t *shape, cn_dtype dtype) {
  const char *fn = "cn_random_integers";
  CN_CHECK_OUT(out, fn);
  CHECK_RNG(rng, fn);
  cn_status st = int_dtype(&dtype, fn);
  if (st != CN_OK)
    return st;
  int64_t hi = high;
  if (!endpoint) {
    if (high == INT64_MIN || high - 1 < low)
      return cn_error(CN_ERR_VALUE,
                      "%s: low >= high (%" PRId64 ", %" PRId64 ")", fn, low,
                      high);
    hi = high - 1;
  } else if (high < low) {
    return cn_error(CN_ERR_VALUE, "%s: low > high (%" PRId64 ", %" PRId64 ")",
                    fn, low, high);
  }
  int bits = (int)cn_itemsize(dtype) * 8;
  int64_t dmin = cn_is_unsigned_int(dtype) ? 0
                 : bits == 64              ? INT64_MIN
                                           : -((int64_t)1 << (bits - 1));
  int64_t dmax = bits == 64                  ? INT64_MAX
                 : cn_is_unsigned_int(dtype) ? (((int64_t)1 << bits) - 1)
                                             : (((int64_t)1 << (bits - 1)) - 1);
  if (low < dmin || hi > dmax)
    return cn_error(CN_ERR_VALUE,
                    "%s: range [%" PRId64 ", %" PRId64
                    "] is out of bounds for %s",
                    fn, low, hi, cn_dtype_name(dtype));
  uint64_t m1 = (uint64_t)hi - (uint64_t)low;
  double p[3] = {0, 0, 0};
  memcpy(&p[0], &low, 8);
  memcpy(&p[1], &m1, 8);
  return fill(out, rng, CN_RNG_INTEGERS, ndim, shape, CN_INT64, dtype, p, NULL,
              fn);
}

cn_status cn_random_binomial(cn_array *out, cn_rng rng, int64_t n, double pr,
                             int32_t ndim, const int64_t *shape,
                             cn_dtype dtype) {
  const char *fn = "cn_random_binomial";
  CN_CHECK_OUT(out, fn);
  CHECK_RNG(rng, fn);
  cn_status st = int_dtype(&dtype, fn);
  if (st != CN_OK)
    return st;
  if (n < 0 || !(pr >= 0 && pr <= 1))
    return cn_error(CN_ERR_VALUE,
                    "%s: need n >= 0 and 0 <= p <= 1 (n %" PRId64 ", p %g)", fn,
                    n, pr);
  double p[3] = {(double)n, pr};
  return fill(out, rng, CN_RNG_BINOMIAL, ndim, shape, CN_INT64, dtype, p, NULL,
              fn);
}

cn_status cn_random_poisson(cn_array *out, cn_rng rng, double lam, int32_t ndim,
                            const int64_t *shape, cn_dtype dtype) {
  const char *fn = "cn_random_poisson";
  CN_CHECK_OUT(out, fn);
  CHECK_RNG(rng, fn);
  cn_status st = int_dtype(&dtype, fn);
  if (st != CN_OK)
    return st;
  if (!(lam >= 0) || lam > 1e10)
    return cn_error(CN_ERR_VALUE, "%s: lam must be in [0, 1e10], got %g", fn,
                    lam);
  double p[3] = {lam, 0};
  return fill(out, rng, CN_RNG_POISSON, ndim, shape, CN_INT64, dtype, p, NULL,
              fn);
}

/* ---- distributions by name, array-valued parameters --------------------- */

/* What a parameter must satisfy. */
enum {
  R_ANY,     /* anything (NaN gives NaN) */
  R_FINITE,  /* finite */
  R_NONNEG,  /* >= 0 */
  R_POS,     /* > 0 */
  R_PROB,    /* in [0, 1] */
  R_PROBPOS, /* in (0, 1] */
  R_LAM,     /* in [0, 1e10] */
  R_INT      /* int64 (integers' bounds: checked against the dtype) */
};

static const char *const k_rule_text[] = {"",
                                          "be finite",
                                          "be >= 0",
                                          "be > 0",
                                          "be in [0, 1]",
                                          "be in (0, 1]",
                                          "be in [0, 1e10]",
                                          ""};

typedef struct dist_spec {
  const char *name;
  int32_t id;
  int32_t nparams;
  bool is_int;
  const char *pname[3];
  uint8_t rule[3];
} dist_spec;

static const dist_spec k_dists[] = {
    {"uniform",
     CN_RNG_UNIFORM,
     2,
     false,
     {"low", "high"},
     {R_FINITE, R_FINITE}},
    {"normal", CN_RNG_NORMAL, 2, false, {"loc", "scale"}, {R_ANY, R_NONNEG}},
    {"lognormal",
     CN_RNG_LOGNORMAL,
     2,
     false,
     {"mean", "sigma"},
     {R_ANY, R_NONNEG}},
    {"exponential", CN_RNG_EXPONENTIAL, 1, false, {"scale"}, {R_NONNEG}},
    {"gamma", CN_RNG_GAMMA, 2, false, {"shape", "scale"}, {R_NONNEG, R_NONNEG}},
    {"beta", CN_RNG_BETA, 2, false, {"a", "b"}, {R_POS, R_POS}},
    {"chisquare", CN_RNG_CHISQUARE, 1, false, {"df"}, {R_POS}},
    {"laplace", CN_RNG_LAPLACE, 2, false, {"loc", "scale"}, {R_ANY, R_NONNEG}},
    {"logistic",
     CN_RNG_LOGISTIC,
     2,
     false,
     {"loc", "scale"},
     {R_ANY, R_NONNEG}},
    {"rayleigh", CN_RNG_RAYLEIGH, 1, false, {"scale"}, {R_NONNEG}},
    {"weibull", CN_RNG_WEIBULL, 1, false, {"a"}, {R_NONNEG}},
    {"pareto", CN_RNG_PARETO, 1, false, {"a"}, {R_POS}},
    {"triangular",
     CN_RNG_TRIANGULAR,
     3,
     false,
     {"left", "mode", "right"},
     {R_FINITE, R_FINITE, R_FINITE}},
    {"binomial", CN_RNG_BINOMIAL, 2, true, {"n", "p"}, {R_LAM, R_PROB}},
    {"poisson", CN_RNG_POISSON, 1, true, {"lam"}, {R_LAM}},
    {"geometric", CN_RNG_GEOMETRIC, 1, true, {"p"}, {R_PROBPOS}},
    {"integers", CN_RNG_INTEGERS, 2, true, {"low", "high"}, {R_INT, R_INT}},
};

static bool rule_ok(int rule, double x) {
  switch (rule) {
  case R_FINITE:
    return isfinite(x);
  case R_NONNEG:
    return x >= 0;
  case R_POS:
    return x > 0;
  case R_PROB:
    return x >= 0 && x <= 1;
  case R_PROBPOS:
    return x > 0 && x <= 1;
  case R_LAM:
    return x >= 0 && x <= 1e10;
  default:
    return true;
  }
}

/* Checks element i's parameters (host values) against spec. */
static cn_status check_params(const dist_spec *d, const double *q,
                              const int64_t *iq, int64_t i, cn_dtype dtype,
                              const char *fn) {
  for (int k = 0; k < d->nparams; k++)
    if (!rule_ok(d->rule[k], q[k]))
      return cn_error(
          CN_ERR_VALUE,
          "%s: %s: argument '%s' must %s (got %g at index %" PRId64 ")", fn,
          d->name, d->pname[k], k_rule_text[d->rule[k]], q[k], i);
  if (d->id == CN_RNG_UNIFORM && !isfinite(q[1] - q[0]))
    return cn_error(CN_ERR_VALUE,
                    "%s: uniform: high - low overflows (low %g, high %g at "
                    "index %" PRId64 ")",
                    fn, q[0], q[1], i);
  if (d->id == CN_RNG_TRIANGULAR &&
      !(q[0] <= q[1] && q[1] <= q[2] && q[0] < q[2]))
    return cn_error(CN_ERR_VALUE,
                    "%s: triangular: need left <= mode <= right and left < "
                    "right (got %g, %g, %g at index %" PRId64 ")",
                    fn, q[0], q[1], q[2], i);
  if (d->id == CN_RNG_INTEGERS) {
    int bits = (int)cn_itemsize(dtype) * 8;
    int64_t dmin = cn_is_unsigned_int(dtype) ? 0
                   : bits == 64              ? INT64_MIN
                                             : -((int64_t)1 << (bits - 1));
    int64_t dmax = bits == 64 ? INT64_MAX
                   : cn_is_unsigned_int(dtype)
                       ? (((int64_t)1 << bits) - 1)
                       : (((int64_t)1 << (bits - 1)) - 1);
    if (iq[0] > iq[1])
      return cn_error(CN_ERR_VALUE,
                      "%s: integers: low > high (%" PRId64 ", %" PRId64
                      " at index %" PRId64 ")",
                      fn, iq[0], iq[1], i);
    if (iq[0] < dmin || iq[1] > dmax)
      return cn_error(CN_ERR_VALUE,
                      "%s: integers: range [%" PRId64 ", %" PRId64
                      "] at index %" PRId64 " is out of bounds for %s",
                      fn, iq[0], iq[1], i, cn_dtype_name(dtype));
  }
  return CN_OK;
}

static void release3(cn_array_s **a) {
  for (int k = 0; k < 3; k++) {
    cn_array_release(a[k]);
    a[k] = NULL;
  }
}

cn_status cn_random_dist(cn_array *out, cn_rng rng, const char *dist,
                         cn_array p0, cn_array p1, cn_array p2, int32_t ndim,
                         const int64_t *shape, cn_dtype dtype) {
  const char *fn = "cn_random_dist";
  CN_CHECK_OUT(out, fn);
  CHECK_RNG(rng, fn);
  if (!dist)
    return cn_error(CN_ERR_VALUE, "%s: argument 'dist' is NULL", fn);
  const dist_spec *d = NULL;
  for (size_t k = 0; k < sizeof k_dists / sizeof k_dists[0]; k++)
    if (strcmp(k_dists[k].name, dist) == 0)
      d = &k_dists[k];
  if (!d)
    return cn_error(CN_ERR_VALUE, "%s: unknown distribution '%s'", fn, dist);
  cn_array ps[3] = {p0, p1, p2};
  static const char *const argn[3] = {"p0", "p1", "p2"};
  for (int k = 0; k < 3; k++) {
    if (k >= d->nparams) {
      if (ps[k])
        return cn_error(CN_ERR_VALUE,
                        "%s: %s takes %d parameter(s), but argument '%s' is "
                        "given",
                        fn, d->name, (int)d->nparams, argn[k]);
      continue;
    }
    if (!ps[k])
      return cn_error(CN_ERR_VALUE, "%s: %s: argument '%s' (%s) is NULL", fn,
                      d->name, argn[k], d->pname[k]);
    CN_CHECK_ARRAY(ps[k], fn, argn[k]);
    if (cn_is_complex(ps[k]->dtype) ||
        (d->rule[k] == R_INT && !cn_is_integer(ps[k]->dtype)))
      return cn_error(CN_ERR_TYPE, "%s: %s: argument '%s' has dtype %s", fn,
                      d->name, d->pname[k], cn_dtype_name(ps[k]->dtype));
  }
  cn_status st = d->is_int ? int_dtype(&dtype, fn) : float_dtype(&dtype, fn);
  if (st == CN_OK)
    st = check_shape(ndim, shape, fn);
  if (st != CN_OK)
    return st;
  /* Host copies: scalars (size 1) stay scalars; the others are broadcast
   * to shape and made contiguous (integers' bounds: both or neither). */
  bool any_array = false;
  for (int k = 0; k < d->nparams; k++)
    any_array |= ps[k]->size != 1;
  cn_array_s *h[3] = {NULL, NULL, NULL};
  bool per_elem[3] = {false, false, false};
  cn_dtype pdt = d->id == CN_RNG_INTEGERS ? CN_INT64 : CN_FLOAT64;
  for (int k = 0; k < d->nparams && st == CN_OK; k++) {
    cn_array_s *b = NULL, *hb = NULL;
    per_elem[k] = ps[k]->size != 1 || (d->id == CN_RNG_INTEGERS && any_array);
    st = cn_broadcast_to(&b, ps[k], ndim, shape);
    if (st == CN_OK)
      st = cn_to_host(&hb, per_elem[k] ? b : ps[k]);
    if (st == CN_OK)
      st = cn_as_contig(&h[k], hb, pdt);
    cn_array_release(b);
    cn_array_release(hb);
  }
  if (st != CN_OK) {
    release3(h);
    return cn_error_prefix(st, fn);
  }
  /* Checks every element (scalars once). */
  int64_t n = 1;
  for (int k = 0; k < d->nparams; k++)
    if (per_elem[k])
      n = h[k]->size;
  double q[3] = {0, 0, 0};
  int64_t iq[3] = {0, 0, 0};
  for (int64_t i = 0; i < n && st == CN_OK; i++) {
    for (int k = 0; k < d->nparams; k++) {
      int64_t j = per_elem[k] ? i : 0;
      if (pdt == CN_INT64) {
        iq[k] = ((const int64_t *)h[k]->data)[j];
        q[k] = (double)iq[k];
      } else {
        q[k] = ((const double *)h[k]->data)[j];
      }
    }
    st = check_params(d, q, iq, i, dtype, fn);
  }
  /* Scalar parameters (INTEGERS: low, m - 1 as bits). */
  double params[3] = {0, 0, 0};
  for (int k = 0; k < d->nparams && st == CN_OK; k++)
    if (!per_elem[k] && h[k]->size > 0)
      params[k] = pdt == CN_INT64 ? (double)((const int64_t *)h[k]->data)[0]
                                  : ((const double *)h[k]->data)[0];
  if (st == CN_OK && d->id == CN_RNG_INTEGERS && !any_array) {
    int64_t lo = ((const int64_t *)h[0]->data)[0];
    uint64_t m1 = (uint64_t)((const int64_t *)h[1]->data)[0] - (uint64_t)lo;
    memcpy(&params[0], &lo, 8);
    memcpy(&params[1], &m1, 8);
  }
  /* Per-element parameters go to the device of the result. */
  cn_array_s *pa[3] = {NULL, NULL, NULL};
  for (int k = 0; k < d->nparams && st == CN_OK; k++)
    if (per_elem[k])
      st = cn_to_active(&pa[k], h[k]);
  release3(h);
  if (st == CN_OK)
    st = fill(out, rng, d->id, ndim, shape, d->is_int ? CN_INT64 : dtype, dtype,
              params, any_array ? (const cn_array_s *const *)pa : NULL, fn);
  release3(pa);
  return st;
}

/* ---- sequential draws on the host -----------------------------------------
 */

/* Consumes the generator's blocks in order (4 words each); the state's
 * counter advances by the blocks used when the stream is closed. */
/* Blocks a host stream makes at a time, ahead of use: a block counts as
 * used once one of its words is read. */
#define HS_BLOCKS 64
typedef struct host_stream {
  cn_rng rng;
  uint32_t ctr[4]; /* the next block to make */
  uint32_t w[4 * HS_BLOCKS];
  int pos, end;
  uint64_t made;
} host_stream;

static void hs_open(host_stream *s, cn_rng rng) {
  pthread_mutex_lock(&rng->lock);
  s->rng = rng;
  memcpy(s->ctr, rng->ctr, sizeof s->ctr);
  s->pos = s->end = 0;
  s->made = 0;
}
static void hs_close(host_stream *s) {
  cn_philox_add(s->rng->ctr, s->made - (uint64_t)((s->end - s->pos) / 4));
  pthread_mutex_unlock(&s->rng->lock);
}
static void hs_refill(host_stream *s) {
  if (s->ctr[3] == 0) {
    cn_cpu_philox_blocks(s->w, HS_BLOCKS, s->rng->key, s->ctr, 0);
    cn_philox_add(s->ctr, HS_BLOCKS);
  } else {
    for (int b = 0; b < HS_BLOCKS; b++) {
      cn_philox4x32_10(s->w + 4 * b, s->ctr, s->rng->key);
      cn_philox_add(s->ctr, 1);
    }
  }
  s->made += HS_BLOCKS;
  s->pos = 0;
  s->end = 4 * HS_BLOCKS;
}
static inline uint32_t hs_u32(host_stream *s) {
  if (s->pos == s->end)
    hs_refill(s);
  return s->w[s->pos++];
}
static inline uint64_t hs_u64(host_stream *s) {
  uint64_t lo = hs_u32(s);
  return lo | ((uint64_t)hs_u32(s) << 32);
}
static double hs_double(host_stream *s) {
  return (double)(hs_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}
/* Lemire's unbiased integer in [0, m), m >= 1. */
static inline uint64_t hs_bounded(host_stream *s, uint64_t m) {
  unsigned __int128 prod = (unsigned __int128)hs_u64(s) * m;
  uint64_t low = (uint64_t)prod;
  if (low < m) {
    uint64_t t = (0 - m) % m;
    while (low < t) {
      prod = (unsigned __int128)hs_u64(s) * m;
      low = (uint64_t)prod;
    }
  }
  return (uint64_t)(prod >> 64);
}

/* Fisher-Yates permutation of arange(n) into p. */
static void permute(host_stream *s, int64_t *p, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    p[i] = i;
  for (int64_t i = n - 1; i > 0; i--) {
    int64_t j = (int64_t)hs_bounded(s, (uint64_t)i + 1);
    int64_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static cn_status new_index(cn_array_s **out, int32_t ndim,
                           const int64_t *shape) {
  return cn_array_new(out, cn_cpu_backend(), 0, CN_INT64, ndim, shape,
                      CN_ORDER_C);
}

typedef struct wkey {
  double k;
  int64_t i;
} wkey;
static int wkey_desc(const void *x, const void *y) {
  const wkey *a = x, *b = y;
  return a->k > b->k ? -1 : (a->k < b->k ? 1 : (a->i > b->i) - (a->i < b->i));
}

/* Validates choice's p as NumPy's Generator.choice does and returns the
 * weights normalised to sum 1 in *w (owned by the caller): 1-d of the
 * population's size, finite, non-negative, summing to 1 within
 * sqrt(eps) of float64 or of p's own float dtype (Kahan sum, as NumPy),
 * and at least need non-zero entries (need > 0 without replacement). */
static cn_status choice_weights(double **w, const cn_array_s *p, int64_t pop,
                                int64_t need, const char *fn) {
  *w = NULL;
  if (p->ndim != 1)
    return cn_error(CN_ERR_VALUE, "%s: p must be 1-dimensional (got %d-d)", fn,
                    (int)p->ndim);
  if (p->size != pop)
    return cn_error(CN_ERR_VALUE,
                    "%s: a and p must have same size (%" PRId64 " and %" PRId64
                    ")",
                    fn, pop, p->size);
  double atol = sqrt(p->dtype == CN_FLOAT32 ? (double)FLT_EPSILON : DBL_EPSILON);
  cn_array_s *hp = NULL, *cp = NULL;
  cn_status st = cn_to_host(&hp, (cn_array)p);
  if (st == CN_OK)
    st = cn_as_contig(&cp, hp, CN_FLOAT64);
  cn_array_release(hp);
  if (st != CN_OK)
    return st;
  const double *v = (const double *)cp->data;
  double sum = 0, comp = 0;
  int64_t nonzero = 0;
  for (int64_t i = 0; i < pop && st == CN_OK; i++)
    if (!isfinite(v[i]))
      st = cn_error(CN_ERR_VALUE,
                    "%s: probabilities contain NaN or infinity (p[%" PRId64
                    "] = %g)",
                    fn, i, v[i]);
  for (int64_t i = 0; i < pop && st == CN_OK; i++) {
    if (v[i] < 0) {
      st = cn_error(CN_ERR_VALUE,
                    "%s: probabilities are not non-negative (p[%" PRId64
                    "] = %g)",
                    fn, i, v[i]);
      break;
    }
    double y = v[i] - comp, t = sum + y;
    comp = (t - sum) - y;
    sum = t;
    nonzero += v[i] > 0;
  }
  if (st == CN_OK && !(fabs(sum - 1.0) <= atol))
    st = cn_error(CN_ERR_VALUE,
                  "%s: probabilities do not sum to 1 (sum %.17g, tolerance "
                  "%.3g)",
                  fn, sum, atol);
  if (st == CN_OK && nonzero < need)
    st = cn_error(CN_ERR_VALUE,
                  "%s: fewer non-zero entries in p than size (%" PRId64
                  " < %" PRId64 ")",
                  fn, nonzero, need);
  double *out = NULL;
  if (st == CN_OK) {
    out = cn_malloc(sizeof(double) * (size_t)(pop > 0 ? pop : 1));
    if (!out)
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
  }
  for (int64_t i = 0; st == CN_OK && i < pop; i++)
    out[i] = v[i] / sum;
  cn_array_release(cp);
  *w = out;
  return st;
}

cn_status cn_random_choice(cn_array *out, cn_rng rng, cn_array pool, int64_t pop,
                           int32_t ndim, const int64_t *shape, int32_t replace,
                           cn_array p) {
  const char *fn = "cn_random_choice";
  CN_CHECK_OUT(out, fn);
  CHECK_RNG(rng, fn);
  cn_status st = check_shape(ndim, shape, fn);
  if (st != CN_OK)
    return st;
  if (pool) {
    CN_CHECK_ARRAY(pool, fn, "a");
    if (pool->ndim != 1)
      return cn_error(CN_ERR_VALUE, "%s: a must be 1-dimensional, got %d-d", fn,
                      (int)pool->ndim);
    pop = pool->size;
  } else if (pop < 0) {
    return cn_error(CN_ERR_VALUE,
                    "%s: population size must be >= 0, got %" PRId64, fn, pop);
  }
  int64_t k = 1;
  for (int32_t d = 0; d < ndim; d++)
    k *= shape[d];
  if (pop == 0 && k > 0)
    return cn_error(CN_ERR_VALUE,
                    "%s: a cannot be empty unless no samples "
                    "are taken",
                    fn);
  if (!replace && k > pop)
    return cn_error(CN_ERR_VALUE,
                    "%s: cannot take a larger sample than population when "
                    "replace is False (%" PRId64 " > %" PRId64 ")",
                    fn, k, pop);
  double *w = NULL;
  if (p) {
    CN_CHECK_ARRAY(p, fn, "p");
    st = choice_weights(&w, p, pop, replace ? 0 : k, fn);
    if (st != CN_OK)
      return st;
  }
  cn_array_s *idx = NULL;
  st = new_index(&idx, ndim, shape);
  if (st != CN_OK) {
    free(w);
    return st;
  }
  int64_t *o = (int64_t *)idx->data;
  host_stream s;
  hs_open(&s, rng);
  if (replace && !w) {
    for (int64_t i = 0; i < k; i++)
      o[i] = (int64_t)hs_bounded(&s, (uint64_t)pop);
  } else if (replace) {
    /* Inverse CDF by binary search; the cdf ends at exactly 1. */
    double acc = 0;
    for (int64_t i = 0; i < pop; i++) {
      acc += w[i];
      w[i] = acc;
    }
    w[pop - 1] = 1.0;
    for (int64_t i = 0; i < k; i++) {
      double u = hs_double(&s);
      int64_t lo = 0, hi = pop - 1;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (w[mid] > u)
          hi = mid;
        else
          lo = mid + 1;
      }
      o[i] = lo;
    }
  } else if (!w) {
    int64_t *perm = cn_malloc(sizeof(int64_t) * (size_t)(pop > 0 ? pop : 1));
    if (!perm) {
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    } else {
      /* Partial Fisher-Yates: the first k positions. */
      for (int64_t i = 0; i < pop; i++)
        perm[i] = i;
      for (int64_t i = 0; i < k; i++) {
        int64_t j = i + (int64_t)hs_bounded(&s, (uint64_t)(pop - i));
        int64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        o[i] = perm[i];
      }
      free(perm);
    }
  } else {
    wkey *keys = cn_malloc(sizeof(wkey) * (size_t)pop);
    if (!keys) {
      st = cn_error(CN_ERR_MEMORY, "%s: out of memory", fn);
    } else {
      /* Efraimidis-Spirakis: the k largest log(u) / w. */
      for (int64_t i = 0; i < pop; i++) {
        double u = hs_double(&s);
        keys[i].k = w[i] > 0 ? log(u > 0 ? u : 1e-300) / w[i] : -INFINITY;
        keys[i].i = i;
      }
      qsort(keys, (size_t)pop, sizeof(wkey), wkey_desc);
      for (int64_t i = 0; i < k; i++)
        o[i] = keys[i].i;
      free(keys);
    }
  }
  hs_close(&s);
  free(w);
  cn_array_s *res = NULL, *dev = NULL;
  if (st == CN_OK && !pool) {
    st = cn_to_active(&res, idx);
  } else if (st == CN_OK) {
    cn_array_s *flat = NULL;
    int64_t kk = k;
    st = cn_idx_to_device_of(&dev, idx, pool);
    if (st == CN_OK)
      st = cn_contig_view(&flat, dev, 1, &kk);
    cn_array_s *g = NULL;
    if (st == CN_OK)
      st = cn_take(&g, pool, flat, 0, CN_INDEX_RAISE, NULL);
    if (st == CN_OK)
      st = cn_reshape(&res, g, ndim, shape, CN_ORDER_C);
    cn_array_release(flat);
    cn_array_release(g);
  }
  cn_array_release(idx);
  cn_array_release(dev);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = res;
  return CN_OK;
}

/* Permutation indices of length n from rng (host). */
static cn_status perm_index(cn_array_s **out, cn_rng rng, int64_t n) {
  cn_array_s *idx = NULL;
  cn_status st = new_index(&idx, 1, &n);
  if (st != CN_OK)
    return st;
  host_stream s;
  hs_open(&s, rng);
  permute(&s, (int64_t *)idx->data, n);
  hs_close(&s);
  *out = idx;
  return CN_OK;
}

cn_status cn_random_permutation(cn_array *out, cn_rng rng, cn_array pool,
                                int64_t n) {
  const char *fn = "cn_random_permutation";
  CN_CHECK_OUT(out, fn);
  CHECK_RNG(rng, fn);
  if (pool) {
    CN_CHECK_ARRAY(pool, fn, "a");
    if (pool->ndim == 0)
      return cn_error(CN_ERR_VALUE, "%s: a must be at least 1-d", fn);
    n = pool->shape[0];
  } else if (n < 0) {
    return cn_error(CN_ERR_VALUE, "%s: negative length %" PRId64, fn, n);
  }
  cn_array_s *idx = NULL, *dev = NULL, *res = NULL;
  cn_status st = perm_index(&idx, rng, n);
  if (st == CN_OK && !pool)
    st = cn_to_active(&res, idx);
  else if (st == CN_OK) {
    st = cn_idx_to_device_of(&dev, idx, pool);
    if (st == CN_OK)
      st = cn_take(&res, pool, dev, 0, CN_INDEX_RAISE, NULL);
  }
  cn_array_release(idx);
  cn_array_release(dev);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  *out = res;
  return CN_OK;
}

cn_status cn_random_shuffle(cn_rng rng, cn_array a) {
  const char *fn = "cn_random_shuffle";
  CHECK_RNG(rng, fn);
  CN_CHECK_ARRAY(a, fn, "a");
  if (a->ndim == 0)
    return cn_error(CN_ERR_VALUE, "%s: a must be at least 1-d", fn);
  if (!cn_array_writeable(a))
    return cn_error(CN_ERR_VALUE, "%s: argument 'a' is read-only", fn);
  cn_array_s *p = NULL;
  cn_status st = cn_random_permutation(&p, rng, a, 0);
  if (st != CN_OK)
    return cn_error_prefix(st, fn);
  st = cn_assign(a, p);
  cn_array_release(p);
  return st;
}

/* ---- legacy global generator -----------------------------------------------
 */

static pthread_mutex_t g_legacy_lock = PTHREAD_MUTEX_INITIALIZER;
static cn_rng g_legacy;

static cn_status legacy(cn_rng *out) {
  pthread_mutex_lock(&g_legacy_lock);
  cn_status st = CN_OK;
  if (!g_legacy)
    st = cn_rng_create(&g_legacy, 0);
  if (st == CN_OK) {
    cn_rng_retain(g_legacy);
    *out = g_legacy;
  }
  pthread_mutex_unlock(&g_legacy_lock);
  return st;
}

cn_status cn_random_seed(uint64_t seed) {
  cn_rng fresh = NULL;
  cn_status st = cn_rng_create(&fresh, seed);
  if (st != CN_OK)
    return st;
  pthread_mutex_lock(&g_legacy_lock);
  cn_rng old = g_legacy;
  g_legacy = fresh;
  pthread_mutex_unlock(&g_legacy_lock);
  cn_rng_release(old);
  return CN_OK;
}

cn_status cn_rand(cn_array *out, int32_t ndim, const int64_t *shape) {
  CN_CHECK_OUT(out, "cn_rand");
  cn_rng r = NULL;
  cn_status st = legacy(&r);
  if (st != CN_OK)
    return st;
  st = cn_random_random(out, r, ndim, shape, CN_FLOAT64);
  cn_rng_release(r);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_rand");
}

cn_status cn_randn(cn_array *out, int32_t ndim, const int64_t *shape) {
  CN_CHECK_OUT(out, "cn_randn");
  cn_rng r = NULL;
  cn_status st = legacy(&r);
  if (st != CN_OK)
    return st;
  st = cn_random_standard_normal(out, r, ndim, shape, CN_FLOAT64);
  cn_rng_release(r);
  return st == CN_OK ? st : cn_error_prefix(st, "cn_randn");
}
