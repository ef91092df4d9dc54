! 2-d heat equation u_t = u_xx + u_yy on the unit square (u = 0 on the
! boundary, u(x, y, 0) = sin(pi x) sin(pi y), explicit Euler on an
! (n+2) x (n+2) grid) distributed over MPI ranks by blocks of rows.
!
! Each rank's block lives in the engine: u(k) is an (n+2) x (nloc+2)
! column-major cunumpy array whose second index is the grid row, so a row is
! contiguous in memory. The halo rows are exchanged with MPI_Sendrecv
! directly on engine memory (a Fortran pointer made from the raw address of
! the engine's buffer, no copy); the update runs as engine ops on zero-copy
! sections. Rank 0 gathers the final grid and writes it as raw float64
! (unformatted stream), so runs on different rank counts can be compared
! byte for byte: every grid point goes through the same floating-point
! operations whatever the decomposition. CPU backend only: Debian's Open MPI
! is not CUDA-aware.
!
!   mpirun -np P heat_mpi [n] [steps] [outfile]     (defaults 64 100, none)
program heat_mpi
  use mpi_f08
  use cunumpy
  implicit none
  integer :: n, steps, nloc, offset, rank, nranks, below, above, k, src, dst, i, j, r
  integer, allocatable :: counts(:), displs(:)
  real(real64) :: dx, dt, rate_v, t, err, err_all, heat, heat_all, exact
  real(real64), parameter :: pi = acos(-1.0_real64)
  type(cn_array_t) :: u(2), centre(2), left(2), right(2), down(2), up(2)
  type(cn_array_t) :: s1, s2, s3, four, rate, total
  type(c_ptr) :: base(1)
  real(real64), pointer, contiguous :: p(:, :)
  real(real64), allocatable :: grid(:, :)
  character(256) :: arg, outfile
  integer :: unit_out

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  n = 64
  steps = 100
  outfile = ""
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if
  if (command_argument_count() >= 3) call get_command_argument(3, outfile)
  if (n < nranks) error stop "heat_mpi: the grid needs at least one row per rank"

  ! rows offset+1 .. offset+nloc of the n interior rows are this rank's
  nloc = n / nranks + merge(1, 0, rank < mod(n, nranks))
  offset = rank * (n / nranks) + min(rank, mod(n, nranks))
  below = merge(MPI_PROC_NULL, rank - 1, rank == 0)
  above = merge(MPI_PROC_NULL, rank + 1, rank == nranks - 1)
  dx = 1.0_real64 / (n + 1)
  dt = 0.2_real64 * dx * dx
  rate_v = dt / (dx * dx)

  do k = 1, 2
    call cn_zeros(u(k), [n + 2, nloc + 2])
  end do
  call engine_rows(u(1), p)
  do j = 2, nloc + 1
    do i = 2, n + 1
      p(i, j) = sin(pi * (i - 1) * dx) * sin(pi * (offset + j - 1) * dx)
    end do
  end do
  do k = 1, 2
    call interior(centre(k), u(k), 2, 2)
    call interior(left(k), u(k), 1, 2)
    call interior(right(k), u(k), 3, 2)
    call interior(down(k), u(k), 2, 1)
    call interior(up(k), u(k), 2, 3)
  end do
  call cn_empty(s1, [n, nloc])
  call cn_empty(s2, [n, nloc])
  call cn_empty(s3, [n, nloc])
  call cn_weak_scalar(four, cn_scalar_of(4.0_real64))
  call cn_weak_scalar(rate, cn_scalar_of(rate_v))

  dst = 1
  do k = 1, steps
    src = mod(k - 1, 2) + 1
    dst = 3 - src
    ! halo rows of the source grid, sent and received in engine memory
    call engine_rows(u(src), p)
    call MPI_Sendrecv(p(:, 2), n + 2, MPI_DOUBLE_PRECISION, below, 0, &
                      p(:, nloc + 2), n + 2, MPI_DOUBLE_PRECISION, above, 0, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(p(:, nloc + 1), n + 2, MPI_DOUBLE_PRECISION, above, 1, &
                      p(:, 1), n + 2, MPI_DOUBLE_PRECISION, below, 1, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call cn_add(left(src), right(src), s1)
    call cn_add(down(src), up(src), s2)
    call cn_add(s1, s2, s3)
    call cn_multiply(centre(src), four, s1)
    call cn_subtract(s3, s1, s2)
    call cn_multiply(s2, rate, s3)
    call cn_add(centre(src), s3, centre(dst))
  end do

  ! distributed reductions: the heat content (engine sums) and the error
  t = steps * dt
  call cn_sum(centre(dst), total)
  heat = cn_item_real64(total)
  call engine_rows(u(dst), p)
  err = 0
  do j = 2, nloc + 1
    do i = 2, n + 1
      exact = exp(-2 * pi**2 * t) * sin(pi * (i - 1) * dx) * sin(pi * (offset + j - 1) * dx)
      err = max(err, abs(p(i, j) - exact))
    end do
  end do
  call MPI_Allreduce(heat, heat_all, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Allreduce(err, err_all, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)

  ! rank 0 gathers the owned rows (contiguous in engine memory)
  allocate (counts(nranks), displs(nranks))
  do r = 0, nranks - 1
    counts(r + 1) = (n / nranks + merge(1, 0, r < mod(n, nranks))) * (n + 2)
    displs(r + 1) = (r * (n / nranks) + min(r, mod(n, nranks))) * (n + 2)
  end do
  if (rank == 0) then
    allocate (grid(n + 2, n))
  else
    allocate (grid(1, 1))
  end if
  call MPI_Gatherv(p(:, 2:nloc + 1), nloc * (n + 2), MPI_DOUBLE_PRECISION, grid, counts, &
                   displs, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD)
  if (rank == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0,a)') "grid ", n + 2, "x", n + 2, ", ", steps, &
      " steps on ", nranks, " ranks"
    write (*, '(a,es12.4)') "heat content (engine sums, MPI_Allreduce) * dx^2 = ", &
      heat_all * dx * dx
    write (*, '(a,es12.4)') "max error vs exact solution = ", err_all
    if (len_trim(outfile) > 0) then
      open (newunit=unit_out, file=trim(outfile), access="stream", form="unformatted", &
            status="replace", action="write")
      write (unit_out) grid(2:n + 1, :)
      close (unit_out)
    end if
    if (err_all > 1e-2_real64 * exp(-2 * pi**2 * t)) error stop "heat_mpi: error too large"
  end if
  call MPI_Finalize()

contains

  ! v = g(i0:i0+n-1, j0:j0+nloc-1)
  subroutine interior(v, g, i0, j0)
    type(cn_array_t), intent(inout) :: v
    type(cn_array_t), intent(in) :: g
    integer, intent(in) :: i0, j0
    type(cn_array_t) :: rows
    call cn_section(rows, g, 1, i0, i0 + n - 1)
    call cn_section(v, rows, 2, j0, j0 + nloc - 1)
  end subroutine interior

  ! p => the engine's buffer of g, through its raw address (g is a
  ! contiguous column-major (n+2) x (nloc+2) float64 array on the host)
  subroutine engine_rows(g, q)
    type(cn_array_t), intent(in) :: g
    real(real64), pointer, contiguous, intent(out) :: q(:, :)
    if (c_cn_array_data(base, g%h) /= CN_OK) error stop "heat_mpi: cn_array_data failed"
    call c_f_pointer(base(1), q, [n + 2, nloc + 2])
  end subroutine engine_rows

end program heat_mpi
