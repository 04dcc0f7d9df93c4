#include "profile/column_state.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#define XXH_INLINE_ALL  // short values: the call costs as much as the hash
#include <xxhash.h>

#include "profile/value_counts.h"
#include "util/float_key.h"
#include "util/saturating_mul.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

uint64_t TextHash(std::string_view text) { return XXH3_64bits(text.data(), text.size()); }

// Code points of UTF-8 text (bytes that do not continue a character).
int64_t CodePoints(std::string_view text) {
  int64_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

size_t Index(ReadType type) { return static_cast<size_t>(type); }

// Counts hashes[i] (first seen at rows[i]), the table sized for them at
// once when most of the first 1,024 are distinct, probes prefetched.
void CountHashes(const std::vector<uint64_t>& hashes, const std::vector<uint32_t>& rows, ValueCounts* counts) {
  const size_t sample = std::min<size_t>(hashes.size(), 1024);
  for (size_t i = 0; i < sample; ++i) counts->Add(hashes[i], rows[i]);
  if (counts->size() * 2 > sample) counts->Reserve(hashes.size());
  constexpr size_t kAhead = 8;
  for (size_t i = sample; i < hashes.size(); ++i) {
    if (i + kAhead < hashes.size()) counts->Prefetch(hashes[i + kAhead]);
    counts->Add(hashes[i], rows[i]);
  }
}

// Merges a batch's exact counts into `top` as one reduced summary; text_of(first)
// gives an entry's text (only for the few entries kept).
template <typename TextOf>
void MergeCounts(TopValues* top, const ValueCounts& counts, TextOf text_of) {
  std::vector<int64_t> all;
  all.reserve(counts.size());
  for (const ValueCounts::Entry& e : counts.entries()) all.push_back(e.count);
  const int64_t cut = top->ReductionCut(std::move(all));
  std::vector<std::string> texts;
  std::vector<std::pair<uint64_t, int64_t>> kept;
  for (const ValueCounts::Entry& e : counts.entries()) {
    if (e.count <= cut) continue;
    kept.emplace_back(e.hash, e.count);
    texts.push_back(text_of(e.first));
  }
  std::vector<TopValues::Counted> counted;
  counted.reserve(kept.size());
  for (size_t i = 0; i < kept.size(); ++i) counted.push_back({kept[i].first, texts[i], kept[i].second});
  top->MergeReduced(counted, cut);
}

}  // namespace

ValueType ValueTypeOf(ReadType type) {
  switch (type) {
    case ReadType::kInt64: return ValueType::kInt64;
    case ReadType::kBool: return ValueType::kBool;
    case ReadType::kFloat64: return ValueType::kFloat64;
    case ReadType::kDate: return ValueType::kDate;
    default: return ValueType::kTimestamp;
  }
}

ColumnState::ColumnState()
    : number_sketch_(kSketchExactLimit),
      time_sketch_(kSketchExactLimit),
      top_(kTopCapacity),
      patterns_(kTopCapacity),
      distinct_(DistinctCounter::kExactLimit) {}

