// Threads sharing the engine: several std::threads create arrays, run
// elementwise ops and reductions on a shared input, take and drop views of
// it, release their own references to shared handles while others use
// them, and hit error paths whose messages (cn_last_error) are per thread.
// Results are checked against naive loops. scripts/sanitize.sh tsan runs
// this under ThreadSanitizer.
#include "testutil.hpp"

#include <atomic>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 6;
constexpr int kIters = 60;
constexpr int64_t kN = 257; // odd: exercises vector tails

double sum_of(cn_array a) {
  cn_array s = nullptr;
  if (cn_sum(&s, a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT, nullptr) != CN_OK)
    return NAN;
  cn_scalar v{};
  cn_status st = cn_item(&v, s);
  cn_array_release(s);
  return st == CN_OK ? v.re : NAN;
}

} // namespace

TEST_CASE("threads share handles, views and error state", "[threads]") {
  // shared input 0, 1, ..., kN-1 (float64), one reference per thread
  cn_array shared = nullptr;
  CN_REQUIRE_OK(cn_arange(&shared, 0, (double)kN, 1, CN_FLOAT64));
  for (int t = 0; t < kThreads; t++)
    CN_REQUIRE_OK(cn_array_retain(shared));
  const double total = (double)kN * (kN - 1) / 2;
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; t++) {
    pool.emplace_back([&, t] {
      auto fail = [&](int line) {
        if (failures++ == 0)
          fprintf(stderr, "test_threads: first failure at line %d: %s\n",
                  line, cn_last_error());
      };
      for (int it = 0; it < kIters; it++) {
        // creation and elementwise: shared + k, its sum against the oracle
        cn_array k = nullptr, y = nullptr;
        cn_scalar kv{};
        kv.kind = CN_SCALAR_FLOAT;
        kv.re = t + 1;
        if (cn_from_scalar(&k, kv, CN_FLOAT64) != CN_OK ||
            cn_add(&y, shared, k, nullptr) != CN_OK) {
          fail(__LINE__);
        } else if (sum_of(y) != total + (double)kN * (t + 1)) {
          fail(__LINE__);
        }
        cn_array_release(k);
        cn_array_release(y);
        // views of the shared array: reversed every other element
        cn_array v = nullptr;
        if (cn_slice_axis(&v, shared, 0, CN_SLICE_NONE, CN_SLICE_NONE, -2) !=
            CN_OK) {
          fail(__LINE__);
        } else {
          double want = 0;
          for (int64_t i = kN - 1; i >= 0; i -= 2)
            want += (double)i;
          if (sum_of(v) != want)
            fail(__LINE__);
        }
        cn_array_release(v);
        // error path: the message is this thread's own
        cn_array bad = nullptr;
        int64_t shape[2] = {3, 5};
        if (cn_reshape(&bad, shared, 2, shape, CN_ORDER_C) == CN_OK)
          fail(__LINE__);
        std::string msg = cn_last_error();
        if (msg.find("cn_reshape") == std::string::npos)
          fail(__LINE__);
        cn_clear_error();
        if (cn_last_error()[0] != '\0' && cn_last_status() != CN_OK)
          fail(__LINE__);
      }
      // drop this thread's reference while the others may still use it
      cn_array_release(shared);
    });
  }
  for (auto &th : pool)
    th.join();
  REQUIRE(failures.load() == 0);
  int64_t rc = 0;
  CN_REQUIRE_OK(cn_array_refcount(&rc, shared));
  REQUIRE(rc == 1);
  cn_array_release(shared);
}
