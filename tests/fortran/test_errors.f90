! Error paths with stat=/errmsg=: the status code, cunumpy's message, and
! results and inputs left untouched.
program test_errors
  use cunumpy
  use testing
  implicit none

  call shape_mismatch()
  call unknown_names()
  call bad_dimensions()
  call pointer_mismatch()
  call unsupported_fortran_types()
  call released_handles()
  call success_clears_stat()
  call linear_algebra_failures()
  call finish()

contains

  subroutine shape_mismatch()
    real(real64), target :: a(3), b(4), c(3)
    type(cn_array_t) :: av, bv, cv, fresh
    integer :: st
    character(300) :: msg
    a = [1, 2, 3]
    b = [4, 5, 6, 7]
    c = -1
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    call cn_wrap(cv, c)
    call cn_add(av, bv, cv, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_SHAPE, msg, "broadcast", "add (3) + (4)")
    call check(all(c == -1), "the destination is unchanged")
    call check(all(a == [1, 2, 3]) .and. all(b == [4, 5, 6, 7]), "inputs are unchanged")
    call cn_add(av, bv, fresh, stat=st, errmsg=msg)
    call check(st == CN_ERR_SHAPE .and. .not. cn_associated(fresh), &
               "no result is made on failure")
    call cn_copy_out(av, b, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_SHAPE, msg, "broadcast", "copy_out of (3) into (4)")
    call check(all(b == [4, 5, 6, 7]), "the Fortran array is unchanged")
    call cn_matmul(av, bv, fresh, stat=st, errmsg=msg)
    call check(st == CN_ERR_SHAPE .and. .not. cn_associated(fresh), "matmul (3) x (4)")
    call check(len_trim(msg) > 0, "matmul failure has a message")
  end subroutine shape_mismatch

  subroutine unknown_names()
    real(real64), target :: a(3)
    type(cn_array_t) :: av, r
    integer :: st
    character(300) :: msg
    a = 1
    call cn_wrap(av, a)
    call cn_unary("sinx", av, r, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "sinx", "unknown op name")
    call cn_binary("sin", av, av, r, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "sin", "unary op with two inputs")
    call cn_reduce("median", av, r, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "median", "unknown reduction")
    call cn_use_backend("tpu", stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "tpu", "unknown backend")
    call check(cn_backend_name() == "cpu", "the backend is unchanged")
    call check(.not. cn_associated(r), "no result after failures")
  end subroutine unknown_names

  subroutine bad_dimensions()
    real(real64), target :: x(2, 3)
    type(cn_array_t) :: xv, r, v
    integer :: st
    character(300) :: msg
    x = 1
    call cn_wrap(xv, x)
    call cn_sum(xv, r, dim=3, stat=st, errmsg=msg)
    call check(st == CN_ERR_AXIS .or. st == CN_ERR_VALUE, "sum over dim 3 of a rank-2 array")
    call check(len_trim(msg) > 0 .and. .not. cn_associated(r), "message, no result")
    call cn_sum(xv, r, dim=0, stat=st, errmsg=msg)
    call check(st == CN_ERR_AXIS .or. st == CN_ERR_VALUE, "dim 0 is invalid")
    call cn_section(v, xv, 1, 0, 2, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_INDEX, msg, "out of bounds", "section from index 0")
    call cn_section(v, xv, 2, 1, 4, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_INDEX, msg, "extent 3", "section past the end")
    call cn_section(v, xv, 2, 3, 0, -1, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_INDEX, msg, "3:0", "reversed section past the start")
    call cn_section(v, xv, 2, 1, 3, 0, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "step", "step 0")
    call cn_section(v, xv, 5, 1, 2, stat=st, errmsg=msg)
    call check(st == CN_ERR_AXIS .and. .not. cn_associated(v), "section of dim 5")
    call cn_section(v, xv, 0, 1, 2, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_AXIS, msg, "'dim' must be >= 1", "section of dim 0")
    call cn_section(v, xv, 2, 3, 1, 2, stat=st, errmsg=msg)
    call check(st == 0 .and. cn_size(v) == 0, "crossed bounds give an empty section")
    call cn_section(v, xv, 2, 3, 1, -2, stat=st, errmsg=msg)
    call check(st == 0 .and. all(cn_shape(v) == [2, 2]), "3:1:-2 selects two columns")
    call cn_zeros(r, [2, -1], stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "-1", "negative extent")
  end subroutine bad_dimensions

  subroutine pointer_mismatch()
    type(cn_array_t) :: a
    real(real64), pointer :: p1(:), p2(:, :)
    real(real32), pointer :: q2(:, :)
    integer :: st
    character(300) :: msg
    call cn_zeros(a, [2, 3])
    nullify (p1, q2)
    call cn_pointer(a, p1, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_SHAPE, msg, "rank", "rank-1 pointer onto a rank-2 array")
    call check(.not. associated(p1), "the pointer stays unassociated")
    call cn_pointer(a, q2, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_TYPE, msg, "float64", "real32 pointer onto float64")
    call cn_pointer(a, p2, stat=st, errmsg=msg)
    call check(st == 0 .and. associated(p2), "the right pointer works")
  end subroutine pointer_mismatch

  subroutine unsupported_fortran_types()
    logical, target :: l4(3)
    character(len=4), target :: s(2)
    type(cn_array_t) :: v
    integer :: st
    character(300) :: msg
    l4 = .true.
    s = "abcd"
    call cn_wrap(v, l4, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_TYPE, msg, "logical(c_bool)", "default logical")
    call cn_wrap(v, s, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_TYPE, msg, "element type", "character")
    call check(.not. cn_associated(v), "no view on failure")
  end subroutine unsupported_fortran_types

  subroutine released_handles()
    type(cn_array_t) :: empty, r
    integer :: st, n
    character(300) :: msg
    call cn_sin(empty, r, stat=st, errmsg=msg)
    call check(st == CN_ERR_VALUE .and. len_trim(msg) > 0, "an empty handle is CN_ERR_VALUE")
    n = cn_ndim(empty, stat=st, errmsg=msg)
    call check(st == CN_ERR_VALUE .and. n == 0, "ndim of an empty handle")
    call cn_sum(empty, r, stat=st, errmsg=msg)
    call check(st == CN_ERR_VALUE, "sum of an empty handle")
  end subroutine released_handles

  subroutine success_clears_stat()
    real(real64), target :: x(2)
    type(cn_array_t) :: v, r
    integer :: st
    character(40) :: msg
    x = [1, 2]
    msg = "untouched"
    st = 99
    call cn_wrap(v, x, stat=st, errmsg=msg)
    call cn_sin(v, r, stat=st, errmsg=msg)
    call check(st == 0, "stat is 0 on success")
    call check(msg == "untouched", "errmsg is unchanged on success")
  end subroutine success_clears_stat

  ! A singular system is CN_ERR_LINALG through stat=, with cunumpy's
  ! message, no result and the inputs untouched; a regular one solves.
  subroutine linear_algebra_failures()
    real(real64), target :: a(2, 2), b(2), x(2)
    type(cn_array_t) :: av, bv, xv
    integer :: st
    character(300) :: msg
    a = reshape([1, 2, 2, 4], [2, 2])
    b = [1, 1]
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    call cn_linalg_solve(av, bv, xv, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_LINALG, msg, "cn_linalg_solve: Singular matrix", &
                      "singular solve")
    call check(.not. cn_associated(xv), "no result for a singular solve")
    call check(all(a == reshape([1, 2, 2, 4], [2, 2])) .and. all(b == [1, 1]), &
               "inputs are unchanged")
    call cn_linalg_inv(av, xv, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_LINALG, msg, "cn_linalg_inv: Singular matrix", &
                      "singular inverse")
    a = reshape([2, 0, 0, 4], [2, 2])
    call cn_linalg_solve(av, bv, xv, stat=st, errmsg=msg)
    call check(st == 0, "regular solve")
    call cn_copy_out(xv, x)
    call check(all(x == [0.5_real64, 0.25_real64]), "solution of diag(2, 4) x = 1")
  end subroutine linear_algebra_failures

end program test_errors
