// Sparse matrices (cunumpy/sparse.h): construction and validation, every
// error path, conversions and canonical form, and products, checked against
// a naive dense oracle (long double / plain loops) built from the same
// triplets.
#include "testutil.hpp"

#include <complex>
#include <random>

namespace {

struct Sp {
  cn_sparse h = nullptr;
  Sp() = default;
  Sp(const Sp &) = delete;
  Sp &operator=(const Sp &) = delete;
  ~Sp() { cn_sparse_release(h); }
  cn_sparse *out() {
    cn_sparse_release(h);
    h = nullptr;
    return &h;
  }
  operator cn_sparse() const { return h; }
};

template <class I> cn_dtype idt() {
  return sizeof(I) == 8 ? CN_INT64 : CN_INT32;
}

std::vector<double> dense_of(const Sp &s) {
  Arr d;
  CN_REQUIRE_OK(cn_sparse_toarray(d.out(), s));
  Arr f;
  CN_REQUIRE_OK(cn_astype(f.out(), d, CN_FLOAT64, 1));
  return to_vec<double>(f);
}

// Dense oracle of triplets (duplicates summed).
std::vector<double> dense_of_triplets(int64_t m, int64_t n,
                                      const std::vector<double> &v,
                                      const std::vector<int64_t> &r,
                                      const std::vector<int64_t> &c) {
  std::vector<double> d((size_t)(m * n), 0.0);
  for (size_t k = 0; k < v.size(); k++)
    d[(size_t)(r[k] * n + c[k])] += v[k];
  return d;
}

struct Triplets {
  int64_t m, n;
  std::vector<double> v;
  std::vector<int64_t> r, c;
};

// Random triplets with duplicates, unsorted, and explicit zeros.
Triplets random_triplets(int64_t m, int64_t n, int64_t nnz, unsigned seed) {
  std::mt19937 g(seed);
  Triplets t{m, n, {}, {}, {}};
  for (int64_t k = 0; k < nnz; k++) {
    t.r.push_back((int64_t)(g() % (unsigned)m));
    t.c.push_back((int64_t)(g() % (unsigned)n));
    t.v.push_back(k % 7 == 3 ? 0.0 : (double)((int)(g() % 19) - 9));
  }
  return t;
}

template <class I> std::vector<I> narrow(const std::vector<int64_t> &x) {
  return std::vector<I>(x.begin(), x.end());
}

template <class I>
void make_coo(Sp &s, const Triplets &t, cn_dtype dt = CN_FLOAT64) {
  Arr v0 = from_vec(t.v, {(int64_t)t.v.size()}, CN_FLOAT64);
  Arr v;
  CN_REQUIRE_OK(cn_astype(v.out(), v0, dt, 1));
  Arr r = from_vec(narrow<I>(t.r), {(int64_t)t.r.size()}, idt<I>());
  Arr c = from_vec(narrow<I>(t.c), {(int64_t)t.c.size()}, idt<I>());
  CN_REQUIRE_OK(cn_sparse_coo(s.out(), t.m, t.n, v, r, c, 0));
}

// The row-major CSR arrays of triplets in input order within rows.
template <class I>
void make_csr(Sp &s, const Triplets &t, int32_t base = 0) {
  std::vector<I> ptr((size_t)t.m + 1, 0), ix(t.v.size());
  std::vector<double> v(t.v.size());
  for (auto r : t.r)
    ptr[(size_t)r + 1]++;
  for (int64_t i = 0; i < t.m; i++)
    ptr[(size_t)i + 1] += ptr[(size_t)i];
  std::vector<I> pos(ptr.begin(), ptr.end() - 1);
  for (size_t k = 0; k < t.v.size(); k++) {
    I d = pos[(size_t)t.r[k]]++;
    ix[(size_t)d] = (I)t.c[k];
    v[(size_t)d] = t.v[k];
  }
  for (auto &p : ptr)
    p = (I)(p + base);
  for (auto &i : ix)
    i = (I)(i + base);
  Arr dv = from_vec(v, {(int64_t)v.size()}, CN_FLOAT64);
  Arr di = from_vec(ix, {(int64_t)ix.size()}, idt<I>());
  Arr dp = from_vec(ptr, {(int64_t)ptr.size()}, idt<I>());
  CN_REQUIRE_OK(cn_sparse_compressed(s.out(), CN_SPARSE_CSR, t.m, t.n, dv, di,
                                     dp, base));
}

int64_t nnz_of(cn_sparse s) {
  int64_t n = -1;
  CN_REQUIRE_OK(cn_sparse_nnz(&n, s));
  return n;
}
int32_t fmt_of(cn_sparse s) {
  int32_t f = -1;
  CN_REQUIRE_OK(cn_sparse_get_format(&f, s));
  return f;
}

} // namespace

TEMPLATE_TEST_CASE("sparse: triplets, conversions and canonical form",
                   "[sparse]", int32_t, int64_t) {
  Triplets t = random_triplets(7, 5, 40, 3);
  std::vector<double> ref = dense_of_triplets(7, 5, t.v, t.r, t.c);
  Sp coo, csr;
  make_coo<TestType>(coo, t);
  make_csr<TestType>(csr, t);
  cn_dtype it;
  CN_REQUIRE_OK(cn_sparse_index_dtype(&it, coo));
  REQUIRE(it == idt<TestType>());
  REQUIRE(dense_of(coo) == ref);
  REQUIRE(dense_of(csr) == ref);
  int32_t canon = 1, sorted = 1;
  CN_REQUIRE_OK(cn_sparse_has_canonical_format(&canon, csr));
  CN_REQUIRE_OK(cn_sparse_has_sorted_indices(&sorted, csr));
  REQUIRE(canon == 0);
  REQUIRE(sorted == 0);

  for (int32_t f : {CN_SPARSE_CSR, CN_SPARSE_CSC, CN_SPARSE_COO}) {
    Sp a, b, c;
    CN_REQUIRE_OK(cn_sparse_asformat(a.out(), coo, (cn_sparse_format)f));
    CN_REQUIRE_OK(cn_sparse_asformat(b.out(), csr, (cn_sparse_format)f));
    REQUIRE(fmt_of(a) == f);
    REQUIRE(dense_of(a) == ref);
    REQUIRE(dense_of(b) == ref);
    // round trips through every other format keep the values
    for (int32_t g : {CN_SPARSE_CSR, CN_SPARSE_CSC, CN_SPARSE_COO}) {
      CN_REQUIRE_OK(cn_sparse_asformat(c.out(), b, (cn_sparse_format)g));
      REQUIRE(dense_of(c) == ref);
    }
  }
  // COO -> CSR sums duplicates and sorts (scipy's tocsr)
  Sp viaco;
  CN_REQUIRE_OK(cn_sparse_asformat(viaco.out(), coo, CN_SPARSE_CSR));
  CN_REQUIRE_OK(cn_sparse_has_canonical_format(&canon, viaco));
  REQUIRE(canon == 1);
  int64_t distinct = 0;
  for (size_t i = 0; i < ref.size(); i++) {
    bool seen = false;
    for (size_t k = 0; k < t.v.size(); k++)
      seen = seen || (size_t)(t.r[k] * 5 + t.c[k]) == i;
    distinct += seen;
  }
  REQUIRE(nnz_of(viaco) == distinct);

  // sort_indices keeps duplicates; sum_duplicates merges; the indices of
  // every row come out strictly increasing
  Sp srt, sum, nz;
  CN_REQUIRE_OK(cn_sparse_sort_indices(srt.out(), csr));
  REQUIRE(nnz_of(srt) == 40);
  CN_REQUIRE_OK(cn_sparse_has_sorted_indices(&sorted, srt));
  REQUIRE(sorted == 1);
  REQUIRE(dense_of(srt) == ref);
  CN_REQUIRE_OK(cn_sparse_sum_duplicates(sum.out(), csr));
  REQUIRE(nnz_of(sum) == distinct);
  REQUIRE(dense_of(sum) == ref);
  Arr ip, ix;
  CN_REQUIRE_OK(cn_sparse_indptr(ip.out(), sum));
  CN_REQUIRE_OK(cn_sparse_indices(ix.out(), sum));
  auto p = to_vec<TestType>(ip);
  auto x = to_vec<TestType>(ix);
  for (int64_t r = 0; r < 7; r++)
    for (TestType j = p[(size_t)r] + 1; j < p[(size_t)r + 1]; j++)
      REQUIRE(x[(size_t)j - 1] < x[(size_t)j]);
  // the index arrays handed out are read-only
  int32_t flags = 0;
  CN_REQUIRE_OK(cn_array_flags(&flags, ix));
  REQUIRE((flags & CN_FLAG_WRITEABLE) == 0);

  // eliminate_zeros drops every stored zero (cancellations included)
  CN_REQUIRE_OK(cn_sparse_eliminate_zeros(nz.out(), sum));
  int64_t nonzero = 0;
  for (double d : ref)
    nonzero += d != 0.0;
  REQUIRE(nnz_of(nz) == nonzero);
  REQUIRE(dense_of(nz) == ref);

  // COO sum_duplicates stays COO, canonical (row-major)
  Sp cs;
  CN_REQUIRE_OK(cn_sparse_sum_duplicates(cs.out(), coo));
  REQUIRE(fmt_of(cs) == CN_SPARSE_COO);
  REQUIRE(nnz_of(cs) == distinct);
  REQUIRE(dense_of(cs) == ref);
  Sp cso;
  CN_REQUIRE_OK(cn_sparse_sort_indices(cso.out(), coo));
  REQUIRE(nnz_of(cso) == 40);
  Arr rr;
  CN_REQUIRE_OK(cn_sparse_row(rr.out(), cso));
  auto rows = to_vec<TestType>(rr);
  REQUIRE(std::is_sorted(rows.begin(), rows.end()));

  // transpose
  for (cn_sparse s : {coo.h, csr.h}) {
    Sp tr;
    CN_REQUIRE_OK(cn_sparse_transpose(tr.out(), s));
    auto d = dense_of(tr);
    for (int i = 0; i < 7; i++)
      for (int j = 0; j < 5; j++)
        REQUIRE(d[(size_t)(j * 7 + i)] == ref[(size_t)(i * 5 + j)]);
  }
}

