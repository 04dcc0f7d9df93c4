#include "profile/value_pattern.h"

namespace griffin {
namespace {

bool IsHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// RE2's \s: [\t\n\f\r ].
bool IsRe2Space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// [^@\s]+@[^@\s]+\.[^@\s]+ : one '@', no spaces, a dot inside the domain.
bool IsEmail(std::string_view s) {
  const size_t at = s.find('@');
  if (at == std::string_view::npos || at == 0 || s.find('@', at + 1) != std::string_view::npos) return false;
  for (char c : s)
    if (IsRe2Space(c)) return false;
  const std::string_view domain = s.substr(at + 1);
  const size_t dot = domain.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < domain.size();
}

// https?://[^\s]+
bool IsUrl(std::string_view s) {
  size_t rest;
  if (s.starts_with("http://")) rest = 7;
  else if (s.starts_with("https://")) rest = 8;
  else return false;
  if (s.size() == rest) return false;
  for (size_t i = rest; i < s.size(); ++i)
    if (IsRe2Space(s[i])) return false;
  return true;
}

bool IsUuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < 36; ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !IsHex(s[i])) return false;
  }
  return true;
}

// Four decimal numbers 0-255 without leading zeros, joined by dots.
bool IsIpv4(std::string_view s) {
  int parts = 0;
  size_t i = 0;
  while (true) {
    size_t start = i;
    int value = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 3) value = value * 10 + (s[i++] - '0');
    const size_t digits = i - start;
    if (digits == 0 || value > 255 || (digits > 1 && s[start] == '0')) return false;
    if (++parts == 4) return i == s.size();
    if (i >= s.size() || s[i] != '.') return false;
    ++i;
  }
}

}  // namespace

namespace {

// Each byte's class: 'A', 'a', '9', '*' (a non-ASCII lead byte), 0 for a
// UTF-8 continuation byte (no character of its own), else the byte itself.
struct PatternClasses {
  char of[256];
  constexpr PatternClasses() : of() {
    for (int c = 0; c < 256; ++c) {
      if (c >= 'A' && c <= 'Z') of[c] = 'A';
      else if (c >= 'a' && c <= 'z') of[c] = 'a';
      else if (c >= '0' && c <= '9') of[c] = '9';
      else if ((c & 0xC0) == 0x80) of[c] = 0;
      else if (c >= 0x80) of[c] = '*';
      else of[c] = static_cast<char>(c);
    }
  }
};
constexpr PatternClasses kPatternClasses;

}  // namespace

size_t ValuePatternInto(std::string_view text, char* out) {
  size_t n = 0, chars = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char cls = kPatternClasses.of[static_cast<unsigned char>(text[i])];
    if (cls == 0 && static_cast<unsigned char>(text[i]) >= 0x80) continue;  // continuation byte
    if (chars == kMaxPatternChars) {
      out[n++] = '.';
      out[n++] = '.';
      out[n++] = '.';
      break;
    }
    ++chars;
    out[n++] = cls;
  }
  return n;
}

std::string ValuePattern(std::string_view text) {
  char buffer[kMaxPatternBytes];
  return std::string(buffer, ValuePatternInto(text, buffer));
}

const char* ValueFormatName(ValueFormat format) {
  switch (format) {
    case ValueFormat::kEmail: return "email";
    case ValueFormat::kUrl: return "url";
    case ValueFormat::kUuid: return "uuid";
    case ValueFormat::kIpv4: return "ipv4";
    default: return "none";
  }
}

ValueFormat ClassifyValue(std::string_view text) {
  if (text.empty()) return ValueFormat::kNone;
  if (IsUuid(text)) return ValueFormat::kUuid;
  if (IsIpv4(text)) return ValueFormat::kIpv4;
  if (IsUrl(text)) return ValueFormat::kUrl;
  if (IsEmail(text)) return ValueFormat::kEmail;
  return ValueFormat::kNone;
}

std::string FormatRegex(ValueFormat format) {
  switch (format) {
    case ValueFormat::kEmail: return R"(^[^@\s]+@[^@\s]+\.[^@\s]+$)";
    case ValueFormat::kUrl: return R"(^https?://\S+$)";
    case ValueFormat::kUuid: return "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
    case ValueFormat::kIpv4:
      return R"(^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$)";
    default: return "";
  }
}

std::optional<std::string> PatternRegex(std::string_view pattern) {
  if (pattern.ends_with("...") || pattern.find('*') != std::string_view::npos) return std::nullopt;
  std::string regex = "^";
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    size_t run = 1;
    while (i + run < pattern.size() && pattern[i + run] == c) ++run;
    std::string unit;
    if (c == 'A') unit = "[A-Z]";
    else if (c == 'a') unit = "[a-z]";
    else if (c == '9') unit = "[0-9]";
    else if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == ' ' || c == '_' || c == '-')
      unit = std::string(1, c);
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
    else unit = std::string("\\") + c;
    regex += unit;
    if (run > 1) regex += "{" + std::to_string(run) + "}";
    i += run;
  }
  return regex + "$";
}

}  // namespace griffin
