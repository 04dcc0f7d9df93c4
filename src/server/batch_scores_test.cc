#include "server/batch_scores.h"

#include <gtest/gtest.h>

#include <thread>

namespace griffin::server {
namespace {

BatchScore Score(double s) {
  BatchScore score;
  score.quality_score = s;
  return score;
}

TEST(BatchScoresTest, RemembersByDatasetAndHashAndDropsTheLeastRecent) {
  BatchScores scores(2);
  scores.Put("d", "a", Score(0.1));
  scores.Put("d", "b", Score(0.2));
  EXPECT_EQ(scores.Get("d", "a")->quality_score, 0.1);  // a is now the most recent
  EXPECT_FALSE(scores.Get("other", "a").has_value());
  scores.Put("d", "c", Score(0.3));                      // drops b
  EXPECT_FALSE(scores.Get("d", "b").has_value());
  EXPECT_EQ(scores.Get("d", "a")->quality_score, 0.1);
  EXPECT_EQ(scores.Get("d", "c")->quality_score, 0.3);
  scores.Put("d", "a", Score(0.9));                      // replaces
  EXPECT_EQ(scores.Get("d", "a")->quality_score, 0.9);
  EXPECT_EQ(scores.size(), 2u);
  BatchScores none(0);
  none.Put("d", "a", Score(1));
  EXPECT_FALSE(none.Get("d", "a").has_value());
}

TEST(BatchScoresTest, ManyThreadsStayWithinCapacity) {
  BatchScores scores(100);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&scores, t] {
      for (int i = 0; i < 2000; ++i) {
        scores.Put("d", std::to_string(t) + "-" + std::to_string(i), Score(i));
        (void)scores.Get("d", std::to_string(t) + "-" + std::to_string(i / 2));
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(scores.size(), 100u);
}

TEST(BatchScoresTest, ValidHashes) {
  EXPECT_TRUE(IsValidBatchHash("0123456789abcdef0123456789abcdef"));
  EXPECT_TRUE(IsValidBatchHash("run-1:step.7_a"));
  EXPECT_FALSE(IsValidBatchHash(""));
  EXPECT_FALSE(IsValidBatchHash(std::string(129, 'a')));
  EXPECT_FALSE(IsValidBatchHash("a b"));
  EXPECT_FALSE(IsValidBatchHash("a/b"));
  EXPECT_FALSE(IsValidBatchHash(std::string("a\0b", 3)));
}

}  // namespace
}  // namespace griffin::server
