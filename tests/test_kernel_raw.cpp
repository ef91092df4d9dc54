// Raw CUDA modules, kernel signatures and struct layouts (cunumpy/kernel.h,
// raw section): the signature parser on valid and hostile declarations, the
// argument checks and scalar packing against C's own conversions, struct
// layouts against this compiler's sizeof/offsetof, and NVRTC compiling
// kernels to PTX (no GPU: loading and launching answer CN_ERR_DEVICE).
// CUNUMPY_TEST_NVRTC=1 (set by tests/cuda.cmake when the plugin is built)
// makes the NVRTC part mandatory.
#include "array_testutil.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <unistd.h>

using namespace tu;

namespace {

struct Sig {
  cn_kernel_sig h = nullptr;
  ~Sig() { cn_kernel_sig_release(h); }
  cn_kernel_sig *out() {
    cn_kernel_sig_release(h);
    h = nullptr;
    return &h;
  }
  operator cn_kernel_sig() const { return h; }
};

struct Layout {
  cn_struct_layout h = nullptr;
  ~Layout() { cn_struct_layout_release(h); }
  cn_struct_layout *out() {
    cn_struct_layout_release(h);
    h = nullptr;
    return &h;
  }
  operator cn_struct_layout() const { return h; }
};

struct Module {
  cn_cuda_module h = nullptr;
  ~Module() { cn_cuda_module_release(h); }
  cn_cuda_module *out() {
    cn_cuda_module_release(h);
    h = nullptr;
    return &h;
  }
  operator cn_cuda_module() const { return h; }
};

std::string ptype(cn_kernel_sig s, int32_t i) {
  char buf[256];
  REQUIRE(cn_kernel_sig_param_type(buf, sizeof buf, s, i) == CN_OK);
  return buf;
}
std::string pname(cn_kernel_sig s, int32_t i) {
  char buf[256];
  REQUIRE(cn_kernel_sig_param_name(buf, sizeof buf, s, i) == CN_OK);
  return buf;
}
int32_t nparams(cn_kernel_sig s) {
  int32_t n = -1;
  REQUIRE(cn_kernel_sig_nparams(&n, s) == CN_OK);
  return n;
}

const char *AXPY = R"(
extern "C" __global__
void axpy(double a, const double* x, double* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
)";

const char *VECTOR_ADD = R"(
extern "C" __global__
void vector_add(const float* a, const float* b, float* c, int n) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < n) {
        c[tid] = a[tid] + b[tid];
    }
}
)";

} // namespace

TEST_CASE("kernel signature: the seed's kernels", "[kernel_raw]") {
  Sig s;
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), AXPY, "axpy", nullptr));
  REQUIRE(nparams(s) == 4);
  REQUIRE(ptype(s, 0) == "double");
  REQUIRE(ptype(s, 1) == "const double*");
  REQUIRE(ptype(s, 2) == "double*");
  REQUIRE(ptype(s, 3) == "int");
  REQUIRE(pname(s, 1) == "x");
  int32_t kind, depth, cst;
  cn_dtype dt;
  CN_REQUIRE_OK(cn_kernel_sig_param(&kind, &dt, &depth, &cst, s, 1));
  REQUIRE(kind == CN_PARAM_POINTER);
  REQUIRE(dt == CN_FLOAT64);
  REQUIRE(depth == 1);
  REQUIRE(cst == 1);
  CN_REQUIRE_OK(cn_kernel_sig_param(&kind, &dt, &depth, &cst, s, 3));
  REQUIRE(kind == CN_PARAM_SCALAR);
  REQUIRE(dt == CN_INT32);
  char name[64];
  CN_REQUIRE_OK(cn_kernel_sig_name(name, sizeof name, s));
  REQUIRE(std::string(name) == "axpy");
  CN_REQUIRE_ERR(cn_kernel_sig_param(&kind, &dt, &depth, &cst, s, 4),
                 CN_ERR_INDEX, "no parameter 4");
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), VECTOR_ADD, "vector_add", ""));
  REQUIRE(nparams(s) == 4);
  REQUIRE(ptype(s, 0) == "const float*");
}

