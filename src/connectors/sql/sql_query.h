// One SELECT run on an open connection, its whole (small) result gathered,
// and its cells read: the pushdown runner's aggregate, sample and type-probe
// queries.
//
//   ASSIGN_OR_RETURN(auto batches, QueryAll(connection, "SELECT COUNT(*) FROM t", "sqlite:///a.db"));
//   ASSIGN_OR_RETURN(std::optional<int64_t> rows, IntegerCell(*batches[0]->column(0), 0, "sqlite:///a.db"));
//
// Errors: the driver's, as InputErrors "<context>: <message>".
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/record_batch.h>

#include "connectors/sql/adbc_driver.h"

namespace griffin::sql {

Result<std::vector<std::shared_ptr<arrow::RecordBatch>>> QueryAll(
    const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& sql, const std::string& context,
    const std::shared_ptr<arrow::RecordBatch>& params = nullptr);  // bound to the placeholders, if set

// One statement that returns no rows (SET ..., a transaction setting).
Status ExecuteSql(const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& sql,
                  const std::string& context);

// An integer cell (any integer type, date32 as days, or integer text such
// as a SUM cast to text); nullopt for NULL. An InputError for anything else.
Result<std::optional<__int128>> IntegerCell(const arrow::Array& column, int64_t row, const std::string& context);
// A float64 / float32 cell; nullopt for NULL.
Result<std::optional<double>> DoubleCell(const arrow::Array& column, int64_t row, const std::string& context);

}  // namespace griffin::sql
