// Arena: append-only byte storage for decoded values that are not views of the
// input (unescaped CSV fields, JSON strings). Earlier allocations never move,
// so string_views into them stay valid for the arena's lifetime. Not
// thread-safe; a batch owns its arena (Batch::owned_memory).
//
//   auto arena = std::make_shared<Arena>();
//   char* out = arena->Allocate(n);
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "io/batch.h"

namespace griffin {

class Arena {
 public:
  // Returns `n` bytes that stay valid and unmoved until the arena is destroyed.
  char* Allocate(size_t n) {
    if (n > remaining_) {
      size_t block = n > kBlockSize / 4 ? n : kBlockSize;
      blocks_.push_back(std::make_unique<char[]>(block));
      next_ = blocks_.back().get();
      remaining_ = block;
    }
    char* out = next_;
    next_ += n;
    remaining_ -= n;
    return out;
  }

 private:
  // Small values share 64 KiB blocks; the last block's tail is the only waste.
  static constexpr size_t kBlockSize = 64 << 10;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  size_t remaining_ = 0;
};

}  // namespace griffin

namespace griffin {

// Ends a text decode: trims the per-row vectors (sized for the chunk's record
// bound) to the `rows` decoded, hands the arena to the batch, and returns it.
inline std::shared_ptr<Batch> FinishTextBatch(std::shared_ptr<Batch> batch, int64_t rows,
                                              std::shared_ptr<Arena> arena) {
  const size_t count = static_cast<size_t>(rows);
  for (BatchColumn& column : batch->columns) {
    column.text.values.resize(count);
    column.text.is_null.resize(count);
    if (!column.text.json_kinds.empty()) column.text.json_kinds.resize(count);
  }
  batch->raw_records.resize(count);
  if (!batch->malformed.empty()) batch->malformed.resize(count);
  batch->num_rows = rows;
  if (arena) batch->owned_memory.push_back(std::move(arena));
  return batch;
}

}  // namespace griffin
