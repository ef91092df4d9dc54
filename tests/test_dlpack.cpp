// DLPack export and import (cunumpy/dlpack.h): round trips of every dtype
// and view kind, read-only in both directions, the deleter's exactly-once
// rule, and hostile tensors.
#include "testutil.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <thread>

extern "C" void cn__backend_reset_for_tests(void);

namespace {

bool has(const std::string &s, const std::string &needle) {
  return s.find(needle) != std::string::npos;
}

// ---- counting the producer's deleter -----------------------------------

// A producer-side tensor over test-owned memory whose deleter counts its
// calls (and the thread it ran on).
struct Foreign {
  DLManagedTensorVersioned v{};
  DLManagedTensor l{};
  int64_t shape[CN_MAX_DIMS + 8] = {};
  int64_t strides[CN_MAX_DIMS + 8] = {};
  std::vector<double> mem;
  std::atomic<int> deleted{0};

  static void del_v(DLManagedTensorVersioned *self) {
    static_cast<Foreign *>(self->manager_ctx)->deleted++;
  }
  static void del_l(DLManagedTensor *self) {
    static_cast<Foreign *>(self->manager_ctx)->deleted++;
  }
  // 1-d float64 tensor of n values 0, 1, ..., n-1, C-contiguous.
  explicit Foreign(int64_t n = 6) : mem(n) {
    for (int64_t i = 0; i < n; i++)
      mem[i] = (double)i;
    DLTensor t{};
    t.data = mem.data();
    t.device = {kDLCPU, 0};
    t.ndim = 1;
    t.dtype = {kDLFloat, 64, 1};
    shape[0] = n;
    strides[0] = 1;
    t.shape = shape;
    t.strides = strides;
    t.byte_offset = 0;
    v.version = {1, 1};
    v.manager_ctx = this;
    v.deleter = del_v;
    v.flags = 0;
    v.dl_tensor = t;
    l.dl_tensor = t;
    l.manager_ctx = this;
    l.deleter = del_l;
  }
  DLTensor &tv() { return v.dl_tensor; }
  DLTensor &tl() { return l.dl_tensor; }
};

// Sentinel handle value: a failing import must leave *out as it was.
cn_array sentinel() { return reinterpret_cast<cn_array>(uintptr_t{0x5e}); }

// Imports f's versioned tensor expecting failure: status, message, *out
// untouched, deleter called exactly once.
void expect_reject_v(Foreign &f, cn_status st, const char *needle) {
  cn_array out = sentinel();
  CN_REQUIRE_ERR(cn_from_dlpack(&out, &f.v), st, needle);
  CHECK(has(cn_last_error(), "cn_from_dlpack"));
  CHECK(out == sentinel());
  CHECK(f.deleted == 1);
}
void expect_reject_l(Foreign &f, cn_status st, const char *needle) {
  cn_array out = sentinel();
  CN_REQUIRE_ERR(cn_from_dlpack_legacy(&out, &f.l), st, needle);
  CHECK(has(cn_last_error(), "cn_from_dlpack_legacy"));
  CHECK(out == sentinel());
  CHECK(f.deleted == 1);
}

// ---- counting our own deleter -------------------------------------------

// Wraps the deleter of a tensor we exported so the test can count calls.
std::atomic<int> g_export_deletes{0};
void (*g_orig_v)(DLManagedTensorVersioned *) = nullptr;
void (*g_orig_l)(DLManagedTensor *) = nullptr;
void counting_v(DLManagedTensorVersioned *t) {
  g_export_deletes++;
  g_orig_v(t);
}
void counting_l(DLManagedTensor *t) {
  g_export_deletes++;
  g_orig_l(t);
}
void count_deletes(DLManagedTensorVersioned *t) {
  g_export_deletes = 0;
  g_orig_v = t->deleter;
  t->deleter = counting_v;
}
void count_deletes(DLManagedTensor *t) {
  g_export_deletes = 0;
  g_orig_l = t->deleter;
  t->deleter = counting_l;
}

std::vector<int64_t> vec(const int64_t *p, int32_t n) {
  return std::vector<int64_t>(p, p + n);
}
std::vector<int64_t> strides_of(cn_array a) {
  int32_t nd = 0;
  cn_array_ndim(&nd, a);
  std::vector<int64_t> s(nd);
  cn_array_strides(s.data(), nd, a);
  return s;
}
void *data_of(cn_array a) {
  void *p = nullptr;
  CN_REQUIRE_OK(cn_array_data(&p, a));
  return p;
}
int32_t flags_of(cn_array a) {
  int32_t f = 0;
  CN_REQUIRE_OK(cn_array_flags(&f, a));
  return f;
}

// Checks that t describes exactly the view a (element-0 data, byte_offset
// 0, element strides).
void check_describes(const DLTensor &t, cn_array a) {
  int32_t nd = 0;
  cn_dtype dt;
  int64_t size = 0;
  CN_REQUIRE_OK(cn_array_ndim(&nd, a));
  CN_REQUIRE_OK(cn_array_dtype(&dt, a));
  CN_REQUIRE_OK(cn_array_size(&size, a));
  CHECK(t.ndim == nd);
  CHECK(t.device.device_type == kDLCPU);
  CHECK(t.device.device_id == 0);
  CHECK(t.dtype.code == ((uint32_t)dt >> 8));
  CHECK(t.dtype.bits == ((uint32_t)dt & 0xff));
  CHECK(t.dtype.lanes == 1);
  CHECK(t.byte_offset == 0);
  REQUIRE(t.shape != nullptr);
  REQUIRE(t.strides != nullptr);
  CHECK(vec(t.shape, nd) == shape_of(a));
  CHECK(vec(t.strides, nd) == strides_of(a));
  if (size > 0)
    CHECK(t.data == data_of(a));
  else
    CHECK(t.data == nullptr);
}

Arr arange(int64_t n, cn_dtype dt = CN_FLOAT64) {
  Arr a;
  CN_REQUIRE_OK(cn_arange_int(a.out(), 0, n, 1, dt));
  return a;
}
Arr reshape(cn_array a, std::vector<int64_t> shape) {
  Arr r;
  CN_REQUIRE_OK(
      cn_reshape(r.out(), a, (int32_t)shape.size(), shape.data(), CN_ORDER_C));
  return r;
}

} // namespace

