// cunumpy/kernel.h: the parameter grammar, placeholder resolution, argument
// checks, and CPU execution of elementwise and reduction kernels against
// naive loops (long double sums for the reductions).
#include <cmath>
#include <complex>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "testutil.hpp"

namespace {

// Every test compiles into its own cache folder, never the user's.
struct CacheDir {
  std::string dir;
  CacheDir() {
    char tmpl[] = "/tmp/cn_test_kernel_XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    dir = tmpl;
    setenv("CUNUMPY_CPU_KERNEL_CACHE", dir.c_str(), 1);
    unsetenv("CUNUMPY_CC");
  }
  ~CacheDir() {
    std::string cmd = "rm -rf '" + dir + "'";
    (void)!system(cmd.c_str());
  }
};

struct Kern {
  cn_kernel h = nullptr;
  ~Kern() { cn_kernel_release(h); }
};

cn_status make_ew(Kern &k, const char *in, const char *out, const char *op,
                  const char *name = "k") {
  return cn_elementwise_kernel_create(&k.h, in, out, op, name, nullptr,
                                      nullptr, nullptr, nullptr);
}

// Calls k on args and keeps the first output.
cn_status call1(Arr &res, cn_kernel k, std::vector<cn_array> args,
                int64_t size = -1) {
  cn_array outs[CN_KERNEL_MAX_PARAMS] = {};
  cn_status st = cn_kernel_call(outs, CN_KERNEL_MAX_PARAMS, k,
                                (int32_t)args.size(), args.data(), size);
  if (st == CN_OK) {
    res = Arr(outs[0]);
    for (int i = 1; i < CN_KERNEL_MAX_PARAMS; i++)
      cn_array_release(outs[i]);
  }
  return st;
}

Arr arange(int64_t n, cn_dtype dt) {
  Arr a;
  CN_REQUIRE_OK(cn_arange_int(a.out(), 0, n, 1, dt));
  return a;
}

Arr reshape(cn_array a, std::vector<int64_t> shape) {
  Arr r;
  CN_REQUIRE_OK(cn_reshape(r.out(), a, (int32_t)shape.size(), shape.data(),
                           CN_ORDER_C));
  return r;
}

Arr weak(double v) {
  Arr a;
  CN_REQUIRE_OK(cn_scalar_array(a.out(), cn_scalar_float(v)));
  return a;
}

Arr weak_int(int64_t v) {
  Arr a;
  CN_REQUIRE_OK(cn_scalar_array(a.out(), cn_scalar_int(v)));
  return a;
}

cn_dtype dtype_of(cn_array a) {
  cn_dtype dt = CN_DTYPE_DEFAULT;
  CN_REQUIRE_OK(cn_array_dtype(&dt, a));
  return dt;
}

} // namespace

TEST_CASE("kernel grammar: valid declarations") {
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "float32 x, T y,raw T z ,\tint64 w", "T out, U u",
                        "out = x"));
  int32_t nin = 0, nout = 0, kind = -1;
  CN_REQUIRE_OK(cn_kernel_nin(&nin, k.h));
  CN_REQUIRE_OK(cn_kernel_nout(&nout, k.h));
  CN_REQUIRE_OK(cn_kernel_kind(&kind, k.h));
  CHECK(nin == 4);
  CHECK(nout == 2);
  CHECK(kind == CN_KERNEL_ELEMENTWISE);
  char name[8];
  CN_REQUIRE_OK(cn_kernel_name(name, sizeof name, k.h));
  CHECK(std::string(name) == "k");
  Kern e; // no inputs, blank lists are empty
  CN_REQUIRE_OK(make_ew(e, "  ", "float64 z", "z = i"));
  CN_REQUIRE_OK(cn_kernel_nin(&nin, e.h));
  CHECK(nin == 0);
  Kern d; // default name
  CN_REQUIRE_OK(cn_elementwise_kernel_create(&d.h, "T x", "T y", "y = x",
                                             nullptr, nullptr, nullptr,
                                             nullptr, nullptr));
  CN_REQUIRE_OK(cn_kernel_name(name, sizeof name, d.h));
  CHECK(std::string(name) == "kernel");
}

