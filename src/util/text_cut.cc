#include "util/text_cut.h"

#include <cstdint>

namespace griffin {
namespace {

// The largest length <= max_bytes that ends on a UTF-8 character boundary:
// a continuation byte (10xxxxxx) at the cut means a character straddles it.
// Invalid UTF-8 is cut wherever the bytes allow (at most 3 bytes back).
size_t BoundaryAtOrBefore(std::string_view text, size_t max_bytes) {
  size_t cut = max_bytes;
  for (int back = 0; back < 3 && cut > 0 && (static_cast<uint8_t>(text[cut]) & 0xC0) == 0x80; ++back) --cut;
  return cut;
}

void AppendCutPrefix(std::string* out, std::string_view prefix, size_t full_size, size_t max_bytes) {
  if (full_size <= max_bytes || prefix.size() <= max_bytes) {  // whole (or a prefix too short to cut)
    out->append(prefix);
    if (full_size <= prefix.size()) return;
  } else {
    out->append(prefix.substr(0, BoundaryAtOrBefore(prefix, max_bytes)));
  }
  out->append("\xE2\x80\xA6(").append(std::to_string(full_size)).append(" bytes)");
}

}  // namespace

void AppendCutText(std::string* out, std::string_view text, size_t max_bytes) {
  AppendCutPrefix(out, text, text.size(), max_bytes);
}

std::string CutPrefix(std::string_view prefix, size_t full_size, size_t max_bytes) {
  std::string out;
  AppendCutPrefix(&out, prefix, full_size, max_bytes);
  return out;
}

std::string CutText(std::string_view text, size_t max_bytes) {
  std::string out;
  AppendCutText(&out, text, max_bytes);
  return out;
}

std::string WithThousands(int64_t count) {
  std::string digits = std::to_string(count < 0 ? -count : count);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return count < 0 ? "-" + out : out;
}

}  // namespace griffin
