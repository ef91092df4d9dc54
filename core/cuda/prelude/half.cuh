// ---- float16 ---------------------------------------------------------------

// float16 held as its bits: computed in float32 by the core, as NumPy, so
// kernels only store, move and convert it. The conversions are
// core/float16_bits.h's (NumPy's bit for bit, also the CPU's); __half's
// intrinsics would quiet signalling NaN payloads where NumPy keeps them.
struct cn_f16 {
  cn_u16 bits;
};
CN_DEV float cn_f16_to_float(cn_f16 h) {
  return CN_I2F((int)cn_f16_bits_to_f32_bits(h.bits));
}
CN_DEV double cn_f16_to_double(cn_f16 h) {
  return CN_L2D((long long)cn_f16_bits_to_f64_bits(h.bits));
}
CN_DEV cn_f16 cn_f16_of_float(float f) {
  cn_f16 h = {cn_f32_bits_to_f16_bits((cn_u32)CN_F2I(f))};
  return h;
}
CN_DEV cn_f16 cn_f16_of_double(double d) {
  cn_f16 h = {cn_f64_bits_to_f16_bits((cn_u64)CN_D2L(d))};
  return h;
}
template <class T> struct cn_is_half {
  static constexpr bool v = false;
};
template <> struct cn_is_half<cn_f16> {
  static constexpr bool v = true;
};
