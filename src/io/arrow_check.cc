#include "io/arrow_check.h"

#include <arrow/array.h>
#include <arrow/array/validate.h>
#include <arrow/memory_pool.h>
#include <arrow/type.h>
#include <arrow/util/align_util.h>
#include <arrow/util/bitmap_ops.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string_view>
#include <type_traits>

#include "io/utf8.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// The binary type laid out as `type` (a string type), or nullptr for others.
std::shared_ptr<arrow::DataType> BinaryTwinType(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::STRING: return arrow::binary();
    case arrow::Type::LARGE_STRING: return arrow::large_binary();
    case arrow::Type::STRING_VIEW: return arrow::binary_view();
    default: return nullptr;
  }
}

// `data` with top-level string types (and a dictionary's string values) seen
// as binary: the same buffers, validated without the UTF-8 pass, which
// MarkInvalidUtf8Rows does per row instead.
std::shared_ptr<arrow::ArrayData> WithStringsAsBinary(const std::shared_ptr<arrow::ArrayData>& data) {
  if (auto twin = BinaryTwinType(*data->type)) {
    auto copy = data->Copy();
    copy->type = std::move(twin);
    return copy;
  }
  if (data->type->id() == arrow::Type::DICTIONARY && data->dictionary != nullptr) {
    const auto& dict_type = static_cast<const arrow::DictionaryType&>(*data->type);
    if (auto twin = BinaryTwinType(*dict_type.value_type())) {
      auto copy = data->Copy();
      copy->type = arrow::dictionary(dict_type.index_type(), std::move(twin), dict_type.ordered());
      copy->dictionary = WithStringsAsBinary(data->dictionary);
      return copy;
    }
  }
  return data;
}

// Offsets of a binary array that full validation would accept: the first
// not negative, none below its predecessor, none past the data. One pass the
// compiler vectorizes (an OR of the failures), no early exit.
template <typename Offset>
bool OffsetsSound(const arrow::ArrayData& data) {
  const Offset* offsets = data.GetValues<Offset>(1);
  const Offset limit = static_cast<Offset>(data.buffers[2]->size());
  using Unsigned = std::make_unsigned_t<Offset>;
  const Unsigned limit_unsigned = static_cast<Unsigned>(limit);  // a negative offset is above it as unsigned
  if (offsets[0] < 0) return false;
  Unsigned bad = 0;  // an integer OR vectorizes; a bool does not
  for (int64_t i = 1; i <= data.length; ++i)
    bad |= static_cast<Unsigned>(static_cast<Unsigned>(offsets[i]) > limit_unsigned) |
           static_cast<Unsigned>(offsets[i] < offsets[i - 1]);
  return bad == 0;
}

// arrow::internal::ValidateArrayFull(data). A binary array (a string column
// seen as binary) that passes the structural validation, whose null count
// matches its bitmap and whose offsets are sound is accepted without
// Arrow's offset loop, which costs ~16 instructions per value; anything else,
// and every failure, goes to Arrow's full validation, so messages are Arrow's.
arrow::Status ValidateFull(const arrow::ArrayData& data) {
  const arrow::Type::type id = data.type->id();
  if ((id != arrow::Type::BINARY && id != arrow::Type::LARGE_BINARY) || data.length == 0 ||
      !arrow::internal::ValidateArray(data).ok() || !data.buffers[1]->is_cpu() ||
      (data.buffers[0] != nullptr && !data.buffers[0]->is_cpu()))
    return arrow::internal::ValidateArrayFull(data);
  if (data.null_count != arrow::kUnknownNullCount) {
    const int64_t nulls = data.buffers[0] == nullptr
                              ? 0
                              : data.length - arrow::internal::CountSetBits(data.buffers[0]->data(), data.offset,
                                                                            data.length);
    if (nulls != data.null_count) return arrow::internal::ValidateArrayFull(data);
  }
  // Offsets read in place must be aligned (a misaligned load is undefined; IPC bodies
  // may hold misaligned buffers, BodyValidationTest): those go to Arrow's loop.
  const size_t offset_width = id == arrow::Type::BINARY ? sizeof(int32_t) : sizeof(int64_t);
  if (reinterpret_cast<uintptr_t>(data.buffers[1]->data()) % offset_width != 0)
    return arrow::internal::ValidateArrayFull(data);
  const bool sound = id == arrow::Type::BINARY ? OffsetsSound<int32_t>(data) : OffsetsSound<int64_t>(data);
  return sound ? arrow::Status::OK() : arrow::internal::ValidateArrayFull(data);
}

Status Invalid(const std::string& name, const std::string& where, const std::string& message) {
  return Status::InputError(name + ": invalid Arrow data" + where + ": " + message);
}