TEST_CASE("kernel signature: qualifiers, C types and other functions",
          "[kernel_raw]") {
  const char *src = R"src(
#include <cuda_fp16.h>
#define N 4 /* a macro: skipped */
// __global__ void decoy(int) in a comment
__device__ float helper(float x) { return x; }
extern "C" __global__ void other(int a) {}
typedef struct Vec { double* data; int n; } Vec;
extern "C" __global__ void __launch_bounds__(256, 2)
kernel_all(const float* __restrict__ a, float const *b, unsigned u,
           unsigned long long ull, long long ll, long int li, size_t sz,
           int64_t i64, uint8_t u8, signed char sc, unsigned short us,
           bool flag, void *raw, half h, __half *hp, Vec v, double **pp,
           float arr[], complex<float> *c64, thrust::complex<double> *c128,
           char ch, short int si, unsigned char uc, float *const cp)
{
  const char *s = "__global__ void kernel_all(int)";
}
)src";
  Sig s;
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), src, "kernel_all", nullptr));
  REQUIRE(nparams(s) == 24);
  struct {
    int32_t i;
    const char *type;
    int32_t kind;
    cn_dtype dt;
    int32_t depth;
  } want[] = {
      {0, "const float*", CN_PARAM_POINTER, CN_FLOAT32, 1},
      {1, "const float*", CN_PARAM_POINTER, CN_FLOAT32, 1},
      {2, "unsigned", CN_PARAM_SCALAR, CN_UINT32, 0},
      {3, "unsigned long long", CN_PARAM_SCALAR, CN_UINT64, 0},
      {4, "long long", CN_PARAM_SCALAR, CN_INT64, 0},
      {5, "long int", CN_PARAM_SCALAR, CN_INT64, 0},
      {6, "size_t", CN_PARAM_SCALAR, CN_UINT64, 0},
      {7, "int64_t", CN_PARAM_SCALAR, CN_INT64, 0},
      {8, "uint8_t", CN_PARAM_SCALAR, CN_UINT8, 0},
      {9, "signed char", CN_PARAM_SCALAR, CN_INT8, 0},
      {10, "unsigned short", CN_PARAM_SCALAR, CN_UINT16, 0},
      {11, "bool", CN_PARAM_SCALAR, CN_BOOL, 0},
      {12, "void*", CN_PARAM_POINTER, (cn_dtype)0, 1},
      {13, "half", CN_PARAM_SCALAR, (cn_dtype)0, 0},
      {14, "__half*", CN_PARAM_POINTER, (cn_dtype)0, 1},
      {15, "Vec", CN_PARAM_STRUCT, (cn_dtype)0, 0},
      {16, "double**", CN_PARAM_POINTER, CN_FLOAT64, 2},
      {17, "float*", CN_PARAM_POINTER, CN_FLOAT32, 1},
      {18, "complex<float>*", CN_PARAM_POINTER, CN_COMPLEX64, 1},
      {19, "thrust::complex<double>*", CN_PARAM_POINTER, CN_COMPLEX128, 1},
      {20, "char", CN_PARAM_SCALAR, CN_INT8, 0},
      {21, "short int", CN_PARAM_SCALAR, CN_INT16, 0},
      {22, "unsigned char", CN_PARAM_SCALAR, CN_UINT8, 0},
      {23, "float*", CN_PARAM_POINTER, CN_FLOAT32, 1},
  };
  for (auto &w : want) {
    INFO("parameter " << w.i);
    REQUIRE(ptype(s, w.i) == w.type);
    int32_t kind, depth, cst;
    cn_dtype dt;
    CN_REQUIRE_OK(cn_kernel_sig_param(&kind, &dt, &depth, &cst, s, w.i));
    REQUIRE(kind == w.kind);
    REQUIRE(dt == w.dt);
    REQUIRE(depth == w.depth);
  }
  // empty and (void) parameter lists; the first definition of a name wins
  CN_REQUIRE_OK(cn_kernel_sig_parse(
      s.out(), "__global__ void e() {} __global__ void v(void) {}", "e", 0));
  REQUIRE(nparams(s) == 0);
  CN_REQUIRE_OK(cn_kernel_sig_parse(
      s.out(), "__global__ void e() {} __global__ void v(void) {}", "v", 0));
  REQUIRE(nparams(s) == 0);
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), src, "other", nullptr));
  REQUIRE(nparams(s) == 1);
}

TEST_CASE("kernel signature: templates take template_args", "[kernel_raw]") {
  const char *src = R"(
template <typename T, int BLOCK = 128>
__global__ void scale(T* x, T a, int n) { }
)";
  Sig s;
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), src, "scale", "double"));
  REQUIRE(ptype(s, 0) == "double*");
  REQUIRE(ptype(s, 1) == "double");
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), src, "scale", "unsigned int, 64"));
  REQUIRE(ptype(s, 0) == "unsigned int*");
  CN_REQUIRE_ERR(cn_kernel_sig_parse(s.out(), src, "scale", nullptr),
                 CN_ERR_VALUE, "is a template of 2 parameters and 0 template");
  CN_REQUIRE_ERR(cn_kernel_sig_parse(s.out(), src, "scale", "float, 1, 2"),
                 CN_ERR_VALUE, "3 template arguments");
  CN_REQUIRE_ERR(cn_kernel_sig_parse(s.out(), AXPY, "axpy", "float"),
                 CN_ERR_VALUE, "is not a template");
  REQUIRE(s.h == nullptr);
}

