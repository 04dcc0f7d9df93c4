// A PostgreSQL table read over several connections at once, in ctid order:
// the table's blocks are cut into ranges of `range_blocks`, each range is
// one query (`SELECT <list> FROM <table> WHERE (<condition>) AND ctid >=
// '(a,0)' AND ctid < '(b,0)'`, a TID range scan), and `readers` connections
// read ranges ahead while the engine takes their batches in range order.
//
//   ASSIGN_OR_RETURN(auto reader, OpenPostgresqlRangeScan(primary, target, scan, options, {2, 1024}));
//   if (reader == nullptr) ... read serially on `primary` (a view, a small table) ...
//
// Contract:
// - `primary` must be in a REPEATABLE READ transaction (autocommit off). Its
//   snapshot is exported (pg_export_snapshot) and every other reader imports
//   it, so all ranges see the same rows as one query would. The primary reads
//   ranges too and stays open until the reader is released.
// - Order: ranges in block order, rows within a range in a TID range scan's
//   order, which is the table's physical (ctid) order: the order a plain
//   SELECT gives when its sequential scan starts at block 0.
// - Memory: at most readers + 1 ranges are claimed and not yet consumed (the
//   last range is open-ended, so rows of blocks added since the count stay
//   visible to it).
// - A reader connection the server refuses (max_connections reached, a
//   snapshot it cannot import) is left out; with none but the primary,
//   nullptr.
// - nullptr (no error) when the relation is not a plain table or
//   materialized view (a view, a partitioned or foreign table has no block
//   ranges) or has fewer than 2 ranges of blocks: read it serially.
// - Errors: the driver's, as InputErrors "<context>: <message>", from the
//   set-up or from the ReadNext that reaches the failed range.
#pragma once

#include <memory>
#include <string>

#include <arrow/record_batch.h>

#include "connectors/sql/adbc_driver.h"
#include "connectors/sql/sql_increment.h"
#include "connectors/sql/sql_uri.h"
#include "io/input_source.h"
#include "util/status.h"

namespace griffin::sql {

// What one range query selects: `SELECT <select_list> FROM <from> [WHERE (<condition.sql>)]`,
// with condition.params bound to every range's query.
struct TableScan {
  std::string select_list;
  std::string from;       // the quoted table name (or a parenthesized query)
  SqlCondition condition;

  // The SELECT, with `also` (SQL Griffin wrote, such as a ctid range) ANDed to the condition.
  std::string Sql(const std::string& also = "") const;
};

struct RangeScanShape {
  int readers = 2;              // connections reading at once (the primary included)
  int64_t range_blocks = 1024;  // 8 MiB of heap per range with 8 KiB blocks
};

// Turns autocommit off and starts a REPEATABLE READ transaction on a
// PostgreSQL connection: every later query sees one snapshot.
Status BeginRepeatableRead(const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& context);

// How many readers and blocks per range a scan uses by default: 2 to 4
// readers (half the cores), 1024 blocks. GRIFFIN_SQL_READERS (1 reads
// serially) and GRIFFIN_SQL_RANGE_BLOCKS override them, for benchmarks
// and tests.
RangeScanShape DefaultRangeScanShape();

Result<std::shared_ptr<arrow::RecordBatchReader>> OpenPostgresqlRangeScan(
    std::shared_ptr<AdbcConnectionHandle> primary, const SqlTarget& target, const TableScan& scan,
    const ReadOptions& options, RangeScanShape shape);

}  // namespace griffin::sql
