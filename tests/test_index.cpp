// Advanced indexing (cunumpy/index.h) against naive loops.
#include "array_testutil.hpp"

using namespace tu;

TEST_CASE("take along an axis, flattened, modes, every dtype", "[index]") {
  Arr a = arange(12, {3, 4});
  Arr idx = i64({2, -1, 0}, {3});
  Arr r;
  CN_REQUIRE_OK(cn_take(r.out(), a, idx, 1, CN_INDEX_RAISE, nullptr));
  REQUIRE(shape_of(r) == shp{3, 3});
  std::vector<double> want;
  for (int i = 0; i < 3; i++)
    for (int j : {2, 3, 0})
      want.push_back(i * 4 + j);
  REQUIRE(dvec(r) == want);

  CN_REQUIRE_OK(cn_take(r.out(), a, idx, 0, CN_INDEX_RAISE, nullptr));
  REQUIRE(shape_of(r) == shp{3, 4});
  want.clear();
  for (int i : {2, 2, 0})
    for (int j = 0; j < 4; j++)
      want.push_back(i * 4 + j);
  REQUIRE(dvec(r) == want);

  Arr flat_idx = i64({11, 0, 5, 5}, {2, 2});
  CN_REQUIRE_OK(cn_take(r.out(), a, flat_idx, CN_AXIS_NONE, 0, nullptr));
  REQUIRE(shape_of(r) == shp{2, 2});
  REQUIRE(dvec(r) == std::vector<double>{11, 0, 5, 5});

  // 0-d index removes the axis.
  CN_REQUIRE_OK(cn_take(r.out(), a, scalar_i(1), 1, 0, nullptr));
  REQUIRE(shape_of(r) == shp{3});
  REQUIRE(dvec(r) == std::vector<double>{1, 5, 9});

  // modes
  Arr big = i64({5, -6, 9}, {3});
  CN_REQUIRE_OK(cn_take(r.out(), a, big, 1, CN_INDEX_WRAP, nullptr));
  REQUIRE(dvec(r)[0] == 1);
  REQUIRE(dvec(r)[1] == 2);
  REQUIRE(dvec(r)[2] == 1);
  CN_REQUIRE_OK(cn_take(r.out(), a, big, 1, CN_INDEX_CLIP, nullptr));
  REQUIRE(dvec(r)[0] == 3);
  REQUIRE(dvec(r)[1] == 0);
  REQUIRE(dvec(r)[2] == 3);

  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    Arr x = arange(6, {6}, dt);
    Arr ix = i64({5, 0, 3}, {3});
    CN_REQUIRE_OK(cn_take(r.out(), x, ix, 0, 0, nullptr));
    cn_dtype rd;
    cn_array_dtype(&rd, r);
    REQUIRE(rd == dt);
    Arr back = cast(r, CN_COMPLEX128);
    auto v = to_vec<std::complex<double>>(back);
    if (dt == CN_BOOL) {
      REQUIRE(v[0].real() == 1);
      REQUIRE(v[1].real() == 0);
    } else {
      REQUIRE(v[0].real() == 5);
      REQUIRE(v[1].real() == 0);
      REQUIRE(v[2].real() == 3);
    }
  }
}

TEST_CASE("take on non-contiguous views and into dst", "[index]") {
  Arr a = arange(12, {3, 4});
  Arr t = transpose(a); // (4,3): t[i][j] = a[j][i] = j*4+i
  Arr f = flip_all(t);  // f[i][j] = t[3-i][2-j]
  Arr idx = i64({0, 2}, {2});
  Arr r;
  CN_REQUIRE_OK(cn_take(r.out(), f, idx, 1, 0, nullptr));
  std::vector<double> want;
  for (int i = 0; i < 4; i++)
    for (int j : {0, 2})
      want.push_back((2 - j) * 4 + (3 - i));
  REQUIRE(dvec(r) == want);

  // dst receives the result (with a cast) and *out is dst
  Arr dst;
  int64_t s[2] = {4, 2};
  CN_REQUIRE_OK(cn_zeros(dst.out(), 2, s, CN_INT32, CN_ORDER_C));
  Arr r2;
  CN_REQUIRE_OK(cn_take(r2.out(), f, idx, 1, 0, dst));
  REQUIRE(r2.h == dst.h);
  REQUIRE(to_vec<int32_t>(dst) ==
          std::vector<int32_t>(want.begin(), want.end()));

  // empty indices and empty arrays
  Arr e = i64({}, {0});
  CN_REQUIRE_OK(cn_take(r.out(), a, e, 0, 0, nullptr));
  REQUIRE(shape_of(r) == shp{0, 4});
  Arr ea = arange(0, {0, 3});
  CN_REQUIRE_OK(cn_take(r.out(), ea, e, 0, 0, nullptr));
  REQUIRE(shape_of(r) == shp{0, 3});
  CN_REQUIRE_ERR(cn_take(r.out(), ea, idx, 0, 0, nullptr), CN_ERR_INDEX,
                 "axis 0 with size 0");
}

