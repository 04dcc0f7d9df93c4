#include "connectors/delta/delta_snapshot.h"

#include <string>
#include <vector>

#include <arrow/c/abi.h>
#include <arrow/c/bridge.h>

#include "delta_kernel_shim.h"

namespace griffin::delta {
namespace {

// Takes the shim's error string (frees it).
std::string TakeError(char* error) {
  std::string message = error ? error : "unknown error";
  griffin_delta_free_string(error);
  return message;
}

// The table's latest version, or -1 when the kernel cannot open it.
int64_t LatestVersion(const DeltaTableRef& ref, const std::vector<const char*>& keys,
                      const std::vector<const char*>& values) {
  char* error = nullptr;
  GriffinDeltaSnapshot* handle = griffin_delta_open(ref.location.c_str(), GRIFFIN_DELTA_LATEST, 0, keys.data(),
                                                    values.data(), keys.size(), &error);
  if (!handle) {
    griffin_delta_free_string(error);
    return -1;
  }
  const int64_t version = griffin_delta_snapshot_version(handle);
  griffin_delta_snapshot_free(handle);
  return version;
}

}  // namespace

std::string KernelErrorMessage(const std::string& display, const std::string& kernel_message) {
  std::string message = kernel_message;
  if (message.rfind("Unsupported: ", 0) == 0)
    message = "table feature not supported by the Delta kernel: " + message.substr(13);
  return display + ": " + message;
}

Result<std::unique_ptr<DeltaSnapshot>> DeltaSnapshot::Open(const DeltaTableRef& ref) {
  int mode = GRIFFIN_DELTA_LATEST;
  int64_t value = 0;
  if (ref.version) {
    mode = GRIFFIN_DELTA_AT_VERSION;
    value = *ref.version;
  } else if (ref.timestamp_ms) {
    mode = GRIFFIN_DELTA_AT_TIMESTAMP_MS;
    value = *ref.timestamp_ms;
  }
  std::vector<const char*> keys, values;
  for (const auto& [key, val] : ref.store_options) {
    keys.push_back(key.c_str());
    values.push_back(val.c_str());
  }
  char* error = nullptr;
  GriffinDeltaSnapshot* handle =
      griffin_delta_open(ref.location.c_str(), mode, value, keys.data(), values.data(), keys.size(), &error);
  if (!handle) {
    std::string message = KernelErrorMessage(ref.display, TakeError(error));
    // Past the end of the log the kernel names the first version missing ("Table
    // version 2 is missing"), not the one asked for: say which and what the latest is.
    if (ref.version) {
      const int64_t latest = LatestVersion(ref, keys, values);
      if (latest >= 0 && *ref.version > latest)
        message = ref.display + ": no version " + std::to_string(*ref.version) + " (the latest version is " +
                  std::to_string(latest) + ")";
    }
    return Status::InputError(message);
  }
  std::unique_ptr<DeltaSnapshot> snapshot(new DeltaSnapshot(handle, ref.display));
  snapshot->version_ = griffin_delta_snapshot_version(handle);
  ArrowSchema c_schema;
  if (griffin_delta_snapshot_schema(handle, &c_schema, &error) != 0)
    return Status::InputError(KernelErrorMessage(ref.display, TakeError(error)));
  auto schema = arrow::ImportSchema(&c_schema);
  if (!schema.ok()) return Status::InputError(ref.display + ": schema: " + schema.status().message());
  snapshot->schema_ = *schema;
  return snapshot;
}

DeltaSnapshot::~DeltaSnapshot() { griffin_delta_snapshot_free(handle_); }

Result<std::shared_ptr<arrow::RecordBatchReader>> DeltaSnapshot::Scan(const std::vector<std::string>& columns) const {
  std::vector<const char*> names;
  for (const std::string& column : columns) names.push_back(column.c_str());
  ArrowArrayStream stream;
  char* error = nullptr;
  if (griffin_delta_scan(handle_, names.data(), names.size(), &stream, &error) != 0)
    return Status::InputError(KernelErrorMessage(display_, TakeError(error)));
  auto reader = arrow::ImportRecordBatchReader(&stream);
  if (!reader.ok()) return Status::InputError(display_ + ": " + reader.status().message());
  return *reader;
}

}  // namespace griffin::delta
