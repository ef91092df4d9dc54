# The CUDA planners are plain C (core/cuda/<x>_plan.c): each Catch2 test
# tests/test_cuda_<x>_plan.cpp compiles its planner in, so the planners are
# tested with or without the CUDA toolkit.
file(GLOB _plan_tests CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_SOURCE_DIR}/test_cuda_*_plan.cpp)
foreach(_t ${_plan_tests})
  get_filename_component(_name ${_t} NAME_WE)
  string(REGEX REPLACE "^test_cuda_(.*)_plan$" "\\1" _plan ${_name})
  target_sources(${_name}
                 PRIVATE ${PROJECT_SOURCE_DIR}/core/cuda/${_plan}_plan.c)
endforeach()
