// Bounded text for reports and messages: a value, message or list that a
// report shows is cut to a fixed number of bytes, with an ellipsis and the
// full length, so that one huge field cannot make a report (or the memory
// that builds it) huge.
//
//   CutText(std::string(5000, 'a'), 1024)  ->  1024 'a's, then "…(5000 bytes)"
//   CutText("short", 1024)                  ->  "short"
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace griffin {

// A violation's `value` and `message` in a report (and a column's min/max
// string in the run store): at most this many bytes of the text, then the note.
inline constexpr size_t kMaxShownBytes = 1024;
// A value, pattern or list quoted inside a message: shorter, so the message's
// own words after it ("... is below min 0") stay within kMaxShownBytes.
inline constexpr size_t kMaxQuotedBytes = 256;

// `text` when it has at most `max_bytes` bytes; else its first `max_bytes`
// bytes, backed off to a UTF-8 character boundary (a cut never splits a
// character), then "…(N bytes)" with N the full size of `text`. Copies at
// most max_bytes + 32 bytes, whatever the size of `text`.
std::string CutText(std::string_view text, size_t max_bytes = kMaxShownBytes);

// Appends CutText(text, max_bytes) to `out` without a temporary.
void AppendCutText(std::string* out, std::string_view text, size_t max_bytes = kMaxShownBytes);

// The same for a value of which only a prefix is kept: `prefix` holds the
// first bytes of a value of `full_size` bytes, at least max_bytes + 1 of them
// when full_size > max_bytes (so the cut can find a character boundary).
std::string CutPrefix(std::string_view prefix, size_t full_size, size_t max_bytes = kMaxShownBytes);

// True when CutText(text, max_bytes) would cut it.
inline bool IsCut(std::string_view text, size_t max_bytes = kMaxShownBytes) { return text.size() > max_bytes; }

// 100000 -> "100,000" (counts in messages).
std::string WithThousands(int64_t count);

}  // namespace griffin
