#include "server/dataset_registry.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "io/io_test_util.h"

namespace griffin::server {
namespace {

using griffin::testing::TempDir;

std::string Rules(const std::string& dataset, const std::string& extra = "") {
  return "griffin: 1\ndataset: " + dataset + "\ncolumns:\n  x: {type: int64" + extra + "}\n";
}

// Writes by renaming a complete file into place, with a distinct mtime.
void Replace(const TempDir& dir, const std::string& name, const std::string& text) {
  static int counter = 0;
  const std::string tmp = dir.Write("." + name + ".tmp" + std::to_string(counter++), text);
  std::filesystem::rename(tmp, dir.Path(name));
}

struct Log {
  std::vector<std::string> lines;
  DatasetRegistry::Events Events() {
    return {[this](const Dataset& d, const Dataset* previous) {
              lines.push_back("loaded " + d.name + " g" + std::to_string(d.generation) +
                              (previous ? " after g" + std::to_string(previous->generation) : ""));
            },
            [this](const std::string& path, const Status& error) { lines.push_back("refused " + error.message()); },
            [this](const Dataset& d) { lines.push_back("removed " + d.name); }};
  }
};

TEST(DatasetRegistryTest, LoadsEveryYamlFileByItsDatasetName) {
  TempDir dir;
  dir.Write("a.yaml", Rules("alpha"));
  dir.Write("b.yaml", Rules("beta"));
  dir.Write("notes.txt", "not rules");
  dir.Write(".hidden.yaml", "broken: [");
  Log log;
  DatasetRegistry registry(dir.path(), log.Events());
  ASSERT_TRUE(registry.LoadAll().ok());
  ASSERT_EQ(registry.All().size(), 2u);
  EXPECT_EQ(registry.Find("alpha")->path, dir.Path("a.yaml"));
  EXPECT_EQ(registry.Find("beta")->generation, 1);
  EXPECT_EQ(registry.Find("gamma"), nullptr);
  EXPECT_EQ(log.lines, (std::vector<std::string>{"loaded alpha g1", "loaded beta g1"}));
}

TEST(DatasetRegistryTest, AStartWithABrokenFileFailsNamingIt) {
  TempDir dir;
  dir.Write("a.yaml", Rules("alpha", ", min: x"));
  Log log;
  DatasetRegistry registry(dir.path(), log.Events());
  Status status = registry.LoadAll();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kRuleError);
  EXPECT_EQ(status.message().rfind(dir.Path("a.yaml") + ":4: columns.x.min", 0), 0u) << status.message();
  DatasetRegistry missing(dir.Path("nope"), log.Events());
  EXPECT_EQ(missing.LoadAll().code(), StatusCode::kUsageError);
}

TEST(DatasetRegistryTest, ReloadSwapsVersionsAndRequestsKeepTheirs) {
  TempDir dir;
  dir.Write("a.yaml", Rules("alpha"));
  Log log;
  DatasetRegistry registry(dir.path(), log.Events());
  ASSERT_TRUE(registry.LoadAll().ok());
  std::shared_ptr<const Dataset> in_flight = registry.Find("alpha");  // a request holds this version
  Replace(dir, "a.yaml", Rules("alpha", ", min: 0"));
  registry.Rescan();
  std::shared_ptr<const Dataset> now = registry.Find("alpha");
  EXPECT_EQ(now->generation, 2);
  EXPECT_NE(now->sha256, in_flight->sha256);
  EXPECT_EQ(in_flight->rules().columns[0].checks.size(), 1u);  // the old version still works
  EXPECT_EQ(now->rules().columns[0].checks.size(), 2u);

  // A broken file is refused once; the dataset keeps version 2.
  Replace(dir, "a.yaml", Rules("alpha", ", min: [1]"));
  registry.Rescan();
  registry.Rescan();
  EXPECT_EQ(registry.Find("alpha")->generation, 2);
  // Rewriting the loaded text is not a reload.
  Replace(dir, "a.yaml", Rules("alpha", ", min: 0"));
  registry.Rescan();
  EXPECT_EQ(registry.Find("alpha")->generation, 2);
  ASSERT_EQ(log.lines.size(), 3u);
  EXPECT_EQ(log.lines[1], "loaded alpha g2 after g1");
  EXPECT_EQ(log.lines[2].rfind("refused " + dir.Path("a.yaml") + ":4: columns.x.min", 0), 0u) << log.lines[2];
}

TEST(DatasetRegistryTest, NewRemovedRenamedAndConflictingFiles) {
  TempDir dir;
  dir.Write("a.yaml", Rules("alpha"));
  Log log;
  DatasetRegistry registry(dir.path(), log.Events());
  ASSERT_TRUE(registry.LoadAll().ok());
  dir.Write("b.yaml", Rules("alpha"));       // the same dataset again: refused
  dir.Write("c.yaml", Rules("gamma"));
  registry.Rescan();
  EXPECT_EQ(registry.Find("alpha")->path, dir.Path("a.yaml"));
  EXPECT_NE(registry.Find("gamma"), nullptr);
  Replace(dir, "c.yaml", Rules("delta"));    // renames its dataset
  std::filesystem::remove(dir.Path("a.yaml"));
  registry.Rescan();
  EXPECT_EQ(registry.Find("gamma"), nullptr);
  EXPECT_NE(registry.Find("delta"), nullptr);
  EXPECT_EQ(registry.Find("alpha")->path, dir.Path("b.yaml"));  // a.yaml is gone: b.yaml takes over
  EXPECT_EQ(log.lines[1], "refused " + dir.Path("b.yaml") + ": dataset 'alpha' is already defined by " +
                              dir.Path("a.yaml"));
  EXPECT_NE(std::find(log.lines.begin(), log.lines.end(), "removed gamma"), log.lines.end());
  EXPECT_NE(std::find(log.lines.begin(), log.lines.end(), "removed alpha"), log.lines.end());
  EXPECT_EQ(std::count(log.lines.begin(), log.lines.end(), "loaded alpha g1"), 2);  // a.yaml, then b.yaml
}

TEST(DatasetRegistryTest, KnowsWhichRulesUseNow) {
  TempDir dir;
  dir.Write("a.yaml", "griffin: 1\ndataset: alpha\ncolumns:\n  t: {type: timestamp, max: now}\n");
  dir.Write("b.yaml", Rules("beta"));
  dir.Write("c.yaml", "griffin: 1\ndataset: gamma\ncolumns:\n  t: {type: date}\ntable:\n  - min: {column: t, min: now}\n");
  DatasetRegistry registry(dir.path(), {});
  ASSERT_TRUE(registry.LoadAll().ok());
  EXPECT_TRUE(registry.Find("alpha")->uses_now);
  EXPECT_FALSE(registry.Find("beta")->uses_now);
  EXPECT_TRUE(registry.Find("gamma")->uses_now);
}

TEST(DatasetRegistryTest, TheWatcherPicksUpChanges) {
  TempDir dir;
  dir.Write("a.yaml", Rules("alpha"));
  Log log;
  DatasetRegistry registry(dir.path(), {});
  ASSERT_TRUE(registry.LoadAll().ok());
  registry.StartWatching(std::chrono::milliseconds(10));
  Replace(dir, "a.yaml", Rules("alpha", ", min: 0"));
  for (int i = 0; i < 500 && registry.Find("alpha")->generation == 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(registry.Find("alpha")->generation, 2);
  registry.StopWatching();
}

TEST(DatasetRegistryTest, AFileWrittenInPlaceIsReadOnceSettled) {
  TempDir dir;
  dir.Write("a.yaml", Rules("alpha", ", min: 0, max: 9"));
  Log log;
  DatasetRegistry registry(dir.path(), log.Events(), std::chrono::milliseconds(300));
  ASSERT_TRUE(registry.LoadAll().ok());
  // Half of a new version, written in place: it compiles (one check fewer),
  // but is not read while it is younger than the settle interval.
  dir.Write("a.yaml", Rules("alpha", ", min: 0"));
  registry.Rescan();
  EXPECT_EQ(registry.Find("alpha")->generation, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  registry.Rescan();  // settled now
  EXPECT_EQ(registry.Find("alpha")->generation, 2);
  EXPECT_EQ(registry.Find("alpha")->rules().columns[0].checks.size(), 2u);  // type and min
}

}  // namespace
}  // namespace griffin::server
