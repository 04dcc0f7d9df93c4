// TopValues: the most frequent values of a column with their counts, as a
// mergeable state (design.md "One mergeable state"): a Misra-Gries summary
// of `capacity` counters (Agarwal et al., "Mergeable summaries", 2012).
//
// While a column has at most `capacity` distinct values every count is
// exact (exact() true). Past that, a reduction subtracts the
// (capacity+1)-th largest count from every counter and drops those at zero:
// a kept count then underestimates its value's true count by at most
// total / (capacity + 1), and any value above that share is kept.
//
// Values are keyed by a 64-bit hash of their full text (a collision between
// two distinct values has probability ~n^2 / 2^65); the text kept is cut to
// kMaxValueBytes (cut() says so). Memory: at most 2 * capacity entries.
// Deterministic: the same adds and merges in the same order give the same
// state and the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/byte_codec.h"

namespace griffin {

class TopValues {
 public:
  static constexpr size_t kMaxValueBytes = 256;

  struct Entry {
    std::string value;  // at most kMaxValueBytes
    int64_t count = 0;
    bool cut = false;   // the value was longer than kept
  };

  explicit TopValues(size_t capacity = 256) : capacity_(capacity) {}

  void Add(uint64_t hash, std::string_view value);
  void Merge(const TopValues& other);

  // A part's exact counts (each value once), merged as its summary: all of
  // them when the part has at most 2 * capacity values (cut 0), else reduced
  // by cut = the (capacity + 1)-th largest count, as Reduce does. Give
  // ReductionCut(all the part's counts), then MergeReduced(the values whose
  // count exceeds the cut, with their full counts; at most 2 * capacity).
  struct Counted {
    uint64_t hash;
    std::string_view value;
    int64_t count;
  };
  int64_t ReductionCut(std::vector<int64_t> counts) const;
  void MergeReduced(const std::vector<Counted>& kept, int64_t cut);

  // The `k` largest counts, by count descending, then value ascending; past
  // a reduction only values whose kept count exceeds max_error() (surely
  // frequent ones), each count a lower bound within max_error() of the truth.
  std::vector<Entry> Top(size_t k) const;
  size_t size() const { return entries_.size(); }
  bool exact() const { return exact_; }
  // The most a reported count can be under the true one (0 while exact).
  int64_t max_error() const { return max_error_; }

  void Serialize(ByteWriter* out) const;
  bool Deserialize(ByteReader* in);  // false (and `in` failed) when corrupt

 private:
  void Reduce();
  Entry& Slot(uint64_t hash, std::string_view value);

  size_t capacity_;
  std::unordered_map<uint64_t, Entry> entries_;
  bool exact_ = true;
  int64_t max_error_ = 0;
};

}  // namespace griffin
