/* cn_fastpath.i: C entry points for the commonest small calls of the
 * package (xp.empty/zeros/ones, xp.asarray of a list), so that they cost
 * about what NumPy's do. Each takes its common arguments itself and hands
 * every other call, unchanged (vectorcall), to the package's Python
 * implementation registered with _set_fast(); behaviour is therefore the
 * Python function's, only faster. */

%{
enum {
  CNPY_FB_EMPTY,
  CNPY_FB_ZEROS,
  CNPY_FB_ONES,
  CNPY_FB_ASARRAY,
  CNPY_FB_COUNT_
};
static const char *const cnpy_fb_names[CNPY_FB_COUNT_] = {"empty", "zeros",
                                                         "ones", "asarray"};
static PyObject *cnpy_fallbacks[CNPY_FB_COUNT_];

static PyObject *cnpy_fallback(int which, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames) {
  if (!cnpy_fallbacks[which]) {
    PyErr_Format(PyExc_RuntimeError, "cunumpy: no implementation of %s "
                 "registered (_set_fast)", cnpy_fb_names[which]);
    return NULL;
  }
  return PyObject_Vectorcall(cnpy_fallbacks[which], args, nargs, kwnames);
}

/* ---- empty / zeros / ones ------------------------------------------------ */

typedef cn_status (*cnpy_create_fn)(cn_array *, int32_t, const int64_t *,
                                    cn_dtype, cn_order);

/* fn(shape, dtype=None, order='C') for positional or dtype=/order= keyword
 * arguments; device=, like= and anything unusual take the Python path. */
static PyObject *cnpy_create(int which, cnpy_create_fn fn,
                             PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject *dtype = Py_None, *order = NULL;
  if (nargs < 1 || nargs > 3)
    return cnpy_fallback(which, args, nargs, kwnames);
  if (nargs > 1)
    dtype = args[1];
  if (nargs > 2)
    order = args[2];
  for (Py_ssize_t i = 0; i < nkw; i++) {
    PyObject *k = PyTuple_GET_ITEM(kwnames, i);
    if (nargs < 2 && PyUnicode_CompareWithASCIIString(k, "dtype") == 0)
      dtype = args[nargs + i];
    else if (nargs < 3 && PyUnicode_CompareWithASCIIString(k, "order") == 0)
      order = args[nargs + i];
    else
      return cnpy_fallback(which, args, nargs, kwnames);
  }
  int32_t ndim = 0;
  int64_t shape[CN_MAX_DIMS];
  cn_dtype dt = CN_FLOAT64;
  cn_order ord = CN_ORDER_C;
  if (cnpy_shape_arg(args[0], &ndim, shape) < 0 ||
      (dtype != Py_None && cnpy_dtype_arg(dtype, &dt) < 0) ||
      (order && cnpy_order_arg(order, &ord) < 0))
    return NULL;
  cn_array res = NULL;
  cn_status st = fn(&res, ndim, shape, dt, ord);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

#define CNPY_CREATE_FN(name, FB)                                               \
  static PyObject *cnpy_fast_##name(PyObject *m, PyObject *const *args,      \
                                    Py_ssize_t nargs, PyObject *kwnames) {   \
    (void)m;                                                                   \
    return cnpy_create(FB, cn_##name, args, nargs, kwnames);                   \
  }
CNPY_CREATE_FN(empty, CNPY_FB_EMPTY)
CNPY_CREATE_FN(zeros, CNPY_FB_ZEROS)
CNPY_CREATE_FN(ones, CNPY_FB_ONES)
#undef CNPY_CREATE_FN

/* ---- nested lists of Python scalars ------------------------------------- */

/* Element kinds of a nested list, in promotion order (NumPy's dtypes for
 * lists of builtin scalars: bool, int64, float64, complex128). */
enum { CNPY_SEQ_NONE = -1, CNPY_SEQ_BOOL, CNPY_SEQ_INT, CNPY_SEQ_FLOAT,
       CNPY_SEQ_COMPLEX };

static int cnpy_is_seq(PyObject *o) {
  return PyList_CheckExact(o) || PyTuple_CheckExact(o);
}

/* Checks that o is a rectangular nest of lists/tuples of shape[d:] whose
 * leaves are exact bool/int/float/complex (ints within int64), and raises
 * *kind to the widest leaf kind. 1: yes, 0: not such a nest (no
 * exception), -1: error. */
static int cnpy_seq_scan(PyObject *o, int32_t d, int32_t nd,
                         const int64_t *shape, int *kind) {
  if (d == nd) {
    if (PyBool_Check(o)) {
      if (*kind < CNPY_SEQ_BOOL)
        *kind = CNPY_SEQ_BOOL;
    } else if (PyLong_CheckExact(o)) {
      int ovf = 0;
      long long v = PyLong_AsLongLongAndOverflow(o, &ovf);
      if (ovf)
        return 0; /* uint64 or an error: NumPy decides */
      if (v == -1 && PyErr_Occurred())
        return -1;
      if (*kind < CNPY_SEQ_INT)
        *kind = CNPY_SEQ_INT;
    } else if (PyFloat_CheckExact(o)) {
      if (*kind < CNPY_SEQ_FLOAT)
        *kind = CNPY_SEQ_FLOAT;
    } else if (PyComplex_CheckExact(o)) {
      *kind = CNPY_SEQ_COMPLEX;
    } else {
      return 0;
    }
    return 1;
  }
  if (!cnpy_is_seq(o) || PySequence_Fast_GET_SIZE(o) != shape[d])
    return 0;
  PyObject **items = PySequence_Fast_ITEMS(o);
  for (int64_t i = 0; i < shape[d]; i++) {
    int r = cnpy_seq_scan(items[i], d + 1, nd, shape, kind);
    if (r <= 0)
      return r;
  }
  return 1;
}

/* Writes the leaves of a scanned nest in C order as elements of kind. */
static void cnpy_seq_fill(PyObject *o, int32_t d, int32_t nd,
                          const int64_t *shape, int kind, char **p) {
  if (d < nd) {
    PyObject **items = PySequence_Fast_ITEMS(o);
    for (int64_t i = 0; i < shape[d]; i++)
      cnpy_seq_fill(items[i], d + 1, nd, shape, kind, p);
    return;
  }
  double re = 0.0, im = 0.0;
  long long iv = 0;
  if (PyComplex_CheckExact(o)) {
    re = PyComplex_RealAsDouble(o);
    im = PyComplex_ImagAsDouble(o);
  } else if (PyFloat_CheckExact(o)) {
    re = PyFloat_AS_DOUBLE(o);
  } else {
    iv = PyLong_AsLongLong(o); /* bool or an int checked by the scan */
    re = (double)iv;
  }
  switch (kind) {
  case CNPY_SEQ_BOOL:
    **p = (char)(iv != 0);
    *p += 1;
    break;
  case CNPY_SEQ_INT: {
    int64_t v = (int64_t)iv;
    memcpy(*p, &v, sizeof v);
    *p += sizeof v;
    break;
  }
  case CNPY_SEQ_FLOAT:
    memcpy(*p, &re, sizeof re);
    *p += sizeof re;
    break;
  default:
    memcpy(*p, &re, sizeof re);
    memcpy(*p + sizeof re, &im, sizeof im);
    *p += 2 * sizeof re;
    break;
  }
}

/* Array (on the active backend) from a nested list/tuple of builtin
 * scalars, with NumPy's shape and dtype; NULL without an exception when
 * obj is anything else (ragged, other element types, huge ints). */
static PyObject *cnpy_from_sequence(PyObject *obj) {
  int32_t nd = 0;
  int64_t shape[CN_MAX_DIMS];
  PyObject *cur = obj;
  while (cnpy_is_seq(cur)) {
    if (nd == CN_MAX_DIMS)
      return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(cur);
    shape[nd++] = (int64_t)n;
    if (n == 0)
      break;
    cur = PySequence_Fast_GET_ITEM(cur, 0);
  }
  int kind = CNPY_SEQ_NONE;
  int r = cnpy_seq_scan(obj, 0, nd, shape, &kind);
  if (r <= 0)
    return NULL;
  static const cn_dtype dtypes[] = {CN_BOOL, CN_INT64, CN_FLOAT64,
                                    CN_COMPLEX128};
  cn_dtype dt = dtypes[kind == CNPY_SEQ_NONE ? CNPY_SEQ_FLOAT : kind];
  int64_t size = 1;
  for (int32_t d = 0; d < nd; d++)
    size *= shape[d]; /* bounded by the list lengths: no overflow */
  int64_t nbytes = size * cn_dtype_itemsize(dt);
  char local[512];
  char *buf = nbytes <= (int64_t)sizeof local ? local
                                               : PyMem_Malloc((size_t)nbytes);
  if (!buf) {
    PyErr_NoMemory();
    return NULL;
  }
  char *p = buf;
  if (size > 0)
    cnpy_seq_fill(obj, 0, nd, shape, kind, &p);
  cn_array res = NULL;
  cn_status st = cn_from_host(&res, buf, 0, nbytes, nd, shape, NULL, dt);
  if (buf != local)
    PyMem_Free(buf);
  if (st != CN_OK) {
    cnpy_raise(st);
    return NULL;
  }
  return cnpy_wrap(res);
}

/* asarray(obj): arrays as they are, builtin scalars and nested lists of
 * them converted here; every other call goes to the package's asarray. */
static PyObject *cnpy_fast_asarray(PyObject *m, PyObject *const *args,
                                   Py_ssize_t nargs, PyObject *kwnames) {
  (void)m;
  if (nargs == 1 && !kwnames) {
    PyObject *o = args[0];
    if (cnpy_result_type && PyObject_TypeCheck(o, cnpy_result_type))
      return Py_NewRef(o);
    if (cnpy_is_seq(o)) {
      PyObject *r = cnpy_from_sequence(o);
      if (r || PyErr_Occurred())
        return r;
    } else if (PyFloat_CheckExact(o) || PyLong_CheckExact(o) ||
               PyBool_Check(o) || PyComplex_CheckExact(o)) {
      cn_scalar s;
      if (cnpy_scalar_from_py(o, &s, 1) < 0)
        return NULL;
      static const cn_dtype kinds[] = {
          [CN_SCALAR_BOOL] = CN_BOOL, [CN_SCALAR_INT] = CN_INT64,
          [CN_SCALAR_UINT] = CN_UINT64, [CN_SCALAR_FLOAT] = CN_FLOAT64,
          [CN_SCALAR_COMPLEX] = CN_COMPLEX128};
      cn_array res = NULL;
      cn_status st = cn_from_scalar(&res, s, kinds[s.kind]);
      if (st != CN_OK) {
        cnpy_raise(st);
        return NULL;
      }
      return cnpy_wrap(res);
    }
  }
  return cnpy_fallback(CNPY_FB_ASARRAY, args, nargs, kwnames);
}

/* _from_sequence(obj): cnpy_from_sequence for the package's slow paths
 * (None when obj is not a nest of builtin scalars). */
static PyObject *cnpy_from_sequence_py(PyObject *m, PyObject *obj) {
  (void)m;
  PyObject *r = cnpy_from_sequence(obj);
  if (r || PyErr_Occurred())
    return r;
  Py_RETURN_NONE;
}

/* _set_fast(dtypes, fallbacks): dtypes maps cn_dtype codes to NumPy dtype
 * objects (for a.dtype); fallbacks maps "empty", "zeros", "ones",
 * "asarray" to the Python functions the fast entry points defer to, and
 * "reshape" to reshape(a, shape, order, copy) for a.reshape(copy=...). */
static PyObject *cnpy_set_fast(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *dtypes = NULL, *fallbacks = NULL;
  if (!PyArg_ParseTuple(args, "O!O!", &PyDict_Type, &dtypes, &PyDict_Type,
                        &fallbacks))
    return NULL;
  for (int i = 0; i < CN_NUM_DTYPES; i++) {
    cn_dtype dt = CN_DTYPE_DEFAULT;
    if (cn_dtype_at(&dt, i) != CN_OK) {
      cnpy_raise(CN_ERR_INTERNAL);
      return NULL;
    }
    PyObject *key = PyLong_FromLong((long)dt);
    if (!key)
      return NULL;
    PyObject *obj = PyDict_GetItemWithError(dtypes, key);
    Py_DECREF(key);
    if (!obj) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_KeyError, "no dtype object for cn_dtype 0x%x",
                     (unsigned)dt);
      return NULL;
    }
    Py_XSETREF(cnpy_dtype_objs[i], Py_NewRef(obj));
    cnpy_dtype_codes[i] = dt;
  }
  for (int i = 0; i < CNPY_FB_COUNT_; i++) {
    PyObject *fn = PyDict_GetItemString(fallbacks, cnpy_fb_names[i]);
    if (fn)
      Py_XSETREF(cnpy_fallbacks[i], Py_NewRef(fn));
  }
  PyObject *fn = PyDict_GetItemString(fallbacks, "reshape");
  if (fn)
    Py_XSETREF(cnpy_reshape_fallback, Py_NewRef(fn));
  Py_RETURN_NONE;
}

