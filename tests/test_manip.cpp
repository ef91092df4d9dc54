// Joining, splitting, repetition, padding, inserting / deleting, selecting
// and rearranging (cunumpy/manip.h),
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
  CN_REQUIRE_ERR(cn_concatenate(&out, 2, ab, 2, CN_DTYPE_DEFAULT), CN_ERR_AXIS,
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
  CN_REQUIRE_ERR(cn_stack(&out, 2, xy, 3), CN_ERR_AXIS, "axis 3");
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
  CN_REQUIRE_ERR(cn_roll(&out, b, 1, s1, axb), CN_ERR_AXIS, "axis 2");

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

// ---- cn_pad_ext: every NumPy mode ------------------------------------------

namespace {
// cn_pad_ext of a 1-d float64 vector with (before, after) widths.
std::vector<double> pad_ext1(std::vector<double> v, int64_t b, int64_t e,
                             int32_t mode, cn_array values = nullptr,
                             cn_array stat = nullptr, int32_t odd = 0) {
  Arr a = tu::f64(v, {(int64_t)v.size()}), r;
  int64_t w[2] = {b, e};
  CN_REQUIRE_OK(cn_pad_ext(r.out(), a, w, mode, values, stat, odd));
  return tu::dvec(r);
}
} // namespace

TEST_CASE("pad_ext modes against NumPy's outputs", "[manip]") {
  using V = std::vector<double>;
  Arr ends = i64({5, -4}, {2});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 2, 3, CN_PAD_LINEAR_RAMP, ends) ==
          V{5, 3, 1, 2, 3, 4, 5, 2, -1, -4});
  Arr fends = f64({0.5, 10}, {2});
  REQUIRE(pad_ext1({1, 2, 3}, 4, 2, CN_PAD_LINEAR_RAMP, fends) ==
          V{0.5, 0.625, 0.75, 0.875, 1, 2, 3, 6.5, 10});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 2, 2, CN_PAD_MAXIMUM) ==
          V{5, 5, 1, 2, 3, 4, 5, 5, 5});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 2, 2, CN_PAD_MINIMUM) ==
          V{1, 1, 1, 2, 3, 4, 5, 1, 1});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 2, 2, CN_PAD_MEAN) ==
          V{3, 3, 1, 2, 3, 4, 5, 3, 3});
  REQUIRE(pad_ext1({1, 2, 3, 4, 10}, 1, 1, CN_PAD_MEDIAN) ==
          V{3, 1, 2, 3, 4, 10, 3});
  Arr sl = i64({2}, {1});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 1, 1, CN_PAD_MEAN, nullptr, sl) ==
          V{1.5, 1, 2, 3, 4, 5, 4.5});
  Arr big = i64({100}, {1}); // clamped to the extent
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 1, 1, CN_PAD_MAXIMUM, nullptr, big) ==
          V{5, 1, 2, 3, 4, 5, 5});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 2, 3, CN_PAD_REFLECT, nullptr, nullptr,
                   1) == V{-1, 0, 1, 2, 3, 4, 5, 6, 7, 8});
  REQUIRE(pad_ext1({1, 2, 3, 4, 5}, 2, 3, CN_PAD_SYMMETRIC, nullptr, nullptr,
                   1) == V{0, 1, 1, 2, 3, 4, 5, 5, 6, 7});
  // Widths beyond the extent keep extrapolating, chunk by chunk.
  REQUIRE(pad_ext1({1, 2, 3}, 5, 5, CN_PAD_REFLECT, nullptr, nullptr, 1) ==
          V{-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8});
  REQUIRE(pad_ext1({1, 2, 3}, 5, 5, CN_PAD_SYMMETRIC, nullptr, nullptr, 1) ==
          V{-2, -1, -1, 0, 1, 1, 2, 3, 3, 4, 5, 5, 6});
  REQUIRE(pad_ext1({7}, 2, 1, CN_PAD_REFLECT, nullptr, nullptr, 1) ==
          V{7, 7, 7, 7});
  // Even reflection and the other cn_pad modes are cn_pad's.
  REQUIRE(pad_ext1({1, 2, 3}, 2, 3, CN_PAD_REFLECT) ==
          V{3, 2, 1, 2, 3, 2, 1, 2});
  REQUIRE(pad_ext1({1, 2, 3}, 1, 1, CN_PAD_EMPTY) == V{0, 1, 2, 3, 0});
  Arr cv = i64({4, 6}, {2});
  REQUIRE(pad_ext1({1, 2, 3}, 2, 3, CN_PAD_CONSTANT, cv) ==
          V{4, 4, 1, 2, 3, 6, 6, 6});
  REQUIRE(pad_ext1({1, 2, 3}, 1, 1, CN_PAD_CONSTANT) == V{0, 1, 2, 3, 0});
  // NaN and inf reach the statistics.
  REQUIRE(tu::same(pad_ext1({1, NAN, 3}, 1, 1, CN_PAD_MAXIMUM),
                   V{NAN, 1, NAN, 3, NAN}));
  REQUIRE(pad_ext1({1, INFINITY, 3}, 1, 0, CN_PAD_MEAN) ==
          V{INFINITY, 1, INFINITY, 3});
}

