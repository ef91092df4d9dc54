/* Typed scan kernels (cumsum, cumprod), generated over dtypes from
 * reduce_dtypes.h for each output variant: the input dtype itself, or (for
 * bool and integers) the wide accumulator dtype int64/uint64. */
#include "reduce_typed.h"
#include "reduce_dtypes.h"

#define SK_OP_SUM(C, a, b) ((a) + (b))
#define SK_OP_PROD(C, a, b) RK_MUL_##C((a), (b))
#define SK_ID_SUM 0
#define SK_ID_PROD 1
/* Output conversion: bool outputs hold truth values. */
#define SK_TO_BOOL(O, v) ((O)((v) != 0))
#define SK_TO_NUM(O, v) ((O)(v))

/* Chunk totals of the parallel scan (they only feed the chunk offsets):
 * sums use eight independent lanes, which vectorise; products stay in
 * order, since their overflow to inf/0 depends on it. */
#define SK_TOTAL_SUM(N, T, A, CLS, v0, p, n, s)                                \
  ({                                                                           \
    A r_[8] = {0}, v_ = (v0);                                                  \
    int64_t i_ = 0;                                                            \
    for (; i_ + 8 <= (n); i_ += 8)                                             \
      for (int k_ = 0; k_ < 8; k_++)                                           \
        r_[k_] += (A)RK_CV_##CLS(RK_LD(T, (p) + (i_ + k_) * (s)));             \
    v_ += ((r_[0] + r_[1]) + (r_[2] + r_[3])) +                                \
          ((r_[4] + r_[5]) + (r_[6] + r_[7]));                                 \
    for (; i_ < (n); i_++)                                                     \
      v_ += (A)RK_CV_##CLS(RK_LD(T, (p) + i_ * (s)));                          \
    v_;                                                                        \
  })
#define SK_TOTAL_PROD(N, T, A, CLS, v0, p, n, s)                               \
  ({                                                                           \
    A v_ = (v0);                                                               \
    for (int64_t i_ = 0; i_ < (n); i_++)                                       \
      v_ = SK_OP_PROD(CLS, v_, (A)RK_CV_##CLS(RK_LD(T, (p) + i_ * (s))));      \
    v_;                                                                        \
  })

/* N: dtype name, V: output variant name, K: SUM/PROD, O: output C type,
 * OC: BOOL or NUM, A: accumulator type. */
#define SK_DEF(N, V, K, T, O, OC, A, CLS)                                      \
  static void N##_##V##_##K##_identity(void *acc, int64_t m) {                 \
    A *a = (A *)acc;                                                           \
    for (int64_t j = 0; j < m; j++)                                            \
      a[j] = (A)SK_ID_##K;                                                     \
  }                                                                            \
  static void N##_##V##_##K##_line(void *acc, const char *p, int64_t n,        \
                                   int64_t s, char *o, int64_t so) {           \
    A v = *(A *)acc;                                                           \
    for (int64_t i = 0; i < n; i++) {                                          \
      v = SK_OP_##K(CLS, v, (A)RK_CV_##CLS(RK_LD(T, p + i * s)));              \
      *(O *)(void *)(o + i * so) = SK_TO_##OC(O, v);                           \
    }                                                                          \
    *(A *)acc = v;                                                             \
  }                                                                            \
  static void N##_##V##_##K##_total(void *acc, const char *p, int64_t n,       \
                                    int64_t s) {                               \
    *(A *)acc = SK_TOTAL_##K(N, T, A, CLS, *(A *)acc, p, n, s);                \
  }                                                                            \
  static void N##_##V##_##K##_rows(void *acc, const char *p, int64_t m,        \
                                   int64_t s, char *o, int64_t so) {           \
    A *a = (A *)acc;                                                           \
    for (int64_t j = 0; j < m; j++) {                                          \
      a[j] = SK_OP_##K(CLS, a[j], (A)RK_CV_##CLS(RK_LD(T, p + j * s)));        \
      *(O *)(void *)(o + j * so) = SK_TO_##OC(O, a[j]);                        \
    }                                                                          \
  }                                                                            \
  static void N##_##V##_##K##_combine(void *a, const void *b) {                \
    *(A *)a = SK_OP_##K(CLS, *(A *)a, *(const A *)b);                          \
  }                                                                            \
  static const cn_scan_kernel N##_##V##_##K##_kernel = {                       \
      sizeof(A),                                                               \
      N##_##V##_##K##_identity,                                                \
      N##_##V##_##K##_line,                                                    \
      N##_##V##_##K##_total,                                                   \
      N##_##V##_##K##_rows,                                                    \
      N##_##V##_##K##_combine};

#define SK_OC_BOOL BOOL
#define SK_OC_INT NUM
#define SK_OC_UINT NUM
#define SK_OC_FLT NUM
#define SK_OC_CPX NUM
#define SK_DEF_TYPE(N, T, DT, CLS, W, WN, R, RN, LO, HI)                       \
  SK_DEF_TYPE_(N, T, CLS, W, SK_OC_##CLS)
#define SK_DEF_TYPE_(N, T, CLS, W, OC) SK_DEF_TYPE__(N, T, CLS, W, OC)
#define SK_DEF_TYPE__(N, T, CLS, W, OC)                                        \
  SK_DEF(N, same, SUM, T, T, OC, W, CLS)                                       \
  SK_DEF(N, same, PROD, T, T, OC, W, CLS)                                      \
  RK_IF_INTEGRAL_##CLS(SK_DEF(N, wide, SUM, T, W, NUM, W, CLS)                 \
                           SK_DEF(N, wide, PROD, T, W, NUM, W, CLS))
RK_TYPES(SK_DEF_TYPE)

#define SK_DT_i64 CN_INT64
#define SK_DT_u64 CN_UINT64

const cn_scan_kernel *cn_scan_kernel_get(int kind, cn_dtype in, cn_dtype out) {
  const bool sum = kind == CN_RED_CUMSUM;
  if (!sum && kind != CN_RED_CUMPROD)
    return NULL;
  switch (in) {
#define SK_CASE(N, T, DT, CLS, W, WN, R, RN, LO, HI)                           \
  case DT:                                                                     \
    if (out == DT)                                                             \
      return sum ? &N##_same_SUM_kernel : &N##_same_PROD_kernel;               \
    RK_IF_INTEGRAL_##CLS(if (out == SK_DT_##WN) return sum                     \
                             ? &N##_wide_SUM_kernel                            \
                             : &N##_wide_PROD_kernel;) return NULL;
    RK_TYPES(SK_CASE)
#undef SK_CASE
  default:
    return NULL;
  }
}
