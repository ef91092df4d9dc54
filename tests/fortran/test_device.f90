! The device helpers and profiler ranges through the raw binding
! (cunumpy_c), as a Fortran MPI code calls them: the local rank, device
! selection and memory query on the CPU backend, and nested ranges.
program test_device
  use cunumpy
  use cunumpy_c, only: c_cn_local_rank, c_cn_set_device, c_cn_memory_info, &
                       c_cn_set_device_for_rank, c_cn_range_push, &
                       c_cn_range_pop, c_cn_range_depth, c_cn_set_backend
  use testing
  implicit none

  call helpers_on_the_cpu()
  call ranges_nest()
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
end program test_device
