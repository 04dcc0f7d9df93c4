// Dead letters (and clean rows) written to a database table:
//
//   griffin validate -r rules.yaml data.csv --quarantine "sqlite:///dl.db?table=bad_rows"
//   ... --quarantine "postgresql://ann@db/shop?table=audit.bad_rows"
//
// The row sink writes Arrow IPC (the adapter's declared output format) into
// this OutputObject, which keeps it in a temporary file; Commit() then
// bulk-ingests every row through ADBC (adbc.ingest, mode create_append: the
// table is created when missing, else rows are appended; its columns must
// match) in ONE transaction, so a run that is killed or fails leaves no
// partial rows. `_griffin_errors` (a list of {check, message} in Arrow files)
// is stored as its JSON text, [{"check":"...","message":"..."}], since not
// every database takes nested types. Errors are InputErrors naming the URI
// (password as ***).
#pragma once

#include <memory>
#include <string>

#include "io/output_object.h"
#include "util/status.h"

namespace griffin::sql {

Result<std::unique_ptr<OutputObject>> OpenSqlTableOutput(const std::string& uri,
                                                         const OutputObjectOptions& options = {});

}  // namespace griffin::sql
