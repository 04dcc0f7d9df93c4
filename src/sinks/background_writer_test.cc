#include "sinks/background_writer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <vector>

namespace griffin {
namespace {

TEST(BackgroundWriterTest, RunsTasksInOrderOffTheCaller) {
  BackgroundWriter writer(2);
  std::vector<int> order;  // touched by the writer thread only, read after Wait
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> off_caller{true};
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(writer.Submit([&, i] {
      if (std::this_thread::get_id() == caller) off_caller = false;
      if (i % 7 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      order.push_back(i);
      return Status::OK();
    }).ok());
  }
  ASSERT_TRUE(writer.Wait().ok());
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[i], i);
  EXPECT_TRUE(off_caller);
}

TEST(BackgroundWriterTest, TheFirstErrorSticksAndLaterTasksAreDropped) {
  BackgroundWriter writer(8);
  std::atomic<int> ran{0};
  ASSERT_TRUE(writer.Submit([&] { ++ran; return Status::OK(); }).ok());
  (void)writer.Submit([&] { ++ran; return Status::InputError("disk full"); });
  Status later;
  for (int i = 0; i < 20 && later.ok(); ++i) later = writer.Submit([&] { ++ran; return Status::OK(); });
  Status waited = writer.Wait();
  EXPECT_EQ(waited.code(), StatusCode::kInputError);
  EXPECT_EQ(waited.message(), "disk full");
  // Tasks queued behind the failure never run; a Submit after it returns it.
  EXPECT_EQ(writer.Submit([&] { ++ran; return Status::OK(); }).message(), "disk full");
  const int after_error = ran.load();
  writer.Stop();
  EXPECT_EQ(ran.load(), after_error);
}

TEST(BackgroundWriterTest, StopDropsQueuedTasksAndIsIdempotent) {
  BackgroundWriter writer(100);
  std::atomic<int> ran{0};
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(writer.Submit([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      ++ran;
      return Status::OK();
    }).ok());
  writer.Stop();
  writer.Stop();
  EXPECT_LT(ran.load(), 100);
  EXPECT_FALSE(writer.Submit([] { return Status::OK(); }).ok());
}

}  // namespace
}  // namespace griffin
