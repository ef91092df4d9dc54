! Custom kernels from Fortran: CuPy's squared_diff (an elementwise kernel)
! and l2norm (a reduction kernel) on Fortran arrays, then a raw CUDA kernel
! (vector_add) launched on engine arrays on the GPU when one is available.
!
!   kernels_f90 [n]
!
! On the CPU backend the kernel bodies are compiled by the host C compiler
! (CUNUMPY_CC, else cc) and cached on disk; on CUDA by NVRTC. Stops with an
! error when a result differs from the same computation in Fortran.
program kernels
  use cunumpy
  implicit none
  integer :: n, i
  character(32) :: arg
  real(real64), allocatable, target :: x(:, :), y(:), norms(:)
  real(real64), pointer :: z(:, :)
  type(cn_kernel_t) :: squared_diff, l2norm
  type(cn_array_t) :: xv, yv, nv, outs(1)

  n = 1000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  allocate (x(n, 3), y(3), norms(3))
  x = reshape([(cos(0.001_real64 * i), i = 1, 3 * n)], shape(x))
  y = [0.5_real64, 1.0_real64, 1.5_real64]

  call cn_use_backend("cpu")
  call cn_elementwise_kernel(squared_diff, 'float64 x, float64 y', 'float64 z', &
                             'z = (x - y) * (x - y)', 'squared_diff')
  call cn_reduction_kernel(l2norm, 'T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', &
                           'l2norm')
  call cn_wrap(xv, x)
  call cn_wrap(yv, y)
  ! z(i, j) = (x(i, j) - y(j))**2: y broadcasts along the first dimension
  call cn_kernel_call(squared_diff, [xv, yv], outs)
  call cn_pointer(outs(1), z)
  if (maxval(abs(z - (x - spread(y, 1, n))**2)) > 1e-15_real64) &
    error stop "squared_diff differs from Fortran"
  ! norms(j) = norm2(x(:, j)), written into the wrapped Fortran array
  call cn_wrap(nv, norms)
  call cn_kernel_reduce(l2norm, [xv], nv, dim=1)
  if (maxval(abs(norms - norm2(x, dim=1))) > 1e-12_real64 * maxval(norms)) &
    error stop "l2norm differs from norm2"
  print '(a, 3f12.6)', "l2norm of the columns:", norms

  call cuda_vector_add()

contains

  ! CuPy's RawKernel vector_add, compiled by NVRTC and launched on arrays
  ! the engine moved to the GPU.
  subroutine cuda_vector_add()
    character(*), parameter :: src = &
      'extern "C" __global__ void vector_add(const double* a, const double* b, double* c,' &
      //' int n) {'//new_line('a')//'  int i = blockIdx.x * blockDim.x + threadIdx.x;' &
      //new_line('a')//'  if (i < n) c[i] = a[i] + b[i];'//new_line('a')//'}'
    type(cn_cuda_module_t) :: m
    type(cn_cuda_function_t) :: f
    type(cn_array_t) :: ha, hb, a, b, c, back
    real(real64), target :: hc(n)
    call cn_use_backend("cuda")
    if (cn_backend_name() /= "cuda") then
      print '(2a)', "no CUDA kernel launched: ", cn_unavailable_reason()
      return
    end if
    call cn_cuda_module_compile(m, src, name='vector_add.cu')
    call cn_cuda_get_function(f, m, 'vector_add')
    call cn_wrap(ha, x(:, 1))
    call cn_to_active(ha, a)
    call cn_wrap(hb, x(:, 2))
    call cn_to_active(hb, b)
    call cn_zeros(c, [n])
    call cn_cuda_launch(f, [(n + 127) / 128], [128], &
                        [cn_arg(a), cn_arg(b), cn_arg(c), cn_arg(int(n, int32))])
    call cn_to_host(c, back)
    call cn_copy_out(back, hc)
    if (maxval(abs(hc - (x(:, 1) + x(:, 2)))) > 0) error stop "vector_add differs"
    print '(a, i0, a)', "vector_add on the GPU: ", n, " elements"
    call cn_use_backend("cpu")
  end subroutine cuda_vector_add

end program kernels