TEST_CASE("sparse: borrowing, Fortran base, dense input", "[sparse]") {
  std::vector<int32_t> ptr{0, 2, 2, 3}, ix{1, 0, 2};
  std::vector<double> v{1.5, -2.0, 3.0};
  Arr dv = from_vec(v, {3}, CN_FLOAT64), di = from_vec(ix, {3}, CN_INT32),
      dp = from_vec(ptr, {4}, CN_INT32);
  Sp s;
  CN_REQUIRE_OK(
      cn_sparse_compressed(s.out(), CN_SPARSE_CSR, 3, 3, dv, di, dp, 0));
  Arr got;
  CN_REQUIRE_OK(cn_sparse_data(got.out(), s));
  int32_t same = 0;
  CN_REQUIRE_OK(cn_array_shares_buffer(&same, got, dv));
  REQUIRE(same == 1); // borrowed, not copied
  CN_REQUIRE_OK(cn_sparse_indices(got.out(), s));
  CN_REQUIRE_OK(cn_array_shares_buffer(&same, got, di));
  REQUIRE(same == 1);
  REQUIRE(dense_of(s) ==
          std::vector<double>{-2, 1.5, 0, 0, 0, 0, 0, 0, 3});

  // base 1 (Fortran): the same matrix, indices copied
  std::vector<int64_t> ptr1{1, 3, 3, 4}, ix1{2, 1, 3};
  Arr di1 = from_vec(ix1, {3}, CN_INT64), dp1 = from_vec(ptr1, {4}, CN_INT64);
  Sp s1;
  CN_REQUIRE_OK(
      cn_sparse_compressed(s1.out(), CN_SPARSE_CSR, 3, 3, dv, di1, dp1, 1));
  REQUIRE(dense_of(s1) == dense_of(s));
  REQUIRE(to_vec<int64_t>(di1) == ix1); // caller's array untouched

  // CSC of the same arrays is the transpose
  Sp sc;
  CN_REQUIRE_OK(
      cn_sparse_compressed(sc.out(), CN_SPARSE_CSC, 3, 3, dv, di, dp, 0));
  REQUIRE(dense_of(sc) ==
          std::vector<double>{-2, 0, 0, 1.5, 0, 0, 0, 0, 3});

  // from_dense of a strided (transposed, negative-stride) view, -0.0 is zero
  std::vector<double> dense{0, 1, -0.0, 2, 0, 0, 3, 0, 4, 0, 0, 5};
  Arr d = from_vec(dense, {3, 4}, CN_FLOAT64);
  for (int32_t f : {CN_SPARSE_CSR, CN_SPARSE_CSC, CN_SPARSE_COO}) {
    Sp a;
    CN_REQUIRE_OK(cn_sparse_from_dense(a.out(), d, (cn_sparse_format)f));
    REQUIRE(nnz_of(a) == 5);
    auto back = dense_of(a);
    for (size_t i = 0; i < dense.size(); i++)
      REQUIRE(back[i] == dense[i]);
  }
  // a transposed view with negative strides: element (i, j) is
  // dense[(2 - j) * 4 + (3 - i)]
  Arr tr, flipped;
  CN_REQUIRE_OK(cn_transpose(tr.out(), d));
  int32_t both[2] = {0, 1};
  CN_REQUIRE_OK(cn_flip(flipped.out(), tr, 2, both));
  for (int32_t f : {CN_SPARSE_CSR, CN_SPARSE_CSC}) {
    Sp ft;
    CN_REQUIRE_OK(cn_sparse_from_dense(ft.out(), flipped, (cn_sparse_format)f));
    auto fb = dense_of(ft);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 3; j++)
        REQUIRE(fb[(size_t)(i * 3 + j)] == dense[(size_t)((2 - j) * 4 + 3 - i)]);
  }

  // empty and 0-nnz matrices
  Arr z = from_vec(std::vector<double>{}, {0}, CN_FLOAT64);
  Arr zi = from_vec(std::vector<int32_t>{}, {0}, CN_INT32);
  Arr zp = from_vec(std::vector<int32_t>{0, 0, 0}, {3}, CN_INT32);
  Sp e;
  CN_REQUIRE_OK(cn_sparse_compressed(e.out(), CN_SPARSE_CSR, 2, 4, z, zi, zp, 0));
  REQUIRE(dense_of(e) == std::vector<double>(8, 0.0));
  for (int32_t f : {CN_SPARSE_CSR, CN_SPARSE_CSC, CN_SPARSE_COO}) {
    Sp a, b;
    CN_REQUIRE_OK(cn_sparse_asformat(a.out(), e, (cn_sparse_format)f));
    CN_REQUIRE_OK(cn_sparse_sum_duplicates(b.out(), a));
    REQUIRE(nnz_of(b) == 0);
  }
  Arr zp0 = from_vec(std::vector<int32_t>{0}, {1}, CN_INT32);
  Sp e0;
  CN_REQUIRE_OK(
      cn_sparse_compressed(e0.out(), CN_SPARSE_CSR, 0, 0, z, zi, zp0, 0));
  Arr ed;
  CN_REQUIRE_OK(cn_sparse_toarray(ed.out(), e0));
  REQUIRE(shape_of(ed) == std::vector<int64_t>{0, 0});
}

