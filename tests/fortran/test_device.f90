! The device helpers and profiler ranges through the raw binding
! (cunumpy_c), as a Fortran MPI code calls them: the local rank, device
! selection and memory query on the CPU backend, nested ranges, and the
! CUDA device attribute table (known without CUDA).
program test_device
  use cunumpy
  use cunumpy_c, only: c_cn_local_rank, c_cn_set_device, c_cn_memory_info, &
                       c_cn_set_device_for_rank, c_cn_range_push, &
                       c_cn_range_pop, c_cn_range_depth, c_cn_set_backend, &
                       c_cn_cuda_device_attribute_count, &
                       c_cn_cuda_device_attribute_info, &
                       c_cn_cuda_device_attribute, c_cn_cuda_device_count
  use testing
  implicit none

  call helpers_on_the_cpu()
  call ranges_nest()
  call attribute_table()
  call finish()

contains

  subroutine helpers_on_the_cpu()
    integer(c_int32_t) :: st, rank(1), avail(1), dev(1)
    integer(c_int64_t) :: free_b(1), total_b(1)
    st = c_cn_set_backend("cpu"//c_null_char)
    call check(st == 0, "cpu backend")
    rank = -1
    st = c_cn_local_rank(rank)
    call check(st == 0 .and. rank(1) >= 0, "local rank read")
    call check(c_cn_set_device(2_c_int32_t) == 0, "set_device is a no-op")
    avail = 9
    st = c_cn_memory_info(avail, free_b, total_b)
    call check(st == 0 .and. avail(1) == 0 .and. total_b(1) == 0, &
               "no device memory on the cpu")
    dev = 9
    st = c_cn_set_device_for_rank(dev, 3_c_int32_t)
    call check(st == 0 .and. dev(1) == -1, "no device for a rank on the cpu")
    st = c_cn_set_device_for_rank(dev, -3_c_int32_t)
    call check(st /= 0 .and. dev(1) == -1, "negative rank refused")
  end subroutine helpers_on_the_cpu

  subroutine ranges_nest()
    integer(c_int32_t) :: st
    st = c_cn_range_push("solve"//c_null_char, -1_c_int32_t)
    call check(st == 0, "push")
    st = c_cn_range_push("halo"//c_null_char, 2_c_int32_t)
    call check(st == 0 .and. c_cn_range_depth() == 2, "nested push")
    call check(c_cn_range_pop() == 0 .and. c_cn_range_pop() == 0, "pops")
    call check(c_cn_range_depth() == 0, "all closed")
    call check(c_cn_range_pop() /= 0, "pop without push refused")
  end subroutine ranges_nest

  subroutine attribute_table()
    interface
      function strlen(p) bind(c, name='strlen') result(n)
        import :: c_ptr, c_size_t
        type(c_ptr), value :: p
        integer(c_size_t) :: n
      end function strlen
    end interface
    integer(c_int32_t) :: st, n(1), number(1), value(1), ndev(1)
    type(c_ptr) :: name(1)
    character(kind=c_char), pointer :: chars(:)
    st = c_cn_cuda_device_attribute_count(n)
    call check(st == 0 .and. n(1) > 100, "attribute count")
    st = c_cn_cuda_device_attribute_info(name, number, 0_c_int32_t)
    call check(st == 0 .and. number(1) == 1, "first attribute number")
    call c_f_pointer(name(1), chars, [int(strlen(name(1)))])
    call check(size(chars) == 18, "first attribute name length")
    call check(all(chars == transfer("MaxThreadsPerBlock", chars)), &
               "first attribute name")
    st = c_cn_cuda_device_attribute_info(name, number, n(1))
    call check(st == 3, "index past the table: CN_ERR_INDEX")
    value = -7
    st = c_cn_cuda_device_attribute(value, 92_c_int32_t, 0_c_int32_t)
    call check(st == 1 .and. value(1) == -7, "reserved number refused")
    st = c_cn_cuda_device_count(ndev)
    st = c_cn_cuda_device_attribute(value, 10_c_int32_t, 0_c_int32_t)
    if (ndev(1) == 0) then
      call check(st == 6 .and. value(1) == -7, "no CUDA: CN_ERR_DEVICE")
    else
      call check(st == 0 .and. value(1) == 32, "warp size")
    end if
  end subroutine attribute_table
end program test_device
