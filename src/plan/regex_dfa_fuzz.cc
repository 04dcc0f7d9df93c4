// Differential fuzzing of RegexDfa (plan/regex_dfa.h) against RE2: a pattern
// of the DFA subset (or, for a quarter of the inputs, the input's own bytes
// as a pattern, to try the subset parser on anything RE2 accepts) and values
// drawn from the rest of the input must get the DFA's verdict equal to RE2's
// full match wherever the DFA gives one, and MatchMany must agree with Match.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>

#include "plan/regex_dfa.h"
#include "plan/regex_subset_gen.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace griffin;
  if (size < 2) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string pattern;
  std::string_view rest;
  if (data[0] % 4 == 0) {  // the raw bytes up to a NUL are the pattern
    const size_t nul = input.find('\0', 1);
    pattern.assign(input.substr(1, nul == std::string_view::npos ? std::string_view::npos : nul - 1));
    rest = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);
  } else {
    const size_t split = std::min<size_t>(size, 1 + data[1] % 48);
    testing::ByteChooser chooser(input.substr(1, split));
    pattern = testing::RandomSubsetPattern(chooser);
    rest = input.substr(split);
  }
  RE2::Options options;
  options.set_log_errors(false);
  RE2 re(pattern, options);
  if (!re.ok()) return 0;
  std::string why;
  auto dfa = RegexDfa::Compile(pattern, &why);
  if (!dfa) return 0;
  testing::ByteChooser chooser(rest);
  std::vector<std::string> values;
  while (values.size() < 20 && (values.empty() || !chooser.Done())) values.push_back(testing::RandomValue(chooser));
  if (data[0] % 4 == 0) values.emplace_back(rest);  // the raw bytes as a value too
  std::vector<std::string_view> views(values.begin(), values.end());
  std::vector<RegexDfa::Verdict> many(views.size());
  dfa->MatchMany(views.data(), views.size(), many.data());
  for (size_t i = 0; i < values.size(); ++i) {
    const RegexDfa::Verdict verdict = dfa->Match(values[i]);
    if (verdict != many[i]) std::abort();
    bool ascii = true;
    for (unsigned char ch : values[i]) ascii = ascii && ch < 0x80;
    if (ascii && verdict == RegexDfa::kAskRe2) std::abort();
    if (verdict == RegexDfa::kAskRe2) continue;
    const bool re2_match = RE2::FullMatch(re2::StringPiece(values[i].data(), values[i].size()), re);
    if ((verdict == RegexDfa::kMatch) != re2_match) std::abort();
  }
  return 0;
}
