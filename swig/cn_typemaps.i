/* cn_typemaps.i: how the C ABI's parameter conventions become Python.
 *
 * - A returned cn_status that is not CN_OK raises the exception of its
 *   status class with the cn_last_error() text (cn_pyerrors.i: cnpy_raise).
 * - Non-const pointer parameters are outputs (the ABI puts them first); they
 *   disappear from the Python signature and become the return value (a
 *   tuple when there are several). A cn_array output becomes a
 *   cunumpy.ndarray that releases its handle exactly once.
 * - cn_array inputs take arrays, Python scalars (weak, NEP 50) and anything
 *   asarray accepts; `dst` also takes None (NULL).
 * - dtype, order and casting inputs take NumPy dtypes/types/strings; shapes
 *   take an int or a sequence; axes take None, an int or a sequence.
 * Typemaps match by type (and by name where a type alone is ambiguous), so
 * a new header that follows the conventions needs no new typemap. */

%include <stdint.i>

/* ---- status ---------------------------------------------------------------- */

%typemap(out) cn_status {
  if ($1 != CN_OK) {
    cnpy_raise($1);
    SWIG_fail;
  }
  $result = Py_NewRef(Py_None);
}

/* Functions that take a status (cn_status_name) take an int. */
%typemap(in) cn_status {
  long v = PyLong_AsLong($input);
  if (v == -1 && PyErr_Occurred())
    SWIG_fail;
  $1 = (cn_status)v;
}

/* ---- array handles ------------------------------------------------------ */

%typemap(in) cn_array (cnpy_tmp tmp = {NULL, NULL}) {
  if (cnpy_operand($input, &$1, &tmp, 0) < 0)
    SWIG_fail;
}
%typemap(freearg) cn_array {
  cnpy_tmp_free(&tmp$argnum);
}
/* An output array (NumPy's out=): an existing array or None, never a
 * converted temporary (writes to it would be lost, and weak scalars are
 * shared). */
