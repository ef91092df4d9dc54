// Helpers shared by the C ABI tests.
#pragma once
#include <catch2/catch.hpp>
#include <cunumpy/cunumpy.h>

#include <cstring>
#include <string>
#include <vector>

// Requires CN_OK and prints the last error otherwise.
#define CN_REQUIRE_OK(expr)                                                    \
  do {                                                                         \
    cn_status st_ = (expr);                                                    \
    INFO(#expr << " -> " << cn_status_name(st_) << ": " << cn_last_error());   \
    REQUIRE(st_ == CN_OK);                                                     \
  } while (0)

// Requires a given failure status and that the message contains `needle`.
#define CN_REQUIRE_ERR(expr, status, needle)                                   \
  do {                                                                         \
    cn_status st_ = (expr);                                                    \
    INFO(#expr << " -> " << cn_status_name(st_) << ": " << cn_last_error());   \
    REQUIRE(st_ == (status));                                                  \
    REQUIRE(std::string(cn_last_error()).find(needle) != std::string::npos);   \
  } while (0)

// RAII owner of a handle.
struct Arr {
  cn_array h = nullptr;
  Arr() = default;
  explicit Arr(cn_array a) : h(a) {}
  Arr(const Arr &) = delete;
  Arr &operator=(const Arr &) = delete;
  Arr(Arr &&o) noexcept : h(o.h) { o.h = nullptr; }
  Arr &operator=(Arr &&o) noexcept {
    if (this != &o) {
      cn_array_release(h);
      h = o.h;
      o.h = nullptr;
    }
    return *this;
  }
  ~Arr() { cn_array_release(h); }
  cn_array *out() {
    cn_array_release(h);
    h = nullptr;
    return &h;
  }
  operator cn_array() const { return h; }
};

inline std::vector<int64_t> shape_of(cn_array a) {
  int32_t nd = 0;
  cn_array_ndim(&nd, a);
  std::vector<int64_t> s(nd);
  cn_array_shape(s.data(), nd, a);
  return s;
}

// Copies any host array into a C-order std::vector<T> (T must match dtype).
template <class T> std::vector<T> to_vec(cn_array a) {
  int64_t n = 0;
  cn_array_size(&n, a);
  std::vector<T> v(n);
  REQUIRE(cn_copy_to_buffer(v.data(), n * (int64_t)sizeof(T), a,
                            CN_ORDER_C) == CN_OK);
  return v;
}

// New C-contiguous host array from values.
template <class T>
Arr from_vec(const std::vector<T> &v, std::vector<int64_t> shape,
             cn_dtype dt) {
  Arr a;
  cn_status st = cn_from_host(a.out(), v.data(), 0,
                              (int64_t)(v.size() * sizeof(T)),
                              (int32_t)shape.size(), shape.data(), nullptr, dt);
  INFO(cn_last_error());
  REQUIRE(st == CN_OK);
  return a;
}
