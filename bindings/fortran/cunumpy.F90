! cunumpy: the Fortran face of cunumpy, on top of the generated module
! cunumpy_c (raw bind(c) interfaces and constants, all re-exported here).
!
!   use cunumpy
!   real(real64), target :: x(100, 50), y(100, 50)
!   type(cn_array_t) :: xv, yv
!   call cn_wrap(xv, x)          ! zero-copy column-major views
!   call cn_wrap(yv, y)
!   call cn_sin(xv, yv)          ! y = sin(x), computed in place in y
!
! Handles: cn_array_t holds one reference to a cunumpy array. Assignment
! (b = a) shares the array and keeps the reference count right, the final
! procedure releases it when the variable goes away, cn_release does it now.
!
! Results: an elementwise op (cn_sin, cn_add, cn_unary, ...) or cn_matmul
! writes into its result argument when that already holds an array (NumPy's
! out=, with broadcasting and same-kind casting: a wrapped Fortran array is
! computed in place); when the result argument is empty (never set or
! released), a new array is made for it. Reductions and everything else
! replace what their result argument held by a new array (reductions take
! an explicit out= destination instead).
!
! Errors: every procedure takes optional stat (0 on success, else the
! cunumpy status code CN_ERR_*) and errmsg (the message; unchanged on
! success). Without stat an error stops the program with the message
! (error stop), as Fortran intrinsics do.
!
! Dimensions are numbered from 1 as in Fortran intrinsics (dim=1 is the
! first index); a wrapped x(n1, n2) is a cunumpy array of shape (n1, n2)
! with strides (1, n1).
!
! The raw C functions are re-exported from cunumpy_c as c_<name>
! (c_cn_sin, c_cn_sum, ...), with every CN_* constant.
!
! The procedures for C functions of a known signature shape are generated
! by tools/gen_bindings.py into cunumpy_wrappers.inc, included below: every
! elementwise op (cn_sin(x, y), cn_add(x1, x2, y), ...), the reductions
! (cn_reduce, cn_sum, ...), the 1-d FFTs (cn_fft, ...), cn_empty/cn_zeros/
! cn_ones, and the functions of one or two arrays (cn_linalg_inv(a, r),
! cn_linalg_solve(a, b, r), cn_to_host(a, r), ...). This file holds the
! rest and the helpers those call.
module cunumpy
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: int8, int16, int32, int64, real32, real64
  use cunumpy_c
  implicit none
  public

  ! A reference to a cunumpy array; h is the raw handle for the cunumpy_c
  ! functions (owned by the variable: do not release it yourself).
  type :: cn_array_t
    type(c_ptr) :: h = c_null_ptr
  contains
    procedure, private :: assign_array
    generic :: assignment(=) => assign_array
    final :: cn_array_final
  end type cn_array_t

  ! A custom kernel (cn_elementwise_kernel, cn_reduction_kernel): CuPy's
  ! ElementwiseKernel / ReductionKernel, run where its arrays live (CPU
  ! bodies are compiled with the host C compiler, CUDA ones with NVRTC).
  ! Assignment shares the kernel; the final procedure releases it.
  type :: cn_kernel_t
    type(c_ptr) :: h = c_null_ptr
  contains
    procedure, private :: assign_kernel
    generic :: assignment(=) => assign_kernel
    final :: cn_kernel_final
  end type cn_kernel_t

  ! A CUDA module compiled from source by NVRTC or read from a PTX/CUBIN/
  ! fatbin file, and one __global__ function of it (CuPy's RawModule and
  ! RawKernel). Compiling needs no GPU when arch is given; loading a
  ! function and launching need one.
  type :: cn_cuda_module_t
    type(c_ptr) :: h = c_null_ptr
  contains
    procedure, private :: assign_module
    generic :: assignment(=) => assign_module
    final :: cn_cuda_module_final
  end type cn_cuda_module_t
  type :: cn_cuda_function_t
    type(c_ptr) :: h = c_null_ptr
  contains
    procedure, private :: assign_function
    generic :: assignment(=) => assign_function
    final :: cn_cuda_function_final
  end type cn_cuda_function_t

  ! One argument of cn_cuda_launch, made by cn_arg: an array (passed as its
  ! device pointer; borrowed, so the array must outlive the call) or the
  ! bytes of a scalar of the kernel parameter's C type (int32 -> int,
  ! int64 -> long long, real32 -> float, real64 -> double).
  type :: cn_kernel_arg_t
    type(c_ptr) :: array = c_null_ptr
    integer(c_int8_t) :: bytes(16) = 0_c_int8_t
    integer(c_int64_t) :: nbytes = 0
  end type cn_kernel_arg_t
  interface cn_arg
    module procedure arg_array, arg_i4, arg_i8, arg_r4, arg_r8, arg_c4, arg_c8
  end interface cn_arg
  ! A compiled expression program (cn_expr_compile): typed once for the
  ! dtypes and ndims of its inputs, evaluated many times (cn_expr_evaluate);
  ! released when the variable goes away or by cn_expr_release. Not
  ! copyable (assignment would share the handle without a count).
  type :: cn_expr_t
    type(c_ptr), private :: h = c_null_ptr
  contains
    final :: cn_expr_final
  end type cn_expr_t

  ! Fortran array -> cunumpy view, pointer back, helpers in cfi_wrap.c.
  interface
    function cn_f_import(out, x, copy, readonly) bind(c, name='cn_f_import') result(st)
      import :: c_ptr, c_int32_t
      type(c_ptr), intent(out) :: out
      type(*), dimension(..), intent(in) :: x
      integer(c_int32_t), value :: copy, readonly
      integer(c_int32_t) :: st
    end function cn_f_import
    function cn_f_dtype_of(x) bind(c, name='cn_f_dtype_of') result(dt)
      import :: c_int32_t
      type(*), dimension(..), intent(in) :: x
      integer(c_int32_t) :: dt
    end function cn_f_dtype_of
    ! Zero-copy view of x into the handle variable h (a%h of a cn_array_t,
    ! whose old array it releases): for derived-type component slices
    ! (pts%y), which cn_wrap would receive as a packed temporary copy under
    ! gfortran 12. Returns the status (cn_error_message() has the message,
    ! except for CN_ERR_TYPE: an element type without a dtype).
    function cn_wrap_handle(h, x, readonly) bind(c, name='cn_f_wrap_handle') result(st)
      import :: c_ptr, c_int32_t
      type(c_ptr), intent(inout) :: h
      type(*), dimension(..), target, intent(in) :: x
      integer(c_int32_t), value :: readonly
      integer(c_int32_t) :: st
    end function cn_wrap_handle
    function c_strlen(s) bind(c, name='strlen') result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface

  ! Fortran pointer onto a cunumpy array's memory (any rank, any strides).
  interface cn_pointer
    module procedure cn_pointer_r4, cn_pointer_r8, cn_pointer_c4, cn_pointer_c8, &
      cn_pointer_i1, cn_pointer_i2, cn_pointer_i4, cn_pointer_i8, cn_pointer_l1
  end interface cn_pointer
  ! float16 arrays: gfortran has no real kind for binary16, so
  ! cn_pointer_f2(a, p) gives integer(c_int16_t) pointers onto the bit
  ! patterns (outside the generic: int16 arrays already take that type).
  public :: cn_pointer_f2

  ! A cn_scalar (the C ABI's host scalar) from a Fortran value.
  interface cn_scalar_of
    module procedure scalar_i4, scalar_i8, scalar_r4, scalar_r8, scalar_c4, scalar_c8, &
      scalar_l
  end interface cn_scalar_of

  private :: assign_kernel, assign_module, assign_function, arg_array, arg_i4, arg_i8, &
    arg_r4, arg_r8, arg_c4, arg_c8, c_text, kernel_args
  private :: assign_array, fail, succeed, handle, set_result, pointer_prepare, c_string, &
    scalar_i4, scalar_i8, scalar_r4, scalar_r8, scalar_c4, scalar_c8, scalar_l, &
    cn_f_import, cn_f_dtype_of, c_strlen, make, reduce_axes, item, creation_args, &
    take_result, fft_args, &
    cn_pointer_r4, cn_pointer_r8, cn_pointer_c4, cn_pointer_c8, &
    cn_pointer_i1, cn_pointer_i2, cn_pointer_i4, cn_pointer_i8, cn_pointer_l1

contains

  ! ---- errors ------------------------------------------------------------

  ! Message of the calling thread's last failing cunumpy call.
  function cn_error_message() result(msg)
    character(:), allocatable :: msg
    character(kind=c_char) :: buf(2048)
    integer(c_int64_t) :: n, i
    n = c_cn_last_error_copy(buf, size(buf, kind=c_int64_t))
    n = max(0_c_int64_t, min(n, size(buf, kind=c_int64_t) - 1))
    allocate (character(n) :: msg)
    do i = 1, n
      msg(i:i) = buf(i)
    end do
  end function cn_error_message

  subroutine fail(st, msg, stat, errmsg)
    integer(c_int32_t), intent(in) :: st
    character(*), intent(in) :: msg
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (present(stat)) then
      stat = st
      if (present(errmsg)) errmsg = msg
      return
    end if
    error stop msg
  end subroutine fail

  subroutine succeed(stat)
    integer, intent(out), optional :: stat
    if (present(stat)) stat = 0
  end subroutine succeed

  ! Reports the status of a C call: the message is cunumpy's own.
  subroutine handle(st, stat, errmsg)
    integer(c_int32_t), intent(in) :: st
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (st == CN_OK) then
      call succeed(stat)
    else
      call fail(st, cn_error_message(), stat, errmsg)
    end if
  end subroutine handle

  ! Fortran string of a NUL-terminated C string.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      s = ""
      return
    end if
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate (character(n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function c_string

  ! ---- handles -----------------------------------------------------------

  subroutine assign_array(lhs, rhs)
    class(cn_array_t), intent(inout) :: lhs
    type(cn_array_t), intent(in) :: rhs
    integer(c_int32_t) :: st
    type(c_ptr) :: old
    ! retain first: a = a must not free the array
    if (c_associated(rhs%h)) st = c_cn_array_retain(rhs%h)
    old = lhs%h
    lhs%h = rhs%h
    if (c_associated(old)) call c_cn_array_release(old)
  end subroutine assign_array

  impure elemental subroutine cn_array_final(self)
    type(cn_array_t), intent(inout) :: self
    if (c_associated(self%h)) call c_cn_array_release(self%h)
    self%h = c_null_ptr
  end subroutine cn_array_final

  ! Drops the reference now (views of borrowed Fortran memory included).
  impure elemental subroutine cn_release(a)
    type(cn_array_t), intent(inout) :: a
    call cn_array_final(a)
  end subroutine cn_release

  ! True when a holds an array.
  logical function cn_associated(a)
    type(cn_array_t), intent(in) :: a
    cn_associated = c_associated(a%h)
  end function cn_associated

  ! Replaces what res holds by the new reference h.
  subroutine set_result(res, h)
    type(cn_array_t), intent(inout) :: res
    type(c_ptr), intent(in) :: h
    call cn_array_final(res)
    res%h = h
  end subroutine set_result

  ! Stores the result of a call that was given dst = res%h: a new reference
  ! to res itself when res held an array, else the new array.
  subroutine take_result(res, st, h)
    type(cn_array_t), intent(inout) :: res
    integer(c_int32_t), intent(in) :: st
    type(c_ptr), intent(in) :: h
    if (st /= CN_OK) return
    if (c_associated(res%h)) then
      call c_cn_array_release(h)
    else
      res%h = h
    end if
  end subroutine take_result

  ! ---- properties --------------------------------------------------------

  integer function cn_ndim(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: n(1), st
    n = 0
    st = c_cn_array_ndim(n, a%h)
    call handle(st, stat, errmsg)
    cn_ndim = int(n(1))
  end function cn_ndim

  integer(int64) function cn_size(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: n(1)
    integer(c_int32_t) :: st
    n = 0
    st = c_cn_array_size(n, a%h)
    call handle(st, stat, errmsg)
    cn_size = n(1)
  end function cn_size

  ! Extents, first dimension first (as Fortran's shape()).
  function cn_shape(a, stat, errmsg) result(s)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(int64), allocatable :: s(:)
    integer(c_int64_t) :: buf(CN_MAX_DIMS)
    integer(c_int32_t) :: n(1), st
    n = 0
    st = c_cn_array_ndim(n, a%h)
    if (st == CN_OK) st = c_cn_array_shape(buf, CN_MAX_DIMS, a%h)
    call handle(st, stat, errmsg)
    if (st /= CN_OK) n = 0
    s = buf(1:n(1))
  end function cn_shape

  integer(c_int32_t) function cn_dtype_of(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: dt(1), st
    dt = 0
    st = c_cn_array_dtype(dt, a%h)
    call handle(st, stat, errmsg)
    cn_dtype_of = dt(1)
  end function cn_dtype_of

  ! Reference count of the handle (for tests).
  integer(int64) function cn_refcount(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: n(1)
    integer(c_int32_t) :: st
    n = 0
    st = c_cn_array_refcount(n, a%h)
    call handle(st, stat, errmsg)
    cn_refcount = n(1)
  end function cn_refcount

  ! Address of element (1,...,1) (device memory for device arrays).
  type(c_ptr) function cn_data(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: p(1)
    integer(c_int32_t) :: st
    p = c_null_ptr
    st = c_cn_array_data(p, a%h)
    call handle(st, stat, errmsg)
    cn_data = p(1)
  end function cn_data

  ! ---- backends ----------------------------------------------------------

  ! Selects the backend for new arrays ("cpu"/"numpy", "cuda"/"cupy"); cuda
  ! falls back to cpu when unavailable (see cn_backend_name).
  subroutine cn_use_backend(name, stat, errmsg)
    character(*), intent(in) :: name
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call handle(c_cn_set_backend(trim(name)//c_null_char), stat, errmsg)
  end subroutine cn_use_backend

  ! Active backend ("cpu" or "cuda").
  function cn_backend_name() result(name)
    character(:), allocatable :: name
    name = c_string(c_cn_get_backend())
  end function cn_backend_name

  ! Why CUDA is unavailable ("" when it is available or was not asked for).
  function cn_unavailable_reason() result(reason)
    character(:), allocatable :: reason
    reason = c_string(c_cn_backend_unavailable_reason())
  end function cn_unavailable_reason

  ! ---- Fortran arrays in and out ---------------------------------------

  ! a becomes a zero-copy, column-major view of the Fortran array x (rank
  ! 0..7; real32/64, complex, int8..int64, logical(c_bool)), contiguous or
  ! a strided section. x is borrowed: it must be a variable with the TARGET
  ! (or POINTER) attribute, not an expression or a vector-subscripted
  ! section (those arrive as temporaries), and outlive a and every view
  ! made from a. readonly=.true.
  ! makes the view read-only. Not for component slices of derived-type
  ! arrays (pts%y): gfortran 12 passes those to a Fortran procedure as a
  ! temporary copy, so the view would outlive its memory; use
  ! cn_wrap_handle(a%h, pts%y, 0) for them.
  subroutine cn_wrap(a, x, readonly, stat, errmsg)
    type(cn_array_t), intent(inout) :: a
    type(*), dimension(..), target, intent(in) :: x
    logical, intent(in), optional :: readonly
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: ro
    ro = 0
    if (present(readonly)) then
      if (readonly) ro = 1
    end if
    call make(a, x, 0, ro, "cn_wrap", stat, errmsg)
  end subroutine cn_wrap

  ! a becomes a new array on the active backend holding a copy of x.
  subroutine cn_copy_in(a, x, stat, errmsg)
    type(cn_array_t), intent(inout) :: a
    type(*), dimension(..), intent(in) :: x
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call make(a, x, 1, 0, "cn_copy_in", stat, errmsg)
  end subroutine cn_copy_in

  subroutine make(a, x, copy, ro, fn, stat, errmsg)
    type(cn_array_t), intent(inout) :: a
    type(*), dimension(..), intent(in) :: x
    integer, intent(in) :: copy
    integer(c_int32_t), intent(in) :: ro
    character(*), intent(in) :: fn
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    integer(c_int32_t) :: st, last
    if (cn_f_dtype_of(x) == 0) then
      call fail(CN_ERR_TYPE, fn//": argument 'x' has an element type without a cunumpy "// &
                "dtype (use real32/real64, complex, int8..int64 or logical(c_bool))", &
                stat, errmsg)
      return
    end if
    ! cfi_wrap.c reports its own failure (a stride that is not a whole
    ! number of elements) without a message: the cleared error tells it
    ! apart from the core's
    call c_cn_clear_error()
    st = cn_f_import(h, x, int(copy, c_int32_t), ro)
    last = c_cn_last_status()
    if (st == CN_ERR_VALUE .and. last == CN_OK) then
      call fail(st, fn//": argument 'x' has a stride that is not a whole number of "// &
                "elements", stat, errmsg)
      return
    end if
    if (st == CN_OK) call set_result(a, h)
    call handle(st, stat, errmsg)
  end subroutine make

  ! Copies a (from any device) into the Fortran array x (same shape, or one
  ! that a broadcasts to; values cast as NumPy's unsafe casting).
  subroutine cn_copy_out(a, x, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    type(*), dimension(..), target, intent(inout) :: x
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(cn_array_t) :: view, host
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    call make(view, x, 0, 0_c_int32_t, "cn_copy_out", stat, errmsg)
    if (.not. c_associated(view%h)) return
    ! cn_assign refuses to mix devices: bring a to the host first (a new
    ! reference to a itself when it is there already)
    h = c_null_ptr
    st = c_cn_to_host(h, a%h)
    if (st == CN_OK) then
      host%h = h(1)
      st = c_cn_assign(view%h, host%h)
    end if
    call cn_release(view)
    call handle(st, stat, errmsg)
  end subroutine cn_copy_out

  ! Checks shared by the cn_pointer specifics.
  subroutine pointer_prepare(a, prank, dtype, base, nd, shp, strd, ok, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(in) :: prank
    integer(c_int32_t), intent(in) :: dtype
    type(c_ptr), intent(out) :: base
    integer(c_int32_t), intent(out) :: nd
    integer(c_int64_t), intent(out) :: shp(CN_MAX_DIMS), strd(CN_MAX_DIMS)
    logical, intent(out) :: ok
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: st, n(1), dt(1), dev(1), id(1)
    type(c_ptr) :: p(1)
    character(64) :: buf
    ok = .false.
    base = c_null_ptr
    nd = 0
    st = c_cn_array_ndim(n, a%h)
    if (st == CN_OK) st = c_cn_array_dtype(dt, a%h)
    if (st == CN_OK) st = c_cn_array_device(dev, id, a%h)
    if (st == CN_OK) st = c_cn_array_shape(shp, CN_MAX_DIMS, a%h)
    if (st == CN_OK) st = c_cn_array_strides(strd, CN_MAX_DIMS, a%h)
    if (st == CN_OK) st = c_cn_array_data(p, a%h)
    if (st /= CN_OK) then
      call handle(st, stat, errmsg)
      return
    end if
    if (n(1) /= prank) then
      write (buf, '(a,i0,a,i0)') "array ndim ", n(1), " vs pointer rank ", prank
      call fail(CN_ERR_SHAPE, "cn_pointer: argument 'p' has the wrong rank: "//trim(buf), &
                stat, errmsg)
      return
    end if
    if (dt(1) /= dtype) then
      call fail(CN_ERR_TYPE, "cn_pointer: argument 'p' does not match the array dtype "// &
                c_string(c_cn_dtype_name(dt(1))), stat, errmsg)
      return
    end if
    if (dev(1) /= CN_DEVICE_CPU) then
      call fail(CN_ERR_DEVICE, "cn_pointer: the array is in device memory; "// &
                "call cn_to_host first", stat, errmsg)
      return
    end if
    base = p(1)
    nd = n(1)
    ok = .true.
  end subroutine pointer_prepare

#define PNAME cn_pointer_r4
#define CNAME 'cn_f_set_pointer_r4'
#define FTYPE real(c_float)
#define DTYPE CN_FLOAT32
#include "cn_pointer.inc"
#define PNAME cn_pointer_r8
#define CNAME 'cn_f_set_pointer_r8'
#define FTYPE real(c_double)
#define DTYPE CN_FLOAT64
#include "cn_pointer.inc"
#define PNAME cn_pointer_c4
#define CNAME 'cn_f_set_pointer_c4'
#define FTYPE complex(c_float_complex)
#define DTYPE CN_COMPLEX64
#include "cn_pointer.inc"
#define PNAME cn_pointer_c8
#define CNAME 'cn_f_set_pointer_c8'
#define FTYPE complex(c_double_complex)
#define DTYPE CN_COMPLEX128
#include "cn_pointer.inc"
#define PNAME cn_pointer_i1
#define CNAME 'cn_f_set_pointer_i1'
#define FTYPE integer(c_int8_t)
#define DTYPE CN_INT8
#include "cn_pointer.inc"
#define PNAME cn_pointer_i2
#define CNAME 'cn_f_set_pointer_i2'
#define FTYPE integer(c_int16_t)
#define DTYPE CN_INT16
#include "cn_pointer.inc"
#define PNAME cn_pointer_i4
#define CNAME 'cn_f_set_pointer_i4'
#define FTYPE integer(c_int32_t)
#define DTYPE CN_INT32
#include "cn_pointer.inc"
#define PNAME cn_pointer_i8
#define CNAME 'cn_f_set_pointer_i8'
#define FTYPE integer(c_int64_t)
#define DTYPE CN_INT64
#include "cn_pointer.inc"
#define PNAME cn_pointer_l1
#define CNAME 'cn_f_set_pointer_l1'
#define FTYPE logical(c_bool)
#define DTYPE CN_BOOL
#include "cn_pointer.inc"
#define PNAME cn_pointer_f2
#define CNAME 'cn_f_set_pointer_i2'
#define FTYPE integer(c_int16_t)
#define DTYPE CN_FLOAT16
#include "cn_pointer.inc"

  ! ---- creation ----------------------------------------------------------

  ! A new array on the active backend filled with value (a cn_scalar:
  ! cn_scalar_of(1.5_real64), ...); dtype defaults to CN_FLOAT64 and order
  ! to CN_ORDER_F (column-major, as Fortran), as cn_empty/cn_zeros/cn_ones.
  subroutine cn_full(a, shape, value, dtype, order, stat, errmsg)
    type(cn_array_t), intent(inout) :: a
    integer, intent(in) :: shape(:)
    type(cn_scalar), intent(in) :: value
    integer(c_int32_t), intent(in), optional :: dtype, order
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: shp(max(1, size(shape)))
    integer(c_int32_t) :: dt, ord, nd, st
    type(c_ptr) :: h(1)
    call creation_args(shape, dtype, order, shp, nd, dt, ord)
    h = c_null_ptr
    st = c_cn_full(h, nd, shp, value, dt, ord)
    if (st == CN_OK) call set_result(a, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_full

  ! The C arguments of the creation functions (cn_empty, ...): shp holds
  ! shape (shp has max(1, size(shape)) elements), the defaults CN_FLOAT64
  ! and CN_ORDER_F.
  subroutine creation_args(shape, dtype, order, shp, nd, dt, ord)
    integer, intent(in) :: shape(:)
    integer(c_int32_t), intent(in), optional :: dtype, order
    integer(c_int64_t), intent(out) :: shp(:)
    integer(c_int32_t), intent(out) :: nd, dt, ord
    dt = CN_FLOAT64
    if (present(dtype)) dt = dtype
    ord = CN_ORDER_F
    if (present(order)) ord = order
    nd = int(size(shape), c_int32_t)
    shp = 0
    shp(1:size(shape)) = int(shape, c_int64_t)
  end subroutine creation_args

  ! A 0-d weak scalar (it takes the other operand's dtype within its kind,
  ! as a Python scalar in NumPy): cn_multiply(u, s, v) with s = 0.5 keeps
  ! float32 for float32 u.
  subroutine cn_weak_scalar(a, value, stat, errmsg)
    type(cn_array_t), intent(inout) :: a
    type(cn_scalar), intent(in) :: value
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    st = c_cn_scalar_array(h, value)
    if (st == CN_OK) call set_result(a, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_weak_scalar

  type(cn_scalar) function scalar_i4(v) result(s)
    integer(int32), intent(in) :: v
    s = cn_scalar(CN_SCALAR_INT, 0, int(v, c_int64_t), 0.0_c_double, 0.0_c_double)
  end function scalar_i4
  type(cn_scalar) function scalar_i8(v) result(s)
    integer(int64), intent(in) :: v
    s = cn_scalar(CN_SCALAR_INT, 0, v, 0.0_c_double, 0.0_c_double)
  end function scalar_i8
  type(cn_scalar) function scalar_r4(v) result(s)
    real(real32), intent(in) :: v
    s = cn_scalar(CN_SCALAR_FLOAT, 0, 0_c_int64_t, real(v, c_double), 0.0_c_double)
  end function scalar_r4
  type(cn_scalar) function scalar_r8(v) result(s)
    real(real64), intent(in) :: v
    s = cn_scalar(CN_SCALAR_FLOAT, 0, 0_c_int64_t, v, 0.0_c_double)
  end function scalar_r8
  type(cn_scalar) function scalar_c4(v) result(s)
    complex(real32), intent(in) :: v
    s = cn_scalar(CN_SCALAR_COMPLEX, 0, 0_c_int64_t, real(v%re, c_double), &
                  real(v%im, c_double))
  end function scalar_c4
  type(cn_scalar) function scalar_c8(v) result(s)
    complex(real64), intent(in) :: v
    s = cn_scalar(CN_SCALAR_COMPLEX, 0, 0_c_int64_t, v%re, v%im)
  end function scalar_c8
  type(cn_scalar) function scalar_l(v) result(s)
    logical, intent(in) :: v
    s = cn_scalar(CN_SCALAR_BOOL, 0, merge(1_c_int64_t, 0_c_int64_t, v), 0.0_c_double, &
                  0.0_c_double)
  end function scalar_l

  ! ---- values of one-element arrays ---------------------------------------

  subroutine item(a, s, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    type(cn_scalar), intent(out) :: s
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(cn_scalar) :: buf(1)
    integer(c_int32_t) :: st
    buf(1) = cn_scalar(CN_SCALAR_INT, 0, 0_c_int64_t, 0.0_c_double, 0.0_c_double)
    st = c_cn_item(buf, a%h)
    s = buf(1)
    call handle(st, stat, errmsg)
  end subroutine item

  ! Value of a one-element array as real64 (the real part of a complex).
  real(real64) function cn_item_real64(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(cn_scalar) :: s
    call item(a, s, stat, errmsg)
    select case (s%kind)
    case (CN_SCALAR_FLOAT, CN_SCALAR_COMPLEX)
      cn_item_real64 = s%re
    case default
      cn_item_real64 = real(s%i, real64)
    end select
  end function cn_item_real64

  ! Value of a one-element integer or bool array (floats truncate).
  integer(int64) function cn_item_int64(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(cn_scalar) :: s
    call item(a, s, stat, errmsg)
    select case (s%kind)
    case (CN_SCALAR_FLOAT, CN_SCALAR_COMPLEX)
      cn_item_int64 = int(s%re, int64)
    case default
      cn_item_int64 = s%i
    end select
  end function cn_item_int64

  complex(real64) function cn_item_complex128(a, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(cn_scalar) :: s
    call item(a, s, stat, errmsg)
    select case (s%kind)
    case (CN_SCALAR_FLOAT, CN_SCALAR_COMPLEX)
      cn_item_complex128 = cmplx(s%re, s%im, real64)
    case default
      cn_item_complex128 = cmplx(real(s%i, real64), 0.0_real64, real64)
    end select
  end function cn_item_complex128

  ! ---- copies, views -----------------------------------------------------

  ! b becomes a copy of a (order CN_ORDER_F by default).
  subroutine cn_copy(a, b, order, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    type(cn_array_t), intent(inout) :: b
    integer(c_int32_t), intent(in), optional :: order
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st, ord
    ord = CN_ORDER_F
    if (present(order)) ord = order
    st = c_cn_copy(h, a%h, ord)
    if (st == CN_OK) call set_result(b, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_copy

  ! dst(...) = src with broadcasting and unsafe casting.
  subroutine cn_assign(dst, src, stat, errmsg)
    type(cn_array_t), intent(in) :: dst, src
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call handle(c_cn_assign(dst%h, src%h), stat, errmsg)
  end subroutine cn_assign

  subroutine cn_fill(dst, value, stat, errmsg)
    type(cn_array_t), intent(in) :: dst
    type(cn_scalar), intent(in) :: value
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call handle(c_cn_fill(dst%h, value), stat, errmsg)
  end subroutine cn_fill

  ! v becomes the view a(..., first:last:step, ...) along dimension dim,
  ! with Fortran's rules: 1-based inclusive bounds, any non-zero step, an
  ! empty section when the bounds are crossed, CN_ERR_INDEX when a selected
  ! index is outside 1..extent, CN_ERR_AXIS for a dim outside 1..rank.
  subroutine cn_section(v, a, dim, first, last, step, stat, errmsg)
    type(cn_array_t), intent(inout) :: v
    type(cn_array_t), intent(in) :: a
    integer, intent(in) :: dim, first, last
    integer, intent(in), optional :: step
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: ext(1), start, stop, inc, final_index
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    character(120) :: buf
    inc = 1
    if (present(step)) inc = step
    if (inc == 0) then
      call fail(CN_ERR_VALUE, "cn_section: argument 'step' is 0", stat, errmsg)
      return
    end if
    if (dim < 1) then
      write (buf, '(a,i0)') "cn_section: argument 'dim' must be >= 1, got ", dim
      call fail(CN_ERR_AXIS, trim(buf), stat, errmsg)
      return
    end if
    ext = 0
    st = c_cn_array_dim(ext, a%h, int(dim - 1, c_int32_t))
    if (st /= CN_OK) then
      call handle(st, stat, errmsg)
      return
    end if
    if ((inc > 0 .and. first > last) .or. (inc < 0 .and. first < last)) then
      start = 0 ! empty section
      stop = 0
      inc = 1
    else
      final_index = first + ((last - first) / inc) * inc
      if (first < 1 .or. first > ext(1) .or. final_index < 1 .or. final_index > ext(1)) then
        write (buf, '(a,i0,a,i0,a,i0,a,i0)') "cn_section: section ", first, ":", last, &
          " is out of bounds for dimension ", dim, " of extent ", ext(1)
        call fail(CN_ERR_INDEX, trim(buf), stat, errmsg)
        return
      end if
      start = first - 1
      if (inc > 0) then
        stop = final_index
      else
        stop = final_index - 2
        if (stop < 0) stop = CN_SLICE_NONE
      end if
    end if
    st = c_cn_slice_axis(h, a%h, int(dim - 1, c_int32_t), start, stop, inc)
    if (st == CN_OK) call set_result(v, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_section

  ! t becomes the transposed view of a (dimensions reversed).
  subroutine cn_transpose(a, t, stat, errmsg)
    type(cn_array_t), intent(in) :: a
    type(cn_array_t), intent(inout) :: t
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    st = c_cn_transpose(h, a%h)
    if (st == CN_OK) call set_result(t, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_transpose

  ! ---- elementwise ops (core/ops.def) -----------------------------------

  ! y = op(inputs...) for any op of the table by name (cn_op_name lists
  ! them); y receives the result as described at the top.
  subroutine cn_apply(name, inputs, y, stat, errmsg)
    character(*), intent(in) :: name
    type(cn_array_t), intent(in) :: inputs(:)
    type(cn_array_t), intent(inout) :: y
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: hs(max(1, size(inputs))), h(1)
    integer(c_int32_t) :: st
    integer :: i
    hs = c_null_ptr
    do i = 1, size(inputs)
      hs(i) = inputs(i)%h
    end do
    h = c_null_ptr
    st = c_cn_ufunc(h, trim(name)//c_null_char, int(size(inputs), c_int32_t), hs, y%h)
    call take_result(y, st, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_apply

  subroutine cn_unary(name, x, y, stat, errmsg)
    character(*), intent(in) :: name
    type(cn_array_t), intent(in) :: x
    type(cn_array_t), intent(inout) :: y
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: hs(1), h(1)
    integer(c_int32_t) :: st
    hs(1) = x%h
    h = c_null_ptr
    st = c_cn_ufunc(h, trim(name)//c_null_char, 1_c_int32_t, hs, y%h)
    call take_result(y, st, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_unary

  subroutine cn_binary(name, x1, x2, y, stat, errmsg)
    character(*), intent(in) :: name
    type(cn_array_t), intent(in) :: x1, x2
    type(cn_array_t), intent(inout) :: y
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: hs(2), h(1)
    integer(c_int32_t) :: st
    hs(1) = x1%h
    hs(2) = x2%h
    h = c_null_ptr
    st = c_cn_ufunc(h, trim(name)//c_null_char, 2_c_int32_t, hs, y%h)
    call take_result(y, st, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_binary

  ! ---- reductions --------------------------------------------------------

  ! The C arguments of the reductions (cn_reduce, cn_sum, ...): dim
  ! (1-based) as one axis, all axes when absent; keepdims as 0/1; the
  ! default accumulator dtype.
  subroutine reduce_axes(dim, keepdims, dtype, naxes, ax, kd, dt)
    integer, intent(in), optional :: dim
    logical, intent(in), optional :: keepdims
    integer(c_int32_t), intent(in), optional :: dtype
    integer(c_int32_t), intent(out) :: naxes, ax(1), kd, dt
    naxes = CN_ALL_AXES
    ax = 0
    if (present(dim)) then
      naxes = 1
      ! dim < 1 stays invalid after the shift instead of counting from the end
      ax(1) = int(dim - 1, c_int32_t)
      if (dim < 1) ax(1) = -huge(ax(1))
    end if
    kd = 0
    if (present(keepdims)) then
      if (keepdims) kd = 1
    end if
    dt = CN_DTYPE_DEFAULT
    if (present(dtype)) dt = dtype
  end subroutine reduce_axes


  ! ---- linear algebra ----------------------------------------------------

  ! c = matmul(a, b) (as Fortran's matmul on the column-major views; c
  ! receives the result as described at the top).
  subroutine cn_matmul(a, b, c, stat, errmsg)
    type(cn_array_t), intent(in) :: a, b
    type(cn_array_t), intent(inout) :: c
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    h = c_null_ptr
    st = c_cn_matmul(h, a%h, b%h, c%h)
    call take_result(c, st, h(1))
    call handle(st, stat, errmsg)
  end subroutine cn_matmul

  ! ---- FFT -----------------------------------------------------------------

  ! The C arguments of the 1-d transforms (cn_fft, ...): the defaults
  ! CN_FFT_N_NONE, dimension 1 and CN_FFT_NORM_BACKWARD.
  subroutine fft_args(dim, n, norm, nn, axis, nrm)
    integer, intent(in), optional :: dim, n
    integer(c_int32_t), intent(in), optional :: norm
    integer(c_int64_t), intent(out) :: nn
    integer(c_int32_t), intent(out) :: axis, nrm
    nn = CN_FFT_N_NONE
    if (present(n)) nn = n
    axis = 0
    if (present(dim)) then
      axis = int(dim - 1, c_int32_t)
      ! dim < 1 stays invalid instead of counting from the end
      if (dim < 1) axis = -huge(axis)
    end if
    nrm = CN_FFT_NORM_BACKWARD
    if (present(norm)) nrm = norm
  end subroutine fft_args

  ! ---- custom kernels (cunumpy/kernel.h) ---------------------------------

  subroutine assign_kernel(lhs, rhs)
    class(cn_kernel_t), intent(inout) :: lhs
    type(cn_kernel_t), intent(in) :: rhs
    integer(c_int32_t) :: st
    type(c_ptr) :: old
    if (c_associated(rhs%h)) st = c_cn_kernel_retain(rhs%h)
    old = lhs%h
    lhs%h = rhs%h
    if (c_associated(old)) call c_cn_kernel_release(old)
  end subroutine assign_kernel

  impure elemental subroutine cn_kernel_final(self)
    type(cn_kernel_t), intent(inout) :: self
    if (c_associated(self%h)) call c_cn_kernel_release(self%h)
    self%h = c_null_ptr
  end subroutine cn_kernel_final

  subroutine assign_module(lhs, rhs)
    class(cn_cuda_module_t), intent(inout) :: lhs
    type(cn_cuda_module_t), intent(in) :: rhs
    type(c_ptr) :: old
    if (c_associated(rhs%h)) call c_cn_cuda_module_retain(rhs%h)
    old = lhs%h
    lhs%h = rhs%h
    if (c_associated(old)) call c_cn_cuda_module_release(old)
  end subroutine assign_module

  impure elemental subroutine cn_cuda_module_final(self)
    type(cn_cuda_module_t), intent(inout) :: self
    if (c_associated(self%h)) call c_cn_cuda_module_release(self%h)
    self%h = c_null_ptr
  end subroutine cn_cuda_module_final

  subroutine assign_function(lhs, rhs)
    class(cn_cuda_function_t), intent(inout) :: lhs
    type(cn_cuda_function_t), intent(in) :: rhs
    type(c_ptr) :: old
    if (c_associated(rhs%h)) call c_cn_cuda_function_retain(rhs%h)
    old = lhs%h
    lhs%h = rhs%h
    if (c_associated(old)) call c_cn_cuda_function_release(old)
  end subroutine assign_function

  impure elemental subroutine cn_cuda_function_final(self)
    type(cn_cuda_function_t), intent(inout) :: self
    if (c_associated(self%h)) call c_cn_cuda_function_release(self%h)
    self%h = c_null_ptr
  end subroutine cn_cuda_function_final

  ! NUL-terminated text of an optional argument ("" when absent: the C
  ! side's "none").
  function c_text(s) result(t)
    character(*), intent(in), optional :: s
    character(:), allocatable :: t
    if (present(s)) then
      t = s//c_null_char
    else
      t = c_null_char
    end if
  end function c_text

  ! Elementwise kernel in CuPy's grammar: in_params / out_params such as
  ! 'float64 x, T y' / 'T z', operation a C body such as 'z = (x - y) * (x - y)'.
  ! Nothing is compiled until the first cn_kernel_call. k receives the kernel.
  subroutine cn_elementwise_kernel(k, in_params, out_params, operation, name, preamble, &
                                   loop_prep, after_loop, options, stat, errmsg)
    type(cn_kernel_t), intent(inout) :: k
    character(*), intent(in) :: in_params, out_params, operation
    character(*), intent(in), optional :: name, preamble, loop_prep, after_loop, options
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    h = c_null_ptr
    st = c_cn_elementwise_kernel_create(h, in_params//c_null_char, out_params//c_null_char, &
                                        operation//c_null_char, c_text(name), c_text(preamble), &
                                        c_text(loop_prep), c_text(after_loop), c_text(options))
    if (st == CN_OK) then
      call cn_kernel_final(k)
      k%h = h(1)
    end if
    call handle(st, stat, errmsg)
  end subroutine cn_elementwise_kernel

  ! Reduction kernel in CuPy's ReductionKernel order: map_expr over the
  ! elements, reduce_expr of a and b, post_map_expr writing the output from
  ! a, and the identity; reduce_type is the accumulator's type (default:
  ! the output's).
  subroutine cn_reduction_kernel(k, in_params, out_params, map_expr, reduce_expr, &
                                 post_map_expr, identity, name, reduce_type, preamble, &
                                 options, stat, errmsg)
    type(cn_kernel_t), intent(inout) :: k
    character(*), intent(in) :: in_params, out_params, map_expr, reduce_expr, post_map_expr, &
      identity
    character(*), intent(in), optional :: name, reduce_type, preamble, options
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    h = c_null_ptr
    st = c_cn_reduction_kernel_create(h, in_params//c_null_char, out_params//c_null_char, &
                                      map_expr//c_null_char, reduce_expr//c_null_char, &
                                      post_map_expr//c_null_char, identity//c_null_char, &
                                      c_text(name), c_text(reduce_type), c_text(preamble), &
                                      c_text(options))
    if (st == CN_OK) then
      call cn_kernel_final(k)
      k%h = h(1)
    end if
    call handle(st, stat, errmsg)
  end subroutine cn_reduction_kernel

  ! The C argument list of a kernel call: the inputs, then the outputs when
  ! every one of them holds an array (written in place), none when none
  ! does (the engine allocates them). A count that is not the kernel's, or
  ! some outputs but not all, is CN_ERR_VALUE with msg.
  subroutine kernel_args(k, inputs, outs, hs, n, st, msg)
    type(cn_kernel_t), intent(in) :: k
    type(cn_array_t), intent(in) :: inputs(:), outs(:)
    type(c_ptr), intent(out) :: hs(:)
    integer(c_int32_t), intent(out) :: n, st
    character(:), allocatable, intent(out) :: msg
    integer :: i, given
    integer(c_int32_t) :: nin(1), nout(1)
    character(kind=c_char), target :: name(128)
    character(16) :: counts(4)
    hs = c_null_ptr
    msg = ""
    n = 0
    st = c_cn_kernel_nin(nin, k%h)
    if (st == CN_OK) st = c_cn_kernel_nout(nout, k%h)
    if (st == CN_OK) st = c_cn_kernel_name(name, size(name, kind=c_int64_t), k%h)
    if (st /= CN_OK) then
      msg = cn_error_message()
      return
    end if
    if (size(inputs) /= nin(1) .or. size(outs) /= nout(1)) then
      write (counts, '(i0)') nin(1), nout(1), size(inputs), size(outs)
      msg = "kernel '"//c_string(c_loc(name))//"' takes "//trim(counts(1))//" inputs and " &
            //trim(counts(2))//" outputs, got "//trim(counts(3))//" and "//trim(counts(4))
      st = CN_ERR_VALUE
      return
    end if
    do i = 1, size(inputs)
      hs(i) = inputs(i)%h
    end do
    n = int(size(inputs), c_int32_t)
    given = count([(c_associated(outs(i)%h), i = 1, size(outs))])
    if (given == size(outs) .and. given > 0) then
      do i = 1, size(outs)
        hs(size(inputs) + i) = outs(i)%h
      end do
      n = n + int(size(outs), c_int32_t)
    else if (given /= 0) then
      msg = "kernel '"//c_string(c_loc(name))//"': give every output or none"
      st = CN_ERR_VALUE
    end if
  end subroutine kernel_args

  ! Runs an elementwise kernel on inputs (arrays or cn_weak_scalar scalars)
  ! where they live. outs(:) has one entry per output parameter: when all
  ! hold arrays the kernel writes into them, when none does they receive
  ! new arrays of the broadcast shape. size: the index range when every
  ! argument is raw.
  subroutine cn_kernel_call(k, inputs, outs, size, stat, errmsg)
    type(cn_kernel_t), intent(in) :: k
    type(cn_array_t), intent(in) :: inputs(:)
    type(cn_array_t), intent(inout) :: outs(:)
    integer(int64), intent(in), optional :: size
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: hs(max(1, ubound(inputs, 1) + ubound(outs, 1))), res(max(1, ubound(outs, 1)))
    integer(c_int32_t) :: st, n
    integer(c_int64_t) :: sz
    character(:), allocatable :: msg
    integer :: i
    call kernel_args(k, inputs, outs, hs, n, st, msg)
    if (st /= CN_OK) then
      call fail(st, "cn_kernel_call: "//msg, stat, errmsg)
      return
    end if
    sz = -1
    if (present(size)) sz = size
    res = c_null_ptr
    st = c_cn_kernel_call(res, int(ubound(res, 1), c_int32_t), k%h, n, hs, sz)
    if (st == CN_OK) then
      do i = 1, ubound(outs, 1)
        call take_result(outs(i), st, res(i))
      end do
    end if
    call handle(st, stat, errmsg)
  end subroutine cn_kernel_call

  ! Runs a reduction kernel over dimension dim (1-based; all when absent)
  ! of the broadcast inputs; y is written in place when it holds an array
  ! of the result's shape, else receives a new one.
  subroutine cn_kernel_reduce(k, inputs, y, dim, keepdims, stat, errmsg)
    type(cn_kernel_t), intent(in) :: k
    type(cn_array_t), intent(in) :: inputs(:)
    type(cn_array_t), intent(inout) :: y
    integer, intent(in), optional :: dim
    logical, intent(in), optional :: keepdims
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: hs(ubound(inputs, 1) + 1), res(1)
    type(cn_array_t) :: outs(1)
    integer(c_int32_t) :: st, n, naxes, ax(1), kd, dt
    character(:), allocatable :: msg
    outs(1) = y
    call kernel_args(k, inputs, outs, hs, n, st, msg)
    if (st /= CN_OK) then
      call fail(st, "cn_kernel_reduce: "//msg, stat, errmsg)
      return
    end if
    call reduce_axes(dim, keepdims, CN_DTYPE_DEFAULT, naxes, ax, kd, dt)
    res = c_null_ptr
    st = c_cn_kernel_reduce(res, 1_c_int32_t, k%h, n, hs, naxes, ax, kd)
    call take_result(y, st, res(1))
    call handle(st, stat, errmsg)
  end subroutine cn_kernel_reduce

  ! Compiles CUDA C++ source (extern "C" __global__ functions) with NVRTC:
  ! options(:) are NVRTC options such as '-DN=4', name_expressions(:) the
  ! C++ template instances to look up. arch (major*10+minor) compiles PTX
  ! without a GPU; absent or 0 compiles for the current device.
  subroutine cn_cuda_module_compile(m, source, name, options, name_expressions, arch, &
                                    stat, errmsg)
    type(cn_cuda_module_t), intent(inout) :: m
    character(*), intent(in) :: source
    character(*), intent(in), optional :: name
    character(*), intent(in), optional :: options(:), name_expressions(:)
    integer, intent(in), optional :: arch
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st, a
    character(:), allocatable :: opts, names
    opts = ""
    names = ""
    if (present(options)) opts = joined(options)
    if (present(name_expressions)) names = joined(name_expressions)
    a = 0
    if (present(arch)) a = int(arch, c_int32_t)
    h = c_null_ptr
    st = c_cn_cuda_module_from_source(h, source//c_null_char, c_text(name), &
                                      opts//c_null_char, names//c_null_char, a)
    if (st == CN_OK) then
      call cn_cuda_module_final(m)
      m%h = h(1)
    end if
    call handle(st, stat, errmsg)
  contains
    function joined(items) result(t)
      character(*), intent(in) :: items(:)
      character(:), allocatable :: t
      integer :: i
      t = ""
      do i = 1, ubound(items, 1)
        if (i > 1) t = t//new_line('a')
        t = t//trim(items(i))
      end do
    end function joined
  end subroutine cn_cuda_module_compile

  ! A module from a PTX, CUBIN or fatbin file (loaded on first use).
  subroutine cn_cuda_module_load(m, path, stat, errmsg)
    type(cn_cuda_module_t), intent(inout) :: m
    character(*), intent(in) :: path
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    h = c_null_ptr
    st = c_cn_cuda_module_from_file(h, path//c_null_char)
    if (st == CN_OK) then
      call cn_cuda_module_final(m)
      m%h = h(1)
    end if
    call handle(st, stat, errmsg)
  end subroutine cn_cuda_module_load

  ! The module's PTX text ("" for a CUBIN or fatbin image).
  function cn_cuda_module_ptx(m, stat, errmsg) result(ptx)
    type(cn_cuda_module_t), intent(in) :: m
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    character(:), allocatable :: ptx
    integer(c_int64_t) :: n(1)
    integer(c_int32_t) :: st, is_ptx(1)
    character(kind=c_char), allocatable, target :: buf(:)
    integer(c_int64_t) :: i
    ptx = ""
    st = c_cn_cuda_module_is_ptx(is_ptx, m%h)
    if (st == CN_OK) st = c_cn_cuda_module_image_size(n, m%h)
    if (st == CN_OK .and. is_ptx(1) == 1) then
      allocate (buf(max(1_c_int64_t, n(1))))
      st = c_cn_cuda_module_image(c_loc(buf), n(1), m%h)
      if (st == CN_OK) then
        deallocate (ptx)
        allocate (character(max(0_c_int64_t, n(1) - 1)) :: ptx)
        do i = 1, n(1) - 1
          ptx(i:i) = buf(i)
        end do
      end if
    end if
    call handle(st, stat, errmsg)
  end function cn_cuda_module_ptx

  ! The kernel called name (C name, lowered name or name expression).
  subroutine cn_cuda_get_function(f, m, name, stat, errmsg)
    type(cn_cuda_function_t), intent(inout) :: f
    type(cn_cuda_module_t), intent(in) :: m
    character(*), intent(in) :: name
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h(1)
    integer(c_int32_t) :: st
    h = c_null_ptr
    st = c_cn_cuda_module_get_function(h, m%h, name//c_null_char)
    if (st == CN_OK) then
      call cn_cuda_function_final(f)
      f%h = h(1)
    end if
    call handle(st, stat, errmsg)
  end subroutine cn_cuda_get_function

  ! Launches f with grid(:) blocks of block(:) threads (1 to 3 entries
  ! each) on the current stream; args(:) from cn_arg. Arrays must live on
  ! the current CUDA device (raw kernels never copy).
  subroutine cn_cuda_launch(f, grid, block, args, shared_mem, stat, errmsg)
    type(cn_cuda_function_t), intent(in) :: f
    integer, intent(in) :: grid(:), block(:)
    type(cn_kernel_arg_t), intent(in) :: args(:)
    integer(int64), intent(in), optional :: shared_mem
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(cn_kernel_arg_t), target :: a(max(1, ubound(args, 1)))
    type(c_ptr) :: arrays(max(1, ubound(args, 1))), values(max(1, ubound(args, 1)))
    integer(c_int64_t) :: sizes(max(1, ubound(args, 1))), g(3), b(3), shm
    integer(c_int32_t) :: st
    integer :: i
    if (ubound(grid, 1) < 1 .or. ubound(grid, 1) > 3 .or. &
        ubound(block, 1) < 1 .or. ubound(block, 1) > 3) then
      call fail(CN_ERR_VALUE, "cn_cuda_launch: grid and block take 1 to 3 extents", &
                stat, errmsg)
      return
    end if
    g = 1
    b = 1
    g(1:ubound(grid, 1)) = grid
    b(1:ubound(block, 1)) = block
    shm = 0
    if (present(shared_mem)) shm = shared_mem
    arrays = c_null_ptr
    values = c_null_ptr
    sizes = 0
    do i = 1, ubound(args, 1)
      a(i) = args(i)
      arrays(i) = a(i)%array
      if (.not. c_associated(a(i)%array)) then
        values(i) = c_loc(a(i)%bytes)
        sizes(i) = a(i)%nbytes
      end if
    end do
    st = c_cn_cuda_function_launch(f%h, g, b, shm, c_null_ptr, 0_c_int32_t, &
                                   int(ubound(args, 1), c_int32_t), arrays, values, sizes)
    call handle(st, stat, errmsg)
  end subroutine cn_cuda_launch

  type(cn_kernel_arg_t) function arg_array(x) result(a)
    type(cn_array_t), intent(in) :: x
    a%array = x%h
  end function arg_array
  type(cn_kernel_arg_t) function arg_i4(v) result(a)
    integer(int32), intent(in) :: v
    a%bytes(1:4) = transfer(v, a%bytes(1:4))
    a%nbytes = 4
  end function arg_i4
  type(cn_kernel_arg_t) function arg_i8(v) result(a)
    integer(int64), intent(in) :: v
    a%bytes(1:8) = transfer(v, a%bytes(1:8))
    a%nbytes = 8
  end function arg_i8
  type(cn_kernel_arg_t) function arg_r4(v) result(a)
    real(real32), intent(in) :: v
    a%bytes(1:4) = transfer(v, a%bytes(1:4))
    a%nbytes = 4
  end function arg_r4
  type(cn_kernel_arg_t) function arg_r8(v) result(a)
    real(real64), intent(in) :: v
    a%bytes(1:8) = transfer(v, a%bytes(1:8))
    a%nbytes = 8
  end function arg_r8
  type(cn_kernel_arg_t) function arg_c4(v) result(a)
    complex(real32), intent(in) :: v
    a%bytes(1:8) = transfer(v, a%bytes(1:8))
    a%nbytes = 8
  end function arg_c4
  type(cn_kernel_arg_t) function arg_c8(v) result(a)
    complex(real64), intent(in) :: v
    a%bytes = transfer(v, a%bytes)
    a%nbytes = 16
  end function arg_c8
  ! ---- expressions ---------------------------------------------------------

  ! Expressions in numexpr's syntax (include/cunumpy/expr.h), evaluated in
  ! one fused pass. inputs(i) is bound to names(i), or, without names, to
  ! the i-th name the text reads in order of first appearance ('a*b + c'
  ! reads a, b, c). Axes in the text (sum(x, axis=0)) are the engine's,
  ! from 0: axis=0 is dim=1. The result goes into y as for the elementwise
  ! ops: into the array y holds (same-kind casting), else a new array.

  ! The handle compiled from text for the inputs' dtypes and ndims; ok is
  ! false after a failure (reported through fail/handle).
  subroutine expr_compile_for(h, text, inputs, names, fn, ok, stat, errmsg)
    type(c_ptr), intent(out) :: h
    character(*), intent(in) :: text, fn
    type(cn_array_t), intent(in) :: inputs(:)
    character(*), intent(in), optional :: names(:)
    logical, intent(out) :: ok
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: parsed(1), res(1), np(1)
    type(c_ptr), allocatable :: ptrs(:)
    character(kind=c_char), allocatable, target :: buf(:)
    integer(c_int32_t), allocatable :: dts(:), nds(:)
    integer(c_int32_t) :: v(1), st, cnt(1)
    integer :: i, j, k, n
    character(24) :: a1, a2
    h = c_null_ptr
    ok = .false.
    n = size(inputs)
    allocate (ptrs(max(1, n)), dts(max(1, n)), nds(max(1, n)))
    ptrs = c_null_ptr
    dts = 0
    nds = 0
    do i = 1, n
      v = 0
      st = c_cn_array_dtype(v, inputs(i)%h)
      if (st /= CN_OK) then
        call handle(st, stat, errmsg)
        return
      end if
      dts(i) = v(1)
      st = c_cn_array_ndim(v, inputs(i)%h)
      nds(i) = v(1)
    end do
    parsed = c_null_ptr
    if (present(names)) then
      if (size(names) /= n) then
        write (a1, '(i0)') size(names)
        write (a2, '(i0)') n
        call fail(CN_ERR_VALUE, fn//': '//trim(a1)//' names for '//trim(a2)// &
                  ' inputs', stat, errmsg)
        return
      end if
      allocate (buf(max(1, n * (len(names) + 1))))
      k = 1
      do i = 1, n
        ptrs(i) = c_loc(buf(k))
        do j = 1, len_trim(names(i))
          buf(k) = names(i)(j:j)
          k = k + 1
        end do
        buf(k) = c_null_char
        k = k + 1
      end do
    else
      ! the names the text reads, owned by the parsed handle until the end
      st = c_cn_expr_parse(parsed, text//c_null_char)
      if (st /= CN_OK) then
        call handle(st, stat, errmsg)
        return
      end if
      cnt = 0
      st = c_cn_expr_variable_count(cnt, parsed(1))
      if (cnt(1) /= n) then
        call c_cn_expr_release(parsed(1))
        write (a1, '(i0)') cnt(1)
        write (a2, '(i0)') n
        call fail(CN_ERR_VALUE, fn//': the expression reads '//trim(a1)// &
                  ' names but '//trim(a2)//' inputs were given', stat, errmsg)
        return
      end if
      do i = 1, n
        np = c_null_ptr
        st = c_cn_expr_variable_name(np, parsed(1), int(i - 1, c_int32_t))
        ptrs(i) = np(1)
      end do
    end if
    res = c_null_ptr
    st = c_cn_expr_compile(res, text//c_null_char, int(n, c_int32_t), ptrs, &
                           dts, nds)
    if (c_associated(parsed(1))) call c_cn_expr_release(parsed(1))
    call handle(st, stat, errmsg)
    if (st /= CN_OK) return
    h = res(1)
    ok = .true.
  end subroutine expr_compile_for

  subroutine expr_run(h, inputs, y, stat, errmsg)
    type(c_ptr), intent(in) :: h
    type(cn_array_t), intent(in) :: inputs(:)
    type(cn_array_t), intent(inout) :: y
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: hs(max(1, size(inputs))), res(1)
    integer(c_int32_t) :: st
    integer :: i
    hs = c_null_ptr
    do i = 1, size(inputs)
      hs(i) = inputs(i)%h
    end do
    res = c_null_ptr
    st = c_cn_expr_evaluate(res, h, int(size(inputs), c_int32_t), hs, y%h, &
                            CN_CAST_SAME_KIND)
    call take_result(y, st, res(1))
    call handle(st, stat, errmsg)
  end subroutine expr_run

  ! y = the value of text over inputs (cn_evaluate: parsed, compiled and
  ! evaluated in one call). Errors: those of cn_expr_compile and
  ! cn_expr_evaluate, and CN_ERR_VALUE when the inputs do not match the
  ! names.
  subroutine cn_evaluate(text, inputs, y, names, stat, errmsg)
    character(*), intent(in) :: text
    type(cn_array_t), intent(in) :: inputs(:)
    type(cn_array_t), intent(inout) :: y
    character(*), intent(in), optional :: names(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    logical :: ok
    call expr_compile_for(h, text, inputs, names, "cn_evaluate", ok, stat, &
                          errmsg)
    if (.not. ok) return
    call expr_run(h, inputs, y, stat, errmsg)
    call c_cn_expr_release(h)
  end subroutine cn_evaluate

  ! Compiles text into e for inputs of the dtypes and ndims of the given
  ! arrays (their values are not read), replacing what e held.
  subroutine cn_expr_compile(e, text, inputs, names, stat, errmsg)
    type(cn_expr_t), intent(inout) :: e
    character(*), intent(in) :: text
    type(cn_array_t), intent(in) :: inputs(:)
    character(*), intent(in), optional :: names(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: h
    logical :: ok
    call expr_compile_for(h, text, inputs, names, "cn_expr_compile", ok, &
                          stat, errmsg)
    if (.not. ok) return
    call cn_expr_final(e)
    e%h = h
  end subroutine cn_expr_compile

  ! y = the value of compiled e over inputs (of the compiled dtypes and
  ! ndims, any shapes that broadcast). Errors: cn_expr_evaluate's
  ! (CN_ERR_VALUE for an e never compiled).
  subroutine cn_expr_evaluate(e, inputs, y, stat, errmsg)
    type(cn_expr_t), intent(in) :: e
    type(cn_array_t), intent(in) :: inputs(:)
    type(cn_array_t), intent(inout) :: y
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call expr_run(e%h, inputs, y, stat, errmsg)
  end subroutine cn_expr_evaluate

  impure elemental subroutine cn_expr_final(self)
    type(cn_expr_t), intent(inout) :: self
    if (c_associated(self%h)) call c_cn_expr_release(self%h)
    self%h = c_null_ptr
  end subroutine cn_expr_final

  ! Frees the compiled program now.
  impure elemental subroutine cn_expr_release(e)
    type(cn_expr_t), intent(inout) :: e
    call cn_expr_final(e)
  end subroutine cn_expr_release

  ! ---- generated -----------------------------------------------------------

  ! The procedures for every C function of a known signature shape
  ! (elementwise ops, reductions with cn_reduce, 1-d FFTs, creation,
  ! functions of one or two arrays), written by tools/gen_bindings.py
  ! (a Fortran include: cpp would take "/*" in its comments for C).
  include "cunumpy_wrappers.inc"

end module cunumpy
