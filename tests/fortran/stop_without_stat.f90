! expect: cn_add
! An error without stat= stops the program with cunumpy's message.
program stop_without_stat
  use cunumpy
  implicit none
  real(real64), target :: a(3), b(4)
  type(cn_array_t) :: av, bv, cv
  a = 1
  b = 2
  call cn_wrap(av, a)
  call cn_wrap(bv, b)
  call cn_add(av, bv, cv)
  print '(a)', "stop_reached_end"
end program stop_without_stat
