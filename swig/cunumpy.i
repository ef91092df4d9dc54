/* cunumpy.i: the SWIG interface of the low-level Python module
 * cunumpy._cnlib (built with -builtin: no Python shadow classes; SWIG names
 * the C extension _<module>, and its generated cnlib.py is not used).
 *
 * Every public header is %included as is; the typemaps in cn_typemaps.i
 * turn the ABI's conventions into Python ones, so a new header usually needs
 * one %include line here and nothing else. The package (bindings/python/
 * cunumpy) builds the NumPy-style API on top. */

%module(package="cunumpy", threads="1") cnlib

/* threads="1": every wrapper releases the GIL around its C call (the
 * typemaps convert arguments and results with it held), except these:
 * the functions that use the Python API themselves, and queries too short
 * to be worth a GIL hand-over. */
%nothread _set_hooks;
%nothread _to_dlpack;
%nothread _from_dlpack;
%nothread _from_buffer;
%nothread _from_pointer;
%nothread _op_table;
%nothread _broadcast_shapes;
%nothread cnpy_cuda_module_image;
%nothread cnpy_struct_layout_declaration;
%nothread cn_kernel_source_text;
%nothread cn_status_name;
%nothread cn_status_description;
%nothread cn_last_error;
%nothread cn_last_status;
%nothread cn_clear_error;
%nothread cn_log_level;
%nothread cn_version;
%nothread cn_abi_version;
%nothread cn_dtype_is_valid;
%nothread cn_dtype_at;
%nothread cn_dtype_itemsize;
%nothread cn_dtype_name;
%nothread cn_dtype_get_kind;
%nothread cn_dtype_from_name;
%nothread cn_result_type;
%nothread cn_result_type_many;
%nothread cn_result_type_scalar;
%nothread cn_can_cast;
%nothread cn_array_ndim;
%nothread cn_array_dim;
%nothread cn_array_size;
%nothread cn_array_dtype;
%nothread cn_array_itemsize;
%nothread cn_array_flags;
%nothread cn_array_data;
%nothread cn_array_device;
%nothread cn_array_refcount;
%nothread cn_array_shares_buffer;
%nothread cn_get_backend;
%nothread cn_op_count;
%nothread cn_op_name;
%nothread cn_op_nin;
%nothread cn_fft_get_planner;
%nothread cn_debug_fault_alloc;
%nothread cn_debug_alloc_count;

%{
#include "cunumpy/cunumpy.h"
#include "cunumpy/memory.h"
#include "cunumpy/index.h"
#include "cunumpy/linalg.h"
#include "cunumpy/fft.h"
#include "cunumpy/manip.h"
#include "cunumpy/cuda.h"
#include "cunumpy/device.h"
#include "cunumpy/profiler.h"
#include "cunumpy/sort.h"
#include "cunumpy/stats.h"
#include "cunumpy/signal.h"
#include "cunumpy/poly.h"
#include "cunumpy/random.h"
#include "cunumpy/kernel.h"
#include "cunumpy/expr.h"
#include "cunumpy/sparse.h"
%}

/* SWIG's parser does not know GCC attributes (CN_API uses one). */
#define __attribute__(x)

%include "cn_pyarray.i"
%include "cn_typemaps.i"
%include "cn_interop.i"
%include "cn_fastpath.i"
%include "cn_pylog.i"


/* Replaced by hand-written code (C slots, buffer protocol, DLPack capsules)
 * or meaningless in Python (raw memory, callbacks, C scalar builders). */
%ignore cn_array_retain;
%ignore cn_array_release;
%ignore cn_array_shape;
%ignore cn_array_strides;
%ignore cn_from_host;
%ignore cn_wrap_host;
%ignore cn_copy_to_buffer;
%ignore cn_slice;
%ignore cn_moveaxis;
%ignore cn_broadcast_shapes;
%ignore cn_to_dlpack;
%ignore cn_to_dlpack_legacy;
%ignore cn_from_dlpack;
%ignore cn_from_dlpack_legacy;
%ignore cn_last_error_copy;
%ignore cn_scalar_bool;
%ignore cn_scalar_int;
%ignore cn_scalar_uint;
%ignore cn_scalar_float;
%ignore cn_scalar_complex;
%ignore cn_scalar;
%ignore cn_release_fn;
%ignore cn_tensordot;
%ignore cn_rng_retain;
%ignore cn_sparse_retain;
%ignore DLPackVersion;
%ignore DLDevice;
%ignore DLDataType;
%ignore DLTensor;
%ignore DLManagedTensor;
%ignore DLManagedTensorVersioned;

%include "cunumpy/status.h"
%include "cunumpy/dtype.h"
%include "cunumpy/array.h"
%include "cunumpy/view.h"
%include "cunumpy/backend.h"
%include "cunumpy/memory.h"
%include "cunumpy/ufunc.h"
%include "cunumpy/special.h"
%include "cunumpy/reduce.h"
%include "cunumpy/index.h"
%include "cunumpy/linalg.h"
%include "cunumpy/fft.h"
%include "cunumpy/manip.h"
%include "cunumpy/cuda.h"
%include "cunumpy/device.h"
%include "cunumpy/profiler.h"
%include "cunumpy/sort.h"
%include "cunumpy/stats.h"
%include "cunumpy/signal.h"
%include "cunumpy/poly.h"
%include "cunumpy/random.h"
%include "cn_kernel_raw.i"
%include "cn_kernel.i"
%include "cn_pyexpr.i"
%include "cunumpy/expr.h"
%include "cunumpy/sparse.h"

%init %{
  if (PyType_Ready(&cnpy_array_type) < 0)
    return NULL;
  Py_INCREF(&cnpy_array_type);
  if (PyModule_AddObject(m, "Handle", (PyObject *)&cnpy_array_type) < 0)
    return NULL;
  if (PyType_Ready(&cnpy_ufunc_type) < 0)
    return NULL;
  Py_INCREF(&cnpy_ufunc_type);
  if (PyModule_AddObject(m, "UfuncBase", (PyObject *)&cnpy_ufunc_type) < 0)
    return NULL;
  cnpy_exc_device = PyErr_NewExceptionWithDoc(
      "cunumpy.DeviceError",
      "A device is unavailable or arrays live on different devices.",
      PyExc_RuntimeError, NULL);
  cnpy_exc_backend = PyErr_NewExceptionWithDoc(
      "cunumpy.BackendError",
      "A backend library call (CUDA, BLAS, FFTW) failed.", PyExc_RuntimeError,
      NULL);
  cnpy_exc_internal = PyErr_NewExceptionWithDoc(
      "cunumpy.InternalError", "An internal cunumpy error (a bug).",
      PyExc_RuntimeError, NULL);
  cnpy_exc_axis = cnpy_new_axis_error();
  if (!cnpy_exc_device || !cnpy_exc_backend || !cnpy_exc_internal ||
      !cnpy_exc_axis)
    return NULL;
  Py_INCREF(cnpy_exc_device);
  Py_INCREF(cnpy_exc_backend);
  Py_INCREF(cnpy_exc_internal);
  Py_INCREF(cnpy_exc_axis);
  if (PyModule_AddObject(m, "DeviceError", cnpy_exc_device) < 0 ||
      PyModule_AddObject(m, "BackendError", cnpy_exc_backend) < 0 ||
      PyModule_AddObject(m, "InternalError", cnpy_exc_internal) < 0 ||
      PyModule_AddObject(m, "AxisError", cnpy_exc_axis) < 0)
    return NULL;
%}
