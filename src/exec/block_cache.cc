#include "exec/block_cache.h"

#include <bit>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "util/alloc_failure.h"
#include "util/huge_pages.h"

namespace griffin {
namespace {

constexpr int kMinBits = std::countr_zero(BlockCache::kMinBlockBytes);
constexpr int kClasses = std::countr_zero(BlockCache::kMaxBlockBytes) - kMinBits + 1;

struct Cache {
  Cache() {  // room for every block the cap allows, so Free never allocates
    for (int c = 0; c < kClasses; ++c) free[c].reserve(BlockCache::kMaxCachedBytes >> (kMinBits + c));
  }
  std::mutex mutex;
  std::vector<void*> free[kClasses];  // by size class
  size_t cached_bytes = 0;
};

// Never destroyed: blocks may be freed by static destructors at exit.
Cache& TheCache() {
  static Cache* cache = new Cache;
  return *cache;
}

int ClassOf(size_t bytes) { return std::countr_zero(bytes) - kMinBits; }

}  // namespace

void* BlockCache::Allocate(size_t bytes) {
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    std::vector<void*>& list = cache.free[ClassOf(bytes)];
    if (!list.empty()) {
      void* block = list.back();
      list.pop_back();
      cache.cached_bytes -= bytes;
      return block;
    }
  }
  if (bytes >= kHugePageBytes) return MapZeroed(bytes);
  void* block = std::malloc(bytes);
  if (block == nullptr) FailAllocation();
  return block;
}

void BlockCache::Free(void* block, size_t bytes) {
  if (block == nullptr) return;
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.cached_bytes + bytes <= kMaxCachedBytes) {
      cache.free[ClassOf(bytes)].push_back(block);
      cache.cached_bytes += bytes;
      return;
    }
  }
  if (bytes >= kHugePageBytes) UnmapZeroed(block, bytes);
  else std::free(block);
}

void* BlockCache::AllocateTable(size_t bytes) {
  if (Serves(bytes)) return std::memset(Allocate(bytes), 0, bytes);
  if (bytes > kMaxBlockBytes) return MapZeroed(bytes);
  void* table = std::calloc(1, bytes);
  if (table == nullptr) FailAllocation();
  return table;
}

void BlockCache::FreeTable(void* table, size_t bytes) {
  if (Serves(bytes)) Free(table, bytes);
  else if (bytes > kMaxBlockBytes) UnmapZeroed(table, bytes);
  else std::free(table);
}

size_t BlockCache::CachedBytes() {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.cached_bytes;
}

}  // namespace griffin
