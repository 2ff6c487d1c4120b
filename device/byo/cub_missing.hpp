// Stops the compile after a CUB shim's #error (device/byo/include/cub: a CUB header the emulator
// does not have). CUB's own header, read on, would bury that one line under a wall of errors
// about its GPU code; a missing include is the one error a compiler stops at.
#include <coopviz_stops_after_the_error_above>
