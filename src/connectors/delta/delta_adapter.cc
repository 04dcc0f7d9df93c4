#include "connectors/delta/delta_adapter.h"

#include <map>
#include <mutex>

#include "connectors/delta/delta_output.h"
#include "connectors/delta/delta_snapshot.h"
#include "connectors/delta/delta_table_ref.h"
#include "io/arrow_source.h"
#include "io/source_registry.h"

namespace griffin::delta {
namespace {

struct VersionsRead {
  std::mutex mutex;
  std::map<std::string, int64_t> by_input;
};

VersionsRead& TheVersionsRead() {
  static VersionsRead& versions = *new VersionsRead();
  return versions;
}

// The columns to scan: the rules' columns that the table has, in table order (a rule
// column the table lacks stays absent, so the engine reports it as for files); all
// when the front end keeps rows whole.
std::vector<std::string> ScanColumns(const arrow::Schema& schema, const ReadOptions& options) {
  if (!options.project_columns || options.json_columns.empty()) return {};
  std::vector<std::string> columns;
  for (const auto& field : schema.fields())
    for (const std::string& wanted : options.json_columns)
      if (field->name() == wanted) {
        columns.push_back(field->name());
        break;
      }
  if (columns.empty() && !schema.fields().empty()) columns.push_back(schema.field(0)->name());
  return columns;
}

Result<std::unique_ptr<InputSource>> OpenDeltaSource(const std::string& input, const ReadOptions& options,
                                                     int input_index) {
  ASSIGN_OR_RETURN(DeltaTableRef ref, ParseDeltaTableRef(input));
  ASSIGN_OR_RETURN(std::unique_ptr<DeltaSnapshot> snapshot, DeltaSnapshot::Open(ref));
  {
    VersionsRead& versions = TheVersionsRead();
    std::lock_guard<std::mutex> lock(versions.mutex);
    versions.by_input[input] = snapshot->version();
  }
  ASSIGN_OR_RETURN(auto reader, snapshot->Scan(ScanColumns(*snapshot->schema(), options)));
  return OpenRecordBatchReaderSource(std::move(reader), ref.display, options, input_index);
}

Result<SourceIdentity> DescribeDelta(const std::string& input) {
  SourceIdentity identity;
  std::optional<int64_t> version = VersionRead(input);
  if (!version) {
    ASSIGN_OR_RETURN(DeltaTableRef ref, ParseDeltaTableRef(input));
    ASSIGN_OR_RETURN(std::unique_ptr<DeltaSnapshot> snapshot, DeltaSnapshot::Open(ref));
    version = snapshot->version();
  }
  identity.etag = "v=" + std::to_string(*version);
  return identity;
}

}  // namespace

std::optional<int64_t> VersionRead(const std::string& input) {
  VersionsRead& versions = TheVersionsRead();
  std::lock_guard<std::mutex> lock(versions.mutex);
  auto found = versions.by_input.find(input);
  if (found == versions.by_input.end()) return std::nullopt;
  return found->second;
}

void RegisterDeltaSources() {
  SourceAdapter adapter{OpenDeltaSource, SourcePushdown{.columns = true}, "delta:/path/to/table@v=12"};
  adapter.describe = DescribeDelta;
  adapter.claims = IsDeltaInput;
  adapter.version_read = VersionRead;
  adapter.open_output = OpenDeltaOutput;
  adapter.output_format = InputFormat::kArrow;
  adapter.output_writes_parquet = true;
  RegisterSource("delta", std::move(adapter));
}

}  // namespace griffin::delta
