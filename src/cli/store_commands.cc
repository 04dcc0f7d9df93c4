#include "cli/store_commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/rule_version_diff.h"
#include "cli/standard_streams.h"
#include "report/json_writer.h"
#include "report/junit_writer.h"
#include "report/report_reader.h"
#include "report/text_writer.h"
#include "store/run_store.h"
#include "util/count_of.h"

namespace griffin {
namespace {

void AddCommonOptions(CLI::App* cmd, StoreCommandArgs* args, const char* formats) {
  cmd->add_option("--store", args->store_uri, "The run store (default .griffin/griffin.db)");
  cmd->add_option("--format", args->format, formats)->capture_default_str();
}

int Fail(const Status& status) {
  std::fprintf(stderr, "griffin: %s\n", status.message().c_str());
  return ExitCodeFor(status);
}

Result<std::unique_ptr<RunStore>> Open(const StoreCommandArgs& args) {
  return OpenRunStore(args.store_uri.empty() ? DefaultStoreUri() : args.store_uri);
}

// Prints the command's answer; one that cannot be written whole (a full disk,
// a closed standard output) is exit 3, as for griffin validate.
int Print(const std::string& text) {
  Status written = WriteWhole(stdout, text, "standard output");
  return written.ok() ? kExitPassed : Fail(written);
}

// The rule version `key` names: its number ("2" or "v2") or a unique sha256
// prefix; null if none or several.
const RuleVersionRecord* FindRuleVersion(const std::vector<RuleVersionRecord>& versions, const std::string& key) {
  const std::string digits = key.size() > 1 && key[0] == 'v' ? key.substr(1) : key;
  if (!digits.empty() && digits.size() < 10 && std::all_of(digits.begin(), digits.end(), ::isdigit)) {
    const int64_t number = std::stoll(digits);
    for (const RuleVersionRecord& v : versions)
      if (v.number == number) return &v;
    return nullptr;
  }
  const RuleVersionRecord* found = nullptr;
  for (const RuleVersionRecord& v : versions)
    if (!key.empty() && v.sha256.rfind(key, 0) == 0) {
      if (found) return nullptr;  // ambiguous prefix
      found = &v;
    }
  return found;
}

// "v2", or "-" for a run whose rule version is not recorded.
std::string RulesVersionText(int64_t number) { return number > 0 ? "v" + std::to_string(number) : "-"; }

}  // namespace

// How many candidates an ambiguous run id prefix lists.
constexpr int kCandidatesShown = 5;

// The full id of the run `key` names: its id or a unique prefix of one. A
// prefix of several runs is a UsageError that says how many and lists a few.
Result<std::string> ResolveRunId(RunStore& store, const std::string& key) {
  ASSIGN_OR_RETURN(RunIdMatches matches, store.FindRunIds(key, kCandidatesShown));
  if (!matches.run_ids.empty() && matches.run_ids.front() == key) return key;  // a whole id sorts first
  if (matches.count == 0) return Status::UsageError("no finished run '" + key + "' in " + store.Describe());
  if (matches.count == 1) return matches.run_ids.front();
  std::string listed;
  for (const std::string& id : matches.run_ids) listed += (listed.empty() ? "" : ", ") + id;
  if (matches.count > static_cast<int64_t>(matches.run_ids.size())) listed += ", ...";
  return Status::UsageError("run id prefix '" + key + "' is ambiguous: " + CountOf(matches.count, "run") +
                            " match (" + listed + "); give more of the id");
}

std::string Sparkline(const std::vector<double>& values) {
  static const char* kBars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  std::string out;
  for (double v : values) {
    int level = static_cast<int>(std::clamp(v, 0.0, 1.0) * 7.0 + 0.5);
    out += kBars[level];
  }
  return out;
}

CLI::App* AddHistoryCommand(CLI::App& app, StoreCommandArgs* args) {
  CLI::App* cmd = app.add_subcommand("history", "List the recorded runs of a dataset, newest first, with a score trend");
  cmd->add_option("dataset", args->dataset, "The dataset name (the rule file's `dataset:`)")->required();
  cmd->add_option("--limit", args->limit, "How many runs")->capture_default_str();
  AddCommonOptions(cmd, args, "text or json");
  cmd->footer("\nExample:\n  griffin history transactions --format json | jq '.runs[0]'");
  return cmd;
}

CLI::App* AddShowCommand(CLI::App& app, StoreCommandArgs* args) {
  CLI::App* cmd = app.add_subcommand("show", "Print the stored report of a run again");
  cmd->add_option("run_id", args->run_id, "The run id (from griffin history or the JSON report), or a unique prefix of it")
      ->required();
  AddCommonOptions(cmd, args, "text, json or junit");
  return cmd;
}

CLI::App* AddRulesCommand(CLI::App& app, StoreCommandArgs* args) {
  CLI::App* cmd = app.add_subcommand("rules", "List the rule-file versions seen for a dataset, or diff two of them");
  cmd->add_option("dataset", args->dataset, "The dataset name")->required();
  cmd->add_option("--diff", args->diff_from, "Show the change between two versions: --diff A --to B")
      ->description("A rule version (2 or v2, as griffin rules lists them) or a sha256 prefix");
  cmd->add_option("--to", args->diff_to, "The later version for --diff (default: the newest)");
  AddCommonOptions(cmd, args, "text or json");
  return cmd;
}

int RunHistoryCommand(const StoreCommandArgs& args) {
  if (args.format != "text" && args.format != "json") return Fail(Status::UsageError("--format: text or json"));
  auto store = Open(args);
  if (!store.ok()) return Fail(store.status());
  auto runs = (*store)->History(args.dataset, args.limit);
  if (!runs.ok()) return Fail(runs.status());
  if (args.format == "json") {
    std::string out = "{\"dataset\": ";
    AppendJsonString(args.dataset, &out);
    out += ", \"runs\": [";
    for (size_t i = 0; i < runs->size(); ++i) {
      const RunSummary& r = (*runs)[i];
      out += i ? ",\n  {" : "\n  {";
      out += "\"run_id\": ";
      AppendJsonString(r.run_id, &out);
      out += ", \"started_at\": ";
      AppendJsonString(r.started_at, &out);
      out += ", \"rows\": " + std::to_string(r.rows) + ", \"bad_rows\": " + std::to_string(r.bad_rows) +
             ", \"quality_score\": " + (r.status == "complete" ? JsonScalar::Number(r.quality_score).text : "null") +
             ", \"passed\": " + (r.status == "complete" ? (r.passed ? "true" : "false") : "null") +
             ", \"run_number\": " + std::to_string(r.version) + ", \"version\": " + std::to_string(r.version) +
             ", \"rules_version\": " + (r.rules_version > 0 ? std::to_string(r.rules_version) : "null") +
             ", \"rules_sha256\": ";
      AppendJsonString(r.rules_sha256, &out);
      out += ", \"status\": ";
      AppendJsonString(r.status, &out);
      out += ", \"origin\": ";  // who ran it (cli, python, http, ...); null where not recorded
      if (r.origin.empty()) out += "null";
      else AppendJsonString(r.origin, &out);
      out += "}";
    }
    out += runs->empty() ? "]}\n" : "\n]}\n";
    return Print(out);
  }
  if (runs->empty()) {
    return Print("no runs recorded for dataset '" + args.dataset + "' in " + (*store)->Describe() + "\n");
  }
  std::string out;
  std::vector<double> scores;  // oldest first for the trend
  for (auto it = runs->rbegin(); it != runs->rend(); ++it)
    if (it->status == "complete") scores.push_back(it->quality_score);
  out += "dataset " + args.dataset + "   " + CountOf(static_cast<int64_t>(runs->size()), "run");
  if (isatty(STDOUT_FILENO) && !scores.empty()) out += "   score trend " + Sparkline(scores);
  out += "\n(RUN #: the run's number in this dataset; RULES: the rule file's version, as griffin rules " +
         args.dataset + " lists them)\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-36s  %6s  %6s  %-20s  %12s  %10s  %8s  %s\n", "RUN ID", "RUN #", "RULES",
                "STARTED", "ROWS", "BAD ROWS", "SCORE", "VERDICT");
  out += line;
  for (const RunSummary& r : *runs) {
    std::string verdict = r.status != "complete" ? r.status : (r.passed ? "passed" : "FAILED");
    std::string score = r.status == "complete" ? std::to_string(r.quality_score).substr(0, 8) : "-";
    std::snprintf(line, sizeof line, "%-36s  %6lld  %6s  %-20s  %12lld  %10lld  %8s  %s\n", r.run_id.c_str(),
                  static_cast<long long>(r.version), RulesVersionText(r.rules_version).c_str(),
                  r.started_at.substr(0, 19).c_str(),
                  static_cast<long long>(r.rows), static_cast<long long>(r.bad_rows), score.c_str(), verdict.c_str());
    out += line;
  }
  return Print(out);
}

