# test_stats_signal once more for each method of convolve / correlate
# (core/stats_signal.c reads CUNUMPY_CONV_METHOD once): the engine-op
# composition a device backend runs, the FFT product wherever the dtype and
# values allow it, and the direct sum only.
if(TARGET test_stats_signal)
  foreach(method composed fft direct)
    add_test(NAME test_stats_signal_${method} COMMAND test_stats_signal)
    set_tests_properties(test_stats_signal_${method} PROPERTIES
      LABELS capi ENVIRONMENT CUNUMPY_CONV_METHOD=${method})
  endforeach()
endif()
