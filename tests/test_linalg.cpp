// Tests of cunumpy/linalg.h against independent oracles: long double
// triple loops for products, reconstruction identities for decompositions.
#include "la_testutil.hpp"

#include <algorithm>

static const cn_dtype kFloatTypes[] = {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64,
                                       CN_COMPLEX128};

// C = A @ B for row-major value vectors.
static std::vector<cld> naive_mm(const std::vector<cld> &A,
                                 const std::vector<cld> &B, int64_t m,
                                 int64_t k, int64_t n) {
  std::vector<cld> C((size_t)(m * n));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      cld s = 0;
      for (int64_t p = 0; p < k; p++)
        s += A[i * k + p] * B[p * n + j];
      C[i * n + j] = s;
    }
  return C;
}

static std::vector<cld> conjT(const std::vector<cld> &A, int64_t m, int64_t n) {
  std::vector<cld> r((size_t)(m * n));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++)
      r[j * m + i] = std::conj(A[i * n + j]);
  return r;
}

static std::vector<cld> eye(int64_t n) {
  std::vector<cld> r((size_t)(n * n));
  for (int64_t i = 0; i < n; i++)
    r[i * n + i] = 1;
  return r;
}

static std::vector<cld> slice_mat(const std::vector<cld> &v, int64_t b,
                                  int64_t sz) {
  return std::vector<cld>(v.begin() + b * sz, v.begin() + (b + 1) * sz);
}

// Inputs must not change: snapshot + compare.
struct Snap {
  cn_array a;
  std::vector<cld> v;
  explicit Snap(cn_array x) : a(x), v(vals(x)) {}
  void check() { require_close(vals(a), v, 0); }
};

TEST_CASE("matmul matches a long double triple loop", "[linalg][matmul]") {
  const cn_dtype types[] = {CN_FLOAT32, CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128,
                            CN_INT32,   CN_INT64,   CN_UINT8,     CN_INT8};
  for (cn_dtype dt : types) {
    INFO("dtype " << cn_dtype_name(dt));
    for (auto mkn : std::vector<std::vector<int64_t>>{
             {3, 4, 5}, {1, 7, 1}, {17, 33, 9}, {1, 1, 1}, {2, 0, 3}}) {
      int64_t m = mkn[0], k = mkn[1], n = mkn[2];
      Arr a = rand_arr({m, k}, dt, 1), b = rand_arr({k, n}, dt, 2), c;
      CN_REQUIRE_OK(cn_matmul(c.out(), a, b, nullptr));
      REQUIRE(shape_of(c) == std::vector<int64_t>{m, n});
      REQUIRE(dtype_of(c) == dt);
      auto want = naive_mm(vals(a), vals(b), m, k, n);
      if (dt == CN_UINT8 || dt == CN_INT8) {
        // wrap-around, as NumPy
        auto got = vals(c);
        for (size_t i = 0; i < want.size(); i++) {
          long long w = (long long)want[i].real();
          long long g = (long long)got[i].real();
          REQUIRE(((w - g) % 256 + 256) % 256 == 0);
        }
      } else {
        require_close(vals(c), want, is_single(dt) ? 1e-5 : 1e-13);
      }
    }
  }
}

TEST_CASE("matmul with bool operands is logical", "[linalg][matmul]") {
  Arr a = from_vec<uint8_t>({1, 0, 0, 0}, {2, 2}, CN_BOOL);
  Arr b = from_vec<uint8_t>({0, 1, 1, 1}, {2, 2}, CN_BOOL), c;
  CN_REQUIRE_OK(cn_matmul(c.out(), a, b, nullptr));
  REQUIRE(dtype_of(c) == CN_BOOL);
  auto v = to_vec<uint8_t>(c);
  REQUIRE(v == std::vector<uint8_t>{0, 1, 0, 0});
}

TEST_CASE("matmul: strided, transposed, negative-stride and batched",
          "[linalg][matmul]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-5 : 1e-13;
    Arr big = rand_arr({8, 10}, dt, 3);
    // Transposed views go to BLAS as Trans.
    Arr at = view_T(big); // (10, 8)
    Arr b = rand_arr({8, 6}, dt, 4), c;
    CN_REQUIRE_OK(cn_matmul(c.out(), at, b, nullptr));
    Arr atc;
    CN_REQUIRE_OK(cn_copy(atc.out(), at, CN_ORDER_C));
    require_close(vals(c), naive_mm(vals(atc), vals(b), 10, 8, 6), tol);
    // Step-2 slices and negative strides need packing.
    Arr s, f, sc, fc, c2;
    int64_t st[2] = {0, 0}, sp[2] = {8, 10}, step[2] = {2, -3};
    st[1] = 9;
    sp[1] = CN_SLICE_NONE;
    CN_REQUIRE_OK(cn_slice(s.out(), big, 2, st, sp, step)); // (4, 4)
    Arr b2 = rand_arr({4, 3}, dt, 5);
    CN_REQUIRE_OK(cn_matmul(c2.out(), s, b2, nullptr));
    CN_REQUIRE_OK(cn_copy(sc.out(), s, CN_ORDER_C));
    require_close(vals(c2), naive_mm(vals(sc), vals(b2), 4, 4, 3), tol);
    // Output written through a transposed dst view (column-major C).
    Arr dbase, dst, res;
    int64_t ds[2] = {3, 4};
    CN_REQUIRE_OK(cn_zeros(dbase.out(), 2, ds, dt, CN_ORDER_C));
    dst = view_T(dbase); // (4, 3), F-ordered
    CN_REQUIRE_OK(cn_matmul(res.out(), s, b2, dst));
    REQUIRE(res.h == dst.h);
    require_close(vals(dst), naive_mm(vals(sc), vals(b2), 4, 4, 3), tol);
    // Batched with broadcasting: (2, 1, 3, 4) @ (5, 4, 2) -> (2, 5, 3, 2)
    Arr A = rand_arr({2, 1, 3, 4}, dt, 6), B = rand_arr({5, 4, 2}, dt, 7), C;
    CN_REQUIRE_OK(cn_matmul(C.out(), A, B, nullptr));
    REQUIRE(shape_of(C) == std::vector<int64_t>{2, 5, 3, 2});
    auto av = vals(A), bv = vals(B), cv = vals(C);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 5; j++)
        require_close(
            slice_mat(cv, i * 5 + j, 6),
            naive_mm(slice_mat(av, i, 12), slice_mat(bv, j, 8), 3, 4, 2), tol);
    // 1-d operands: (4,) @ (5, 4, 2) -> (5, 2); (3, 4) @ (4,) -> (3,)
    Arr v = rand_arr({4}, dt, 8), r1, r2;
    CN_REQUIRE_OK(cn_matmul(r1.out(), v, B, nullptr));
    REQUIRE(shape_of(r1) == std::vector<int64_t>{5, 2});
    for (int j = 0; j < 5; j++)
      require_close(slice_mat(vals(r1), j, 2),
                    naive_mm(vals(v), slice_mat(bv, j, 8), 1, 4, 2), tol);
    Arr m34 = rand_arr({3, 4}, dt, 9);
    CN_REQUIRE_OK(cn_matmul(r2.out(), m34, v, nullptr));
    REQUIRE(shape_of(r2) == std::vector<int64_t>{3});
    require_close(vals(r2), naive_mm(vals(m34), vals(v), 3, 4, 1), tol);
  }
}

TEST_CASE("matmul errors leave inputs untouched", "[linalg][matmul][errors]") {
  Arr a = rand_arr({3, 4}, CN_FLOAT64, 1), b = rand_arr({5, 2}, CN_FLOAT64, 2);
  Snap sa(a), sb(b);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_matmul(&out, a, b, nullptr), CN_ERR_SHAPE, "cn_matmul");
  REQUIRE(out == nullptr);
  Arr s;
  CN_REQUIRE_OK(cn_from_scalar(s.out(), cn_scalar_float(2), CN_FLOAT64));
  CN_REQUIRE_ERR(cn_matmul(&out, s, b, nullptr), CN_ERR_VALUE, "0-d");
  Arr x = rand_arr({2, 3, 4}, CN_FLOAT64, 3),
      y = rand_arr({3, 4, 2}, CN_FLOAT64, 4);
  CN_REQUIRE_ERR(cn_matmul(&out, x, y, nullptr), CN_ERR_SHAPE, "cn_matmul");
  Arr d = rand_arr({2, 2}, CN_FLOAT64, 5), g = rand_arr({4, 2}, CN_FLOAT64, 6);
  CN_REQUIRE_ERR(cn_matmul(&out, a, g, d), CN_ERR_SHAPE, "dst");
  CN_REQUIRE_ERR(cn_matmul(&out, nullptr, b, nullptr), CN_ERR_VALUE, "'a'");
  REQUIRE(out == nullptr);
  sa.check();
  sb.check();
}