%typemap(in) cn_array dst {
  if ($input == Py_None) {
    $1 = NULL;
  } else if (CNPY_CHECK($input)) {
    $1 = CNPY_H($input);
  } else {
    PyErr_Format(PyExc_TypeError, "out must be a cunumpy array or None, "
                 "not '%.100s'", Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
}
%typemap(freearg) cn_array dst ""
/* The result written into dst is returned as the dst object itself, as
 * NumPy returns out (`f(x, out=o) is o`). */
%typemap(argout) cn_array dst {
  $result = cnpy_result_as_dst($result, $1, $input);
}
/* Optional inputs: None is NULL. */
%typemap(in) cn_array optional_ (cnpy_tmp tmp = {NULL, NULL}) {
  if (cnpy_operand($input, &$1, &tmp, 1) < 0)
    SWIG_fail;
}
%typemap(freearg) cn_array optional_ {
  cnpy_tmp_free(&tmp$argnum);
}

%typemap(in, numinputs=0) cn_array * (cn_array tmp = NULL) {
  $1 = &tmp;
}
%typemap(argout) cn_array * {
  PyObject *o = cnpy_wrap(*$1);
  *$1 = NULL;
  $result = cnpy_append($result, o);
  if (!$result)
    SWIG_fail;
}
/* Outputs the call did not write (an error after a partial success can not
 * happen: the ABI writes all or nothing) need no cleanup. */
/* cn_unique / cn_unique_axis: the index, inverse and counts (the inverse
 * as long as the axis, which may be huge for empty slices; the index
 * needs the sorting permutation) are computed only when asked for: a
 * Python bool stands in each one's place, and None comes back when it
 * was not wanted. */
%typemap(in) cn_array *inverse (cn_array tmp = NULL),
             cn_array *index (cn_array tmp = NULL),
             cn_array *counts (cn_array tmp = NULL) {
  int want = PyObject_IsTrue($input);
  if (want < 0)
    SWIG_fail;
  $1 = want ? &tmp : NULL;
}
%typemap(argout) cn_array *inverse, cn_array *index, cn_array *counts {
  PyObject *o = Py_None;
  if ($1) {
    o = cnpy_wrap(*$1);
    *$1 = NULL;
  } else {
    Py_INCREF(o);
  }
  $result = cnpy_append($result, o);
  if (!$result)
    SWIG_fail;
}

/* Sequences of input arrays: (count, pointer) pairs. */
%typemap(in) (int32_t n, const cn_array *arrays) (cnpy_handle_list l = {0, NULL, NULL, NULL}),
             (int32_t nin, const cn_array *inputs) (cnpy_handle_list l = {0, NULL, NULL, NULL}),
             (int32_t n, const cn_array *indices) (cnpy_handle_list l = {0, NULL, NULL, NULL}),
             (int32_t n, const cn_array *choices) (cnpy_handle_list l = {0, NULL, NULL, NULL}),
             (int32_t n, const cn_array *operands) (cnpy_handle_list l = {0, NULL, NULL, NULL}),
             (int32_t nspacing, const cn_array *spacing) (cnpy_handle_list l = {0, NULL, NULL, NULL}),
             (int32_t nbins, const cn_array *bins) (cnpy_handle_list l = {0, NULL, NULL, NULL}) {
  if (cnpy_handle_list_arg($input, &l) < 0) {
    cnpy_handle_list_free(&l);
    SWIG_fail;
  }
  $1 = l.n;
  $2 = l.h;
}
%typemap(freearg) (int32_t n, const cn_array *arrays),
                  (int32_t nin, const cn_array *inputs),
                  (int32_t n, const cn_array *indices),
                  (int32_t n, const cn_array *choices),
                  (int32_t n, const cn_array *operands),
                  (int32_t nspacing, const cn_array *spacing),
                  (int32_t nbins, const cn_array *bins) {
  cnpy_handle_list_free(&l$argnum);
}

/* cn_broadcast_arrays: n outputs for n inputs, returned as a tuple. */
%typemap(in) (cn_array *outs, int32_t n, const cn_array *arrays)
    (cnpy_handle_list l = {0, NULL, NULL, NULL}, cn_array *outs = NULL) {
  if (cnpy_handle_list_arg($input, &l) < 0) {
    cnpy_handle_list_free(&l);
    SWIG_fail;
  }
  outs = PyMem_Calloc(l.n > 0 ? (size_t)l.n : 1, sizeof *outs);
  if (!outs) {
    cnpy_handle_list_free(&l);
    PyErr_NoMemory();
    SWIG_fail;
  }
  $1 = outs;
  $2 = l.n;
  $3 = l.h;
}
%typemap(argout) (cn_array *outs, int32_t n, const cn_array *arrays) {
  PyObject *t = PyTuple_New($2);
  for (int32_t i = 0; i < $2; i++) {
    PyObject *o = t ? cnpy_wrap($1[i]) : (cn_array_release($1[i]), NULL);
    if (t && !o)
      Py_CLEAR(t);
    else if (t)
      PyTuple_SET_ITEM(t, i, o);
  }
  if (!t)
    SWIG_fail;
  $result = cnpy_append($result, t);
}
%typemap(freearg) (cn_array *outs, int32_t n, const cn_array *arrays) {
  cnpy_handle_list_free(&l$argnum);
  PyMem_Free(outs$argnum);
}

/* cn_nonzero-style outputs: up to CN_MAX_DIMS arrays, returned as a tuple. */
%typemap(in, numinputs=0) (cn_array *outs, int32_t cap)
    (cn_array outs[CN_MAX_DIMS]) {
  memset(outs, 0, sizeof outs);
  $1 = outs;
  $2 = CN_MAX_DIMS;
}
%typemap(argout) (cn_array *outs, int32_t cap) {
  int32_t n = 0;
  while (n < CN_MAX_DIMS && $1[n])
    n++;
  PyObject *t = PyTuple_New(n);
  for (int32_t i = 0; i < n; i++) {
    PyObject *o = t ? cnpy_wrap($1[i]) : (cn_array_release($1[i]), NULL);
    if (t && !o)
      Py_CLEAR(t);
    else if (t)
      PyTuple_SET_ITEM(t, i, o);
  }
  if (!t)
    SWIG_fail;
  $result = cnpy_append($result, t);
}

/* ---- scalar outputs ----------------------------------------------------- */

%define CNPY_OUT_SCALAR(TYPE, CONVERT)
%typemap(in, numinputs=0) TYPE * (TYPE tmp = 0) {
  $1 = &tmp;
}
%typemap(argout) TYPE * {
  $result = cnpy_append($result, CONVERT);
  if (!$result)
    SWIG_fail;
}
%enddef
CNPY_OUT_SCALAR(int64_t, PyLong_FromLongLong((long long)*$1))
CNPY_OUT_SCALAR(int32_t, PyLong_FromLong((long)*$1))
CNPY_OUT_SCALAR(double, PyFloat_FromDouble(*$1))
CNPY_OUT_SCALAR(cn_dtype, PyLong_FromLong((long)*$1))
CNPY_OUT_SCALAR(cn_dtype_kind, PyLong_FromLong((long)*$1))
CNPY_OUT_SCALAR(cn_fft_planner, PyLong_FromLong((long)*$1))
CNPY_OUT_SCALAR(void *, PyLong_FromVoidPtr(*$1))

/* SWIG drops qualifiers when it looks for a typemap, so the output
 * typemaps above would also claim const pointers (inputs): clear them. */
%typemap(argout) const int64_t *, const int32_t *, const double *,
                 const cn_array * ""
%typemap(in, numinputs=1) const int64_t *, const int32_t * {
  PyErr_SetString(PyExc_TypeError, "this pointer argument is not supported "
                                   "from Python");
  SWIG_fail;
}

%typemap(in, numinputs=0) cn_scalar * (cn_scalar tmp) {
  memset(&tmp, 0, sizeof tmp);
  $1 = &tmp;
}
%typemap(argout) cn_scalar * {
  $result = cnpy_append($result, cnpy_scalar_to_py(*$1));
  if (!$result)
    SWIG_fail;
}

/* A static string output (cn_backend_canonical_name). */
%typemap(in, numinputs=0) const char **out (const char *tmp = NULL) {
  $1 = ($1_ltype)&tmp; /* SWIG drops the const of the pointee */
}
%typemap(argout) const char **out {
  $result = cnpy_append($result, PyUnicode_FromString(*$1 ? *$1 : ""));
  if (!$result)
    SWIG_fail;
}

/* A (char *buf, int64_t cap) pair is a string output. */
%typemap(in, numinputs=0) (char *name, int64_t name_cap) (char buf[256]) {
  buf[0] = 0;
  $1 = buf;
  $2 = sizeof buf;
}
%typemap(argout) (char *name, int64_t name_cap) {
  $result = cnpy_append($result, PyUnicode_FromString($1));
  if (!$result)
    SWIG_fail;
}

/* ---- scalar inputs -------------------------------------------------------- */

%typemap(in) cn_scalar {
  int r = cnpy_scalar_from_py($input, &$1, 0);
  if (r < 0)
    SWIG_fail;
  if (r == 0) {
    PyErr_Format(PyExc_TypeError, "expected a number, got '%.100s'",
                 Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
}

%typemap(in) cn_dtype {
  if (cnpy_dtype_arg($input, &$1) < 0)
    SWIG_fail;
}
%typemap(in) cn_order {
  if (cnpy_order_arg($input, &$1) < 0)
    SWIG_fail;
}
%typemap(in) cn_casting {
  if (cnpy_casting_arg($input, &$1) < 0)
    SWIG_fail;
}

/* Single axes: None is CN_AXIS_NONE (flatten first). */
%typemap(in) int32_t axis {
  if ($input == Py_None) {
    $1 = CN_AXIS_NONE;
  } else {
    long v = PyLong_AsLong($input);
    if (v == -1 && PyErr_Occurred())
      SWIG_fail;
    if (v < INT32_MIN + 1 || v > INT32_MAX) {
      PyErr_Format(PyExc_IndexError, "axis %ld is out of bounds", v);
      SWIG_fail;
    }
    $1 = (int32_t)v;
  }
}

/* ---- shapes and axes ------------------------------------------------------ */

%typemap(in) (int32_t ndim, const int64_t *shape) (int64_t tmp[CN_MAX_DIMS]) {
  if (cnpy_shape_arg($input, &$1, tmp) < 0)
    SWIG_fail;
  $2 = tmp;
}
%typemap(in) (int32_t ns, const int64_t *s) (int64_t tmp[CN_MAX_DIMS]) {
  if ($input == Py_None) { /* s=None: the C API's (0, NULL) */
    $1 = 0;
    $2 = NULL;
  } else {
    if (cnpy_shape_arg($input, &$1, tmp) < 0)
      SWIG_fail;
    $2 = tmp;
  }
}
%typemap(in) (int32_t naxes, const int32_t *axes) (int32_t tmp[CN_MAX_DIMS]) {
  const int32_t *p = NULL;
  if (cnpy_axes_arg($input, &$1, tmp, &p) < 0)
    SWIG_fail;
  $2 = ($2_ltype)p;
}

/* A sequence of dtype codes (cn_result_type_many). */
%typemap(in) (int32_t n, const cn_dtype *dtypes) (cn_dtype *codes = NULL) {
  PyObject *seq = PySequence_Fast($input, "expected a sequence of dtype codes");
  if (!seq)
    SWIG_fail;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
  if (len > INT32_MAX) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "too many dtypes");
    SWIG_fail;
  }
  codes = (cn_dtype *)malloc((size_t)(len ? len : 1) * sizeof(cn_dtype));
  if (!codes) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < len; i++) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(seq);
      SWIG_fail;
    }
    codes[i] = (cn_dtype)v;
  }
  Py_DECREF(seq);
  $1 = (int32_t)len;
  $2 = codes;
}
%typemap(freearg) (int32_t n, const cn_dtype *dtypes) { free(codes$argnum); }
/* An input list: not one of the cn_dtype out-parameters. */
%typemap(argout) (int32_t n, const cn_dtype *dtypes) ""