TEST_CASE("sparse: every validation error, inputs untouched", "[sparse]") {
  std::vector<int32_t> ptr{0, 2, 3}, ix{0, 2, 1};
  std::vector<double> v{1, 2, 3};
  Arr dv = from_vec(v, {3}, CN_FLOAT64), di = from_vec(ix, {3}, CN_INT32),
      dp = from_vec(ptr, {3}, CN_INT32);
  Sp s;
  const cn_sparse_format R = CN_SPARSE_CSR;
  CN_REQUIRE_ERR(cn_sparse_compressed(nullptr, R, 2, 3, dv, di, dp, 0),
                 CN_ERR_VALUE, "output pointer");
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), CN_SPARSE_COO, 2, 3, dv, di, dp, 0),
                 CN_ERR_VALUE, "CSR or CSC");
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, -1, 3, dv, di, dp, 0),
                 CN_ERR_VALUE, ">= 0");
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, di, dp, 2),
                 CN_ERR_VALUE, "index_base");
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, nullptr, di, dp, 0),
                 CN_ERR_VALUE, "'data' is NULL");
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 3, 3, dv, di, dp, 0),
                 CN_ERR_VALUE, "indptr has length 3, expected 4");
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 2, dv, di, dp, 0),
                 CN_ERR_VALUE, "out of range");
  Arr d2 = from_vec(std::vector<double>{1, 2}, {2}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, d2, di, dp, 0),
                 CN_ERR_VALUE, "differ in length");
  Arr fi = from_vec(std::vector<double>{0, 2, 1}, {3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, fi, dp, 0),
                 CN_ERR_TYPE, "integer dtype");
  Arr m2 = from_vec(v, {1, 3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, m2, di, dp, 0),
                 CN_ERR_SHAPE, "must be 1-d");
  Arr bad0 = from_vec(std::vector<int32_t>{1, 2, 3}, {3}, CN_INT32);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, di, bad0, 0),
                 CN_ERR_VALUE, "must start at 0");
  Arr dec = from_vec(std::vector<int32_t>{0, 3, 2}, {3}, CN_INT32);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, di, dec, 0),
                 CN_ERR_VALUE, "decreases");
  Arr past = from_vec(std::vector<int32_t>{0, 4, 4}, {3}, CN_INT32);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, di, past, 0),
                 CN_ERR_VALUE, "past the 3 stored");
  Arr shortend = from_vec(std::vector<int32_t>{0, 1, 2}, {3}, CN_INT32);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, di, shortend, 0),
                 CN_ERR_VALUE, "ends at 2");
  Arr neg = from_vec(std::vector<int32_t>{0, -1, 1}, {3}, CN_INT32);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, neg, dp, 0),
                 CN_ERR_VALUE, "indices[1] = -1");
  // base 1: zero is below the base
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, di, dp, 1),
                 CN_ERR_VALUE, "must start at 1");
  Arr huge = from_vec(std::vector<uint64_t>{0, UINT64_MAX, 1}, {3}, CN_UINT64);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, huge, dp, 0),
                 CN_ERR_VALUE, "too large");
  Arr big = from_vec(std::vector<int64_t>{0, (int64_t)1 << 40, 1}, {3},
                     CN_INT64);
  CN_REQUIRE_ERR(cn_sparse_compressed(s.out(), R, 2, 3, dv, big, dp, 0),
                 CN_ERR_VALUE, "out of range");
  REQUIRE(s.h == nullptr);
  REQUIRE(to_vec<int32_t>(dp) == ptr);
  REQUIRE(to_vec<int32_t>(di) == ix);

  // COO
  Arr r = from_vec(std::vector<int64_t>{0, 1, 1}, {3}, CN_INT64);
  Arr c = from_vec(std::vector<int64_t>{2, 0, 3}, {3}, CN_INT64);
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 2, 3, dv, r, c, 0), CN_ERR_VALUE,
                 "col[2] = 3 is out of range [0, 3)");
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 1, 4, dv, r, c, 0), CN_ERR_VALUE,
                 "row[1] = 1");
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 2, 4, d2, r, c, 0), CN_ERR_VALUE,
                 "differ in length");
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 2, 4, dv, r, c, 1), CN_ERR_VALUE,
                 "row[0] = 0 is out of range [1, 3)");
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 2, 4, dv, r, c, 5), CN_ERR_VALUE,
                 "index_base");
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 2, -4, dv, r, c, 0), CN_ERR_VALUE,
                 ">= 0");
  CN_REQUIRE_ERR(cn_sparse_coo(s.out(), 2, 4, dv, r, fi, 0), CN_ERR_TYPE,
                 "integer");
  CN_REQUIRE_OK(cn_sparse_coo(s.out(), 2, 4, dv, r, c, 0));

  // from_dense, handles and products
  Sp o;
  CN_REQUIRE_ERR(cn_sparse_from_dense(o.out(), dv, CN_SPARSE_CSR),
                 CN_ERR_SHAPE, "2-d");
  CN_REQUIRE_ERR(cn_sparse_from_dense(o.out(), m2, (cn_sparse_format)9),
                 CN_ERR_VALUE, "unknown format");
  CN_REQUIRE_ERR(cn_sparse_asformat(o.out(), s, (cn_sparse_format)9),
                 CN_ERR_VALUE, "unknown format");
  CN_REQUIRE_ERR(cn_sparse_asformat(o.out(), nullptr, CN_SPARSE_CSR),
                 CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_sparse_astype(o.out(), s, (cn_dtype)12345), CN_ERR_TYPE,
                 "invalid dtype");
  Arr got;
  CN_REQUIRE_ERR(cn_sparse_indptr(got.out(), s), CN_ERR_VALUE,
                 "a coo matrix has no indptr");
  Sp csr;
  CN_REQUIRE_OK(cn_sparse_asformat(csr.out(), s, CN_SPARSE_CSR));
  CN_REQUIRE_ERR(cn_sparse_row(got.out(), csr), CN_ERR_VALUE, "no row");
  Arr x3 = from_vec(std::vector<double>{1, 2, 3}, {3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_matmul_dense(got.out(), s, x3), CN_ERR_SHAPE,
                 "dimension mismatch");
  CN_REQUIRE_ERR(cn_dense_matmul_sparse(got.out(), x3, s), CN_ERR_SHAPE,
                 "dimension mismatch");
  Arr x3d;
  int64_t sh3[3] = {4, 1, 1};
  CN_REQUIRE_OK(cn_zeros(x3d.out(), 3, sh3, CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_ERR(cn_sparse_matmul_dense(got.out(), s, x3d), CN_ERR_SHAPE,
                 "1-d or 2-d");
  CN_REQUIRE_ERR(cn_sparse_matmul(o.out(), s, s), CN_ERR_SHAPE,
                 "dimension mismatch");
  // released handles are refused
  cn_sparse dead = nullptr;
  CN_REQUIRE_OK(cn_sparse_copy(&dead, s));
  cn_sparse_release(dead);
  cn_sparse_release(nullptr);
  CN_REQUIRE_ERR(cn_sparse_retain(nullptr), CN_ERR_VALUE, "NULL");
  int64_t n = 0;
  CN_REQUIRE_ERR(cn_sparse_nnz(nullptr, s), CN_ERR_VALUE, "output pointer");
  CN_REQUIRE_OK(cn_sparse_nnz(&n, s));
  REQUIRE(n == 3);
}

namespace {
template <class T> T val(int k) { return (T)((k % 5) - 2); }
template <> bool val<bool>(int k) { return k % 3 != 0; }
} // namespace

TEMPLATE_TEST_CASE("sparse: products vs a dense oracle", "[sparse]", int32_t,
                   int64_t) {
  Triplets t = random_triplets(30, 20, 150, 11);
  Sp a;
  make_csr<TestType>(a, t);
  auto A = dense_of_triplets(30, 20, t.v, t.r, t.c);
  // x: 20 x 3, read through a transposed, strided view
  std::vector<double> xs(60);
  for (int i = 0; i < 60; i++)
    xs[(size_t)i] = (double)((i * 7) % 11) - 5.0;
  Arr xb = from_vec(xs, {3, 20}, CN_FLOAT64);
  Arr x;
  CN_REQUIRE_OK(cn_transpose(x.out(), xb)); // x[i][c] = xs[c*20 + i]
  for (int32_t f : {CN_SPARSE_CSR, CN_SPARSE_CSC, CN_SPARSE_COO}) {
    Sp af;
    CN_REQUIRE_OK(cn_sparse_asformat(af.out(), a, (cn_sparse_format)f));
    Arr y;
    CN_REQUIRE_OK(cn_sparse_matmul_dense(y.out(), af, x));
    REQUIRE(shape_of(y) == std::vector<int64_t>{30, 3});
    auto yv = to_vec<double>(y);
    for (int i = 0; i < 30; i++)
      for (int c = 0; c < 3; c++) {
        long double acc = 0;
        for (int j = 0; j < 20; j++)
          acc += (long double)A[(size_t)(i * 20 + j)] * xs[(size_t)(c * 20 + j)];
        REQUIRE(yv[(size_t)(i * 3 + c)] == (double)acc);
      }
    // SpMV with a negative-stride vector
    Arr col;
    CN_REQUIRE_OK(cn_fliplr(col.out(), xb));
    Arr v1;
    CN_REQUIRE_OK(cn_index_axis(v1.out(), col, 0, 1));
    Arr yv1;
    CN_REQUIRE_OK(cn_sparse_matmul_dense(yv1.out(), af, v1));
    auto got = to_vec<double>(yv1);
    auto vv = to_vec<double>(v1);
    for (int i = 0; i < 30; i++) {
      long double acc = 0;
      for (int j = 0; j < 20; j++)
        acc += (long double)A[(size_t)(i * 20 + j)] * vv[(size_t)j];
      REQUIRE(got[(size_t)i] == (double)acc);
    }
    // dense @ sparse: (3 x 30) @ (30 x 20)
    std::vector<double> ws(90);
    for (int i = 0; i < 90; i++)
      ws[(size_t)i] = (double)((i * 5) % 7) - 3.0;
    Arr w = from_vec(ws, {3, 30}, CN_FLOAT64);
    Arr z;
    CN_REQUIRE_OK(cn_dense_matmul_sparse(z.out(), w, af));
    REQUIRE(shape_of(z) == std::vector<int64_t>{3, 20});
    auto zv = to_vec<double>(z);
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 20; j++) {
        long double acc = 0;
        for (int i = 0; i < 30; i++)
          acc += (long double)ws[(size_t)(r * 30 + i)] * A[(size_t)(i * 20 + j)];
        REQUIRE(zv[(size_t)(r * 20 + j)] == (double)acc);
      }
  }
  // SpGEMM: A @ B with B = 20 x 25
  Triplets tb = random_triplets(20, 25, 90, 5);
  auto B = dense_of_triplets(20, 25, tb.v, tb.r, tb.c);
  Sp b;
  make_coo<TestType>(b, tb);
  Sp c;
  CN_REQUIRE_OK(cn_sparse_matmul(c.out(), a, b));
  int32_t canon = 0;
  CN_REQUIRE_OK(cn_sparse_has_canonical_format(&canon, c));
  REQUIRE(canon == 1);
  auto C = dense_of(c);
  for (int i = 0; i < 30; i++)
    for (int j = 0; j < 25; j++) {
      long double acc = 0;
      for (int k = 0; k < 20; k++)
        acc += (long double)A[(size_t)(i * 20 + k)] * B[(size_t)(k * 25 + j)];
      REQUIRE(C[(size_t)(i * 25 + j)] == (double)acc);
    }
  // empty products
  Sp e;
  Triplets te{0, 20, {}, {}, {}};
  make_coo<TestType>(e, te);
  Sp ce;
  CN_REQUIRE_OK(cn_sparse_matmul(ce.out(), e, b));
  REQUIRE(nnz_of(ce) == 0);
  int64_t nr = -1;
  CN_REQUIRE_OK(cn_sparse_nrows(&nr, ce));
  REQUIRE(nr == 0);
}

TEMPLATE_TEST_CASE("sparse: every value dtype", "[sparse]", bool, int8_t,
                   int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                   uint64_t, float, double, std::complex<float>,
                   std::complex<double>) {
  using T = TestType;
  constexpr bool B = std::is_same<T, bool>::value;
  // storage type (std::vector<bool> has no data())
  using S = typename std::conditional<B, uint8_t, T>::type;
  cn_dtype dt = std::is_same<T, bool>::value        ? CN_BOOL
                : std::is_same<T, int8_t>::value    ? CN_INT8
                : std::is_same<T, int16_t>::value   ? CN_INT16
                : std::is_same<T, int32_t>::value   ? CN_INT32
                : std::is_same<T, int64_t>::value   ? CN_INT64
                : std::is_same<T, uint8_t>::value   ? CN_UINT8
                : std::is_same<T, uint16_t>::value  ? CN_UINT16
                : std::is_same<T, uint32_t>::value  ? CN_UINT32
                : std::is_same<T, uint64_t>::value  ? CN_UINT64
                : std::is_same<T, float>::value     ? CN_FLOAT32
                : std::is_same<T, double>::value    ? CN_FLOAT64
                : std::is_same<T, std::complex<float>>::value ? CN_COMPLEX64
                                                              : CN_COMPLEX128;
  // 4 x 3 with a duplicate at (1, 2) and an explicit zero
  std::vector<S> v{(S)val<T>(1), (S)val<T>(3), (S)val<T>(4), (S)val<T>(2), S(0)};
  std::vector<int32_t> r{1, 0, 1, 3, 2}, c{2, 1, 2, 0, 0};
  Arr dv = from_vec(v, {5}, dt), dr = from_vec(r, {5}, CN_INT32),
      dc = from_vec(c, {5}, CN_INT32);
  Sp s;
  CN_REQUIRE_OK(cn_sparse_coo(s.out(), 4, 3, dv, dr, dc, 0));
  std::vector<S> ref(12, S(0));
  for (size_t k = 0; k < 5; k++) {
    S &e = ref[(size_t)(r[k] * 3 + c[k])];
    if constexpr (B)
      e = e || v[k];
    else
      e = (S)(e + v[k]);
  }
  Arr d;
  CN_REQUIRE_OK(cn_sparse_toarray(d.out(), s));
  REQUIRE(to_vec<S>(d) == ref);
  Sp csr, nz;
  CN_REQUIRE_OK(cn_sparse_asformat(csr.out(), s, CN_SPARSE_CSR));
  REQUIRE(nnz_of(csr) == 4);
  CN_REQUIRE_OK(cn_sparse_eliminate_zeros(nz.out(), csr));
  int64_t nonzero = 0;
  for (auto e : ref)
    nonzero += e != S(0);
  REQUIRE(nnz_of(nz) == nonzero);
  // SpMV in the dtype: x = ones
  std::vector<S> ones(3, S(1));
  Arr x = from_vec(ones, {3}, dt);
  Arr y;
  CN_REQUIRE_OK(cn_sparse_matmul_dense(y.out(), csr, x));
  cn_dtype ydt;
  CN_REQUIRE_OK(cn_array_dtype(&ydt, y));
  REQUIRE(ydt == dt);
  auto yv = to_vec<S>(y);
  for (int i = 0; i < 4; i++) {
    S acc = S(0);
    for (int j = 0; j < 3; j++) {
      if constexpr (B)
        acc = acc || ref[(size_t)(i * 3 + j)];
      else
        acc = (S)(acc + ref[(size_t)(i * 3 + j)]);
    }
    REQUIRE(yv[(size_t)i] == acc);
  }
  // astype to float64 and back through a copy
  Sp f, cp;
  CN_REQUIRE_OK(cn_sparse_astype(f.out(), csr, CN_COMPLEX128));
  cn_dtype fdt;
  CN_REQUIRE_OK(cn_sparse_dtype(&fdt, f));
  REQUIRE(fdt == CN_COMPLEX128);
  CN_REQUIRE_OK(cn_sparse_copy(cp.out(), csr));
  Arr cd;
  CN_REQUIRE_OK(cn_sparse_toarray(cd.out(), cp));
  REQUIRE(to_vec<S>(cd) == ref);
  // SpGEMM of s^T s in the dtype
  Sp tr, g;
  CN_REQUIRE_OK(cn_sparse_transpose(tr.out(), csr));
  CN_REQUIRE_OK(cn_sparse_matmul(g.out(), tr, csr));
  Arr gd;
  CN_REQUIRE_OK(cn_sparse_toarray(gd.out(), g));
  auto gv = to_vec<S>(gd);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      S acc = S(0);
      for (int k = 0; k < 4; k++) {
        S p = ref[(size_t)(k * 3 + i)], q = ref[(size_t)(k * 3 + j)];
        if constexpr (B)
          acc = acc || (p && q);
        else
          acc = (S)(acc + (S)(p * q));
      }
      REQUIRE(gv[(size_t)(i * 3 + j)] == acc);
    }
}

