#include "exec/partial_state_shards.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "exec/partial_state_test_util.h"
#include "report/json_writer.h"

namespace griffin {
namespace {

using partial_test::Compile;
using partial_test::PartOf;
using testing::AddTextColumn;

// String, numeric and row-tuple `unique`, of both severities, and checks
// that make rows bad on their own (so "good" flags matter).
constexpr const char* kShardRules = R"(griffin: 1
dataset: t
columns:
  id: {type: string, unique: true}
  tag: {type: string, unique: {value: true, severity: warn}}
  n: {type: int64, unique: true, min: 0}
rows:
  - name: id_and_n
    unique: [id, n]
)";

std::shared_ptr<Batch> Rows(const std::vector<std::optional<std::string>>& ids,
                            const std::vector<std::optional<std::string>>& tags,
                            const std::vector<std::optional<std::string>>& ns) {
  auto batch = std::make_shared<Batch>();
  AddTextColumn(batch.get(), "id", ids);
  AddTextColumn(batch.get(), "tag", tags);
  AddTextColumn(batch.get(), "n", ns);
  return batch;
}

std::shared_ptr<Batch> RandomRows(std::mt19937_64& random, int rows) {
  std::vector<std::optional<std::string>> ids, tags, ns;
  for (int i = 0; i < rows; ++i) {
    ids.push_back("k" + std::to_string(random() % 40));
    tags.push_back(random() % 9 == 0 ? std::nullopt : std::optional<std::string>("t" + std::to_string(random() % 60)));
    ns.push_back(std::to_string(static_cast<int64_t>(random() % 50) - 5));
  }
  return Rows(ids, tags, ns);
}

struct Sharded {
  std::vector<std::string> states;
  std::vector<std::string> duplicates;   // per shard
};

// Parts of `batches` (one batch each, numbered consecutively with gaps as
// Spark's ids have), their keys split into `shards` shards and each shard merged.
Sharded ShardedParts(std::shared_ptr<const Plan> plan, const std::vector<std::shared_ptr<Batch>>& batches,
                     const std::vector<int64_t>& offsets, int shards) {
  Sharded out;
  std::vector<std::vector<std::string>> blobs(shards);
  for (size_t p = 0; p < batches.size(); ++p) {
    std::vector<std::string> part_shards;
    out.states.push_back(PartOf(plan, {batches[p]}, offsets[p], shards, &part_shards));
    EXPECT_EQ(part_shards.size(), static_cast<size_t>(shards));
    for (int s = 0; s < shards; ++s) blobs[s].push_back(part_shards[s]);
  }
  for (int s = 0; s < shards; ++s) {
    std::vector<std::string_view> views(blobs[s].rbegin(), blobs[s].rend());   // any order
    std::vector<std::string> names;
    for (size_t p = 0; p < views.size(); ++p) names.push_back("part " + std::to_string(p));
    auto merged = PartialState::MergeKeyShard(plan, views, names);
    EXPECT_TRUE(merged.ok()) << merged.status().message();
    out.duplicates.push_back(merged.ok() ? *merged : std::string());
  }
  return out;
}

// The report as JSON without quote marks: on text input a part's own listed
// duplicates of a numeric key say "n '12' duplicates row 5" (as text), and
// the key-set merge rewrites every such message with the key typed ("n 12"),
// while the sharded merge rewrites only those whose first row moved to an
// earlier part. Typed (Arrow) data reads the same both ways (test_partial_state.py
// compares those reports whole).
std::string Unquoted(const Report& report) {
  std::string json = ReportToJson(report);
  json.erase(std::remove(json.begin(), json.end(), '\''), json.end());
  return json;
}

std::vector<std::string_view> Views(const std::vector<std::string>& blobs) { return {blobs.begin(), blobs.end()}; }
std::vector<std::string> Names(size_t n) { return std::vector<std::string>(n, "part"); }

std::string RowErrorsText(const std::vector<MergedRowError>& errors) {
  std::string text;
  for (const MergedRowError& e : errors) text += std::to_string(e.row) + " " + e.error.check + ": " + e.error.message + "\n";
  return text;
}

TEST(PartialStateShards, ShardedKeysGiveTheReportAndRowErrorsOfKeySetsMergedOnOneMachine) {
  auto plan = Compile(kShardRules);
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 random(seed);
    std::vector<std::shared_ptr<Batch>> batches;
    std::vector<int64_t> offsets;
    const int parts = 1 + static_cast<int>(seed % 5);
    for (int p = 0; p < parts; ++p) {
      batches.push_back(RandomRows(random, 1 + static_cast<int>(random() % 70)));
      offsets.push_back(static_cast<int64_t>(p) << 33);
    }
    std::vector<std::string> plain;
    for (int p = 0; p < parts; ++p) plain.push_back(PartOf(plan, {batches[p]}, offsets[p]));
    std::vector<MergedRowError> want_errors;
    auto want = PartialState::MergeAll(plan, Views(plain), Names(parts), &want_errors);
    ASSERT_TRUE(want.ok()) << want.status().message();
    for (int shards : {1, 2, 7}) {
      Sharded sharded = ShardedParts(plan, batches, offsets, shards);
      std::vector<MergedRowError> errors;
      auto got = PartialState::MergeAll(plan, Views(sharded.states), Names(parts), &errors,
                                        Views(sharded.duplicates));
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(Unquoted(*got), Unquoted(*want)) << "seed " << seed << ", " << shards << " shards";
      EXPECT_EQ(RowErrorsText(errors), RowErrorsText(want_errors)) << "seed " << seed << ", " << shards << " shards";
      EXPECT_GT(want->bad_rows, 0);
    }
  }
}

