// libFuzzer target: partial states, unique key shards and key duplicates
// (exec/partial_state.h) arrive as bytes from other machines (Spark executors,
// files), so every reader must refuse a damaged blob with an error, never
// crash or read out of bounds. The input edits valid blobs, made once at
// start from two parts of a small table with string, numeric and row-tuple
// `unique` checks, so the mutations reach deep into their structure:
//
//   byte 0: which blob (state, sharded state, key shard, key duplicates)
//   bytes 1-2: how many bytes to cut off its end
//   then 3-byte edits: a 16-bit offset (modulo the blob's size) and a byte.
//
// Each damaged blob goes to the reader that takes it (MergeAll, MergeStates,
// MergeKeyShard) beside the other part's valid blobs.
//
//   cmake -DGRIFFIN_FUZZ=ON (clang); ./partial_state_fuzz -max_total_time=30
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/batch_evaluator.h"
#include "exec/merger.h"
#include "exec/partial_state.h"
#include "exec/test_batches.h"
#include "rules/rule_loader.h"

namespace {

using griffin::Batch;
using griffin::PartialState;

constexpr const char* kRules = R"(griffin: 1
dataset: fuzz
columns:
  id: {type: string, unique: true}
  n: {type: int64, unique: {value: true, severity: warn}, min: 0}
rows:
  - name: id_and_n
    unique: [id, n]
table:
  - distinct_count: {column: id, min: 1}
  - quantile: {column: n, q: 0.5, max: 100}
)";

constexpr int kShards = 2;

struct Blobs {
  std::shared_ptr<const griffin::Plan> plan;
  std::string state[2], sharded[2];
  std::vector<std::string> shards[2];   // [part][shard]
  std::string duplicates[kShards];
};

std::string PartState(const std::shared_ptr<const griffin::Plan>& plan, const std::shared_ptr<Batch>& batch,
                      int64_t offset, int shards, std::vector<std::string>* out) {
  griffin::BatchEvaluator evaluator(plan);
  griffin::Merger merger(plan, griffin::MergerOptions{5, {}, nullptr, offset, true});
  auto result = evaluator.Evaluate(batch);
  if (result.ok() && merger.Merge(**result).ok()) return PartialState::Serialize(merger, false, shards, out);
  return {};
}

const Blobs& Valid() {
  static const Blobs blobs = [] {
    Blobs b;
    auto rules = griffin::LoadRuleText(kRules, "fuzz.yaml");
    b.plan = *griffin::Plan::Compile(*rules, 0);
    for (int p = 0; p < 2; ++p) {
      auto batch = std::make_shared<Batch>();
      griffin::testing::AddTextColumn(batch.get(), "id", {"a", "b", p ? "a" : "c", std::nullopt, "é"});
      griffin::testing::AddTextColumn(batch.get(), "n", {"1", p ? "-2" : "2", "1", "7", std::nullopt});
      b.state[p] = PartState(b.plan, batch, p * 5, 0, nullptr);
      b.sharded[p] = PartState(b.plan, batch, p * 5, kShards, &b.shards[p]);
    }
    for (int s = 0; s < kShards; ++s)
      b.duplicates[s] = *PartialState::MergeKeyShard(b.plan, {b.shards[0][s], b.shards[1][s]}, {"a", "b"});
    return b;
  }();
  return blobs;
}

std::string Damaged(std::string blob, const uint8_t* data, size_t size) {
  if (size >= 3) blob.resize(blob.size() - std::min<size_t>(blob.size(), (data[1] | (data[2] << 8)) % 64));
  for (size_t at = 3; at + 3 <= size && !blob.empty(); at += 3)
    blob[(data[at] | (data[at + 1] << 8)) % blob.size()] = static_cast<char>(data[at + 2]);
  return blob;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Blobs& b = Valid();
  const std::vector<std::string> names = {"a", "b"};
  switch (data[0] % 4) {
    case 0: {
      const std::string state = Damaged(b.state[1], data, size);
      (void)PartialState::MergeAll(b.plan, {b.state[0], state}, names);
      (void)PartialState::MergeStates(b.plan, {state, b.state[0]}, names);
      break;
    }
    case 1: {
      const std::string state = Damaged(b.sharded[0], data, size);
      (void)PartialState::MergeAll(b.plan, {state, b.sharded[1]}, names, nullptr, {b.duplicates[0], b.duplicates[1]});
      break;
    }
    case 2: {
      const std::string shard = Damaged(b.shards[1][data[0] / 4 % kShards], data, size);
      (void)PartialState::MergeKeyShard(b.plan, {b.shards[0][data[0] / 4 % kShards], shard}, names);
      break;
    }
    case 3: {
      const std::string duplicates = Damaged(b.duplicates[data[0] / 4 % kShards], data, size);
      std::vector<griffin::MergedRowError> errors;
      (void)PartialState::MergeAll(b.plan, {b.sharded[0], b.sharded[1]}, names, &errors,
                                   {duplicates, b.duplicates[1 - data[0] / 4 % kShards]});
      break;
    }
  }
  return 0;
}
