// A small binary encoding for mergeable states (profiles, sketches) that are
// serialized to bytes and read back (design.md "One mergeable state").
// Little-endian fixed-width integers and doubles, length-prefixed strings.
// A ByteReader never reads past its input: a short or corrupt buffer makes
// every later read fail (ok() false) instead of reading garbage.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace griffin {

class ByteWriter {
 public:
  void U64(uint64_t value) { out_.append(reinterpret_cast<const char*>(&value), 8); }
  void I64(int64_t value) { U64(static_cast<uint64_t>(value)); }
  void F64(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    U64(bits);
  }
  void U8(uint8_t value) { out_.push_back(static_cast<char>(value)); }
  void Bytes(std::string_view bytes) {
    U64(bytes.size());
    out_.append(bytes);
  }
  // Appends bytes as they are (another writer's output, say).
  void Raw(std::string_view bytes) { out_.append(bytes); }
  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view in) : in_(in) {}
  uint64_t U64() {
    uint64_t value = 0;
    if (!Need(8)) return 0;
    std::memcpy(&value, in_.data() + pos_, 8);
    pos_ += 8;
    return value;
  }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  double F64() {
    const uint64_t bits = U64();
    double value;
    std::memcpy(&value, &bits, 8);
    return value;
  }
  uint8_t U8() {
    if (!Need(1)) return 0;
    return static_cast<uint8_t>(in_[pos_++]);
  }
  std::string_view Bytes() {
    const uint64_t size = U64();
    if (!Need(size)) return {};
    std::string_view bytes = in_.substr(pos_, size);
    pos_ += size;
    return bytes;
  }
  // A count of items that each take at least `min_item_bytes`: larger than
  // what remains is corrupt (so a reader never reserves a corrupt count).
  uint64_t Count(uint64_t min_item_bytes) {
    const uint64_t count = U64();
    if (ok_ && min_item_bytes > 0 && count > (in_.size() - pos_) / min_item_bytes) ok_ = false;
    return ok_ ? count : 0;
  }
  void Fail() { ok_ = false; }
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool Need(uint64_t size) {
    if (!ok_ || size > in_.size() - pos_) {
      ok_ = false;
      return false;
    }
    return true;
  }
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace griffin
