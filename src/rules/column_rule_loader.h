// Loads the `columns:` section of a rule file (rules-v1 "Column checks") into
// ColumnRules. Internal to rules/; rule_loader.cc calls it.
//
// Both spellings of every check are accepted: short (`min: 0`, `regex: '^a'`,
// `in: [A, B]`, `unique: true`) and long (`{value|pattern|values: ..., severity,
// mostly, message}`); `length` is always a map. `type` and `format` are read
// first, so every other check is checked against the column's type whatever
// the key order. `type` becomes a kType check at its position in the file;
// `required` and `format` are options, not checks.
#pragma once

#include <vector>

#include "rules/rule_set.h"
#include "rules/yaml_helpers.h"
#include "util/status.h"

namespace griffin::rules_internal {

// `columns` is the value of the `columns:` key: a map of column name to its
// checks (an empty value means no checks), or a list of maps each with a `name`.
Result<std::vector<ColumnRule>> LoadColumns(const YamlContext& ctx, const Field& columns);

}  // namespace griffin::rules_internal
