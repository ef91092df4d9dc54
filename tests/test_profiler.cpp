// Profiler ranges (cunumpy/profiler.h): the per-thread nesting, its
// errors, and that ranges work without CUDA loaded (no NVTX, no cost).
#include "testutil.hpp"

#include <thread>

TEST_CASE("profiler: ranges nest and pop in order") {
  REQUIRE(cn_range_depth() == 0);
  CN_REQUIRE_OK(cn_range_push("outer", -1));
  CN_REQUIRE_OK(cn_range_push("inner", 0));
  CN_REQUIRE_OK(cn_range_push("colored", 1000)); // palette cycles
  REQUIRE(cn_range_depth() == 3);
  CN_REQUIRE_OK(cn_range_pop());
  CN_REQUIRE_OK(cn_range_pop());
  REQUIRE(cn_range_depth() == 1);
  CN_REQUIRE_OK(cn_range_pop());
  REQUIRE(cn_range_depth() == 0);
  CN_REQUIRE_ERR(cn_range_pop(), CN_ERR_VALUE, "no range is open");
  REQUIRE(cn_range_depth() == 0);
}

TEST_CASE("profiler: argument errors leave the nesting unchanged") {
  CN_REQUIRE_ERR(cn_range_push(nullptr, -1), CN_ERR_VALUE,
                 "argument 'message' is NULL");
  CN_REQUIRE_ERR(cn_range_push("x", -2), CN_ERR_VALUE,
                 "argument 'color_id' is -2");
  REQUIRE(cn_range_depth() == 0);
  for (int i = 0; i < 1024; i++)
    CN_REQUIRE_OK(cn_range_push("deep", i));
  CN_REQUIRE_ERR(cn_range_push("one too many", -1), CN_ERR_VALUE,
                 "1024 ranges are open");
  REQUIRE(cn_range_depth() == 1024);
  for (int i = 0; i < 1024; i++)
    CN_REQUIRE_OK(cn_range_pop());
  REQUIRE(cn_range_depth() == 0);
}

TEST_CASE("profiler: each thread has its own nesting") {
  CN_REQUIRE_OK(cn_range_push("main", -1));
  int32_t other_depth = -1;
  cn_status other_pop = CN_OK;
  std::thread t([&] {
    other_depth = cn_range_depth();
    other_pop = cn_range_pop();
  });
  t.join();
  REQUIRE(other_depth == 0);
  REQUIRE(other_pop == CN_ERR_VALUE);
  REQUIRE(cn_range_depth() == 1);
  CN_REQUIRE_OK(cn_range_pop());
}