/* Variable-count outputs (cn_split): the parts come back as a tuple. */
%typemap(in, numinputs=0) (cn_array *outs, int32_t cap, int32_t *nout)
    (cn_array *outs = NULL, int32_t nout = 0) {
  outs = (cn_array *)calloc(4096, sizeof(cn_array));
  if (!outs) {
    PyErr_NoMemory();
    SWIG_fail;
  }
  $1 = outs;
  $2 = 4096;
  $3 = &nout;
}
%typemap(argout) (cn_array *outs, int32_t cap, int32_t *nout) {
  PyObject *t = PyTuple_New(*$3);
  for (int32_t i = 0; i < *$3; i++) {
    PyObject *o = t ? cnpy_wrap($1[i]) : (cn_array_release($1[i]), NULL);
    if (t && !o)
      Py_CLEAR(t);
    else if (t)
      PyTuple_SET_ITEM(t, i, o);
  }
  if (!t)
    SWIG_fail;
  $result = cnpy_append($result, t);
}
%typemap(freearg) (cn_array *outs, int32_t cap, int32_t *nout) {
  free(outs$argnum);
}

/* Optional int64 lists: None is (0, NULL). */
%typemap(in) (int32_t nidx, const int64_t *indices) (int64_t *buf = NULL) {
  $1 = 0;
  $2 = NULL;
  if ($input != Py_None) {
    PyObject *seq = PySequence_Fast($input, "expected a sequence of ints");
    if (!seq)
      SWIG_fail;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    buf = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
    for (Py_ssize_t i = 0; buf && i < n; i++) {
      buf[i] = (int64_t)PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
    }
    Py_DECREF(seq);
    if (!buf) {
      PyErr_NoMemory();
      SWIG_fail;
    }
    if (PyErr_Occurred())
      SWIG_fail;
    $1 = (int32_t)n;
    $2 = buf;
  }
}
%typemap(freearg) (int32_t nidx, const int64_t *indices) {
  free(buf$argnum);
}

