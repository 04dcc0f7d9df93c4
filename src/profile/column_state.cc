#include "profile/column_state.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include <xxhash.h>

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

void ColumnState::AddNumber(double x) {
  ++reads_as_[Index(ReadType::kFloat64)];
  NumberStats& s = numbers_;
  if (std::isnan(x)) {
    ++s.nan;
    return;
  }
  const bool first = s.finite + s.pos_inf + s.neg_inf == 0;
  if (first) s.min = s.max = x;
  else {
    s.min = std::min(s.min, x);
    s.max = std::max(s.max, x);
  }
  number_sketch_.Add(x);
  if (std::isinf(x)) {
    ++(x > 0 ? s.pos_inf : s.neg_inf);
    return;
  }
  ++s.finite;
  const double delta = x - s.mean;
  s.mean += delta / static_cast<double>(s.finite);
  s.m2 += delta * (x - s.mean);
}

void ColumnState::AddInt(int64_t v) {
  ++reads_as_[Index(ReadType::kInt64)];
  NumberStats& s = numbers_;
  if (s.ints == 0) s.int_min = s.int_max = v;
  else {
    s.int_min = std::min(s.int_min, v);
    s.int_max = std::max(s.int_max, v);
  }
  ++s.ints;
  AddNumber(static_cast<double>(v));
}

void ColumnState::AddTime(int64_t micros) {
  if (times_ == 0) time_min_ = time_max_ = micros;
  else {
    time_min_ = std::min(time_min_, micros);
    time_max_ = std::max(time_max_, micros);
  }
  ++times_;
  time_sketch_.Add(micros);
}

void ColumnState::AddTopText(std::string_view text) {
  const uint64_t hash = TextHash(text);
  distinct_.Add(hash);
  top_.Add(hash, text);
}

void ColumnState::AddTextValue(std::string_view value) {
  AddTopText(value);
  const int64_t length = CodePoints(value);
  TextStats& t = text_;
  if (t.values == 0) t.min_length = t.max_length = length;
  else {
    t.min_length = std::min(t.min_length, length);
    t.max_length = std::max(t.max_length, length);
  }
  t.total_length += length;
  ++t.values;
  ++t.formats[static_cast<size_t>(ClassifyValue(value))];
  const std::string pattern = ValuePattern(value);
  patterns_.Add(TextHash(pattern), pattern);

  if (const std::optional<int64_t> i = ParseInt64(value)) {
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, *i).ptr;
    numbers_.noncanonical_ints += std::string_view(buffer, static_cast<size_t>(end - buffer)) != value;
    AddInt(*i);
    if (*i == 0 || *i == 1) ++reads_as_[Index(ReadType::kBool)];
    return;
  }
  if (const std::optional<double> f = ParseFloat64(value)) {
    AddNumber(*f);
    return;
  }
  if (const std::optional<int64_t> d = ParseDate(value)) {
    ++reads_as_[Index(ReadType::kDate)];
    AddTime(SaturatingMul(*d, kMicrosPerDay));
    return;
  }
  if (const std::optional<int64_t> ts = ParseTimestamp(value)) {
    ++reads_as_[Index(ReadType::kTimestamp)];
    AddTime(*ts);
    return;
  }
  if (ParseBool(value)) ++reads_as_[Index(ReadType::kBool)];
}

void ColumnState::AddText(const std::string_view* values, const uint8_t* is_null, const uint8_t* malformed,
                          int64_t n) {
  for (int64_t r = 0; r < n; ++r) {
    if (malformed && malformed[r]) continue;
    ++rows_;
    if (is_null[r]) {
      ++nulls_;
      continue;
    }
    AddTextValue(values[r]);
  }
}

void ColumnState::AddTyped(const TypedColumn& column) {
  if (column.type == ValueType::kString) {
    std::vector<uint8_t> is_null(column.valid.size());
    for (size_t r = 0; r < is_null.size(); ++r) is_null[r] = !column.valid[r];
    AddText(column.strings, is_null.data(), nullptr, column.num_rows);
    return;
  }
  char buffer[32];
  for (int64_t r = 0; r < column.num_rows; ++r) {
    ++rows_;
    if (!column.valid[r]) {
      ++nulls_;
      continue;
    }
    switch (column.type) {
      case ValueType::kInt64: {
        const int64_t v = column.ints[r];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        AddTopText(std::string_view(buffer, static_cast<size_t>(end - buffer)));
        AddInt(v);
        break;
      }
      case ValueType::kFloat64: {
        double x = column.floats[r];
        const double normalized = x == 0 ? 0.0 : (std::isnan(x) ? std::nan("") : x);
        uint64_t bits;
        std::memcpy(&bits, &normalized, 8);
        distinct_.Add(XXH3_64bits(&bits, 8));
        AddNumber(x);
        break;
      }
      case ValueType::kBool:
        ++reads_as_[Index(ReadType::kBool)];
        AddTopText(column.ints[r] ? "true" : "false");
        break;
      case ValueType::kDate: {
        ++reads_as_[Index(ReadType::kDate)];
        AddTopText(FormatDate(column.ints[r]));
        AddTime(SaturatingMul(column.ints[r], kMicrosPerDay));
        break;
      }
      default: {  // timestamp
        ++reads_as_[Index(ReadType::kTimestamp)];
        const int64_t micros = column.ints[r];
        distinct_.Add(XXH3_64bits(&micros, 8));
        AddTime(micros);
        break;
      }
    }
  }
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
  // Counts that cannot be: corrupt bytes, not a profile.
  if (rows_ < 0 || nulls_ < 0 || nulls_ > rows_ || s.finite < 0 || times_ < 0 || text_.values < 0) in->Fail();
  for (int64_t n : reads_as_)
    if (n < 0 || n > rows_ - nulls_) in->Fail();
  return in->ok();
}

}  // namespace griffin
