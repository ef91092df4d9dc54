// Tests of cunumpy/dtype.h and cunumpy/status.h. The expected promotion and
// casting tables below were printed by NumPy 2.4 (np.result_type,
// np.can_cast) and serve as the independent oracle.
#include "testutil.hpp"

#include <cmath>
#include <cstdint>

namespace {
static const char *kExpected[14][14] = {
  {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64", "complex64", "complex128"},
  {"int8", "int8", "int16", "int32", "int64", "int16", "int32", "int64", "float64", "float16", "float32", "float64", "complex64", "complex128"},
  {"int16", "int16", "int16", "int32", "int64", "int16", "int32", "int64", "float64", "float32", "float32", "float64", "complex64", "complex128"},
  {"int32", "int32", "int32", "int32", "int64", "int32", "int32", "int64", "float64", "float64", "float64", "float64", "complex128", "complex128"},
  {"int64", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "float64", "float64", "float64", "float64", "complex128", "complex128"},
  {"uint8", "int16", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64", "complex64", "complex128"},
  {"uint16", "int32", "int32", "int32", "int64", "uint16", "uint16", "uint32", "uint64", "float32", "float32", "float64", "complex64", "complex128"},
  {"uint32", "int64", "int64", "int64", "int64", "uint32", "uint32", "uint32", "uint64", "float64", "float64", "float64", "complex128", "complex128"},
  {"uint64", "float64", "float64", "float64", "float64", "uint64", "uint64", "uint64", "uint64", "float64", "float64", "float64", "complex128", "complex128"},
  {"float16", "float16", "float32", "float64", "float64", "float16", "float32", "float64", "float64", "float16", "float32", "float64", "complex64", "complex128"},
  {"float32", "float32", "float32", "float64", "float64", "float32", "float32", "float64", "float64", "float32", "float32", "float64", "complex64", "complex128"},
  {"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "complex128", "complex128"},
  {"complex64", "complex64", "complex64", "complex128", "complex128", "complex64", "complex64", "complex128", "complex128", "complex64", "complex64", "complex128", "complex64", "complex128"},
  {"complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128"},
};
static const int kCan_safe[14][14] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1},
  {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1},
  {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1},
  {0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
};
static const int kCan_same_kind[14][14] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
};
} // namespace

TEST_CASE("dtype enumeration, names and sizes", "[dtype]") {
  const int64_t sizes[14] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};
  for (int32_t i = 0; i < CN_NUM_DTYPES; i++) {
    cn_dtype dt;
    CN_REQUIRE_OK(cn_dtype_at(&dt, i));
    REQUIRE(cn_dtype_is_valid(dt));
    REQUIRE(cn_dtype_itemsize(dt) == sizes[i]);
    cn_dtype back;
    CN_REQUIRE_OK(cn_dtype_from_name(&back, cn_dtype_name(dt)));
    REQUIRE(back == dt);
    // the enum encodes DLPack's (code, bits)
    REQUIRE((int64_t)(dt & 0xff) == sizes[i] * 8);
  }
  cn_dtype dt;
  CN_REQUIRE_ERR(cn_dtype_at(&dt, 14), CN_ERR_VALUE, "out of range");
  CN_REQUIRE_ERR(cn_dtype_at(&dt, -1), CN_ERR_VALUE, "out of range");
  REQUIRE(!cn_dtype_is_valid((cn_dtype)0x0230));
  REQUIRE(cn_dtype_itemsize((cn_dtype)12345) == 0);
  REQUIRE(std::string(cn_dtype_name((cn_dtype)12345)) == "invalid");
}