TEST_CASE("dot, vdot, inner, outer, tensordot, kron", "[linalg][products]") {
  for (cn_dtype dt : {CN_FLOAT64, CN_COMPLEX64, CN_INT64}) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-5 : 1e-12;
    Arr a = rand_arr({2, 3, 4}, dt, 11), b = rand_arr({5, 4, 6}, dt, 12), r;
    // dot(N-d, M-d): sum over a's last axis and b's second-to-last.
    CN_REQUIRE_OK(cn_dot(r.out(), a, b, nullptr));
    REQUIRE(shape_of(r) == std::vector<int64_t>{2, 3, 5, 6});
    auto av = vals(a), bv = vals(b), rv = vals(r);
    std::vector<cld> want(rv.size());
    for (int i = 0; i < 6; i++)
      for (int k = 0; k < 5; k++)
        for (int m = 0; m < 6; m++) {
          cld s = 0;
          for (int p = 0; p < 4; p++)
            s += av[i * 4 + p] * bv[k * 24 + p * 6 + m];
          want[i * 30 + k * 6 + m] = s;
        }
    require_close(rv, want, tol);
    // vdot conjugates its first argument and flattens.
    Arr u = rand_arr({3, 4}, dt, 13), w = rand_arr({12}, dt, 14), vd;
    CN_REQUIRE_OK(cn_vdot(vd.out(), view_T(u), w));
    REQUIRE(shape_of(vd).empty());
    Arr utc;
    CN_REQUIRE_OK(cn_copy(utc.out(), view_T(u), CN_ORDER_C));
    cld s = 0;
    auto uv = vals(utc), wv = vals(w);
    for (int i = 0; i < 12; i++)
      s += std::conj(uv[i]) * wv[i];
    require_close(vals(vd), {s}, tol);
    // inner: sum over last axes.
    Arr in1 = rand_arr({2, 4}, dt, 15), in2 = rand_arr({3, 4}, dt, 16), ir;
    CN_REQUIRE_OK(cn_inner(ir.out(), in1, in2));
    REQUIRE(shape_of(ir) == std::vector<int64_t>{2, 3});
    {
      auto t = vals(in2);
      std::vector<cld> tt(12);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
          tt[j * 3 + i] = t[i * 4 + j];
      require_close(vals(ir), naive_mm(vals(in1), tt, 2, 4, 3), tol);
    }
    // outer of flattened operands.
    Arr o;
    CN_REQUIRE_OK(cn_outer(o.out(), in1, w));
    REQUIRE(shape_of(o) == std::vector<int64_t>{8, 12});
    auto i1 = vals(in1), ov = vals(o);
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 12; j++)
        REQUIRE((double)std::abs(ov[i * 12 + j] - i1[i] * wv[j]) <= tol * 4);
    // tensordot with explicit axes: a (2,3,4) with c (4,3,5) over (1,2)/(1,0)
    Arr c = rand_arr({4, 3, 5}, dt, 17), td;
    int32_t xa[2] = {1, 2}, xb[2] = {1, 0};
    CN_REQUIRE_OK(cn_tensordot(td.out(), a, c, 2, xa, xb));
    REQUIRE(shape_of(td) == std::vector<int64_t>{2, 5});
    auto cv = vals(c), tv = vals(td);
    for (int i = 0; i < 2; i++)
      for (int m = 0; m < 5; m++) {
        cld t = 0;
        for (int j = 0; j < 3; j++)
          for (int k = 0; k < 4; k++)
            t += av[i * 12 + j * 4 + k] * cv[k * 15 + j * 5 + m];
        REQUIRE((double)std::abs(tv[i * 5 + m] - t) <= tol * 10);
      }
    // integer form: naxes = 0 is the outer product
    Arr t0;
    CN_REQUIRE_OK(cn_tensordot(t0.out(), in1, in2, 0, nullptr, nullptr));
    REQUIRE(shape_of(t0) == std::vector<int64_t>{2, 4, 3, 4});
    // kron
    Arr k1 = rand_arr({2, 3}, dt, 18), k2 = rand_arr({3, 2}, dt, 19), kr;
    CN_REQUIRE_OK(cn_kron(kr.out(), k1, k2));
    REQUIRE(shape_of(kr) == std::vector<int64_t>{6, 6});
    auto kv = vals(kr), k1v = vals(k1), k2v = vals(k2);
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++)
        REQUIRE((double)std::abs(kv[i * 6 + j] -
                                 k1v[(i / 3) * 3 + j / 2] *
                                     k2v[(i % 3) * 2 + j % 2]) <= tol * 4);
  }
  // dot with a 0-d operand scales.
  Arr s, v = rand_arr({3}, CN_FLOAT64, 20), r;
  CN_REQUIRE_OK(cn_from_scalar(s.out(), cn_scalar_float(2), CN_FLOAT64));
  CN_REQUIRE_OK(cn_dot(r.out(), s, v, nullptr));
  auto vv = vals(v), rv = vals(r);
  for (int i = 0; i < 3; i++)
    REQUIRE((double)std::abs(rv[i] - 2.0L * vv[i]) < 1e-15);
  // errors
  cn_array out = nullptr;
  Arr p = rand_arr({3}, CN_FLOAT64, 1), q = rand_arr({4}, CN_FLOAT64, 2);
  CN_REQUIRE_ERR(cn_vdot(&out, p, q), CN_ERR_SHAPE, "cn_vdot");
  CN_REQUIRE_ERR(cn_inner(&out, p, q), CN_ERR_SHAPE, "cn_inner");
  int32_t bad[1] = {3}, zero[1] = {0};
  CN_REQUIRE_ERR(cn_tensordot(&out, p, q, 1, bad, zero), CN_ERR_AXIS,
                 "out of bounds");
  CN_REQUIRE_ERR(cn_tensordot(&out, p, q, -1, nullptr, nullptr), CN_ERR_VALUE,
                 "negative");
  REQUIRE(out == nullptr);
}

TEST_CASE("trace, diagonal, cross", "[linalg][products]") {
  Arr a = rand_arr({3, 4, 5}, CN_FLOAT64, 21), d, t;
  CN_REQUIRE_OK(cn_diagonal(d.out(), a, 1, 0, 2));
  REQUIRE(shape_of(d) == std::vector<int64_t>{4, 3});
  int32_t fl = 0;
  CN_REQUIRE_OK(cn_array_flags(&fl, d));
  REQUIRE((fl & CN_FLAG_WRITEABLE) == 0);
  auto av = vals(a), dv = vals(d);
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 3; i++)
      REQUIRE(dv[j * 3 + i] == av[i * 20 + j * 5 + (i + 1)]);
  CN_REQUIRE_OK(cn_trace(t.out(), a, -1, 1, 2, CN_DTYPE_DEFAULT));
  REQUIRE(shape_of(t) == std::vector<int64_t>{3});
  auto tv = vals(t);
  for (int i = 0; i < 3; i++) {
    cld s = 0;
    for (int j = 1; j < 4; j++)
      s += av[i * 20 + j * 5 + (j - 1)];
    REQUIRE((double)std::abs(tv[i] - s) < 1e-13);
  }
  // offset beyond the matrix: empty diagonal, zero trace
  Arr e, te;
  CN_REQUIRE_OK(cn_diagonal(e.out(), a, 7, 1, 2));
  REQUIRE(shape_of(e) == std::vector<int64_t>{3, 0});
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_diagonal(&out, a, 0, 1, 1), CN_ERR_VALUE, "same");
  CN_REQUIRE_ERR(cn_diagonal(&out, a, 0, 0, 3), CN_ERR_AXIS, "axis");
  Arr v1 = rand_arr({5}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_trace(&out, v1, 0, 0, 1, CN_DTYPE_DEFAULT), CN_ERR_VALUE,
                 "two dimensions");
  // cross: 3-vectors, 2x3 mix, vectors along axis 0
  for (cn_dtype dt : {CN_FLOAT64, CN_INT32, CN_COMPLEX128}) {
    Arr x = rand_arr({4, 3}, dt, 22), y = rand_arr({3}, dt, 23), c;
    CN_REQUIRE_OK(cn_cross(c.out(), x, y, -1, -1, -1));
    REQUIRE(shape_of(c) == std::vector<int64_t>{4, 3});
    auto xv = vals(x), yv = vals(y), cv = vals(c);
    for (int i = 0; i < 4; i++) {
      const cld *p = &xv[i * 3];
      cld w[3] = {p[1] * yv[2] - p[2] * yv[1], p[2] * yv[0] - p[0] * yv[2],
                  p[0] * yv[1] - p[1] * yv[0]};
      for (int k = 0; k < 3; k++)
        REQUIRE((double)std::abs(cv[i * 3 + k] - w[k]) < 1e-12);
    }
    Arr x2 = rand_arr({2, 4}, dt, 24), y2 = rand_arr({2, 4}, dt, 25), z;
    CN_REQUIRE_OK(cn_cross(z.out(), x2, y2, 0, 0, 0));
    REQUIRE(shape_of(z) == std::vector<int64_t>{4});
    auto x2v = vals(x2), y2v = vals(y2), zv = vals(z);
    for (int i = 0; i < 4; i++)
      REQUIRE((double)std::abs(
                  zv[i] - (x2v[i] * y2v[4 + i] - x2v[4 + i] * y2v[i])) < 1e-12);
  }
  Arr bad = rand_arr({4}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_cross(&out, bad, bad, -1, -1, -1), CN_ERR_VALUE,
                 "must be 2 or 3");
  REQUIRE(out == nullptr);
}

TEST_CASE("multi_dot and matrix_power", "[linalg][products]") {
  Arr a = rand_arr({10}, CN_FLOAT64, 31), b = rand_arr({10, 3}, CN_FLOAT64, 32),
      c = rand_arr({3, 20}, CN_FLOAT64, 33), d = rand_arr({20}, CN_FLOAT64, 34);
  cn_array list[4] = {a, b, c, d};
  Arr r;
  CN_REQUIRE_OK(cn_linalg_multi_dot(r.out(), 4, list));
  REQUIRE(shape_of(r).empty());
  auto ab = naive_mm(vals(a), vals(b), 1, 10, 3);
  auto abc = naive_mm(ab, vals(c), 1, 3, 20);
  auto want = naive_mm(abc, vals(d), 1, 20, 1);
  require_close(vals(r), want, 1e-12);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_linalg_multi_dot(&out, 1, list), CN_ERR_VALUE, "two");
  cn_array badl[2] = {b, b};
  CN_REQUIRE_ERR(cn_linalg_multi_dot(&out, 2, badl), CN_ERR_SHAPE, "rows");

  for (cn_dtype dt : {CN_FLOAT64, CN_COMPLEX64, CN_INT64}) {
    Arr m = rand_arr({2, 3, 3}, dt, 35);
    auto mv = vals(m);
    for (int64_t p : {0, 1, 2, 5}) {
      Arr pw;
      CN_REQUIRE_OK(cn_linalg_matrix_power(pw.out(), m, p));
      REQUIRE(dtype_of(pw) == dt);
      auto pv = vals(pw);
      for (int bi = 0; bi < 2; bi++) {
        auto w = eye(3), mm = slice_mat(mv, bi, 9);
        for (int64_t i = 0; i < p; i++)
          w = naive_mm(w, mm, 3, 3, 3);
        require_close(slice_mat(pv, bi, 9), w, is_single(dt) ? 1e-4 : 1e-11);
      }
    }
  }
  Arr m = rand_arr({3, 3}, CN_FLOAT64, 36), inv2, sq;
  CN_REQUIRE_OK(cn_linalg_matrix_power(inv2.out(), m, -2));
  CN_REQUIRE_OK(cn_matmul(sq.out(), m, m, nullptr));
  Arr prod;
  CN_REQUIRE_OK(cn_matmul(prod.out(), inv2, sq, nullptr));
  require_close(vals(prod), eye(3), 1e-9);
  Arr ns = rand_arr({2, 3}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_linalg_matrix_power(&out, ns, 2), CN_ERR_VALUE, "square");
}

