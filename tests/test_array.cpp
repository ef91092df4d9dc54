// Tests of cunumpy/array.h: handles, creation, host memory, copies, casts.
#include "testutil.hpp"

#include <cmath>
#include <complex>
#include <limits>

TEST_CASE("empty/zeros/ones/full: shapes, dtypes, values", "[array]") {
  for (int32_t i = 0; i < CN_NUM_DTYPES; i++) {
    cn_dtype dt;
    cn_dtype_at(&dt, i);
    int64_t shape[3] = {2, 3, 4};
    Arr z, o;
    CN_REQUIRE_OK(cn_zeros(z.out(), 3, shape, dt, CN_ORDER_C));
    CN_REQUIRE_OK(cn_ones(o.out(), 3, shape, dt, CN_ORDER_F));
    REQUIRE(shape_of(z) == std::vector<int64_t>{2, 3, 4});
    int32_t fl;
    cn_array_flags(&fl, z);
    REQUIRE((fl & CN_FLAG_C_CONTIGUOUS));
    REQUIRE((fl & CN_FLAG_WRITEABLE));
    cn_array_flags(&fl, o);
    REQUIRE((fl & CN_FLAG_F_CONTIGUOUS));
    REQUIRE(!(fl & CN_FLAG_C_CONTIGUOUS));
    int64_t strides[3];
    CN_REQUIRE_OK(cn_array_strides(strides, 3, o));
    REQUIRE(strides[0] == 1);
    REQUIRE(strides[1] == 2);
    REQUIRE(strides[2] == 6);
    int64_t isz = cn_dtype_itemsize(dt);
    std::vector<unsigned char> zb(24 * isz), ob(24 * isz);
    CN_REQUIRE_OK(cn_copy_to_buffer(zb.data(), zb.size(), z, CN_ORDER_C));
    for (auto b : zb)
      REQUIRE(b == 0);
    CN_REQUIRE_OK(cn_copy_to_buffer(ob.data(), ob.size(), o, CN_ORDER_C));
    for (int k = 0; k < 24; k++) {
      cn_scalar s;
      Arr one;
      int64_t idx[1] = {k};
      (void)idx;
      // every element of ones must be 1 in its dtype
      if (dt == CN_FLOAT64) REQUIRE(((double *)ob.data())[k] == 1.0);
      if (dt == CN_INT16) REQUIRE(((int16_t *)ob.data())[k] == 1);
      if (dt == CN_COMPLEX64) {
        REQUIRE(((float *)ob.data())[2 * k] == 1.0f);
        REQUIRE(((float *)ob.data())[2 * k + 1] == 0.0f);
      }
      (void)s;
    }
  }
  Arr f;
  int64_t shape[1] = {5};
  CN_REQUIRE_OK(cn_full(f.out(), 1, shape, cn_scalar_float(-2.75), CN_INT32,
                        CN_ORDER_C));
  REQUIRE(to_vec<int32_t>(f) == std::vector<int32_t>(5, -2));
  CN_REQUIRE_OK(cn_full(f.out(), 1, shape, cn_scalar_complex(1.5, 2),
                        CN_COMPLEX128, CN_ORDER_C));
  REQUIRE(to_vec<std::complex<double>>(f)[4] == std::complex<double>(1.5, 2));
}

TEST_CASE("0-d and zero-size arrays", "[array]") {
  Arr s;
  CN_REQUIRE_OK(cn_full(s.out(), 0, nullptr, cn_scalar_int(7), CN_INT64,
                        CN_ORDER_C));
  int32_t nd;
  cn_array_ndim(&nd, s);
  REQUIRE(nd == 0);
  int64_t n;
  cn_array_size(&n, s);
  REQUIRE(n == 1);
  cn_scalar v;
  CN_REQUIRE_OK(cn_item(&v, s));
  REQUIRE(v.kind == CN_SCALAR_INT);
  REQUIRE(v.i == 7);
  Arr e;
  int64_t shape[2] = {3, 0};
  CN_REQUIRE_OK(cn_zeros(e.out(), 2, shape, CN_FLOAT32, CN_ORDER_C));
  cn_array_size(&n, e);
  REQUIRE(n == 0);
  int32_t fl;
  cn_array_flags(&fl, e);
  REQUIRE((fl & CN_FLAG_C_CONTIGUOUS));
  REQUIRE((fl & CN_FLAG_F_CONTIGUOUS));
  CN_REQUIRE_ERR(cn_item(&v, e), CN_ERR_VALUE, "size 1");
  REQUIRE(cn_copy_to_buffer(nullptr, 0, e, CN_ORDER_C) == CN_OK);
}

