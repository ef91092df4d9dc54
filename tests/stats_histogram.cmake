# tests/test_stats_histogram.cpp once more with the histograms' composition
# (searchsorted and the scatter_add slot, the path of device arrays) on CPU
# arrays, against the same oracles.
if(TARGET test_stats_histogram)
  add_test(NAME test_stats_histogram_composed COMMAND test_stats_histogram)
  set_tests_properties(test_stats_histogram_composed PROPERTIES
                       LABELS capi ENVIRONMENT CUNUMPY_HISTOGRAM_COMPOSED=1)
endif()
