// Tests of cunumpy/view.h: every view against a naive index computation.
#include "testutil.hpp"

#include <algorithm>

namespace {
Arr iota(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (auto e : shape)
    n *= e;
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; i++)
    v[i] = i;
  return from_vec(v, shape, CN_INT64);
}
bool shares(cn_array a, cn_array b) {
  int32_t s = 0;
  cn_array_shares_buffer(&s, a, b);
  return s != 0;
}
// Python's slice semantics, naively: the indices a slice selects.
std::vector<int64_t> py_slice(int64_t n, int64_t start, int64_t stop,
                              int64_t step) {
  std::vector<int64_t> r;
  bool ns = start == CN_SLICE_NONE, ne = stop == CN_SLICE_NONE;
  if (step > 0) {
    int64_t s = ns          ? 0
                : start < 0 ? std::max<int64_t>(start + n, 0)
                            : std::min(start, n);
    int64_t e = ne         ? n
                : stop < 0 ? std::max<int64_t>(stop + n, 0)
                           : std::min(stop, n);
    for (__int128 i = s; i < e; i += step) // huge steps must not wrap
      r.push_back((int64_t)i);
  } else {
    int64_t s = ns          ? n - 1
                : start < 0 ? std::max<int64_t>(start + n, -1)
                            : std::min(start, n - 1);
    int64_t e = ne         ? -1
                : stop < 0 ? std::max<int64_t>(stop + n, -1)
                           : std::min(stop, n - 1);
    for (__int128 i = s; i > e; i += step)
      r.push_back((int64_t)i);
  }
  return r;
}
} // namespace

TEST_CASE("slicing matches Python's rules", "[view]") {
  const int64_t n = 7;
  Arr a = iota({n});
  const int64_t bounds[] = {CN_SLICE_NONE, -9, -7, -3, -1, 0, 2, 6, 7, 10};
  const int64_t steps[] = {1, 2, 3, -1, -2, -5, 9};
  for (int64_t s : bounds)
    for (int64_t e : bounds)
      for (int64_t st : steps) {
        Arr v;
        CN_REQUIRE_OK(cn_slice(v.out(), a, 1, &s, &e, &st));
        auto expect = py_slice(n, s, e, st);
        INFO("start " << s << " stop " << e << " step " << st);
        REQUIRE(to_vec<int64_t>(v) == expect);
        REQUIRE(shares(v, a));
      }
  int64_t s = 0, e = 3, z = 0;
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_slice(&out, a, 1, &s, &e, &z), CN_ERR_VALUE,
                 "step cannot be zero");
  CN_REQUIRE_ERR(cn_slice(&out, a, 2, &s, &e, &z), CN_ERR_INDEX,
                 "too many indices");
  REQUIRE(out == nullptr);
}

TEST_CASE("2-d slices, index_axis, negative strides", "[view]") {
  Arr a = iota({4, 5});
  int64_t st[2] = {3, 1}, en[2] = {CN_SLICE_NONE, 4}, sp[2] = {-2, 2};
  Arr v;
  CN_REQUIRE_OK(cn_slice(v.out(), a, 2, st, en, sp));
  REQUIRE(shape_of(v) == std::vector<int64_t>{2, 2});
  REQUIRE(to_vec<int64_t>(v) == std::vector<int64_t>{16, 18, 6, 8});
  Arr row;
  CN_REQUIRE_OK(cn_index_axis(row.out(), v, 0, -1));
  REQUIRE(to_vec<int64_t>(row) == std::vector<int64_t>{6, 8});
  Arr col;
  CN_REQUIRE_OK(cn_index_axis(col.out(), a, 1, 4));
  REQUIRE(to_vec<int64_t>(col) == std::vector<int64_t>{4, 9, 14, 19});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_index_axis(&out, a, 1, 5), CN_ERR_INDEX,
                 "index 5 is out of bounds for axis 1 with size 5");
  CN_REQUIRE_ERR(cn_index_axis(&out, a, 2, 0), CN_ERR_AXIS, "axis 2");
  Arr sc;
  CN_REQUIRE_OK(cn_index_axis(row.out(), a, 0, 2));
  CN_REQUIRE_OK(cn_index_axis(sc.out(), row, 0, 3));
  cn_scalar s;
  CN_REQUIRE_OK(cn_item(&s, sc));
  REQUIRE(s.i == 13);
  // writing through a view changes the base
  CN_REQUIRE_OK(cn_fill(sc, cn_scalar_int(-5)));
  REQUIRE(to_vec<int64_t>(a)[13] == -5);
}