TEST_CASE("kernel signature: invalid declarations name what and where",
          "[kernel_raw]") {
  Sig s;
  struct {
    const char *src, *name, *needle;
  } bad[] = {
      {AXPY, "axpyy", "no __global__ function called 'axpyy'"},
      {"__global__ void k(int &r) {}", "k", "parameter 0: reference types"},
      {"__global__ void k(int a, float b = 1) {}", "k",
       "parameter 1 has a default argument (line 1, column 34)"},
      {"__global__ void k(int a,\n  unsigned float b) {}", "k",
       "parameter 1: invalid combination of type words (line 2, column 3)"},
      {"__global__ void k(int a b) {}", "k", "two names"},
      {"__global__ void k(int a, ) {}", "k", "parameter 1 is empty"},
      {"__global__ void k(int a", "k", "not closed"},
      {"__global__ void k(Vec int) {}", "k", "unexpected 'int'"},
      {"__global__ void k(void v) {}", "k", "void is not a value type"},
      {"__global__ void k(float (*f)(int)) {}", "k", "parameter 0"},
      {"__global__ void k(complex<float x) {}", "k", "unbalanced"},
      {"__global__ void k(int x[3) {}", "k", "unbalanced brackets"},
      {"__global__ void k(int x[3] y) {}", "k", "parameter 0"},
  };
  for (auto &b : bad) {
    INFO(b.src);
    CN_REQUIRE_ERR(cn_kernel_sig_parse(s.out(), b.src, b.name, nullptr),
                   CN_ERR_VALUE, b.needle);
    REQUIRE(std::string(cn_last_error()).find(b.name) != std::string::npos);
  }
  CN_REQUIRE_ERR(cn_kernel_sig_parse(s.out(), nullptr, "k", nullptr),
                 CN_ERR_VALUE, "'source' is NULL");
  CN_REQUIRE_ERR(cn_kernel_sig_parse(s.out(), AXPY, "", nullptr), CN_ERR_VALUE,
                 "'name' is empty");
  CN_REQUIRE_ERR(cn_kernel_sig_parse(nullptr, AXPY, "axpy", nullptr),
                 CN_ERR_VALUE, "output pointer is NULL");
  // hostile text: unterminated comments and literals, lone brackets
  const char *hostile[] = {"__global__ void k(/*", "__global__ void k(\"",
                           "__global__", "__global__ void k)", "((((", "",
                           "__global__ void __launch_bounds__(", "#"};
  for (const char *h : hostile) {
    INFO(h);
    REQUIRE(cn_kernel_sig_parse(s.out(), h, "k", nullptr) == CN_ERR_VALUE);
  }
}

TEST_CASE("kernel signature: a call's arguments are checked",
          "[kernel_raw]") {
  Sig s;
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), AXPY, "axpy", nullptr));
  Arr x = f64({1, 2, 3}, {3}), y = f64({0, 0, 0}, {3});
  Arr xf = cast(x, CN_FLOAT32);
  cn_array arrays[4] = {nullptr, x, y, nullptr};
  cn_scalar scalars[4] = {cn_scalar_float(2.0), {}, {}, cn_scalar_int(3)};
  CN_REQUIRE_OK(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr));
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 3, arrays, scalars, nullptr),
                 CN_ERR_VALUE, "kernel 'axpy' takes 4 arguments, got 3");
  arrays[1] = xf;
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr),
                 CN_ERR_TYPE,
                 "kernel 'axpy': argument 1 ('x': const double*) needs a "
                 "float64 array, got a float32 array");
  arrays[1] = x;
  arrays[0] = x;
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr),
                 CN_ERR_TYPE, "argument 0 ('a': double) is not a pointer");
  arrays[0] = nullptr;
  arrays[2] = nullptr;
  scalars[2] = cn_scalar_float(1.0);
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr),
                 CN_ERR_TYPE, "argument 2 ('y': double*) is a pointer");
  arrays[2] = y;
  scalars[3] = cn_scalar_int(3000000000LL);
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr),
                 CN_ERR_VALUE,
                 "argument 3 ('n': int): 3000000000 does not fit int");
  scalars[3] = cn_scalar_float(2.5);
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr),
                 CN_ERR_VALUE, "2.5 is not an integer");
  scalars[3] = cn_scalar_float(1000.0); // integral: fine
  CN_REQUIRE_OK(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr));
  scalars[0] = cn_scalar_complex(1, 1);
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 4, arrays, scalars, nullptr),
                 CN_ERR_TYPE, "complex value");
  // void* takes every dtype; a pointer to pointers and half* take none
  CN_REQUIRE_OK(cn_kernel_sig_parse(
      s.out(), "__global__ void k(void *p, double **q, half *h) {}", "k", 0));
  for (cn_dtype d : all_dtypes()) {
    Arr a = cast(x, d);
    CN_REQUIRE_OK(cn_kernel_sig_check_array(s, 0, a));
  }
  CN_REQUIRE_ERR(cn_kernel_sig_check_array(s, 1, x), CN_ERR_TYPE,
                 "pointer to pointers");
  CN_REQUIRE_ERR(cn_kernel_sig_check_array(s, 2, x), CN_ERR_TYPE,
                 "has no array dtype");
  // every pointer type takes exactly its dtype
  const char *ptrs = "__global__ void k(bool *a, signed char *b, short *c, "
                     "int *d, long long *e, unsigned char *f, uint16_t *g, "
                     "unsigned *h, size_t *i, float *j, double *k, "
                     "complex<float> *l, cuDoubleComplex *m) {}";
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), ptrs, "k", 0));
  std::vector<cn_dtype> order = {CN_BOOL,    CN_INT8,      CN_INT16,
                                 CN_INT32,   CN_INT64,     CN_UINT8,
                                 CN_UINT16,  CN_UINT32,    CN_UINT64,
                                 CN_FLOAT32, CN_FLOAT64,   CN_COMPLEX64,
                                 CN_COMPLEX128};
  for (int32_t i = 0; i < 13; i++)
    for (cn_dtype d : all_dtypes()) {
      Arr a = cast(x, d);
      INFO(i << " " << cn_dtype_name(d));
      REQUIRE((cn_kernel_sig_check_array(s, i, a) == CN_OK) ==
              (d == order[i]));
    }
}

