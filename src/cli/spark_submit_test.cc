// --engine spark: the options it refuses, spark-submit's argv (fixed, no
// shell), and where the job file is found.
#include "cli/spark_submit.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "store/run_store.h"

namespace griffin {
namespace {

ValidateArgs SparkArgs() {
  ValidateArgs args;
  args.engine = "spark";
  args.master = "local-cluster[2,1,1024]";
  args.rules_path = "rules.yaml";
  args.inputs = {"data.parquet", "more; rm -rf /"};
  return args;
}

TEST(SparkSubmitTest, ArgvPassesEveryArgumentAsOneElement) {
  ValidateArgs args = SparkArgs();
  args.keys = {"id", "day"};
  args.format = "json";
  args.store_uri = "runs.db";
  const std::vector<std::string> argv = SparkSubmitArgv(args, "/opt/spark/bin/spark-submit", "/x/submit.py");
  const std::vector<std::string> expected = {
      "/opt/spark/bin/spark-submit", "--master", "local-cluster[2,1,1024]", "--name", "griffin validate",
      "/x/submit.py", "--rules", "rules.yaml", "--format", "json", "--max-violations", "100", "--key", "id",
      "--key", "day", "--store", "runs.db", "--", "data.parquet", "more; rm -rf /"};
  EXPECT_EQ(argv, expected);
}

TEST(SparkSubmitTest, ArgvDefaultsToTheDefaultStoreAndPassesNoStoreAndOutputs) {
  ValidateArgs args = SparkArgs();
  std::vector<std::string> argv = SparkSubmitArgv(args, "spark-submit", "job.py");
  EXPECT_NE(std::find(argv.begin(), argv.end(), DefaultStoreUri()), argv.end());
  args.no_store = true;
  args.quarantine_path = "q/";
  args.clean_path = "c/";
  argv = SparkSubmitArgv(args, "spark-submit", "job.py");
  EXPECT_EQ(std::find(argv.begin(), argv.end(), "--store"), argv.end());
  const std::vector<std::string> tail(argv.end() - 8, argv.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"--no-store", "--quarantine", "q/", "--clean", "c/", "--", "data.parquet",
                                            "more; rm -rf /"}));
}

TEST(SparkSubmitTest, RefusesWhatTheClusterCannotHonour) {
  EXPECT_TRUE(CheckSparkOptions(SparkArgs()).ok());
  ValidateArgs args = SparkArgs();
  args.master.clear();
  EXPECT_NE(CheckSparkOptions(args).message().find("--master URL is required"), std::string::npos);
  args = SparkArgs();
  args.html_path = "r.html";
  EXPECT_EQ(CheckSparkOptions(args).message(),
            "--html: not with --engine spark (the job runs on the cluster; see docs/spark.md)");
  args = SparkArgs();
  args.parquet_compression = "zstd";
  EXPECT_EQ(CheckSparkOptions(args).message(),
            "--parquet-compression: not with --engine spark (the job runs on the cluster; see docs/spark.md)");
  args = SparkArgs();
  args.inputs = {"-"};
  EXPECT_EQ(CheckSparkOptions(args).code(), StatusCode::kUsageError);
  args = SparkArgs();
  args.format = "junit";
  EXPECT_NE(CheckSparkOptions(args).message().find("--format junit"), std::string::npos);
  args = SparkArgs();
  args.store_uri = "runs.txt";
  EXPECT_NE(CheckSparkOptions(args).message().find("runs.txt"), std::string::npos);
}

TEST(SparkSubmitTest, FindsTheJobBesideTheBinaryOrFromTheEnvironment) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("griffin-spark-job-" + std::to_string(::getpid()));
  fs::create_directories(root / "griffin" / "bin");
  fs::create_directories(root / "griffin" / "spark");
  std::ofstream(root / "griffin" / "spark" / "submit.py") << "# job\n";
  ::unsetenv("GRIFFIN_SPARK_JOB");
  Result<std::string> job = FindSparkJob((root / "griffin" / "bin" / "griffin").string());
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(fs::path(*job), fs::weakly_canonical(root / "griffin" / "spark" / "submit.py"));
  Result<std::string> missing = FindSparkJob((root / "elsewhere" / "griffin").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("GRIFFIN_SPARK_JOB"), std::string::npos);
  ::setenv("GRIFFIN_SPARK_JOB", (root / "nope.py").c_str(), 1);
  EXPECT_NE(FindSparkJob("x").status().message().find("no such file"), std::string::npos);
  ::unsetenv("GRIFFIN_SPARK_JOB");
  fs::remove_all(root);
}

}  // namespace
}  // namespace griffin
