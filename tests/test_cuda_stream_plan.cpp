// The CUDA plugin's reading of the interchange protocols' stream numbers and
// of the per-thread-default-stream switch (core/cuda/stream_plan.c), checked
// on the CPU against the conventions as DLPack and the CUDA Array Interface
// v3 state them.
#include <catch2/catch.hpp>

#include <cstdint>

extern "C" {
#include "cuda/stream_plan.h"
}

TEST_CASE("DLPack consumer stream numbers follow CUDA's conventions") {
  CHECK(cn_cu_stream_arg_kind(-1) == CN_CU_STREAM_NO_SYNC);
  CHECK(cn_cu_stream_arg_kind(1) == CN_CU_STREAM_LEGACY);
  CHECK(cn_cu_stream_arg_kind(2) == CN_CU_STREAM_PER_THREAD);
  CHECK(cn_cu_stream_arg_kind(3) == CN_CU_STREAM_HANDLE);
  CHECK(cn_cu_stream_arg_kind(0x7f0000001000LL) == CN_CU_STREAM_HANDLE);
  CHECK(cn_cu_stream_arg_kind(INT64_MAX) == CN_CU_STREAM_HANDLE);
  // 0 is ambiguous for CUDA (legacy or per-thread default); below -1 means
  // nothing.
  CHECK(cn_cu_stream_arg_kind(0) == CN_CU_STREAM_INVALID);
  CHECK(cn_cu_stream_arg_kind(-2) == CN_CU_STREAM_INVALID);
  CHECK(cn_cu_stream_arg_kind(INT64_MIN) == CN_CU_STREAM_INVALID);
}

TEST_CASE("stream numbers round-trip through their kinds") {
  for (int64_t v : {int64_t(-1), int64_t(1), int64_t(2), int64_t(3),
                    int64_t(0x55aa00001230LL)}) {
    cn_cu_stream_kind k = cn_cu_stream_arg_kind(v);
    CHECK(cn_cu_stream_number(k, uintptr_t(v)) == v);
  }
  // The handle only counts for a handle.
  CHECK(cn_cu_stream_number(CN_CU_STREAM_LEGACY, 0xdead0) == 1);
  CHECK(cn_cu_stream_number(CN_CU_STREAM_PER_THREAD, 0xdead0) == 2);
  CHECK(cn_cu_stream_number(CN_CU_STREAM_INVALID, 0xdead0) == 0);
}

TEST_CASE("the environment switch: ours first, CuPy's when ours is unset") {
  CHECK(cn_cu_env_switch(nullptr, nullptr) == 0);
  CHECK(cn_cu_env_switch("1", nullptr) == 1);
  CHECK(cn_cu_env_switch(nullptr, "1") == 1);
  CHECK(cn_cu_env_switch("0", "1") == 0); // ours wins when both are set
  CHECK(cn_cu_env_switch("1", "0") == 1);
  CHECK(cn_cu_env_switch("", "1") == 1);   // empty counts as unset
  CHECK(cn_cu_env_switch("yes", "1") == 1); // malformed counts as unset
  CHECK(cn_cu_env_switch("1x", "0") == 0);
  CHECK(cn_cu_env_switch("2", nullptr) == 1);
  CHECK(cn_cu_env_switch("-1", nullptr) == 1);
  CHECK(cn_cu_env_switch("00", nullptr) == 0);
  CHECK(cn_cu_env_switch("99999999999999999999999", "1") == 1); // overflow
  CHECK(cn_cu_env_switch(nullptr, "0") == 0);
}
