/* cn_kernel.i: the custom-kernel handle (include/cunumpy/kernel.h) in
 * Python: a capsule that releases the kernel when it is collected. */

%{
static void cnpy_kernel_capsule_free(PyObject *c) {
  cn_kernel_release((cn_kernel)PyCapsule_GetPointer(c, "cunumpy.kernel"));
}
%}

%typemap(in, numinputs=0) cn_kernel *out (cn_kernel tmp = NULL) {
  $1 = &tmp;
}
%typemap(argout) cn_kernel *out {
  PyObject *c = PyCapsule_New(*$1, "cunumpy.kernel", cnpy_kernel_capsule_free);
  if (!c) {
    cn_kernel_release(*$1);
    SWIG_fail;
  }
  $result = cnpy_append($result, c);
  if (!$result)
    SWIG_fail;
}
%typemap(in) cn_kernel {
  $1 = (cn_kernel)PyCapsule_GetPointer($input, "cunumpy.kernel");
  if (!$1)
    SWIG_fail;
}

/* Lifetime is the capsule's; the source comes back as a str. */
%ignore cn_kernel_retain;
%ignore cn_kernel_release;
%ignore cn_kernel_source;

%inline %{
static PyObject *cn_kernel_source_text(cn_kernel k, int32_t backend,
                                       PyObject *arrays) {
  cnpy_handle_list l;
  if (cnpy_handle_list_arg(arrays, &l) < 0) {
    cnpy_handle_list_free(&l);
    return NULL;
  }
  int64_t len = 0;
  cn_status st = cn_kernel_source(NULL, 0, &len, k, backend, l.n, l.h);
  char *buf = st == CN_OK ? malloc((size_t)len + 1) : NULL;
  if (st == CN_OK && buf == NULL) {
    cnpy_handle_list_free(&l);
    return PyErr_NoMemory();
  }
  if (st == CN_OK)
    st = cn_kernel_source(buf, len + 1, &len, k, backend, l.n, l.h);
  cnpy_handle_list_free(&l);
  if (st != CN_OK) {
    free(buf);
    cnpy_raise(st);
    return NULL;
  }
  PyObject *r = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)len);
  free(buf);
  return r;
}
%}
%include "cunumpy/kernel.h"
