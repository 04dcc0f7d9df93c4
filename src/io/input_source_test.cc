#include "io/input_source.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include <filesystem>

#include "io/input_format.h"
#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::Rows;
using testing::TempDir;
using Cells = std::vector<std::vector<std::string>>;

TEST(InputFormatTest, DetectsByExtension) {
  auto csv_gz = DetectInputFormat("dir/x.CSV.gz");
  ASSERT_TRUE(csv_gz);
  EXPECT_EQ(csv_gz->format, InputFormat::kCsv);
  EXPECT_EQ(csv_gz->compression, Compression::kGzip);
  auto ndjson = DetectInputFormat("x.ndjson.zst");
  ASSERT_TRUE(ndjson);
  EXPECT_EQ(ndjson->format, InputFormat::kJsonl);
  EXPECT_EQ(ndjson->compression, Compression::kZstd);
  EXPECT_EQ(DetectInputFormat("x.tsv")->format, InputFormat::kTsv);
  EXPECT_EQ(DetectInputFormat("x.json")->format, InputFormat::kJson);
  EXPECT_EQ(DetectInputFormat("x.JSON.gz")->compression, Compression::kGzip);
  EXPECT_EQ(ParseInputFormatName("json"), InputFormat::kJson);
  EXPECT_STREQ(InputFormatName(InputFormat::kJson), "json");
  EXPECT_EQ(DetectInputFormat("x.feather")->format, InputFormat::kArrow);
  EXPECT_EQ(DetectInputFormat("x.ipc")->format, InputFormat::kArrow);
  EXPECT_EQ(DetectInputFormat("x.parquet")->format, InputFormat::kParquet);
  EXPECT_FALSE(DetectInputFormat("x.parquet.gz"));
  EXPECT_FALSE(DetectInputFormat("x.txt"));
  EXPECT_FALSE(DetectInputFormat("csv"));
  EXPECT_STREQ(InputFormatName(InputFormat::kJsonl), "jsonl");
  EXPECT_STREQ(InputFormatName(InputFormat::kArrow), "arrow");
}

TEST(InputSourceTest, ExpandInputs) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("d/sub"));
  std::filesystem::create_directories(dir.Path("d/.hidden"));
  dir.Write("d/b.csv", "x\n");
  dir.Write("d/a.jsonl", "{}\n");
  dir.Write("d/sub/c.parquet", "");
  dir.Write("d/notes.txt", "");
  dir.Write("d/.h.csv", "");
  dir.Write("d/.hidden/e.csv", "");
  dir.Write("single.txt", "");
  auto expanded = ExpandInputs({dir.Path("single.txt"), dir.Path("d"), "-"});
  ASSERT_TRUE(expanded.ok()) << expanded.status().message();
  EXPECT_EQ(*expanded, (std::vector<std::string>{dir.Path("single.txt"), dir.Path("d/a.jsonl"),
                                                 dir.Path("d/b.csv"), dir.Path("d/sub/c.parquet"),
                                                 "-"}));
  auto missing = ExpandInputs({dir.Path("nope.csv")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kInputError);
  EXPECT_EQ(missing.status().message(), dir.Path("nope.csv") + ": no such file or directory");
  std::filesystem::create_directories(dir.Path("empty"));
  auto empty = ExpandInputs({dir.Path("empty")});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(), dir.Path("empty") + ": directory holds no supported input files");
}

TEST(InputSourceTest, UnreadableFileIsNamed) {
  // chmod cannot make a file unreadable for root (tests run as root in CI), so
  // use a path whose parent is a regular file: opening it fails for everyone.
  TempDir dir;
  std::string file = dir.Write("plain.csv", "a\n1\n");
  std::string path = file + "/inside.csv";
  auto expanded = ExpandInputs({path});
  ASSERT_FALSE(expanded.ok());
  EXPECT_EQ(expanded.status().code(), StatusCode::kInputError);
  EXPECT_NE(expanded.status().message().find(path), std::string::npos) << expanded.status().message();
}

