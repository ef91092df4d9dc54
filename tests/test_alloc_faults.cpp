// Allocation-failure sweep: a representative C workload is run with its
// 1st, 2nd, ... host allocation failing (cn_debug_fault_alloc) until it
// completes without reaching the failing allocation. Every failure must come
// back as CN_ERR_MEMORY (or be absorbed with the right result), release
// everything (LSan checks that in the sanitizer build), and leave the engine
// in a state where the next run gives the reference result.
#include <catch2/catch.hpp>

#include <chrono>
#include <complex>
#include <cstring>
#include <vector>

#include "cunumpy/cunumpy.h"

namespace {

// Arrays a workload run made; all released at the end of the run, on
// every path.
// The output of a call goes to slot() and joins arrays only once the call
// returned (STEP), so arrays.back() among the same call's arguments is the
// previous result whatever order the compiler evaluates them in.
struct Owned {
  std::vector<cn_array> arrays;
  cn_array pending = nullptr;
  cn_rng rng = nullptr;
  cn_array *slot() { return &pending; }
  void keep() {
    if (pending)
      arrays.push_back(pending);
    pending = nullptr;
  }
  ~Owned() {
    keep();
    for (cn_array a : arrays)
      cn_array_release(a);
    cn_rng_release(rng);
  }
};

// Appends a's values (as complex128: real and imaginary parts) to out.
cn_status grab(std::vector<double> &out, cn_array a) {
  cn_array c = nullptr;
  cn_status st = cn_astype(&c, a, CN_COMPLEX128, 1);
  if (st != CN_OK)
    return st;
  int64_t n = 0;
  cn_array_size(&n, c);
  std::vector<double> v((size_t)(2 * n));
  st = cn_copy_to_buffer(v.data(), 16 * n, c, CN_ORDER_C);
  cn_array_release(c);
  if (st == CN_OK)
    out.insert(out.end(), v.begin(), v.end());
  return st;
}

#define STEP(call)                                                             \
  do {                                                                         \
    cn_status st_ = (call);                                                    \
    o.keep();                                                                  \
    if (st_ != CN_OK)                                                          \
      return st_;                                                              \
  } while (0)

// Creation, elementwise with casting, reductions, views, take, masks, sort,
// solve, svd, FFT (small, and large enough for the buffered pass path),
// random, einsum, concatenate and a DLPack round trip.
cn_status workload(std::vector<double> &res) {
  Owned o;
  cn_array a, ai, c;
  STEP(cn_arange(o.slot(), 0, 24, 1, CN_FLOAT64));
  int64_t s46[2] = {4, 6};
  STEP(cn_reshape(o.slot(), o.arrays.back(), 2, s46, CN_ORDER_C));
  a = o.arrays.back();
  STEP(cn_arange_int(o.slot(), -12, 12, 1, CN_INT32));
  STEP(cn_reshape(o.slot(), o.arrays.back(), 2, s46, CN_ORDER_C));
  ai = o.arrays.back();
  STEP(cn_multiply(o.slot(), a, ai, nullptr));
  c = o.arrays.back();
  STEP(grab(res, c));

  int32_t ax1 = 1;
  STEP(cn_sum(o.slot(), c, 1, &ax1, 0, CN_DTYPE_DEFAULT, nullptr));
  STEP(grab(res, o.arrays.back()));
  STEP(cn_max(o.slot(), ai, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
              nullptr));
  STEP(grab(res, o.arrays.back()));

  int64_t st0[2] = {0, 5}, sp0[2] = {4, -7}, ss0[2] = {2, -2};
  STEP(cn_slice(o.slot(), c, 2, st0, sp0, ss0));
  STEP(cn_copy(o.slot(), o.arrays.back(), CN_ORDER_F));
  STEP(grab(res, o.arrays.back()));

  int64_t idx[3] = {5, 0, 2}, n3 = 3;
  STEP(cn_from_host(o.slot(), idx, 0, sizeof idx, 1, &n3, nullptr, CN_INT64));
  STEP(cn_take(o.slot(), a, o.arrays.back(), 1, CN_INDEX_RAISE, nullptr));
  STEP(grab(res, o.arrays.back()));
  STEP(cn_greater(o.slot(), c, ai, nullptr));
  STEP(cn_mask_get(o.slot(), a, o.arrays.back()));
  STEP(grab(res, o.arrays.back()));

  STEP(cn_sort(o.slot(), c, 0));
  STEP(grab(res, o.arrays.back()));
  STEP(cn_argsort(o.slot(), c, -1));
  STEP(grab(res, o.arrays.back()));

  STEP(cn_eye(o.slot(), 4, 4, 0, CN_FLOAT64, CN_ORDER_C));
  cn_array eye = o.arrays.back();
  int64_t z2[2] = {0, 0}, s44[2] = {4, 4}, one2[2] = {1, 1};
  STEP(cn_slice(o.slot(), a, 2, z2, s44, one2));
  STEP(cn_add(o.slot(), o.arrays.back(), eye, nullptr));
  cn_array m = o.arrays.back();
  STEP(cn_add(o.slot(), m, eye, nullptr)); // diagonally dominant enough
  STEP(cn_multiply(o.slot(), o.arrays.back(), eye, nullptr));
  STEP(cn_add(o.slot(), o.arrays.back(), m, nullptr));
  cn_array sq = o.arrays.back();
  STEP(cn_arange(o.slot(), 1, 5, 1, CN_FLOAT64));
  STEP(cn_linalg_solve(o.slot(), sq, o.arrays.back()));
  STEP(grab(res, o.arrays.back()));
  cn_array u = nullptr, vh = nullptr;
  STEP(cn_linalg_svd(&u, o.slot(), &vh, a, 0, 0));
  STEP(grab(res, o.arrays.back()));

  STEP(cn_fft(o.slot(), c, CN_FFT_N_NONE, 1, CN_FFT_NORM_BACKWARD));
  STEP(grab(res, o.arrays.back()));
  STEP(cn_rfft(o.slot(), a, CN_FFT_N_NONE, 0, CN_FFT_NORM_ORTHO));
  STEP(grab(res, o.arrays.back()));
  int64_t big[2] = {256, 256};
  STEP(cn_ones(o.slot(), 2, big, CN_COMPLEX128, CN_ORDER_C));
  STEP(cn_fft(o.slot(), o.arrays.back(), CN_FFT_N_NONE, 0,
              CN_FFT_NORM_BACKWARD));
  STEP(cn_sum(o.slot(), o.arrays.back(), CN_ALL_AXES, nullptr, 0,
              CN_DTYPE_DEFAULT, nullptr));
  STEP(grab(res, o.arrays.back()));

  STEP(cn_rng_create(&o.rng, 42));
  int64_t n8 = 8;
  STEP(cn_random_normal(o.slot(), o.rng, 1.0, 2.0, 1, &n8, CN_FLOAT64));
  STEP(grab(res, o.arrays.back()));

  cn_array ops[2] = {a, c};
  STEP(cn_einsum(o.slot(), "ij,kj->ik", 2, ops));
  STEP(grab(res, o.arrays.back()));
  STEP(cn_concatenate(o.slot(), 2, ops, 0, CN_DTYPE_DEFAULT));
  STEP(grab(res, o.arrays.back()));

  DLManagedTensorVersioned *t = nullptr;
  STEP(cn_to_dlpack(&t, c));
  STEP(cn_from_dlpack(o.slot(), t)); // consumes t on every path
  STEP(cn_negative(o.slot(), o.arrays.back(), nullptr));
  STEP(grab(res, o.arrays.back()));
  return CN_OK;
}

} // namespace

