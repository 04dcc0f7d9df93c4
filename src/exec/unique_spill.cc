#include "exec/unique_spill.h"

#include <algorithm>
#include <cstring>

#include "exec/unique_set.h"

namespace griffin {
namespace {

// Record: hash (8), row (8), key length (4), key, value tag (1), then per tag:
enum ValueTag : uint8_t {
  kFirst = 0,       // a key from memory: never a repeat, no value
  kNullValue = 1,
  kNumber = 2,      // a double (8)
  kKeyText = 3,     // a string whose text is the key's bytes
  kStringText = 4,  // a string: length (4), text
  kRawText = 5,     // raw JSON: length (4), text
};

template <typename T>
void Put(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <typename T>
T Take(const char*& p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  p += sizeof(T);
  return value;
}

void PutHead(std::string* out, uint64_t hash, std::string_view key, int64_t row) {
  out->clear();
  Put(out, hash);
  Put(out, row);
  Put(out, static_cast<uint32_t>(key.size()));
  out->append(key);
}

// KeySpill::RecordLength of the records above.
size_t RecordLength(const char* at, size_t available) {
  constexpr size_t kHead = 8 + 8 + 4;
  if (available < kHead + 1) return 0;
  uint32_t key_length;
  std::memcpy(&key_length, at + 16, 4);
  if (available < kHead + key_length + 1) return 0;
  const uint8_t tag = static_cast<uint8_t>(at[kHead + key_length]);
  const size_t head = kHead + key_length + 1;
  if (tag == kNumber) return head + 8;
  if (tag != kStringText && tag != kRawText) return head;
  if (available < head + 4) return 0;
  uint32_t text_length;
  std::memcpy(&text_length, at + head, 4);
  return head + 4 + text_length;
}

}  // namespace

ValueView SpilledRepeat::View() const {
  if (number) return ValueView::Number(*number);
  if (kind == JsonScalar::Kind::kNull) return ValueView::Null();
  return ValueView::Of(kind, text);
}

void UniqueSpill::AddFirst(uint64_t hash, std::string_view key, int64_t first_row) {
  PutHead(&record_, hash, key, first_row);
  Put(&record_, uint8_t{kFirst});
  spill_->Append(hash, record_);
}

void UniqueSpill::Add(uint64_t hash, std::string_view key, int64_t row, const ValueView& value) {
  PutHead(&record_, hash, key, row);
  const std::string_view text = value.text();
  if (value.number()) {
    Put(&record_, uint8_t{kNumber});
    Put(&record_, *value.number());
  } else if (value.is_null()) {
    Put(&record_, uint8_t{kNullValue});
  } else if (value.kind() == JsonScalar::Kind::kString && text == key) {
    Put(&record_, uint8_t{kKeyText});
  } else {
    Put(&record_, uint8_t{value.kind() == JsonScalar::Kind::kString ? kStringText : kRawText});
    Put(&record_, static_cast<uint32_t>(text.size()));
    record_.append(text);
  }
  spill_->Append(hash, record_);
}

Status UniqueSpill::Finish(size_t room, const std::function<void(int64_t row, int64_t first_row)>& on_repeat,
                           std::vector<SpilledRepeat>* listed, int64_t max_partition_bytes) {
  RETURN_IF_ERROR(spill_->status());
  auto by_row = [](const SpilledRepeat& a, const SpilledRepeat& b) { return a.row < b.row; };
  listed->clear();  // a max-heap by row of the `room` smallest rows
  RETURN_IF_ERROR(spill_->VisitBounded(max_partition_bytes, RecordLength, [&](std::string_view bytes) {
    UniqueSet set;
    const char* at = bytes.data();
    const char* end = at + bytes.size();
    while (at < end) {
      const uint64_t hash = Take<uint64_t>(at);
      const int64_t row = Take<int64_t>(at);
      const uint32_t key_length = Take<uint32_t>(at);
      const std::string_view key(at, key_length);
      at += key_length;
      const uint8_t tag = Take<uint8_t>(at);
      double number = 0;
      std::string_view text;
      if (tag == kNumber) {
        number = Take<double>(at);
      } else if (tag == kStringText || tag == kRawText) {
        const uint32_t length = Take<uint32_t>(at);
        text = std::string_view(at, length);
        at += length;
      } else if (tag == kKeyText) {
        text = key;
      }
      const int64_t first = set.InsertOrFind(hash, key, row);
      if (first < 0) continue;
      on_repeat(row, first);
      if (room == 0 || (listed->size() == room && row >= listed->front().row)) continue;
      SpilledRepeat repeat;
      repeat.row = row;
      repeat.first_row = first;
      if (tag == kNumber) repeat.number = number;
      repeat.kind = tag == kNullValue  ? JsonScalar::Kind::kNull
                    : tag == kRawText ? JsonScalar::Kind::kRaw
                                      : JsonScalar::Kind::kString;
      repeat.text.assign(text);
      listed->push_back(std::move(repeat));
      std::push_heap(listed->begin(), listed->end(), by_row);
      if (listed->size() > room) {
        std::pop_heap(listed->begin(), listed->end(), by_row);
        listed->pop_back();
      }
    }
    return Status::OK();
  }));
  std::sort_heap(listed->begin(), listed->end(), by_row);
  return Status::OK();
}

}  // namespace griffin
