// ---- complex --------------------------------------------------------------

template <class T> struct cn_cx {
  T re, im;
  cn_cx() = default;
  CN_DEV constexpr cn_cx(T r, T i = T(0)) : re(r), im(i) {}
  friend CN_DEV cn_cx operator+(cn_cx a, cn_cx b) {
    return cn_cx(a.re + b.re, a.im + b.im);
  }
  friend CN_DEV cn_cx operator-(cn_cx a, cn_cx b) {
    return cn_cx(a.re - b.re, a.im - b.im);
  }
  friend CN_DEV cn_cx operator*(cn_cx a, cn_cx b) {
    return cn_cx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  // Smith's algorithm, as NumPy: no overflow for large operands.
  friend CN_DEV cn_cx operator/(cn_cx a, cn_cx b) {
    T abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
      if (abr == 0 && abi == 0)
        return cn_cx(a.re / abr, a.im / abi);
      T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
      return cn_cx((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return cn_cx((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
  }
  friend CN_DEV cn_cx operator-(cn_cx a) { return cn_cx(-a.re, -a.im); }
  friend CN_DEV bool operator==(cn_cx a, cn_cx b) {
    return a.re == b.re && a.im == b.im;
  }
  friend CN_DEV bool operator!=(cn_cx a, cn_cx b) { return !(a == b); }
};
typedef cn_cx<float> cn_c64;
typedef cn_cx<double> cn_c128;

