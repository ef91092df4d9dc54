/* dtypes and the one promotion table (NumPy 2 / NEP 50 / Array API). */
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

/* Promotion order; index = position. */
static const cn_dtype k_dtypes[CN_NUM_DTYPES] = {
    CN_BOOL,   CN_INT8,   CN_INT16,   CN_INT32,     CN_INT64,
    CN_UINT8,  CN_UINT16, CN_UINT32,  CN_UINT64,    CN_FLOAT16, CN_FLOAT32,
    CN_FLOAT64, CN_COMPLEX64, CN_COMPLEX128};

static const char *const k_names[CN_NUM_DTYPES] = {
    "bool",   "int8",   "int16",   "int32",     "int64",
    "uint8",  "uint16", "uint32",  "uint64",    "float16", "float32",
    "float64", "complex64", "complex128"};

int cn_dtype_index(cn_dtype dt) {
  switch (dt) {
  case CN_BOOL: return 0;
  case CN_INT8: return 1;
  case CN_INT16: return 2;
  case CN_INT32: return 3;
  case CN_INT64: return 4;
  case CN_UINT8: return 5;
  case CN_UINT16: return 6;
  case CN_UINT32: return 7;
  case CN_UINT64: return 8;
  case CN_FLOAT16: return 9;
  case CN_FLOAT32: return 10;
  case CN_FLOAT64: return 11;
  case CN_COMPLEX64: return 12;
  case CN_COMPLEX128: return 13;
  default: return -1;
  }
}

cn_dtype cn_dtype_from_index(int i) { return k_dtypes[i]; }

int32_t cn_dtype_is_valid(cn_dtype dtype) { return cn_dtype_index(dtype) >= 0; }

cn_status cn_dtype_at(cn_dtype *out, int32_t i) {
  CN_CHECK_OUT(out, "cn_dtype_at");
  if (i < 0 || i >= CN_NUM_DTYPES)
    return cn_error(CN_ERR_VALUE, "cn_dtype_at: index %d out of range [0, %d)",
                    i, CN_NUM_DTYPES);
  *out = k_dtypes[i];
  return CN_OK;
}

int64_t cn_dtype_itemsize(cn_dtype dtype) {
  return cn_dtype_is_valid(dtype) ? cn_itemsize(dtype) : 0;
}

const char *cn_dtype_name(cn_dtype dtype) {
  int i = cn_dtype_index(dtype);
  return i < 0 ? "invalid" : k_names[i];
}

cn_status cn_dtype_get_kind(cn_dtype_kind *out, cn_dtype dtype) {
  CN_CHECK_OUT(out, "cn_dtype_get_kind");
  if (!cn_dtype_is_valid(dtype))
    return cn_error(CN_ERR_TYPE, "cn_dtype_get_kind: invalid dtype 0x%x",
                    (unsigned)dtype);
  switch (cn_dtype_code(dtype)) {
  case 0: *out = CN_KIND_INT; break;
  case 1: *out = CN_KIND_UINT; break;
  case 2: *out = CN_KIND_FLOAT; break;
  case 5: *out = CN_KIND_COMPLEX; break;
  default: *out = CN_KIND_BOOL; break;
  }
  return CN_OK;
}

cn_dtype cn_real_dtype(cn_dtype dt) {
  if (dt == CN_COMPLEX64) return CN_FLOAT32;
  if (dt == CN_COMPLEX128) return CN_FLOAT64;
  return dt;
}

cn_dtype cn_complex_dtype(cn_dtype dt) {
  if (dt == CN_FLOAT16 || dt == CN_FLOAT32 || dt == CN_COMPLEX64)
    return CN_COMPLEX64;
  return CN_COMPLEX128;
}

