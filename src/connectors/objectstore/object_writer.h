// Writing one object atomically.
//   S3: Arrow's multipart upload, completed only by Commit(); Abort(), or
//       destruction without Commit(), aborts it. A run that fails, or is
//       killed, leaves no object (an upload a kill interrupts is never
//       completed; the store's lifecycle rules reclaim its parts).
//   GCS: Arrow's GCS stream completes its upload when aborted or destroyed,
//       so the bytes go to a hidden temporary object beside the final one
//       (".NAME.griffin-tmp-PID-RANDOM", skipped by prefix listings), which
//       Commit() moves to the final name (a server-side copy, then a delete)
//       and Abort() deletes. A killed run may leave the temporary object, never
//       the final one.
//
//   ASSIGN_OR_RETURN(auto writer, OpenObjectWriter("s3://b/out/clean.csv"));
//   RETURN_IF_ERROR(writer->Write(bytes));     // any number of times
//   ASSIGN_OR_RETURN(CommittedObject done, writer->Commit());  // size and ETag
#pragma once

#include <memory>
#include <string>

#include "io/output_object.h"
#include "util/status.h"

namespace griffin {

// Starts the upload of `uri` (an object, not a prefix). Errors: a malformed
// URI (UsageError), a missing bucket or refused credentials (InputError).
Result<std::unique_ptr<OutputObject>> OpenObjectWriter(const std::string& uri);

}  // namespace griffin
