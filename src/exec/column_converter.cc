#include "exec/column_converter.h"

#include <cmath>
#include <cstring>
#include <optional>

#include <arrow/array.h>
#include <arrow/type.h>
#include <arrow/type_traits.h>

#include "util/saturating_mul.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// Parses one text value; returns false when it does not parse.
inline bool ParseText(std::string_view text, const ConvertOptions& options, int64_t* int_out,
                      double* float_out) {
  switch (options.type) {
    case ValueType::kInt64: {
      auto v = ParseInt64(text);
      if (!v) return false;
      *int_out = *v;
      return true;
    }
    case ValueType::kFloat64: {
      auto v = ParseFloat64(text);
      if (!v) return false;
      *float_out = *v;
      return true;
    }
    case ValueType::kBool: {
      auto v = ParseBool(text);
      if (!v) return false;
      *int_out = *v;
      return true;
    }
    case ValueType::kDate: {
      std::optional<int64_t> v;
      if (options.timestamp_format) {
        auto ts = ParseTimestampWithFormat(text, *options.timestamp_format);
        if (ts) {
          if (*ts % 86400000000LL != 0) return false;  // a date format must give midnight
          v = *ts / 86400000000LL;
        }
      } else {
        v = ParseDate(text);
      }
      if (!v) return false;
      *int_out = *v;
      return true;
    }
    case ValueType::kTimestamp: {
      auto v = options.timestamp_format ? ParseTimestampWithFormat(text, *options.timestamp_format)
                                        : ParseTimestamp(text);
      if (!v) return false;
      *int_out = *v;
      return true;
    }
    case ValueType::kString:
      return true;
  }
  return false;
}

// Whether a JSON value of `kind` may be parsed as text for the declared type.
inline bool JsonKindAllowed(JsonKind kind, ValueType type) {
  switch (type) {
    case ValueType::kString: return kind == JsonKind::kString;
    case ValueType::kInt64:
    case ValueType::kFloat64: return kind == JsonKind::kNumber || kind == JsonKind::kString;
    case ValueType::kBool: return kind == JsonKind::kBool || kind == JsonKind::kString;
    case ValueType::kDate:
    case ValueType::kTimestamp: return kind == JsonKind::kString;
  }
  return false;
}

void AllocateValues(TypedColumn* out) {
  if (out->type == ValueType::kString) {
    out->owned_strings.assign(out->num_rows, std::string_view());
    out->strings = out->owned_strings.data();
  } else if (out->type == ValueType::kFloat64) {
    out->owned_floats.assign(out->num_rows, 0.0);
    out->floats = out->owned_floats.data();
  } else {
    out->owned_ints.assign(out->num_rows, 0);
    out->ints = out->owned_ints.data();
  }
}

// Text values (CSV/TSV/JSON, or Arrow strings viewed as text).
void ConvertText(const Batch& batch, const std::string_view* values, const uint8_t* is_null,
                 const JsonKind* json_kinds, const ConvertOptions& options, TypedColumn* out) {
  const int64_t n = out->num_rows;
  if (options.type == ValueType::kString && json_kinds == nullptr) {
    out->strings = values;  // no copy: the views already are the values
  } else {
    AllocateValues(out);
  }
  int64_t* ints = out->owned_ints.empty() ? nullptr : out->owned_ints.data();
  double* floats = out->owned_floats.empty() ? nullptr : out->owned_floats.data();
  std::string_view* strings = out->owned_strings.empty() ? nullptr : out->owned_strings.data();
  bool any_type_error = false;
  for (int64_t r = 0; r < n; ++r) {
    if (is_null[r] || batch.IsMalformed(r)) continue;
    bool ok = json_kinds == nullptr || JsonKindAllowed(json_kinds[r], options.type);
    if (ok) {
      if (options.type == ValueType::kString) {
        if (strings) strings[r] = values[r];
      } else if (options.type == ValueType::kBool && json_kinds && json_kinds[r] == JsonKind::kBool) {
        ints[r] = values[r] == "true";
      } else {
        int64_t i = 0;
        double f = 0;
        ok = ParseText(values[r], options, &i, &f);
        // JSON has no infinity: a JSON number beyond the double range (1e999)
        // does not fit float64 (text "1e400" is inf, as semantics.md says).
        if (ok && floats && json_kinds && json_kinds[r] == JsonKind::kNumber && std::isinf(f)) ok = false;
        if (ok) {
          if (ints) ints[r] = i;
          else floats[r] = f;
        }
      }
    }
    if (ok) {
      out->valid[r] = 1;
    } else {
      if (!any_type_error) out->type_error.assign(n, 0);
      any_type_error = true;
      out->type_error[r] = 1;
    }
  }
}

