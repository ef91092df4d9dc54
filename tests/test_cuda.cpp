// The public CUDA API (cunumpy/cuda.h) and the CPU fallback. On machines
// without a GPU (CI) every call must fail cleanly with CN_ERR_DEVICE and the
// loader's reason, after validating its arguments, and cn_set_backend("cuda")
// must fall back to the CPU. With a GPU the same calls must work.
#include "testutil.hpp"

#include <cunumpy/cuda.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

static bool have_gpu() { return cn_device_count() > 0; }

#define CN_REQUIRE_UNAVAILABLE(expr)                                           \
  CN_REQUIRE_ERR(expr, CN_ERR_DEVICE, "CUDA is unavailable")

TEST_CASE("cuda: argument errors come before availability") {
  CN_REQUIRE_ERR(cn_cuda_device_count(nullptr), CN_ERR_VALUE,
                 "cn_cuda_device_count: argument 'out' is NULL");
  CN_REQUIRE_ERR(cn_cuda_get_device(nullptr), CN_ERR_VALUE,
                 "cn_cuda_get_device: argument 'out' is NULL");
  int32_t dev = 77;
  CN_REQUIRE_ERR(cn_cuda_set_device_for_rank(&dev, -3), CN_ERR_VALUE,
                 "argument 'rank' is negative (-3)");
  REQUIRE(dev == 77);
  CN_REQUIRE_ERR(cn_cuda_set_device_for_rank(nullptr, 0), CN_ERR_VALUE,
                 "argument 'device' is NULL");
  CN_REQUIRE_ERR(cn_cuda_pool_set_limit(0, -1), CN_ERR_VALUE,
                 "argument 'limit' is negative (-1)");
  CN_REQUIRE_ERR(cn_cuda_pool_used_bytes(nullptr, 0), CN_ERR_VALUE,
                 "argument 'out' is NULL");
  CN_REQUIRE_ERR(cn_cuda_set_allocator(7), CN_ERR_VALUE,
                 "argument 'kind' is 7");
  void *p = &dev;
  CN_REQUIRE_ERR(cn_pin_memory(&p, -5), CN_ERR_VALUE,
                 "argument 'nbytes' is negative (-5)");
  REQUIRE(p == &dev);
  CN_REQUIRE_ERR(cn_pin_memory(nullptr, 5), CN_ERR_VALUE, "'out' is NULL");
  char name[8];
  CN_REQUIRE_ERR(
      cn_cuda_device_properties(name, 0, nullptr, nullptr, nullptr, nullptr, 0),
      CN_ERR_VALUE, "argument 'name_cap' is 0");
  CN_REQUIRE_ERR(cn_stream_create(nullptr, 0), CN_ERR_VALUE,
                 "cn_stream_create: output pointer is NULL");
  CN_REQUIRE_ERR(cn_event_create(nullptr, 1), CN_ERR_VALUE,
                 "cn_event_create: output pointer is NULL");
  CN_REQUIRE_ERR(cn_event_record(nullptr, nullptr), CN_ERR_VALUE,
                 "argument 'e' is NULL");
  double ms = -1;
  CN_REQUIRE_ERR(cn_event_elapsed_ms(&ms, nullptr, nullptr), CN_ERR_VALUE,
                 "argument 'start' is NULL");
  REQUIRE(ms == -1);
  int32_t done = 5;
  CN_REQUIRE_ERR(cn_stream_query(nullptr, nullptr), CN_ERR_VALUE,
                 "argument 'done' is NULL");
  CN_REQUIRE_ERR(cn_event_query(&done, nullptr), CN_ERR_VALUE,
                 "argument 'e' is NULL");
  REQUIRE(done == 5);
  // Releasing nothing is always fine.
  CN_REQUIRE_OK(cn_stream_destroy(nullptr));
  CN_REQUIRE_OK(cn_event_destroy(nullptr));
  CN_REQUIRE_OK(cn_unpin_memory(nullptr));
}