TEST_CASE("einsum subset: permutations, diagonals, sums, contractions",
          "[linalg][einsum]") {
  Arr a = rand_arr({3, 4}, CN_FLOAT64, 41),
      b = rand_arr({4, 5}, CN_FLOAT64, 42),
      sq = rand_arr({4, 4}, CN_FLOAT64, 43), r;
  auto av = vals(a), bv = vals(b), sv = vals(sq);
  cn_array ab[2] = {a, b};
  CN_REQUIRE_OK(cn_einsum(r.out(), "ij,jk->ik", 2, ab));
  require_close(vals(r), naive_mm(av, bv, 3, 4, 5), 1e-13);
  CN_REQUIRE_OK(cn_einsum(r.out(), "ij,jk", 2, ab)); // implicit: ik
  require_close(vals(r), naive_mm(av, bv, 3, 4, 5), 1e-13);
  CN_REQUIRE_OK(cn_einsum(r.out(), "ij->ji", 1, ab));
  REQUIRE(shape_of(r) == std::vector<int64_t>{4, 3});
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      REQUIRE(vals(r)[j * 3 + i] == av[i * 4 + j]);
  cn_array s1[1] = {sq};
  CN_REQUIRE_OK(cn_einsum(r.out(), "ii", 1, s1)); // trace
  cld tr = sv[0] + sv[5] + sv[10] + sv[15];
  require_close(vals(r), {tr}, 1e-13);
  CN_REQUIRE_OK(cn_einsum(r.out(), "ii->i", 1, s1));
  require_close(vals(r), {sv[0], sv[5], sv[10], sv[15]}, 0);
  CN_REQUIRE_OK(cn_einsum(r.out(), "ij->", 1, ab));
  cld tot = 0;
  for (auto x : av)
    tot += x;
  require_close(vals(r), {tot}, 1e-13);
  // batched with ellipsis and an outer product
  Arr x = rand_arr({2, 3, 4}, CN_FLOAT64, 44),
      y = rand_arr({2, 4, 5}, CN_FLOAT64, 45);
  cn_array xy[2] = {x, y};
  CN_REQUIRE_OK(cn_einsum(r.out(), "...ij,...jk->...ik", 2, xy));
  REQUIRE(shape_of(r) == std::vector<int64_t>{2, 3, 5});
  auto xv = vals(x), yv = vals(y), rv = vals(r);
  for (int bi = 0; bi < 2; bi++)
    require_close(
        slice_mat(rv, bi, 15),
        naive_mm(slice_mat(xv, bi, 12), slice_mat(yv, bi, 20), 3, 4, 5), 1e-13);
  Arr u = rand_arr({3}, CN_FLOAT64, 46), v = rand_arr({4}, CN_FLOAT64, 47);
  cn_array uv[2] = {u, v};
  CN_REQUIRE_OK(cn_einsum(r.out(), "i,j->ij", 2, uv));
  require_close(vals(r), naive_mm(vals(u), vals(v), 3, 1, 4), 1e-14);
  // three operands, with a letter summed in the middle one only
  Arr c = rand_arr({5, 2}, CN_FLOAT64, 48);
  cn_array abc[3] = {a, b, c};
  CN_REQUIRE_OK(cn_einsum(r.out(), "ij,jk,kl->il", 3, abc));
  require_close(vals(r), naive_mm(naive_mm(av, bv, 3, 4, 5), vals(c), 3, 5, 2),
                1e-12);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_einsum(&out, "ij,jk->iz", 2, ab), CN_ERR_VALUE, "'z'");
  CN_REQUIRE_ERR(cn_einsum(&out, "ijk,jk->ik", 2, ab), CN_ERR_VALUE,
                 "dimensions");
  CN_REQUIRE_ERR(cn_einsum(&out, "i1,jk", 2, ab), CN_ERR_VALUE, "'1'");
  // A non-ASCII subscript (UTF-8 kappa, bytes 0xce 0xba) is named by its
  // first byte and position, and the message stays valid UTF-8 (ASCII).
  CN_REQUIRE_ERR(cn_einsum(&out, "ij,jk->i\xce\xba", 2, ab), CN_ERR_VALUE,
                 "non-ASCII byte 0xce at byte position 8");
  for (const char *c = cn_last_error(); *c; c++)
    REQUIRE((unsigned char)*c < 0x80);
  CN_REQUIRE_ERR(cn_einsum(&out, "\xff", 1, ab), CN_ERR_VALUE,
                 "byte 0xff at byte position 0");
  CN_REQUIRE_ERR(cn_einsum(&out, "ij,kl->ik", 1, ab), CN_ERR_VALUE, "terms");
  cn_array aa[2] = {a, a};
  CN_REQUIRE_ERR(cn_einsum(&out, "ij,jk->ik", 2, aa), CN_ERR_SHAPE, "extents");
  REQUIRE(out == nullptr);
}

// Well-conditioned (diagonally dominant) square matrices.
static Arr good_square(std::vector<int64_t> shape, cn_dtype dt, uint64_t seed) {
  Arr r = rand_arr(shape, dt, seed);
  auto v = vals(r);
  int64_t n = shape.back(), nb = (int64_t)v.size() / (n * n);
  std::vector<std::complex<double>> w(v.size());
  for (int64_t b = 0; b < nb; b++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        cld x = v[b * n * n + i * n + j] + (i == j ? cld(n + 1) : cld(0));
        w[b * n * n + i * n + j] = {(double)x.real(), (double)x.imag()};
      }
  Arr c = from_vec(w, shape, CN_COMPLEX128), o;
  CN_REQUIRE_OK(cn_astype(o.out(), c, dt, 1));
  return o;
}

