/* cn_pyerrors.i: how a failed cn_status becomes a Python exception.
 *
 * The status classes map to Python's builtin exceptions where one fits
 * (ValueError, TypeError, IndexError, MemoryError, NotImplementedError) and
 * to the module's own DeviceError, BackendError and InternalError otherwise
 * (created by the module's %init in cunumpy.i). CN_ERR_AXIS is NumPy's
 * numpy.exceptions.AxisError (a ValueError and an IndexError), or where
 * NumPy cannot give it a cunumpy.AxisError of both bases; the module
 * exports the class it raises as AxisError. The message is the thread's
 * cn_last_error() text. The cn_status typemap (cn_typemaps.i) and the
 * hand-written code raise a failed C call's status through cnpy_raise. */

%{
/* ---- the GIL around engine calls ---------------------------------------- */

/* Operands of at least this many elements make the hand-written operator
 * and ufunc paths release the GIL (as NumPy does above a threshold): for
 * smaller ones the call is shorter than a GIL hand-over, and releasing
 * would let a busy Python thread stall it for a switch interval. The SWIG
 * wrappers (module threads="1") release it around every call but the
 * queries listed in cunumpy.i. The engine's last-error state is per OS
 * thread, so it is still this call's after the GIL is taken back. */
#define CNPY_NOGIL_MIN_ELEMS 8192

/* True when the largest of n handles (NULLs skipped) has
 * CNPY_NOGIL_MIN_ELEMS elements or more. */
static int cnpy_worth_nogil(const cn_array *h, int n) {
  for (int i = 0; i < n; i++) {
    int64_t size = 0;
    if (h[i] && cn_array_size(&size, h[i]) == CN_OK &&
        size >= CNPY_NOGIL_MIN_ELEMS)
      return 1;
  }
  return 0;
}

/* Evaluates `call` (an engine call that touches no Python object) with the
 * GIL released when `release` is true. */
#define CNPY_CALL_NOGIL(release, call)                                       \
  do {                                                                       \
    if (release) {                                                           \
      Py_BEGIN_ALLOW_THREADS call;                                           \
      Py_END_ALLOW_THREADS                                                   \
    } else {                                                                 \
      call;                                                                  \
    }                                                                        \
  } while (0)

static PyObject *cnpy_exc_device = NULL;
static PyObject *cnpy_exc_backend = NULL;
static PyObject *cnpy_exc_internal = NULL;
static PyObject *cnpy_exc_axis = NULL;

/* ---- errors ------------------------------------------------------------ */

/* numpy.linalg.LinAlgError (a ValueError), looked up on the first
 * linear-algebra failure and kept; ValueError if NumPy cannot give it. */
static PyObject *cnpy_linalg_error(void) {
  static PyObject *cls = NULL;
  if (cls == NULL) {
    PyObject *mod = PyImport_ImportModule("numpy.linalg");
    PyObject *c = mod ? PyObject_GetAttrString(mod, "LinAlgError") : NULL;
    Py_XDECREF(mod);
    if (c == NULL || !PyExceptionClass_Check(c)) {
      Py_XDECREF(c);
      PyErr_Clear();
      return PyExc_ValueError;
    }
    cls = c;
  }
  return cls;
}

/* The class CN_ERR_AXIS raises (a new reference, NULL with an exception
 * set on failure): NumPy's AxisError, else one of the same two bases. */
static PyObject *cnpy_new_axis_error(void) {
  PyObject *mod = PyImport_ImportModule("numpy.exceptions");
  PyObject *c = mod ? PyObject_GetAttrString(mod, "AxisError") : NULL;
  Py_XDECREF(mod);
  if (c != NULL && PyExceptionClass_Check(c))
    return c;
  Py_XDECREF(c);
  PyErr_Clear();
  PyObject *bases = PyTuple_Pack(2, PyExc_ValueError, PyExc_IndexError);
  if (bases == NULL)
    return NULL;
  c = PyErr_NewExceptionWithDoc(
      "cunumpy.AxisError",
      "An axis argument out of range for the array's dimension.", bases,
      NULL);
  Py_DECREF(bases);
  return c;
}

static PyObject *cnpy_exception_for(cn_status st) {
  switch (st) {
  case CN_ERR_VALUE:
  case CN_ERR_SHAPE:
    return PyExc_ValueError;
  case CN_ERR_LINALG:
    return cnpy_linalg_error();
  case CN_ERR_OVERFLOW:
    return PyExc_OverflowError;
  case CN_ERR_ZERO_DIVISION:
    return PyExc_ZeroDivisionError;
  case CN_ERR_TYPE:
    return PyExc_TypeError;
  case CN_ERR_INDEX:
    return PyExc_IndexError;
  case CN_ERR_AXIS:
    return cnpy_exc_axis;
  case CN_ERR_MEMORY:
    return PyExc_MemoryError;
  case CN_ERR_DEVICE:
    return cnpy_exc_device;
  case CN_ERR_BACKEND:
    return cnpy_exc_backend;
  case CN_ERR_UNSUPPORTED:
    return PyExc_NotImplementedError;
  default:
    return cnpy_exc_internal;
  }
}

/* Raises the exception for st with the thread's last-error text (decoded
 * with backslash escapes where it is not UTF-8: a message quoting caller
 * bytes must still raise st's exception, not a UnicodeDecodeError). */
static void cnpy_raise(cn_status st) {
  const char *msg = cn_last_error();
  PyObject *exc = cnpy_exception_for(st);
  if (!msg || !*msg)
    msg = cn_status_description(st);
  PyObject *text =
      PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "backslashreplace");
  if (text == NULL)
    return; /* MemoryError is set */
  PyErr_SetObject(exc, text);
  Py_DECREF(text);
}
%}
