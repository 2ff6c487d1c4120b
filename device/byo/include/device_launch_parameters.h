// Shim: user programs compiled for the emulator get the emulator's runtime (device/byo/runtime.hpp).
#pragma once
#include "device/byo/runtime.hpp"
