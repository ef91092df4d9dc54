# libFuzzer targets (tests/fuzz/fuzz_<target>.c), built with
# -DCUNUMPY_FUZZ=ON (clang, ASan+UBSan). ctest replays each target's
# checked-in seed corpus (tests/fuzz/corpus/<target>/) and runs 10000 new
# inputs from a fixed seed; what it discovers goes to
# the build tree (fuzz/ctest-found/, emptied on each run), never
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
    # libFuzzer's runtime is C++ (libstdc++, libm).
    target_link_libraries(${name} PRIVATE stdc++ m)
    # its own folder: found/ keeps what scripts/fuzz.sh discovers
    set(found ${CMAKE_CURRENT_BINARY_DIR}/fuzz/ctest-found/${target})
    file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz/artifacts)
    set(runs 10000)
    # That folder starts empty on every run, so that a fixed seed
    # replays the same inputs whatever an earlier run discovered.
    add_test(NAME ${name}
             COMMAND sh -c "rm -rf \"$1\" && mkdir -p \"$1\" && shift && exec \"$@\""
                     sh ${found} $<TARGET_FILE:${name}> -runs=${runs} -seed=1 -max_len=512
                     -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz/artifacts/${target}-
                     ${found} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${target})
    # clang's driver names libFuzzer's libstdc++ ahead of the shared ASan
    # runtime (-shared-libsan, see CMakeLists.txt), which ASan's start-up
    # check refuses; only libFuzzer's own C++ allocations are affected
    # (the harnesses and the engine are C), so that check is off here.
    set_tests_properties(${name} PROPERTIES LABELS "capi;fuzz"
                         ENVIRONMENT "OMP_NUM_THREADS=1;ASAN_OPTIONS=detect_leaks=1:verify_asan_link_order=0")
  endforeach()
endif()
