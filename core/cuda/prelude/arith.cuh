// ---- integer and float arithmetic -----------------------------------------

template <class T> CN_DEV T k_floordiv(T a, T b) {
  if constexpr (cn_tr<T>::is_float) {
    if (b == 0)
      return a / b;
    if (isinf(a) || isinf(b)) // the Array API's floor(a / b)
      return floor(a / b);
    T mod = fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
      div -= T(1);
    if (div != 0) {
      T fl = floor(div);
      if (div - fl > T(0.5))
        fl += T(1);
      return fl;
    }
    return copysign(T(0), a / b);
  } else if constexpr (cn_tr<T>::is_signed) {
    if (b == 0)
      return 0;
    if (b == -1) // INT_MIN // -1 wraps, as NumPy
      return (T)(0 - (cn_u64)(cn_i64)a);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
      q -= 1;
    return q;
  } else {
    return b == 0 ? T(0) : (T)(a / b);
  }
}
template <class T> CN_DEV T k_mod(T a, T b) {
  if constexpr (cn_tr<T>::is_float) {
    if (b == 0)
      return fmod(a, b);
    T mod = fmod(a, b);
    if (mod != 0) {
      if ((b < 0) != (mod < 0))
        mod += b;
    } else {
      mod = copysign(T(0), b);
    }
    return mod;
  } else if constexpr (cn_tr<T>::is_signed) {
    if (b == 0 || b == -1)
      return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
      r += b;
    return r;
  } else {
    return b == 0 ? T(0) : (T)(a % b);
  }
}

