#include "cli/read_args.h"

#include <CLI/CLI.hpp>

#include "exec/engine.h"
#include "io/input_format.h"

namespace griffin {

Status ApplyReadArgs(const std::string& input_format, const std::string& delimiter, bool no_header,
                     const std::vector<std::string>& null_values, ReadOptions* options) {
  if (!input_format.empty()) {
    options->format = ParseInputFormatName(input_format);
    if (!options->format) return Status::UsageError("--input-format: unknown format '" + input_format + "'");
  }
  if (!delimiter.empty()) {
    std::string d = delimiter == "\\t" || delimiter == "tab" ? "\t" : delimiter;
    if (d.size() != 1) return Status::UsageError("--delimiter: must be one character, got '" + delimiter + "'");
    if (d[0] == '\n' || d[0] == '\r') return Status::UsageError("--delimiter: cannot be a line break");
    options->delimiter = d[0];
  }
  if (no_header) options->header = false;
  if (!null_values.empty()) options->null_values = null_values;
  return Status::OK();
}

void AddReadOptions(CLI::App* cmd, ReadArgs* args) {
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)");
  cmd->add_option("--batch-rows", args->batch_rows, "Rows per batch (memory ~ batch x threads)")->capture_default_str();
  cmd->add_option("--input-format", args->input_format,
                  "Read inputs as csv|tsv|jsonl|json|parquet|arrow regardless of extension");
  cmd->add_option("--delimiter", args->delimiter, "Field delimiter for CSV ('tab' or \\t)");
  cmd->add_flag("--no-header", args->no_header, "CSV/TSV inputs have no header line (columns are column_1..N)");
  cmd->add_option("--null-value", args->null_values, "A spelling of null in text inputs (repeatable; default: empty)");
}

Result<ReadOptions> MakeReadOptions(const ReadArgs& args) {
  if (args.batch_rows < 1) return Status::UsageError("--batch-rows: must be at least 1");
  if (args.threads < 0 || args.threads > kMaxThreads)
    return Status::UsageError("--threads: must be 0 (all cores) to " + std::to_string(kMaxThreads));
  ReadOptions options;
  options.batch_rows = args.batch_rows;
  RETURN_IF_ERROR(ApplyReadArgs(args.input_format, args.delimiter, args.no_header, args.null_values, &options));
  return options;
}

}  // namespace griffin