TEST_CASE("pad_ext on 2-d, strided, integer and every dtype", "[manip]") {
  using V = std::vector<double>;
  Arr a = arange(6, {2, 3}, CN_INT64), r;
  int64_t w1[4] = {1, 1, 2, 0};
  CN_REQUIRE_OK(cn_pad_ext(r.out(), a, w1, CN_PAD_MINIMUM, nullptr, nullptr, 0));
  REQUIRE(dvec(r) == V{0, 0, 0, 1, 2, 0, 0, 0, 1, 2,
                       3, 3, 3, 4, 5, 0, 0, 0, 1, 2});
  int64_t w2[4] = {1, 1, 2, 1};
  Arr cv = i64({1, 2, 3, 4}, {2, 2});
  CN_REQUIRE_OK(cn_pad_ext(r.out(), a, w2, CN_PAD_CONSTANT, cv, nullptr, 0));
  REQUIRE(dvec(r) == V{3, 3, 1, 1, 1, 4, 3, 3, 0, 1, 2, 4,
                       3, 3, 3, 4, 5, 4, 3, 3, 2, 2, 2, 4});
  // Negative strides; integer means round half to even.
  Arr flipped = flip_all(a);
  int64_t w3[4] = {1, 1, 1, 1};
  Arr sl = i64({1, 2, 2, 1}, {2, 2});
  CN_REQUIRE_OK(cn_pad_ext(r.out(), flipped, w3, CN_PAD_MEAN, nullptr, sl, 0));
  REQUIRE(dvec(r) == V{4, 5, 4, 3, 3, 4, 5, 4, 3, 3,
                       2, 2, 1, 0, 0, 3, 4, 2, 2, 2});
  // Transposed (non-contiguous) input: same as its copy.
  Arr t = transpose(a), tc = copy(t), r2;
  CN_REQUIRE_OK(cn_pad_ext(r.out(), t, w3, CN_PAD_SYMMETRIC, nullptr, nullptr, 1));
  CN_REQUIRE_OK(cn_pad_ext(r2.out(), tc, w3, CN_PAD_SYMMETRIC, nullptr, nullptr,
                           1));
  REQUIRE(dvec(r) == dvec(r2));
  Arr cv12 = i64({1, 2}, {2});
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    Arr x = cast(f64({1, 2, 3}, {3}), dt), out;
    int64_t w[2] = {1, 2};
    cn_dtype got;
    CN_REQUIRE_OK(cn_pad_ext(out.out(), x, w, CN_PAD_CONSTANT, cv12, nullptr, 0));
    cn_array_dtype(&got, out);
    REQUIRE(got == dt);
    if (dt == CN_BOOL)
      continue;
    REQUIRE(dvec(out) == V{1, 1, 2, 3, 2, 2});
    CN_REQUIRE_OK(cn_pad_ext(out.out(), x, w, CN_PAD_REFLECT, nullptr, nullptr, 1));
    REQUIRE(dvec(out) == V{0, 1, 2, 3, 4, 5});
    CN_REQUIRE_OK(cn_pad_ext(out.out(), x, w, CN_PAD_LINEAR_RAMP, nullptr,
                             nullptr, 0));
    // linspace(0, 3, 2, endpoint=False) reversed: 1.5, 0 (floored for ints).
    bool real_float = dt == CN_FLOAT16 || dt == CN_FLOAT32 ||
                      dt == CN_FLOAT64 || is_complex(dt);
    REQUIRE(dvec(out) == V{0, 1, 2, 3, real_float ? 1.5 : 1, 0});
    if (is_complex(dt))
      continue;
    CN_REQUIRE_OK(cn_pad_ext(out.out(), x, w, CN_PAD_MAXIMUM, nullptr, nullptr, 0));
    REQUIRE(dvec(out) == V{3, 1, 2, 3, 3, 3});
  }
}

