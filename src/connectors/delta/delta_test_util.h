// Small Delta tables for the delta/ tests, written from the protocol: a Parquet file
// per commit (Arrow's writer) and a _delta_log/<version>.json of protocol, metaData
// and add actions (not part of the library).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/writer.h>

namespace griffin::delta::testing {

// A table of one int64 column `id`; commit i adds a file holding ids [from, to).
inline std::shared_ptr<arrow::Table> Ids(int64_t from, int64_t to) {
  arrow::Int64Builder builder;
  for (int64_t i = from; i < to; ++i) (void)builder.Append(i);
  return arrow::Table::Make(arrow::schema({arrow::field("id", arrow::int64())}), {*builder.Finish()});
}

inline void WriteCommit(const std::string& table, int64_t version, int64_t from, int64_t to,
                        const std::string& protocol = R"({"minReaderVersion":1,"minWriterVersion":2})") {
  namespace fs = std::filesystem;
  fs::create_directories(table + "/_delta_log");
  const std::string name = "part-" + std::to_string(version) + ".parquet";
  auto out = *arrow::io::FileOutputStream::Open(table + "/" + name);
  (void)parquet::arrow::WriteTable(*Ids(from, to), arrow::default_memory_pool(), out, 1024);
  (void)out->Close();
  char log_name[32];
  std::snprintf(log_name, sizeof log_name, "%020lld.json", static_cast<long long>(version));
  std::ofstream log(table + "/_delta_log/" + log_name);
  if (version == 0) {
    log << R"({"protocol":)" << protocol << "}\n";
    log << R"({"metaData":{"id":"d0c8a0f4-0000-4000-8000-000000000001","format":{"provider":"parquet","options":{}},)"
        << R"("schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}",)"
        << R"("partitionColumns":[],"configuration":{},"createdTime":1764547200000}})" << "\n";
  }
  log << R"({"add":{"path":")" << name << R"(","partitionValues":{},"size":)" << fs::file_size(table + "/" + name)
      << R"(,"modificationTime":1764547200000,"dataChange":true}})" << "\n";
}

}  // namespace griffin::delta::testing