TEST_CASE("transpose, permute_dims, swapaxes, moveaxis", "[view]") {
  Arr a = iota({2, 3, 4});
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  REQUIRE(shape_of(t) == std::vector<int64_t>{4, 3, 2});
  auto tv = to_vec<int64_t>(t);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 2; k++)
        REQUIRE(tv[(i * 3 + j) * 2 + k] == k * 12 + j * 4 + i);
  int32_t perm[3] = {1, -1, 0};
  Arr p;
  CN_REQUIRE_OK(cn_permute_dims(p.out(), a, 3, perm));
  REQUIRE(shape_of(p) == std::vector<int64_t>{3, 4, 2});
  auto pv = to_vec<int64_t>(p);
  REQUIRE(pv[(2 * 4 + 1) * 2 + 1] == 1 * 12 + 2 * 4 + 1);
  Arr s;
  CN_REQUIRE_OK(cn_swapaxes(s.out(), a, 0, 2));
  REQUIRE(to_vec<int64_t>(s) == tv);
  int32_t src[1] = {0}, dst[1] = {-1};
  Arr m;
  CN_REQUIRE_OK(cn_moveaxis(m.out(), a, 1, src, dst));
  REQUIRE(shape_of(m) == std::vector<int64_t>{3, 4, 2});
  REQUIRE(to_vec<int64_t>(m) == pv);
  cn_array out = nullptr;
  int32_t rep[3] = {0, 0, 1};
  CN_REQUIRE_ERR(cn_permute_dims(&out, a, 3, rep), CN_ERR_VALUE,
                 "repeated axis");
  CN_REQUIRE_ERR(cn_permute_dims(&out, a, 2, rep), CN_ERR_VALUE,
                 "axes don't match");
  int32_t big[3] = {0, 1, 3};
  CN_REQUIRE_ERR(cn_permute_dims(&out, a, 3, big), CN_ERR_AXIS,
                 "out of bounds");
  CN_REQUIRE_ERR(cn_swapaxes(&out, a, 0, 3), CN_ERR_AXIS, "axis 3");
  int32_t d2[1] = {5};
  CN_REQUIRE_ERR(cn_moveaxis(&out, a, 1, src, d2), CN_ERR_AXIS, "axis 5");
  REQUIRE(out == nullptr);
}