TEST_CASE("dtype names and aliases", "[dtype]") {
  struct {
    const char *n;
    cn_dtype dt;
  } cases[] = {{"f8", CN_FLOAT64},    {"float", CN_FLOAT64},
               {"<f4", CN_FLOAT32},   {"int", CN_INT64},
               {"?", CN_BOOL},        {"complex", CN_COMPLEX128},
               {"c8", CN_COMPLEX64},  {"u2", CN_UINT16},
               {"double", CN_FLOAT64}, {"B", CN_UINT8}};
  for (auto &c : cases) {
    cn_dtype dt;
    CN_REQUIRE_OK(cn_dtype_from_name(&dt, c.n));
    REQUIRE(dt == c.dt);
  }
  cn_dtype dt = CN_INT8;
  CN_REQUIRE_ERR(cn_dtype_from_name(&dt, "float128"), CN_ERR_TYPE,
                 "'float128' not understood");
  REQUIRE(dt == CN_INT8);
  CN_REQUIRE_ERR(cn_dtype_from_name(&dt, nullptr), CN_ERR_VALUE, "NULL");
  CN_REQUIRE_ERR(cn_dtype_from_name(nullptr, "f8"), CN_ERR_VALUE, "NULL");
  cn_dtype_kind k;
  CN_REQUIRE_OK(cn_dtype_get_kind(&k, CN_UINT8));
  REQUIRE(k == CN_KIND_UINT);
  CN_REQUIRE_OK(cn_dtype_get_kind(&k, CN_COMPLEX64));
  REQUIRE(k == CN_KIND_COMPLEX);
  CN_REQUIRE_ERR(cn_dtype_get_kind(&k, (cn_dtype)7), CN_ERR_TYPE, "invalid");
}

TEST_CASE("promotion table equals NumPy 2", "[dtype]") {
  for (int i = 0; i < CN_NUM_DTYPES; i++)
    for (int j = 0; j < CN_NUM_DTYPES; j++) {
      cn_dtype a, b, r;
      cn_dtype_at(&a, i);
      cn_dtype_at(&b, j);
      CN_REQUIRE_OK(cn_result_type(&r, a, b));
      INFO(cn_dtype_name(a) << " + " << cn_dtype_name(b));
      REQUIRE(std::string(cn_dtype_name(r)) == kExpected[i][j]);
    }
  cn_dtype r;
  CN_REQUIRE_ERR(cn_result_type(&r, CN_INT8, (cn_dtype)3), CN_ERR_TYPE,
                 "invalid dtype");
}

TEST_CASE("result type of several dtypes equals NumPy 2", "[dtype]") {
  struct {
    cn_dtype in[3];
    cn_dtype want;
  } cases[] = {
      {{CN_INT8, CN_UINT16, CN_FLOAT32}, CN_FLOAT32},
      {{CN_UINT8, CN_INT8, CN_FLOAT32}, CN_FLOAT32},
      {{CN_INT64, CN_UINT64, CN_FLOAT32}, CN_FLOAT64},
      {{CN_BOOL, CN_INT8, CN_UINT64}, CN_FLOAT64},
      {{CN_UINT32, CN_INT16, CN_COMPLEX64}, CN_COMPLEX128},
      {{CN_INT8, CN_UINT8, CN_UINT16}, CN_INT32},
  };
  for (auto &c : cases) {
    cn_dtype r = CN_BOOL;
    CN_REQUIRE_OK(cn_result_type_many(&r, 3, c.in));
    INFO(cn_dtype_name(c.in[0]) << ", " << cn_dtype_name(c.in[1]) << ", "
                                << cn_dtype_name(c.in[2]));
    REQUIRE(r == c.want);
  }
  cn_dtype one = CN_UINT16, r = CN_BOOL;
  CN_REQUIRE_OK(cn_result_type_many(&r, 1, &one));
  REQUIRE(r == CN_UINT16);
  cn_dtype bad[2] = {CN_INT8, (cn_dtype)3};
  r = CN_BOOL;
  CN_REQUIRE_ERR(cn_result_type_many(&r, 2, bad), CN_ERR_TYPE, "position 1");
  CN_REQUIRE_ERR(cn_result_type_many(&r, 0, bad), CN_ERR_VALUE, "at least one");
  CN_REQUIRE_ERR(cn_result_type_many(&r, 2, nullptr), CN_ERR_VALUE,
                 "at least one");
  CN_REQUIRE_ERR(cn_result_type_many(nullptr, 2, bad), CN_ERR_VALUE, "NULL");
  REQUIRE(r == CN_BOOL);
}

