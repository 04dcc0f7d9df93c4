#include "connectors/delta/delta_object_probe.h"

#include <gtest/gtest.h>

#include <arrow/filesystem/mockfs.h>

#include "connectors/delta/delta_table_ref.h"
#include "connectors/objectstore/object_store.h"
#include "io/source_registry.h"

namespace griffin::delta {
namespace {

// An s3:// or gs:// prefix holding _delta_log/ is a Delta table (over Arrow's
// in-memory filesystem standing in for the store).
class DeltaObjectProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = std::make_shared<arrow::fs::internal::MockFileSystem>(arrow::fs::TimePoint{});
    SetObjectStoreForTesting("s3", fs_);
    SetObjectStoreForTesting("gs", fs_);
    Put("probe/tables/t/_delta_log/00000000000000000000.json");
    Put("probe/tables/t/part-0.parquet");
    Put("probe/plain/part-0.parquet");
    Put("probe/_delta_log/00000000000000000000.json");  // a table at the bucket's root
  }
  void TearDown() override {
    SetObjectStoreForTesting("s3", nullptr);
    SetObjectStoreForTesting("gs", nullptr);
  }
  void Put(const std::string& path) {
    ASSERT_TRUE(fs_->CreateDir(path.substr(0, path.rfind('/'))).ok());  // recursive: the mock has folders
    auto out = fs_->OpenOutputStream(path);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write(std::string("{}")).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }

  std::shared_ptr<arrow::fs::internal::MockFileSystem> fs_;
};

TEST_F(DeltaObjectProbeTest, APrefixHoldingADeltaLogIsATable) {
  EXPECT_TRUE(ObjectPrefixHoldsDeltaLog("s3://probe/tables/t"));
  EXPECT_TRUE(ObjectPrefixHoldsDeltaLog("s3://probe/tables/t/"));
  EXPECT_TRUE(ObjectPrefixHoldsDeltaLog("gs://probe/tables/t?endpoint=http://127.0.0.1:1"));
  EXPECT_TRUE(ObjectPrefixHoldsDeltaLog("s3://probe"));
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/plain/"));
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/tables"));
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/missing"));
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/tables/t/part-0.parquet"));  // an object, never asked
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/t?colour=red"));            // a bad URI is not a table
}

TEST_F(DeltaObjectProbeTest, TheRegistryReadsSuchAPrefixAsATable) {
  EXPECT_TRUE(IsDeltaInput("s3://probe/tables/t"));
  EXPECT_TRUE(IsDeltaInput("s3://probe/tables/t@v=0"));
  EXPECT_TRUE(IsDeltaInput("gs://probe/tables/t@ts=2026-12-01T00:00:00Z"));
  EXPECT_FALSE(IsDeltaInput("s3://probe/plain"));
  EXPECT_EQ(InputScheme("s3://probe/tables/t"), "delta");
  EXPECT_EQ(InputScheme("s3://probe/plain/"), "s3");
  EXPECT_EQ(InputScheme("gs://probe/tables/t/part-0.parquet"), "gs");
}

TEST_F(DeltaObjectProbeTest, AnAnswerIsRememberedForAWhile) {
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/later"));
  Put("probe/later/_delta_log/00000000000000000000.json");
  EXPECT_FALSE(ObjectPrefixHoldsDeltaLog("s3://probe/later"));  // within kProbeTtl: no new request
  EXPECT_TRUE(ObjectPrefixHoldsDeltaLog("s3://probe/later/"));  // another spelling is asked anew
}

}  // namespace
}  // namespace griffin::delta
