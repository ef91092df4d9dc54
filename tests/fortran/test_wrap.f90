! Fortran arrays as zero-copy cunumpy views (every element type, ranks 0..7,
! strided and reversed sections), copies in and out, and Fortran pointers
! onto cunumpy memory, checked against Fortran intrinsics.
program test_wrap
  use cunumpy
  use testing
  implicit none

  call views_share_memory()
  call sections_are_strided_views()
  call every_element_type()
  call every_rank()
  call copies_are_independent()
  call pointers_onto_engine_memory()
  call float16_bits()
  call readonly_views()
  call finish()

contains

  subroutine fill(x)
    real(real64), intent(out) :: x(:, :)
    integer :: i, j
    do j = 1, size(x, 2)
      do i = 1, size(x, 1)
        x(i, j) = real(i, real64) + 0.1_real64 * j - 0.37_real64 * i * j
      end do
    end do
  end subroutine fill

  subroutine views_share_memory()
    real(real64), target :: x(4, 5), want(4, 5)
    type(cn_array_t) :: v, sum_of
    type(c_ptr) :: first
    integer(int64), allocatable :: s(:)
    integer(c_int64_t) :: strides(2)
    integer(c_int32_t) :: st
    call fill(x)
    want = sin(x)
    allocate (s(0))
    call cn_wrap(v, x)
    ! (c_loc goes through a variable: gfortran 12 crashes on c_loc as an
    ! argument of c_associated when both come through a module)
    first = c_loc(x(1, 1))
    call check(c_associated(cn_data(v), first), "view points at x(1,1)")
    s = cn_shape(v)
    call check(size(s) == 2, "view has rank 2")
    call check(all(s == [4, 5]), "view has x's shape")
    st = c_cn_array_strides(strides, 2, v%h)
    call check(st == CN_OK .and. all(strides == [1, 4]), "column-major strides (1, 4)")
    call check(cn_dtype_of(v) == CN_FLOAT64, "real64 is float64")
    call check(iand(flags(v), CN_FLAG_F_CONTIGUOUS) /= 0, "view is F-contiguous")
    call cn_sin(v, v)
    call check_close(x, want, "cn_sin(v, v) computed in place in x")
    x(2, 3) = 42
    call cn_sum(v, sum_of)
    call check_close(cn_item_real64(sum_of), sum(x), "the view sees later writes to x")
    call cn_release(sum_of)
  end subroutine views_share_memory

  integer(c_int32_t) function flags(v)
    type(cn_array_t), intent(in) :: v
    integer(c_int32_t) :: f(1)
    f = 0
    if (c_cn_array_flags(f, v%h) /= CN_OK) f = -1
    flags = f(1)
  end function flags

  subroutine sections_are_strided_views()
    real(real64), target :: x(6, 7)
    real(real64) :: got(3, 4), got2(2)
    type(cn_array_t) :: v, r
    type(c_ptr) :: first
    integer(c_int64_t) :: strides(2)
    integer(c_int32_t) :: st
    call fill(x)
    ! every other row, columns 7, 5, 3, 1
    call cn_wrap(v, x(1:6:2, 7:1:-2))
    call check(all(cn_shape(v) == [3, 4]), "section shape (3, 4)")
    st = c_cn_array_strides(strides, 2, v%h)
    call check(st == CN_OK .and. all(strides == [2, -12]), "section strides (2, -12)")
    first = c_loc(x(1, 7))
    call check(c_associated(cn_data(v), first), "section starts at x(1,7)")
    call cn_sum(v, r)
    call check_close(cn_item_real64(r), sum(x(1:6:2, 7:1:-2)), "sum over a section")
    call cn_copy_out(v, got)
    call check_close(got, x(1:6:2, 7:1:-2), "copy_out of a section")
    call cn_max(v, r, dim=1)
    call cn_copy_out(r, got(1, :))
    call check_close(got(1, :), maxval(x(1:6:2, 7:1:-2), dim=1), "max over dim 1 of a section")
    ! writing through a strided view touches only the section
    call cn_zeros(r, [3, 4])
    call cn_assign(v, r)
    call check(all(x(1:6:2, 7:1:-2) == 0), "assign zeroes the section")
    call check(all(x(2:6:2, :) /= 0), "and leaves the other rows alone")
    ! a component of an array of derived type: stride 3 in memory
    call component_slices()
    ! a section of a row: stride 6 in memory
    call cn_wrap(v, x(2, 2:3))
    call cn_copy_out(v, got2)
    call check_close(got2, x(2, 2:3), "row section")
  end subroutine sections_are_strided_views

  subroutine component_slices()
    type :: particle
      real(real64) :: x, y, m
    end type particle
    type(particle), target :: pts(5)
    real(real64) :: got(5)
    type(cn_array_t) :: v, r
    integer(c_int64_t) :: strides(1)
    integer :: i
    pts = [(particle(real(i, real64), -2.0_real64 * i, 0.5_real64), i = 1, 5)]
    ! (cn_wrap would get a packed copy from gfortran: see cn_wrap_handle)
    call check(cn_wrap_handle(v%h, pts%y, 0) == CN_OK, "cn_wrap_handle of pts%y")
    call check(c_cn_array_strides(strides, 1, v%h) == CN_OK .and. strides(1) == 3, &
               "pts%y is a view with stride 3")
    call cn_sum(v, r)
    call check_close(cn_item_real64(r), sum(pts%y), "sum of a component")
    call cn_negative(v, v)
    call cn_copy_out(v, got)
    call check_close(got, [(2.0_real64 * i, i = 1, 5)], "in place through the component view")
    call check(all(pts%x == [(real(i, real64), i = 1, 5)]), "other components untouched")
    call check(cn_refcount(v) == 1, "one reference")
    call check(cn_wrap_handle(v%h, pts%m, 1) == CN_OK, "cn_wrap_handle replaces the view")
    call check(iand(flags(v), CN_FLAG_WRITEABLE) == 0, "readonly=1 gives a read-only view")
    call cn_sum(v, r)
    call check_close(cn_item_real64(r), 2.5_real64, "sum of pts%m")
    ! copies in and out go through Fortran temporaries correctly
    call cn_copy_in(r, pts%x)
    call cn_copy_out(r, pts%m)
    call check(all(pts%m == pts%x), "copy_out into a component slice")
  end subroutine component_slices

  subroutine every_element_type()
    real(real32), target :: r4(5)
    complex(real32), target :: c4(3)
    complex(real64), target :: c8(3)
    integer(int8), target :: i1(4)
    integer(int16), target :: i2(4)
    integer(int32), target :: i4(4)
    integer(int64), target :: i8(4)
    logical(c_bool), target :: l1(4)
    complex(real64) :: zsum
    type(cn_array_t) :: v, r
    r4 = [1.5, -2.25, 3.0, 4.125, -0.5]
    call cn_wrap(v, r4)
    call check(cn_dtype_of(v) == CN_FLOAT32, "real32 is float32")
    call cn_sum(v, r)
    call check_close(cn_item_real64(r), real(sum(r4), real64), "real32 sum")
    c8 = [(1.0_real64, 2.0_real64), (-3.5_real64, 0.25_real64), (0.0_real64, -1.0_real64)]
    call cn_wrap(v, c8)
    call check(cn_dtype_of(v) == CN_COMPLEX128, "complex(real64) is complex128")
    call cn_sum(v, r)
    zsum = cn_item_complex128(r)
    call check_close([zsum], [sum(c8)], "complex128 sum")
    c4 = cmplx(c8, kind=real32)
    call cn_wrap(v, c4)
    call check(cn_dtype_of(v) == CN_COMPLEX64, "complex(real32) is complex64")
    call cn_sum(v, r)
    zsum = cn_item_complex128(r)
    call check_close([zsum], [cmplx(sum(c4), kind=real64)], "complex64 sum", 1e-6_real64)
    i1 = [int(-100, int8), 27_int8, 5_int8, 127_int8]
    call cn_wrap(v, i1)
    call check(cn_dtype_of(v) == CN_INT8, "int8")
    call cn_sum(v, r)
    call check(cn_item_int64(r) == sum(int(i1, int64)), "int8 sums in int64 as NumPy")
    i2 = [30000_int16, 30000_int16, -7_int16, 1_int16]
    call cn_wrap(v, i2)
    call check(cn_dtype_of(v) == CN_INT16, "int16")
    call cn_sum(v, r)
    call check(cn_item_int64(r) == sum(int(i2, int64)), "int16 sum")
    i4 = [2000000000, 2000000000, -3, 9]
    call cn_wrap(v, i4)
    call check(cn_dtype_of(v) == CN_INT32, "int32")
    call cn_sum(v, r)
    call check(cn_item_int64(r) == sum(int(i4, int64)), "int32 sum does not overflow")
    call cn_max(v, r)
    call check(cn_item_int64(r) == maxval(i4), "int32 max")
    i8 = [huge(1_int64) - 5, 2_int64, 3_int64, -1_int64]
    call cn_wrap(v, i8)
    call check(cn_dtype_of(v) == CN_INT64, "int64")
    call cn_sum(v, r)
    call check(cn_item_int64(r) == sum(i8), "int64 sum")
    l1 = [.true., .false., .true., .true.]
    call cn_wrap(v, l1)
    call check(cn_dtype_of(v) == CN_BOOL, "logical(c_bool) is bool")
    call cn_any(v, r)
    call check(cn_item_int64(r) == 1, "any")
    call cn_all(v, r)
    call check(cn_item_int64(r) == 0, "all")
    call cn_sum(v, r)
    call check(cn_item_int64(r) == count(logical(l1)), "sum of bools counts")
    ! logical results come back as logical(c_bool)
    call cn_release(r)
    call cn_wrap(v, r4(2:5))
    call cn_apply("greater", [v, v], r)
    call check(cn_dtype_of(r) == CN_BOOL, "comparison gives bool")
    call cn_copy_out(r, l1)
    call check(.not. any(logical(l1)), "x > x is false everywhere")
  end subroutine every_element_type

  subroutine every_rank()
    real(real64), target :: s0, x1(3), x2(2, 3), x3(2, 3, 2), x4(2, 2, 2, 3)
    real(real64), target :: x5(2, 1, 2, 2, 3), x6(1, 2, 2, 1, 2, 3), x7(2, 1, 2, 1, 2, 1, 3)
    real(real64), target :: empty(0, 3)
    real(real64) :: want
    type(cn_array_t) :: v, r
    integer :: i, i3, i5, i7
    s0 = 2.5
    x1 = [(real(i, real64), i = 1, 3)]
    x2 = reshape([(real(i, real64) * 0.5, i = 1, 6)], shape(x2))
    x3 = reshape([(real(i, real64) - 3, i = 1, 12)], shape(x3))
    x4 = reshape([(sqrt(real(i, real64)), i = 1, 24)], shape(x4))
    x5 = reshape(x4, shape(x5))
    x6 = reshape(x4, shape(x6))
    x7 = reshape(x4, shape(x7))
    call cn_wrap(v, s0)
    call check(cn_ndim(v) == 0, "a scalar is a 0-d array")
    call check_close(cn_item_real64(v), s0, "0-d value")
    call cn_wrap(v, x1)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 1, "rank 1")
    call check_close(cn_item_real64(r), sum(x1), "rank 1 sum")
    call cn_wrap(v, x2)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 2, "rank 2")
    call check_close(cn_item_real64(r), sum(x2), "rank 2 sum")
    call cn_wrap(v, x3)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 3, "rank 3")
    call check_close(cn_item_real64(r), sum(x3), "rank 3 sum")
    call cn_wrap(v, x4)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 4, "rank 4")
    call check_close(cn_item_real64(r), sum(x4), "rank 4 sum")
    call cn_wrap(v, x5)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 5 .and. all(cn_shape(v) == shape(x5)), "rank 5")
    call check_close(cn_item_real64(r), sum(x5), "rank 5 sum")
    call cn_wrap(v, x6)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 6 .and. all(cn_shape(v) == shape(x6)), "rank 6")
    call check_close(cn_item_real64(r), sum(x6), "rank 6 sum")
    call cn_wrap(v, x7)
    call cn_sum(v, r)
    call check(cn_ndim(v) == 7 .and. all(cn_shape(v) == shape(x7)), "rank 7")
    call check_close(cn_item_real64(r), sum(x7), "rank 7 sum")
    call cn_wrap(v, x7(:, :, 2:1:-1, :, :, :, 1:3:2))
    call cn_sum(v, r)
    ! the oracle is a loop: gfortran 12 at -O2 gets sum() of this very
    ! section wrong (77.2 instead of 52.47)
    want = 0
    do i7 = 1, 3, 2
      do i5 = 1, 2
        do i3 = 2, 1, -1
          do i = 1, 2
            want = want + x7(i, 1, i3, 1, i5, 1, i7)
          end do
        end do
      end do
    end do
    call check_close(cn_item_real64(r), want, "rank 7 strided section sum")
    call cn_wrap(v, empty)
    call check(cn_size(v) == 0 .and. all(cn_shape(v) == [0, 3]), "zero-size array")
    call cn_sum(v, r)
    call check_close(cn_item_real64(r), 0.0_real64, "sum of nothing is 0")
  end subroutine every_rank

  subroutine copies_are_independent()
    real(real64) :: x(3, 2), back(3, 2)
    type(cn_array_t) :: c
    call fill(x)
    call cn_copy_in(c, x)
    call check(iand(flags(c), CN_FLAG_F_CONTIGUOUS) /= 0, "cn_copy_in makes a column-major copy")
    x = -1
    call cn_copy_out(c, back)
    call check(all(back /= -1), "cn_copy_in copies")
    call fill(x)
    call check_close(back, x, "the copy holds the values")
  end subroutine copies_are_independent

  ! float16 elements through their bit patterns: 1.5 is 0x3e00 (15872), -2
  ! is 0xc000 (-16384 as int16), and 1/3 rounds to 0x3555 (13653).
  subroutine float16_bits()
    type(cn_array_t) :: a, w
    integer(c_int16_t), pointer :: p(:)
    integer(c_int16_t), pointer :: q(:)
    call cn_full(a, [3], cn_scalar_of(1.5_real64), dtype=CN_FLOAT16)
    call cn_pointer_f2(a, p)
    call check(all(p == 15872_c_int16_t), "float16 1.5 has bits 0x3e00")
    p(2) = -16384_c_int16_t
    call cn_sum(a, w)
    call check_close(cn_item_real64(w), 1.0_real64, "float16 writes reach the engine")
    call cn_full(w, [2], cn_scalar_of(1.0_real64 / 3.0_real64), dtype=CN_FLOAT16)
    call cn_pointer_f2(w, q)
    call check(all(q == 13653_c_int16_t), "float16 1/3 rounds to 0x3555")
  end subroutine float16_bits

  subroutine pointers_onto_engine_memory()
    type(cn_array_t) :: a, t, r, v
    real(real64), pointer :: p(:, :), q(:, :), p0
    integer(int32), pointer :: pi(:)
    real(real64), target :: x(3, 4)
    integer :: i, j
    call cn_zeros(a, [3, 4])
    call cn_pointer(a, p)
    call check(all(shape(p) == [3, 4]), "pointer has the array's shape")
    call check(all(lbound(p) == 1), "lower bounds are 1")
    call fill(x)
    p = x
    call cn_sum(a, r)
    call check_close(cn_item_real64(r), sum(x), "writes through the pointer reach the engine")
    ! a transposed view: a strided pointer, no copy
    call cn_transpose(a, t)
    call cn_pointer(t, q)
    call check(all(shape(q) == [4, 3]), "pointer onto a transposed view")
    do j = 1, 3
      do i = 1, 4
        if (q(i, j) /= x(j, i)) call check(.false., "transposed pointer element")
      end do
    end do
    call check(associated(q) .and. .not. is_contiguous(q), "the pointer is strided")
    call check(c_associated(cn_data(t), cn_data(a)), "and shares the memory")
    q(2, 3) = -8
    call check(p(3, 2) == -8, "writes through the transposed pointer")
    x(3, 2) = -8
    ! a reversed engine view
    call cn_section(v, a, 2, 4, 1, -1)
    call cn_pointer(v, q)
    call check_close(q, x(:, 4:1:-1), "pointer onto a reversed section")
    call cn_section(v, a, 1, 3, 1, -2)
    call cn_pointer(v, q)
    call check_close(q, x(3:1:-2, :), "pointer onto a section with step -2")
    call cn_section(v, a, 2, 2, 4, 2)
    call cn_pointer(v, q)
    call check_close(q, x(:, 2:4:2), "pointer onto a section with step 2")
    ! 0-d and integer arrays
    call cn_sum(a, r)
    nullify (p0)
    call cn_pointer(r, p0)
    call check_close(p0, sum(x), "0-d pointer")
    call cn_copy_in(v, [1, 2, 3])
    call cn_pointer(v, pi)
    call check(all(pi == [1, 2, 3]), "int32 pointer")
  end subroutine pointers_onto_engine_memory

  subroutine readonly_views()
    real(real64), target :: x(4)
    type(cn_array_t) :: v
    integer :: st
    character(300) :: msg
    x = [1, 2, 3, 4]
    call cn_wrap(v, x, readonly=.true.)
    call check(iand(flags(v), CN_FLAG_WRITEABLE) == 0, "readonly view is not writeable")
    msg = ""
    call cn_sqrt(v, v, stat=st, errmsg=msg)
    call check(st == CN_ERR_VALUE, "writing into a read-only view fails")
    call check(len_trim(msg) > 0, "with a message")
    call check(all(x == [1, 2, 3, 4]), "and x is unchanged")
  end subroutine readonly_views

end program test_wrap
