# test_expr a second time with the program run one op at a time
# (CUNUMPY_EXPR_UNFUSED=1): the path of every backend without an expr slot,
# checked against the same oracles as the CPU's fused pass.
if(TARGET test_expr)
  add_test(NAME test_expr_unfused COMMAND test_expr)
  set_tests_properties(test_expr_unfused PROPERTIES LABELS capi
                       ENVIRONMENT "CUNUMPY_EXPR_UNFUSED=1")
endif()
