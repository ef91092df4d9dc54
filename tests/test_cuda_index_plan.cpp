// Launch planning of the CUDA indexing kernels (core/cuda/index_plan.c),
// checked on the CPU: the gather/scatter geometry against offsets computed
// by hand, the scatter span of every layout, and the compaction's tiles
// and scan levels by running the plan's scheme on the host against a naive
// prefix sum. No GPU or CUDA header is needed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "cuda/index_plan.h"

namespace {

// The offsets arithmetic of cn_igeom_offs (prelude/index.cuh).
void offs(const cn_cu_igeom &g, int64_t i, int64_t *oi, int64_t *ot,
          int64_t *ox) {
  int64_t r = i, a = 0, b = 0, c = 0;
  for (int d = g.ndim - 1; d >= 0; d--) {
    int64_t k = r % g.shape[d];
    r /= g.shape[d];
    a += k * g.st[0][d];
    if (d != g.axis)
      b += k * g.st[1][d];
    c += k * g.st[2][d];
  }
  *oi = a;
  *ot = b;
  *ox = c;
}

// The compaction scheme of core/cuda/index.c on the host: tile counts, the
// levels scanned tile by tile into the next one, the down-sweep.
std::vector<int64_t> plan_offsets(const cn_cu_cmp_plan &p,
                                  const std::vector<int> &sel,
                                  int64_t *total) {
  std::vector<int64_t> s((size_t)p.scratch_entries, -7);
  for (int64_t t = 0; t < p.tiles; t++) {
    int64_t c = 0;
    for (int64_t i = t * CN_CU_CMP_TILE;
         i < (t + 1) * CN_CU_CMP_TILE && i < p.n; i++)
      c += sel[(size_t)i];
    s[(size_t)(p.off[0] + t)] = c;
  }
  for (int l = 0; l < p.levels; l++) {
    int64_t up = l + 1 < p.levels ? p.off[l + 1] : p.total_off;
    for (int64_t t = 0; t * CN_CU_CMP_TILE < p.len[l]; t++) {
      int64_t acc = 0;
      for (int64_t i = t * CN_CU_CMP_TILE;
           i < (t + 1) * CN_CU_CMP_TILE && i < p.len[l]; i++) {
        int64_t v = s[(size_t)(p.off[l] + i)];
        s[(size_t)(p.off[l] + i)] = acc;
        acc += v;
      }
      s[(size_t)(up + t)] = acc;
    }
  }
  for (int l = p.levels - 2; l >= 0; l--)
    for (int64_t i = 0; i < p.len[l]; i++)
      s[(size_t)(p.off[l] + i)] +=
          s[(size_t)(p.off[l + 1] + i / CN_CU_CMP_TILE)];
  *total = s[(size_t)p.total_off];
  return std::vector<int64_t>(s.begin() + p.off[0],
                              s.begin() + p.off[0] + p.tiles);
}

} // namespace

TEST_CASE("compaction plan: tiles, levels and scratch", "[cuda][index]") {
  cn_cu_cmp_plan p;
  REQUIRE(cn_cu_cmp_plan_make(&p, 0));
  CHECK(p.levels == 0);
  CHECK(p.tiles == 0);
  struct {
    int64_t n, tiles;
    int levels;
  } cases[] = {{1, 1, 1},
               {CN_CU_CMP_TILE, 1, 1},
               {CN_CU_CMP_TILE + 1, 2, 2},
               {(int64_t)CN_CU_CMP_TILE * CN_CU_CMP_TILE, CN_CU_CMP_TILE, 2},
               {(int64_t)CN_CU_CMP_TILE * CN_CU_CMP_TILE + 1,
                CN_CU_CMP_TILE + 1, 3}};
  for (auto &c : cases) {
    REQUIRE(cn_cu_cmp_plan_make(&p, c.n));
    CHECK(p.tiles == c.tiles);
    CHECK(p.levels == c.levels);
    CHECK(p.len[0] == c.tiles);
    CHECK(p.len[p.levels - 1] == 1);
    int64_t off = 0;
    for (int l = 0; l < p.levels; l++) {
      CHECK(p.off[l] == off);
      if (l > 0)
        CHECK(p.len[l] ==
              (p.len[l - 1] + CN_CU_CMP_TILE - 1) / CN_CU_CMP_TILE);
      off += p.len[l];
    }
    CHECK(p.total_off == off);
    CHECK(p.scratch_entries == off + 1);
  }
  // The largest array fits in the level limit.
  REQUIRE(cn_cu_cmp_plan_make(&p, INT64_MAX));
  CHECK(p.levels <= CN_CU_CMP_MAX_LEVELS);
}

