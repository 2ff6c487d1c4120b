# The benchmark: its variants, their accuracy, the runs and their JSON, and the GPU reference
# every variant is compared with (cub::DeviceReduce::Sum).
set(LESSON_SOURCES variants.cpp accuracy.cpp bench.cpp bench_json.cpp gpu_reference.cu)
# The last GPU benchmark results ship inside the binary, so a machine without a GPU can show them.
coopviz_embed_optional(coopviz_lessons ${PROJECT_SOURCE_DIR}/assets/bench/reduce-last.json
                       coop_shipped_reduce_bench)
