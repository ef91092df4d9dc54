# Runs an MPI program on 1 and on 2 ranks (mpirun -np N --oversubscribe) and
# fails unless both write the same bytes to their output file (the program's
# last argument). -D MPIEXEC=... -D PROGRAM="cmd;args" -D WORK_DIR=...
file(MAKE_DIRECTORY ${WORK_DIR})
foreach(np 1 2)
  set(out ${WORK_DIR}/np${np}.bin)
  file(REMOVE ${out})
  execute_process(COMMAND ${MPIEXEC} -np ${np} --oversubscribe ${PROGRAM} ${out}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpirun -np ${np} failed (${rc})")
  endif()
  if(NOT EXISTS ${out})
    message(FATAL_ERROR "mpirun -np ${np} wrote no ${out}")
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK_DIR}/np1.bin
                        ${WORK_DIR}/np2.bin RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "the 2-rank grid differs from the 1-rank grid")
endif()
message(STATUS "1-rank and 2-rank grids are identical")
