// Shim: a CUB header the emulator does not have yet, said in one line.
#error "coopviz: <cub/device/device_transform.cuh> is not on the emulator yet; run this program with --backend gpu (the emulator's CUB: device/byo/include/cub/cub.cuh)"
#include "device/byo/cub_missing.hpp"