TEST_CASE("take errors", "[index]") {
  Arr a = arange(12, {3, 4});
  Arr before = copy(a);
  Arr bad = i64({0, 4}, {2});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_take(&out, a, bad, 1, 0, nullptr), CN_ERR_INDEX,
                 "cn_take: index 4 is out of bounds for axis 1 with size 4");
  REQUIRE(out == nullptr);
  Arr neg = i64({-5}, {1});
  CN_REQUIRE_ERR(cn_take(&out, a, neg, 1, 0, nullptr), CN_ERR_INDEX,
                 "index -5 is out of bounds");
  CN_REQUIRE_ERR(cn_take(&out, a, bad, 2, 0, nullptr), CN_ERR_AXIS,
                 "axis 2 is out of bounds");
  Arr fidx = f64({0}, {1});
  CN_REQUIRE_ERR(cn_take(&out, a, fidx, 0, 0, nullptr), CN_ERR_TYPE,
                 "integer dtype");
  CN_REQUIRE_ERR(cn_take(&out, a, bad, 0, 7, nullptr), CN_ERR_VALUE, "mode");
  CN_REQUIRE_ERR(cn_take(&out, nullptr, bad, 0, 0, nullptr), CN_ERR_VALUE,
                 "'a' is NULL");
  Arr wrong;
  int64_t s[1] = {5};
  CN_REQUIRE_OK(cn_zeros(wrong.out(), 1, s, CN_FLOAT64, CN_ORDER_C));
  Arr ok = i64({0, 1}, {2});
  CN_REQUIRE_ERR(cn_take(&out, a, ok, 0, 0, wrong), CN_ERR_SHAPE, "'dst'");
  REQUIRE(out == nullptr);
  REQUIRE(dvec(a) == dvec(before));
}

TEST_CASE("take_along_axis / put_along_axis", "[index]") {
  Arr a = f64({3, 1, 2, 9, 7, 8}, {2, 3});
  Arr idx = i64({1, 2, 0, 1, -1, 0}, {2, 3});
  Arr r;
  CN_REQUIRE_OK(cn_take_along_axis(r.out(), a, idx, 1));
  REQUIRE(dvec(r) == std::vector<double>{1, 2, 3, 7, 8, 9});
  // broadcasting index (1, 3) along axis 0
  Arr i0 = i64({1, 0, 1}, {1, 3});
  CN_REQUIRE_OK(cn_take_along_axis(r.out(), a, i0, 0));
  REQUIRE(shape_of(r) == shp{1, 3});
  REQUIRE(dvec(r) == std::vector<double>{9, 1, 8});
  // axis None
  Arr fl = i64({5, 0}, {2});
  CN_REQUIRE_OK(cn_take_along_axis(r.out(), a, fl, CN_AXIS_NONE));
  REQUIRE(dvec(r) == std::vector<double>{8, 3});
  cn_array out = nullptr;
  Arr i1 = i64({0}, {1});
  CN_REQUIRE_ERR(cn_take_along_axis(&out, a, i1, 1), CN_ERR_SHAPE,
                 "same number of dimensions");
  Arr i3 = i64({3, 0, 0}, {1, 3});
  CN_REQUIRE_ERR(cn_take_along_axis(&out, a, i3, 1), CN_ERR_INDEX,
                 "index 3 is out of bounds for axis 1 with size 3");

  // put_along_axis with duplicates: last write wins
  Arr b = copy(a);
  Arr pi = i64({0, 0, 2}, {1, 3});
  Arr pv = f64({10, 20, 30}, {1, 3});
  CN_REQUIRE_OK(cn_put_along_axis(b, pi, pv, 1));
  // row 0 and 1 each: [20, x, 30]
  REQUIRE(dvec(b) == std::vector<double>{20, 1, 30, 20, 7, 30});
  Arr ro = readonly(a);
  CN_REQUIRE_ERR(cn_put_along_axis(ro, pi, pv, 1), CN_ERR_VALUE, "read-only");
  Arr badv = f64({1, 2}, {2});
  Arr before = copy(b);
  CN_REQUIRE_ERR(cn_put_along_axis(b, pi, badv, 1), CN_ERR_SHAPE, "broadcast");
  REQUIRE(dvec(b) == dvec(before));
  // non-contiguous target
  Arr c = copy(a);
  Arr ct = transpose(c); // (3,2)
  Arr ti = i64({1, 0}, {1, 2});
  Arr tv = f64({-1, -2}, {1, 2});
  CN_REQUIRE_OK(cn_put_along_axis(ct, ti, tv, 0));
  // ct[1][0] = -1 -> c[0][1]; ct[0][1] = -2 -> c[1][0]
  REQUIRE(dvec(c) == std::vector<double>{3, -1, 2, -2, 7, 8});
}

