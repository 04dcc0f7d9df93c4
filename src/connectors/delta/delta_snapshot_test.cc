#include "connectors/delta/delta_snapshot.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "connectors/delta/delta_test_util.h"
#include "io/io_test_util.h"

namespace griffin::delta {
namespace {

int64_t CountRows(arrow::RecordBatchReader& reader) {
  int64_t rows = 0;
  for (;;) {
    std::shared_ptr<arrow::RecordBatch> batch;
    EXPECT_TRUE(reader.ReadNext(&batch).ok());
    if (!batch) return rows;
    rows += batch->num_rows();
  }
}

Result<std::unique_ptr<DeltaSnapshot>> OpenAt(const std::string& input) {
  ASSIGN_OR_RETURN(DeltaTableRef ref, ParseDeltaTableRef(input));
  return DeltaSnapshot::Open(ref);
}

TEST(DeltaSnapshotTest, LatestAndEarlierVersions) {
  griffin::testing::TempDir dir;
  const std::string table = dir.Path("t");
  testing::WriteCommit(table, 0, 0, 10);
  testing::WriteCommit(table, 1, 10, 25);
  auto latest = OpenAt(table);
  ASSERT_TRUE(latest.ok()) << latest.status().message();
  EXPECT_EQ((*latest)->version(), 1);
  ASSERT_EQ((*latest)->schema()->num_fields(), 1);
  EXPECT_EQ((*latest)->schema()->field(0)->name(), "id");
  EXPECT_TRUE((*latest)->schema()->field(0)->type()->Equals(arrow::int64()));
  auto reader = (*latest)->Scan({});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(CountRows(**reader), 25);

  auto first = OpenAt(table + "@v=0");
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ((*first)->version(), 0);
  auto projected = (*first)->Scan({"id"});
  ASSERT_TRUE(projected.ok());
  EXPECT_EQ(CountRows(**projected), 10);
}

TEST(DeltaSnapshotTest, MissingTablesVersionsAndLogFilesAreInputErrorsNamingTheTable) {
  griffin::testing::TempDir dir;
  const std::string table = dir.Path("t");
  testing::WriteCommit(table, 0, 0, 10);
  testing::WriteCommit(table, 1, 10, 20);
  testing::WriteCommit(table, 2, 20, 30);
  for (const std::string& input : {dir.Path("none"), table + "@v=7"}) {
    auto opened = OpenAt(input);
    ASSERT_FALSE(opened.ok()) << input;
    EXPECT_EQ(opened.status().code(), StatusCode::kInputError);
    EXPECT_NE(opened.status().message().find("delta:" + input.substr(0, input.find('@'))), std::string::npos)
        << opened.status().message();
    EXPECT_EQ(opened.status().message().find('\n'), std::string::npos);
  }
  auto past_the_end = OpenAt(table + "@v=7");
  ASSERT_FALSE(past_the_end.ok());
  EXPECT_EQ(past_the_end.status().message(), "delta:" + table + "@v=7: no version 7 (the latest version is 2)");
  std::filesystem::remove(table + "/_delta_log/00000000000000000001.json");
  auto gap = OpenAt(table);
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.status().code(), StatusCode::kInputError);
}

TEST(DeltaSnapshotTest, AnUnknownReaderFeatureIsNamed) {
  griffin::testing::TempDir dir;
  const std::string table = dir.Path("t");
  testing::WriteCommit(table, 0, 0, 3,
                       R"({"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["griffinFuture"],)"
                       R"("writerFeatures":["griffinFuture"]})");
  auto opened = OpenAt(table);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StatusCode::kInputError);
  EXPECT_NE(opened.status().message().find("griffinFuture"), std::string::npos) << opened.status().message();
}

TEST(DeltaSnapshotTest, KernelMessagesBecomeOneLineNamingTheTable) {
  EXPECT_EQ(KernelErrorMessage("delta:/t", "Unsupported: Unknown reader feature x"),
            "delta:/t: table feature not supported by the Delta kernel: Unknown reader feature x");
  EXPECT_EQ(KernelErrorMessage("delta:/t", "Missing version 3"), "delta:/t: Missing version 3");
}

}  // namespace
}  // namespace griffin::delta
