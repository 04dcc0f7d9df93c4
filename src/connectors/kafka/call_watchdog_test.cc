#include "connectors/kafka/call_watchdog.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace griffin::kafka {
namespace {

struct Reports {
  std::mutex mutex;
  std::vector<std::string> lines;
  CallWatchdog::OnStuck Sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(line);
    };
  }
  std::vector<std::string> Get() {
    std::lock_guard<std::mutex> lock(mutex);
    return lines;
  }
};

TEST(CallWatchdog, ReportsACallThatOutlivesItsLimitOnce) {
  Reports reports;
  CallWatchdog watchdog(reports.Sink());
  {
    CallWatchdog::Guard guard = watchdog.Watch("sending the input offsets to the transaction", 50);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  EXPECT_EQ(reports.Get(), std::vector<std::string>{"sending the input offsets to the transaction did not return "
                                                    "within 0.05 s"});
}

TEST(CallWatchdog, IsQuietForCallsThatReturnInTime) {
  Reports reports;
  CallWatchdog watchdog(reports.Sink());
  for (int i = 0; i < 20; ++i) {
    CallWatchdog::Guard guard = watchdog.Watch("committing a transaction", 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // past every limit, none watched
  EXPECT_TRUE(reports.Get().empty());
}

TEST(CallWatchdog, ANewCallRestartsTheClockAndTheNoteJoinsTheLine) {
  Reports reports;
  CallWatchdog watchdog(reports.Sink());
  {
    CallWatchdog::Guard first = watchdog.Watch("first", 100);
  }
  watchdog.SetNote("after: topic gone");
  {
    CallWatchdog::Guard second = watchdog.Watch("closing the consumer", 30);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_EQ(reports.Get(),
            std::vector<std::string>{"closing the consumer did not return within 0.03 s (after: topic gone)"});
}

}  // namespace
}  // namespace griffin::kafka
