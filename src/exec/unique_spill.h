// A `unique` check's keys on disk once the run passed its memory limit
// (--memory-limit): every occurrence from then on is appended, with its row
// and its value as read, to the hash partition of its key (key_spill.h); the
// keys the check held in memory go first, with their first rows. Finish()
// reads one partition at a time into a UniqueSet, in append order, which is
// row order: an occurrence whose key is already there repeats the row the
// set remembers, exactly as the in-memory path decides it.
//
//   spill->AddFirst(hash, key, first_row);           // the in-memory keys, once
//   spill->Add(hash, key, row, value);               // each later occurrence
//   RETURN_IF_ERROR(spill->Finish(room, on_repeat, &listed));
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/key_spill.h"
#include "exec/violation_messages.h"

namespace griffin {

// A repeat found by Finish, with what the violations list shows of it.
struct SpilledRepeat {
  int64_t row = 0;
  int64_t first_row = 0;
  JsonScalar::Kind kind = JsonScalar::Kind::kNull;
  std::optional<double> number;  // ValueView::Number's double
  std::string text;
  ValueView View() const;
};

class UniqueSpill {
 public:
  explicit UniqueSpill(std::unique_ptr<KeySpill> spill) : spill_(std::move(spill)) {}

  // A key held in memory before the spill, first seen at `first_row`.
  void AddFirst(uint64_t hash, std::string_view key, int64_t first_row);
  // An occurrence at `row` (rows ascend across calls) with its value as read.
  void Add(uint64_t hash, std::string_view key, int64_t row, const ValueView& value);

  // Finds every repeat: calls on_repeat(row, first_row) for each (in row order within a
  // partition, partitions one after another), and fills `listed` with the
  // `room` repeats of the smallest rows, ascending. A partition of more than
  // `max_partition_bytes` is split first (KeySpill::VisitBounded), so about
  // that much plus its set (at most ~1.7x as much) is held at a time.
  Status Finish(size_t room, const std::function<void(int64_t row, int64_t first_row)>& on_repeat, std::vector<SpilledRepeat>* listed,
                int64_t max_partition_bytes = INT64_MAX);

  const Status& status() const { return spill_->status(); }
  int64_t bytes() const { return spill_->bytes(); }

 private:
  std::unique_ptr<KeySpill> spill_;
  std::string record_;  // scratch
};

}  // namespace griffin