TEST_CASE("kernel grammar: invalid declarations name the position") {
  Kern k;
  CN_REQUIRE_ERR(make_ew(k, "float32 x, floaty y", "T z", "z = x"),
                 CN_ERR_VALUE, "unknown type 'floaty' in parameter 2 (at "
                               "character 11)");
  CN_REQUIRE_ERR(make_ew(k, "float32", "T z", "z = 1"), CN_ERR_VALUE,
                 "parameter 1 (at character 0): 'float32' needs a type");
  CN_REQUIRE_ERR(make_ew(k, "float32 x,", "T z", "z = x"), CN_ERR_VALUE,
                 "in_params: parameter 2 (at character 10) is empty");
  CN_REQUIRE_ERR(make_ew(k, "T x", "const T z", "z = x"), CN_ERR_VALUE,
                 "out_params: unknown keyword 'const' in parameter 1 (at "
                 "character 0)");
  CN_REQUIRE_ERR(make_ew(k, "T 1x", "T z", "z = 1"), CN_ERR_VALUE,
                 "invalid parameter name '1x' in parameter 1 (at character "
                 "2)");
  CN_REQUIRE_ERR(make_ew(k, "T _x", "T z", "z = 1"), CN_ERR_VALUE,
                 "starts with '_'");
  CN_REQUIRE_ERR(make_ew(k, "T i", "T z", "z = 1"), CN_ERR_VALUE,
                 "'i' in parameter 1 (at character 2) is reserved");
  CN_REQUIRE_ERR(make_ew(k, "T x, U x", "T z", "z = 1"), CN_ERR_VALUE,
                 "parameter 2 repeats the name 'x'");
  CN_REQUIRE_ERR(make_ew(k, "T x", "T x", "x = 1"), CN_ERR_VALUE,
                 "repeats the input name 'x'");
  CN_REQUIRE_ERR(make_ew(k, "T x", "float16 z", "z = 1"), CN_ERR_VALUE,
                 "unknown type 'float16'");
  CN_REQUIRE_ERR(make_ew(k, "T x y z w v u t s r", "T o", "o = 1"),
                 CN_ERR_VALUE, "too many words");
  CN_REQUIRE_ERR(make_ew(k, "T \xff\xfe", "T z", "z = 1"), CN_ERR_VALUE,
                 "invalid parameter name '?\?'");
  CN_REQUIRE_ERR(make_ew(k, "T x", "T z", "z = x", "two words"), CN_ERR_VALUE,
                 "name must be a C identifier");
  std::string many;
  for (int i = 0; i < 33; i++)
    many += (i ? ", T p" : "T p") + std::to_string(i);
  CN_REQUIRE_ERR(make_ew(k, many.c_str(), "T z", "z = 1"), CN_ERR_VALUE,
                 "more than 32 parameters");
  CN_REQUIRE_ERR(make_ew(k, "T x", "T z", nullptr), CN_ERR_VALUE,
                 "operation is NULL");
  CHECK(k.h == nullptr);
  Kern r;
  CN_REQUIRE_ERR(cn_reduction_kernel_create(&r.h, "T x", "T y, T w", "x",
                                            "a + b", "y = a", "0", "r",
                                            nullptr, nullptr, nullptr),
                 CN_ERR_VALUE, "exactly one non-raw output");
  CN_REQUIRE_ERR(cn_reduction_kernel_create(&r.h, "raw T x", "T y", "x",
                                            "a + b", "y = a", "0", "r",
                                            nullptr, nullptr, nullptr),
                 CN_ERR_VALUE, "take no raw parameters");
  CN_REQUIRE_ERR(cn_reduction_kernel_create(&r.h, "T x", "T y", "x", " ",
                                            "y = a", "0", "r", nullptr,
                                            nullptr, nullptr),
                 CN_ERR_VALUE, "reduce_expr is empty");
  CN_REQUIRE_ERR(cn_reduction_kernel_create(&r.h, "T x", "T y", "x", "a+b",
                                            "y = a", "0", "r", "T;", nullptr,
                                            nullptr),
                 CN_ERR_VALUE, "is not a type name");
  CHECK(r.h == nullptr);
}