TEST_CASE("put: flat, cyclic values, last write wins, modes", "[index]") {
  Arr a = arange(6, {2, 3});
  Arr idx = i64({1, 1, 1, -1}, {4});
  Arr v = f64({7, 8, 9}, {3});
  CN_REQUIRE_OK(cn_put(a, idx, v, CN_INDEX_RAISE));
  // values cycle: 7, 8, 9, 7 -> a[1] = 9, a[5] = 7
  REQUIRE(dvec(a) == std::vector<double>{0, 9, 2, 3, 4, 7});
  // non-contiguous target: transposed view, flat index in its C order
  Arr b = arange(6, {2, 3});
  Arr bt = transpose(b); // (3,2): bt flat [0,3,1,4,2,5]
  Arr one = i64({1}, {1});
  Arr val = f64({-1}, {1});
  CN_REQUIRE_OK(cn_put(bt, one, val, CN_INDEX_RAISE));
  REQUIRE(dvec(b) == std::vector<double>{0, 1, 2, -1, 4, 5});
  Arr big = i64({100}, {1});
  Arr before = copy(b);
  CN_REQUIRE_ERR(cn_put(b, big, val, CN_INDEX_RAISE), CN_ERR_INDEX,
                 "index 100 is out of bounds for axis 0 with size 6");
  REQUIRE(dvec(b) == dvec(before));
  CN_REQUIRE_OK(cn_put(b, big, val, CN_INDEX_CLIP));
  REQUIRE(dvec(b)[5] == -1);
  Arr ev = f64({}, {0});
  CN_REQUIRE_ERR(cn_put(b, one, ev, 0), CN_ERR_VALUE, "empty");
  Arr ro = readonly(b);
  CN_REQUIRE_ERR(cn_put(ro, one, val, 0), CN_ERR_VALUE, "read-only");
}

TEST_CASE("integer-array indexing of several axes", "[index]") {
  Arr a = arange(60, {3, 4, 5});
  Arr i = i64({0, 3, -1}, {3, 1});
  Arr j = i64({1, 4}, {2});
  cn_array ij[2] = {i, j};
  Arr r;
  CN_REQUIRE_OK(cn_index_arrays(r.out(), a, 2, ij, 1));
  REQUIRE(shape_of(r) == shp{3, 3, 2});
  std::vector<double> want;
  int is[3] = {0, 3, 3}, js[2] = {1, 4};
  for (int x = 0; x < 3; x++)
    for (int p = 0; p < 3; p++)
      for (int q = 0; q < 2; q++)
        want.push_back(x * 20 + is[p] * 5 + js[q]);
  REQUIRE(dvec(r) == want);

  // first axes, on a non-contiguous (transposed) array that cannot merge
  Arr t = transpose(a); // (5,4,3), t[p][q][r] = a[r][q][p]
  Arr k0 = i64({4, 0}, {2});
  Arr k1 = i64({1, 2}, {2});
  cn_array kk[2] = {k0, k1};
  CN_REQUIRE_OK(cn_index_arrays(r.out(), t, 2, kk, 0));
  REQUIRE(shape_of(r) == shp{2, 3});
  want.clear();
  for (int p = 0; p < 2; p++)
    for (int x = 0; x < 3; x++)
      want.push_back(x * 20 + (p ? 2 : 1) * 5 + (p ? 0 : 4));
  REQUIRE(dvec(r) == want);

  // bool index array consumes its ndim axes
  Arr m = boolean({1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0}, {3, 4});
  cn_array mm[1] = {m};
  CN_REQUIRE_OK(cn_index_arrays(r.out(), a, 1, mm, 0));
  REQUIRE(shape_of(r) == shp{3, 5});
  want.clear();
  for (int flat : {0, 3, 8})
    for (int z = 0; z < 5; z++)
      want.push_back(flat * 5 + z);
  REQUIRE(dvec(r) == want);

  // errors
  cn_array out = nullptr;
  Arr bad = i64({0, 4}, {2});
  cn_array bb[1] = {bad};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 1, bb, 0), CN_ERR_INDEX,
                 "index 4 is out of bounds for axis 0 with size 3");
  Arr x1 = i64({0, 1}, {2}), x2 = i64({0, 1, 2}, {3});
  cn_array nb[2] = {x1, x2};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 2, nb, 0), CN_ERR_SHAPE,
                 "could not be broadcast");
  cn_array four[4] = {x1, x1, x1, x1};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 4, four, 0), CN_ERR_INDEX,
                 "too many indices");
  Arr wm = boolean({1, 0}, {2});
  cn_array wmm[1] = {wm};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 1, wmm, 0), CN_ERR_INDEX,
                 "boolean index did not match");
  Arr fi = f64({0}, {1});
  cn_array ff[1] = {fi};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 1, ff, 0), CN_ERR_INDEX,
                 "integer or bool");
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 1, bb, 5), CN_ERR_AXIS,
                 "axis 5 is out of bounds");
  REQUIRE(out == nullptr);
}