static const struct {
  const char *name;
  cn_dtype dt;
} k_aliases[] = {
    {"bool", CN_BOOL},        {"?", CN_BOOL},         {"b1", CN_BOOL},
    {"bool_", CN_BOOL},       {"int8", CN_INT8},      {"i1", CN_INT8},
    {"b", CN_INT8},           {"int16", CN_INT16},    {"i2", CN_INT16},
    {"h", CN_INT16},          {"int32", CN_INT32},    {"i4", CN_INT32},
    {"i", CN_INT32},          {"int64", CN_INT64},    {"i8", CN_INT64},
    {"l", CN_INT64},          {"q", CN_INT64},        {"int", CN_INT64},
    {"intp", CN_INT64},       {"uint8", CN_UINT8},    {"u1", CN_UINT8},
    {"B", CN_UINT8},          {"uint16", CN_UINT16},  {"u2", CN_UINT16},
    {"H", CN_UINT16},         {"uint32", CN_UINT32},  {"u4", CN_UINT32},
    {"I", CN_UINT32},         {"uint64", CN_UINT64},  {"u8", CN_UINT64},
    {"L", CN_UINT64},         {"Q", CN_UINT64},       {"uint", CN_UINT64},
    {"uintp", CN_UINT64},     {"float16", CN_FLOAT16}, {"f2", CN_FLOAT16},
    {"e", CN_FLOAT16},        {"half", CN_FLOAT16},   {"float32", CN_FLOAT32}, {"f4", CN_FLOAT32},
    {"f", CN_FLOAT32},        {"single", CN_FLOAT32}, {"float64", CN_FLOAT64},
    {"f8", CN_FLOAT64},       {"d", CN_FLOAT64},      {"float", CN_FLOAT64},
    {"double", CN_FLOAT64},   {"complex64", CN_COMPLEX64}, {"c8", CN_COMPLEX64},
    {"F", CN_COMPLEX64},      {"csingle", CN_COMPLEX64},
    {"complex128", CN_COMPLEX128}, {"c16", CN_COMPLEX128},
    {"D", CN_COMPLEX128},     {"complex", CN_COMPLEX128},
    {"cdouble", CN_COMPLEX128},
};

cn_status cn_dtype_from_name(cn_dtype *out, const char *name) {
  CN_CHECK_OUT(out, "cn_dtype_from_name");
  if (name == NULL)
    return cn_error(CN_ERR_VALUE, "cn_dtype_from_name: argument 'name' is NULL");
  const char *n = name;
  /* NumPy accepts explicit little-endian / native byte-order prefixes. */
  if (n[0] == '<' || n[0] == '=' || n[0] == '|')
    n++;
  for (size_t i = 0; i < sizeof k_aliases / sizeof k_aliases[0]; i++)
    if (strcmp(n, k_aliases[i].name) == 0) {
      *out = k_aliases[i].dt;
      return CN_OK;
    }
  return cn_error(CN_ERR_TYPE, "cn_dtype_from_name: data type '%s' not understood",
                  name);
}

/* ---- promotion ----------------------------------------------------------
 * The rules are written once as a function and evaluated into the table at
 * first use; every caller reads the table. */

static int kind_rank(cn_dtype dt) { /* b < u < i < f < c, NumPy's kind order */
  switch (cn_dtype_code(dt)) {
  case 6: return 0;
  case 1: return 1;
  case 0: return 2;
  case 2: return 3;
  default: return 4;
  }
}

static cn_dtype int_of_bits(int bits) {
  switch (bits) {
  case 8: return CN_INT8;
  case 16: return CN_INT16;
  case 32: return CN_INT32;
  default: return CN_INT64;
  }
}

/* Smallest float that holds every value of an integer dtype as NumPy sees
 * it: 8-bit ints fit float16, 16-bit ones float32, wider ones float64. */
static cn_dtype float_for_int(cn_dtype dt) {
  int bits = (int)(dt & 0xff);
  return bits <= 8 ? CN_FLOAT16 : bits <= 16 ? CN_FLOAT32 : CN_FLOAT64;
}

static cn_dtype promote_rule(cn_dtype a, cn_dtype b) {
  if (a == b) return a;
  if (a == CN_BOOL) return b;
  if (b == CN_BOOL) return a;
  int ka = cn_dtype_code(a), kb = cn_dtype_code(b);
  int ba = (int)(a & 0xff), bb = (int)(b & 0xff);
  if (ka == kb) /* same kind: the wider */
    return ba >= bb ? a : b;
  if (ka <= 1 && kb <= 1) { /* signed with unsigned */
    cn_dtype s = ka == 0 ? a : b, u = ka == 0 ? b : a;
    int bs = (int)(s & 0xff), bu = (int)(u & 0xff);
    if (bs > bu) return s;
    if (bu < 64) return int_of_bits(2 * bu);
    return CN_FLOAT64;
  }
  if (ka <= 1 || kb <= 1) { /* integer with inexact */
    cn_dtype i = ka <= 1 ? a : b, x = ka <= 1 ? b : a;
    cn_dtype f = float_for_int(i);
    if (cn_is_float(x))
      return (x & 0xff) >= (f & 0xff) ? x : f;
    /* complex: its real part must hold the integer */
    cn_dtype xr = cn_real_dtype(x);
    return (xr & 0xff) >= (f & 0xff) ? x : cn_complex_dtype(f);
  }
  /* float with complex */
  cn_dtype f = cn_is_float(a) ? a : b, c = cn_is_float(a) ? b : a;
  return (cn_real_dtype(c) & 0xff) >= (f & 0xff) ? c : cn_complex_dtype(f);
}

