#include "cli/alerts_command.h"

#include <algorithm>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/standard_streams.h"
#include "cli/store_commands.h"
#include "report/json_writer.h"
#include "store/run_store.h"
#include "util/count_of.h"

namespace griffin {
namespace {

int Fail(const Status& status) {
  std::fprintf(stderr, "griffin: %s\n", status.message().c_str());
  return ExitCodeFor(status);
}

std::string Padded(std::string text, size_t width, bool right = false) {
  if (text.size() >= width) return text;
  const std::string pad(width - text.size(), ' ');
  return right ? pad + text : text + pad;
}

// What the filter asked for, for the headline: " for dataset orders, status failed".
std::string FilterText(const AlertListFilter& filter) {
  std::string text;
  const auto add = [&](const char* name, const std::string& value) {
    if (!value.empty()) text += (text.empty() ? " for " : ", ") + std::string(name) + " " + value;
  };
  add("dataset", filter.dataset);
  add("run", filter.run_id);
  add("status", filter.status);
  return text;
}

}  // namespace

std::string AlertDeliveriesText(const std::vector<AlertDeliveryRecord>& records) {
  size_t dataset_width = 7, events_width = 6;
  for (const AlertDeliveryRecord& r : records) {
    dataset_width = std::max(dataset_width, r.dataset.size());
    events_width = std::max(events_width, r.events.size());
  }
  std::string out = Padded("CREATED", 20) + "  " + Padded("STATUS", 10) + "  " + Padded("TRIES", 5, true) + "  " +
                    Padded("HTTP", 4, true) + "  " + Padded("DATASET", dataset_width) + "  " + Padded("RUN", 8) +
                    "  " + Padded("EVENTS", events_width) + "  FORMAT  URL\n";
  for (const AlertDeliveryRecord& r : records) {
    out += Padded(r.created_at.substr(0, 20), 20) + "  " + Padded(r.status, 10) + "  " +
           Padded(std::to_string(r.attempts), 5, true) + "  " +
           Padded(r.http_status > 0 ? std::to_string(r.http_status) : "-", 4, true) + "  " +
           Padded(r.dataset, dataset_width) + "  " + Padded(r.run_id.substr(0, 8), 8) + "  " +
           Padded(r.events, events_width) + "  " + Padded(r.format, 6) + "  " + r.url + "\n";
    if (!r.error.empty()) out += std::string(22, ' ') + r.error + "\n";
  }
  return out;
}

std::string AlertDeliveriesJson(const std::vector<AlertDeliveryRecord>& records, const std::string& store) {
  std::string out = "{\"store\": ";
  AppendJsonString(store, &out);
  out += ", \"deliveries\": [";
  for (size_t i = 0; i < records.size(); ++i) {
    const AlertDeliveryRecord& r = records[i];
    out += i ? ",\n  {" : "\n  {";
    const auto field = [&](const char* name, const std::string& value, bool first = false) {
      out += std::string(first ? "\"" : ", \"") + name + "\": ";
      AppendJsonString(value, &out);
    };
    field("delivery_id", r.delivery_id, true);
    field("run_id", r.run_id);
    field("dataset", r.dataset);
    field("status", r.status);
    out += ", \"attempts\": " + std::to_string(r.attempts) + ", \"http_status\": " +
           (r.http_status > 0 ? std::to_string(r.http_status) : "null");
    field("error", r.error);
    field("url", r.url);
    field("format", r.format);
    out += ", \"events\": [";
    for (size_t start = 0; start < r.events.size();) {
      const size_t comma = std::min(r.events.find(',', start), r.events.size());
      if (start) out += ", ";
      AppendJsonString(r.events.substr(start, comma - start), &out);
      start = comma + 1;
    }
    out += "]";
    field("dedup_key", r.dedup_key);
    field("created_at", r.created_at);
    field("finished_at", r.finished_at);
    out += "}";
  }
  return out + (records.empty() ? "]}\n" : "\n]}\n");
}

CLI::App* AddAlertsCommand(CLI::App& app, AlertsArgs* args) {
  CLI::App* cmd = app.add_subcommand("alerts", "List the alert deliveries recorded in the run store, newest first");
  cmd->add_option("--dataset", args->filter.dataset, "Only this dataset's alerts (the rule file's `dataset:`)");
  cmd->add_option("--run", args->filter.run_id, "Only this run's alerts: a run id, or a unique prefix of one");
  cmd->add_option("--status", args->filter.status, "Only delivered, failed or suppressed alerts");
  cmd->add_option("--limit", args->filter.limit, "How many, at most")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--store", args->store_uri, "The run store (default .griffin/griffin.db; sqlite:FILE or postgresql://...)");
  cmd->add_option("--format", args->format, "text or json")->capture_default_str();
  cmd->footer(
      "\nAn alerts: section (in a rule file, or griffin serve --config) sends webhooks when a\n"
      "run fails, its score drops, or a drift or anomaly check fails (docs/alerts.md).\n"
      "Validation never waits on them; this lists what became of each, from the store's\n"
      "alert_deliveries table:\n"
      "  delivered   the receiver answered 2xx (TRIES: attempts, retries included)\n"
      "  failed      not delivered within deadline_s (the error line says why)\n"
      "  suppressed  the same alert was delivered less than dedup_s ago, so not sent\n"
      "URLs are shown as stored: scheme, host, port and first path segment only, or the\n"
      "$VARIABLE named by url_env; secrets are never recorded.\n"
      "\nExamples:\n"
      "  griffin alerts                                   the last 50, any dataset\n"
      "  griffin alerts --dataset orders --status failed  what did not get through\n"
      "  griffin alerts --run 3f2a --format json | jq '.deliveries[].error'\n"
      "  griffin alerts --store postgresql://griffin@db/griffin --limit 10\n"
      "\nExit status: 0 listed (an empty list too), 2 usage or unknown run, 3 store unreadable.");
  return cmd;
}

int RunAlertsCommand(const AlertsArgs& args) {
  if (args.format != "text" && args.format != "json") return Fail(Status::UsageError("--format: text or json"));
  const std::string& status = args.filter.status;
  if (!status.empty() && status != "delivered" && status != "failed" && status != "suppressed")
    return Fail(Status::UsageError("--status '" + status + "': delivered, failed or suppressed"));
  const std::string uri = args.store_uri.empty() ? DefaultStoreUri() : args.store_uri;
  AlertListFilter filter = args.filter;
  if (!filter.run_id.empty()) {  // a prefix, resolved as griffin show does
    auto store = OpenRunStore(uri);
    if (!store.ok()) return Fail(store.status());
    auto run_id = ResolveRunId(**store, filter.run_id);
    if (!run_id.ok()) return Fail(run_id.status());
    filter.run_id = *run_id;
  }
  auto log = AlertLog::Open(uri);
  if (!log.ok()) return Fail(log.status());
  auto records = (*log)->List(filter);
  if (!records.ok()) return Fail(records.status());
  const std::string store = (*log)->Describe();
  std::string out;
  if (args.format == "json") {
    out = AlertDeliveriesJson(*records, store);
  } else if (records->empty()) {
    out = "no alert deliveries" + FilterText(filter) + " in " + store +
          "\n(an alerts: section in the rule file sends them; see griffin alerts --help)\n";
  } else {
    out = "alert deliveries" + FilterText(filter) + " in " + store + ", newest first: " +
          CountOf(static_cast<int64_t>(records->size()), "listed", "listed") +
          (static_cast<int>(records->size()) == filter.limit ? " (--limit " + std::to_string(filter.limit) + ")" : "") +
          "\n\n" + AlertDeliveriesText(*records);
  }
  Status written = WriteWhole(stdout, out, "standard output");
  return written.ok() ? kExitPassed : Fail(written);
}

}  // namespace griffin
