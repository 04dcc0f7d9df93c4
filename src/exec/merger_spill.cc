// Merger's spilling (MergerOptions::memory_limit): how many bytes the unique and
// distinct states hold, spilling the largest to files while over the limit,
// deciding what spilled once the input ends (FinishSpills), and the repeat logs
// of two-pass runs (MergerOptions::log_unique_repeats, known_unique_repeats).
// merger.cc merges.
#include "exec/merger.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <future>

#include "exec/column_kernels.h"
#include "exec/open_addressing.h"
#include "exec/violation_messages.h"

namespace griffin {

int64_t Merger::UniqueStateBytes(size_t c, bool with_growth) const {
  const int64_t more = with_growth ? last_batch_rows_ : 0;
  if (unique_sets_[c]) return unique_sets_[c]->memory_bytes() + unique_sets_[c]->growth_peak_bytes(more);
  if (int_sets_[c]) return int_sets_[c]->memory_bytes() + int_sets_[c]->growth_peak_bytes(more);
  return 0;
}

int64_t Merger::DistinctStateBytes(size_t slot, bool with_growth) const {
  const auto& metrics = metrics_[slot];
  const int64_t more = with_growth ? last_batch_rows_ : 0;
  return metrics ? metrics->distinct_memory_bytes() + metrics->distinct_growth_peak_bytes(more) : 0;
}

int64_t Merger::StateBytes(bool with_growth) const {
  int64_t bytes = 0;
  for (size_t c = 0; c < unique_sets_.size(); ++c) bytes += UniqueStateBytes(c, with_growth);
  for (size_t slot = 0; slot < metrics_.size(); ++slot) bytes += DistinctStateBytes(slot, with_growth);
  return bytes;
}

int64_t Merger::FinishPartitionBytes() const {
  constexpr int64_t kAtLeast = int64_t{1} << 20;  // tiny test limits still read whole partitions
  return memory_limit_ > 0 ? std::max(memory_limit_ / 4, kAtLeast) : INT64_MAX;
}

Status Merger::SpillIfOverLimit() {
  for (const auto& spill : unique_spills_)
    if (spill) RETURN_IF_ERROR(spill->status());
  for (const auto& metrics : metrics_)
    if (metrics && metrics->distinct_spill()) RETURN_IF_ERROR(metrics->distinct_spill()->status());
  int64_t total = StateBytes();
  while (total > memory_limit_) {
    int64_t largest = 0;
    size_t check = SIZE_MAX, slot = SIZE_MAX;
    if (unique_may_spill_) {
      for (size_t c = 0; c < unique_sets_.size(); ++c) {
        const int64_t bytes = UniqueStateBytes(c);
        if (bytes > largest) largest = bytes, check = c;
      }
    }
    if (!keep_partial_) {
      for (size_t s = 0; s < metrics_.size(); ++s) {
        const int64_t bytes = DistinctStateBytes(s);
        if (bytes > largest) largest = bytes, slot = s, check = SIZE_MAX;
      }
    }
    if (largest == 0) {  // nothing left that may spill: warn once it holds more than the limit
      if (unique_over_limit_ == UniqueOverLimit::kStop && !unique_may_spill_) {
        int64_t unique_bytes = 0;
        for (size_t c = 0; c < unique_sets_.size(); ++c) unique_bytes += UniqueStateBytes(c);
        if (unique_bytes > 0)
          return Status::ResourceLimit("the unique state (" + std::to_string(unique_bytes) +
                                       " bytes with its next growth) would pass the memory limit (" +
                                       std::to_string(memory_limit_) + " bytes) where it cannot spill");
      }
      const int64_t held = StateBytes(/*with_growth=*/false);
      if (held > memory_limit_) unspillable_state_bytes_ = std::max(unspillable_state_bytes_, held);
      break;
    }
    ASSIGN_OR_RETURN(std::unique_ptr<KeySpill> files, KeySpill::Open(tmp_dir_));
    if (check != SIZE_MAX) SpillUnique(check, std::move(files));
    else metrics_[slot]->SpillDistinct(std::move(files));
    total = StateBytes();
  }
  return Status::OK();
}

void Merger::SpillUnique(size_t c, std::unique_ptr<KeySpill> files) {
  auto spill = std::make_unique<UniqueSpill>(std::move(files));
  if (int_sets_[c]) {
    int_sets_[c]->ForEach([&](uint64_t key, int64_t first) {
      spill->AddFirst(Mix64(key), std::string_view(reinterpret_cast<const char*>(&key), 8), first);
    });
    int_sets_[c].reset();
  } else {
    unique_sets_[c]->ForEach(
        [&](uint64_t hash, std::string_view key, int64_t first) { spill->AddFirst(hash, key, first); });
    unique_sets_[c].reset();
  }
  unique_spills_[c] = std::move(spill);
  if (spill_start_row_ < 0) spill_start_row_ = row_offset_ + rows_;
}

void Merger::RecordBadBits(const uint8_t* bad, int64_t rows) {
  bad_bits_.resize(static_cast<size_t>((bad_bits_rows_ + rows + 63) / 64), 0);
  for (int64_t r = 0; r < rows; ++r, ++bad_bits_rows_)
    if (bad[r]) bad_bits_[bad_bits_rows_ >> 6] |= uint64_t{1} << (bad_bits_rows_ & 63);
}

bool Merger::MarkBadAfterSpill(int64_t row) {
  const int64_t i = row - spill_start_row_;
  std::atomic_ref<uint64_t> word(bad_bits_[static_cast<size_t>(i >> 6)]);
  const uint64_t bit = uint64_t{1} << (i & 63);
  return (word.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
}

Status Merger::FinishSpills() {
  if (spills_finished_) return Status::OK();
  spills_finished_ = true;
  for (const auto& metrics : metrics_)
    if (metrics) RETURN_IF_ERROR(metrics->FinishDistinctSpill(FinishPartitionBytes()));
  // The spilled unique checks are decided at once, each on a thread of its
  // own (their files and sets are their own; a row found bad by two is
  // counted once through bad_bits_). Together they hold at most a quarter of
  // the limit each.
  struct Decided {
    size_t check;
    int64_t repeats = 0;  // written by its own thread only
    std::vector<SpilledRepeat> listed;
    Status status;
  };
  std::vector<std::unique_ptr<Decided>> decided;
  for (size_t c = 0; c < unique_spills_.size(); ++c) {
    if (!unique_spills_[c]) continue;
    decided.push_back(std::make_unique<Decided>());
    decided.back()->check = c;
  }
  std::atomic<int64_t> newly_bad{0};
  auto decide = [&](Decided& d) {
    const CheckInfo& info = plan_->checks()[d.check];
    const bool error = info.options.severity == Severity::kError;
    const size_t room = static_cast<size_t>(std::max<int64_t>(0, max_violations_ - listed_[d.check]));
    RepeatLog* log = repeat_logs_.empty() ? nullptr : repeat_logs_[d.check].get();
    d.status = unique_spills_[d.check]->Finish(
        room,
        [&](int64_t row, int64_t first_row) {
          ++d.repeats;
          if (log) log->Add(row, first_row);
          if (error && MarkBadAfterSpill(row)) newly_bad.fetch_add(1, std::memory_order_relaxed);
        },
        &d.listed, FinishPartitionBytes());
  };
  std::vector<std::future<void>> others;
  for (size_t i = 1; i < decided.size(); ++i)
    others.push_back(std::async(std::launch::async, [&decide, d = decided[i].get()] { decide(*d); }));
  if (!decided.empty()) decide(*decided[0]);
  for (std::future<void>& other : others) other.get();
  bad_rows_ += newly_bad.load();
  bool listed_more = false;
  for (const auto& d : decided) {  // in check order: the report does not depend on the threads
    RETURN_IF_ERROR(d->status);
    if (!repeat_logs_.empty() && repeat_logs_[d->check]) RETURN_IF_ERROR(repeat_logs_[d->check]->status());
    const size_t c = d->check;
    const CheckInfo& info = plan_->checks()[c];
    violations_[c] += d->repeats;
    listed_[c] += static_cast<int64_t>(d->listed.size());
    for (const SpilledRepeat& repeat : d->listed) {
      const ValueView value = repeat.View();
      ViolationReport v;
      v.row = repeat.row;
      v.column = info.column;
      v.check = info.name;
      v.value = ReportValue(value);
      v.message = ViolationMessage(*plan_, static_cast<int>(c), column_checks_[c], value, repeat.row, repeat.first_row);
      violations_list_.push_back(std::move(v));
      list_positions_.push_back(static_cast<int>(c));
      listed_more = true;
    }
  }
  if (listed_more) {  // back to the list's order: by row, then check position
    std::vector<size_t> order(violations_list_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const ViolationReport& x = violations_list_[a];
      const ViolationReport& y = violations_list_[b];
      return x.row != y.row ? x.row < y.row : list_positions_[a] < list_positions_[b];
    });
    std::vector<ViolationReport> sorted;
    std::vector<int> positions;
    sorted.reserve(order.size());
    for (size_t i : order) {
      sorted.push_back(std::move(violations_list_[i]));
      positions.push_back(list_positions_[i]);
    }
    violations_list_ = std::move(sorted);
    list_positions_ = std::move(positions);
  }
  return Status::OK();
}

void Merger::SetUpRepeatLogs(UniqueRepeatLogs known, bool log_repeats) {
  const size_t num_checks = plan_->checks().size();
  if (!known.empty()) {  // the second pass: no keys for the checks with a log
    repeats_known_ = true;
    repeat_logs_ = std::move(known);
    repeat_logs_.resize(num_checks);
    for (size_t c = 0; c < num_checks; ++c) {
      if (!repeat_logs_[c]) continue;
      if (!unique_sets_[c] && !int_sets_[c]) {
        repeat_log_status_ = Status::Internal("a repeat log for check " + plan_->checks()[c].name + ", not a unique check");
        break;
      }
      unique_sets_[c].reset();
      int_sets_[c].reset();
      if (repeat_log_status_.ok()) repeat_log_status_ = repeat_logs_[c]->StartReading();
    }
  } else if (log_repeats) {  // the first pass: every unique check logs its repeats
    repeat_logs_.resize(num_checks);
    for (size_t c = 0; c < num_checks && repeat_log_status_.ok(); ++c) {
      if (!unique_sets_[c] && !int_sets_[c]) continue;
      Result<std::unique_ptr<RepeatLog>> log = RepeatLog::Open(tmp_dir_);
      if (log.ok()) repeat_logs_[c] = std::move(*log);
      else repeat_log_status_ = log.status();
    }
  }
}

void Merger::SpillBatchKeys(size_t c, const BatchResult& result, int64_t base) {
  const UniqueKeys& keys = result.unique_keys[c];
  const int slot = check_slot_[c];
  const bool numeric = slot >= 0 && plan_->columns()[slot].type != ValueType::kString;
  UniqueSpill* spill = unique_spills_[c].get();
  const TypedColumn* column = slot >= 0 ? &result.columns[slot] : nullptr;
  char scratch[8];
  for (size_t k = 0; k < keys.rows.size(); ++k) {
    const int32_t row = keys.rows[k];
    const ValueView value = slot >= 0 ? ViewValue(*result.batch, result.input_column[slot], row) : ValueView::Null();
    if (numeric) {
      const uint64_t key = NumericKey(*column, row);
      spill->Add(Mix64(key), std::string_view(reinterpret_cast<const char*>(&key), 8), base + row, value);
    } else {
      spill->Add(keys.hashes[k], column ? ValueKey(*column, row, scratch) : std::string_view(keys.keys[k]),
                 base + row, value);
    }
  }
}

Status Merger::TakeKnownRepeats(size_t c, BatchResult& result, int64_t base, std::vector<int64_t>* firsts) {
  CheckBatchResult& check = result.checks[c];
  const bool error = plan_->checks()[c].options.severity == Severity::kError;
  RETURN_IF_ERROR(repeat_logs_[c]->TakeBefore(base + result.batch->num_rows, &known_scratch_));
  for (const LoggedRepeat& repeat : known_scratch_) {
    const int64_t row = repeat.row - base;
    if (row < 0) return Status::Internal("a repeat log's row " + std::to_string(repeat.row) + " before its batch");
    check.rows.push_back(static_cast<int32_t>(row));
    firsts->push_back(repeat.first_row);
    if (error) result.bad[row] = 1;
  }
  check.violations = static_cast<int64_t>(check.rows.size());
  return Status::OK();
}

Result<UniqueRepeatLogs> Merger::TakeRepeatLogs() {
  if (!spills_finished_) return Status::Internal("Merger::TakeRepeatLogs before FinishSpills");
  RETURN_IF_ERROR(repeat_log_status_);
  for (const auto& log : repeat_logs_)
    if (log) RETURN_IF_ERROR(log->status());
  return std::move(repeat_logs_);
}

}  // namespace griffin