static cn_dtype k_promo[CN_NUM_DTYPES][CN_NUM_DTYPES];
static pthread_once_t k_promo_once = PTHREAD_ONCE_INIT;

static void promo_init(void) {
  for (int i = 0; i < CN_NUM_DTYPES; i++)
    for (int j = 0; j < CN_NUM_DTYPES; j++)
      k_promo[i][j] = promote_rule(k_dtypes[i], k_dtypes[j]);
}

cn_status cn_result_type(cn_dtype *out, cn_dtype a, cn_dtype b) {
  CN_CHECK_OUT(out, "cn_result_type");
  int ia = cn_dtype_index(a), ib = cn_dtype_index(b);
  if (ia < 0 || ib < 0)
    return cn_error(CN_ERR_TYPE, "cn_result_type: invalid dtype 0x%x",
                    (unsigned)(ia < 0 ? a : b));
  pthread_once(&k_promo_once, promo_init);
  *out = k_promo[ia][ib];
  return CN_OK;
}

/* NumPy's type number order (bool, int8, uint8, int16, uint16, ..., uint64,
 * float32, float64, complex64, complex128; float16, added to NumPy last,
 * is NPY_HALF = 23, above them all). */
static int numpy_type_number(cn_dtype dt) {
  if (dt == CN_BOOL) return 0;
  if (dt == CN_FLOAT16) return 23;
  int bits = (int)(dt & 0xff);
  int log_bytes = bits >= 64 ? 3 : bits >= 32 ? 2 : bits >= 16 ? 1 : 0;
  if (cn_is_integer(dt))
    return 1 + 2 * log_bytes + (cn_is_unsigned_int(dt) ? 1 : 0);
  return (cn_is_float(dt) ? 11 : 14) + log_bytes - 2;
}

/* NumPy first picks the dtype of the highest type number (the one whose
 * pairwise promotions it trusts), promotes it with each other dtype, and
 * only then combines those results; a left fold can widen too early. */
cn_dtype cn_result_type_seq(const cn_dtype *dtypes, int32_t n) {
  pthread_once(&k_promo_once, promo_init);
  cn_dtype main = dtypes[0];
  for (int32_t i = 1; i < n; i++)
    if (numpy_type_number(dtypes[i]) > numpy_type_number(main))
      main = dtypes[i];
  int im = cn_dtype_index(main);
  cn_dtype res = main;
  for (int32_t i = 0; i < n; i++) {
    cn_dtype r = k_promo[im][cn_dtype_index(dtypes[i])];
    res = k_promo[cn_dtype_index(res)][cn_dtype_index(r)];
  }
  return res;
}

cn_status cn_result_type_many(cn_dtype *out, int32_t n,
                              const cn_dtype *dtypes) {
  CN_CHECK_OUT(out, "cn_result_type_many");
  if (n < 1 || dtypes == NULL)
    return cn_error(CN_ERR_VALUE,
                    "cn_result_type_many: at least one dtype is required "
                    "(n = %d)", (int)n);
  for (int32_t i = 0; i < n; i++)
    if (cn_dtype_index(dtypes[i]) < 0)
      return cn_error(CN_ERR_TYPE,
                      "cn_result_type_many: invalid dtype 0x%x at position %d",
                      (unsigned)dtypes[i], (int)i);
  *out = cn_result_type_seq(dtypes, n);
  return CN_OK;
}

bool cn_can_cast_safe(cn_dtype from, cn_dtype to) {
  pthread_once(&k_promo_once, promo_init);
  return k_promo[cn_dtype_index(from)][cn_dtype_index(to)] == to;
}

/* Integer range of an integer dtype. */
static void int_range(cn_dtype dt, long double *lo, long double *hi) {
  int bits = (int)(dt & 0xff);
  if (cn_is_unsigned_int(dt)) {
    *lo = 0;
    *hi = ldexpl(1.0L, bits) - 1;
  } else {
    *lo = -ldexpl(1.0L, bits - 1);
    *hi = ldexpl(1.0L, bits - 1) - 1;
  }
}

