# The MPI examples (examples/mpi/) on 2 ranks against 1 rank, when MPI is
# installed (scripts/deps.sh: Open MPI, mpi4py). OpenMP keeps one thread per
# rank so two ranks fit the CI's cores; the Open MPI variables let mpirun
# run as root (CI runs as root).
find_package(MPI QUIET COMPONENTS C)
if(MPIEXEC_EXECUTABLE)
  set(CN_MPI_ENV OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1
      OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  if(TARGET heat_mpi_f90)
    add_test(NAME mpi_heat_fortran
             COMMAND ${CMAKE_COMMAND} -D MPIEXEC=${MPIEXEC_EXECUTABLE}
                     "-DPROGRAM=$<TARGET_FILE:heat_mpi_f90>;48;60"
                     -D WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/mpi_heat_fortran
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/compare_ranks.cmake)
    set_tests_properties(mpi_heat_fortran PROPERTIES LABELS mpi TIMEOUT 120
                         ENVIRONMENT "${CN_MPI_ENV}")
  endif()
  if(CUNUMPY_PYTHON AND TARGET cunumpy_cnlib)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import mpi4py"
                    RESULT_VARIABLE _cn_no_mpi4py OUTPUT_QUIET ERROR_QUIET)
    if(_cn_no_mpi4py EQUAL 0)
      add_test(NAME mpi_heat_python
               COMMAND ${CMAKE_COMMAND} -D MPIEXEC=${MPIEXEC_EXECUTABLE}
                       "-DPROGRAM=${Python3_EXECUTABLE};${PROJECT_SOURCE_DIR}/examples/mpi/heat_mpi.py;48;60"
                       -D WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/mpi_heat_python
                       -P ${CMAKE_CURRENT_SOURCE_DIR}/mpi/compare_ranks.cmake)
      set_tests_properties(mpi_heat_python PROPERTIES LABELS mpi TIMEOUT 120
                           ENVIRONMENT "${CN_MPI_ENV};PYTHONPATH=${PROJECT_BINARY_DIR}/python")
    endif()
  endif()
endif()
