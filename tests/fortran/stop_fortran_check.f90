! expect: cn_pointer: argument 'p' has the wrong rank
! Errors found on the Fortran side stop the same way.
program stop_fortran_check
  use cunumpy
  implicit none
  type(cn_array_t) :: a
  real(real64), pointer :: p(:)
  call cn_zeros(a, [2, 2])
  call cn_pointer(a, p)
  print '(a)', "stop_reached_end"
end program stop_fortran_check