void ColumnState::AddNumber(double x, int64_t weight) {
  reads_as_[Index(ReadType::kFloat64)] += weight;
  NumberStats& s = numbers_;
  if (std::isnan(x)) {
    s.nan += weight;
    return;
  }
  const bool first = s.finite + s.pos_inf + s.neg_inf == 0;
  if (first) s.min = s.max = x;
  else {
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  number_sketch_.AddRepeated(x, weight);
  if (std::isinf(x)) {
    (x > 0 ? s.pos_inf : s.neg_inf) += weight;
    return;
  }
  s.finite += weight;  // West's weighted update of (n, mean, M2)
  const double delta = x - s.mean;
  s.mean += delta * (static_cast<double>(weight) / static_cast<double>(s.finite));
  s.m2 += static_cast<double>(weight) * delta * (x - s.mean);
}

void ColumnState::AddInt(int64_t v, int64_t weight) {
  reads_as_[Index(ReadType::kInt64)] += weight;
  NumberStats& s = numbers_;
  if (s.ints == 0) s.int_min = s.int_max = v;
  else {
    s.int_min = std::min(s.int_min, v);
    s.int_max = std::max(s.int_max, v);
  }
  s.ints += weight;
  AddNumber(static_cast<double>(v), weight);
}

void ColumnState::AddTime(int64_t micros, int64_t weight) {
  if (times_ == 0) time_min_ = time_max_ = micros;
  else {
    time_min_ = std::min(time_min_, micros);
    time_max_ = std::max(time_max_, micros);
  }
  times_ += weight;
  time_sketch_.AddRepeated(micros, weight);
}

// A batch's patterns: counted by the pattern's hash, its text kept once.
struct ColumnState::PatternScratch {
  ValueCounts counts;
  std::vector<std::string> texts;  // by ValueCounts::Entry::first
};

void ColumnState::AddTextValue(std::string_view value, int64_t weight, PatternScratch* patterns) {
  const int64_t length = CodePoints(value);
  TextStats& t = text_;
  if (t.values == 0) t.min_length = t.max_length = length;
  else {
    t.min_length = std::min(t.min_length, length);
    t.max_length = std::max(t.max_length, length);
  }
  t.total_length += length * weight;
  t.values += weight;
  t.formats[static_cast<size_t>(ClassifyValue(value))] += weight;
  char pattern[kMaxPatternBytes];
  const size_t pattern_size = ValuePatternInto(value, pattern);
  if (patterns->counts.Add(TextHash(std::string_view(pattern, pattern_size)),
                           static_cast<uint32_t>(patterns->texts.size()), static_cast<uint32_t>(weight)))
    patterns->texts.emplace_back(pattern, pattern_size);

  if (const std::optional<int64_t> i = ParseInt64(value)) {
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, *i).ptr;
    if (std::string_view(buffer, static_cast<size_t>(end - buffer)) != value) numbers_.noncanonical_ints += weight;
    AddInt(*i, weight);
    if (*i == 0 || *i == 1) reads_as_[Index(ReadType::kBool)] += weight;
    return;
  }
  if (const std::optional<double> f = ParseFloat64(value)) {
    AddNumber(*f, weight);
    return;
  }
  if (const std::optional<int64_t> d = ParseDate(value)) {
    reads_as_[Index(ReadType::kDate)] += weight;
    AddTime(SaturatingMul(*d, kMicrosPerDay), weight);
    return;
  }
  if (const std::optional<int64_t> ts = ParseTimestamp(value)) {
    reads_as_[Index(ReadType::kTimestamp)] += weight;
    AddTime(*ts, weight);
    return;
  }
  if (ParseBool(value)) reads_as_[Index(ReadType::kBool)] += weight;
}

void ColumnState::AddText(const std::string_view* values, const uint8_t* is_null, const uint8_t* malformed,
                          int64_t n) {
  for (int64_t start = 0; start < n; start += kSliceRows)
    AddTextSlice(values + start, is_null + start, malformed ? malformed + start : nullptr,
                 std::min(kSliceRows, n - start));
  SortSketches();
}

void ColumnState::AddTextSlice(const std::string_view* values, const uint8_t* is_null, const uint8_t* malformed,
                               int64_t n) {
  std::vector<uint64_t> hashes;  // of the values counted, then of the distinct ones
  std::vector<uint32_t> rows;
  hashes.reserve(static_cast<size_t>(n));
  rows.reserve(static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    if (malformed && malformed[r]) continue;
    ++rows_;
    if (is_null[r]) {
      ++nulls_;
      continue;
    }
    hashes.push_back(TextHash(values[r]));
    rows.push_back(static_cast<uint32_t>(r));
  }
  ValueCounts counts;
  CountHashes(hashes, rows, &counts);
  PatternScratch patterns;
  hashes.clear();
  for (const ValueCounts::Entry& e : counts.entries()) {
    hashes.push_back(e.hash);
    AddTextValue(values[e.first], e.count, &patterns);
  }
  distinct_.AddAll(hashes);
  MergeCounts(&top_, counts, [&](uint32_t row) { return std::string(values[row]); });
  MergeCounts(&patterns_, patterns.counts, [&](uint32_t i) { return patterns.texts[i]; });
}

void ColumnState::AddTyped(const TypedColumn& column) {
  if (column.type == ValueType::kString) {
    std::vector<uint8_t> is_null(column.valid.size());
    for (size_t r = 0; r < is_null.size(); ++r) is_null[r] = !column.valid[r];
    AddText(column.strings, is_null.data(), nullptr, column.num_rows);
    return;
  }
  for (int64_t start = 0; start < column.num_rows; start += kSliceRows)
    AddTypedSlice(column, start, std::min(kSliceRows, column.num_rows - start));
  SortSketches();
}

