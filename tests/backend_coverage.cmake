# The README's backend coverage table is printed by tests/backend_coverage.c
# from cn_backend_supports; this test fails when the README's copy differs.
# It needs the CUDA plugin (its table answers for "cuda" without a device).
add_executable(backend_coverage ${CMAKE_CURRENT_SOURCE_DIR}/backend_coverage.c)
target_link_libraries(backend_coverage PRIVATE cunumpy)
target_compile_options(backend_coverage PRIVATE ${CUNUMPY_WARNINGS})
if(TARGET cunumpy_cuda)
  add_dependencies(backend_coverage cunumpy_cuda)
  add_test(
    NAME backend_coverage_readme
    COMMAND
      ${CMAKE_COMMAND} -DPROG=$<TARGET_FILE:backend_coverage>
      -DPLUGIN=$<TARGET_FILE:cunumpy_cuda> -DREADME=${PROJECT_SOURCE_DIR}/README.md
      -P ${CMAKE_CURRENT_SOURCE_DIR}/backend_coverage_check.cmake.in)
endif()
