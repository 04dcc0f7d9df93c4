#include "server/flight_protocol.h"

#include <arrow/builder.h>
#include <simdjson.h>

#include <unordered_map>

#include "server/batch_scores.h"

namespace griffin::server {
namespace {

Status Bad(const std::string& what) { return Status::UsageError("descriptor: " + what); }

// A named batch_hash must be valid; "" is bad too (as over HTTP), not "none".
Status CheckHash(const FlightTarget& target, bool named) {
  if ((named || !target.batch_hash.empty()) && !IsValidBatchHash(target.batch_hash)) {
    return Bad("batch_hash: expected 1 to 128 characters of A-Z a-z 0-9 . _ : -");
  }
  return Status::OK();
}

Result<FlightTarget> FromCommand(const std::string& command, bool* hash_named) {
  simdjson::dom::parser parser;
  simdjson::dom::object fields;
  if (parser.parse(command).get_object().get(fields)) {
    return Bad("a command must be a JSON object like {\"dataset\": \"name\"}");
  }
  FlightTarget target;
  for (auto [key, value] : fields) {
    std::string_view text;
    if (key == "dataset" && !value.get_string().get(text)) {
      target.dataset = std::string(text);
    } else if (key == "batch_hash" && !value.get_string().get(text)) {
      target.batch_hash = std::string(text);
      *hash_named = true;
    } else if (key == "max_violations" && value.is_int64() && int64_t(value) >= 0 && int64_t(value) <= 1000000) {
      target.max_violations = int64_t(value);
    } else if (key == "store" && value.is_bool()) {
      target.store = bool(value);
      target.await_record = target.store;
    } else {
      return Bad("bad or unknown field '" + std::string(key) +
                 "' (expected dataset: string, batch_hash: string, max_violations: 0..1000000, store: bool)");
    }
  }
  return target;
}

}  // namespace

Result<FlightTarget> ParseFlightTarget(const arrow::flight::FlightDescriptor& descriptor) {
  FlightTarget target;
  bool hash_named = false;
  if (descriptor.type == arrow::flight::FlightDescriptor::PATH) {
    if (descriptor.path.empty() || descriptor.path.size() > 2) return Bad("expected a path [dataset] or [dataset, batch_hash]");
    target.dataset = descriptor.path[0];
    hash_named = descriptor.path.size() == 2;
    if (hash_named) target.batch_hash = descriptor.path[1];
  } else if (descriptor.type == arrow::flight::FlightDescriptor::CMD) {
    ASSIGN_OR_RETURN(target, FromCommand(descriptor.cmd, &hash_named));
  } else {
    return Bad("expected a path or a command");
  }
  if (target.dataset.empty()) return Bad("no dataset named");
  RETURN_IF_ERROR(CheckHash(target, hash_named));
  return target;
}

ResultBatchBuilder::ResultBatchBuilder(const RuleSet& rules) {
  for (const ColumnRule& column : rules.columns) {
    for (const ColumnCheck& check : column.checks) {
      if (check.options.severity == Severity::kError) checks_.push_back(column.name + "." + ColumnCheckKindName(check.kind));
    }
  }
  for (const RowCheck& row : rules.rows)
    if (row.options.severity == Severity::kError) checks_.push_back(row.name);
}

std::shared_ptr<arrow::Schema> ResultBatchBuilder::Schema() {
  auto check = arrow::struct_({arrow::field("check", arrow::utf8()), arrow::field("violations", arrow::int64())});
  return arrow::schema({arrow::field("batch", arrow::int64()), arrow::field("first_row", arrow::int64()),
                        arrow::field("rows", arrow::int64()), arrow::field("bad_rows", arrow::list(arrow::int64())),
                        arrow::field("checks", arrow::list(check))});
}

Result<std::shared_ptr<arrow::RecordBatch>> ResultBatchBuilder::Build(int64_t batch, int64_t first_row, int64_t rows,
                                                                      const RowVerdicts* verdicts) const {
  std::unordered_map<std::string, int64_t> counts;
  if (verdicts != nullptr) {
    for (const RowError& error : verdicts->errors) ++counts[error.check];
  }
  auto pool = arrow::default_memory_pool();
  auto check_type = ResultBatchBuilder::Schema()->field(4)->type()->field(0)->type();
  arrow::Int64Builder batch_b(pool), first_b(pool), rows_b(pool);
  arrow::ListBuilder bad_b(pool, std::make_shared<arrow::Int64Builder>(pool));
  auto name_b = std::make_shared<arrow::StringBuilder>(pool);
  auto count_b = std::make_shared<arrow::Int64Builder>(pool);
  auto struct_b = std::make_shared<arrow::StructBuilder>(check_type, pool,
                                                         std::vector<std::shared_ptr<arrow::ArrayBuilder>>{name_b, count_b});
  arrow::ListBuilder checks_b(pool, struct_b);
  arrow::Status st = batch_b.Append(batch);
  st &= first_b.Append(first_row);
  st &= rows_b.Append(rows);
  st &= bad_b.Append();
  auto* bad_values = static_cast<arrow::Int64Builder*>(bad_b.value_builder());
  if (verdicts != nullptr) {
    for (int32_t row : verdicts->bad_rows) st &= bad_values->Append(verdicts->base_row + row);
  }
  st &= checks_b.Append();
  for (const std::string& check : checks_) {
    st &= struct_b->Append();
    st &= name_b->Append(check);
    auto found = counts.find(check);
    st &= count_b->Append(found == counts.end() ? 0 : found->second);
  }
  std::vector<std::shared_ptr<arrow::Array>> arrays(5);
  st &= batch_b.Finish(&arrays[0]);
  st &= first_b.Finish(&arrays[1]);
  st &= rows_b.Finish(&arrays[2]);
  st &= bad_b.Finish(&arrays[3]);
  st &= checks_b.Finish(&arrays[4]);
  if (!st.ok()) return Status::Internal("building a results batch: " + st.message());
  return arrow::RecordBatch::Make(Schema(), 1, std::move(arrays));
}

}  // namespace griffin::server
