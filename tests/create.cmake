# test_create a second time with the sequences composed of elementwise ops
# on the CPU (the path a device backend takes), so that both paths are
# checked against the same NumPy values.
if(TARGET test_create)
  add_test(NAME test_create_composed COMMAND test_create)
  set_tests_properties(test_create_composed PROPERTIES LABELS capi
                       ENVIRONMENT "CUNUMPY_COMPOSED_SEQUENCES=1")
endif()