// valid[r] = array.IsValid(r) && !batch.IsMalformed(r), a byte of the bitmap
// at a time (arrays of the types converted here have a bitmap or no nulls).
void MarkValidity(const arrow::Array& array, const Batch& batch, std::vector<uint8_t>* valid) {
  const int64_t n = array.length();
  if (n == 0) return;  // an empty vector's data() may be null: no memset on it
  uint8_t* out = valid->data();
  const uint8_t* bits = array.null_bitmap_data();
  if (bits == nullptr || array.null_count() == 0) {
    std::memset(out, bits == nullptr && array.data()->null_count == n ? 0 : 1, static_cast<size_t>(n));
  } else {
    const int64_t offset = array.offset();
    int64_t r = 0;
    for (; r < n && (offset + r) % 8 != 0; ++r) out[r] = arrow::bit_util::GetBit(bits, offset + r);
    for (; r + 8 <= n; r += 8) {
      const uint8_t byte = bits[(offset + r) / 8];
      for (int b = 0; b < 8; ++b) out[r + b] = (byte >> b) & 1;
    }
    for (; r < n; ++r) out[r] = arrow::bit_util::GetBit(bits, offset + r);
  }
  if (!batch.malformed.empty())
    for (int64_t r = 0; r < n; ++r) out[r] &= batch.malformed[r] ^ 1;
}

// A string column declared string over an Arrow utf8 / large_utf8 array: the
// views straight from the offsets (empty under nulls), no parsing.
template <typename ArrowStringArray>
void ViewArrowStrings(const arrow::Array& array, const Batch& batch, TypedColumn* out) {
  const auto& strings = static_cast<const ArrowStringArray&>(array);
  const int64_t n = strings.length();
  out->owned_strings.resize(static_cast<size_t>(n));
  std::string_view* views = out->owned_strings.data();
  for (int64_t r = 0; r < n; ++r) views[r] = strings.GetView(r);
  MarkValidity(array, batch, &out->valid);
  if (array.null_count() > 0)
    for (int64_t r = 0; r < n; ++r)
      if (strings.IsNull(r)) views[r] = std::string_view();
  if (const NullMatcher* nulls = batch.string_nulls.get()) {
    for (int64_t r = 0; r < n; ++r) {
      if (out->valid[r] && nulls->Match(views[r])) {
        out->valid[r] = 0;
        views[r] = std::string_view();
      }
    }
  }
  out->strings = views;
}

template <typename ArrowArrayType, typename Out>
void Widen(const arrow::Array& array, Out* out) {
  const auto& typed = static_cast<const ArrowArrayType&>(array);
  for (int64_t r = 0; r < array.length(); ++r) out[r] = static_cast<Out>(typed.Value(r));
}

bool IsStringLike(arrow::Type::type id) {
  return id == arrow::Type::STRING || id == arrow::Type::LARGE_STRING ||
         id == arrow::Type::STRING_VIEW;
}

// Views an Arrow string-like array (or dictionary of strings) as text values;
// a value `nulls` matches (when given) is null, as a text input's would be.
bool StringViews(const arrow::Array& array, const NullMatcher* nulls,
                 std::vector<std::string_view>* views, std::vector<uint8_t>* is_null) {
  const int64_t n = array.length();
  views->assign(n, std::string_view());
  is_null->assign(n, 0);
  const arrow::Array* values = &array;
  const arrow::DictionaryArray* dict = nullptr;
  if (array.type_id() == arrow::Type::DICTIONARY) {
    dict = static_cast<const arrow::DictionaryArray*>(&array);
    values = dict->dictionary().get();
  }
  auto view_at = [&](int64_t i) -> std::string_view {
    switch (values->type_id()) {
      case arrow::Type::STRING: return static_cast<const arrow::StringArray*>(values)->GetView(i);
      case arrow::Type::LARGE_STRING: return static_cast<const arrow::LargeStringArray*>(values)->GetView(i);
      case arrow::Type::STRING_VIEW: return static_cast<const arrow::StringViewArray*>(values)->GetView(i);
      default: return {};
    }
  };
  if (!IsStringLike(values->type_id())) return false;
  for (int64_t r = 0; r < n; ++r) {
    if (array.IsNull(r)) { (*is_null)[r] = 1; continue; }
    int64_t i = dict ? dict->GetValueIndex(r) : r;
    if (dict && values->IsNull(i)) { (*is_null)[r] = 1; continue; }
    const std::string_view value = view_at(i);
    if (nulls != nullptr && nulls->Match(value)) { (*is_null)[r] = 1; continue; }
    (*views)[r] = value;
  }
  return true;
}

