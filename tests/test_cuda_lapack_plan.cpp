// The CUDA lapack slot's planner (core/cuda/lapack_plan.c), on the CPU: the
// routine chosen per kind and size, the shapes and leading dimensions given
// to cuSOLVER, the cases that copy first (the adjoint for wide SVDs, the
// Jacobi routines' u and V copied out afterwards), the scratch layout and
// the reading of the info slots. The slot only ever sees packed
// column-major matrices (the core packs strided, negative-stride and
// broadcast inputs first), so the layouts here are those of packed batches.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "cuda/lapack_plan.h"

static cn_cu_la_problem prob(cn_cu_la_op op, int64_t batch, int64_t m,
                             int64_t n, int64_t k = 0, bool vectors = false,
                             bool full = false, size_t real = 8,
                             bool cplx = false) {
  cn_cu_la_problem p{};
  p.op = op;
  p.batch = batch;
  p.m = m;
  p.n = n;
  p.k = k;
  p.vectors = vectors;
  p.full = full;
  p.real_size = real;
  p.itemsize = cplx ? 2 * real : real;
  return p;
}

static cn_cu_lapack_plan make(const cn_cu_la_problem &p, size_t work = 1000) {
  cn_cu_lapack_plan pl;
  REQUIRE(cn_cu_lapack_plan_make(&pl, &p));
  REQUIRE(cn_cu_lapack_plan_layout(&pl, &p, work));
  return pl;
}

// Every used region is aligned, inside total and apart from the others;
// info and flag are adjacent at the start.
static void check_layout(const cn_cu_lapack_plan &pl) {
  REQUIRE(pl.info.off == 0);
  REQUIRE(pl.info.bytes == (size_t)pl.ninfo * 4);
  REQUIRE(pl.flag.off == pl.info.bytes);
  REQUIRE(pl.flag.bytes == 4);
  const cn_cu_la_region *r[] = {&pl.ipiv,  &pl.tau,    &pl.work,
                                &pl.a_adj, &pl.u_tmp,  &pl.vt_tmp,
                                &pl.lsq_u, &pl.lsq_vt, &pl.c_tmp};
  size_t end = pl.flag.off + pl.flag.bytes;
  for (const cn_cu_la_region *x : r) {
    if (x->bytes == 0)
      continue;
    REQUIRE(x->off % CN_CU_LA_ALIGN == 0);
    REQUIRE(x->off >= end); // in order, no overlap
    end = x->off + x->bytes;
  }
  REQUIRE(pl.total == end);
}

TEST_CASE("lapack plan: cholesky") {
  auto pl = make(prob(CN_CU_LA_CHOLESKY, 3, 4, 4));
  REQUIRE(pl.route == CN_CU_LA_POTRF);
  REQUIRE(pl.lda == 4);
  REQUIRE(pl.ninfo == 3);
  REQUIRE(pl.finite_check == 0);
  REQUIRE(pl.work.bytes == 1000);
  check_layout(pl);
  auto e = make(prob(CN_CU_LA_CHOLESKY, 2, 0, 0), 0);
  REQUIRE(e.route == CN_CU_LA_NOTHING);
  check_layout(e);
  auto one = make(prob(CN_CU_LA_CHOLESKY, 1, 1, 1));
  REQUIRE(one.route == CN_CU_LA_POTRF);
  REQUIRE(one.lda == 1);
}

TEST_CASE("lapack plan: qr reduced, complete, r only, empty") {
  auto r = make(prob(CN_CU_LA_QR, 2, 5, 3, 0, true, false, 4, true));
  REQUIRE(r.route == CN_CU_LA_GEQRF);
  REQUIRE(r.kr == 3);
  REQUIRE(r.second_routine);
  REQUIRE(r.ninfo == 4); // geqrf and orgqr slots
  REQUIRE(r.tau.bytes == 3 * 8);
  check_layout(r);
  auto c = make(prob(CN_CU_LA_QR, 1, 5, 3, 0, true, true));
  REQUIRE(c.kr == 5);
  auto wide = make(prob(CN_CU_LA_QR, 1, 2, 6, 0, true, true));
  REQUIRE(wide.kr == 2);
  REQUIRE(wide.tau.bytes == 2 * 8);
  auto ronly = make(prob(CN_CU_LA_QR, 3, 4, 4, 0, false));
  REQUIRE_FALSE(ronly.second_routine);
  REQUIRE(ronly.ninfo == 3);
  auto e = make(prob(CN_CU_LA_QR, 1, 4, 0, 0, true, true), 0);
  REQUIRE(e.route == CN_CU_LA_NOTHING); // q = identity (4 x 4), r empty
  REQUIRE(e.kr == 4);
  REQUIRE(e.tau.bytes == 0);
}

