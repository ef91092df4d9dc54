// The CUDA sparse planner (core/cuda/sparse_plan.c) on the CPU: the value
// types of cuSPARSE's products, when a dense operand must be packed (each
// plan is replayed by a host emulation of a row-major SpMM reading x
// through the leading dimension the plan gives, against a naive product
// over the original strides), the narrowing of int64 indices, the value
// carriers of csr2csc, and the empty and zero shortcuts.
#include <catch2/catch.hpp>

#include <vector>

#include "cuda/sparse_plan.h"

namespace {

cn_sp_mm_geom mm(int64_t m, int64_t n, int64_t k, int64_t nnz, int64_t xs0,
                 int64_t xs1, cn_dtype dt = CN_FLOAT64, int32_t ib = 4) {
  cn_sp_mm_geom g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.nnz = nnz;
  g.xs0 = xs0;
  g.xs1 = xs1;
  g.dtype = dt;
  g.index_bytes = ib;
  return g;
}

// A dense CSR (every entry stored) times x through the plan: x is read at
// row r, column c as x[r * ldx + c] of the packed or original buffer.
std::vector<double> replay(const cn_sp_mm_plan &p, int64_t m, int64_t n,
                           int64_t k, const std::vector<double> &a,
                           const std::vector<double> &buf, int64_t base,
                           int64_t xs0, int64_t xs1) {
  std::vector<double> packed;
  const double *x = buf.data() + base;
  if (p.pack_x) {
    packed.resize((size_t)(n * k));
    for (int64_t r = 0; r < n; r++)
      for (int64_t c = 0; c < k; c++)
        packed[(size_t)(r * k + c)] = x[r * xs0 + c * xs1];
    x = packed.data();
  }
  std::vector<double> out((size_t)(m * k), 0.0);
  for (int64_t i = 0; i < m; i++)
    for (int64_t c = 0; c < k; c++)
      for (int64_t j = 0; j < n; j++)
        out[(size_t)(i * p.ldc + c)] +=
            a[(size_t)(i * n + j)] * x[j * (p.spmv ? 1 : p.ldx) + c];
  return out;
}

} // namespace

TEST_CASE("sparse plan: product value types", "[cuda_sparse_plan]") {
  CHECK(cn_sp_product_value(CN_FLOAT32) == CN_SP_VALUE_R32F);
  CHECK(cn_sp_product_value(CN_FLOAT64) == CN_SP_VALUE_R64F);
  CHECK(cn_sp_product_value(CN_COMPLEX64) == CN_SP_VALUE_C32F);
  CHECK(cn_sp_product_value(CN_COMPLEX128) == CN_SP_VALUE_C64F);
  for (cn_dtype dt : {CN_BOOL, CN_INT8, CN_INT32, CN_INT64, CN_UINT64,
                      CN_FLOAT16}) {
    CHECK(cn_sp_product_value(dt) == CN_SP_VALUE_NONE);
    cn_sp_mm_plan p;
    CHECK_FALSE(cn_sp_mm_make_plan(&(const cn_sp_mm_geom &)mm(2, 2, 2, 1, 2,
                                                              1, dt),
                                   &p));
    cn_sp_gemm_plan gp;
    CHECK_FALSE(cn_sp_gemm_make_plan(2, 2, 2, 1, 1, dt, 4, &gp));
  }
}

TEST_CASE("sparse plan: spmm layouts replay to the naive product",
          "[cuda_sparse_plan]") {
  struct layout {
    int64_t n, k, xs0, xs1;
    bool pack;
  };
  // (n, k) x of every kind: C order, padded rows, F order, negative and
  // zero strides, one row, one column (SpMV) contiguous and strided
  std::vector<layout> cases = {
      {3, 4, 4, 1, false}, {3, 4, 6, 1, false}, {3, 4, 1, 3, true},
      {3, 4, -4, 1, true}, {3, 4, 4, -1, true}, {3, 4, 0, 1, true},
      {3, 4, 1, 0, true},  {1, 4, 7, 1, false}, {3, 1, 1, 5, false},
      {3, 1, 2, 1, true},  {3, 1, -1, 1, true}, {1, 1, 9, 9, false},
  };
  const int64_t m = 2;
  for (const layout &L : cases) {
    INFO("n=" << L.n << " k=" << L.k << " xs=" << L.xs0 << "," << L.xs1);
    cn_sp_mm_plan p;
    REQUIRE(cn_sp_mm_make_plan(&(const cn_sp_mm_geom &)mm(m, L.n, L.k,
                                                          m * L.n, L.xs0,
                                                          L.xs1),
                               &p));
    CHECK(p.kind == CN_SP_RUN);
    CHECK(p.pack_x == L.pack);
    CHECK(p.spmv == (L.k == 1));
    CHECK(p.ldc == L.k);
    if (!p.spmv && !p.pack_x)
      CHECK(p.ldx >= L.k);
    // the buffer spans every element x's strides reach
    int64_t lo = 0, hi = 0;
    for (int64_t d = 0; d < 2; d++) {
      int64_t ext = d == 0 ? L.n : L.k, st = d == 0 ? L.xs0 : L.xs1;
      int64_t span = (ext - 1) * st;
      (span < 0 ? lo : hi) += span;
    }
    std::vector<double> buf((size_t)(hi - lo + 1 + 64));
    for (size_t i = 0; i < buf.size(); i++)
      buf[i] = (double)(i % 7) - 2.5;
    std::vector<double> a((size_t)(m * L.n));
    for (size_t i = 0; i < a.size(); i++)
      a[i] = (double)i + 1;
    int64_t base = -lo;
    std::vector<double> want((size_t)(m * L.k), 0.0);
    for (int64_t i = 0; i < m; i++)
      for (int64_t c = 0; c < L.k; c++)
        for (int64_t j = 0; j < L.n; j++)
          want[(size_t)(i * L.k + c)] +=
              a[(size_t)(i * L.n + j)] * buf[(size_t)(base + j * L.xs0 +
                                                      c * L.xs1)];
    CHECK(replay(p, m, L.n, L.k, a, buf, base, L.xs0, L.xs1) == want);
  }
}

