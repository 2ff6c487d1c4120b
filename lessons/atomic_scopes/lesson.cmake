# The message-passing litmus test, run many times and counted into a histogram of outcomes.
set(LESSON_SOURCES litmus.cpp)