TEST_CASE("sparse: skewed rows split across threads", "[sparse]") {
  // one dense row among many short ones, big enough to use threads
  const int64_t m = 20000, n = 3000;
  std::vector<int64_t> r, c;
  std::vector<double> v;
  for (int64_t j = 0; j < n; j++) {
    r.push_back(7);
    c.push_back(j);
    v.push_back((double)(j % 13) - 6);
  }
  for (int64_t i = 0; i < m; i++)
    for (int k = 0; k < 3; k++) {
      r.push_back(i);
      c.push_back((i * 31 + k * 977) % n);
      v.push_back((double)((i + k) % 5) - 2);
    }
  Triplets t{m, n, v, r, c};
  Sp s;
  make_csr<int32_t>(s, t);
  std::vector<double> x((size_t)n);
  for (int64_t j = 0; j < n; j++)
    x[(size_t)j] = (double)(j % 17) - 8;
  Arr xa = from_vec(x, {n}, CN_FLOAT64);
  Arr y;
  CN_REQUIRE_OK(cn_sparse_matmul_dense(y.out(), s, xa));
  std::vector<long double> ref((size_t)m, 0);
  for (size_t k = 0; k < v.size(); k++)
    ref[(size_t)r[k]] += (long double)v[k] * x[(size_t)c[k]];
  auto yv = to_vec<double>(y);
  for (int64_t i = 0; i < m; i++)
    REQUIRE(yv[(size_t)i] == (double)ref[(size_t)i]);
  // csr -> csc -> csr round trip at this size
  Sp csc, back;
  CN_REQUIRE_OK(cn_sparse_asformat(csc.out(), s, CN_SPARSE_CSC));
  CN_REQUIRE_OK(cn_sparse_asformat(back.out(), csc, CN_SPARSE_CSR));
  Arr y2;
  CN_REQUIRE_OK(cn_sparse_matmul_dense(y2.out(), back, xa));
  REQUIRE(to_vec<double>(y2) == yv);
}