TEST_CASE("lapack plan: svd routes") {
  SECTION("tall, one matrix: gesvd in place") {
    auto pl = make(prob(CN_CU_LA_SVD, 1, 50, 40, 0, true, false));
    REQUIRE(pl.route == CN_CU_LA_GESVD);
    REQUIRE(pl.rm == 50);
    REQUIRE(pl.rn == 40);
    REQUIRE(pl.lda == 50);
    REQUIRE(pl.jobu == 'S');
    REQUIRE(pl.ucols == 40);
    REQUIRE(pl.vrows == 40);
    REQUIRE(pl.ldu == 50);
    REQUIRE(pl.ldvt == 40);
    REQUIRE_FALSE(pl.u_via_scratch);
    REQUIRE(pl.a_adj.bytes == 0);
    REQUIRE(pl.u_tmp.bytes == 0);
    REQUIRE(pl.finite_check == 1); // NaN only, as the CPU's gesdd check
    check_layout(pl);
  }
  SECTION("full and values only") {
    auto f = make(prob(CN_CU_LA_SVD, 1, 6, 4, 0, true, true));
    REQUIRE(f.jobu == 'A');
    REQUIRE(f.ucols == 6);
    REQUIRE(f.vrows == 4);
    REQUIRE(f.ldvt == 4);
    auto v = make(prob(CN_CU_LA_SVD, 1, 6, 4));
    REQUIRE(v.jobu == 'N');
    REQUIRE(v.jobvt == 'N');
    REQUIRE(v.ldvt >= 1);
  }
  SECTION("wide: gesvd on the adjoint, copied first and after") {
    auto pl = make(prob(CN_CU_LA_SVD, 2, 40, 50, 0, true, false, 8, true));
    REQUIRE(pl.route == CN_CU_LA_GESVD_ADJOINT);
    REQUIRE(pl.rm == 50);
    REQUIRE(pl.rn == 40);
    REQUIRE(pl.lda == 50);
    REQUIRE(pl.ucols == 40);
    REQUIRE(pl.vrows == 40);
    REQUIRE(pl.ru_rows == 50); // u' of a^H: n x vrows -> vh = u'^H
    REQUIRE(pl.ru_cols == 40);
    REQUIRE(pl.ldu == 50);
    REQUIRE(pl.rvt_rows == 40); // vt' of a^H: m x m -> u = vt'^H
    REQUIRE(pl.rvt_cols == 40);
    REQUIRE(pl.ldvt == 40);
    REQUIRE(pl.u_via_scratch);
    REQUIRE(pl.vt_via_scratch);
    REQUIRE(pl.a_adj.bytes == (size_t)2 * 40 * 50 * 16);
    REQUIRE(pl.u_tmp.bytes == (size_t)2 * 50 * 40 * 16);
    REQUIRE(pl.vt_tmp.bytes == (size_t)2 * 40 * 40 * 16);
    check_layout(pl);
    auto full = make(prob(CN_CU_LA_SVD, 1, 3, 7, 0, true, true));
    REQUIRE(full.route == CN_CU_LA_GESVD_ADJOINT);
    REQUIRE(full.ucols == 3);
    REQUIRE(full.vrows == 7);
    REQUIRE(full.ru_cols == 7);
    REQUIRE(full.jobu == 'A');
    auto vals = make(prob(CN_CU_LA_SVD, 1, 3, 7));
    REQUIRE_FALSE(vals.u_via_scratch);
    REQUIRE(vals.u_tmp.bytes == 0);
    REQUIRE(vals.a_adj.bytes == (size_t)3 * 7 * 8);
  }
  SECTION("small batches: gesvdjBatched, u and V copied out") {
    auto pl = make(prob(CN_CU_LA_SVD, 10, 32, 5, 0, true, false, 4));
    REQUIRE(pl.route == CN_CU_LA_GESVDJ_BATCHED);
    REQUIRE(pl.ru_rows == 32);
    REQUIRE(pl.ru_cols == 32);
    REQUIRE(pl.rvt_rows == 5);
    REQUIRE(pl.ucols == 5);
    REQUIRE(pl.u_tmp.bytes == (size_t)10 * 32 * 32 * 4);
    REQUIRE(pl.vt_tmp.bytes == (size_t)10 * 5 * 5 * 4);
    REQUIRE(pl.ninfo == 10);
    check_layout(pl);
    auto tiny = make(prob(CN_CU_LA_SVD, 2, 1, 1, 0, false));
    REQUIRE(tiny.route == CN_CU_LA_GESVDJ_BATCHED);
    REQUIRE(make(prob(CN_CU_LA_SVD, 1, 8, 8)).route == CN_CU_LA_GESVD);
    REQUIRE(make(prob(CN_CU_LA_SVD, 4, 33, 8)).route == CN_CU_LA_GESVD);
    REQUIRE(make(prob(CN_CU_LA_SVD, 4, 8, 33)).route ==
            CN_CU_LA_GESVD_ADJOINT);
  }
  SECTION("empty: identity fills only") {
    auto e = make(prob(CN_CU_LA_SVD, 3, 0, 4, 0, true, true), 0);
    REQUIRE(e.route == CN_CU_LA_NOTHING);
    REQUIRE(e.ucols == 0);
    REQUIRE(e.vrows == 4);
    REQUIRE(e.finite_check == 0);
  }
}

