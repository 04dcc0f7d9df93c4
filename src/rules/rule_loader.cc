// The top of a rule file (rules-v1 "Shape"): griffin, dataset, description,
// source, score, and the check-name uniqueness rule. The sections `columns`,
// `rows`, `table` and `training` are loaded by column_rule_loader.cc,
// row_rule_loader.cc, table_rule_loader.cc and training_rule_loader.cc.
#include "rules/rule_loader.h"

#include "rules/where_predicate.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

#include <yaml-cpp/yaml.h>

#include "rules/alert_loader.h"
#include "rules/column_rule_loader.h"
#include "rules/row_rule_loader.h"
#include "rules/table_rule_loader.h"
#include "rules/stream_rule_loader.h"
#include "rules/training_rule_loader.h"
#include "rules/yaml_helpers.h"
#include "util/sha256.h"
#include "util/value_parse.h"

namespace griffin {

using rules_internal::Field;
using rules_internal::YamlContext;

namespace {

Status LoadVersion(const YamlContext& ctx, const Field& field, int* version) {
  std::optional<int64_t> value;
  if (field.node.IsScalar()) value = ParseInt64(field.node.Scalar());
  if (!value.has_value()) return ctx.Error(field, "expected 1, the rule-file format version");
  if (*value != 1) {
    return ctx.Error(field, "unsupported version " + field.node.Scalar() +
                                " (this Griffin reads version 1)");
  }
  *version = 1;
  return Status::OK();
}

Result<char> ReadOneChar(const YamlContext& ctx, const Field& field, bool allow_tab_names) {
  ASSIGN_OR_RETURN(std::string text, rules_internal::ReadString(ctx, field));
  if (allow_tab_names && (text == "\\t" || text == "tab")) return '\t';
  if (text.size() != 1) return ctx.Error(field, "expected one character, found '" + text + "'");
  if (text[0] == '\n' || text[0] == '\r') return ctx.Error(field, "cannot be a line break");
  return text[0];
}

// `malformed: {mostly: 0.999}`: the pass rate the `malformed` check needs.
Status LoadMalformed(const YamlContext& ctx, const Field& field, double* mostly) {
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   rules_internal::MapFields(ctx, field, "a map like {mostly: 0.999}"));
  for (const Field& entry : entries) {
    if (entry.key != "mostly") return rules_internal::UnknownKey(ctx, entry, {"mostly"});
    ASSIGN_OR_RETURN(*mostly, rules_internal::ReadNumberInRange(ctx, entry, 0.0, 1.0));
  }
  return Status::OK();
}

// `incremental: {column: updated_at}`: the column whose values order the rows.
Status LoadIncremental(const YamlContext& ctx, const Field& field, std::string* column) {
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   rules_internal::MapFields(ctx, field, "a map like {column: updated_at}"));
  for (const Field& entry : entries) {
    if (entry.key != "column") return rules_internal::UnknownKey(ctx, entry, {"column"});
    ASSIGN_OR_RETURN(*column, rules_internal::ReadString(ctx, entry));
    if (column->empty()) return ctx.Error(entry, "expected a column name, got empty text");
  }
  if (column->empty()) return ctx.Error(field, "expected {column: NAME}");
  return Status::OK();
}

