// How a database stores each column the rules name, as the pushdown
// compiler needs to know it (StoredType, pushdown_compiler.h): a check is
// pushed only when the column reaches the engine as its rule's type.
//
// PostgreSQL and DuckDB: from the result's Arrow schema (the FROM run with
// WHERE 1=0): strings are kText (PostgreSQL: text and varchar only; char(n)
// arrives padded with blanks, which PostgreSQL's own comparisons and lengths
// ignore); 8-64 bit signed and 8-32 bit unsigned integers kInteger; float64
// kDouble; bool, date32 and timestamps as such. Everything else is kOther,
// so its checks run in the engine: float32, uint64, NUMERIC/DECIMAL (text
// to the engine, numbers to SQL), uuid, json, intervals...
// SQLite has no column types (its driver types a column from its values):
// one probe query counts each column's values by typeof(); a column whose
// values are all integers is kInteger, all reals kDouble, all text kText, a
// column without values is taken as its rule's type (every check sees only
// NULLs), any mix kOther.
#pragma once

#include <map>
#include <memory>
#include <string>

#include <arrow/type.h>

#include "connectors/sql/adbc_driver.h"
#include "connectors/sql/pushdown_compiler.h"
#include "plan/plan.h"

namespace griffin::sql {

// The StoredType of a column of a PostgreSQL or DuckDB result.
StoredType StoredTypeOfField(const arrow::Field& field);

// The stored type of every column of `from` (already SQL) filtered by
// `where` (SQL, may be empty; `params` bound to its placeholders) that `plan`
// names; a plan column the source lacks is absent from the map.
Result<std::map<std::string, StoredType>> ProbeStoredTypes(const std::shared_ptr<AdbcConnectionHandle>& connection,
                                                           SqlEngine engine, const Plan& plan,
                                                           const std::string& from, const std::string& where,
                                                           const std::string& context,
                                                           std::shared_ptr<arrow::RecordBatch> params = nullptr);

}  // namespace griffin::sql