void ColumnState::AddTypedSlice(const TypedColumn& column, int64_t start, int64_t n) {
  std::vector<uint64_t> hashes;  // by the value's 8 bytes (a float's normalized)
  std::vector<uint32_t> rows;
  hashes.reserve(static_cast<size_t>(n));
  rows.reserve(static_cast<size_t>(n));
  for (int64_t r = start; r < start + n; ++r) {
    ++rows_;
    if (!column.valid[r]) {
      ++nulls_;
      continue;
    }
    uint64_t bits;
    if (column.type == ValueType::kFloat64) {
      bits = FloatKeyBits(column.floats[r]);
    } else {
      std::memcpy(&bits, &column.ints[r], 8);
    }
    hashes.push_back(XXH3_64bits(&bits, 8));
    rows.push_back(static_cast<uint32_t>(r - start));
  }
  ValueCounts counts;
  CountHashes(hashes, rows, &counts);
  hashes.clear();
  // Ints, bools and dates also feed the top values, as text, keyed by the
  // text's hash (the same key a text input gives them).
  auto text_of = [&](uint32_t row) -> std::string {
    const int64_t v = column.ints[start + row];
    if (column.type == ValueType::kBool) return v ? "true" : "false";
    if (column.type == ValueType::kDate) return FormatDate(v);
    char buffer[24];
    return std::string(buffer, static_cast<size_t>(std::to_chars(buffer, buffer + sizeof buffer, v).ptr - buffer));
  };
  ValueCounts texts;
  for (const ValueCounts::Entry& e : counts.entries()) {
    const int64_t w = e.count;
    const int64_t r = start + e.first;
    switch (column.type) {
      case ValueType::kFloat64:
        hashes.push_back(e.hash);
        AddNumber(column.floats[r], w);
        break;
      case ValueType::kTimestamp:
        reads_as_[Index(ReadType::kTimestamp)] += w;
        hashes.push_back(e.hash);
        AddTime(column.ints[r], w);
        break;
      default: {  // int64, bool, date
        const uint64_t hash = TextHash(text_of(e.first));
        hashes.push_back(hash);
        texts.Add(hash, e.first, e.count);
        if (column.type == ValueType::kInt64) AddInt(column.ints[r], w);
        else if (column.type == ValueType::kBool) reads_as_[Index(ReadType::kBool)] += w;
        else {
          reads_as_[Index(ReadType::kDate)] += w;
          AddTime(SaturatingMul(column.ints[r], kMicrosPerDay), w);
        }
      }
    }
  }
  distinct_.AddAll(hashes);
  if (texts.size() > 0) MergeCounts(&top_, texts, text_of);
}

void ColumnState::SortSketches() {
  number_sketch_.SortExact();
  time_sketch_.SortExact();
}

void ColumnState::Merge(const ColumnState& other) {
  rows_ += other.rows_;
  nulls_ += other.nulls_;
  for (size_t i = 0; i < reads_as_.size(); ++i) reads_as_[i] += other.reads_as_[i];
  NumberStats& a = numbers_;
  const NumberStats& b = other.numbers_;
  const bool a_extremes = a.finite + a.pos_inf + a.neg_inf > 0, b_extremes = b.finite + b.pos_inf + b.neg_inf > 0;
  if (b_extremes) {
    a.min = a_extremes ? std::min(a.min, b.min) : b.min;
    a.max = a_extremes ? std::max(a.max, b.max) : b.max;
  }
  if (b.ints > 0) {
    a.int_min = a.ints > 0 ? std::min(a.int_min, b.int_min) : b.int_min;
    a.int_max = a.ints > 0 ? std::max(a.int_max, b.int_max) : b.int_max;
  }
  if (b.finite > 0) {  // Chan et al.: combine (n, mean, M2) of two parts
    const double n_a = static_cast<double>(a.finite), n_b = static_cast<double>(b.finite);
    const double delta = b.mean - a.mean;
    a.mean = a.finite == 0 ? b.mean : a.mean + delta * (n_b / (n_a + n_b));
    a.m2 = a.m2 + b.m2 + delta * delta * (n_a * n_b / (n_a + n_b));
  }
  a.finite += b.finite;
  a.nan += b.nan;
  a.pos_inf += b.pos_inf;
  a.neg_inf += b.neg_inf;
  a.ints += b.ints;
  a.noncanonical_ints += b.noncanonical_ints;
  number_sketch_.Merge(other.number_sketch_);
  if (other.times_ > 0) {
    time_min_ = times_ > 0 ? std::min(time_min_, other.time_min_) : other.time_min_;
    time_max_ = times_ > 0 ? std::max(time_max_, other.time_max_) : other.time_max_;
  }
  times_ += other.times_;
  time_sketch_.Merge(other.time_sketch_);
  const TextStats& t = other.text_;
  if (t.values > 0) {
    text_.min_length = text_.values > 0 ? std::min(text_.min_length, t.min_length) : t.min_length;
    text_.max_length = text_.values > 0 ? std::max(text_.max_length, t.max_length) : t.max_length;
  }
  text_.values += t.values;
  text_.total_length += t.total_length;
  for (size_t i = 0; i < text_.formats.size(); ++i) text_.formats[i] += t.formats[i];
  top_.Merge(other.top_);
  patterns_.Merge(other.patterns_);
  distinct_.MergeState(other.distinct_);
  unsupported_ = unsupported_ || other.unsupported_;
}

