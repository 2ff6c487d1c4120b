#!/usr/bin/python3
"""Times the atomics notes' Numba sum reduction under Numba's CUDA simulator.

coopviz bench emu runs this (when Debian's python3-numba is installed) to compare the emulator
with the simulator on the same kernel: 64 blocks of 512 threads, each block staging its slice in
shared memory, thread 0 summing it and adding the block's sum with one atomic.
Prints the seconds the launch took, nothing else.
"""
import os
import sys
import time

os.environ["NUMBA_ENABLE_CUDASIM"] = "1"

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

BLOCKS, THREADS = 64, 512


@cuda.jit
def staged_sum(values, total):
    staging = cuda.shared.array(shape=THREADS, dtype=np.float32)
    staging[cuda.threadIdx.x] = values[cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x]
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        block_sum = 0.0
        for k in range(cuda.blockDim.x):
            block_sum += staging[k]
        cuda.atomic.add(total, 0, block_sum)


def main():
    values = np.random.default_rng(1).random(BLOCKS * THREADS, dtype=np.float32)
    total = np.zeros(1, dtype=np.float32)
    start = time.perf_counter()
    staged_sum[BLOCKS, THREADS](values, total)
    seconds = time.perf_counter() - start
    expected = float(values.astype(np.float64).sum())
    if abs(float(total[0]) - expected) > 1e-3 * expected:
        print(f"wrong sum {total[0]} vs {expected}", file=sys.stderr)
        return 1
    print(f"{seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