TEST_CASE("integer-array assignment, duplicates, non-contiguous", "[index]") {
  Arr a = arange(12, {3, 4});
  Arr i = i64({1, 1, 2}, {3});
  Arr j = i64({0, 0, -1}, {3});
  cn_array ij[2] = {i, j};
  Arr v = f64({10, 20, 30}, {3});
  CN_REQUIRE_OK(cn_index_arrays_set(a, 2, ij, 0, v));
  auto got = dvec(a);
  REQUIRE(got[4] == 20); // last write wins
  REQUIRE(got[11] == 30);
  REQUIRE(got[0] == 0);
  // broadcast a scalar value to rows selected on axis 0, transposed target
  Arr b = arange(12, {3, 4});
  Arr bt = transpose(b); // (4,3)
  Arr r0 = i64({0, 3}, {2});
  cn_array rr[1] = {r0};
  CN_REQUIRE_OK(cn_index_arrays_set(bt, 1, rr, 0, scalar_f(-1)));
  auto gb = dvec(b);
  for (int x = 0; x < 3; x++) {
    REQUIRE(gb[x * 4 + 0] == -1);
    REQUIRE(gb[x * 4 + 3] == -1);
    REQUIRE(gb[x * 4 + 1] == x * 4 + 1);
  }
  Arr before = copy(b);
  Arr bad = i64({9}, {1});
  cn_array bb[1] = {bad};
  CN_REQUIRE_ERR(cn_index_arrays_set(b, 1, bb, 0, scalar_f(1)), CN_ERR_INDEX,
                 "index 9");
  Arr wrongv = f64({1, 2}, {2});
  CN_REQUIRE_ERR(cn_index_arrays_set(bt, 1, rr, 0, wrongv), CN_ERR_SHAPE, "");
  REQUIRE(dvec(b) == dvec(before));
  Arr ro = readonly(b);
  CN_REQUIRE_ERR(cn_index_arrays_set(ro, 1, rr, 0, scalar_f(1)), CN_ERR_VALUE,
                 "read-only");
}

TEST_CASE("boolean masks: get and set", "[index]") {
  Arr a = f64({1, NAN, 3, 4, 5, 6}, {2, 3});
  Arr m = boolean({1, 0, 1, 0, 1, 1}, {2, 3});
  Arr r;
  CN_REQUIRE_OK(cn_mask_get(r.out(), a, m));
  REQUIRE(shape_of(r) == shp{4});
  REQUIRE(dvec(r) == std::vector<double>{1, 3, 5, 6});
  // leading-axis mask
  Arr m0 = boolean({0, 1}, {2});
  CN_REQUIRE_OK(cn_mask_get(r.out(), a, m0));
  REQUIRE(shape_of(r) == shp{1, 3});
  REQUIRE(dvec(r) == std::vector<double>{4, 5, 6});
  // 0-d masks
  Arr t, f;
  CN_REQUIRE_OK(cn_from_scalar(t.out(), cn_scalar_bool(1), CN_BOOL));
  CN_REQUIRE_OK(cn_from_scalar(f.out(), cn_scalar_bool(0), CN_BOOL));
  CN_REQUIRE_OK(cn_mask_get(r.out(), a, t));
  REQUIRE(shape_of(r) == shp{1, 2, 3});
  CN_REQUIRE_OK(cn_mask_get(r.out(), a, f));
  REQUIRE(shape_of(r) == shp{0, 2, 3});
  // non-contiguous source
  Arr at = transpose(a); // (3,2): [1,4],[nan,5],[3,6]
  Arr mt = boolean({0, 1, 1, 0, 1, 1}, {3, 2});
  CN_REQUIRE_OK(cn_mask_get(r.out(), at, mt));
  auto gr = dvec(r);
  REQUIRE(gr[0] == 4);
  REQUIRE(std::isnan(gr[1]));
  REQUIRE(gr[2] == 3);
  REQUIRE(gr[3] == 6);

  // set: scalar and per-element values
  Arr b = copy(a);
  CN_REQUIRE_OK(cn_mask_set(b, m, scalar_f(0)));
  auto gb = dvec(b);
  REQUIRE(gb[0] == 0);
  REQUIRE(std::isnan(gb[1]));
  REQUIRE(gb[4] == 0);
  Arr vals = f64({-1, -2, -3, -4}, {4});
  CN_REQUIRE_OK(cn_mask_set(b, m, vals));
  gb = dvec(b);
  REQUIRE(gb[0] == -1);
  REQUIRE(gb[2] == -2);
  REQUIRE(gb[5] == -4);
  // set through a transposed view
  Arr c = copy(a);
  Arr ct = transpose(c);
  CN_REQUIRE_OK(cn_mask_set(ct, mt, scalar_f(100)));
  auto gc = dvec(c);
  REQUIRE(gc[3] == 100);
  REQUIRE(gc[1] == 100);
  REQUIRE(gc[2] == 100);
  REQUIRE(gc[5] == 100);
  REQUIRE(gc[0] == 1);
  REQUIRE(gc[4] == 5);

  // errors
  cn_array out = nullptr;
  Arr im = i64({1, 0}, {2});
  CN_REQUIRE_ERR(cn_mask_get(&out, a, im), CN_ERR_TYPE, "must be bool");
  Arr wm = boolean({1, 0, 1}, {3});
  CN_REQUIRE_ERR(
      cn_mask_get(&out, a, wm), CN_ERR_INDEX,
      "size of axis is 2 but size of corresponding boolean axis is 3");
  Arr before = copy(b);
  Arr wv = f64({1, 2}, {2});
  CN_REQUIRE_ERR(cn_mask_set(b, m, wv), CN_ERR_SHAPE, "broadcast");
  REQUIRE(same(dvec(b), dvec(before)));
  Arr ro = readonly(b);
  CN_REQUIRE_ERR(cn_mask_set(ro, m, scalar_f(1)), CN_ERR_VALUE, "read-only");
  REQUIRE(out == nullptr);
}

