# Nsight Compute's counters for this lesson's kernels, measured on a GPU by
# `scripts/gpu-check.sh ncu` (ncu.json in this folder). They ship inside the binary, so the lesson
# shows them beside the emulator's numbers on a machine without a GPU; until the file exists the
# lesson says that nothing was measured yet.
coopviz_embed_optional(coopviz_lessons ${LESSON_DIR}/ncu.json coop_ncu_memory_access)