TEST_CASE("solve, inv, det, slogdet", "[linalg][solve]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = tol_for(dt);
    Arr a = good_square({2, 5, 5}, dt, 51), b = rand_arr({2, 5, 3}, dt, 52);
    Snap sa(a), sb(b);
    Arr x, ia, d, sg, ld;
    CN_REQUIRE_OK(cn_linalg_solve(x.out(), a, b));
    REQUIRE(shape_of(x) == std::vector<int64_t>{2, 5, 3});
    REQUIRE(dtype_of(x) == dt);
    auto av = vals(a), bv = vals(b), xv = vals(x);
    for (int bi = 0; bi < 2; bi++)
      require_close(
          naive_mm(slice_mat(av, bi, 25), slice_mat(xv, bi, 15), 5, 5, 3),
          slice_mat(bv, bi, 15), tol);
    // vector right-hand side broadcast over the stack
    Arr bvec = rand_arr({5}, dt, 53), xvv;
    CN_REQUIRE_OK(cn_linalg_solve(xvv.out(), a, bvec));
    REQUIRE(shape_of(xvv) == std::vector<int64_t>{2, 5});
    for (int bi = 0; bi < 2; bi++)
      require_close(
          naive_mm(slice_mat(av, bi, 25), slice_mat(vals(xvv), bi, 5), 5, 5, 1),
          vals(bvec), tol);
    CN_REQUIRE_OK(cn_linalg_inv(ia.out(), a));
    auto iv = vals(ia);
    for (int bi = 0; bi < 2; bi++)
      require_close(
          naive_mm(slice_mat(av, bi, 25), slice_mat(iv, bi, 25), 5, 5, 5),
          eye(5), tol);
    CN_REQUIRE_OK(cn_linalg_det(d.out(), a));
    CN_REQUIRE_OK(cn_linalg_slogdet(sg.out(), ld.out(), a));
    REQUIRE(shape_of(d) == std::vector<int64_t>{2});
    // Oracle: Gaussian elimination with partial pivoting in long double.
    for (int bi = 0; bi < 2; bi++) {
      auto m = slice_mat(av, bi, 25);
      cld det = 1;
      for (int c = 0; c < 5; c++) {
        int p = c;
        for (int r = c + 1; r < 5; r++)
          if (std::abs(m[r * 5 + c]) > std::abs(m[p * 5 + c]))
            p = r;
        if (p != c) {
          for (int k = 0; k < 5; k++)
            std::swap(m[c * 5 + k], m[p * 5 + k]);
          det = -det;
        }
        det *= m[c * 5 + c];
        for (int r = c + 1; r < 5; r++) {
          cld f = m[r * 5 + c] / m[c * 5 + c];
          for (int k = c; k < 5; k++)
            m[r * 5 + k] -= f * m[c * 5 + k];
        }
      }
      require_close({vals(d)[bi]}, {det}, tol);
      cld sgn = vals(sg)[bi];
      long double l = vals(ld)[bi].real();
      require_close({sgn * std::exp(l)}, {det}, tol);
      REQUIRE(std::abs((double)std::abs(sgn) - 1.0) < tol);
    }
    sa.check();
    sb.check();
  }
  // singular: CN_ERR_LINALG, nothing written, inputs intact
  Arr s = from_vec<double>({1, 2, 2, 4}, {2, 2}, CN_FLOAT64);
  Snap ss(s);
  cn_array out = nullptr;
  CN_REQUIRE_ERR(cn_linalg_inv(&out, s), CN_ERR_LINALG,
                 "cn_linalg_inv: Singular matrix");
  REQUIRE(std::string(cn_last_error()) == "cn_linalg_inv: Singular matrix");
  REQUIRE(cn_last_status() == CN_ERR_LINALG);
  Arr bb = rand_arr({2}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_linalg_solve(&out, s, bb), CN_ERR_LINALG,
                 "cn_linalg_solve: Singular matrix");
  REQUIRE(out == nullptr);
  ss.check();
  // singular det is 0 with slogdet (0, -inf), no error
  Arr d0, sg0, ld0;
  CN_REQUIRE_OK(cn_linalg_det(d0.out(), s));
  REQUIRE(vals(d0)[0] == cld(0));
  CN_REQUIRE_OK(cn_linalg_slogdet(sg0.out(), ld0.out(), s));
  REQUIRE(vals(sg0)[0] == cld(0));
  REQUIRE(std::isinf((double)vals(ld0)[0].real()));
  // integer input computes in float64
  Arr ii = from_vec<int32_t>({2, 1, 1, 3}, {2, 2}, CN_INT32), iinv;
  CN_REQUIRE_OK(cn_linalg_inv(iinv.out(), ii));
  REQUIRE(dtype_of(iinv) == CN_FLOAT64);
  require_close(vals(iinv), {0.6L, -0.2L, -0.2L, 0.4L}, 1e-15);
  // 1x1 and empty
  Arr one = from_vec<double>({4}, {1, 1}, CN_FLOAT64), i1;
  CN_REQUIRE_OK(cn_linalg_inv(i1.out(), one));
  require_close(vals(i1), {0.25L}, 1e-16);
  Arr emp, ie, de;
  int64_t es[3] = {3, 0, 0};
  CN_REQUIRE_OK(cn_zeros(emp.out(), 3, es, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_OK(cn_linalg_inv(ie.out(), emp));
  REQUIRE(shape_of(ie) == std::vector<int64_t>{3, 0, 0});
  CN_REQUIRE_OK(cn_linalg_det(de.out(), emp));
  require_close(vals(de), {1, 1, 1}, 0);
  // shape errors
  Arr ns = rand_arr({2, 3}, CN_FLOAT64, 2), b4 = rand_arr({4}, CN_FLOAT64, 3);
  CN_REQUIRE_ERR(cn_linalg_inv(&out, ns), CN_ERR_VALUE, "square");
  CN_REQUIRE_ERR(cn_linalg_det(&out, b4), CN_ERR_VALUE, "at least 2");
  Arr sq3 = good_square({3, 3}, CN_FLOAT64, 4);
  CN_REQUIRE_ERR(cn_linalg_solve(&out, sq3, b4), CN_ERR_SHAPE, "rows");
  REQUIRE(out == nullptr);
}

TEST_CASE("cholesky, qr, svd reconstruct their input", "[linalg][decomp]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = tol_for(dt);
    // cholesky of B B^H + n I (lower and upper)
    Arr bm = rand_arr({2, 4, 4}, dt, 61), bh, spd, eye4, l, u;
    Arr bhT;
    CN_REQUIRE_OK(cn_swapaxes(bhT.out(), bm, -1, -2));
    CN_REQUIRE_OK(cn_conj(bh.out(), bhT, nullptr));
    CN_REQUIRE_OK(cn_matmul(spd.out(), bm, bh, nullptr));
    CN_REQUIRE_OK(cn_eye(eye4.out(), 4, -1, 0, dt, CN_ORDER_C));
    Arr spd2;
    CN_REQUIRE_OK(cn_add(spd2.out(), spd, eye4, nullptr));
    CN_REQUIRE_OK(cn_linalg_cholesky(l.out(), spd2, 0));
    CN_REQUIRE_OK(cn_linalg_cholesky(u.out(), spd2, 1));
    auto sv = vals(spd2), lv = vals(l), uv = vals(u);
    for (int bi = 0; bi < 2; bi++) {
      auto L = slice_mat(lv, bi, 16), U = slice_mat(uv, bi, 16);
      for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
          REQUIRE(L[i * 4 + j] == cld(0));
          REQUIRE(U[j * 4 + i] == cld(0));
        }
      require_close(naive_mm(L, conjT(L, 4, 4), 4, 4, 4), slice_mat(sv, bi, 16),
                    tol);
      require_close(naive_mm(conjT(U, 4, 4), U, 4, 4, 4), slice_mat(sv, bi, 16),
                    tol);
    }
    // QR in every mode, tall and wide
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{6, 4}, {3, 5}}) {
      int64_t m = mn.first, n = mn.second, k = std::min(m, n);
      Arr a = rand_arr({m, n}, dt, 62), q, r, qc, rc, rr;
      CN_REQUIRE_OK(cn_linalg_qr(q.out(), r.out(), a, CN_QR_REDUCED));
      REQUIRE(shape_of(q) == std::vector<int64_t>{m, k});
      REQUIRE(shape_of(r) == std::vector<int64_t>{k, n});
      require_close(naive_mm(vals(q), vals(r), m, k, n), vals(a), tol);
      require_close(naive_mm(conjT(vals(q), m, k), vals(q), k, m, k), eye(k),
                    tol);
      CN_REQUIRE_OK(cn_linalg_qr(qc.out(), rc.out(), a, CN_QR_COMPLETE));
      REQUIRE(shape_of(qc) == std::vector<int64_t>{m, m});
      REQUIRE(shape_of(rc) == std::vector<int64_t>{m, n});
      require_close(naive_mm(vals(qc), vals(rc), m, m, n), vals(a), tol);
      require_close(naive_mm(conjT(vals(qc), m, m), vals(qc), m, m, m), eye(m),
                    tol);
      auto rcv = vals(rc);
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < std::min(i, n); j++)
          REQUIRE(rcv[i * n + j] == cld(0));
      CN_REQUIRE_OK(cn_linalg_qr(nullptr, rr.out(), a, CN_QR_R));
      REQUIRE(shape_of(rr) == std::vector<int64_t>{k, n});
      require_close(vals(rr), vals(r), tol);
      cn_array untouched = nullptr;
      Arr rr2;
      CN_REQUIRE_OK(cn_linalg_qr(&untouched, rr2.out(), a, CN_QR_R));
      REQUIRE(untouched == nullptr);
      // raw: rebuild Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^H, from the
      // reflectors below the diagonal of h^T and R from its upper triangle
      Arr h, tau;
      CN_REQUIRE_OK(cn_linalg_qr(h.out(), tau.out(), a, CN_QR_RAW));
      REQUIRE(shape_of(h) == std::vector<int64_t>{n, m});
      REQUIRE(shape_of(tau) == std::vector<int64_t>{k});
      auto hv = vals(h), tv = vals(tau);
      std::vector<cld> Q = eye(m), R((size_t)(k * n), cld(0));
      for (int64_t i = 0; i < k; i++)
        for (int64_t j = i; j < n; j++)
          R[i * n + j] = hv[j * m + i];
      for (int64_t i = 0; i < k; i++) {
        std::vector<cld> v((size_t)m, cld(0));
        v[i] = 1;
        for (int64_t j = i + 1; j < m; j++)
          v[j] = hv[i * m + j];
        for (int64_t row = 0; row < m; row++) { // Q <- Q (I - tau v v^H)
          cld dot = 0;
          for (int64_t j = 0; j < m; j++)
            dot += Q[row * m + j] * v[j];
          for (int64_t j = 0; j < m; j++)
            Q[row * m + j] -= dot * tv[i] * std::conj(v[j]);
        }
      }
      std::vector<cld> Qk((size_t)(m * k));
      for (int64_t row = 0; row < m; row++)
        for (int64_t j = 0; j < k; j++)
          Qk[row * k + j] = Q[row * m + j];
      require_close(naive_mm(Qk, R, m, k, n), vals(a), tol);
      // SVD: full and reduced, and values only
      Arr U, S, V, Uf, Sf, Vf, S0;
      CN_REQUIRE_OK(cn_linalg_svd(U.out(), S.out(), V.out(), a, 0, 1));
      REQUIRE(dtype_of(S) == (is_single(dt) ? CN_FLOAT32 : CN_FLOAT64));
      auto s = vals(S);
      std::vector<cld> us = vals(U);
      for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < k; j++)
          us[i * k + j] *= s[j];
      require_close(naive_mm(us, vals(V), m, k, n), vals(a), tol);
      for (int64_t j = 1; j < k; j++)
        REQUIRE(s[j - 1].real() >= s[j].real());
      CN_REQUIRE_OK(cn_linalg_svd(Uf.out(), Sf.out(), Vf.out(), a, 1, 1));
      REQUIRE(shape_of(Uf) == std::vector<int64_t>{m, m});
      REQUIRE(shape_of(Vf) == std::vector<int64_t>{n, n});
      require_close(naive_mm(conjT(vals(Vf), n, n), vals(Vf), n, n, n), eye(n),
                    tol);
      CN_REQUIRE_OK(cn_linalg_svd(nullptr, S0.out(), nullptr, a, 1, 0));
      require_close(vals(S0), s, tol);
    }
  }
  // batched SVD and errors
  Arr a = rand_arr({3, 4, 2}, CN_FLOAT64, 63), U, S, V;
  CN_REQUIRE_OK(cn_linalg_svd(U.out(), S.out(), V.out(), a, 0, 1));
  REQUIRE(shape_of(S) == std::vector<int64_t>{3, 2});
  REQUIRE(shape_of(U) == std::vector<int64_t>{3, 4, 2});
  cn_array out = nullptr, o2 = nullptr;
  Arr notpd = from_vec<double>({1, 2, 2, 1}, {2, 2}, CN_FLOAT64);
  Snap sn(notpd);
  CN_REQUIRE_ERR(cn_linalg_cholesky(&out, notpd, 0), CN_ERR_LINALG,
                 "cn_linalg_cholesky: Matrix is not positive definite");
  REQUIRE(std::string(cn_last_error()) ==
          "cn_linalg_cholesky: Matrix is not positive definite");
  sn.check();
  CN_REQUIRE_ERR(cn_linalg_qr(&out, &o2, a, (cn_qr_mode)7), CN_ERR_VALUE,
                 "mode");
  CN_REQUIRE_ERR(cn_linalg_svd(&out, &o2, nullptr, a, 0, 1), CN_ERR_VALUE,
                 "compute_uv");
  CN_REQUIRE_ERR(cn_linalg_qr(nullptr, &o2, a, CN_QR_COMPLETE), CN_ERR_VALUE,
                 "'q'");
  Arr v1 = rand_arr({3}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_linalg_qr(&out, &o2, v1, CN_QR_REDUCED), CN_ERR_VALUE,
                 "at least 2");
  REQUIRE(out == nullptr);
  REQUIRE(o2 == nullptr);
}