TEST_CASE("reshape is a view when strides allow, else a copy", "[view]") {
  Arr a = iota({2, 3, 4});
  int64_t s1[2] = {6, -1};
  Arr r;
  CN_REQUIRE_OK(cn_reshape(r.out(), a, 2, s1, CN_ORDER_C));
  REQUIRE(shape_of(r) == std::vector<int64_t>{6, 4});
  REQUIRE(shares(r, a));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(a));
  // transposed: C-order reshape needs a copy, F-order is a view
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  int64_t s2[1] = {24};
  CN_REQUIRE_OK(cn_reshape(r.out(), t, 1, s2, CN_ORDER_C));
  REQUIRE(!shares(r, a));
  auto tv = to_vec<int64_t>(t);
  REQUIRE(to_vec<int64_t>(r) == tv);
  CN_REQUIRE_OK(cn_reshape(r.out(), t, 1, s2, CN_ORDER_F));
  REQUIRE(shares(r, a));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(a));
  // a[:, :, ::2] (strides 12, 4, 2): the leading axes merge, so
  // reshape to (6, 2) is a view; a[:, ::2, :] rows are not evenly spaced,
  // so merging its leading axes needs a copy.
  int64_t st[3] = {0, 0, 0}, en[3] = {2, 3, 4}, sp[3] = {1, 1, 2};
  Arr sl;
  CN_REQUIRE_OK(cn_slice(sl.out(), a, 3, st, en, sp));
  int64_t s3[2] = {6, 2};
  CN_REQUIRE_OK(cn_reshape(r.out(), sl, 2, s3, CN_ORDER_C));
  REQUIRE(shares(r, a));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(sl));
  int64_t s5[3] = {2, 3, 2}, s6[4] = {1, 2, 3, 2};
  CN_REQUIRE_OK(cn_reshape(r.out(), sl, 4, s6, CN_ORDER_C));
  REQUIRE(shares(r, a));
  (void)s5;
  int64_t sp2[3] = {1, 2, 1};
  Arr sl2;
  CN_REQUIRE_OK(cn_slice(sl2.out(), a, 3, st, en, sp2));
  int64_t s4[2] = {4, 4};
  CN_REQUIRE_OK(cn_reshape(r.out(), sl2, 2, s4, CN_ORDER_C));
  REQUIRE(!shares(r, a));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(sl2));
  cn_array out = nullptr;
  int64_t bad[2] = {4, 2};
  CN_REQUIRE_ERR(cn_reshape(&out, a, 2, bad, CN_ORDER_C), CN_ERR_SHAPE,
                 "cannot reshape array of size 24 into shape (4,2)");
  int64_t two[2] = {-1, -1};
  CN_REQUIRE_ERR(cn_reshape(&out, a, 2, two, CN_ORDER_C), CN_ERR_VALUE,
                 "one unknown dimension");
  int64_t neg[2] = {-2, 12};
  CN_REQUIRE_ERR(cn_reshape(&out, a, 2, neg, CN_ORDER_C), CN_ERR_VALUE,
                 "negative dimension");
  REQUIRE(out == nullptr);
  // empty and 0-d
  int64_t z[2] = {0, 5};
  Arr e, e2;
  CN_REQUIRE_OK(cn_zeros(e.out(), 2, z, CN_FLOAT32, CN_ORDER_C));
  int64_t z1[3] = {5, -1, 2};
  CN_REQUIRE_OK(cn_reshape(e2.out(), e, 3, z1, CN_ORDER_C));
  REQUIRE(shape_of(e2) == std::vector<int64_t>{5, 0, 2});
  int64_t z2[2] = {0, -1}; // the unknown extent is ambiguous
  CN_REQUIRE_ERR(cn_reshape(&out, e, 2, z2, CN_ORDER_C), CN_ERR_SHAPE,
                 "cannot reshape");
  int64_t z3[3] = {5, 0, 2};
  CN_REQUIRE_OK(cn_reshape(e2.out(), e, 3, z3, CN_ORDER_C));
  Arr one = iota({1});
  Arr zero_d;
  CN_REQUIRE_OK(cn_reshape(zero_d.out(), one, 0, nullptr, CN_ORDER_C));
  int32_t nd;
  cn_array_ndim(&nd, zero_d);
  REQUIRE(nd == 0);
}

TEST_CASE("ravel and flatten", "[view]") {
  Arr a = iota({3, 4});
  Arr r, f, t;
  CN_REQUIRE_OK(cn_ravel(r.out(), a, CN_ORDER_C));
  REQUIRE(shares(r, a));
  CN_REQUIRE_OK(cn_flatten(f.out(), a, CN_ORDER_C));
  REQUIRE(!shares(f, a));
  REQUIRE(to_vec<int64_t>(f) == to_vec<int64_t>(r));
  CN_REQUIRE_OK(cn_flatten(f.out(), a, CN_ORDER_F));
  REQUIRE(to_vec<int64_t>(f) ==
          std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11});
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  CN_REQUIRE_OK(cn_ravel(r.out(), t, CN_ORDER_A)); // F-contiguous: a view
  REQUIRE(shares(r, a));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(a));
}

