// Dates and timestamps from value_parse.h: ISO 8601 parsing, strftime-style
// format parsing, formatting back to ISO text, and the civil-date arithmetic.
//
// Parsers run once per value on the hot path: no allocation, no locale, no
// exceptions.
#include <cstdio>
#include <string>

#include "util/fixed_date.h"
#include "util/fixed_timestamp.h"
#include "util/value_parse.h"
#include "util/value_parse_internal.h"

namespace griffin {

using internal::TrimBlanks;

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

bool IsLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

unsigned DaysInMonth(int64_t year, unsigned month) {
  static constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Reads exactly `count` ASCII digits at text[pos]; false when they are not there.
bool ReadFixedDigits(std::string_view text, size_t pos, int count, int64_t* value) {
  if (pos + count > text.size()) return false;
  int64_t result = 0;
  for (int i = 0; i < count; ++i) {
    const unsigned digit = static_cast<unsigned char>(text[pos + i]) - '0';
    if (digit > 9) return false;
    result = result * 10 + digit;
  }
  *value = result;
  return true;
}

// Reads between `min_digits` and `max_digits` digits (greedy) and advances `pos`.
bool ReadDigits(std::string_view text, size_t* pos, int min_digits, int max_digits,
                int64_t* value) {
  int64_t result = 0;
  int count = 0;
  while (count < max_digits && *pos < text.size()) {
    const unsigned digit = static_cast<unsigned char>(text[*pos]) - '0';
    if (digit > 9) break;
    result = result * 10 + digit;
    ++*pos;
    ++count;
  }
  if (count < min_digits) return false;
  *value = result;
  return true;
}

// Reads 1-9 fraction digits and returns them as microseconds (truncated).
bool ReadFraction(std::string_view text, size_t* pos, int64_t* micros) {
  int64_t result = 0;
  int count = 0;
  while (*pos < text.size()) {
    const unsigned digit = static_cast<unsigned char>(text[*pos]) - '0';
    if (digit > 9) break;
    if (count < 6) result = result * 10 + digit;
    ++*pos;
    ++count;
  }
  if (count == 0) return false;
  for (int i = count; i < 6; ++i) result *= 10;
  *micros = result;
  return true;
}

// "YYYY-MM-DD" at the start of `text` -> days since the epoch.
bool ReadIsoDate(std::string_view text, int64_t* days) {
  int64_t year, month, day;
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') return false;
  if (!ReadFixedDigits(text, 0, 4, &year) || !ReadFixedDigits(text, 5, 2, &month) ||
      !ReadFixedDigits(text, 8, 2, &day)) {
    return false;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(year, static_cast<unsigned>(month))) {
    return false;
  }
  *days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return true;
}

// A zone at text[*pos]: "Z", "+HH:MM" or "-HH:MM" (and "+HHMM" when
// `allow_compact`). Sets the offset east of UTC in seconds.
bool ReadZone(std::string_view text, size_t* pos, bool allow_compact, int64_t* offset_seconds) {
  if (*pos >= text.size()) return false;
  const char sign = text[*pos];
  if (sign == 'Z') {
    ++*pos;
    *offset_seconds = 0;
    return true;
  }
  if (sign != '+' && sign != '-') return false;
  int64_t hours, minutes;
  size_t p = *pos + 1;
  if (!ReadFixedDigits(text, p, 2, &hours)) return false;
  p += 2;
  if (p < text.size() && text[p] == ':') {
    ++p;
  } else if (!allow_compact) {
    return false;
  }
  if (!ReadFixedDigits(text, p, 2, &minutes)) return false;
  p += 2;
  if (hours > 23 || minutes > 59) return false;
  *offset_seconds = (hours * 3600 + minutes * 60) * (sign == '-' ? -1 : 1);
  *pos = p;
  return true;
}

void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  // Howard Hinnant's civil_from_days.
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<unsigned>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

}  // namespace

int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
  // Howard Hinnant's days_from_civil.
  year -= month <= 2 ? 1 : 0;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t yoe = year - era * 400;
  const int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::optional<int64_t> ParseDate(std::string_view text) {
  int64_t days;
  if (ParseFixedDate(text, &days)) return days;
  return internal::ParseDateGeneral(text);
}

std::optional<int64_t> internal::ParseDateGeneral(std::string_view text) {
  text = TrimBlanks(text);
  int64_t days;
  if (text.size() != 10 || !ReadIsoDate(text, &days)) return std::nullopt;
  return days;
}

std::optional<int64_t> ParseTimestamp(std::string_view text) {
  int64_t micros;
  if (ParseFixedTimestamp(text, &micros)) return micros;
  return internal::ParseTimestampGeneral(text);
}

std::optional<int64_t> internal::ParseTimestampGeneral(std::string_view text) {
  text = TrimBlanks(text);
  int64_t days, hour, minute, second;
  if (text.size() < 19 || !ReadIsoDate(text, &days)) return std::nullopt;
  if (text[10] != 'T' && text[10] != ' ') return std::nullopt;
  if (text[13] != ':' || text[16] != ':') return std::nullopt;
  if (!ReadFixedDigits(text, 11, 2, &hour) || !ReadFixedDigits(text, 14, 2, &minute) ||
      !ReadFixedDigits(text, 17, 2, &second)) {
    return std::nullopt;
  }
  if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  size_t pos = 19;
  int64_t fraction = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    if (!ReadFraction(text, &pos, &fraction)) return std::nullopt;
  }
  int64_t offset_seconds = 0;
  if (pos < text.size() && !ReadZone(text, &pos, /*allow_compact=*/false, &offset_seconds)) {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  return days * kMicrosPerDay + (hour * 3600 + minute * 60 + second - offset_seconds) *
                                    kMicrosPerSecond + fraction;
}

namespace {

constexpr std::string_view kMonthNames[12] = {"january", "february", "march",     "april",
                                              "may",     "june",     "july",      "august",
                                              "september", "october", "november", "december"};

// A month name, full or abbreviated to three letters, any case.
bool ReadMonthName(std::string_view text, size_t* pos, int64_t* month) {
  const std::string_view rest = text.substr(*pos);
  for (int i = 0; i < 12; ++i) {
    const std::string_view name = kMonthNames[i];
    for (size_t length : {name.size(), size_t{3}}) {
      if (rest.size() >= length && internal::EqualsIgnoreCase(rest.substr(0, length),
                                                              name.substr(0, length))) {
        *pos += length;
        *month = i + 1;
        return true;
      }
    }
  }
  return false;
}

// The fields a format fills; defaults give 1970-01-01T00:00:00Z.
struct FormatFields {
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  int64_t offset_seconds = 0;
  int64_t day_of_year = 0;  // 0: not given
  int64_t hour12 = 0;       // 0: not given
  bool pm = false;
};

bool MatchFormat(std::string_view text, size_t* pos, std::string_view format, FormatFields* f);

bool MatchDirective(std::string_view text, size_t* pos, char directive, FormatFields* f) {
  int64_t v;
  switch (directive) {
    case 'Y': return ReadDigits(text, pos, 4, 4, &f->year) && f->year >= 1;
    case 'm': return ReadDigits(text, pos, 1, 2, &f->month) && f->month >= 1 && f->month <= 12;
    case 'd': return ReadDigits(text, pos, 1, 2, &f->day) && f->day >= 1;
    case 'e':
      if (*pos < text.size() && text[*pos] == ' ') ++*pos;
      return ReadDigits(text, pos, 1, 2, &f->day) && f->day >= 1;
    case 'H': return ReadDigits(text, pos, 1, 2, &f->hour) && f->hour <= 23;
    case 'I': return ReadDigits(text, pos, 1, 2, &f->hour12) && f->hour12 >= 1 && f->hour12 <= 12;
    case 'M': return ReadDigits(text, pos, 1, 2, &f->minute) && f->minute <= 59;
    case 'S': return ReadDigits(text, pos, 1, 2, &f->second) && f->second <= 59;
    case 'f': return ReadFraction(text, pos, &f->micros);
    case 'z': return ReadZone(text, pos, /*allow_compact=*/true, &f->offset_seconds);
    case 'j':
      return ReadDigits(text, pos, 1, 3, &f->day_of_year) && f->day_of_year >= 1 &&
             f->day_of_year <= 366;
    case 'b': return ReadMonthName(text, pos, &f->month);
    case 'y':
      if (!ReadDigits(text, pos, 2, 2, &v)) return false;
      f->year = v < 69 ? 2000 + v : 1900 + v;  // POSIX: 69-99 -> 1900s
      return true;
    case 'p': {
      const std::string_view rest = text.substr(*pos);
      if (rest.size() < 2) return false;
      if (internal::EqualsIgnoreCase(rest.substr(0, 2), "am")) {
        f->pm = false;
      } else if (internal::EqualsIgnoreCase(rest.substr(0, 2), "pm")) {
        f->pm = true;
      } else {
        return false;
      }
      *pos += 2;
      return true;
    }
    case 'T': return MatchFormat(text, pos, "%H:%M:%S", f);
    case 'F': return MatchFormat(text, pos, "%Y-%m-%d", f);
    case '%':
      if (*pos >= text.size() || text[*pos] != '%') return false;
      ++*pos;
      return true;
    default: return false;
  }
}

bool MatchFormat(std::string_view text, size_t* pos, std::string_view format, FormatFields* f) {
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '%') {
      if (i + 1 >= format.size()) return false;
      if (!MatchDirective(text, pos, format[++i], f)) return false;
    } else {
      if (*pos >= text.size() || text[*pos] != format[i]) return false;
      ++*pos;
    }
  }
  return true;
}

}  // namespace

