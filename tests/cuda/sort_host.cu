// Host emulation of the CUDA sort: the kernels' code of prelude/sort.cuh
// (with the key maps of core/sort_key_bits.h it embeds), compiled by nvcc
// as host code, run on the CPU block by block and thread by thread within
// each barrier-separated step, in the order of the plugin's plan
// (cn_sort_plan_run of core/cuda/sort_plan.c). Its sorted values and
// positions must equal the CPU backend's cn_sort / cn_argsort bit for bit,
// for every dtype, with NaN, inf, -0.0 and many duplicates (stability), one
// or several lanes, sorted together or lane by lane, and inputs that the
// plugin first copies to lane-major order. What this cannot see: the GPU's
// own scheduling of threads within a step (the steps only share data
// through shared memory after a barrier, or through atomics); the warp
// shuffles of the key-bits kernel (an AND/OR fold, emulated by one thread);
// tests/gpu/gpu_check.c runs the plugin itself on a GPU.
// The searchsorted kernel's search (prelude/search.cuh) is checked here
// too, one needle after another, against the CPU backend's
// cn_searchsorted: both sides, every dtype, NaN / inf / -0.0 needles,
// needles equal to the sorted elements (duplicates), empty either side;
// and the quantile kernel over sorted lanes against the CPU's quantiles.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cunumpy/cunumpy.h>

__host__ __device__ inline float cn_host_i2f(int i) {
  float f;
  memcpy(&f, &i, 4);
  return f;
}
__host__ __device__ inline double cn_host_l2d(long long i) {
  double d;
  memcpy(&d, &i, 8);
  return d;
}
__host__ __device__ inline int cn_host_f2i(float f) {
  int i;
  memcpy(&i, &f, 4);
  return i;
}
__host__ __device__ inline long long cn_host_d2l(double d) {
  long long i;
  memcpy(&i, &d, 8);
  return i;
}
#define CN_DEV __host__ __device__ inline
#define CN_SHARED static
#define CN_SYNC() (void)0
#define CN_I2F cn_host_i2f
#define CN_L2D cn_host_l2d
#define CN_F2I cn_host_f2i
#define CN_D2L cn_host_d2l
#define CN_STEP_BEGIN(t, NT) for (int t = 0; t < (NT); t++) {
#define CN_STEP_END }
#define CN_TLOCAL(NT) (NT)
#define CN_TL(t) (t)
#define CN_ATOM_ADD(p, v) (*(p) += (v))
#define CN_ATOM_OR(p, v) (*(p) |= (v))
#define CN_ATOM_AND(p, v) (*(p) &= (v))
#define CN_POPC(x) __builtin_popcount(x)
#include "prelude.cuh"

#include "cuda/sort_plan.h"

static int g_fail, g_cases;