TEST_CASE("sparse plan: spmm shortcuts and index widths",
          "[cuda_sparse_plan]") {
  cn_sp_mm_plan p;
  REQUIRE(cn_sp_mm_make_plan(&(const cn_sp_mm_geom &)mm(0, 3, 2, 0, 2, 1),
                             &p));
  CHECK(p.kind == CN_SP_EMPTY);
  REQUIRE(cn_sp_mm_make_plan(&(const cn_sp_mm_geom &)mm(3, 3, 0, 4, 0, 1),
                             &p));
  CHECK(p.kind == CN_SP_EMPTY);
  REQUIRE(cn_sp_mm_make_plan(&(const cn_sp_mm_geom &)mm(3, 3, 2, 0, 2, 1),
                             &p));
  CHECK(p.kind == CN_SP_ZERO);
  REQUIRE(cn_sp_mm_make_plan(&(const cn_sp_mm_geom &)mm(3, 0, 2, 0, 2, 1),
                             &p));
  CHECK(p.kind == CN_SP_ZERO);
  REQUIRE(cn_sp_mm_make_plan(
      &(const cn_sp_mm_geom &)mm(3, 3, 2, 4, 2, 1, CN_COMPLEX64, 8), &p));
  CHECK(p.index64);
  CHECK(p.value == CN_SP_VALUE_C32F);
  CHECK_FALSE(cn_sp_mm_make_plan(
      &(const cn_sp_mm_geom &)mm(3, 3, 2, 4, 2, 1, CN_FLOAT64, 2), &p));
}

TEST_CASE("sparse plan: csr2csc carriers and narrowing",
          "[cuda_sparse_plan]") {
  cn_sp_tr_plan p;
  struct want {
    cn_dtype dt;
    bool widen;
    cn_dtype wide;
    cn_sp_value carrier;
  };
  for (const want &w : std::vector<want>{
           {CN_BOOL, true, CN_INT32, CN_SP_VALUE_R32F},
           {CN_INT8, true, CN_INT32, CN_SP_VALUE_R32F},
           {CN_UINT16, true, CN_INT32, CN_SP_VALUE_R32F},
           {CN_FLOAT16, true, CN_FLOAT32, CN_SP_VALUE_R32F},
           {CN_INT32, false, CN_BOOL, CN_SP_VALUE_R32F},
           {CN_FLOAT32, false, CN_BOOL, CN_SP_VALUE_R32F},
           {CN_INT64, false, CN_BOOL, CN_SP_VALUE_R64F},
           {CN_COMPLEX64, false, CN_BOOL, CN_SP_VALUE_R64F},
           {CN_COMPLEX128, false, CN_BOOL, CN_SP_VALUE_C64F}}) {
    INFO(cn_dtype_name(w.dt));
    REQUIRE(cn_sp_tr_make_plan(4, 5, 6, w.dt, 4, &p));
    CHECK(p.kind == CN_SP_RUN);
    CHECK_FALSE(p.narrow_index);
    CHECK(p.widen == w.widen);
    if (w.widen)
      CHECK(p.widen_dtype == w.wide);
    CHECK(p.carrier == w.carrier);
  }
  REQUIRE(cn_sp_tr_make_plan(4, 5, 6, CN_FLOAT64, 8, &p));
  CHECK(p.narrow_index);
  REQUIRE(cn_sp_tr_make_plan(4, 5, 0, CN_FLOAT64, 4, &p));
  CHECK(p.kind == CN_SP_ZERO);
  CHECK_FALSE(cn_sp_tr_make_plan(1LL << 31, 5, 6, CN_FLOAT64, 8, &p));
  CHECK_FALSE(cn_sp_tr_make_plan(4, 5, 1LL << 31, CN_FLOAT64, 8, &p));
  CHECK(cn_sp_tr_make_plan(4, (1LL << 31) - 1, 6, CN_FLOAT64, 8, &p));
}

TEST_CASE("sparse plan: spgemm", "[cuda_sparse_plan]") {
  cn_sp_gemm_plan p;
  REQUIRE(cn_sp_gemm_make_plan(3, 4, 5, 6, 7, CN_FLOAT32, 4, &p));
  CHECK(p.kind == CN_SP_RUN);
  CHECK_FALSE(p.narrow_index);
  CHECK(p.value == CN_SP_VALUE_R32F);
  REQUIRE(cn_sp_gemm_make_plan(3, 4, 5, 6, 7, CN_COMPLEX128, 8, &p));
  CHECK(p.narrow_index);
  for (auto z : std::vector<std::vector<int64_t>>{{0, 4, 5, 0, 7},
                                                  {3, 0, 5, 0, 0},
                                                  {3, 4, 0, 6, 0},
                                                  {3, 4, 5, 0, 7},
                                                  {3, 4, 5, 6, 0}}) {
    REQUIRE(cn_sp_gemm_make_plan(z[0], z[1], z[2], z[3], z[4], CN_FLOAT64, 4,
                                 &p));
    CHECK(p.kind == CN_SP_ZERO);
  }
  CHECK_FALSE(
      cn_sp_gemm_make_plan(1LL << 31, 4, 5, 6, 7, CN_FLOAT64, 8, &p));
  CHECK_FALSE(
      cn_sp_gemm_make_plan(3, 4, 5, 1LL << 32, 7, CN_FLOAT64, 8, &p));
}
