#include "history/history_checks.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "history/anomaly_checks.h"
#include "profile/drift.h"
#include "profile/drift_report.h"
#include "profile/profiler.h"
#include "profile/table_profile.h"
#include "report/json_writer.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

// A resolved baseline: its profile, or why there is none.
struct Baseline {
  std::shared_ptr<const TableProfile> profile;
  std::string run_id;      // the run it came from (last_passed, run:ID)
  std::string no_history;  // a note: nothing to compare with yet (the check passes)
  std::string problem;     // the baseline named cannot be had (the check fails)
};

Result<std::shared_ptr<const TableProfile>> StoredProfile(RunStore& store, const std::string& run_id) {
  ASSIGN_OR_RETURN(std::optional<std::string> state, store.RunProfile(run_id));
  if (!state) return std::shared_ptr<const TableProfile>();
  ASSIGN_OR_RETURN(TableProfile profile, TableProfile::Deserialize(*state, "the stored profile of run " + run_id));
  return std::make_shared<const TableProfile>(std::move(profile));
}

Baseline FromStore(const DriftCheck& check, const std::string& dataset, const HistoryContext& context) {
  Baseline baseline;
  if (context.store == nullptr) {
    if (check.baseline == DriftCheck::Baseline::kLastPassed)
      baseline.no_history = "no run store (" + context.no_store_reason + "), so no earlier run to compare with";
    else
      baseline.problem = "baseline " + check.baseline_text + " needs the run store, and there is none (" +
                         context.no_store_reason + ")";
    return baseline;
  }
  RunStore& store = *context.store;
  if (check.baseline == DriftCheck::Baseline::kLastPassed) {
    Result<std::optional<std::string>> run_id = store.LastPassedRunWithProfile(dataset);
    if (!run_id.ok()) {
      baseline.problem = run_id.status().message();
      return baseline;
    }
    if (!*run_id) {
      baseline.no_history = "no earlier run of dataset '" + dataset +
                            "' passed with a stored profile: nothing to compare with yet";
      return baseline;
    }
    baseline.run_id = **run_id;
  } else {
    Result<RunIdMatches> matches = store.FindRunIds(check.reference, 2);
    if (!matches.ok()) {
      baseline.problem = matches.status().message();
      return baseline;
    }
    if (matches->count == 0) {
      baseline.problem = "baseline " + check.baseline_text + ": no run with that id in " + store.Describe();
      return baseline;
    }
    if (matches->count > 1) {
      baseline.problem = "baseline " + check.baseline_text + ": " + std::to_string(matches->count) +
                         " runs start with that id; give more of it";
      return baseline;
    }
    baseline.run_id = matches->run_ids.front();
  }
  Result<std::shared_ptr<const TableProfile>> profile = StoredProfile(store, baseline.run_id);
  if (!profile.ok()) {
    baseline.problem = profile.status().message();
  } else if (*profile == nullptr) {
    baseline.problem = "baseline run " + baseline.run_id +
                       " has no stored profile (it did not finish, or an older griffin recorded it)";
  } else {
    baseline.profile = *profile;
  }
  return baseline;
}

Baseline FromFile(const DriftCheck& check, const HistoryContext& context) {
  Baseline baseline;
  std::filesystem::path path(check.reference);
  if (path.is_relative() && !context.rules_dir.empty()) path = std::filesystem::path(context.rules_dir) / path;
  ReadOptions read_options = context.read_options;
  read_options.json_all_keys = true;
  Result<TableProfile> profile = ProfileOrState(path.string(), read_options, ProfileOptions{});
  if (!profile.ok()) baseline.problem = "baseline " + check.baseline_text + ": " + profile.status().message();
  else baseline.profile = std::make_shared<const TableProfile>(std::move(profile).value());
  return baseline;
}

const ColumnState* FindColumn(const TableProfile& profile, const std::string& name) {
  for (const auto& [column, state] : profile.columns())
    if (column == name) return &state;
  return nullptr;
}

std::string Brief(double value) { return FormatDoubleBrief(value); }