TEST_CASE("pad_ext on empty and 0-d arrays, and its errors", "[manip]") {
  using V = std::vector<double>;
  Arr s = scalar_f(2.5), r;
  CN_REQUIRE_OK(cn_pad_ext(r.out(), s, nullptr, CN_PAD_MEAN, nullptr, nullptr, 0));
  REQUIRE(shape_of(r).empty());
  REQUIRE(dvec(r) == V{2.5});
  Arr e = arange(0, {0}), e2 = arange(0, {0, 3});
  int64_t w[2] = {1, 2}, w2[4] = {0, 0, 1, 1};
  Arr cv = i64({4, 6}, {2});
  CN_REQUIRE_OK(cn_pad_ext(r.out(), e, w, CN_PAD_CONSTANT, cv, nullptr, 0));
  REQUIRE(dvec(r) == V{4, 6, 6});
  CN_REQUIRE_OK(cn_pad_ext(r.out(), e2, w2, CN_PAD_MEAN, nullptr, nullptr, 0));
  REQUIRE(shape_of(r) == shp{0, 5});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_pad_ext(&out, e, w, CN_PAD_MEDIAN, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "empty axis");
  Arr a = arange(6, {2, 3});
  int64_t wa[4] = {1, 1, 1, 1}, neg[4] = {1, -1, 0, 0};
  CN_REQUIRE_ERR(cn_pad_ext(&out, nullptr, wa, 0, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "'a' is NULL");
  CN_REQUIRE_ERR(cn_pad_ext(nullptr, a, wa, 0, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "output");
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, nullptr, 0, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "pad_width");
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, wa, 11, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "mode");
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, neg, 0, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "negative");
  Arr bad = i64({1, 2, 3}, {3});
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, wa, CN_PAD_CONSTANT, bad, nullptr, 0),
                 CN_ERR_SHAPE, "cn_pad_ext");
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, wa, CN_PAD_MEAN, nullptr, bad, 0),
                 CN_ERR_SHAPE, "cn_pad_ext");
  Arr fl = f64({1}, {1}), negl = i64({-1}, {1}), zl = i64({0}, {1});
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, wa, CN_PAD_MEAN, nullptr, fl, 0),
                 CN_ERR_TYPE, "integral");
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, wa, CN_PAD_MEAN, nullptr, negl, 0),
                 CN_ERR_VALUE, "negative");
  CN_REQUIRE_ERR(cn_pad_ext(&out, a, wa, CN_PAD_MAXIMUM, nullptr, zl, 0),
                 CN_ERR_VALUE, "stat_length of 0");
  cn_array dead = nullptr;
  CN_REQUIRE_OK(cn_copy(&dead, a, CN_ORDER_C));
  cn_array_release(dead);
  CN_REQUIRE_ERR(cn_pad_ext(&out, dead, wa, 0, nullptr, nullptr, 0),
                 CN_ERR_VALUE, "released");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(a) == V{0, 1, 2, 3, 4, 5});
}