TEST_CASE("eig, eigvals, eigh, eigvalsh", "[linalg][eig]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-3 : 1e-9;
    Arr a = rand_arr({2, 5, 5}, dt, 71), w, v, w2;
    CN_REQUIRE_OK(cn_linalg_eig(w.out(), v.out(), a));
    auto av = vals(a), wv = vals(w), vv = vals(v);
    for (int bi = 0; bi < 2; bi++) {
      auto A = slice_mat(av, bi, 25), V = slice_mat(vv, bi, 25);
      auto AV = naive_mm(A, V, 5, 5, 5);
      std::vector<cld> VW(25);
      for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
          VW[i * 5 + j] = V[i * 5 + j] * wv[bi * 5 + j];
      require_close(AV, VW, tol);
    }
    CN_REQUIRE_OK(cn_linalg_eigvals(w2.out(), a));
    require_close(vals(w2), wv, tol);
    // Hermitian: (A + A^H) / 2, both triangles
    Arr ah, aht, h;
    CN_REQUIRE_OK(cn_swapaxes(aht.out(), a, -1, -2));
    CN_REQUIRE_OK(cn_conj(ah.out(), aht, nullptr));
    CN_REQUIRE_OK(cn_add(h.out(), a, ah, nullptr));
    auto hv = vals(h);
    for (int32_t upper : {0, 1}) {
      Arr hw, hvv, hw2;
      CN_REQUIRE_OK(cn_linalg_eigh(hw.out(), hvv.out(), h, upper));
      REQUIRE(dtype_of(hw) == (is_single(dt) ? CN_FLOAT32 : CN_FLOAT64));
      auto ew = vals(hw), ev = vals(hvv);
      for (int bi = 0; bi < 2; bi++) {
        auto V = slice_mat(ev, bi, 25);
        std::vector<cld> VW(25);
        for (int i = 0; i < 5; i++)
          for (int j = 0; j < 5; j++)
            VW[i * 5 + j] = V[i * 5 + j] * ew[bi * 5 + j];
        require_close(naive_mm(slice_mat(hv, bi, 25), V, 5, 5, 5), VW, tol);
        require_close(naive_mm(conjT(V, 5, 5), V, 5, 5, 5), eye(5), tol);
        for (int j = 1; j < 5; j++)
          REQUIRE(ew[bi * 5 + j - 1].real() <= ew[bi * 5 + j].real());
      }
      CN_REQUIRE_OK(cn_linalg_eigvalsh(hw2.out(), h, upper));
      require_close(vals(hw2), ew, tol);
    }
  }
  // eigh reads only the requested triangle: garbage in the other one
  for (int32_t upper : {0, 1}) {
    Arr g = from_vec<double>({2, upper ? 1.0 : 99.0, upper ? -7.0 : 1.0, 3},
                             {2, 2}, CN_FLOAT64);
    Arr w, sym = from_vec<double>({2, 1, 1, 3}, {2, 2}, CN_FLOAT64), ws;
    CN_REQUIRE_OK(cn_linalg_eigvalsh(w.out(), g, upper));
    CN_REQUIRE_OK(cn_linalg_eigvalsh(ws.out(), sym, upper));
    require_close(vals(w), vals(ws), 1e-14);
    // closed form: (5 -+ sqrt(5)) / 2
    require_close(
        vals(w), {(5 - std::sqrt(5.0L)) / 2, (5 + std::sqrt(5.0L)) / 2}, 1e-14);
  }
  // real input with real spectrum gives real output (as NumPy)
  Arr sym = from_vec<double>({2, 1, 1, 2}, {2, 2}, CN_FLOAT64), w, v;
  CN_REQUIRE_OK(cn_linalg_eig(w.out(), v.out(), sym));
  REQUIRE(dtype_of(w) == CN_FLOAT64);
  REQUIRE(dtype_of(v) == CN_FLOAT64);
  // a rotation has complex eigenvalues +-i
  Arr rot = from_vec<double>({0, -1, 1, 0}, {2, 2}, CN_FLOAT64), rw, rv;
  CN_REQUIRE_OK(cn_linalg_eig(rw.out(), rv.out(), rot));
  REQUIRE(dtype_of(rw) == CN_COMPLEX128);
  auto rwv = vals(rw);
  REQUIRE((double)std::abs(rwv[0] - cld(0, 1)) < 1e-14);
  REQUIRE((double)std::abs(rwv[1] - cld(0, -1)) < 1e-14);
  cn_array out = nullptr, o2 = nullptr;
  Arr ns = rand_arr({3, 2}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_linalg_eig(&out, &o2, ns), CN_ERR_VALUE, "square");
  CN_REQUIRE_ERR(cn_linalg_eigh(&out, &o2, ns, 0), CN_ERR_VALUE, "square");
  REQUIRE(out == nullptr);
  // NaNs keep the symmetric QR iteration from converging (NumPy:
  // LinAlgError "Eigenvalues did not converge"), alone and in a stack
  double nan = std::nan("");
  Arr bad = from_vec<double>(std::vector<double>(9, nan), {3, 3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_linalg_eigvalsh(&out, bad, 0), CN_ERR_LINALG,
                 "cn_linalg_eigvalsh: Eigenvalues did not converge");
  REQUIRE(std::string(cn_last_error()) ==
          "cn_linalg_eigvalsh: Eigenvalues did not converge");
  std::vector<double> two(18, nan);
  for (int i = 0; i < 9; i++)
    two[i] = i % 4 == 0 ? 1.0 : 0.0; // the identity, then all NaN
  Arr stack = from_vec<double>(two, {2, 3, 3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_linalg_eigh(&out, &o2, stack, 0), CN_ERR_LINALG,
                 "Eigenvalues did not converge (matrix 1 of the stack)");
  REQUIRE(out == nullptr);
  REQUIRE(o2 == nullptr);
}

TEST_CASE("norm, cond, matrix_rank, pinv, lstsq", "[linalg][norm]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = tol_for(dt);
    Arr a = rand_arr({3, 4}, dt, 81);
    auto av = vals(a);
    auto col = [&](int j, int i) { return std::abs(av[i * 4 + j]); };
    // vector norms along axis 1
    struct VO {
      cn_norm_ord o;
      double p;
    };
    for (VO vo : {VO{CN_NORM_DEFAULT, 0}, VO{CN_NORM_P, 1}, VO{CN_NORM_P, 3},
                  VO{CN_NORM_P, INFINITY}, VO{CN_NORM_P, -INFINITY},
                  VO{CN_NORM_P, 0}, VO{CN_NORM_P, 0.5}}) {
      Arr r;
      int32_t ax = 1;
      CN_REQUIRE_OK(cn_linalg_norm(r.out(), a, vo.o, vo.p, 1, &ax, 0));
      REQUIRE(shape_of(r) == std::vector<int64_t>{3});
      std::vector<cld> want;
      for (int i = 0; i < 3; i++) {
        long double acc = 0, mx = 0, mnv = INFINITY;
        for (int j = 0; j < 4; j++) {
          long double x = col(j, i);
          mx = std::max(mx, x);
          mnv = std::min(mnv, x);
          double p = vo.o == CN_NORM_DEFAULT ? 2 : vo.p;
          acc += p == 0 ? (x != 0) : std::pow(x, (long double)p);
        }
        double p = vo.o == CN_NORM_DEFAULT ? 2 : vo.p;
        want.push_back(p == INFINITY    ? mx
                       : p == -INFINITY ? mnv
                       : p == 0         ? acc
                                        : std::pow(acc, 1.0L / p));
      }
      require_close(vals(r), want, tol);
    }
    // matrix norms; oracles from column / row sums and the SVD
    Arr S;
    CN_REQUIRE_OK(cn_linalg_svd(nullptr, S.out(), nullptr, a, 0, 0));
    auto s = vals(S);
    long double fro = 0, c1 = 0, cm1 = INFINITY, ri = 0, rmi = INFINITY;
    for (int j = 0; j < 4; j++) {
      long double cs = 0;
      for (int i = 0; i < 3; i++)
        cs += col(j, i);
      c1 = std::max(c1, cs);
      cm1 = std::min(cm1, cs);
    }
    for (int i = 0; i < 3; i++) {
      long double rs = 0;
      for (int j = 0; j < 4; j++) {
        rs += col(j, i);
        fro += col(j, i) * col(j, i);
      }
      ri = std::max(ri, rs);
      rmi = std::min(rmi, rs);
    }
    struct MO {
      cn_norm_ord o;
      double p;
      long double want;
    };
    for (MO mo :
         {MO{CN_NORM_DEFAULT, 0, std::sqrt(fro)},
          MO{CN_NORM_FRO, 0, std::sqrt(fro)},
          MO{CN_NORM_NUC, 0, s[0].real() + s[1].real() + s[2].real()},
          MO{CN_NORM_P, 1, c1}, MO{CN_NORM_P, -1, cm1},
          MO{CN_NORM_P, INFINITY, ri}, MO{CN_NORM_P, -INFINITY, rmi},
          MO{CN_NORM_P, 2, s[0].real()}, MO{CN_NORM_P, -2, s[2].real()}}) {
      Arr r, rk;
      int32_t axes[2] = {0, 1};
      CN_REQUIRE_OK(cn_linalg_norm(r.out(), a, mo.o, mo.p, 2, axes, 0));
      REQUIRE(shape_of(r).empty());
      require_close(vals(r), {mo.want}, tol);
      CN_REQUIRE_OK(cn_linalg_norm(rk.out(), a, mo.o, mo.p, 2, axes, 1));
      REQUIRE(shape_of(rk) == std::vector<int64_t>{1, 1});
    }
    // axis=None: flattened 2-norm, keepdims
    Arr r0;
    CN_REQUIRE_OK(
        cn_linalg_norm(r0.out(), a, CN_NORM_DEFAULT, 0, -1, nullptr, 1));
    REQUIRE(shape_of(r0) == std::vector<int64_t>{1, 1});
    require_close(vals(r0), {std::sqrt(fro)}, tol);
    // cond: 2-norm from the SVD, 1-norm from norm(a) * norm(inv(a))
    Arr g = good_square({4, 4}, dt, 82), c2, c1n, gi, n1, n2;
    CN_REQUIRE_OK(cn_linalg_cond(c2.out(), g, CN_NORM_DEFAULT, 0));
    Arr gs;
    CN_REQUIRE_OK(cn_linalg_svd(nullptr, gs.out(), nullptr, g, 0, 0));
    require_close(vals(c2), {vals(gs)[0] / vals(gs)[3]}, tol);
    CN_REQUIRE_OK(cn_linalg_cond(c1n.out(), g, CN_NORM_P, 1));
    CN_REQUIRE_OK(cn_linalg_inv(gi.out(), g));
    int32_t axes[2] = {-2, -1};
    CN_REQUIRE_OK(cn_linalg_norm(n1.out(), g, CN_NORM_P, 1, 2, axes, 0));
    CN_REQUIRE_OK(cn_linalg_norm(n2.out(), gi, CN_NORM_P, 1, 2, axes, 0));
    require_close(vals(c1n), {vals(n1)[0] * vals(n2)[0]}, tol);
    // pinv satisfies the Penrose identities A P A = A, P A P = P
    Arr p, apa, ap, pap, pa;
    CN_REQUIRE_OK(cn_linalg_pinv(p.out(), a, -1));
    REQUIRE(shape_of(p) == std::vector<int64_t>{4, 3});
    CN_REQUIRE_OK(cn_matmul(ap.out(), a, p, nullptr));
    CN_REQUIRE_OK(cn_matmul(apa.out(), ap, a, nullptr));
    require_close(vals(apa), av, tol);
    CN_REQUIRE_OK(cn_matmul(pa.out(), p, a, nullptr));
    CN_REQUIRE_OK(cn_matmul(pap.out(), pa, p, nullptr));
    require_close(vals(pap), vals(p), tol * 10);
    // lstsq on a tall full-rank system: normal equations A^H (A x - b) = 0
    Arr t = rand_arr({7, 3}, dt, 83), b = rand_arr({7}, dt, 84);
    Arr x, res, rk, sv;
    CN_REQUIRE_OK(
        cn_linalg_lstsq(x.out(), res.out(), rk.out(), sv.out(), t, b, -1));
    REQUIRE(shape_of(x) == std::vector<int64_t>{3});
    REQUIRE(vals(rk)[0] == cld(3));
    auto tv = vals(t), xv = vals(x), bv = vals(b);
    auto axv = naive_mm(tv, xv, 7, 3, 1);
    std::vector<cld> rr(7);
    long double rss = 0;
    for (int i = 0; i < 7; i++) {
      rr[i] = axv[i] - bv[i];
      rss += std::norm(rr[i]);
    }
    require_close(naive_mm(conjT(tv, 7, 3), rr, 3, 7, 1), {0, 0, 0}, tol * 10);
    REQUIRE(shape_of(res) == std::vector<int64_t>{1});
    require_close(vals(res), {rss}, tol * 10);
    REQUIRE(shape_of(sv) == std::vector<int64_t>{3});
  }
  // matrix_rank of a rank-2 4x4 (outer products) and of a batch
  Arr u = rand_arr({4, 2}, CN_FLOAT64, 85),
      w = rand_arr({2, 4}, CN_FLOAT64, 86);
  Arr r2, mr, mrt;
  CN_REQUIRE_OK(cn_matmul(r2.out(), u, w, nullptr));
  CN_REQUIRE_OK(cn_linalg_matrix_rank(mr.out(), r2, -1));
  REQUIRE(dtype_of(mr) == CN_INT64);
  REQUIRE(vals(mr)[0] == cld(2));
  CN_REQUIRE_OK(cn_linalg_matrix_rank(mrt.out(), r2, 1e6));
  REQUIRE(vals(mrt)[0] == cld(0));
  Arr g = good_square({3, 4, 4}, CN_FLOAT64, 87), mrb;
  CN_REQUIRE_OK(cn_linalg_matrix_rank(mrb.out(), g, -1));
  REQUIRE(shape_of(mrb) == std::vector<int64_t>{3});
  require_close(vals(mrb), {4, 4, 4}, 0);
  // cond of a singular matrix in a non-2 norm is inf, as NumPy
  Arr sing = from_vec<double>({1, 2, 2, 4}, {2, 2}, CN_FLOAT64), cs;
  CN_REQUIRE_OK(cn_linalg_cond(cs.out(), sing, CN_NORM_P, 1));
  REQUIRE(std::isinf((double)vals(cs)[0].real()));
  // errors
  cn_array out = nullptr;
  Arr a = rand_arr({3, 4}, CN_FLOAT64, 1);
  int32_t axes2[2] = {0, 1}, axbad[2] = {0, 0}, ax3 = 3;
  CN_REQUIRE_ERR(cn_linalg_norm(&out, a, CN_NORM_P, 3, 2, axes2, 0),
                 CN_ERR_VALUE, "invalid norm order for matrices");
  CN_REQUIRE_ERR(cn_linalg_norm(&out, a, CN_NORM_FRO, 0, 1, axes2, 0),
                 CN_ERR_VALUE, "'fro' for vectors");
  CN_REQUIRE_ERR(cn_linalg_norm(&out, a, CN_NORM_P, 1, 2, axbad, 0),
                 CN_ERR_VALUE, "duplicate");
  CN_REQUIRE_ERR(cn_linalg_norm(&out, a, CN_NORM_P, 1, 1, &ax3, 0),
                 CN_ERR_AXIS, "out of bounds");
  Arr b5 = rand_arr({5}, CN_FLOAT64, 2);
  CN_REQUIRE_ERR(cn_linalg_lstsq(&out, nullptr, nullptr, nullptr, a, b5, -1),
                 CN_ERR_SHAPE, "rows");
  CN_REQUIRE_ERR(cn_linalg_cond(&out, a, CN_NORM_P, 1), CN_ERR_VALUE, "square");
  REQUIRE(out == nullptr);
}

