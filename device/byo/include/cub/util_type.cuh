// Shim: cub::KeyValuePair, cub::DoubleBuffer and cub::NullType (device/byo/cub_types.hpp).
#pragma once
#include "device/byo/cub_types.hpp"
