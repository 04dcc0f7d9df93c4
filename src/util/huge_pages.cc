#include "util/huge_pages.h"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <new>
#include <thread>
#include <utility>

#include "util/alloc_failure.h"

namespace griffin {
namespace {

size_t RoundUp(size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }

// One background thread that faults fresh mappings in (MADV_POPULATE_WRITE,
// Linux 5.14+), one huge page at a time, so that the thread that asked for the
// memory finds most of it ready instead of zeroing it page by page on first
// touch. Populating never changes memory contents, so a range unmapped (or
// even reused) meanwhile is harmless: madvise fails or prefaults the new one.
// A forked child has no populator thread: fork handlers hold the lock across
// fork() and let the child start its own thread on its first mapping.
class Populator {
 public:
  static Populator& Get() {
    static Populator* populator = [] {
      auto* created = new Populator;  // never destroyed: the thread is detached
      pthread_atfork([] { Get().mutex_.lock(); }, [] { Get().mutex_.unlock(); },
                     [] {
                       Populator& child = Get();
                       child.started_ = child.failed_ = false;
                       child.ranges_.clear();
                       child.mutex_.unlock();
                     });
      return created;
    }();
    return *populator;
  }
  void Add(char* start, size_t length) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!started_) {
        started_ = true;
        try {
          std::thread([this] { Loop(); }).detach();
        } catch (...) {
          failed_ = true;
        }
      }
      if (failed_) return;
      ranges_.emplace_back(start, length);
    }
    ready_.notify_one();
  }

 private:
  void Loop() {
    for (;;) {
      std::pair<char*, size_t> range;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return !ranges_.empty(); });
        range = ranges_.front();
        ranges_.pop_front();
      }
      for (size_t done = 0; done < range.second; done += kHugePageBytes)
        if (madvise(range.first + done, std::min(kHugePageBytes, range.second - done), MADV_POPULATE_WRITE) != 0) break;
    }
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::pair<char*, size_t>> ranges_;
  bool started_ = false;
  bool failed_ = false;
};

}  // namespace

void* MapZeroed(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX - 2 * kHugePageBytes) FailAllocation();
  const size_t length = RoundUp(bytes);
  // Over-map by one huge page, then cut the unaligned head and the tail off.
  const size_t mapped = length + kHugePageBytes;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED) FailAllocation();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + mapped;
  if (end > aligned + length) munmap(reinterpret_cast<void*>(aligned + length), end - (aligned + length));
  void* block = reinterpret_cast<void*>(aligned);
  madvise(block, length, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
  if (length >= 2 * kHugePageBytes) Populator::Get().Add(static_cast<char*>(block), length);
  return block;
}

void UnmapZeroed(void* block, size_t bytes) {
  if (block != nullptr) munmap(block, RoundUp(bytes));
}

}  // namespace griffin