// (A + A^H) for a random A: Hermitian, indefinite, eigenvalues distinct.
static Arr herm(std::vector<int64_t> shape, cn_dtype dt, uint64_t seed) {
  Arr a = rand_arr(shape, dt, seed), at, ah, h;
  CN_REQUIRE_OK(cn_swapaxes(at.out(), a, -1, -2));
  CN_REQUIRE_OK(cn_conj(ah.out(), at, nullptr));
  CN_REQUIRE_OK(cn_add(h.out(), a, ah, nullptr));
  return h;
}

// U @ diag(S) @ Vh for stacked square (n x n) value vectors.
static std::vector<cld> usv(const std::vector<cld> &U,
                            const std::vector<cld> &S,
                            const std::vector<cld> &V, int64_t bi, int64_t n) {
  auto u = slice_mat(U, bi, n * n);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      u[i * n + j] *= S[bi * n + j];
  return naive_mm(u, slice_mat(V, bi, n * n), n, n, n);
}

TEST_CASE("svd, pinv, matrix_rank with hermitian", "[linalg][hermitian]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-3 : 1e-9;
    const int64_t n = 5;
    Arr h = herm({2, n, n}, dt, 91);
    Snap sn(h);
    Arr U, S, V, S0, Sg;
    CN_REQUIRE_OK(cn_linalg_svd_ex(U.out(), S.out(), V.out(), h, 1, 1, 1));
    sn.check();
    REQUIRE(shape_of(U) == std::vector<int64_t>{2, n, n});
    REQUIRE(shape_of(S) == std::vector<int64_t>{2, n});
    REQUIRE(shape_of(V) == std::vector<int64_t>{2, n, n});
    REQUIRE(dtype_of(U) == dt);
    REQUIRE(dtype_of(V) == dt);
    REQUIRE(dtype_of(S) == (is_single(dt) ? CN_FLOAT32 : CN_FLOAT64));
    // the singular values of the general (gesdd) SVD are the oracle
    CN_REQUIRE_OK(cn_linalg_svd(nullptr, Sg.out(), nullptr, h, 0, 0));
    auto hv = vals(h), uv = vals(U), sv = vals(S), vv = vals(V);
    require_close(sv, vals(Sg), tol);
    for (int bi = 0; bi < 2; bi++) {
      require_close(usv(uv, sv, vv, bi, n), slice_mat(hv, bi, n * n), tol);
      auto Ub = slice_mat(uv, bi, n * n), Vb = slice_mat(vv, bi, n * n);
      require_close(naive_mm(conjT(Ub, n, n), Ub, n, n, n), eye(n), tol);
      require_close(naive_mm(Vb, conjT(Vb, n, n), n, n, n), eye(n), tol);
      for (int j = 1; j < n; j++)
        REQUIRE(sv[bi * n + j - 1].real() >= sv[bi * n + j].real());
    }
    CN_REQUIRE_OK(cn_linalg_svd_ex(nullptr, S0.out(), nullptr, h, 0, 0, 1));
    require_close(vals(S0), sv, tol);
    // pinv(hermitian) against the general pinv, and A P A == A
    Arr P, Pg, AP, APA;
    CN_REQUIRE_OK(cn_linalg_pinv_ex(P.out(), h, -1, 1));
    CN_REQUIRE_OK(cn_linalg_pinv(Pg.out(), h, -1));
    require_close(vals(P), vals(Pg), tol * 10);
    CN_REQUIRE_OK(cn_matmul(AP.out(), h, P, nullptr));
    CN_REQUIRE_OK(cn_matmul(APA.out(), AP, h, nullptr));
    require_close(vals(APA), hv, tol * 10);
    // rank: v v^H + w w^H has rank 2, and a hermitian rank agrees
    Arr v = rand_arr({4, 2}, dt, 92), vt, vh, r2, rk, rkh;
    CN_REQUIRE_OK(cn_swapaxes(vt.out(), v, -1, -2));
    CN_REQUIRE_OK(cn_conj(vh.out(), vt, nullptr));
    CN_REQUIRE_OK(cn_matmul(r2.out(), v, vh, nullptr));
    CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(rkh.out(), r2, -1, -1, 1));
    REQUIRE(dtype_of(rkh) == CN_INT64);
    REQUIRE(vals(rkh)[0] == cld(2));
    CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(rk.out(), h, -1, -1, 1));
    require_close(vals(rk), {5, 5}, 0);
  }
  // closed forms: [[0, 1], [1, 0]] has eigenvalues -1, 1: s = (1, 1) and
  // the signs move into vh; diag(-3, 0, 2) gives s = (3, 2, 0)
  Arr x = from_vec<double>({0, 1, 1, 0}, {2, 2}, CN_FLOAT64), U, S, V;
  CN_REQUIRE_OK(cn_linalg_svd_ex(U.out(), S.out(), V.out(), x, 0, 1, 1));
  require_close(vals(S), {1, 1}, 1e-15);
  require_close(usv(vals(U), vals(S), vals(V), 0, 2), vals(x), 1e-15);
  Arr d = from_vec<double>({-3, 0, 0, 0, 0, 0, 0, 0, 2}, {3, 3}, CN_FLOAT64);
  Arr du, ds, dv;
  CN_REQUIRE_OK(cn_linalg_svd_ex(du.out(), ds.out(), dv.out(), d, 1, 1, 1));
  require_close(vals(ds), {3, 2, 0}, 1e-15);
  require_close(usv(vals(du), vals(ds), vals(dv), 0, 3), vals(d), 1e-15);
  // vh stays unitary with a zero eigenvalue (copysign, not sign)
  auto dvv = vals(dv);
  require_close(naive_mm(dvv, conjT(dvv, 3, 3), 3, 3, 3), eye(3), 1e-15);
  // the lower triangle is read: garbage above the diagonal is ignored
  Arr lo = from_vec<double>({2, 99, 1, 3}, {2, 2}, CN_FLOAT64), ls;
  CN_REQUIRE_OK(cn_linalg_svd_ex(nullptr, ls.out(), nullptr, lo, 0, 0, 1));
  require_close(vals(ls),
                {(5 + std::sqrt(5.0L)) / 2, (5 - std::sqrt(5.0L)) / 2}, 1e-14);
  // tol / rtol: diag(1, 1e-3, 1e-8) and its negation
  for (double sgn : {1.0, -1.0}) {
    Arr g = from_vec<double>({sgn, 0, 0, 0, sgn * 1e-3, 0, 0, 0, sgn * 1e-8},
                             {3, 3}, CN_FLOAT64);
    for (int32_t hm : {0, 1}) {
      Arr r0, r1, r2, r3;
      CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(r0.out(), g, -1, -1, hm));
      REQUIRE(vals(r0)[0] == cld(3));
      CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(r1.out(), g, -1, 1e-5, hm));
      REQUIRE(vals(r1)[0] == cld(2));
      CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(r2.out(), g, 1e-2, -1, hm));
      REQUIRE(vals(r2)[0] == cld(1));
      CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(r3.out(), g, -1, 2, hm));
      REQUIRE(vals(r3)[0] == cld(0));
    }
  }
  // empty matrices and empty stacks
  for (auto shape : std::vector<std::vector<int64_t>>{{0, 0}, {0, 3, 3}}) {
    Arr e = rand_arr(shape, CN_FLOAT64, 3), eu, es, ev, ep, er;
    CN_REQUIRE_OK(cn_linalg_svd_ex(eu.out(), es.out(), ev.out(), e, 1, 1, 1));
    REQUIRE(shape_of(eu) == shape);
    REQUIRE(shape_of(ev) == shape);
    auto ss = shape;
    ss.pop_back();
    REQUIRE(shape_of(es) == ss);
    CN_REQUIRE_OK(cn_linalg_pinv_ex(ep.out(), e, -1, 1));
    REQUIRE(shape_of(ep) == shape);
    CN_REQUIRE_OK(cn_linalg_matrix_rank_ex(er.out(), e, -1, -1, 1));
    ss.pop_back();
    REQUIRE(shape_of(er) == ss);
  }
  // errors leave the outputs untouched
  cn_array out = nullptr, o2 = nullptr, o3 = nullptr;
  Arr ns = rand_arr({3, 2}, CN_FLOAT64, 1);
  CN_REQUIRE_ERR(cn_linalg_svd_ex(&out, &o2, &o3, ns, 0, 1, 1), CN_ERR_VALUE,
                 "cn_linalg_svd_ex: argument 'a' of shape (3, 2): last 2 "
                 "dimensions must be square");
  CN_REQUIRE_ERR(cn_linalg_svd_ex(&out, &o2, nullptr, x, 0, 1, 1), CN_ERR_VALUE,
                 "compute_uv");
  CN_REQUIRE_ERR(cn_linalg_pinv_ex(&out, ns, -1, 1), CN_ERR_VALUE,
                 "cn_linalg_pinv_ex: argument 'a'");
  CN_REQUIRE_ERR(cn_linalg_pinv_ex(&out, x, NAN, 1), CN_ERR_VALUE,
                 "rcond is NaN");
  CN_REQUIRE_ERR(cn_linalg_matrix_rank_ex(&out, ns, -1, -1, 1), CN_ERR_VALUE,
                 "square");
  CN_REQUIRE_ERR(cn_linalg_matrix_rank_ex(&out, x, 1, 1, 0), CN_ERR_VALUE,
                 "cn_linalg_matrix_rank_ex: tol (1) and rtol (1) can't be "
                 "both set");
  CN_REQUIRE_ERR(cn_linalg_matrix_rank_ex(&out, x, -1, NAN, 0), CN_ERR_VALUE,
                 "rtol is NaN");
  CN_REQUIRE_ERR(cn_linalg_svd_ex(&out, &o2, &o3, nullptr, 0, 1, 1),
                 CN_ERR_VALUE, "'a' is NULL");
  REQUIRE(out == nullptr);
  REQUIRE(o2 == nullptr);
  REQUIRE(o3 == nullptr);
}

