#include "connectors/sql/parallel_scan.h"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <arrow/array.h>

#include "connectors/sql/sql_connect.h"
#include "connectors/sql/sql_dialect.h"
#include "connectors/sql/sql_query.h"
#include "connectors/sql/sql_source.h"

namespace griffin::sql {
namespace {

int64_t EnvInt(const char* name, int64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  return end != nullptr && *end == '\0' && value > 0 ? value : fallback;
}

Result<std::string> TextCell(const arrow::Array& column, const std::string& context) {
  if (column.length() < 1 || column.IsNull(0) || column.type_id() != arrow::Type::STRING)
    return Status::InputError(context + ": expected one text value, got " + column.type()->ToString());
  return static_cast<const arrow::StringArray&>(column).GetString(0);
}

// `ctid` within blocks [first, end) (end < 0: no end).
std::string BlockRange(int64_t first, int64_t end) {
  std::string sql = "ctid >= '(" + std::to_string(first) + ",0)'::tid";
  if (end >= 0) sql += " AND ctid < '(" + std::to_string(end) + ",0)'::tid";
  return sql;
}

// The batches of ranges 0..n-1, read by one thread per connection, handed
// out in range order. At most readers + 1 ranges are claimed and not yet
// consumed; a reader that is ahead waits.
class RangeScanReader : public arrow::RecordBatchReader {
 public:
  RangeScanReader(std::vector<std::shared_ptr<AdbcConnectionHandle>> connections, std::string context,
                  TableScan scan, ReadOptions options, int64_t blocks, int64_t range_blocks,
                  std::shared_ptr<arrow::Schema> schema)
      : connections_(std::move(connections)),
        context_(std::move(context)),
        scan_(std::move(scan)),
        options_(std::move(options)),
        range_blocks_(range_blocks),
        ranges_((blocks + range_blocks - 1) / range_blocks),
        window_(static_cast<int64_t>(connections_.size()) + 1),
        schema_(std::move(schema)) {
    for (auto& connection : connections_) threads_.emplace_back([this, connection] { ReadRanges(connection); });
  }

  ~RangeScanReader() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    std::unique_lock<std::mutex> lock(mutex_);
    while (current_ < ranges_) {
      changed_.wait(lock, [&] {
        auto it = slots_.find(current_);
        return it != slots_.end() && (!it->second.batches.empty() || it->second.done);
      });
      Slot& slot = slots_[current_];
      if (!slot.batches.empty()) {
        *batch = std::move(slot.batches.front());
        slot.batches.pop_front();
        return arrow::Status::OK();
      }
      if (!slot.error.ok()) {
        // The source names the input itself (arrow_source.h): the message without it.
        std::string message = slot.error.message();
        if (message.rfind(context_ + ": ", 0) == 0) message.erase(0, context_.size() + 2);
        return arrow::Status::IOError(message);
      }
      slots_.erase(current_);
      ++current_;
      changed_.notify_all();  // the window moved
    }
    *batch = nullptr;
    return arrow::Status::OK();
  }

 private:
  struct Slot {
    std::deque<std::shared_ptr<arrow::RecordBatch>> batches;
    bool done = false;
    Status error;
  };

  std::string RangeSql(int64_t range) const {
    const int64_t first = range * range_blocks_;
    const int64_t end = range + 1 == ranges_ ? -1 : first + range_blocks_;
    return scan_.Sql(BlockRange(first, end));
  }

  // One reader thread: claims the next range while the window allows, reads
  // it whole into its slot, and so on until every range is claimed.
  void ReadRanges(const std::shared_ptr<AdbcConnectionHandle>& connection) {
    while (true) {
      int64_t range;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || next_ >= ranges_ || next_ < current_ + window_; });
        if (stop_ || next_ >= ranges_) return;
        range = next_++;
        slots_[range];
      }
      Status status = ReadRange(connection, range);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        Slot& slot = slots_[range];
        slot.done = true;
        slot.error = status;
      }
      changed_.notify_all();
      if (!status.ok()) return;
    }
  }

  Status ReadRange(const std::shared_ptr<AdbcConnectionHandle>& connection, int64_t range) {
    ASSIGN_OR_RETURN(auto reader, OpenSqlQueryReader(connection, SqlEngine::kPostgresql, RangeSql(range), context_,
                                                     options_, scan_.condition.params));
    while (true) {
      std::shared_ptr<arrow::RecordBatch> batch;
      arrow::Status read = reader->ReadNext(&batch);
      if (!read.ok()) return Status::InputError(context_ + ": " + read.message());
      if (batch == nullptr) return Status::OK();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stop_) return Status::OK();
        slots_[range].batches.push_back(std::move(batch));
      }
      changed_.notify_all();
    }
  }

  const std::vector<std::shared_ptr<AdbcConnectionHandle>> connections_;
  const std::string context_;
  const TableScan scan_;
  const ReadOptions options_;
  const int64_t range_blocks_;
  const int64_t ranges_;
  const int64_t window_;
  const std::shared_ptr<arrow::Schema> schema_;

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<int64_t, Slot> slots_;  // claimed ranges not yet consumed
  int64_t next_ = 0;               // the next range to claim
  int64_t current_ = 0;            // the range ReadNext takes batches from
  bool stop_ = false;
  std::vector<std::thread> threads_;  // last: joined before the rest is destroyed
};

}  // namespace

