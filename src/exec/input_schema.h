// The schema an input showed, as the JSON the run store's schema snapshot
// keeps (Report::input_schemas): [{"name": .., "type": ..}, ...] in input
// order. Types are Arrow's for typed inputs, "text" for CSV/TSV and "json" for
// JSON lines. A projected CSV batch (Batch::header_columns) lists every header
// column, decoded or not.
#pragma once

#include <string>

#include "io/batch.h"

namespace griffin {

std::string InputSchemaJson(const Batch& batch);

}  // namespace griffin