TEST_CASE("lapack plan: eig and eigh") {
  auto re = make(prob(CN_CU_LA_EIG, 3, 6, 6, 0, true, false, 8, false));
  REQUIRE(re.route == CN_CU_LA_GEEV);
  REQUIRE(re.finite_check == 2);
  REQUIRE(re.u_tmp.bytes == (size_t)6 * 6 * 8); // one matrix of real vectors
  check_layout(re);
  auto cx = make(prob(CN_CU_LA_EIG, 3, 6, 6, 0, true, false, 8, true));
  REQUIRE(cx.u_tmp.bytes == 0); // complex vectors written in place
  auto novec = make(prob(CN_CU_LA_EIG, 3, 6, 6, 0, false));
  REQUIRE(novec.u_tmp.bytes == 0);
  REQUIRE(make(prob(CN_CU_LA_EIG, 1, 0, 0)).route == CN_CU_LA_NOTHING);

  REQUIRE(make(prob(CN_CU_LA_EIGH, 5, 32, 32, 0, true)).route ==
          CN_CU_LA_SYEVJ_BATCHED);
  REQUIRE(make(prob(CN_CU_LA_EIGH, 5, 33, 33, 0, true)).route ==
          CN_CU_LA_SYEVD);
  REQUIRE(make(prob(CN_CU_LA_EIGH, 1, 4, 4, 0, true)).route ==
          CN_CU_LA_SYEVD);
  REQUIRE(make(prob(CN_CU_LA_EIGH, 2, 0, 0)).route == CN_CU_LA_NOTHING);
  REQUIRE(make(prob(CN_CU_LA_EIGH, 2, 3, 3)).finite_check == 0);
}

TEST_CASE("lapack plan: solve, inv, slogdet") {
  auto s = make(prob(CN_CU_LA_SOLVE, 4, 7, 7, 2));
  REQUIRE(s.route == CN_CU_LA_GETRF);
  REQUIRE(s.second_routine);
  REQUIRE(s.ninfo == 8);
  REQUIRE(s.ipiv.bytes == 7 * 8); // pivots of one matrix at a time
  check_layout(s);
  REQUIRE(make(prob(CN_CU_LA_SOLVE, 4, 7, 7, 0)).route == CN_CU_LA_NOTHING);
  REQUIRE(make(prob(CN_CU_LA_SOLVE, 4, 0, 0, 3)).route == CN_CU_LA_NOTHING);
  auto inv = make(prob(CN_CU_LA_INV, 2, 3, 3, 3));
  REQUIRE(inv.route == CN_CU_LA_GETRF);
  REQUIRE(make(prob(CN_CU_LA_INV, 2, 0, 0, 0)).route == CN_CU_LA_NOTHING);
  auto d = make(prob(CN_CU_LA_SLOGDET, 5, 3, 3));
  REQUIRE(d.route == CN_CU_LA_GETRF);
  REQUIRE_FALSE(d.second_routine);
  REQUIRE(d.ninfo == 5);
  REQUIRE(d.ipiv.bytes == 5 * 3 * 8); // every matrix's, for the kernel
  check_layout(d);
  auto d0 = make(prob(CN_CU_LA_SLOGDET, 5, 0, 0), 0);
  REQUIRE(d0.route == CN_CU_LA_NOTHING); // sign 1, log 0 from the kernel
  REQUIRE(d0.ninfo == 5);
  REQUIRE(d0.ipiv.bytes == 0);
}

