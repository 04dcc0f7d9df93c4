#include "profile/profile_json.h"

#include <cmath>

#include "profile/profile_facts.h"
#include "report/json_writer.h"
#include "report/report.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// A small appender for one JSON document: keys, scalars, nesting.
class JsonOut {
 public:
  void Key(const char* name) {
    Separate();
    AppendJsonString(name, &out_);
    out_ += ": ";
    after_key_ = true;
  }
  // A finite double as a JSON number; NaN and ±inf as the strings nan, inf, -inf.
  void NumberOrText(double value) {
    if (std::isfinite(value)) Number(value);
    else String(FormatDouble(value));
  }
  void Number(double value) { Raw(JsonScalar::Number(value).is_null() ? "null" : JsonScalar::Number(value).text); }
  void Int(int64_t value) { Raw(std::to_string(value)); }
  void Bool(bool value) { Raw(value ? "true" : "false"); }
  void Null() { Raw("null"); }
  void String(std::string_view text) {
    Separate();
    AppendJsonString(text, &out_);
  }
  void Open(char bracket) {
    Separate();
    out_ += bracket;
    first_ = true;
  }
  void Close(char bracket) {
    out_ += bracket;
    first_ = false;
  }
  std::string Take() { return std::move(out_); }

 private:
  void Raw(const std::string& token) {
    Separate();
    out_ += token;
  }
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ", ";
    first_ = false;
  }
  std::string out_;
  bool first_ = true, after_key_ = false;
};

void WriteHistogram(const std::vector<HistogramBin>& bins, bool as_time, ValueType type, JsonOut* out) {
  out->Open('[');
  for (const HistogramBin& bin : bins) {
    out->Open('{');
    out->Key("lo");
    if (as_time) out->String(FormatTime(static_cast<int64_t>(bin.lo), type));
    else out->Number(bin.lo);
    out->Key("hi");
    if (as_time) out->String(FormatTime(static_cast<int64_t>(bin.hi), type));
    else out->Number(bin.hi);
    out->Key("count");
    out->Int(bin.count);
    out->Close('}');
  }
  out->Close(']');
}

void WriteTop(const TopValues& top, const char* value_key, JsonOut* out) {
  out->Open('{');
  out->Key("exact");
  out->Bool(top.exact());
  out->Key("max_error");
  out->Int(top.max_error());
  out->Key("values");
  out->Open('[');
  for (const TopValues::Entry& entry : top.Top(kListedTopValues)) {
    out->Open('{');
    out->Key(value_key);
    out->String(entry.value);
    out->Key("count");
    out->Int(entry.count);
    if (entry.cut) {
      out->Key("cut");
      out->Bool(true);
    }
    out->Close('}');
  }
  out->Close(']');
  out->Close('}');
}

void WriteNumbers(const ColumnState& column, JsonOut* out) {
  const NumberStats& n = column.numbers();
  out->Open('{');
  out->Key("count");
  out->Int(n.finite + n.nan + n.pos_inf + n.neg_inf);
  out->Key("nan");
  out->Int(n.nan);
  out->Key("infinite");
  out->Int(n.pos_inf + n.neg_inf);
  const bool extremes = n.finite + n.pos_inf + n.neg_inf > 0;
  out->Key("min");
  if (extremes) out->NumberOrText(n.min); else out->Null();
  out->Key("max");
  if (extremes) out->NumberOrText(n.max); else out->Null();
  out->Key("mean");
  if (n.finite > 0) out->Number(n.mean); else out->Null();
  out->Key("stddev");
  if (auto sd = NumberStddev(n)) out->Number(*sd); else out->Null();
  out->Key("int_min");
  if (n.ints > 0) out->Int(n.int_min); else out->Null();
  out->Key("int_max");
  if (n.ints > 0) out->Int(n.int_max); else out->Null();
  out->Key("quantiles_exact");
  out->Bool(column.number_sketch().exact());
  out->Key("quantiles");
  out->Open('{');
  for (double level : kQuantileLevels) {
    out->Key(QuantileName(level).c_str());
    if (auto q = column.number_sketch().Quantile(level)) out->NumberOrText(*q); else out->Null();
  }
  out->Close('}');
  out->Key("histogram");
  WriteHistogram(NumberHistogram(column), false, ValueType::kFloat64, out);
  out->Close('}');
}

