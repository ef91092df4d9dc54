# tests/test_stats_interp.cpp once more with interp's composition
# (searchsorted, take and elementwise operations: the path of device arrays)
# on CPU arrays, against the same oracle.
if(TARGET test_stats_interp)
  add_test(NAME test_stats_interp_composed COMMAND test_stats_interp)
  set_tests_properties(test_stats_interp_composed PROPERTIES
                       LABELS capi ENVIRONMENT CUNUMPY_INTERP_COMPOSED=1)
endif()
