#include "api/feature_batcher.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <set>

namespace griffin {
namespace {

// One validated batch of an int64 column `n` (slot 0) and a float64 `x`
// (slot 1): n = first_value + r, x = n / 2; rows listed in `bad` are quarantined.
struct FakeBatch {
  Batch batch;
  std::vector<TypedColumn> columns{2};
  std::vector<uint8_t> bad;
  RowVerdicts verdicts;

  FakeBatch(int64_t base_row, int64_t rows, std::set<int64_t> bad_rows = {}) {
    batch.num_rows = rows;
    TypedColumn& n = columns[0];
    TypedColumn& x = columns[1];
    n.type = ValueType::kInt64;
    x.type = ValueType::kFloat64;
    for (int64_t r = 0; r < rows; ++r) {
      n.owned_ints.push_back(base_row + r);
      x.owned_floats.push_back((base_row + r) / 2.0);
      bad.push_back(bad_rows.count(r) ? 1 : 0);
    }
    n.valid.assign(rows, 1);
    x.valid.assign(rows, 1);
    n.ints = n.owned_ints.data();
    x.floats = x.owned_floats.data();
    verdicts.batch = &batch;
    verdicts.base_row = base_row;
    verdicts.bad = bad.data();
    verdicts.columns = &columns;
    for (int64_t r : bad_rows) verdicts.bad_rows.push_back(static_cast<int32_t>(r));
  }
};

std::vector<FeatureColumn> Columns(FeatureDType n_dtype = FeatureDType::kInt64) {
  FeatureColumn n{"n", 0, ValueType::kInt64, n_dtype, {}};
  FeatureColumn x{"x", 1, ValueType::kFloat64, FeatureDType::kFloat32, {}};
  return {n, x};
}

template <typename T>
std::vector<T> Values(const FeatureBatch& batch, size_t column) {
  std::vector<T> out(batch.rows);
  std::memcpy(out.data(), batch.columns[column]->data(), batch.rows * sizeof(T));
  return out;
}

struct Collected {
  std::vector<FeatureBatch> batches;
  FeatureBatcher::Emit emit() {
    return [this](FeatureBatch b) {
      batches.push_back(std::move(b));
      return Status::OK();
    };
  }
  std::vector<int64_t> AllN() const {
    std::vector<int64_t> all;
    for (const auto& b : batches)
      for (int64_t v : Values<int64_t>(b, 0)) all.push_back(v);
    return all;
  }
};

TEST(FeatureBatcherTest, InOrderFixedSizeBatchesOfCleanRowsAcrossInputBatches) {
  FeatureBatcher batcher(Columns(), {.batch_size = 4});
  Collected out;
  FakeBatch a(0, 5, {1}), b(5, 6, {0, 5});
  ASSERT_TRUE(batcher.Add(a.verdicts, out.emit()).ok());
  ASSERT_TRUE(batcher.Add(b.verdicts, out.emit()).ok());
  ASSERT_TRUE(batcher.Finish(out.emit()).ok());
  // Clean: 0 2 3 4 | 6 7 8 9 ; dropped remainder: none (8 clean rows).
  ASSERT_EQ(out.batches.size(), 2u);
  EXPECT_EQ(out.AllN(), (std::vector<int64_t>{0, 2, 3, 4, 6, 7, 8, 9}));
  EXPECT_EQ(Values<float>(out.batches[1], 1), (std::vector<float>{3.0f, 3.5f, 4.0f, 4.5f}));
  for (const auto& batch : out.batches)
    for (const auto& buffer : batch.columns) EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->data()) % 64, 0u);
  EXPECT_EQ(batcher.rows_added(), 8);
  EXPECT_EQ(batcher.rows_dropped(), 0);
}

TEST(FeatureBatcherTest, RemainderIsDroppedOrKept) {
  for (bool drop : {true, false}) {
    FeatureBatcher batcher(Columns(), {.batch_size = 4, .drop_remainder = drop});
    Collected out;
    FakeBatch a(0, 10);
    ASSERT_TRUE(batcher.Add(a.verdicts, out.emit()).ok());
    ASSERT_TRUE(batcher.Finish(out.emit()).ok());
    ASSERT_EQ(out.batches.size(), drop ? 2u : 3u);
    EXPECT_EQ(batcher.rows_dropped(), drop ? 2 : 0);
    if (!drop) {
      EXPECT_EQ(out.batches[2].rows, 2);
    }
  }
}

TEST(FeatureBatcherTest, ShuffleIsAPermutationDeterministicForTheSeed) {
  auto run = [](uint64_t seed) {
    FeatureBatcher batcher(Columns(), {.batch_size = 7, .shuffle_buffer = 16, .seed = seed, .drop_remainder = false});
    Collected out;
    for (int64_t base = 0; base < 100; base += 25) {
      FakeBatch batch(base, 25);
      EXPECT_TRUE(batcher.Add(batch.verdicts, out.emit()).ok());
    }
    EXPECT_TRUE(batcher.Finish(out.emit()).ok());
    return out.AllN();
  };
  std::vector<int64_t> first = run(1), again = run(1), other = run(2);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, other);
  std::vector<int64_t> sorted = first, expected(100);
  std::sort(sorted.begin(), sorted.end());
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(sorted, expected);   // every clean row exactly once
  EXPECT_NE(first, expected);    // and not in input order
}

TEST(FeatureBatcherTest, NarrowingThatWouldLoseTheValueIsAnError) {
  FeatureBatcher batcher(Columns(FeatureDType::kInt32), {.batch_size = 2});
  Collected out;
  FakeBatch batch(int64_t{1} << 40, 2);
  Status status = batcher.Add(batch.verdicts, out.emit());
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInputError);
  EXPECT_NE(status.message().find("row 1099511627776, column 'n'"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("int32"), std::string::npos);
}

TEST(FeatureBatcherTest, CategoryCodesFollowTheInList) {
  Batch batch;
  batch.num_rows = 3;
  std::vector<TypedColumn> columns(1);
  std::vector<std::string_view> values = {"EUR", "USD", "EUR"};
  columns[0].type = ValueType::kString;
  columns[0].strings = values.data();
  columns[0].valid.assign(3, 1);
  std::vector<uint8_t> bad(3, 0);
  RowVerdicts verdicts;
  verdicts.batch = &batch;
  verdicts.bad = bad.data();
  verdicts.columns = &columns;
  FeatureBatcher batcher({{"currency", 0, ValueType::kString, FeatureDType::kInt32, {"USD", "EUR"}}},
                         {.batch_size = 3});
  Collected out;
  ASSERT_TRUE(batcher.Add(verdicts, out.emit()).ok());
  ASSERT_EQ(out.batches.size(), 1u);
  EXPECT_EQ(Values<int32_t>(out.batches[0], 0), (std::vector<int32_t>{1, 0, 1}));

  columns[0].valid[2] = 0;   // a clean row without a value: the rules broke their promise
  EXPECT_FALSE(batcher.Add(verdicts, out.emit()).ok());
}

}  // namespace
}  // namespace griffin
