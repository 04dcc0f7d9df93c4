// Input format detection from a file name's extension.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "io/byte_stream.h"
#include "io/input_source.h"

namespace griffin {

struct DetectedFormat {
  InputFormat format;
  Compression compression = Compression::kNone;
};

// From the extension (case-insensitive): .csv .tsv .jsonl .ndjson .json .parquet
// .arrow .feather .ipc, each text format optionally followed by .gz or .zst
// ("x.csv.gz"). nullopt for anything else (compressed typed formats included).
std::optional<DetectedFormat> DetectInputFormat(std::string_view path);

// The format and compression an input named `name` is read with:
// options.format when set (compression still from the extension), else the
// extension. An unknown extension is an InputError naming the input and the
// choices. Parquet and Arrow cannot be compressed: an InputError too.
Result<DetectedFormat> ResolveInputFormat(const std::string& name, const ReadOptions& options);

// A format's name as rule files (`source.format`) and the CLI spell it: csv tsv
// jsonl (ndjson) json parquet arrow (ipc, feather). nullopt for anything else.
std::optional<InputFormat> ParseInputFormatName(std::string_view name);

}  // namespace griffin
