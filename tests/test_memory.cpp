// The host pool's statistics, free blocks and limit (cunumpy/memory.h),
// against the byte counts the arrays imply. Arrays of 2 MiB and more are
// large blocks of the pool; its size classes round a 2 MiB request to
// exactly 2 MiB (a multiple of the class step).
#include "testutil.hpp"

namespace {

const int64_t kMiB = 1 << 20;

int64_t in_use() {
  int64_t u = -1, c = -1;
  REQUIRE(cn_host_memory_info(&u, &c) == CN_OK);
  return u;
}

Arr big(int64_t nbytes) {
  Arr a;
  int64_t n = nbytes / 8;
  CN_REQUIRE_OK(cn_empty(a.out(), 1, &n, CN_FLOAT64, CN_ORDER_C));
  return a;
}

} // namespace

TEST_CASE("memory: freed large blocks are cached and counted") {
  CN_REQUIRE_OK(cn_set_backend("cpu"));
  cn_free_memory();
  int64_t blocks = -1, base = in_use();
  CN_REQUIRE_OK(cn_host_pool_free_blocks(&blocks));
  REQUIRE(blocks == 0);
  {
    Arr a = big(2 * kMiB), b = big(4 * kMiB);
    REQUIRE(in_use() == base + 6 * kMiB);
  }
  REQUIRE(in_use() == base);
  CN_REQUIRE_OK(cn_host_pool_free_blocks(&blocks));
  REQUIRE(blocks == 2);
  int64_t u = 0, cached = 0;
  CN_REQUIRE_OK(cn_host_memory_info(&u, &cached));
  REQUIRE(cached == 6 * kMiB);
  cn_free_memory();
  CN_REQUIRE_OK(cn_host_pool_free_blocks(&blocks));
  REQUIRE(blocks == 0);
  CN_REQUIRE_ERR(cn_host_pool_free_blocks(nullptr), CN_ERR_VALUE,
                 "output pointer is NULL");
}

TEST_CASE("memory: the host pool limit refuses what would exceed it") {
  CN_REQUIRE_OK(cn_set_backend("cpu"));
  int64_t lim = -1;
  CN_REQUIRE_OK(cn_host_pool_get_limit(&lim));
  REQUIRE(lim == 0);
  int64_t base = in_use();
  CN_REQUIRE_OK(cn_host_pool_set_limit(base + 5 * kMiB));
  CN_REQUIRE_OK(cn_host_pool_get_limit(&lim));
  REQUIRE(lim == base + 5 * kMiB);
  {
    Arr a = big(4 * kMiB); // fits
    Arr b;
    int64_t n = 2 * kMiB / 8;
    CN_REQUIRE_ERR(cn_empty(b.out(), 1, &n, CN_FLOAT64, CN_ORDER_C),
                   CN_ERR_MEMORY, "host pool limit");
    REQUIRE(b.h == nullptr);
    REQUIRE(in_use() == base + 4 * kMiB);
    // Small blocks are not pooled, so not capped.
    Arr small;
    int64_t k = 100;
    CN_REQUIRE_OK(cn_empty(small.out(), 1, &k, CN_FLOAT64, CN_ORDER_C));
  }
  {
    Arr b = big(4 * kMiB); // the first one's memory is back
  }
  CN_REQUIRE_ERR(cn_host_pool_set_limit(-1), CN_ERR_VALUE,
                 "argument 'limit' is negative (-1)");
  CN_REQUIRE_OK(cn_host_pool_get_limit(&lim));
  REQUIRE(lim == base + 5 * kMiB);
  CN_REQUIRE_OK(cn_host_pool_set_limit(0));
  {
    Arr c = big(8 * kMiB); // no cap again
  }
  CN_REQUIRE_ERR(cn_host_pool_get_limit(nullptr), CN_ERR_VALUE,
                 "output pointer is NULL");
  cn_free_memory();
}