TEST_CASE("cuda: the device attribute table needs no CUDA") {
  int32_t n = 0;
  CN_REQUIRE_OK(cn_cuda_device_attribute_count(&n));
  REQUIRE(n > 100);
  const char *name = nullptr;
  int32_t number = -1;
  CN_REQUIRE_OK(cn_cuda_device_attribute_info(&name, &number, 0));
  REQUIRE(std::string(name) == "MaxThreadsPerBlock");
  REQUIRE(number == 1);
  // names and numbers are unique and name no reserved attribute
  std::vector<std::string> names;
  std::vector<int32_t> numbers;
  for (int32_t i = 0; i < n; i++) {
    CN_REQUIRE_OK(cn_cuda_device_attribute_info(&name, &number, i));
    std::string s(name);
    bool reserved = s.rfind("Reserved", 0) == 0 && s.size() > 8 &&
                    std::isdigit(static_cast<unsigned char>(s[8]));
    REQUIRE(!reserved);
    REQUIRE(std::find(names.begin(), names.end(), name) == names.end());
    REQUIRE(std::find(numbers.begin(), numbers.end(), number) ==
            numbers.end());
    names.push_back(name);
    numbers.push_back(number);
  }
  REQUIRE(std::find(names.begin(), names.end(), "ComputeCapabilityMajor") !=
          names.end());
  name = "unchanged";
  number = 5;
  CN_REQUIRE_ERR(cn_cuda_device_attribute_info(&name, &number, n),
                 CN_ERR_INDEX, "outside [0,");
  CN_REQUIRE_ERR(cn_cuda_device_attribute_info(&name, &number, -1),
                 CN_ERR_INDEX, "index -1");
  REQUIRE((std::string(name) == "unchanged" && number == 5));
  CN_REQUIRE_ERR(cn_cuda_device_attribute_info(nullptr, &number, 0),
                 CN_ERR_VALUE, "argument 'out' is NULL");
  CN_REQUIRE_ERR(cn_cuda_device_attribute_info(&name, nullptr, 0),
                 CN_ERR_VALUE, "argument 'number' is NULL");
  CN_REQUIRE_ERR(cn_cuda_device_attribute_count(nullptr), CN_ERR_VALUE,
                 "argument 'out' is NULL");
  int32_t v = 7;
  CN_REQUIRE_ERR(cn_cuda_device_attribute(&v, 92, 0), CN_ERR_VALUE,
                 "92 is not a cudaDeviceAttr the engine names");
  CN_REQUIRE_ERR(cn_cuda_device_attribute(&v, 0, 0), CN_ERR_VALUE,
                 "0 is not a cudaDeviceAttr");
  CN_REQUIRE_ERR(cn_cuda_device_attribute(nullptr, 1, 0), CN_ERR_VALUE,
                 "argument 'out' is NULL");
  REQUIRE(v == 7);
  if (have_gpu()) {
    CN_REQUIRE_OK(cn_cuda_device_attribute(&v, 10, 0)); // WarpSize
    REQUIRE(v == 32);
    int32_t major = 0;
    CN_REQUIRE_OK(cn_cuda_device_properties(nullptr, 0, nullptr, &major,
                                            nullptr, nullptr, 0));
    CN_REQUIRE_OK(cn_cuda_device_attribute(&v, 75, -1));
    REQUIRE(v == major);
    int64_t hi = 0, lo = 0;
    CN_REQUIRE_OK(cn_cuda_device_uuid(&hi, &lo, nullptr, nullptr, 0));
    REQUIRE((hi != 0 || lo != 0));
    CN_REQUIRE_ERR(cn_cuda_device_attribute(&v, 1, 1 << 20), CN_ERR_DEVICE,
                   "");
  } else {
    CN_REQUIRE_UNAVAILABLE(cn_cuda_device_attribute(&v, 1, 0));
    REQUIRE(v == 7);
    int64_t hi = 3;
    CN_REQUIRE_UNAVAILABLE(cn_cuda_device_uuid(&hi, nullptr, nullptr,
                                               nullptr, 0));
    REQUIRE(hi == 3);
  }
}

