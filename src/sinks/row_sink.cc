#include "sinks/row_sink.h"

#include "io/input_format.h"
#include "io/source_registry.h"
#include "sinks/file_row_sink.h"

namespace griffin {

namespace {

// The output format OpenRowSink would use for `path` (before any checks).
std::optional<DetectedFormat> OutputFormatOf(const std::string& path) {
  // An object URI's format is its key's extension, before any ?endpoint=...
  std::optional<DetectedFormat> detected =
      DetectInputFormat(IsOutputObjectUri(path) ? std::string_view(path).substr(0, path.find('?')) : path);
  if (std::optional<InputFormat> declared = AdapterOutputFormat(path)) detected = DetectedFormat{*declared};
  return detected;
}

}  // namespace

bool IsParquetOutput(const std::string& path) {
  std::optional<DetectedFormat> detected = OutputFormatOf(path);
  return detected && detected->format == InputFormat::kParquet && detected->compression == Compression::kNone;
}

bool WritesParquetPages(const std::string& path) {
  return IsParquetOutput(path) || AdapterOutputWritesParquet(path);
}

Result<std::unique_ptr<RowSink>> OpenRowSink(const std::string& path, SinkKind kind, const SinkOptions& options) {
  const char* flag = kind == SinkKind::kClean ? "--clean" : "--quarantine";
  std::optional<DetectedFormat> detected = OutputFormatOf(path);
  if (detected && detected->compression != Compression::kNone)
    return Status::UsageError(std::string(flag) + " " + path + ": compressed outputs are not supported");
  if (!detected)
    return Status::UsageError(std::string(flag) + " " + path +
                              ": unsupported output format (use .csv, .tsv, .jsonl, .ndjson, .parquet, "
                              ".arrow, .feather or .ipc)");
  if (detected->format == InputFormat::kJson)
    return Status::UsageError(std::string(flag) + " " + path +
                              ": .json outputs are not supported (use .jsonl for JSON lines)");
  ASSIGN_OR_RETURN(std::unique_ptr<AtomicFile> file, AtomicFile::Create(
      path, {.hash = options.hash_output,
             .object = {.parquet_codec = options.parquet_codec, .temp_dir = options.temp_dir}}));
  switch (detected->format) {
    case InputFormat::kCsv:
      return MakeCsvSink(std::move(file), kind, options);
    case InputFormat::kTsv: {
      SinkOptions tsv = options;
      tsv.csv_delimiter = '\t';
      return MakeCsvSink(std::move(file), kind, tsv);
    }
    case InputFormat::kJsonl:
      return MakeJsonLinesSink(std::move(file), kind, options);
    case InputFormat::kJson:  // checked before the file is created
      break;
    case InputFormat::kParquet:
      return MakeArrowSink(std::move(file), kind, options, ArrowFileFormat::kParquet);
    case InputFormat::kArrow:
      return MakeArrowSink(std::move(file), kind, options, ArrowFileFormat::kIpc);
  }
  return Status::Internal("unhandled output format");
}

}  // namespace griffin
