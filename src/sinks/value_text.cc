#include "sinks/value_text.h"

#include <cmath>

#include <arrow/scalar.h>

#include "report/json_writer.h"
#include "util/saturating_mul.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

template <typename ArrayType>
void AppendInteger(const arrow::Array& array, int64_t row, std::string* out) {
  out->append(std::to_string(static_cast<const ArrayType&>(array).Value(row)));
}

int64_t FloorDiv(int64_t value, int64_t divisor) {
  int64_t q = value / divisor;
  return (value % divisor != 0 && value < 0) ? q - 1 : q;
}

int64_t TimestampMicros(const arrow::Array& array, int64_t row) {
  int64_t v = static_cast<const arrow::TimestampArray&>(array).Value(row);
  switch (static_cast<const arrow::TimestampType&>(*array.type()).unit()) {
    case arrow::TimeUnit::SECOND: return SaturatingMul(v, 1000000);
    case arrow::TimeUnit::MILLI: return SaturatingMul(v, 1000);
    case arrow::TimeUnit::MICRO: return v;
    case arrow::TimeUnit::NANO: return FloorDiv(v, 1000);
  }
  return v;
}

// The kinds of output text an Arrow value takes.
enum class Shape { kNumber, kBool, kString };

// Appends the plain text of a non-null Arrow value and says how JSON shows it.
Shape AppendArrowValue(const arrow::Array& array, int64_t row, std::string* out) {
  using T = arrow::Type;
  switch (array.type_id()) {
    case T::INT8: AppendInteger<arrow::Int8Array>(array, row, out); return Shape::kNumber;
    case T::INT16: AppendInteger<arrow::Int16Array>(array, row, out); return Shape::kNumber;
    case T::INT32: AppendInteger<arrow::Int32Array>(array, row, out); return Shape::kNumber;
    case T::INT64: AppendInteger<arrow::Int64Array>(array, row, out); return Shape::kNumber;
    case T::UINT8: AppendInteger<arrow::UInt8Array>(array, row, out); return Shape::kNumber;
    case T::UINT16: AppendInteger<arrow::UInt16Array>(array, row, out); return Shape::kNumber;
    case T::UINT32: AppendInteger<arrow::UInt32Array>(array, row, out); return Shape::kNumber;
    case T::UINT64: AppendInteger<arrow::UInt64Array>(array, row, out); return Shape::kNumber;
    case T::FLOAT:
    case T::DOUBLE: {
      double v = array.type_id() == T::FLOAT ? static_cast<const arrow::FloatArray&>(array).Value(row)
                                            : static_cast<const arrow::DoubleArray&>(array).Value(row);
      out->append(FormatDouble(v));
      return std::isfinite(v) ? Shape::kNumber : Shape::kString;
    }
    case T::BOOL:
      out->append(static_cast<const arrow::BooleanArray&>(array).Value(row) ? "true" : "false");
      return Shape::kBool;
    case T::STRING: out->append(static_cast<const arrow::StringArray&>(array).GetView(row)); return Shape::kString;
    case T::LARGE_STRING:
      out->append(static_cast<const arrow::LargeStringArray&>(array).GetView(row));
      return Shape::kString;
    case T::STRING_VIEW:
      out->append(static_cast<const arrow::StringViewArray&>(array).GetView(row));
      return Shape::kString;
    case T::BINARY: out->append(static_cast<const arrow::BinaryArray&>(array).GetView(row)); return Shape::kString;
    case T::LARGE_BINARY:
      out->append(static_cast<const arrow::LargeBinaryArray&>(array).GetView(row));
      return Shape::kString;
    case T::DATE32: out->append(FormatDate(static_cast<const arrow::Date32Array&>(array).Value(row))); return Shape::kString;
    case T::DATE64:
      out->append(FormatDate(FloorDiv(static_cast<const arrow::Date64Array&>(array).Value(row), 86400000)));
      return Shape::kString;
    case T::TIMESTAMP: out->append(FormatTimestamp(TimestampMicros(array, row))); return Shape::kString;
    case T::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryArray&>(array);
      return AppendArrowValue(*dict.dictionary(), dict.GetValueIndex(row), out);
    }
    case T::DECIMAL32:
    case T::DECIMAL64:
    case T::DECIMAL128:
    case T::DECIMAL256: {
      auto scalar = array.GetScalar(row);
      if (scalar.ok()) out->append((*scalar)->ToString());
      return scalar.ok() ? Shape::kNumber : Shape::kString;
    }
    default:
      break;
  }
  auto scalar = array.GetScalar(row);
  if (scalar.ok()) out->append((*scalar)->ToString());
  return Shape::kString;
}

}  // namespace

bool ColumnValueIsNull(const BatchColumn& column, int64_t row) {
  if (column.array) return column.array->IsNull(row);
  return column.text.is_null[row] != 0;
}

void AppendArrowText(const arrow::Array& array, int64_t row, std::string* out) {
  if (array.IsNull(row)) return;
  AppendArrowValue(array, row, out);
}

void AppendArrowJson(const arrow::Array& array, int64_t row, std::string* out) {
  if (array.IsNull(row)) {
    out->append("null");
    return;
  }
  std::string text;
  if (AppendArrowValue(array, row, &text) == Shape::kString) {
    AppendJsonString(text, out);
  } else {
    out->append(text);
  }
}

void AppendValueText(const BatchColumn& column, int64_t row, std::string* out) {
  if (column.array) return AppendArrowText(*column.array, row, out);
  if (!column.text.is_null[row]) out->append(column.text.values[row]);
}

void AppendValueJson(const BatchColumn& column, int64_t row, std::string* out) {
  if (column.array) return AppendArrowJson(*column.array, row, out);
  const TextColumn& text = column.text;
  if (text.is_null[row]) {
    out->append("null");
    return;
  }
  if (!text.json_kinds.empty()) {
    JsonKind kind = text.json_kinds[row];
    if (kind == JsonKind::kNumber || kind == JsonKind::kBool || kind == JsonKind::kOther) {
      out->append(text.values[row]);
      return;
    }
  }
  AppendJsonString(text.values[row], out);
}

}  // namespace griffin