TEST_CASE("kernel placeholders resolve from arrays, outputs and scalars") {
  CacheDir cache;
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x, T y", "T z", "z = x + y"));
  Arr f32 = arange(4, CN_FLOAT32), f64 = arange(4, CN_FLOAT64);
  Arr r;
  CN_REQUIRE_ERR(call1(r, k.h, {f32.h, f64.h}), CN_ERR_TYPE,
                 "type placeholder 'T' is float32, but argument 'y' is "
                 "float64");
  // A weak scalar takes the array's type; alone it is int64 / float64.
  Arr two = weak_int(2);
  CN_REQUIRE_OK(call1(r, k.h, {f32.h, two.h}));
  CHECK(dtype_of(r.h) == CN_FLOAT32);
  CHECK(to_vec<float>(r.h) == std::vector<float>{2, 3, 4, 5});
  Arr three = weak_int(3);
  CN_REQUIRE_OK(call1(r, k.h, {three.h, two.h}));
  CHECK(dtype_of(r.h) == CN_INT64);
  CHECK(to_vec<int64_t>(r.h) == std::vector<int64_t>{5});
  // An output-only placeholder from a passed output, else an error.
  Kern u;
  CN_REQUIRE_OK(make_ew(u, "T x", "U z", "z = x * 2"));
  CN_REQUIRE_ERR(call1(r, u.h, {f32.h}), CN_ERR_TYPE,
                 "cannot determine the type placeholder 'U' of parameter "
                 "'z'");
  Arr o = arange(4, CN_INT16);
  CN_REQUIRE_OK(call1(r, u.h, {f32.h, o.h}));
  CHECK(r.h == o.h);
  CHECK(to_vec<int16_t>(o.h) == std::vector<int16_t>{0, 2, 4, 6});
  // Declared dtypes convert the argument (as CuPy's generated code does).
  Kern d;
  CN_REQUIRE_OK(make_ew(d, "int32 x", "float64 z", "z = x / 2"));
  Arr fl = from_vec<double>({1.7, -2.5, 3.2}, {3}, CN_FLOAT64);
  CN_REQUIRE_OK(call1(r, d.h, {fl.h}));
  CHECK(to_vec<double>(r.h) == std::vector<double>{0, -1, 1});
}