TEST_CASE("nonzero, argwhere, flatnonzero, count_nonzero", "[index]") {
  Arr a = f64({0, -0.0, NAN, 1, 0, 2}, {2, 3});
  cn_array nz[2] = {nullptr, nullptr};
  CN_REQUIRE_OK(cn_nonzero(nz, 2, a));
  Arr r0(nz[0]), r1(nz[1]);
  REQUIRE(ivec(r0) == std::vector<int64_t>{0, 1, 1});
  REQUIRE(ivec(r1) == std::vector<int64_t>{2, 0, 2});
  Arr w;
  CN_REQUIRE_OK(cn_argwhere(w.out(), a));
  REQUIRE(shape_of(w) == shp{3, 2});
  REQUIRE(ivec(w) == std::vector<int64_t>{0, 2, 1, 0, 1, 2});
  Arr fz;
  CN_REQUIRE_OK(cn_flatnonzero(fz.out(), a));
  REQUIRE(ivec(fz) == std::vector<int64_t>{2, 3, 5});
  // non-contiguous: transposed order
  Arr at = transpose(a);
  CN_REQUIRE_OK(cn_flatnonzero(fz.out(), at));
  REQUIRE(ivec(fz) == std::vector<int64_t>{1, 4, 5});
  Arr c;
  CN_REQUIRE_OK(cn_count_nonzero(c.out(), a, CN_ALL_AXES, nullptr, 0));
  REQUIRE(ivec(c) == std::vector<int64_t>{3});
  int32_t ax = 0;
  CN_REQUIRE_OK(cn_count_nonzero(c.out(), a, 1, &ax, 0));
  REQUIRE(ivec(c) == std::vector<int64_t>{1, 0, 2});
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    Arr x = cast(i64({0, 3, 0, 1, 1, 0, 0}, {7}), dt);
    CN_REQUIRE_OK(cn_flatnonzero(fz.out(), x));
    REQUIRE(ivec(fz) == std::vector<int64_t>{1, 3, 4});
  }
  // complex: either part non-zero
  Arr cx;
  std::vector<std::complex<double>> cv = {{0, 0}, {0, 1}, {1, 0}, {-0.0, 0}};
  cx = from_vec(cv, {4}, CN_COMPLEX128);
  CN_REQUIRE_OK(cn_flatnonzero(fz.out(), cx));
  REQUIRE(ivec(fz) == std::vector<int64_t>{1, 2});
  // large input takes the chunked parallel path
  std::vector<uint8_t> big(200000, 0);
  for (size_t i = 0; i < big.size(); i += 7)
    big[i] = 1;
  Arr bb = boolean(big, {(int64_t)big.size()});
  CN_REQUIRE_OK(cn_flatnonzero(fz.out(), bb));
  auto got = ivec(fz);
  REQUIRE(got.size() == (big.size() + 6) / 7);
  for (size_t k = 0; k < got.size(); k++)
    REQUIRE(got[k] == (int64_t)(7 * k));
  // 0-d
  cn_array z[1];
  CN_REQUIRE_ERR(cn_nonzero(z, 1, scalar_f(1)), CN_ERR_VALUE, "0d");
  CN_REQUIRE_ERR(cn_nonzero(z, 1, a), CN_ERR_VALUE, "capacity");
  CN_REQUIRE_OK(cn_flatnonzero(fz.out(), scalar_f(5)));
  REQUIRE(ivec(fz) == std::vector<int64_t>{0});
}

