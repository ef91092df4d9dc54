// Backend selection and the CUDA plugin loader (cunumpy/backend.h), with
// fake plugins built by tests/fake_plugin.cmake: a working "cuda" backend on
// host memory, and one plugin per way the loader must refuse one.
#include "testutil.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

// Test hook exported by core/backend.c (in no header): forgets the backend
// selection, the stack, the reason and the loaded plugin, so the next call
// reads the environment and searches for the plugin again.
extern "C" void cn__backend_reset_for_tests(void);

namespace {

std::string reason() { return cn_backend_unavailable_reason(); }
bool has(const std::string &s, const std::string &needle) {
  return s.find(needle) != std::string::npos;
}

// Fresh backend state under the given environment (nullptr = unset).
void fresh(const char *plugin, const char *cunumpy_backend = nullptr,
           const char *array_backend = nullptr) {
  auto put = [](const char *var, const char *v) {
    if (v)
      setenv(var, v, 1);
    else
      unsetenv(var);
  };
  put("CUNUMPY_CUDA_PLUGIN", plugin);
  put("CUNUMPY_BACKEND", cunumpy_backend);
  put("ARRAY_BACKEND", array_backend);
  cn__backend_reset_for_tests();
}

// Whether a library is mapped in this process (without loading it).
bool is_loaded(const char *path) {
  void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (h)
    dlclose(h);
  return h != nullptr;
}

long fake_live_allocations() {
  void *h = dlopen(CN_FAKE_PLUGIN_OK, RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(h != nullptr);
  long *p = (long *)dlsym(h, "fake_live_allocations");
  REQUIRE(p != nullptr);
  long v = __atomic_load_n(p, __ATOMIC_RELAXED);
  dlclose(h);
  return v;
}

int32_t device_type(cn_array a) {
  int32_t type = -1, id = -1;
  CN_REQUIRE_OK(cn_array_device(&type, &id, a));
  return type;
}

} // namespace

TEST_CASE("backend names and aliases are case-insensitive") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  CHECK(std::string(cn_get_backend()) == "cpu");
  for (const char *name : {"cpu", "CPU", "numpy", "NumPy", "NUMPY"}) {
    INFO(name);
    CN_REQUIRE_OK(cn_set_backend(name));
    CHECK(std::string(cn_get_backend()) == "cpu");
  }
  int32_t ok = -1;
  for (const char *name : {"cpu", "Numpy"}) {
    CN_REQUIRE_OK(cn_backend_available(&ok, name));
    CHECK(ok == 1);
  }
  for (const char *name : {"cuda", "CUDA", "cupy", "CuPy"}) {
    ok = -1;
    CN_REQUIRE_OK(cn_backend_available(&ok, name));
    CHECK(ok == 0); // the plugin path does not exist
  }
}

TEST_CASE("unknown or NULL backend names are CN_ERR_VALUE and change nothing") {
  fresh(CN_FAKE_PLUGIN_OK);
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  REQUIRE(std::string(cn_get_backend()) == "cuda");
  CN_REQUIRE_ERR(cn_set_backend("tpu"), CN_ERR_VALUE, "cn_set_backend");
  CHECK(has(cn_last_error(), "'tpu'"));
  CN_REQUIRE_ERR(cn_set_backend(""), CN_ERR_VALUE, "''");
  CN_REQUIRE_ERR(cn_set_backend("cpu "), CN_ERR_VALUE, "'cpu '");
  CN_REQUIRE_ERR(cn_set_backend(nullptr), CN_ERR_VALUE, "'name' is NULL");
  CN_REQUIRE_ERR(cn_push_backend("gpu"), CN_ERR_VALUE, "cn_push_backend");
  CHECK(has(cn_last_error(), "'gpu'"));
  CN_REQUIRE_ERR(cn_push_backend(nullptr), CN_ERR_VALUE, "NULL");
  CHECK(std::string(cn_get_backend()) == "cuda");
  // The failed pushes pushed nothing.
  CN_REQUIRE_ERR(cn_pop_backend(), CN_ERR_VALUE, "empty");

  int32_t ok = 7;
  CN_REQUIRE_ERR(cn_backend_available(&ok, "opencl"), CN_ERR_VALUE, "'opencl'");
  CHECK(ok == 7);
  CN_REQUIRE_ERR(cn_backend_available(nullptr, "cpu"), CN_ERR_VALUE,
                 "cn_backend_available");
  CN_REQUIRE_ERR(cn_backend_available(&ok, nullptr), CN_ERR_VALUE, "NULL");
  CHECK(ok == 7);
}

