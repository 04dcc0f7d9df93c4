// `griffin rules DATASET --diff A --to B`: the change between two stored
// versions of a dataset's rule file, as a unified diff (text) or as JSON.
//
// Text: "--- rules v1 <sha256 12> (first seen ..)", "+++ rules v2 ..", then
// the hunks of util/line_diff (3 lines of context), or "(no change)".
// JSON: {"dataset", "from": {"version", "sha256", "first_seen"}, "to": {..},
//        "changed": bool, "hunks": [{"old_start", "old_lines", "new_start",
//        "new_lines", "lines": [{"kind": "context"|"removed"|"added",
//        "text", "old_line"|null, "new_line"|null}]}]}
#pragma once

#include <string>

#include "store/run_store.h"

namespace griffin {

std::string RuleVersionDiffText(const RuleVersionRecord& from, const RuleVersionRecord& to);
std::string RuleVersionDiffJson(const std::string& dataset, const RuleVersionRecord& from,
                                const RuleVersionRecord& to);

}  // namespace griffin
