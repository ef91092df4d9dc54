# Fake CUDA plugins for tests/test_backend.cpp and tests/test_dlpack.cpp:
# one working (host memory under a CUDA device type) and one per way the
# loader must refuse a plugin. The tests get their paths as definitions.
set(_cn_fake_variants
    ok ""
    bad_abi "FAKE_ABI_VERSION=(CUNUMPY_ABI_VERSION+41)"
    short_table "FAKE_TABLE_SHRINK=8"
    null_table "FAKE_NULL_TABLE=1"
    no_device "FAKE_PROBE_FAILS=1")
set(_cn_fake_defs "")
list(LENGTH _cn_fake_variants _n)
math(EXPR _last "${_n} - 1")
foreach(i RANGE 0 ${_last} 2)
  math(EXPR j "${i} + 1")
  list(GET _cn_fake_variants ${i} variant)
  list(GET _cn_fake_variants ${j} def)
  add_library(cn_fake_plugin_${variant} MODULE
              ${CMAKE_CURRENT_SOURCE_DIR}/fake_plugin_host.c)
  if(def)
    target_compile_definitions(cn_fake_plugin_${variant} PRIVATE "${def}")
  endif()
  list(APPEND _cn_fake_targets cn_fake_plugin_${variant})
endforeach()
add_library(cn_fake_plugin_no_entry MODULE
            ${CMAKE_CURRENT_SOURCE_DIR}/fake_plugin_no_entry.c)
list(APPEND _cn_fake_targets cn_fake_plugin_no_entry)

foreach(t ${_cn_fake_targets})
  # The plugin reads the core's internal header but links to nothing: the
  # loader must not depend on what a plugin links.
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                          ${PROJECT_SOURCE_DIR}/core)
  target_compile_options(${t} PRIVATE -Wall -Wextra)
  set_target_properties(${t} PROPERTIES C_VISIBILITY_PRESET hidden
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fake_plugins)
  string(REPLACE "cn_fake_plugin_" "" v ${t})
  string(TOUPPER ${v} V)
  list(APPEND _cn_fake_defs "CN_FAKE_PLUGIN_${V}=\"$<TARGET_FILE:${t}>\"")
endforeach()

foreach(test test_backend test_dlpack)
  if(TARGET ${test})
    add_dependencies(${test} ${_cn_fake_targets})
    target_compile_definitions(${test} PRIVATE ${_cn_fake_defs}
        CN_FAKE_PLUGIN_MISSING="${CMAKE_CURRENT_BINARY_DIR}/fake_plugins/no_such_plugin.so")
    target_link_libraries(${test} PRIVATE ${CMAKE_DL_LIBS})
  endif()
endforeach()
