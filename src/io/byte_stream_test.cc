#include "io/byte_stream.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <random>
#include <thread>

#include "io/io_test_util.h"

namespace griffin {
namespace {

using testing::TempDir;

std::string Gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = text.size();
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = out.size();
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string Zstd(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

// Reads a whole stream in small pieces; returns the bytes or the error message.
std::string ReadAllOf(ByteStream& stream, bool* ok) {
  std::string out;
  char buf[1000];
  *ok = true;
  for (;;) {
    auto got = stream.Read(buf, sizeof buf);
    if (!got.ok()) {
      *ok = false;
      return got.status().message();
    }
    if (*got == 0) return out;
    out.append(buf, *got);
  }
}

std::string SampleText() {
  std::mt19937 random(7);
  std::string text;
  for (int i = 0; i < 50000; ++i) text += std::to_string(random() % 1000) + ",abc\n";
  return text;
}

std::string ReadFile(const std::string& path, Compression compression, bool* ok) {
  auto stream = OpenByteStream(path, compression);
  EXPECT_TRUE(stream.ok());
  return ReadAllOf(**stream, ok);
}

TEST(ByteStreamTest, PlainFile) {
  TempDir dir;
  std::string text = SampleText();
  std::string path = dir.Write("a.csv", text);
  auto stream = OpenByteStream(path, Compression::kNone);
  ASSERT_TRUE(stream.ok());
  bool ok;
  EXPECT_EQ(ReadAllOf(**stream, &ok), text);
  EXPECT_TRUE(ok);
  EXPECT_EQ((*stream)->bytes_consumed(), static_cast<int64_t>(text.size()));
}

TEST(ByteStreamTest, MissingFile) {
  auto stream = OpenByteStream("/nonexistent/x.csv", Compression::kNone);
  ASSERT_FALSE(stream.ok());
  EXPECT_EQ(stream.status().code(), StatusCode::kInputError);
  EXPECT_EQ(stream.status().message(), "/nonexistent/x.csv: no such file or directory");
}

TEST(ByteStreamTest, GzipWithConcatenatedMembers) {
  TempDir dir;
  std::string text = SampleText();
  std::string compressed = Gzip(text.substr(0, 1000)) + Gzip(text.substr(1000));
  std::string path = dir.Write("a.csv.gz", compressed);
  auto stream = OpenByteStream(path, Compression::kGzip);
  ASSERT_TRUE(stream.ok());
  bool ok;
  EXPECT_EQ(ReadAllOf(**stream, &ok), text);
  EXPECT_TRUE(ok);
  EXPECT_EQ((*stream)->bytes_consumed(), static_cast<int64_t>(compressed.size()));
}

TEST(ByteStreamTest, TruncatedGzipIsAnInputError) {
  TempDir dir;
  std::string compressed = Gzip(SampleText());
  for (size_t keep : {size_t{5}, compressed.size() / 2, compressed.size() - 4}) {
    std::string path = dir.Write("t.csv.gz", compressed.substr(0, keep));
    bool ok;
    std::string message = ReadFile(path, Compression::kGzip, &ok);
    EXPECT_FALSE(ok);
    EXPECT_EQ(message, path + ": truncated gzip stream");
  }
}

TEST(ByteStreamTest, CorruptGzipIsAnInputError) {
  TempDir dir;
  std::string path = dir.Write("c.csv.gz", "this is not gzip at all");
  bool ok;
  std::string message = ReadFile(path, Compression::kGzip, &ok);
  EXPECT_FALSE(ok);
  EXPECT_EQ(message.rfind(path + ": invalid gzip data", 0), 0u) << message;
}

TEST(ByteStreamTest, ZstdWithConcatenatedFrames) {
  TempDir dir;
  std::string text = SampleText();
  std::string path = dir.Write("a.csv.zst", Zstd(text.substr(0, 777)) + Zstd(text.substr(777)));
  bool ok;
  EXPECT_EQ(ReadFile(path, Compression::kZstd, &ok), text);
  EXPECT_TRUE(ok);
}

TEST(ByteStreamTest, TruncatedZstdIsAnInputError) {
  TempDir dir;
  std::string compressed = Zstd(SampleText());
  for (size_t keep : {size_t{3}, compressed.size() / 2, compressed.size() - 1}) {
    std::string path = dir.Write("t.csv.zst", compressed.substr(0, keep));
    bool ok;
    std::string message = ReadFile(path, Compression::kZstd, &ok);
    EXPECT_FALSE(ok);
    EXPECT_EQ(message, path + ": truncated zstd stream");
  }
}

TEST(ByteStreamTest, EmptyCompressedFilesAreEmpty) {
  TempDir dir;
  bool ok;
  EXPECT_EQ(ReadFile(dir.Write("e.gz", ""), Compression::kGzip, &ok), "");
  EXPECT_TRUE(ok);
  EXPECT_EQ(ReadFile(dir.Write("e.zst", ""), Compression::kZstd, &ok), "");
  EXPECT_TRUE(ok);
}

TEST(ByteStreamTest, GzipThroughAPipe) {
  std::string text = SampleText();
  std::string compressed = Gzip(text);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    size_t at = 0;
    while (at < compressed.size()) {
      ssize_t n = ::write(fds[1], compressed.data() + at, std::min<size_t>(333, compressed.size() - at));
      if (n <= 0) break;
      at += n;
    }
    ::close(fds[1]);
  });
  auto stream = MakeGzipStream(MakeFdStream(fds[0], "<stdin>", true), "<stdin>");
  bool ok;
  EXPECT_EQ(ReadAllOf(*stream, &ok), text);
  EXPECT_TRUE(ok);
  writer.join();
}

TEST(ByteStreamTest, MemoryStreamReadsInPlaceInPieces) {
  const std::string text = SampleText();
  auto stream = MakeMemoryStream(text);
  bool ok = false;
  EXPECT_EQ(ReadAllOf(*stream, &ok), text);
  EXPECT_TRUE(ok);
  EXPECT_EQ(stream->bytes_consumed(), static_cast<int64_t>(text.size()));
  char buf[4];
  EXPECT_EQ(*stream->Read(buf, sizeof buf), 0u);  // stays at the end
  auto empty = MakeMemoryStream("");
  EXPECT_EQ(*empty->Read(buf, sizeof buf), 0u);
}

}  // namespace
}  // namespace griffin
