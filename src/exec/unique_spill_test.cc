#include "exec/unique_spill.h"

#include <unistd.h>

#include <filesystem>
#include <algorithm>
#include <map>
#include <random>

#include <gtest/gtest.h>
#include <xxhash.h>

namespace griffin {
namespace {

namespace fs = std::filesystem;

std::string TempDir() { return fs::temp_directory_path().string(); }

uint64_t Hash(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

// Random keys from a small domain, half of them held in memory before the
// spill: the repeats Finish finds are the ones a map in row order finds,
// also when its partitions (~8 KB each here) are split to fit 512 bytes.
TEST(UniqueSpillTest, FindsTheRepeatsTheInMemoryPathFinds) {
  const int64_t rows = 20000, spill_row = 3000;
  for (int64_t max_partition_bytes : {INT64_MAX, int64_t{512}})
  for (size_t room : {size_t{0}, size_t{1}, size_t{7}, size_t{100000}}) {
    std::mt19937_64 random(room);
    std::vector<std::string> keys;
    for (int64_t row = 0; row < rows; ++row) keys.push_back("k" + std::to_string(random() % 5000));
    std::map<std::string, int64_t> first;             // the in-memory path
    std::vector<std::pair<int64_t, int64_t>> repeats;  // (row, first row), rows >= spill_row
    for (int64_t row = 0; row < rows; ++row) {
      auto [at, inserted] = first.emplace(keys[row], row);
      if (!inserted && row >= spill_row) repeats.emplace_back(row, at->second);
    }
    // As the merger spills: the keys held in memory first, then every later occurrence.
    auto files = KeySpill::Open(TempDir());
    ASSERT_TRUE(files.ok()) << files.status().message();
    UniqueSpill spill(std::move(*files));
    std::map<std::string, int64_t> held;
    for (int64_t row = 0; row < spill_row; ++row) held.emplace(keys[row], row);
    for (const auto& [key, row] : held) spill.AddFirst(Hash(key), key, row);
    for (int64_t row = spill_row; row < rows; ++row)
      spill.Add(Hash(keys[row]), keys[row], row, ValueView::Of(JsonScalar::Kind::kString, keys[row]));
    std::vector<std::pair<int64_t, int64_t>> found;
    std::vector<SpilledRepeat> listed;
    ASSERT_TRUE(spill.Finish(room, [&](int64_t row, int64_t first_row) { found.emplace_back(row, first_row); },
                             &listed, max_partition_bytes).ok());
    std::sort(found.begin(), found.end());
    ASSERT_EQ(found.size(), repeats.size());
    for (size_t i = 0; i < found.size(); ++i) EXPECT_EQ(found[i], repeats[i]);
    ASSERT_EQ(listed.size(), std::min(room, repeats.size()));
    for (size_t i = 0; i < listed.size(); ++i) {
      EXPECT_EQ(listed[i].row, repeats[i].first);
      EXPECT_EQ(listed[i].first_row, repeats[i].second);
      EXPECT_EQ(listed[i].View().text(), keys[listed[i].row]);
    }
  }
}

// Every kind of value record, read whole and split record by record (one
// hash: the split goes down every level and keeps them together, in order).
TEST(UniqueSpillTest, KeepsEachValueAsRead) {
  for (int64_t max_partition_bytes : {INT64_MAX, int64_t{1}}) {
  auto files = KeySpill::Open(TempDir());
  ASSERT_TRUE(files.ok());
  UniqueSpill spill(std::move(*files));
  const uint64_t key = 7;
  const std::string_view bytes(reinterpret_cast<const char*>(&key), 8);
  spill.AddFirst(1, bytes, 0);
  spill.Add(1, bytes, 5, ValueView::Of(JsonScalar::Kind::kString, "007"));
  spill.Add(1, bytes, 6, ValueView::Number(7.0));
  spill.Add(1, bytes, 7, ValueView::Null());
  spill.Add(1, bytes, 8, ValueView::Of(JsonScalar::Kind::kRaw, "7"));
  std::vector<SpilledRepeat> listed;
  ASSERT_TRUE(spill.Finish(10, [](int64_t, int64_t) {}, &listed, max_partition_bytes).ok());
  ASSERT_EQ(listed.size(), 4u);
  for (const SpilledRepeat& repeat : listed) EXPECT_EQ(repeat.first_row, 0);
  EXPECT_EQ(ReportValue(listed[0].View()).text, "007");
  EXPECT_EQ(ReportValue(listed[0].View()).kind, JsonScalar::Kind::kString);
  EXPECT_EQ(listed[1].View().number(), std::optional<double>(7.0));
  EXPECT_TRUE(listed[2].View().is_null());
  EXPECT_EQ(ReportValue(listed[3].View()).kind, JsonScalar::Kind::kRaw);
  EXPECT_EQ(ReportValue(listed[3].View()).text, "7");
  }
}

}  // namespace
}  // namespace griffin
