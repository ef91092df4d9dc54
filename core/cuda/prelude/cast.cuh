// ---- unsafe casts (NumPy / x86 semantics) ----------------------------------

// x86's cvttsd2si: NaN and out-of-range give the "integer indefinite".
CN_DEV cn_i64 cn_f2i64(double d) {
  return (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
             ? (cn_i64)d
             : (cn_i64)0x8000000000000000ull;
}
CN_DEV cn_i32 cn_f2i32(double d) {
  return (d > -2147483649.0 && d < 2147483648.0) ? (cn_i32)d
                                                 : (cn_i32)0x80000000u;
}
template <class To> CN_DEV To cn_f2i(double d) {
  if constexpr (sizeof(To) == 8 && cn_tr<To>::is_signed)
    return cn_f2i64(d);
  else if constexpr (sizeof(To) == 8) // gcc: two cvttsd2si around 2^63
    return d >= 9223372036854775808.0
               ? (cn_u64)cn_f2i64(d - 9223372036854775808.0) ^
                     0x8000000000000000ull
               : (cn_u64)cn_f2i64(d);
  else if constexpr (sizeof(To) == 4 && !cn_tr<To>::is_signed)
    return (To)cn_f2i64(d);
  else
    return (To)cn_f2i32(d);
}

template <class To, class From> CN_DEV To cn_cast(From x) {
  if constexpr (cn_is_half<To>::v) { // as core/cpu/dtypes.h's CN_CONV_kh*
    if constexpr (cn_is_half<From>::v)
      return x;
    else if constexpr (cn_tr<From>::is_cplx)
      return cn_cast<To>(x.re);
    else if constexpr (cn_tr<From>::is_float && sizeof(From) == 8)
      return cn_f16_of_double(x);
    else
      return cn_f16_of_float((float)x);
  } else if constexpr (cn_is_half<From>::v) {
    if constexpr (cn_tr<To>::is_cplx) {
      typedef typename cn_tr<To>::real R;
      return To(cn_cast<R>(x), R(0));
    } else if constexpr (cn_tr<To>::is_bool) {
      return (x.bits & 0x7fffu) != 0;
    } else if constexpr (cn_tr<To>::is_float && sizeof(To) == 8) {
      return cn_f16_to_double(x);
    } else if constexpr (cn_tr<To>::is_float) {
      return cn_f16_to_float(x);
    } else {
      return cn_f2i<To>((double)cn_f16_to_float(x));
    }
  } else if constexpr (cn_tr<To>::is_cplx) {
    typedef typename cn_tr<To>::real R;
    if constexpr (cn_tr<From>::is_cplx)
      return To((R)x.re, (R)x.im);
    else
      return To(cn_cast<R>(x), R(0));
  } else if constexpr (cn_tr<To>::is_bool) {
    if constexpr (cn_tr<From>::is_cplx) // bool(1j) is True
      return x.re != 0 || x.im != 0;
    else
      return x != 0;
  } else if constexpr (cn_tr<From>::is_cplx) {
    return cn_cast<To>(x.re);
  } else if constexpr (cn_tr<From>::is_float && cn_tr<To>::is_int) {
    return cn_f2i<To>((double)x);
  } else {
    return (To)x;
  }
}

