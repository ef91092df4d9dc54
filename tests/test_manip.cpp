// Joining, splitting, repetition, padding, rearranging (cunumpy/manip.h),
// checked against naive loops and NumPy's documented outputs.
#include "array_testutil.hpp"

using namespace tu;

TEST_CASE("concatenate and stack", "[manip]") {
  Arr a = arange(6, {2, 3});
  Arr b = cast(arange(3, {1, 3}), CN_INT32);
  cn_array ab[2] = {a, b};
  Arr r;
  CN_REQUIRE_OK(cn_concatenate(r.out(), 2, ab, 0, CN_DTYPE_DEFAULT));
  REQUIRE(shape_of(r) == shp{3, 3});
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT64);
  REQUIRE(dvec(r) == std::vector<double>{0, 1, 2, 3, 4, 5, 0, 1, 2});
  CN_REQUIRE_OK(cn_concatenate(r.out(), 2, ab, CN_AXIS_NONE, CN_INT16));
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT16);
  REQUIRE(shape_of(r) == shp{9});
  Arr t = transpose(a); // (3,2), non-contiguous
  Arr c = arange(3, {3, 1});
  cn_array tc[2] = {t, c};
  CN_REQUIRE_OK(cn_concatenate(r.out(), 2, tc, -1, CN_DTYPE_DEFAULT));
  REQUIRE(dvec(r) == std::vector<double>{0, 3, 0, 1, 4, 1, 2, 5, 2});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_concatenate(&out, 2, ab, 1, CN_DTYPE_DEFAULT), CN_ERR_SHAPE,
                 "along dimension 0");
  Arr v = arange(3, {3});
  cn_array av[2] = {a, v};
  CN_REQUIRE_ERR(cn_concatenate(&out, 2, av, 0, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "same number of dimensions");
  CN_REQUIRE_ERR(cn_concatenate(&out, 0, av, 0, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "at least one");
  CN_REQUIRE_ERR(cn_concatenate(&out, 2, ab, 2, CN_DTYPE_DEFAULT), CN_ERR_INDEX,
                 "axis 2");
  Arr s0 = scalar_f(1);
  cn_array zz[1] = {s0};
  CN_REQUIRE_ERR(cn_concatenate(&out, 1, zz, 0, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "zero-dimensional");
  REQUIRE(out == nullptr);

  Arr x = arange(3, {3}), y = cast(arange(3, {3}), CN_INT64);
  cn_array xy[2] = {x, y};
  CN_REQUIRE_OK(cn_stack(r.out(), 2, xy, 0));
  REQUIRE(shape_of(r) == shp{2, 3});
  CN_REQUIRE_OK(cn_stack(r.out(), 2, xy, -1));
  REQUIRE(shape_of(r) == shp{3, 2});
  REQUIRE(dvec(r) == std::vector<double>{0, 0, 1, 1, 2, 2});
  cn_array xa[2] = {x, a};
  CN_REQUIRE_ERR(cn_stack(&out, 2, xa, 0), CN_ERR_SHAPE, "same shape");
  CN_REQUIRE_ERR(cn_stack(&out, 2, xy, 3), CN_ERR_INDEX, "axis 3");
}

TEST_CASE("vstack, hstack, dstack, column_stack", "[manip]") {
  Arr x = arange(3, {3}), y = arange(3, {3});
  cn_array xy[2] = {x, y};
  Arr r;
  CN_REQUIRE_OK(cn_vstack(r.out(), 2, xy));
  REQUIRE(shape_of(r) == shp{2, 3});
  CN_REQUIRE_OK(cn_hstack(r.out(), 2, xy));
  REQUIRE(shape_of(r) == shp{6});
  CN_REQUIRE_OK(cn_dstack(r.out(), 2, xy));
  REQUIRE(shape_of(r) == shp{1, 3, 2});
  REQUIRE(dvec(r) == std::vector<double>{0, 0, 1, 1, 2, 2});
  CN_REQUIRE_OK(cn_column_stack(r.out(), 2, xy));
  REQUIRE(shape_of(r) == shp{3, 2});
  REQUIRE(dvec(r) == std::vector<double>{0, 0, 1, 1, 2, 2});
  Arr m = arange(6, {2, 3});
  cn_array mm[2] = {m, m};
  CN_REQUIRE_OK(cn_hstack(r.out(), 2, mm));
  REQUIRE(shape_of(r) == shp{2, 6});
  CN_REQUIRE_OK(cn_vstack(r.out(), 2, mm));
  REQUIRE(shape_of(r) == shp{4, 3});
  CN_REQUIRE_OK(cn_dstack(r.out(), 2, mm));
  REQUIRE(shape_of(r) == shp{2, 3, 2});
}

TEST_CASE("split family", "[manip]") {
  Arr a = arange(10, {10});
  cn_array parts[8];
  int32_t n = 0;
  CN_REQUIRE_OK(cn_array_split(parts, 8, &n, a, 3, 0, nullptr, 0));
  REQUIRE(n == 3);
  std::vector<Arr> keep;
  for (int i = 0; i < n; i++)
    keep.emplace_back(parts[i]);
  REQUIRE(dvec(keep[0]) == std::vector<double>{0, 1, 2, 3});
  REQUIRE(dvec(keep[1]) == std::vector<double>{4, 5, 6});
  REQUIRE(dvec(keep[2]) == std::vector<double>{7, 8, 9});
  CN_REQUIRE_ERR(cn_split(parts, 8, &n, a, 3, 0, nullptr, 0), CN_ERR_VALUE,
                 "equal division");
  CN_REQUIRE_ERR(cn_split(parts, 8, &n, a, 0, 0, nullptr, 0), CN_ERR_VALUE,
                 "larger than 0");
  CN_REQUIRE_ERR(cn_split(parts, 1, &n, a, 2, 0, nullptr, 0), CN_ERR_VALUE,
                 "capacity");
  int64_t idx[3] = {3, -2, 20};
  CN_REQUIRE_OK(cn_split(parts, 8, &n, a, 0, 3, idx, 0));
  REQUIRE(n == 4);
  keep.clear();
  for (int i = 0; i < n; i++)
    keep.emplace_back(parts[i]);
  REQUIRE(dvec(keep[0]) == std::vector<double>{0, 1, 2});
  REQUIRE(dvec(keep[1]) == std::vector<double>{3, 4, 5, 6, 7});
  REQUIRE(dvec(keep[2]) == std::vector<double>{8, 9});
  REQUIRE(shape_of(keep[3]) == shp{0});
  Arr m = arange(24, {2, 4, 3});
  CN_REQUIRE_OK(cn_hsplit(parts, 8, &n, m, 2, 0, nullptr));
  REQUIRE(n == 2);
  Arr h0(parts[0]), h1(parts[1]);
  REQUIRE(shape_of(h0) == shp{2, 2, 3});
  CN_REQUIRE_OK(cn_vsplit(parts, 8, &n, m, 2, 0, nullptr));
  Arr v0(parts[0]), v1(parts[1]);
  REQUIRE(shape_of(v1) == shp{1, 4, 3});
  REQUIRE(dvec(v1)[0] == 12);
  CN_REQUIRE_OK(cn_dsplit(parts, 8, &n, m, 3, 0, nullptr));
  Arr d0(parts[0]), d1(parts[1]), d2(parts[2]);
  REQUIRE(shape_of(d2) == shp{2, 4, 1});
  REQUIRE(dvec(d2)[1] == 5);
  CN_REQUIRE_ERR(cn_dsplit(parts, 8, &n, a, 2, 0, nullptr), CN_ERR_VALUE,
                 "3 or more dimensions");
  CN_REQUIRE_ERR(cn_vsplit(parts, 8, &n, a, 2, 0, nullptr), CN_ERR_VALUE,
                 "2 or more");
}

TEST_CASE("tile and repeat", "[manip]") {
  Arr b = arange(6, {2, 3});
  Arr r;
  int64_t reps[3] = {2, 1, 2};
  CN_REQUIRE_OK(cn_tile(r.out(), b, 3, reps));
  REQUIRE(shape_of(r) == shp{2, 2, 6});
  REQUIRE(dvec(r) == std::vector<double>{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5,
                                         0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  int64_t r1[1] = {2};
  CN_REQUIRE_OK(cn_tile(r.out(), b, 1, r1));
  REQUIRE(shape_of(r) == shp{2, 6});
  int64_t r0[1] = {0};
  CN_REQUIRE_OK(cn_tile(r.out(), b, 1, r0));
  REQUIRE(shape_of(r) == shp{2, 0});
  int64_t rn[1] = {-1};
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_tile(&out, b, 1, rn), CN_ERR_VALUE, "negative");

  Arr cnt = i64({1, 0, 3}, {3});
  CN_REQUIRE_OK(cn_repeat(r.out(), b, cnt, 1));
  REQUIRE(shape_of(r) == shp{2, 4});
  REQUIRE(dvec(r) == std::vector<double>{0, 2, 2, 2, 3, 5, 5, 5});
  CN_REQUIRE_OK(cn_repeat_n(r.out(), b, 2, CN_AXIS_NONE));
  REQUIRE(dvec(r) == std::vector<double>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5});
  CN_REQUIRE_OK(cn_repeat_n(r.out(), transpose(b), 2, 0));
  REQUIRE(shape_of(r) == shp{6, 2});
  REQUIRE(dvec(r)[2] == 0);
  REQUIRE(dvec(r)[4] == 1);
  Arr badc = i64({1, 2}, {2});
  CN_REQUIRE_ERR(cn_repeat(&out, b, badc, 1), CN_ERR_SHAPE, "2 entries");
  Arr negc = i64({1, -2, 0}, {3});
  CN_REQUIRE_ERR(cn_repeat(&out, b, negc, 1), CN_ERR_VALUE, "-2");
  CN_REQUIRE_ERR(cn_repeat_n(&out, b, -1, 0), CN_ERR_VALUE, "negative");
  Arr fc = f64({1}, {1});
  CN_REQUIRE_ERR(cn_repeat(&out, b, fc, 0), CN_ERR_TYPE, "integer");
  REQUIRE(out == nullptr);
}

static std::vector<double> pad1(const char *, int32_t mode, int64_t b,
                                int64_t e) {
  Arr a = f64({1, 2, 3}, {3});
  Arr r;
  int64_t w[2] = {b, e};
  CN_REQUIRE_OK(cn_pad(r.out(), a, w, mode, cn_scalar_float(0)));
  return dvec(r);
}

TEST_CASE("pad modes", "[manip]") {
  using V = std::vector<double>;
  REQUIRE(pad1("c", CN_PAD_CONSTANT, 2, 3) == V{0, 0, 1, 2, 3, 0, 0, 0});
  REQUIRE(pad1("r", CN_PAD_REFLECT, 2, 3) == V{3, 2, 1, 2, 3, 2, 1, 2});
  REQUIRE(pad1("s", CN_PAD_SYMMETRIC, 2, 3) == V{2, 1, 1, 2, 3, 3, 2, 1});
  REQUIRE(pad1("w", CN_PAD_WRAP, 2, 3) == V{2, 3, 1, 2, 3, 1, 2, 3});
  REQUIRE(pad1("e", CN_PAD_EDGE, 2, 3) == V{1, 1, 1, 2, 3, 3, 3, 3});
  REQUIRE(pad1("r", CN_PAD_REFLECT, 5, 4) ==
          V{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3});
  REQUIRE(pad1("s", CN_PAD_SYMMETRIC, 5, 4) ==
          V{2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1});
  REQUIRE(pad1("w", CN_PAD_WRAP, 5, 4) ==
          V{2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1});
  Arr b = arange(6, {2, 3});
  Arr r;
  int64_t w[4] = {1, 2, 2, 1};
  CN_REQUIRE_OK(cn_pad(r.out(), b, w, CN_PAD_REFLECT, cn_scalar_int(0)));
  REQUIRE(shape_of(r) == shp{5, 6});
  REQUIRE(dvec(r) == V{5, 4, 3, 4, 5, 4, 2, 1, 0, 1, 2, 1, 5, 4, 3,
                       4, 5, 4, 2, 1, 0, 1, 2, 1, 5, 4, 3, 4, 5, 4});
  CN_REQUIRE_OK(cn_pad(r.out(), transpose(transpose(b)), w, CN_PAD_SYMMETRIC,
                       cn_scalar_int(0)));
  REQUIRE(dvec(r) == V{1, 0, 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 4, 3, 3,
                       4, 5, 5, 4, 3, 3, 4, 5, 5, 1, 0, 0, 1, 2, 2});
  CN_REQUIRE_OK(cn_pad(r.out(), b, w, CN_PAD_CONSTANT, cn_scalar_float(7.5)));
  REQUIRE(dvec(r)[0] == 7.5);
  REQUIRE(dvec(r)[8] == 0);
  cn_array out = nullptr;
  int64_t neg[4] = {0, -1, 0, 0};
  CN_REQUIRE_ERR(cn_pad(&out, b, neg, 0, cn_scalar_int(0)), CN_ERR_VALUE,
                 "negative");
  CN_REQUIRE_ERR(cn_pad(&out, b, w, 9, cn_scalar_int(0)), CN_ERR_VALUE, "mode");
  Arr e = arange(0, {0});
  int64_t w1[2] = {1, 1};
  CN_REQUIRE_ERR(cn_pad(&out, e, w1, CN_PAD_WRAP, cn_scalar_int(0)),
                 CN_ERR_VALUE, "empty axis");
  CN_REQUIRE_OK(cn_pad(r.out(), e, w1, CN_PAD_CONSTANT, cn_scalar_int(3)));
  REQUIRE(dvec(r) == V{3, 3});
}

TEST_CASE("roll, rot90, atleast", "[manip]") {
  Arr b = arange(6, {2, 3});
  Arr r;
  int64_t s1[1] = {1};
  CN_REQUIRE_OK(cn_roll(r.out(), b, 1, s1, nullptr));
  REQUIRE(shape_of(r) == shp{2, 3});
  REQUIRE(dvec(r) == std::vector<double>{5, 0, 1, 2, 3, 4});
  int64_t s2[2] = {1, -1};
  int32_t ax[2] = {0, 1};
  CN_REQUIRE_OK(cn_roll(r.out(), b, 2, s2, ax));
  REQUIRE(dvec(r) == std::vector<double>{4, 5, 3, 1, 2, 0});
  int64_t big[1] = {-7};
  int32_t ax1[1] = {1};
  CN_REQUIRE_OK(cn_roll(r.out(), flip_all(b), 1, big, ax1));
  // flip: [[5,4,3],[2,1,0]], roll -7 == -1 on axis 1
  REQUIRE(dvec(r) == std::vector<double>{4, 3, 5, 1, 0, 2});
  cn_array out = nullptr;
  int32_t axb[1] = {2};
  CN_REQUIRE_ERR(cn_roll(&out, b, 1, s1, axb), CN_ERR_INDEX, "axis 2");

  CN_REQUIRE_OK(cn_rot90(r.out(), b, 1, 0, 1));
  REQUIRE(shape_of(r) == shp{3, 2});
  REQUIRE(dvec(r) == std::vector<double>{2, 5, 1, 4, 0, 3});
  CN_REQUIRE_OK(cn_rot90(r.out(), b, -1, 0, 1));
  REQUIRE(dvec(r) == std::vector<double>{3, 0, 4, 1, 5, 2});
  CN_REQUIRE_OK(cn_rot90(r.out(), b, 2, 0, 1));
  REQUIRE(dvec(r) == std::vector<double>{5, 4, 3, 2, 1, 0});
  CN_REQUIRE_OK(cn_rot90(r.out(), b, 4, 0, 1));
  REQUIRE(dvec(r) == dvec(b));
  CN_REQUIRE_ERR(cn_rot90(&out, b, 1, 0, 0), CN_ERR_VALUE, "different");
  CN_REQUIRE_ERR(cn_rot90(&out, arange(3, {3}), 1, 0, 1), CN_ERR_VALUE, "2-d");

  Arr s = scalar_f(2), v = arange(3, {3});
  CN_REQUIRE_OK(cn_atleast_1d(r.out(), s));
  REQUIRE(shape_of(r) == shp{1});
  CN_REQUIRE_OK(cn_atleast_2d(r.out(), v));
  REQUIRE(shape_of(r) == shp{1, 3});
  CN_REQUIRE_OK(cn_atleast_3d(r.out(), v));
  REQUIRE(shape_of(r) == shp{1, 3, 1});
  CN_REQUIRE_OK(cn_atleast_3d(r.out(), b));
  REQUIRE(shape_of(r) == shp{2, 3, 1});
  CN_REQUIRE_OK(cn_atleast_3d(r.out(), s));
  REQUIRE(shape_of(r) == shp{1, 1, 1});
  CN_REQUIRE_OK(cn_atleast_2d(r.out(), b));
  REQUIRE(shape_of(r) == shp{2, 3});
}

TEST_CASE("tril, triu, diag", "[manip]") {
  Arr m = arange(12, {3, 4});
  Arr r;
  for (int64_t k : {-1, 0, 2}) {
    CN_REQUIRE_OK(cn_tril(r.out(), m, k));
    auto lo = dvec(r);
    CN_REQUIRE_OK(cn_triu(r.out(), m, k));
    auto up = dvec(r);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++) {
        REQUIRE(lo[i * 4 + j] == (j - i <= k ? i * 4 + j : 0));
        REQUIRE(up[i * 4 + j] == (j - i >= k ? i * 4 + j : 0));
      }
  }
  // stacked and 1-d
  Arr st = arange(18, {2, 3, 3});
  CN_REQUIRE_OK(cn_tril(r.out(), st, 0));
  REQUIRE(dvec(r)[9 + 1] == 0);
  REQUIRE(dvec(r)[9 + 3] == 12);
  CN_REQUIRE_OK(cn_triu(r.out(), arange(3, {3}), 0));
  REQUIRE(shape_of(r) == shp{3, 3});
  REQUIRE(dvec(r) == std::vector<double>{0, 1, 2, 0, 1, 2, 0, 0, 2});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_tril(&out, scalar_f(1), 0), CN_ERR_VALUE, "1-d");

  Arr v = f64({1, 2}, {2});
  CN_REQUIRE_OK(cn_diag(r.out(), v, 1));
  REQUIRE(shape_of(r) == shp{3, 3});
  REQUIRE(dvec(r) == std::vector<double>{0, 1, 0, 0, 0, 2, 0, 0, 0});
  CN_REQUIRE_OK(cn_diag(r.out(), v, -1));
  REQUIRE(dvec(r) == std::vector<double>{0, 0, 0, 1, 0, 0, 0, 2, 0});
  CN_REQUIRE_OK(cn_diag(r.out(), m, 1));
  REQUIRE(dvec(r) == std::vector<double>{1, 6, 11});
  CN_REQUIRE_OK(cn_diag(r.out(), m, -2));
  REQUIRE(dvec(r) == std::vector<double>{8});
  CN_REQUIRE_OK(cn_diag(r.out(), m, 5));
  REQUIRE(shape_of(r) == shp{0});
  CN_REQUIRE_OK(cn_diag(r.out(), transpose(m), 0)); // (4,3)
  REQUIRE(dvec(r) == std::vector<double>{0, 5, 10});
  CN_REQUIRE_ERR(cn_diag(&out, st, 0), CN_ERR_VALUE, "1-d or 2-d");
}