Status LoadSource(const YamlContext& ctx, const Field& field, SourceOptions* source) {
  if (field.node.IsNull()) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<Field> entries, rules_internal::MapFields(ctx, field));
  for (const Field& entry : entries) {
    if (entry.key == "format") {
      ASSIGN_OR_RETURN(std::string format, rules_internal::ReadString(ctx, entry));
      if (format != "csv" && format != "tsv" && format != "jsonl" && format != "json" &&
          format != "parquet" && format != "arrow") {
        return ctx.Error(entry, "unknown format '" + format +
                                    "' (expected one of: csv, tsv, jsonl, json, parquet, arrow)");
      }
      source->format = format;
    } else if (entry.key == "delimiter") {
      ASSIGN_OR_RETURN(source->delimiter, ReadOneChar(ctx, entry, /*allow_tab_names=*/true));
    } else if (entry.key == "quote") {
      ASSIGN_OR_RETURN(source->quote, ReadOneChar(ctx, entry, /*allow_tab_names=*/false));
    } else if (entry.key == "header") {
      ASSIGN_OR_RETURN(source->header, rules_internal::ReadBool(ctx, entry));
    } else if (entry.key == "null_values") {
      ASSIGN_OR_RETURN(std::vector<Field> items,
                       rules_internal::ListItems(ctx, entry, "a list of strings"));
      source->null_values.clear();
      for (const Field& item : items) {
        if (item.node.IsNull()) {
          return ctx.Error(item, "expected text; quote it ('null', '~' or '') to mean that text");
        }
        ASSIGN_OR_RETURN(std::string value, rules_internal::ReadString(ctx, item));
        source->null_values.push_back(std::move(value));
      }
    } else if (entry.key == "malformed") {
      RETURN_IF_ERROR(LoadMalformed(ctx, entry, &source->malformed_mostly));
    } else if (entry.key == "where") {
      ASSIGN_OR_RETURN(source->where, rules_internal::ReadString(ctx, entry));
      if (source->where.empty()) return ctx.Error(entry, "expected a condition, got empty text");
      if (auto parsed = ParseWhere(source->where); !parsed.ok())
        return ctx.Error(entry, parsed.status().message() + kWhereHint);
    } else if (entry.key == "mode") {
      ASSIGN_OR_RETURN(source->mode, rules_internal::ReadString(ctx, entry));
      if (source->mode != "scan" && source->mode != "pushdown" && source->mode != "pushdown-split")
        return ctx.Error(entry, "expected scan, pushdown or pushdown-split, got '" + source->mode + "'");
    } else if (entry.key == "incremental") {
      RETURN_IF_ERROR(LoadIncremental(ctx, entry, &source->incremental_column));
    } else {
      return rules_internal::UnknownKey(ctx, entry, {"format", "delimiter", "header", "null_values", "quote",
                                                     "malformed", "where", "mode", "incremental"});
    }
  }
  return Status::OK();
}

Status LoadScore(const YamlContext& ctx, const Field& field, std::optional<double>* score_min) {
  if (field.node.IsNull()) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   rules_internal::MapFields(ctx, field, "a map like {min: 0.9}"));
  for (const Field& entry : entries) {
    if (entry.key != "min") return rules_internal::UnknownKey(ctx, entry, {"min"});
    ASSIGN_OR_RETURN(*score_min, rules_internal::ReadNumberInRange(ctx, entry, 0.0, 1.0));
  }
  return Status::OK();
}

// A row check's name (chosen by the writer) must not be a reserved name
// (IsReservedCheckName) and must differ from every other
// check's name. Generated names (`<column>.<check>`, `<column>.<metric>`,
// `table.<metric>`) may repeat: two quantiles of one column are both
// `<column>.quantile` (docs/semantics.md, "Report"). The later one in the file
// is the error.
Status CheckRowNamesAreUnique(const YamlContext& ctx, const RuleSet& rules) {
  struct Named {
    SourceLocation location;
    std::string name;
    int row_index = -1;  // the index in rules.rows, or -1 for a generated name
  };
  std::vector<Named> named;
  for (const ColumnRule& column : rules.columns) {
    for (const ColumnCheck& check : column.checks) {
      named.push_back({check.location, column.name + "." + ColumnCheckKindName(check.kind)});
    }
  }
  for (const TableCheck& check : rules.table) {
    named.push_back({check.location, check.column.value_or("table") + "." +
                                         TableMetricName(check.metric)});
  }
  for (const AnomalyCheck& check : rules.anomalies) named.push_back({check.location, check.CheckName()});
  for (size_t i = 0; i < rules.rows.size(); ++i) {
    named.push_back({rules.rows[i].location, rules.rows[i].name, static_cast<int>(i)});
  }
  std::stable_sort(named.begin(), named.end(),
                   [](const Named& a, const Named& b) { return a.location < b.location; });
  std::map<std::string, const Named*> first;
  for (const Named& later : named) {
    if (later.row_index >= 0 && IsReservedCheckName(later.name)) {
      return ctx.Error(later.location.line, "rows[" + std::to_string(later.row_index) + "].name",
                       "'" + later.name + "' is reserved for the report's own check (choose another name)");
    }
    auto [previous, inserted] = first.emplace(later.name, &later);
    const Named& earlier = *previous->second;
    if (inserted || (later.row_index < 0 && earlier.row_index < 0)) continue;
    const Named& row = later.row_index >= 0 ? later : earlier;
    const Named& other = later.row_index >= 0 ? earlier : later;
    return ctx.Error(row.location.line, "rows[" + std::to_string(row.row_index) + "].name",
                     "duplicate check name '" + row.name + "' (also at line " +
                         std::to_string(other.location.line) + ")");
  }
  return Status::OK();
}