TEST_CASE("kernel argument checks") {
  CacheDir cache;
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x, T y", "T z", "z = x - y"));
  Arr a = reshape(arange(6, CN_FLOAT64), {2, 3});
  Arr b = arange(2, CN_FLOAT64);
  Arr r;
  CN_REQUIRE_ERR(call1(r, k.h, {a.h}), CN_ERR_VALUE,
                 "'k' takes 2 arguments (or 3 with its outputs), got 1");
  CN_REQUIRE_ERR(call1(r, k.h, {a.h, b.h}), CN_ERR_SHAPE,
                 "argument 'y' of shape (2,) does not broadcast");
  Arr bad_out = arange(3, CN_FLOAT64);
  CN_REQUIRE_ERR(call1(r, k.h, {a.h, a.h, bad_out.h}), CN_ERR_SHAPE,
                 "output 'z'");
  Arr ro;
  CN_REQUIRE_OK(cn_readonly_view(ro.out(), a.h));
  CN_REQUIRE_ERR(call1(r, k.h, {a.h, a.h, ro.h}), CN_ERR_VALUE,
                 "output 'z' is read-only");
  CN_REQUIRE_ERR(call1(r, k.h, {a.h, a.h}, 6), CN_ERR_VALUE,
                 "size can be given only when every array argument is raw");
  cn_array none[1] = {nullptr};
  CN_REQUIRE_ERR(call1(r, k.h, {a.h, none[0]}), CN_ERR_VALUE, "is NULL");
  Kern raw;
  CN_REQUIRE_OK(make_ew(raw, "raw T x", "T y", "y = x[i]"));
  CN_REQUIRE_ERR(call1(r, raw.h, {a.h}), CN_ERR_VALUE,
                 "the loop size is undecided");
  cn_array outs[1];
  CN_REQUIRE_ERR(cn_kernel_call(outs, 0, k.h, 2,
                                std::vector<cn_array>{a.h, a.h}.data(), -1),
                 CN_ERR_VALUE, "cap 0");
  CN_REQUIRE_ERR(cn_kernel_reduce(outs, 1, k.h, 2,
                                  std::vector<cn_array>{a.h, a.h}.data(),
                                  CN_ALL_AXES, nullptr, 0),
                 CN_ERR_VALUE, "is an elementwise kernel");
  // Nothing was written into the outputs that failed.
  CHECK(to_vec<double>(bad_out.h) == std::vector<double>{0, 1, 2});
}

TEST_CASE("kernel execution: broadcasting, strides, raw, scalars") {
  CacheDir cache;
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x, T y, T s", "T z", "z = x * 10 + y + s"));
  Arr col = reshape(arange(3, CN_INT32), {3, 1});
  Arr row = reshape(arange(4, CN_INT32), {1, 4});
  Arr s = weak_int(100);
  Arr r;
  CN_REQUIRE_OK(call1(r, k.h, {col.h, row.h, s.h}));
  REQUIRE(shape_of(r.h) == std::vector<int64_t>{3, 4});
  std::vector<int32_t> want;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 4; b++)
      want.push_back(a * 10 + b + 100);
  CHECK(to_vec<int32_t>(r.h) == want);
  // Negative and non-unit strides, written into a strided output.
  Arr base = arange(20, CN_FLOAT64);
  Arr rev, ev, outbuf, outv;
  CN_REQUIRE_OK(cn_slice_axis(rev.out(), base.h, 0, 19, CN_SLICE_NONE, -2));
  CN_REQUIRE_OK(cn_slice_axis(ev.out(), base.h, 0, 0, 20, 2));
  CN_REQUIRE_OK(cn_zeros(outbuf.out(), 1, std::vector<int64_t>{30}.data(),
                         CN_FLOAT64, CN_ORDER_C));
  CN_REQUIRE_OK(cn_slice_axis(outv.out(), outbuf.h, 0, 0, 30, 3));
  Arr zero = weak(0.5);
  CN_REQUIRE_OK(call1(r, k.h, {rev.h, ev.h, zero.h, outv.h}));
  std::vector<double> got = to_vec<double>(outbuf.h);
  for (int j = 0; j < 10; j++) {
    CHECK(got[3 * j] == (19 - 2 * j) * 10.0 + 2 * j + 0.5);
    if (j < 9)
      CHECK(got[3 * j + 1] == 0.0);
  }
  // raw parameters, i and _ind.size().
  Kern st;
  CN_REQUIRE_OK(make_ew(st, "raw T x", "T y",
                        "y = x[_ind.size() - 1 - i] + (T)i"));
  CN_REQUIRE_OK(call1(r, st.h, {rev.h}, 10));
  std::vector<double> g2 = to_vec<double>(r.h);
  for (int j = 0; j < 10; j++)
    CHECK(g2[j] == (19 - 2 * (9 - j)) + j);
  // An empty loop runs nothing and returns an empty output.
  Arr empty = arange(0, CN_FLOAT64);
  CN_REQUIRE_OK(call1(r, k.h, {empty.h, empty.h, zero.h}));
  CHECK(shape_of(r.h) == std::vector<int64_t>{0});
  // Several outputs, 0-d inputs.
  Kern two;
  CN_REQUIRE_OK(make_ew(two, "T x", "T a, T b", "a = x + 1; b = x - 1"));
  cn_array outs[2] = {};
  Arr zd;
  CN_REQUIRE_OK(cn_from_scalar(zd.out(), cn_scalar_float(5), CN_FLOAT32));
  CN_REQUIRE_OK(cn_kernel_call(outs, 2, two.h, 1, &zd.h, -1));
  Arr o0(outs[0]), o1(outs[1]);
  CHECK(shape_of(o0.h).empty());
  CHECK(to_vec<float>(o0.h)[0] == 6.0f);
  CHECK(to_vec<float>(o1.h)[0] == 4.0f);
}

