// The keys `unique` checks saw before this run, for a run that continues
// earlier ones (griffin stream's micro-batches: connectors/kafka/stream_unique_state.h).
//
// The merger asks Seen() for each key the run meets for the first time; a key
// seen before makes the row a duplicate (its message says "duplicates a record
// of an earlier batch"), else the merger reports it with Add(). Keys are the
// merger's own bytes: a string column's value, a row tuple's encoded values,
// or the 8 bytes of a numeric / date / timestamp / bool column's normalized key
// (float64 1.0 and 1 are one key, -0.0 and 0.0 too), so the verdicts are those
// of one run over all the rows. Called from the merging thread, in row order.
#pragma once

#include <cstdint>
#include <string_view>

namespace griffin {

// first_row of a duplicate whose first occurrence was in an earlier run.
inline constexpr int64_t kFirstRowInEarlierRun = -2;

class PriorUniqueKeys {
 public:
  virtual ~PriorUniqueKeys() = default;
  // `check` is the check's name (id.unique, a row check's name).
  virtual bool Seen(std::string_view check, std::string_view key) const = 0;
  virtual void Add(std::string_view check, std::string_view key) = 0;
};

}  // namespace griffin