Result<RuleSet> LoadDocument(const YamlContext& ctx, const YAML::Node& root) {
  RuleSet rules;
  if (root.IsNull()) return ctx.Error(1, "griffin", "missing (add `griffin: 1`, the format version)");
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   rules_internal::MapFields(ctx, rules_internal::RootField(root),
                                             "a map with griffin, dataset, columns, ..."));
  std::optional<Field> version, dataset, source, columns, rows, table, score, training, alerts, stream;
  for (const Field& entry : entries) {
    if (entry.key == "griffin") {
      version = entry;
    } else if (entry.key == "dataset") {
      dataset = entry;
    } else if (entry.key == "description") {
      ASSIGN_OR_RETURN(rules.description, rules_internal::ReadString(ctx, entry));
    } else if (entry.key == "source") {
      source = entry;
    } else if (entry.key == "columns") {
      columns = entry;
    } else if (entry.key == "rows") {
      rows = entry;
    } else if (entry.key == "table") {
      table = entry;
    } else if (entry.key == "score") {
      score = entry;
    } else if (entry.key == "training") {
      training = entry;
    } else if (entry.key == "alerts") {
      alerts = entry;
    } else if (entry.key == "stream") {
      stream = entry;
    } else {
      return rules_internal::UnknownKey(ctx, entry, {"griffin", "dataset", "description", "source",
                                                     "columns", "rows", "table", "score", "training", "alerts",
                                                     "stream"});
    }
  }
  if (!version.has_value()) {
    return ctx.Error(1, "griffin", "missing (add `griffin: 1`, the format version)");
  }
  RETURN_IF_ERROR(LoadVersion(ctx, *version, &rules.version));
  if (!dataset.has_value()) {
    return ctx.Error(1, "dataset", "missing (the dataset name used in reports)");
  }
  ASSIGN_OR_RETURN(rules.dataset, rules_internal::ReadString(ctx, *dataset));
  if (rules.dataset.empty()) return ctx.Error(*dataset, "cannot be empty");
  if (source.has_value()) RETURN_IF_ERROR(LoadSource(ctx, *source, &rules.source));
  if (columns.has_value()) {
    ASSIGN_OR_RETURN(rules.columns, rules_internal::LoadColumns(ctx, *columns));
  }
  if (rows.has_value()) {
    ASSIGN_OR_RETURN(rules.rows, rules_internal::LoadRowChecks(ctx, *rows, rules.columns));
  }
  if (table.has_value()) {
    ASSIGN_OR_RETURN(rules.table, rules_internal::LoadTableChecks(ctx, *table, rules.columns, &rules.anomalies));
  }
  if (score.has_value()) RETURN_IF_ERROR(LoadScore(ctx, *score, &rules.score_min));
  if (training.has_value()) {
    ASSIGN_OR_RETURN(rules.training, rules_internal::LoadTrainingRules(ctx, *training));
  }
  if (stream.has_value()) {
    ASSIGN_OR_RETURN(rules.stream, rules_internal::LoadStreamRules(ctx, *stream));
  }
  // Checked here, so a wrong one stops every front end; only griffin
  // validate and serve send alerts, reading them again (rules/alert_loader.h).
  if (alerts.has_value()) RETURN_IF_ERROR(rules_internal::LoadAlertTargets(ctx, *alerts).status());
  RETURN_IF_ERROR(CheckRowNamesAreUnique(ctx, rules));
  return rules;
}

}  // namespace

Result<RuleSet> LoadRuleText(const std::string& yaml_text, const std::string& display_name) {
  YamlContext ctx(display_name);
  ASSIGN_OR_RETURN(YAML::Node root, rules_internal::ParseYamlText(ctx, yaml_text));
  Result<RuleSet> rules = Status::Internal("unreachable");
  try {
    rules = LoadDocument(ctx, root);
  } catch (const YAML::Exception& e) {
    // Reading a node that exists never throws; this is a bug, not a bad file.
    return Status::Internal(display_name + ": reading the rule file failed: " + e.msg);
  }
  if (!rules.ok()) return rules.status();
  rules->path = "<text>";
  rules->text = yaml_text;
  rules->sha256 = Sha256Hex(yaml_text);
  return rules;
}

Result<RuleSet> LoadRuleFile(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    return Status::UsageError("cannot read rule file " + path + ": it is a directory");
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status::UsageError("cannot read rule file " + path + ": " + std::strerror(errno));
  }
  std::string text;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) text.append(buffer, n);
  const bool failed = std::ferror(file) != 0;
  const int read_errno = errno;
  std::fclose(file);
  if (failed) {
    return Status::UsageError("cannot read rule file " + path + ": " + std::strerror(read_errno));
  }
  ASSIGN_OR_RETURN(RuleSet rules, LoadRuleText(text, path));
  rules.path = path;
  return rules;
}

}  // namespace griffin