void ColumnState::Serialize(ByteWriter* out) const {
  out->I64(rows_);
  out->I64(nulls_);
  for (int64_t n : reads_as_) out->I64(n);
  const NumberStats& s = numbers_;
  for (int64_t n : {s.finite, s.nan, s.pos_inf, s.neg_inf, s.ints, s.noncanonical_ints, s.int_min, s.int_max})
    out->I64(n);
  for (double x : {s.mean, s.m2, s.min, s.max}) out->F64(x);
  number_sketch_.Serialize(out);
  for (int64_t n : {times_, time_min_, time_max_}) out->I64(n);
  time_sketch_.Serialize(out);
  for (int64_t n : {text_.values, text_.min_length, text_.max_length, text_.total_length}) out->I64(n);
  for (int64_t n : text_.formats) out->I64(n);
  top_.Serialize(out);
  patterns_.Serialize(out);
  distinct_.Serialize(out);
  out->U8(unsupported_ ? 1 : 0);
}

namespace {
bool Failed(ByteReader* in) {
  in->Fail();
  return false;
}
}  // namespace

bool ColumnState::Deserialize(ByteReader* in) {
  rows_ = in->I64();
  nulls_ = in->I64();
  for (int64_t& n : reads_as_) n = in->I64();
  NumberStats& s = numbers_;
  for (int64_t* n : {&s.finite, &s.nan, &s.pos_inf, &s.neg_inf, &s.ints, &s.noncanonical_ints, &s.int_min, &s.int_max})
    *n = in->I64();
  for (double* x : {&s.mean, &s.m2, &s.min, &s.max}) *x = in->F64();
  number_sketch_.Deserialize(in);
  for (int64_t* n : {&times_, &time_min_, &time_max_}) *n = in->I64();
  time_sketch_.Deserialize(in);
  for (int64_t* n : {&text_.values, &text_.min_length, &text_.max_length, &text_.total_length}) *n = in->I64();
  for (int64_t& n : text_.formats) n = in->I64();
  top_.Deserialize(in);
  patterns_.Deserialize(in);
  distinct_.Deserialize(in);
  unsupported_ = in->U8() == 1;
  // Counts that cannot be: corrupt bytes, not a profile (profile_state_fuzz
  // feeds damaged states). Rows stay below 2^56, so merged states sum safely.
  constexpr int64_t kMaxRows = int64_t{1} << 56;
  auto within = [](int64_t n, int64_t most) { return n >= 0 && n <= most; };
  if (!within(rows_, kMaxRows) || !within(nulls_, rows_)) return Failed(in);
  const int64_t values = rows_ - nulls_;
  for (int64_t n : reads_as_)
    if (!within(n, values)) return Failed(in);
  for (int64_t n : {s.finite, s.nan, s.pos_inf, s.neg_inf, s.ints, times_, text_.values, text_.total_length})
    if (n < 0) return Failed(in);
  if (s.finite > values || s.nan > values - s.finite || s.pos_inf > values - s.finite - s.nan ||
      s.neg_inf > values - s.finite - s.nan - s.pos_inf || s.ints > values || !within(s.noncanonical_ints, s.ints) ||
      (s.ints > 0 && s.int_min > s.int_max) || times_ > values || (times_ > 0 && time_min_ > time_max_) ||
      text_.values > values || !within(text_.min_length, text_.max_length) || text_.total_length > kMaxRows)
    return Failed(in);
  for (int64_t n : text_.formats)
    if (!within(n, text_.values)) return Failed(in);
  return in->ok();
}

}  // namespace griffin