TEST_CASE("sparse: LU factorisation and spsolve", "[sparse]") {
  // 1-d Laplacian with a duplicate on the diagonal, as unsorted COO
  const int64_t n = 12;
  std::vector<int64_t> r, c;
  std::vector<double> v;
  for (int64_t i = n - 1; i >= 0; i--) {
    r.push_back(i), c.push_back(i), v.push_back(1.0);
    r.push_back(i), c.push_back(i), v.push_back(1.0);
    if (i > 0)
      r.push_back(i), c.push_back(i - 1), v.push_back(-1.0);
    if (i + 1 < n)
      r.push_back(i), c.push_back(i + 1), v.push_back(-1.0);
  }
  Sp a;
  make_coo<int32_t>(a, Triplets{n, n, v, r, c});
  std::vector<double> x(n), b(n, 0.0);
  for (int64_t i = 0; i < n; i++)
    x[(size_t)i] = (double)(i % 5) - 2.0;
  auto A = dense_of(a);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      b[(size_t)i] += A[(size_t)(i * n + j)] * x[(size_t)j];
  Arr bv = from_vec(b, {n}, CN_FLOAT64);
  Arr got;
  cn_status st = cn_sparse_spsolve(got.out(), a, bv);
  if (st == CN_ERR_UNSUPPORTED) {
    REQUIRE(std::string(cn_last_error()).find("UMFPACK") != std::string::npos);
    return;
  }
  CN_REQUIRE_OK(st);
  auto xv = to_vec<double>(got);
  for (int64_t i = 0; i < n; i++)
    REQUIRE(xv[(size_t)i] == Approx(x[(size_t)i]).margin(1e-12));
  // one factor, several right-hand sides (2-d b)
  cn_sparse_lu lu = nullptr;
  CN_REQUIRE_OK(cn_sparse_lu_factor(&lu, a));
  std::vector<double> b2(2 * n);
  for (int64_t i = 0; i < n; i++)
    b2[(size_t)(2 * i)] = b[(size_t)i], b2[(size_t)(2 * i + 1)] = 2 * b[(size_t)i];
  Arr bm = from_vec(b2, {n, 2}, CN_FLOAT64);
  Arr xm;
  CN_REQUIRE_OK(cn_sparse_lu_solve(xm.out(), lu, bm));
  Arr xmc;
  CN_REQUIRE_OK(cn_copy(xmc.out(), xm, CN_ORDER_C));
  auto xmv = to_vec<double>(xmc);
  for (int64_t i = 0; i < n; i++) {
    REQUIRE(xmv[(size_t)(2 * i)] == Approx(x[(size_t)i]).margin(1e-12));
    REQUIRE(xmv[(size_t)(2 * i + 1)] == Approx(2 * x[(size_t)i]).margin(1e-12));
  }
  Arr bad = from_vec(b, {n - 1}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_lu_solve(xm.out(), lu, bad), CN_ERR_SHAPE,
                 "rows");
  std::vector<std::complex<double>> bc(n, {0.0, 1.0});
  Arr bcv = from_vec(bc, {n}, CN_COMPLEX128);
  CN_REQUIRE_ERR(cn_sparse_lu_solve(xm.out(), lu, bcv), CN_ERR_TYPE,
                 "complex factor");
  cn_sparse_lu_release(lu);
  cn_sparse_lu_release(nullptr);
  CN_REQUIRE_ERR(cn_sparse_lu_solve(xm.out(), nullptr, bv), CN_ERR_VALUE,
                 "NULL");
  // complex right-hand side: the real matrix is factorised complex
  Arr xc;
  CN_REQUIRE_OK(cn_sparse_spsolve(xc.out(), a, bcv));
  Arr back;
  Sp ac;
  CN_REQUIRE_OK(cn_sparse_astype(ac.out(), a, CN_COMPLEX128));
  CN_REQUIRE_OK(cn_sparse_matmul_dense(back.out(), ac, xc));
  auto bk = to_vec<std::complex<double>>(back);
  for (int64_t i = 0; i < n; i++)
    REQUIRE(std::abs(bk[(size_t)i] - bc[(size_t)i]) < 1e-12);
  // errors: non-square, singular
  Triplets rect = random_triplets(3, 4, 5, 1);
  Sp ar;
  make_coo<int32_t>(ar, rect);
  CN_REQUIRE_ERR(cn_sparse_lu_factor(&lu, ar), CN_ERR_SHAPE, "square");
  Triplets sing{3, 3, {1.0, 2.0}, {0, 1}, {0, 1}};
  Sp as;
  make_coo<int64_t>(as, sing);
  CN_REQUIRE_ERR(cn_sparse_lu_factor(&lu, as), CN_ERR_LINALG, "singular");
}