namespace {
struct Packed {
  int64_t lo = 0, hi = 0, size = 0;
};
cn_status pack(Packed &p, cn_kernel_sig s, int32_t i, cn_scalar v) {
  return cn_kernel_sig_pack_scalar(&p.lo, &p.hi, &p.size, s, i, v);
}
template <class T> T bytes_as(const Packed &p) {
  unsigned char b[16];
  for (int k = 0; k < 8; k++) {
    b[k] = (unsigned char)((uint64_t)p.lo >> (8 * k));
    b[8 + k] = (unsigned char)((uint64_t)p.hi >> (8 * k));
  }
  T v;
  std::memcpy(&v, b, sizeof v);
  return v;
}
} // namespace

TEST_CASE("kernel signature: scalars are packed as their C types",
          "[kernel_raw]") {
  Sig s;
  const char *src = "__global__ void k(signed char a, unsigned char b, "
                    "short c, unsigned short d, int e, unsigned f, "
                    "long long g, unsigned long long h, float i, double j, "
                    "bool k, half l, complex<float> m, complex<double> n) {}";
  CN_REQUIRE_OK(cn_kernel_sig_parse(s.out(), src, "k", 0));
  Packed p;
  // the limits of each integer type fit, one past them does not
  struct {
    int32_t i;
    long double lo, hi;
    int64_t size;
  } ints[] = {{0, -128.0L, 127.0L, 1},
              {1, 0.0L, 255.0L, 1},
              {2, -32768.0L, 32767.0L, 2},
              {3, 0.0L, 65535.0L, 2},
              {4, -2147483648.0L, 2147483647.0L, 4},
              {5, 0.0L, 4294967295.0L, 4},
              {6, -9223372036854775808.0L, 9223372036854775807.0L, 8},
              {7, 0.0L, 18446744073709551615.0L, 8}};
  for (auto &t : ints) {
    INFO("parameter " << t.i);
    cn_scalar lo = t.lo < 0 ? cn_scalar_int((int64_t)t.lo)
                            : cn_scalar_uint((uint64_t)t.lo);
    cn_scalar hi = t.hi > 9.3e18L ? cn_scalar_uint((uint64_t)t.hi)
                                  : cn_scalar_int((int64_t)t.hi);
    CN_REQUIRE_OK(pack(p, s, t.i, lo));
    REQUIRE(p.size == t.size);
    CN_REQUIRE_OK(pack(p, s, t.i, hi));
    // the packed bytes read back as the value (two's complement)
    uint64_t mask = t.size == 8 ? ~0ull : ((1ull << (8 * t.size)) - 1);
    REQUIRE(((uint64_t)p.lo & mask) == ((uint64_t)(unsigned long long)t.hi &
                                        mask));
    if (t.hi < 9.2e18L)
      CN_REQUIRE_ERR(pack(p, s, t.i, cn_scalar_int((int64_t)t.hi + 1)),
                     CN_ERR_VALUE, "does not fit");
    if (t.lo > -9.2e18L)
      CN_REQUIRE_ERR(pack(p, s, t.i, cn_scalar_int((int64_t)t.lo - 1)),
                     CN_ERR_VALUE, "does not fit");
  }
  CN_REQUIRE_OK(pack(p, s, 4, cn_scalar_int(-1)));
  REQUIRE(bytes_as<int32_t>(p) == -1);
  CN_REQUIRE_OK(pack(p, s, 6, cn_scalar_float(-9007199254740992.0)));
  REQUIRE(bytes_as<int64_t>(p) == -9007199254740992LL);
  CN_REQUIRE_ERR(pack(p, s, 6, cn_scalar_float(9223372036854775808.0)),
                 CN_ERR_VALUE, "does not fit");
  CN_REQUIRE_ERR(pack(p, s, 5, cn_scalar_float(NAN)), CN_ERR_VALUE,
                 "not an integer");
  CN_REQUIRE_OK(pack(p, s, 5, cn_scalar_bool(1)));
  REQUIRE(bytes_as<uint32_t>(p) == 1u);
  CN_REQUIRE_OK(pack(p, s, 7, cn_scalar_float(-0.0)));
  REQUIRE(bytes_as<uint64_t>(p) == 0u);
  // float: C's conversion, overflow refused, inf and nan kept
  for (double d : {1.5, -0.0, 1e-45, 3.4028234663852886e38, 0.1}) {
    CN_REQUIRE_OK(pack(p, s, 8, cn_scalar_float(d)));
    REQUIRE(p.size == 4);
    float f = bytes_as<float>(p), want = (float)d;
    REQUIRE(std::memcmp(&f, &want, 4) == 0);
  }
  CN_REQUIRE_OK(pack(p, s, 8, cn_scalar_float(INFINITY)));
  REQUIRE(std::isinf(bytes_as<float>(p)));
  CN_REQUIRE_OK(pack(p, s, 8, cn_scalar_float(NAN)));
  REQUIRE(std::isnan(bytes_as<float>(p)));
  CN_REQUIRE_ERR(pack(p, s, 8, cn_scalar_float(1e39)), CN_ERR_VALUE,
                 "does not fit float");
  CN_REQUIRE_OK(pack(p, s, 8, cn_scalar_int(16777217)));
  REQUIRE(bytes_as<float>(p) == 16777216.0f);
  CN_REQUIRE_OK(pack(p, s, 9, cn_scalar_float(0.1)));
  REQUIRE(bytes_as<double>(p) == 0.1);
  CN_REQUIRE_OK(pack(p, s, 9, cn_scalar_uint(UINT64_MAX)));
  REQUIRE(bytes_as<double>(p) == 18446744073709551616.0);
  // bool: 0/1 only
  CN_REQUIRE_OK(pack(p, s, 10, cn_scalar_bool(1)));
  REQUIRE(p.size == 1);
  REQUIRE(p.lo == 1);
  CN_REQUIRE_OK(pack(p, s, 10, cn_scalar_int(0)));
  CN_REQUIRE_ERR(pack(p, s, 10, cn_scalar_int(2)), CN_ERR_VALUE,
                 "is not a bool");
  // half: IEEE binary16, rounded to nearest even
  struct {
    double v;
    uint16_t bits;
  } halves[] = {{1.0, 0x3c00},      {-2.0, 0xc000},     {65504.0, 0x7bff},
                {0.5, 0x3800},      {0x1p-24, 0x0001},  {0x1p-14, 0x0400},
                {1.0 + 0x1p-11, 0x3c00}, {1.0 + 0x3p-11, 0x3c02},
                {0x1.ffcp-15, 0x0400}, {0x1p-26, 0x0000}, {INFINITY, 0x7c00},
                {65519.0, 0x7bff},  {-0.0, 0x8000}};
  for (auto &h : halves) {
    INFO(h.v);
    CN_REQUIRE_OK(pack(p, s, 11, cn_scalar_float(h.v)));
    REQUIRE(p.size == 2);
    REQUIRE((uint16_t)p.lo == h.bits);
  }
  CN_REQUIRE_ERR(pack(p, s, 11, cn_scalar_float(65520.0)), CN_ERR_VALUE,
                 "does not fit half");
  // complex: two floats, two doubles
  CN_REQUIRE_OK(pack(p, s, 12, cn_scalar_complex(1.5, -2.0)));
  REQUIRE(p.size == 8);
  float c[2];
  std::memcpy(c, &p.lo, 8);
  REQUIRE(c[0] == 1.5f);
  REQUIRE(c[1] == -2.0f);
  CN_REQUIRE_OK(pack(p, s, 13, cn_scalar_complex(0.1, 3.0)));
  REQUIRE(p.size == 16);
  REQUIRE(bytes_as<double>(p) == 0.1);
  double im;
  std::memcpy(&im, &p.hi, 8);
  REQUIRE(im == 3.0);
  CN_REQUIRE_ERR(pack(p, s, 14, cn_scalar_int(1)), CN_ERR_INDEX,
                 "has 14 parameters, no parameter 14");
}