TEST_CASE("compress, extract, choose", "[index]") {
  Arr a = arange(6, {2, 3});
  Arr cnd = boolean({0, 1}, {2});
  Arr r;
  CN_REQUIRE_OK(cn_compress(r.out(), cnd, a, 1));
  REQUIRE(shape_of(r) == shp{2, 1});
  REQUIRE(dvec(r) == std::vector<double>{1, 4});
  CN_REQUIRE_OK(cn_compress(r.out(), cnd, a, CN_AXIS_NONE));
  REQUIRE(dvec(r) == std::vector<double>{1});
  Arr cnd3 = f64({1, 0, 2.5, 0}, {4}); // non-bool condition, longer but false
  CN_REQUIRE_OK(cn_compress(r.out(), cnd3, a, 1));
  REQUIRE(dvec(r) == std::vector<double>{0, 2, 3, 5});
  cn_array out = nullptr;
  Arr cnd4 = boolean({0, 0, 0, 1}, {4});
  CN_REQUIRE_ERR(cn_compress(&out, cnd4, a, 1), CN_ERR_INDEX,
                 "index 3 is out of bounds for axis 1 with size 3");
  Arr c2 = boolean({0, 1, 0, 1}, {2, 2});
  CN_REQUIRE_ERR(cn_compress(&out, c2, a, 1), CN_ERR_SHAPE, "1-d");

  Arr ex = boolean({1, 0, 0, 0, 0, 1}, {2, 3});
  CN_REQUIRE_OK(cn_extract(r.out(), ex, a));
  REQUIRE(dvec(r) == std::vector<double>{0, 5});

  Arr c0 = f64({0, 1, 2, 3}, {4});
  Arr c1 = f64({10, 11, 12, 13}, {4});
  Arr c3 = scalar_f(-1);
  cn_array ch[3] = {c0, c1, c3};
  Arr which = i64({2, 0, 1, 1}, {4});
  CN_REQUIRE_OK(cn_choose(r.out(), which, 3, ch, CN_INDEX_RAISE, nullptr));
  REQUIRE(dvec(r) == std::vector<double>{-1, 1, 12, 13});
  Arr w2 = i64({5, -1, 3, 0}, {4});
  CN_REQUIRE_ERR(cn_choose(&out, w2, 3, ch, CN_INDEX_RAISE, nullptr),
                 CN_ERR_INDEX, "out of bounds");
  CN_REQUIRE_OK(cn_choose(r.out(), w2, 3, ch, CN_INDEX_WRAP, nullptr));
  auto g = dvec(r);
  REQUIRE(g == std::vector<double>{-1, -1, 2, 3});
  CN_REQUIRE_OK(cn_choose(r.out(), w2, 3, ch, CN_INDEX_CLIP, nullptr));
  g = dvec(r);
  REQUIRE(g == std::vector<double>{-1, 1, -1, 3});
  CN_REQUIRE_ERR(cn_choose(&out, which, 0, ch, 0, nullptr), CN_ERR_VALUE,
                 "at least one");
  REQUIRE(out == nullptr);
}

TEST_CASE("boolean mask get over large contiguous arrays, every item size",
          "[index]") {
  // The fused, threaded compaction: compare with a naive loop for each
  // element size, with runs of unset values at chunk ends.
  const int64_t n = 200003;
  std::vector<uint8_t> mv((size_t)n);
  for (int64_t i = 0; i < n; i++)
    mv[(size_t)i] = (uint8_t)(((i * 7919) % 13) < 6 && i < n - 1000);
  Arr m;
  CN_REQUIRE_OK(
      cn_from_host(m.out(), mv.data(), 0, n, 1, &n, nullptr, CN_BOOL));
  for (cn_dtype dt :
       {CN_UINT8, CN_INT16, CN_FLOAT32, CN_FLOAT64, CN_COMPLEX128}) {
    INFO("dtype " << cn_dtype_name(dt));
    int64_t es = cn_dtype_itemsize(dt);
    std::vector<unsigned char> src((size_t)(n * es));
    for (size_t i = 0; i < src.size(); i++)
      src[i] = (unsigned char)(i * 2654435761u >> 13);
    Arr a, r;
    CN_REQUIRE_OK(
        cn_from_host(a.out(), src.data(), 0, n * es, 1, &n, nullptr, dt));
    CN_REQUIRE_OK(cn_mask_get(r.out(), a, m));
    std::vector<unsigned char> want;
    for (int64_t i = 0; i < n; i++)
      if (mv[(size_t)i])
        want.insert(want.end(), src.begin() + i * es,
                    src.begin() + (i + 1) * es);
    REQUIRE(shape_of(r) == shp{(int64_t)(want.size() / (size_t)es)});
    std::vector<unsigned char> got(want.size());
    if (!got.empty())
      CN_REQUIRE_OK(
          cn_copy_to_buffer(got.data(), (int64_t)got.size(), r, CN_ORDER_C));
    REQUIRE(got == want);
  }
}