TEST_CASE("can_cast equals NumPy 2", "[dtype]") {
  for (int i = 0; i < CN_NUM_DTYPES; i++)
    for (int j = 0; j < CN_NUM_DTYPES; j++) {
      cn_dtype a, b;
      cn_dtype_at(&a, i);
      cn_dtype_at(&b, j);
      int32_t ok;
      INFO(cn_dtype_name(a) << " -> " << cn_dtype_name(b));
      CN_REQUIRE_OK(cn_can_cast(&ok, a, b, CN_CAST_SAFE));
      REQUIRE(ok == kCan_safe[i][j]);
      CN_REQUIRE_OK(cn_can_cast(&ok, a, b, CN_CAST_SAME_KIND));
      REQUIRE(ok == kCan_same_kind[i][j]);
      CN_REQUIRE_OK(cn_can_cast(&ok, a, b, CN_CAST_UNSAFE));
      REQUIRE(ok == 1);
      CN_REQUIRE_OK(cn_can_cast(&ok, a, b, CN_CAST_NO));
      REQUIRE(ok == (i == j));
    }
  int32_t ok;
  CN_REQUIRE_ERR(cn_can_cast(&ok, CN_INT8, CN_INT8, (cn_casting)9),
                 CN_ERR_VALUE, "invalid casting");
}

TEST_CASE("weak scalar promotion follows NEP 50", "[dtype]") {
  cn_dtype r;
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_INT8, cn_scalar_int(100)));
  REQUIRE(r == CN_INT8);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_UINT8, cn_scalar_int(255)));
  REQUIRE(r == CN_UINT8);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_FLOAT32, cn_scalar_float(1.5)));
  REQUIRE(r == CN_FLOAT32);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_INT16, cn_scalar_float(1.5)));
  REQUIRE(r == CN_FLOAT64);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_FLOAT32, cn_scalar_complex(1, 2)));
  REQUIRE(r == CN_COMPLEX64);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_INT32, cn_scalar_complex(1, 2)));
  REQUIRE(r == CN_COMPLEX128);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_BOOL, cn_scalar_int(3)));
  REQUIRE(r == CN_INT64);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_BOOL, cn_scalar_bool(1)));
  REQUIRE(r == CN_BOOL);
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_UINT64,
                                      cn_scalar_uint(UINT64_MAX)));
  REQUIRE(r == CN_UINT64);
  r = CN_BOOL;
  CN_REQUIRE_ERR(cn_result_type_scalar(&r, CN_INT8, cn_scalar_int(300)),
                 CN_ERR_OVERFLOW, "Python integer 300 out of bounds for int8");
  REQUIRE(r == CN_BOOL);
  CN_REQUIRE_ERR(cn_result_type_scalar(&r, CN_UINT8, cn_scalar_int(-1)),
                 CN_ERR_OVERFLOW, "out of bounds for uint8");
  CN_REQUIRE_ERR(cn_result_type_scalar(&r, CN_INT64,
                                       cn_scalar_uint(UINT64_MAX)),
                 CN_ERR_OVERFLOW, "out of bounds for int64");
  cn_scalar bad = cn_scalar_int(1);
  bad.kind = 42;
  CN_REQUIRE_ERR(cn_result_type_scalar(&r, CN_INT8, bad), CN_ERR_VALUE,
                 "invalid scalar kind");
}