namespace {
// Every handle a sparse workload run made, released on every path.
struct SpOwned {
  std::vector<cn_array> arrays;
  std::vector<cn_sparse> mats;
  ~SpOwned() {
    for (cn_array a : arrays)
      cn_array_release(a);
    for (cn_sparse s : mats)
      cn_sparse_release(s);
  }
};

#define SP_STEP(call)                                                          \
  do {                                                                         \
    cn_status st_ = (call);                                                    \
    if (st_ != CN_OK)                                                          \
      return st_;                                                              \
  } while (0)

cn_status sp_keep_a(SpOwned &o, cn_status st, cn_array a) {
  if (st == CN_OK)
    o.arrays.push_back(a);
  return st;
}
cn_status sp_keep_s(SpOwned &o, cn_status st, cn_sparse s) {
  if (st == CN_OK)
    o.mats.push_back(s);
  return st;
}
// The call runs (writing r_) before its result is kept.
#define SP_A(expr)                                                             \
  do {                                                                         \
    cn_array r_ = nullptr;                                                     \
    cn_status s_ = (expr);                                                     \
    SP_STEP(sp_keep_a(o, s_, r_));                                             \
  } while (0)
#define SP_S(expr)                                                             \
  do {                                                                         \
    cn_sparse r_ = nullptr;                                                    \
    cn_status s_ = (expr);                                                     \
    SP_STEP(sp_keep_s(o, s_, r_));                                             \
  } while (0)

cn_status grab(std::vector<double> &res, cn_array a) {
  cn_array f = nullptr;
  cn_status st = cn_astype(&f, a, CN_FLOAT64, 1);
  int64_t n = 0;
  if (st == CN_OK)
    st = cn_array_size(&n, f);
  std::vector<double> v((size_t)n);
  if (st == CN_OK)
    st = cn_copy_to_buffer(v.data(), 8 * n, f, CN_ORDER_C);
  if (st == CN_OK)
    res.insert(res.end(), v.begin(), v.end());
  cn_array_release(f);
  return st;
}

cn_status sp_values(std::vector<double> &res, cn_sparse s) {
  cn_array d = nullptr, f = nullptr;
  cn_status st = cn_sparse_toarray(&d, s);
  if (st == CN_OK)
    st = cn_astype(&f, d, CN_FLOAT64, 1);
  int64_t n = 0;
  if (st == CN_OK)
    st = cn_array_size(&n, f);
  std::vector<double> v((size_t)n);
  if (st == CN_OK)
    st = cn_copy_to_buffer(v.data(), 8 * n, f, CN_ORDER_C);
  if (st == CN_OK)
    res.insert(res.end(), v.begin(), v.end());
  cn_array_release(d);
  cn_array_release(f);
  return st;
}

// Construction, every conversion, canonical form, products, LU.
cn_status sparse_workload(std::vector<double> &res) {
  SpOwned o;
  const int64_t n = 6, nnz = 9;
  double v[nnz] = {4, -1, 4, -1, 4, 2, 4, 0, 4};
  int32_t r[nnz] = {5, 0, 0, 3, 3, 1, 1, 2, 2};
  int32_t c[nnz] = {5, 1, 0, 3, 3, 1, 1, 2, 4};
  int64_t k = nnz;
  SP_A(cn_from_host(&r_, v, 0, sizeof v, 1, &k, nullptr, CN_FLOAT64));
  cn_array dv = o.arrays.back();
  SP_A(cn_from_host(&r_, r, 0, sizeof r, 1, &k, nullptr, CN_INT32));
  cn_array dr = o.arrays.back();
  SP_A(cn_from_host(&r_, c, 0, sizeof c, 1, &k, nullptr, CN_INT32));
  cn_array dc = o.arrays.back();
  SP_S(cn_sparse_coo(&r_, n, n, dv, dr, dc, 0));
  cn_sparse coo = o.mats.back();
  SP_S(cn_sparse_asformat(&r_, coo, CN_SPARSE_CSR));
  cn_sparse csr = o.mats.back();
  SP_STEP(sp_values(res, csr));
  SP_S(cn_sparse_asformat(&r_, csr, CN_SPARSE_CSC));
  SP_STEP(sp_values(res, o.mats.back()));
  SP_S(cn_sparse_sort_indices(&r_, coo));
  SP_S(cn_sparse_sum_duplicates(&r_, coo));
  SP_S(cn_sparse_eliminate_zeros(&r_, o.mats.back()));
  SP_STEP(sp_values(res, o.mats.back()));
  SP_S(cn_sparse_asformat(&r_, csr, CN_SPARSE_COO));
  SP_S(cn_sparse_astype(&r_, csr, CN_COMPLEX64));
  SP_S(cn_sparse_copy(&r_, o.mats.back()));
  SP_STEP(sp_values(res, o.mats.back()));
  SP_A(cn_sparse_toarray(&r_, csr));
  SP_S(cn_sparse_from_dense(&r_, o.arrays.back(), CN_SPARSE_CSC));
  SP_STEP(sp_values(res, o.mats.back()));
  int64_t n6 = n;
  SP_A(cn_ones(&r_, 1, &n6, CN_FLOAT64, CN_ORDER_C));
  cn_array x = o.arrays.back();
  SP_A(cn_sparse_matmul_dense(&r_, coo, x));
  SP_STEP(grab(res, o.arrays.back()));
  SP_A(cn_dense_matmul_sparse(&r_, x, csr));
  SP_STEP(grab(res, o.arrays.back()));
  SP_S(cn_sparse_transpose(&r_, csr));
  SP_S(cn_sparse_matmul(&r_, csr, o.mats.back()));
  SP_STEP(sp_values(res, o.mats.back()));
  // DIA: from COO, back to CSR and COO, products, transpose, diagonal
  SP_S(cn_sparse_asformat(&r_, coo, CN_SPARSE_DIA));
  cn_sparse dia = o.mats.back();
  SP_STEP(sp_values(res, dia));
  SP_S(cn_sparse_asformat(&r_, dia, CN_SPARSE_CSR));
  SP_STEP(sp_values(res, o.mats.back()));
  SP_S(cn_sparse_asformat(&r_, dia, CN_SPARSE_COO));
  SP_S(cn_sparse_transpose(&r_, dia));
  SP_STEP(sp_values(res, o.mats.back()));
  SP_A(cn_sparse_matmul_dense(&r_, dia, x));
  SP_STEP(grab(res, o.arrays.back()));
  SP_A(cn_dense_matmul_sparse(&r_, x, dia));
  SP_STEP(grab(res, o.arrays.back()));
  SP_A(cn_sparse_diagonal(&r_, dia, 1));
  SP_STEP(grab(res, o.arrays.back()));
  SP_S(cn_sparse_astype(&r_, dia, CN_FLOAT32));
  SP_S(cn_sparse_copy(&r_, o.mats.back()));
  SP_STEP(sp_values(res, o.mats.back()));
  SP_S(cn_sparse_matmul(&r_, dia, csr));
  SP_STEP(sp_values(res, o.mats.back()));
  cn_array sol = nullptr;
  cn_status st = cn_sparse_spsolve(&sol, csr, x);
  if (st != CN_ERR_UNSUPPORTED && st != CN_ERR_LINALG) {
    SP_STEP(sp_keep_a(o, st, sol));
    SP_STEP(grab(res, sol));
  }
  return CN_OK;
}
#undef SP_A
#undef SP_S
#undef SP_STEP
} // namespace

TEST_CASE("sparse: every allocation failure is reported and clean",
          "[sparse][memory]") {
  std::vector<double> ref;
  cn_debug_fault_alloc(0);
  cn_status st0 = sparse_workload(ref);
  INFO(cn_last_error());
  REQUIRE(st0 == CN_OK);
  REQUIRE(ref.size() > 100);
  int64_t points = 0;
  for (int64_t f = 1;; f++) {
    std::vector<double> got;
    cn_debug_fault_alloc(f);
    cn_status st = sparse_workload(got);
    int64_t reached = cn_debug_alloc_count();
    cn_debug_fault_alloc(0);
    INFO("failing allocation " << f << ": " << cn_status_name(st) << " "
                               << cn_last_error());
    if (reached < f) {
      REQUIRE(st == CN_OK);
      REQUIRE(got == ref);
      break;
    }
    points++;
    if (st == CN_OK)
      REQUIRE(got == ref);
    else
      REQUIRE(st == CN_ERR_MEMORY);
    std::vector<double> again;
    REQUIRE(sparse_workload(again) == CN_OK);
    REQUIRE(again == ref);
    REQUIRE(f < 100000);
  }
  REQUIRE(points > 30);
}

TEST_CASE("sparse: placement on the host and transfers", "[sparse]") {
  Triplets t = random_triplets(5, 4, 11, 7);
  Sp s;
  make_csr<int32_t>(s, t);
  int32_t type = -1, id = -1;
  CN_REQUIRE_OK(cn_sparse_device(&type, &id, s));
  CHECK(type == CN_DEVICE_CPU);
  CHECK(id == 0);
  CN_REQUIRE_ERR(cn_sparse_device(nullptr, &id, s), CN_ERR_VALUE,
                 "output pointer");
  CN_REQUIRE_ERR(cn_sparse_device(&type, &id, nullptr), CN_ERR_VALUE,
                 "NULL");
  // to_host of a host matrix shares its components
  Sp h;
  CN_REQUIRE_OK(cn_sparse_to_host(h.out(), s));
  Arr d0, d1;
  CN_REQUIRE_OK(cn_sparse_data(d0.out(), s));
  CN_REQUIRE_OK(cn_sparse_data(d1.out(), h));
  void *p0 = nullptr, *p1 = nullptr;
  CN_REQUIRE_OK(cn_array_data(&p0, d0));
  CN_REQUIRE_OK(cn_array_data(&p1, d1));
  CHECK(p0 == p1);
  CHECK(dense_of(h) == dense_of_triplets(t.m, t.n, t.v, t.r, t.c));
  CN_REQUIRE_ERR(cn_sparse_to_host(nullptr, s), CN_ERR_VALUE,
                 "output pointer");
  CN_REQUIRE_ERR(cn_sparse_to_device(h.out(), nullptr, 0), CN_ERR_VALUE,
                 "NULL");
  int32_t avail = 0;
  CN_REQUIRE_OK(cn_backend_available(&avail, "cuda"));
  Sp g;
  if (!avail) {
    // no device: a clear error, the input untouched
    CN_REQUIRE_ERR(cn_sparse_to_device(g.out(), s, 0), CN_ERR_DEVICE,
                   "CUDA is unavailable");
    CHECK(g.h == nullptr);
    CHECK(dense_of(s) == dense_of_triplets(t.m, t.n, t.v, t.r, t.c));
    return;
  }
  // with a device: a round trip keeps every entry; host-only steps refuse
  CN_REQUIRE_OK(cn_sparse_to_device(g.out(), s, 0));
  CN_REQUIRE_OK(cn_sparse_device(&type, &id, g));
  CHECK(type == CN_DEVICE_CUDA);
  Arr dense;
  CN_REQUIRE_ERR(cn_sparse_toarray(dense.out(), g), CN_ERR_DEVICE,
                 "cn_sparse_to_host first");
  Sp back;
  CN_REQUIRE_OK(cn_sparse_to_host(back.out(), g));
  CHECK(dense_of(back) == dense_of_triplets(t.m, t.n, t.v, t.r, t.c));
}

