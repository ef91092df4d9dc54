// The CUDA sort's planner (core/cuda/sort_plan.c) on the CPU: lane
// geometry, when the input must be copied to lane-major order first,
// segmented vs per-lane sorting, which digit passes remain after constant
// digits are dropped, the order of the steps, and the scratch layout.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "cuda/sort_plan.h"

namespace {

cn_sort_plan plan(std::vector<int64_t> shape, std::vector<int64_t> strides,
                  int32_t axis, int64_t itemsize = 8, bool cplx = false) {
  cn_sort_plan p;
  REQUIRE(cn_sort_plan_make(&p, (int32_t)shape.size(), shape.data(),
                            strides.data(), axis, itemsize, cplx));
  return p;
}

std::vector<int64_t> c_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> st(shape.size());
  int64_t s = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    st[d] = s;
    s *= shape[d];
  }
  return st;
}

bool disjoint_and_aligned(const cn_sort_plan &p, int64_t itemsize) {
  struct part {
    size_t off, size;
  };
  uint64_t t = (uint64_t)p.total;
  std::vector<part> parts = {
      {p.off_keys[0], t * 8},
      {p.off_keys[1], t * 8},
      {p.off_perm[0], t * 8},
      {p.off_perm[1], t * 8},
      {p.off_counts, (size_t)(CN_SORT_RADIX * p.tiles * 8)},
      {p.off_totals, CN_SORT_RADIX * 8},
      {p.off_bits, 2 * CN_SORT_MAX_WORDS * 8},
      {p.off_src, p.copy_input ? t * (uint64_t)itemsize : 0}};
  for (size_t i = 0; i < parts.size(); i++) {
    if (parts[i].off % 256 != 0 || parts[i].off + parts[i].size > p.bytes)
      return false;
    for (size_t j = i + 1; j < parts.size(); j++)
      if (parts[i].size && parts[j].size &&
          parts[i].off < parts[j].off + parts[j].size &&
          parts[j].off < parts[i].off + parts[i].size)
        return false;
  }
  return true;
}

// The steps cn_sort_plan_run issues, as text: "k<word>@<first>i" for keys
// (i: init), "p<shift>@<first>:<cur>" for passes.
struct trace {
  std::string s;
  int fail_at = -1, calls = 0;
};
int tkeys(void *ctx, int32_t w, int64_t first, int64_t len, bool init,
          int cur) {
  trace *t = (trace *)ctx;
  t->s += "k" + std::to_string(w) + "@" + std::to_string(first) +
          (init ? "i" : "") + ":" + std::to_string(cur) + "/" +
          std::to_string(len) + " ";
  return t->calls++ == t->fail_at ? 7 : 0;
}
int tpass(void *ctx, int32_t shift, int64_t first, int64_t len, int cur) {
  trace *t = (trace *)ctx;
  t->s += "p" + std::to_string(shift) + "@" + std::to_string(first) + ":" +
          std::to_string(cur) + " ";
  (void)len;
  return t->calls++ == t->fail_at ? 7 : 0;
}
const cn_sort_steps k_steps = {tkeys, tpass};

} // namespace

TEST_CASE("sort plan: lane geometry and lane-major input", "[cuda_sort]") {
  auto p = plan({3, 5, 7}, c_strides({3, 5, 7}), 2);
  CHECK(p.total == 105);
  CHECK(p.n == 7);
  CHECK(p.nlanes == 15);
  CHECK(p.q == 1);
  CHECK_FALSE(p.copy_input);
  CHECK(p.segmented);
  CHECK(p.nsorts == 1);
  CHECK(p.sort_len == 105);
  CHECK(p.tiles == 1);
  CHECK(disjoint_and_aligned(p, 8));

  // along axis 1 of a C-contiguous array: lanes are strided, copy first
  p = plan({3, 5, 7}, c_strides({3, 5, 7}), 1);
  CHECK(p.n == 5);
  CHECK(p.q == 7);
  CHECK(p.copy_input);
  CHECK(disjoint_and_aligned(p, 8));

  // transposed (Fortran-order) array sorted along axis 0: contiguous lanes
  // but lanes ordered by the other axes in C order needs stride n for axis 1
  p = plan({4, 6}, {1, 4}, 0);
  CHECK_FALSE(p.copy_input);
  CHECK(p.q == 6);
  p = plan({4, 6, 2}, {1, 4, 24}, 0); // lanes would be in F order: copy
  CHECK(p.copy_input);

  // negative strides and stride-0 broadcast axes are not lane-major
  CHECK(plan({8}, {-1}, 0).copy_input);
  CHECK(plan({3, 8}, {0, 1}, 1).copy_input);
  CHECK(plan({3, 8}, {16, 2}, 1).copy_input);
  // extent-1 axes do not matter, whatever their strides
  CHECK_FALSE(plan({1, 8, 1}, {99, 1, -5}, 1).copy_input);
  CHECK_FALSE(plan({8, 1}, {1, 0}, 1).copy_input); // lanes of length 1
  p = plan({8, 1}, {1, 0}, 1);
  CHECK(p.n == 1);
  CHECK(p.nlanes == 8);

  // 1x1 and a single element
  p = plan({1, 1}, {1, 1}, 0);
  CHECK(p.total == 1);
  CHECK(p.nlanes == 1);
  CHECK_FALSE(p.segmented);
  CHECK(p.tiles == 1);
  // 0-d
  p = plan({}, {}, 0);
  CHECK(p.total == 1);
  CHECK(p.n == 1);
  CHECK_FALSE(p.copy_input);
}