TEST_CASE("kernel execution: every dtype") {
  CacheDir cache;
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x", "T y", "y = x + x"));
  const cn_dtype all[] = {CN_INT8,    CN_INT16,     CN_INT32,     CN_INT64,
                          CN_UINT8,   CN_UINT16,    CN_UINT32,    CN_UINT64,
                          CN_FLOAT32, CN_FLOAT64,   CN_COMPLEX64, CN_COMPLEX128};
  for (cn_dtype dt : all) {
    INFO(cn_dtype_name(dt));
    Arr a = arange(7, dt);
    Arr r, want;
    CN_REQUIRE_OK(call1(r, k.h, {a.h}));
    CHECK(dtype_of(r.h) == dt);
    CN_REQUIRE_OK(cn_add(want.out(), a.h, a.h, nullptr));
    Arr eq;
    CN_REQUIRE_OK(cn_equal(eq.out(), r.h, want.h, nullptr));
    for (uint8_t v : to_vec<uint8_t>(eq.h))
      CHECK(v);
  }
  Kern b;
  CN_REQUIRE_OK(make_ew(b, "bool x, bool y", "bool z", "z = x && !y"));
  Arr x = from_vec<uint8_t>({1, 1, 0, 0}, {4}, CN_BOOL);
  Arr y = from_vec<uint8_t>({1, 0, 1, 0}, {4}, CN_BOOL);
  Arr r;
  CN_REQUIRE_OK(call1(r, b.h, {x.h, y.h}));
  CHECK(to_vec<uint8_t>(r.h) == std::vector<uint8_t>{0, 1, 0, 0});
  Kern c; // complex arithmetic in C99 _Complex
  CN_REQUIRE_OK(make_ew(c, "complex128 x", "complex128 y",
                        "y = x * I + conj(x)"));
  Arr cx = from_vec<std::complex<double>>({{1, 2}, {-3, 0.5}}, {2},
                                          CN_COMPLEX128);
  CN_REQUIRE_OK(call1(r, c.h, {cx.h}));
  std::vector<std::complex<double>> cv = to_vec<std::complex<double>>(r.h);
  CHECK(cv[0] == std::complex<double>(1, 2) * std::complex<double>(0, 1) +
                     std::complex<double>(1, -2));
  CHECK(cv[1] == std::complex<double>(-3, 0.5) * std::complex<double>(0, 1) +
                     std::complex<double>(-3, -0.5));
}

