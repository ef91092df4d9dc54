! cn_array_t keeps the C reference count right: assignment shares, the final
! procedure and cn_release drop, self-assignment is harmless.
program test_handles
  use cunumpy
  use testing
  implicit none

  call assignment_shares()
  call scope_exit_releases()
  call arrays_of_handles()
  call result_replaces_old()
  call finish()

contains

  subroutine assignment_shares()
    type(cn_array_t) :: a, b, c
    call cn_zeros(a, [3, 4])
    call check(cn_refcount(a) == 1, "new array has one reference")
    b = a
    call check(cn_refcount(a) == 2, "b = a adds a reference")
    call check(c_associated(a%h, b%h), "b = a shares the handle")
    c = b
    call check(cn_refcount(a) == 3, "c = b adds another")
    a = a
    call check(cn_refcount(a) == 3, "a = a keeps the count")
    call cn_release(b)
    call check(cn_refcount(a) == 2, "cn_release drops one")
    call check(.not. cn_associated(b), "released variable is empty")
    call cn_release(b)
    call check(cn_refcount(a) == 2, "releasing an empty variable is a no-op")
    c = b
    call check(cn_refcount(a) == 1, "assigning an empty handle drops the old one")
    call check(.not. cn_associated(c), "and leaves the target empty")
  end subroutine assignment_shares

  subroutine take_copy(a, n)
    type(cn_array_t), intent(in) :: a
    integer(int64), intent(out) :: n
    type(cn_array_t) :: local
    local = a
    n = cn_refcount(a)
  end subroutine take_copy

  subroutine scope_exit_releases()
    type(cn_array_t) :: a
    integer(int64) :: inside
    call cn_ones(a, [5])
    call take_copy(a, inside)
    call check(inside == 2, "a local copy holds a reference")
    call check(cn_refcount(a) == 1, "the final procedure drops it at scope exit")
  end subroutine scope_exit_releases

  subroutine arrays_of_handles()
    type(cn_array_t) :: a
    type(cn_array_t), allocatable :: many(:)
    integer :: i
    call cn_zeros(a, [2, 2])
    allocate (many(4))
    do i = 1, 4
      many(i) = a
    end do
    call check(cn_refcount(a) == 5, "each element holds a reference")
    deallocate (many)
    call check(cn_refcount(a) == 1, "deallocating finalizes every element")
  end subroutine arrays_of_handles

  subroutine result_replaces_old()
    type(cn_array_t) :: a, b, keep
    integer :: st
    call cn_zeros(a, [3])
    keep = a
    call check(cn_refcount(keep) == 2, "two references before")
    call cn_ones(a, [4])
    call check(cn_refcount(keep) == 1, "a creation drops the old array of its result")
    call cn_shape_check(a, [4_int64])
    b = a
    call cn_sin(keep, a, stat=st)
    call check(st == CN_ERR_SHAPE, "an op into a result of another shape fails")
    call check(c_associated(a%h, b%h), "and leaves the result untouched")
    a = keep
    call check(cn_refcount(b) == 1, "assignment dropped the result's old array")
    call cn_release(a)
    call cn_sin(keep, a)
    call check(cn_associated(a) .and. .not. c_associated(a%h, keep%h), &
               "an op into an empty result makes a new array")
    call cn_shape_check(a, [3_int64])
    b = a
    call cn_sum(keep, a)
    call check(cn_refcount(b) == 1, "a reduction replaces what its result held")
    call cn_shape_check(a, [integer(int64) ::])
    call cn_release(a)
    call cn_release(b)
    call cn_release(keep)
  end subroutine result_replaces_old

  subroutine cn_shape_check(x, want)
    type(cn_array_t), intent(in) :: x
    integer(int64), intent(in) :: want(:)
    integer :: st
    character(200) :: msg
    integer(int64), allocatable :: s(:)
    allocate (s(0))
    s = cn_shape(x, stat=st, errmsg=msg)
    call check(st == 0 .and. size(s) == size(want), "shape has the right rank")
    if (size(s) == size(want)) call check(all(s == want), "shape has the right extents")
  end subroutine cn_shape_check

end program test_handles