TEST_CASE("meshgrid and indices", "[manip]") {
  Arr x = arange(3, {3}), y = cast(arange(2, {2}), CN_INT32);
  cn_array xy[2] = {x, y};
  cn_array g[2];
  CN_REQUIRE_OK(cn_meshgrid(g, 2, xy, 0, 0, 1));
  Arr gx(g[0]), gy(g[1]);
  REQUIRE(shape_of(gx) == shp{2, 3});
  REQUIRE(dvec(gx) == std::vector<double>{0, 1, 2, 0, 1, 2});
  REQUIRE(dvec(gy) == std::vector<double>{0, 0, 0, 1, 1, 1});
  CN_REQUIRE_OK(cn_meshgrid(g, 2, xy, 1, 0, 0));
  Arr ix(g[0]), iy(g[1]);
  REQUIRE(shape_of(ix) == shp{3, 2});
  int32_t fl;
  cn_array_flags(&fl, ix);
  REQUIRE((fl & CN_FLAG_WRITEABLE) == 0);
  REQUIRE(dvec(iy) == std::vector<double>{0, 1, 0, 1, 0, 1});
  CN_REQUIRE_OK(cn_meshgrid(g, 2, xy, 0, 1, 1));
  Arr sx(g[0]), sy(g[1]);
  REQUIRE(shape_of(sx) == shp{1, 3});
  REQUIRE(shape_of(sy) == shp{2, 1});

  Arr r;
  int64_t dims[2] = {2, 3};
  CN_REQUIRE_OK(cn_indices(r.out(), 2, dims, CN_DTYPE_DEFAULT));
  REQUIRE(shape_of(r) == shp{2, 2, 3});
  REQUIRE(ivec(r) == std::vector<int64_t>{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2});
  int64_t bad[1] = {-1};
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_indices(&out, 1, bad, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "negative");
}
