# The installed tree works for consumers through CMake and pkg-config.
add_test(NAME install_consumer
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install_consumer/run.sh
                 ${PROJECT_BINARY_DIR})
set_tests_properties(install_consumer PROPERTIES LABELS install)