std::optional<int64_t> ParseTimestampWithFormat(std::string_view text, std::string_view format) {
  text = TrimBlanks(text);
  FormatFields f;
  size_t pos = 0;
  if (!MatchFormat(text, &pos, format, &f) || pos != text.size()) return std::nullopt;
  int64_t days;
  if (f.day_of_year != 0) {
    if (f.day_of_year > (IsLeapYear(f.year) ? 366 : 365)) return std::nullopt;
    days = DaysFromCivil(f.year, 1, 1) + f.day_of_year - 1;
  } else {
    if (f.day > DaysInMonth(f.year, static_cast<unsigned>(f.month))) return std::nullopt;
    days = DaysFromCivil(f.year, static_cast<unsigned>(f.month), static_cast<unsigned>(f.day));
  }
  int64_t hour = f.hour;
  if (f.hour12 != 0) hour = f.hour12 % 12 + (f.pm ? 12 : 0);
  return days * kMicrosPerDay +
         (hour * 3600 + f.minute * 60 + f.second - f.offset_seconds) * kMicrosPerSecond +
         f.micros;
}

std::optional<std::string> CheckTimestampFormat(std::string_view format) {
  static constexpr std::string_view kSupported = "YmdHMSfzjbepIyTF%";
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 >= format.size()) return std::string("format ends with a lone %");
    const char directive = format[++i];
    if (kSupported.find(directive) == std::string_view::npos) {
      return "unsupported directive %" + std::string(1, directive) +
             " (supported: %Y %m %d %H %M %S %f %z %j %b %e %p %I %y %T %F %%)";
    }
  }
  return std::nullopt;
}

