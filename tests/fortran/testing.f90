! Checks shared by the Fortran tests: each records a pass or a failure
! (with a description on stderr); finish prints "N passed, N failed" and
! stops with a non-zero code when something failed.
module testing
  use, intrinsic :: iso_fortran_env, only: error_unit, int64, real32, real64
  implicit none
  private
  public :: check, check_close, check_status, finish

  integer, save :: passed = 0, failed = 0

  interface check_close
    module procedure close_r8, close_r8_1, close_r8_2, close_r8_3, close_r4_1, close_c8_1
  end interface check_close

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) then
      passed = passed + 1
    else
      failed = failed + 1
      write (error_unit, '(a)') "FAILED: "//what
    end if
  end subroutine check

  ! |got - want| <= tol * max(1, |want|), elementwise, NaN never close.
  logical function near(got, want, tol)
    real(real64), intent(in) :: got, want, tol
    near = abs(got - want) <= tol * max(1.0_real64, abs(want))
  end function near

  subroutine close_r8(got, want, what, tol)
    real(real64), intent(in) :: got, want
    character(*), intent(in) :: what
    real(real64), intent(in), optional :: tol
    real(real64) :: t
    t = 1e-12_real64
    if (present(tol)) t = tol
    if (.not. near(got, want, t)) write (error_unit, '(a,2es24.16)') "  got/want ", got, want
    call check(near(got, want, t), what)
  end subroutine close_r8

  subroutine close_r8_1(got, want, what, tol)
    real(real64), intent(in) :: got(:), want(:)
    character(*), intent(in) :: what
    real(real64), intent(in), optional :: tol
    real(real64) :: t
    integer :: i
    logical :: ok
    t = 1e-12_real64
    if (present(tol)) t = tol
    ok = size(got) == size(want)
    if (ok) then
      do i = 1, size(got)
        ok = ok .and. near(got(i), want(i), t)
      end do
    end if
    call check(ok, what)
  end subroutine close_r8_1

  subroutine close_r8_2(got, want, what, tol)
    real(real64), intent(in) :: got(:, :), want(:, :)
    character(*), intent(in) :: what
    real(real64), intent(in), optional :: tol
    call close_r8_1(reshape(got, [size(got)]), reshape(want, [size(want)]), what, tol)
    if (any(shape(got) /= shape(want))) call check(.false., what//" (shape)")
  end subroutine close_r8_2

  subroutine close_r8_3(got, want, what, tol)
    real(real64), intent(in) :: got(:, :, :), want(:, :, :)
    character(*), intent(in) :: what
    real(real64), intent(in), optional :: tol
    call close_r8_1(reshape(got, [size(got)]), reshape(want, [size(want)]), what, tol)
    if (any(shape(got) /= shape(want))) call check(.false., what//" (shape)")
  end subroutine close_r8_3

  subroutine close_r4_1(got, want, what, tol)
    real(real32), intent(in) :: got(:), want(:)
    character(*), intent(in) :: what
    real(real64), intent(in), optional :: tol
    real(real64) :: t
    t = 1e-6_real64
    if (present(tol)) t = tol
    call close_r8_1(real(got, real64), real(want, real64), what, t)
  end subroutine close_r4_1

  subroutine close_c8_1(got, want, what, tol)
    complex(real64), intent(in) :: got(:), want(:)
    character(*), intent(in) :: what
    real(real64), intent(in), optional :: tol
    call close_r8_1([got%re, got%im], [want%re, want%im], what, tol)
  end subroutine close_c8_1

  ! A failing call: stat is the expected code and errmsg holds the words
  ! expected in cunumpy's message.
  subroutine check_status(stat, want, errmsg, words, what)
    integer, intent(in) :: stat, want
    character(*), intent(in) :: errmsg, words, what
    if (stat /= want) write (error_unit, '(a,i0,a,i0,2a)') "  stat ", stat, " want ", want, &
      ": ", trim(errmsg)
    call check(stat == want, what//" (status)")
    if (index(errmsg, words) == 0) write (error_unit, '(4a)') "  message '", trim(errmsg), &
      "' lacks ", words
    call check(index(errmsg, words) > 0, what//" (message)")
  end subroutine check_status

  subroutine finish()
    write (*, '(i0,a,i0,a)') passed, " passed, ", failed, " failed"
    if (failed > 0) error stop 1
  end subroutine finish

end module testing
