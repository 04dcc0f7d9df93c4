#include "io/parquet_codec.h"

#include <gtest/gtest.h>

namespace griffin {
namespace {

TEST(ParquetCodecNameTest, EachNameMapsToItsCodecAndBack) {
  for (ParquetCodec codec : {ParquetCodec::kSnappy, ParquetCodec::kZstd, ParquetCodec::kLz4, ParquetCodec::kNone})
    EXPECT_EQ(ParquetCodecNamed(ParquetCodecName(codec)), codec) << ParquetCodecName(codec);
  EXPECT_EQ(ParquetCodecNamed("zstd"), ParquetCodec::kZstd);
  EXPECT_STREQ(ParquetCodecName(ParquetCodec::kNone), "none");
}

TEST(ParquetCodecNameTest, OtherNamesAreNotCodecs) {
  EXPECT_FALSE(ParquetCodecNamed("brotli").has_value());
  EXPECT_FALSE(ParquetCodecNamed("gzip").has_value());
  EXPECT_FALSE(ParquetCodecNamed("SNAPPY").has_value());
  EXPECT_FALSE(ParquetCodecNamed("").has_value());
}

}  // namespace
}  // namespace griffin
