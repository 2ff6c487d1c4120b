// Shim: the cp.async primitives (__pipeline_memcpy_async, __pipeline_commit,
// __pipeline_wait_prior), traced (device/byo/runtime.hpp).
#pragma once
#include "device/byo/runtime.hpp"
