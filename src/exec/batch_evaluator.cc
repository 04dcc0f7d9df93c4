#include "exec/batch_evaluator.h"

#include <cstring>

#include <xxhash.h>

#include "exec/column_converter.h"
#include "exec/column_kernels.h"

namespace griffin {
namespace {

// The schema key of a batch: text batches share one binding; typed batches
// are keyed by the Arrow types of their columns.
std::string SchemaKey(const Batch& batch) {
  std::string key;
  for (const BatchColumn& column : batch.columns) {
    if (!column.array) continue;
    key += column.name;
    key += '\x1f';
    key += column.array->type()->ToString();
    key += '\x1e';
  }
  return key;
}

void AppendTupleKey(const TypedColumn& column, int64_t row, std::string* out) {
  out->push_back(static_cast<char>(column.type));
  if (column.type == ValueType::kString) {
    uint32_t length = static_cast<uint32_t>(column.strings[row].size());
    out->append(reinterpret_cast<const char*>(&length), 4);
  }
  AppendValueKey(column, row, out);
}

}  // namespace

BatchEvaluator::BatchEvaluator(std::shared_ptr<const Plan> plan, bool profile_columns, TableProfiling table_profiling,
                               BatchResultPool* pool)
    : plan_(std::move(plan)), profile_columns_(profile_columns), pool_(pool) {
  if (table_profiling == TableProfiling::kDeclaredColumns) {
    for (const ColumnRule& column : plan_->rules().columns) profiled_names_.push_back(column.name);
  } else if (table_profiling == TableProfiling::kDriftColumns) {
    for (const HistoryPlan& history : plan_->history())
      if (history.drift_column != nullptr) profiled_names_.push_back(history.drift_column->name);
  }
}

Result<std::shared_ptr<const BatchEvaluator::Binding>> BatchEvaluator::Bind(const Batch& batch) const {
  std::string key = SchemaKey(batch);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = bindings_.find(key);
    if (it != bindings_.end()) return it->second;
  }
  ASSIGN_OR_RETURN(auto binding, CompileBinding(batch));
  std::lock_guard<std::mutex> lock(mutex_);
  bindings_.emplace(key, binding);
  return binding;
}

Result<std::shared_ptr<const BatchEvaluator::Binding>> BatchEvaluator::CompileBinding(const Batch& batch) const {
  auto binding = std::make_shared<Binding>();
  const auto& columns = plan_->columns();
  for (const ColumnPlan& column : columns) {
    ValueType type = column.type;
    if (!column.declared) {
      int index = batch.FindColumn(column.name);
      if (index >= 0 && batch.columns[index].array) {
        auto natural = NaturalValueType(*batch.columns[index].array->type());
        if (natural) type = *natural;
      }
    }
    binding->slot_types.push_back(type);
  }
  for (const RowPlan& row : plan_->rows()) {
    if (row.rule->kind != RowCheck::Kind::kExpr) {
      binding->programs.emplace_back();
      binding->program_slots.emplace_back();
      continue;
    }
    std::vector<int> slots;
    ExprColumnResolver resolver = [&](const std::string& name) -> std::optional<ExprColumnInfo> {
      int slot = plan_->FindColumn(name);
      if (slot < 0) return std::nullopt;
      // A column neither declared nor in the input is unknown (a rule error).
      if (!columns[slot].declared && batch.FindColumn(name) < 0) return std::nullopt;
      for (size_t i = 0; i < slots.size(); ++i)
        if (slots[i] == slot)
          return ExprColumnInfo{static_cast<int>(i), binding->slot_types[slot], columns[slot].timestamp_format};
      slots.push_back(slot);
      return ExprColumnInfo{static_cast<int>(slots.size()) - 1, binding->slot_types[slot],
                            columns[slot].timestamp_format};
    };
    auto program = ExprProgram::Compile(*row.rule->expr, row.rule->expr_text, resolver);
    if (!program.ok())
      return Status::RuleError(plan_->rules().path + ":" + std::to_string(row.rule->expr_location.line) +
                               ": rows." + row.rule->name + ": " + program.status().message());
    binding->programs.push_back(std::move(program).value());
    binding->program_slots.push_back(std::move(slots));
  }
  return std::shared_ptr<const Binding>(std::move(binding));
}

