#include "io/json_syntax.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

namespace griffin {
namespace {

// `text` followed by simdjson's padding, as the readers hand lines over.
bool Valid(const std::string& text) {
  const std::string padded = text + std::string(simdjson::SIMDJSON_PADDING, '\0');
  return IsValidJsonIgnoringNumberRange(std::string_view(padded.data(), text.size()));
}

TEST(JsonSyntaxTest, NumberGrammar) {
  for (const char* ok : {"0", "-0", "12", "1.5", "-1.5e10", "1E+2", "1e-999", "99999999999999999999999", "1e999"})
    EXPECT_TRUE(IsJsonNumberToken(ok)) << ok;
  for (const char* bad : {"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.2.3", "NaN", "inf", "1 "})
    EXPECT_FALSE(IsJsonNumberToken(bad)) << bad;
}

TEST(JsonSyntaxTest, OutOfRangeNumbersAreValidJson) {
  EXPECT_TRUE(Valid(R"({"a": 1e999})"));
  EXPECT_TRUE(Valid(R"({"a": 99999999999999999999999, "b": [-1e999, {"c": 1E400}]} )"));
  EXPECT_TRUE(Valid("1e999"));
}

TEST(JsonSyntaxTest, RealSyntaxErrorsStayInvalid) {
  for (const char* bad : {R"({"a": 1e999)", R"({"a": 1e999,})", R"({"a": 1e999 "b": 2})", R"({"a": 01})",
                          R"({"a": 1e999} x)", R"({"a": "\q"})", R"({"a": tru})", R"([1e999,])",
                          "\"x\"" /* a string root is left to the DOM parser */})
    EXPECT_FALSE(Valid(bad)) << bad;
}

}  // namespace
}  // namespace griffin
