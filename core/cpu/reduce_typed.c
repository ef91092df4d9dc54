/* Typed reduction kernels, generated over dtypes from reduce_dtypes.h. Each
 * (kind, dtype) gets init/leaf/rows/merge functions (see reduce_typed.h);
 * the drivers in reduce.c decide the iteration order and the threads. */
#include "reduce_typed.h"
#include "reduce_dtypes.h"

#include <string.h>

/* Leaves of the pairwise sums: 256-element blocks with sixteen accumulators
 * (each folds 16 elements, as in NumPy's 128/8), so the error grows as
 * O(log n); sixteen independent chains keep AVX2 adds from waiting on their
 * latency (eight measured 3.5 ms for 1e7 float64, sixteen 2.4 ms). */
#define RK_PW_BLOCK 256
#define RK_PW_ACC 16
/* Argmin/argmax scan blocks: a vectorised extreme per block, then a search
 * of the (cache-hot) block only when it holds a new best. */
#define RK_ARG_BLOCK 1024

#define RK_INLINE static inline __attribute__((always_inline))

/* ---- stores: one per state type ------------------------------------- */

#define RK_DEF_STORE(N, T, DT, CLS, W, WN, R, RN, LO, HI)                      \
  static void rk_store_##N(char *out, cn_dtype odt, const void *st) {          \
    const T v = *(const T *)st;                                                \
    RK_STORE_AS(out, odt, v);                                                  \
  }
RK_TYPES(RK_DEF_STORE)

/* ---- element steps (C: class, A: state type, a: state, x: element) --- */