TEST_CASE("cuda: cn_empty_pinned validates like cn_empty") {
  Arr a;
  int64_t shape[2] = {2, -1};
  CN_REQUIRE_ERR(cn_empty_pinned(a.out(), 2, shape, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "negative extent -1 on axis 1");
  REQUIRE(a.h == nullptr);
  shape[1] = 3;
  CN_REQUIRE_ERR(
      cn_empty_pinned(a.out(), 2, shape, (cn_dtype)0x1234, CN_ORDER_C),
      CN_ERR_TYPE, "argument 'dtype' is invalid");
  CN_REQUIRE_ERR(
      cn_empty_pinned(a.out(), CN_MAX_DIMS + 1, shape, CN_FLOAT64, CN_ORDER_C),
      CN_ERR_VALUE, "argument 'ndim' is 33");
  CN_REQUIRE_ERR(cn_empty_pinned(a.out(), 2, nullptr, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "argument 'shape' is NULL");
  CN_REQUIRE_ERR(cn_empty_pinned(nullptr, 2, shape, CN_FLOAT64, CN_ORDER_C),
                 CN_ERR_VALUE, "output pointer is NULL");
  REQUIRE(a.h == nullptr);
}

TEST_CASE("cuda: without a GPU every call says why and changes nothing") {
  if (have_gpu())
    return; // covered by the GPU cases below
  int32_t n = -1;
  CN_REQUIRE_OK(cn_cuda_device_count(&n));
  REQUIRE(n == 0);
  int32_t avail = 1;
  CN_REQUIRE_OK(cn_backend_available(&avail, "cuda"));
  REQUIRE(avail == 0);
  std::string reason = cn_backend_unavailable_reason();
  REQUIRE(!reason.empty());

  int32_t dev = 42;
  CN_REQUIRE_UNAVAILABLE(cn_cuda_get_device(&dev));
  REQUIRE(dev == 42);
  // The message carries the loader's reason.
  REQUIRE(std::string(cn_last_error()).find(reason.substr(0, 40)) !=
          std::string::npos);
  CN_REQUIRE_UNAVAILABLE(cn_cuda_set_device(0));
  CN_REQUIRE_UNAVAILABLE(cn_cuda_set_device_for_rank(&dev, 3));
  REQUIRE(dev == 42);
  int64_t v = 9;
  char name[64] = "unchanged";
  CN_REQUIRE_UNAVAILABLE(
      cn_cuda_device_properties(name, 64, &v, nullptr, nullptr, nullptr, 0));
  REQUIRE(std::string(name) == "unchanged");
  CN_REQUIRE_UNAVAILABLE(cn_cuda_memory_info(&v, &v, -1));
  CN_REQUIRE_UNAVAILABLE(cn_cuda_device_synchronize());
  CN_REQUIRE_UNAVAILABLE(cn_cuda_synchronize_all());
  CN_REQUIRE_UNAVAILABLE(cn_cuda_pool_used_bytes(&v, -1));
  CN_REQUIRE_UNAVAILABLE(cn_cuda_pool_total_bytes(&v, -1));
  CN_REQUIRE_UNAVAILABLE(cn_cuda_pool_free_all_blocks(-2));
  CN_REQUIRE_UNAVAILABLE(cn_cuda_pool_set_limit(-1, 1000));
  CN_REQUIRE_UNAVAILABLE(cn_cuda_pool_get_limit(&v, -1));
  REQUIRE(v == 9);
  CN_REQUIRE_UNAVAILABLE(cn_cuda_set_allocator(1));
  void *p = nullptr;
  CN_REQUIRE_UNAVAILABLE(cn_pin_memory(&p, 100));
  REQUIRE(p == nullptr);
  CN_REQUIRE_UNAVAILABLE(cn_unpin_memory(&v));
  CN_REQUIRE_UNAVAILABLE(cn_pinned_free_all_blocks(&v));
  CN_REQUIRE_UNAVAILABLE(cn_pinned_memory_info(&v, &v));
  CN_REQUIRE_UNAVAILABLE(cn_pinned_set_cache(0));
  CN_REQUIRE_UNAVAILABLE(cn_pinned_free_blocks(&v));
  REQUIRE(v == 9);
  Arr a;
  int64_t shape[1] = {4};
  CN_REQUIRE_ERR(cn_empty_pinned(a.out(), 1, shape, CN_FLOAT32, CN_ORDER_C),
                 CN_ERR_DEVICE, "cn_empty_pinned: ");
  REQUIRE(a.h == nullptr);
  cn_stream s = nullptr;
  CN_REQUIRE_UNAVAILABLE(cn_stream_create(&s, 1));
  CN_REQUIRE_UNAVAILABLE(cn_stream_from_native(&s, nullptr));
  REQUIRE(s == nullptr);
  CN_REQUIRE_UNAVAILABLE(cn_stream_set_current(nullptr));
  CN_REQUIRE_UNAVAILABLE(cn_stream_get_current(&s));
  CN_REQUIRE_UNAVAILABLE(cn_stream_synchronize(nullptr));
  int32_t done = 3;
  CN_REQUIRE_UNAVAILABLE(cn_stream_query(&done, nullptr));
  REQUIRE(done == 3);
  void *native = &v;
  CN_REQUIRE_UNAVAILABLE(cn_stream_native(&native, nullptr));
  REQUIRE(native == &v);
  cn_event e = nullptr;
  CN_REQUIRE_UNAVAILABLE(cn_event_create(&e, 1));
  REQUIRE(e == nullptr);
  int64_t c1 = 5, c2 = 5, c3 = 5;
  CN_REQUIRE_UNAVAILABLE(cn_cuda_kernel_cache_info(&c1, &c2, &c3));
  REQUIRE((c1 == 5 && c2 == 5 && c3 == 5));
}

TEST_CASE("cuda: cn_set_backend(\"cuda\") falls back to the CPU") {
  if (have_gpu())
    return;
  CN_REQUIRE_OK(cn_push_backend("cpu"));
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  REQUIRE(std::string(cn_get_backend()) == "cpu");
  REQUIRE(std::string(cn_backend_unavailable_reason()).size() > 0);
  CN_REQUIRE_OK(cn_set_backend("cupy"));
  REQUIRE(std::string(cn_get_backend()) == "cpu");
  // New arrays are made on the host and work as usual.
  Arr a, b;
  int64_t shape[1] = {3};
  CN_REQUIRE_OK(cn_ones(a.out(), 1, shape, CN_FLOAT64, CN_ORDER_C));
  int32_t type = 0, id = -1;
  CN_REQUIRE_OK(cn_array_device(&type, &id, a));
  REQUIRE(type == CN_DEVICE_CPU);
  CN_REQUIRE_OK(cn_add(b.out(), a, a, nullptr));
  REQUIRE(to_vec<double>(b) == std::vector<double>{2, 2, 2});
  // An explicit transfer to the device cannot fall back.
  Arr d;
  CN_REQUIRE_ERR(cn_to_device(d.out(), a, 0), CN_ERR_DEVICE, "");
  REQUIRE(d.h == nullptr);
  CN_REQUIRE_OK(cn_pop_backend());
}

// ---- with a GPU (tests/gpu/run.sh runs this too) ---------------------------

TEST_CASE("cuda: devices, streams, events, pools and pinned memory (GPU)") {
  if (!have_gpu())
    return;
  int32_t n = 0, dev = -1;
  CN_REQUIRE_OK(cn_cuda_device_count(&n));
  REQUIRE(n >= 1);
  CN_REQUIRE_OK(cn_cuda_get_device(&dev));
  REQUIRE((dev >= 0 && dev < n));
  CN_REQUIRE_ERR(cn_cuda_set_device(n), CN_ERR_DEVICE, "argument 'device'");
  CN_REQUIRE_OK(cn_cuda_set_device_for_rank(&dev, n + 0));
  REQUIRE(dev == 0);
  char name[256];
  int64_t total = 0, freeb = 0, tot2 = 0;
  int32_t major = 0, minor = -1, sms = 0;
  CN_REQUIRE_OK(cn_cuda_device_properties(name, sizeof name, &total, &major,
                                          &minor, &sms, 0));
  REQUIRE(std::string(name).size() > 0);
  REQUIRE(total > 0);
  REQUIRE(major >= 7);
  REQUIRE(sms > 0);
  CN_REQUIRE_OK(cn_cuda_memory_info(&freeb, &tot2, -1));
  REQUIRE((freeb > 0 && freeb <= tot2));
  // With a device there is no fallback.
  CN_REQUIRE_OK(cn_push_backend("cuda"));
  REQUIRE(std::string(cn_get_backend()) == "cuda");
  REQUIRE(std::string(cn_backend_unavailable_reason()).empty());
  CN_REQUIRE_OK(cn_pop_backend());

  // streams and events
  cn_stream s = nullptr, cur = nullptr;
  CN_REQUIRE_OK(cn_stream_create(&s, 1));
  CN_REQUIRE_OK(cn_stream_set_current(s));
  CN_REQUIRE_OK(cn_stream_get_current(&cur));
  REQUIRE(cur == s);
  CN_REQUIRE_OK(cn_stream_destroy(cur));
  cn_event e0 = nullptr, e1 = nullptr, e2 = nullptr;
  CN_REQUIRE_OK(cn_event_create(&e0, 1));
  CN_REQUIRE_OK(cn_event_create(&e1, 1));
  CN_REQUIRE_OK(cn_event_create(&e2, 0));
  CN_REQUIRE_OK(cn_event_record(e0, nullptr));
  Arr h, g, g2;
  int64_t shape[1] = {1 << 20};
  CN_REQUIRE_OK(cn_ones(h.out(), 1, shape, CN_FLOAT32, CN_ORDER_C));
  int64_t used0 = 0, used1 = 0;
  CN_REQUIRE_OK(cn_cuda_pool_used_bytes(&used0, -1));
  CN_REQUIRE_OK(cn_to_device(g.out(), h, 0));
  CN_REQUIRE_OK(cn_cuda_pool_used_bytes(&used1, -1));
  REQUIRE(used1 - used0 >= (int64_t)(4 << 20));
  CN_REQUIRE_OK(cn_add(g2.out(), g, g, nullptr));
  CN_REQUIRE_OK(cn_event_record(e1, nullptr));
  CN_REQUIRE_OK(cn_event_synchronize(e1));
  int32_t done = 0;
  CN_REQUIRE_OK(cn_event_query(&done, e1));
  REQUIRE(done == 1);
  double ms = -1;
  CN_REQUIRE_OK(cn_event_elapsed_ms(&ms, e0, e1));
  REQUIRE(ms >= 0);
  CN_REQUIRE_OK(cn_event_record(e2, nullptr));
  CN_REQUIRE_OK(cn_event_synchronize(e2));
  CN_REQUIRE_ERR(cn_event_elapsed_ms(&ms, e0, e2), CN_ERR_VALUE,
                 "argument 'end' was created without timing");
  CN_REQUIRE_OK(cn_stream_synchronize(nullptr));
  CN_REQUIRE_OK(cn_stream_query(&done, s));
  REQUIRE(done == 1);
  Arr back;
  CN_REQUIRE_OK(cn_to_host(back.out(), g2));
  std::vector<float> v = to_vec<float>(back);
  REQUIRE(v.front() == 2.0f);
  REQUIRE(v.back() == 2.0f);
  CN_REQUIRE_OK(cn_stream_set_current(nullptr));
  CN_REQUIRE_OK(cn_stream_destroy(s));
  CN_REQUIRE_OK(cn_event_destroy(e0));
  CN_REQUIRE_OK(cn_event_destroy(e1));
  CN_REQUIRE_OK(cn_event_destroy(e2));

  // the memory limit
  int64_t lim = -1;
  CN_REQUIRE_OK(cn_cuda_pool_get_limit(&lim, -1));
  CN_REQUIRE_OK(cn_cuda_pool_set_limit(-1, used1 + 1024));
  Arr big;
  CN_REQUIRE_ERR(cn_to_device(big.out(), h, 0), CN_ERR_MEMORY, "memory limit");
  REQUIRE(big.h == nullptr);
  CN_REQUIRE_OK(cn_cuda_pool_set_limit(-1, lim));
  CN_REQUIRE_OK(cn_to_device(big.out(), h, 0));
  int64_t held = 0;
  CN_REQUIRE_OK(cn_cuda_pool_total_bytes(&held, -1));
  REQUIRE(held >= used1);
  big = Arr();
  CN_REQUIRE_OK(cn_cuda_pool_free_all_blocks(-2));

  // managed (unified) memory, opt-in
  CN_REQUIRE_OK(cn_cuda_set_allocator(1));
  Arr m, m2, mh;
  CN_REQUIRE_OK(cn_to_device(m.out(), h, 0));
  CN_REQUIRE_OK(cn_cuda_set_allocator(0));
  CN_REQUIRE_OK(cn_add(m2.out(), m, m, nullptr));
  CN_REQUIRE_OK(cn_to_host(mh.out(), m2));
  REQUIRE(to_vec<float>(mh).back() == 2.0f);
  m = Arr(); // freed with cudaFree, not the pool

  // pinned memory and its cache
  void *p = nullptr;
  CN_REQUIRE_OK(cn_pin_memory(&p, 100000));
  REQUIRE(p != nullptr);
  int64_t pu = 0, ph = 0;
  CN_REQUIRE_OK(cn_pinned_memory_info(&pu, &ph));
  REQUIRE(pu >= 100000);
  CN_REQUIRE_OK(cn_unpin_memory(p));
  CN_REQUIRE_ERR(cn_unpin_memory(p), CN_ERR_VALUE, "not a pinned block");
  void *q = nullptr;
  CN_REQUIRE_OK(cn_pin_memory(&q, 99000));
  REQUIRE(q == p); // reused from the cache
  CN_REQUIRE_OK(cn_unpin_memory(q));
  int64_t nfree = 0;
  CN_REQUIRE_OK(cn_pinned_free_blocks(&nfree));
  REQUIRE(nfree >= 1);
  // without the cache a returned block is freed at once
  CN_REQUIRE_OK(cn_pinned_set_cache(0));
  CN_REQUIRE_OK(cn_pinned_free_blocks(&nfree));
  REQUIRE(nfree == 0);
  CN_REQUIRE_OK(cn_pin_memory(&q, 100000));
  CN_REQUIRE_OK(cn_pinned_memory_info(&pu, &ph));
  int64_t held_before = ph;
  CN_REQUIRE_OK(cn_unpin_memory(q));
  CN_REQUIRE_OK(cn_pinned_memory_info(&pu, &ph));
  REQUIRE(ph < held_before);
  CN_REQUIRE_OK(cn_pinned_free_blocks(&nfree));
  REQUIRE(nfree == 0);
  CN_REQUIRE_OK(cn_pinned_set_cache(1));
  // the uncached device allocator (kind 2) makes working arrays too
  CN_REQUIRE_OK(cn_cuda_set_allocator(2));
  Arr u, u2, uh;
  CN_REQUIRE_OK(cn_to_device(u.out(), h, 0));
  CN_REQUIRE_OK(cn_add(u2.out(), u, u, nullptr));
  CN_REQUIRE_OK(cn_cuda_set_allocator(0));
  CN_REQUIRE_OK(cn_to_host(uh.out(), u2));
  REQUIRE(to_vec<float>(uh).back() == 2.0f);
  u = Arr();
  u2 = Arr();
  Arr pinned;
  int64_t pshape[2] = {3, 5};
  CN_REQUIRE_OK(
      cn_empty_pinned(pinned.out(), 2, pshape, CN_FLOAT64, CN_ORDER_F));
  int32_t type = 0, id = -1;
  CN_REQUIRE_OK(cn_array_device(&type, &id, pinned));
  REQUIRE(type == CN_DEVICE_CPU);
  pinned = Arr();
  int64_t freed = -1;
  CN_REQUIRE_OK(cn_pinned_free_all_blocks(&freed));
  REQUIRE(freed >= 100000);
  int64_t c1 = -1, c2 = -1, c3 = -1;
  CN_REQUIRE_OK(cn_cuda_kernel_cache_info(&c1, &c2, &c3));
  REQUIRE(c1 + c2 >= 1);
  REQUIRE(c3 >= 1);
}
