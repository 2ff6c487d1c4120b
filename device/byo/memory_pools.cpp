// Stream-ordered allocation on the emulator: cudaMallocAsync, cudaFreeAsync and memory pools
// (the device's default pool, pools the program creates, their attributes and trimming). Streams
// run in order and every call completes before it returns (runtime.cpp), so an allocation is
// ready, and a freed one unused, as soon as the call returns; what a pool adds is its accounting:
// memory freed to a pool stays reserved by it, up to its release threshold, until the program
// trims it or synchronizes, as CUDA's pools keep memory for reuse.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "device/byo/runtime.hpp"

struct CUmemPoolHandle_st {
  uint64_t used = 0, used_high = 0;          // bytes of live allocations
  uint64_t reserved = 0, reserved_high = 0;  // those and the freed bytes the pool keeps
  uint64_t release_threshold = 0;
  size_t max_size = 0;       // 0: no limit of its own
  int reuse[3] = {1, 1, 1};  // cudaMemPoolReuse* (1..3): followed, as streams run in order

  void take(uint64_t bytes) {
    used += bytes;
    used_high = std::max(used_high, used);
    reserved = std::max(reserved, used);
    reserved_high = std::max(reserved_high, reserved);
  }
  void keep_at_most(uint64_t bytes) { reserved = std::max(used, std::min(reserved, bytes)); }
};

namespace coop::byo {
namespace {

struct Pools {
  std::mutex lock;
  CUmemPoolHandle_st default_pool;
  cudaMemPool_t current = &default_pool;
  std::set<cudaMemPool_t> created;
  struct Allocation {
    cudaMemPool_t pool;
    size_t bytes;
  };
  std::map<void*, Allocation> allocations;

  bool known(cudaMemPool_t pool) { return pool == &default_pool || created.count(pool); }
};

Pools& pools() {
  static Pools p;
  return p;
}

cudaError_t allocate_from(void** ptr, size_t bytes, cudaMemPool_t pool, const char* api) {
  if (!ptr) return fail(cudaErrorInvalidValue);
  Pools& p = pools();
  std::lock_guard<std::mutex> hold(p.lock);
  if (!p.known(pool)) return fail(cudaErrorInvalidValue);
  if (pool->max_size && pool->used + bytes > pool->max_size) return fail(cudaErrorMemoryAllocation);
  const cudaError_t e = allocate(ptr, bytes, nullptr, ValueType::None, 1, api);
  if (e != cudaSuccess) return e;
  pool->take(bytes);
  p.allocations[*ptr] = {pool, bytes};
  return cudaSuccess;
}

}  // namespace

void release_pools_to_threshold() {
  Pools& p = pools();
  std::lock_guard<std::mutex> hold(p.lock);
  p.default_pool.keep_at_most(p.default_pool.release_threshold);
  for (cudaMemPool_t pool : p.created) pool->keep_at_most(pool->release_threshold);
}

}  // namespace coop::byo

using coop::byo::fail;
using coop::byo::pools;

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (!pool) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  *pool = &pools().default_pool;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (!pool) return fail(cudaErrorInvalidValue);
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::lock_guard<std::mutex> hold(pools().lock);
  *pool = pools().current;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (device != 0) return fail(cudaErrorInvalidDevice);
  std::lock_guard<std::mutex> hold(pools().lock);
  if (!pools().known(pool)) return fail(cudaErrorInvalidValue);
  pools().current = pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (!pool || !props) return fail(cudaErrorInvalidValue);
  // Device memory of device 0 is all the emulator has.
  if (props->allocType != cudaMemAllocationTypePinned ||
      props->location.type != cudaMemLocationTypeDevice || props->location.id != 0)
    return fail(cudaErrorInvalidValue);
  auto made = std::make_unique<CUmemPoolHandle_st>();
  made->max_size = props->maxSize;
  std::lock_guard<std::mutex> hold(pools().lock);
  *pool = made.release();
  pools().created.insert(*pool);
  return cudaSuccess;
}

