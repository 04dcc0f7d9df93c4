// The shape of a text value, for column profiles and suggested regexes.
//
// ValuePattern maps each character to its class: ASCII upper-case letters to
// 'A', lower-case letters to 'a', digits to '9', any non-ASCII character to
// '*'; other ASCII characters stay as they are. "AB1234" -> "AA9999",
// "a.b@x.org" -> "a.a@a.aaa". Patterns longer than kMaxPatternChars end in
// "..." after that many characters.
//
// ClassifyValue recognises a few formats by their whole text: e-mail
// addresses, http(s) URLs, UUIDs and IPv4 addresses. FormatRegex gives the RE2
// pattern (full match) that accepts exactly the texts of a class.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace griffin {

inline constexpr size_t kMaxPatternChars = 40;

inline constexpr size_t kMaxPatternBytes = kMaxPatternChars + 3;

std::string ValuePattern(std::string_view text);
// The same pattern written into `out` (kMaxPatternBytes at least); returns its
// length. No allocation: column profiles call it once per distinct value.
size_t ValuePatternInto(std::string_view text, char* out);

enum class ValueFormat { kNone, kEmail, kUrl, kUuid, kIpv4 };
inline constexpr int kValueFormats = 5;
const char* ValueFormatName(ValueFormat format);  // "email", "url", "uuid", "ipv4"
ValueFormat ClassifyValue(std::string_view text);
std::string FormatRegex(ValueFormat format);

// The RE2 pattern accepting exactly the texts of `pattern` (a ValuePattern
// output), or nullopt when the pattern was cut or holds '*'.
std::optional<std::string> PatternRegex(std::string_view pattern);

}  // namespace griffin
