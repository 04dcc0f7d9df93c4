#include "connectors/kafka/stream_window.h"

#include <algorithm>

#include "report/json_writer.h"
#include "store/store_records.h"

#ifndef GRIFFIN_VERSION
#define GRIFFIN_VERSION "0.0.0"
#endif

namespace griffin::kafka {
namespace {

double PassRate(int64_t evaluated, int64_t violations) {
  return evaluated == 0 ? 1.0 : static_cast<double>(evaluated - violations) / static_cast<double>(evaluated);
}

// Adds `batch`'s row-level counts to `sums` (the first batch is copied).
void SumRowLevel(const Report& batch, bool first, Report* sums) {
  if (first) {
    *sums = batch;
    sums->violations.clear();
    return;
  }
  sums->rows += batch.rows;
  sums->bad_rows += batch.bad_rows;
  sums->malformed_rows += batch.malformed_rows;
  sums->elapsed_s += batch.elapsed_s;
  sums->input_bytes += batch.input_bytes;
  for (const SchemaError& error : batch.schema_errors) {
    bool known = false;
    for (const SchemaError& seen : sums->schema_errors) known = known || seen.message == error.message;
    if (!known) sums->schema_errors.push_back(error);
  }
  for (const CheckReport& check : batch.checks) {
    if (check.is_table) continue;
    auto before = std::find_if(sums->checks.begin(), sums->checks.end(),
                               [&](const CheckReport& c) { return c.name == check.name && !c.is_table; });
    if (before == sums->checks.end()) {
      sums->checks.push_back(check);
      continue;
    }
    before->evaluated += check.evaluated;
    before->violations += check.violations;
    before->pass_rate = PassRate(before->evaluated, before->violations);
    before->passed = before->pass_rate >= before->mostly;
  }
}

}  // namespace

Status StreamWindow::Add(std::shared_ptr<const Plan> plan, const Report& batch, std::string_view state,
                         const std::map<int32_t, std::pair<int64_t, int64_t>>& offsets, int64_t messages) {
  if (!state_) state_ = std::make_unique<StateAccumulator>(plan, PartialState::UniqueScope::kPerPart);
  if (&state_->plan() != plan.get()) {
    return Status::InputError("a window holds one rule version: close it before the rules change");
  }
  RETURN_IF_ERROR(state_->Add(state, "micro-batch " + std::to_string(batches_ + 1) + " of the window"));
  if (batches_ == 0) {
    opened_ = std::chrono::steady_clock::now();
    started_at_ = IsoNow();
  }
  SumRowLevel(batch, batches_ == 0, &summed_);
  for (const auto& [partition, range] : offsets) {
    auto [it, fresh] = offsets_.emplace(partition, range);
    if (!fresh) it->second.second = range.second;
  }
  ++batches_;
  messages_ += messages;
  return Status::OK();
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

// The summed row-level report with the merged state's table checks and violations.
Report StreamWindow::Merged() {
  Report merged = summed_;
  Report whole = state_->Finish();
  merged.violations = std::move(whole.violations);
  merged.violations_truncated = whole.violations_truncated;
  for (CheckReport& check : merged.checks) {
    if (!check.is_table) continue;
    auto over_window = std::find_if(whole.checks.begin(), whole.checks.end(),
                                    [&](const CheckReport& c) { return c.name == check.name && c.is_table; });
    if (over_window != whole.checks.end()) check = *over_window;
  }
  merged.quality_score = merged.rows == 0 ? 1.0
                                          : static_cast<double>(merged.rows - merged.bad_rows) /
                                                static_cast<double>(merged.rows);
  bool passed = merged.schema_errors.empty();
  for (const CheckReport& check : merged.checks) passed = passed && (check.severity != "error" || check.passed);
  if (merged.score_min) passed = passed && merged.quality_score >= *merged.score_min;
  merged.passed = passed;
  return merged;
}

StreamWindow::Closed StreamWindow::Close(RunStore* store, const RuleSet& rules) {
  Closed closed{Merged(), Status::OK()};
  Report& report = closed.report;
  const std::string offsets = OffsetRanges(), started_at = started_at_;
  state_.reset();
  batches_ = messages_ = 0;
  offsets_.clear();
  if (store == nullptr) return closed;
  report.run_id = NewRunId();
  report.inputs = {input_uri_};
  report.input_rows = {report.rows};
  BeginRunRequest begin{rules.dataset, report.run_id, started_at, GRIFFIN_VERSION, rules.sha256, rules.text,
                        rules.path, "", "stream"};
  InputLineage input{input_uri_, -1, -1, offsets, report.rows};
  Result<RunTicket> ticket = store->BeginRun(begin);
  if (!ticket.ok()) {
    closed.recorded = ticket.status();
    return closed;
  }
  closed.recorded = store->FinishRun(ticket->run_id, MakeFinishRequest(report, ReportToJson(report), {input}, {}));
  if (!closed.recorded.ok()) (void)store->MarkRecordFailed(ticket->run_id, closed.recorded.message());
  return closed;
}

}  // namespace griffin::kafka
