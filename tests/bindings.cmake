# Checks of the generated Fortran/Julia bindings that need neither gfortran
# nor Julia (tools/gen_bindings.py, with libclang: pip install libclang):
# - the checked-in outputs (bindings/fortran/cunumpy_c.f90 and
#   cunumpy_wrappers.inc, bindings/julia/CuNumpy/src/generated.jl) are what
#   the generator makes from the headers (and, for the wrappers, from the
#   names cunumpy.F90 defines by hand) now;
# - every ccall in bindings/julia/CuNumpy/src/*.jl names a symbol exported by
#   the built libcunumpy, with the argument and return types of its prototype.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME bindings_generated_up_to_date
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/gen_bindings.py --check)
  add_test(NAME bindings_julia_ccalls
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/gen_bindings.py
                   --check-julia $<TARGET_FILE:cunumpy>)
  # the ccall check itself catches wrong types, symbols and argument counts
  add_test(NAME bindings_julia_check_self_test
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/gen_bindings.py --self-test)
  # Julia cannot be installed here: at least parse the package (skipped
  # when tree-sitter-julia is not installed)
  add_test(NAME bindings_julia_syntax
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_julia_syntax.py)
  set_tests_properties(bindings_julia_syntax PROPERTIES SKIP_RETURN_CODE 77)
else()
  message(WARNING "python3 not found: the bindings checks are not registered")
endif()
