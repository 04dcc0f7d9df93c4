#include "exec/key_spill.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

namespace griffin {
namespace {

namespace fs = std::filesystem;

class KeySpillTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("griffin_key_spill_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(KeySpillTest, RecordsComeBackPerPartitionInAppendOrder) {
  auto spill = KeySpill::Open(dir_.string());
  ASSERT_TRUE(spill.ok()) << spill.status().message();
  std::mt19937_64 random(7);
  std::vector<std::string> expected(KeySpill::kPartitions);
  int64_t bytes = 0;
  for (int i = 0; i < 50000; ++i) {  // past the buffers: most partitions write several times
    const uint64_t hash = random();
    const std::string record = std::to_string(i) + ";";
    (*spill)->Append(hash, record);
    expected[KeySpill::PartitionOf(hash)] += record;
    bytes += static_cast<int64_t>(record.size());
  }
  EXPECT_EQ((*spill)->bytes(), bytes);
  ASSERT_TRUE((*spill)->status().ok());
  for (int p = 0; p < KeySpill::kPartitions; ++p) {
    auto read = (*spill)->Read(p);
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, expected[p]) << "partition " << p;
    (*spill)->Drop(p);
  }
}

// Records of this test: hash (8), length (4), payload.
std::string Record(uint64_t hash, const std::string& payload) {
  std::string out(reinterpret_cast<const char*>(&hash), 8);
  const uint32_t length = static_cast<uint32_t>(payload.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  return out + payload;
}

size_t RecordLength(const char* at, size_t available) {
  if (available < 12) return 0;
  uint32_t length;
  std::memcpy(&length, at + 8, 4);
  return 12 + size_t{length};
}

// Splits every partition of a few MB to visits of at most 4 KB (records
// past the 1 MiB read chunk included): each record comes back once, records
// of one hash in one visit and in append order.
TEST_F(KeySpillTest, VisitBoundedSplitsLargePartitionsKeepingOrder) {
  auto spill = KeySpill::Open(dir_.string());
  ASSERT_TRUE(spill.ok()) << spill.status().message();
  std::mt19937_64 random(11);
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 3000; ++i) hashes.push_back(random());
  std::map<uint64_t, std::vector<int>> appended;  // hash -> record numbers in append order
  for (int i = 0; i < 100000; ++i) {
    const uint64_t hash = hashes[random() % hashes.size()];
    (*spill)->Append(hash, Record(hash, std::to_string(i)));
    appended[hash].push_back(i);
  }
  const std::string big(3 << 20, 'x');  // one record larger than a read chunk
  (*spill)->Append(hashes[0], Record(hashes[0], big));
  std::map<uint64_t, std::vector<int>> visited;
  int visits = 0;
  auto status = (*spill)->VisitBounded(4096, RecordLength, [&](std::string_view bytes) {
    ++visits;
    std::set<uint64_t> seen;
    for (size_t at = 0; at < bytes.size();) {
      uint64_t hash;
      std::memcpy(&hash, bytes.data() + at, 8);
      const size_t length = RecordLength(bytes.data() + at, bytes.size() - at);
      const std::string payload(bytes.substr(at + 12, length - 12));
      EXPECT_TRUE(visited[hash].empty() || seen.count(hash)) << "a hash in two visits";
      seen.insert(hash);
      if (payload != big) {
        visited[hash].push_back(std::stoi(payload));
      } else {
        EXPECT_EQ(hash, hashes[0]);
      }
      at += length;
    }
    if (bytes.size() > 4096) {
      EXPECT_TRUE(seen.count(hashes[0])) << "only the big record's visit may pass the bound";
    }
    return Status::OK();
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(visited, appended);
  EXPECT_GT(visits, KeySpill::kPartitions * 10);
}

TEST_F(KeySpillTest, VisitBoundedStopsSplittingAtTheLastLevel) {
  auto spill = KeySpill::Open(dir_.string());
  ASSERT_TRUE(spill.ok());
  for (int i = 0; i < 1000; ++i) (*spill)->Append(42, Record(42, std::to_string(i)));
  std::vector<std::string> visits;
  auto status = (*spill)->VisitBounded(10, RecordLength, [&](std::string_view bytes) {
    visits.emplace_back(bytes);
    return Status::OK();
  });
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_EQ(visits.size(), 1u);  // one hash cannot be split: all of it in one visit, in order
  std::string expected;
  for (int i = 0; i < 1000; ++i) expected += Record(42, std::to_string(i));
  EXPECT_EQ(visits[0], expected);
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(KeySpillTest, LeavesNoFileInTheDirectory) {
  auto spill = KeySpill::Open(dir_.string());
  ASSERT_TRUE(spill.ok());
  for (int i = 0; i < 100000; ++i) (*spill)->Append(static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL, "0123456789");
  // While the files are open and hold data, the directory shows none of them.
  EXPECT_TRUE(fs::is_empty(dir_));
  spill->reset();
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(KeySpillTest, AMissingDirectoryIsAnInputErrorNamingIt) {
  auto spill = KeySpill::Open((dir_ / "missing").string());
  ASSERT_FALSE(spill.ok());
  EXPECT_EQ(spill.status().code(), StatusCode::kInputError);
  EXPECT_NE(spill.status().message().find("missing"), std::string::npos) << spill.status().message();
}

}  // namespace
}  // namespace griffin
