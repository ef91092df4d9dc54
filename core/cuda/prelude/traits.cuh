// ---- traits ---------------------------------------------------------------

template <class T> struct cn_tr {
  static constexpr bool is_bool = false, is_int = true, is_signed = true,
                        is_float = false, is_cplx = false;
  typedef T real;
};
#define CN_TR_(T, B, I, S, F, C, R)                                            \
  template <> struct cn_tr<T> {                                                \
    static constexpr bool is_bool = B, is_int = I, is_signed = S,              \
                          is_float = F, is_cplx = C;                           \
    typedef R real;                                                            \
  };
CN_TR_(bool, true, false, false, false, false, bool)
CN_TR_(cn_i8, false, true, true, false, false, cn_i8)
CN_TR_(cn_i16, false, true, true, false, false, cn_i16)
CN_TR_(cn_i32, false, true, true, false, false, cn_i32)
CN_TR_(cn_i64, false, true, true, false, false, cn_i64)
CN_TR_(cn_u8, false, true, false, false, false, cn_u8)
CN_TR_(cn_u16, false, true, false, false, false, cn_u16)
CN_TR_(cn_u32, false, true, false, false, false, cn_u32)
CN_TR_(cn_u64, false, true, false, false, false, cn_u64)
CN_TR_(cn_f16, false, false, true, true, false, cn_f16)
CN_TR_(float, false, false, true, true, false, float)
CN_TR_(double, false, false, true, true, false, double)
CN_TR_(cn_c64, false, false, true, false, true, float)
CN_TR_(cn_c128, false, false, true, false, true, double)
#undef CN_TR_

template <class T> struct cn_lim;
#define CN_LIM_(T, LO, HI)                                                     \
  template <> struct cn_lim<T> {                                               \
    static CN_DEV T lo() { return LO; }                                        \
    static CN_DEV T hi() { return HI; }                                        \
  };
CN_LIM_(bool, false, true)
CN_LIM_(cn_i8, -128, 127)
CN_LIM_(cn_i16, -32768, 32767)
CN_LIM_(cn_i32, (-2147483647 - 1), 2147483647)
CN_LIM_(cn_i64, (-9223372036854775807LL - 1), 9223372036854775807LL)
CN_LIM_(cn_u8, 0, 255)
CN_LIM_(cn_u16, 0, 65535)
CN_LIM_(cn_u32, 0u, 4294967295u)
CN_LIM_(cn_u64, 0ull, 18446744073709551615ull)
CN_LIM_(cn_f16, cn_f16{0xfc00}, cn_f16{0x7c00})
CN_LIM_(float, -CN_I2F(0x7f800000), CN_I2F(0x7f800000))
CN_LIM_(double, -CN_L2D(0x7ff0000000000000LL), CN_L2D(0x7ff0000000000000LL))
CN_LIM_(cn_c64, cn_c64(cn_lim<float>::lo(), cn_lim<float>::lo()),
        cn_c64(cn_lim<float>::hi(), cn_lim<float>::hi()))
CN_LIM_(cn_c128, cn_c128(cn_lim<double>::lo(), cn_lim<double>::lo()),
        cn_c128(cn_lim<double>::hi(), cn_lim<double>::hi()))
#undef CN_LIM_

template <class T> CN_DEV T cn_nan() {
  if constexpr (cn_tr<T>::is_cplx) {
    typedef typename cn_tr<T>::real R;
    return T(cn_nan<R>(), cn_nan<R>());
  } else if constexpr (cn_is_half<T>::v) {
    return cn_f16{0x7e00};
  } else if constexpr (sizeof(T) == 4) {
    return CN_I2F(0x7fc00000);
  } else {
    return CN_L2D(0x7ff8000000000000LL);
  }
}

