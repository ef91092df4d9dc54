// ---- classification ---------------------------------------------------------

template <class T> CN_DEV bool k_isnan(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return isnan(a.re) || isnan(a.im);
  else if constexpr (cn_tr<T>::is_float)
    return isnan(a);
  else
    return false;
}
template <class T> CN_DEV bool k_isinf(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return isinf(a.re) || isinf(a.im);
  else if constexpr (cn_tr<T>::is_float)
    return isinf(a);
  else
    return false;
}
template <class T> CN_DEV bool k_isfinite(T a) {
  if constexpr (cn_tr<T>::is_cplx)
    return isfinite(a.re) && isfinite(a.im);
  else if constexpr (cn_tr<T>::is_float)
    return isfinite(a);
  else
    return true;
}
template <class T> CN_DEV bool k_signbit(T a) {
  if constexpr (cn_tr<T>::is_float)
    return signbit(a);
  else if constexpr (cn_tr<T>::is_signed)
    return a < 0;
  else
    return false;
}

// ---- comparison (complex: NumPy's lexicographic order) ---------------------

template <class T> CN_DEV bool k_lt(T a, T b) {
  if constexpr (cn_tr<T>::is_cplx)
    return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) ||
           (a.re == b.re && a.im < b.im);
  else
    return a < b;
}
template <class T> CN_DEV bool k_le(T a, T b) {
  if constexpr (cn_tr<T>::is_cplx)
    return (a.re < b.re && !isnan(a.im) && !isnan(b.im)) ||
           (a.re == b.re && a.im <= b.im);
  else
    return a <= b;
}

template <class T> CN_DEV T k_maximum(T a, T b) {
  if constexpr (cn_tr<T>::is_bool)
    return a || b;
  else if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(a) ? a : (k_isnan(b) ? b : (k_le(b, a) ? a : b));
  else
    return a >= b ? a : b;
}
template <class T> CN_DEV T k_minimum(T a, T b) {
  if constexpr (cn_tr<T>::is_bool)
    return a && b;
  else if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(a) ? a : (k_isnan(b) ? b : (k_le(a, b) ? a : b));
  else
    return a <= b ? a : b;
}
template <class T> CN_DEV T k_fmax(T a, T b) {
  if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(b) ? a : (k_isnan(a) ? b : k_maximum(a, b));
  else
    return k_maximum(a, b);
}
template <class T> CN_DEV T k_fmin(T a, T b) {
  if constexpr (cn_tr<T>::is_float || cn_tr<T>::is_cplx)
    return k_isnan(b) ? a : (k_isnan(a) ? b : k_minimum(a, b));
  else
    return k_minimum(a, b);
}

