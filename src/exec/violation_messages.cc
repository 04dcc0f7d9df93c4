#include "exec/violation_messages.h"

#include <cmath>

#include <arrow/array.h>
#include <arrow/scalar.h>

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

JsonScalar ArrowValue(const arrow::Array& array, int64_t row) {
  if (array.IsNull(row)) return JsonScalar::Null();
  using T = arrow::Type;
  switch (array.type_id()) {
    case T::DOUBLE: return JsonScalar::Number(static_cast<const arrow::DoubleArray&>(array).Value(row));
    case T::FLOAT: return JsonScalar::Number(static_cast<const arrow::FloatArray&>(array).Value(row));
    case T::BOOL:
      return JsonScalar::Raw(static_cast<const arrow::BooleanArray&>(array).Value(row) ? "true" : "false");
    case T::STRING: return JsonScalar::String(std::string(static_cast<const arrow::StringArray&>(array).GetView(row)));
    case T::LARGE_STRING:
      return JsonScalar::String(std::string(static_cast<const arrow::LargeStringArray&>(array).GetView(row)));
    case T::STRING_VIEW:
      return JsonScalar::String(std::string(static_cast<const arrow::StringViewArray&>(array).GetView(row)));
    case T::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryArray&>(array);
      return ArrowValue(*dict.dictionary(), dict.GetValueIndex(row));
    }
    case T::DATE32: return JsonScalar::String(FormatDate(static_cast<const arrow::Date32Array&>(array).Value(row)));
    case T::TIMESTAMP: {
      int64_t v = static_cast<const arrow::TimestampArray&>(array).Value(row);
      switch (static_cast<const arrow::TimestampType&>(*array.type()).unit()) {
        case arrow::TimeUnit::SECOND: v *= 1000000; break;
        case arrow::TimeUnit::MILLI: v *= 1000; break;
        case arrow::TimeUnit::MICRO: break;
        case arrow::TimeUnit::NANO: v = v >= 0 ? v / 1000 : -((-v + 999) / 1000); break;
      }
      return JsonScalar::String(FormatTimestamp(v));
    }
    default:
      break;
  }
  auto scalar = array.GetScalar(row);
  if (!scalar.ok()) return JsonScalar::Null();
  std::string text = (*scalar)->ToString();
  if (arrow::is_integer(array.type_id())) return JsonScalar::Raw(text);
  return JsonScalar::String(text);
}

}  // namespace

JsonScalar JsonScalar::Number(double value) {
  if (!std::isfinite(value)) return Null();
  return Raw(FormatDouble(value));
}

JsonScalar ValueAsRead(const Batch& batch, int column_index, int64_t row) {
  if (column_index < 0) return JsonScalar::Null();
  const BatchColumn& column = batch.columns[column_index];
  if (column.array) return ArrowValue(*column.array, row);
  const TextColumn& text = column.text;
  if (text.is_null[row]) return JsonScalar::Null();
  std::string value(text.values[row]);
  if (!text.json_kinds.empty()) {
    JsonKind kind = text.json_kinds[row];
    if (kind == JsonKind::kNumber || kind == JsonKind::kBool || kind == JsonKind::kOther)
      return JsonScalar::Raw(std::move(value));
  }
  return JsonScalar::String(std::move(value));
}

std::string ValueForMessage(const JsonScalar& value) {
  return value.is_null() ? "null" : value.text;
}

std::string ViolationMessage(const Plan& plan, int check_index, const CompiledColumnCheck* column_check,
                             const JsonScalar& value, int64_t row, int64_t first_row) {
  const CheckInfo& info = plan.checks()[check_index];
  const std::string shown = ValueForMessage(value);
  if (info.options.message) {
    std::string message = *info.options.message;
    ReplaceAll(&message, "{value}", shown);
    ReplaceAll(&message, "{column}", info.column.value_or(""));
    ReplaceAll(&message, "{row}", std::to_string(row));
    return message;
  }
  const std::string column = info.column.value_or("");
  if (!column_check) {
    const RowPlan* row_plan = nullptr;
    for (const RowPlan& r : plan.rows())
      if (r.check_index == check_index) row_plan = &r;
    if (row_plan && row_plan->rule->kind == RowCheck::Kind::kUnique) {
      std::string columns;
      for (const std::string& c : row_plan->rule->unique_columns) columns += (columns.empty() ? "" : ", ") + c;
      return "(" + columns + ") duplicates row " + std::to_string(first_row);
    }
    return info.name + " is false: " + (row_plan ? row_plan->rule->expr_text : "");
  }
  const std::string& bound = column_check->bound_text;
  const std::string quoted = value.kind == JsonScalar::Kind::kString ? "'" + shown + "'" : shown;
  switch (column_check->kind) {
    case ColumnCheckKind::kNotNull: return column + " is null";
    case ColumnCheckKind::kType: return column + " " + quoted + " is not a valid " + bound;
    case ColumnCheckKind::kUnique:
      return column + " " + quoted + " duplicates row " + std::to_string(first_row);
    case ColumnCheckKind::kMin: return column + " " + shown + " is below min " + bound;
    case ColumnCheckKind::kMax: return column + " " + shown + " is above max " + bound;
    case ColumnCheckKind::kGt: return column + " " + shown + " is not greater than " + bound;
    case ColumnCheckKind::kLt: return column + " " + shown + " is not less than " + bound;
    case ColumnCheckKind::kFinite: return column + " " + shown + " is not finite";
    case ColumnCheckKind::kRegex: return column + " " + quoted + " does not match /" + bound + "/";
    case ColumnCheckKind::kContains: return column + " " + quoted + " contains no match of /" + bound + "/";
    case ColumnCheckKind::kIn: return column + " " + quoted + " is not in " + bound;
    case ColumnCheckKind::kNotIn: return column + " " + quoted + " is in " + bound;
    case ColumnCheckKind::kLength: {
      std::string range = "[" + std::to_string(column_check->length_min) + ", " +
                          (column_check->length_max == INT64_MAX ? std::string("inf")
                                                                 : std::to_string(column_check->length_max)) + "]";
      return column + " " + quoted + " has length " + std::to_string(Utf8Length(value.text)) +
             ", outside " + range;
    }
  }
  return info.name + " failed";
}

}  // namespace griffin
