# The lesson's six experiments, and the analysis of whose update a race lost.
set(LESSON_SOURCES parts.cpp)
