/* cn_pyargs.i: conversions of Python arguments the typemaps use.
 *
 * dtype, order and casting arguments (NumPy dtypes, types and strings),
 * shapes and axes (an int or a sequence), lists of array operands, and
 * cnpy_append, which gathers a wrapper's outputs into its result
 * (cn_typemaps.i applies them by parameter type and name). */

%{
/* ---- conversions used by the typemaps ------------------------------------ */

static int cnpy_dtype_arg(PyObject *o, cn_dtype *out) {
  if (o == Py_None) {
    *out = CN_DTYPE_DEFAULT;
    return 0;
  }
  if (PyLong_CheckExact(o)) {
    *out = (cn_dtype)PyLong_AsLong(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  PyObject *code = NULL;
  if (cnpy_dtype_cache) {
    code = PyDict_GetItemWithError(cnpy_dtype_cache, o);
    if (!code && PyErr_Occurred())
      PyErr_Clear(); /* unhashable: ask the hook */
    Py_XINCREF(code);
  }
  if (!code) {
    if (!cnpy_dtype_hook) {
      PyErr_Format(PyExc_TypeError, "data type %R not understood", o);
      return -1;
    }
    code = PyObject_CallOneArg(cnpy_dtype_hook, o);
    if (!code)
      return -1;
  }
  long v = PyLong_AsLong(code);
  Py_DECREF(code);
  if (v == -1 && PyErr_Occurred())
    return -1;
  *out = (cn_dtype)v;
  return 0;
}

static int cnpy_order_arg(PyObject *o, cn_order *out) {
  if (o == Py_None) {
    *out = CN_ORDER_K;
    return 0;
  }
  if (PyLong_Check(o)) {
    *out = (cn_order)PyLong_AsLong(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  if (s && s[0] && !s[1]) {
    switch (s[0]) {
    case 'C': case 'c': *out = CN_ORDER_C; return 0;
    case 'F': case 'f': *out = CN_ORDER_F; return 0;
    case 'A': case 'a': *out = CN_ORDER_A; return 0;
    case 'K': case 'k': *out = CN_ORDER_K; return 0;
    }
  }
  PyErr_Clear();
  PyErr_Format(PyExc_ValueError,
               "order must be one of 'C', 'F', 'A', or 'K' (got %R)", o);
  return -1;
}

static int cnpy_casting_arg(PyObject *o, cn_casting *out) {
  static const char *names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
  if (PyLong_Check(o)) {
    *out = (cn_casting)PyLong_AsLong(o);
    return PyErr_Occurred() ? -1 : 0;
  }
  const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  for (int i = 0; s && i < 5; i++)
    if (strcmp(s, names[i]) == 0) {
      *out = (cn_casting)i;
      return 0;
    }
  PyErr_Clear();
  PyErr_Format(PyExc_ValueError,
               "casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
               "or 'unsafe' (got %R)",
               o);
  return -1;
}

/* A shape: an int or a sequence of ints (at most CN_MAX_DIMS). */
/* One extent: an integer but not a bool (NumPy's TypeError), and one that
 * does not fit 64 bits is NumPy's ValueError, not OverflowError. */
static int cnpy_extent_arg(PyObject *x, int64_t *out) {
  if (PyBool_Check(x)) {
    PyErr_SetString(PyExc_TypeError,
                    "'bool' object cannot be interpreted as an integer");
    return -1;
  }
  Py_ssize_t v = PyNumber_AsSsize_t(x, PyExc_OverflowError);
  if (v == -1 && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
      PyErr_Clear();
      PyErr_SetString(PyExc_ValueError, "Maximum allowed dimension exceeded");
    }
    return -1;
  }
  *out = (int64_t)v;
  return 0;
}

static int cnpy_shape_arg(PyObject *o, int32_t *ndim, int64_t *shape) {
  if (PyLong_Check(o) || (PyIndex_Check(o) && !PySequence_Check(o))) {
    int64_t v;
    if (cnpy_extent_arg(o, &v) < 0)
      return -1;
    *ndim = 1;
    shape[0] = (int64_t)v;
    return 0;
  }
  PyObject *seq = PySequence_Fast(o, "shape must be an int or a sequence of "
                                     "ints");
  if (!seq)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > CN_MAX_DIMS) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError,
                 "maximum supported dimension for an ndarray is currently "
                 "%d, found %zd",
                 CN_MAX_DIMS, n);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
    if (PyFloat_Check(x)) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError,
                      "'float' object cannot be interpreted as an integer");
      return -1;
    }
    if (cnpy_extent_arg(x, &shape[i]) < 0) {
      Py_DECREF(seq);
      return -1;
    }
  }
  *ndim = (int32_t)n;
  Py_DECREF(seq);
  return 0;
}

