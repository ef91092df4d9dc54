/* CPU fill kernel of the counter-based generator: the mapping from counters
 * to variates is specified in core/philox.h and computed by the samplers of
 * core/random_samplers.h, shared with the CUDA plugin; NORMAL fills have an
 * AVX2 + SLEEF path here. Threads split the counter space, so results do
 * not depend on the thread count. */
#include <immintrin.h>
#include <math.h>
#include <string.h>

#include "sleef_x86.h"

#include "../random_samplers.h"
#include "cpu.h"

/* Normals of 4 consecutive blocks (8 values) starting at counter block
 * `first`, with AVX2 Philox lanes and SLEEF's 1-ulp log and sincos. Every
 * block of a NORMAL fill goes through here (a short last group is computed
 * whole and truncated), so a value never depends on how a fill was split. */
__attribute__((target("avx2,fma"))) static void
normal_group4(double *out8, const uint32_t key[2], const uint32_t counter[4],
              uint64_t first) {
  /* Lane j holds block first + j, one 32-bit counter word per 64-bit
   * element, so _mm256_mul_epu32 gives Philox's 32x32->64 products. */
  uint64_t w[4][4];
  for (int j = 0; j < 4; j++) {
    uint32_t c[4];
    memcpy(c, counter, sizeof c);
    c[3] = 0;
    cn_philox_add(c, first + (uint64_t)j);
    for (int t = 0; t < 4; t++)
      w[t][j] = c[t];
  }
  __m256i c0 = _mm256_loadu_si256((const __m256i *)w[0]);
  __m256i c1 = _mm256_loadu_si256((const __m256i *)w[1]);
  __m256i c2 = _mm256_loadu_si256((const __m256i *)w[2]);
  __m256i c3 = _mm256_loadu_si256((const __m256i *)w[3]);
  const __m256i m0 = _mm256_set1_epi64x(CN_PHILOX_M0);
  const __m256i m1 = _mm256_set1_epi64x(CN_PHILOX_M1);
  const __m256i lo32 = _mm256_set1_epi64x(0xffffffffll);
  uint32_t k0 = key[0], k1 = key[1];
  for (int r = 0; r < 10; r++) {
    __m256i p0 = _mm256_mul_epu32(c0, m0);
    __m256i p1 = _mm256_mul_epu32(c2, m1);
    __m256i n0 =
        _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), c1),
                         _mm256_set1_epi64x(k0));
    __m256i n2 =
        _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), c3),
                         _mm256_set1_epi64x(k1));
    c1 = _mm256_and_si256(p1, lo32);
    c3 = _mm256_and_si256(p0, lo32);
    c0 = n0;
    c2 = n2;
    k0 += CN_PHILOX_W0;
    k1 += CN_PHILOX_W1;
  }
  /* ua = w1:w0, ub = w3:w2, then their top 53 bits. */
  __m256i ua =
      _mm256_srli_epi64(_mm256_or_si256(c0, _mm256_slli_epi64(c1, 32)), 11);
  __m256i ub =
      _mm256_srli_epi64(_mm256_or_si256(c2, _mm256_slli_epi64(c3, 32)), 11);
  uint64_t a4[4], b4[4];
  _mm256_storeu_si256((__m256i *)a4, ua);
  _mm256_storeu_si256((__m256i *)b4, ub);
  double u1[4], th[4];
  for (int j = 0; j < 4; j++) {
    u1[j] = (double)a4[j] * CN_RNG_TWO_M53 + CN_RNG_TWO_M53;
    th[j] = 2.0 * CN_RNG_PI * ((double)b4[j] * CN_RNG_TWO_M53);
  }
  __m256d lg = Sleef_logd4_u10avx2(_mm256_loadu_pd(u1));
  __m256d rr = _mm256_sqrt_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), lg));
  Sleef___m256d_2 sc = Sleef_sincosd4_u10avx2(_mm256_loadu_pd(th));
  double r4[4], s4[4], c4[4];
  _mm256_storeu_pd(r4, rr);
  _mm256_storeu_pd(s4, sc.x);
  _mm256_storeu_pd(c4, sc.y);
  for (int j = 0; j < 4; j++) {
    out8[2 * j] = r4[j] * c4[j];
    out8[2 * j + 1] = r4[j] * s4[j];
  }
}

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

#define ITEMS_PER_CHUNK 2048

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
      normal_group4(v, key, counter, (uint64_t)g * 4);
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