#define OK(e)                                                                  \
  do {                                                                         \
    cn_status st_ = (e);                                                       \
    if (st_ != CN_OK) {                                                        \
      printf("%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #e,                  \
             cn_status_name(st_), cn_last_error());                            \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

// The emulated device state of one sort.
template <int KIND, class U, bool CPLX> struct emu {
  const U *src;
  std::vector<cn_u64> keys[2];
  std::vector<long long> pos[2];
  std::vector<long long> counts, totals;
  long long n, tiles;
  bool canon;

  static int keys_step(void *ctx, int32_t word, int64_t first, int64_t len,
                       bool init, int cur) {
    emu *e = (emu *)ctx;
    for (long long i = 0; i < len; i++)
      cn_sort_keys_at<KIND, U, CPLX>(e->src, e->pos[cur].data() + first,
                                     e->keys[cur].data() + first, first, e->n,
                                     word, e->canon, init, i);
    return 0;
  }
  static int pass_step(void *ctx, int32_t shift, int64_t first, int64_t len,
                       int cur) {
    emu *e = (emu *)ctx;
    const cn_u64 *kin = e->keys[cur].data() + first;
    const long long *pin = e->pos[cur].data() + first;
    cn_u64 *kout = e->keys[cur ^ 1].data() + first;
    long long *pout = e->pos[cur ^ 1].data() + first;
    for (long long b = 0; b < e->tiles; b++)
      cn_sort_hist_block<CN_SORT_RADIX, CN_SORT_THREADS, CN_SORT_ITEMS>(
          kin, len, shift, e->tiles, e->counts.data(), b);
    for (long long d = 0; d < CN_SORT_RADIX; d++)
      cn_sort_scan_block<CN_SORT_THREADS>(e->counts.data(), e->tiles,
                                          e->totals.data(), d);
    for (long long b = 0; b < e->tiles; b++)
      cn_sort_scatter_block<CN_SORT_RADIX, CN_SORT_THREADS, CN_SORT_ITEMS>(
          kin, pin, kout, pout, len, shift, e->tiles, e->counts.data(),
          e->totals.data(), b);
    return 0;
  }
};

// Sorts a (on the CPU backend) along axis as the plugin would, into vals
// (C order, a's shape; NULL: not wanted) and perm.
template <int KIND, class U, bool CPLX>
static void emulate(cn_array a, int32_t axis, void *vals, long long *perm) {
  int32_t nd;
  OK(cn_array_ndim(&nd, a));
  int64_t shape[CN_MAX_DIMS], strides[CN_MAX_DIMS], isz;
  OK(cn_array_shape(shape, CN_MAX_DIMS, a));
  OK(cn_array_strides(strides, CN_MAX_DIMS, a));
  OK(cn_array_itemsize(&isz, a));
  cn_sort_plan p;
  if (!cn_sort_plan_make(&p, nd, shape, strides, axis, isz, CPLX)) {
    printf("FAIL: plan refused\n");
    g_fail++;
    return;
  }
  // the plugin's lane-major copy (an assign on the GPU)
  cn_array lm;
  int32_t src_ax = axis, dst_ax = nd - 1;
  OK(cn_moveaxis(&lm, a, 1, &src_ax, &dst_ax));
  std::vector<U> src((size_t)p.total * (CPLX ? 2 : 1) + 1);
  OK(cn_copy_to_buffer(src.data(), p.total * isz, lm, CN_ORDER_C));
  cn_array_release(lm);
  emu<KIND, U, CPLX> e;
  e.src = src.data();
  for (int i = 0; i < 2; i++) {
    e.keys[i].assign((size_t)p.total, 0xdeadbeefull);
    e.pos[i].assign((size_t)p.total, -7);
  }
  e.counts.assign((size_t)(CN_SORT_RADIX * p.tiles), -1);
  e.totals.assign(CN_SORT_RADIX, -1);
  e.n = p.n;
  e.tiles = p.tiles;
  e.canon = perm != NULL || CPLX;
  cn_u64 acc[8] = {~0ull, ~0ull, ~0ull, ~0ull, 0, 0, 0, 0};
  cn_sort_bits_run<KIND, U, CPLX>(e.src, p.total, p.n, e.canon, 0, 1, acc);
  uint64_t andb[4], orb[4];
  for (int w = 0; w < 4; w++)
    andb[w] = acc[w], orb[w] = acc[4 + w];
  cn_sort_plan_passes(&p, andb, orb);
  static const cn_sort_steps steps = {emu<KIND, U, CPLX>::keys_step,
                                      emu<KIND, U, CPLX>::pass_step};
  if (cn_sort_plan_run(&p, &steps, &e) != 0) {
    printf("FAIL: a step failed\n");
    g_fail++;
  }
  const long long *sorted = e.pos[p.result_in_alt ? 1 : 0].data();
  for (long long q = 0; q < p.total; q++)
    cn_sort_out_at<KIND, U, CPLX>(e.src, sorted, p.n, p.q, (U *)vals, perm,
                                  !CPLX && perm == NULL, q);
}

static unsigned long long g_rng = 88172645463325252ull;
static unsigned long long rnd() {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

// Values for dtype dt: few distinct ones (duplicates), specials for floats.
static void fill(void *buf, cn_dtype dt, int64_t count, int distinct) {
  static const double fspec[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 0.0,
                                 1e-310, -1e-310, 1.5, -2.25, 3e38, -3e38};
  const int nspec = (int)(sizeof fspec / sizeof fspec[0]);
  int64_t is = cn_dtype_itemsize(dt);
  char *b = (char *)buf;
  for (int64_t i = 0; i < count; i++) {
    unsigned long long r = rnd();
    long long v = (long long)(r % (unsigned)distinct) - distinct / 2;
    switch (dt) {
    case CN_BOOL:
      b[i] = (char)(r & 1);
      break;
    case CN_FLOAT32: {
      float f = (r >> 40) % 3 == 0 ? (float)fspec[r % nspec] : (float)v * 0.5f;
      memcpy(b + 4 * i, &f, 4);
      break;
    }
    case CN_FLOAT64: {
      double f = (r >> 40) % 3 == 0 ? fspec[r % nspec] : (double)v * 0.25;
      memcpy(b + 8 * i, &f, 8);
      break;
    }
    case CN_COMPLEX64: {
      float f[2];
      for (int k = 0; k < 2; k++) {
        unsigned long long s = rnd();
        f[k] = (s >> 40) % 4 == 0 ? (float)fspec[s % nspec]
                                  : (float)((long long)(s % 5) - 2);
      }
      memcpy(b + 8 * i, f, 8);
      break;
    }
    case CN_COMPLEX128: {
      double f[2];
      for (int k = 0; k < 2; k++) {
        unsigned long long s = rnd();
        f[k] = (s >> 40) % 4 == 0 ? fspec[s % nspec]
                                  : (double)((long long)(s % 5) - 2);
      }
      memcpy(b + 16 * i, f, 16);
      break;
    }
    default: { // integers: small values around 0 and the extremes
      unsigned long long u = (r >> 32) % 8 == 0 ? (r & 1 ? ~0ull : 1ull << (8 * is - 1))
                                              : (unsigned long long)v;
      memcpy(b + is * i, &u, (size_t)is); // little-endian: the low bytes
    }
    }
  }
}

// One case: a of shape (and optionally transposed / reversed), along axis.
template <int KIND, class U, bool CPLX>
static void check(cn_dtype dt, std::vector<int64_t> shape, int32_t axis,
                  int view, int distinct) {
  g_cases++;
  int64_t total = 1, is = cn_dtype_itemsize(dt);
  for (int64_t e : shape)
    total *= e;
  std::vector<char> host((size_t)(total * is) + 16);
  fill(host.data(), dt, total, distinct);
  cn_array base, a;
  OK(cn_from_host(&base, host.data(), 0, total * is, (int32_t)shape.size(),
                  shape.data(), NULL, dt));
  if (view == 1)
    OK(cn_transpose(&a, base));
  else if (view == 2) {
    int32_t ax = axis;
    OK(cn_flip(&a, base, 1, &ax));
  } else
    a = base;
  int32_t ax = axis < 0 ? axis + (int32_t)shape.size() : axis;
  cn_array cs, ca;
  OK(cn_sort(&cs, a, ax));
  OK(cn_argsort(&ca, a, ax));
  std::vector<char> want_v((size_t)(total * is) + 16), got_v(want_v.size()),
      got_v2(want_v.size());
  std::vector<long long> want_p((size_t)total + 1), got_p(want_p.size());
  OK(cn_copy_to_buffer(want_v.data(), total * is, cs, CN_ORDER_C));
  OK(cn_copy_to_buffer(want_p.data(), total * 8, ca, CN_ORDER_C));
  emulate<KIND, U, CPLX>(a, ax, got_v.data(), NULL);      // cn_sort
  emulate<KIND, U, CPLX>(a, ax, got_v2.data(), got_p.data()); // both
  std::vector<char> arg_v(want_v.size());
  std::vector<long long> only_p(want_p.size());
  emulate<KIND, U, CPLX>(a, ax, NULL, only_p.data()); // cn_argsort
  const char *name = cn_dtype_name(dt);
  if (memcmp(want_v.data(), got_v.data(), (size_t)(total * is)) != 0) {
    printf("FAIL: sort %s shape[0] %lld axis %d view %d: values differ\n",
           name, (long long)shape[0], axis, view);
    g_fail++;
  }
  if (memcmp(want_p.data(), got_p.data(), (size_t)total * 8) != 0 ||
      memcmp(want_p.data(), only_p.data(), (size_t)total * 8) != 0) {
    printf("FAIL: argsort %s shape[0] %lld axis %d view %d: positions "
           "differ\n",
           name, (long long)shape[0], axis, view);
    g_fail++;
  }
  // values gathered with positions: a's own elements in argsort order
  cn_array tk;
  OK(cn_take_along_axis(&tk, a, ca, ax));
  OK(cn_copy_to_buffer(arg_v.data(), total * is, tk, CN_ORDER_C));
  cn_array_release(tk);
  if (memcmp(arg_v.data(), got_v2.data(), (size_t)(total * is)) != 0) {
    printf("FAIL: sort+argsort %s axis %d view %d: values differ\n", name,
           axis, view);
    g_fail++;
  }
  // stability, independently: along each lane, equal elements (bitwise)
  // keep increasing positions
  int64_t n = shape[ax], q = 1;
  for (size_t d = (size_t)ax + 1; d < shape.size(); d++)
    q *= shape[d];
  for (int64_t lane = 0; n > 1 && lane < total / n; lane++)
    for (int64_t i = 1; i < n; i++) {
      int64_t o1 = cn_sort_out_index(lane, i - 1, n, q),
              o2 = cn_sort_out_index(lane, i, n, q);
      if (memcmp(&arg_v[(size_t)(o1 * is)], &arg_v[(size_t)(o2 * is)],
                 (size_t)is) == 0 &&
          got_p[(size_t)o1] >= got_p[(size_t)o2]) {
        printf("FAIL: %s not stable at lane %lld, %lld\n", name,
               (long long)lane, (long long)i);
        g_fail++;
        lane = total;
        break;
      }
    }
  cn_array_release(cs);
  cn_array_release(ca);
  if (view)
    cn_array_release(a);
  cn_array_release(base);
}

// searchsorted of na sorted values (distinct of them at most) for nv
// random needles followed by every sorted value, both sides.
template <int KIND, class U, bool CPLX>
static void search_check(cn_dtype dt, int64_t na, int64_t nv, int distinct) {
  g_cases++;
  int64_t is = cn_dtype_itemsize(dt), m = nv + na;
  std::vector<char> ha((size_t)(na * is) + 16), hv((size_t)(m * is) + 16);
  fill(ha.data(), dt, na, distinct);
  fill(hv.data(), dt, nv, distinct + 3);
  cn_array a0, a, v;
  OK(cn_from_host(&a0, ha.data(), 0, na * is, 1, &na, NULL, dt));
  OK(cn_sort(&a, a0, 0));
  OK(cn_copy_to_buffer(ha.data(), na * is, a, CN_ORDER_C));
  memcpy(hv.data() + nv * is, ha.data(), (size_t)(na * is));
  OK(cn_from_host(&v, hv.data(), 0, m * is, 1, &m, NULL, dt));
  for (int right = 0; right < 2; right++) {
    cn_array r;
    OK(cn_searchsorted(&r, a, v, right ? CN_SIDE_RIGHT : CN_SIDE_LEFT, NULL));
    std::vector<long long> want((size_t)m + 1);
    OK(cn_copy_to_buffer(want.data(), m * 8, r, CN_ORDER_C));
    cn_array_release(r);
    for (int64_t j = 0; j < m; j++) {
      long long got = cn_search_at<KIND, U, CPLX>(
          (const U *)ha.data(), na, (const U *)hv.data(), j, right != 0);
      if (got != want[(size_t)j]) {
        printf("FAIL: searchsorted %s (%lld in %lld) side %d needle %lld: "
               "%lld, want %lld\n",
               cn_dtype_name(dt), (long long)m, (long long)na, right,
               (long long)j, got, want[(size_t)j]);
        g_fail++;
        break;
      }
    }
  }
  cn_array_release(v);
  cn_array_release(a);
  cn_array_release(a0);
}

// The quantile kernel's code over sorted lanes (core/quantile_rank.h, in
// the prelude) on the CPU's
// sorted lanes against cn_quantile / cn_nanquantile / cn_median /
// cn_nanmedian along the last axis: every method, NaN lanes, all-NaN and
// one-value lanes; float32 results rounded as the CPU rounds them.
template <class T> static void quantile_check(cn_dtype dt, int64_t len) {
  const int64_t nl = 7;
  int64_t shape[2] = {nl, len}, total = nl * len;
  std::vector<T> h((size_t)total + 1);
  for (int64_t i = 0; i < total; i++) {
    unsigned long long r = rnd();
    int64_t lane = i / len;
    h[(size_t)i] = lane == 3 || (lane == 5 && r % 4 == 0)
                       ? (T)NAN
                       : (T)((double)(long long)(r % 2001) / 8.0 - 120.0);
  }
  if (len > 1)
    h[(size_t)len] = (T)-0.0, h[(size_t)len + 1] = (T)INFINITY; // lane 1
  static const double qs[] = {0.0, 0.07, 0.25, 0.5, 0.5001, 0.75, 0.99, 1.0};
  int64_t nq = 8;
  cn_array a, q, s;
  OK(cn_from_host(&a, h.data(), 0, total * (int64_t)sizeof(T), 2, shape, NULL,
                  dt));
  OK(cn_from_host(&q, qs, 0, sizeof qs, 1, &nq, NULL, CN_FLOAT64));
  OK(cn_sort(&s, a, 1));
  std::vector<T> sorted((size_t)total + 1);
  OK(cn_copy_to_buffer(sorted.data(), total * (int64_t)sizeof(T), s,
                       CN_ORDER_C));
  int32_t ax = 1;
  for (int skip = 0; skip < 2; skip++)
    for (int m = CN_QR_MEDIAN; m <= CN_QUANTILE_NORMAL_UNBIASED; m++) {
      g_cases++;
      cn_array r, rd;
      if (m == CN_QR_MEDIAN)
        OK(skip ? cn_nanmedian(&r, a, 1, &ax, 0) : cn_median(&r, a, 1, &ax, 0));
      else
        OK(skip ? cn_nanquantile(&r, a, q, 1, &ax, m, 0)
                : cn_quantile(&r, a, q, 1, &ax, m, 0));
      OK(cn_astype(&rd, r, CN_FLOAT64, 1));
      int64_t n = 0;
      OK(cn_array_size(&n, rd));
      std::vector<double> want((size_t)n + 1);
      OK(cn_copy_to_buffer(want.data(), n * 8, rd, CN_ORDER_C));
      cn_dtype rdt;
      OK(cn_array_dtype(&rdt, r));
      for (int64_t i = 0; i < n; i++) {
        double got = sizeof(T) == 4
                         ? cn_quantile_sorted_float((const float *)sorted.data(),
                                                    nl, len, qs, m, skip, i)
                         : cn_quantile_sorted_double(
                               (const double *)sorted.data(), nl, len, qs, m,
                               skip, i);
        if (rdt == CN_FLOAT32)
          got = (double)(float)got;
        double w = want[(size_t)i];
        if (!(got == w || (got != got && w != w))) {
          printf("FAIL: quantile %s len %lld method %d nan_skip %d at %lld: "
                 "%.17g, want %.17g\n",
                 cn_dtype_name(dt), (long long)len, m, skip, (long long)i,
                 got, w);
          g_fail++;
          break;
        }
      }
      cn_array_release(r);
      cn_array_release(rd);
    }
  cn_array_release(s);
  cn_array_release(q);
  cn_array_release(a);
}

template <int KIND, class U, bool CPLX> static void dtype_cases(cn_dtype dt) {
  int f0 = g_fail;
  search_check<KIND, U, CPLX>(dt, 700, 500, 40); // duplicates, specials
  search_check<KIND, U, CPLX>(dt, 9, 200, 1000); // mostly between
  search_check<KIND, U, CPLX>(dt, 1, 20, 3);     // one element
  search_check<KIND, U, CPLX>(dt, 0, 20, 3);     // empty a
  search_check<KIND, U, CPLX>(dt, 30, 0, 3);     // needles: a only
  check<KIND, U, CPLX>(dt, {5000}, 0, 0, 40);          // 2 tiles, one lane
  check<KIND, U, CPLX>(dt, {9000}, 0, 2, 1000);        // reversed
  check<KIND, U, CPLX>(dt, {37, 50}, 1, 0, 7);         // lanes together
  check<KIND, U, CPLX>(dt, {37, 50}, 0, 0, 7);         // strided lanes: copy
  check<KIND, U, CPLX>(dt, {300, 29}, -1, 1, 100);     // transposed view
  check<KIND, U, CPLX>(dt, {3, 4, 5}, 1, 0, 5);        // middle axis
  check<KIND, U, CPLX>(dt, {1}, 0, 0, 3);              // one element
  check<KIND, U, CPLX>(dt, {6, 1}, 1, 0, 3);           // lanes of one
  check<KIND, U, CPLX>(dt, {200}, 0, 0, 1);            // all equal
  printf("%s   %s\n", g_fail == f0 ? "ok  " : "FAIL", cn_dtype_name(dt));
}

int main() {
  setvbuf(stdout, NULL, _IOLBF, 0);
  OK(cn_set_backend("cpu"));
  dtype_cases<CN_SK_BOOL, cn_u8, false>(CN_BOOL);
  dtype_cases<CN_SK_SIGNED, cn_u8, false>(CN_INT8);
  dtype_cases<CN_SK_UNSIGNED, cn_u8, false>(CN_UINT8);
  dtype_cases<CN_SK_SIGNED, cn_u16, false>(CN_INT16);
  dtype_cases<CN_SK_UNSIGNED, cn_u16, false>(CN_UINT16);
  dtype_cases<CN_SK_SIGNED, cn_u32, false>(CN_INT32);
  dtype_cases<CN_SK_UNSIGNED, cn_u32, false>(CN_UINT32);
  dtype_cases<CN_SK_SIGNED, cn_u64, false>(CN_INT64);
  dtype_cases<CN_SK_UNSIGNED, cn_u64, false>(CN_UINT64);
  dtype_cases<CN_SK_FLOAT, cn_u32, false>(CN_FLOAT32);
  dtype_cases<CN_SK_FLOAT, cn_u64, false>(CN_FLOAT64);
  dtype_cases<CN_SK_FLOAT, cn_u32, true>(CN_COMPLEX64);
  dtype_cases<CN_SK_FLOAT, cn_u64, true>(CN_COMPLEX128);
  int fq = g_fail;
  for (int64_t len : {1, 2, 9, 64, 1001}) {
    quantile_check<float>(CN_FLOAT32, len);
    quantile_check<double>(CN_FLOAT64, len);
  }
  printf("%s   quantiles of sorted lanes\n", g_fail == fq ? "ok  " : "FAIL");
  // a few long lanes, sorted one by one
  const int64_t L = CN_SORT_PER_LANE_MIN_LEN;
  int f0 = g_fail;
  check<CN_SK_SIGNED, cn_u16, false>(CN_INT16, {2, L}, 1, 0, 300);
  check<CN_SK_FLOAT, cn_u32, true>(CN_COMPLEX64, {2, L}, -1, 0, 5);
  printf("%s   lane by lane\n", g_fail == f0 ? "ok  " : "FAIL");
  printf("sort, searchsorted and quantile host emulation: %d cases, %d failures\n", g_cases, g_fail);
  return g_fail ? 1 : 0;
}
