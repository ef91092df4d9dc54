// Status names, the last error and the log channel (cunumpy/status.h).
#include "testutil.hpp"

#include <cstdlib>
#include <mutex>
#include <thread>

namespace {

struct Sink {
  std::mutex m;
  std::vector<std::pair<int32_t, std::string>> records;
};

void record(int32_t level, const char *text, void *user) {
  auto *s = static_cast<Sink *>(user);
  std::lock_guard<std::mutex> g(s->m);
  s->records.emplace_back(level, text);
}

} // namespace

TEST_CASE("status names and descriptions come from the one table") {
  CHECK(std::string(cn_status_name(CN_ERR_AXIS)) == "CN_ERR_AXIS");
  CHECK(std::string(cn_status_name((cn_status)999)) == "CN_UNKNOWN_STATUS");
  CHECK(std::string(cn_status_description((cn_status)999)) ==
        "unknown status");
}

TEST_CASE("the log channel: levels, handler, slow-work records") {
  // Read once, at the first record: this process sets them first.
  unsetenv("CUNUMPY_DEBUG");
  setenv("CUNUMPY_SLOW_LOG_SECONDS", "0", 1);
  CHECK(cn_log_level() == 0);
  Sink sink;
  cn_set_log_handler(record, &sink);

  // at level 0 a failing call makes no record
  Arr a, b, r;
  CN_REQUIRE_OK(cn_ones(&a.h, 1, std::vector<int64_t>{2}.data(), CN_FLOAT64,
                        CN_ORDER_C));
  CN_REQUIRE_OK(cn_ones(&b.h, 1, std::vector<int64_t>{3}.data(), CN_FLOAT64,
                        CN_ORDER_C));
  CHECK(cn_add(&r.h, a.h, b.h, nullptr) == CN_ERR_SHAPE);
  CHECK(sink.records.empty());

  // planning slower than the threshold (0 s here) is an INFO record, made
  // in whichever thread plans
  bool planned = false;
  std::thread t([&planned] {
    Arr x, y;
    int64_t n = 48;
    planned = cn_ones(&x.h, 1, &n, CN_COMPLEX128, CN_ORDER_C) == CN_OK &&
              cn_fft(&y.h, x.h, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD) ==
                  CN_OK;
  });
  t.join();
  REQUIRE(planned);
  REQUIRE(sink.records.size() == 1);
  CHECK(sink.records[0].first == CN_LOG_INFO);
  CHECK(sink.records[0].second.rfind("FFTW planning (estimate) of a rank-1 "
                                     "transform of first length 48 took ",
                                     0) == 0);
  // a cached plan is not planned again: no record
  {
    Arr x, y;
    int64_t n = 48;
    CN_REQUIRE_OK(cn_ones(&x.h, 1, &n, CN_COMPLEX128, CN_ORDER_C));
    CN_REQUIRE_OK(cn_fft(&y.h, x.h, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
  }
  CHECK(sink.records.size() == 1);

  // a removed handler gets nothing more (records go to stderr, up to the
  // level: none here)
  cn_set_log_handler(nullptr, nullptr);
  {
    Arr x, y;
    int64_t n = 50;
    CN_REQUIRE_OK(cn_ones(&x.h, 1, &n, CN_COMPLEX128, CN_ORDER_C));
    CN_REQUIRE_OK(cn_fft(&y.h, x.h, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
  }
  CHECK(sink.records.size() == 1);
}
