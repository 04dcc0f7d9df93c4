#include "exec/merger.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "exec/column_kernels.h"
#include "exec/check_report.h"
#include "exec/input_schema.h"
#include "exec/open_addressing.h"
#include "exec/violation_messages.h"
#include "util/value_parse.h"

namespace griffin {

std::string PartialKey(uint64_t hash, std::string_view key) {
  std::string out(reinterpret_cast<const char*>(&hash), 8);
  out.append(key);
  return out;
}

namespace {

MetricNeeds NeedsOf(TableMetric metric) {
  MetricNeeds needs;
  switch (metric) {
    case TableMetric::kMean: case TableMetric::kSum: needs.moments = true; break;
    case TableMetric::kStddev: needs.moments = needs.spread = true; break;
    case TableMetric::kMin: case TableMetric::kMax: needs.extremes = true; break;
    case TableMetric::kDistinctCount: needs.distinct = true; break;
    case TableMetric::kQuantile: needs.quantiles = true; break;
    default: break;
  }
  return needs;
}

}  // namespace

Merger::Merger(std::shared_ptr<const Plan> plan, MergerOptions options, RowConsumer row_consumer)
    : plan_(std::move(plan)),
      max_violations_(options.max_violations),
      prior_unique_(options.prior_unique),
      schema_errors_(std::move(options.known_schema_errors)),
      row_consumer_(std::move(row_consumer)),
      row_offset_(options.row_offset),
      keep_partial_(options.keep_partial_state),
      memory_limit_(options.memory_limit),
      tmp_dir_(std::move(options.tmp_dir)),
      unique_over_limit_(options.unique_over_limit) {
  unique_may_spill_ = memory_limit_ > 0 && !row_consumer_ && prior_unique_ == nullptr && !keep_partial_;
  const size_t num_checks = plan_->checks().size();
  evaluated_.assign(num_checks, 0);
  violations_.assign(num_checks, 0);
  listed_.assign(num_checks, 0);
  unique_sets_.resize(num_checks);
  int_sets_.resize(num_checks);
  unique_spills_.resize(num_checks);
  column_checks_.assign(num_checks, nullptr);
  check_slot_.assign(num_checks, -1);
  const auto& columns = plan_->columns();
  for (size_t slot = 0; slot < columns.size(); ++slot) {
    for (const CompiledColumnCheck& check : columns[slot].checks) {
      column_checks_[check.check_index] = &check;
      check_slot_[check.check_index] = static_cast<int>(slot);
      if (check.kind != ColumnCheckKind::kUnique) continue;
      if (columns[slot].type == ValueType::kString) unique_sets_[check.check_index] = std::make_unique<UniqueSet>();
      else int_sets_[check.check_index] = std::make_unique<IntKeySet>();
    }
  }
  for (const RowPlan& row : plan_->rows())
    if (row.rule->kind == RowCheck::Kind::kUnique) unique_sets_[row.check_index] = std::make_unique<UniqueSet>();
  SetUpRepeatLogs(std::move(options.known_unique_repeats), options.log_unique_repeats);
  std::vector<MetricNeeds> needs(columns.size());
  for (const TablePlan& table : plan_->table()) {
    if (table.column_slot < 0) continue;
    MetricNeeds add = NeedsOf(table.rule->metric);
    MetricNeeds& n = needs[table.column_slot];
    n.moments |= add.moments; n.spread |= add.spread; n.extremes |= add.extremes; n.distinct |= add.distinct; n.quantiles |= add.quantiles;
  }
  metrics_.resize(columns.size());
  for (const TablePlan& table : plan_->table()) {
    if (table.column_slot < 0 || metrics_[table.column_slot]) continue;
    metrics_[table.column_slot] = std::make_unique<ColumnMetrics>(columns[table.column_slot].type,
                                                                  needs[table.column_slot]);
  }
}

void Merger::ReserveForRows(int64_t expected_rows) {
  constexpr int64_t kMaxReserve = int64_t{1} << 26;
  expected_rows = std::min(expected_rows, kMaxReserve);
  if (memory_limit_ > 0) {  // tables of half the limit at most, all together (16-byte slots, load 3/4)
    int64_t sets = 0;
    for (size_t c = 0; c < unique_sets_.size(); ++c) sets += unique_sets_[c] || int_sets_[c];
    for (auto& metrics : metrics_) sets += metrics && metrics->has_exact_distinct();
    expected_rows = std::min(expected_rows, memory_limit_ / 2 / 16 * 3 / 4 / std::max<int64_t>(1, sets));
  }
  // Keys so far, scaled from the rows merged so far to the expected rows.
  // Tables past 16 MiB are backed by huge pages (BlockCache::AllocateTable),
  // so a table sized for every row would be resident almost everywhere even
  // for a column of a few hundred values.
  auto keys_for = [&](int64_t keys_so_far) {
    if (rows_ <= 0) return expected_rows;
    const __int128 scaled = static_cast<__int128>(keys_so_far) * expected_rows / rows_;
    return static_cast<int64_t>(std::min<__int128>(expected_rows, scaled));
  };
  for (auto& set : unique_sets_)
    if (set) set->Reserve(keys_for(set->size()));
  for (auto& set : int_sets_)
    if (set) set->Reserve(keys_for(set->size()));
  for (auto& metrics : metrics_)
    if (metrics) metrics->ReserveDistinct(keys_for(metrics->distinct()));
}

Status Merger::MergeUnique(BatchResult& result, int64_t base, std::vector<std::vector<int64_t>>* first_rows,
                           std::vector<int32_t>* new_firsts) {
  constexpr size_t kPrefetchDistance = 8;  // slots are random: fetch ahead
  RETURN_IF_ERROR(repeat_log_status_);
  if (keep_partial_) batch_dup_keys_.assign(unique_sets_.size(), {});
  for (size_t c = 0; c < unique_sets_.size(); ++c) {
    const bool known = repeats_known_ && repeat_logs_[c];
    if (!unique_sets_[c] && !int_sets_[c] && !unique_spills_[c] && !known) continue;
    const UniqueKeys& keys = result.unique_keys[c];
    CheckBatchResult& check = result.checks[c];
    check.rows.clear();
    if (known) {
      RETURN_IF_ERROR(TakeKnownRepeats(c, result, base, &(*first_rows)[c]));
      continue;
    }
    RepeatLog* log = repeats_known_ ? nullptr : (repeat_logs_.empty() ? nullptr : repeat_logs_[c].get());
    if (unique_spills_[c]) {  // decided by FinishSpills
      SpillBatchKeys(c, result, base);
      check.violations = 0;
      continue;
    }
    auto& firsts = (*first_rows)[c];
    const bool error = plan_->checks()[c].options.severity == Severity::kError;
    const size_t count = keys.rows.size();
    const size_t room = static_cast<size_t>(std::max<int64_t>(0, max_violations_ - listed_[c]));
    // The occurrence keys.rows[k] repeats the one at input row `first` (>= 0).
    auto repeats = [&](size_t k, int64_t first, uint64_t hash, std::string_view key) {
      if (log) log->Add(base + keys.rows[k], first);
      if (keep_partial_ && check.rows.size() < room) batch_dup_keys_[c].push_back(PartialKey(hash, key));
      check.rows.push_back(keys.rows[k]);
      firsts.push_back(first);
      if (error) result.bad[keys.rows[k]] = 1;
    };
    auto first_seen = [&](size_t k) {
      if (keep_partial_ && error) new_firsts->push_back(keys.rows[k]);
    };
    // A key new to this run: a duplicate still when an earlier run saw it.
    const std::string_view check_name = plan_->checks()[c].name;
    auto first_in_run = [&](size_t k, std::string_view key) {
      if (prior_unique_->Seen(check_name, key)) {
        repeats(k, kFirstRowInEarlierRun, 0, {});
      } else {
        prior_unique_->Add(check_name, key);
        first_seen(k);
      }
    };
    if (int_sets_[c]) {  // a numeric column: the keys are its values
      IntKeySet& set = *int_sets_[c];
      const TypedColumn& column = result.columns[check_slot_[c]];
      if (set.size() == 0 && count > 0 && !keep_partial_) {  // narrow ranges (ids 1..n) go dense
        uint64_t low = UINT64_MAX, high = 0;
        for (size_t k = 0; k < count; ++k) {
          const uint64_t numeric_key = NumericKey(column, keys.rows[k]);
          low = std::min(low, numeric_key);
          high = std::max(high, numeric_key);
        }
        set.HintRange(low, high, static_cast<int64_t>(count));
      }
      set.Reserve(set.size() + static_cast<int64_t>(count));  // at most one rehash per batch
      for (size_t k = 0; k < count; ++k) {
        if (k + kPrefetchDistance < count) set.Prefetch(NumericKey(column, keys.rows[k + kPrefetchDistance]));
        const uint64_t numeric_key = NumericKey(column, keys.rows[k]);
        const int64_t first = set.InsertOrFind(numeric_key, base + keys.rows[k]);
        if (first >= 0) {
          repeats(k, first, numeric_key, {});
        } else if (prior_unique_ != nullptr) {
          first_in_run(k, std::string_view(reinterpret_cast<const char*>(&numeric_key), sizeof(numeric_key)));
        } else {
          first_seen(k);
        }
      }
    } else {
      UniqueSet& set = *unique_sets_[c];
      // A string column's keys are its values; a row tuple's were built.
      const TypedColumn* column = check_slot_[c] >= 0 ? &result.columns[check_slot_[c]] : nullptr;
      char scratch[8];
      set.Reserve(set.size() + static_cast<int64_t>(count));
      for (size_t k = 0; k < count; ++k) {
        if (k + kPrefetchDistance < count) set.Prefetch(keys.hashes[k + kPrefetchDistance]);
        const std::string_view key = column ? ValueKey(*column, keys.rows[k], scratch) : keys.keys[k];
        const int64_t first = set.InsertOrFind(keys.hashes[k], key, base + keys.rows[k]);
        if (first >= 0) {
          repeats(k, first, keys.hashes[k], key);
        } else if (prior_unique_ != nullptr) {
          first_in_run(k, key);
        } else {
          first_seen(k);
        }
      }
    }
    check.violations = static_cast<int64_t>(check.rows.size());
    if (log) RETURN_IF_ERROR(log->status());
  }
  return Status::OK();
}

void Merger::AddSchemaProblems(const BatchResult& result) {
  for (const SchemaProblem& problem : result.schema_problems) {
    bool seen = false;
    for (const SchemaError& e : schema_errors_) seen = seen || (e.column == problem.column && e.message == problem.message);
    if (!seen) schema_errors_.push_back({problem.column, problem.message});
  }
}

Status Merger::Merge(BatchResult& result) {
  const Batch& batch = *result.batch;
  const int64_t base = row_offset_ + rows_;
  // Only text inputs keep raw records (and have malformed ones).
  if (!batch.raw_records.empty() || !batch.malformed_records.empty()) saw_text_batch_ = true;
  AddSchemaProblems(result);
  if (schema_errors_.empty()) rows_before_schema_error_ += batch.num_rows;
  std::vector<std::vector<int64_t>> first_rows(plan_->checks().size());
  std::vector<int32_t> new_firsts;
  RETURN_IF_ERROR(MergeUnique(result, base, &first_rows, &new_firsts));
  // A schema error makes every row bad (rules-v1, amended 2026-12-03).
  if (!schema_errors_.empty()) std::fill(result.bad.begin(), result.bad.end(), uint8_t{1});
  for (int32_t row : new_firsts)
    if (!result.bad[row]) good_firsts_.push_back(base + row);
  // The listed violations first: the row verdicts reuse their messages.
  std::vector<std::vector<int32_t>> listed(plan_->checks().size());
  CollectViolations(result, base, first_rows, &listed);
  if (row_consumer_) RETURN_IF_ERROR(EmitRowVerdicts(result, base, first_rows, listed));
  if (result.table_profile) {
    if (!table_profile_) table_profile_ = std::make_shared<TableProfile>();
    table_profile_->Merge(*result.table_profile);
  }
  if (!result.profiles.empty()) {
    profiles_.resize(result.profiles.size());
    const uint8_t* malformed = batch.malformed.empty() ? nullptr : batch.malformed.data();
    for (size_t slot = 0; slot < profiles_.size(); ++slot)
      profiles_[slot].Merge(result.profiles[slot], result.columns[slot], malformed);
  }
  if (input_rows_.size() <= static_cast<size_t>(batch.input_index)) input_rows_.resize(batch.input_index + 1, 0);
  if (input_schemas_.size() <= static_cast<size_t>(batch.input_index)) input_schemas_.resize(batch.input_index + 1);
  if (input_schemas_[batch.input_index].empty()) input_schemas_[batch.input_index] = InputSchemaJson(batch);
  input_rows_[batch.input_index] += batch.num_rows;

  if (!batch.column_seen.empty()) {
    std::vector<uint8_t>& seen = json_columns_seen_[batch.input_index];
    seen.resize(plan_->columns().size(), 0);
    for (size_t slot = 0; slot < seen.size(); ++slot) {
      int index = result.input_column[slot];
      if (index >= 0 && static_cast<size_t>(index) < batch.column_seen.size() && batch.column_seen[index])
        seen[slot] = 1;
    }
  }
  const uint8_t* malformed = batch.malformed.empty() ? nullptr : batch.malformed.data();
  for (size_t slot = 0; slot < metrics_.size(); ++slot)
    if (metrics_[slot] && result.columns[slot].present) metrics_[slot]->AddBatch(result.columns[slot], malformed);

  for (size_t c = 0; c < result.checks.size(); ++c) {
    evaluated_[c] += result.checks[c].evaluated;
    violations_[c] += result.checks[c].violations;
  }
  malformed_rows_ += static_cast<int64_t>(batch.malformed_records.size());
  int64_t bad_rows = 0;  // a local sum: the compiler vectorizes it (a member could alias the bytes)
  for (int64_t r = 0; r < batch.num_rows; ++r) bad_rows += result.bad[r];
  bad_rows_ += bad_rows;
  rows_ += batch.num_rows;
  last_batch_rows_ = batch.num_rows;
  if (memory_limit_ <= 0) return Status::OK();
  if (spill_start_row_ >= 0) RecordBadBits(result.bad.data(), batch.num_rows);
  return SpillIfOverLimit();
}

Status Merger::EmitRowVerdicts(const BatchResult& result, int64_t base,
                               const std::vector<std::vector<int64_t>>& first_rows,
                               const std::vector<std::vector<int32_t>>& listed) {
  const Batch& batch = *result.batch;
  // Every error-severity violation of the batch, ordered by (row, check
  // position): a counting sort on the row, filled malformed first and then in
  // check order, so each row's entries come out in position order.
  struct Entry {
    int32_t row;
    int position;   // check index; -1 malformed
    size_t ordinal; // index into that check's row list (or malformed_records)
  };
  size_t total = batch.malformed_records.size();
  for (size_t c = 0; c < result.checks.size(); ++c)
    if (plan_->checks()[c].options.severity == Severity::kError) total += result.checks[c].rows.size();
  std::vector<uint32_t> cursor(total == 0 ? 0 : static_cast<size_t>(batch.num_rows) + 1, 0);
  if (total > 0) {
    for (const MalformedRecord& record : batch.malformed_records) ++cursor[record.row_in_batch + 1];
    for (size_t c = 0; c < result.checks.size(); ++c) {
      if (plan_->checks()[c].options.severity != Severity::kError) continue;
      for (int32_t r : result.checks[c].rows) ++cursor[r + 1];
    }
    for (size_t r = 1; r < cursor.size(); ++r) cursor[r] += cursor[r - 1];
  }
  std::vector<Entry> entries(total);
  for (size_t i = 0; i < batch.malformed_records.size(); ++i) {
    const int32_t r = static_cast<int32_t>(batch.malformed_records[i].row_in_batch);
    entries[cursor[r]++] = {r, -1, i};
  }
  for (size_t c = 0; c < result.checks.size(); ++c) {
    if (plan_->checks()[c].options.severity != Severity::kError) continue;
    const auto& rows = result.checks[c].rows;
    for (size_t i = 0; i < rows.size(); ++i) entries[cursor[rows[i]]++] = {rows[i], static_cast<int>(c), i};
  }
  RowVerdicts verdicts;
  verdicts.batch = &batch;
  verdicts.batch_owner = result.batch;
  verdicts.base_row = base;
  verdicts.bad = result.bad.data();
  verdicts.columns = &result.columns;
  verdicts.error_offsets.push_back(0);
  auto open_row = [&](int32_t row) {
    if (!verdicts.bad_rows.empty()) verdicts.error_offsets.push_back(static_cast<uint32_t>(verdicts.errors.size()));
    verdicts.bad_rows.push_back(row);
  };
  auto append = [&](const Entry& entry) {
    if (entry.position < 0) {
      verdicts.errors.push_back({kMalformedCheckName, batch.malformed_records[entry.ordinal].reason});
      return;
    }
    const CheckInfo& info = plan_->checks()[entry.position];
    const std::vector<int32_t>& listed_here = listed[entry.position];
    if (entry.ordinal < listed_here.size() && listed_here[entry.ordinal] >= 0) {  // formatted for the list
      verdicts.errors.push_back({info.name, violations_list_[listed_here[entry.ordinal]].message});
      return;
    }
    const int slot = check_slot_[entry.position];
    const ValueView value = slot >= 0 ? ViewValue(batch, result.input_column[slot], entry.row) : ValueView::Null();
    const int64_t first = first_rows[entry.position].empty() ? -1 : first_rows[entry.position][entry.ordinal];
    verdicts.errors.push_back(
        {info.name, ViolationMessage(*plan_, entry.position, column_checks_[entry.position], value, base + entry.row, first)});
  };
  if (schema_errors_.empty()) {
    verdicts.errors.reserve(entries.size());
    for (const Entry& entry : entries) {
      if (verdicts.bad_rows.empty() || verdicts.bad_rows.back() != entry.row) open_row(entry.row);
      append(entry);
    }
  } else {
    // Every row is bad: its malformed entry, then the schema errors (they
    // are why the row cannot be trusted), then its check violations.
    verdicts.errors.reserve(entries.size() + static_cast<size_t>(batch.num_rows) * schema_errors_.size());
    size_t e = 0;
    for (int32_t row = 0; row < batch.num_rows; ++row) {
      open_row(row);
      for (; e < entries.size() && entries[e].row == row && entries[e].position < 0; ++e) append(entries[e]);
      for (const SchemaError& error : schema_errors_) verdicts.errors.push_back({kSchemaCheckName, error.message});
      for (; e < entries.size() && entries[e].row == row; ++e) append(entries[e]);
    }
  }
  verdicts.error_offsets.push_back(static_cast<uint32_t>(verdicts.errors.size()));
  return row_consumer_(verdicts);
}

std::vector<ColumnSummary> Merger::ColumnSummaries() const {
  std::vector<ColumnSummary> summaries;
  for (size_t slot = 0; slot < profiles_.size(); ++slot) {
    const ColumnPlan& column = plan_->columns()[slot];
    if (!column.declared) continue;
    const ColumnProfile& profile = profiles_[slot];
    ColumnSummary summary;
    summary.column = column.name;
    summary.count = profile.count();
    summary.nulls = profile.nulls();
    summary.min = profile.MinText();
    summary.max = profile.MaxText();
    summary.mean = profile.mean();
    summary.stddev = profile.stddev();
    summary.distinct = profile.distinct();
    summary.distinct_exact = profile.distinct_exact();
    if (metrics_[slot] && metrics_[slot]->has_exact_distinct()) {  // a distinct_count check counted exactly
      summary.distinct = metrics_[slot]->distinct();
      summary.distinct_exact = true;
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

void Merger::CollectViolations(const BatchResult& result, int64_t base,
                               const std::vector<std::vector<int64_t>>& first_rows,
                               std::vector<std::vector<int32_t>>* listed) {
  const Batch& batch = *result.batch;
  // The first violations of each check, up to its room: batches come in row
  // order, so the list stays ordered by row once each batch's part is sorted.
  auto room = [&](int64_t listed) { return static_cast<size_t>(std::max<int64_t>(0, max_violations_ - listed)); };
  std::vector<PendingViolation> pending;
  const size_t malformed_room = room(listed_malformed_);
  for (size_t i = 0; i < batch.malformed_records.size() && i < malformed_room; ++i) {
    int32_t r = static_cast<int32_t>(batch.malformed_records[i].row_in_batch);
    pending.push_back({base + r, -1, -1, r, i});
  }
  listed_malformed_ += static_cast<int64_t>(std::min(malformed_room, batch.malformed_records.size()));
  for (size_t c = 0; c < result.checks.size(); ++c) {
    const auto& rows = result.checks[c].rows;
    const size_t check_room = room(listed_[c]);
    for (size_t i = 0; i < rows.size() && i < check_room; ++i) {
      int64_t first = first_rows[c].empty() ? -1 : first_rows[c][i];
      pending.push_back({base + rows[i], static_cast<int>(c), first, rows[i], i});
    }
    listed_[c] += static_cast<int64_t>(std::min(check_room, rows.size()));
  }
  std::sort(pending.begin(), pending.end(), [](const PendingViolation& a, const PendingViolation& b) {
    return a.row != b.row ? a.row < b.row : a.position < b.position;
  });
  for (const PendingViolation& p : pending) {
    ViolationReport v;
    v.row = p.row;
    if (p.position < 0) {
      const MalformedRecord& record = batch.malformed_records[p.ordinal];
      v.check = kMalformedCheckName;
      v.value = JsonScalar::String(CutText(record.raw));
      v.message = CutText(record.reason);
    } else {
      const CheckInfo& info = plan_->checks()[p.position];
      v.column = info.column;
      v.check = info.name;
      int slot = check_slot_[p.position];
      const ValueView value = slot >= 0 ? ViewValue(batch, result.input_column[slot], p.batch_row) : ValueView::Null();
      v.value = ReportValue(value);
      v.message = ViolationMessage(*plan_, p.position, column_checks_[p.position], value, p.row, p.first_row);
      std::vector<int32_t>& here = (*listed)[p.position];
      if (here.size() <= p.ordinal) here.resize(p.ordinal + 1, -1);
      here[p.ordinal] = static_cast<int32_t>(violations_list_.size());
    }
    violations_list_.push_back(std::move(v));
    if (unique_may_spill_) list_positions_.push_back(p.position);
    if (keep_partial_) {
      violation_positions_.push_back(p.position);
      const bool has_key = p.position >= 0 && p.ordinal < batch_dup_keys_[p.position].size();
      violation_keys_.push_back(has_key ? std::move(batch_dup_keys_[p.position][p.ordinal]) : std::string());
    }
  }
}

CheckReport Merger::TableCheckReport(const TablePlan& table) const {
  const TableCheck& rule = *table.rule;
  // observed: a number (double or integer) or, for date/timestamp extremes, an ISO string.
  std::optional<double> observed;
  std::optional<int64_t> observed_int;   // exact integer observations
  ValueType type = ValueType::kFloat64;
  const ColumnMetrics* metrics = table.column_slot >= 0 ? metrics_[table.column_slot].get() : nullptr;
  if (metrics) type = metrics->type();
  const bool float_column = type == ValueType::kFloat64;
  switch (rule.metric) {
    case TableMetric::kRowCount: observed_int = rows_; break;
    case TableMetric::kNullFraction: {
      int64_t total = metrics->count() + metrics->nulls();
      if (total > 0) observed = static_cast<double>(metrics->nulls()) / static_cast<double>(total);
      break;
    }
    case TableMetric::kDistinctCount: observed_int = metrics->distinct(); break;
    case TableMetric::kMean: observed = metrics->mean(); break;
    case TableMetric::kStddev: observed = metrics->stddev(); break;
    case TableMetric::kSum:
      if (float_column) observed = metrics->sum();
      else observed = metrics->sum();
      break;
    case TableMetric::kMin: case TableMetric::kMax: case TableMetric::kQuantile: {
      const bool is_min = rule.metric == TableMetric::kMin;
      if (float_column) {
        observed = rule.metric == TableMetric::kQuantile ? metrics->quantile_float(rule.q)
                   : is_min ? metrics->min_float() : metrics->max_float();
      } else {
        observed_int = rule.metric == TableMetric::kQuantile ? metrics->quantile_int(rule.q)
                       : is_min ? metrics->min_int() : metrics->max_int();
      }
      break;
    }
  }
  TableObservation observation;
  observation.type = type;
  observation.value = observed;
  observation.int_value = observed_int;
  return JudgeTableCheck(*plan_, table, observation);
}

CheckReport Merger::MalformedCheckReport() const {
  CheckReport check;
  check.name = kMalformedCheckName;
  check.check = kMalformedCheckName;
  check.severity = SeverityName(Severity::kError);
  check.evaluated = rows_;
  check.violations = malformed_rows_;
  check.pass_rate = rows_ == 0 ? 1.0 : static_cast<double>(rows_ - malformed_rows_) / static_cast<double>(rows_);
  check.mostly = plan_->rules().source.malformed_mostly;
  check.passed = check.pass_rate >= check.mostly;
  return check;
}

Report Merger::Finish(bool text_input) {
  const bool schema_error_before_finish = !schema_errors_.empty();
  for (const auto& [input_index, seen] : json_columns_seen_) {
    for (size_t slot = 0; slot < seen.size(); ++slot) {
      const ColumnPlan& column = plan_->columns()[slot];
      if (seen[slot] || !column.required) continue;
      std::string message = "required column '" + column.name + "' appears in no line of input " +
                            std::to_string(input_index + 1);
      bool duplicate = false;
      for (const SchemaError& e : schema_errors_) duplicate = duplicate || e.message == message;
      if (!duplicate) schema_errors_.push_back({column.name, message});
    }
  }
  if (!schema_error_before_finish) rows_before_schema_error_ = rows_;  // found only now (or never)
  // A schema error makes every row bad (rules-v1, amended 2026-12-03).
  const bool schema_failed = !schema_errors_.empty();
  Report report;
  report.dataset = plan_->rules().dataset;
  report.rules_sha256 = plan_->rules().sha256;
  report.rows = rows_;
  report.bad_rows = schema_failed ? rows_ : bad_rows_;
  report.malformed_rows = malformed_rows_;
  report.quality_score = schema_failed ? 0.0
                         : rows_ == 0  ? 1.0
                                       : static_cast<double>(rows_ - bad_rows_) / static_cast<double>(rows_);
  report.score_min = plan_->rules().score_min;
  report.schema_errors = schema_errors_;
  report.rows_before_schema_error = schema_failed ? rows_before_schema_error_ : 0;
  report.violations = std::move(violations_list_);
  report.violations_truncated = malformed_rows_ > max_violations_;
  for (int64_t count : violations_) report.violations_truncated = report.violations_truncated || count > max_violations_;
  std::vector<const TablePlan*> table_by_check(plan_->checks().size(), nullptr);
  for (const TablePlan& table : plan_->table()) table_by_check[table.check_index] = &table;
  std::vector<uint8_t> history_check(plan_->checks().size(), 0);
  for (const HistoryPlan& history : plan_->history()) history_check[history.check_index] = 1;
  bool passed = !schema_failed;
  if (text_input || saw_text_batch_) {  // rules-v1: the `malformed` check comes first
    report.checks.push_back(MalformedCheckReport());
    passed = passed && report.checks.back().passed;
  }
  for (size_t c = 0; c < plan_->checks().size(); ++c) {
    const CheckInfo& info = plan_->checks()[c];
    CheckReport check;
    if (table_by_check[c]) {
      check = TableCheckReport(*table_by_check[c]);
    } else if (history_check[c]) {
      check = NotEvaluatedHistoryReport(info);
    } else {
      check = CountedCheckReport(info, evaluated_[c], violations_[c]);
    }
    if (info.options.severity == Severity::kError && !check.passed) passed = false;
    report.checks.push_back(std::move(check));
  }
  if (report.score_min && report.quality_score < *report.score_min) passed = false;
  report.passed = passed;
  report.column_summaries = ColumnSummaries();
  report.profile = table_profile_;
  report.input_rows = input_rows_;
  report.input_schemas = input_schemas_;
  SpillSummary spill;
  bool spilled = false;
  for (size_t c = 0; c < unique_spills_.size(); ++c) {
    if (!unique_spills_[c]) continue;
    spilled = true;
    spill.bytes += unique_spills_[c]->bytes();
    spill.checks.push_back(plan_->checks()[c].name);
  }
  for (size_t slot = 0; slot < metrics_.size(); ++slot) {
    if (!metrics_[slot] || !metrics_[slot]->distinct_spill()) continue;
    spilled = true;
    spill.bytes += metrics_[slot]->distinct_spill()->bytes();
    for (const TablePlan& table : plan_->table())
      if (table.column_slot == static_cast<int>(slot) && table.rule->metric == TableMetric::kDistinctCount)
        spill.checks.push_back(plan_->checks()[table.check_index].name);
  }
  if (spilled) report.spill = std::move(spill);
  report.unspillable_state_bytes = unspillable_state_bytes_;
  return report;
}

}  // namespace griffin
