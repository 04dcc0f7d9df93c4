// A byte DFA for the regexes rule files use (`regex:` checks, full matches):
// literals, classes, `.`, groups, alternation and bounded or unbounded
// repeats over ASCII, `^` first and `$` last. RE2 stays the reference: a
// pattern outside that subset, or whose DFA would pass kMaxStates states
// (what a hostile pattern such as (a|b)*a(a|b){20} needs), gets no DFA and
// runs on RE2, and so does every value with a byte >= 0x80 (where RE2's
// UTF-8 semantics, one character per code point, differ from bytes). On
// ASCII a character is a byte, and the DFA's verdict is RE2's FullMatch's:
// the differential fuzzer src/plan/regex_dfa_fuzz.cc checks that.
//
// Matching costs one table load per byte, with no allocation and no lock;
// MatchMany walks several values at once, so the loads overlap.
//
//   std::string why;
//   std::unique_ptr<RegexDfa> dfa = RegexDfa::Compile(pattern, &why);  // null: RE2 (why says why)
//   switch (dfa->Match(value)) { case RegexDfa::kMatch: ...; case kNoMatch: ...; case kAskRe2: ... }
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace griffin {

class RegexDfa {
 public:
  static constexpr int kMaxStates = 512;
  static constexpr int kMaxNfaStates = 4096;

  enum Verdict : uint8_t { kNoMatch = 0, kMatch = 1, kAskRe2 = 2 };

  // The DFA of `pattern`'s full match, or null with `*why_not` saying what it
  // cannot express (the caller then uses RE2).
  static std::unique_ptr<RegexDfa> Compile(std::string_view pattern, std::string* why_not);

  Verdict Match(std::string_view value) const {
    uint32_t state = start_;
    const uint8_t* p = reinterpret_cast<const uint8_t*>(value.data());
    const uint8_t* end = p + value.size();
    for (; p != end; ++p) state = table_[state + classes_[*p]];
    return static_cast<Verdict>(verdict_[state / stride_]);
  }

  // verdicts[i] = Match(values[i]) for i < count, several values at a time.
  void MatchMany(const std::string_view* values, size_t count, Verdict* verdicts) const;

  int states() const { return static_cast<int>(verdict_.size()); }
  int byte_classes() const { return static_cast<int>(stride_); }

 private:
  RegexDfa() = default;
  uint8_t classes_[256] = {};     // byte -> its class
  uint32_t stride_ = 0;           // classes per state
  uint32_t start_ = 0;            // the start state's row offset (state * stride_)
  std::vector<uint32_t> table_;   // [state * stride_ + class] -> next state's row offset
  std::vector<uint8_t> verdict_;  // per state: its Verdict at the end of the value
  friend class RegexDfaBuilder;
};

}  // namespace griffin