TEST_CASE("lapack plan: lstsq") {
  auto tall = make(prob(CN_CU_LA_LSTSQ, 1, 6, 3, 2));
  REQUIRE(tall.route == CN_CU_LA_LSTSQ_SVD);
  REQUIRE(tall.svd_route == CN_CU_LA_GESVD);
  REQUIRE(tall.ucols == 6); // full u: the residual rows
  REQUIRE(tall.vrows == 3);
  REQUIRE(tall.finite_check == 2);
  REQUIRE(tall.lsq_u.bytes == (size_t)6 * 6 * 8);
  REQUIRE(tall.lsq_vt.bytes == (size_t)3 * 3 * 8);
  REQUIRE(tall.c_tmp.bytes == (size_t)6 * 2 * 8);
  check_layout(tall);
  auto wide = make(prob(CN_CU_LA_LSTSQ, 1, 2, 5, 1, false, false, 4, true));
  REQUIRE(wide.svd_route == CN_CU_LA_GESVD_ADJOINT);
  REQUIRE(wide.ucols == 2);
  REQUIRE(wide.vrows == 2);
  REQUIRE(wide.u_tmp.bytes > 0);
  REQUIRE(wide.c_tmp.bytes == (size_t)2 * 1 * 8);
  check_layout(wide);
  auto norhs = make(prob(CN_CU_LA_LSTSQ, 1, 4, 4, 0));
  REQUIRE(norhs.route == CN_CU_LA_LSTSQ_SVD); // s and rank still computed
  REQUIRE(norhs.c_tmp.bytes == 0);
  REQUIRE(make(prob(CN_CU_LA_LSTSQ, 1, 0, 3, 2)).route == CN_CU_LA_NOTHING);
}

TEST_CASE("lapack plan: invalid problems and overflow") {
  cn_cu_lapack_plan pl;
  auto bad = prob(CN_CU_LA_SVD, 1, -1, 3);
  REQUIRE_FALSE(cn_cu_lapack_plan_make(&pl, &bad));
  // 15: no driver, yet inside the enum's range (C++ makes loading a value
  // outside it undefined).
  auto kind = prob((cn_cu_la_op)15, 1, 2, 2);
  REQUIRE_FALSE(cn_cu_lapack_plan_make(&pl, &kind));
  auto huge = prob(CN_CU_LA_SLOGDET, INT64_C(1) << 40, INT64_C(1) << 30,
                   INT64_C(1) << 30);
  REQUIRE(cn_cu_lapack_plan_make(&pl, &huge));
  REQUIRE_FALSE(cn_cu_lapack_plan_layout(&pl, &huge, 0));
  auto p = prob(CN_CU_LA_CHOLESKY, 1, 2, 2);
  REQUIRE(cn_cu_lapack_plan_make(&pl, &p));
  REQUIRE_FALSE(cn_cu_lapack_plan_layout(&pl, &p, SIZE_MAX - 16));
}

TEST_CASE("lapack plan: info slots") {
  int64_t first, index, bad;
  std::vector<int32_t> ok = {0, 0, 0};
  cn_cu_lapack_first_info(ok.data(), 3, 3, &first, &index, &bad);
  REQUIRE(first == 0);
  REQUIRE(index == -1);
  REQUIRE(bad == -1);
  std::vector<int32_t> two = {0, 3, 2, 0};
  cn_cu_lapack_first_info(two.data(), 4, 4, &first, &index, &bad);
  REQUIRE(first == 3);
  REQUIRE(index == 1);
  REQUIRE(bad == -1);
  // second routine's slots (getrs, orgqr) never report a positive info
  std::vector<int32_t> second = {0, 0, 5, 0};
  cn_cu_lapack_first_info(second.data(), 4, 2, &first, &index, &bad);
  REQUIRE(first == 0);
  REQUIRE(index == -1);
  std::vector<int32_t> neg = {1, 0, 0, -4};
  cn_cu_lapack_first_info(neg.data(), 4, 2, &first, &index, &bad);
  REQUIRE(first == 1);
  REQUIRE(index == 0);
  REQUIRE(bad == 3);
}