TEST_CASE("a missing plugin falls back to CPU with the path and dlerror") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  std::string r = reason();
  INFO(r);
  CHECK(has(r, CN_FAKE_PLUGIN_MISSING));
  CHECK(has(r, "CUNUMPY_CUDA_PLUGIN"));
  CHECK(has(r, "cannot open shared object file")); // dlerror's words
  CHECK(has(r, "does not exist"));
  CHECK(cn_device_count() == 0);
  int32_t ok = -1;
  CN_REQUIRE_OK(cn_backend_available(&ok, "cupy"));
  CHECK(ok == 0);

  // Creation keeps following the effective (CPU) backend.
  Arr a;
  int64_t shape[] = {3};
  CN_REQUIRE_OK(cn_zeros(a.out(), 1, shape, CN_FLOAT64, CN_ORDER_C));
  CHECK(device_type(a) == CN_DEVICE_CPU);

  // The failed default search is not repeated: the reason stays.
  CN_REQUIRE_OK(cn_push_backend("cuda"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  CN_REQUIRE_OK(cn_pop_backend());
  CHECK(reason() == r);

  // An explicit load of a missing file says the same, as an error.
  CN_REQUIRE_ERR(cn_backend_load_plugin(CN_FAKE_PLUGIN_MISSING), CN_ERR_DEVICE,
                 CN_FAKE_PLUGIN_MISSING);
  CHECK(has(cn_last_error(), "cn_backend_load_plugin"));
  CHECK(has(cn_last_error(), "cannot open shared object file"));
  CN_REQUIRE_ERR(cn_backend_load_plugin(nullptr), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_backend_load_plugin(""), CN_ERR_VALUE, "empty");
}

TEST_CASE("a file that is not a loadable library is refused with dlerror") {
  std::string path = std::string(CN_FAKE_PLUGIN_MISSING) + ".garbage.so";
  FILE *f = fopen(path.c_str(), "w");
  REQUIRE(f != nullptr);
  for (int i = 0; i < 20; i++) // longer than an ELF header
    fputs("not an ELF file\n", f);
  fclose(f);
  fresh(path.c_str());
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  std::string r = reason();
  INFO(r);
  CHECK(has(r, "cannot load the CUDA plugin '" + path + "'"));
  CHECK(has(r, "invalid ELF header")); // dlerror's words
  CHECK(has(r, "ldd"));
  remove(path.c_str());
}

TEST_CASE("without CUNUMPY_CUDA_PLUGIN the plugin is searched next to "
          "libcunumpy") {
  fresh(nullptr);
  Dl_info info;
  REQUIRE(dladdr((void *)&cn_set_backend, &info) != 0);
  std::string lib = info.dli_fname;
  std::string expected =
      lib.substr(0, lib.rfind('/') + 1) + "libcunumpy_cuda.so";
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  if (std::string(cn_get_backend()) == "cuda") {
    WARN("a working CUDA plugin sits next to libcunumpy: " << expected);
    CHECK(reason().empty());
    return;
  }
  std::string r = reason();
  INFO(r);
  CHECK(has(r, expected));
  CHECK(has(r, "next to libcunumpy"));
}

TEST_CASE("a plugin built for another ABI version is refused and unloaded") {
  REQUIRE(!is_loaded(CN_FAKE_PLUGIN_BAD_ABI));
  fresh(CN_FAKE_PLUGIN_BAD_ABI);
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  std::string r = reason();
  INFO(r);
  CHECK(has(r, CN_FAKE_PLUGIN_BAD_ABI));
  CHECK(has(r, "ABI version " + std::to_string(CUNUMPY_ABI_VERSION + 41)));
  CHECK(has(r, "ABI version " + std::to_string(CUNUMPY_ABI_VERSION) + "."));
  CHECK(cn_device_count() == 0);
  CHECK(!is_loaded(CN_FAKE_PLUGIN_BAD_ABI));
}

TEST_CASE("plugins with a short table, no table or no entry are refused") {
  SECTION("short table") {
    fresh(CN_FAKE_PLUGIN_SHORT_TABLE);
    CN_REQUIRE_OK(cn_set_backend("cuda"));
    CHECK(std::string(cn_get_backend()) == "cpu");
    INFO(reason());
    CHECK(has(reason(), CN_FAKE_PLUGIN_SHORT_TABLE));
    CHECK(has(reason(), "table of "));
    CHECK(has(reason(), "smaller than the"));
    CHECK(!is_loaded(CN_FAKE_PLUGIN_SHORT_TABLE));
  }
  SECTION("NULL table") {
    fresh(CN_FAKE_PLUGIN_NULL_TABLE);
    CN_REQUIRE_OK(cn_set_backend("cuda"));
    CHECK(std::string(cn_get_backend()) == "cpu");
    INFO(reason());
    CHECK(has(reason(), CN_FAKE_PLUGIN_NULL_TABLE));
    CHECK(has(reason(), "returned no table"));
    CHECK(!is_loaded(CN_FAKE_PLUGIN_NULL_TABLE));
  }
  SECTION("no entry point") {
    fresh(CN_FAKE_PLUGIN_NO_ENTRY);
    CN_REQUIRE_OK(cn_set_backend("cuda"));
    CHECK(std::string(cn_get_backend()) == "cpu");
    INFO(reason());
    CHECK(has(reason(), CN_FAKE_PLUGIN_NO_ENTRY));
    CHECK(has(reason(), "no entry point cn_cuda_plugin_entry"));
    CHECK(has(reason(), "undefined symbol")); // dlerror's words
    CHECK(!is_loaded(CN_FAKE_PLUGIN_NO_ENTRY));
  }
}

TEST_CASE("a plugin whose probe finds no device leaves CUDA unavailable") {
  fresh(CN_FAKE_PLUGIN_NO_DEVICE);
  int32_t ok = -1;
  CN_REQUIRE_OK(cn_backend_available(&ok, "cuda"));
  CHECK(ok == 0);
  CN_REQUIRE_OK(cn_set_backend("cupy"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  std::string r = reason();
  INFO(r);
  CHECK(has(r, CN_FAKE_PLUGIN_NO_DEVICE));
  CHECK(has(r, "no CUDA device"));
  CHECK(has(r, "CN_ERR_DEVICE"));
  CHECK(cn_device_count() == 0);
  CN_REQUIRE_ERR(cn_backend_load_plugin(CN_FAKE_PLUGIN_NO_DEVICE),
                 CN_ERR_DEVICE, "no CUDA device");
}

TEST_CASE("a working plugin: creation follows the active backend, devices "
          "never mix") {
  fresh(CN_FAKE_PLUGIN_OK);
  long live0 = 0;
  {
    int32_t ok = -1;
    CN_REQUIRE_OK(cn_backend_available(&ok, "cuda"));
    REQUIRE(ok == 1);
    live0 = fake_live_allocations();
    CHECK(reason().empty());
    CHECK(cn_device_count() == 2);
    // Available is not selected: new arrays stay on the CPU.
    CHECK(std::string(cn_get_backend()) == "cpu");
    CN_REQUIRE_OK(cn_set_backend("CUDA"));
    CHECK(std::string(cn_get_backend()) == "cuda");

    int64_t shape[] = {2, 3};
    Arr g;
    CN_REQUIRE_OK(cn_full(g.out(), 2, shape, cn_scalar_float(2.5), CN_FLOAT64,
                          CN_ORDER_C));
    CHECK(device_type(g) == CN_DEVICE_CUDA);
    CHECK(fake_live_allocations() == live0 + 1);
    void *p = nullptr;
    CN_REQUIRE_OK(cn_array_data(&p, g));
    for (int i = 0; i < 6; i++)
      CHECK(((double *)p)[i] == 2.5); // the fake's memory is host memory

    CN_REQUIRE_OK(cn_set_backend("numpy"));
    Arr c;
    CN_REQUIRE_OK(cn_zeros(c.out(), 2, shape, CN_FLOAT64, CN_ORDER_C));
    CHECK(device_type(c) == CN_DEVICE_CPU);

    // Operations across devices are refused, inputs untouched.
    Arr r;
    CN_REQUIRE_ERR(cn_add(r.out(), c, g, nullptr), CN_ERR_DEVICE, "cn_add");
    CHECK(r.h == nullptr);
    CN_REQUIRE_ERR(cn_assign(c, g), CN_ERR_DEVICE, "cn_assign");
    CHECK(to_vec<double>(c) == std::vector<double>(6, 0.0));
    for (int i = 0; i < 6; i++)
      CHECK(((double *)p)[i] == 2.5);

    // An explicit transfer works, through the plugin's copy_to_host.
    Arr h;
    CN_REQUIRE_OK(cn_to_host(h.out(), g));
    CHECK(device_type(h) == CN_DEVICE_CPU);
    CHECK(to_vec<double>(h) == std::vector<double>(6, 2.5));

    // Two devices of one backend never mix either: a copy on device 1
    // (through the host, as the fake has no device-to-device copy) keeps
    // the values, and arrays on devices 0 and 1 are refused together.
    Arr g1;
    CN_REQUIRE_OK(cn_to_device(g1.out(), g, 1));
    int32_t dt = -1, dev = -1;
    CN_REQUIRE_OK(cn_array_device(&dt, &dev, g1));
    CHECK(dt == CN_DEVICE_CUDA);
    CHECK(dev == 1);
    CN_REQUIRE_OK(cn_set_backend("cuda"));
    Arr s1;
    CN_REQUIRE_ERR(cn_add(s1.out(), g, g1, nullptr), CN_ERR_DEVICE,
                   "is on cuda:1 but argument");
    CHECK(s1.h == nullptr);
    CN_REQUIRE_ERR(cn_assign(g1, g), CN_ERR_DEVICE,
                   "cn_assign: arrays are on different devices (cuda:1 and "
                   "cuda:0)");
    CN_REQUIRE_OK(cn_set_backend("numpy"));
    Arr h1;
    CN_REQUIRE_OK(cn_to_host(h1.out(), g1));
    CHECK(to_vec<double>(h1) == std::vector<double>(6, 2.5));
    Arr bad;
    CN_REQUIRE_ERR(cn_to_device(bad.out(), g, 2), CN_ERR_DEVICE,
                   "out of range");
    CHECK(bad.h == nullptr);

    // A second load of any path keeps the loaded plugin.
    CN_REQUIRE_OK(cn_backend_load_plugin(CN_FAKE_PLUGIN_BAD_ABI));
    CHECK(cn_device_count() == 2);
  }
  CHECK(fake_live_allocations() == live0);
}

TEST_CASE("cn_backend_load_plugin loads an explicit path") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  CN_REQUIRE_ERR(cn_backend_load_plugin(CN_FAKE_PLUGIN_BAD_ABI), CN_ERR_DEVICE,
                 "ABI version");
  CHECK(std::string(cn_get_backend()) == "cpu");
  CN_REQUIRE_OK(cn_backend_load_plugin(CN_FAKE_PLUGIN_OK));
  CHECK(reason().empty());
  CHECK(std::string(cn_get_backend()) == "cpu"); // loading does not select
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  CHECK(std::string(cn_get_backend()) == "cuda");
  CN_REQUIRE_OK(cn_set_backend("cpu"));
}

TEST_CASE("push and pop restore the previous backend") {
  fresh(CN_FAKE_PLUGIN_OK);
  CN_REQUIRE_ERR(cn_pop_backend(), CN_ERR_VALUE, "cn_pop_backend");
  CHECK(has(cn_last_error(), "empty"));
  CN_REQUIRE_OK(cn_push_backend("cupy"));
  CHECK(std::string(cn_get_backend()) == "cuda");
  CN_REQUIRE_OK(cn_push_backend("numpy"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  CN_REQUIRE_OK(cn_set_backend("cuda")); // set inside a scope is undone too
  CN_REQUIRE_OK(cn_pop_backend());
  CHECK(std::string(cn_get_backend()) == "cuda");
  CN_REQUIRE_OK(cn_pop_backend());
  CHECK(std::string(cn_get_backend()) == "cpu");
  CN_REQUIRE_ERR(cn_pop_backend(), CN_ERR_VALUE, "empty");
  CHECK(std::string(cn_get_backend()) == "cpu");

  // The stack is bounded; overflowing it is an error that pushes nothing.
  int pushed = 0;
  while (cn_push_backend(pushed % 2 ? "cpu" : "cuda") == CN_OK &&
         pushed < 10000)
    pushed++;
  CHECK(pushed == 128);
  CHECK(cn_last_status() == CN_ERR_VALUE);
  CHECK(has(cn_last_error(), "full"));
  CHECK(std::string(cn_get_backend()) == "cpu"); // push 128 selected cpu
  for (int i = 0; i < pushed; i++)
    CN_REQUIRE_OK(cn_pop_backend());
  CHECK(std::string(cn_get_backend()) == "cpu");
  CN_REQUIRE_ERR(cn_pop_backend(), CN_ERR_VALUE, "empty");
}

TEST_CASE("push of an unavailable CUDA falls back and pops back") {
  fresh(CN_FAKE_PLUGIN_NO_DEVICE);
  CN_REQUIRE_OK(cn_push_backend("cuda"));
  CHECK(std::string(cn_get_backend()) == "cpu");
  CHECK(has(reason(), "no CUDA device"));
  CN_REQUIRE_OK(cn_pop_backend());
  CHECK(std::string(cn_get_backend()) == "cpu");
}

TEST_CASE("the environment is read once, CUNUMPY_BACKEND before "
          "ARRAY_BACKEND") {
  SECTION("CUNUMPY_BACKEND=cuda") {
    fresh(CN_FAKE_PLUGIN_OK, "cuda");
    CHECK(std::string(cn_get_backend()) == "cuda");
    // Read once: later changes are not seen.
    setenv("CUNUMPY_BACKEND", "cpu", 1);
    CHECK(std::string(cn_get_backend()) == "cuda");
  }
  SECTION("creation follows the environment's backend") {
    fresh(CN_FAKE_PLUGIN_OK, "CUDA");
    Arr a;
    CN_REQUIRE_OK(cn_empty(a.out(), 0, nullptr, CN_INT32, CN_ORDER_C));
    CHECK(device_type(a) == CN_DEVICE_CUDA);
  }
  SECTION("ARRAY_BACKEND=cupy") {
    fresh(CN_FAKE_PLUGIN_OK, nullptr, "cupy");
    CHECK(std::string(cn_get_backend()) == "cuda");
  }
  SECTION("ARRAY_BACKEND=numpy") {
    fresh(CN_FAKE_PLUGIN_OK, nullptr, "numpy");
    CHECK(std::string(cn_get_backend()) == "cpu");
  }
  SECTION("names and aliases are accepted in both variables") {
    fresh(CN_FAKE_PLUGIN_OK, "cupy");
    CHECK(std::string(cn_get_backend()) == "cuda");
    fresh(CN_FAKE_PLUGIN_OK, nullptr, "Cuda");
    CHECK(std::string(cn_get_backend()) == "cuda");
  }
  SECTION("CUNUMPY_BACKEND wins over ARRAY_BACKEND") {
    fresh(CN_FAKE_PLUGIN_OK, "cpu", "cupy");
    CHECK(std::string(cn_get_backend()) == "cpu");
    fresh(CN_FAKE_PLUGIN_OK, "cuda", "numpy");
    CHECK(std::string(cn_get_backend()) == "cuda");
  }
  SECTION("an empty value counts as unset") {
    fresh(CN_FAKE_PLUGIN_OK, "", "cupy");
    CHECK(std::string(cn_get_backend()) == "cuda");
    CHECK(reason().empty());
  }
  SECTION("an invalid value is ignored and reported") {
    fresh(CN_FAKE_PLUGIN_OK, "gpu", "cupy");
    CHECK(std::string(cn_get_backend()) == "cuda");
    INFO(reason());
    CHECK(has(reason(), "CUNUMPY_BACKEND='gpu'"));
    CHECK(has(reason(), "ignored"));
    fresh(CN_FAKE_PLUGIN_OK, "gpu", "tpu");
    CHECK(std::string(cn_get_backend()) == "cpu");
    INFO(reason());
    CHECK(has(reason(), "CUNUMPY_BACKEND='gpu'"));
    CHECK(has(reason(), "ARRAY_BACKEND='tpu'"));
  }
  SECTION("the note about an ignored value survives later load attempts") {
    fresh(CN_FAKE_PLUGIN_NO_DEVICE, "cdua");
    CHECK(std::string(cn_get_backend()) == "cpu");
    CHECK(has(reason(), "CUNUMPY_BACKEND='cdua'"));
    CN_REQUIRE_OK(cn_set_backend("cuda"));
    CHECK(has(reason(), "no CUDA device"));
    CHECK(has(reason(), "CUNUMPY_BACKEND='cdua'"));
  }
  SECTION("asking for CUDA in the environment without CUDA gives CPU") {
    fresh(CN_FAKE_PLUGIN_MISSING, "cuda");
    CHECK(std::string(cn_get_backend()) == "cpu");
    CHECK(has(reason(), CN_FAKE_PLUGIN_MISSING));
    fresh(CN_FAKE_PLUGIN_BAD_ABI, nullptr, "cupy");
    CHECK(std::string(cn_get_backend()) == "cpu");
    CHECK(has(reason(), "ABI version"));
  }
  SECTION("cn_set_backend overrides the environment") {
    fresh(CN_FAKE_PLUGIN_OK, "cuda");
    CN_REQUIRE_OK(cn_set_backend("cpu"));
    CHECK(std::string(cn_get_backend()) == "cpu");
  }
  fresh(CN_FAKE_PLUGIN_MISSING);
}

TEST_CASE("first use from many threads loads once and agrees") {
  fresh(CN_FAKE_PLUGIN_OK, "cuda");
  std::atomic<int> cuda_seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++)
    threads.emplace_back([&] {
      if (std::string(cn_get_backend()) == "cuda")
        cuda_seen++;
    });
  for (auto &th : threads)
    th.join();
  CHECK(cuda_seen == 8);

  // Concurrent selection never tears: every answer is a valid name, and
  // balanced push/pop from several threads leaves the stack empty.
  threads.clear();
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; t++)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; i++) {
        if (cn_push_backend((i + t) % 2 ? "cpu" : "cuda") != CN_OK)
          bad++;
        std::string n = cn_get_backend();
        if (n != "cpu" && n != "cuda")
          bad++;
        if (cn_pop_backend() != CN_OK)
          bad++;
      }
    });
  for (auto &th : threads)
    th.join();
  CHECK(bad == 0);
  CHECK(std::string(cn_get_backend()) == "cuda");
  CN_REQUIRE_ERR(cn_pop_backend(), CN_ERR_VALUE, "empty");
  fresh(CN_FAKE_PLUGIN_MISSING);
}

