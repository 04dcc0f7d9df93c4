#include "io/parquet_codec.h"

namespace griffin {
namespace {

constexpr ParquetCodec kCodecs[] = {ParquetCodec::kSnappy, ParquetCodec::kZstd, ParquetCodec::kLz4,
                                    ParquetCodec::kNone};

}  // namespace

const char* ParquetCodecName(ParquetCodec codec) {
  switch (codec) {
    case ParquetCodec::kSnappy: return "snappy";
    case ParquetCodec::kZstd: return "zstd";
    case ParquetCodec::kLz4: return "lz4";
    case ParquetCodec::kNone: return "none";
  }
  return "snappy";
}

std::optional<ParquetCodec> ParquetCodecNamed(std::string_view name) {
  for (ParquetCodec codec : kCodecs)
    if (name == ParquetCodecName(codec)) return codec;
  return std::nullopt;
}

}  // namespace griffin
