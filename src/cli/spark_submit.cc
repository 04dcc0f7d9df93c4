#include "cli/spark_submit.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cli/exit_codes.h"
#include "store/run_store.h"

namespace griffin {
namespace {

void PrintError(const Status& status) { std::fprintf(stderr, "griffin: %s\n", status.message().c_str()); }

}  // namespace

Status CheckSparkOptions(const ValidateArgs& args) {
  if (args.master.empty()) return Status::UsageError("--engine spark: --master URL is required (e.g. yarn, spark://host:7077, local[4])");
  const auto refuse = [](const char* option) {
    return Status::UsageError(std::string(option) + ": not with --engine spark (the job runs on the cluster; see docs/spark.md)");
  };
  if (!args.html_path.empty()) return refuse("--html");
  if (args.threads != 0) return refuse("--threads");
  if (args.tag_version) return refuse("--tag-version");
  if (!args.parquet_compression.empty()) return refuse("--parquet-compression");
  if (args.explain) return refuse("--explain");
  if (!args.tmp_dir.empty()) return refuse("--tmp-dir");
  if (!args.where.empty()) return refuse("--where");
  if (!args.query.empty()) return refuse("--query");
  if (!args.input_format.empty() || !args.delimiter.empty() || args.no_header || !args.null_values.empty())
    return Status::UsageError("--engine spark reads Parquet inputs (Spark's reader); --input-format, --delimiter, "
                              "--no-header and --null-value are not for it");
  if (args.inputs.empty()) return Status::UsageError("--engine spark: no input given");
  for (const std::string& input : args.inputs)
    if (input == "-") return Status::UsageError("--engine spark: standard input (-) cannot be read on a cluster");
  if (args.format != "text" && args.format != "json")
    return Status::UsageError("--format " + args.format + ": --engine spark prints text or json");
  if (!args.store_uri.empty()) RETURN_IF_ERROR(CheckRunStoreUri(args.store_uri));
  return Status::OK();
}

std::vector<std::string> SparkSubmitArgv(const ValidateArgs& args, const std::string& spark_submit,
                                         const std::string& job) {
  std::vector<std::string> argv = {spark_submit, "--master", args.master, "--name", "griffin validate", job,
                                   "--rules", args.rules_path, "--format", args.format,
                                   "--max-violations", std::to_string(args.max_violations)};
  for (const std::string& key : args.keys) argv.insert(argv.end(), {"--key", key});
  if (args.no_store) argv.push_back("--no-store");
  else argv.insert(argv.end(), {"--store", args.store_uri.empty() ? DefaultStoreUri() : args.store_uri});
  if (!args.quarantine_path.empty()) argv.insert(argv.end(), {"--quarantine", args.quarantine_path});
  if (!args.clean_path.empty()) argv.insert(argv.end(), {"--clean", args.clean_path});
  argv.push_back("--");
  argv.insert(argv.end(), args.inputs.begin(), args.inputs.end());
  return argv;
}

Result<std::string> FindSparkJob(const std::string& self_exe) {
  namespace fs = std::filesystem;
  if (const char* job = std::getenv("GRIFFIN_SPARK_JOB"); job && *job) {
    if (!fs::is_regular_file(job)) return Status::UsageError(std::string("GRIFFIN_SPARK_JOB=") + job + ": no such file");
    return std::string(job);
  }
  const fs::path bin = fs::path(self_exe).parent_path();
  const fs::path candidates[] = {bin / ".." / "spark" / "submit.py",                       // the wheel
                                 bin / ".." / "python" / "griffin" / "spark" / "submit.py"};  // a build folder
  for (const fs::path& candidate : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  return Status::UsageError("--engine spark: the job griffin/spark/submit.py is not beside " + self_exe +
                            " (install the griffin wheel, or set GRIFFIN_SPARK_JOB)");
}

int ExecSparkSubmit(const ValidateArgs& args) {
  if (Status checked = CheckSparkOptions(args); !checked.ok()) {
    PrintError(checked);
    return kExitUsage;
  }
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  Result<std::string> job = FindSparkJob(self);
  if (!job.ok()) {
    PrintError(job.status());
    return kExitUsage;
  }
  std::string spark_submit = "spark-submit";
  if (const char* home = std::getenv("SPARK_HOME"); home && *home)
    spark_submit = (std::filesystem::path(home) / "bin" / "spark-submit").string();
  const std::vector<std::string> argv = SparkSubmitArgv(args, spark_submit, *job);
  std::vector<char*> raw;
  for (const std::string& arg : argv) raw.push_back(const_cast<char*>(arg.c_str()));
  raw.push_back(nullptr);
  ::execvp(raw[0], raw.data());   // no shell: each argument is passed as is
  PrintError(Status::UsageError("--engine spark: cannot run " + spark_submit + ": " + std::strerror(errno) +
                                " (install pyspark, or set SPARK_HOME)"));
  return kExitUsage;
}

}  // namespace griffin
