// Random patterns of RegexDfa's subset and random values, drawn from a byte
// stream: the differential tests of the DFA against RE2 (regex_dfa_test.cc,
// and the libFuzzer target regex_dfa_fuzz.cc) share them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace griffin::testing {

// Reads choices from `data`; past its end every choice is 0.
class ByteChooser {
 public:
  explicit ByteChooser(std::string_view data) : data_(data) {}
  int Pick(int n) { return n <= 1 ? 0 : (at_ < data_.size() ? static_cast<uint8_t>(data_[at_++]) : 0) % n; }
  bool Done() const { return at_ >= data_.size(); }

 private:
  std::string_view data_;
  size_t at_ = 0;
};

// A pattern of the subset over a small alphabet (a b c . @ - digits, space,
// newline), with classes, escapes, groups, alternation and repeats.
inline std::string RandomSubsetPattern(ByteChooser& c, int depth = 0) {
  static const char* kAtoms[] = {"a", "b", "c", ".", "@", "\\.", "\\-", "-", "0", "7", " ", "\\n", "\\d", "\\w",
                                 "\\s", "\\D", "\\W", "\\S", "[abc]", "[^a]", "[a-c0-9]", "[^@\\s]", "[A-Za-z]",
                                 "[.\\-]", "[^.]", "\\x41", "[a-]", "_"};
  static const char* kQuantifiers[] = {"", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{0,2}", "*?", "+?",
                                       "{3,5}"};
  std::string out;
  const int pieces = 1 + c.Pick(4);
  for (int i = 0; i < pieces; ++i) {
    std::string atom;
    if (depth < 3 && c.Pick(5) == 0) {
      atom = std::string(c.Pick(2) ? "(?:" : "(") + RandomSubsetPattern(c, depth + 1);
      if (c.Pick(2)) atom += "|" + RandomSubsetPattern(c, depth + 1);
      atom += ")";
    } else {
      atom = kAtoms[c.Pick(sizeof(kAtoms) / sizeof(kAtoms[0]))];
    }
    out += atom + kQuantifiers[c.Pick(sizeof(kQuantifiers) / sizeof(kQuantifiers[0]))];
  }
  if (depth == 0) {
    if (c.Pick(3) == 0) out = "^" + out;
    if (c.Pick(3) == 0) out += "$";
    if (c.Pick(6) == 0) out += "|" + RandomSubsetPattern(c, 1);
  }
  return out;
}

// A value over the patterns' alphabet, sometimes with a non-ASCII character.
inline std::string RandomValue(ByteChooser& c) {
  static const char* kChars[] = {"a", "b", "c", ".", "@", "-", "0", "7", " ", "\n", "A", "_", "Z", "\t", "é", "\xff"};
  std::string out;
  const int length = c.Pick(12);
  for (int i = 0; i < length; ++i) out += kChars[c.Pick(c.Pick(8) == 0 ? 16 : 14)];
  return out;
}

}  // namespace griffin::testing