// ---- insert / delete / append ----------------------------------------------

namespace {
// NumPy's insert of one value per position into a 1-d vector: value j goes
// before index pos[j] (negatives from the end), ties in the given order.
std::vector<double> naive_insert(const std::vector<double> &a,
                                 std::vector<int64_t> pos,
                                 const std::vector<double> &vals) {
  int64_t n = (int64_t)a.size();
  std::vector<std::pair<int64_t, size_t>> order;
  for (size_t j = 0; j < pos.size(); j++)
    order.push_back({pos[j] < 0 ? pos[j] + n : pos[j], j});
  std::stable_sort(order.begin(), order.end(),
                   [](auto &x, auto &y) { return x.first < y.first; });
  std::vector<double> r;
  size_t k = 0;
  for (int64_t i = 0; i <= n; i++) {
    while (k < order.size() && order[k].first == i)
      r.push_back(vals[order[k++].second % vals.size()]);
    if (i < n)
      r.push_back(a[(size_t)i]);
  }
  return r;
}
} // namespace

TEST_CASE("insert against a naive splice", "[manip]") {
  using V = std::vector<double>;
  Arr a = arange(5, {5}), r;
  Arr pos = i64({1, 1, 3, 0, -1}, {5}), vals = f64({10, 11, 12, 13, 14}, {5});
  CN_REQUIRE_OK(cn_insert(r.out(), a, pos, vals, CN_AXIS_NONE));
  REQUIRE(dvec(r) == naive_insert({0, 1, 2, 3, 4}, {1, 1, 3, 0, -1},
                                  {10, 11, 12, 13, 14}));
  // Many positions take the gather path; a broadcast scalar value.
  std::vector<int64_t> many;
  for (int64_t i = 0; i < 600; i++)
    many.push_back((i * 7919) % 11 - 5);
  Arr mp = i64(many, {600}), nine = scalar_f(9);
  Arr a10 = arange(6, {6});
  CN_REQUIRE_OK(cn_insert(r.out(), a10, mp, nine, 0));
  REQUIRE(dvec(r) == naive_insert({0, 1, 2, 3, 4, 5}, many, {9}));
  Arr vm = arange(600, {600}, CN_INT32);
  std::vector<double> vmd(600);
  std::iota(vmd.begin(), vmd.end(), 0.0);
  CN_REQUIRE_OK(cn_insert(r.out(), flip_all(a10), mp, vm, 0));
  REQUIRE(dvec(r) == naive_insert({5, 4, 3, 2, 1, 0}, many, vmd));
  // 2-d: a scalar position moves values' first axis to axis; a 1-element
  // list does not (NumPy's rule).
  Arr b = arange(6, {2, 3}, CN_INT64);
  Arr one = scalar_i(1), onel = i64({1}, {1}), v78 = i64({7, 8}, {2});
  CN_REQUIRE_OK(cn_insert(r.out(), b, one, v78, 1));
  REQUIRE(shape_of(r) == shp{2, 4});
  REQUIRE(dvec(r) == V{0, 7, 1, 2, 3, 8, 4, 5});
  CN_REQUIRE_OK(cn_insert(r.out(), b, onel, v78, 1));
  REQUIRE(shape_of(r) == shp{2, 5});
  REQUIRE(dvec(r) == V{0, 7, 8, 1, 2, 3, 7, 8, 4, 5});
  Arr p2 = i64({0, 3}, {2});
  Arr p02 = i64({0, 2}, {2});
  CN_REQUIRE_OK(cn_insert(r.out(), transpose(b), p02, v78, 1));
  REQUIRE(dvec(r) == V{7, 0, 3, 8, 7, 1, 4, 8, 7, 2, 5, 8});
  CN_REQUIRE_OK(cn_insert(r.out(), b, p2, nine, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{9, 0, 1, 2, 9, 3, 4, 5});
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT64);
  // Empty positions copy; empty and 0-d arrays.
  Arr none = f64({}, {0});
  CN_REQUIRE_OK(cn_insert(r.out(), b, none, nine, 0));
  REQUIRE(dvec(r) == dvec(b));
  Arr e = arange(0, {0}), zero = scalar_i(0);
  CN_REQUIRE_OK(cn_insert(r.out(), e, zero, nine, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{9});
  Arr s = scalar_f(4);
  CN_REQUIRE_OK(cn_insert(r.out(), s, zero, nine, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{9, 4});
  for (cn_dtype d : all_dtypes()) {
    INFO(cn_dtype_name(d));
    Arr x = cast(f64({1, 0, 1}, {3}), d);
    CN_REQUIRE_OK(cn_insert(r.out(), x, p2, s, 0));
    cn_array_dtype(&dt, r);
    REQUIRE(dt == d);
    REQUIRE(dvec(r) == (d == CN_BOOL ? V{1, 1, 0, 1, 1} : V{4, 1, 0, 1, 4}));
  }
  cn_array out = nullptr;
  Arr far = i64({0, 7}, {2}), far1 = scalar_i(-4), m2 = i64({0, 1}, {1, 2});
  Arr fpos = f64({1}, {1}), bpos = boolean({1, 0, 0}, {3});
  CN_REQUIRE_ERR(cn_insert(&out, b, far, nine, 1), CN_ERR_INDEX,
                 "index 7 is out of bounds for axis 1 with size 3");
  CN_REQUIRE_ERR(cn_insert(&out, b, far1, nine, 1), CN_ERR_INDEX,
                 "out of bounds");
  CN_REQUIRE_ERR(cn_insert(&out, b, m2, nine, 1), CN_ERR_VALUE,
                 "one dimensional");
  Arr fpos2 = f64({1, 2}, {2}), bm2 = boolean({1, 0}, {1, 2});
  CN_REQUIRE_ERR(cn_insert(&out, b, fpos, nine, 1), CN_ERR_TYPE,
                 "slice indices must be integers");
  CN_REQUIRE_ERR(cn_insert(&out, b, fpos2, nine, 1), CN_ERR_INDEX,
                 "must be of integer (or boolean) type");
  CN_REQUIRE_ERR(cn_insert(&out, b, bm2, nine, 1), CN_ERR_VALUE,
                 "boolean array argument obj to insert");
  // A bool array inserts at its nonzero positions.
  CN_REQUIRE_OK(cn_insert(r.out(), b, bpos, nine, 1));
  REQUIRE(dvec(r) == V{9, 0, 1, 2, 9, 3, 4, 5});
  CN_REQUIRE_ERR(cn_insert(&out, b, p2, nine, 2), CN_ERR_AXIS, "axis");
  CN_REQUIRE_ERR(cn_insert(&out, s, zero, nine, 0), CN_ERR_AXIS, "axis");
  Arr v3 = i64({1, 2, 3}, {3});
  CN_REQUIRE_ERR(cn_insert(&out, b, p2, v3, 1), CN_ERR_SHAPE, "cn_insert");
  CN_REQUIRE_ERR(cn_insert(&out, b, nullptr, nine, 1), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_insert(&out, b, p2, nullptr, 1), CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(b) == V{0, 1, 2, 3, 4, 5});
}

TEST_CASE("delete and append", "[manip]") {
  using V = std::vector<double>;
  Arr b = arange(12, {3, 4}), r;
  Arr p = i64({0, 2, 2, -1}, {4});
  CN_REQUIRE_OK(cn_delete(r.out(), b, p, 1));
  REQUIRE(dvec(r) == V{1, 5, 9});
  CN_REQUIRE_OK(cn_delete(r.out(), b, p, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{1, 3, 4, 5, 6, 7, 8, 9, 10});
  Arr mask = boolean({1, 0, 1}, {3});
  CN_REQUIRE_OK(cn_delete(r.out(), b, mask, 0));
  REQUIRE(dvec(r) == V{4, 5, 6, 7});
  CN_REQUIRE_OK(cn_delete(r.out(), transpose(b), mask, 1));
  REQUIRE(dvec(r) == V{4, 5, 6, 7});
  Arr one = scalar_i(-3);
  CN_REQUIRE_OK(cn_delete(r.out(), flip_all(b), one, 0));
  REQUIRE(dvec(r) == V{7, 6, 5, 4, 3, 2, 1, 0});
  // Many runs take the gather path: delete every other element of 2000.
  std::vector<int64_t> odd;
  std::vector<double> even;
  for (int64_t i = 0; i < 2000; i++)
    (i % 2 ? odd.push_back(i) : even.push_back((double)i));
  Arr big = arange(2000, {2000}), po = i64(odd, {(int64_t)odd.size()});
  CN_REQUIRE_OK(cn_delete(r.out(), big, po, 0));
  REQUIRE(dvec(r) == even);
  Arr all = arange(3, {3}, CN_INT64), none = f64({}, {0});
  CN_REQUIRE_OK(cn_delete(r.out(), b, all, 0));
  REQUIRE(shape_of(r) == shp{0, 4});
  CN_REQUIRE_OK(cn_delete(r.out(), b, none, 0));
  REQUIRE(dvec(r) == dvec(b));
  Arr s = scalar_f(4), e = arange(0, {0});
  CN_REQUIRE_OK(cn_delete(r.out(), e, none, CN_AXIS_NONE));
  REQUIRE(shape_of(r) == shp{0});
  CN_REQUIRE_OK(cn_delete(r.out(), s, none, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{4});
  for (cn_dtype d : all_dtypes()) {
    INFO(cn_dtype_name(d));
    Arr x = cast(f64({1, 0, 1}, {3}), d);
    Arr z = scalar_i(1);
    CN_REQUIRE_OK(cn_delete(r.out(), x, z, 0));
    cn_dtype dt;
    cn_array_dtype(&dt, r);
    REQUIRE(dt == d);
    REQUIRE(dvec(r) == V{1, 1});
  }
  cn_array out = nullptr;
  Arr far = i64({3}, {1}), fl = f64({1}, {1}), m4 = boolean({1, 0}, {2});
  CN_REQUIRE_ERR(cn_delete(&out, b, far, 0), CN_ERR_INDEX,
                 "index 3 is out of bounds for axis 0 with size 3");
  Arr fl2 = f64({1, 2}, {2});
  CN_REQUIRE_ERR(cn_delete(&out, b, fl, 0), CN_ERR_INDEX, "integer");
  CN_REQUIRE_ERR(cn_delete(&out, b, fl2, 0), CN_ERR_INDEX, "integer");
  CN_REQUIRE_ERR(cn_delete(&out, b, m4, 0), CN_ERR_VALUE, "axis length of 3");
  CN_REQUIRE_ERR(cn_delete(&out, b, far, -3), CN_ERR_AXIS, "axis");
  CN_REQUIRE_ERR(cn_delete(&out, nullptr, far, 0), CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);

  Arr x = arange(6, {2, 3}, CN_INT32), y = f64({0.5, 1.5, 2.5}, {1, 3});
  CN_REQUIRE_OK(cn_append(r.out(), x, y, 0));
  REQUIRE(shape_of(r) == shp{3, 3});
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT64);
  CN_REQUIRE_OK(cn_append(r.out(), x, s, CN_AXIS_NONE));
  REQUIRE(dvec(r) == V{0, 1, 2, 3, 4, 5, 4});
  CN_REQUIRE_ERR(cn_append(&out, x, s, 0), CN_ERR_VALUE, "zero-dimensional");
  CN_REQUIRE_ERR(cn_append(&out, x, y, 1), CN_ERR_SHAPE, "dimension");
  CN_REQUIRE_ERR(cn_append(&out, x, nullptr, 0), CN_ERR_VALUE, "NULL");
}

// ---- select ------------------------------------------------------------------

TEST_CASE("select against a naive first-true loop", "[manip]") {
  using V = std::vector<double>;
  Arr x = arange(10, {10}, CN_INT64);
  std::vector<uint8_t> lt3(10), gt5(10), mid(10);
  for (int i = 0; i < 10; i++) {
    lt3[i] = i < 3;
    gt5[i] = i > 5;
    mid[i] = i > 1 && i < 8;
  }
  Arr c0 = boolean(lt3, {10}), c1 = boolean(gt5, {10}), c2 = boolean(mid, {10});
  Arr sq = f64({0, 1, 4, 9, 16, 25, 36, 49, 64, 81}, {10}), neg, r;
  CN_REQUIRE_OK(cn_negative(neg.out(), x, nullptr));
  Arr rev = flip_all(neg);
  cn_array conds[3] = {c0, c1, c2}, choices[3] = {x, sq, rev};
  Arr dflt = scalar_f(NAN);
  CN_REQUIRE_OK(cn_select(r.out(), 3, conds, choices, dflt));
  std::vector<double> want(10);
  for (int i = 0; i < 10; i++)
    want[i] = lt3[i] ? i : gt5[i] ? i * i : mid[i] ? -(9 - i) : NAN;
  REQUIRE(same(dvec(r), want));
  // Python scalars are weak: float32 choices with an int default stay
  // float32; broadcasting of a 0-d choice takes the conditions' shape.
  Arr f = cast(arange(10, {10}), CN_FLOAT32), wz, w5;
  CN_REQUIRE_OK(cn_scalar_array(wz.out(), cn_scalar_int(0)));
  CN_REQUIRE_OK(cn_scalar_array(w5.out(), cn_scalar_int(5)));
  cn_array cf[1] = {c0}, chf[1] = {f};
  CN_REQUIRE_OK(cn_select(r.out(), 1, cf, chf, wz));
  cn_dtype dt;
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_FLOAT32);
  REQUIRE(dvec(r) == V{0, 1, 2, 0, 0, 0, 0, 0, 0, 0});
  cn_array c5[1] = {w5};
  CN_REQUIRE_OK(cn_select(r.out(), 1, cf, c5, wz));
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT64);
  REQUIRE(dvec(r) == V{5, 5, 5, 0, 0, 0, 0, 0, 0, 0});
  // A column of conditions broadcasts against a row of choices.
  Arr col = boolean({1, 0}, {2, 1}), row = arange(3, {3}, CN_INT16);
  cn_array cc[1] = {col}, cr[1] = {row};
  CN_REQUIRE_OK(cn_select(r.out(), 1, cc, cr, w5));
  REQUIRE(shape_of(r) == shp{2, 3});
  REQUIRE(dvec(r) == V{0, 1, 2, 5, 5, 5});
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT16);
  // An out-of-range Python int keeps the array dtype and wraps, as NumPy's
  // select([..], [int8 array], 300).
  Arr i8 = cast(arange(3, {3}), CN_INT8), w300, c3 = boolean({1, 0, 1}, {3});
  CN_REQUIRE_OK(cn_scalar_array(w300.out(), cn_scalar_int(300)));
  cn_array c3a[1] = {c3}, i8a[1] = {i8};
  CN_REQUIRE_OK(cn_select(r.out(), 1, c3a, i8a, w300));
  cn_array_dtype(&dt, r);
  REQUIRE(dt == CN_INT8);
  REQUIRE(dvec(r) == V{0, 44, 2});
  // Empty conditions, every dtype.
  Arr ec = boolean({}, {0});
  cn_array ce[1] = {ec};
  CN_REQUIRE_OK(cn_select(r.out(), 1, ce, c5, wz));
  REQUIRE(shape_of(r) == shp{0});
  for (cn_dtype d : all_dtypes()) {
    INFO(cn_dtype_name(d));
    Arr v = cast(f64({1, 1, 1}, {3}), d), c = boolean({0, 1, 0}, {3});
    Arr dv = cast(f64({0}, {}), d);
    cn_array cs[1] = {c}, vs[1] = {v};
    CN_REQUIRE_OK(cn_select(r.out(), 1, cs, vs, dv));
    cn_array_dtype(&dt, r);
    REQUIRE(dt == d);
    REQUIRE(dvec(r) == V{0, 1, 0});
  }
  cn_array out = nullptr;
  cn_array cx[1] = {x};
  CN_REQUIRE_ERR(cn_select(&out, 1, cx, chf, wz), CN_ERR_TYPE,
                 "invalid entry 0 in condlist");
  CN_REQUIRE_ERR(cn_select(&out, 0, cf, chf, wz), CN_ERR_VALUE, "empty");
  Arr three = boolean({1, 0, 1}, {3});
  cn_array cbad[2] = {c0, three};
  cn_array chh[2] = {x, x};
  CN_REQUIRE_ERR(cn_select(&out, 2, cbad, chh, wz), CN_ERR_SHAPE, "broadcast");
  cn_array chbad[2] = {x, three};
  cn_array cok[2] = {c0, c1};
  CN_REQUIRE_ERR(cn_select(&out, 2, cok, chbad, wz), CN_ERR_SHAPE, "broadcast");
  cn_array cnull[1] = {nullptr};
  CN_REQUIRE_ERR(cn_select(&out, 1, cnull, chf, wz), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_select(&out, 1, cf, chf, nullptr), CN_ERR_VALUE, "NULL");
  REQUIRE(out == nullptr);
}

