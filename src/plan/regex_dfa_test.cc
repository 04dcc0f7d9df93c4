#include "plan/regex_dfa.h"

#include <chrono>
#include <random>

#include <gtest/gtest.h>
#include <re2/re2.h>

#include "plan/regex_subset_gen.h"

namespace griffin {
namespace {

const char* kEmail = "^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$";

bool Re2FullMatch(const RE2& re, std::string_view value) {
  return RE2::FullMatch(re2::StringPiece(value.data(), value.size()), re);
}

// The DFA's verdict where it gives one equals RE2's full match.
void ExpectAgrees(const std::string& pattern, const std::vector<std::string>& values) {
  RE2::Options options;
  options.set_log_errors(false);
  RE2 re(pattern, options);
  if (!re.ok()) return;  // a rule file could not hold it
  std::string why;
  auto dfa = RegexDfa::Compile(pattern, &why);
  if (!dfa) return;
  std::vector<std::string_view> views(values.begin(), values.end());
  std::vector<RegexDfa::Verdict> many(views.size());
  dfa->MatchMany(views.data(), views.size(), many.data());
  for (size_t i = 0; i < values.size(); ++i) {
    const RegexDfa::Verdict one = dfa->Match(values[i]);
    EXPECT_EQ(many[i], one) << pattern << " on '" << values[i] << "'";
    bool ascii = true;
    for (unsigned char ch : values[i]) ascii = ascii && ch < 0x80;
    if (ascii) ASSERT_NE(one, RegexDfa::kAskRe2) << pattern << " on '" << values[i] << "'";
    if (one == RegexDfa::kAskRe2) continue;
    ASSERT_EQ(one == RegexDfa::kMatch, Re2FullMatch(re, values[i])) << "/" << pattern << "/ on '" << values[i] << "'";
  }
}

TEST(RegexDfaTest, EmailPattern) {
  std::string why;
  auto dfa = RegexDfa::Compile(kEmail, &why);
  ASSERT_NE(dfa, nullptr) << why;
  EXPECT_LT(dfa->states(), 20);
  EXPECT_EQ(dfa->Match("sam.brown926@example.com"), RegexDfa::kMatch);
  EXPECT_EQ(dfa->Match("sam@corp.example.net"), RegexDfa::kMatch);
  EXPECT_EQ(dfa->Match("sam@example.c"), RegexDfa::kNoMatch);
  EXPECT_EQ(dfa->Match("sam@@example.com"), RegexDfa::kNoMatch);
  EXPECT_EQ(dfa->Match("sam brown@example.com"), RegexDfa::kNoMatch);
  EXPECT_EQ(dfa->Match(""), RegexDfa::kNoMatch);
  EXPECT_EQ(dfa->Match("jürgen@example.de"), RegexDfa::kAskRe2);
  EXPECT_EQ(dfa->Match("@é"), RegexDfa::kNoMatch);  // no match whatever follows the '@'
  ExpectAgrees(kEmail, {"a@b.cc", "a@b.c", "a@b..cc", "a.b@c.d.ee", "a@b.c1", "a@.cc", "@b.cc", "a@b.cc\n",
                        "a\n@b.cc", "a@b.CC", "a@b_c.de", "a@b.cc ", "\ta@b.cc"});
}

TEST(RegexDfaTest, RefusesWhatItCannotExpress) {
  for (const char* pattern : {"\\bword\\b", "(?i)abc", "caf\xc3\xa9", "a\\pLb", "[[:alpha:]]+", "a^b", "a$b",
                              "(a$)", "\\Aabc\\z", "a{,3}", "a**", "(?P<n>a)", "\\x{100}", "[\\d-z]", "\\1",
                              "a{1001}"}) {
    std::string why;
    EXPECT_EQ(RegexDfa::Compile(pattern, &why), nullptr) << pattern;
    EXPECT_FALSE(why.empty()) << pattern;
  }
}

TEST(RegexDfaTest, HostilePatternsAreRefusedQuickly) {
  // DFAs that blow up exponentially, NFAs too large: each refused (RE2, which
  // is linear, decides them), and each within a bounded compile time.
  for (const char* pattern : {"(a|b)*a(a|b){20}", "((a{100}){100}){100}", "(.*a.*b.*c){50}", "[ab]*a[ab]{30}x",
                              "(x+x+)+y", "(\\w{1,1000}){1,1000}"}) {
    const auto start = std::chrono::steady_clock::now();
    std::string why;
    auto dfa = RegexDfa::Compile(pattern, &why);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 1.0) << pattern;
    if (dfa) {
      ExpectAgrees(pattern, {"", "xxxxy", "xxxx", "ab", "aab"});  // small enough: it must still agree
    } else {
      EXPECT_FALSE(why.empty());
    }
  }
  std::string why;
  EXPECT_EQ(RegexDfa::Compile("(a|b)*a(a|b){20}", &why), nullptr);
  EXPECT_NE(why.find("states"), std::string::npos) << why;
}

TEST(RegexDfaTest, AgreesWithRe2OnPatternsRuleFilesUse) {
  ExpectAgrees("[A-Z]{2}[0-9]{2}[A-Z0-9]{4}[0-9]{7}([A-Z0-9]?){0,16}",
               {"GB82WEST12345698765432", "GB82", "gb82WEST12345698765432", "DE89370400440532013000"});
  ExpectAgrees("^\\d{4}-\\d{2}-\\d{2}$", {"2024-01-02", "2024-1-02", "20240102", "2024-01-02 "});
  ExpectAgrees("(USD|EUR|GBP)", {"USD", "EUR", "GBPX", "", "usd"});
  ExpectAgrees("^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", {"a.b+c@d-e.fg", "A@b.cd", "a@b.c"});
  ExpectAgrees("", {"", "a"});
  ExpectAgrees("a|", {"", "a", "b"});
  ExpectAgrees("(a*)*", {"", "aaa", "ab"});
  ExpectAgrees("x{0}", {"", "x"});
  ExpectAgrees("[]a]", {"]", "a"});  // refused, so nothing to compare: must not crash
}

// A deterministic share of the fuzzer's work, run by every unit-test run.
TEST(RegexDfaTest, RandomPatternsAgreeWithRe2) {
  std::mt19937_64 random(16);
  int compiled = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string bytes(64, '\0');
    for (char& ch : bytes) ch = static_cast<char>(random());
    testing::ByteChooser chooser(bytes);
    const std::string pattern = testing::RandomSubsetPattern(chooser);
    std::vector<std::string> values;
    for (int v = 0; v < 40; ++v) {
      std::string value_bytes(16, '\0');
      for (char& ch : value_bytes) ch = static_cast<char>(random());
      testing::ByteChooser value_chooser(value_bytes);
      values.push_back(testing::RandomValue(value_chooser));
    }
    std::string why;
    compiled += RegexDfa::Compile(pattern, &why) != nullptr;
    ExpectAgrees(pattern, values);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(compiled, 2000);  // the generator stays inside the subset
}

}  // namespace
}  // namespace griffin
