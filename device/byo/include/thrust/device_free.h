// Shim: device_free gives memory back through the emulator's cudaFree (device_malloc.h's shim says
// why); the overloads live there, read before Thrust's own device_free.
#pragma once
#include <thrust/device_malloc.h>
#include_next <thrust/device_free.h>