TEST_CASE("reduction kernels: axes, keepdims, out, pairwise accuracy") {
  CacheDir cache;
  Kern sum;
  CN_REQUIRE_OK(cn_reduction_kernel_create(&sum.h, "T x", "T y", "x", "a + b",
                                           "y = a", "0", "ksum", nullptr,
                                           nullptr, nullptr));
  Arr a = reshape(arange(24, CN_INT64), {2, 3, 4});
  cn_array outs[1];
  int32_t ax[2] = {0, 2};
  CN_REQUIRE_OK(cn_kernel_reduce(outs, 1, sum.h, 1, &a.h, 2, ax, 0));
  Arr r(outs[0]);
  REQUIRE(shape_of(r.h) == std::vector<int64_t>{3});
  std::vector<int64_t> want(3, 0);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++)
        want[j] += i * 12 + j * 4 + k;
  CHECK(to_vec<int64_t>(r.h) == want);
  CN_REQUIRE_OK(cn_kernel_reduce(outs, 1, sum.h, 1, &a.h, 2, ax, 1));
  Arr rk(outs[0]);
  CHECK(shape_of(rk.h) == std::vector<int64_t>{1, 3, 1});
  CHECK(to_vec<int64_t>(rk.h) == want);
  // out= receives the result (and is returned).
  Arr o = arange(3, CN_INT64);
  cn_array args[2] = {a.h, o.h};
  CN_REQUIRE_OK(cn_kernel_reduce(outs, 1, sum.h, 2, args, 2, ax, 0));
  Arr ro(outs[0]);
  CHECK(ro.h == o.h);
  CHECK(to_vec<int64_t>(o.h) == want);
  CN_REQUIRE_ERR(cn_kernel_reduce(outs, 1, sum.h, 2, args, 1, ax, 0),
                 CN_ERR_SHAPE, "output 'y'");
  int32_t bad = 3;
  CN_REQUIRE_ERR(cn_kernel_reduce(outs, 1, sum.h, 1, &a.h, 1, &bad, 0),
                 CN_ERR_AXIS, "axis 3 is out of bounds");
  // Empty reductions give post_map(identity).
  Kern mx;
  CN_REQUIRE_OK(cn_reduction_kernel_create(
      &mx.h, "T x", "T y", "x", "max(a, b)", "y = a + 1", "-1000", "kmax",
      nullptr, nullptr, nullptr));
  Arr e = reshape(arange(0, CN_FLOAT64), {0, 5});
  int32_t ax0 = 0;
  CN_REQUIRE_OK(cn_kernel_reduce(outs, 1, mx.h, 1, &e.h, 1, &ax0, 0));
  Arr re(outs[0]);
  CHECK(to_vec<double>(re.h) == std::vector<double>(5, -999.0));
  // Non-contiguous input whose reduced axes do not merge (a transpose).
  Arr t;
  CN_REQUIRE_OK(cn_transpose(t.out(), a.h));
  int32_t ax01[2] = {0, 1};
  CN_REQUIRE_OK(cn_kernel_reduce(outs, 1, mx.h, 1, &t.h, 2, ax01, 0));
  Arr rt(outs[0]);
  CHECK(to_vec<int64_t>(rt.h) == std::vector<int64_t>{12, 24});
  // Pairwise accumulation: 2^22 float32 values of 0.1 sum accurately.
  const int64_t n = 1 << 22;
  std::vector<float> v(n, 0.1f);
  Arr big = from_vec<float>(v, {n}, CN_FLOAT32);
  CN_REQUIRE_OK(cn_kernel_reduce(outs, 1, sum.h, 1, &big.h, CN_ALL_AXES,
                                 nullptr, 0));
  Arr rb(outs[0]);
  long double exact = (long double)0.1f * n;
  float got = to_vec<float>(rb.h)[0];
  CHECK(std::fabs((long double)got - exact) / exact < 1e-6L);
}

TEST_CASE("kernel compile errors and a missing compiler") {
  CacheDir cache;
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x", "T y", "y = x +* undefined_thing"));
  Arr a = arange(3, CN_FLOAT64), r;
  CN_REQUIRE_ERR(call1(r, k.h, {a.h}), CN_ERR_VALUE, "operation:1");
  Kern ok;
  CN_REQUIRE_OK(make_ew(ok, "T x", "T y", "y = x * 3.5"));
  setenv("CUNUMPY_CC", "/nonexistent/cc", 1);
  CN_REQUIRE_ERR(call1(r, ok.h, {a.h}), CN_ERR_UNSUPPORTED,
                 "looked for '/nonexistent/cc' (from CUNUMPY_CC); set "
                 "CUNUMPY_CC");
  unsetenv("CUNUMPY_CC");
  CN_REQUIRE_OK(call1(r, ok.h, {a.h}));
  CHECK(to_vec<double>(r.h) == std::vector<double>{0, 3.5, 7});
}