TEST_CASE("tensorinv and tensorsolve", "[linalg][tensor]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-3 : 1e-9;
    // a (2, 3, 6) with ind = 2 reads as a 6x6 matrix of a's flat values
    Arr a = good_square({6, 6}, dt, 93), a3, ai;
    int64_t s3[3] = {2, 3, 6};
    CN_REQUIRE_OK(cn_reshape(a3.out(), a, 3, s3, CN_ORDER_C));
    Snap sn(a3);
    CN_REQUIRE_OK(cn_linalg_tensorinv(ai.out(), a3, 2));
    sn.check();
    REQUIRE(shape_of(ai) == std::vector<int64_t>{6, 2, 3});
    require_close(naive_mm(vals(ai), vals(a), 6, 6, 6), eye(6), tol);
    // ind = 1 on (6, 2, 3): shape (2, 3, 6)
    Arr b3, bi;
    int64_t sb[3] = {6, 2, 3};
    CN_REQUIRE_OK(cn_reshape(b3.out(), a, 3, sb, CN_ORDER_C));
    CN_REQUIRE_OK(cn_linalg_tensorinv(bi.out(), b3, 1));
    REQUIRE(shape_of(bi) == std::vector<int64_t>{2, 3, 6});
    require_close(naive_mm(vals(a), vals(bi), 6, 6, 6), eye(6), tol);
    // tensorsolve: sum_k a[i, j, k] x[k] == b[i, j]
    Arr rhs = rand_arr({2, 3}, dt, 94), x;
    Snap sr(rhs);
    CN_REQUIRE_OK(cn_linalg_tensorsolve(x.out(), a3, rhs, 0, nullptr));
    sr.check();
    REQUIRE(shape_of(x) == std::vector<int64_t>{6});
    require_close(naive_mm(vals(a), vals(x), 6, 6, 1), vals(rhs), tol);
    // axes: a (6, 2, 3) with axes {0} moves axis 0 last, i.e. a3' (2,3,6)
    // with a3'[i, j, k] = b3[k, i, j]; as a matrix that is a^T
    Arr x2;
    int32_t ax0 = 0;
    CN_REQUIRE_OK(cn_linalg_tensorsolve(x2.out(), b3, rhs, 1, &ax0));
    REQUIRE(shape_of(x2) == std::vector<int64_t>{6});
    auto at = vals(a);
    std::vector<cld> aT(36);
    for (int i = 0; i < 6; i++)
      for (int j = 0; j < 6; j++)
        aT[j * 6 + i] = at[i * 6 + j];
    require_close(naive_mm(aT, vals(x2), 6, 6, 1), vals(rhs), tol);
  }
  // errors
  cn_array out = nullptr;
  Arr a = rand_arr({2, 3, 6}, CN_FLOAT64, 95),
      b = rand_arr({2, 3}, CN_FLOAT64, 96);
  Arr bad = rand_arr({2, 3, 4}, CN_FLOAT64, 97),
      b5 = rand_arr({5}, CN_FLOAT64, 1);
  Arr sing = from_vec<double>({1, 2, 2, 4}, {2, 2}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_linalg_tensorinv(&out, a, 0), CN_ERR_VALUE,
                 "invalid ind 0");
  CN_REQUIRE_ERR(cn_linalg_tensorinv(&out, bad, 2), CN_ERR_LINALG,
                 "cn_linalg_tensorinv: a of shape (2, 3, 4) with "
                 "ind=2 is not 'square'");
  CN_REQUIRE_ERR(cn_linalg_tensorinv(&out, sing, 1), CN_ERR_LINALG,
                 "Singular matrix");
  CN_REQUIRE_ERR(cn_linalg_tensorsolve(&out, bad, b, 0, nullptr),
                 CN_ERR_LINALG, "prod(a.shape[b.ndim:])");
  Arr a66 = rand_arr({6, 6}, CN_FLOAT64, 98);
  CN_REQUIRE_ERR(cn_linalg_tensorsolve(&out, a66, b5, 0, nullptr), CN_ERR_SHAPE,
                 "b of shape (5,) has 5 elements");
  int32_t oob = 3, rep[2] = {0, -3};
  CN_REQUIRE_ERR(cn_linalg_tensorsolve(&out, a, b, 1, &oob), CN_ERR_AXIS,
                 "axis 3 is out of bounds");
  CN_REQUIRE_ERR(cn_linalg_tensorsolve(&out, a, b, 2, rep), CN_ERR_VALUE,
                 "repeated axis -3");
  CN_REQUIRE_ERR(cn_linalg_tensorsolve(&out, b, a, 0, nullptr), CN_ERR_LINALG,
                 "needs more dimensions");
  REQUIRE(out == nullptr);
}

// The same matrices in C order, Fortran order, as a negative-stride view
// and as a strided slice: the drivers pack each layout differently (C order
// is solved as the transposed problem), results must not depend on it.
static std::vector<Arr> layouts(cn_array a) {
  std::vector<Arr> r;
  Arr c, f, fl, neg, big, sl;
  CN_REQUIRE_OK(cn_copy(c.out(), a, CN_ORDER_C));
  CN_REQUIRE_OK(cn_copy(f.out(), a, CN_ORDER_F));
  // reversed twice on the last axis: a view with a negative stride
  int32_t last = -1;
  CN_REQUIRE_OK(cn_flip(fl.out(), a, 1, &last));
  Arr flc;
  CN_REQUIRE_OK(cn_copy(flc.out(), fl, CN_ORDER_C));
  CN_REQUIRE_OK(cn_flip(neg.out(), flc, 1, &last));
  // every other column of a twice-wider matrix
  auto shape = shape_of(a);
  auto wide = shape;
  wide.back() *= 2;
  CN_REQUIRE_OK(cn_zeros(big.out(), (int32_t)wide.size(), wide.data(),
                         dtype_of(a), CN_ORDER_C));
  Arr dst;
  CN_REQUIRE_OK(cn_slice_axis(dst.out(), big, -1, 0, wide.back(), 2));
  CN_REQUIRE_OK(cn_assign(dst, a));
  r.push_back(std::move(c));
  r.push_back(std::move(f));
  r.push_back(std::move(neg));
  r.push_back(std::move(dst));
  return r;
}