namespace {

int32_t supports(const char *backend, const char *what) {
  int32_t s = -1;
  cn_status st = cn_backend_supports(&s, backend, what);
  INFO(backend << " " << what << ": " << cn_last_error());
  REQUIRE(st == CN_OK);
  return s;
}

// Every listed capability name and a sample of the op names.
std::vector<std::string> all_capabilities() {
  std::vector<std::string> v;
  for (int32_t i = 0; cn_backend_capability(i) != nullptr; i++)
    v.push_back(cn_backend_capability(i));
  for (const char *op : {"add", "sin", "logical_not", "heaviside", "isnan"})
    v.push_back(op);
  return v;
}

} // namespace

TEST_CASE("the alias table names every backend once, canonical first") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  std::vector<std::pair<std::string, std::string>> seen;
  for (int32_t i = 0; i < cn_backend_alias_count(); i++) {
    const char *alias = cn_backend_alias(i);
    REQUIRE(alias != nullptr);
    const char *canon = nullptr;
    CN_REQUIRE_OK(cn_backend_canonical_name(&canon, alias));
    seen.emplace_back(alias, canon);
  }
  CHECK(cn_backend_alias(-1) == nullptr);
  CHECK(cn_backend_alias(cn_backend_alias_count()) == nullptr);
  std::vector<std::pair<std::string, std::string>> want = {
      {"cpu", "cpu"}, {"numpy", "cpu"}, {"cuda", "cuda"}, {"cupy", "cuda"}};
  CHECK(seen == want);
  const char *canon = "unchanged";
  CN_REQUIRE_OK(cn_backend_canonical_name(&canon, "CuPy"));
  CHECK(std::string(canon) == "cuda");
  canon = "unchanged";
  CN_REQUIRE_ERR(cn_backend_canonical_name(&canon, "gpu"), CN_ERR_VALUE,
                 "'gpu'");
  CHECK(std::string(canon) == "unchanged");
  CN_REQUIRE_ERR(cn_backend_canonical_name(&canon, nullptr), CN_ERR_VALUE,
                 "NULL");
  CN_REQUIRE_ERR(cn_backend_canonical_name(nullptr, "cpu"), CN_ERR_VALUE,
                 "cn_backend_canonical_name");
}

