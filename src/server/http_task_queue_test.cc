#include "server/http_task_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

namespace griffin::server {
namespace {

TEST(HttpTaskQueueTest, RunsEveryJobAndOverflowsPastTheQueue) {
  std::atomic<int> ran{0}, on_overflow{0};
  std::mutex gate;
  gate.lock();  // holds the one worker
  {
    HttpTaskQueue queue(1, 2);
    queue.enqueue([&] {
      std::lock_guard<std::mutex> wait(gate);
      ++ran;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the worker takes it
    for (int i = 0; i < 4; ++i) {
      queue.enqueue([&] {
        if (HttpTaskQueue::IsOverflowThread()) ++on_overflow;
        ++ran;
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(on_overflow.load(), 2);  // 2 waited in the queue, 2 went to the overflow thread
    gate.unlock();
    queue.shutdown();  // finishes what is queued
    EXPECT_EQ(ran.load(), 5);
    EXPECT_FALSE(HttpTaskQueue::IsOverflowThread());
  }
}

TEST(HttpTaskQueueTest, AFullQueueMakesTheAcceptorWait) {
  std::mutex gate;
  gate.lock();
  HttpTaskQueue queue(1, 1);
  std::atomic<int> ran{0};
  auto blocked = [&] {
    std::lock_guard<std::mutex> wait(gate);
    ++ran;
  };
  queue.enqueue(blocked);   // the worker
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  queue.enqueue(blocked);   // the queue
  queue.enqueue(blocked);   // the overflow thread (blocked on the gate too)
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  queue.enqueue(blocked);   // the overflow queue
  std::atomic<bool> accepted{false};
  std::thread acceptor([&] {
    queue.enqueue(blocked);  // no room anywhere: waits
    accepted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(accepted.load());
  gate.unlock();
  acceptor.join();
  EXPECT_TRUE(accepted.load());
  queue.shutdown();
  EXPECT_EQ(ran.load(), 5);
}

}  // namespace
}  // namespace griffin::server
