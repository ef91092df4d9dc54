/* cunumpy/dtype.h: element types, scalars and type promotion. */
#ifndef CUNUMPY_DTYPE_H
#define CUNUMPY_DTYPE_H

#include "cunumpy/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element types. A value is (DLPack type code << 8) | bits, so DLPack
 * import/export needs no table: code 0 int, 1 uint, 2 float, 5 complex,
 * 6 bool. */
typedef enum cn_dtype {
  CN_BOOL = 0x0608,
  CN_INT8 = 0x0008,
  CN_INT16 = 0x0010,
  CN_INT32 = 0x0020,
  CN_INT64 = 0x0040,
  CN_UINT8 = 0x0108,
  CN_UINT16 = 0x0110,
  CN_UINT32 = 0x0120,
  CN_UINT64 = 0x0140,
  CN_FLOAT16 = 0x0210,
  CN_FLOAT32 = 0x0220,
  CN_FLOAT64 = 0x0240,
  CN_COMPLEX64 = 0x0540,
  CN_COMPLEX128 = 0x0580,
  CN_DTYPE_FORCE_INT32_ = 0x7fffffff
} cn_dtype;

/* Number of dtypes above; cn_dtype_at(i) for i in [0, CN_NUM_DTYPES)
 * enumerates them in promotion order (bool, ints, uints, floats, complex). */
#define CN_NUM_DTYPES 14

/* Kinds of dtypes, as the Array API's isdtype names them. */
typedef enum cn_dtype_kind {
  CN_KIND_BOOL = 0,
  CN_KIND_INT = 1,
  CN_KIND_UINT = 2,
  CN_KIND_FLOAT = 3,
  CN_KIND_COMPLEX = 4,
  CN_KIND_FORCE_INT32_ = 0x7fffffff
} cn_dtype_kind;

/* Casting rules, as NumPy's casting= argument. */
typedef enum cn_casting {
  CN_CAST_NO = 0,
  CN_CAST_EQUIV = 1,
  CN_CAST_SAFE = 2,
  CN_CAST_SAME_KIND = 3,
  CN_CAST_UNSAFE = 4,
  CN_CAST_FORCE_INT32_ = 0x7fffffff
} cn_casting;

/* A host scalar crossing the ABI. kind says which field holds the value:
 * BOOL and INT use i, UINT uses i reinterpreted as uint64, FLOAT uses re,
 * COMPLEX uses re and im. */
typedef enum cn_scalar_kind {
  CN_SCALAR_BOOL = 0,
  CN_SCALAR_INT = 1,
  CN_SCALAR_UINT = 2,
  CN_SCALAR_FLOAT = 3,
  CN_SCALAR_COMPLEX = 4,
  CN_SCALAR_FORCE_INT32_ = 0x7fffffff
} cn_scalar_kind;

typedef struct cn_scalar {
  int32_t kind; /* cn_scalar_kind */
  int32_t reserved;
  int64_t i;
  double re;
  double im;
} cn_scalar;

/* 1 if dtype is one of the enum values above, else 0. */
CN_API int32_t cn_dtype_is_valid(cn_dtype dtype);

/* i-th dtype in promotion order, or CN_ERR_VALUE for i out of range. */
CN_API cn_status cn_dtype_at(cn_dtype *out, int32_t i);

/* Size of one element in bytes; 0 for an invalid dtype. */
CN_API int64_t cn_dtype_itemsize(cn_dtype dtype);

/* Canonical name ("float64"); "invalid" for an invalid dtype. Static. */
CN_API const char *cn_dtype_name(cn_dtype dtype);

/* Kind of a dtype; CN_ERR_TYPE for an invalid dtype. */
CN_API cn_status cn_dtype_get_kind(cn_dtype_kind *out, cn_dtype dtype);

/* Parses a dtype name: canonical names, NumPy's short codes ("f8", "i4",
 * "c16", "?", "f2", "e", "half"), and the Python builtins "bool", "int" (int64), "float"
 * (float64), "complex" (complex128), "double", "single".
 * CN_ERR_TYPE names the unknown string. */
CN_API cn_status cn_dtype_from_name(cn_dtype *out, const char *name);

/* Result type of two dtypes under NumPy 2 / Array API promotion (NEP 50):
 * int64 with uint64 gives float64, as NumPy. CN_ERR_TYPE for invalid dtypes. */
CN_API cn_status cn_result_type(cn_dtype *out, cn_dtype a, cn_dtype b);

/* Result type of n >= 1 dtypes together, as NumPy's result_type of several
 * dtypes (not a left fold: int8, uint16, float32 give float32).
 * CN_ERR_VALUE for n < 1 or a NULL list, CN_ERR_TYPE for an invalid dtype. */
CN_API cn_status cn_result_type_many(cn_dtype *out, int32_t n,
                                     const cn_dtype *dtypes);

/* Result type of an array dtype with a weak (Python) scalar, NEP 50: the
 * array's dtype wins within its kind; a scalar of a higher kind gives the
 * default dtype of that kind (float64, complex128) or the complex of the
 * array's float precision. An integer scalar that does not fit an integer
 * array dtype is CN_ERR_OVERFLOW ("Python integer 300 out of bounds for
 * int8"). */
CN_API cn_status cn_result_type_scalar(cn_dtype *out, cn_dtype array_dtype,
                                       cn_scalar scalar);

/* Sets *out to 1 when from can be cast to to under the rule, else 0.
 * CN_ERR_TYPE for invalid dtypes, CN_ERR_VALUE for an invalid rule. */
CN_API cn_status cn_can_cast(int32_t *out, cn_dtype from, cn_dtype to,
                             cn_casting casting);

/* Scalar constructors (no errors, no allocation). */
CN_API cn_scalar cn_scalar_bool(int32_t v);
CN_API cn_scalar cn_scalar_int(int64_t v);
CN_API cn_scalar cn_scalar_uint(uint64_t v);
CN_API cn_scalar cn_scalar_float(double v);
CN_API cn_scalar cn_scalar_complex(double re, double im);

#ifdef __cplusplus
}
#endif
#endif