TEST_CASE("sparse: cg in C against the residual, and its errors",
          "[sparse]") {
  // SPD tridiagonal 2, -1 (n = 40) with a duplicate split of the diagonal
  const int64_t n = 40;
  Triplets t{n, n, {}, {}, {}};
  for (int64_t i = 0; i < n; i++) {
    t.r.push_back(i), t.c.push_back(i), t.v.push_back(1.5);
    t.r.push_back(i), t.c.push_back(i), t.v.push_back(0.5);
    if (i + 1 < n) {
      t.r.push_back(i), t.c.push_back(i + 1), t.v.push_back(-1);
      t.r.push_back(i + 1), t.c.push_back(i), t.v.push_back(-1);
    }
  }
  Sp a;
  make_coo<int64_t>(a, t);
  std::vector<double> bv((size_t)n);
  for (int64_t i = 0; i < n; i++)
    bv[(size_t)i] = std::cos((double)i);
  Arr b = from_vec(bv, {n}, CN_FLOAT64);
  std::vector<double> dense = dense_of_triplets(n, n, t.v, t.r, t.c);
  auto residual = [&](const std::vector<double> &x) {
    long double worst = 0;
    for (int64_t i = 0; i < n; i++) {
      long double s = 0;
      for (int64_t j = 0; j < n; j++)
        s += (long double)dense[(size_t)(i * n + j)] * x[(size_t)j];
      worst = std::max(worst, std::fabs(s - bv[(size_t)i]));
    }
    return (double)worst;
  };
  Arr x;
  int64_t info = -1;
  CN_REQUIRE_OK(cn_sparse_cg(x.out(), &info, a, b, nullptr, 1e-12, 0, 1000));
  CHECK(info == 0);
  CHECK(residual(to_vec<double>(x)) < 1e-10);
  // maxiter reached: info says so; maxiter 0 returns x0
  CN_REQUIRE_OK(cn_sparse_cg(x.out(), &info, a, b, nullptr, 1e-14, 0, 3));
  CHECK(info == 3);
  Arr x0 = from_vec(std::vector<double>((size_t)n, 1.0), {n}, CN_FLOAT64);
  CN_REQUIRE_OK(cn_sparse_cg(x.out(), &info, a, b, x0, 1e-14, 0, 0));
  CHECK(info == 0);
  CHECK(to_vec<double>(x) == std::vector<double>((size_t)n, 1.0));
  // an int32 CSR copy with x0 converges to the same solution
  Sp c;
  make_csr<int32_t>(c, t);
  Arr y;
  CN_REQUIRE_OK(cn_sparse_cg(y.out(), &info, c, b, x0, 1e-12, 0, 1000));
  CHECK(info == 0);
  CHECK(residual(to_vec<double>(y)) < 1e-10);
  // b = 0 gives x = 0 at once
  Arr z = from_vec(std::vector<double>((size_t)n, 0.0), {n}, CN_FLOAT64);
  CN_REQUIRE_OK(cn_sparse_cg(y.out(), &info, a, z, x0, 1e-5, 0, 10));
  CHECK(info == 0);
  CHECK(to_vec<double>(y) == std::vector<double>((size_t)n, 0.0));
  // errors: nothing written, inputs untouched
  Arr w;
  info = 77;
  CN_REQUIRE_ERR(cn_sparse_cg(nullptr, &info, a, b, nullptr, 1e-5, 0, 10),
                 CN_ERR_VALUE, "output pointer");
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, a, b, nullptr, -1, 0, 10),
                 CN_ERR_VALUE, "rtol and atol");
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, a, b, nullptr, 1e-5, NAN, 10),
                 CN_ERR_VALUE, "rtol and atol");
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, a, b, nullptr, 1e-5, 0, -1),
                 CN_ERR_VALUE, "maxiter");
  Arr short_b = from_vec(std::vector<double>(3, 1.0), {3}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, a, short_b, nullptr, 1e-5, 0,
                              10),
                 CN_ERR_SHAPE, "length 40");
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, a, b, short_b, 1e-5, 0, 10),
                 CN_ERR_SHAPE, "'x0'");
  Arr cb;
  CN_REQUIRE_OK(cn_astype(cb.out(), b, CN_COMPLEX128, 1));
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, a, cb, nullptr, 1e-5, 0, 10),
                 CN_ERR_TYPE, "complex");
  Triplets rt = random_triplets(3, 4, 5, 2);
  Sp rect;
  make_coo<int32_t>(rect, rt);
  CN_REQUIRE_ERR(cn_sparse_cg(w.out(), &info, rect, b, nullptr, 1e-5, 0, 10),
                 CN_ERR_SHAPE, "square");
  CHECK(w.h == nullptr);
  CHECK(info == 77);
  CHECK(to_vec<double>(b) == bv);
}

namespace {

// A naive dense oracle of scipy's DIA layout: data[d][j] is (j - off[d], j)
// where that lies inside the matrix and j < L.
std::vector<long double> dia_dense(int64_t m, int64_t n,
                                   const std::vector<double> &data, int64_t L,
                                   const std::vector<int64_t> &off) {
  std::vector<long double> d((size_t)(m * n), 0.0L);
  for (size_t q = 0; q < off.size(); q++)
    for (int64_t j = 0; j < L && j < n; j++) {
      int64_t i = j - off[q];
      if (i >= 0 && i < m)
        d[(size_t)(i * n + j)] = data[q * (size_t)L + (size_t)j];
    }
  return d;
}

} // namespace

TEST_CASE("sparse: DIA layout, conversions and products", "[sparse][dia]") {
  struct Case {
    int64_t m, n, L;
    std::vector<int64_t> off;
  };
  // square, wide, tall; L below, at and beyond ncols; offsets beyond the
  // shape on both sides
  const Case cases[] = {{6, 6, 6, {0, -1, 1}},
                        {5, 8, 4, {-2, 0, 3, 9}},
                        {8, 5, 7, {2, -7, 0, -9, -3}},
                        {1, 1, 1, {0}},
                        {4, 4, 0, {0, 1}},
                        {3, 3, 3, {}}};
  for (const Case &c : cases) {
    for (cn_dtype it : {CN_INT32, CN_INT64}) {
      std::vector<double> data(c.off.size() * (size_t)c.L);
      for (size_t i = 0; i < data.size(); i++)
        data[i] = i % 5 == 2 ? 0.0 : (double)((int)(i * 7 % 11) - 5);
      Arr dd = from_vec(data, {(int64_t)c.off.size(), c.L}, CN_FLOAT64);
      Arr od = it == CN_INT32
                   ? from_vec(narrow<int32_t>(c.off), {(int64_t)c.off.size()},
                              CN_INT32)
                   : from_vec(c.off, {(int64_t)c.off.size()}, CN_INT64);
      Sp s;
      CN_REQUIRE_OK(cn_sparse_dia(s.out(), c.m, c.n, dd, od));
      int32_t f = -1;
      CN_REQUIRE_OK(cn_sparse_get_format(&f, s));
      REQUIRE(f == CN_SPARSE_DIA);
      cn_dtype idx;
      CN_REQUIRE_OK(cn_sparse_index_dtype(&idx, s));
      REQUIRE(idx == it);
      std::vector<long double> ref = dia_dense(c.m, c.n, data, c.L, c.off);
      int64_t stored = 0, nnz = -1;
      for (size_t q = 0; q < c.off.size(); q++)
        for (int64_t j = 0; j < c.L && j < c.n; j++)
          stored += j - c.off[q] >= 0 && j - c.off[q] < c.m;
      CN_REQUIRE_OK(cn_sparse_nnz(&nnz, s));
      REQUIRE(nnz == stored);
      std::vector<double> got = dense_of(s);
      REQUIRE(got.size() == ref.size());
      for (size_t i = 0; i < ref.size(); i++)
        REQUIRE(got[i] == (double)ref[i]);
      // borrowed: the matrix's data is the caller's array
      Arr sd;
      CN_REQUIRE_OK(cn_sparse_data(sd.out(), s));
      REQUIRE(sd.h == dd.h);
      // to CSR: zeros dropped, rows sorted
      Sp csr;
      CN_REQUIRE_OK(cn_sparse_asformat(csr.out(), s, CN_SPARSE_CSR));
      int64_t cnnz = 0, nz = 0;
      CN_REQUIRE_OK(cn_sparse_nnz(&cnnz, csr));
      for (long double v : ref)
        nz += v != 0;
      REQUIRE(cnnz == nz);
      int32_t canon = 0;
      CN_REQUIRE_OK(cn_sparse_has_canonical_format(&canon, csr));
      REQUIRE(canon == 1);
      REQUIRE(dense_of(csr) == got);
      // and back: the diagonals of the stored entries
      Sp back;
      CN_REQUIRE_OK(cn_sparse_asformat(back.out(), csr, CN_SPARSE_DIA));
      REQUIRE(dense_of(back) == got);
      // transpose is DIA of the transposed matrix
      Sp t;
      CN_REQUIRE_OK(cn_sparse_transpose(t.out(), s));
      CN_REQUIRE_OK(cn_sparse_get_format(&f, t));
      REQUIRE(f == CN_SPARSE_DIA);
      std::vector<double> tg = dense_of(t);
      for (int64_t i = 0; i < c.m; i++)
        for (int64_t j = 0; j < c.n; j++)
          REQUIRE(tg[(size_t)(j * c.m + i)] == got[(size_t)(i * c.n + j)]);
      // SpMV and SpMM (strided x) against the oracle in long double
      const int64_t k = 3;
      std::vector<double> xv((size_t)(c.n * k));
      for (size_t i = 0; i < xv.size(); i++)
        xv[i] = 0.5 + (double)(i % 7);
      Arr x2 = from_vec(xv, {c.n, k}, CN_FLOAT64);
      Arr y;
      CN_REQUIRE_OK(cn_sparse_matmul_dense(y.out(), s, x2));
      std::vector<double> yv = to_vec<double>(y);
      for (int64_t i = 0; i < c.m; i++)
        for (int64_t q = 0; q < k; q++) {
          long double acc = 0;
          for (int64_t j = 0; j < c.n; j++)
            acc += ref[(size_t)(i * c.n + j)] * xv[(size_t)(j * k + q)];
          REQUIRE(yv[(size_t)(i * k + q)] == (double)acc);
        }
      // x @ S with x 1-d
      std::vector<double> lv((size_t)c.m, 1.5);
      Arr l = from_vec(lv, {c.m}, CN_FLOAT64);
      Arr z;
      CN_REQUIRE_OK(cn_dense_matmul_sparse(z.out(), l, s));
      std::vector<double> zv = to_vec<double>(z);
      for (int64_t j = 0; j < c.n; j++) {
        long double acc = 0;
        for (int64_t i = 0; i < c.m; i++)
          acc += 1.5L * ref[(size_t)(i * c.n + j)];
        REQUIRE(zv[(size_t)j] == (double)acc);
      }
      // diagonals, in range and beyond
      for (int64_t kd = -c.m - 1; kd <= c.n + 1; kd++) {
        Arr dg;
        CN_REQUIRE_OK(cn_sparse_diagonal(dg.out(), s, kd));
        std::vector<double> dv = to_vec<double>(dg);
        std::vector<double> want;
        for (int64_t i = 0; i < c.m; i++)
          if (i + kd >= 0 && i + kd < c.n)
            want.push_back((double)ref[(size_t)(i * c.n + i + kd)]);
        REQUIRE(dv == want);
      }
    }
  }
}

