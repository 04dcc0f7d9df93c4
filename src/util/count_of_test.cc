#include "util/count_of.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(CountOfTest, OneIsSingularEverythingElsePlural) {
  EXPECT_EQ(CountOf(1, "run"), "1 run");
  EXPECT_EQ(CountOf(0, "run"), "0 runs");
  EXPECT_EQ(CountOf(2, "run"), "2 runs");
  EXPECT_EQ(CountOf(-1, "step"), "-1 step");
  EXPECT_EQ(CountOf(1000000, "row"), "1000000 rows");
  EXPECT_EQ(CountOf(1, "HTTP request"), "1 HTTP request");
}

TEST(CountOfTest, IrregularPluralsAreGiven) {
  EXPECT_EQ(CountOf(1, "query", "queries"), "1 query");
  EXPECT_EQ(CountOf(3, "query", "queries"), "3 queries");
}

}  // namespace
}  // namespace griffin