// The pool's allocations still live are freed with it (CUDA leaves using them undefined).
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  coop::byo::Pools& p = pools();
  std::vector<void*> live;
  {
    std::lock_guard<std::mutex> hold(p.lock);
    if (!p.created.count(pool)) return fail(cudaErrorInvalidValue);
    p.created.erase(pool);
    if (p.current == pool) p.current = &p.default_pool;
    for (auto it = p.allocations.begin(); it != p.allocations.end();) {
      if (it->second.pool != pool) {
        ++it;
        continue;
      }
      live.push_back(it->first);
      it = p.allocations.erase(it);
    }
  }
  for (void* ptr : live) cudaFree(ptr);
  delete pool;
  return cudaSuccess;
}

// In a capture, graph nodes (graphs.hpp): the memory is the graph's, not a pool's.
cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t bytes, cudaMemPool_t pool,
                                    cudaStream_t stream) {
  if (coop::byo::capturing(stream)) return coop::byo::capture_alloc(stream, ptr, bytes);
  return coop::byo::allocate_from(ptr, bytes, pool, "cudaMallocFromPoolAsync");
}
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t stream) {
  if (coop::byo::capturing(stream)) return coop::byo::capture_alloc(stream, ptr, bytes);
  cudaMemPool_t pool = nullptr;
  cudaDeviceGetMemPool(&pool, 0);
  return coop::byo::allocate_from(ptr, bytes, pool, "cudaMallocAsync");
}
// Freed to its pool, which keeps the bytes reserved; the memory itself goes back at once, so a
// use after the free is found as any use of freed memory is.
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  if (coop::byo::capturing(stream)) return coop::byo::capture_free(stream, ptr);
  coop::byo::Pools& p = pools();
  {
    std::lock_guard<std::mutex> hold(p.lock);
    auto it = p.allocations.find(ptr);
    if (it != p.allocations.end()) {
      it->second.pool->used -= it->second.bytes;
      p.allocations.erase(it);
    }
  }
  return cudaFree(ptr);
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
  std::lock_guard<std::mutex> hold(pools().lock);
  if (!pools().known(pool)) return fail(cudaErrorInvalidValue);
  pool->keep_at_most(keep);
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard<std::mutex> hold(pools().lock);
  if (!pools().known(pool) || !value) return fail(cudaErrorInvalidValue);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      pool->reuse[attr - 1] = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      pool->release_threshold = *static_cast<uint64_t*>(value);
      return cudaSuccess;
    // The high-water marks may only be reset, to the current value.
    case cudaMemPoolAttrReservedMemHigh:
      if (*static_cast<uint64_t*>(value) != 0) return fail(cudaErrorInvalidValue);
      pool->reserved_high = pool->reserved;
      return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh:
      if (*static_cast<uint64_t*>(value) != 0) return fail(cudaErrorInvalidValue);
      pool->used_high = pool->used;
      return cudaSuccess;
    default:
      return fail(cudaErrorInvalidValue);
  }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard<std::mutex> hold(pools().lock);
  if (!pools().known(pool) || !value) return fail(cudaErrorInvalidValue);
  auto put = [value](uint64_t v) {
    *static_cast<uint64_t*>(value) = v;
    return cudaSuccess;
  };
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      *static_cast<int*>(value) = pool->reuse[attr - 1];
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      return put(pool->release_threshold);
    case cudaMemPoolAttrReservedMemCurrent:
      return put(pool->reserved);
    case cudaMemPoolAttrReservedMemHigh:
      return put(pool->reserved_high);
    case cudaMemPoolAttrUsedMemCurrent:
      return put(pool->used);
    case cudaMemPoolAttrUsedMemHigh:
      return put(pool->used_high);
    default:
      return fail(cudaErrorInvalidValue);
  }
}