TEST_CASE("decompositions do not depend on the input layout",
          "[linalg][layout]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO("dtype " << cn_dtype_name(dt));
    double tol = is_single(dt) ? 1e-3 : 1e-9;
    const int64_t n = 4;
    Arr g = good_square({2, n, n}, dt, 101), h = herm({2, n, n}, dt, 102);
    Arr rect = rand_arr({2, 5, 3}, dt, 103), rhs = rand_arr({2, n, 2}, dt, 104);
    Arr spd;
    {
      Arr t, tc, prod;
      CN_REQUIRE_OK(cn_swapaxes(t.out(), g, -1, -2));
      CN_REQUIRE_OK(cn_conj(tc.out(), t, nullptr));
      CN_REQUIRE_OK(cn_matmul(prod.out(), g, tc, nullptr));
      spd = std::move(prod);
    }
    auto gv = vals(g), hv = vals(h), sv = vals(spd), rv = vals(rect),
         bv = vals(rhs);
    std::vector<cld> ref_inv, ref_x, ref_w, ref_s, ref_l, ref_det;
    auto gl = layouts(g), hl = layouts(h), sl = layouts(spd),
         rl = layouts(rect);
    // 99s in the triangle the driver must not read (lower: above the
    // diagonal; upper: below)
    auto junk = [&](cn_array x, int upper) {
      Arr keep, j99, other, sum;
      CN_REQUIRE_OK(upper ? cn_triu(keep.out(), x, 0)
                          : cn_tril(keep.out(), x, 0));
      CN_REQUIRE_OK(cn_full_like(j99.out(), x, cn_scalar_float(99), dt));
      CN_REQUIRE_OK(upper ? cn_tril(other.out(), j99, -1)
                          : cn_triu(other.out(), j99, 1));
      CN_REQUIRE_OK(cn_add(sum.out(), keep, other, nullptr));
      return layouts(sum);
    };
    std::vector<Arr> hj[2] = {junk(h, 0), junk(h, 1)},
                     sj[2] = {junk(spd, 0), junk(spd, 1)};
    for (size_t li = 0; li < gl.size(); li++) {
      INFO("layout " << li);
      // inv and solve: g @ inv == I, g @ x == b
      Arr inv, x, det;
      CN_REQUIRE_OK(cn_linalg_inv(inv.out(), gl[li]));
      CN_REQUIRE_OK(cn_linalg_solve(x.out(), gl[li], rhs));
      CN_REQUIRE_OK(cn_linalg_det(det.out(), gl[li]));
      auto iv = vals(inv), xv = vals(x);
      for (int bi = 0; bi < 2; bi++) {
        auto G = slice_mat(gv, bi, n * n);
        require_close(naive_mm(G, slice_mat(iv, bi, n * n), n, n, n), eye(n),
                      tol);
        require_close(naive_mm(G, slice_mat(xv, bi, n * 2), n, n, 2),
                      slice_mat(bv, bi, n * 2), tol);
      }
      // cholesky, both triangles: L L^H == spd, U^H U == spd
      Arr L, U;
      CN_REQUIRE_OK(cn_linalg_cholesky(L.out(), sj[0][li], 0));
      CN_REQUIRE_OK(cn_linalg_cholesky(U.out(), sj[1][li], 1));
      auto lv = vals(L), uv = vals(U);
      for (int bi = 0; bi < 2; bi++) {
        auto Lb = slice_mat(lv, bi, n * n), Ub = slice_mat(uv, bi, n * n);
        for (int i = 0; i < n; i++)
          for (int j = i + 1; j < n; j++) {
            REQUIRE(Lb[i * n + j] == cld(0));
            REQUIRE(Ub[j * n + i] == cld(0));
          }
        require_close(naive_mm(Lb, conjT(Lb, n, n), n, n, n),
                      slice_mat(sv, bi, n * n), tol);
        require_close(naive_mm(conjT(Ub, n, n), Ub, n, n, n),
                      slice_mat(sv, bi, n * n), tol);
      }
      // eigh, both triangles: H V == V diag(w), V unitary
      for (int32_t upper : {0, 1}) {
        Arr w, v;
        CN_REQUIRE_OK(cn_linalg_eigh(w.out(), v.out(), hj[upper][li], upper));
        auto wv = vals(w), vv = vals(v);
        for (int bi = 0; bi < 2; bi++) {
          auto V = slice_mat(vv, bi, n * n);
          std::vector<cld> VW(V);
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
              VW[i * n + j] *= wv[bi * n + j];
          require_close(naive_mm(slice_mat(hv, bi, n * n), V, n, n, n), VW,
                        tol);
          require_close(naive_mm(conjT(V, n, n), V, n, n, n), eye(n), tol);
        }
        if (ref_w.empty())
          ref_w = wv;
        require_close(wv, ref_w, tol);
      }
      // svd of a tall stack, reduced and full
      for (int32_t full : {0, 1}) {
        Arr u, s, vh;
        CN_REQUIRE_OK(
            cn_linalg_svd(u.out(), s.out(), vh.out(), rl[li], full, 1));
        int64_t m = 5, k = 3, uc = full ? m : k;
        REQUIRE(shape_of(u) == std::vector<int64_t>{2, m, uc});
        REQUIRE(shape_of(vh) == std::vector<int64_t>{2, k, k});
        auto uvv = vals(u), svv = vals(s), vhv = vals(vh);
        for (int bi = 0; bi < 2; bi++) {
          auto Ub = slice_mat(uvv, bi, m * uc);
          auto us = naive_mm(Ub, eye(uc), m, uc, uc);
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < uc; j++)
              us[i * uc + j] *= j < k ? svv[bi * k + j] : cld(0);
          std::vector<cld> usk((size_t)(m * k));
          for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < k; j++)
              usk[i * k + j] = us[i * uc + j];
          require_close(naive_mm(usk, slice_mat(vhv, bi, k * k), m, k, k),
                        slice_mat(rv, bi, m * k), tol);
          require_close(naive_mm(conjT(Ub, m, uc), Ub, uc, m, uc), eye(uc),
                        tol);
        }
        if (ref_s.empty())
          ref_s = svv;
        require_close(svv, ref_s, tol);
      }
      if (ref_det.empty())
        ref_det = vals(det);
      require_close(vals(det), ref_det, tol);
    }
  }
}

// A matrix of dtype dt whose element (1, 1) is bad, the rest finite.
static Arr with_bad(cn_dtype dt, double bad, std::vector<int64_t> shape) {
  int64_t n = 1;
  for (auto e : shape)
    n *= e;
  std::vector<double> v((size_t)n);
  for (int64_t i = 0; i < n; i++)
    v[(size_t)i] = 1.0 + (double)i;
  v[(size_t)(shape[shape.size() - 1] + 1)] = bad;
  Arr d = from_vec(v, shape, CN_FLOAT64);
  Arr out;
  CN_REQUIRE_OK(cn_astype(out.out(), d, dt, 1));
  return out;
}

TEST_CASE("eig of a matrix holding inf or NaN is a linalg error",
          "[linalg][eig][nonfinite]") {
  for (cn_dtype dt : kFloatTypes)
    for (double bad : {(double)INFINITY, -(double)INFINITY, (double)NAN}) {
      INFO(cn_dtype_name(dt) << " " << bad);
      Arr a = with_bad(dt, bad, {2, 3, 3});
      auto before = vals(a);
      cn_array w = nullptr, v = nullptr;
      CN_REQUIRE_ERR(cn_linalg_eig(&w, &v, a), CN_ERR_LINALG,
                     "must not contain infs or NaNs");
      CN_REQUIRE_ERR(cn_linalg_eigvals(&w, a), CN_ERR_LINALG,
                     "must not contain infs or NaNs");
      REQUIRE(w == nullptr);
      auto after = vals(a);
      for (size_t i = 0; i < after.size(); i++) // untouched, NaN included
        REQUIRE((after[i] == before[i] ||
                 (std::isnan((double)after[i].real()) &&
                  std::isnan((double)before[i].real()))));
    }
}

TEST_CASE("SVD-based functions on NaN input fail to converge, on inf give NaN",
          "[linalg][svd][nonfinite]") {
  for (cn_dtype dt : kFloatTypes) {
    INFO(cn_dtype_name(dt));
    Arr a = with_bad(dt, NAN, {3, 2});
    cn_array u = nullptr, s = nullptr, vh = nullptr;
    CN_REQUIRE_ERR(cn_linalg_svd(&u, &s, &vh, a, 1, 1), CN_ERR_LINALG,
                   "SVD did not converge");
    CN_REQUIRE_ERR(cn_linalg_svd(nullptr, &s, nullptr, a, 0, 0),
                   CN_ERR_LINALG, "SVD did not converge");
    int32_t axes[2] = {-2, -1};
    CN_REQUIRE_ERR(cn_linalg_norm(&s, a, CN_NORM_P, 2, 2, axes, 0),
                   CN_ERR_LINALG, "SVD did not converge");
    // inf (no NaN): singular values are NaN, as LAPACK and NumPy give them
    Arr ai = with_bad(dt, INFINITY, {3, 2});
    Arr si;
    CN_REQUIRE_OK(cn_linalg_svd(nullptr, si.out(), nullptr, ai, 0, 0));
    for (auto &x : vals(si))
      REQUIRE(std::isnan((double)x.real()));
  }
}

TEST_CASE("lstsq with a non-finite operand is a linalg error",
          "[linalg][lstsq][nonfinite]") {
  for (double bad : {(double)INFINITY, (double)NAN}) {
    Arr a = with_bad(CN_FLOAT64, bad, {3, 2});
    Arr b = rand_arr({3}, CN_FLOAT64, 5);
    cn_array x = nullptr, r = nullptr, rk = nullptr, sv = nullptr;
    CN_REQUIRE_ERR(cn_linalg_lstsq(&x, &r, &rk, &sv, a, b, -1.0),
                   CN_ERR_LINALG, "SVD did not converge in Linear Least");
    Arr a2 = rand_arr({3, 2}, CN_FLOAT64, 6);
    Arr b2 = with_bad(CN_FLOAT64, bad, {3, 2});
    CN_REQUIRE_ERR(cn_linalg_lstsq(&x, &r, &rk, &sv, a2, b2, -1.0),
                   CN_ERR_LINALG, "SVD did not converge in Linear Least");
  }
}

TEST_CASE("slogdet and det keep the sign of an infinite real pivot; cond of "
          "inf input is inf",
          "[linalg][det][nonfinite]") {
  // [[1, 2], [3, inf]]: NumPy gives sign 1, logabsdet inf, det inf
  std::vector<double> v = {1, 2, 3, INFINITY};
  for (cn_dtype dt : {CN_FLOAT32, CN_FLOAT64}) {
    Arr d = from_vec(v, {2, 2}, CN_FLOAT64), a;
    CN_REQUIRE_OK(cn_astype(a.out(), d, dt, 1));
    Arr sg, ld, det, c;
    CN_REQUIRE_OK(cn_linalg_slogdet(sg.out(), ld.out(), a));
    REQUIRE(vals(sg)[0].real() == 1);
    REQUIRE(vals(ld)[0].real() == INFINITY);
    CN_REQUIRE_OK(cn_linalg_det(det.out(), a));
    REQUIRE(vals(det)[0].real() == INFINITY);
    CN_REQUIRE_OK(cn_linalg_cond(c.out(), a, CN_NORM_DEFAULT, 0));
    REQUIRE(vals(c)[0].real() == INFINITY);
  }
  std::vector<double> vn = {1, 2, 3, NAN};
  Arr an = from_vec(vn, {2, 2}, CN_FLOAT64), c1;
  CN_REQUIRE_OK(cn_linalg_cond(c1.out(), an, CN_NORM_P, 1));
  REQUIRE(std::isnan((double)vals(c1)[0].real()));
  CN_REQUIRE_ERR(cn_linalg_cond(nullptr, an, CN_NORM_P, 1), CN_ERR_VALUE,
                 "NULL");
}

TEST_CASE("norms of empty matrices follow NumPy", "[linalg][norm][empty]") {
  int32_t axes[2] = {0, 1};
  for (auto shape : {std::vector<int64_t>{0, 0}, std::vector<int64_t>{0, 3}}) {
    Arr z = rand_arr(shape, CN_FLOAT64, 1);
    for (double p : {2.0, 1.0, (double)INFINITY}) {
      INFO(shape[1] << " ord " << p);
      Arr r;
      CN_REQUIRE_OK(cn_linalg_norm(r.out(), z, CN_NORM_P, p, 2, axes, 0));
      REQUIRE(vals(r)[0].real() == 0);
    }
    Arr nuc;
    CN_REQUIRE_OK(cn_linalg_norm(nuc.out(), z, CN_NORM_NUC, 0, 2, axes, 0));
    REQUIRE(vals(nuc)[0].real() == 0);
    cn_array bad = nullptr;
    CN_REQUIRE_ERR(cn_linalg_norm(&bad, z, CN_NORM_P, -2, 2, axes, 0),
                   CN_ERR_VALUE, "zero-size");
  }
}
