// A process-wide cache of freed memory blocks of 64 KiB to 16 MiB (powers of
// two), for the per-run structures of the engine (unique-set tables and
// arenas). A validate() call per small batch builds and drops them every
// call; glibc hands a freed heap top back to the kernel, so without reuse
// each call faults its pages in again (measured: half the time of a
// 10,000-row `unique` check). At most kMaxCachedBytes are kept; thread-safe.
// Blocks of 2 MiB and more are mappings advised for huge pages (MapZeroed):
// a run with 10M distinct keys faulted its key blocks in 4 KiB at a time, on
// the merger's thread, for 65% of its page faults.
//
//   void* p = BlockCache::Allocate(bytes);   // bytes: a supported block size
//   ...
//   BlockCache::Free(p, bytes);
#pragma once

#include <cstddef>
#include <cstdint>

namespace griffin {

class BlockCache {
 public:
  static constexpr size_t kMinBlockBytes = size_t{1} << 16;
  static constexpr size_t kMaxBlockBytes = size_t{1} << 24;
  static constexpr size_t kMaxCachedBytes = size_t{1} << 24;

  // Whether `bytes` is a block size the cache serves (a power of two in range).
  static bool Serves(size_t bytes) {
    return bytes >= kMinBlockBytes && bytes <= kMaxBlockBytes && (bytes & (bytes - 1)) == 0;
  }
  // A block of `bytes` (Serves(bytes)), uninitialized; throws std::bad_alloc.
  static void* Allocate(size_t bytes);
  // Returns a block from Allocate(bytes) (kept for reuse while there is room).
  static void Free(void* block, size_t bytes);
  // Bytes held for reuse now.
  static size_t CachedBytes();

  // A zeroed hash table of `bytes`: a cached block cleared when Serves(bytes);
  // past kMaxBlockBytes a fresh mapping advised for huge pages (MapZeroed:
  // 2 MiB pages fault 512 times less often); else calloc.
  // Throws std::bad_alloc. Release with FreeTable(table, bytes).
  static void* AllocateTable(size_t bytes);
  static void FreeTable(void* table, size_t bytes);
};

}  // namespace griffin
