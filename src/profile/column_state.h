// ColumnState: everything a column profile needs, as one mergeable state
// (design.md "One mergeable state"). A worker fills one per column per batch;
// the profiler merges them in input order. Serialize/Deserialize keep the
// whole state, so parts computed elsewhere (threads, files, partitions) merge
// into the same profile.
//
// What is counted (docs/profile.md):
//   rows, nulls          every well-formed row; null_values spellings, JSON
//                        null and missing keys are nulls
//   reads_as[type]       non-null values that read as bool, int64, float64,
//                        date, timestamp by rules-v1's parsing (a value may
//                        read as several: "1" is int64, float64 and bool)
//   numbers              values that read as float64 (ints included): finite
//                        ones in mean/stddev (Welford, merged by Chan et al.),
//                        NaN and ±inf counted apart; quantile sketch
//   ints                 min/max of the values that read as int64
//   times                dates and timestamps, as microseconds since the epoch
//   text                 the length (code points) of each text value, its top
//                        values, patterns (value_pattern.h) and formats
//   distinct             exact to DistinctCounter::kExactLimit, then HLL;
//                        of the value's text for text inputs
//
// Speed: a batch's values are counted first (value_counts.h, by hash), then
// every statistic is computed once per distinct value, weighted by its count;
// the batch's top values and patterns are its exact counts reduced as
// Misra-Gries would (TopValues::ReductionCut), and its exact quantile values
// are sorted before the state is merged (QuantileSketch::SortExact).
//
// Typed inputs (Parquet, Arrow): strings go the text way; numbers, dates,
// timestamps and bools feed their own statistics directly (ints and bools
// also feed the top values, as text). Memory per state: the distinct hashes
// (up to 8 bytes per distinct value, 100,000 at most), the quantile sketches
// (up to kSketchExactLimit values each, then ~64 KiB per level) and two
// top-value summaries.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "exec/distinct_counter.h"
#include "exec/quantile_sketch.h"
#include "io/typed_column.h"
#include "profile/top_values.h"
#include "profile/value_pattern.h"
#include "util/byte_codec.h"

namespace griffin {

// The types a value may read as, in the order inference prefers them on a tie.
enum class ReadType { kInt64, kBool, kFloat64, kDate, kTimestamp };
inline constexpr int kReadTypes = 5;
ValueType ValueTypeOf(ReadType type);

struct NumberStats {
  int64_t finite = 0, nan = 0, pos_inf = 0, neg_inf = 0;
  double mean = 0, m2 = 0;
  double min = 0, max = 0;          // over non-NaN values (±inf included); valid when finite + infs > 0
  int64_t ints = 0;                 // values that read as int64
  int64_t noncanonical_ints = 0;    // of them, text not spelled as the integer prints ("007", "+1", " 1")
  int64_t int_min = 0, int_max = 0; // valid when ints > 0
};

struct TextStats {
  int64_t values = 0;
  int64_t min_length = 0, max_length = 0, total_length = 0;
  std::array<int64_t, kValueFormats> formats{};  // by ValueFormat
};

class ColumnState {
 public:
  static constexpr size_t kSketchExactLimit = 1 << 17;
  static constexpr size_t kTopCapacity = 256;
  static constexpr int64_t kSliceRows = int64_t{1} << 30;  // rows counted in one ValueCounts (uint32 counts)

  ColumnState();

  // Adds a text column's rows [0, n): values[r] unless is_null[r] or
  // malformed[r] (malformed may be null).
  void AddText(const std::string_view* values, const uint8_t* is_null, const uint8_t* malformed, int64_t n);
  // Adds a typed column (an Arrow input's column in its natural type).
  void AddTyped(const TypedColumn& column);
  // `rows` rows whose values are not read: `nulls` of them null, the rest
  // present (rows where the column is missing, or an unsupported Arrow type).
  void AddRows(int64_t rows, int64_t nulls) { rows_ += rows; nulls_ += nulls; }
  // Appends another part's state (the next rows in input order).
  void Merge(const ColumnState& other);

  void Serialize(ByteWriter* out) const;
  bool Deserialize(ByteReader* in);  // false (and `in` failed) when corrupt

  int64_t rows() const { return rows_; }
  int64_t nulls() const { return nulls_; }
  int64_t values() const { return rows_ - nulls_; }
  int64_t reads_as(ReadType type) const { return reads_as_[static_cast<int>(type)]; }
  const NumberStats& numbers() const { return numbers_; }
  const QuantileSketch<double>& number_sketch() const { return number_sketch_; }
  int64_t times() const { return times_; }
  int64_t time_min() const { return time_min_; }
  int64_t time_max() const { return time_max_; }
  const QuantileSketch<int64_t>& time_sketch() const { return time_sketch_; }
  const TextStats& text() const { return text_; }
  const TopValues& top_values() const { return top_; }
  const TopValues& patterns() const { return patterns_; }
  int64_t distinct() const { return std::min(distinct_.Count(), values()); }
  bool distinct_exact() const { return distinct_.exact(); }
  // Set when an Arrow input had a type no statistic reads (lists, structs...).
  bool unsupported() const { return unsupported_; }
  void MarkUnsupported() { unsupported_ = true; }

 private:
  struct PatternScratch;
  // Each adds one distinct value of a batch `weight` times.
  void AddTextValue(std::string_view value, int64_t weight, PatternScratch* patterns);
  void AddNumber(double x, int64_t weight);
  void AddInt(int64_t v, int64_t weight);
  void AddTime(int64_t micros, int64_t weight);
  void AddTextSlice(const std::string_view* values, const uint8_t* is_null, const uint8_t* malformed, int64_t n);
  void AddTypedSlice(const TypedColumn& column, int64_t start, int64_t n);
  void SortSketches();

  int64_t rows_ = 0, nulls_ = 0;
  std::array<int64_t, kReadTypes> reads_as_{};
  NumberStats numbers_;
  QuantileSketch<double> number_sketch_;
  int64_t times_ = 0, time_min_ = 0, time_max_ = 0;
  QuantileSketch<int64_t> time_sketch_;
  TextStats text_;
  TopValues top_, patterns_;
  DistinctCounter distinct_;
  bool unsupported_ = false;
};

}  // namespace griffin