TEST(InputSourceTest, OpensCompressedTextByExtension) {
  TempDir dir;
  std::string text = "a,b\n1,2\n3,4\n";
  std::string gz(1024, '\0');
  uLongf gz_size = gz.size();
  // compress2 writes zlib format; gzip needs deflateInit2 with a gzip wrapper.
  z_stream z{};
  ASSERT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(text.data());
  z.avail_in = text.size();
  z.next_out = reinterpret_cast<Bytef*>(gz.data());
  z.avail_out = gz_size;
  ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  gz.resize(z.total_out);
  deflateEnd(&z);
  std::string zst(ZSTD_compressBound(text.size()), '\0');
  zst.resize(ZSTD_compress(zst.data(), zst.size(), text.data(), text.size(), 1));
  for (auto [name, bytes] : {std::pair{"x.csv.gz", gz}, std::pair{"x.csv.zst", zst}}) {
    std::string path = dir.Write(name, bytes);
    auto source = OpenInput(path, ReadOptions{}, 0);
    ASSERT_TRUE(source.ok()) << source.status().message();
    EXPECT_EQ(testing::ReadAll(**source).cells, (Cells{{"1", "2"}, {"3", "4"}}));
    EXPECT_EQ((*source)->bytes_read(), static_cast<int64_t>(bytes.size()));
    EXPECT_EQ((*source)->total_bytes(), static_cast<int64_t>(bytes.size()));
  }
  std::string truncated = dir.Write("t.csv.gz", gz.substr(0, gz.size() - 6));
  auto source = OpenInput(truncated, ReadOptions{}, 0);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(testing::FirstError(**source), truncated + ": truncated gzip stream");
}

TEST(InputSourceTest, FormatOptionsAndErrors) {
  TempDir dir;
  std::string tsv = dir.Write("x.tsv", "a\tb\n1\t2,3\n");
  auto source = OpenInput(tsv, ReadOptions{}, 0);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(testing::ReadAll(**source).cells, (Cells{{"1", "2,3"}}));

  std::string txt = dir.Write("x.txt", "a;b\n1;2\n");
  auto unknown = OpenInput(txt, ReadOptions{}, 0);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message().rfind(txt + ": unknown input format", 0), 0u);
  EXPECT_NE(unknown.status().message().find("--input-format csv|tsv|jsonl|json|parquet|arrow"),
            std::string::npos);
  EXPECT_EQ(unknown.status().message().find("--format"), std::string::npos);
  ReadOptions options;
  options.format = InputFormat::kCsv;
  options.delimiter = ';';
  auto forced = OpenInput(txt, options, 0);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(testing::ReadAll(**forced).cells, (Cells{{"1", "2"}}));

  auto missing = OpenInput(dir.Path("gone.csv"), ReadOptions{}, 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), dir.Path("gone.csv") + ": no such file or directory");
}

TEST(InputSourceTest, JsonArrayElementsAreRows) {
  TempDir dir;
  std::string json = dir.Write("x.json", "[\n  {\"a\": 1,\n   \"b\": \"x\"},\n  [2],\n  {\"a\": 3}\n]\n");
  ReadOptions options;
  options.json_columns = {"a", "b"};
  auto source = OpenInput(json, options, 0);
  ASSERT_TRUE(source.ok()) << source.status().message();
  Rows all = testing::ReadAll(**source);
  EXPECT_EQ(all.cells, (Cells{{"1", "x"}, {"<malformed: line is not a JSON object>"}, {"3", "<null>"}}));
  EXPECT_EQ(all.raw[0], "{\"a\": 1,    \"b\": \"x\"}");  // line ends between tokens became spaces
  EXPECT_EQ((*source)->bytes_read(), static_cast<int64_t>(std::filesystem::file_size(json)));

  std::string not_array = dir.Write("z.json", "{\"a\": 1}\n{\"a\": 2}\n");
  auto object_lines = OpenInput(not_array, options, 0);
  ASSERT_TRUE(object_lines.ok());
  EXPECT_EQ(testing::FirstError(**object_lines),
            not_array + ": expected a JSON array of objects ('[' first), found '{' (one JSON object per line "
                        "is a .jsonl input) at byte 1");
}

