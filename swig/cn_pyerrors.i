/* cn_pyerrors.i: how a failed cn_status becomes a Python exception.
 *
 * The status classes map to Python's builtin exceptions where one fits
 * (ValueError, TypeError, IndexError, MemoryError, NotImplementedError) and
 * to the module's own DeviceError, BackendError and InternalError otherwise
 * (created by the module's %init in cunumpy.i); the message is the thread's
 * cn_last_error() text. The cn_status typemap (cn_typemaps.i) and the
 * hand-written code raise a failed C call's status through cnpy_raise. */

%{
static PyObject *cnpy_exc_device = NULL;
static PyObject *cnpy_exc_backend = NULL;
static PyObject *cnpy_exc_internal = NULL;

/* ---- errors ------------------------------------------------------------ */

static PyObject *cnpy_exception_for(cn_status st) {
  switch (st) {
  case CN_ERR_VALUE:
  case CN_ERR_SHAPE:
    return PyExc_ValueError;
  case CN_ERR_TYPE:
    return PyExc_TypeError;
  case CN_ERR_INDEX:
    return PyExc_IndexError;
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

/* Raises the exception for st with the thread's last-error text. A weak
 * Python integer out of range of the array dtype is OverflowError in
 * NumPy 2, so that one CN_ERR_VALUE case is told apart by its message. */
static void cnpy_raise(cn_status st) {
  const char *msg = cn_last_error();
  PyObject *exc = cnpy_exception_for(st);
  if (!msg || !*msg)
    msg = cn_status_description(st);
  if (st == CN_ERR_VALUE && strstr(msg, "Python integer") &&
      strstr(msg, "out of bounds"))
    exc = PyExc_OverflowError;
  PyErr_SetString(exc, msg);
}
%}