/* Axes: None (all: naxes CN_ALL_AXES), an int, or a sequence of ints. */
static int cnpy_axes_arg(PyObject *o, int32_t *naxes, int32_t *axes,
                         const int32_t **axes_ptr) {
  if (o == Py_None) {
    *naxes = CN_ALL_AXES;
    *axes_ptr = NULL;
    return 0;
  }
  int64_t tmp[CN_MAX_DIMS];
  int32_t n = 0;
  if (cnpy_shape_arg(o, &n, tmp) < 0)
    return -1;
  for (int32_t i = 0; i < n; i++) {
    if (tmp[i] < INT32_MIN || tmp[i] > INT32_MAX) {
      PyErr_Format(PyExc_IndexError, "axis %lld is out of bounds",
                   (long long)tmp[i]);
      return -1;
    }
    axes[i] = (int32_t)tmp[i];
  }
  *naxes = n;
  *axes_ptr = axes;
  return 0;
}

/* A sequence of array operands, converted like binary-op operands; any
 * length (the storage grows with the sequence, as NumPy has no limit). */
typedef struct {
  int32_t n;
  cn_array *h;
  cnpy_tmp *tmp;
  /* the sequence's items, kept alive while h is used: rows of an array or
   * items of a generator exist only in this list */
  PyObject *seq;
} cnpy_handle_list;

static void cnpy_handle_list_free(cnpy_handle_list *l) {
  for (int32_t i = 0; i < l->n; i++)
    cnpy_tmp_free(&l->tmp[i]);
  l->n = 0;
  PyMem_Free(l->h);
  PyMem_Free(l->tmp);
  Py_CLEAR(l->seq);
  l->h = NULL;
  l->tmp = NULL;
}

static int cnpy_handle_list_arg(PyObject *o, cnpy_handle_list *l) {
  l->n = 0;
  l->h = NULL;
  l->tmp = NULL;
  l->seq = PySequence_Fast(o, "expected a sequence of arrays");
  if (!l->seq)
    return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(l->seq);
  if (n > INT32_MAX) {
    PyErr_SetString(PyExc_ValueError, "too many arrays");
    return -1;
  }
  size_t cap = n > 0 ? (size_t)n : 1;
  l->h = PyMem_Calloc(cap, sizeof *l->h);
  l->tmp = PyMem_Calloc(cap, sizeof *l->tmp);
  if (!l->h || !l->tmp) {
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    l->n = (int32_t)(i + 1);
    if (cnpy_operand(PySequence_Fast_GET_ITEM(l->seq, i), &l->h[i],
                     &l->tmp[i], 0) < 0)
      return -1;
  }
  return 0;
}

/* Appends an output to a wrapper's result: the first output replaces None,
 * later ones make (or extend) a tuple. Outputs that are tuples themselves
 * are only used by functions with a single output. */
static PyObject *cnpy_append(PyObject *result, PyObject *obj) {
  if (!obj) {
    Py_XDECREF(result);
    return NULL;
  }
  if (!result || result == Py_None) {
    Py_XDECREF(result);
    return obj;
  }
  Py_ssize_t n = PyTuple_CheckExact(result) ? PyTuple_GET_SIZE(result) : 0;
  PyObject *t = PyTuple_New(n ? n + 1 : 2);
  if (!t) {
    Py_DECREF(obj);
    Py_DECREF(result);
    return NULL;
  }
  if (n) {
    for (Py_ssize_t i = 0; i < n; i++)
      PyTuple_SET_ITEM(t, i, Py_NewRef(PyTuple_GET_ITEM(result, i)));
    PyTuple_SET_ITEM(t, n, obj);
    Py_DECREF(result);
  } else {
    PyTuple_SET_ITEM(t, 0, result);
    PyTuple_SET_ITEM(t, 1, obj);
  }
  return t;
}
%}
