// Writing one object atomically: Arrow's S3 (multipart upload) or GCS
// (resumable upload) output stream, which makes the object visible only when
// Commit() completes the upload. Abort(), or destruction without Commit(),
// aborts the upload: a run that fails, or is killed, leaves no object (an
// upload a kill interrupts is never completed, so it never becomes an object;
// the store's lifecycle rules reclaim its parts).
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
