# CUDA backend tests that need no GPU (included by tests/CMakeLists.txt):
# NVRTC compiles every generated kernel, the disk kernel cache, and the
# plugin's handshake and probe (no driver here: error 35 -> readable reason).
# tests/test_cuda.cpp (the public API and the CPU fallback) is an ordinary
# Catch2 test. The GPU checks are in tests/gpu/ (run by tests/gpu/run.sh).
# The planners' unit tests are registered by tests/cuda_plan.cmake.
if(TARGET cunumpy_cuda)
  add_executable(cuda_nvrtc_kernels ${CMAKE_CURRENT_SOURCE_DIR}/cuda/nvrtc_kernels.c)
  target_link_libraries(cuda_nvrtc_kernels PRIVATE cunumpy_cuda_codegen cunumpy)
  target_compile_options(cuda_nvrtc_kernels PRIVATE ${CUNUMPY_WARNINGS})
  foreach(mode elementwise reductions casts cache random index lapack matmul sort search fft
               scatter_add sparse)
    add_test(NAME cuda_nvrtc_${mode} COMMAND cuda_nvrtc_kernels ${mode} 90)
  endforeach()
  # The kernel cache test points CUNUMPY_KERNEL_CACHE at a temporary folder.
  set_tests_properties(cuda_nvrtc_elementwise cuda_nvrtc_reductions
                       PROPERTIES TIMEOUT 900)

  # The device prelude compiled as host code by nvcc and run on the CPU
  # against the CPU backend (prelude_host: special values of complex math,
  # casts, reduction accumulators, the indexing, lapack and matmul helpers;
  # rng_host: the random fills' work items; sort_host: the radix sort and
  # the searchsorted kernel's search):
  # no GPU needed. nvcc is not otherwise used. The prelude is the one
  # core/cuda/CMakeLists.txt assembles from its parts
  # (CUNUMPY_CUDA_PRELUDE, built with cunumpy_cuda_codegen).
  if(CUDAToolkit_NVCC_EXECUTABLE)
    get_filename_component(_prelude_dir ${CUNUMPY_CUDA_PRELUDE} DIRECTORY)
    # Plain C sources a host emulation links besides the library.
    set(_host_srcs_prelude_host ${PROJECT_SOURCE_DIR}/core/cuda/index_plan.c)
    set(_host_srcs_rng_host)
    # Device sources a host emulation includes (rebuild when they change).
    set(_host_deps_prelude_host ${PROJECT_SOURCE_DIR}/core/cuda/lapack.cuh)
    set(_host_deps_rng_host)
    # sort_host: the sort kernels run block by block in the plugin's plan,
    # against the CPU backend's sort.
    set(_host_srcs_sort_host ${PROJECT_SOURCE_DIR}/core/cuda/sort_plan.c)
    set(_host_deps_sort_host ${PROJECT_SOURCE_DIR}/core/cuda/sort_plan.h)
    foreach(_host prelude_host rng_host sort_host)
      set(_ph ${CMAKE_CURRENT_BINARY_DIR}/cuda_${_host})
      add_custom_command(
        OUTPUT ${_ph}
        COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -std=c++17 -O2
                -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/core/cuda
                -I${PROJECT_SOURCE_DIR}/core -I${_prelude_dir}
                ${CMAKE_CURRENT_SOURCE_DIR}/cuda/${_host}.cu
                ${_host_srcs_${_host}} -o ${_ph}
                -L$<TARGET_FILE_DIR:cunumpy> -lcunumpy
                -Xlinker -rpath=$<TARGET_FILE_DIR:cunumpy>
        DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cuda/${_host}.cu
                ${CMAKE_CURRENT_SOURCE_DIR}/cuda/host_device.h
                ${_host_srcs_${_host}} ${_host_deps_${_host}}
                cunumpy_cuda_codegen cunumpy
        COMMENT "nvcc: host emulation of the CUDA prelude (${_host})"
        VERBATIM)
      add_custom_target(cuda_${_host}_exe ALL DEPENDS ${_ph})
      add_test(NAME cuda_${_host} COMMAND ${_ph})
    endforeach()
  endif()

  add_executable(cuda_plugin_probe ${CMAKE_CURRENT_SOURCE_DIR}/cuda/plugin_probe.c)
  target_include_directories(cuda_plugin_probe PRIVATE ${PROJECT_SOURCE_DIR}/core)
  target_link_libraries(cuda_plugin_probe PRIVATE cunumpy ${CMAKE_DL_LIBS})
  target_compile_options(cuda_plugin_probe PRIVATE ${CUNUMPY_WARNINGS})
  add_dependencies(cuda_plugin_probe cunumpy_cuda)
  add_test(NAME cuda_plugin_probe
           COMMAND cuda_plugin_probe $<TARGET_FILE:cunumpy_cuda>)

  # The GPU check and benchmark programs are built here and run on the GPU
  # by tests/gpu/run.sh, on a machine with one.
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/gpu/gpu_check.c)
    add_executable(cuda_gpu_check ${CMAKE_CURRENT_SOURCE_DIR}/gpu/gpu_check.c)
    target_link_libraries(cuda_gpu_check PRIVATE cunumpy m)
    target_include_directories(cuda_gpu_check PRIVATE ${PROJECT_SOURCE_DIR}/core)
    target_compile_options(cuda_gpu_check PRIVATE ${CUNUMPY_WARNINGS})
    add_dependencies(cuda_gpu_check cunumpy_cuda)
    # Its harness, CPU against CPU, runs here: a comparison that misreads a
    # dtype fails on the CPU before it costs device time.
    add_test(NAME cuda_gpu_check_selftest COMMAND cuda_gpu_check)
    set_tests_properties(cuda_gpu_check_selftest PROPERTIES
                         ENVIRONMENT "GPU_CHECK_SELFTEST=1")
  endif()
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/gpu/bench_gpu.c)
    add_executable(cuda_bench_gpu ${CMAKE_CURRENT_SOURCE_DIR}/gpu/bench_gpu.c)
    target_link_libraries(cuda_bench_gpu PRIVATE cunumpy m)
    target_compile_options(cuda_bench_gpu PRIVATE ${CUNUMPY_WARNINGS})
    add_dependencies(cuda_bench_gpu cunumpy_cuda)
  endif()
