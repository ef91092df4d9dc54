# Python tests (pytest + Hypothesis, NumPy as the oracle) against the build
# tree's package; included by tests/CMakeLists.txt.
if(CUNUMPY_PYTHON AND TARGET cunumpy_cnlib)
  add_test(NAME python_tests
           COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider
                   ${PROJECT_SOURCE_DIR}/tests/python
           WORKING_DIRECTORY ${PROJECT_BINARY_DIR})
  set_tests_properties(
    python_tests PROPERTIES ENVIRONMENT
    "PYTHONPATH=${PROJECT_BINARY_DIR}/python;HYPOTHESIS_STORAGE_DIRECTORY=${PROJECT_BINARY_DIR}/.hypothesis"
    TIMEOUT 900)
  # A sanitized libcunumpy needs the ASan runtime loaded before Python; the
  # interpreter's own allocations are not ours to leak-check.
  if(CUNUMPY_SANITIZE)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE _cn_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
    set_property(TEST python_tests APPEND PROPERTY ENVIRONMENT
                 "LD_PRELOAD=${_cn_asan}" "ASAN_OPTIONS=detect_leaks=0")
  endif()
endif()

# The generated docstrings (bindings/python/cunumpy/_docstrings.py) match the
# C headers' comments and the sources (fix-it: run the generator without
# --check); skipped when NumPy/SciPy differ from the versions it recorded.
if(CUNUMPY_PYTHON AND TARGET cunumpy_cnlib)
  add_test(NAME docstrings_generated_up_to_date
           COMMAND ${Python3_EXECUTABLE}
                   ${PROJECT_SOURCE_DIR}/tools/gen_docstrings.py --check)
  set_tests_properties(docstrings_generated_up_to_date PROPERTIES
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python"
    SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()

# The documentation site (docs/, Sphinx): warnings are errors, no link check.
if(CUNUMPY_PYTHON AND TARGET cunumpy_cnlib)
  add_test(NAME docs_build
           COMMAND ${Python3_EXECUTABLE} -m sphinx -W --keep-going -q -j 2 -b html
                   -d ${PROJECT_BINARY_DIR}/docs/doctrees
                   ${PROJECT_SOURCE_DIR}/docs ${PROJECT_BINARY_DIR}/docs/html)
  set_tests_properties(docs_build PROPERTIES
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python" TIMEOUT 120)
endif()

# The package's type stubs (bindings/python/cunumpy/*.pyi) match the built
# package (fix-it: run tools/gen_stubs.py without --check).
if(CUNUMPY_PYTHON AND TARGET cunumpy_cnlib)
  add_test(NAME stubs_generated_up_to_date
           COMMAND ${Python3_EXECUTABLE}
                   ${PROJECT_SOURCE_DIR}/tools/gen_stubs.py --check)
  set_tests_properties(stubs_generated_up_to_date PROPERTIES
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python" TIMEOUT 120)
endif()