TEST_CASE("compaction plan: scanned tile offsets match a naive prefix sum",
          "[cuda][index]") {
  const int64_t T = CN_CU_CMP_TILE;
  struct {
    int64_t n;
    int pattern; // 0 all false, 1 all true, 2 every third, 3 sparse
  } cases[] = {{1, 1},         {1, 0},         {T - 1, 1},
               {T, 2},         {T + 1, 3},     {3 * T + 17, 2},
               {T * T + 5, 1}, {T * T + 5, 3}, {2 * T * T + 3, 0}};
  for (auto &c : cases) {
    std::vector<int> sel((size_t)c.n);
    for (int64_t i = 0; i < c.n; i++)
      sel[(size_t)i] = c.pattern == 1   ? 1
                       : c.pattern == 2 ? (i % 3 == 0)
                       : c.pattern == 3 ? (i % 1000 == 999)
                                        : 0;
    cn_cu_cmp_plan p;
    REQUIRE(cn_cu_cmp_plan_make(&p, c.n));
    int64_t total = -1;
    std::vector<int64_t> offs = plan_offsets(p, sel, &total);
    int64_t acc = 0;
    bool ok = true;
    for (int64_t t = 0; t < p.tiles; t++) {
      ok = ok && offs[(size_t)t] == acc;
      for (int64_t i = t * T; i < (t + 1) * T && i < c.n; i++)
        acc += sel[(size_t)i];
    }
    INFO("n = " << c.n << ", pattern " << c.pattern);
    CHECK(ok);
    CHECK(total == acc);
  }
}

TEST_CASE("index geometry: take and take_along offsets", "[cuda][index]") {
  // a: 3 x 4 transposed view of a 4 x 3 buffer (strides 1, 3), with the
  // second axis reversed (stride -3 from the last column).
  const int64_t shape[2] = {3, 2};     // out: 3 rows, 2 taken columns
  const int64_t out_st[2] = {2, 1};    // C-contiguous out
  const int64_t a_st[2] = {1, -3};     // a's strides (elements)
  const int64_t idx_take[2] = {0, 0};  // unused for take
  cn_cu_igeom g;
  cn_cu_index_geom(&g, 2, shape, out_st, a_st, idx_take, 1, false);
  CHECK(g.st[2][0] == 0);
  CHECK(g.st[2][1] == 1);
  const int64_t idx[2] = {3, 0};
  for (int64_t i = 0; i < 6; i++) {
    int64_t oi, ot, ox;
    offs(g, i, &oi, &ot, &ox);
    int64_t r = i / 2, j = i % 2;
    CHECK(oi == r * 2 + j);
    CHECK(ox == j);
    CHECK(ot + idx[ox] * g.st[1][g.axis] == r * 1 + idx[j] * -3);
  }
  // take_along with a broadcast (stride 0) index row and a 1 x 1 case.
  const int64_t idx_st[2] = {0, 1};
  cn_cu_index_geom(&g, 2, shape, out_st, a_st, idx_st, 1, true);
  for (int64_t i = 0; i < 6; i++) {
    int64_t oi, ot, ox;
    offs(g, i, &oi, &ot, &ox);
    CHECK(ox == i % 2);
  }
  const int64_t one[1] = {1}, st1[1] = {1};
  cn_cu_index_geom(&g, 1, one, st1, st1, st1, 0, true);
  int64_t oi, ot, ox;
  offs(g, 0, &oi, &ot, &ox);
  CHECK((oi == 0 && ot == 0 && ox == 0));
}

TEST_CASE("scatter span of every layout", "[cuda][index]") {
  struct {
    int nd;
    int64_t shape[3], strides[3], lo, span;
  } cases[] = {
      {2, {2, 3}, {3, 1}, 0, 6},      // C-contiguous
      {2, {3, 2}, {1, 3}, 0, 6},      // transposed
      {1, {3}, {-1}, -2, 3},          // reversed
      {2, {4, 3}, {0, 1}, 0, 3},      // broadcast rows (stride 0)
      {1, {3}, {2}, 0, 5},            // every other element
      {2, {1, 1}, {1, 1}, 0, 1},      // 1 x 1
      {2, {0, 5}, {5, 1}, 0, 0},      // empty
      {3, {2, 2, 2}, {-4, 2, -1}, -5, 8}, // mixed signs
      {0, {0}, {0}, 0, 1},            // 0-d
  };
  for (auto &c : cases) {
    int64_t lo = 99, span = 99;
    cn_cu_scatter_span(c.nd, c.shape, c.strides, &lo, &span);
    CHECK(lo == c.lo);
    CHECK(span == c.span);
  }
}

TEST_CASE("scatter: claims unless the span dwarfs the values",
          "[cuda][index]") {
  const int64_t small = (int64_t)1 << 23;
  CHECK(cn_cu_scatter_claims(0, 1));
  CHECK(cn_cu_scatter_claims(1, small));        // 64 MiB of claims at most
  CHECK_FALSE(cn_cu_scatter_claims(1, small + 4));
  CHECK(cn_cu_scatter_claims(small, 4 * small)); // span within 4 n
  CHECK_FALSE(cn_cu_scatter_claims(small, 4 * small + 4));
  CHECK(cn_cu_scatter_claims(INT64_MAX / 4, INT64_MAX)); // no overflow
}
