#include "io/source_registry.h"

#include <gtest/gtest.h>

#include <atomic>

#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::TempDir;

TEST(SourceRegistryTest, TellsUrisFromPaths) {
  EXPECT_EQ(UriScheme("sqlite:///x.db?table=t"), "sqlite");
  EXPECT_EQ(UriScheme("PostgreSQL://u@h/db"), "postgresql");
  EXPECT_EQ(UriScheme("s3+x.y-z://b/k"), "s3+x.y-z");
  EXPECT_EQ(UriScheme("file:///a.csv"), "file");
  EXPECT_FALSE(UriScheme("-"));
  EXPECT_FALSE(UriScheme("data/x.csv"));
  EXPECT_FALSE(UriScheme("dir/a://b"));
  EXPECT_FALSE(UriScheme("://x"));
  EXPECT_FALSE(UriScheme("1x://y"));
  EXPECT_TRUE(IsFileInput("x.csv"));
  EXPECT_TRUE(IsFileInput("FILE:///x.csv"));
  EXPECT_FALSE(IsFileInput("sqlite:///x.db"));
}

TEST(SourceRegistryTest, FileUrisNameLocalPaths) {
  EXPECT_EQ(*FilePathOf("file:///a/b.csv"), "/a/b.csv");
  EXPECT_EQ(*FilePathOf("file://localhost/a/b.csv"), "/a/b.csv");
  EXPECT_EQ(*FilePathOf("rel/b.csv"), "rel/b.csv");
  auto remote = FilePathOf("file://server/a.csv");
  ASSERT_FALSE(remote.ok());
  EXPECT_EQ(remote.status().code(), StatusCode::kUsageError);
}

TEST(SourceRegistryTest, RedactsPasswords) {
  EXPECT_EQ(RedactUri("postgresql://ann:s3cret@db:5432/x?table=t"), "postgresql://ann:***@db:5432/x?table=t");
  EXPECT_EQ(RedactUri("postgresql://ann@db/x?password=s3cret&table=t"),
            "postgresql://ann@db/x?password=***&table=t");
  EXPECT_EQ(RedactUri("postgresql://db/x?table=t&password=p%40ss"), "postgresql://db/x?table=t&password=***");
  EXPECT_EQ(RedactUri("postgresql://ann:p@ss@db/x"), "postgresql://ann:***@db/x");
  EXPECT_EQ(RedactUri("sqlite:///a:b@c.db"), "sqlite:///a:b@c.db");  // no authority: a path
  EXPECT_EQ(RedactUri("dir/user:pw@x.csv"), "dir/user:pw@x.csv");
}

TEST(SourceRegistryTest, FileUriReadsAsItsPath) {
  TempDir dir;
  const std::string file = dir.Write("a.csv", "x,y\n1,2\n3,4\n");
  ReadOptions options;
  auto by_uri = OpenInput("file://" + file, options, 0);
  ASSERT_TRUE(by_uri.ok()) << by_uri.status().message();
  EXPECT_EQ(testing::ReadAll(**by_uri).cells, (std::vector<std::vector<std::string>>{{"1", "2"}, {"3", "4"}}));
  auto expanded = ExpandInputs({"file://" + dir.path()});
  ASSERT_TRUE(expanded.ok()) << expanded.status().message();
  EXPECT_EQ(*expanded, std::vector<std::string>{file});
}

TEST(SourceRegistryTest, UnknownSchemeIsAUsageErrorNamingTheUri) {
  auto opened = OpenInput("nosuch://ann:s3cret@host/x", ReadOptions(), 0);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StatusCode::kUsageError);
  EXPECT_NE(opened.status().message().find("nosuch://ann:***@host/x: unknown input scheme 'nosuch'"),
            std::string::npos)
      << opened.status().message();
  EXPECT_EQ(opened.status().message().find("s3cret"), std::string::npos);
  EXPECT_NE(opened.status().message().find("file"), std::string::npos);  // lists the known schemes
}

// A registered scheme: its opener gets the URI and the options, and its
// source is read like any other; ExpandInputs leaves the URI to it.
TEST(SourceRegistryTest, RegisteredSchemeOpensThroughTheRegistry) {
  TempDir dir;
  const std::string file = dir.Write("rows.csv", "a\n1\n2\n");
  std::vector<std::string> seen_columns;
  std::string seen_where;
  RegisterSource("testmem", SourceAdapter{[&](const std::string& uri, const ReadOptions& options, int index) {
                                            seen_columns = options.json_columns;
                                            seen_where = options.where;
                                            EXPECT_EQ(uri, "testmem://rows");
                                            return OpenInput(file, ReadOptions(), index);
                                          },
                                          SourcePushdown{true, true, false}, "testmem://name"});
  auto expanded = ExpandInputs({"testmem://rows"});
  ASSERT_TRUE(expanded.ok());
  EXPECT_EQ(*expanded, std::vector<std::string>{"testmem://rows"});
  ReadOptions options;
  options.json_columns = {"a"};
  options.where = "a > 0";
  auto opened = OpenInputs(*expanded, options);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  EXPECT_EQ(testing::ReadAll(**opened).cells.size(), 2u);
  EXPECT_EQ(seen_columns, std::vector<std::string>{"a"});
  EXPECT_EQ(seen_where, "a > 0");
  const std::vector<std::string> schemes = RegisteredSourceSchemes();
  EXPECT_NE(std::find(schemes.begin(), schemes.end(), "testmem"), schemes.end());

  // It cannot run a query: refused before the opener runs.
  options.query = "SELECT 1";
  auto refused = OpenInputs(*expanded, options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUsageError);
  EXPECT_NE(refused.status().message().find("cannot run a query"), std::string::npos);
}

