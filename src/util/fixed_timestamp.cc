#include "util/fixed_timestamp.h"

#include "util/swar_digits.h"

namespace griffin {

bool ParseFixedTimestamp(std::string_view text, int64_t* micros) {
  if (text.size() != 19 && !(text.size() == 20 && text[19] == 'Z')) return false;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  if (p[4] != '-' || p[7] != '-' || (p[10] != 'T' && p[10] != ' ') || p[13] != ':' || p[16] != ':') return false;
  // The digits 8 bytes at a time (SWAR): separator bytes are set to '0', the
  // rest must lie in '0'..'9'; then each byte less '0' is its digit.
  const uint64_t a = swar::Load8(p), b = swar::Load8(p + 8), c = swar::Load8(p + 11);  // "YYYY-MM-", "DDTHH:MM", "HH:MM:SS"
  constexpr uint64_t kDigitsA = 0x00FFFF00FFFFFFFFULL; // bytes 0-3, 5-6
  constexpr uint64_t kDigitsB = 0xFFFF00FFFF00FFFFULL;  // bytes 0-1, 3-4, 6-7
  constexpr uint64_t kDigitsC = 0xFFFF000000000000ULL; // bytes 6-7 (seconds)
  uint64_t va, vb, vc;
  if (!swar::Digits(a, kDigitsA, &va) || !swar::Digits(b, kDigitsB, &vb) || !swar::Digits(c, kDigitsC, &vc))
    return false;
  const uint64_t pa = swar::Pairs(va), pb = swar::Pairs(vb), pc = swar::Pairs(vc);
  const unsigned year = static_cast<unsigned>(pa & 0xFF) * 100 + static_cast<unsigned>((pa >> 16) & 0xFF);
  const unsigned month = static_cast<unsigned>((pa >> 40) & 0xFF), day = static_cast<unsigned>(pb & 0xFF);
  const unsigned hour = static_cast<unsigned>((pb >> 24) & 0xFF), minute = static_cast<unsigned>((pb >> 48) & 0xFF);
  const unsigned second = static_cast<unsigned>((pc >> 48) & 0xFF);
  if (hour > 23 || minute > 59 || second > 59) return false;
  int64_t days;
  if (!swar::CivilDays(year, month, day, &days)) return false;
  *micros = days * 86400000000LL + static_cast<int64_t>(hour * 3600 + minute * 60 + second) * 1000000LL;
  return true;
}

}  // namespace griffin
