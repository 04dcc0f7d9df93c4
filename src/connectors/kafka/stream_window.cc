#include "connectors/kafka/stream_window.h"

#include <algorithm>

#include "store/store_records.h"
#include "report/json_writer.h"

#ifndef GRIFFIN_VERSION
#define GRIFFIN_VERSION "0.0.0"
#endif

namespace griffin::kafka {
namespace {

double PassRate(int64_t evaluated, int64_t violations) {
  return evaluated == 0 ? 1.0 : static_cast<double>(evaluated - violations) / static_cast<double>(evaluated);
}

}  // namespace

void StreamWindow::Add(const Report& batch, const std::map<int32_t, std::pair<int64_t, int64_t>>& offsets) {
  if (batches_ == 0) {
    opened_ = std::chrono::steady_clock::now();
    started_at_ = IsoNow();
    merged_ = batch;
    merged_.violations.clear();
    merged_.checks.clear();
  }
  const int64_t base_row = batches_ == 0 ? 0 : merged_.rows;  // the batch's first row in the window
  for (ViolationReport violation : batch.violations) {
    violation.row += base_row;
    merged_.violations.push_back(std::move(violation));
  }
  if (batches_ > 0) {
    merged_.rows += batch.rows;
    merged_.bad_rows += batch.bad_rows;
    merged_.malformed_rows += batch.malformed_rows;
    merged_.elapsed_s += batch.elapsed_s;
    merged_.input_bytes += batch.input_bytes;
    merged_.violations_truncated = merged_.violations_truncated || batch.violations_truncated;
    for (const SchemaError& error : batch.schema_errors) {
      bool known = false;
      for (const SchemaError& seen : merged_.schema_errors) known = known || seen.message == error.message;
      if (!known) merged_.schema_errors.push_back(error);
    }
  }
  std::vector<CheckReport> checks;
  for (const CheckReport& check : batch.checks) {
    CheckReport summed = check;
    auto before = std::find_if(merged_.checks.begin(), merged_.checks.end(),
                               [&](const CheckReport& c) { return c.name == check.name; });
    if (!check.is_table && before != merged_.checks.end()) {
      summed.evaluated += before->evaluated;
      summed.violations += before->violations;
      summed.pass_rate = PassRate(summed.evaluated, summed.violations);
      summed.passed = summed.pass_rate >= summed.mostly;
    }
    checks.push_back(std::move(summed));
  }
  merged_.checks = std::move(checks);
  merged_.quality_score = merged_.rows == 0 ? 1.0
                                            : static_cast<double>(merged_.rows - merged_.bad_rows) /
                                                  static_cast<double>(merged_.rows);
  bool passed = merged_.schema_errors.empty();
  for (const CheckReport& check : merged_.checks) passed = passed && (check.severity != "error" || check.passed);
  if (merged_.score_min) passed = passed && merged_.quality_score >= *merged_.score_min;
  merged_.passed = passed;
  for (const auto& [partition, range] : offsets) {
    auto [it, fresh] = offsets_.emplace(partition, range);
    if (!fresh) it->second.second = range.second;
  }
  ++batches_;
}

int64_t StreamWindow::age_ms() const {
  if (batches_ == 0) return 0;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - opened_).count();
}

std::string StreamWindow::OffsetRanges() const {
  std::string text;
  for (const auto& [partition, range] : offsets_) {
    if (!text.empty()) text.push_back(' ');
    text.push_back('p');
    text.append(std::to_string(partition)).push_back(':');
    text.append(std::to_string(range.first)).push_back('-');
    text.append(std::to_string(range.second));
  }
  return text;
}

Status StreamWindow::Record(RunStore& store, const RuleSet& rules) {
  if (batches_ == 0) return Status::OK();
  Report report = merged_;
  report.run_id = NewRunId();
  report.inputs = {input_uri_};
  report.input_rows = {report.rows};
  BeginRunRequest begin{rules.dataset, report.run_id, started_at_, GRIFFIN_VERSION, rules.sha256, rules.text,
                        rules.path, "", "stream"};
  InputLineage input{input_uri_, -1, -1, OffsetRanges(), report.rows};
  batches_ = 0;
  offsets_.clear();
  ASSIGN_OR_RETURN(RunTicket ticket, store.BeginRun(begin));
  Status finished = store.FinishRun(ticket.run_id, MakeFinishRequest(report, ReportToJson(report), {input}, {}));
  if (!finished.ok()) (void)store.MarkRecordFailed(ticket.run_id, finished.message());
  return finished;
}

}  // namespace griffin::kafka
