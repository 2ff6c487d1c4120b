// Shim (see ../cooperative_groups.h): the real header while the mirror is being built, else the
// mirror, which holds this header's functions.
#pragma once
#ifdef COOP_BYO_GPU_INSIDE
#include_next <cooperative_groups/reduce.h>
#else
#include <cooperative_groups.h>
#endif
