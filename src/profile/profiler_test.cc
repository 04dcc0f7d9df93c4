#include "profile/profiler.h"

#include <gtest/gtest.h>

#include <string>

#include "profile/profile_json.h"

namespace griffin {
namespace {

std::string Csv(int rows) {
  std::string csv = "id,amount,day,code,note\n";
  for (int i = 0; i < rows; ++i) {
    csv += std::to_string(i) + "," + std::to_string((i * 7919) % 1000) + "." + std::to_string(i % 10) + ",2024-0" +
           std::to_string(1 + i % 9) + "-1" + std::to_string(i % 10) + ",AB" + std::to_string(1000 + i % 37) + "," +
           (i % 11 ? "n" + std::to_string(i % 300) : "") + "\n";
  }
  return csv;
}

Result<TableProfile> Profile(const std::string& csv, int threads, int64_t batch_rows) {
  ReadOptions options;
  options.batch_rows = batch_rows;
  options.chunk_bytes = 64 << 10;
  ASSIGN_OR_RETURN(auto source, OpenTextStream(MakeMemoryStream(csv), "mem.csv", InputFormat::kCsv, options));
  return ProfileSource(*source, ProfileOptions{threads});
}

// design.md "One mergeable state": one thread or many, the same bytes.
TEST(ProfilerTest, OneThreadAndManyGiveByteIdenticalProfiles) {
  const std::string csv = Csv(200000);
  auto one = Profile(csv, 1, 4096);
  auto many = Profile(csv, 4, 4096);
  ASSERT_TRUE(one.ok() && many.ok());
  EXPECT_EQ(one->Serialize(), many->Serialize());
  EXPECT_EQ(ProfileToJson(*one, {"mem.csv"}), ProfileToJson(*many, {"mem.csv"}));
  EXPECT_EQ(one->rows(), 200000);
}

// Parts profiled apart (another process, another machine) and merged from
// their bytes give the whole's exact counts.
TEST(ProfilerTest, SplitsMergedFromBytesGiveTheWholesCounts) {
  const std::string csv = Csv(30000);
  const size_t middle = csv.find('\n', csv.size() / 2) + 1;
  const std::string header = csv.substr(0, csv.find('\n') + 1);
  auto whole = Profile(csv, 2, 1000);
  auto first = Profile(csv.substr(0, middle), 2, 1000);
  auto second = Profile(header + csv.substr(middle), 2, 1000);
  ASSERT_TRUE(whole.ok() && first.ok() && second.ok());
  auto merged = TableProfile::Deserialize(first->Serialize(), "first");
  auto tail = TableProfile::Deserialize(second->Serialize(), "second");
  ASSERT_TRUE(merged.ok() && tail.ok());
  merged->Merge(*tail);
  ASSERT_EQ(merged->columns().size(), whole->columns().size());
  for (size_t c = 0; c < whole->columns().size(); ++c) {
    const ColumnState& a = merged->columns()[c].second;
    const ColumnState& b = whole->columns()[c].second;
    EXPECT_EQ(a.rows(), b.rows());
    EXPECT_EQ(a.nulls(), b.nulls());
    EXPECT_EQ(a.distinct(), b.distinct());
    EXPECT_EQ(a.numbers().min, b.numbers().min);
    EXPECT_EQ(a.numbers().max, b.numbers().max);
    EXPECT_NEAR(a.numbers().mean, b.numbers().mean, 1e-9);
    EXPECT_EQ(a.number_sketch().Quantile(0.25), b.number_sketch().Quantile(0.25));
    EXPECT_EQ(a.time_min(), b.time_min());
  }
}

TEST(ProfilerTest, EmptyInputHasNoRows) {
  auto profile = Profile("", 2, 100);
  ASSERT_TRUE(profile.ok());
  EXPECT_EQ(profile->rows(), 0);
  EXPECT_TRUE(profile->columns().empty());
}

}  // namespace
}  // namespace griffin
