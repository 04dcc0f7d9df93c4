// An OutputObject for a table (a database table, a Delta table): the row sink's
// Arrow IPC file bytes are spooled to a temporary file, and Commit() publishes them
// all at once (one transaction, one commit), so a run that fails or is killed
// publishes nothing. A subclass says how to publish. The spool has no name on
// disk (util/unnamed_file.h), so no run leaves it behind, not even one killed
// with -9; it is freed after Commit() and on Abort() or destruction.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "io/output_object.h"
#include "util/status.h"

namespace griffin {

class SpooledOutput : public OutputObject {
 public:
  ~SpooledOutput() override { Abort(); }
  Status Write(std::string_view bytes) final;
  Result<CommittedObject> Commit() final;
  void Abort() final;

 protected:
  // `display` names the output in errors. Call Open() before use.
  explicit SpooledOutput(std::string display) : display_(std::move(display)) {}
  // Creates the spool file, unnamed, in `temp_dir` (empty: the temp folder,
  // $TMPDIR else /tmp). `kind` names the output kind in errors.
  Status Open(const std::string& kind, const std::string& temp_dir = "");
  // Publishes the complete spool file (an Arrow IPC file) that `spool_path` opens
  // (a /proc/self/fd path, valid during the call only).
  virtual Result<CommittedObject> Publish(const std::string& spool_path) = 0;
  const std::string& display() const { return display_; }

 private:
  std::string display_;
  std::string spool_dir_;
  std::FILE* spool_ = nullptr;
};

}  // namespace griffin