TEST_CASE("sparse: DIA validation errors and unsupported steps",
          "[sparse][dia]") {
  Arr dd = from_vec(std::vector<double>{1, 2, 3, 4, 5, 6}, {2, 3}, CN_FLOAT64);
  Arr od = from_vec(std::vector<int64_t>{0, 1}, {2}, CN_INT64);
  Sp s;
  CN_REQUIRE_ERR(cn_sparse_dia(nullptr, 3, 3, dd, od), CN_ERR_VALUE,
                 "output pointer");
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), -1, 3, dd, od), CN_ERR_VALUE, ">= 0");
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, nullptr, od), CN_ERR_VALUE,
                 "'data' is NULL");
  Arr d1 = from_vec(std::vector<double>{1, 2}, {2}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, d1, od), CN_ERR_SHAPE, "2-d");
  Arr o3 = from_vec(std::vector<int64_t>{0, 1, 2}, {3}, CN_INT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, dd, o3), CN_ERR_VALUE,
                 "number of diagonals (2) does not match the number of "
                 "offsets (3)");
  Arr dup = from_vec(std::vector<int64_t>{1, 1}, {2}, CN_INT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, dd, dup), CN_ERR_VALUE,
                 "duplicate");
  Arr lo = from_vec(std::vector<int64_t>{INT64_MIN, 0}, {2}, CN_INT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, dd, lo), CN_ERR_VALUE,
                 "out of range");
  Arr fo = from_vec(std::vector<double>{0, 1}, {2}, CN_FLOAT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, dd, fo), CN_ERR_TYPE,
                 "integer dtype");
  Arr o2 = from_vec(std::vector<int64_t>{0, 1}, {1, 2}, CN_INT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, dd, o2), CN_ERR_SHAPE,
                 "must be 1-d");
  REQUIRE(s.h == nullptr);
  // uint64 offsets past int64 are rejected, not wrapped; small unsigned
  // offsets are widened
  Arr big = from_vec(std::vector<uint64_t>{0, UINT64_MAX}, {2}, CN_UINT64);
  CN_REQUIRE_ERR(cn_sparse_dia(s.out(), 3, 3, dd, big), CN_ERR_VALUE,
                 "too large");
  Arr u8 = from_vec(std::vector<uint8_t>{0, 200}, {2}, CN_UINT8);
  CN_REQUIRE_OK(cn_sparse_dia(s.out(), 3, 3, dd, u8));
  cn_dtype it;
  CN_REQUIRE_OK(cn_sparse_index_dtype(&it, s));
  REQUIRE(it == CN_INT64);
  int64_t nnz = -1;
  CN_REQUIRE_OK(cn_sparse_nnz(&nnz, s));
  REQUIRE(nnz == 3);
  // a huge shape counts its stored positions without overflowing
  Sp h;
  CN_REQUIRE_OK(cn_sparse_dia(h.out(), INT64_MAX - 1, INT64_MAX - 1, dd, od));
  CN_REQUIRE_OK(cn_sparse_nnz(&nnz, h));
  REQUIRE(nnz == 5);
  // components the format lacks, and steps DIA does not have
  CN_REQUIRE_OK(cn_sparse_dia(s.out(), 3, 3, dd, od));
  Arr comp;
  CN_REQUIRE_ERR(cn_sparse_indptr(comp.out(), s), CN_ERR_VALUE,
                 "dia matrix has no indptr");
  CN_REQUIRE_ERR(cn_sparse_row(comp.out(), s), CN_ERR_VALUE,
                 "dia matrix has no row");
  CN_REQUIRE_OK(cn_sparse_offsets(comp.out(), s));
  REQUIRE(to_vec<int64_t>(comp) == std::vector<int64_t>{0, 1});
  Sp csr, e;
  CN_REQUIRE_OK(cn_sparse_asformat(csr.out(), s, CN_SPARSE_CSR));
  CN_REQUIRE_ERR(cn_sparse_offsets(comp.out(), csr), CN_ERR_VALUE,
                 "csr matrix has no offsets");
  CN_REQUIRE_ERR(cn_sparse_eliminate_zeros(e.out(), s), CN_ERR_VALUE,
                 "every position");
  CN_REQUIRE_ERR(cn_sparse_asformat(e.out(), s, (cn_sparse_format)7),
                 CN_ERR_VALUE, "unknown format");
  // int32 offsets of INT32_MIN transpose to int64 (-INT32_MIN)
  Arr omin = from_vec(std::vector<int32_t>{INT32_MIN, 0}, {2}, CN_INT32);
  CN_REQUIRE_OK(cn_sparse_dia(s.out(), 3, 3, dd, omin));
  Sp t;
  CN_REQUIRE_OK(cn_sparse_transpose(t.out(), s));
  CN_REQUIRE_OK(cn_sparse_offsets(comp.out(), t));
  REQUIRE(to_vec<int64_t>(comp) ==
          std::vector<int64_t>{-(int64_t)INT32_MIN, 0});
  // a dense input to DIA, integer dtype and bool products
  Arr dense = from_vec(std::vector<int32_t>{1, 0, 0, 2, 3, 0, 0, 0, 4}, {3, 3},
                       CN_INT32);
  CN_REQUIRE_OK(cn_sparse_from_dense(s.out(), dense, CN_SPARSE_DIA));
  CN_REQUIRE_OK(cn_sparse_offsets(comp.out(), s));
  REQUIRE(to_vec<int32_t>(comp) == std::vector<int32_t>{-1, 0});
  Arr xi = from_vec(std::vector<int32_t>{1, 10, 100}, {3}, CN_INT32);
  Arr yi;
  CN_REQUIRE_OK(cn_sparse_matmul_dense(yi.out(), s, xi));
  REQUIRE(to_vec<int32_t>(yi) == std::vector<int32_t>{1, 32, 400});
  Sp sb;
  CN_REQUIRE_OK(cn_sparse_astype(sb.out(), s, CN_BOOL));
  Arr xb = from_vec(std::vector<uint8_t>{0, 1, 0}, {3}, CN_BOOL);
  CN_REQUIRE_OK(cn_sparse_matmul_dense(yi.out(), sb, xb));
  REQUIRE(to_vec<uint8_t>(yi) == std::vector<uint8_t>{0, 1, 0});
}