TEST_CASE("cn_backend_supports: the CPU runs everything natively") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  for (const std::string &what : all_capabilities()) {
    INFO(what);
    CHECK(supports("cpu", what.c_str()) == CN_SUPPORT_NATIVE);
    CHECK(supports("NumPy", what.c_str()) == CN_SUPPORT_NATIVE);
  }
  // ... and what it says runs does run, one call per kernel family.
  int64_t shape[] = {4};
  Arr a, b, r;
  CN_REQUIRE_OK(cn_arange(a.out(), 4.0, 0.0, -1.0, CN_FLOAT64));
  CN_REQUIRE_OK(cn_full(b.out(), 1, shape, cn_scalar_float(2.0), CN_FLOAT64,
                        CN_ORDER_C));
  CN_REQUIRE_OK(cn_add(r.out(), a, b, nullptr));
  CHECK(to_vec<double>(r) == std::vector<double>{6, 5, 4, 3});
  Arr s;
  CN_REQUIRE_OK(cn_sum(s.out(), a, CN_ALL_AXES, nullptr, 0, CN_DTYPE_DEFAULT,
                       nullptr));
  CHECK(to_vec<double>(s) == std::vector<double>{10});
  Arr srt;
  CN_REQUIRE_OK(cn_sort(srt.out(), a, -1));
  CHECK(to_vec<double>(srt) == std::vector<double>{1, 2, 3, 4});
  Arr m;
  CN_REQUIRE_OK(cn_matmul(m.out(), a, a, nullptr));
  CHECK(to_vec<double>(m) == std::vector<double>{30});
  Arr f;
  CN_REQUIRE_OK(cn_fft(f.out(), a, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD));
  cn_rng rng = nullptr;
  CN_REQUIRE_OK(cn_rng_create(&rng, 7));
  Arr u;
  CN_REQUIRE_OK(cn_random_uniform(u.out(), rng, 0.0, 1.0, 1, shape,
                                  CN_FLOAT64));
  cn_rng_release(rng);
}

