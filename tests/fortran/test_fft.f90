! FFTs through the cunumpy module against a direct DFT written in Fortran.
program test_fft
  use cunumpy
  use testing
  implicit none

  call complex_transforms()
  call real_transforms()
  call along_a_dimension()
  call fft_errors()
  call finish()

contains

  ! X(k) = sum_j x(j) exp(sign 2 pi i (j-1)(k-1) / n)
  function dft(x, sign) result(y)
    complex(real64), intent(in) :: x(:)
    real(real64), intent(in) :: sign
    complex(real64) :: y(size(x))
    real(real64), parameter :: pi = acos(-1.0_real64)
    integer :: j, k, n
    n = size(x)
    do k = 1, n
      y(k) = 0
      do j = 1, n
        y(k) = y(k) + x(j) * exp(cmplx(0.0_real64, sign * 2 * pi * (j - 1) * (k - 1) / n, &
                                       real64))
      end do
    end do
  end function dft

  subroutine complex_transforms()
    complex(real64), target :: x(12), got(12)
    type(cn_array_t) :: xv, r, back
    integer :: i
    x = [(cmplx(sin(0.7_real64 * i), cos(1.3_real64 * i) - 0.2_real64, real64), i = 1, 12)]
    call cn_wrap(xv, x)
    call cn_fft(xv, r)
    call check(cn_dtype_of(r) == CN_COMPLEX128, "fft of complex128 is complex128")
    call cn_copy_out(r, got)
    call check_close(got, dft(x, -1.0_real64), "fft matches the DFT", 1e-12_real64)
    call cn_ifft(r, back)
    call cn_copy_out(back, got)
    call check_close(got, x, "ifft(fft(x)) = x", 1e-12_real64)
    call cn_fft(xv, r, norm=CN_FFT_NORM_ORTHO)
    call cn_copy_out(r, got)
    call check_close(got, dft(x, -1.0_real64) / sqrt(12.0_real64), "ortho norm", 1e-12_real64)
  end subroutine complex_transforms

  subroutine real_transforms()
    real(real64), target :: x(10), y(10)
    complex(real64) :: half(6), full(10)
    type(cn_array_t) :: xv, r, back
    integer :: i
    x = [(exp(-0.3_real64 * i) * cos(2.0_real64 * i), i = 1, 10)]
    call cn_wrap(xv, x)
    call cn_rfft(xv, r)
    call check(all(cn_shape(r) == [6]), "rfft of 10 points has 6 values")
    call cn_copy_out(r, half)
    full = dft(cmplx(x, 0.0_real64, real64), -1.0_real64)
    call check_close(half, full(1:6), "rfft matches the DFT", 1e-12_real64)
    call cn_irfft(r, back, n=10)
    call cn_copy_out(back, y)
    call check_close(y, x, "irfft(rfft(x), 10) = x", 1e-12_real64)
    call cn_fft(xv, r, n=16)
    call check(all(cn_shape(r) == [16]), "n zero-pads")
  end subroutine real_transforms

  subroutine along_a_dimension()
    complex(real64), target :: x(3, 8)
    complex(real64) :: got(3, 8), row(8)
    type(cn_array_t) :: xv, r
    integer :: i, j
    do j = 1, 8
      do i = 1, 3
        x(i, j) = cmplx(real(i * j, real64) / 5, real(mod(i + 3 * j, 7), real64), real64)
      end do
    end do
    call cn_wrap(xv, x)
    call cn_fft(xv, r, dim=2)
    call cn_copy_out(r, got)
    do i = 1, 3
      row = got(i, :)
      call check_close(row, dft(x(i, :), -1.0_real64), "fft along dim 2 (strided rows)", &
                       1e-12_real64)
    end do
  end subroutine along_a_dimension

  subroutine fft_errors()
    real(real64), target :: x(4)
    type(cn_array_t) :: xv, r
    integer :: st
    character(300) :: msg
    x = 1
    call cn_wrap(xv, x)
    call cn_fft(xv, r, dim=2, stat=st, errmsg=msg)
    call check(st == CN_ERR_AXIS .and. len_trim(msg) > 0, "fft along a missing dimension")
    call cn_fft(xv, r, n=0, stat=st, errmsg=msg)
    call check(st == CN_ERR_VALUE .and. .not. cn_associated(r), "fft with n = 0")
  end subroutine fft_errors

end program test_fft