TEST_CASE("status table and last error", "[status]") {
  REQUIRE(std::string(cn_status_name(CN_OK)) == "CN_OK");
  REQUIRE(std::string(cn_status_name(CN_ERR_SHAPE)) == "CN_ERR_SHAPE");
  REQUIRE(std::string(cn_status_name((cn_status)99)) == "CN_UNKNOWN_STATUS");
  REQUIRE(std::string(cn_status_description(CN_ERR_MEMORY)) ==
          "out of memory");
  cn_clear_error();
  REQUIRE(std::string(cn_last_error()).empty());
  REQUIRE(cn_last_status() == CN_OK);
  cn_dtype dt;
  REQUIRE(cn_dtype_from_name(&dt, "nope") == CN_ERR_TYPE);
  REQUIRE(cn_last_status() == CN_ERR_TYPE);
  std::string full = cn_last_error();
  char small[8];
  int64_t len = cn_last_error_copy(small, sizeof small);
  REQUIRE(len == (int64_t)full.size());
  REQUIRE(std::string(small) == full.substr(0, 7));
  char big[512];
  cn_last_error_copy(big, sizeof big);
  REQUIRE(std::string(big) == full);
  REQUIRE(cn_last_error_copy(nullptr, 0) == (int64_t)full.size());
  REQUIRE(cn_abi_version() == CUNUMPY_ABI_VERSION);
  REQUIRE(std::string(cn_version()) == "0.1.0");
}

namespace {
// float16 value of bits h by its definition: (-1)^s * 2^(e-15) * 1.m, or
// 2^-14 * 0.m for e == 0 (NaN/inf handled by the callers).
long double f16_value(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  long double v = e == 0 ? ldexpl((long double)m, -24)
                         : ldexpl((long double)(1024 + m), e - 25);
  return (h & 0x8000) ? -v : v;
}
bool f16_is_nan(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

// Nearest float16 to x by search over the sorted finite values, ties to
// the even bit pattern; beyond 65504 + half an ulp (65520) it is inf.
uint16_t f16_nearest(long double x, const std::vector<long double> &pos) {
  long double ax = fabsl(x);
  uint16_t sign = std::signbit((double)x) ? 0x8000 : 0;
  if (ax >= 65520.0L)
    return sign | 0x7c00;
  size_t lo = 0, hi = pos.size() - 1; // pos[k] is the value of bits k
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    (pos[mid] <= ax ? lo : hi) = mid;
  }
  long double dl = ax - pos[lo], dh = pos[hi] - ax;
  size_t k = dl < dh ? lo : dh < dl ? hi : (lo % 2 == 0 ? lo : hi);
  return sign | (uint16_t)k;
}
} // namespace