TEST_CASE("sort plan: empty arrays need nothing", "[cuda_sort]") {
  auto p = plan({0, 5}, {5, 1}, 1);
  CHECK(p.total == 0);
  CHECK(p.bytes == 0);
  CHECK(p.nsorts == 0);
  p = plan({4, 0}, {0, 1}, 1);
  CHECK(p.total == 0);
  trace t;
  CHECK(cn_sort_plan_run(&p, &k_steps, &t) == 0);
  CHECK(t.s.empty());
}

TEST_CASE("sort plan: segmented or per lane", "[cuda_sort]") {
  const int64_t L = CN_SORT_PER_LANE_MIN_LEN;
  // one lane: a single sort, no segment word
  auto p = plan({3 * L}, {1}, 0);
  CHECK_FALSE(p.segmented);
  CHECK(p.nsorts == 1);
  CHECK(p.tiles == (3 * L + CN_SORT_TILE - 1) / CN_SORT_TILE);
  // few long lanes: one sort each
  p = plan({4, L}, {L, 1}, 1);
  CHECK_FALSE(p.segmented);
  CHECK(p.nsorts == 4);
  CHECK(p.sort_len == L);
  CHECK(p.tiles == L / CN_SORT_TILE);
  // too many lanes, or too short: together
  p = plan({CN_SORT_PER_LANE_MAX_LANES + 1, L}, {L, 1}, 1);
  CHECK(p.segmented);
  CHECK(p.sort_len == (CN_SORT_PER_LANE_MAX_LANES + 1) * L);
  p = plan({4, L - 1}, {L - 1, 1}, 1);
  CHECK(p.segmented);
  CHECK(p.nsorts == 1);
  CHECK(p.tiles == (4 * (L - 1) + CN_SORT_TILE - 1) / CN_SORT_TILE);
}

TEST_CASE("sort plan: constant digits are skipped", "[cuda_sort]") {
  auto p = plan({1000}, {1}, 0, 4);
  uint64_t andb[4] = {0x12340000ull}, orb[4] = {0x1234ffffull};
  cn_sort_plan_passes(&p, andb, orb);
  REQUIRE(p.npasses == 2);
  CHECK(p.passes[0].word == 0);
  CHECK(p.passes[0].shift == 0);
  CHECK(p.passes[1].shift == 8);
  CHECK_FALSE(p.result_in_alt);
  // one differing bit in the top byte only
  andb[0] = 0x7f000005, orb[0] = 0xff000005;
  cn_sort_plan_passes(&p, andb, orb);
  REQUIRE(p.npasses == 1);
  CHECK(p.passes[0].shift == 24);
  CHECK(p.result_in_alt);
  // all keys equal: no pass at all
  andb[0] = orb[0] = 42;
  cn_sort_plan_passes(&p, andb, orb);
  CHECK(p.npasses == 0);
  CHECK_FALSE(p.word_used[0]);
  // full 64-bit keys: eight passes
  andb[0] = 0, orb[0] = ~0ull;
  cn_sort_plan_passes(&p, andb, orb);
  CHECK(p.npasses == 8);
}

