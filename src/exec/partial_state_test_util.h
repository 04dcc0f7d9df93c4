// Helpers of partial_state_test.cc and state_accumulator_test.cc: a rule
// file with unique and table checks, text batches, and a part's state.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/batch_evaluator.h"
#include "exec/merger.h"
#include "exec/partial_state.h"
#include "exec/test_batches.h"
#include "report/json_writer.h"
#include "rules/rule_loader.h"

namespace griffin::partial_test {

using testing::AddTextColumn;

inline std::shared_ptr<const Plan> Compile(const std::string& yaml) {
  auto rules = LoadRuleText(yaml, "rules.yaml");
  EXPECT_TRUE(rules.ok()) << rules.status().message();
  auto plan = Plan::Compile(*rules, 0);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return *plan;
}

inline constexpr const char* kRules = R"(griffin: 1
dataset: t
columns:
  id: {type: string, unique: true}
  tag: {type: string, unique: true}
  n: {type: int64, min: 0}
table:
  - row_count: {min: 1}
  - distinct_count: {column: n, min: 1}
  - distinct_count: {column: tag, min: 1}
  - mean: {column: n, max: 100}
  - quantile: {column: n, q: 0.5, max: 100}
)";

// Text columns; the merge shows a repeated key of a later part as typed data
// would (a text input's "2" is 2 there), so the unique columns are strings.
inline std::shared_ptr<Batch> Rows(const std::vector<std::optional<std::string>>& ids,
                            const std::vector<std::optional<std::string>>& ns) {
  auto batch = std::make_shared<Batch>();
  AddTextColumn(batch.get(), "id", ids);
  AddTextColumn(batch.get(), "tag", ns);
  AddTextColumn(batch.get(), "n", ns);
  return batch;
}

// The partial state of `batches`, numbered from `row_offset`; `key_shards`
// > 0 moves its unique keys into that many blobs in `*shards`.
inline std::string PartOf(std::shared_ptr<const Plan> plan, const std::vector<std::shared_ptr<Batch>>& batches,
                   int64_t row_offset, int key_shards = 0, std::vector<std::string>* shards = nullptr) {
  BatchEvaluator evaluator(plan);
  Merger merger(plan, MergerOptions{kDefaultMaxViolations, {}, nullptr, row_offset, true});
  for (const auto& batch : batches) {
    auto result = evaluator.Evaluate(batch);
    EXPECT_TRUE(result.ok()) << result.status().message();
    EXPECT_TRUE(merger.Merge(**result).ok());
  }
  return PartialState::Serialize(merger, false, key_shards, shards);
}

inline std::string WholeJson(std::shared_ptr<const Plan> plan, const std::vector<std::shared_ptr<Batch>>& batches) {
  BatchEvaluator evaluator(plan);
  Merger merger(plan, MergerOptions{});
  for (const auto& batch : batches) EXPECT_TRUE(merger.Merge(**evaluator.Evaluate(batch)).ok());
  return ReportToJson(merger.Finish(false));
}

}  // namespace griffin::partial_test