// A floating-point array declared int64 (rules-v1, amended 2026-12-03): each
// value is judged as text would be. An integral value within int64's range is
// that integer; any other (1.5, NaN, ±inf, 1e300) is a type error, so it
// counts as null for the column's other checks. Not a schema error.
void ConvertIntegralFloats(const arrow::Array& array, const Batch& batch, TypedColumn* out) {
  using T = arrow::Type;
  AllocateValues(out);
  MarkValidity(array, batch, &out->valid);
  auto value_at = [&array](int64_t r) -> double {
    switch (array.type_id()) {
      case T::DOUBLE: return static_cast<const arrow::DoubleArray&>(array).Value(r);
      case T::FLOAT: return static_cast<const arrow::FloatArray&>(array).Value(r);
      default: return static_cast<double>(static_cast<const arrow::HalfFloatArray&>(array).GetView(r));
    }
  };
  int64_t* ints = out->owned_ints.data();
  for (int64_t r = 0; r < out->num_rows; ++r) {
    if (!out->valid[r]) continue;
    if (std::optional<int64_t> value = IntegralInt64(value_at(r))) {
      ints[r] = *value;
      continue;
    }
    if (out->type_error.empty()) out->type_error.assign(out->num_rows, 0);
    out->valid[r] = 0;
    out->type_error[r] = 1;
  }
}

// Typed Arrow array into the declared type; returns false when lossy.
bool ConvertTyped(const Batch& batch, const arrow::Array& array, const ConvertOptions& options,
                  TypedColumn* out) {
  using T = arrow::Type;
  const T::type id = array.type_id();
  const ValueType type = options.type;
  if (type == ValueType::kInt64) {
    if (id == T::INT64) {
      out->ints = static_cast<const arrow::Int64Array&>(array).raw_values();  // zero copy
    } else if (id == T::INT8 || id == T::INT16 || id == T::INT32 || id == T::UINT8 ||
               id == T::UINT16 || id == T::UINT32) {
      AllocateValues(out);
      switch (id) {
        case T::INT8: Widen<arrow::Int8Array>(array, out->owned_ints.data()); break;
        case T::INT16: Widen<arrow::Int16Array>(array, out->owned_ints.data()); break;
        case T::INT32: Widen<arrow::Int32Array>(array, out->owned_ints.data()); break;
        case T::UINT8: Widen<arrow::UInt8Array>(array, out->owned_ints.data()); break;
        case T::UINT16: Widen<arrow::UInt16Array>(array, out->owned_ints.data()); break;
        default: Widen<arrow::UInt32Array>(array, out->owned_ints.data()); break;
      }
    } else if (id == T::DOUBLE || id == T::FLOAT || id == T::HALF_FLOAT) {
      ConvertIntegralFloats(array, batch, out);
      return true;
    } else {
      return false;
    }
  } else if (type == ValueType::kFloat64) {
    if (id == T::DOUBLE) {
      out->floats = static_cast<const arrow::DoubleArray&>(array).raw_values();  // zero copy
    } else if (id == T::FLOAT || id == T::HALF_FLOAT || arrow::is_integer(id)) {
      // Integers widen to the nearest double, as their text would parse.
      AllocateValues(out);
      double* dst = out->owned_floats.data();
      switch (id) {
        case T::FLOAT: Widen<arrow::FloatArray>(array, dst); break;
        case T::HALF_FLOAT: {
          const auto& half = static_cast<const arrow::HalfFloatArray&>(array);
          for (int64_t r = 0; r < array.length(); ++r)
            dst[r] = static_cast<double>(half.GetView(r));
          break;
        }
        case T::INT8: Widen<arrow::Int8Array>(array, dst); break;
        case T::INT16: Widen<arrow::Int16Array>(array, dst); break;
        case T::INT32: Widen<arrow::Int32Array>(array, dst); break;
        case T::INT64: Widen<arrow::Int64Array>(array, dst); break;
        case T::UINT8: Widen<arrow::UInt8Array>(array, dst); break;
        case T::UINT16: Widen<arrow::UInt16Array>(array, dst); break;
        case T::UINT32: Widen<arrow::UInt32Array>(array, dst); break;
        default: Widen<arrow::UInt64Array>(array, dst); break;
      }
    } else {
      return false;
    }
  } else if (type == ValueType::kBool) {
    if (id != T::BOOL) return false;
    AllocateValues(out);
    Widen<arrow::BooleanArray>(array, out->owned_ints.data());
  } else if (type == ValueType::kDate || type == ValueType::kTimestamp) {
    const bool ts = type == ValueType::kTimestamp;
    if (id == T::DATE32) {
      AllocateValues(out);
      const auto& dates = static_cast<const arrow::Date32Array&>(array);
      for (int64_t r = 0; r < array.length(); ++r)
        out->owned_ints[r] = ts ? SaturatingMul(dates.Value(r), 86400000000LL) : dates.Value(r);
    } else if (id == T::DATE64) {
      AllocateValues(out);
      const auto& dates = static_cast<const arrow::Date64Array&>(array);
      for (int64_t r = 0; r < array.length(); ++r) {
        int64_t ms = dates.Value(r);
        out->owned_ints[r] = ts ? SaturatingMul(ms, 1000) : (ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000));
      }
    } else if (id == T::TIMESTAMP && ts) {
      AllocateValues(out);
      const auto& stamps = static_cast<const arrow::TimestampArray&>(array);
      auto unit = static_cast<const arrow::TimestampType&>(*array.type()).unit();
      for (int64_t r = 0; r < array.length(); ++r) {
        int64_t v = stamps.Value(r);
        switch (unit) {
          case arrow::TimeUnit::SECOND: v = SaturatingMul(v, 1000000); break;
          case arrow::TimeUnit::MILLI: v = SaturatingMul(v, 1000); break;
          case arrow::TimeUnit::MICRO: break;
          case arrow::TimeUnit::NANO: v = v >= 0 ? v / 1000 : -((-v + 999) / 1000); break;
        }
        out->owned_ints[r] = v;
      }
    } else {
      return false;
    }
  } else {
    return false;  // string declared over a non-string typed column
  }
  MarkValidity(array, batch, &out->valid);
  return true;
}

}  // namespace