TEST(InputSourceTest, TextStreamsFromMemory) {
  const std::string csv = "a,b\n1,2\n3\n";
  ReadOptions options;
  options.batch_rows = 1;
  auto source = OpenTextStream(MakeMemoryStream(csv), "<body>", InputFormat::kCsv, options);
  ASSERT_TRUE(source.ok());
  Rows rows = testing::ReadAll(**source);
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(rows.cells, (Cells{{"1", "2"}, {"<malformed: record has 1 field, expected 2>"}}));

  const std::string jsonl = "{\"a\": 1}\n[2]\n";
  options.json_columns = {"a"};
  auto lines = OpenTextStream(MakeMemoryStream(jsonl), "<body>", InputFormat::kJsonl, options);
  ASSERT_TRUE(lines.ok());
  EXPECT_EQ(testing::ReadAll(**lines).cells, (Cells{{"1"}, {"<malformed: line is not a JSON object>"}}));

  auto header_only = OpenTextStream(MakeMemoryStream("a\tb\n"), "<body>", InputFormat::kTsv, ReadOptions{});
  ASSERT_TRUE(header_only.ok());
  Rows empty = testing::ReadAll(**header_only);
  EXPECT_EQ(empty.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(empty.cells.empty());

  auto typed = OpenTextStream(MakeMemoryStream("x"), "<body>", InputFormat::kParquet, ReadOptions{});
  ASSERT_FALSE(typed.ok());
  EXPECT_EQ(typed.status().message(), "<body>: parquet is not a text format");
}

TEST(InputSourceTest, ChainsInputsInOrderWithTheirIndex) {
  TempDir dir;
  std::string a = dir.Write("a.csv", "v\n1\n2\n");
  std::string b = dir.Write("b.csv", "v\n3\n");
  std::string c = dir.Write("c.csv", "v\n4\n5\n6\n");
  ReadOptions options;
  options.batch_rows = 2;
  auto source = OpenInputs({a, b, c}, options);
  ASSERT_TRUE(source.ok());
  Rows rows = testing::ReadAll(**source);
  EXPECT_EQ(rows.cells, (Cells{{"1"}, {"2"}, {"3"}, {"4"}, {"5"}, {"6"}}));
  EXPECT_EQ(rows.input_index, (std::vector<int>{0, 0, 1, 2, 2, 2}));
  EXPECT_EQ((*source)->total_bytes(), 6 + 4 + 8);
  EXPECT_EQ((*source)->bytes_read(), 6 + 4 + 8);
}

TEST(InputSourceTest, ChainStopsAtABadInput) {
  TempDir dir;
  std::string a = dir.Write("a.csv", "v\n1\n");
  std::string b = dir.Write("b.csv", "v,v\n1,2\n");
  auto source = OpenInputs({a, b}, ReadOptions{});
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(testing::FirstError(**source), b + ":1: duplicate column name \"v\" in the header");
}

TEST(InputSourceTest, DirectoryOfMixedFormats) {
  TempDir dir;
  std::filesystem::create_directories(dir.Path("in"));
  dir.Write("in/1.csv", "k\nx\n");
  dir.Write("in/2.jsonl", "{\"k\": \"y\"}\n");
  auto paths = ExpandInputs({dir.Path("in")});
  ASSERT_TRUE(paths.ok());
  ReadOptions options;
  options.json_columns = {"k"};
  auto source = OpenInputs(*paths, options);
  ASSERT_TRUE(source.ok());
  Rows rows = testing::ReadAll(**source);
  EXPECT_EQ(rows.cells, (Cells{{"x"}, {"y"}}));
  EXPECT_EQ(rows.input_index, (std::vector<int>{0, 1}));
}

}  // namespace
}  // namespace griffin