endif()

# The CUDA source of the custom kernels the tests use (cn_kernel_source),
# compiled by NVRTC behind the device prelude.
if(TARGET cunumpy_cuda)
  add_executable(cuda_nvrtc_user_kernels ${CMAKE_CURRENT_SOURCE_DIR}/cuda/nvrtc_user_kernels.c)
  target_link_libraries(cuda_nvrtc_user_kernels PRIVATE cunumpy_cuda_codegen cunumpy)
  target_compile_options(cuda_nvrtc_user_kernels PRIVATE ${CUNUMPY_WARNINGS})
  add_test(NAME cuda_nvrtc_user_kernels COMMAND cuda_nvrtc_user_kernels 90)
endif()
# With the plugin built, the raw-module tests must reach NVRTC (compiling to
# PTX needs no GPU), instead of accepting CN_ERR_DEVICE.
if(TARGET cunumpy_cuda AND TEST test_kernel_raw)
  set_tests_properties(test_kernel_raw PROPERTIES ENVIRONMENT "CUNUMPY_TEST_NVRTC=1")
endif()

# The fused kernels of expression programs (core/cuda/expr_codegen.c):
# every program of tests/test_expr.cpp and a random sample, through NVRTC.
if(TARGET cunumpy_cuda)
  add_executable(cuda_nvrtc_expr ${CMAKE_CURRENT_SOURCE_DIR}/cuda/nvrtc_expr.c)
  target_link_libraries(cuda_nvrtc_expr PRIVATE cunumpy_cuda_codegen cunumpy)
  target_compile_options(cuda_nvrtc_expr PRIVATE ${CUNUMPY_WARNINGS})
  add_test(NAME cuda_nvrtc_expr COMMAND cuda_nvrtc_expr 90 40)
  set_tests_properties(cuda_nvrtc_expr PROPERTIES TIMEOUT 900)
endif()
