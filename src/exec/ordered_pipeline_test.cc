#include "exec/ordered_pipeline.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

class NumberChunk : public Chunk {
 public:
  explicit NumberChunk(int n) : n_(n) {}
  Result<std::shared_ptr<Batch>> Decode() override {
    auto batch = std::make_shared<Batch>();
    batch->num_rows = n_;
    return batch;
  }

 private:
  int n_;
};

TEST(OrderedPipelineTest, ResultsComeBackInSubmissionOrder) {
  OrderedPipeline<int64_t> pipeline([](Chunk& chunk) { return (*chunk.Decode())->num_rows * 2; }, 3);
  ASSERT_EQ(pipeline.started(), 3u);
  for (int i = 0; i < 50; ++i) pipeline.Submit(i, std::make_unique<NumberChunk>(i));
  for (int i = 0; i < 50; ++i) EXPECT_EQ(pipeline.Take(i), 2 * i);
}

}  // namespace
}  // namespace griffin
