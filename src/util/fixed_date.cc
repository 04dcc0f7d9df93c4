#include "util/fixed_date.h"

#include "util/swar_digits.h"

namespace griffin {

bool ParseFixedDate(std::string_view text, int64_t* days) {
  if (text.size() != 10) return false;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text.data());
  if (p[4] != '-' || p[7] != '-') return false;
  // "YYYY-MM-" as one word, then the day's two bytes.
  constexpr uint64_t kDigits = 0x00FFFF00FFFFFFFFULL;  // bytes 0-3, 5-6
  uint64_t values;
  if (!swar::Digits(swar::Load8(p), kDigits, &values)) return false;
  if (p[8] < '0' || p[8] > '9' || p[9] < '0' || p[9] > '9') return false;
  const uint64_t pairs = swar::Pairs(values);
  const unsigned year = static_cast<unsigned>(pairs & 0xFF) * 100 + static_cast<unsigned>((pairs >> 16) & 0xFF);
  const unsigned month = static_cast<unsigned>((pairs >> 40) & 0xFF);
  const unsigned day = static_cast<unsigned>(p[8] - '0') * 10 + static_cast<unsigned>(p[9] - '0');
  return swar::CivilDays(year, month, day, days);
}

}  // namespace griffin
