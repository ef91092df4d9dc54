# The packaging path a user of PyPI takes: scripts/build_wheel.sh builds the
# sdist, a wheel from it (the engine compiled once more, CUDA plugin
# included) and the auditwheel-repaired wheel; tests/wheel_smoke/run.sh
# checks its libraries, installs it into a fresh venv (pip fetches NumPy)
# and runs the smoke test there with the Debian libraries hidden. Label
# wheel_smoke (ctest -LE wheel_smoke leaves it out).
if(CUNUMPY_PYTHON)
  add_test(NAME wheel_smoke
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/wheel_smoke/run.sh
                   ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}
                   ${PROJECT_BINARY_DIR}/wheel-smoke)
  set_tests_properties(wheel_smoke PROPERTIES LABELS "wheel_smoke;install"
                       TIMEOUT 1500)
endif()