TEST_CASE("cn_backend_supports rejects unknown names, naming them") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  int32_t s = 9;
  CN_REQUIRE_ERR(cn_backend_supports(&s, "tpu", "add"), CN_ERR_VALUE,
                 "'tpu'");
  CN_REQUIRE_ERR(cn_backend_supports(&s, "cpu", "frobnicate"), CN_ERR_VALUE,
                 "'frobnicate'");
  CN_REQUIRE_ERR(cn_backend_supports(&s, nullptr, "add"), CN_ERR_VALUE,
                 "'backend' is NULL");
  CN_REQUIRE_ERR(cn_backend_supports(&s, "cpu", nullptr), CN_ERR_VALUE,
                 "'what' is NULL");
  CN_REQUIRE_ERR(cn_backend_supports(nullptr, "cpu", "add"), CN_ERR_VALUE,
                 "cn_backend_supports");
  CHECK(s == 9);
  CHECK(cn_backend_capability(-1) == nullptr);
}

TEST_CASE("cn_backend_supports without a loadable CUDA plugin: nothing") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  for (const std::string &what : all_capabilities()) {
    INFO(what);
    CHECK(supports("cuda", what.c_str()) == CN_SUPPORT_NONE);
  }
}

TEST_CASE("cn_backend_supports reads a plugin's table, even without a "
          "device") {
  // The no-device fake loads and passes the handshake; its probe fails.
  fresh(CN_FAKE_PLUGIN_NO_DEVICE);
  CHECK(supports("cupy", "assign") == CN_SUPPORT_NATIVE);
  CHECK(supports("cuda", "fill") == CN_SUPPORT_NATIVE);
  CHECK(supports("cuda", "add") == CN_SUPPORT_NONE);
  CHECK(supports("cuda", "stats") == CN_SUPPORT_NONE); // needs its kernels
  CHECK(supports("cuda", "median") == CN_SUPPORT_HOST);
  int32_t ok = -1;
  CN_REQUIRE_OK(cn_backend_available(&ok, "cuda"));
  CHECK(ok == 0);
}

