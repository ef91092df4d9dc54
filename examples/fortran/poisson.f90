! 2-d Poisson problem -(u_xx + u_yy) = f on the unit square, u = 0 on the
! boundary, with f = 2 (x (1 - x) + y (1 - y)), on an n x n interior grid:
! the exact u = x (1 - x) y (1 - y) is quadratic in each variable, which the
! 5-point stencil differentiates exactly, so cg must reach it to its
! tolerance. The 5-point matrix is built as
! 1-based CSR in plain Fortran arrays and handed to the engine without a
! copy of the values (cn_wrap, then cn_sparse_compressed with index base
! 1); conjugate gradients run in Fortran with the engine's SpMV
! (cn_sparse_matmul_dense) read back through a Fortran pointer.
!
!   poisson_f90 [n]      (default 64)
program poisson
  use cunumpy
  implicit none
  integer :: n, i, j, nnz, row, it
  integer(int64) :: m
  real(real64) :: h, rr, rr_new, alpha, beta, err, tol
  real(real64), allocatable, target :: val(:), b(:), x(:), r(:), p(:)
  integer(int32), allocatable, target :: colind(:), rowptr(:)
  real(real64), pointer :: q(:)
  type(cn_array_t) :: vv, cv, rv, pv, qv
  type(c_ptr) :: a(1), out(1)
  character(32) :: arg

  n = 64
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  m = int(n, int64) * n
  h = 1.0_real64 / (n + 1)

  ! CSR, 1-based: row (i, j) is i + (j - 1) n, columns in increasing order
  allocate (val(5 * m), colind(5 * m), rowptr(m + 1), b(m), x(m), r(m), p(m))
  nnz = 0
  rowptr(1) = 1
  do j = 1, n
    do i = 1, n
      row = i + (j - 1) * n
      if (j > 1) call put(row - n, -1.0_real64)
      if (i > 1) call put(row - 1, -1.0_real64)
      call put(row, 4.0_real64)
      if (i < n) call put(row + 1, -1.0_real64)
      if (j < n) call put(row + n, -1.0_real64)
      rowptr(row + 1) = nnz + 1
      b(row) = h * h * 2 * (i * h * (1 - i * h) + j * h * (1 - j * h))
    end do
  end do

  call cn_wrap(vv, val(1:nnz))
  call cn_wrap(cv, colind(1:nnz))
  call cn_wrap(rv, rowptr)
  call check(c_cn_sparse_compressed(a, CN_SPARSE_CSR, m, m, vv%h, cv%h, rv%h, 1_c_int32_t))

  ! conjugate gradients from x = 0
  x = 0
  r = b
  p = r
  rr = dot_product(r, r)
  tol = 1e-10_real64 * sqrt(rr)
  call cn_wrap(pv, p) ! p keeps its storage: one view serves every step
  do it = 1, 10 * int(m)
    call check(c_cn_sparse_matmul_dense(out, a(1), pv%h))
    call cn_release(qv)
    qv%h = out(1)
    call cn_pointer(qv, q)
    alpha = rr / dot_product(p, q)
    x = x + alpha * p
    r = r - alpha * q
    rr_new = dot_product(r, r)
    if (sqrt(rr_new) <= tol) exit
    beta = rr_new / rr
    rr = rr_new
    p = r + beta * p
  end do

  err = 0
  do j = 1, n
    do i = 1, n
      err = max(err, abs(x(i + (j - 1) * n) - i * h * (1 - i * h) * j * h * (1 - j * h)))
    end do
  end do
  call c_cn_sparse_release(a(1))
  write (*, '(a,i0,a,i0,a,i0,a)') "grid ", n, "x", n, ", ", nnz, " stored entries"
  write (*, '(a,i0)') "cg iterations = ", it
  write (*, '(a,es12.4)') "max error vs x(1-x) y(1-y) = ", err
  if (err > 1e-8_real64) error stop "poisson: error too large"

contains

  subroutine put(col, v)
    integer, intent(in) :: col
    real(real64), intent(in) :: v
    nnz = nnz + 1
    val(nnz) = v
    colind(nnz) = int(col, int32)
  end subroutine put

  subroutine check(st)
    integer(c_int32_t), intent(in) :: st
    if (st /= CN_OK) error stop "poisson: a cunumpy call failed"
  end subroutine check

end program poisson