void BatchEvaluator::RunRowChecks(const Binding& binding, const Batch& batch, BatchResult* result) const {
  const int64_t n = batch.num_rows;
  std::vector<uint8_t> verdicts;
  for (size_t i = 0; i < plan_->rows().size(); ++i) {
    const RowPlan& row = plan_->rows()[i];
    CheckBatchResult& check = result->checks[row.check_index];
    check.rows.clear();
    if (row.rule->kind == RowCheck::Kind::kExpr) {
      std::vector<const TypedColumn*> inputs;
      for (int slot : binding.program_slots[i]) inputs.push_back(&result->columns[slot]);
      binding.programs[i]->Evaluate(inputs, n, &verdicts);
      const uint8_t* malformed = batch.malformed.empty() ? nullptr : batch.malformed.data();
      int64_t evaluated = 0;
      for (int64_t r = 0; r < n; ++r) {
        if (malformed && malformed[r]) continue;
        ++evaluated;
        if (verdicts[r] == 0) check.rows.push_back(static_cast<int32_t>(r));
      }
      check.evaluated = evaluated;
      check.violations = static_cast<int64_t>(check.rows.size());
      continue;
    }
    // Row unique: exact tuple keys of rows without nulls.
    UniqueKeys& keys = result->unique_keys[row.check_index];
    std::vector<size_t> offsets;
    for (int64_t r = 0; r < n; ++r) {
      bool complete = true;
      for (int slot : row.column_slots) complete = complete && result->columns[slot].valid[r];
      if (!complete) continue;
      keys.rows.push_back(static_cast<int32_t>(r));
      offsets.push_back(keys.arena.size());
      for (int slot : row.column_slots) AppendTupleKey(result->columns[slot], r, &keys.arena);
    }
    offsets.push_back(keys.arena.size());
    for (size_t k = 0; k + 1 < offsets.size(); ++k) {
      std::string_view key(keys.arena.data() + offsets[k], offsets[k + 1] - offsets[k]);
      keys.keys.push_back(key);
      keys.hashes.push_back(XXH3_64bits(key.data(), key.size()));
    }
    check.evaluated = static_cast<int64_t>(keys.rows.size());
  }
}

Result<std::unique_ptr<BatchResult>> BatchEvaluator::Evaluate(std::shared_ptr<const Batch> batch) const {
  ASSIGN_OR_RETURN(auto binding, Bind(*batch));
  std::unique_ptr<BatchResult> result = pool_ ? pool_->Take() : std::make_unique<BatchResult>();
  const auto& column_plans = plan_->columns();
  const int64_t n = batch->num_rows;
  // A pooled result holds an earlier batch's values: every field is set
  // again (vectors cleared, their capacity kept).
  result->columns.resize(column_plans.size());
  for (TypedColumn& column : result->columns) column.Reset();
  result->input_column.assign(column_plans.size(), -1);
  result->checks.resize(plan_->checks().size());
  for (CheckBatchResult& check : result->checks) {
    check.evaluated = check.violations = 0;
    check.rows.clear();
  }
  result->unique_keys.resize(plan_->checks().size());
  for (UniqueKeys& keys : result->unique_keys) {
    keys.rows.clear();
    keys.hashes.clear();
    keys.keys.clear();
    keys.arena.clear();
  }
  result->schema_problems.clear();
  result->profiles.clear();
  result->table_profile.reset();
  for (size_t slot = 0; slot < column_plans.size(); ++slot) {
    const ColumnPlan& column_plan = column_plans[slot];
    int index = batch->FindColumn(column_plan.name);
    result->input_column[slot] = index;
    if (index < 0 && column_plan.required) {
      result->schema_problems.push_back(
          {column_plan.name, column_plan.declared
                                 ? "required column '" + column_plan.name + "' is missing from the input"
                                 : "column '" + column_plan.name + "' named by a row check is missing from the input"});
    }
    ConvertOptions options{binding->slot_types[slot], column_plan.timestamp_format};
    bool lossy = false;
    std::string lossy_message;
    ConvertColumn(*batch, index >= 0 ? &batch->columns[index] : nullptr, options, &result->columns[slot],
                  &lossy, &lossy_message);
    if (lossy) result->schema_problems.push_back({column_plan.name, lossy_message});
    RunColumnChecks(column_plan, result->columns[slot], *batch, result.get());
  }
  if (profile_columns_) {
    result->profiles.resize(column_plans.size());
    const uint8_t* malformed = batch->malformed.empty() ? nullptr : batch->malformed.data();
    for (size_t slot = 0; slot < column_plans.size(); ++slot)
      if (column_plans[slot].declared && result->columns[slot].present)
        result->profiles[slot].AddBatch(result->columns[slot], malformed);
  }
  if (!profiled_names_.empty()) {
    result->table_profile = std::make_unique<TableProfile>();
    result->table_profile->AddBatch(*batch, &profiled_names_);
  }
  RunRowChecks(*binding, *batch, result.get());

  // Bad rows: malformed ones, and rows violating an error-severity check
  // (unique checks are added by the merger, which knows first occurrences).
  result->bad.assign(n, 0);
  if (!batch->malformed.empty()) std::memcpy(result->bad.data(), batch->malformed.data(), n);
  for (size_t c = 0; c < plan_->checks().size(); ++c) {
    if (plan_->checks()[c].options.severity != Severity::kError) continue;
    for (int32_t r : result->checks[c].rows) result->bad[r] = 1;
  }
  result->batch = std::move(batch);
  return result;
}

}  // namespace griffin
