# The CUDA matmul planner is pure C (core/cuda/matmul_plan.c): its Catch2
# test compiles it in directly, so it runs with or without the CUDA toolkit.
target_sources(test_cuda_matmul_plan
               PRIVATE ${PROJECT_SOURCE_DIR}/core/cuda/matmul_plan.c)
