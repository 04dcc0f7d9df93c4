#include "exec/batch_result_pool.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(BatchResultPoolTest, GivenResultsComeBackWithoutTheirBatchUpToTheLimit) {
  BatchResultPool pool;
  std::unique_ptr<BatchResult> result = pool.Take();
  ASSERT_NE(result, nullptr);
  result->batch = std::make_shared<Batch>();
  result->bad.assign(1000, 1);
  BatchResult* kept = result.get();
  pool.Give(std::move(result));
  EXPECT_EQ(pool.kept(), 1u);
  std::unique_ptr<BatchResult> again = pool.Take();
  EXPECT_EQ(again.get(), kept);
  EXPECT_EQ(again->batch, nullptr);       // the input is not kept alive
  EXPECT_GE(again->bad.capacity(), 1000u);  // the buffers are
  EXPECT_EQ(pool.kept(), 0u);
  for (size_t i = 0; i < BatchResultPool::kMaxKept + 3; ++i) pool.Give(std::make_unique<BatchResult>());
  EXPECT_EQ(pool.kept(), BatchResultPool::kMaxKept);
  pool.Give(nullptr);
  EXPECT_EQ(pool.kept(), BatchResultPool::kMaxKept);
}

}  // namespace
}  // namespace griffin
