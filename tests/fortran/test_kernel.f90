! Custom kernels from Fortran: elementwise and reduction kernels on wrapped
! Fortran arrays (compiled by the host C compiler on the CPU backend) checked
! against Fortran expressions, raw CUDA modules compiled to PTX by NVRTC,
! and the error paths.
program test_kernel
  use cunumpy
  use testing
  implicit none

  call cn_use_backend("cpu")
  call squared_difference()
  call generic_placeholders()
  call outputs_in_place()
  call l2norm_reduction()
  call bad_kernels()
  call cuda_module()
  call finish()

contains

  ! The seed's squared_diff, with y broadcast along the first dimension.
  subroutine squared_difference()
    real(real64), target :: x(4, 5), y(5)
    real(real64), pointer :: z(:, :)
    type(cn_kernel_t) :: k
    type(cn_array_t) :: xv, yv, outs(1)
    integer :: i, j
    x = reshape([(0.25_real64 * i, i = 1, 20)], shape(x))
    y = [(1.5_real64 * j, j = 1, 5)]
    call cn_elementwise_kernel(k, 'float64 x, float64 y', 'float64 z', &
                               'z = (x - y) * (x - y)', 'squared_diff')
    call cn_wrap(xv, x)
    call cn_wrap(yv, y)
    ! y has shape (5): it broadcasts against x's last dimension, which is
    ! Fortran's second, so z(i, j) = (x(i, j) - y(j))**2
    call cn_kernel_call(k, [xv, yv], outs)
    call check(cn_associated(outs(1)), "squared_diff allocates its output")
    call check(all(cn_shape(outs(1)) == [4, 5]), "output at the broadcast shape")
    call cn_pointer(outs(1), z)
    do j = 1, 5
      do i = 1, 4
        call check_close(z(i, j), (x(i, j) - y(j))**2, "squared_diff value")
      end do
    end do
  end subroutine squared_difference

  ! T resolved from the arguments: the same kernel runs on real32 and int32.
  subroutine generic_placeholders()
    real(real32), target :: a(6), b(6)
    integer(int32), target :: ia(6), ib(6)
    real(real32), pointer :: r(:)
    integer(int32), pointer :: ir(:)
    type(cn_kernel_t) :: k
    type(cn_array_t) :: av, bv, outs(1), iouts(1)
    integer :: i
    a = [(0.5 * i, i = 1, 6)]
    b = [(2.0 - i, i = 1, 6)]
    ia = [(3 * i, i = 1, 6)]
    ib = [(i - 4, i = 1, 6)]
    call cn_elementwise_kernel(k, 'T x, T y', 'T z', 'z = (x - y) * (x - y)', &
                               'generic_squared_diff')
    call cn_wrap(av, a)
    call cn_wrap(bv, b)
    call cn_kernel_call(k, [av, bv], outs)
    call check(cn_dtype_of(outs(1)) == CN_FLOAT32, "T = float32")
    call cn_pointer(outs(1), r)
    call check_close(real(r, real64), real((a - b)**2, real64), "float32 values")
    call cn_wrap(av, ia)
    call cn_wrap(bv, ib)
    call cn_kernel_call(k, [av, bv], iouts)
    call check(cn_dtype_of(iouts(1)) == CN_INT32, "T = int32")
    call cn_pointer(iouts(1), ir)
    call check(all(ir == (ia - ib)**2), "int32 values")
  end subroutine generic_placeholders

  ! Outputs that hold arrays are written in place: a strided section of a
  ! Fortran array, and a Python-style scalar argument.
  subroutine outputs_in_place()
    real(real64), target :: x(1, 8), out(3, 8)
    type(cn_kernel_t) :: k
    type(cn_array_t) :: xv, sv, outs(2), full
    integer :: i
    x(1, :) = [(1.0_real64 * i, i = 1, 8)]
    out = -1
    call cn_elementwise_kernel(k, 'float64 x, float64 s', 'float64 y, float64 w', &
                               'y = s * x; w = x + s', 'scaled')
    call cn_wrap(xv, x)
    call cn_weak_scalar(sv, cn_scalar_of(2.5_real64))
    call cn_wrap(full, out)
    call cn_section(outs(1), full, 1, 2, 2)
    call cn_section(outs(2), full, 1, 3, 3)
    ! rows of out are (1, 8) sections with stride 3, x's shape
    call cn_kernel_call(k, [xv, sv], outs)
    call check(all(out(2, :) == 2.5_real64 * x(1, :)), "first output written in place")
    call check(all(out(3, :) == x(1, :) + 2.5_real64), "second output written in place")
    call check(all(out(1, :) == -1), "the rest of the array untouched")
  end subroutine outputs_in_place

  ! The seed's l2norm: map x*x, reduce a + b, post-map sqrt.
  subroutine l2norm_reduction()
    real(real64), target :: x(6, 3), col(3)
    real(real64), pointer :: r(:)
    type(cn_kernel_t) :: k
    type(cn_array_t) :: xv, y, yin
    integer :: i, j
    x = reshape([(sin(0.7_real64 * i), i = 1, 18)], shape(x))
    call cn_reduction_kernel(k, 'T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')
    call cn_wrap(xv, x)
    call cn_kernel_reduce(k, [xv], y, dim=1)
    call check(all(cn_shape(y) == [3]), "l2norm over dim 1 has shape (3)")
    call cn_pointer(y, r)
    do j = 1, 3
      call check_close(r(j), norm2(x(:, j)), "l2norm per column")
    end do
    col = 0
    call cn_wrap(yin, col)
    call cn_kernel_reduce(k, [xv], yin, dim=1)
    call check_close(col, norm2(x, dim=1), "l2norm into a wrapped Fortran array")
    call cn_release(y)
    call cn_kernel_reduce(k, [xv], y)
    call check(cn_ndim(y) == 0, "full reduction is 0-d")
    call check_close(cn_item_real64(y), norm2(x), "l2norm of everything")
  end subroutine l2norm_reduction

  subroutine bad_kernels()
    real(real64), target :: x(4), y(3)
    type(cn_kernel_t) :: k, kept
    type(cn_array_t) :: xv, yv, outs(2), one(1)
    character(256) :: msg
    integer :: st
    msg = ""
    call cn_elementwise_kernel(k, 'float64 x y', 'float64 z', 'z = x', 'bad', &
                               stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "in_params", "syntax error in a parameter list")
    call check(.not. c_associated(k%h), "no kernel after a failed create")
    call cn_elementwise_kernel(k, 'float64 x', 'float64 z', 'z = 2 * x', 'twice')
    kept = k
    call cn_wrap(xv, x)
    call cn_wrap(yv, y)
    msg = ""
    call cn_kernel_call(k, [xv, yv], one, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "'twice' takes 1 inputs", "wrong argument count")
    call check(.not. cn_associated(one(1)), "no output after a failed call")
    call cn_elementwise_kernel(k, 'float64 x, float64 y', 'float64 z', 'z = x + y', 'sum2')
    msg = ""
    call cn_kernel_call(k, [xv, yv], one, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_SHAPE, msg, "broadcast", "shapes that do not broadcast")
    call cn_elementwise_kernel(k, 'float64 x', 'float64 y, float64 z', 'y = x; z = x', 'two')
    outs(1) = xv
    msg = ""
    call cn_kernel_call(k, [xv], outs, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "every output or none", "some outputs given")
    msg = ""
    call cn_kernel_call(k, [xv], one, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "2 outputs, got 1 and 1", "too few outputs")
    call check(c_associated(kept%h), "an assigned kernel keeps its own reference")
    call cn_kernel_call(kept, [xv], one)
    call check(cn_associated(one(1)), "the kept kernel still runs")
  end subroutine bad_kernels

  ! NVRTC compiles for an architecture without a GPU; loading and
  ! launching then needs the device.
  subroutine cuda_module()
    character(*), parameter :: src = &
      'extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {' &
      //new_line('a')//'  int i = blockIdx.x * blockDim.x + threadIdx.x;' &
      //new_line('a')//'  if (i < n) c[i] = a[i] + b[i] * SCALE;'//new_line('a')//'}'
    type(cn_cuda_module_t) :: m
    type(cn_cuda_function_t) :: f
    type(cn_array_t) :: a
    character(:), allocatable :: ptx
    character(1024) :: msg
    integer :: st
    msg = ""
    call cn_cuda_module_compile(m, src, name='vector_add.cu', options=['-DSCALE=2.0f'], &
                                arch=80, stat=st, errmsg=msg)
    if (st == CN_ERR_DEVICE) then
      ! no NVRTC in this build: the message says why
      call check(len_trim(msg) > 0, "NVRTC missing is explained")
      return
    end if
    call check(st == 0, "vector_add compiles to PTX: "//trim(msg))
    ptx = cn_cuda_module_ptx(m)
    call check(index(ptx, ".entry vector_add") > 0, "PTX holds the kernel")
    call check(index(ptx, ".target sm_80") > 0, "PTX for the requested architecture")
    msg = ""
    call cn_cuda_module_compile(m, 'extern "C" __global__ void k() { undefined_name; }', &
                                name='broken.cu', arch=80, stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "broken.cu(1)", "NVRTC log names the line")
    call check(c_associated(m%h), "a failed compile keeps the old module")
    if (cn_backend_supports_cuda()) return
    msg = ""
    call cn_cuda_get_function(f, m, 'vector_add', stat=st, errmsg=msg)
    call check_status(st, CN_ERR_DEVICE, msg, "CUDA", "loading needs a GPU")
    call cn_zeros(a, [4])
    msg = ""
    call cn_cuda_launch(f, [1], [4], [cn_arg(a), cn_arg(a), cn_arg(a), cn_arg(4_int32)], &
                        stat=st, errmsg=msg)
    call check(st /= 0, "launching without a function fails")
    call cn_cuda_launch(f, [1, 1, 1, 1], [4], [cn_arg(4_int32)], stat=st, errmsg=msg)
    call check_status(st, CN_ERR_VALUE, msg, "1 to 3", "grid of four extents")
  end subroutine cuda_module

  logical function cn_backend_supports_cuda()
    call cn_use_backend("cuda")
    cn_backend_supports_cuda = cn_backend_name() == "cuda"
    call cn_use_backend("cpu")
  end function cn_backend_supports_cuda

end program test_kernel