TEST(PartialStateShards, ShardsAreFilledEvenlyAndEachKeyGoesToOne) {
  std::vector<int> counts(8, 0);
  for (uint64_t key = 0; key < 80000; ++key) ++counts[PartialState::ShardOfKey(key, 8)];   // consecutive ids
  for (int count : counts) EXPECT_NEAR(count, 10000, 500);
  EXPECT_EQ(PartialState::ShardOfKey(12345, 8), PartialState::ShardOfKey(12345, 8));
  EXPECT_EQ(PartialState::ShardOfKey(~uint64_t{0}, 1), 0);
}

TEST(PartialStateShards, MissingRepeatedLostOrForeignShardsAreRefusedByName) {
  auto plan = Compile(kShardRules);
  auto first = Rows({"a", "b"}, {"x", "y"}, {"1", "2"});
  auto second = Rows({"a", "c"}, {"x", "z"}, {"1", "3"});
  Sharded sharded = ShardedParts(plan, {first, second}, {0, 2}, 2);
  auto merge = [&](std::vector<std::string_view> duplicates) {
    return PartialState::MergeAll(plan, Views(sharded.states), Names(2), nullptr, duplicates);
  };
  auto missing = merge({sharded.duplicates[0]});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("shard 1 of 2 are missing"), std::string::npos)
      << missing.status().message();
  auto twice = merge({sharded.duplicates[0], sharded.duplicates[0], sharded.duplicates[1]});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("given twice"), std::string::npos);
  auto none = PartialState::MergeAll(plan, Views(sharded.states), Names(2));
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("its unique keys were sharded"), std::string::npos);
  auto state = PartialState::MergeStates(plan, Views(sharded.states), Names(2));
  ASSERT_FALSE(state.ok());

  // A shard merged without one part's blob: the driver sees it.
  std::vector<std::string> only_first;
  PartOf(plan, {first}, 0, 2, &only_first);
  auto lost_shard = PartialState::MergeKeyShard(plan, {only_first[1]}, {"part 0"});
  ASSERT_TRUE(lost_shard.ok());
  auto lost = merge({sharded.duplicates[0], *lost_shard});
  ASSERT_FALSE(lost.ok());
  EXPECT_NE(lost.status().message().find("merged the keys of 1 parts, not of the 2"), std::string::npos)
      << lost.status().message();

  // Sharded and plain states together; blobs of two shards in one merge; other rules; corrupt.
  const std::string plain = PartOf(plan, {second}, 2);
  auto mixed = PartialState::MergeAll(plan, {sharded.states[0], plain}, {"s", "p"}, nullptr, Views(sharded.duplicates));
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("p: its unique keys were not sharded"), std::string::npos)
      << mixed.status().message();
  std::vector<std::string> second_blobs;
  PartOf(plan, {second}, 2, 2, &second_blobs);
  auto crossed = PartialState::MergeKeyShard(plan, {only_first[0], second_blobs[1]}, {"a", "b"});
  ASSERT_FALSE(crossed.ok());
  EXPECT_NE(crossed.status().message().find("b: shard 1 of 2, merged with shard 0 of 2"), std::string::npos)
      << crossed.status().message();
  auto other_rules = Compile(std::string(kShardRules) + "score: {min: 0.5}\n");
  auto foreign = PartialState::MergeKeyShard(other_rules, {only_first[0]}, {"a"});
  ASSERT_FALSE(foreign.ok());
  EXPECT_NE(foreign.status().message().find("a: a partial state of another rule file"), std::string::npos);
  for (size_t cut : {size_t{1}, size_t{9}, only_first[0].size() / 2}) {
    auto corrupt = PartialState::MergeKeyShard(plan, {std::string_view(only_first[0]).substr(0, only_first[0].size() - cut)},
                                               {"a"});
    ASSERT_FALSE(corrupt.ok());
    const std::string dup = sharded.duplicates[0].substr(0, sharded.duplicates[0].size() - cut);
    EXPECT_FALSE(merge({dup, sharded.duplicates[1]}).ok());
  }
}

}  // namespace
}  // namespace griffin
