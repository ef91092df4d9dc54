# include/cunumpy/ufunc.h is generated from core/ops.def; this test reruns
# the generator into the build tree and fails when the checked-in header is
# stale, with the command that fixes it.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(
    NAME ufunc_header_fresh
    COMMAND
      ${CMAKE_COMMAND} -DPYTHON=${Python3_EXECUTABLE}
      -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/ufunc.h.fresh
      -P ${CMAKE_CURRENT_SOURCE_DIR}/ufunc_header_check.cmake.in)
endif()
