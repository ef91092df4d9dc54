/* cn_pyerrors.i: how a failed cn_status becomes a Python exception.
 *
 * The status classes map to Python's builtin exceptions where one fits
 * (ValueError, TypeError, IndexError, MemoryError, NotImplementedError) and
 * to the module's own DeviceError, BackendError and InternalError otherwise
 * (created by the module's %init in cunumpy.i). CN_ERR_AXIS is NumPy's
 * numpy.exceptions.AxisError (a ValueError and an IndexError), or where
 * NumPy cannot give it a cunumpy.AxisError of both bases; the module
 * exports the class it raises as AxisError. The message is the thread's
 * cn_last_error() text without the C names (kept on the exception as
 * .c_function). The cn_status typemap (cn_typemaps.i) and the
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

/* The NumPy-style text of a cn_last_error() message: what follows the C
 * function names prefixed to it ("cn_linalg_inv: ", nested when one entry
 * point calls another) and a repeated "LinAlgError: ". *fn, *fnlen: the
 * first (outermost) name, or NULL, 0 when there is none. */
static const char *cnpy_strip_c_names(const char *msg, const char **fn,
                                      size_t *fnlen) {
  *fn = NULL;
  *fnlen = 0;
  for (;;) {
    const char *p = msg;
    if (strncmp(p, "cn_", 3) == 0) {
      p += 3;
      while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
             *p == '_')
        p++;
      if (p[0] == ':' && p[1] == ' ') {
        if (*fn == NULL) {
          *fn = msg;
          *fnlen = (size_t)(p - msg);
        }
        msg = p + 2;
        continue;
      }
    }
    if (strncmp(msg, "LinAlgError: ", 13) == 0) {
      msg += 13;
      continue;
    }
    return msg;
  }
}

/* Raises the exception for st with the thread's last-error text, read as
 * NumPy words it (cnpy_strip_c_names; decoded with backslash escapes where
 * it is not UTF-8: a message quoting caller bytes must still raise st's
 * exception, not a UnicodeDecodeError). The exception keeps the C side for
 * debugging: .c_function (the entry point's name, or None) and .c_status
 * (the status name, "CN_ERR_VALUE"). */
static void cnpy_raise(cn_status st) {
  const char *raw = cn_last_error();
  PyObject *exc = cnpy_exception_for(st);
  const char *fn = NULL;
  size_t fnlen = 0;
  const char *msg = raw && *raw ? cnpy_strip_c_names(raw, &fn, &fnlen) : "";
  if (!*msg)
    msg = cn_status_description(st);
  PyObject *text =
      PyUnicode_DecodeUTF8(msg, (Py_ssize_t)strlen(msg), "backslashreplace");
  if (text == NULL)
    return; /* MemoryError is set */
  PyObject *inst = PyObject_CallOneArg(exc, text);
  PyObject *name = inst ? (fn ? PyUnicode_DecodeUTF8(fn, (Py_ssize_t)fnlen,
                                                     "backslashreplace")
                              : Py_NewRef(Py_None))
                        : NULL;
  PyObject *status = name ? PyUnicode_FromString(cn_status_name(st)) : NULL;
  if (status == NULL || PyObject_SetAttrString(inst, "c_function", name) < 0 ||
      PyObject_SetAttrString(inst, "c_status", status) < 0) {
    /* the class or the attributes failed: the plain text still raises st's
     * class */
    PyErr_Clear();
    PyErr_SetObject(exc, text);
  } else {
    PyErr_SetObject(exc, inst);
  }
  Py_XDECREF(status);
  Py_XDECREF(name);
  Py_XDECREF(inst);
  Py_DECREF(text);
}
%}