static PyMethodDef cnpy_fast_methods[] = {
    {"empty", (PyCFunction)(void (*)(void))cnpy_fast_empty,
     METH_FASTCALL | METH_KEYWORDS,
     "empty(shape, dtype=None, order='C', *, device=None, like=None)\n--\n\n"
     "New array of the given shape and dtype (default float64), "
     "uninitialised."},
    {"zeros", (PyCFunction)(void (*)(void))cnpy_fast_zeros,
     METH_FASTCALL | METH_KEYWORDS,
     "zeros(shape, dtype=None, order='C', *, device=None, like=None)\n--\n\n"
     "New array of the given shape and dtype (default float64), filled "
     "with 0."},
    {"ones", (PyCFunction)(void (*)(void))cnpy_fast_ones,
     METH_FASTCALL | METH_KEYWORDS,
     "ones(shape, dtype=None, order='C', *, device=None, like=None)\n--\n\n"
     "New array of the given shape and dtype (default float64), filled "
     "with 1."},
    {"asarray", (PyCFunction)(void (*)(void))cnpy_fast_asarray,
     METH_FASTCALL | METH_KEYWORDS,
     "asarray(obj, dtype=None, order=None, *, device=None, copy=None, "
     "like=None)\n--\n\n"
     "Array from an array, a NumPy array (zero-copy when possible), a "
     "buffer-protocol or DLPack object, a nested sequence or a scalar. "
     "copy=None copies only when needed, True always, False never "
     "(ValueError when a copy would be needed)."},
    {"_from_sequence", cnpy_from_sequence_py, METH_O,
     "Array from a nested list/tuple of builtin scalars, else None."},
    {"_set_fast", cnpy_set_fast, METH_VARARGS,
     "_set_fast(dtypes, fallbacks): installs dtype objects and the Python "
     "functions the fast entry points defer to."},
    {NULL, NULL, 0, NULL}};
%}

%init %{
  if (PyModule_AddFunctions(m, cnpy_fast_methods) < 0)
    return NULL;
%}
