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