TEST_CASE("an empty optional slot answers NONE and calling it gives the "
          "standard message") {
  fresh(CN_FAKE_PLUGIN_OK);
  // The fake fills assign and fill only.
  for (const std::string &what : all_capabilities()) {
    INFO(what);
    int32_t s = supports("cuda", what.c_str());
    if (what == "assign" || what == "fill")
      CHECK(s == CN_SUPPORT_NATIVE);
    else if (what == "median" || what == "quantile" || what == "lfilter" ||
             what == "sosfilt" || what == "order_filter" ||
             what == "upfirdn")
      CHECK(s == CN_SUPPORT_HOST); // host copies need no slot
    else
      CHECK(s == CN_SUPPORT_NONE);
  }
  CN_REQUIRE_OK(cn_set_backend("cuda"));
  {
    int64_t shape[] = {3};
    Arr g, h, r;
    CN_REQUIRE_OK(cn_full(g.out(), 1, shape, cn_scalar_float(1.5), CN_FLOAT64,
                          CN_ORDER_C));
    CN_REQUIRE_OK(cn_full(h.out(), 1, shape, cn_scalar_float(0.5), CN_FLOAT64,
                          CN_ORDER_C));
    const char *want =
        "cn_add: not supported on the 'cuda' backend (no 'elementwise' kernel)";
    CN_REQUIRE_ERR(cn_add(r.out(), g, h, nullptr), CN_ERR_UNSUPPORTED, want);
    CHECK(r.h == nullptr);
    CN_REQUIRE_ERR(cn_sum(r.out(), g, CN_ALL_AXES, nullptr, 0,
                          CN_DTYPE_DEFAULT, nullptr),
                   CN_ERR_UNSUPPORTED,
                   "cn_sum: not supported on the 'cuda' backend (no 'reduce' "
                   "kernel)");
    CN_REQUIRE_ERR(cn_sort(r.out(), g, -1), CN_ERR_UNSUPPORTED,
                   "not supported on the 'cuda' backend (no 'sort' kernel)");
    CN_REQUIRE_ERR(cn_matmul(r.out(), g, h, nullptr), CN_ERR_UNSUPPORTED,
                   "cn_matmul: not supported on the 'cuda' backend (no "
                   "'matmul' kernel)");
    CN_REQUIRE_ERR(cn_fft(r.out(), g, CN_FFT_N_NONE, -1, CN_FFT_NORM_BACKWARD),
                   CN_ERR_UNSUPPORTED,
                   "not supported on the 'cuda' backend (no 'fft' kernel)");
    CN_REQUIRE_ERR(cn_flatnonzero(r.out(), g), CN_ERR_UNSUPPORTED,
                   "cn_flatnonzero: not supported on the 'cuda' backend (no "
                   "'flatnonzero' kernel)");
    cn_rng rng = nullptr;
    CN_REQUIRE_OK(cn_rng_create(&rng, 1));
    CN_REQUIRE_ERR(cn_random_uniform(r.out(), rng, 0.0, 1.0, 1, shape,
                                     CN_FLOAT64),
                   CN_ERR_UNSUPPORTED,
                   "not supported on the 'cuda' backend (no 'rng_fill' "
                   "kernel)");
    cn_rng_release(rng);
    CHECK(r.h == nullptr);
    CHECK(to_vec<double>(g) == std::vector<double>(3, 1.5));

    // partition (a full sort on a device backend) and searchsorted need
    // their kernels
    int64_t kth[] = {1};
    CN_REQUIRE_ERR(cn_partition(r.out(), g, 1, kth, -1), CN_ERR_UNSUPPORTED,
                   "cn_partition: not supported on the 'cuda' backend (no "
                   "'sort' kernel)");
    CN_REQUIRE_ERR(cn_argpartition(r.out(), g, 1, kth, -1),
                   CN_ERR_UNSUPPORTED,
                   "cn_argpartition: not supported on the 'cuda' backend (no "
                   "'sort' kernel)");
    Arr ss, md;
    CN_REQUIRE_ERR(cn_searchsorted(ss.out(), g, h, 0, nullptr),
                   CN_ERR_UNSUPPORTED,
                   "cn_searchsorted: not supported on the 'cuda' backend (no "
                   "'searchsorted' kernel)");
    CHECK(r.h == nullptr);
    CHECK(ss.h == nullptr);
    // What it answers "host" for runs (through host copies).
    CN_REQUIRE_OK(cn_median(md.out(), g, CN_ALL_AXES, nullptr, 0));
    CHECK(to_vec<double>(md) == std::vector<double>{1.5});
    // unique and isin sort with the kernel before their host steps
    Arr uq, in;
    CN_REQUIRE_ERR(cn_unique(uq.out(), nullptr, nullptr, nullptr, g, 1),
                   CN_ERR_UNSUPPORTED, "(no 'sort' kernel)");
    CN_REQUIRE_ERR(cn_isin(in.out(), g, h, 0), CN_ERR_UNSUPPORTED,
                   "(no 'sort' kernel)");
  }
  CN_REQUIRE_OK(cn_set_backend("cpu"));
}