int RunShowCommand(const StoreCommandArgs& args) {
  if (args.format != "text" && args.format != "json" && args.format != "junit")
    return Fail(Status::UsageError("--format: text, json or junit"));
  auto store = Open(args);
  if (!store.ok()) return Fail(store.status());
  auto run_id = ResolveRunId(**store, args.run_id);
  if (!run_id.ok()) return Fail(run_id.status());
  auto json = (*store)->ReportJson(*run_id);
  if (!json.ok()) return Fail(json.status());
  if (!json->has_value())
    return Fail(Status::UsageError("no finished run '" + *run_id + "' in " + (*store)->Describe()));
  if (args.format == "json") {
    return Print(**json);
  }
  auto report = ReportFromJson(**json, "run " + *run_id);
  if (!report.ok()) return Fail(report.status());
  return Print(args.format == "junit" ? ReportToJunit(*report) : ReportToText(*report, isatty(STDOUT_FILENO)));
}

int RunRulesCommand(const StoreCommandArgs& args) {
  if (args.format != "text" && args.format != "json") return Fail(Status::UsageError("--format: text or json"));
  auto store = Open(args);
  if (!store.ok()) return Fail(store.status());
  auto versions = (*store)->RuleVersions(args.dataset);
  if (!versions.ok()) return Fail(versions.status());
  if (!args.diff_from.empty()) {
    const RuleVersionRecord* from = FindRuleVersion(*versions, args.diff_from);
    const RuleVersionRecord* to = args.diff_to.empty() ? (versions->empty() ? nullptr : &versions->back())
                                                       : FindRuleVersion(*versions, args.diff_to);
    if (!from || !to) return Fail(Status::UsageError("--diff: no single rule version matches; see griffin rules " + args.dataset));
    return Print(args.format == "json" ? RuleVersionDiffJson(args.dataset, *from, *to) : RuleVersionDiffText(*from, *to));
  }
  if (args.format == "json") {
    std::string out = "{\"dataset\": ";
    AppendJsonString(args.dataset, &out);
    out += ", \"versions\": [";
    for (size_t i = 0; i < versions->size(); ++i) {
      const RuleVersionRecord& v = (*versions)[i];
      out += i ? ", {" : "{";
      out += "\"version\": " + std::to_string(v.number) + ", \"sha256\": ";
      AppendJsonString(v.sha256, &out);
      out += ", \"first_seen\": ";
      AppendJsonString(v.first_seen, &out);
      out += ", \"runs\": " + std::to_string(v.runs) + ", \"text\": ";
      AppendJsonString(v.text, &out);
      out += "}";
    }
    return Print(out + "]}\n");
  }
  std::string out = "rule versions of dataset " + args.dataset + " (oldest first)\n";
  for (size_t i = 0; i < versions->size(); ++i) {
    const RuleVersionRecord& v = (*versions)[i];
    out += "  " + RulesVersionText(v.number) + "  " + v.sha256.substr(0, 12) + "  first seen " + v.first_seen + "  " +
           CountOf(v.runs, "run") + "\n";
  }
  if (versions->size() > 1) {
    out += "\ngriffin rules " + args.dataset + " --diff " + std::to_string(versions->front().number) + " --to " +
           std::to_string(versions->back().number) + "   shows what changed\n";
  }
  return Print(out);
}

}  // namespace griffin
