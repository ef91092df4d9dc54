# `python3 -m pip install ./bindings/python`: builds the engine
# through scikit-build-core into a scratch target folder and imports it from
# there, away from the build tree. CUDA is left out to keep CI short (the
# plugin is built and tested by the main build).
if(CUNUMPY_PYTHON)
  add_test(NAME python_pip_install
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/pip_install/run.sh
                   ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}
                   ${PROJECT_BINARY_DIR}/pip-install)
  set_tests_properties(python_pip_install PROPERTIES LABELS install
                       TIMEOUT 1500)
endif()
