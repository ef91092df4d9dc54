! Expressions from Fortran (cn_evaluate, cn_expr_compile/cn_expr_evaluate):
! results into wrapped arrays and new arrays, strided sections, broadcasting,
! a reduction over all axes and over one, names given or taken from the
! text, and the error paths, checked against Fortran's own arithmetic.
program test_expr
  use cunumpy
  use testing
  implicit none

  call evaluate_forms()
  call compiled_program()
  call errors()
  call finish()

contains

  subroutine evaluate_forms()
    real(real64), target :: a(6, 5), b(6, 5), c(6, 5), y(6, 5), s2(5)
    real(real32), target :: f(7), g(7)
    type(cn_array_t) :: av, bv, cv, yv, r, colv, fv, gv
    integer :: i, st
    a = reshape([(0.25_real64 * i - 3, i = 1, 30)], shape(a))
    b = reshape([(sin(real(i, real64)), i = 1, 30)], shape(b))
    c = reshape([(1.0_real64 / i, i = 1, 30)], shape(c))
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    call cn_wrap(cv, c)
    ! into the wrapped array y (computed in place), names from the text
    y = 0
    call cn_wrap(yv, y)
    call cn_evaluate('a*b + c', [av, bv, cv], yv, stat=st)
    call check(st == 0, "cn_evaluate status")
    call check_close(reshape(y, [30]), reshape(a * b + c, [30]), "a*b + c into y")
    ! a new array, names given (their order is the inputs')
    call cn_evaluate('sqrt((x - z)**2 + 1)', [bv, av], r, names=[character(1) :: 'z', 'x'])
    call check(all(cn_shape(r) == [6, 5]), "new result has the inputs' shape")
    call cn_copy_out(r, y)
    call check_close(reshape(y, [30]), reshape(sqrt((a - b)**2 + 1), [30]), "named inputs")
    call cn_release(r)
    ! where, and a strided section with a negative step
    call cn_wrap(av, a(6:1:-2, 2:5))
    call cn_evaluate('where(a > 0, a, -2*a)', [av], r)
    call cn_copy_out(r, y(1:3, 1:4))
    call check_close(reshape(y(1:3, 1:4), [12]), &
                     reshape(merge(a(6:1:-2, 2:5), -2 * a(6:1:-2, 2:5), a(6:1:-2, 2:5) > 0), [12]), &
                     "where over a reversed section")
    call cn_release(r)
    ! broadcasting (NumPy's rule on the engine's shape (6, 5)): a 1-d
    ! array lines up with the last axis, Fortran's dim 2
    call cn_wrap(av, a)
    call cn_wrap(colv, s2)
    s2 = [(real(i, real64), i = 1, 5)]
    call cn_evaluate('a - s', [av, colv], r)
    call cn_copy_out(r, y)
    call check_close(reshape(y, [30]), reshape(a - spread(s2, 1, 6), [30]), "broadcast of a 1-d array")
    call cn_release(r)
    ! reductions: all axes, and axis=0 (Fortran's dim 1)
    call cn_wrap(bv, b)
    call cn_evaluate('sum(a*b)', [av, bv], r)
    call check_close(cn_item_real64(r), sum(a * b), "sum(a*b)", 1e-12_real64)
    call cn_release(r)
    call cn_evaluate('max(a*b, axis=0)', [av, bv], r)
    call cn_copy_out(r, s2)
    call check_close(s2, maxval(a * b, dim=1), "max over axis=0 is dim=1")
    call cn_release(r)
    ! float32 with a weak scalar stays float32
    f = [(0.5_real32 * i, i = 1, 7)]
    call cn_wrap(fv, f)
    g = 0
    call cn_wrap(gv, g)
    call cn_evaluate('f * 2.5 + 1', [fv], gv)
    call check(all(abs(g - (f * 2.5_real32 + 1)) <= 1e-6 * abs(g)), "float32 with a weak scalar")
    call check(cn_dtype_of(gv) == CN_FLOAT32, "the result is float32")
    call cn_release(colv)
  end subroutine evaluate_forms

  subroutine compiled_program()
    real(real64), target :: x(100), y(100), z(100), w(4, 3), out(100)
    type(cn_expr_t) :: prog
    type(cn_array_t) :: xv, yv, zv, ov, r, wv
    integer :: i, k, st
    call cn_wrap(xv, x)
    call cn_wrap(yv, y)
    call cn_wrap(zv, z)
    call cn_wrap(ov, out)
    call cn_expr_compile(prog, 'a**2 + b**2 - 2*a*b*cos(c)', [xv, yv, zv], stat=st)
    call check(st == 0, "cn_expr_compile status")
    ! evaluated many times over new values of the same arrays
    do k = 1, 3
      x = [(real(i * k, real64) / 50, i = 1, 100)]
      y = [(real(i, real64) / (10 * k), i = 1, 100)]
      z = [(real(i + k, real64), i = 1, 100)]
      call cn_expr_evaluate(prog, [xv, yv, zv], ov)
      call check_close(out, x**2 + y**2 - 2 * x * y * cos(z), "compiled program, call")
    end do
    ! other shapes of the same ndim
    call cn_wrap(xv, x(1:10))
    call cn_wrap(yv, y(91:100))
    call cn_wrap(zv, z(100:1:-10))
    call cn_expr_evaluate(prog, [xv, yv, zv], r)
    call cn_copy_out(r, out(1:10))
    call check_close(out(1:10), x(1:10)**2 + y(91:100)**2 - 2 * x(1:10) * y(91:100) * cos(z(100:1:-10)), &
                     "compiled program over sections")
    ! an ndim the program was not compiled for
    w = 1
    call cn_wrap(wv, w)
    call cn_expr_evaluate(prog, [wv, yv, zv], r, stat=st)
    call check(st == CN_ERR_SHAPE, "another ndim is CN_ERR_SHAPE")
    call cn_expr_release(prog)
    call cn_expr_evaluate(prog, [xv, yv, zv], r, stat=st)
    call check(st == CN_ERR_VALUE, "a released program is CN_ERR_VALUE")
  end subroutine compiled_program

  subroutine errors()
    real(real64), target :: a(3), b(4)
    type(cn_array_t) :: av, bv, r
    type(cn_expr_t) :: prog
    integer :: st
    character(200) :: msg
    a = 1
    b = 2
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    msg = ""
    call cn_evaluate('a +', [av], r, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "column 4", "syntax error names the column")
    call cn_evaluate('a + b', [av], r, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "reads 2 names", "fewer inputs than names")
    call cn_evaluate('a + q', [av, bv], r, names=[character(1) :: 'a'], stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "1 names for 2 inputs", "names and inputs differ")
    call cn_evaluate('a + b', [av, bv], r, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_SHAPE, msg, "broadcast", "shapes that do not broadcast")
    call check(.not. cn_associated(r), "no result on failure")
    call cn_expr_compile(prog, 'nosuch(a)', [av], stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "unknown function", "unknown function")
  end subroutine errors

end program test_expr
