# The lesson compares its register-hungry kernel's compiler report under these --maxrregcount caps.
set(LESSON_REGISTER_CAPS 32 48 64)