std::string FormatDate(int64_t days) {
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  char buffer[48];
  const int n = std::snprintf(buffer, sizeof(buffer), "%04lld-%02u-%02u",
                              static_cast<long long>(year), month, day);
  return std::string(buffer, static_cast<size_t>(n));
}

std::string FormatTimestamp(int64_t micros) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  // micros - days * kMicrosPerDay, without the product (it overflows near INT64_MIN).
  const int64_t micros_of_day = (micros % kMicrosPerDay + kMicrosPerDay) % kMicrosPerDay;
  const int64_t seconds_of_day = micros_of_day / kMicrosPerSecond;
  const int64_t fraction = micros_of_day % kMicrosPerSecond;
  std::string result = FormatDate(days);
  char buffer[32];
  int n = std::snprintf(buffer, sizeof(buffer), "T%02lld:%02lld:%02lld",
                        static_cast<long long>(seconds_of_day / 3600),
                        static_cast<long long>(seconds_of_day / 60 % 60),
                        static_cast<long long>(seconds_of_day % 60));
  result.append(buffer, static_cast<size_t>(n));
  if (fraction != 0) {
    n = std::snprintf(buffer, sizeof(buffer), ".%06lld", static_cast<long long>(fraction));
    result.append(buffer, static_cast<size_t>(n));
  }
  result.push_back('Z');
  return result;
}

}  // namespace griffin