#define RK_STEP_PROD(C, A, a, x) RK_MUL_##C((a), (A)RK_CV_##C(x))
#define RK_STEP_NANPROD(C, A, a, x)                                            \
  (RK_ISNAN_##C(x) ? (a) : RK_MUL_##C((a), (A)(x)))
/* NaN propagates: once a is NaN no comparison replaces it. */
#define RK_STEP_MIN(C, A, a, x)                                                \
  ((RK_LT_##C((x), (a)) || RK_ISNAN_##C(x)) ? (x) : (a))
#define RK_STEP_MAX(C, A, a, x)                                                \
  ((RK_LT_##C((a), (x)) || RK_ISNAN_##C(x)) ? (x) : (a))
/* NaN is skipped; the state starts as NaN ("nothing seen"), so an all-NaN
 * slice gives NaN. */
#define RK_STEP_NANMIN(C, A, a, x)                                             \
  ((RK_LT_##C((x), (a)) || RK_ISNAN_##C(a)) ? (x) : (a))
#define RK_STEP_NANMAX(C, A, a, x)                                             \
  ((RK_LT_##C((a), (x)) || RK_ISNAN_##C(a)) ? (x) : (a))
#define RK_STEP_ANY(C, A, a, x) ((A)((a) | ((x) != 0)))
#define RK_STEP_ALL(C, A, a, x) ((A)((a) & ((x) != 0)))
#define RK_STEP_COUNTNN(C, A, a, x) ((a) + (A)!RK_ISNAN_##C(x))

/* Merges: most kinds merge with their own step. */
#define RK_MERGE_SUM(C, A, a, b) ((a) + (b))
#define RK_MERGE_PROD(C, A, a, b) RK_MUL_##C((a), (b))

/* Initial states. */
#define RK_NANINIT_BOOL(T, V) (V)
#define RK_NANINIT_INT(T, V) (V)
#define RK_NANINIT_UINT(T, V) (V)
#define RK_NANINIT_FLT(T, V) ((T)NAN)
#define RK_NANINIT_CPX(T, V) ((T)NAN)

/* Fast paths the folds try first: float min/max kinds over contiguous
 * memory. The block's result enters the state through the kind's merge. */
#define RK_FAST_BOOL(N, K, T, acc, p, n, s, i)
#define RK_FAST_INT(N, K, T, acc, p, n, s, i)
#define RK_FAST_UINT(N, K, T, acc, p, n, s, i)
#define RK_FAST_CPX(N, K, T, acc, p, n, s, i)
#define RK_FAST_FLT(N, K, T, acc, p, n, s, i)                                  \
  RK_FASTK_##K(N, T, acc, p, n, s, i)
#define RK_FASTK_PROD(N, T, acc, p, n, s, i)
#define RK_FASTK_ANY(N, T, acc, p, n, s, i)
#define RK_FASTK_ALL(N, T, acc, p, n, s, i)
#define RK_FASTK_NANPROD(N, T, acc, p, n, s, i)
#define RK_FASTK_COUNTNN(N, T, acc, p, n, s, i)
#define RK_FASTK_(N, T, acc, p, n, s, i, V, NANSKIP, MERGE)                    \
  if (s == (int64_t)sizeof(T) && n >= 64) {                                    \
    T r_;                                                                      \
    int nan_, num_;                                                            \
    i = cn_rk_##N##_##V(p, n, &r_, &nan_, &num_);                               \
    if (NANSKIP ? !num_ : nan_)                                                \
      r_ = (T)NAN;                                                             \
    acc = MERGE(FLT, T, acc, r_);                                              \
  }
#define RK_FASTK_MIN(N, T, acc, p, n, s, i)                                    \
  RK_FASTK_(N, T, acc, p, n, s, i, vmin, 0, RK_STEP_MIN)
#define RK_FASTK_MAX(N, T, acc, p, n, s, i)                                    \
  RK_FASTK_(N, T, acc, p, n, s, i, vmax, 0, RK_STEP_MAX)
#define RK_FASTK_NANMIN(N, T, acc, p, n, s, i)                                 \
  RK_FASTK_(N, T, acc, p, n, s, i, vmin, 1, RK_STEP_NANMIN)
#define RK_FASTK_NANMAX(N, T, acc, p, n, s, i)                                 \
  RK_FASTK_(N, T, acc, p, n, s, i, vmax, 1, RK_STEP_NANMAX)

/* ---- folds: order-free kinds (prod, min/max, any/all, count) --------- */

#define RK_DEF_FOLD(N, K, T, A, CLS, INIT, STEP, MERGE, LANES)                 \
  RK_INLINE A N##_##K##_fold(A acc, const char *p, int64_t n, int64_t s) {     \
    int64_t i = 0;                                                             \
    RK_FAST_##CLS(N, K, T, acc, p, n, s, i) if (LANES && n - i >= 32) {        \
      /* Eight independent lanes so that the loop vectorises. */               \
      A r[8];                                                                  \
      for (int k = 0; k < 8; k++)                                              \
        r[k] = INIT;                                                           \
      for (; i + 8 <= n; i += 8)                                               \
        for (int k = 0; k < 8; k++)                                            \
          r[k] = STEP(CLS, A, r[k], RK_LD(T, p + (i + k) * s));                \
      for (int k = 0; k < 8; k++)                                              \
        acc = MERGE(CLS, A, acc, r[k]);                                        \
    }                                                                          \
    for (; i < n; i++)                                                         \
      acc = STEP(CLS, A, acc, RK_LD(T, p + i * s));                            \
    return acc;                                                                \
  }                                                                            \
  static void N##_##K##_init(void *st, int64_t m) {                            \
    A *a = (A *)st;                                                            \
    for (int64_t j = 0; j < m; j++)                                            \
      a[j] = INIT;                                                             \
  }                                                                            \
  static void N##_##K##_leaf(void *st, const char *p, int64_t n, int64_t s,    \
                             int64_t base, const char *aux) {                  \
    A *a = (A *)st;                                                            \
    if (s == (int64_t)sizeof(T))                                               \
      *a = N##_##K##_fold(*a, p, n, (int64_t)sizeof(T));                       \
    else                                                                       \
      *a = N##_##K##_fold(*a, p, n, s);                                        \
  }                                                                            \
  static void N##_##K##_rows(void *st, const char *p, int64_t m, int64_t s,    \
                             int64_t idx, const char *aux, int64_t saux) {     \
    A *a = (A *)st;                                                            \
    if (s == (int64_t)sizeof(T)) {                                             \
      const T *x = (const T *)(const void *)p;                                 \
      for (int64_t j = 0; j < m; j++)                                          \
        a[j] = STEP(CLS, A, a[j], x[j]);                                       \
    } else {                                                                   \
      for (int64_t j = 0; j < m; j++)                                          \
        a[j] = STEP(CLS, A, a[j], RK_LD(T, p + j * s));                        \
    }                                                                          \
  }                                                                            \
  static void N##_##K##_merge(void *a_, const void *b_, int64_t m) {           \
    A *a = (A *)a_;                                                            \
    const A *b = (const A *)b_;                                                \
    for (int64_t j = 0; j < m; j++)                                            \
      a[j] = MERGE(CLS, A, a[j], b[j]);                                        \
  }

/* ---- pairwise sums: sum, nansum, sum of squared deviations ----------- */

#define RK_E_SUM(C, A, x, m) ((A)RK_CV_##C(x))
#define RK_E_NANSUM(C, A, x, m) (RK_ISNAN_##C(x) ? (A)0 : (A)(x))
#define RK_E_SQDEV(C, A, x, m) ((A)RK_SQ_##C((x) - (m)))
#define RK_E_NANSQDEV(C, A, x, m)                                              \
  (RK_ISNAN_##C(x) ? (A)0 : (A)RK_SQ_##C((x) - (m)))

#define RK_DEF_PAIRWISE(N, K, T, A, CLS, E)                                    \
  RK_INLINE A N##_##K##_blk(const char *p, int64_t n, int64_t s, T m) {        \
    int64_t i;                                                                 \
    A res;                                                                     \
    if (n < RK_PW_ACC) {                                                       \
      res = (A)0;                                                              \
      for (i = 0; i < n; i++)                                                  \
        res += E(CLS, A, RK_LD(T, p + i * s), m);                              \
      return res;                                                              \
    }                                                                          \
    A r[RK_PW_ACC];                                                            \
    for (int k = 0; k < RK_PW_ACC; k++)                                        \
      r[k] = E(CLS, A, RK_LD(T, p + k * s), m);                                \
    for (i = RK_PW_ACC; i + RK_PW_ACC <= n; i += RK_PW_ACC)                    \
      for (int k = 0; k < RK_PW_ACC; k++)                                      \
        r[k] += E(CLS, A, RK_LD(T, p + (i + k) * s), m);                       \
    for (int w = RK_PW_ACC / 2; w > 0; w /= 2)                                 \
      for (int k = 0; k < w; k++)                                              \
        r[k] = r[2 * k] + r[2 * k + 1];                                        \
    res = r[0];                                                                \
    for (; i < n; i++)                                                         \
      res += E(CLS, A, RK_LD(T, p + i * s), m);                                \
    return res;                                                                \
  }                                                                            \
  CN_TARGET_CLONES("avx2", "default") static A N##_##K##_pwc(    \
      const char *p, int64_t n, T m) {                                         \
    if (n <= RK_PW_BLOCK)                                                      \
      return N##_##K##_blk(p, n, (int64_t)sizeof(T), m);                       \
    int64_t n2 = n / 2;                                                        \
    n2 -= n2 % RK_PW_ACC;                                                      \
    return N##_##K##_pwc(p, n2, m) +                                           \
           N##_##K##_pwc(p + n2 * (int64_t)sizeof(T), n - n2, m);              \
  }                                                                            \
  static A N##_##K##_pws(const char *p, int64_t n, int64_t s, T m) {           \
    if (n <= RK_PW_BLOCK)                                                      \
      return N##_##K##_blk(p, n, s, m);                                        \
    int64_t n2 = n / 2;                                                        \
    n2 -= n2 % RK_PW_ACC;                                                      \
    return N##_##K##_pws(p, n2, s, m) +                                        \
           N##_##K##_pws(p + n2 * s, n - n2, s, m);                            \
  }                                                                            \
  static void N##_##K##_init(void *st, int64_t m) {                            \
    A *a = (A *)st;                                                            \
    for (int64_t j = 0; j < m; j++)                                            \
      a[j] = (A)0;                                                             \
  }                                                                            \
  static void N##_##K##_leaf(void *st, const char *p, int64_t n, int64_t s,    \
                             int64_t base, const char *aux) {                  \
    A *a = (A *)st;                                                            \
    T m = aux ? RK_LD(T, aux) : (T)0;                                          \
    if (s == (int64_t)sizeof(T))                                               \
      *a += N##_##K##_pwc(p, n, m);                                            \
    else                                                                       \
      *a += N##_##K##_pws(p, n, s, m);                                         \
  }                                                                            \
  CN_TARGET_CLONES("avx2", "default") static void N##_##K##_rows(             \
      void *st, const char *p, int64_t m, int64_t s, int64_t idx,              \
      const char *aux, int64_t saux) {                                         \
    A *a = (A *)st;                                                            \
    if (aux) {                                                                 \
      for (int64_t j = 0; j < m; j++)                                          \
        a[j] += E(CLS, A, RK_LD(T, p + j * s), RK_LD(T, aux + j * saux));      \
    } else if (s == (int64_t)sizeof(T)) {                                      \
      const T *x = (const T *)(const void *)p;                                 \
      for (int64_t j = 0; j < m; j++)                                          \
        a[j] += E(CLS, A, x[j], (T)0);                                         \
    } else {                                                                   \
      for (int64_t j = 0; j < m; j++)                                          \
        a[j] += E(CLS, A, RK_LD(T, p + j * s), (T)0);                          \
    }                                                                          \
  }                                                                            \
  CN_TARGET_CLONES("avx2", "default") static void N##_##K##_merge(            \
      void *a_, const void *b_, int64_t m) {                                   \
    A *a = (A *)a_;                                                            \
    const A *b = (const A *)b_;                                                \
    for (int64_t j = 0; j < m; j++)                                            \
      a[j] += b[j];                                                            \
  }