%typemap(in) (int32_t nreps, const int64_t *reps) (int64_t tmp[CN_MAX_DIMS]),
             (int32_t ndim, const int64_t *dims) (int64_t tmp[CN_MAX_DIMS]) {
  if (cnpy_shape_arg($input, &$1, tmp) < 0)
    SWIG_fail;
  $2 = tmp;
}

/* Flat (before, after) pairs. */
%typemap(in) const int64_t *pad_width (int64_t tmp[2 * CN_MAX_DIMS]) {
  int32_t n = 0;
  PyObject *seq = PySequence_Fast($input, "expected a sequence of ints");
  if (!seq)
    SWIG_fail;
  n = (int32_t)PySequence_Fast_GET_SIZE(seq);
  if (n > 2 * CN_MAX_DIMS) {
    Py_DECREF(seq);
    PyErr_SetString(PyExc_ValueError, "too many pad widths");
    SWIG_fail;
  }
  for (int32_t i = 0; i < n; i++)
    tmp[i] = (int64_t)PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
  Py_DECREF(seq);
  if (PyErr_Occurred())
    SWIG_fail;
  $1 = tmp;
}

/* (shifts, axes) given as one Python pair; axes None rolls the flat array. */
%typemap(in) (int32_t nshift, const int64_t *shifts, const int32_t *axes)
    (int64_t sh[CN_MAX_DIMS], int32_t ax[CN_MAX_DIMS]) {
  PyObject *shifts_o = NULL, *axes_o = NULL;
  int32_t ns = 0, na = 0;
  const int32_t *axp = NULL;
  if (!PyArg_ParseTuple($input, "OO", &shifts_o, &axes_o))
    SWIG_fail;
  if (cnpy_shape_arg(shifts_o, &ns, sh) < 0)
    SWIG_fail;
  if (axes_o != Py_None) {
    if (cnpy_axes_arg(axes_o, &na, ax, &axp) < 0)
      SWIG_fail;
    if (na != ns) {
      PyErr_SetString(PyExc_ValueError,
                      "shift and axis must have the same length");
      SWIG_fail;
    }
  }
  $1 = ns;
  $2 = sh;
  $3 = ($3_ltype)axp;
}

