# include/cunumpy/reduce.h declares the reductions and scans of
# core/reduce.def by hand; this test fails when a declaration is missing,
# extra, out of the table's order or of another prototype family than the
# table says (core/reduce.c defines each row with its family's prototype,
# so the compiler checks the parameter lists).
add_test(
  NAME reduce_header_matches_table
  COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -P
          ${CMAKE_CURRENT_SOURCE_DIR}/reduce_header_check.cmake.in)
