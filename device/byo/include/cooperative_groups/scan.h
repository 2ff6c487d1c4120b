// Shim: the traced Cooperative Groups already hold these (device/byo/runtime.hpp).
#pragma once
#include "device/byo/runtime.hpp"
