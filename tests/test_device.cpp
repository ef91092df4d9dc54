// The device helpers of cunumpy/device.h: what they answer on the CPU
// backend, the launchers' local-rank variables, and their argument errors.
// With a GPU they act on CUDA devices (checked against cunumpy/cuda.h).
#include "array_testutil.hpp"

#include <cstdlib>

namespace {

const char *const kRankVars[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK",
    "SLURM_LOCALID",              "PMI_LOCAL_RANK",  "PMIX_LOCAL_RANK"};

void clear_rank_vars() {
  for (const char *v : kRankVars)
    unsetenv(v);
}

bool cuda_backend() { return std::string(cn_get_backend()) == "cuda"; }

} // namespace

TEST_CASE("device: local_rank reads each launcher's variable, first wins") {
  clear_rank_vars();
  int32_t r = -7;
  CN_REQUIRE_OK(cn_local_rank(&r));
  REQUIRE(r == 0);
  int32_t k = 3;
  for (const char *v : kRankVars) {
    clear_rank_vars();
    setenv(v, std::to_string(k).c_str(), 1);
    CN_REQUIRE_OK(cn_local_rank(&r));
    INFO(v);
    REQUIRE(r == k);
    k += 2;
  }
  // Open MPI's variable comes before Slurm's; an empty value is unset.
  clear_rank_vars();
  setenv("SLURM_LOCALID", "5", 1);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);
  CN_REQUIRE_OK(cn_local_rank(&r));
  REQUIRE(r == 2);
  setenv("OMPI_COMM_WORLD_LOCAL_RANK", "", 1);
  CN_REQUIRE_OK(cn_local_rank(&r));
  REQUIRE(r == 5);
  clear_rank_vars();
}

TEST_CASE("device: local_rank rejects values that are not ranks") {
  for (const char *bad : {"x", "-1", "3x", "99999999999"}) {
    clear_rank_vars();
    setenv("MPI_LOCALRANKID", bad, 1);
    int32_t r = 11;
    CN_REQUIRE_ERR(cn_local_rank(&r), CN_ERR_VALUE, "MPI_LOCALRANKID is '");
    REQUIRE(r == 11);
    int32_t d = 11;
    CN_REQUIRE_ERR(cn_bind_local_device(&d), CN_ERR_VALUE, "cn_bind_local_device");
    REQUIRE(d == 11);
  }
  clear_rank_vars();
  CN_REQUIRE_ERR(cn_local_rank(nullptr), CN_ERR_VALUE, "output pointer is NULL");
}

TEST_CASE("device: on the CPU backend the helpers do nothing and say so") {
  CN_REQUIRE_OK(cn_set_backend("cpu"));
  CN_REQUIRE_OK(cn_set_device(0));
  CN_REQUIRE_OK(cn_set_device(5)); // no-op: there is no device to select
  int32_t avail = 9;
  int64_t f = 9, t = 9;
  CN_REQUIRE_OK(cn_memory_info(&avail, &f, &t));
  REQUIRE(avail == 0);
  REQUIRE(f == 0);
  REQUIRE(t == 0);
  int32_t d = 9;
  CN_REQUIRE_OK(cn_set_device_for_rank(&d, 7));
  REQUIRE(d == -1);
  clear_rank_vars();
  setenv("SLURM_LOCALID", "3", 1);
  d = 9;
  CN_REQUIRE_OK(cn_bind_local_device(&d));
  REQUIRE(d == -1);
  clear_rank_vars();
  CN_REQUIRE_OK(cn_synchronize_for_mpi(0, nullptr));
  Arr a = tu::arange(6, {2, 3});
  Arr b = tu::arange(0, {0});
  cn_array two[2] = {a.h, b.h};
  CN_REQUIRE_OK(cn_synchronize_for_mpi(2, two));
}

TEST_CASE("device: argument errors") {
  CN_REQUIRE_ERR(cn_set_device(-1), CN_ERR_VALUE, "argument 'device' is -1");
  int32_t avail = 0, d = 4;
  int64_t v = 0;
  CN_REQUIRE_ERR(cn_memory_info(nullptr, &v, &v), CN_ERR_VALUE,
                 "output pointer is NULL");
  CN_REQUIRE_ERR(cn_memory_info(&avail, nullptr, &v), CN_ERR_VALUE,
                 "output pointer is NULL");
  CN_REQUIRE_ERR(cn_memory_info(&avail, &v, nullptr), CN_ERR_VALUE,
                 "output pointer is NULL");
  CN_REQUIRE_ERR(cn_set_device_for_rank(&d, -2), CN_ERR_VALUE,
                 "argument 'rank' is negative (-2)");
  REQUIRE(d == 4);
  CN_REQUIRE_ERR(cn_set_device_for_rank(nullptr, 0), CN_ERR_VALUE,
                 "output pointer is NULL");
  CN_REQUIRE_ERR(cn_bind_local_device(nullptr), CN_ERR_VALUE,
                 "output pointer is NULL");
  CN_REQUIRE_ERR(cn_synchronize_for_mpi(-1, nullptr), CN_ERR_VALUE,
                 "argument 'n' is negative");
  CN_REQUIRE_ERR(cn_synchronize_for_mpi(1, nullptr), CN_ERR_VALUE,
                 "argument 'arrays' is NULL");
  cn_array none[1] = {nullptr};
  CN_REQUIRE_ERR(cn_synchronize_for_mpi(1, none), CN_ERR_VALUE,
                 "argument 'arrays[i]' is NULL");
}

TEST_CASE("device: on the CUDA backend the helpers act on CUDA devices") {
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  if (!cuda_backend()) {
    CN_REQUIRE_OK(cn_set_backend("cpu"));
    return; // no GPU here: the CPU case above is what runs
  }
  int32_t n = 0, d = -5, cur = -5;
  CN_REQUIRE_OK(cn_cuda_device_count(&n));
  REQUIRE(n >= 1);
  CN_REQUIRE_OK(cn_set_device_for_rank(&d, n + 1));
  REQUIRE(d == (n + 1) % n);
  CN_REQUIRE_OK(cn_cuda_get_device(&cur));
  REQUIRE(cur == d);
  CN_REQUIRE_ERR(cn_set_device(n), CN_ERR_DEVICE, "");
  CN_REQUIRE_OK(cn_set_device(0));
  int32_t avail = 0;
  int64_t f = 0, t = 0, f2 = 0, t2 = 0;
  CN_REQUIRE_OK(cn_memory_info(&avail, &f, &t));
  CN_REQUIRE_OK(cn_cuda_memory_info(&f2, &t2, 0));
  REQUIRE(avail == 1);
  REQUIRE(t == t2);
  REQUIRE(0 < f);
  REQUIRE(f <= t);
  Arr a = tu::arange(1000, {1000});
  cn_array one[1] = {a.h};
  CN_REQUIRE_OK(cn_synchronize_for_mpi(1, one));
  CN_REQUIRE_OK(cn_set_backend("cpu"));
}
