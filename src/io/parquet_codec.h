// The page codec of the Parquet an output writes (--parquet-compression): .parquet
// files and objects (sinks/arrow_sink.cc) and a Delta table's data files
// (connectors/delta/delta_output.cc, which hands the name to the kernel shim).
// No gzip: Arrow's took 17 s for the 1M-row clean output that Snappy writes in 0.7 s.
#pragma once

#include <optional>
#include <string_view>

namespace griffin {

enum class ParquetCodec { kSnappy, kZstd, kLz4, kNone };

// The codec of a --parquet-compression name (snappy, zstd, lz4, none), or nullopt.
std::optional<ParquetCodec> ParquetCodecNamed(std::string_view name);
// The name ParquetCodecNamed takes for `codec` (a NUL-terminated literal).
const char* ParquetCodecName(ParquetCodec codec);

}  // namespace griffin