TEST_CASE("kernel objects are cached in memory and on disk") {
  CacheDir cache;
  int64_t c0, d0, m0, c1, d1, m1;
  CN_REQUIRE_OK(cn_kernel_cpu_cache_info(&c0, &d0, &m0));
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x", "T y", "y = x - 0.25"));
  Arr a = arange(3, CN_FLOAT64), r;
  CN_REQUIRE_OK(call1(r, k.h, {a.h}));
  CN_REQUIRE_OK(call1(r, k.h, {a.h}));
  CN_REQUIRE_OK(cn_kernel_cpu_cache_info(&c1, &d1, &m1));
  CHECK(c1 == c0 + 1);
  // A new handle with the same text finds the object in memory.
  Kern k2;
  CN_REQUIRE_OK(make_ew(k2, "T x", "T y", "y = x - 0.25"));
  CN_REQUIRE_OK(call1(r, k2.h, {a.h}));
  int64_t c2, d2, m2;
  CN_REQUIRE_OK(cn_kernel_cpu_cache_info(&c2, &d2, &m2));
  CHECK(c2 == c1);
  CHECK(m2 == m1);
  CHECK(to_vec<double>(r.h) == std::vector<double>{-0.25, 0.75, 1.75});
}

TEST_CASE("kernel sources for both backends") {
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x, raw T w", "T y", "y = x * w[0]", "scale"));
  Arr a = arange(3, CN_FLOAT32);
  cn_array args[2] = {a.h, a.h};
  int64_t len = 0;
  CN_REQUIRE_OK(cn_kernel_source(nullptr, 0, &len, k.h, CN_KERNEL_SOURCE_CUDA,
                                 2, args));
  std::string buf((size_t)len + 1, '\0');
  CN_REQUIRE_OK(cn_kernel_source(&buf[0], len + 1, &len, k.h,
                                 CN_KERNEL_SOURCE_CUDA, 2, args));
  CHECK(buf.find("extern \"C\" __global__ void cn_kernel_scale") !=
        std::string::npos);
  CHECK(buf.find("typedef float T;") != std::string::npos);
  CN_REQUIRE_OK(cn_kernel_source(&buf[0], len + 1, &len, k.h,
                                 CN_KERNEL_SOURCE_CPU, 2, args));
  CHECK(std::string(buf.c_str()).find("void cn_kernel_entry") !=
        std::string::npos);
  CN_REQUIRE_ERR(cn_kernel_source(&buf[0], 4, &len, k.h, 7, 2, args),
                 CN_ERR_VALUE, "backend 7");
  CN_REQUIRE_ERR(cn_kernel_source(&buf[0], 4, &len, k.h, 0, 1, args),
                 CN_ERR_VALUE, "takes 2 arguments");
}

TEST_CASE("kernel handles: NULL and released") {
  int32_t n;
  CN_REQUIRE_ERR(cn_kernel_nin(&n, nullptr), CN_ERR_VALUE, "kernel is NULL");
  CN_REQUIRE_ERR(cn_kernel_retain(nullptr), CN_ERR_VALUE, "kernel is NULL");
  cn_kernel_release(nullptr);
  Kern k;
  CN_REQUIRE_OK(make_ew(k, "T x", "T y", "y = x"));
  CN_REQUIRE_OK(cn_kernel_retain(k.h));
  cn_kernel_release(k.h);
  CN_REQUIRE_OK(cn_kernel_nin(&n, k.h));
}