TEST_CASE("roll and repeat of empty arrays along a 2^40 axis", "[manip]") {
  // NumPy: shapes (2^40, 0) and (0, 2^40) roll to themselves and repeat
  // to the axis' extent times the repeats, with no element to move; a
  // gather index along the long axis would be 8 TiB.
  const int64_t huge = int64_t{1} << 40;
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    for (int32_t ax : {0, 1}) {
      int64_t sh[2] = {huge, 0};
      if (ax == 1)
        std::swap(sh[0], sh[1]);
      Arr z;
      CN_REQUIRE_OK(cn_zeros(z.out(), 2, sh, dt, CN_ORDER_C));
      Arr r;
      int64_t s[2] = {3, -huge - 1};
      int32_t axes[2] = {ax, ax};
      CN_REQUIRE_OK(cn_roll(r.out(), z, 2, s, axes));
      REQUIRE(shape_of(r) == shp{sh[0], sh[1]});
      CN_REQUIRE_OK(cn_repeat_n(r.out(), z, 2, ax));
      shp want{sh[0], sh[1]};
      want[ax] = 2 * huge;
      REQUIRE(shape_of(r) == want);
      cn_dtype got;
      cn_array_dtype(&got, r);
      REQUIRE(got == dt);
      CN_REQUIRE_OK(cn_repeat_n(r.out(), z, 0, ax));
      want[ax] = 0;
      REQUIRE(shape_of(r) == want);
      // a repeat count that overflows the extent is still an error
      cn_array out = nullptr;
      CN_REQUIRE_ERR(cn_repeat_n(&out, z, int64_t{1} << 24, ax),
                     CN_ERR_VALUE, "too large");
      REQUIRE(out == nullptr);
    }
  }
}