TEST_CASE("float16 casts equal a naive reference", "[dtype]") {
  std::vector<uint16_t> all(65536);
  for (int i = 0; i < 65536; i++)
    all[i] = (uint16_t)i;
  Arr h = from_vec(all, {65536}, CN_FLOAT16);
  // to float64 and float32: exact values, NaN stays NaN with its payload
  Arr d, f;
  CN_REQUIRE_OK(cn_astype(d.out(), h, CN_FLOAT64, 1));
  CN_REQUIRE_OK(cn_astype(f.out(), h, CN_FLOAT32, 1));
  std::vector<double> dv = to_vec<double>(d);
  std::vector<float> fv = to_vec<float>(f);
  for (int i = 0; i < 65536; i++) {
    INFO("bits " << i);
    uint16_t b = (uint16_t)i;
    if (f16_is_nan(b)) {
      uint64_t u;
      memcpy(&u, &dv[i], 8);
      REQUIRE(std::isnan(dv[i]));
      REQUIRE(((u >> 42) & 0x3ff) == (uint64_t)(b & 0x3ff)); // payload kept
      REQUIRE(std::isnan(fv[i]));
    } else if ((b & 0x7fff) == 0x7c00) {
      REQUIRE(std::isinf(dv[i]));
      REQUIRE(std::signbit(dv[i]) == ((b & 0x8000) != 0));
    } else {
      REQUIRE((long double)dv[i] == f16_value(b));
      REQUIRE((long double)fv[i] == f16_value(b));
      REQUIRE(std::signbit(dv[i]) == ((b & 0x8000) != 0)); // -0.0 kept
    }
  }
  // from float64: random values over float16's range, every value and
  // every midpoint between neighbours (ties) with one double ulp either side
  std::vector<long double> pos(0x7c00);
  for (int k = 0; k < 0x7c00; k++)
    pos[k] = f16_value((uint16_t)k);
  std::vector<double> src;
  uint64_t state = 12345;
  for (int i = 0; i < 100000; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(state >> 11) / 9007199254740992.0;
    src.push_back((i % 2 ? -1 : 1) * ldexp(u, (int)(state % 48) - 30));
  }
  for (int k = 0; k + 1 < 0x7c00; k++) {
    double mid = (double)((pos[k] + pos[k + 1]) / 2);
    src.push_back(mid);
    src.push_back(std::nextafter(mid, 0.0));
    src.push_back(-std::nextafter(mid, 1e9));
    src.push_back((double)pos[k]);
  }
  for (double v : {65504.0, 65519.0, 65520.0, 1e300, -0.0, 0.0, 5.9e-8,
                   2.98e-8, 2.9802322387695312e-08})
    src.push_back(v);
  Arr s = from_vec(src, {(int64_t)src.size()}, CN_FLOAT64);
  Arr r, r2, s32;
  CN_REQUIRE_OK(cn_astype(r.out(), s, CN_FLOAT16, 1));
  std::vector<uint16_t> got = to_vec<uint16_t>(r);
  for (size_t i = 0; i < src.size(); i++) {
    INFO("value " << src[i]);
    REQUIRE(got[i] == f16_nearest(src[i], pos));
  }
  // from float32 (the values above that float32 holds exactly)
  std::vector<float> src32;
  for (double v : src)
    if ((double)(float)v == v)
      src32.push_back((float)v);
  Arr t = from_vec(src32, {(int64_t)src32.size()}, CN_FLOAT32);
  CN_REQUIRE_OK(cn_astype(r2.out(), t, CN_FLOAT16, 1));
  std::vector<uint16_t> got32 = to_vec<uint16_t>(r2);
  REQUIRE(src32.size() > 20000);
  for (size_t i = 0; i < src32.size(); i++) {
    INFO("value " << src32[i]);
    REQUIRE(got32[i] == f16_nearest(src32[i], pos));
  }
  // from integers: every int16, rounded as float16 rounds its value
  std::vector<int16_t> ints(65536);
  for (int i = 0; i < 65536; i++)
    ints[i] = (int16_t)(i - 32768);
  Arr iv = from_vec(ints, {65536}, CN_INT16), ir;
  CN_REQUIRE_OK(cn_astype(ir.out(), iv, CN_FLOAT16, 1));
  std::vector<uint16_t> goti = to_vec<uint16_t>(ir);
  for (int i = 0; i < 65536; i++)
    REQUIRE(goti[i] == f16_nearest((long double)ints[i], pos));
}

TEST_CASE("float16 promotion and names", "[dtype]") {
  for (const char *n : {"float16", "f2", "e", "half", "<f2"}) {
    cn_dtype dt = CN_BOOL;
    CN_REQUIRE_OK(cn_dtype_from_name(&dt, n));
    REQUIRE(dt == CN_FLOAT16);
  }
  REQUIRE(cn_dtype_itemsize(CN_FLOAT16) == 2);
  REQUIRE(std::string(cn_dtype_name(CN_FLOAT16)) == "float16");
  cn_dtype r;
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_FLOAT16, cn_scalar_float(1e10)));
  REQUIRE(r == CN_FLOAT16); // weak Python float: the array's float wins
  CN_REQUIRE_OK(cn_result_type_scalar(&r, CN_FLOAT16, cn_scalar_int(70000)));
  REQUIRE(r == CN_FLOAT16);
  CN_REQUIRE_OK(
      cn_result_type_scalar(&r, CN_FLOAT16, cn_scalar_complex(1, 2)));
  REQUIRE(r == CN_COMPLEX64);
  cn_dtype three[3] = {CN_FLOAT16, CN_INT8, CN_UINT8};
  CN_REQUIRE_OK(cn_result_type_many(&r, 3, three));
  REQUIRE(r == CN_FLOAT16);
  three[2] = CN_INT16;
  CN_REQUIRE_OK(cn_result_type_many(&r, 3, three));
  REQUIRE(r == CN_FLOAT32);
}
