#include "util/byte_size.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

namespace griffin {

Result<int64_t> ParseByteSize(std::string_view text) {
  auto bad = [&]() {
    return Status::UsageError("'" + std::string(text) + "' is not a size (examples: 512MB, 2G, 65536)");
  };
  size_t i = 0;
  double number = 0;
  bool digits = false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, digits = true)
    number = number * 10 + (text[i] - '0');
  if (i < text.size() && text[i] == '.') {
    double scale = 0.1;
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, scale /= 10, digits = true)
      number += (text[i] - '0') * scale;
  }
  if (!digits) return bad();
  while (i < text.size() && text[i] == ' ') ++i;
  std::string unit;
  for (; i < text.size(); ++i) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  double multiplier = 1;
  if (!unit.empty() && unit != "b" && unit != "byte" && unit != "bytes") {
    const char prefix = unit[0];
    const std::string_view rest = std::string_view(unit).substr(1);
    if (rest != "" && rest != "b" && rest != "ib") return bad();
    switch (prefix) {
      case 'k': multiplier = 1024.0; break;
      case 'm': multiplier = 1024.0 * 1024; break;
      case 'g': multiplier = 1024.0 * 1024 * 1024; break;
      case 't': multiplier = 1024.0 * 1024 * 1024 * 1024; break;
      default: return bad();
    }
  }
  const double bytes = std::floor(number * multiplier);
  if (!(bytes <= 4611686018427387904.0)) return bad();
  return static_cast<int64_t>(bytes);
}

std::string FormatByteSize(int64_t bytes) {
  static constexpr const char* kUnits[] = {"KB", "MB", "GB", "TB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1024 && unit < 3) value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  std::string number = text;
  if (number.size() > 2 && number.compare(number.size() - 2, 2, ".0") == 0) number.resize(number.size() - 2);
  return number + " " + kUnits[unit];
}

}  // namespace griffin
