// ASCII digits checked and decoded 8 bytes at a time (SWAR), for the
// fixed-layout parsers (fixed_timestamp.h, fixed_date.h).
#pragma once

#include <endian.h>

#include <cstdint>
#include <cstring>

namespace griffin::swar {

// The 8 bytes at p as a little-endian word (byte 0 lowest).
inline uint64_t Load8(const unsigned char* p) {
  uint64_t word;
  std::memcpy(&word, p, 8);
  return le64toh(word);
}

// The bytes of `word` under `digit_mask` are ASCII digits: *values holds
// their digits (0-9) there and 0 elsewhere.
inline bool Digits(uint64_t word, uint64_t digit_mask, uint64_t* values) {
  constexpr uint64_t kZeros = 0x3030303030303030ULL, kHigh = 0xF0F0F0F0F0F0F0F0ULL, kSix = 0x0606060606060606ULL;
  const uint64_t x = (word & digit_mask) | (kZeros & ~digit_mask);
  // Every byte in 0x30..0x3F, and none above 0x39 (adding 6 cannot carry then).
  if ((x & kHigh) != kZeros || ((x + kSix) & kHigh) != kZeros) return false;
  *values = x - kZeros;
  return true;
}

// Two-digit numbers from Digits' values: byte i of the result is
// digit i * 10 + digit i + 1.
inline uint64_t Pairs(uint64_t values) { return values * 10 + (values >> 8); }

// True and the days since 1970-01-01 in *days for a valid date of years
// 1..9999 (month 1-12, day within the month, leap years); DaysFromCivil of
// value_parse.h in unsigned 32-bit arithmetic. False for an invalid date.
inline bool CivilDays(unsigned year, unsigned month, unsigned day, int64_t* days) {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  static constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > (month == 2 && leap ? 29u : kDays[month - 1])) return false;
  const unsigned y = year - (month <= 2 ? 1 : 0);
  const unsigned era = y / 400, yoe = y - era * 400;
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  *days = static_cast<int64_t>(era) * 146097 + (yoe * 365 + yoe / 4 - yoe / 100 + doy) - 719468;
  return true;
}

}  // namespace griffin::swar
