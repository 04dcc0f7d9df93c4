// The command line's input options (--input-format, --delimiter, --no-header,
// --null-value), shared by `griffin validate`, `profile` and `suggest`.
#pragma once

#include <string>
#include <vector>

#include "io/input_source.h"
#include "util/status.h"

namespace CLI {
class App;
}

namespace griffin {

// The `inputs` positional's help, the same for every command that reads data:
// local files, directories, standard input, and the URIs io/ opens.
inline constexpr const char* kInputsHelp =
    "Input files (.csv .tsv .jsonl .json .parquet .arrow, optionally .gz/.zst), directories of them, "
    "- for CSV on standard input, or a URI (s3://bucket/key or s3://bucket/prefix/, gs://..., "
    "delta:PATH or a folder holding _delta_log (delta:s3://... too; @v=N for a version), "
    "sqlite:///f.db?table=t, postgresql://user@host/db?table=t, duckdb:///f.duckdb?table=t, file:///path)";

// The input options of the commands that read data without a rule file
// (`profile`, `suggest`).
struct ReadArgs {
  int threads = 0;
  int64_t batch_rows = 65536;
  std::string input_format;
  std::string delimiter;
  bool no_header = false;
  std::vector<std::string> null_values;
};

// Adds --threads, --batch-rows, --input-format, --delimiter, --no-header, --null-value.
void AddReadOptions(CLI::App* cmd, ReadArgs* args);

// The ReadOptions `args` give (usage errors name the option).
Result<ReadOptions> MakeReadOptions(const ReadArgs& args);

// Applies the options given (empty ones leave `options` as it is). Usage
// errors name the option.
Status ApplyReadArgs(const std::string& input_format, const std::string& delimiter, bool no_header,
                     const std::vector<std::string>& null_values, ReadOptions* options);

}  // namespace griffin
