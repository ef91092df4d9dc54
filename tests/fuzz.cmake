# libFuzzer targets (tests/fuzz/fuzz_<target>.c), built with
# -DCUNUMPY_FUZZ=ON (clang, ASan+UBSan). ctest replays each target's
# checked-in seed corpus (tests/fuzz/corpus/<target>/) and runs 10000 new
# inputs from a fixed seed; what it discovers goes to the build tree, never
# into the checked-in corpus. scripts/fuzz.sh runs them long.
if(CUNUMPY_FUZZ)
  file(GLOB CN_FUZZ_SOURCES CONFIGURE_DEPENDS
       ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c)
  foreach(src ${CN_FUZZ_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    string(REGEX REPLACE "^fuzz_" "" target ${name})
    add_executable(${name} ${src})
    target_link_libraries(${name} PRIVATE cunumpy)
    target_compile_options(${name} PRIVATE ${CUNUMPY_WARNINGS}
                                           -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    set(found ${CMAKE_CURRENT_BINARY_DIR}/fuzz/found/${target})
    file(MAKE_DIRECTORY ${found} ${CMAKE_CURRENT_BINARY_DIR}/fuzz/artifacts)
    add_test(NAME ${name}
             COMMAND ${name} -runs=10000 -seed=1 -max_len=512
                     -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz/artifacts/${target}-
                     ${found} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target})
    set_tests_properties(${name} PROPERTIES LABELS "capi;fuzz"
                         ENVIRONMENT "OMP_NUM_THREADS=1")
  endforeach()
endif()
