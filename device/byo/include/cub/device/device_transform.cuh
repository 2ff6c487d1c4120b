// Shim: the emulator's cub::DeviceTransform, cub::DeviceCopy and cub::DeviceMemcpy
// (device/byo/cub_device_for.hpp).
#pragma once
#include "device/byo/cub_device_for.hpp"