TEST_CASE("every allocation failure of a workload is reported and clean",
          "[memory]") {
  std::vector<double> ref;
  cn_debug_fault_alloc(0);
  REQUIRE(workload(ref) == CN_OK);
  REQUIRE(ref.size() > 100);

  auto t0 = std::chrono::steady_clock::now();
  int64_t points = 0, absorbed = 0;
  for (int64_t n = 1;; n++) {
    std::vector<double> got;
    cn_debug_fault_alloc(n);
    cn_status st = workload(got);
    int64_t reached = cn_debug_alloc_count();
    cn_debug_fault_alloc(0);
    if (reached < n) { // the workload ran out of allocations first
      REQUIRE(st == CN_OK);
      REQUIRE(got == ref);
      break;
    }
    points++;
    INFO("failing allocation " << n << ": " << cn_status_name(st) << " "
                               << cn_last_error());
    if (st == CN_OK) {
      // A failure the engine could absorb (a cache left unfilled).
      absorbed++;
      REQUIRE(got == ref);
    } else {
      REQUIRE(st == CN_ERR_MEMORY);
    }
    std::vector<double> again;
    REQUIRE(workload(again) == CN_OK);
    REQUIRE(again == ref);
    REQUIRE(n < 100000);
  }
  double secs = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - t0).count();
  WARN("allocation points swept: " << points << " (" << absorbed
                                   << " absorbed) in " << secs << " s");
  REQUIRE(points > 50);
}

TEST_CASE("the fault hook counts only while armed and fails once",
          "[memory]") {
  cn_debug_fault_alloc(0);
  int64_t shape = 4;
  cn_array a = nullptr, b = nullptr;
  REQUIRE(cn_zeros(&a, 1, &shape, CN_FLOAT64, CN_ORDER_C) == CN_OK);
  REQUIRE(cn_debug_alloc_count() == 0);
  cn_array_release(a);
  a = nullptr;

  cn_debug_fault_alloc(1);
  REQUIRE(cn_zeros(&a, 1, &shape, CN_FLOAT64, CN_ORDER_C) == CN_ERR_MEMORY);
  REQUIRE(a == nullptr);
  // Only the first allocation fails; the next call succeeds.
  REQUIRE(cn_zeros(&b, 1, &shape, CN_FLOAT64, CN_ORDER_C) == CN_OK);
  REQUIRE(cn_debug_alloc_count() > 1);
  cn_array_release(b);
  cn_debug_fault_alloc(-3); // off
  REQUIRE(cn_debug_alloc_count() == 0);
}