// ---- export ----------------------------------------------------------------

TEST_CASE("cn_to_dlpack describes the array: version 1.1, element strides") {
  Arr a = reshape(arange(12), {3, 4});
  DLManagedTensorVersioned *t = nullptr;
  CN_REQUIRE_OK(cn_to_dlpack(&t, a));
  REQUIRE(t != nullptr);
  CHECK(t->version.major == 1);
  CHECK(t->version.minor == 1);
  CHECK(t->flags == 0);
  CHECK(t->deleter != nullptr);
  check_describes(t->dl_tensor, a);
  CHECK(vec(t->dl_tensor.strides, 2) == std::vector<int64_t>{4, 1});
  // The tensor keeps the memory alive after the array is gone.
  a = Arr();
  const double *d = static_cast<const double *>(t->dl_tensor.data);
  for (int i = 0; i < 12; i++)
    CHECK(d[i] == i);
  count_deletes(t);
  t->deleter(t);
  CHECK(g_export_deletes == 1);
}

TEST_CASE("every dtype exports with its DLPack code and bits and round "
          "trips") {
  for (int32_t i = 0; i < CN_NUM_DTYPES; i++) {
    cn_dtype dt;
    CN_REQUIRE_OK(cn_dtype_at(&dt, i));
    INFO(cn_dtype_name(dt));
    Arr a = arange(5, dt);
    std::vector<unsigned char> before(5 * cn_dtype_itemsize(dt));
    CN_REQUIRE_OK(cn_copy_to_buffer(before.data(), (int64_t)before.size(), a,
                                    CN_ORDER_C));
    DLManagedTensorVersioned *t = nullptr;
    CN_REQUIRE_OK(cn_to_dlpack(&t, a));
    const uint8_t codes[] = {0, 1, 2, 5, 6};
    CHECK(std::find(std::begin(codes), std::end(codes),
                    t->dl_tensor.dtype.code) != std::end(codes));
    check_describes(t->dl_tensor, a);
    Arr b;
    CN_REQUIRE_OK(cn_from_dlpack(b.out(), t));
    cn_dtype bdt;
    CN_REQUIRE_OK(cn_array_dtype(&bdt, b));
    CHECK(bdt == dt);
    CHECK(data_of(b) == data_of(a)); // zero-copy
    std::vector<unsigned char> after(before.size());
    CN_REQUIRE_OK(
        cn_copy_to_buffer(after.data(), (int64_t)after.size(), b, CN_ORDER_C));
    CHECK(after == before);
  }
}

TEST_CASE("views export without copies and import back as the same view") {
  Arr base = reshape(arange(24), {4, 6});
  std::vector<Arr> views;
  SECTION("negative-step slice") {
    Arr v;
    int64_t start[] = {3, CN_SLICE_NONE}, stop[] = {CN_SLICE_NONE, 1},
            step[] = {-2, -2};
    CN_REQUIRE_OK(cn_slice(v.out(), base, 2, start, stop, step));
    views.push_back(std::move(v));
  }
  SECTION("transpose") {
    Arr v;
    CN_REQUIRE_OK(cn_transpose(v.out(), base));
    views.push_back(std::move(v));
  }
  SECTION("column") {
    Arr v;
    CN_REQUIRE_OK(cn_index_axis(v.out(), base, 1, 2));
    views.push_back(std::move(v));
  }
  SECTION("0-d") {
    Arr v;
    int64_t idx[] = {1, 5};
    Arr row;
    CN_REQUIRE_OK(cn_index_axis(row.out(), base, 0, idx[0]));
    CN_REQUIRE_OK(cn_index_axis(v.out(), row, 0, idx[1]));
    views.push_back(std::move(v));
  }
  SECTION("empty") {
    Arr v;
    CN_REQUIRE_OK(cn_slice_axis(v.out(), base, 0, 2, 2, 1));
    views.push_back(std::move(v));
  }
  for (Arr &v : views) {
    std::vector<double> expect = to_vec<double>(v);
    for (int legacy = 0; legacy < 2; legacy++) {
      INFO("legacy " << legacy);
      Arr back;
      if (legacy) {
        DLManagedTensor *t = nullptr;
        CN_REQUIRE_OK(cn_to_dlpack_legacy(&t, v));
        check_describes(t->dl_tensor, v);
        count_deletes(t);
        CN_REQUIRE_OK(cn_from_dlpack_legacy(back.out(), t));
      } else {
        DLManagedTensorVersioned *t = nullptr;
        CN_REQUIRE_OK(cn_to_dlpack(&t, v));
        check_describes(t->dl_tensor, v);
        CHECK(t->flags == 0);
        count_deletes(t);
        CN_REQUIRE_OK(cn_from_dlpack(back.out(), t));
      }
      CHECK(shape_of(back) == shape_of(v));
      int64_t size = 0;
      CN_REQUIRE_OK(cn_array_size(&size, v));
      if (size > 0) {
        CHECK(strides_of(back) == strides_of(v));
        CHECK(data_of(back) == data_of(v));
      }
      CHECK(to_vec<double>(back) == expect);
      CHECK((flags_of(back) & CN_FLAG_WRITEABLE) != 0);
      CHECK(g_export_deletes == 0);
      back = Arr();
      CHECK(g_export_deletes == 1);
    }
  }
}

