#include "exec/violation_messages.h"

#include <charconv>
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

template <typename Int>
JsonScalar IntegerText(Int value) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return JsonScalar::Raw(std::string(buffer, end));
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
    // Integers as Scalar::ToString writes them (plain decimal), without the scalar.
    case T::INT8: return IntegerText(static_cast<const arrow::Int8Array&>(array).Value(row));
    case T::INT16: return IntegerText(static_cast<const arrow::Int16Array&>(array).Value(row));
    case T::INT32: return IntegerText(static_cast<const arrow::Int32Array&>(array).Value(row));
    case T::INT64: return IntegerText(static_cast<const arrow::Int64Array&>(array).Value(row));
    case T::UINT8: return IntegerText(static_cast<const arrow::UInt8Array&>(array).Value(row));
    case T::UINT16: return IntegerText(static_cast<const arrow::UInt16Array&>(array).Value(row));
    case T::UINT32: return IntegerText(static_cast<const arrow::UInt32Array&>(array).Value(row));
    case T::UINT64: return IntegerText(static_cast<const arrow::UInt64Array&>(array).Value(row));
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
  if (info.options.message) {
    std::string message = *info.options.message;
    ReplaceAll(&message, "{value}", ValueForMessage(value));
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
      return "(" + columns + ") duplicates row " + std::to_string(first_row);
    }
    return info.name + " is false: " + (row_plan ? row_plan->rule->expr_text : "");
  }
  // "<column> <value> <what>": one string, appended in place (this runs for
  // every listed violation and every collected row error).
  const ColumnCheckKind kind = column_check->kind;
  const std::string& bound = column_check->bound_text;
  const std::string_view column = info.column ? std::string_view(*info.column) : std::string_view();
  const std::string_view shown = value.is_null() ? std::string_view("null") : std::string_view(value.text);
  std::string out;
  out.reserve(column.size() + shown.size() + bound.size() + 40);
  out.append(column);
  if (kind == ColumnCheckKind::kNotNull) return out.append(" is null");
  out += ' ';
  // Bounds and finite show numbers bare; the other kinds quote a string value.
  const bool numeric = kind == ColumnCheckKind::kMin || kind == ColumnCheckKind::kMax ||
                       kind == ColumnCheckKind::kGt || kind == ColumnCheckKind::kLt ||
                       kind == ColumnCheckKind::kFinite;
  const bool quote = !numeric && value.kind == JsonScalar::Kind::kString;
  if (quote) out += '\'';
  out.append(shown);
  if (quote) out += '\'';
  switch (kind) {
    case ColumnCheckKind::kType: return out.append(" is not a valid ").append(bound);
    case ColumnCheckKind::kUnique: return out.append(" duplicates row ").append(std::to_string(first_row));
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
      out.append(" has length ").append(std::to_string(Utf8Length(value.text))).append(", outside [");
      out.append(std::to_string(column_check->length_min)).append(", ");
      return out.append(column_check->length_max == INT64_MAX ? std::string("inf")
                                                              : std::to_string(column_check->length_max)).append("]");
    case ColumnCheckKind::kNotNull: break;
  }
  return info.name + " failed";
}

}  // namespace griffin
