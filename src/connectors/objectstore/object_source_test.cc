#include "connectors/objectstore/object_source.h"

#include <atomic>

#include <gtest/gtest.h>
#include <zlib.h>

#include <arrow/api.h>
#include <arrow/filesystem/mockfs.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/writer.h>

#include "connectors/objectstore/listing_cache.h"
#include "connectors/objectstore/object_store.h"
#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::ReadAll;

class ObjectSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = std::make_shared<arrow::fs::internal::MockFileSystem>(arrow::fs::TimePoint{});
    SetObjectStoreForTesting("s3", fs_);
    ForgetListingsForTesting();
  }
  void TearDown() override { SetObjectStoreForTesting("s3", nullptr); }

  void Put(const std::string& path, const std::string& bytes) {
    auto slash = path.rfind('/');
    ASSERT_TRUE(fs_->CreateDir(path.substr(0, slash)).ok());
    auto out = fs_->OpenOutputStream(path);
    ASSERT_TRUE(out.ok());
    ASSERT_TRUE((*out)->Write(bytes).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }

  std::shared_ptr<arrow::fs::internal::MockFileSystem> fs_;
};

std::string Gzip(const std::string& text) {
  std::string out(compressBound(text.size()) + 64, '\0');
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = text.size();
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = out.size();
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

TEST_F(ObjectSourceTest, ExpandsAPrefixIntoItsSupportedObjectsSortedByKey) {
  Put("bucket/data/b.csv", "x\n1\n");
  Put("bucket/data/a.jsonl.gz", Gzip("{\"x\":2}\n"));
  Put("bucket/data/sub/c.parquet", "not read here");
  Put("bucket/data/_SUCCESS", "");
  Put("bucket/data/.hidden.csv", "x\n");
  Put("bucket/data/_delta_log/0.json", "{}");
  Put("bucket/data/notes.txt", "hello");
  Put("bucket/other/d.csv", "x\n");
  auto expanded = ExpandObjectUri("s3://bucket/data/?endpoint=http://127.0.0.1:1");
  ASSERT_TRUE(expanded.ok()) << expanded.status().message();
  EXPECT_EQ(*expanded, (std::vector<std::string>{"s3://bucket/data/a.jsonl.gz?endpoint=http://127.0.0.1:1",
                                                 "s3://bucket/data/b.csv?endpoint=http://127.0.0.1:1",
                                                 "s3://bucket/data/sub/c.parquet?endpoint=http://127.0.0.1:1"}));
  // Without the slash, a key that is a folder is a prefix too.
  auto folder = ExpandObjectUri("s3://bucket/data");
  ASSERT_TRUE(folder.ok()) << folder.status().message();
  EXPECT_EQ(folder->size(), 3u);
  // An object stays itself.
  auto one = ExpandObjectUri("s3://bucket/data/b.csv");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, std::vector<std::string>{"s3://bucket/data/b.csv"});
}

TEST_F(ObjectSourceTest, EmptyPrefixAndMissingObjectAreInputErrors) {
  Put("bucket/data/notes.txt", "hello");
  auto empty = ExpandObjectUri("s3://bucket/data/");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kInputError);
  EXPECT_EQ(empty.status().message(), "s3://bucket/data/: prefix holds no supported input files");
  auto missing = ExpandObjectUri("s3://bucket/data/nope.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "s3://bucket/data/nope.csv: no such object");
  auto open_missing = OpenObjectSource("s3://bucket/data/nope.csv", ReadOptions{}, 0);
  ASSERT_FALSE(open_missing.ok());
  EXPECT_EQ(open_missing.status().code(), StatusCode::kInputError);
  EXPECT_EQ(open_missing.status().message().rfind("s3://bucket/data/nope.csv: ", 0), 0u)
      << open_missing.status().message();
}

TEST_F(ObjectSourceTest, ReadsTextObjectsCompressedOrNot) {
  Put("bucket/t/a.csv", "id,name\n1,ann\n2,\"b,ob\"\n3\n");
  auto source = OpenObjectSource("s3://bucket/t/a.csv", ReadOptions{}, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  auto rows = ReadAll(**source);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"id", "name"}));
  ASSERT_EQ(rows.cells.size(), 3u);
  EXPECT_EQ(rows.cells[1], (std::vector<std::string>{"2", "b,ob"}));
  EXPECT_EQ(rows.cells[2][0].rfind("<malformed: ", 0), 0u);
  EXPECT_TRUE((*source)->is_text());

  Put("bucket/t/b.jsonl.gz", Gzip("{\"id\":1}\n{\"id\":2}\n"));
  ReadOptions options;
  options.json_columns = {"id"};
  auto jsonl = OpenObjectSource("s3://bucket/t/b.jsonl.gz", options, 0);
  ASSERT_TRUE(jsonl.ok()) << jsonl.status().message();
  EXPECT_EQ(ReadAll(**jsonl).cells.size(), 2u);
}

