#include "exec/violation_messages.h"

#include <charconv>
#include <cmath>

#include <arrow/array.h>
#include <arrow/scalar.h>

#include "exec/prior_unique_keys.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

void ReplaceAll(std::string* text, std::string_view from, const std::string& to) {
  size_t pos = 0;
  while ((pos = text->find(from, pos)) != std::string::npos) {
    text->replace(pos, from.size(), to);
    pos += to.size();
  }
}

template <typename Int>
ValueView IntegerText(Int value) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return ValueView::Formatted(JsonScalar::Kind::kRaw, std::string(buffer, end));
}

ValueView StringView(std::string_view text) { return ValueView::Of(JsonScalar::Kind::kString, text); }

// A string value of a typed input: null when it spells null (Batch::string_nulls).
ValueView ArrowString(std::string_view text, const NullMatcher* nulls) {
  if (nulls != nullptr && nulls->Match(text)) return ValueView::Null();
  return StringView(text);
}

ValueView ArrowValue(const arrow::Array& array, int64_t row, const NullMatcher* nulls) {
  if (array.IsNull(row)) return ValueView::Null();
  using T = arrow::Type;
  switch (array.type_id()) {
    case T::DOUBLE: return ValueView::Number(static_cast<const arrow::DoubleArray&>(array).Value(row));
    case T::FLOAT: return ValueView::Number(static_cast<const arrow::FloatArray&>(array).Value(row));
    case T::BOOL:
      return ValueView::Formatted(JsonScalar::Kind::kRaw,
                                  static_cast<const arrow::BooleanArray&>(array).Value(row) ? "true" : "false");
    case T::STRING: return ArrowString(static_cast<const arrow::StringArray&>(array).GetView(row), nulls);
    case T::LARGE_STRING: return ArrowString(static_cast<const arrow::LargeStringArray&>(array).GetView(row), nulls);
    case T::STRING_VIEW: return ArrowString(static_cast<const arrow::StringViewArray&>(array).GetView(row), nulls);
    case T::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryArray&>(array);
      return ArrowValue(*dict.dictionary(), dict.GetValueIndex(row), nulls);
    }
    // Integers as Scalar::ToString writes them (plain decimal), without the scalar.
    case T::INT8: return IntegerText(static_cast<const arrow::Int8Array&>(array).Value(row));
    case T::INT16: return IntegerText(static_cast<const arrow::Int16Array&>(array).Value(row));
    case T::INT32: return IntegerText(static_cast<const arrow::Int32Array&>(array).Value(row));
    case T::INT64: return IntegerText(static_cast<const arrow::Int64Array&>(array).Value(row));
    case T::UINT8: return IntegerText(static_cast<const arrow::UInt8Array&>(array).Value(row));
    case T::UINT16: return IntegerText(static_cast<const arrow::UInt16Array&>(array).Value(row));
    case T::UINT32: return IntegerText(static_cast<const arrow::UInt32Array&>(array).Value(row));
    case T::UINT64: return IntegerText(static_cast<const arrow::UInt64Array&>(array).Value(row));
    case T::DATE32:
      return ValueView::Formatted(JsonScalar::Kind::kString,
                                  FormatDate(static_cast<const arrow::Date32Array&>(array).Value(row)));
    case T::TIMESTAMP: {
      int64_t v = static_cast<const arrow::TimestampArray&>(array).Value(row);
      switch (static_cast<const arrow::TimestampType&>(*array.type()).unit()) {
        case arrow::TimeUnit::SECOND: v *= 1000000; break;
        case arrow::TimeUnit::MILLI: v *= 1000; break;
        case arrow::TimeUnit::MICRO: break;
        case arrow::TimeUnit::NANO: v = v >= 0 ? v / 1000 : -((-v + 999) / 1000); break;
      }
      return ValueView::Formatted(JsonScalar::Kind::kString, FormatTimestamp(v));
    }
    default:
      break;
  }
  // Other types (binary, lists, decimals...): the scalar's text. Rare in
  // rule columns; the text is cut like any other when it is reported.
  auto scalar = array.GetScalar(row);
  if (!scalar.ok()) return ValueView::Null();
  std::string text = (*scalar)->ToString();
  return ValueView::Formatted(arrow::is_integer(array.type_id()) ? JsonScalar::Kind::kRaw : JsonScalar::Kind::kString,
                              std::move(text));
}

// A value as messages show it: a float of a typed input as FormatDouble
// writes it (nan and inf included), null as "null", text cut to kMaxQuotedBytes.
void AppendQuotedValue(std::string* out, const ValueView& value) {
  if (value.number()) out->append(FormatDouble(*value.number()));
  else if (value.is_null()) out->append("null");
  else AppendCutText(out, value.text(), kMaxQuotedBytes);
}

// Whether a value as read is NaN: a float of a typed input, or text that
// parses as NaN ("nan", "NaN", "-nan").
bool IsNaN(const ValueView& value) {
  if (value.number()) return std::isnan(*value.number());
  if (value.is_null()) return false;
  std::optional<double> parsed = ParseFloat64(value.text());
  return parsed.has_value() && std::isnan(*parsed);
}

}  // namespace

JsonScalar JsonScalar::Number(double value) {
  JsonScalar scalar = std::isfinite(value) ? Raw(FormatDouble(value)) : Null();
  scalar.number = value;
  return scalar;
}

ValueView ValueView::Number(double value) {
  ValueView view = std::isfinite(value) ? Formatted(JsonScalar::Kind::kRaw, FormatDouble(value)) : Null();
  view.number_ = value;
  return view;
}