TEST(SourceRegistryTest, FilesRefuseWhereAndQuery) {
  TempDir dir;
  const std::string file = dir.Write("a.csv", "x\n1\n");
  ReadOptions options;
  options.where = "x > 0";
  auto opened = OpenInput(file, options, 0);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StatusCode::kUsageError);
  EXPECT_NE(opened.status().message().find(file + ": a file cannot filter rows"), std::string::npos);
}

// source.incremental needs a source that reads increments: a file, or an
// adapter without watermarks, is refused (never read whole in silence).
TEST(SourceRegistryTest, IncrementsNeedASourceThatReadsThem) {
  TempDir dir;
  const std::string file = dir.Write("a.csv", "x\n1\n");
  ReadOptions options;
  options.incremental_column = "x";
  auto opened = OpenInput(file, options, 0);
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.status().message().find("cannot filter rows (where), run a query or be read incrementally"),
            std::string::npos);
  auto watermark = ReadSourceWatermark(file, options);
  ASSERT_FALSE(watermark.ok());
  EXPECT_EQ(watermark.status().code(), StatusCode::kUsageError);
  SourceAdapter plain;
  plain.open = [&](const std::string&, const ReadOptions& o, int index) { return OpenInput(file, o, index); };
  RegisterSource("noincrement", plain);
  auto refused = OpenInput("noincrement://x", options, 0);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("noincrement://x: this source cannot be read incrementally"),
            std::string::npos);
  EXPECT_EQ(ReadSourceWatermark("noincrement://x", options).status().code(), StatusCode::kUsageError);
  SourceAdapter marked = plain;
  marked.pushdown.increment = true;
  marked.watermark = [](const std::string&, const ReadOptions& o) -> Result<std::optional<SourceWatermark>> {
    return std::optional<SourceWatermark>(SourceWatermark{"v:" + o.increment_after, "text"});
  };
  RegisterSource("withincrement", marked);
  options.increment_after = "7";
  auto read = ReadSourceWatermark("withincrement://x", options);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ((*read)->value, "v:7");
}

}  // namespace
}  // namespace griffin

namespace griffin {
namespace {

// URI inputs after the first are opened (and their first chunk read) ahead,
// on another thread: rows still come in input order, and an input that fails
// to open fails the run only when it is reached, after the rows before it.
TEST(SourceRegistryTest, UriInputsAreOpenedAheadInOrder) {
  TempDir dir;
  const std::string a = dir.Write("a.csv", "x\n1\n2\n");
  const std::string b = dir.Write("b.csv", "x\n3\n");
  std::atomic<int> opens{0};
  SourceAdapter adapter;
  adapter.open = [&](const std::string& uri, const ReadOptions& options,
                     int index) -> Result<std::unique_ptr<InputSource>> {
    ++opens;
    if (uri == "aheadtest://bad") return Status::InputError("aheadtest://bad: no such thing");
    return OpenInput(uri == "aheadtest://a" ? a : b, options, index);
  };
  RegisterSource("aheadtest", adapter);
  auto source = OpenInputs({"aheadtest://a", "aheadtest://b", "aheadtest://a"}, ReadOptions());
  ASSERT_TRUE(source.ok()) << source.status().message();
  testing::Rows rows = testing::ReadAll(**source);
  EXPECT_EQ(rows.cells, (std::vector<std::vector<std::string>>{{"1"}, {"2"}, {"3"}, {"1"}, {"2"}}));
  EXPECT_EQ(rows.input_index, (std::vector<int>{0, 0, 1, 2, 2}));
  EXPECT_EQ(opens.load(), 3);

  auto failing = OpenInputs({"aheadtest://a", "aheadtest://bad"}, ReadOptions());
  ASSERT_TRUE(failing.ok());
  auto first = (*failing)->NextChunk();
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_NE(*first, nullptr);
  auto decoded = (*first)->Decode();
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ((*decoded)->num_rows, 2);
  Status error;
  for (int i = 0; i < 4 && error.ok(); ++i) {
    auto next = (*failing)->NextChunk();
    if (!next.ok()) error = next.status();
    else ASSERT_NE(*next, nullptr) << "ended without the second input's error";
  }
  EXPECT_EQ(error.message(), "aheadtest://bad: no such thing");
}

}  // namespace
}  // namespace griffin
