! A tiny Fortran program built against an installed cunumpy.
program consumer_f90
  use cunumpy
  implicit none
  real(real64), target :: x(3, 4)
  type(cn_array_t) :: xv, s
  real(real64) :: v
  integer :: i
  x = reshape([(real(i, real64), i = 1, 12)], [3, 4])
  call cn_wrap(xv, x)
  call cn_sum(xv, s)
  v = cn_item_real64(s)
  print '(a,f6.1)', "fortran consumer ok ", v
  if (abs(v - sum(x)) > 0) error stop "fortran consumer: wrong sum"
end program consumer_f90