TEST_CASE("creation errors leave *out untouched", "[array][errors]") {
  cn_array sentinel = (cn_array)0x1234;
  cn_array out = sentinel;
  int64_t bad[2] = {2, -1};
  CN_REQUIRE_ERR(cn_zeros(&out, 2, bad, CN_FLOAT64, CN_ORDER_C), CN_ERR_VALUE,
                 "negative dimensions");
  REQUIRE(out == sentinel);
  int64_t huge[2] = {INT64_MAX / 2, 4};
  CN_REQUIRE_ERR(cn_empty(&out, 2, huge, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "too big");
  int64_t big8[1] = {INT64_MAX / 4};
  CN_REQUIRE_ERR(cn_empty(&out, 1, big8, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "too big");
  int64_t ok[1] = {3};
  CN_REQUIRE_ERR(cn_empty(&out, 1, ok, (cn_dtype)0x0230, CN_ORDER_C),
                 CN_ERR_TYPE, "invalid dtype");
  CN_REQUIRE_ERR(cn_empty(&out, 33, ok, CN_FLOAT64, CN_ORDER_C), CN_ERR_VALUE,
                 "ndim 33");
  CN_REQUIRE_ERR(cn_empty(&out, 1, nullptr, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "'shape' is NULL");
  CN_REQUIRE_ERR(cn_empty(&out, 1, ok, CN_FLOAT64, (cn_order)7), CN_ERR_VALUE,
                 "invalid order");
  CN_REQUIRE_ERR(cn_empty(nullptr, 1, ok, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "output pointer is NULL");
  cn_scalar s = cn_scalar_int(1);
  s.kind = 99;
  CN_REQUIRE_ERR(cn_full(&out, 1, ok, s, CN_FLOAT64, CN_ORDER_C), CN_ERR_VALUE,
                 "invalid scalar kind");
  REQUIRE(out == sentinel);
  // as NumPy, non-zero extents must not overflow even when another is 0
  int64_t zero_huge[3] = {0, 1ll << 62, 1ll << 62};
  CN_REQUIRE_ERR(cn_empty(&out, 3, zero_huge, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "too big");
  int64_t zero_ok[2] = {0, 1ll << 40};
  Arr z;
  CN_REQUIRE_OK(cn_empty(z.out(), 2, zero_ok, CN_FLOAT64, CN_ORDER_C));
}

TEST_CASE("like-creation keeps shape and stride order", "[array]") {
  int64_t shape[2] = {3, 4};
  Arr f, l;
  CN_REQUIRE_OK(cn_ones(f.out(), 2, shape, CN_FLOAT64, CN_ORDER_F));
  CN_REQUIRE_OK(cn_zeros_like(l.out(), f, CN_INT8));
  int32_t fl;
  cn_array_flags(&fl, l);
  REQUIRE((fl & CN_FLAG_F_CONTIGUOUS));
  cn_dtype dt;
  cn_array_dtype(&dt, l);
  REQUIRE(dt == CN_INT8);
  CN_REQUIRE_OK(cn_full_like(l.out(), f, cn_scalar_float(2.5),
                             CN_DTYPE_DEFAULT));
  REQUIRE(to_vec<double>(l) == std::vector<double>(12, 2.5));
  CN_REQUIRE_OK(cn_ones_like(l.out(), f, CN_DTYPE_DEFAULT));
  CN_REQUIRE_OK(cn_empty_like(l.out(), f, CN_COMPLEX64));
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_zeros_like(&out, nullptr, CN_INT8), CN_ERR_VALUE,
                 "'proto' is NULL");
  CN_REQUIRE_ERR(cn_zeros_like(&out, f, (cn_dtype)1), CN_ERR_TYPE,
                 "invalid dtype");
  REQUIRE(out == nullptr);
}

TEST_CASE("arange, linspace, eye, identity", "[array]") {
  Arr a;
  CN_REQUIRE_OK(cn_arange(a.out(), 0, 1, 0.1, CN_DTYPE_DEFAULT));
  auto v = to_vec<double>(a);
  REQUIRE(v.size() == 10); // ceil((1-0)/0.1) = 10
  for (size_t i = 0; i < v.size(); i++)
    REQUIRE(v[i] == (double)i * 0.1);
  CN_REQUIRE_OK(cn_arange(a.out(), 10, 0, -3, CN_INT32));
  REQUIRE(to_vec<int32_t>(a) == std::vector<int32_t>{10, 7, 4, 1});
  CN_REQUIRE_OK(cn_arange(a.out(), 5, 1, 1, CN_DTYPE_DEFAULT));
  REQUIRE(to_vec<double>(a).empty());
  CN_REQUIRE_OK(cn_arange_int(a.out(), INT64_MAX - 3, INT64_MAX, 2,
                              CN_DTYPE_DEFAULT));
  REQUIRE(to_vec<int64_t>(a) ==
          std::vector<int64_t>{INT64_MAX - 3, INT64_MAX - 1});
  CN_REQUIRE_OK(cn_arange_int(a.out(), -7, 7, 5, CN_UINT8));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{249, 254, 3});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_arange(&out, 0, 1, 0, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "step must not be zero");
  CN_REQUIRE_ERR(cn_arange(&out, 0, INFINITY, 1, CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "finite");
  CN_REQUIRE_ERR(cn_arange_int(&out, 0, 1, 0, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "zero");
  CN_REQUIRE_OK(cn_linspace(a.out(), 0, 1, 5, 1, CN_DTYPE_DEFAULT));
  REQUIRE(to_vec<double>(a) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  CN_REQUIRE_OK(cn_linspace(a.out(), 0, 1, 4, 0, CN_FLOAT32));
  REQUIRE(to_vec<float>(a) == std::vector<float>{0, 0.25f, 0.5f, 0.75f});
  CN_REQUIRE_OK(cn_linspace(a.out(), 3, 9, 1, 1, CN_DTYPE_DEFAULT));
  REQUIRE(to_vec<double>(a) == std::vector<double>{3});
  CN_REQUIRE_OK(cn_linspace(a.out(), 3, 9, 0, 1, CN_DTYPE_DEFAULT));
  REQUIRE(to_vec<double>(a).empty());
  CN_REQUIRE_ERR(cn_linspace(&out, 0, 1, -1, 1, CN_DTYPE_DEFAULT),
                 CN_ERR_VALUE, "must be non-negative");
  REQUIRE(out == nullptr);
  CN_REQUIRE_OK(cn_eye(a.out(), 3, 4, 1, CN_INT32, CN_ORDER_C));
  REQUIRE(to_vec<int32_t>(a) ==
          std::vector<int32_t>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  CN_REQUIRE_OK(cn_eye(a.out(), 3, -1, -2, CN_FLOAT64, CN_ORDER_F));
  REQUIRE(to_vec<double>(a) ==
          std::vector<double>{0, 0, 0, 0, 0, 0, 1, 0, 0});
  CN_REQUIRE_OK(cn_eye(a.out(), 2, 2, 5, CN_FLOAT64, CN_ORDER_C));
  REQUIRE(to_vec<double>(a) == std::vector<double>(4, 0));
  CN_REQUIRE_OK(cn_identity(a.out(), 2, CN_BOOL));
  REQUIRE(to_vec<uint8_t>(a) == std::vector<uint8_t>{1, 0, 0, 1});
  CN_REQUIRE_ERR(cn_identity(&out, -1, CN_BOOL), CN_ERR_VALUE, "negative");
}

TEST_CASE("from_host copies with strides; bounds are checked",
          "[array][host]") {
  double data[12];
  for (int i = 0; i < 12; i++)
    data[i] = i;
  // a reversed view of every other element: data[10], data[8], ..., data[0]
  int64_t shape[1] = {6}, strides[1] = {-2};
  Arr a;
  CN_REQUIRE_OK(cn_from_host(a.out(), data + 10, 10 * 8, 2 * 8, 1, shape,
                             strides, CN_FLOAT64));
  REQUIRE(to_vec<double>(a) == std::vector<double>{10, 8, 6, 4, 2, 0});
  data[10] = -1; // a copy: not affected
  REQUIRE(to_vec<double>(a)[0] == 10);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_from_host(&out, data + 10, 9 * 8, 2 * 8, 1, shape,
                              strides, CN_FLOAT64),
                 CN_ERR_VALUE, "strides reach outside");
  int64_t s2[1] = {3};
  CN_REQUIRE_ERR(cn_from_host(&out, data, 0, 12 * 8, 1, shape, s2, CN_FLOAT64),
                 CN_ERR_VALUE, "strides reach outside");
  CN_REQUIRE_ERR(cn_from_host(&out, nullptr, 0, 48, 1, shape, nullptr,
                              CN_FLOAT64),
                 CN_ERR_VALUE, "'data' is NULL");
  CN_REQUIRE_ERR(cn_from_host(&out, data, -1, 48, 1, shape, nullptr,
                              CN_FLOAT64),
                 CN_ERR_VALUE, "negative memory bounds");
  REQUIRE(out == nullptr);
  // a 2-d Fortran-order block
  int64_t sh2[2] = {2, 3}, st2[2] = {1, 2};
  CN_REQUIRE_OK(cn_from_host(a.out(), data, 0, 6 * 8, 2, sh2, st2,
                             CN_FLOAT64));
  REQUIRE(to_vec<double>(a) == std::vector<double>{0, 2, 4, 1, 3, 5});
  std::vector<double> fbuf(6);
  CN_REQUIRE_OK(cn_copy_to_buffer(fbuf.data(), 48, a, CN_ORDER_F));
  REQUIRE(fbuf == std::vector<double>{0, 1, 2, 3, 4, 5});
  CN_REQUIRE_ERR(cn_copy_to_buffer(fbuf.data(), 40, a, CN_ORDER_F),
                 CN_ERR_VALUE, "smaller than");
  CN_REQUIRE_ERR(cn_copy_to_buffer(fbuf.data(), 48, a, CN_ORDER_K),
                 CN_ERR_VALUE, "order");
}

static int g_released = 0;
static void count_release(void *ctx) {
  g_released++;
  *(int *)ctx += 1;
}

TEST_CASE("wrap_host borrows memory and releases once", "[array][host]") {
  float data[6] = {1, 2, 3, 4, 5, 6};
  int calls = 0;
  int64_t shape[2] = {2, 3};
  cn_array a = nullptr;
  CN_REQUIRE_OK(cn_wrap_host(&a, data, 0, sizeof data, 2, shape, nullptr,
                             CN_FLOAT32, 0, count_release, &calls));
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  cn_array_release(a);
  REQUIRE(calls == 0); // the view keeps the memory alive
  CN_REQUIRE_OK(cn_fill(t, cn_scalar_float(9)));
  REQUIRE(data[5] == 9); // writes go to the caller's memory
  t = Arr();
  REQUIRE(calls == 1);
  // read-only wrap refuses writes
  CN_REQUIRE_OK(cn_wrap_host(&a, data, 0, sizeof data, 2, shape, nullptr,
                             CN_FLOAT32, 1, count_release, &calls));
  int32_t fl;
  cn_array_flags(&fl, a);
  REQUIRE(!(fl & CN_FLAG_WRITEABLE));
  CN_REQUIRE_ERR(cn_fill(a, cn_scalar_float(0)), CN_ERR_VALUE, "read-only");
  REQUIRE(data[0] == 9);
  cn_array_release(a);
  REQUIRE(calls == 2);
  // failure: callback not called, caller keeps ownership
  cn_array out = nullptr;
  int64_t st[2] = {3, 100};
  CN_REQUIRE_ERR(cn_wrap_host(&out, data, 0, sizeof data, 2, shape, st,
                              CN_FLOAT32, 0, count_release, &calls),
                 CN_ERR_VALUE, "outside");
  REQUIRE(calls == 2);
  REQUIRE(out == nullptr);
}

TEST_CASE("host memory bounds are checked without overflow",
          "[array][host][overflow][errors]") {
  double data[4] = {1, 2, 3, 4};
  int64_t n = 4, big = INT64_MAX;
  int calls = 0;
  cn_array out = nullptr;
  // before + after overflows int64
  CN_REQUIRE_ERR(cn_wrap_host(&out, data, big, big, 1, &n, nullptr, CN_FLOAT64,
                              0, count_release, &calls),
                 CN_ERR_VALUE, "wrap around the address space");
  CN_REQUIRE_ERR(cn_from_host(&out, data, big, big, 1, &n, nullptr, CN_FLOAT64),
                 CN_ERR_VALUE, "wrap around");
  // the memory would start below address 0
  int64_t below = (int64_t)(uintptr_t)data + 64;
  CN_REQUIRE_ERR(cn_wrap_host(&out, data, below, sizeof data, 1, &n, nullptr,
                              CN_FLOAT64, 0, count_release, &calls),
                 CN_ERR_VALUE, "wrap around");
  // or end past the top of the address space
  void *top = (void *)(UINTPTR_MAX - 15);
  CN_REQUIRE_ERR(cn_wrap_host(&out, top, 0, 32, 1, &n, nullptr, CN_FLOAT64, 0,
                              count_release, &calls),
                 CN_ERR_VALUE, "wrap around");
  // strides whose reach overflows: stride * (extent - 1) * itemsize
  int64_t two = 2, huge_stride = big / 2;
  CN_REQUIRE_ERR(cn_wrap_host(&out, data, 0, sizeof data, 1, &two,
                              &huge_stride, CN_FLOAT64, 0, count_release,
                              &calls),
                 CN_ERR_VALUE, "cn_wrap_host: the strides reach more bytes");
  int64_t neg_stride = INT64_MIN + 1;
  CN_REQUIRE_ERR(cn_from_host(&out, data, 0, sizeof data, 1, &two, &neg_stride,
                              CN_FLOAT64),
                 CN_ERR_VALUE, "cn_from_host: the strides reach");
  // a size that overflows, even with an empty extent
  int64_t shape[3] = {0, (int64_t)1 << 62, (int64_t)1 << 62};
  CN_REQUIRE_ERR(cn_wrap_host(&out, data, 0, sizeof data, 3, shape, nullptr,
                              CN_FLOAT64, 0, count_release, &calls),
                 CN_ERR_VALUE, "too big");
  REQUIRE(calls == 0);
  REQUIRE(out == nullptr);
  // an extent-1 axis may carry any stride: it is never followed
  int64_t sh2[2] = {1, 4}, st2[2] = {big, 1};
  Arr a;
  CN_REQUIRE_OK(cn_wrap_host(a.out(), data, 0, sizeof data, 2, sh2, st2,
                             CN_FLOAT64, 1, nullptr, nullptr));
  REQUIRE(to_vec<double>(a) == std::vector<double>{1, 2, 3, 4});
  Arr b;
  CN_REQUIRE_OK(cn_view_dtype(b.out(), a, CN_INT32));
  REQUIRE(shape_of(b) == std::vector<int64_t>{1, 8});
  // bounds exactly around the elements, with a negative stride
  int64_t back = -1;
  Arr c;
  CN_REQUIRE_OK(cn_from_host(c.out(), data + 3, 3 * sizeof(double),
                             sizeof(double), 1, &n, &back, CN_FLOAT64));
  REQUIRE(to_vec<double>(c) == std::vector<double>{4, 3, 2, 1});
}

TEST_CASE("released and NULL handles are clear errors", "[array][errors]") {
  int64_t shape[1] = {3};
  cn_array a = nullptr;
  CN_REQUIRE_OK(cn_zeros(&a, 1, shape, CN_FLOAT64, CN_ORDER_C));
  int64_t rc;
  CN_REQUIRE_OK(cn_array_retain(a));
  cn_array_refcount(&rc, a);
  REQUIRE(rc == 2);
  cn_array_release(a);
  cn_array_release(a);
  int32_t nd;
  CN_REQUIRE_ERR(cn_array_ndim(&nd, a), CN_ERR_VALUE, "released");
  CN_REQUIRE_ERR(cn_array_retain(a), CN_ERR_VALUE, "released");
  cn_array_release(a); // ignored
  cn_array_release(nullptr);
  CN_REQUIRE_ERR(cn_array_ndim(&nd, nullptr), CN_ERR_VALUE, "'a' is NULL");
  Arr b;
  CN_REQUIRE_OK(cn_zeros(b.out(), 1, shape, CN_FLOAT64, CN_ORDER_C));
  int64_t sh[1];
  CN_REQUIRE_ERR(cn_array_shape(sh, 0, b), CN_ERR_VALUE, "capacity");
  int64_t d;
  CN_REQUIRE_ERR(cn_array_dim(&d, b, 1), CN_ERR_AXIS, "out of bounds");
  CN_REQUIRE_OK(cn_array_dim(&d, b, -1));
  REQUIRE(d == 3);
}

TEST_CASE("astype follows NumPy's cast results", "[array][cast]") {
  double vals[6] = {1.9, -1.9, NAN, 300.0, -0.0, 1e30};
  Arr a = from_vec(std::vector<double>(vals, vals + 6), {6}, CN_FLOAT64);
  Arr b;
  CN_REQUIRE_OK(cn_astype(b.out(), a, CN_INT32, 1));
  auto i32 = to_vec<int32_t>(b);
  REQUIRE(i32[0] == 1);
  REQUIRE(i32[1] == -1);
  REQUIRE(i32[3] == 300);
  CN_REQUIRE_OK(cn_astype(b.out(), a, CN_INT64, 1));
  REQUIRE(to_vec<int64_t>(b)[2] == INT64_MIN); // NaN as on x86
  CN_REQUIRE_OK(cn_astype(b.out(), a, CN_UINT8, 1));
  REQUIRE(to_vec<uint8_t>(b)[3] == 44); // 300 wraps
  CN_REQUIRE_OK(cn_astype(b.out(), a, CN_BOOL, 1));
  REQUIRE(to_vec<uint8_t>(b) == std::vector<uint8_t>{1, 1, 1, 1, 0, 1});
  CN_REQUIRE_OK(cn_astype(b.out(), a, CN_FLOAT32, 1));
  auto f = to_vec<float>(b);
  REQUIRE(std::isnan(f[2]));
  REQUIRE(std::signbit(f[4]));
  REQUIRE(f[0] == 1.9f);
  std::vector<std::complex<double>> cz = {{1.5, 2}, {-3, 0}};
  Arr c = from_vec(cz, {2}, CN_COMPLEX128);
  CN_REQUIRE_OK(cn_astype(b.out(), c, CN_FLOAT64, 1));
  REQUIRE(to_vec<double>(b) == std::vector<double>{1.5, -3});
  CN_REQUIRE_OK(cn_astype(b.out(), c, CN_INT16, 1));
  REQUIRE(to_vec<int16_t>(b) == std::vector<int16_t>{1, -3});
  CN_REQUIRE_OK(cn_astype(b.out(), c, CN_COMPLEX64, 1));
  REQUIRE(to_vec<std::complex<float>>(b)[0] == std::complex<float>(1.5f, 2));
  std::vector<uint64_t> big = {UINT64_MAX, 1ull << 63};
  Arr u = from_vec(big, {2}, CN_UINT64);
  CN_REQUIRE_OK(cn_astype(b.out(), u, CN_FLOAT64, 1));
  REQUIRE(to_vec<double>(b)[1] == 9223372036854775808.0);
  Arr b2;
  CN_REQUIRE_OK(cn_astype(b2.out(), b, CN_UINT64, 1));
  REQUIRE(to_vec<uint64_t>(b2)[1] == (1ull << 63));
  CN_REQUIRE_OK(cn_astype(b.out(), u, CN_INT8, 1));
  REQUIRE(to_vec<int8_t>(b) == std::vector<int8_t>{-1, 0});
  // copy=0 with the same dtype returns the same handle
  Arr same;
  CN_REQUIRE_OK(cn_astype(same.out(), a, CN_FLOAT64, 0));
  REQUIRE(same.h == a.h);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_astype(&out, a, (cn_dtype)5, 1), CN_ERR_TYPE, "invalid");
  REQUIRE(out == nullptr);
}

namespace {
// clang-format off
// Generated with NumPy 2.4.6 (x86-64, one element at a time): value x
// of float64 cast to each integer dtype, as uint64 bit patterns.
static const double k_f2i_vals[26] = {NAN, INFINITY, -INFINITY, 3000000000.0,
    -3000000000.0, 1e+20, -1.0, 9.223372036854776e+18, 70000.0, -70000.0, 300.0,
    -129.0, 1.8446744073709552e+19, 4294967296.0, -2147483649.0, 2147483648.0,
    4294967295.0, -9.223372036854776e+18, 1.8e+19, -0.5, 255.5, 32768.0,
    65536.0, -2147483648.5, 1.9, -1.9};
static const cn_dtype k_f2i_dts[8] = {CN_INT8, CN_INT16, CN_INT32, CN_INT64,
    CN_UINT8, CN_UINT16, CN_UINT32, CN_UINT64};
static const uint64_t k_f2i_np[8][26] = {
  {0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 255ull, 0ull, 112ull, 144ull, 44ull,
    127ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 255ull, 0ull, 0ull,
    0ull, 1ull, 255ull},
  {0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 65535ull, 0ull, 4464ull, 61072ull,
    300ull, 65407ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 255ull,
    32768ull, 0ull, 0ull, 1ull, 65535ull},
  {2147483648ull, 2147483648ull, 2147483648ull, 2147483648ull, 2147483648ull,
    2147483648ull, 4294967295ull, 2147483648ull, 70000ull, 4294897296ull,
    300ull, 4294967167ull, 2147483648ull, 2147483648ull, 2147483648ull,
    2147483648ull, 2147483648ull, 2147483648ull, 2147483648ull, 0ull, 255ull,
    32768ull, 65536ull, 2147483648ull, 1ull, 4294967295ull},
  {9223372036854775808ull, 9223372036854775808ull, 9223372036854775808ull,
    3000000000ull, 18446744070709551616ull, 9223372036854775808ull,
    18446744073709551615ull, 9223372036854775808ull, 70000ull,
    18446744073709481616ull, 300ull, 18446744073709551487ull,
    9223372036854775808ull, 4294967296ull, 18446744071562067967ull,
    2147483648ull, 4294967295ull, 9223372036854775808ull,
    9223372036854775808ull, 0ull, 255ull, 32768ull, 65536ull,
    18446744071562067968ull, 1ull, 18446744073709551615ull},
  {0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 255ull, 0ull, 112ull, 144ull, 44ull,
    127ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 255ull, 0ull, 0ull,
    0ull, 1ull, 255ull},
  {0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 65535ull, 0ull, 4464ull, 61072ull,
    300ull, 65407ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 0ull, 255ull,
    32768ull, 0ull, 0ull, 1ull, 65535ull},
  {0ull, 0ull, 0ull, 3000000000ull, 1294967296ull, 0ull, 4294967295ull, 0ull,
    70000ull, 4294897296ull, 300ull, 4294967167ull, 0ull, 0ull, 2147483647ull,
    2147483648ull, 4294967295ull, 0ull, 0ull, 0ull, 255ull, 32768ull, 65536ull,
    2147483648ull, 1ull, 4294967295ull},
  {9223372036854775808ull, 0ull, 9223372036854775808ull, 3000000000ull,
    18446744070709551616ull, 0ull, 18446744073709551615ull,
    9223372036854775808ull, 70000ull, 18446744073709481616ull, 300ull,
    18446744073709551487ull, 0ull, 4294967296ull, 18446744071562067967ull,
    2147483648ull, 4294967295ull, 9223372036854775808ull,
    18000000000000000000ull, 0ull, 255ull, 32768ull, 65536ull,
    18446744071562067968ull, 1ull, 18446744073709551615ull},
};
// clang-format on

// Low `size` bytes of v, zero-extended.
uint64_t low_bits(const unsigned char *p, size_t size) {
  uint64_t v = 0;
  std::memcpy(&v, p, size); // little-endian x86-64 / aarch64
  return v;
}
} // namespace

TEST_CASE("float -> int casts of NaN, inf and out-of-range values match "
          "NumPy",
          "[array][cast]") {
  const size_t nv = sizeof k_f2i_vals / sizeof k_f2i_vals[0];
  const cn_dtype srcs[4] = {CN_FLOAT64, CN_FLOAT32, CN_COMPLEX128,
                            CN_COMPLEX64};
  for (cn_dtype sdt : srcs) {
    const bool single = sdt == CN_FLOAT32 || sdt == CN_COMPLEX64;
    // The table holds float64 values; single precision keeps the exact ones.
    std::vector<size_t> keep;
    for (size_t i = 0; i < nv; i++)
      if (!single || std::isnan(k_f2i_vals[i]) ||
          (double)(float)k_f2i_vals[i] == k_f2i_vals[i])
        keep.push_back(i);
    for (int64_t reps : {1, 40}) { // 40: a large array (vector loops)
      std::vector<double> re;
      for (int64_t r = 0; r < reps; r++)
        for (size_t i : keep)
          re.push_back(k_f2i_vals[i]);
      const int64_t n = (int64_t)re.size();
      Arr src64 = from_vec(re, {n}, CN_FLOAT64);
      Arr src;
      if (sdt == CN_COMPLEX128 || sdt == CN_COMPLEX64) {
        // real part x, imaginary part 7 (ignored by the cast)
        std::vector<std::complex<double>> z;
        for (double x : re)
          z.emplace_back(x, 7.0);
        Arr zz = from_vec(z, {n}, CN_COMPLEX128);
        CN_REQUIRE_OK(cn_astype(src.out(), zz, sdt, 1));
      } else {
        CN_REQUIRE_OK(cn_astype(src.out(), src64, sdt, 1));
      }
      Arr rev; // negative stride
      CN_REQUIRE_OK(cn_flip(rev.out(), src, 0, nullptr));
      for (int d = 0; d < 8; d++) {
        const cn_dtype ddt = k_f2i_dts[d];
        const size_t isz = (size_t)cn_dtype_itemsize(ddt);
        INFO(cn_dtype_name(sdt)
             << " -> " << cn_dtype_name(ddt) << ", n = " << n);
        Arr out, outr;
        CN_REQUIRE_OK(cn_astype(out.out(), src, ddt, 1));
        CN_REQUIRE_OK(cn_astype(outr.out(), rev, ddt, 1));
        std::vector<unsigned char> got((size_t)n * isz), gotr(got.size());
        CN_REQUIRE_OK(cn_copy_to_buffer(got.data(), (int64_t)got.size(), out,
                                        CN_ORDER_C));
        CN_REQUIRE_OK(cn_copy_to_buffer(gotr.data(), (int64_t)gotr.size(), outr,
                                        CN_ORDER_C));
        for (int64_t k = 0; k < n; k++) {
          size_t i = keep[(size_t)k % keep.size()];
          INFO("x = " << k_f2i_vals[i]);
          uint64_t want = k_f2i_np[d][i];
          REQUIRE(low_bits(&got[(size_t)k * isz], isz) == want);
          REQUIRE(low_bits(&gotr[(size_t)(n - 1 - k) * isz], isz) == want);
        }
      }
    }
  }
}

TEST_CASE("every dtype pair casts like a long double round trip",
          "[array][cast]") {
  // values exactly representable in every dtype
  std::vector<double> vals = {0, 1, 2, 3, 7, 100, 127};
  for (int i = 0; i < CN_NUM_DTYPES; i++)
    for (int j = 0; j < CN_NUM_DTYPES; j++) {
      cn_dtype a, b;
      cn_dtype_at(&a, i);
      cn_dtype_at(&b, j);
      Arr src = from_vec(vals, {7}, CN_FLOAT64);
      Arr x, y, back;
      CN_REQUIRE_OK(cn_astype(x.out(), src, a, 1));
      CN_REQUIRE_OK(cn_astype(y.out(), x, b, 1));
      CN_REQUIRE_OK(cn_astype(back.out(), y, CN_FLOAT64, 1));
      auto got = to_vec<double>(back);
      INFO(cn_dtype_name(a) << " -> " << cn_dtype_name(b));
      for (size_t k = 0; k < vals.size(); k++) {
        double expect = vals[k];
        if (a == CN_BOOL || b == CN_BOOL) expect = expect != 0;
        REQUIRE(got[k] == expect);
      }
    }
}

TEST_CASE("copy orders and assign with broadcasting and overlap",
          "[array][copy]") {
  std::vector<int32_t> v(12);
  for (int i = 0; i < 12; i++)
    v[i] = i;
  Arr a = from_vec(v, {3, 4}, CN_INT32);
  Arr f;
  CN_REQUIRE_OK(cn_copy(f.out(), a, CN_ORDER_F));
  int32_t fl;
  cn_array_flags(&fl, f);
  REQUIRE((fl & CN_FLAG_F_CONTIGUOUS));
  REQUIRE(to_vec<int32_t>(f) == v);
  Arr k;
  CN_REQUIRE_OK(cn_copy(k.out(), f, CN_ORDER_K));
  cn_array_flags(&fl, k);
  REQUIRE((fl & CN_FLAG_F_CONTIGUOUS));
  CN_REQUIRE_OK(cn_copy(k.out(), f, CN_ORDER_A));
  cn_array_flags(&fl, k);
  REQUIRE((fl & CN_FLAG_F_CONTIGUOUS));
  // broadcast a row into every row
  Arr row = from_vec(std::vector<double>{1.5, 2.5, 3.5, 4.5}, {4}, CN_FLOAT64);
  CN_REQUIRE_OK(cn_assign(a, row));
  REQUIRE(to_vec<int32_t>(a) ==
          std::vector<int32_t>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4});
  Arr bad = from_vec(std::vector<double>{1, 2, 3}, {3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_assign(a, bad), CN_ERR_SHAPE, "cannot broadcast");
  REQUIRE(to_vec<int32_t>(a)[0] == 1);
  // overlapping: x[1:] = x[:-1] must act as if through a copy
  Arr x = from_vec(std::vector<int64_t>{0, 1, 2, 3, 4, 5}, {6}, CN_INT64);
  Arr lo, hi;
  CN_REQUIRE_OK(cn_slice_axis(hi.out(), x, 0, 1, CN_SLICE_NONE, 1));
  CN_REQUIRE_OK(cn_slice_axis(lo.out(), x, 0, 0, -1, 1));
  CN_REQUIRE_OK(cn_assign(hi, lo));
  REQUIRE(to_vec<int64_t>(x) == std::vector<int64_t>{0, 0, 1, 2, 3, 4});
  // reversed onto itself
  Arr r;
  CN_REQUIRE_OK(cn_flip(r.out(), x, 0, nullptr));
  CN_REQUIRE_OK(cn_assign(x, r));
  REQUIRE(to_vec<int64_t>(x) == std::vector<int64_t>{4, 3, 2, 1, 0, 0});
  Arr ro;
  CN_REQUIRE_OK(cn_readonly_view(ro.out(), x));
  CN_REQUIRE_ERR(cn_assign(ro, r), CN_ERR_VALUE, "read-only");
  CN_REQUIRE_ERR(cn_assign(nullptr, r), CN_ERR_VALUE, "NULL");
}

TEST_CASE("large transposed copies are exact (tiled path, threads)",
          "[array][copy]") {
  const int64_t n = 523, m = 1031; // odd sizes: partial tiles
  std::vector<double> v(n * m);
  for (int64_t i = 0; i < n * m; i++)
    v[i] = (double)i;
  Arr a = from_vec(v, {n, m}, CN_FLOAT64);
  Arr t, c;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  CN_REQUIRE_OK(cn_copy(c.out(), t, CN_ORDER_C));
  auto got = to_vec<double>(c);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      REQUIRE(got[i * n + j] == v[j * m + i]);
  CN_REQUIRE_OK(cn_astype(c.out(), t, CN_FLOAT32, 1));
  auto gf = to_vec<float>(c);
  REQUIRE(gf[5 * n + 7] == (float)v[7 * m + 5]);
}

TEST_CASE("weak scalars and items", "[array]") {
  Arr w;
  CN_REQUIRE_OK(cn_scalar_array(w.out(), cn_scalar_float(2.5)));
  int32_t fl;
  cn_array_flags(&fl, w);
  REQUIRE((fl & CN_FLAG_WEAK_SCALAR));
  cn_dtype dt;
  cn_array_dtype(&dt, w);
  REQUIRE(dt == CN_FLOAT64);
  CN_REQUIRE_OK(cn_scalar_array(w.out(), cn_scalar_uint(UINT64_MAX)));
  cn_array_dtype(&dt, w);
  REQUIRE(dt == CN_UINT64);
  cn_scalar s;
  CN_REQUIRE_OK(cn_item(&s, w));
  REQUIRE(s.kind == CN_SCALAR_UINT);
  REQUIRE((uint64_t)s.i == UINT64_MAX);
  Arr c;
  CN_REQUIRE_OK(cn_from_scalar(c.out(), cn_scalar_complex(1, -2),
                               CN_COMPLEX64));
  CN_REQUIRE_OK(cn_item(&s, c));
  REQUIRE(s.kind == CN_SCALAR_COMPLEX);
  REQUIRE(s.re == 1);
  REQUIRE(s.im == -2);
  CN_REQUIRE_OK(cn_from_scalar(c.out(), cn_scalar_bool(1), CN_BOOL));
  CN_REQUIRE_OK(cn_item(&s, c));
  REQUIRE(s.kind == CN_SCALAR_BOOL);
  REQUIRE(s.i == 1);
}

TEST_CASE("transfers on the CPU and without CUDA", "[array][device]") {
  int64_t shape[1] = {4};
  Arr a, h;
  CN_REQUIRE_OK(cn_ones(a.out(), 1, shape, CN_FLOAT32, CN_ORDER_C));
  CN_REQUIRE_OK(cn_to_host(h.out(), a));
  REQUIRE(h.h == a.h);
  CN_REQUIRE_OK(cn_to_active(h.out(), a));
  int32_t dt, id;
  CN_REQUIRE_OK(cn_array_device(&dt, &id, h));
  REQUIRE(dt == CN_DEVICE_CPU);
  REQUIRE(id == 0);
  int32_t avail = 0;
  cn_backend_available(&avail, "cuda");
  if (!avail) {
    cn_array out = nullptr;
    CN_REQUIRE_ERR(cn_to_device(&out, a, 0), CN_ERR_DEVICE, "unavailable");
    REQUIRE(out == nullptr);
  }
}

TEST_CASE("host pool reuses large blocks", "[array][memory]") {
  int64_t shape[1] = {1 << 20}; // 8 MiB of float64
  int64_t used0, cached0, used1, cached1;
  {
    Arr a;
    CN_REQUIRE_OK(cn_empty(a.out(), 1, shape, CN_FLOAT64, CN_ORDER_C));
    CN_REQUIRE_OK(cn_host_memory_info(&used0, &cached0));
    REQUIRE(used0 >= 8 << 20);
  }
  CN_REQUIRE_OK(cn_host_memory_info(&used1, &cached1));
  REQUIRE(cached1 >= 8 << 20);
  cn_free_memory();
  CN_REQUIRE_OK(cn_host_memory_info(&used1, &cached1));
  REQUIRE(cached1 == 0);
  CN_REQUIRE_ERR(cn_host_memory_info(nullptr, &cached1), CN_ERR_VALUE, "NULL");
}

TEST_CASE("host pool cache never lifts the footprint above the live high-water mark",
          "[array][memory]") {
  cn_free_memory(); // the high-water mark restarts from what is in use now
  int64_t used0, cached0, used, cached;
  CN_REQUIRE_OK(cn_host_memory_info(&used0, &cached0));
  REQUIRE(cached0 == 0);
  int64_t small[1] = {1 << 20}, big[1] = {3 << 19}; // 8 and 12 MiB
  {
    Arr a;
    CN_REQUIRE_OK(cn_empty(a.out(), 1, small, CN_FLOAT64, CN_ORDER_C));
  }
  CN_REQUIRE_OK(cn_host_memory_info(&used, &cached));
  REQUIRE(cached == 8 << 20); // kept for reuse: it is within the mark
  {
    Arr a;
    CN_REQUIRE_OK(cn_empty(a.out(), 1, big, CN_FLOAT64, CN_ORDER_C));
    CN_REQUIRE_OK(cn_host_memory_info(&used, &cached));
    // the 8 MiB block would lift the footprint to 20 MiB over a 12 MiB mark
    REQUIRE(used == used0 + (12 << 20));
    REQUIRE(cached == 0);
    REQUIRE(used + cached <= (used0 + (12 << 20)) * 17 / 16);
  }
  {
    Arr a, b; // 8 MiB again: the cached 12 MiB block goes, one is mapped
    CN_REQUIRE_OK(cn_empty(a.out(), 1, small, CN_FLOAT64, CN_ORDER_C));
    CN_REQUIRE_OK(cn_host_memory_info(&used, &cached));
    REQUIRE(used + cached <= (used0 + (12 << 20)) * 17 / 16);
    // while two 8 MiB arrays live, the mark rises to 16 MiB
    CN_REQUIRE_OK(cn_empty(b.out(), 1, small, CN_FLOAT64, CN_ORDER_C));
    CN_REQUIRE_OK(cn_host_memory_info(&used, &cached));
    REQUIRE(used == used0 + (16 << 20));
  }
  CN_REQUIRE_OK(cn_host_memory_info(&used, &cached));
  REQUIRE(cached == 16 << 20); // both kept: the footprint is the mark
  cn_free_memory();
}