TEST_CASE("ravel order K reads memory order", "[view]") {
  // b = a[:, ::-1].T of a 3x4 iota: b[i][j] = a[j][3 - i] = 4j + 3 - i,
  // shape (4, 3), strides (-1, 4). K: axes by decreasing |stride| (j outer,
  // i inner), each in its own direction: 4j + 3 - i for j, then i.
  Arr a = iota({3, 4}), rev, b, r, t;
  int64_t start = CN_SLICE_NONE, stop = CN_SLICE_NONE;
  CN_REQUIRE_OK(cn_slice_axis(rev.out(), a, 1, start, stop, -1));
  CN_REQUIRE_OK(cn_transpose(b.out(), rev));
  CN_REQUIRE_OK(cn_ravel(r.out(), b, CN_ORDER_K));
  std::vector<int64_t> want;
  for (int64_t j = 0; j < 3; j++)
    for (int64_t i = 0; i < 4; i++)
      want.push_back(4 * j + 3 - i);
  REQUIRE(to_vec<int64_t>(r) == want);
  // a transposed C array: K gives the buffer order, as a view
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  CN_REQUIRE_OK(cn_ravel(r.out(), t, CN_ORDER_K));
  REQUIRE(shares(r, a));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(a));
  // axes already in decreasing |stride| order, and C arrays: the C order
  CN_REQUIRE_OK(cn_ravel(r.out(), rev, CN_ORDER_K));
  want.clear();
  for (int64_t i = 0; i < 3; i++)
    for (int64_t j = 0; j < 4; j++)
      want.push_back(4 * i + 3 - j);
  REQUIRE(to_vec<int64_t>(r) == want);
  CN_REQUIRE_OK(cn_ravel(r.out(), a, CN_ORDER_K));
  REQUIRE(to_vec<int64_t>(r) == to_vec<int64_t>(a));
}

TEST_CASE("broadcasting views", "[view]") {
  Arr a = iota({3, 1});
  int64_t shape[3] = {2, 3, 4};
  Arr b;
  CN_REQUIRE_OK(cn_broadcast_to(b.out(), a, 3, shape));
  auto v = to_vec<int64_t>(b);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++)
        REQUIRE(v[(i * 3 + j) * 4 + k] == j);
  int32_t fl;
  cn_array_flags(&fl, b);
  REQUIRE(!(fl & CN_FLAG_WRITEABLE));
  cn_array out = nullptr;
  int64_t bad[2] = {3, 3};
  Arr c = iota({2});
  CN_REQUIRE_ERR(cn_broadcast_to(&out, c, 2, bad), CN_ERR_SHAPE,
                 "cannot broadcast an array of shape (2,) to shape (3, 3)");
  cn_array ins[3] = {a, c, b};
  cn_array outs[3] = {nullptr, nullptr, nullptr};
  CN_REQUIRE_ERR(cn_broadcast_arrays(outs, 3, ins), CN_ERR_SHAPE,
                 "could not be broadcast");
  REQUIRE(outs[0] == nullptr);
  Arr d = iota({4});
  cn_array ins2[2] = {a, d};
  CN_REQUIRE_OK(cn_broadcast_arrays(outs, 2, ins2));
  Arr o0(outs[0]), o1(outs[1]);
  REQUIRE(shape_of(o0) == std::vector<int64_t>{3, 4});
  REQUIRE(shape_of(o1) == std::vector<int64_t>{3, 4});
  REQUIRE(to_vec<int64_t>(o1) ==
          std::vector<int64_t>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
  int32_t nd;
  int64_t res[CN_MAX_DIMS];
  int32_t nds[2] = {2, 3};
  int64_t sa[2] = {5, 1}, sb[3] = {2, 1, 7};
  const int64_t *shapes[2] = {sa, sb};
  CN_REQUIRE_OK(cn_broadcast_shapes(&nd, res, 2, nds, shapes));
  REQUIRE(nd == 3);
  REQUIRE(res[0] == 2);
  REQUIRE(res[1] == 5);
  REQUIRE(res[2] == 7);
}

