// `griffin validate --engine spark --master URL`: the same validation as a
// Spark job (griffin.spark), submitted with spark-submit. The CLI execs
// spark-submit with a fixed argv (never a shell, so no argument is ever
// interpreted); the job (python/griffin/spark/submit.py, in the installed
// package) prints the report as the CLI does and exits 0/1/2/3 as the CLI.
//
//   griffin validate --engine spark --master local-cluster[2,1,1024] -r rules.yaml data.parquet --key id
//
// spark-submit is $SPARK_HOME/bin/spark-submit, else `spark-submit` on PATH
// (pyspark's pip package has one). The job file: $GRIFFIN_SPARK_JOB, else
// found beside the running griffin binary (the wheel's griffin/bin/ ->
// griffin/spark/submit.py; a build folder -> ../python/griffin/spark/).
#pragma once

#include <string>
#include <vector>

#include "cli/validate_command.h"
#include "util/status.h"

namespace griffin {

// The options --engine spark cannot honour (written by the engine on this
// machine: --html, --threads...): a UsageError naming the first one, else OK.
Status CheckSparkOptions(const ValidateArgs& args);

// spark-submit's argv: [spark_submit, --master, URL, --name, griffin:DATASET?,
// job, --rules, R, --format, F, --max-violations, N, (--key K)*,
// (--store URI | --no-store), (--quarantine P) (--clean P), --, inputs...].
std::vector<std::string> SparkSubmitArgv(const ValidateArgs& args, const std::string& spark_submit,
                                         const std::string& job);

// The job file (see above) for the binary at `self_exe`; NotFound-class
// UsageError naming the places looked at.
Result<std::string> FindSparkJob(const std::string& self_exe);

// Checks, finds spark-submit and the job, and execs it (returns only on
// failure, with the exit status to use).
int ExecSparkSubmit(const ValidateArgs& args);

}  // namespace griffin
