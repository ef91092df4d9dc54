// ---- special functions: core/special_scalar.h (the part of the prelude
// just before this one) as the k_* helpers of core/ops.def's special ops.
// erf and erfc are CUDA's in each precision; the others compute in double
// and round, as on the CPU (core/cpu/scalar.h).

template <class T> CN_DEV T k_erf(T a) { return erf(a); }
template <class T> CN_DEV T k_erfc(T a) { return erfc(a); }
#define CN_K_SP1_(fn)                                                          \
  template <class T> CN_DEV T k_sp_##fn(T a) {                                 \
    return T(cn_sp_##fn(double(a)));                                           \
  }
#define CN_K_SP2_(fn)                                                          \
  template <class T> CN_DEV T k_sp_##fn(T a, T b) {                            \
    return T(cn_sp_##fn(double(a), double(b)));                                \
  }
#define CN_K_SP3_(fn)                                                          \
  template <class T> CN_DEV T k_sp_##fn(T a, T b, T c) {                       \
    return T(cn_sp_##fn(double(a), double(b), double(c)));                     \
  }
CN_SP_UNARY(CN_K_SP1_)
CN_SP_BINARY(CN_K_SP2_)
CN_SP_TERNARY(CN_K_SP3_)
#undef CN_K_SP1_
#undef CN_K_SP2_
#undef CN_K_SP3_
#define k_sp1(fn, a) k_sp_##fn(a)
#define k_sp2(fn, a, b) k_sp_##fn(a, b)
#define k_sp3(fn, a, b, c) k_sp_##fn(a, b, c)