TEST_CASE("the handshake refuses a compute table of another size, naming "
          "it") {
  fresh(CN_FAKE_PLUGIN_SHORT_TABLE);
  CN_REQUIRE_ERR(cn_backend_load_plugin(CN_FAKE_PLUGIN_SHORT_TABLE),
                 CN_ERR_DEVICE, "compute table of");
  CHECK(has(cn_last_error(), "smaller than the"));
  fresh(CN_FAKE_PLUGIN_MISSING);
}

TEST_CASE("cn_build_info names the libraries and the plugin's state") {
  fresh(CN_FAKE_PLUGIN_MISSING);
  std::string off = cn_build_info();
  INFO(off);
  CHECK(off.rfind(std::string("cunumpy: ") + cn_version() + " (ABI " +
                      std::to_string(CUNUMPY_ABI_VERSION) + ")\n",
                  0) == 0);
  for (const char *k : {"\nOpenBLAS: ", "\nOpenBLAS threads: ", "\nLAPACK: ",
                        "\nFFTW: fftw-3", "\nSLEEF: ", "\nOpenMP: "})
    CHECK(has(off, k));
  CHECK(has(off, "\nCUDA plugin: not loaded\n"));
  CHECK(has(off, "\nCUDA available: no (" + reason() + ")\n"));
  CHECK(!has(off, "CUDA runtime"));

  // the working fake plugin passes the handshake (it exports no versions)
  fresh(CN_FAKE_PLUGIN_OK);
  std::string on = cn_build_info();
  INFO(on);
  CHECK(has(on, std::string("\nCUDA plugin: ") + CN_FAKE_PLUGIN_OK + "\n"));
  CHECK(has(on, "\nCUDA available: yes (" +
                    std::to_string(cn_device_count()) + " devices)\n"));
  CHECK(!has(on, "CUDA runtime"));
  fresh(nullptr);
}