template <typename StringArray>
void MarkInvalidRows(const StringArray& strings, const std::string& column_name, Batch* batch) {
  const int64_t n = strings.length();
  if constexpr (!std::is_same_v<StringArray, arrow::StringViewArray>) {
    // Fast path: the whole character range is valid and every value starts
    // on a character boundary, so every value is valid.
    const auto* offsets = strings.raw_value_offsets();
    std::string_view all(reinterpret_cast<const char*>(strings.raw_data()) + offsets[0],
                         static_cast<size_t>(offsets[n] - offsets[0]));
    if (IsAscii(all)) return;  // no multi-byte character to cut or break
    bool starts_ok = true;
    for (int64_t r = 0; r < n && starts_ok; ++r) {
      const auto start = offsets[r] - offsets[0];
      starts_ok = start >= static_cast<decltype(start)>(all.size()) ||
                  (static_cast<uint8_t>(all[static_cast<size_t>(start)]) & 0xC0) != 0x80;
    }
    if (starts_ok && IsValidUtf8(all)) return;
  }
  for (int64_t r = 0; r < n; ++r) {
    if (strings.IsNull(r) || batch->IsMalformed(r)) continue;
    const std::string_view value = strings.GetView(r);
    const size_t bad = FindInvalidUtf8(value);
    if (bad == std::string_view::npos) continue;
    if (batch->malformed.empty()) batch->malformed.assign(static_cast<size_t>(batch->num_rows), 0);
    batch->malformed[r] = 1;
    batch->malformed_records.push_back(
        {r, std::string(value),
         "invalid UTF-8 at byte " + std::to_string(bad + 1) + " of column \"" + column_name + "\""});
  }
}

// Rows whose value in `array` (a checked string-like array, or a dictionary
// of strings) is not valid UTF-8 become malformed.
void MarkColumn(const arrow::Array& array, const std::string& column_name, Batch* batch) {
  switch (array.type_id()) {
    case arrow::Type::STRING:
      return MarkInvalidRows(static_cast<const arrow::StringArray&>(array), column_name, batch);
    case arrow::Type::LARGE_STRING:
      return MarkInvalidRows(static_cast<const arrow::LargeStringArray&>(array), column_name, batch);
    case arrow::Type::STRING_VIEW:
      return MarkInvalidRows(static_cast<const arrow::StringViewArray&>(array), column_name, batch);
    case arrow::Type::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryArray&>(array);
      if (!BinaryTwinType(*dict.dictionary()->type())) return;
      // The dictionary's entries once, then the rows that use a bad one.
      Batch entries;
      entries.num_rows = dict.dictionary()->length();
      MarkColumn(*dict.dictionary(), column_name, &entries);
      if (entries.malformed_records.empty()) return;
      for (int64_t r = 0; r < dict.length(); ++r) {
        if (dict.IsNull(r) || batch->IsMalformed(r)) continue;
        const int64_t entry = dict.GetValueIndex(r);
        if (!entries.IsMalformed(entry)) continue;
        auto it = std::lower_bound(entries.malformed_records.begin(), entries.malformed_records.end(), entry,
                                   [](const MalformedRecord& m, int64_t e) { return m.row_in_batch < e; });
        if (batch->malformed.empty()) batch->malformed.assign(static_cast<size_t>(batch->num_rows), 0);
        batch->malformed[r] = 1;
        batch->malformed_records.push_back({r, it->raw, it->reason});
      }
      return;
    }
    default: return;
  }
}

}  // namespace

Result<std::shared_ptr<arrow::RecordBatch>> CheckArrowBatch(std::shared_ptr<arrow::RecordBatch> record_batch,
                                                            const std::string& name) {
  try {
    arrow::Status status = record_batch->Validate();  // column lengths and types against the schema
    if (!status.ok()) return Invalid(name, "", status.message());
    for (int c = 0; c < record_batch->num_columns(); ++c) {
      status = ValidateFull(*WithStringsAsBinary(record_batch->column_data(c)));
      if (!status.ok())
        return Invalid(name, " in column \"" + record_batch->schema()->field(c)->name() + "\"", status.message());
    }
    // Buffers need not be aligned (an IPC body at an odd address, a gRPC
    // slice); the engine reads values in place, so misaligned ones are copied.
    auto aligned = arrow::util::EnsureAlignment(std::move(record_batch), arrow::util::kValueAlignment,
                                                arrow::default_memory_pool());
    if (!aligned.ok()) return Invalid(name, "", aligned.status().message());
    return std::move(aligned).ValueUnsafe();
  } catch (const std::exception& e) {
    return Invalid(name, "", e.what());
  }
}

void MarkInvalidUtf8Rows(Batch* batch) {
  const size_t before = batch->malformed_records.size();
  for (const BatchColumn& column : batch->columns)
    if (column.array) MarkColumn(*column.array, column.name, batch);
  // Several columns may flag rows: keep the records ordered by row, the first
  // column's reason for a row (a row is marked once: later columns skip it).
  if (batch->malformed_records.size() > before)
    std::stable_sort(batch->malformed_records.begin(), batch->malformed_records.end(),
                     [](const MalformedRecord& a, const MalformedRecord& b) { return a.row_in_batch < b.row_in_batch; });
}

}  // namespace griffin
