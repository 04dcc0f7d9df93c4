#include "util/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace griffin {
namespace {

size_t RoundUp(size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }

}  // namespace

void* MapZeroed(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX - 2 * kHugePageBytes) throw std::bad_alloc();
  const size_t length = RoundUp(bytes);
  // Over-map by one huge page, then cut the unaligned head and the tail off.
  const size_t mapped = length + kHugePageBytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + mapped;
  if (end > aligned + length) munmap(reinterpret_cast<void*>(aligned + length), end - (aligned + length));
  void* block = reinterpret_cast<void*>(aligned);
  madvise(block, length, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
  return block;
}

void UnmapZeroed(void* block, size_t bytes) {
  if (block != nullptr) munmap(block, RoundUp(bytes));
}

}  // namespace griffin