/* ---- argmin/argmax: state (value, index), index -1 = nothing yet ----- */

/* Whether x replaces state st (ties keep the earlier index). */
#define RK_BETTER_ARGMAX(C, x, st)                                             \
  ((st).i < 0 ||                                                               \
   (!RK_ISNAN_##C((st).v) && (RK_ISNAN_##C(x) || RK_LT_##C((st).v, (x)))))
#define RK_BETTER_ARGMIN(C, x, st)                                             \
  ((st).i < 0 ||                                                               \
   (!RK_ISNAN_##C((st).v) && (RK_ISNAN_##C(x) || RK_LT_##C((x), (st).v))))
#define RK_BETTER_NANARGMAX(C, x, st)                                          \
  (!RK_ISNAN_##C(x) && ((st).i < 0 || RK_LT_##C((st).v, (x))))
#define RK_BETTER_NANARGMIN(C, x, st)                                          \
  (!RK_ISNAN_##C(x) && ((st).i < 0 || RK_LT_##C((x), (st).v)))

/* EXK/EXINIT: the fold giving a block's extreme (MAX/LO for argmax, NANMAX/
 * NaN for nanargmax, ...), whose result is then searched for. */
#define RK_DEF_ARG(N, K, T, CLS, BETTER, EXK, EXINIT)                          \
  static void N##_##K##_init(void *st, int64_t m) {                            \
    N##_argst *a = (N##_argst *)st;                                            \
    for (int64_t j = 0; j < m; j++) {                                          \
      memset(&a[j].v, 0, sizeof a[j].v);                                       \
      a[j].i = -1;                                                             \
    }                                                                          \
  }                                                                            \
  static void N##_##K##_leaf(void *st_, const char *p, int64_t n, int64_t s,   \
                             int64_t base, const char *aux) {                  \
    N##_argst *st = (N##_argst *)st_;                                          \
    int64_t i = 0;                                                             \
    if (s == (int64_t)sizeof(T) && n >= RK_ARG_BLOCK) {                        \
      /* Only the extreme of each block is compared; the first block to        \
       * reach the final extreme is searched once at the end. */               \
      N##_argst cand;                                                          \
      cand.i = -1;                                                             \
      memset(&cand.v, 0, sizeof cand.v);                                       \
      for (; i + RK_ARG_BLOCK <= n; i += RK_ARG_BLOCK) {                       \
        T bm = N##_##EXK##_fold(EXINIT, p + i * (int64_t)sizeof(T),            \
                                RK_ARG_BLOCK, (int64_t)sizeof(T));             \
        if (BETTER(CLS, bm, cand)) {                                           \
          cand.v = bm;                                                         \
          cand.i = i;                                                          \
        }                                                                      \
      }                                                                        \
      if (cand.i >= 0) {                                                       \
        const T *x =                                                           \
            (const T *)(const void *)(p + cand.i * (int64_t)sizeof(T));        \
        const int bnan = RK_ISNAN_##CLS(cand.v);                               \
        for (int64_t j = 0; j < RK_ARG_BLOCK; j++) {                           \
          if (bnan ? RK_ISNAN_##CLS(x[j]) : x[j] == cand.v) {                  \
            cand.v = x[j];                                                     \
            cand.i = base + cand.i + j;                                        \
            break;                                                             \
          }                                                                    \
        }                                                                      \
        if (BETTER(CLS, cand.v, *st))                                          \
          *st = cand;                                                          \
      }                                                                        \
    }                                                                          \
    for (; i < n; i++) {                                                       \
      T x = RK_LD(T, p + i * s);                                               \
      if (BETTER(CLS, x, *st)) {                                               \
        st->v = x;                                                             \
        st->i = base + i;                                                      \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  static void N##_##K##_rows(void *st, const char *p, int64_t m, int64_t s,    \
                             int64_t idx, const char *aux, int64_t saux) {     \
    N##_argst *a = (N##_argst *)st;                                            \
    for (int64_t j = 0; j < m; j++) {                                          \
      T x = RK_LD(T, p + j * s);                                               \
      if (BETTER(CLS, x, a[j])) {                                              \
        a[j].v = x;                                                            \
        a[j].i = idx;                                                          \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  static void N##_##K##_merge(void *a_, const void *b_, int64_t m) {           \
    N##_argst *a = (N##_argst *)a_;                                            \
    const N##_argst *b = (const N##_argst *)b_;                                \
    for (int64_t j = 0; j < m; j++)                                            \
      if (b[j].i >= 0 && BETTER(CLS, b[j].v, a[j]))                            \
        a[j] = b[j];                                                           \
  }

/* ---- per-dtype instantiation ----------------------------------------- */

#define RK_ENTRY(N, K, A, STORE, PW)                                           \
  {                                                                            \
    sizeof(A), PW, N##_##K##_init, N##_##K##_leaf, N##_##K##_rows,             \
        N##_##K##_merge, STORE                                                 \
  }

#define RK_DEF_TYPE(N, T, DT, CLS, W, WN, R, RN, LO, HI)                       \
  RK_DEF_PAIRWISE(N, SUM, T, W, CLS, RK_E_SUM)                                 \
  RK_DEF_FOLD(N, PROD, T, W, CLS, (W)1, RK_STEP_PROD, RK_STEP_PROD_MERGE_, 0)  \
  RK_DEF_FOLD(N, MIN, T, T, CLS, (T)(HI), RK_STEP_MIN, RK_STEP_MIN, 1)         \
  RK_DEF_FOLD(N, MAX, T, T, CLS, (T)(LO), RK_STEP_MAX, RK_STEP_MAX, 1)         \
  RK_DEF_FOLD(N, NANMIN, T, T, CLS, RK_NANINIT_##CLS(T, HI), RK_STEP_NANMIN,   \
              RK_STEP_NANMIN, 1)                                               \
  RK_DEF_FOLD(N, NANMAX, T, T, CLS, RK_NANINIT_##CLS(T, LO), RK_STEP_NANMAX,   \
              RK_STEP_NANMAX, 1)                                               \
  RK_DEF_FOLD(N, ANY, T, uint8_t, CLS, (uint8_t)0, RK_STEP_ANY,                \
              RK_STEP_ANY_MERGE_, 1)                                           \
  RK_DEF_FOLD(N, ALL, T, uint8_t, CLS, (uint8_t)1, RK_STEP_ALL,                \
              RK_STEP_ALL_MERGE_, 1)                                           \
  typedef struct N##_argst {                                                   \
    T v;                                                                       \
    int64_t i;                                                                 \
  } N##_argst;                                                                 \
  static void N##_arg_store(char *out, cn_dtype odt, const void *st) {         \
    RK_STORE_AS(out, odt, ((const N##_argst *)st)->i);                         \
  }                                                                            \
  RK_DEF_ARG(N, ARGMIN, T, CLS, RK_BETTER_ARGMIN, MIN, (T)(HI))                \
  RK_DEF_ARG(N, ARGMAX, T, CLS, RK_BETTER_ARGMAX, MAX, (T)(LO))                \
  RK_IF_INEXACT_##CLS(                                                         \
      RK_DEF_PAIRWISE(N, NANSUM, T, W, CLS, RK_E_NANSUM) RK_DEF_FOLD(          \
          N, NANPROD, T, W, CLS, (W)1, RK_STEP_NANPROD, RK_STEP_PROD_MERGE_,   \
          0) RK_DEF_ARG(N, NANARGMIN, T, CLS, RK_BETTER_NANARGMIN, NANMIN,     \
                        RK_NANINIT_##CLS(T, HI))                               \
          RK_DEF_ARG(N, NANARGMAX, T, CLS, RK_BETTER_NANARGMAX, NANMAX,        \
                     RK_NANINIT_##CLS(T, LO))                                  \
              RK_DEF_PAIRWISE(N, SQDEV, T, R, CLS, RK_E_SQDEV)                 \
                  RK_DEF_PAIRWISE(N, NANSQDEV, T, R, CLS, RK_E_NANSQDEV)       \
                      RK_DEF_FOLD(N, COUNTNN, T, int64_t, CLS, (int64_t)0,     \
                                  RK_STEP_COUNTNN, RK_MERGE_SUM, 1))           \
      RK_IF_INTEGRAL_##CLS(RK_DEF_PAIRWISE(                                    \
          N, DSUM, T, double, CLS,                                             \
          RK_E_SUM)) static const cn_red_kernel rk_table_##N[CN_RK_NKINDS] = { \
          [CN_RED_SUM] =                                                       \
              RK_ENTRY(N, SUM, W, rk_store_##WN, RK_IS_INEXACT_##CLS),         \
          [CN_RED_PROD] = RK_ENTRY(N, PROD, W, rk_store_##WN, false),          \
          [CN_RED_MIN] = RK_ENTRY(N, MIN, T, rk_store_##N, false),             \
          [CN_RED_MAX] = RK_ENTRY(N, MAX, T, rk_store_##N, false),             \
          [CN_RED_NANMIN] = RK_ENTRY(N, NANMIN, T, rk_store_##N, false),       \
          [CN_RED_NANMAX] = RK_ENTRY(N, NANMAX, T, rk_store_##N, false),       \
          [CN_RED_ANY] = RK_ENTRY(N, ANY, uint8_t, rk_store_u8, false),        \
          [CN_RED_ALL] = RK_ENTRY(N, ALL, uint8_t, rk_store_u8, false),        \
          [CN_RED_ARGMIN] =                                                    \
              RK_ENTRY(N, ARGMIN, N##_argst, N##_arg_store, false),            \
          [CN_RED_ARGMAX] =                                                    \
              RK_ENTRY(N, ARGMAX, N##_argst, N##_arg_store, false),            \
          RK_IF_INEXACT_##CLS([CN_RED_NANSUM] =                                \
                                  RK_ENTRY(N, NANSUM, W, rk_store_##WN, true), \
                              [CN_RED_NANPROD] = RK_ENTRY(                     \
                                  N, NANPROD, W, rk_store_##WN, false),        \
                              [CN_RED_NANARGMIN] =                             \
                                  RK_ENTRY(N, NANARGMIN, N##_argst,            \
                                           N##_arg_store, false),              \
                              [CN_RED_NANARGMAX] =                             \
                                  RK_ENTRY(N, NANARGMAX, N##_argst,            \
                                           N##_arg_store, false),              \
                              [CN_RK_SQDEV] =                                  \
                                  RK_ENTRY(N, SQDEV, R, rk_store_##RN, true),  \
                              [CN_RK_NANSQDEV] = RK_ENTRY(                     \
                                  N, NANSQDEV, R, rk_store_##RN, true),        \
                              [CN_RK_COUNTNN] =                                \
                                  RK_ENTRY(N, COUNTNN, int64_t, rk_store_i64,  \
                                           false), )};                         \
  RK_IF_INTEGRAL_##CLS(static const cn_red_kernel rk_dsum_##N =                \
                           RK_ENTRY(N, DSUM, double, rk_store_f64, true);)

#define RK_STEP_PROD_MERGE_(C, A, a, b) RK_MUL_##C((a), (b))
#define RK_STEP_ANY_MERGE_(C, A, a, b) ((A)((a) | (b)))
#define RK_STEP_ALL_MERGE_(C, A, a, b) ((A)((a) & (b)))
#define RK_IS_INEXACT_BOOL false
#define RK_IS_INEXACT_INT false
#define RK_IS_INEXACT_UINT false
#define RK_IS_INEXACT_FLT true
#define RK_IS_INEXACT_CPX true

RK_TYPES(RK_DEF_TYPE)

const cn_red_kernel *cn_red_kernel_get(int kind, cn_dtype in, bool acc_double) {
  if (kind < 0 || kind >= CN_RK_NKINDS)
    return NULL;
  const cn_red_kernel *k = NULL;
  switch (in) {
#define RK_CASE(N, T, DT, CLS, W, WN, R, RN, LO, HI)                           \
  case DT:                                                                     \
    RK_IF_INTEGRAL_##CLS(if (acc_double) return kind == CN_RED_SUM             \
                             ? &rk_dsum_##N                                    \
                             : NULL;) k = &rk_table_##N[kind];                 \
    break;
    RK_TYPES(RK_CASE)
#undef RK_CASE
  default:
    return NULL;
  }
  return k->leaf ? k : NULL;
}
