#include "util/fixed_timestamp.h"

#include <endian.h>

#include <cstring>

namespace griffin {
namespace {

uint64_t Load8(const unsigned char* p) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  return le64toh(word);
}

// The bytes of `word` under `digit_mask` are ASCII digits: *values holds
// their digits (0-9) there and 0 elsewhere.
bool Digits(uint64_t word, uint64_t digit_mask, uint64_t* values) {
  constexpr uint64_t kZeros = 0x3030303030303030ULL, kHigh = 0xF0F0F0F0F0F0F0F0ULL, kSix = 0x0606060606060606ULL;
  const uint64_t x = (word & digit_mask) | (kZeros & ~digit_mask);
  // Every byte in 0x30..0x3F, and none above 0x39 (adding 6 cannot carry then).
  if ((x & kHigh) != kZeros || ((x + kSix) & kHigh) != kZeros) return false;
  *values = x - kZeros;
  return true;
}

}  // namespace

bool ParseFixedTimestamp(std::string_view text, int64_t* micros) {
  if (text.size() != 19 && !(text.size() == 20 && text[19] == 'Z')) return false;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  if (p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') || p[13] != ':' || p[16] != ':') return false;
  // The digits 8 bytes at a time (SWAR): separator bytes are set to '0', the
  // rest must lie in '0'..'9'; then each byte less '0' is its digit.
  const uint64_t a = Load8(p), b = Load8(p + 8), c = Load8(p + 11);  // "YYYY-MM-", "DDTHH:MM", "HH:MM:SS"
  constexpr uint64_t kDigitsA = 0x00FFFF00FFFFFFFFULL; // bytes 0-3, 5-6
  constexpr uint64_t kDigitsB = 0xFFFF00FFFF00FFFFULL;  // bytes 0-1, 3-4, 6-7
  constexpr uint64_t kDigitsC = 0xFFFF000000000000ULL; // bytes 6-7 (seconds)
  uint64_t va, vb, vc;
  if (!Digits(a, kDigitsA, &va) || !Digits(b, kDigitsB, &vb) || !Digits(c, kDigitsC, &vc)) return false;
  // Two-digit numbers: byte i of v * 10 + (v >> 8) is digit i * 10 + digit i + 1.
  const uint64_t pa = va * 10 + (va >> 8), pb = vb * 10 + (vb >> 8), pc = vc * 10 + (vc >> 8);
  const unsigned year = static_cast<unsigned>(pa & 0xFF) * 100 + static_cast<unsigned>((pa >> 16) & 0xFF);
  const unsigned month = static_cast<unsigned>((pa >> 40) & 0xFF), day = static_cast<unsigned>(pb & 0xFF);
  const unsigned hour = static_cast<unsigned>((pb >> 24) & 0xFF), minute = static_cast<unsigned>((pb >> 48) & 0xFF);
  const unsigned second = static_cast<unsigned>((pc >> 48) & 0xFF);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  static constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > (month == 2 && leap ? 29u : kDays[month - 1])) return false;
  // DaysFromCivil (value_parse.h) for years 1..9999, in unsigned 32-bit arithmetic.
  const unsigned y = year - (month <= 2 ? 1 : 0);
  const unsigned era = y / 400, yoe = y - era * 400;
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t days = static_cast<int64_t>(era) * 146097 + (yoe * 365 + yoe / 4 - yoe / 100 + doy) - 719468;
  *micros = days * 86400000000LL + static_cast<int64_t>(hour * 3600 + minute * 60 + second) * 1000000LL;
  return true;
}

}  // namespace griffin