// The check's JSON detail: {"measure", "baseline", "baseline_run_id", "moved",
// "distribution"}.
std::string DetailJson(const DriftCheck& check, const Baseline& baseline, const ColumnDrift* drift) {
  std::string out = "{\"measure\": ";
  if (drift == nullptr || drift->measure.empty()) out += "null";
  else AppendJsonString(drift->measure, &out);
  out += ", \"baseline\": ";
  AppendJsonString(check.baseline_text, &out);
  out += ", \"baseline_run_id\": ";
  if (baseline.run_id.empty()) out += "null";
  else AppendJsonString(baseline.run_id, &out);
  out += ", \"moved\": ";
  AppendDriftMovesJson(drift ? drift->moved : std::vector<DriftMove>{}, &out);
  out += ", \"distribution\": ";
  AppendDriftMovesJson(drift ? drift->distribution : std::vector<DriftMove>{}, &out);
  return out + "}";
}

void JudgeDrift(const ColumnRule& rule, const Baseline& baseline, const TableProfile* current, CheckReport* report) {
  const DriftCheck& check = *rule.drift;
  report->note.clear();
  report->detail_key = "drift";
  report->max_bound = JsonScalar::Number(check.max);
  report->passed = true;
  std::optional<ColumnDrift> drift;
  if (!baseline.problem.empty()) {
    report->passed = false;
    report->message = baseline.problem;
  } else if (!baseline.no_history.empty()) {
    report->note = baseline.no_history;
  } else if (current == nullptr || FindColumn(*current, rule.name) == nullptr) {
    report->note = "the input has no column '" + rule.name + "' to compare";
  } else if (const ColumnState* base = FindColumn(*baseline.profile, rule.name); base == nullptr) {
    report->note = "the baseline has no column '" + rule.name + "': nothing to compare with";
  } else {
    drift = ColumnDriftOf(rule.name, *base, *FindColumn(*current, rule.name));
    if (!drift->value) {
      report->note = drift->note;
    } else {
      report->observed = JsonScalar::Number(*drift->value);
      report->observed_text = Brief(*drift->value);
      report->passed = *drift->value <= check.max;
      if (!report->passed) {
        report->message = rule.name + " drifted from " + check.baseline_text + ": " +
                          (drift->measure == "js" ? "jensen-shannon " : "l-infinity ") + Brief(*drift->value) +
                          " > max " + Brief(check.max);
        if (!drift->moved.empty())
          report->message += "; most moved " + drift->moved.front().label + ": " +
                             Brief(drift->moved.front().baseline_share) + " -> " +
                             Brief(drift->moved.front().current_share);
      }
    }
  }
  if (!report->passed && check.options.message) report->message = *check.options.message;
  report->detail_json = DetailJson(check, baseline, drift ? &*drift : nullptr);
}

// The run passes when every error-severity check passes, there is no schema
// error and the score meets score.min (rules-v1), as the merger decided it.
void RecomputeVerdict(Report* report) {
  bool passed = report->schema_errors.empty();
  for (const CheckReport& check : report->checks)
    if (check.severity == SeverityName(Severity::kError) && !check.passed) passed = false;
  if (report->score_min && report->quality_score < *report->score_min) passed = false;
  report->passed = passed;
}

CheckReport* FindReportCheck(Report* report, const CheckInfo& info) {
  for (CheckReport& check : report->checks)
    if (check.name == info.name && check.check == info.check) return &check;
  return nullptr;
}

}  // namespace

void EvaluateHistoryChecks(const Plan& plan, const HistoryContext& context, Report* report) {
  if (plan.history().empty()) return;
  std::map<std::string, Baseline> baselines;  // by baseline text: each is read once
  for (const HistoryPlan& history : plan.history()) {
    if (history.anomaly != nullptr) {
      CheckReport* check_report = FindReportCheck(report, plan.checks()[history.check_index]);
      if (check_report != nullptr)
        JudgeAnomalyCheck(*history.anomaly, plan.rules().dataset, context, *report, check_report);
      continue;
    }
    const ColumnRule& rule = *history.drift_column;
    const DriftCheck& check = *rule.drift;
    auto it = baselines.find(check.baseline_text);
    if (it == baselines.end()) {
      Baseline baseline = check.baseline == DriftCheck::Baseline::kProfile
                              ? FromFile(check, context)
                              : FromStore(check, plan.rules().dataset, context);
      it = baselines.emplace(check.baseline_text, std::move(baseline)).first;
    }
    CheckReport* check_report = FindReportCheck(report, plan.checks()[history.check_index]);
    if (check_report != nullptr) JudgeDrift(rule, it->second, report->profile.get(), check_report);
  }
  RecomputeVerdict(report);
}

}  // namespace griffin
