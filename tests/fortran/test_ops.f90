! Elementwise ops, reductions and matmul through the cunumpy module on
! rank 1..3 arrays and strided sections, checked against Fortran intrinsics.
program test_ops
  use cunumpy
  use testing
  implicit none

  call backend_is_cpu()
  call unary_ops()
  call binary_ops()
  call ops_by_name()
  call results_into_sections()
  call reductions()
  call weak_scalars()
  call matrix_product()
  call finish()

contains

  subroutine backend_is_cpu()
    character(:), allocatable :: name
    call cn_use_backend("numpy")
    call check(cn_backend_name() == "cpu", "numpy is an alias of cpu")
    ! cuda falls back to cpu, with a reason, where it cannot be used
    call cn_use_backend("cuda")
    name = cn_backend_name()
    call check(name == "cuda" .or. (name == "cpu" .and. len(cn_unavailable_reason()) > 0), &
               "cuda is selected or its absence is explained")
    call cn_use_backend("cpu")
    call check(cn_backend_name() == "cpu", "cpu backend")
  end subroutine backend_is_cpu

  subroutine unary_ops()
    real(real64), target :: x1(7), y1(7), x2(5, 4), y2(5, 4), x3(3, 4, 2), y3(3, 4, 2)
    real(real32), target :: s1(6), t1(6)
    type(cn_array_t) :: xv, yv
    integer :: i
    x1 = [(0.3_real64 * i - 1.1_real64, i = 1, 7)]
    x2 = reshape([(0.17_real64 * i, i = 1, 20)], shape(x2))
    x3 = reshape([(1.0_real64 / i, i = 1, 24)], shape(x3))
    call cn_wrap(xv, x1)
    call cn_wrap(yv, y1)
    call cn_sin(xv, yv)
    call check_close(y1, sin(x1), "sin rank 1")
    call cn_cos(xv, yv)
    call check_close(y1, cos(x1), "cos rank 1")
    call cn_tanh(xv, yv)
    call check_close(y1, tanh(x1), "tanh rank 1")
    call cn_abs(xv, yv)
    call check_close(y1, abs(x1), "abs rank 1")
    call cn_floor(xv, yv)
    call check_close(y1, real(floor(x1), real64), "floor rank 1")
    call cn_ceil(xv, yv)
    call check_close(y1, real(ceiling(x1), real64), "ceil rank 1")
    call cn_negative(xv, yv)
    call check_close(y1, -x1, "negative rank 1")
    call cn_square(xv, yv)
    call check_close(y1, x1 * x1, "square rank 1")
    call cn_wrap(xv, x2)
    call cn_wrap(yv, y2)
    call cn_exp(xv, yv)
    call check_close(y2, exp(x2), "exp rank 2")
    call cn_sqrt(xv, yv)
    call check_close(y2, sqrt(x2), "sqrt rank 2")
    call cn_log(xv, yv)
    call check_close(y2, log(x2), "log rank 2")
    call cn_tan(xv, yv)
    call check_close(y2, tan(x2), "tan rank 2")
    call cn_wrap(xv, x3)
    call cn_wrap(yv, y3)
    call cn_exp(xv, yv)
    call check_close(y3, exp(x3), "exp rank 3")
    ! strided input and output sections
    y3 = 0
    call cn_wrap(xv, x3(3:1:-2, 2:4, :))
    call cn_wrap(yv, y3(1:2, 1:3, 2:1:-1))
    call cn_sin(xv, yv)
    call check_close(y3(1:2, 1:3, 2:1:-1), sin(x3(3:1:-2, 2:4, :)), "sin on sections")
    call check(all(y3(3, :, :) == 0) .and. all(y3(:, 4, :) == 0), &
               "only the output section is written")
    ! single precision stays single precision
    s1 = [(0.25 * i, i = 1, 6)]
    call cn_wrap(xv, s1)
    call cn_wrap(yv, t1)
    call cn_sqrt(xv, yv)
    call check_close(t1, sqrt(s1), "sqrt real32")
  end subroutine unary_ops

  subroutine binary_ops()
    real(real64), target :: a(4, 3), b(4, 3), c(4, 3), row(3)
    integer(int32), target :: ia(5), ib(5), ic(5)
    type(cn_array_t) :: av, bv, cv, rv
    integer :: i, j
    do j = 1, 3
      do i = 1, 4
        a(i, j) = 1.5_real64 * i - j
        b(i, j) = 0.25_real64 * (i + 2 * j)
      end do
    end do
    row = [10.0_real64, 20.0_real64, 30.0_real64]
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    call cn_wrap(cv, c)
    call cn_add(av, bv, cv)
    call check_close(c, a + b, "add")
    call cn_subtract(av, bv, cv)
    call check_close(c, a - b, "subtract")
    call cn_multiply(av, bv, cv)
    call check_close(c, a * b, "multiply")
    call cn_divide(av, bv, cv)
    call check_close(c, a / b, "divide")
    call cn_maximum(av, bv, cv)
    call check_close(c, max(a, b), "maximum")
    call cn_minimum(av, bv, cv)
    call check_close(c, min(a, b), "minimum")
    call cn_power(bv, bv, cv)
    call check_close(c, b**b, "power", 1e-13_real64)
    ! broadcasting: a (4,3) + row viewed as (1,3)
    call cn_wrap(rv, row)
    call c_reshape_1x3(rv)
    call cn_add(av, rv, cv)
    call check_close(c, a + spread(row, 1, 4), "add broadcasts a (1,3) row")
    ia = [7, -7, 9, 100, -3]
    ib = [2, 2, -4, 7, 5]
    call cn_wrap(av, ia)
    call cn_wrap(bv, ib)
    call cn_wrap(cv, ic)
    call cn_add(av, bv, cv)
    call check(all(ic == ia + ib), "int32 add")
    call cn_binary("floor_divide", av, bv, cv)
    call check(all(ic == floor(real(ia, real64) / ib)), "int32 floor_divide")
    call cn_binary("remainder", av, bv, cv)
    call check(all(ic == modulo(ia, ib)), "int32 remainder is Fortran's modulo")
  end subroutine binary_ops

  subroutine c_reshape_1x3(v)
    type(cn_array_t), intent(inout) :: v
    type(c_ptr) :: h(1)
    integer(c_int64_t) :: shp(2)
    shp = [1, 3]
    call check(c_cn_reshape(h, v%h, 2, shp, CN_ORDER_F) == CN_OK, "raw reshape")
    call c_cn_array_release(v%h)
    v%h = h(1)
  end subroutine c_reshape_1x3

  subroutine ops_by_name()
    real(real64), target :: x(6), lo(6), hi(6), y(6)
    type(cn_array_t) :: xv, lv, hv, yv, fresh
    type(c_ptr) :: where_y
    integer :: i
    x = [(real(i, real64) - 3.5_real64, i = 1, 6)]
    lo = -1
    hi = 1.5_real64
    call cn_wrap(xv, x)
    call cn_wrap(lv, lo)
    call cn_wrap(hv, hi)
    call cn_wrap(yv, y)
    call cn_apply("clip", [xv, lv, hv], yv)
    call check_close(y, min(max(x, lo), hi), "clip by name (3 inputs)")
    call cn_unary("arctan", xv, yv)
    call check_close(y, atan(x), "arctan by name")
    call cn_binary("hypot", xv, lv, yv)
    call check_close(y, hypot(x, lo), "hypot by name")
    call cn_unary("exp", xv, fresh)
    ! (c_loc goes through a variable: gfortran 12 crashes on c_loc as an
    ! argument of c_associated when both come through a module)
    where_y = c_loc(y)
    call check(.not. c_associated(cn_data(fresh), where_y), "an empty result gets a new array")
    call check_close(cn_item_real64_at(fresh, 2), exp(x(2)), "new array holds exp(x)")
  end subroutine ops_by_name

  real(real64) function cn_item_real64_at(a, i)
    type(cn_array_t), intent(in) :: a
    integer, intent(in) :: i
    real(real64), pointer :: p(:)
    nullify (p)
    call cn_pointer(a, p)
    cn_item_real64_at = p(i)
  end function cn_item_real64_at

  subroutine results_into_sections()
    real(real64), target :: u(10), w(10)
    type(cn_array_t) :: left, right, mid
    integer :: i
    u = [(real(i, real64)**2, i = 1, 10)]
    w = 0
    call cn_wrap(left, u(1:8))
    call cn_wrap(right, u(3:10))
    call cn_wrap(mid, w(2:9))
    call cn_add(left, right, mid)
    call check_close(w(2:9), u(1:8) + u(3:10), "stencil into a section")
    call check(w(1) == 0 .and. w(10) == 0, "boundary untouched")
  end subroutine results_into_sections

  subroutine reductions()
    real(real64), target :: x(4, 3, 2), m(4, 3)
    real(real64) :: got1(4), got2(4, 2), got3(3, 2)
    real(real32) :: got2_r4(4, 2)
    type(cn_array_t) :: xv, r, mv
    integer :: i
    x = reshape([(sin(real(i, real64)) * 10, i = 1, 24)], shape(x))
    call cn_wrap(xv, x)
    call cn_sum(xv, r)
    call check_close(cn_item_real64(r), sum(x), "sum of all")
    call cn_prod(xv, r)
    call check_close(cn_item_real64(r), product(x), "prod of all")
    call cn_mean(xv, r)
    call check_close(cn_item_real64(r), sum(x) / size(x), "mean of all")
    call cn_min(xv, r)
    call check_close(cn_item_real64(r), minval(x), "min of all")
    call cn_max(xv, r)
    call check_close(cn_item_real64(r), maxval(x), "max of all")
    call cn_sum(xv, r, dim=1)
    call check(all(cn_shape(r) == [3, 2]), "sum over dim 1 has shape (3, 2)")
    call cn_copy_out(r, got3)
    call check_close(got3, sum(x, dim=1), "sum dim=1")
    call cn_max(xv, r, dim=2)
    call cn_copy_out(r, got2)
    call check_close(got2, maxval(x, dim=2), "max dim=2")
    call cn_copy_out(r, got2_r4)
    call check_close(reshape(got2_r4, [8]), reshape(real(maxval(x, dim=2), real32), [8]), &
                     "copy_out casts float64 to real32")
    call cn_reduce("min", xv, r, dim=3)
    call cn_copy_out(r, m)
    call check_close(m, minval(x, dim=3), "min dim=3 by name")
    call cn_sum(xv, r, dim=3, keepdims=.true.)
    call check(all(cn_shape(r) == [4, 3, 1]), "keepdims keeps an extent of 1")
    ! reductions of a strided section
    call cn_wrap(xv, x(4:1:-2, :, 2))
    call cn_sum(xv, r, dim=2)
    call cn_copy_out(r, got1(1:2))
    call check_close(got1(1:2), sum(x(4:1:-2, :, 2), dim=2), "sum over a section")
    ! into a wrapped Fortran array (out=)
    m = 0
    call cn_wrap(mv, m)
    call cn_wrap(xv, x)
    call cn_reduce("mean", xv, r, dim=3, out=mv)
    call check_close(m, sum(x, dim=3) / 2, "mean dim=3 into a Fortran array")
    call check(c_associated(r%h, mv%h), "r refers to the out= array")
    call cn_max(xv, r, dim=3, out=mv)
    call check_close(m, maxval(x, dim=3), "max dim=3 into a Fortran array")
  end subroutine reductions

  subroutine weak_scalars()
    real(real32), target :: x(3), y(3)
    type(cn_array_t) :: xv, yv, s
    x = [1.0, 2.0, 3.0]
    call cn_wrap(xv, x)
    call cn_weak_scalar(s, cn_scalar_of(0.5_real64))
    call cn_multiply(xv, s, yv)
    call check(cn_dtype_of(yv) == CN_FLOAT32, "a weak real64 scalar keeps float32")
    call cn_release(yv)
    call cn_wrap(yv, y)
    call cn_multiply(xv, s, yv)
    call check_close(y, x * 0.5, "times a weak scalar")
    call cn_full(s, [3], cn_scalar_of(4_int32), dtype=CN_INT32)
    call cn_add(xv, s, yv)
    call check_close(y, x + 4, "plus an int32 array")
    call cn_fill(s, cn_scalar_of(7_int64))
    call cn_add(xv, s, yv)
    call check_close(y, x + 7, "after cn_fill")
  end subroutine weak_scalars

  subroutine matrix_product()
    real(real64), target :: a(5, 3), b(3, 4), c(5, 4)
    type(cn_array_t) :: av, bv, cv, fresh
    integer :: i
    a = reshape([(real(i, real64) / 7, i = 1, 15)], shape(a))
    b = reshape([(real(mod(i * 5, 11), real64) - 4, i = 1, 12)], shape(b))
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    call cn_wrap(cv, c)
    call cn_matmul(av, bv, cv)
    call check_close(c, matmul(a, b), "matmul into a Fortran array")
    call cn_matmul(av, bv, fresh)
    call check(all(cn_shape(fresh) == [5, 4]), "matmul result shape")
    c = 0
    call cn_copy_out(fresh, c)
    call check_close(c, matmul(a, b), "matmul into a new array")
  end subroutine matrix_product

end program test_ops
