! cn_backend_supports through the raw binding (cunumpy_c): the CPU runs
! every capability natively, unknown names are CN_ERR_VALUE.
program test_backend
  use cunumpy
  use cunumpy_c, only: c_cn_backend_supports, c_cn_backend_capability, &
                       CN_SUPPORT_NATIVE
  use testing
  implicit none

  call cpu_runs_everything()
  call unknown_names_are_errors()
  call finish()

contains

  integer function supports(backend, what, st)
    character(*), intent(in) :: backend, what
    integer(c_int32_t), intent(out) :: st
    integer(c_int32_t) :: out(1)
    out = -1
    st = c_cn_backend_supports(out, backend//c_null_char, what//c_null_char)
    supports = out(1)
  end function supports

  subroutine cpu_runs_everything()
    integer(c_int32_t) :: st, i
    integer :: n
    character(*), parameter :: names(5) = [character(8) :: "matmul", "linalg", &
                                           "add", "sum", "stats"]
    do n = 1, size(names)
      call check(supports("cpu", trim(names(n)), st) == CN_SUPPORT_NATIVE &
                 .and. st == 0, "cpu runs "//trim(names(n)))
    end do
    i = 0
    do while (c_associated(c_cn_backend_capability(i)))
      i = i + 1
    end do
    call check(i > 20, "capabilities are listed")
  end subroutine cpu_runs_everything

  subroutine unknown_names_are_errors()
    integer(c_int32_t) :: st
    integer :: r
    r = supports("tpu", "add", st)
    call check(st /= 0 .and. r == -1, "unknown backend refused")
    r = supports("cpu", "frobnicate", st)
    call check(st /= 0 .and. r == -1, "unknown capability refused")
  end subroutine unknown_names_are_errors
end program test_backend
