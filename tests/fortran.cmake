# Fortran tests (CUNUMPY_FORTRAN): every tests/fortran/test_*.f90 is a
# program checked against Fortran intrinsics, linked with the shared helper
# module tests/fortran/testing.f90; it exits non-zero when a check fails.
# tests/fortran/stop_*.f90 must end in `error stop` with cunumpy's message
# (an error without stat=), which the regular expression on their first
# line `! expect: REGEX` checks.
if(CUNUMPY_FORTRAN AND TARGET cunumpy_fortran)
  # Tests compare reals exactly on purpose and call impure functions in
  # logical expressions.
  set(CN_FORTRAN_TEST_FLAGS ${CN_FORTRAN_FLAGS} -Wno-compare-reals
      -Wno-function-elimination)
  add_library(cn_fortran_testing STATIC ${CMAKE_CURRENT_SOURCE_DIR}/fortran/testing.f90)
  target_link_libraries(cn_fortran_testing PUBLIC cunumpy_fortran)
  set_target_properties(cn_fortran_testing PROPERTIES Fortran_MODULE_DIRECTORY
                        ${CMAKE_CURRENT_BINARY_DIR}/fortran_mod)
  target_include_directories(cn_fortran_testing PUBLIC ${CMAKE_CURRENT_BINARY_DIR}/fortran_mod)
  target_compile_options(cn_fortran_testing PRIVATE ${CN_FORTRAN_TEST_FLAGS})

  file(GLOB CN_FORTRAN_TESTS CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_SOURCE_DIR}/fortran/test_*.f90)
  foreach(src ${CN_FORTRAN_TESTS})
    get_filename_component(name ${src} NAME_WE)
    add_executable(fortran_${name} ${src})
    target_link_libraries(fortran_${name} PRIVATE cn_fortran_testing)
    target_compile_options(fortran_${name} PRIVATE ${CN_FORTRAN_TEST_FLAGS})
    add_test(NAME fortran_${name} COMMAND fortran_${name})
  endforeach()

  file(GLOB CN_FORTRAN_STOPS CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_SOURCE_DIR}/fortran/stop_*.f90)
  foreach(src ${CN_FORTRAN_STOPS})
    get_filename_component(name ${src} NAME_WE)
    file(STRINGS ${src} expect LIMIT_COUNT 1 REGEX "^! expect: ")
    string(REGEX REPLACE "^! expect: " "" expect "${expect}")
    add_executable(fortran_${name} ${src})
    target_link_libraries(fortran_${name} PRIVATE cunumpy_fortran)
    target_compile_options(fortran_${name} PRIVATE ${CN_FORTRAN_TEST_FLAGS})
    add_test(NAME fortran_${name} COMMAND fortran_${name})
    # error stop exits non-zero: pass on the message, fail on a clean exit
    set_tests_properties(
      fortran_${name} PROPERTIES PASS_REGULAR_EXPRESSION "ERROR STOP ${expect}"
      FAIL_REGULAR_EXPRESSION "stop_reached_end;Sanitizer;runtime error")
  endforeach()

  # the example stops with an error when it drifts from the exact solution
  add_test(NAME fortran_example_heat COMMAND heat_f90 64 200)
  add_test(NAME fortran_example_poisson COMMAND poisson_f90 32)
  add_test(NAME fortran_example_kernels COMMAND kernels_f90 1000)
endif()
