#include "store/store_records.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "profile/table_profile.h"
#include "io/source_registry.h"
#include "report/json_writer.h"
#include "util/value_parse.h"

namespace griffin {

std::string IsoNow() {
  const int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  return FormatTimestamp(micros);
}

std::string NewRunId() {
  thread_local std::mt19937_64 generator = [] {
    std::random_device device;
    return std::mt19937_64((static_cast<uint64_t>(device()) << 32) ^ device() ^
                           static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()));
  }();
  uint64_t high = generator(), low = generator();
  high = (high & 0xFFFFFFFFFFFF0FFFULL) | 0x4000ULL;        // version 4
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // variant
  char text[40];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                static_cast<unsigned>((high >> 16) & 0xFFFF), static_cast<unsigned>(high & 0xFFFF),
                static_cast<unsigned>(low >> 48), static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

std::vector<InputLineage> DescribeInputs(const std::vector<std::string>& paths, const std::vector<int64_t>& rows) {
  std::vector<InputLineage> inputs;
  for (size_t i = 0; i < paths.size(); ++i) {
    InputLineage input;
    input.path = RedactUri(paths[i]);  // described with its credentials, recorded without
    struct stat info {};
    if (!IsFileInput(paths[i])) {  // a URI: what its adapter says identifies it
      if (std::optional<SourceIdentity> identity = DescribeSource(paths[i])) {
        input.size = identity->size;
        input.mtime_ns = identity->mtime_ns;
        input.etag = identity->etag;
        input.schema_json = identity->schema_json;
      }
    } else if (paths[i] != "-" && ::stat(paths[i].c_str(), &info) == 0) {
      input.size = info.st_size;
      input.mtime_ns = static_cast<int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    }
    input.rows = i < rows.size() ? rows[i] : 0;
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::vector<InputLineage> NamedInputs(const std::vector<std::string>& names, const std::vector<int64_t>& rows) {
  std::vector<InputLineage> inputs;
  for (size_t i = 0; i < names.size(); ++i) {
    InputLineage input;
    input.path = names[i];
    input.rows = i < rows.size() ? rows[i] : 0;
    inputs.push_back(std::move(input));
  }
  return inputs;
}

BeginRunRequest MakeBeginRequest(const RuleSet& rules, const std::string& origin) {
  BeginRunRequest begin;
  begin.dataset = rules.dataset;
  begin.run_id = NewRunId();
  begin.started_at = IsoNow();
  begin.griffin_version = GRIFFIN_VERSION;
  begin.rules_sha256 = rules.sha256;
  begin.rules_text = rules.text;
  begin.rules_path = rules.path;
  begin.origin = origin;
  return begin;
}

FinishRunRequest MakeFinishRequest(const Report& report, const std::string& report_json,
                                   const std::vector<InputLineage>& inputs,
                                   const std::vector<OutputSummary>& outputs) {
  FinishRunRequest request;
  request.ended_at = IsoNow();
  request.rows = report.rows;
  request.bad_rows = report.bad_rows;
  request.malformed_rows = report.malformed_rows;
  request.quality_score = report.quality_score;
  request.passed = report.passed;
  request.report_json = report_json;
  if (report.profile) request.profile_state = report.profile->Serialize();
  for (size_t i = 0; i < report.checks.size(); ++i) {
    const CheckReport& c = report.checks[i];
    CheckResultRecord record;
    record.position = static_cast<int>(i);
    record.name = c.name;
    record.column = c.column.value_or("");
    record.check = c.check;
    record.severity = c.severity;
    record.evaluated = c.evaluated;
    record.violations = c.violations;
    record.pass_rate = c.pass_rate;
    if (c.is_table) {
      std::string observed;
      if (c.observed.kind == JsonScalar::Kind::kString) AppendJsonString(c.observed.text, &observed);
      else observed = c.observed.is_null() ? "null" : c.observed.text;
      record.observed = observed;
    }
    record.passed = c.passed;
    request.checks.push_back(std::move(record));
  }
  for (const ColumnSummary& s : report.column_summaries) {
    ColumnMetricsRecord record;
    record.column = s.column;
    record.count = s.count;
    record.nulls = s.nulls;
    record.min = s.min;
    record.max = s.max;
    record.mean = s.mean;
    record.stddev = s.stddev;
    record.distinct = s.distinct;
    record.distinct_exact = s.distinct_exact;
    request.columns.push_back(std::move(record));
  }
  request.inputs = inputs;
  for (const OutputSummary& o : outputs) request.outputs.push_back({o.path, o.kind, o.rows, o.bytes, o.sha256, o.etag});
  return request;
}

Result<RunTicket> RecordFinishedRun(const std::string& store_uri, const RuleSet& rules, Report* report,
                                    const std::vector<std::string>& inputs, const std::vector<int64_t>& input_rows,
                                    const std::string& origin) {
  RETURN_IF_ERROR(CheckRunStoreUri(store_uri));
  ASSIGN_OR_RETURN(std::unique_ptr<RunStore> store, OpenRunStore(store_uri));
  ASSIGN_OR_RETURN(RunTicket ticket, store->BeginRun(MakeBeginRequest(rules, origin)));
  report->run_id = ticket.run_id;
  report->inputs = inputs;
  report->input_rows = input_rows;
  const std::vector<InputLineage> lineage = NamedInputs(inputs, input_rows);
  const FinishRunRequest finish = MakeFinishRequest(*report, ReportToJson(*report), lineage, {});
  Status finished = store->FinishRun(ticket.run_id, finish);
  if (!finished.ok()) {
    (void)store->MarkRecordFailed(ticket.run_id, finished.message());
    return finished;
  }
  return ticket;
}

}  // namespace griffin
