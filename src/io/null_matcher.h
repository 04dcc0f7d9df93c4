// NullMatcher: decides whether a text value spells null (ReadOptions::null_values).
// Comparison is exact on the value's text (after CSV unquoting). Built once per
// input; Match is cheap for values that cannot be null (a length test).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace griffin {

class NullMatcher {
 public:
  explicit NullMatcher(std::vector<std::string> null_values) : values_(std::move(null_values)) {
    for (const std::string& v : values_) {
      if (v.size() < 64) length_mask_ |= uint64_t{1} << v.size();
      else has_long_ = true;
    }
  }

  bool Match(std::string_view value) const {
    if (value.size() < 64) {
      if (((length_mask_ >> value.size()) & 1) == 0) return false;
      if (value.empty()) return true;
    } else if (!has_long_) {
      return false;
    }
    for (const std::string& v : values_)
      if (v == value) return true;
    return false;
  }

 private:
  std::vector<std::string> values_;
  uint64_t length_mask_ = 0;  // bit L: some null value has length L (< 64)
  bool has_long_ = false;     // some null value is 64 bytes or longer
};

}  // namespace griffin