// Structs compiled by this compiler, as the oracle for the layouts.
namespace {
struct L1 {
  char a;
  double b;
  int c;
};
struct L2 {
  double *data;
  int n;
};
struct L3 {
  short s;
  unsigned char u[3];
  long long ll;
  float f[5];
  bool flag;
};
struct L4 {
  uint8_t a;
  uint16_t b;
  uint8_t c;
  int64_t d;
  uint32_t e;
};
} // namespace

TEST_CASE("struct layouts: offsets and sizes of the C ABI", "[kernel_raw]") {
  Layout l;
  struct Case {
    const char *name, *fields;
    size_t size, align;
    std::vector<size_t> offsets;
  } cases[] = {
      {"L1", "char a; double b; int c", sizeof(L1), alignof(L1),
       {offsetof(L1, a), offsetof(L1, b), offsetof(L1, c)}},
      {"L2", "double* data; int n;", sizeof(L2), alignof(L2),
       {offsetof(L2, data), offsetof(L2, n)}},
      {"L3", "short s; unsigned char u[3]; long long ll; float f[5]; bool flag",
       sizeof(L3), alignof(L3),
       {offsetof(L3, s), offsetof(L3, u), offsetof(L3, ll), offsetof(L3, f),
        offsetof(L3, flag)}},
      {"L4", "uint8_t a; uint16_t b; uint8_t c; int64_t d; uint32_t e",
       sizeof(L4), alignof(L4),
       {offsetof(L4, a), offsetof(L4, b), offsetof(L4, c), offsetof(L4, d),
        offsetof(L4, e)}},
  };
  for (auto &c : cases) {
    INFO(c.name);
    CN_REQUIRE_OK(cn_struct_layout_new(l.out(), c.name, c.fields));
    int64_t size, align;
    CN_REQUIRE_OK(cn_struct_layout_size(&size, &align, l));
    REQUIRE(size == (int64_t)c.size);
    REQUIRE(align == (int64_t)c.align);
    int32_t n;
    CN_REQUIRE_OK(cn_struct_layout_nfields(&n, l));
    REQUIRE(n == (int32_t)c.offsets.size());
    for (int32_t i = 0; i < n; i++) {
      int64_t off, fsize;
      int32_t isp;
      CN_REQUIRE_OK(cn_struct_layout_field(&off, &fsize, &isp, l, i));
      REQUIRE(off == (int64_t)c.offsets[i]);
    }
  }
  // the declaration, and the field lookups
  CN_REQUIRE_OK(cn_struct_layout_new(l.out(), "Vec", "double* data; int n"));
  int64_t len = 0;
  CN_REQUIRE_OK(cn_struct_layout_declaration(nullptr, 0, &len, l));
  std::string decl(len + 1, '\0');
  CN_REQUIRE_OK(cn_struct_layout_declaration(&decl[0], len + 1, &len, l));
  decl.resize(len);
  REQUIRE(decl ==
          "typedef struct Vec {\n  double* data;\n  int n;\n} Vec;\n");
  char small[8];
  CN_REQUIRE_ERR(cn_struct_layout_declaration(small, sizeof small, &len, l),
                 CN_ERR_VALUE, "too small");
  int32_t idx = -1;
  CN_REQUIRE_OK(cn_struct_layout_field_index(&idx, l, "n"));
  REQUIRE(idx == 1);
  CN_REQUIRE_ERR(cn_struct_layout_field_index(&idx, l, "m"), CN_ERR_VALUE,
                 "struct Vec has no field 'm'");
  // bad layouts
  struct {
    const char *name, *fields, *needle;
  } bad[] = {{"1x", "int a", "not a C identifier"},
             {"S", "", "has no fields"},
             {"S", "int a; float a", "two fields are called 'a'"},
             {"S", "Vec v", "scalar and pointer types only"},
             {"S", "int", "needs a name"},
             {"S", "int a[0]", "needs a size"},
             {"S", "int a[]", "needs a size"},
             {"S", "int &a", "reference"},
             {"S", "void v", "void is not a value type"}};
  for (auto &b : bad) {
    INFO(b.fields);
    CN_REQUIRE_ERR(cn_struct_layout_new(l.out(), b.name, b.fields),
                   CN_ERR_VALUE, b.needle);
    REQUIRE(l.h == nullptr);
  }
}

