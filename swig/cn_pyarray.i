/* cn_pyarray.i: the Python array object of the low-level module.
 *
 * One small C extension type (`Handle`) owns one cn_array reference and is
 * the base class of cunumpy.ndarray. Its number, comparison, mapping and
 * buffer slots call the C ABI directly, so `a + b`, `a[1:5]` and
 * numpy.asarray(a) never run Python code on their fast path; everything
 * uncommon (advanced indexing, conversion of foreign objects, dtype objects)
 * is delegated to hooks the Python package installs with _set_hooks().
 *
 * This file holds what all its parts share (the object's struct, the hooks,
 * the type-check macros) and includes the parts, each one concept, in the
 * order their C compiles in. */

%{
#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject_HEAD cn_array h;
} cnpy_array;

static PyTypeObject cnpy_array_type;
/* The ndarray subclass results are made as (set by the package). */
static PyTypeObject *cnpy_result_type = NULL;
/* obj -> ndarray for operands that are neither arrays nor Python scalars. */
static PyObject *cnpy_coerce_hook = NULL;
/* obj -> int dtype code, for dtype arguments that are not ints; results are
 * cached in cnpy_dtype_cache. */
static PyObject *cnpy_dtype_hook = NULL;
static PyObject *cnpy_dtype_cache = NULL;
/* (array, key) and (array, key, value) for advanced indexing. */
static PyObject *cnpy_getitem_hook = NULL;
static PyObject *cnpy_setitem_hook = NULL;
/* NumPy dtype objects of the engine's dtypes (set by the package), so
 * a.dtype is a table read. */
static PyObject *cnpy_dtype_objs[CN_NUM_DTYPES];
static cn_dtype cnpy_dtype_codes[CN_NUM_DTYPES];

#define CNPY_CHECK(o) PyObject_TypeCheck((o), &cnpy_array_type)

/* Defined in cn_pyargs.i; the methods of cn_pyarray_type.i use them. */
static int cnpy_order_arg(PyObject *o, cn_order *out);
static int cnpy_shape_arg(PyObject *o, int32_t *ndim, int64_t *shape);
#define CNPY_H(o) (((cnpy_array *)(o))->h)
%}

%include "cn_pyerrors.i"
%include "cn_pyoperands.i"
%include "cn_pynumber.i"
%include "cn_pyindex.i"
%include "cn_pybuffer.i"
%include "cn_pyarray_type.i"
%include "cn_pyufunc.i"
%include "cn_pyargs.i"