TEST_CASE("out-of-range indices: the first in index order is named, nothing "
          "is written", "[index]") {
  Arr a = arange(5, {5});
  // 9 comes first in C order of the (2, 2) index array, -12 and 11 later.
  Arr idx = i64({0, 9, -12, 11}, {2, 2});
  Arr r;
  CN_REQUIRE_ERR(cn_take(r.out(), a, idx, 0, CN_INDEX_RAISE, nullptr),
                 CN_ERR_INDEX,
                 "cn_take: index 9 is out of bounds for axis 0 with size 5");
  Arr before = copy(a);
  Arr v = f64({1, 2, 3, 4}, {4});
  CN_REQUIRE_ERR(cn_put(a, idx, v, CN_INDEX_RAISE), CN_ERR_INDEX,
                 "cn_put: index 9 is out of bounds for axis 0 with size 5");
  REQUIRE(dvec(a) == dvec(before));
  // every entry of the copy before the offender was folded, none after:
  // the message still names the offender's own value, negative or not
  Arr neg = i64({-1, -6, 7}, {3});
  CN_REQUIRE_ERR(cn_take(r.out(), a, neg, 0, CN_INDEX_RAISE, nullptr),
                 CN_ERR_INDEX, "index -6 is out of bounds for axis 0");
  // an empty axis: WRAP and CLIP have nothing to fold into
  Arr e = f64({}, {0});
  Arr one = i64({0}, {1});
  CN_REQUIRE_ERR(cn_take(r.out(), e, one, 0, CN_INDEX_WRAP, nullptr),
                 CN_ERR_INDEX, "cannot do a non-empty take from an empty axis");
  Arr none = i64({}, {0});
  CN_REQUIRE_OK(cn_take(r.out(), e, none, 0, CN_INDEX_CLIP, nullptr));
  int64_t n = -1;
  CN_REQUIRE_OK(cn_array_size(&n, r));
  CHECK(n == 0);
  // take_along_axis and choose report through the same rule
  Arr m = arange(6, {2, 3});
  Arr ia = i64({0, 2, 3, 5, -4, 1}, {2, 3});
  CN_REQUIRE_ERR(cn_take_along_axis(r.out(), m, ia, 1), CN_ERR_INDEX,
                 "index 3 is out of bounds for axis 1 with size 3");
  Arr c0 = f64({1, 2}, {2}), c1 = f64({3, 4}, {2});
  cn_array ch[2] = {c0, c1};
  Arr ci = i64({1, 2}, {2});
  CN_REQUIRE_ERR(cn_choose(r.out(), ci, 2, ch, CN_INDEX_RAISE, nullptr),
                 CN_ERR_INDEX, "index 2 is out of bounds for axis 0 with size 2");
}