ValueView ViewValue(const Batch& batch, int column_index, int64_t row) {
  if (column_index < 0) return ValueView::Null();
  const BatchColumn& column = batch.columns[column_index];
  if (column.array) return ArrowValue(*column.array, row, batch.string_nulls.get());
  const TextColumn& text = column.text;
  if (text.is_null[row]) return ValueView::Null();
  if (!text.json_kinds.empty()) {
    JsonKind kind = text.json_kinds[row];
    if (kind == JsonKind::kNumber || kind == JsonKind::kBool || kind == JsonKind::kOther)
      return ValueView::Of(JsonScalar::Kind::kRaw, text.values[row]);
  }
  return StringView(text.values[row]);
}

JsonScalar ReportValue(const ValueView& value) {
  if (value.is_null()) return JsonScalar::Null();
  if (!IsCut(value.text())) return {value.kind(), std::string(value.text())};
  return JsonScalar::String(CutText(value.text()));
}

JsonScalar ValueAsRead(const Batch& batch, int column_index, int64_t row) {
  return ReportValue(ViewValue(batch, column_index, row));
}

namespace {

// The message before the final cut.
// "duplicates row N", or the first occurrence was in an earlier run (prior_unique_keys.h).
std::string DuplicatesWhat(int64_t first_row) {
  if (first_row == kFirstRowInEarlierRun) return "duplicates a record of an earlier batch";
  return "duplicates row " + std::to_string(first_row);
}

std::string UncutMessage(const Plan& plan, int check_index, const CompiledColumnCheck* column_check,
                         const ValueView& value, int64_t row, int64_t first_row) {
  const CheckInfo& info = plan.checks()[check_index];
  if (info.options.message) {
    std::string message = *info.options.message;
    std::string shown;
    AppendQuotedValue(&shown, value);
    ReplaceAll(&message, "{value}", shown);
    ReplaceAll(&message, "{column}", info.column.value_or(""));
    ReplaceAll(&message, "{row}", std::to_string(row));
    return message;
  }
  if (!column_check) {
    const RowPlan* row_plan = nullptr;
    for (const RowPlan& r : plan.rows())
      if (r.check_index == check_index) row_plan = &r;
    if (row_plan && row_plan->rule->kind == RowCheck::Kind::kUnique) {
      std::string columns;
      for (const std::string& c : row_plan->rule->unique_columns) columns += (columns.empty() ? "" : ", ") + c;
      return "(" + columns + ") " + DuplicatesWhat(first_row);
    }
    return info.name + " is false: " + (row_plan ? row_plan->rule->expr_text : "");
  }
  // "<column> <value> <what>": one string, appended in place (this runs for
  // every listed violation and every collected row error).
  const ColumnCheckKind kind = column_check->kind;
  const std::string bound = CutText(column_check->bound_text, kMaxQuotedBytes);
  const std::string_view column = info.column ? std::string_view(*info.column) : std::string_view();
  std::string out;
  out.reserve(column.size() + std::min(value.text().size(), kMaxQuotedBytes) + bound.size() + 64);
  out.append(column);
  if (kind == ColumnCheckKind::kNotNull) return out.append(" is null");
  out += ' ';
  // Bounds and finite show numbers bare; the other kinds quote a string value.
  const bool numeric = kind == ColumnCheckKind::kMin || kind == ColumnCheckKind::kMax ||
                       kind == ColumnCheckKind::kGt || kind == ColumnCheckKind::kLt ||
                       kind == ColumnCheckKind::kFinite;
  const bool quote = !numeric && value.kind() == JsonScalar::Kind::kString;
  if (quote) out += '\'';
  AppendQuotedValue(&out, value);
  if (quote) out += '\'';
  if (numeric && kind != ColumnCheckKind::kFinite && IsNaN(value)) {
    // NaN is neither below nor above anything: it fails every bound (rules-v1).
    return out.append(" fails ").append(ColumnCheckKindName(kind)).append(" ").append(bound);
  }
  switch (kind) {
    case ColumnCheckKind::kType:
      // A float column declared int64 is judged value by value (rules-v1, amended 2026-12-03).
      if (value.number() && bound == ValueTypeName(ValueType::kInt64))
        return out.append(" is not an integral value for ").append(bound);
      return out.append(" is not a valid ").append(bound);
    case ColumnCheckKind::kUnique: return out.append(" ").append(DuplicatesWhat(first_row));
    case ColumnCheckKind::kMin: return out.append(" is below min ").append(bound);
    case ColumnCheckKind::kMax: return out.append(" is above max ").append(bound);
    case ColumnCheckKind::kGt: return out.append(" is not greater than ").append(bound);
    case ColumnCheckKind::kLt: return out.append(" is not less than ").append(bound);
    case ColumnCheckKind::kFinite: return out.append(" is not finite");
    case ColumnCheckKind::kRegex: return out.append(" does not match /").append(bound).append("/");
    case ColumnCheckKind::kContains: return out.append(" contains no match of /").append(bound).append("/");
    case ColumnCheckKind::kIn: return out.append(" is not in ").append(bound);
    case ColumnCheckKind::kNotIn: return out.append(" is in ").append(bound);
    case ColumnCheckKind::kLength:
      out.append(" has length ").append(std::to_string(Utf8Length(value.text()))).append(", outside [");
      out.append(std::to_string(column_check->length_min)).append(", ");
      return out.append(column_check->length_max == INT64_MAX ? std::string("inf")
                                                              : std::to_string(column_check->length_max)).append("]");
    case ColumnCheckKind::kNotNull: break;
  }
  return info.name + " failed";
}

}  // namespace

std::string ViolationMessage(const Plan& plan, int check_index, const CompiledColumnCheck* column_check,
                             const ValueView& value, int64_t row, int64_t first_row) {
  std::string message = UncutMessage(plan, check_index, column_check, value, row, first_row);
  if (IsCut(message)) message = CutText(message);
  return message;
}

}  // namespace griffin
