// Numbers, booleans, doubles as text, and UTF-8 helpers from value_parse.h.
// Dates and timestamps live in date_time_parse.cc.
//
// Everything here runs once per value on the hot path: no allocation (except
// the Format* functions, which build a report string), no locale, no exceptions.
#include "util/value_parse.h"

#include <simdjson.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "util/fixed_decimal.h"
#include "util/value_parse_internal.h"

namespace griffin {

namespace internal {

std::string_view TrimBlanks(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return text.substr(begin, end - begin);
}

bool EqualsIgnoreCase(std::string_view text, std::string_view lower_word) {
  if (text.size() != lower_word.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower_word[i]) return false;
  }
  return true;
}

}  // namespace internal

using internal::EqualsIgnoreCase;
using internal::TrimBlanks;

std::optional<int64_t> ParseInt64(std::string_view text) {
  text = TrimBlanks(text);
  if (text.empty()) return std::nullopt;
  bool negative = false;
  size_t pos = 0;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    pos = 1;
  }
  if (pos == text.size()) return std::nullopt;
  // Accumulate the magnitude as unsigned; the limit is 2^63 for negatives.
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t magnitude = 0;
  for (; pos < text.size(); ++pos) {
    const unsigned digit = static_cast<unsigned char>(text[pos]) - '0';
    if (digit > 9) return std::nullopt;
    if (magnitude > (limit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  if (negative) return static_cast<int64_t>(0 - magnitude);  // wraps to INT64_MIN exactly
  return static_cast<int64_t>(magnitude);
}

namespace {

// For a decimal literal that std::from_chars reported out of range: true when
// its magnitude overflows (|x| >= 1e1), false when it underflows towards zero.
// `digits` is the unsigned literal, already known to be well formed.
bool OverflowsRatherThanUnderflows(std::string_view digits) {
  int64_t exponent = 0;
  const size_t e_pos = digits.find_first_of("eE");
  if (e_pos != std::string_view::npos) {
    std::string_view exp_text = digits.substr(e_pos + 1);
    bool negative = false;
    if (!exp_text.empty() && (exp_text[0] == '+' || exp_text[0] == '-')) {
      negative = exp_text[0] == '-';
      exp_text.remove_prefix(1);
    }
    for (char c : exp_text) {
      if (exponent < 1000000) exponent = exponent * 10 + (c - '0');  // saturate
    }
    if (negative) exponent = -exponent;
    digits = digits.substr(0, e_pos);
  }
  // Decimal position of the first significant digit relative to the point.
  int64_t integer_digits = 0;
  bool seen_point = false;
  bool seen_significant = false;
  int64_t leading_fraction_zeros = 0;
  for (char c : digits) {
    if (c == '.') {
      seen_point = true;
    } else if (!seen_point) {
      if (c != '0' || seen_significant) {
        seen_significant = true;
        ++integer_digits;
      }
    } else if (!seen_significant) {
      if (c == '0') {
        ++leading_fraction_zeros;
      } else {
        seen_significant = true;
      }
    }
  }
  const int64_t magnitude =
      integer_digits > 0 ? exponent + integer_digits : exponent - leading_fraction_zeros;
  return magnitude > 0;
}

}  // namespace

std::optional<double> ParseFloat64(std::string_view text) {
  std::string_view body = TrimBlanks(text);
  const bool negative = !body.empty() && body[0] == '-';
  if (!body.empty() && (negative || body[0] == '+')) body.remove_prefix(1);
  double value;
  if (ParseFixedDecimal(body, &value)) return negative ? -value : value;
  return internal::ParseFloat64General(text);
}

std::optional<double> internal::ParseFloat64General(std::string_view text) {
  text = TrimBlanks(text);
  if (text.empty()) return std::nullopt;
  bool negative = false;
  std::string_view body = text;
  if (body[0] == '+' || body[0] == '-') {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.empty()) return std::nullopt;
  const char first = body[0];
  if (!(first >= '0' && first <= '9') && first != '.') {
    if (EqualsIgnoreCase(body, "nan")) return std::numeric_limits<double>::quiet_NaN();
    if (EqualsIgnoreCase(body, "inf") || EqualsIgnoreCase(body, "infinity")) {
      return negative ? -std::numeric_limits<double>::infinity()
                      : std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
  }
  double value = 0;
  const char* end = body.data() + body.size();
  auto [ptr, ec] = std::from_chars(body.data(), end, value, std::chars_format::general);
  if (ptr != end) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    value = OverflowsRatherThanUnderflows(body) ? std::numeric_limits<double>::infinity() : 0.0;
  } else if (ec != std::errc()) {
    return std::nullopt;
  }
  return negative ? -value : value;
}

std::optional<int64_t> ParseBool(std::string_view text) {
  text = TrimBlanks(text);
  switch (text.size()) {
    case 1:
      if (text[0] == '1' || text[0] == 't' || text[0] == 'T') return 1;
      if (text[0] == '0' || text[0] == 'f' || text[0] == 'F') return 0;
      return std::nullopt;
    case 2:
      if (EqualsIgnoreCase(text, "no")) return 0;
      return std::nullopt;
    case 3:
      if (EqualsIgnoreCase(text, "yes")) return 1;
      return std::nullopt;
    case 4:
      if (EqualsIgnoreCase(text, "true")) return 1;
      return std::nullopt;
    case 5:
      if (EqualsIgnoreCase(text, "false")) return 0;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::string FormatDoubleBrief(double value) {
  if (!std::isfinite(value)) return FormatDouble(value);
  char buffer[48];
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6 && magnitude < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
  }
  return buffer;
}

std::optional<int64_t> IntegralInt64(double value) {
  // [-2^63, 2^63): both ends are exact doubles; NaN fails every comparison.
  constexpr double kLow = -9223372036854775808.0;
  constexpr double kHigh = 9223372036854775808.0;
  if (!(value >= kLow && value < kHigh) || std::trunc(value) != value) return std::nullopt;
  return static_cast<int64_t>(value);
}

std::string FormatDouble(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, ptr);
}

namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ULL;

uint64_t LoadWord(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));
  return word;
}

}  // namespace

int64_t Utf8Length(std::string_view text) {
  // Count the bytes that are not continuation bytes (10xxxxxx).
  const char* p = text.data();
  const char* end = p + text.size();
  int64_t count = 0;
  while (end - p >= 8) {
    const uint64_t word = LoadWord(p);
    // Bit 7 of each byte is set in `continuation` when the byte is 10xxxxxx.
    const uint64_t continuation = word & ~(word << 1) & kHighBits;
    count += 8 - std::popcount(continuation);
    p += 8;
  }
  for (; p < end; ++p) {
    if ((static_cast<unsigned char>(*p) & 0xC0) != 0x80) ++count;
  }
  return count;
}

bool IsValidUtf8(std::string_view text) {
  // simdjson's validator is SIMD (several GB/s) and follows Unicode table 3-7:
  // no overlong forms, surrogates or code points above U+10FFFF.
  return simdjson::validate_utf8(text.data(), text.size());
}

}  // namespace griffin