std::optional<ValueType> NaturalValueType(const arrow::DataType& type) {
  using T = arrow::Type;
  switch (type.id()) {
    case T::INT8: case T::INT16: case T::INT32: case T::INT64:
    case T::UINT8: case T::UINT16: case T::UINT32: return ValueType::kInt64;
    case T::HALF_FLOAT: case T::FLOAT: case T::DOUBLE: return ValueType::kFloat64;
    case T::BOOL: return ValueType::kBool;
    case T::DATE32: case T::DATE64: return ValueType::kDate;
    case T::TIMESTAMP: return ValueType::kTimestamp;
    case T::STRING: case T::LARGE_STRING: case T::STRING_VIEW: return ValueType::kString;
    case T::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryType&>(type);
      return IsStringLike(dict.value_type()->id()) ? std::optional(ValueType::kString) : std::nullopt;
    }
    default: return std::nullopt;
  }
}

void ConvertColumn(const Batch& batch, const BatchColumn* column, const ConvertOptions& options,
                   TypedColumn* out, bool* lossy, std::string* lossy_message) {
  *lossy = false;
  out->type = options.type;
  out->num_rows = batch.num_rows;
  out->valid.assign(batch.num_rows, 0);
  out->type_error.clear();
  if (column == nullptr) {
    out->present = false;
    AllocateValues(out);
    return;
  }
  if (!column->array) {
    const TextColumn& text = column->text;
    ConvertText(batch, text.values.data(), text.is_null.data(),
                text.json_kinds.empty() ? nullptr : text.json_kinds.data(), options, out);
    return;
  }
  const arrow::Array& array = *column->array;
  if (array.type_id() == arrow::Type::NA) {
    // Arrow's null type holds only nulls, which every declared type holds too
    // (an all-None column of pandas / polars / pa.array([None, ...])).
    AllocateValues(out);
    return;
  }
  std::optional<ValueType> natural = NaturalValueType(*array.type());
  if (options.type == ValueType::kString && array.type_id() == arrow::Type::STRING) {
    ViewArrowStrings<arrow::StringArray>(array, batch, out);
    return;
  }
  if (options.type == ValueType::kString && array.type_id() == arrow::Type::LARGE_STRING) {
    ViewArrowStrings<arrow::LargeStringArray>(array, batch, out);
    return;
  }
  if (natural == ValueType::kString) {
    // Strings of a typed input: views into the Arrow buffers, parsed as text.
    std::vector<std::string_view> views;
    std::vector<uint8_t> nulls;
    StringViews(array, batch.string_nulls.get(), &views, &nulls);
    ConvertText(batch, views.data(), nulls.data(), nullptr, options, out);
    if (out->strings == views.data()) {
      out->owned_strings = std::move(views);  // moving keeps the buffer, so the pointer holds
      out->strings = out->owned_strings.data();
    }
    return;
  }
  if (ConvertTyped(batch, array, options, out)) return;
  *lossy = true;
  *lossy_message = "input type " + array.type()->ToString() + " cannot hold " +
                   ValueTypeName(options.type) + " without loss";
  AllocateValues(out);
  out->valid.assign(batch.num_rows, 0);
  out->type_error.assign(batch.num_rows, 0);
  for (int64_t r = 0; r < batch.num_rows; ++r)
    out->type_error[r] = array.IsValid(r) && !batch.IsMalformed(r);
}

}  // namespace griffin
