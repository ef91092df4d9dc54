! 2-d heat equation u_t = u_xx + u_yy on the unit square, u = 0 on the
! boundary, u(x, y, 0) = sin(pi x) sin(pi y), explicit Euler on an
! (n+2) x (n+2) grid. The grids live in the engine (cn_zeros); the stencil
! works on zero-copy engine views (cn_section) and reads the result back
! through a Fortran pointer onto engine memory. The exact solution decays as
! exp(-2 pi^2 t).
!
!   heat_f90 [n] [steps] [backend]      (defaults 256 500 cpu)
program heat
  use cunumpy
  implicit none
  integer :: n, steps, k, src, dst, i, j
  real(real64) :: dx, dt, r, t, err, peak, exact
  real(real64), parameter :: pi = acos(-1.0_real64)
  type(cn_array_t) :: u(2), centre(2), left(2), right(2), down(2), up(2)
  type(cn_array_t) :: s1, s2, s3, four, rate, total
  real(real64), pointer :: p(:, :)
  integer(int64) :: c0, c1, rate_hz
  character(32) :: arg

  n = 256
  steps = 500
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    call cn_use_backend(trim(arg))
  end if
  dx = 1.0_real64 / (n + 1)
  dt = 0.2_real64 * dx * dx
  r = dt / (dx * dx)

  ! two grids in the engine (column-major), the initial condition written
  ! through a Fortran pointer onto the first
  do k = 1, 2
    call cn_zeros(u(k), [n + 2, n + 2])
  end do
  call cn_pointer(u(1), p)
  do j = 2, n + 1
    do i = 2, n + 1
      p(i, j) = sin(pi * (i - 1) * dx) * sin(pi * (j - 1) * dx)
    end do
  end do

  ! the five stencil views of each grid: zero-copy sections
  do k = 1, 2
    call interior(centre(k), u(k), 2, 2)
    call interior(left(k), u(k), 1, 2)
    call interior(right(k), u(k), 3, 2)
    call interior(down(k), u(k), 2, 1)
    call interior(up(k), u(k), 2, 3)
  end do
  call cn_empty(s1, [n, n])
  call cn_empty(s2, [n, n])
  call cn_empty(s3, [n, n])
  call cn_weak_scalar(four, cn_scalar_of(4.0_real64))
  call cn_weak_scalar(rate, cn_scalar_of(r))

  call system_clock(c0, rate_hz)
  do k = 1, steps
    src = mod(k - 1, 2) + 1
    dst = 3 - src
    call cn_add(left(src), right(src), s1)
    call cn_add(down(src), up(src), s2)
    call cn_add(s1, s2, s3)
    call cn_multiply(centre(src), four, s1)
    call cn_subtract(s3, s1, s2)
    call cn_multiply(s2, rate, s3)
    call cn_add(centre(src), s3, centre(dst))
  end do
  call system_clock(c1)
  dst = mod(steps - 1, 2) + 1
  dst = 3 - dst
  if (steps == 0) dst = 1

  t = steps * dt
  call cn_pointer(u(dst), p)
  err = 0
  peak = 0
  do j = 2, n + 1
    do i = 2, n + 1
      exact = exp(-2 * pi**2 * t) * sin(pi * (i - 1) * dx) * sin(pi * (j - 1) * dx)
      err = max(err, abs(p(i, j) - exact))
      peak = max(peak, exact)
    end do
  end do
  call cn_sum(u(dst), total)
  write (*, '(a,i0,a,i0,a,i0,2a)') "grid ", n + 2, "x", n + 2, ", ", steps, &
    " steps on ", cn_backend_name()
  write (*, '(a,es12.4)') "t = ", t
  write (*, '(a,es12.4)') "heat content (engine sum) * dx^2 = ", cn_item_real64(total) * dx * dx
  write (*, '(a,es12.4,a,es12.4,a)') "max error vs exact solution = ", err, " (peak ", peak, ")"
  write (*, '(a,f10.3,a)') "time = ", 1e3_real64 * real(c1 - c0, real64) / real(rate_hz, real64), &
    " ms"
  write (*, '(a,f10.3,a)') "per step = ", 1e6_real64 * real(c1 - c0, real64) / &
    real(rate_hz, real64) / max(1, steps), " us"
  if (err > 1e-2_real64 * max(peak, 1e-300_real64)) error stop "heat: error too large"

contains

  ! v = g(i0:i0+n-1, j0:j0+n-1)
  subroutine interior(v, g, i0, j0)
    type(cn_array_t), intent(inout) :: v
    type(cn_array_t), intent(in) :: g
    integer, intent(in) :: i0, j0
    type(cn_array_t) :: rows
    call cn_section(rows, g, 1, i0, i0 + n - 1)
    call cn_section(v, rows, 2, j0, j0 + n - 1)
  end subroutine interior

end program heat