TEST_CASE("writes through an imported view reach the exporter's memory") {
  Arr a = arange(4);
  DLManagedTensorVersioned *t = nullptr;
  CN_REQUIRE_OK(cn_to_dlpack(&t, a));
  Arr b;
  CN_REQUIRE_OK(cn_from_dlpack(b.out(), t));
  CN_REQUIRE_OK(cn_fill(b, cn_scalar_float(-0.0)));
  std::vector<double> v = to_vec<double>(a);
  for (double x : v) {
    CHECK(x == 0.0);
    CHECK(std::signbit(x));
  }
}

TEST_CASE("read-only and broadcast views export READ_ONLY; legacy refuses "
          "them") {
  Arr a = arange(3);
  Arr ro, bc;
  CN_REQUIRE_OK(cn_readonly_view(ro.out(), a));
  int64_t shape[] = {4, 3};
  CN_REQUIRE_OK(cn_broadcast_to(bc.out(), a, 2, shape));
  // A writable array with a repeating (stride 0) axis, from a producer.
  Foreign rep(3);
  rep.tv().ndim = 2;
  rep.shape[0] = 4;
  rep.shape[1] = 3;
  rep.strides[0] = 0;
  rep.strides[1] = 1;
  Arr wbc;
  CN_REQUIRE_OK(cn_from_dlpack(wbc.out(), &rep.v));
  REQUIRE((flags_of(wbc) & CN_FLAG_WRITEABLE) != 0);
  for (cn_array v : {ro.h, bc.h, wbc.h}) {
    DLManagedTensorVersioned *t = nullptr;
    CN_REQUIRE_OK(cn_to_dlpack(&t, v));
    CHECK((t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0);
    CHECK((t->flags & DLPACK_FLAG_BITMASK_IS_COPIED) == 0);
    Arr back;
    CN_REQUIRE_OK(cn_from_dlpack(back.out(), t));
    CHECK((flags_of(back) & CN_FLAG_WRITEABLE) == 0);
    CN_REQUIRE_ERR(cn_fill(back, cn_scalar_float(1)), CN_ERR_VALUE, "");
    CHECK(to_vec<double>(a) == std::vector<double>{0, 1, 2});
    CHECK(rep.mem == std::vector<double>{0, 1, 2});

    DLManagedTensor *l = reinterpret_cast<DLManagedTensor *>(uintptr_t{0x5e});
    CN_REQUIRE_ERR(cn_to_dlpack_legacy(&l, v), CN_ERR_VALUE,
                   "cn_to_dlpack_legacy: argument 'a' is");
    CHECK(has(cn_last_error(), v == wbc.h ? "broadcast" : "read-only"));
    CHECK(l == reinterpret_cast<DLManagedTensor *>(uintptr_t{0x5e}));
  }
  // A stride-0 axis of extent 1 repeats nothing: a writable array with one
  // exports writable.
  Foreign f(3);
  f.tv().ndim = 2;
  f.shape[0] = 1;
  f.shape[1] = 3;
  f.strides[0] = 0;
  f.strides[1] = 1;
  Arr w;
  CN_REQUIRE_OK(cn_from_dlpack(w.out(), &f.v));
  DLManagedTensorVersioned *t = nullptr;
  CN_REQUIRE_OK(cn_to_dlpack(&t, w));
  CHECK(t->flags == 0);
  CHECK(vec(t->dl_tensor.strides, 2) == std::vector<int64_t>{0, 1});
  t->deleter(t);
}

TEST_CASE("export argument errors") {
  Arr a = arange(3);
  DLManagedTensorVersioned *t = nullptr;
  DLManagedTensor *l = nullptr;
  CN_REQUIRE_ERR(cn_to_dlpack(nullptr, a), CN_ERR_VALUE, "cn_to_dlpack");
  CN_REQUIRE_ERR(cn_to_dlpack(&t, nullptr), CN_ERR_VALUE, "'a' is NULL");
  CN_REQUIRE_ERR(cn_to_dlpack_legacy(nullptr, a), CN_ERR_VALUE,
                 "cn_to_dlpack_legacy");
  CN_REQUIRE_ERR(cn_to_dlpack_legacy(&l, nullptr), CN_ERR_VALUE, "'a' is NULL");
  cn_array dead = nullptr;
  CN_REQUIRE_OK(cn_arange_int(&dead, 0, 3, 1, CN_INT32));
  cn_array_release(dead);
  CN_REQUIRE_ERR(cn_to_dlpack(&t, dead), CN_ERR_VALUE, "released");
  CN_REQUIRE_ERR(cn_to_dlpack_legacy(&l, dead), CN_ERR_VALUE, "released");
  CHECK(t == nullptr);
  CHECK(l == nullptr);
}

// ---- import --------------------------------------------------------------

TEST_CASE("import wraps foreign memory; the deleter runs once, at the end") {
  Foreign f(6);
  Arr a, view;
  CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
  CHECK(data_of(a) == f.mem.data());
  CHECK(to_vec<double>(a) == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK((flags_of(a) & CN_FLAG_WRITEABLE) != 0);
  CN_REQUIRE_OK(cn_slice_axis(view.out(), a, 0, 1, 5, 2));
  a = Arr();
  CHECK(f.deleted == 0); // the slice still holds the memory
  CHECK(to_vec<double>(view) == std::vector<double>{1, 3});
  CN_REQUIRE_OK(cn_fill(view, cn_scalar_float(9)));
  CHECK(f.mem == std::vector<double>{0, 9, 2, 9, 4, 5});
  view = Arr();
  CHECK(f.deleted == 1);
}

TEST_CASE("the last release may happen on another thread") {
  Foreign f(4);
  cn_array a = nullptr;
  CN_REQUIRE_OK(cn_from_dlpack(&a, &f.v));
  std::thread th([a] { cn_array_release(a); });
  th.join();
  CHECK(f.deleted == 1);
  // Our own exports' deleters too.
  Arr b = arange(3);
  DLManagedTensorVersioned *t = nullptr;
  CN_REQUIRE_OK(cn_to_dlpack(&t, b));
  count_deletes(t);
  b = Arr();
  std::thread th2([t] { t->deleter(t); });
  th2.join();
  CHECK(g_export_deletes == 1);
}

TEST_CASE("import honours READ_ONLY, NULL strides, negative strides and "
          "byte_offset") {
  SECTION("READ_ONLY") {
    Foreign f(3);
    f.v.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    CHECK((flags_of(a) & CN_FLAG_WRITEABLE) == 0);
    CN_REQUIRE_ERR(cn_fill(a, cn_scalar_float(7)), CN_ERR_VALUE, "");
    CHECK(f.mem == std::vector<double>{0, 1, 2});
    Arr v; // views of a read-only import stay read-only
    CN_REQUIRE_OK(cn_transpose(v.out(), a));
    CHECK((flags_of(v) & CN_FLAG_WRITEABLE) == 0);
  }
  SECTION("legacy tensors are writable") {
    Foreign f(3);
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack_legacy(a.out(), &f.l));
    CHECK((flags_of(a) & CN_FLAG_WRITEABLE) != 0);
    a = Arr();
    CHECK(f.deleted == 1);
  }
  SECTION("NULL strides mean C-contiguous") {
    Foreign f(6);
    f.tv().ndim = 2;
    f.shape[0] = 2;
    f.shape[1] = 3;
    f.tv().strides = nullptr;
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    CHECK(shape_of(a) == std::vector<int64_t>{2, 3});
    CHECK(strides_of(a) == std::vector<int64_t>{3, 1});
    CHECK((flags_of(a) & CN_FLAG_C_CONTIGUOUS) != 0);
    CHECK(to_vec<double>(a) == std::vector<double>{0, 1, 2, 3, 4, 5});
  }
  SECTION("negative strides and byte_offset") {
    Foreign f(6);
    // Element 0 is mem[5] = data + byte_offset; stride -2 walks down.
    f.tv().data = f.mem.data() + 1;
    f.tv().byte_offset = 4 * sizeof(double);
    f.shape[0] = 3;
    f.strides[0] = -2;
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    CHECK(data_of(a) == f.mem.data() + 5);
    CHECK(to_vec<double>(a) == std::vector<double>{5, 3, 1});
    CHECK(strides_of(a) == std::vector<int64_t>{-2});
  }
  SECTION("2-d Fortran order and a 0-d tensor") {
    Foreign f(6);
    f.tv().ndim = 2;
    f.shape[0] = 2;
    f.shape[1] = 3;
    f.strides[0] = 1;
    f.strides[1] = 2;
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    CHECK((flags_of(a) & CN_FLAG_F_CONTIGUOUS) != 0);
    CHECK(to_vec<double>(a) == std::vector<double>{0, 2, 4, 1, 3, 5});
    Foreign z(1);
    z.mem[0] = -1.5;
    z.tv().ndim = 0;
    z.tv().shape = nullptr;
    z.tv().strides = nullptr;
    Arr s;
    CN_REQUIRE_OK(cn_from_dlpack(s.out(), &z.v));
    cn_scalar v;
    CN_REQUIRE_OK(cn_item(&v, s));
    CHECK(v.re == -1.5);
  }
  SECTION("empty tensors, with and without data") {
    for (int with_data = 0; with_data < 2; with_data++) {
      Foreign f(2);
      f.shape[0] = 0;
      f.strides[0] = INT64_MAX; // addresses nothing: ignored
      if (!with_data)
        f.tv().data = nullptr;
      Arr a;
      CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
      CHECK(shape_of(a) == std::vector<int64_t>{0});
      CHECK(to_vec<double>(a).empty());
      Arr c;
      CN_REQUIRE_OK(cn_copy(c.out(), a, CN_ORDER_C));
      a = Arr();
      CHECK(f.deleted == 1);
    }
  }
  SECTION("pinned host memory is host memory") {
    Foreign f(2);
    f.tv().device = {kDLCUDAHost, 0};
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    int32_t type = 0, id = -1;
    CN_REQUIRE_OK(cn_array_device(&type, &id, a));
    CHECK(type == CN_DEVICE_CPU);
    CHECK(to_vec<double>(a) == std::vector<double>{0, 1});
  }
  SECTION("bool and unsigned bytes") {
    std::vector<uint8_t> mem = {1, 0, 1};
    Foreign f(1);
    f.tv().data = mem.data();
    f.shape[0] = 3;
    f.tv().dtype = {kDLBool, 8, 1};
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    cn_dtype dt;
    CN_REQUIRE_OK(cn_array_dtype(&dt, a));
    CHECK(dt == CN_BOOL);
    Foreign g(1);
    g.tv().data = mem.data();
    g.shape[0] = 3;
    g.tv().dtype = {kDLUInt, 8, 1};
    Arr b;
    CN_REQUIRE_OK(cn_from_dlpack(b.out(), &g.v));
    CN_REQUIRE_OK(cn_array_dtype(&dt, b));
    CHECK(dt == CN_UINT8);
    CHECK(to_vec<uint8_t>(b) == mem);
  }
}

TEST_CASE("hostile tensors are rejected; the deleter runs exactly once") {
  SECTION("NULL tensor") {
    cn_array out = sentinel();
    CN_REQUIRE_ERR(cn_from_dlpack(&out, nullptr), CN_ERR_VALUE,
                   "argument 't' is NULL");
    CN_REQUIRE_ERR(cn_from_dlpack_legacy(&out, nullptr), CN_ERR_VALUE,
                   "argument 't' is NULL");
    CHECK(out == sentinel());
  }
  SECTION("NULL output still consumes the tensor") {
    Foreign f, g;
    CN_REQUIRE_ERR(cn_from_dlpack(nullptr, &f.v), CN_ERR_VALUE,
                   "output pointer is NULL");
    CHECK(f.deleted == 1);
    CN_REQUIRE_ERR(cn_from_dlpack_legacy(nullptr, &g.l), CN_ERR_VALUE,
                   "output pointer is NULL");
    CHECK(g.deleted == 1);
  }
  SECTION("unknown major versions") {
    for (uint32_t major : {0u, 2u, 0xffffffffu}) {
      Foreign f;
      f.v.version = {major, 0};
      expect_reject_v(
          f, CN_ERR_VALUE,
          ("DLPack version " + std::to_string(major) + ".0").c_str());
    }
    Foreign f;
    f.v.version = {1, 99}; // a newer minor is readable
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
  }
  SECTION("ndim out of range") {
    for (int32_t nd : {-1, CN_MAX_DIMS + 1, INT32_MIN}) {
      Foreign f, g;
      f.tv().ndim = nd;
      g.tl().ndim = nd;
      expect_reject_v(f, CN_ERR_VALUE,
                      ("ndim is " + std::to_string(nd)).c_str());
      expect_reject_l(g, CN_ERR_VALUE, "outside [0, ");
    }
    Foreign f; // the maximum is fine
    f.tv().ndim = CN_MAX_DIMS;
    for (int i = 0; i < CN_MAX_DIMS; i++) {
      f.shape[i] = i == 0 ? 6 : 1;
      f.strides[i] = 1;
    }
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
  }
  SECTION("NULL shape") {
    Foreign f;
    f.tv().shape = nullptr;
    expect_reject_v(f, CN_ERR_VALUE, "shape is NULL");
  }
  SECTION("negative extents") {
    Foreign f, g;
    f.tv().ndim = 2;
    f.shape[0] = 2;
    f.shape[1] = -3;
    expect_reject_v(f, CN_ERR_VALUE, "shape[1] is -3");
    g.shape[0] = INT64_MIN;
    expect_reject_l(g, CN_ERR_VALUE, "shape[0] is");
  }
  SECTION("element counts that overflow") {
    Foreign f, g;
    f.tv().ndim = 2;
    f.shape[0] = f.shape[1] = int64_t{1} << 32;
    expect_reject_v(f, CN_ERR_VALUE, "overflow");
    g.shape[0] = INT64_MAX / 4; // elements fit, bytes do not
    expect_reject_l(g, CN_ERR_VALUE, "overflow");
  }
  SECTION("empty tensors whose other extents overflow") {
    Foreign f, g;
    f.tv().ndim = g.tv().ndim = 3;
    f.shape[0] = 0; // C strides of this shape would overflow
    f.shape[1] = f.shape[2] = int64_t{1} << 40;
    expect_reject_v(f, CN_ERR_VALUE, "overflow");
    g.shape[0] = g.shape[1] = int64_t{1} << 40;
    g.shape[2] = 0;
    expect_reject_v(g, CN_ERR_VALUE, "overflow");
  }
  SECTION("strides that overflow") {
    Foreign a, b, c, d;
    a.shape[0] = 3;
    a.strides[0] = INT64_MAX / 2 + 1; // stride * (extent - 1)
    expect_reject_v(a, CN_ERR_VALUE, "strides[0]");
    b.shape[0] = 2;
    b.strides[0] = INT64_MAX / 4; // stride * itemsize
    expect_reject_v(b, CN_ERR_VALUE, "strides[0]");
    c.tv().ndim = 2; // each axis fits, their sum does not
    c.shape[0] = c.shape[1] = 2;
    c.strides[0] = c.strides[1] = INT64_MAX / 8 - 1;
    expect_reject_v(c, CN_ERR_VALUE, "overflow");
    d.shape[0] = 2;
    d.strides[0] = INT64_MIN;
    expect_reject_l(d, CN_ERR_VALUE, "strides[0]");
  }
  SECTION("addresses that wrap around") {
    Foreign a, b;
    a.tv().data = reinterpret_cast<void *>(uintptr_t{64});
    a.shape[0] = 3;
    a.strides[0] = -100; // element 2 would sit below address 0
    expect_reject_v(a, CN_ERR_VALUE, "wraps around");
    b.tv().byte_offset = UINT64_MAX - 4;
    expect_reject_v(b, CN_ERR_VALUE, "byte_offset");
  }
  SECTION("misaligned elements") {
    Foreign a, b;
    a.tv().byte_offset = 4; // float64 at a 4-byte boundary
    expect_reject_v(a, CN_ERR_VALUE, "not aligned to 8 bytes");
    b.tl().data = reinterpret_cast<char *>(b.mem.data()) + 1;
    b.shape[0] = 2;
    expect_reject_l(b, CN_ERR_VALUE, "not aligned");
    // complex128 needs 8-byte alignment, not 16; bytes need none;
    // complex64 needs 8 (it is copied as one 64-bit word).
    Foreign e;
    e.tv().byte_offset = 4;
    e.tv().dtype = {kDLComplex, 64, 1};
    expect_reject_v(e, CN_ERR_VALUE, "not aligned to 8 bytes");
    Foreign c, d;
    c.tv().byte_offset = 8;
    c.shape[0] = 2;
    c.tv().dtype = {kDLComplex, 128, 1};
    Arr ca;
    CN_REQUIRE_OK(cn_from_dlpack(ca.out(), &c.v));
    d.tv().byte_offset = 3;
    d.tv().dtype = {kDLInt, 8, 1};
    Arr da;
    CN_REQUIRE_OK(cn_from_dlpack(da.out(), &d.v));
    CHECK(to_vec<int8_t>(da)[0] ==
          reinterpret_cast<const int8_t *>(d.mem.data())[3]);
  }
  SECTION("unknown dtypes and vector lanes are CN_ERR_TYPE") {
    struct {
      uint8_t code, bits;
      uint16_t lanes;
      const char *needle;
    } cases[] = {{kDLBfloat, 16, 1, "code 4, bits 16"},
                 {kDLFloat, 8, 1, "code 2, bits 8"},
                 {kDLOpaqueHandle, 64, 1, "code 3, bits 64"},
                 {kDLInt, 7, 1, "code 0, bits 7"},
                 {kDLBool, 1, 1, "code 6, bits 1"},
                 {kDLComplex, 32, 1, "code 5, bits 32"},
                 {200, 64, 1, "code 200"},
                 {kDLFloat, 32, 4, "4 lanes"},
                 {kDLFloat, 64, 0, "0 lanes"}};
    for (auto &c : cases) {
      INFO(c.needle);
      Foreign f, g;
      f.tv().dtype = g.tl().dtype = DLDataType{c.code, c.bits, c.lanes};
      expect_reject_v(f, CN_ERR_TYPE, c.needle);
      expect_reject_l(g, CN_ERR_TYPE, c.needle);
    }
  }
  SECTION("NULL data with elements") {
    Foreign f, g;
    f.tv().data = nullptr;
    g.tl().data = nullptr;
    expect_reject_v(f, CN_ERR_VALUE, "data is NULL but it has 6 elements");
    expect_reject_l(g, CN_ERR_VALUE, "data is NULL");
  }
  SECTION("devices this build cannot serve") {
    for (int32_t dev :
         {(int32_t)kDLOpenCL, (int32_t)kDLVulkan, (int32_t)kDLMetal,
          (int32_t)kDLROCM, (int32_t)kDLOneAPI, 99}) {
      Foreign f;
      f.tv().device = {(DLDeviceType)dev, 0};
      expect_reject_v(f, CN_ERR_DEVICE,
                      ("device type " + std::to_string(dev)).c_str());
    }
  }
  SECTION("a NULL deleter is allowed, on success and failure") {
    Foreign f, g;
    f.v.deleter = nullptr;
    g.v.deleter = nullptr;
    g.tv().ndim = -1;
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    a = Arr();
    cn_array out = sentinel();
    CN_REQUIRE_ERR(cn_from_dlpack(&out, &g.v), CN_ERR_VALUE, "ndim");
    CHECK(f.deleted == 0);
    CHECK(out == sentinel());
  }
}

TEST_CASE("an unknown major version touches nothing but version and "
          "deleter") {
  // The tensor is placed so that everything after the deleter lies on a
  // page that cannot be read: reading flags or dl_tensor would crash.
  long page = sysconf(_SC_PAGESIZE);
  char *mem =
      static_cast<char *>(mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(mem != MAP_FAILED);
  size_t head = offsetof(DLManagedTensorVersioned, flags);
  auto *t = reinterpret_cast<DLManagedTensorVersioned *>(mem + page - head);
  static std::atomic<int> deleted{0};
  deleted = 0;
  t->version = {7, 3};
  t->manager_ctx = nullptr;
  t->deleter = [](DLManagedTensorVersioned *) { deleted++; };
  REQUIRE(mprotect(mem + page, page, PROT_NONE) == 0);
  cn_array out = sentinel();
  CN_REQUIRE_ERR(cn_from_dlpack(&out, t), CN_ERR_VALUE, "version 7.3");
  CHECK(deleted == 1);
  CHECK(out == sentinel());
  munmap(mem, 2 * page);
}

TEST_CASE("CUDA tensors need a CUDA backend; with one they stay on it") {
  setenv("CUNUMPY_CUDA_PLUGIN", CN_FAKE_PLUGIN_MISSING, 1);
  unsetenv("CUNUMPY_BACKEND");
  unsetenv("ARRAY_BACKEND");
  cn__backend_reset_for_tests();
  {
    Foreign f;
    f.tv().device = {kDLCUDA, 0};
    expect_reject_v(f, CN_ERR_DEVICE, "CUDA device 0");
    CHECK(has(cn_last_error(), CN_FAKE_PLUGIN_MISSING)); // says why
    Foreign g;
    g.tl().device = {kDLCUDAManaged, 0};
    expect_reject_l(g, CN_ERR_DEVICE, "no CUDA backend");
  }
  // The fake plugin: a "cuda" backend over host memory, two devices.
  CN_REQUIRE_OK(cn_backend_load_plugin(CN_FAKE_PLUGIN_OK));
  {
    Foreign f;
    f.tv().device = {kDLCUDA, 1};
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    int32_t type = 0, id = -1;
    CN_REQUIRE_OK(cn_array_device(&type, &id, a));
    CHECK(type == CN_DEVICE_CUDA);
    CHECK(id == 1);
    CHECK(data_of(a) == f.mem.data());
    // Its export says where it lives.
    DLManagedTensorVersioned *t = nullptr;
    CN_REQUIRE_OK(cn_to_dlpack(&t, a));
    CHECK(t->dl_tensor.device.device_type == kDLCUDA);
    CHECK(t->dl_tensor.device.device_id == 1);
    t->deleter(t);
    // Mixing it with a CPU array is refused.
    Arr c = arange(6), r;
    CN_REQUIRE_ERR(cn_add(r.out(), c, a, nullptr), CN_ERR_DEVICE, "");
    a = Arr();
    CHECK(f.deleted == 1);

    Foreign g;
    g.tv().device = {kDLCUDA, 5};
    expect_reject_v(g, CN_ERR_DEVICE, "CUDA device 5");
    CHECK(has(cn_last_error(), "2 CUDA devices"));
    Foreign h;
    h.tv().device = {kDLCUDA, -1};
    expect_reject_v(h, CN_ERR_DEVICE, "CUDA device -1");
  }
  // Arrays made on the active CUDA backend export as CUDA device 0.
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  {
    Arr z;
    int64_t shape[] = {2};
    CN_REQUIRE_OK(cn_zeros(z.out(), 1, shape, CN_FLOAT32, CN_ORDER_C));
    DLManagedTensorVersioned *t = nullptr;
    CN_REQUIRE_OK(cn_to_dlpack(&t, z));
    CHECK(t->dl_tensor.device.device_type == kDLCUDA);
    CHECK(t->dl_tensor.device.device_id == 0);
    Arr back;
    CN_REQUIRE_OK(cn_from_dlpack(back.out(), t));
    int32_t type = 0, id = -1;
    CN_REQUIRE_OK(cn_array_device(&type, &id, back));
    CHECK(type == CN_DEVICE_CUDA);
  }
  CN_REQUIRE_OK(cn_set_backend("cpu"));
  unsetenv("CUNUMPY_CUDA_PLUGIN");
  cn__backend_reset_for_tests();
}

TEST_CASE("random layouts import as the elements they address") {
  // Random shapes, strides (any sign, zero) and offsets over one byte pool;
  // every element the import reads must be the one the layout names.
  std::vector<unsigned char> pool(4096);
  for (size_t i = 0; i < pool.size(); i++)
    pool[i] = (unsigned char)(i * 131 + 7);
  uint64_t seed = 12345;
  auto rnd = [&](int64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int64_t)((seed >> 33) % (uint64_t)n);
  };
  for (int iter = 0; iter < 2000; iter++) {
    cn_dtype dt;
    CN_REQUIRE_OK(cn_dtype_at(&dt, (int32_t)rnd(CN_NUM_DTYPES)));
    int64_t is = cn_dtype_itemsize(dt);
    Foreign f(1);
    int32_t nd = (int32_t)rnd(5);
    int64_t lo = 0, hi = 0, size = 1;
    for (int32_t d = 0; d < nd; d++) {
      f.shape[d] = rnd(5);
      f.strides[d] = rnd(11) - 5;
      size *= f.shape[d];
      int64_t span = f.strides[d] * (f.shape[d] > 0 ? f.shape[d] - 1 : 0);
      (span < 0 ? lo : hi) += span;
    }
    // Element 0 sits so that the lowest element is at the pool's start
    // plus a random aligned slack.
    int64_t align = is < 8 ? is : 8;
    int64_t first = -lo * is + rnd(8) * align;
    REQUIRE(first + (hi + 1) * is <= (int64_t)pool.size());
    DLTensor &t = f.tv();
    t.ndim = nd;
    t.dtype = {(uint8_t)((uint32_t)dt >> 8), (uint8_t)(dt & 0xff), 1};
    int64_t split = rnd(first / align + 1) * align; // data + byte_offset
    t.data = pool.data() + split;
    t.byte_offset = (uint64_t)(first - split);
    if (rnd(4) == 0 && size > 0) { // NULL strides: C order
      t.strides = nullptr;
      int64_t s = 1;
      for (int32_t d = nd - 1; d >= 0; d--) {
        f.strides[d] = s;
        s *= f.shape[d];
      }
      if (first + size * is > (int64_t)pool.size())
        continue;
    }
    Arr a;
    CN_REQUIRE_OK(cn_from_dlpack(a.out(), &f.v));
    std::vector<unsigned char> got(size * is);
    CN_REQUIRE_OK(
        cn_copy_to_buffer(got.data(), (int64_t)got.size(), a, CN_ORDER_C));
    std::vector<unsigned char> want;
    std::vector<int64_t> idx(nd, 0);
    for (int64_t k = 0; k < size; k++) {
      int64_t off = first;
      for (int32_t d = 0; d < nd; d++)
        off += idx[d] * f.strides[d] * is;
      want.insert(want.end(), pool.begin() + off, pool.begin() + off + is);
      for (int32_t d = nd - 1; d >= 0; d--) {
        if (++idx[d] < f.shape[d])
          break;
        idx[d] = 0;
      }
    }
    INFO("iter " << iter << " dtype " << cn_dtype_name(dt) << " ndim " << nd);
    REQUIRE(got == want);
    a = Arr();
    REQUIRE(f.deleted == 1);
  }
}

// Independent oracle for the import checks of a float64 tensor, in 128-bit
// arithmetic: whether a layout must be accepted.
static bool oracle_accepts(const DLTensor &t) {
  typedef __int128 i128;
  const i128 max64 = INT64_MAX, is = 8;
  bool empty = false;
  i128 nonzero = 1; // the product of non-zero extents, saturated at 2^64
  for (int d = 0; d < t.ndim; d++) {
    if (t.shape[d] < 0)
      return false;
    if (t.shape[d] == 0)
      empty = true;
    else
      nonzero *= t.shape[d]; // < 2^64 * 2^63: exact in 128 bits
    if (nonzero > ((i128)1 << 64))
      nonzero = (i128)1 << 64;
  }
  if (nonzero * is > max64)
    return false;
  if (empty)
    return true;
  if (t.data == nullptr)
    return false;
  i128 lo = 0, hi = 0;
  for (int d = 0; d < t.ndim; d++) {
    i128 span = (i128)t.strides[d] * (t.shape[d] - 1);
    if (span > max64 || span < -max64 - 1)
      return false;
    if ((i128)t.strides[d] * is > max64 || (i128)t.strides[d] * is < -max64 - 1)
      return false;
    (span < 0 ? lo : hi) += span;
    if (hi > max64 || lo < -max64 - 1)
      return false;
  }
  if (lo * is < -max64 - 1 || hi * is > max64 || (hi - lo + 1) * is > max64)
    return false;
  if (t.byte_offset > (uint64_t)INT64_MAX)
    return false;
  i128 base = (i128)(uintptr_t)t.data + (i128)t.byte_offset;
  i128 first = base + lo * is, last = base + hi * is + is - 1;
  if (base > (i128)UINTPTR_MAX || first < 0 || last > (i128)UINTPTR_MAX)
    return false;
  return base % 8 == 0;
}

TEST_CASE("random hostile fields: the oracle's verdict, the deleter once") {
  uint64_t seed = 777;
  auto rnd64 = [&]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 11;
  };
  const int64_t edges[] = {0,         1,           -1,        2,
                           INT64_MAX, INT64_MIN,   1LL << 32, -(1LL << 32),
                           1LL << 60, -(1LL << 60)};
  auto pick = [&]() {
    return rnd64() % 2 ? edges[rnd64() % 10] : (int64_t)(rnd64() % 7) - 3;
  };
  std::vector<double> mem(64, 1.0);
  int accepted = 0;
  for (int iter = 0; iter < 20000; iter++) {
    Foreign f(1);
    DLTensor &t = f.tv();
    t.ndim = (int32_t)(rnd64() % 5);
    for (int d = 0; d < t.ndim; d++) {
      f.shape[d] = pick();
      f.strides[d] = pick();
    }
    t.data = rnd64() % 8 ? (void *)(mem.data() + 32) : nullptr;
    t.byte_offset = rnd64() % 4 ? 0 : (uint64_t)pick();
    bool expect = oracle_accepts(t);
    cn_array out = sentinel();
    cn_status st = cn_from_dlpack(&out, &f.v);
    INFO("iter " << iter << ": " << cn_last_error());
    REQUIRE((st == CN_OK) == expect);
    REQUIRE(f.deleted == (st == CN_OK ? 0 : 1));
    if (st != CN_OK) {
      REQUIRE(out == sentinel());
      continue;
    }
    accepted++;
    cn_array_release(out);
    REQUIRE(f.deleted == 1);
  }
  CHECK(accepted > 100); // the generator reaches both verdicts
  CHECK(accepted < 19000);
}