TEST_CASE("struct layouts: packing values and arrays", "[kernel_raw]") {
  Layout l;
  CN_REQUIRE_OK(cn_struct_layout_new(l.out(), "Vec",
                                     "double* data; int n; char c; float w[2]"));
  Arr y = f64({1, 2}, {2});
  void *data = nullptr;
  CN_REQUIRE_OK(cn_array_data(&data, y));
  cn_array arrays[4] = {y, nullptr, nullptr, nullptr};
  cn_scalar values[4] = {{}, cn_scalar_int(7), cn_scalar_int(-3),
                         cn_scalar_float(0.5)};
  struct VecC {
    double *data;
    int n;
    char c;
    float w[2];
  } ref = {(double *)data, 7, -3, {0.5f, 0.5f}}, got;
  std::vector<unsigned char> buf(sizeof(VecC), 0xAB);
  CN_REQUIRE_OK(cn_struct_layout_pack(buf.data(), (int64_t)buf.size(), l, 4,
                                      arrays, values));
  std::memcpy(&got, buf.data(), sizeof got);
  REQUIRE(got.data == ref.data);
  REQUIRE(got.n == 7);
  REQUIRE(got.c == -3);
  REQUIRE(got.w[0] == 0.5f);
  REQUIRE(got.w[1] == 0.5f);
  REQUIRE(buf[offsetof(VecC, c) + 1] == 0); // padding zeroed
  // failures write nothing
  std::vector<unsigned char> before = buf;
  values[1] = cn_scalar_int(1LL << 40);
  CN_REQUIRE_ERR(cn_struct_layout_pack(buf.data(), (int64_t)buf.size(), l, 4,
                                       arrays, values),
                 CN_ERR_VALUE, "field 'n' (int): 1099511627776 does not fit");
  REQUIRE(buf == before);
  values[1] = cn_scalar_int(1);
  Arr yf = cast(y, CN_FLOAT32);
  arrays[0] = yf;
  CN_REQUIRE_ERR(cn_struct_layout_pack(buf.data(), (int64_t)buf.size(), l, 4,
                                       arrays, values),
                 CN_ERR_TYPE, "field 'data' (double*) needs a float64 array");
  arrays[0] = nullptr;
  CN_REQUIRE_ERR(cn_struct_layout_pack(buf.data(), (int64_t)buf.size(), l, 4,
                                       arrays, values),
                 CN_ERR_TYPE, "is a pointer");
  arrays[0] = y;
  CN_REQUIRE_ERR(
      cn_struct_layout_pack(buf.data(), 8, l, 4, arrays, values),
      CN_ERR_VALUE, "needs 24 bytes");
  CN_REQUIRE_ERR(cn_struct_layout_pack(buf.data(), (int64_t)buf.size(), l, 3,
                                       arrays, values),
                 CN_ERR_VALUE, "has 4 fields, got 3 values");
  int64_t lo, hi, size;
  CN_REQUIRE_OK(cn_struct_layout_pack_scalar(&lo, &hi, &size, l, 2,
                                             cn_scalar_int(65)));
  REQUIRE(size == 1);
  REQUIRE(lo == 65);
  // a struct parameter takes a layout of its name
  Sig s;
  CN_REQUIRE_OK(cn_kernel_sig_parse(
      s.out(), "__global__ void k(Vec v, double a) {}", "k", nullptr));
  CN_REQUIRE_OK(cn_kernel_sig_check_struct(s, 0, l));
  CN_REQUIRE_ERR(cn_kernel_sig_check_struct(s, 1, l), CN_ERR_TYPE,
                 "does not take a struct Vec");
  Packed p;
  CN_REQUIRE_ERR(pack(p, s, 0, cn_scalar_int(1)), CN_ERR_TYPE,
                 "takes a struct value");
  cn_struct_layout structs[2] = {l, nullptr};
  cn_scalar sc[2] = {{}, cn_scalar_float(0.5)};
  CN_REQUIRE_OK(cn_kernel_sig_check_call(s, 2, nullptr, sc, structs));
  Layout other;
  CN_REQUIRE_OK(cn_struct_layout_new(other.out(), "Other", "int a"));
  structs[0] = other;
  CN_REQUIRE_ERR(cn_kernel_sig_check_call(s, 2, nullptr, sc, structs),
                 CN_ERR_TYPE, "does not take a struct Other");
}