/* cn_select: (conditions, choices) given as one Python pair of equal-length
 * sequences. */
%typemap(in) (int32_t n, const cn_array *conditions, const cn_array *choices)
    (cnpy_handle_list lc = {0, NULL, NULL, NULL},
     cnpy_handle_list lx = {0, NULL, NULL, NULL}) {
  PyObject *co = NULL, *xo = NULL;
  memset(&lc, 0, sizeof lc);
  memset(&lx, 0, sizeof lx);
  if (!PyArg_ParseTuple($input, "OO", &co, &xo))
    SWIG_fail;
  if (cnpy_handle_list_arg(co, &lc) < 0 || cnpy_handle_list_arg(xo, &lx) < 0)
    SWIG_fail;
  if (lc.n != lx.n) {
    PyErr_SetString(PyExc_ValueError,
                    "list of cases must be same length as list of conditions");
    SWIG_fail;
  }
  $1 = lc.n;
  $2 = lc.h;
  $3 = lx.h;
}
%typemap(freearg) (int32_t n, const cn_array *conditions,
                   const cn_array *choices) {
  cnpy_handle_list_free(&lc$argnum);
  cnpy_handle_list_free(&lx$argnum);
}

/* ---- CUDA handles (cunumpy/cuda.h) ---------------------------------------- */

/* Streams, events and raw device/host pointers travel as Python ints; the
 * package wraps streams and events in objects that destroy them once. */
%define CNPY_OPAQUE(TYPE)
%typemap(in, numinputs=0) TYPE * (TYPE tmp = NULL) {
  $1 = &tmp;
}
%typemap(argout) TYPE * {
  $result = cnpy_append($result, PyLong_FromVoidPtr((void *)*$1));
  if (!$result)
    SWIG_fail;
}
%typemap(in) TYPE {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    $1 = (TYPE)PyLong_AsVoidPtr($input);
    if (PyErr_Occurred())
      SWIG_fail;
  }
}
%enddef
CNPY_OPAQUE(cn_stream)
CNPY_OPAQUE(cn_event)

%typemap(in) void *native, void *ptr {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    $1 = PyLong_AsVoidPtr($input);
    if (PyErr_Occurred())
      SWIG_fail;
  }
}

/* ---- optional arrays and values ------------------------------------------ */

/* Optional array arguments: None is NULL. */
%apply cn_array optional_ { cn_array sorter, cn_array weights, cn_array y,
                           cn_array edges, cn_array p, cn_array fweights,
                           cn_array aweights, cn_array ranges, cn_array k,
                           cn_array w, cn_array zi, cn_array operand,
                           cn_array x0, cn_array pool };

/* Optional doubles: None is NULL. */
%typemap(in) const double *left (double v), const double *right (double v) {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    v = PyFloat_AsDouble($input);
    if (v == -1.0 && PyErr_Occurred())
      SWIG_fail;
    $1 = &v;
  }
}
/* ((xmin, xmax), (ymin, ymax)) flattened to 4 doubles, or None. */
%typemap(in) const double *range (double v[4]) {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    PyObject *seq = PySequence_Fast($input, "range must be 4 numbers");
    if (!seq)
      SWIG_fail;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_ValueError, "range must be 4 numbers");
      SWIG_fail;
    }
    for (int i = 0; i < 4; i++)
      v[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (PyErr_Occurred())
      SWIG_fail;
    $1 = v;
  }
}

%typemap(in) (int32_t nkth, const int64_t *kth) (int64_t tmp[CN_MAX_DIMS]) {
  if (cnpy_shape_arg($input, &$1, tmp) < 0)
    SWIG_fail;
  $2 = tmp;
}
%typemap(in) (int32_t n, const cn_array *keys) (cnpy_handle_list l = {0, NULL, NULL, NULL}) {
  if (cnpy_handle_list_arg($input, &l) < 0) {
    cnpy_handle_list_free(&l);
    SWIG_fail;
  }
  $1 = l.n;
  $2 = l.h;
}
%typemap(freearg) (int32_t n, const cn_array *keys) {
  cnpy_handle_list_free(&l$argnum);
}

