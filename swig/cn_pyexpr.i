/* cn_pyexpr.i: expressions (cunumpy/expr.h). A cn_expr travels as a Python
 * int; the package wraps it in an object that releases it once
 * (bindings/python/cunumpy/_expr.py). */

CNPY_OPAQUE(cn_expr)

/* cn_expr_compile's bindings: a sequence of (name, dtype code, ndim). */
%typemap(in) (int32_t nin, const char *const *names, const cn_dtype *dtypes,
              const int32_t *ndims)
    (const char **nm = NULL, cn_dtype *dt = NULL, int32_t *nd = NULL,
     PyObject *seq = NULL) {
  seq = PySequence_Fast($input, "expected a sequence of (name, dtype, ndim)");
  if (!seq)
    SWIG_fail;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
  if (len > 4096) {
    PyErr_SetString(PyExc_ValueError, "too many inputs (more than 4096)");
    SWIG_fail;
  }
  nm = (const char **)calloc((size_t)len + 1, sizeof *nm);
  dt = (cn_dtype *)calloc((size_t)len + 1, sizeof *dt);
  nd = (int32_t *)calloc((size_t)len + 1, sizeof *nd);
  if (!nm || !dt || !nd) {
    PyErr_NoMemory();
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    PyObject *t = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) {
      PyErr_SetString(PyExc_TypeError, "each binding is (name, dtype, ndim)");
      SWIG_fail;
    }
    nm[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0));
    if (!nm[i])
      SWIG_fail;
    long d = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
    long n = PyLong_AsLong(PyTuple_GET_ITEM(t, 2));
    if (PyErr_Occurred())
      SWIG_fail;
    dt[i] = (cn_dtype)d;
    nd[i] = (int32_t)n;
  }
  $1 = (int32_t)len;
  $2 = ($2_ltype)nm;
  $3 = dt;
  $4 = nd;
}
%typemap(freearg) (int32_t nin, const char *const *names,
                   const cn_dtype *dtypes, const int32_t *ndims) {
  free((void *)nm$argnum);
  free(dt$argnum);
  free(nd$argnum);
  Py_XDECREF(seq$argnum);
}

/* The Python layer compiles once and evaluates with the handle. */
%ignore cn_evaluate;
/* inputs, not the cn_dtype out-parameters of cn_typemaps.i */
%typemap(argout) (int32_t nin, const char *const *names,
                  const cn_dtype *dtypes, const int32_t *ndims) ""
