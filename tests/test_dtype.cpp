// Tests of cunumpy/dtype.h and cunumpy/status.h. The expected promotion and
// casting tables below were printed by NumPy 2.4 (np.result_type,
// np.can_cast) and serve as the independent oracle.
#include "testutil.hpp"

#include <cmath>
#include <cstdint>

namespace {
static const char *kExpected[13][13] = {
  {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "complex64", "complex128"},
  {"int8", "int8", "int16", "int32", "int64", "int16", "int32", "int64", "float64", "float32", "float64", "complex64", "complex128"},
  {"int16", "int16", "int16", "int32", "int64", "int16", "int32", "int64", "float64", "float32", "float64", "complex64", "complex128"},
  {"int32", "int32", "int32", "int32", "int64", "int32", "int32", "int64", "float64", "float64", "float64", "complex128", "complex128"},
  {"int64", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "float64", "float64", "float64", "complex128", "complex128"},
  {"uint8", "int16", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "complex64", "complex128"},
  {"uint16", "int32", "int32", "int32", "int64", "uint16", "uint16", "uint32", "uint64", "float32", "float64", "complex64", "complex128"},
  {"uint32", "int64", "int64", "int64", "int64", "uint32", "uint32", "uint32", "uint64", "float64", "float64", "complex128", "complex128"},
  {"uint64", "float64", "float64", "float64", "float64", "uint64", "uint64", "uint64", "uint64", "float64", "float64", "complex128", "complex128"},
  {"float32", "float32", "float32", "float64", "float64", "float32", "float32", "float64", "float64", "float32", "float64", "complex64", "complex128"},
  {"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "complex128", "complex128"},
  {"complex64", "complex64", "complex64", "complex128", "complex128", "complex64", "complex64", "complex128", "complex128", "complex64", "complex128", "complex64", "complex128"},
  {"complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128", "complex128"},
};
static const int kCan_safe[13][13] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1},
  {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1},
  {0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
};
static const int kCan_same_kind[13][13] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
};
} // namespace

TEST_CASE("dtype enumeration, names and sizes", "[dtype]") {
  const int64_t sizes[13] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16};
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
  CN_REQUIRE_ERR(cn_dtype_at(&dt, 13), CN_ERR_VALUE, "out of range");
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
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 13; j++) {
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
  for (int i = 0; i < 13; i++)
    for (int j = 0; j < 13; j++) {
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