std::string TableScan::Sql(const std::string& also) const {
  std::string sql = "SELECT " + select_list + " FROM " + from;
  if (!condition.sql.empty()) sql += " WHERE (" + condition.sql + ")";
  if (!also.empty()) sql += (condition.sql.empty() ? " WHERE " : " AND ") + also;
  return sql;
}

Status BeginRepeatableRead(const std::shared_ptr<AdbcConnectionHandle>& connection, const std::string& context) {
  RETURN_IF_ERROR(connection->SetOption("adbc.connection.autocommit", "false", context));
  return ExecuteSql(connection, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", context);
}

RangeScanShape DefaultRangeScanShape() {
  RangeScanShape shape;
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  shape.readers = static_cast<int>(EnvInt("GRIFFIN_SQL_READERS", std::clamp(cores / 2, 2, 4)));
  shape.range_blocks = EnvInt("GRIFFIN_SQL_RANGE_BLOCKS", shape.range_blocks);
  return shape;
}

Result<std::shared_ptr<arrow::RecordBatchReader>> OpenPostgresqlRangeScan(
    std::shared_ptr<AdbcConnectionHandle> primary, const SqlTarget& target, const TableScan& scan,
    const ReadOptions& options, RangeScanShape shape) {
  const std::string& context = target.display;
  if (shape.readers < 2 || shape.range_blocks < 1) return std::shared_ptr<arrow::RecordBatchReader>();
  const SqlDialect& dialect = *FindSqlDialect("postgresql");
  const std::optional<std::string> name = dialect.StringLiteral(scan.from);
  if (!name) return std::shared_ptr<arrow::RecordBatchReader>();
  // A relation with blocks: a table ('r') or materialized view ('m'); its size in blocks now.
  ASSIGN_OR_RETURN(auto relation,
                   QueryAll(primary,
                            "SELECT c.relkind::text, pg_relation_size(c.oid) / current_setting('block_size')::bigint "
                            "FROM pg_class c WHERE c.oid = to_regclass(" + *name + ")",
                            context));
  if (relation.empty() || relation[0]->num_rows() != 1) return std::shared_ptr<arrow::RecordBatchReader>();  // no such table: the serial read says so
  ASSIGN_OR_RETURN(std::string kind, TextCell(*relation[0]->column(0), context));
  ASSIGN_OR_RETURN(std::optional<__int128> blocks, IntegerCell(*relation[0]->column(1), 0, context));
  if ((kind != "r" && kind != "m") || !blocks || *blocks < 2 * shape.range_blocks) return std::shared_ptr<arrow::RecordBatchReader>();

  // Every reader sees the primary's snapshot.
  ASSIGN_OR_RETURN(auto exported, QueryAll(primary, "SELECT pg_export_snapshot()", context));
  if (exported.empty() || exported[0]->num_rows() != 1)
    return Status::InputError(context + ": pg_export_snapshot() returned no snapshot");
  ASSIGN_OR_RETURN(std::string snapshot, TextCell(*exported[0]->column(0), context));
  // A reader the server refuses (max_connections, a standby that cannot
  // import) is left out: fewer readers, or the serial read.
  std::vector<std::shared_ptr<AdbcConnectionHandle>> connections = {primary};
  auto join = [&]() -> Result<std::shared_ptr<AdbcConnectionHandle>> {
    ASSIGN_OR_RETURN(auto connection, ConnectSql(target, SqlAccess::kReadOnly));
    RETURN_IF_ERROR(BeginRepeatableRead(connection, context));
    RETURN_IF_ERROR(ExecuteSql(connection, "SET TRANSACTION SNAPSHOT " + *dialect.StringLiteral(snapshot), context));
    return connection;
  };
  for (int i = 1; i < shape.readers; ++i) {
    auto connection = join();
    if (!connection.ok()) break;
    connections.push_back(std::move(*connection));
  }
  if (connections.size() < 2) return std::shared_ptr<arrow::RecordBatchReader>();
  // The columns' engine types, from a query that reads no block.
  ASSIGN_OR_RETURN(auto empty, OpenSqlQueryReader(primary, SqlEngine::kPostgresql, scan.Sql("false"), context,
                                                  options, scan.condition.params));
  std::shared_ptr<arrow::Schema> schema = empty->schema();
  for (std::shared_ptr<arrow::RecordBatch> batch; empty->ReadNext(&batch).ok() && batch != nullptr;) {
  }
  empty.reset();  // the primary is free for its reader thread
  std::shared_ptr<arrow::RecordBatchReader> reader = std::make_shared<RangeScanReader>(
      std::move(connections), context, scan, options, static_cast<int64_t>(*blocks), shape.range_blocks,
      std::move(schema));
  return reader;
}

}  // namespace griffin::sql
