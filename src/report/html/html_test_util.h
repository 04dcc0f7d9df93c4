// Helpers for the HTML page tests (included by src/report/html/*_test.cc only).
#pragma once

#include <string>

namespace griffin::html_test {

// How many times `needle` occurs in `text` (overlaps counted).
inline size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

}  // namespace griffin::html_test