TEST_CASE("expand_dims, squeeze, flips", "[view]") {
  Arr a = iota({2, 3});
  int32_t ax[2] = {0, -1};
  Arr e;
  CN_REQUIRE_OK(cn_expand_dims(e.out(), a, 2, ax));
  REQUIRE(shape_of(e) == std::vector<int64_t>{1, 2, 3, 1});
  Arr s;
  CN_REQUIRE_OK(cn_squeeze(s.out(), e, 0, nullptr));
  REQUIRE(shape_of(s) == std::vector<int64_t>{2, 3});
  int32_t one[1] = {3};
  CN_REQUIRE_OK(cn_squeeze(s.out(), e, 1, one));
  REQUIRE(shape_of(s) == std::vector<int64_t>{1, 2, 3});
  cn_array out = nullptr;
  int32_t bad[1] = {1};
  CN_REQUIRE_ERR(cn_squeeze(&out, e, 1, bad), CN_ERR_VALUE,
                 "size not equal to one");
  int32_t rep[2] = {1, 1};
  CN_REQUIRE_ERR(cn_expand_dims(&out, a, 2, rep), CN_ERR_VALUE, "repeated");
  Arr f;
  CN_REQUIRE_OK(cn_flip(f.out(), a, 0, nullptr));
  REQUIRE(to_vec<int64_t>(f) == std::vector<int64_t>{5, 4, 3, 2, 1, 0});
  CN_REQUIRE_OK(cn_fliplr(f.out(), a));
  REQUIRE(to_vec<int64_t>(f) == std::vector<int64_t>{2, 1, 0, 5, 4, 3});
  CN_REQUIRE_OK(cn_flipud(f.out(), a));
  REQUIRE(to_vec<int64_t>(f) == std::vector<int64_t>{3, 4, 5, 0, 1, 2});
  Arr v = iota({3});
  CN_REQUIRE_ERR(cn_fliplr(&out, v), CN_ERR_VALUE, ">= 2-d");
  int32_t ax2[1] = {2};
  CN_REQUIRE_ERR(cn_flip(&out, a, 1, ax2), CN_ERR_AXIS, "out of bounds");
  REQUIRE(out == nullptr);
  // flip of an empty axis
  int64_t zs[2] = {0, 3};
  Arr z, zf;
  CN_REQUIRE_OK(cn_zeros(z.out(), 2, zs, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_OK(cn_flip(zf.out(), z, 0, nullptr));
  REQUIRE(shape_of(zf) == std::vector<int64_t>{0, 3});
}

TEST_CASE("views keep the read-only flag", "[view]") {
  Arr a = iota({4});
  Arr r, s;
  CN_REQUIRE_OK(cn_readonly_view(r.out(), a));
  CN_REQUIRE_OK(cn_slice_axis(s.out(), r, 0, 1, 3, 1));
  int32_t fl;
  cn_array_flags(&fl, s);
  REQUIRE(!(fl & CN_FLAG_WRITEABLE));
  CN_REQUIRE_ERR(cn_fill(s, cn_scalar_int(1)), CN_ERR_VALUE, "read-only");
  REQUIRE(to_vec<int64_t>(a) == std::vector<int64_t>{0, 1, 2, 3});
}

TEST_CASE("view_dtype reinterprets memory without copying", "[view]") {
  Arr a = iota({3, 4}); // int64, 0..11
  Arr v, w, s;
  // same item size: float64 bits of the int64 values
  CN_REQUIRE_OK(cn_view_dtype(v.out(), a, CN_UINT64));
  REQUIRE(shares(v, a));
  REQUIRE(shape_of(v) == std::vector<int64_t>{3, 4});
  // smaller item size: the last axis scales, little-endian halves
  CN_REQUIRE_OK(cn_view_dtype(w.out(), a, CN_INT32));
  REQUIRE(shape_of(w) == std::vector<int64_t>{3, 8});
  std::vector<int32_t> got(24);
  CN_REQUIRE_OK(cn_copy_to_buffer(got.data(), 96, w, CN_ORDER_C));
  for (int i = 0; i < 12; i++) {
    REQUIRE(got[2 * i] == i);
    REQUIRE(got[2 * i + 1] == 0);
  }
  // a strided outer axis (every other row) stays a view
  int64_t st[2] = {0, 0}, sp[2] = {3, 4}, ss[2] = {2, 1};
  CN_REQUIRE_OK(cn_slice(s.out(), a, 2, st, sp, ss));
  Arr ws;
  CN_REQUIRE_OK(cn_view_dtype(ws.out(), s, CN_INT16));
  REQUIRE(shape_of(ws) == std::vector<int64_t>{2, 16});
  std::vector<int16_t> g16(32);
  CN_REQUIRE_OK(cn_copy_to_buffer(g16.data(), 64, ws, CN_ORDER_C));
  REQUIRE(g16[0] == 0);
  REQUIRE(g16[16] == 8); // row 2 starts with 8
  // larger item size back again
  Arr back;
  CN_REQUIRE_OK(cn_view_dtype(back.out(), w, CN_INT64));
  REQUIRE(shape_of(back) == std::vector<int64_t>{3, 4});
  REQUIRE(shares(back, a));
}

TEST_CASE("view_dtype errors", "[view][errors]") {
  Arr a = iota({3, 4}), t, r, e;
  cn_array keep = nullptr;
  CN_REQUIRE_ERR(cn_view_dtype(nullptr, a, CN_INT32), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_view_dtype(r.out(), nullptr, CN_INT32), CN_ERR_VALUE,
                 "argument 'a' is NULL");
  CN_REQUIRE_ERR(cn_view_dtype(&keep, a, (cn_dtype)12345), CN_ERR_TYPE,
                 "argument 'dtype' is not a dtype");
  REQUIRE(keep == nullptr);
  CN_REQUIRE_OK(cn_transpose(t.out(), a));
  CN_REQUIRE_ERR(cn_view_dtype(&keep, t, CN_INT32), CN_ERR_VALUE,
                 "last axis must be contiguous");
  Arr odd = iota({3, 3}); // 24-byte rows
  CN_REQUIRE_ERR(cn_view_dtype(&keep, odd, CN_COMPLEX128), CN_ERR_VALUE,
                 "divisor of the size of the last axis");
  CN_REQUIRE_OK(cn_from_scalar(e.out(), cn_scalar_int(3), CN_INT64));
  CN_REQUIRE_ERR(cn_view_dtype(&keep, e, CN_INT32), CN_ERR_VALUE, "0d array");
  // an int8 view offset by one byte cannot be seen as int16
  Arr b, bo;
  CN_REQUIRE_OK(cn_view_dtype(b.out(), a, CN_INT8));
  int64_t st[2] = {0, 1}, sp[2] = {3, 31}, ss[2] = {1, 1};
  CN_REQUIRE_OK(cn_slice(bo.out(), b, 2, st, sp, ss));
  CN_REQUIRE_ERR(cn_view_dtype(&keep, bo, CN_INT16), CN_ERR_VALUE,
                 "not aligned");
  REQUIRE(keep == nullptr);
  REQUIRE(shape_of(a) == std::vector<int64_t>{3, 4});
}

TEST_CASE("slices with steps near +-2**63 follow Python's rules",
          "[view][overflow]") {
  const int64_t big = INT64_MAX;
  const int64_t bounds[] = {CN_SLICE_NONE, INT64_MIN + 1, -big / 2, -7, -3,
                            -1, 0, 1, 3, 6, big / 2, big};
  const int64_t steps[] = {big, big - 1, -big, -(big - 1), big / 2,
                           -(big / 2), (int64_t)1 << 62, 5, -5};
  for (int64_t n : {0, 1, 6}) {
    Arr a = iota({n, 4, 4});
    for (int64_t s : bounds)
      for (int64_t e : bounds)
        for (int64_t st : steps) {
          INFO("n " << n << " start " << s << " stop " << e << " step " << st);
          Arr v;
          CN_REQUIRE_OK(cn_slice(v.out(), a, 1, &s, &e, &st));
          auto rows = py_slice(n, s, e, st);
          REQUIRE(shape_of(v) ==
                  std::vector<int64_t>{(int64_t)rows.size(), 4, 4});
          std::vector<int64_t> expect;
          for (int64_t r : rows)
            for (int64_t k = 0; k < 16; k++)
              expect.push_back(r * 16 + k);
          REQUIRE(to_vec<int64_t>(v) == expect);
          // slicing the view again stays inside the buffer
          int64_t ns = CN_SLICE_NONE, minus = -1;
          Arr w;
          CN_REQUIRE_OK(cn_slice(w.out(), v, 1, &ns, &ns, &minus));
          std::reverse(rows.begin(), rows.end());
          expect.clear();
          for (int64_t r : rows)
            for (int64_t k = 0; k < 16; k++)
              expect.push_back(r * 16 + k);
          REQUIRE(to_vec<int64_t>(w) == expect);
          Arr w2;
          CN_REQUIRE_OK(cn_slice_axis(w2.out(), v, 0, s, e, st));
          REQUIRE(to_vec<int64_t>(w2).size() <= expect.size());
        }
  }
}

TEST_CASE("a huge step on a strided axis keeps one element", "[view][overflow]") {
  // stride 16 * step 2**63-1 overflows; one element is selected, so the
  // stride is never followed and the view is a[1]
  Arr a = iota({6, 4, 4});
  Arr v;
  CN_REQUIRE_OK(cn_slice_axis(v.out(), a, 0, 1, CN_SLICE_NONE, INT64_MAX));
  REQUIRE(shape_of(v) == std::vector<int64_t>{1, 4, 4});
  auto got = to_vec<int64_t>(v);
  REQUIRE(got.front() == 16);
  REQUIRE(got.back() == 31);
  int32_t fl = 0;
  cn_array_flags(&fl, v);
  REQUIRE((fl & CN_FLAG_C_CONTIGUOUS) != 0);
  Arr t, tv;
  CN_REQUIRE_OK(cn_transpose(t.out(), v));
  CN_REQUIRE_OK(cn_view_dtype(tv.out(), t, CN_UINT64));
  REQUIRE(shape_of(tv) == std::vector<int64_t>{4, 4, 1});
}

TEST_CASE("shapes whose size overflows are refused by every view",
          "[view][overflow][errors]") {
  const int64_t h32 = (int64_t)1 << 32, h62 = (int64_t)1 << 62;
  Arr one;
  int64_t n1 = 1;
  CN_REQUIRE_OK(cn_ones(one.out(), 1, &n1, CN_FLOAT64, CN_ORDER_C));
  cn_array out = nullptr;
  int64_t sq[2] = {h32, h32};
  CN_REQUIRE_ERR(cn_broadcast_to(&out, one, 2, sq), CN_ERR_VALUE,
                 "cn_broadcast_to: array is too big");
  // as NumPy: the non-zero extents must fit even when the size is 0
  int64_t empty_big[3] = {0, h62, h62};
  CN_REQUIRE_ERR(cn_broadcast_to(&out, one, 3, empty_big), CN_ERR_VALUE,
                 "too big");
  // the byte size counts: 2**62 float64 items are 2**65 bytes
  int64_t bytes_big[2] = {h62, 1};
  CN_REQUIRE_ERR(cn_broadcast_to(&out, one, 2, bytes_big), CN_ERR_VALUE,
                 "too big");
  int64_t ok_shape[2] = {h32, 2};
  Arr ok;
  CN_REQUIRE_OK(cn_broadcast_to(ok.out(), one, 2, ok_shape));
  int64_t size = 0;
  cn_array_size(&size, ok);
  REQUIRE(size == 2 * h32);
  // broadcast_arrays of (2**32, 1) and (1, 2**32)
  int64_t col[2] = {h32, 1}, row[2] = {1, h32};
  Arr c, r;
  CN_REQUIRE_OK(cn_broadcast_to(c.out(), one, 2, col));
  CN_REQUIRE_OK(cn_broadcast_to(r.out(), one, 2, row));
  cn_array pair[2] = {c, r}, outs[2] = {nullptr, nullptr};
  CN_REQUIRE_ERR(cn_broadcast_arrays(outs, 2, pair), CN_ERR_VALUE, "too big");
  REQUIRE(outs[0] == nullptr);
  // reshape of an empty array
  Arr e;
  int64_t zero = 0;
  CN_REQUIRE_OK(cn_empty(e.out(), 1, &zero, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_reshape(&out, e, 3, empty_big, CN_ORDER_C), CN_ERR_VALUE,
                 "cn_reshape: array is too big");
  int64_t fits[3] = {0, (int64_t)1 << 30, 1 << 20};
  Arr rs;
  CN_REQUIRE_OK(cn_reshape(rs.out(), e, 3, fits, CN_ORDER_C));
  REQUIRE(shape_of(rs) == std::vector<int64_t>{0, (int64_t)1 << 30, 1 << 20});
  // view(dtype) that scales an empty array's extents past int64
  Arr e8, b8;
  int64_t e8_shape[2] = {1, 0}, b8_shape[2] = {h62, 0};
  CN_REQUIRE_OK(cn_zeros(e8.out(), 2, e8_shape, CN_INT8, CN_ORDER_C));
  CN_REQUIRE_OK(cn_broadcast_to(b8.out(), e8, 2, b8_shape));
  CN_REQUIRE_ERR(cn_view_dtype(&out, b8, CN_INT64), CN_ERR_VALUE,
                 "cn_view_dtype: array is too big");
  REQUIRE(out == nullptr);
}

TEST_CASE("cn_complex_part_view is a strided view of the parts", "[view]") {
  std::vector<double> v = {1, -1, 2, -2, 3, -3}; // three complex128
  Arr z;
  int64_t shape[1] = {3};
  CN_REQUIRE_OK(cn_from_host(z.out(), v.data(), 0, 48, 1, shape, nullptr,
                             CN_COMPLEX128));
  Arr re, im;
  CN_REQUIRE_OK(cn_complex_part_view(re.out(), z, 0));
  CN_REQUIRE_OK(cn_complex_part_view(im.out(), z, 1));
  CHECK(to_vec<double>(re) == std::vector<double>{1, 2, 3});
  CHECK(to_vec<double>(im) == std::vector<double>{-1, -2, -3});
  cn_dtype dt;
  CN_REQUIRE_OK(cn_array_dtype(&dt, im));
  CHECK(dt == CN_FLOAT64);
  cn_scalar seven = {CN_SCALAR_FLOAT, 0, 0, 7.0, 0};
  CN_REQUIRE_OK(cn_fill(im, seven));
  std::vector<double> back(6);
  CN_REQUIRE_OK(cn_copy_to_buffer(back.data(), 48, z, CN_ORDER_C));
  CHECK(back == std::vector<double>{1, 7, 2, 7, 3, 7});
  Arr r;
  CN_REQUIRE_ERR(cn_complex_part_view(r.out(), re, 0), CN_ERR_TYPE,
                 "not complex");
  CN_REQUIRE_ERR(cn_complex_part_view(nullptr, z, 0), CN_ERR_VALUE, "output");
  CN_REQUIRE_ERR(cn_complex_part_view(r.out(), nullptr, 0), CN_ERR_VALUE,
                 "'a'");
}