bool cn_scalar_int_fits(cn_dtype dt, cn_scalar s) {
  long double v = s.kind == CN_SCALAR_UINT ? (long double)(uint64_t)s.i
                                           : (long double)s.i;
  long double lo, hi;
  int_range(dt, &lo, &hi);
  return v >= lo && v <= hi;
}

cn_status cn_result_type_scalar(cn_dtype *out, cn_dtype array_dtype,
                                cn_scalar s) {
  CN_CHECK_OUT(out, "cn_result_type_scalar");
  if (!cn_dtype_is_valid(array_dtype))
    return cn_error(CN_ERR_TYPE, "cn_result_type_scalar: invalid dtype 0x%x",
                    (unsigned)array_dtype);
  cn_dtype r;
  switch (s.kind) {
  case CN_SCALAR_BOOL:
    r = array_dtype;
    break;
  case CN_SCALAR_INT:
  case CN_SCALAR_UINT:
    if (array_dtype == CN_BOOL) {
      r = (s.kind == CN_SCALAR_UINT && (uint64_t)s.i > INT64_MAX) ? CN_UINT64
                                                                  : CN_INT64;
    } else if (cn_is_integer(array_dtype)) {
      if (!cn_scalar_int_fits(array_dtype, s)) {
        if (s.kind == CN_SCALAR_UINT)
          return cn_error(CN_ERR_OVERFLOW,
                          "Python integer %llu out of bounds for %s",
                          (unsigned long long)s.i, cn_dtype_name(array_dtype));
        return cn_error(CN_ERR_OVERFLOW,
                        "Python integer %lld out of bounds for %s",
                        (long long)s.i, cn_dtype_name(array_dtype));
      }
      r = array_dtype;
    } else {
      r = array_dtype;
    }
    break;
  case CN_SCALAR_FLOAT:
    r = cn_is_integer(array_dtype) || array_dtype == CN_BOOL ? CN_FLOAT64
                                                             : array_dtype;
    break;
  case CN_SCALAR_COMPLEX:
    if (cn_is_complex(array_dtype))
      r = array_dtype;
    else if (array_dtype == CN_FLOAT16 || array_dtype == CN_FLOAT32)
      r = CN_COMPLEX64;
    else
      r = CN_COMPLEX128;
    break;
  default:
    return cn_error(CN_ERR_VALUE, "cn_result_type_scalar: invalid scalar kind %d",
                    (int)s.kind);
  }
  *out = r;
  return CN_OK;
}

cn_status cn_can_cast(int32_t *out, cn_dtype from, cn_dtype to,
                      cn_casting casting) {
  CN_CHECK_OUT(out, "cn_can_cast");
  if (!cn_dtype_is_valid(from) || !cn_dtype_is_valid(to))
    return cn_error(CN_ERR_TYPE, "cn_can_cast: invalid dtype 0x%x",
                    (unsigned)(cn_dtype_is_valid(from) ? to : from));
  switch (casting) {
  case CN_CAST_NO:
  case CN_CAST_EQUIV:
    *out = from == to;
    return CN_OK;
  case CN_CAST_SAFE:
    *out = cn_can_cast_safe(from, to);
    return CN_OK;
  case CN_CAST_SAME_KIND:
    *out = cn_can_cast_safe(from, to) || kind_rank(from) <= kind_rank(to);
    return CN_OK;
  case CN_CAST_UNSAFE:
    *out = 1;
    return CN_OK;
  default:
    return cn_error(CN_ERR_VALUE, "cn_can_cast: invalid casting rule %d",
                    (int)casting);
  }
}

cn_scalar cn_scalar_bool(int32_t v) {
  cn_scalar s = {CN_SCALAR_BOOL, 0, v != 0, 0, 0};
  return s;
}
cn_scalar cn_scalar_int(int64_t v) {
  cn_scalar s = {CN_SCALAR_INT, 0, v, 0, 0};
  return s;
}
cn_scalar cn_scalar_uint(uint64_t v) {
  cn_scalar s = {CN_SCALAR_UINT, 0, (int64_t)v, 0, 0};
  return s;
}
cn_scalar cn_scalar_float(double v) {
  cn_scalar s = {CN_SCALAR_FLOAT, 0, 0, v, 0};
  return s;
}
cn_scalar cn_scalar_complex(double re, double im) {
  cn_scalar s = {CN_SCALAR_COMPLEX, 0, 0, re, im};
  return s;
}
