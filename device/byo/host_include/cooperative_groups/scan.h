// See ../cooperative_groups.h: nothing of it is left in the host half.
#pragma once
#include <cooperative_groups.h>
