#include "io/input_format.h"

#include <cctype>
#include <string>

namespace griffin {
namespace {

bool EndsWith(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::optional<DetectedFormat> DetectInputFormat(std::string_view path) {
  std::string lower(path);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  DetectedFormat detected;
  if (EndsWith(lower, ".gz")) {
    detected.compression = Compression::kGzip;
    lower.resize(lower.size() - 3);
  } else if (EndsWith(lower, ".zst")) {
    detected.compression = Compression::kZstd;
    lower.resize(lower.size() - 4);
  }
  struct Extension {
    std::string_view suffix;
    InputFormat format;
    bool text;
  };
  static constexpr Extension kExtensions[] = {
      {".csv", InputFormat::kCsv, true},         {".tsv", InputFormat::kTsv, true},
      {".jsonl", InputFormat::kJsonl, true},     {".ndjson", InputFormat::kJsonl, true},
      {".json", InputFormat::kJson, true},
      {".parquet", InputFormat::kParquet, false}, {".arrow", InputFormat::kArrow, false},
      {".feather", InputFormat::kArrow, false},  {".ipc", InputFormat::kArrow, false},
  };
  for (const Extension& extension : kExtensions) {
    if (!EndsWith(lower, extension.suffix)) continue;
    if (!extension.text && detected.compression != Compression::kNone) return std::nullopt;
    detected.format = extension.format;
    return detected;
  }
  return std::nullopt;
}

Result<DetectedFormat> ResolveInputFormat(const std::string& name, const ReadOptions& options) {
  std::optional<DetectedFormat> detected = DetectInputFormat(name);
  DetectedFormat resolved;
  if (detected) resolved = *detected;
  if (options.format) {
    resolved.format = *options.format;
  } else if (!detected) {
    return Status::InputError(name + ": unknown input format (expected one of .csv .tsv .jsonl "
                              ".ndjson .json .parquet .arrow .feather .ipc, optionally .gz/.zst "
                              "for text, or --input-format csv|tsv|jsonl|json|parquet|arrow)");
  }
  if ((resolved.format == InputFormat::kParquet || resolved.format == InputFormat::kArrow) &&
      resolved.compression != Compression::kNone)
    return Status::InputError(name + ": compressed " + InputFormatName(resolved.format) +
                              " files are not supported");
  return resolved;
}

std::optional<InputFormat> ParseInputFormatName(std::string_view name) {
  if (name == "csv") return InputFormat::kCsv;
  if (name == "tsv") return InputFormat::kTsv;
  if (name == "jsonl" || name == "ndjson") return InputFormat::kJsonl;
  if (name == "json") return InputFormat::kJson;
  if (name == "parquet") return InputFormat::kParquet;
  if (name == "arrow" || name == "ipc" || name == "feather") return InputFormat::kArrow;
  return std::nullopt;
}

}  // namespace griffin
