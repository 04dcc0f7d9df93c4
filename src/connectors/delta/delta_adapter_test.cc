#include "connectors/delta/delta_adapter.h"

#include <gtest/gtest.h>

#include "connectors/delta/delta_test_util.h"
#include "io/input_source.h"
#include "io/io_test_util.h"
#include "io/source_registry.h"

namespace griffin::delta {
namespace {

int64_t ReadAll(const std::string& input, const ReadOptions& options = ReadOptions()) {
  auto expanded = ExpandInputs({input});
  EXPECT_TRUE(expanded.ok()) << expanded.status().message();
  EXPECT_EQ(*expanded, std::vector<std::string>{input});  // a table is one input, not its files
  auto source = OpenInputs(*expanded, options);
  EXPECT_TRUE(source.ok()) << source.status().message();
  int64_t rows = 0;
  for (;;) {
    auto chunk = (*source)->NextChunk();
    EXPECT_TRUE(chunk.ok()) << chunk.status().message();
    if (!*chunk) return rows;
    auto batch = (*chunk)->Decode();
    EXPECT_TRUE(batch.ok()) << batch.status().message();
    rows += (*batch)->num_rows;
  }
}

TEST(DeltaAdapterTest, AFolderHoldingADeltaLogIsReadAsATable) {
  griffin::testing::TempDir dir;
  const std::string table = dir.Path("t");
  testing::WriteCommit(table, 0, 0, 10);
  testing::WriteCommit(table, 1, 10, 15);
  EXPECT_EQ(InputScheme(table), "delta");
  EXPECT_FALSE(IsFileInput(table));
  EXPECT_EQ(ReadAll(table), 15);
  EXPECT_EQ(TableVersionRead(table), 1);
  EXPECT_EQ(ReadAll("delta:" + table + "@v=0"), 10);
  EXPECT_EQ(TableVersionRead("delta:" + table + "@v=0"), 0);
  auto identity = DescribeSource(table + "@v=0");  // not read yet: opens the snapshot
  ASSERT_TRUE(identity);
  EXPECT_EQ(identity->etag, "v=0");
}

TEST(DeltaAdapterTest, RuleColumnsArePushedDown) {
  griffin::testing::TempDir dir;
  const std::string table = dir.Path("t");
  testing::WriteCommit(table, 0, 0, 4);
  ReadOptions options;
  options.json_columns = {"id", "not_in_table"};
  EXPECT_EQ(ReadAll(table, options), 4);
}

TEST(DeltaAdapterTest, AMissingTableIsAnInputError) {
  griffin::testing::TempDir dir;
  auto source = OpenInputs({"delta:" + dir.Path("none")}, ReadOptions());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kInputError);
  EXPECT_FALSE(TableVersionRead(dir.Path("plain.csv")));
}

}  // namespace
}  // namespace griffin::delta