void WriteTimes(const ColumnState& column, ValueType type, JsonOut* out) {
  out->Open('{');
  out->Key("count");
  out->Int(column.times());
  out->Key("min");
  out->String(FormatTime(column.time_min(), type));
  out->Key("max");
  out->String(FormatTime(column.time_max(), type));
  out->Key("quantiles_exact");
  out->Bool(column.time_sketch().exact());
  out->Key("quantiles");
  out->Open('{');
  for (double level : kQuantileLevels) {
    out->Key(QuantileName(level).c_str());
    if (auto q = column.time_sketch().Quantile(level)) out->String(FormatTime(*q, type)); else out->Null();
  }
  out->Close('}');
  out->Key("histogram");
  WriteHistogram(TimeHistogram(column), true, type, out);
  out->Close('}');
}

void WriteText(const ColumnState& column, JsonOut* out) {
  const TextStats& t = column.text();
  out->Open('{');
  out->Key("count");
  out->Int(t.values);
  out->Key("min_length");
  out->Int(t.min_length);
  out->Key("max_length");
  out->Int(t.max_length);
  out->Key("mean_length");
  out->Number(static_cast<double>(t.total_length) / static_cast<double>(t.values));
  out->Key("formats");
  out->Open('{');
  for (int f = 1; f < kValueFormats; ++f) {
    out->Key(ValueFormatName(static_cast<ValueFormat>(f)));
    out->Int(t.formats[static_cast<size_t>(f)]);
  }
  out->Close('}');
  out->Key("patterns");
  WriteTop(column.patterns(), "pattern", out);
  out->Close('}');
}

void WriteColumn(const std::string& name, const ColumnState& column, JsonOut* out) {
  const InferredType inferred = InferType(column);
  out->Open('{');
  out->Key("name");
  out->String(name);
  out->Key("type");
  out->String(column.unsupported() ? "unsupported" : ValueTypeName(inferred.type));
  out->Key("type_confidence");
  out->Number(inferred.confidence);
  out->Key("reads_as");
  out->Open('{');
  for (int t = 0; t < kReadTypes; ++t) {
    out->Key(ValueTypeName(ValueTypeOf(static_cast<ReadType>(t))));
    out->Int(column.reads_as(static_cast<ReadType>(t)));
  }
  out->Close('}');
  out->Key("rows");
  out->Int(column.rows());
  out->Key("nulls");
  out->Int(column.nulls());
  out->Key("null_fraction");
  out->Number(column.rows() ? static_cast<double>(column.nulls()) / static_cast<double>(column.rows()) : 0.0);
  out->Key("distinct");
  out->Int(column.distinct());
  out->Key("distinct_exact");
  out->Bool(column.distinct_exact());
  out->Key("numbers");
  if (column.reads_as(ReadType::kFloat64) > 0) WriteNumbers(column, out); else out->Null();
  out->Key("times");
  if (column.times() > 0) WriteTimes(column, inferred.type == ValueType::kDate ? ValueType::kDate : ValueType::kTimestamp, out);
  else out->Null();
  out->Key("text");
  if (column.text().values > 0) WriteText(column, out); else out->Null();
  out->Key("top_values");
  WriteTop(column.top_values(), "value", out);
  out->Close('}');
}

}  // namespace

std::string ProfileToJson(const TableProfile& profile, const std::vector<std::string>& inputs) {
  JsonOut out;
  out.Open('{');
  out.Key("griffin_version");
  out.String(GRIFFIN_VERSION);
  out.Key("inputs");
  out.Open('[');
  for (const std::string& input : inputs) out.String(input);
  out.Close(']');
  out.Key("rows");
  out.Int(profile.rows());
  out.Key("malformed_rows");
  out.Int(profile.malformed_rows());
  out.Key("columns");
  out.Open('[');
  for (const auto& [name, column] : profile.columns()) WriteColumn(name, column, &out);
  out.Close(']');
  out.Close('}');
  std::string json = out.Take();
  json += '\n';
  return json;
}

}  // namespace griffin
