// Shim: a CUB header the emulator does not have yet, said in one line.
#error "coopviz: <cub/block/block_run_length_decode.cuh> is not on the emulator yet; run this program with --backend gpu (the emulator's CUB: device/byo/include/cub/cub.cuh)"
#include "device/byo/cub_missing.hpp"
