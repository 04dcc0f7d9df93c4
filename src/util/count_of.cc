#include "util/count_of.h"

namespace griffin {

std::string CountOf(int64_t count, std::string_view singular, std::string_view plural) {
  std::string out = std::to_string(count) + " ";
  if (count == 1 || count == -1) out += singular;
  else if (plural.empty()) (out += singular) += "s";
  else out += plural;
  return out;
}

}  // namespace griffin
