#include "connectors/objectstore/read_ahead_stream.h"

#include <gtest/gtest.h>

#include <arrow/buffer.h>
#include <arrow/io/memory.h>

namespace griffin {
namespace {

std::shared_ptr<arrow::io::RandomAccessFile> MemoryFile(const std::string& bytes) {
  return std::make_shared<arrow::io::BufferReader>(arrow::Buffer::FromString(bytes));
}

std::string Pattern(size_t n) {
  std::string text;
  for (size_t i = 0; i < n; ++i) text += static_cast<char>('a' + (i * 7) % 26);
  return text;
}

std::string ReadAllInPieces(ByteStream& in, size_t piece) {
  std::string out;
  std::string buf(piece, '\0');
  for (;;) {
    auto n = in.Read(buf.data(), buf.size());
    EXPECT_TRUE(n.ok()) << n.status().message();
    if (!n.ok() || *n == 0) break;
    out.append(buf.data(), *n);
  }
  return out;
}

TEST(ReadAheadStreamTest, ReadsEveryByteInOrderWhateverTheBlockAndPieceSizes) {
  const std::string data = Pattern(10007);
  for (int64_t block : {1, 7, 4096, 20000}) {
    for (size_t piece : {1, 13, 65536}) {
      auto in = MakeReadAheadStream(MemoryFile(data), "s3://b/x.csv", data.size(), block, 3);
      EXPECT_EQ(ReadAllInPieces(*in, piece), data) << "block " << block << " piece " << piece;
      EXPECT_EQ(in->bytes_consumed(), static_cast<int64_t>(data.size()));
    }
  }
}

TEST(ReadAheadStreamTest, EmptyFileEndsAtOnce) {
  auto in = MakeReadAheadStream(MemoryFile(""), "s3://b/empty.csv", 0, 16, 2);
  char buf[8];
  auto n = in->Read(buf, sizeof buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
}

TEST(ReadAheadStreamTest, AnObjectShorterThanItsSizeIsAnError) {
  // The store said 100 bytes; only 60 arrive (the object was replaced or cut).
  auto in = MakeReadAheadStream(MemoryFile(Pattern(60)), "s3://b/x.csv", 100, 32, 2);
  std::string buf(200, '\0');
  Status error;
  for (int i = 0; i < 10; ++i) {
    auto n = in->Read(buf.data(), buf.size());
    if (!n.ok()) {
      error = n.status();
      break;
    }
    ASSERT_GT(*n, 0u) << "reached the end without an error";
  }
  EXPECT_EQ(error.code(), StatusCode::kInputError);
  EXPECT_EQ(error.message(), "s3://b/x.csv: the object ended early (it changed or was truncated while read)");
}

}  // namespace
}  // namespace griffin
