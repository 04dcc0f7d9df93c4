// A Delta table's snapshot through delta-kernel-rs (rust/delta_kernel_shim): its
// version, its schema, and its rows as an Arrow RecordBatchReader (deletion vectors
// applied, partition values filled in, logical names under column mapping).
//
// Errors name the table (DeltaTableRef::display) and are InputErrors (exit 3): a
// missing table or log file, a version that does not exist, a table feature the
// kernel does not support ("... reader feature 'x' is not supported"), an
// unreachable store. The reader's errors are Arrow errors with the kernel's message.
// Thread safety: a snapshot may be scanned from any thread, one scan at a time per reader.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/type_fwd.h>

#include "connectors/delta/delta_table_ref.h"
#include "util/status.h"

struct GriffinDeltaSnapshot;

namespace griffin::delta {

class DeltaSnapshot {
 public:
  static Result<std::unique_ptr<DeltaSnapshot>> Open(const DeltaTableRef& ref);
  ~DeltaSnapshot();
  DeltaSnapshot(const DeltaSnapshot&) = delete;
  DeltaSnapshot& operator=(const DeltaSnapshot&) = delete;

  int64_t version() const { return version_; }
  const std::shared_ptr<arrow::Schema>& schema() const { return schema_; }
  // The rows; `columns` empty: all columns, else those (each must exist).
  Result<std::shared_ptr<arrow::RecordBatchReader>> Scan(const std::vector<std::string>& columns) const;

 private:
  DeltaSnapshot(GriffinDeltaSnapshot* handle, std::string display) : handle_(handle), display_(std::move(display)) {}
  GriffinDeltaSnapshot* handle_;
  std::string display_;
  int64_t version_ = -1;
  std::shared_ptr<arrow::Schema> schema_;
};

// The kernel's message made one line that names `display`; "Unsupported: ..." becomes
// "table feature not supported by the Delta kernel: ...".
std::string KernelErrorMessage(const std::string& display, const std::string& kernel_message);

}  // namespace griffin::delta