/* Random generators travel as ints like streams; cunumpy.random.Generator
 * owns one and releases it once. */
CNPY_OPAQUE(cn_rng)
/* Sparse matrices likewise; cunumpy.sparse's classes own one each. */
CNPY_OPAQUE(cn_sparse)
CNPY_OPAQUE(cn_sparse_lu)

/* cn_rng_spawn(n, parent) -> list of n new generator handles. */
%typemap(in) (cn_rng *outs, int32_t n) (cn_rng *tmp = NULL) {
  long v = PyLong_AsLong($input);
  if (v == -1 && PyErr_Occurred())
    SWIG_fail;
  if (v < 0 || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "spawn count %ld out of range", v);
    SWIG_fail;
  }
  tmp = (cn_rng *)calloc((size_t)(v > 0 ? v : 1), sizeof(cn_rng));
  if (!tmp) {
    PyErr_NoMemory();
    SWIG_fail;
  }
  $1 = tmp;
  $2 = (int32_t)v;
}
%typemap(argout) (cn_rng *outs, int32_t n) {
  PyObject *lst = PyList_New($2);
  if (!lst)
    SWIG_fail;
  for (int32_t i = 0; i < $2; i++) {
    PyObject *h = PyLong_FromVoidPtr((void *)$1[i]);
    if (!h) {
      Py_DECREF(lst);
      SWIG_fail;
    }
    PyList_SET_ITEM(lst, i, h);
  }
  $result = cnpy_append($result, lst);
  if (!$result)
    SWIG_fail;
}
%typemap(freearg) (cn_rng *outs, int32_t n) {
  free(tmp$argnum);
}

/* Generator state: a tuple of CN_RNG_STATE_WORDS ints, both ways. */
%typemap(in, numinputs=0) uint32_t *state (uint32_t tmp[CN_RNG_STATE_WORDS]) {
  $1 = tmp;
}
%typemap(argout) uint32_t *state {
  PyObject *t = PyTuple_New(CN_RNG_STATE_WORDS);
  if (!t)
    SWIG_fail;
  for (int i = 0; i < CN_RNG_STATE_WORDS; i++)
    PyTuple_SET_ITEM(t, i, PyLong_FromUnsignedLong($1[i]));
  $result = cnpy_append($result, t);
  if (!$result)
    SWIG_fail;
}
%typemap(in) const uint32_t *state (uint32_t tmp[CN_RNG_STATE_WORDS]) {
  PyObject *seq = PySequence_Fast($input, "state must be a sequence of ints");
  if (!seq)
    SWIG_fail;
  if (PySequence_Fast_GET_SIZE(seq) != CN_RNG_STATE_WORDS) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "state must have %d words",
                 CN_RNG_STATE_WORDS);
    SWIG_fail;
  }
  for (int i = 0; i < CN_RNG_STATE_WORDS; i++) {
    unsigned long w =
        PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(seq, i));
    if (PyErr_Occurred() || w > 0xffffffffUL) {
      Py_DECREF(seq);
      if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "state words are 32-bit");
      SWIG_fail;
    }
    tmp[i] = (uint32_t)w;
  }
  Py_DECREF(seq);
  $1 = tmp;
}

/* cn_random_dist's parameters: None is NULL. */
%apply cn_array optional_ { cn_array p0, cn_array p1, cn_array p2 };

/* cn_trapezoid(y, x, ...): x is optional but "x" names required inputs
 * elsewhere, so this pair comes from Python as one tuple (y, x or None). */
%typemap(in) (cn_array y, cn_array x)
    (cnpy_tmp ty = {NULL, NULL}, cnpy_tmp tx = {NULL, NULL}) {
  PyObject *yo = NULL, *xo = NULL;
  if (!PyArg_ParseTuple($input, "OO", &yo, &xo))
    SWIG_fail;
  if (cnpy_operand(yo, &$1, &ty, 0) < 0 || cnpy_operand(xo, &$2, &tx, 1) < 0)
    SWIG_fail;
}
%typemap(freearg) (cn_array y, cn_array x) {
  cnpy_tmp_free(&ty$argnum);
  cnpy_tmp_free(&tx$argnum);
}
