#include "connectors/objectstore/object_adapter.h"

#include <gtest/gtest.h>

#include <arrow/filesystem/mockfs.h>

#include "connectors/objectstore/object_store.h"
#include "io/io_test_util.h"
#include "io/source_registry.h"
#include "sinks/atomic_file.h"

namespace griffin {
namespace {

// The registry routes s3:// inputs, prefixes, lineage and outputs to the
// object store adapter (here over Arrow's in-memory filesystem).
class ObjectAdapterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = std::make_shared<arrow::fs::internal::MockFileSystem>(arrow::fs::TimePoint{});
    SetObjectStoreForTesting("s3", fs_);
    ASSERT_TRUE(fs_->CreateDir("b/in").ok());
    auto out = fs_->OpenOutputStream("b/in/a.csv");
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write(std::string("x\n1\n2\n")).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }
  void TearDown() override { SetObjectStoreForTesting("s3", nullptr); }

  std::shared_ptr<arrow::fs::internal::MockFileSystem> fs_;
};

TEST_F(ObjectAdapterTest, InputsAndPrefixesGoThroughTheRegistry) {
  const auto schemes = RegisteredSourceSchemes();
  EXPECT_NE(std::find(schemes.begin(), schemes.end(), "s3"), schemes.end());
  EXPECT_NE(std::find(schemes.begin(), schemes.end(), "gs"), schemes.end());
  auto expanded = ExpandInputs({"s3://b/in/"});
  ASSERT_TRUE(expanded.ok()) << expanded.status().message();
  EXPECT_EQ(*expanded, std::vector<std::string>{"s3://b/in/a.csv"});
  auto source = OpenInputs(*expanded, ReadOptions());
  ASSERT_TRUE(source.ok()) << source.status().message();
  EXPECT_EQ(testing::ReadAll(**source).cells, (std::vector<std::vector<std::string>>{{"1"}, {"2"}}));
  std::optional<SourceIdentity> identity = DescribeSource("s3://b/in/a.csv");
  ASSERT_TRUE(identity);
  EXPECT_EQ(identity->size, 6);
  EXPECT_FALSE(DescribeSource("s3://b/in/missing.csv"));
}

// Outputs are written through the adapter's OutputObject. (Arrow's in-memory
// filesystem shows a file from its open: that the object appears only at
// commit is S3's multipart semantics, tested against moto in
// tests/python/test_objectstore_outputs.py.)
TEST_F(ObjectAdapterTest, OutputsGoThroughTheAdapter) {
  EXPECT_TRUE(IsOutputObjectUri("s3://b/out/c.csv"));
  EXPECT_FALSE(IsOutputObjectUri("out/c.csv"));
  ASSERT_TRUE(fs_->CreateDir("b/out").ok());  // the in-memory store wants the folder; S3 has none
  auto file = AtomicFile::Create("s3://b/out/c.csv");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_TRUE((*file)->Append("x\n1\n").ok());
  auto committed = (*file)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().message();
  EXPECT_EQ(committed->bytes, 4);
  EXPECT_EQ(fs_->GetFileInfo("b/out/c.csv")->size(), 4);

  auto aborted = AtomicFile::Create("s3://b/out/d.csv");
  ASSERT_TRUE(aborted.ok());
  ASSERT_TRUE((*aborted)->Append("x\n").ok());
  (*aborted)->Abort();
  EXPECT_FALSE((*aborted)->Append("y\n").ok());
  EXPECT_FALSE((*aborted)->Commit().ok());

  auto prefix = AtomicFile::Create("s3://b/out/");
  ASSERT_FALSE(prefix.ok());
  EXPECT_EQ(prefix.status().code(), StatusCode::kUsageError);
}

}  // namespace
}  // namespace griffin

namespace griffin {
namespace {

// GCS: the bytes go to a hidden temporary object that Commit moves to the
// final name and Abort deletes, so the final object appears whole or not at all.
TEST(ObjectAdapterGcsTest, OutputsGoThroughAHiddenTemporaryObject) {
  auto fs = std::make_shared<arrow::fs::internal::MockFileSystem>(arrow::fs::TimePoint{});
  SetObjectStoreForTesting("gs", fs);
  ASSERT_TRUE(fs->CreateDir("b/out").ok());
  auto listing = [&] {
    arrow::fs::FileSelector selector;
    selector.base_dir = "b/out";
    std::vector<std::string> names;
    for (const auto& info : *fs->GetFileInfo(selector)) names.push_back(info.base_name());
    return names;
  };
  auto file = AtomicFile::Create("gs://b/out/c.csv");
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_TRUE((*file)->Append("x\n1\n").ok());
  std::vector<std::string> during = listing();
  ASSERT_EQ(during.size(), 1u);
  EXPECT_EQ(during[0].rfind(".c.csv.griffin-tmp-", 0), 0u) << during[0];
  auto committed = (*file)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().message();
  EXPECT_EQ(listing(), std::vector<std::string>{"c.csv"});
  EXPECT_EQ(fs->GetFileInfo("b/out/c.csv")->size(), 4);

  auto aborted = AtomicFile::Create("gs://b/out/d.csv");
  ASSERT_TRUE(aborted.ok());
  ASSERT_TRUE((*aborted)->Append("x\n").ok());
  (*aborted)->Abort();
  EXPECT_EQ(listing(), std::vector<std::string>{"c.csv"});
  SetObjectStoreForTesting("gs", nullptr);
}

}  // namespace
}  // namespace griffin