// ---- NVRTC ----------------------------------------------------------------

namespace {
bool nvrtc_expected() {
  const char *e = std::getenv("CUNUMPY_TEST_NVRTC");
  return e != nullptr && e[0] == '1';
}

// Compiles for compute_90 (no GPU needed); false (after checking that the
// failure is the plugin being absent) when NVRTC cannot be reached.
bool compile(Module &m, const char *src, const char *name, const char *opts,
             const char *exprs) {
  cn_status st =
      cn_cuda_module_from_source(m.out(), src, name, opts, exprs, 90);
  if (st == CN_ERR_DEVICE && !nvrtc_expected()) {
    WARN("no CUDA plugin: " << cn_last_error());
    return false;
  }
  INFO(cn_last_error());
  REQUIRE(st == CN_OK);
  return true;
}

std::string image(cn_cuda_module m) {
  int64_t n = 0;
  CN_REQUIRE_OK(cn_cuda_module_image_size(&n, m));
  std::string s((size_t)n, '\0');
  CN_REQUIRE_OK(cn_cuda_module_image(&s[0], n, m));
  return s;
}
} // namespace

TEST_CASE("raw modules: NVRTC compiles the seed's kernels to PTX",
          "[kernel_raw]") {
  Module m;
  if (!compile(m, VECTOR_ADD, "vector_add.cu", nullptr, nullptr))
    return;
  std::string ptx = image(m);
  REQUIRE(ptx.find(".entry vector_add") != std::string::npos);
  int32_t is_ptx = 0, arch = 0;
  CN_REQUIRE_OK(cn_cuda_module_is_ptx(&is_ptx, m));
  CN_REQUIRE_OK(cn_cuda_module_arch(&arch, m));
  REQUIRE(is_ptx == 1);
  REQUIRE(arch == 90);
  REQUIRE(ptx.find(".target sm_90") != std::string::npos);
  REQUIRE(compile(m, AXPY, "axpy.cu", "--std=c++17\n-DSCALE=2", nullptr));
  REQUIRE(image(m).find(".entry axpy") != std::string::npos);
  // a struct parameter from a layout's declaration
  Layout l;
  CN_REQUIRE_OK(cn_struct_layout_new(l.out(), "Vec", "double* data; int n"));
  int64_t len = 0;
  CN_REQUIRE_OK(cn_struct_layout_declaration(nullptr, 0, &len, l));
  std::string decl((size_t)len + 1, '\0');
  CN_REQUIRE_OK(cn_struct_layout_declaration(&decl[0], len + 1, &len, l));
  decl.resize((size_t)len);
  std::string scale = decl + R"(
extern "C" __global__ void scale(Vec v, double a) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < v.n) v.data[i] *= a;
})";
  REQUIRE(compile(m, scale.c_str(), "scale.cu", nullptr, nullptr));
  REQUIRE(image(m).find(".entry scale") != std::string::npos);
  // no device: loading is CN_ERR_DEVICE, never a crash
  cn_cuda_function f = nullptr;
  int32_t ndev = 0;
  cn_cuda_device_count(&ndev);
  if (ndev == 0)
    CN_REQUIRE_ERR(cn_cuda_module_get_function(&f, m, "scale"), CN_ERR_DEVICE,
                   "CUDA is unavailable");
  int64_t grid[3] = {1, 1, 1};
  CN_REQUIRE_ERR(cn_cuda_function_launch(nullptr, grid, grid, 0, nullptr, 0, 0,
                                         nullptr, nullptr, nullptr),
                 CN_ERR_VALUE, "argument 'f' is NULL");
  CN_REQUIRE_ERR(cn_cuda_module_from_source(m.out(), VECTOR_ADD, 0, 0, 0, -1),
                 CN_ERR_VALUE, "'arch' is -1");
}