TEST_CASE("nonzero and flatnonzero of large masks in every dtype: blocks, "
          "chunks, strided and n-d against a naive scan",
          "[index]") {
  std::mt19937_64 rng(11);
  for (cn_dtype dt : all_dtypes()) {
    INFO(cn_dtype_name(dt));
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{511}, int64_t{513},
                      int64_t{70001}, int64_t{300000}}) {
      std::vector<double> v(n);
      int density = (int)(rng() % 3); // sparse, half, dense
      for (auto &x : v) {
        uint64_t r = rng() % 100;
        x = (density == 0 ? r < 2 : density == 1 ? r < 50 : r < 98) ? 1 : 0;
      }
      if (dt == CN_FLOAT64 || dt == CN_FLOAT32)
        for (int64_t k = 0; k < n; k += 97)
          v[k] = k % 2 ? NAN : -0.0; // NaN is nonzero, -0.0 is not
      Arr a = cast(f64(v, {n}), dt);
      std::vector<int64_t> want;
      for (int64_t k = 0; k < n; k++)
        if (v[k] != 0 || std::isnan(v[k]))
          want.push_back(k);
      Arr fz;
      CN_REQUIRE_OK(cn_flatnonzero(fz.out(), a));
      REQUIRE(ivec(fz) == want);
      cn_array nz[CN_MAX_DIMS] = {};
      CN_REQUIRE_OK(cn_nonzero(nz, CN_MAX_DIMS, a));
      REQUIRE(ivec(nz[0]) == want);
      cn_array_release(nz[0]);
      // strided view: every other element
      Arr s;
      CN_REQUIRE_OK(cn_slice_axis(s.out(), a, 0, 0, CN_SLICE_NONE, 2));
      std::vector<int64_t> ws;
      for (int64_t k = 0; k < n; k += 2)
        if (v[k] != 0 || std::isnan(v[k]))
          ws.push_back(k / 2);
      CN_REQUIRE_OK(cn_flatnonzero(fz.out(), s));
      REQUIRE(ivec(fz) == ws);
      // 3-d: coordinates unravel the flat positions
      if (n == 300000) {
        int64_t sh[3] = {40, 50, 150};
        Arr a3;
        CN_REQUIRE_OK(cn_reshape(a3.out(), a, 3, sh, CN_ORDER_C));
        CN_REQUIRE_OK(cn_nonzero(nz, CN_MAX_DIMS, a3));
        auto c0 = ivec(nz[0]), c1 = ivec(nz[1]), c2 = ivec(nz[2]);
        for (int d = 0; d < 3; d++)
          cn_array_release(nz[d]);
        REQUIRE(c0.size() == want.size());
        for (size_t j = 0; j < want.size(); j++) {
          REQUIRE(c0[j] == want[j] / (50 * 150));
          REQUIRE(c1[j] == want[j] / 150 % 50);
          REQUIRE(c2[j] == want[j] % 150);
        }
        Arr aw;
        CN_REQUIRE_OK(cn_argwhere(aw.out(), a3));
        REQUIRE(shape_of(aw) == shp{(int64_t)want.size(), 3});
        auto w = ivec(aw);
        for (size_t j = 0; j < want.size(); j += 101)
          REQUIRE(w[3 * j + 1] == want[j] / 150 % 50);
      }
    }
  }
}

TEST_CASE("index arrays combine into linear indices: broadcasting, bool "
          "columns, negative indices, errors",
          "[index]") {
  Arr a = arange(60, {3, 4, 5});
  Arr i = i64({2, -1, 0, 1}, {4, 1}), j = i64({-4, 3, 0}, {3});
  cn_array ij[2] = {i, j};
  Arr r;
  CN_REQUIRE_OK(cn_index_arrays(r.out(), a, 2, ij, 0));
  REQUIRE(shape_of(r) == shp{4, 3, 5});
  auto rv = dvec(r);
  int64_t iv[4] = {2, 2, 0, 1}, jv[3] = {0, 3, 0};
  for (int p = 0; p < 4; p++)
    for (int q = 0; q < 3; q++)
      for (int k = 0; k < 5; k++)
        REQUIRE(rv[(p * 3 + q) * 5 + k] == (double)(iv[p] * 20 + jv[q] * 5 + k));
  // a 2-d mask over the first two axes and an integer column after it
  std::vector<uint8_t> mv = {1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1};
  Arr m = boolean(mv, {3, 4}), k = i64({4}, {1});
  cn_array mk[2] = {m, k};
  CN_REQUIRE_OK(cn_index_arrays(r.out(), a, 2, mk, 0));
  std::vector<double> want;
  for (int q = 0; q < 12; q++)
    if (mv[q])
      want.push_back((double)(q * 5 + 4));
  REQUIRE(dvec(r) == want);
  // a 0-d integer index broadcasts against a 1-d one
  Arr z = scalar_i(-1), col = i64({1, 2}, {2});
  cn_array zc[2] = {z, col};
  CN_REQUIRE_OK(cn_index_arrays(r.out(), a, 2, zc, 1));
  REQUIRE(shape_of(r) == shp{3, 2});
  REQUIRE(dvec(r) == std::vector<double>{16, 17, 36, 37, 56, 57});
  cn_array out = nullptr;
  Arr bad = i64({4}, {1});
  cn_array ib[2] = {bad, j};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 2, ib, 0), CN_ERR_INDEX, "4");
  Arr s1 = i64({0, 1}, {2}), s2 = i64({0, 1, 2}, {3});
  cn_array sh[2] = {s1, s2};
  CN_REQUIRE_ERR(cn_index_arrays(&out, a, 2, sh, 0), CN_ERR_SHAPE, "");
  REQUIRE(out == nullptr);
}