TEST_F(ObjectSourceTest, ATruncatedGzipObjectNamesTheUri) {
  std::string gz = Gzip(std::string(5000, 'x') + "\n");
  Put("bucket/t/cut.csv.gz", gz.substr(0, gz.size() / 2));
  auto source = OpenObjectSource("s3://bucket/t/cut.csv.gz", ReadOptions{}, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  EXPECT_EQ(testing::FirstError(**source), "s3://bucket/t/cut.csv.gz: truncated gzip stream");
}

TEST_F(ObjectSourceTest, ReadsParquetObjectsAndRejectsCorruptOnes) {
  arrow::Int64Builder builder;
  ASSERT_TRUE(builder.AppendValues({1, 2, 3}).ok());
  std::shared_ptr<arrow::Array> ids;
  ASSERT_TRUE(builder.Finish(&ids).ok());
  auto table = arrow::Table::Make(arrow::schema({arrow::field("id", arrow::int64())}), {ids});
  auto sink = arrow::io::BufferOutputStream::Create();
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), *sink, 2).ok());
  auto bytes = (*sink)->Finish();
  ASSERT_TRUE(bytes.ok());
  Put("bucket/p/x.parquet", (*bytes)->ToString());
  auto source = OpenObjectSource("s3://bucket/p/x.parquet", ReadOptions{}, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  int64_t rows = 0;
  testing::ForEachBatch(**source, [&](const Batch& batch) { rows += batch.num_rows; });
  EXPECT_EQ(rows, 3);

  Put("bucket/p/bad.parquet", "PAR1 this is not parquet at all PAR1");
  auto bad = OpenObjectSource("s3://bucket/p/bad.parquet", ReadOptions{}, 0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInputError);
  EXPECT_EQ(bad.status().message().rfind("s3://bucket/p/bad.parquet: ", 0), 0u) << bad.status().message();
}

TEST_F(ObjectSourceTest, UnknownExtensionsAndPrefixesAreNotOpened) {
  Put("bucket/t/notes.txt", "x");
  auto txt = OpenObjectSource("s3://bucket/t/notes.txt", ReadOptions{}, 0);
  ASSERT_FALSE(txt.ok());
  EXPECT_EQ(txt.status().message().rfind("s3://bucket/t/notes.txt: unknown input format", 0), 0u);
  auto prefix = OpenObjectSource("s3://bucket/t/", ReadOptions{}, 0);
  ASSERT_FALSE(prefix.ok());
  EXPECT_EQ(prefix.status().code(), StatusCode::kInputError);
}

// Counts the requests that name one object by its path (on S3, a HEAD each).
class CountingFileSystem : public arrow::fs::SlowFileSystem {
 public:
  explicit CountingFileSystem(std::shared_ptr<arrow::fs::FileSystem> base) : SlowFileSystem(std::move(base), 0.0) {}
  using SlowFileSystem::GetFileInfo;
  using SlowFileSystem::OpenInputFile;
  arrow::Result<arrow::fs::FileInfo> GetFileInfo(const std::string& path) override {
    ++by_path;
    return SlowFileSystem::GetFileInfo(path);
  }
  arrow::Result<std::shared_ptr<arrow::io::RandomAccessFile>> OpenInputFile(const std::string& path) override {
    ++by_path;
    return SlowFileSystem::OpenInputFile(path);
  }
  std::atomic<int> by_path{0};
};

TEST_F(ObjectSourceTest, ListedObjectsOpenWithoutAHeadAndLineageCostsOne) {
  Put("bucket/d/a.csv", "id\n1\n");
  Put("bucket/d/b.csv", "id\n2\n3\n");
  auto counting = std::make_shared<CountingFileSystem>(fs_);
  SetObjectStoreForTesting("s3", counting);
  auto expanded = ExpandObjectUri("s3://bucket/d/");
  ASSERT_TRUE(expanded.ok()) << expanded.status().message();
  ASSERT_EQ(expanded->size(), 2u);
  int64_t rows = 0;
  for (const std::string& uri : *expanded) {
    auto source = OpenObjectSource(uri, ReadOptions{}, 0);
    ASSERT_TRUE(source.ok()) << source.status().message();
    rows += static_cast<int64_t>(ReadAll(**source).cells.size());
  }
  EXPECT_EQ(rows, 3);
  EXPECT_EQ(counting->by_path.load(), 0);  // the listing said enough
  auto identity = DescribeObject(*ParseObjectUri("s3://bucket/d/b.csv"));
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->size, 7);
  EXPECT_EQ(counting->by_path.load(), 1);  // the ETag's HEAD; the time came from the listing
  // Not listed: opening asks the store.
  Put("bucket/e/c.csv", "id\n4\n");
  auto unlisted = OpenObjectSource("s3://bucket/e/c.csv", ReadOptions{}, 0);
  ASSERT_TRUE(unlisted.ok()) << unlisted.status().message();
  EXPECT_EQ(ReadAll(**unlisted).cells.size(), 1u);
  EXPECT_EQ(counting->by_path.load(), 2);
}

TEST_F(ObjectSourceTest, DescribesAnObjectsSize) {
  Put("bucket/t/a.csv", "id\n1\n");
  auto identity = DescribeObject(*ParseObjectUri("s3://bucket/t/a.csv"));
  ASSERT_TRUE(identity.ok()) << identity.status().message();
  EXPECT_EQ(identity->size, 5);
}

}  // namespace
}  // namespace griffin
