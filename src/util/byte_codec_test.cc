#include "util/byte_codec.h"

#include <gtest/gtest.h>

#include <cmath>

namespace griffin {
namespace {

TEST(ByteCodecTest, RoundTrips) {
  ByteWriter writer;
  writer.U64(7);
  writer.I64(-3);
  writer.F64(-0.5);
  writer.U8(9);
  writer.Bytes("a\0b");
  writer.F64(NAN);
  ByteReader reader(writer.bytes());
  EXPECT_EQ(reader.U64(), 7u);
  EXPECT_EQ(reader.I64(), -3);
  EXPECT_EQ(reader.F64(), -0.5);
  EXPECT_EQ(reader.U8(), 9);
  EXPECT_EQ(reader.Bytes(), std::string_view("a\0b"));
  EXPECT_TRUE(std::isnan(reader.F64()));
  EXPECT_TRUE(reader.ok());
  EXPECT_TRUE(reader.at_end());
}

TEST(ByteCodecTest, ShortInputFailsInsteadOfReadingPastTheEnd) {
  ByteWriter writer;
  writer.Bytes("hello");
  std::string cut = writer.bytes().substr(0, 10);
  ByteReader reader(cut);
  EXPECT_EQ(reader.Bytes(), "");
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.U64(), 0u);
}

TEST(ByteCodecTest, ImpossibleCountIsCorrupt) {
  ByteWriter writer;
  writer.U64(uint64_t{1} << 60);
  ByteReader reader(writer.bytes());
  EXPECT_EQ(reader.Count(8), 0u);
  EXPECT_FALSE(reader.ok());
}

}  // namespace
}  // namespace griffin