TEST_CASE("raw modules: name expressions give lowered names",
          "[kernel_raw]") {
  const char *src = R"(
template <typename T>
__global__ void fill(T* x, T v, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) x[i] = v;
}
namespace ns { __global__ void plain(int *x) { x[0] = 1; } }
)";
  Module m;
  if (!compile(m, src, "fill.cu", nullptr, "fill<float>\nfill<double>\nns::plain"))
    return;
  char low[512];
  CN_REQUIRE_OK(cn_cuda_module_lowered_name(low, sizeof low, m, "fill<float>"));
  std::string lf = low;
  REQUIRE(lf.rfind("_Z", 0) == 0);
  CN_REQUIRE_OK(
      cn_cuda_module_lowered_name(low, sizeof low, m, "fill<double>"));
  REQUIRE(std::string(low) != lf);
  std::string ptx = image(m);
  REQUIRE(ptx.find(".entry " + lf) != std::string::npos);
  REQUIRE(ptx.find(std::string(".entry ") + low) != std::string::npos);
  CN_REQUIRE_OK(cn_cuda_module_lowered_name(low, sizeof low, m, "ns::plain"));
  REQUIRE(ptx.find(std::string(".entry ") + low) != std::string::npos);
  CN_REQUIRE_ERR(cn_cuda_module_lowered_name(low, sizeof low, m, "fill<int>"),
                 CN_ERR_VALUE, "not a name expression");
  CN_REQUIRE_ERR(cn_cuda_module_lowered_name(low, 4, m, "fill<float>"),
                 CN_ERR_VALUE, "too small");
}

TEST_CASE("raw modules: compile errors carry NVRTC's log", "[kernel_raw]") {
  const char *src = "extern \"C\" __global__ void k(float *x) {\n"
                    "  x[0] = undefined_name;\n"
                    "}\n";
  Module m;
  cn_status st = cn_cuda_module_from_source(m.out(), src, "broken_kernel.cu",
                                            nullptr, nullptr, 90);
  if (st == CN_ERR_DEVICE && !nvrtc_expected())
    return;
  REQUIRE(st == CN_ERR_VALUE);
  std::string msg = cn_last_error();
  INFO(msg);
  REQUIRE(msg.find("NVRTC could not compile 'broken_kernel.cu'") !=
          std::string::npos);
  REQUIRE(msg.find("broken_kernel.cu(2)") != std::string::npos);
  REQUIRE(msg.find("undefined_name") != std::string::npos);
  REQUIRE(m.h == nullptr);
  // a bad option is an error too
  st = cn_cuda_module_from_source(m.out(), VECTOR_ADD, "v.cu",
                                  "--no-such-option", nullptr, 90);
  REQUIRE(st == CN_ERR_VALUE);
}

TEST_CASE("raw modules: the disk cache and PTX files", "[kernel_raw]") {
  char dir[] = "/tmp/cn_kraw_XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const char *old = std::getenv("CUNUMPY_KERNEL_CACHE");
  std::string saved = old ? old : "";
  setenv("CUNUMPY_KERNEL_CACHE", dir, 1);
  // a source no other test compiles, so that this process has not cached it
  std::string src = std::string(VECTOR_ADD) + "// disk cache " + dir + "\n";
  Module m, m2;
  bool ok = compile(m, src.c_str(), "cached.cu", nullptr, nullptr);
  auto count = [&] {
    int n = 0;
    DIR *d = opendir(dir);
    while (dirent *e = d ? readdir(d) : nullptr)
      n += std::string(e->d_name).rfind("raw_", 0) == 0;
    if (d)
      closedir(d);
    return n;
  };
  if (ok) {
    REQUIRE(count() == 1);
    REQUIRE(compile(m2, src.c_str(), "cached.cu", nullptr, nullptr));
    REQUIRE(image(m2) == image(m));
    REQUIRE(count() == 1);
    // other options are another entry
    REQUIRE(compile(m2, src.c_str(), "cached.cu", "-DX=1", nullptr));
    REQUIRE(count() == 2);
    // a PTX file reads back as the same image
    std::string path = std::string(dir) + "/k.ptx";
    std::string ptx = image(m);
    FILE *f = std::fopen(path.c_str(), "wb");
    std::fwrite(ptx.data(), 1, ptx.size() - 1, f); // without the NUL
    std::fclose(f);
    CN_REQUIRE_OK(cn_cuda_module_from_file(m2.out(), path.c_str()));
    REQUIRE(image(m2) == ptx);
    int32_t is_ptx = 0;
    CN_REQUIRE_OK(cn_cuda_module_is_ptx(&is_ptx, m2));
    REQUIRE(is_ptx == 1);
    std::remove(path.c_str());
  }
  CN_REQUIRE_ERR(cn_cuda_module_from_file(m2.out(), "/nonexistent/k.cubin"),
                 CN_ERR_VALUE, "cannot open");
  std::string empty = std::string(dir) + "/empty.cubin";
  std::fclose(std::fopen(empty.c_str(), "wb"));
  CN_REQUIRE_ERR(cn_cuda_module_from_file(m2.out(), empty.c_str()),
                 CN_ERR_VALUE, "is empty");
  std::remove(empty.c_str());
  std::string cmd = std::string("rm -rf ") + dir;
  REQUIRE(std::system(cmd.c_str()) == 0);
  if (old)
    setenv("CUNUMPY_KERNEL_CACHE", saved.c_str(), 1);
  else
    unsetenv("CUNUMPY_KERNEL_CACHE");
}