TEST_CASE("sort plan: complex words and the segment word", "[cuda_sort]") {
  // 300 lanes of 10: segment word of 9 bits (lanes 0..299) -> two passes
  auto p = plan({300, 10}, {10, 1}, 1, 16, true);
  CHECK(p.key_words == 3);
  CHECK(p.segmented);
  uint64_t andb[4] = {0, 0x80, 0, 0}, orb[4] = {0xff, 0x81ff, 0, 0};
  cn_sort_plan_passes(&p, andb, orb);
  // imaginary byte 0; real bytes 0 and 1; no NaN class; segment bytes 0, 1
  REQUIRE(p.npasses == 5);
  CHECK(p.passes[0].word == 0);
  CHECK(p.passes[1].word == 1);
  CHECK(p.passes[2].word == 1);
  CHECK(p.passes[2].shift == 8);
  CHECK(p.passes[3].word == CN_SORT_WORD_SEGMENT);
  CHECK(p.passes[4].word == CN_SORT_WORD_SEGMENT);
  CHECK(p.passes[4].shift == 8);
  CHECK_FALSE(p.word_used[2]);
  // two lanes: the segment word is one bit
  p = plan({2, 10}, {10, 1}, 1);
  andb[0] = 5, orb[0] = 5;
  cn_sort_plan_passes(&p, andb, orb);
  REQUIRE(p.npasses == 1);
  CHECK(p.passes[0].word == CN_SORT_WORD_SEGMENT);
  // 256 lanes: lane numbers fit one byte
  p = plan({256, 3}, {3, 1}, 1);
  cn_sort_plan_passes(&p, andb, orb);
  CHECK(p.npasses == 1);
  // one lane: no segment word even with many elements
  p = plan({5000}, {1}, 0);
  cn_sort_plan_passes(&p, andb, orb);
  CHECK(p.npasses == 0);
}

TEST_CASE("sort plan: the order of the steps", "[cuda_sort]") {
  auto p = plan({300, 10}, {10, 1}, 1, 16, true);
  uint64_t andb[4] = {0, 0x80, 0, 0}, orb[4] = {0xff, 0x81ff, 3, 0};
  cn_sort_plan_passes(&p, andb, orb);
  trace t;
  CHECK(cn_sort_plan_run(&p, &k_steps, &t) == 0);
  CHECK(t.s == "k0@0i:0/3000 p0@0:0 k1@0:1/3000 p0@0:1 p8@0:0 "
               "k2@0:1/3000 p0@0:1 k3@0:0/3000 p0@0:0 p8@0:1 ");
  CHECK_FALSE(p.result_in_alt);
  // per lane: each lane from its first element, positions initialised
  const int64_t L = CN_SORT_PER_LANE_MIN_LEN;
  p = plan({2, L}, {L, 1}, 1, 1);
  andb[0] = 0, orb[0] = 0xff;
  cn_sort_plan_passes(&p, andb, orb);
  t = trace();
  CHECK(cn_sort_plan_run(&p, &k_steps, &t) == 0);
  std::string l = std::to_string(L);
  CHECK(t.s == "k0@0i:0/" + l + " p0@0:0 k0@" + l + "i:0/" + l + " p0@" + l +
                   ":0 ");
  CHECK(p.result_in_alt);
  // no passes: keys still run once per sort to set the positions
  andb[0] = orb[0] = 3;
  cn_sort_plan_passes(&p, andb, orb);
  t = trace();
  CHECK(cn_sort_plan_run(&p, &k_steps, &t) == 0);
  CHECK(t.s == "k0@0i:0/" + l + " k0@" + l + "i:0/" + l + " ");
  // a failing step stops the run with its status
  andb[0] = 0, orb[0] = 0xffff;
  cn_sort_plan_passes(&p, andb, orb);
  t = trace();
  t.fail_at = 1;
  CHECK(cn_sort_plan_run(&p, &k_steps, &t) == 7);
  CHECK(t.calls == 2);
}

TEST_CASE("sort plan: output positions", "[cuda_sort]") {
  // shape (2, 3, 4) sorted along axis 1: n 3, q 4, lanes (o, j) = lane
  // / q, lane % q; element i of lane at o * 12 + j + 4 i
  CHECK(cn_sort_out_index(0, 0, 3, 4) == 0);
  CHECK(cn_sort_out_index(5, 2, 3, 4) == 12 + 1 + 8);
  CHECK(cn_sort_out_index(7, 1, 3, 4) == 12 + 3 + 4);
}

TEST_CASE("sort plan: scratch sizes that overflow are refused",
          "[cuda_sort]") {
  cn_sort_plan p;
  int64_t shape[2] = {INT64_MAX / 4, 2}, st[2] = {2, 1};
  CHECK_FALSE(cn_sort_plan_make(&p, 2, shape, st, 1, 8, false));
}
