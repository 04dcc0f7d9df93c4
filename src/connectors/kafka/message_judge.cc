#include "connectors/kafka/message_judge.h"

#include <cstring>
#include <string>

#include "io/input_source.h"
#include "rules/rule_set.h"

namespace griffin::kafka {
namespace {

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool IsBlank(std::string_view value) {
  for (char c : value) {
    if (!IsJsonWhitespace(c)) return false;
  }
  return true;
}

// Appends a JSON message as one line (line breaks between tokens become
// spaces). Returns the reason it cannot be one line, or "" when it was appended.
std::string AppendJsonLine(std::string_view value, std::string* text) {
  if (IsBlank(value)) return "empty message";
  if (std::memchr(value.data(), '\n', value.size()) == nullptr) {  // the usual case: already one line
    text->append(value);
    text->push_back('\n');
    return "";
  }
  const size_t start = text->size();
  bool in_string = false, escaped = false;
  for (char c : value) {
    if (in_string) {
      if (c == '\n') {
        text->resize(start);
        return "invalid JSON: a raw line break inside a string";
      }
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '\n') {
      c = ' ';
    }
    text->push_back(c);
  }
  text->push_back('\n');
  return "";
}

// Appends a CSV message as one record (without one trailing line break).
// Returns the reason it cannot be one record, or "" when it was appended.
std::string AppendCsvRecord(std::string_view value, char quote, std::string* text) {
  if (!value.empty() && value.back() == '\n') value.remove_suffix(1);
  if (!value.empty() && value.back() == '\r') value.remove_suffix(1);
  if (IsBlank(value)) return "empty message";
  bool quoted = false;
  for (char c : value) {
    if (c == quote) quoted = !quoted;  // a doubled quote toggles twice
    if (!quoted && (c == '\n' || c == '\r')) return "more than one record in the message";
  }
  text->append(value);
  text->push_back('\n');
  return "";
}

// The header line: the rule file's columns, quoted where they must be.
std::string CsvHeader(const RuleSet& rules, char delimiter, char quote) {
  std::string header;
  for (size_t c = 0; c < rules.columns.size(); ++c) {
    if (c > 0) header.push_back(delimiter);
    const std::string& name = rules.columns[c].name;
    if (name.find_first_of(std::string{delimiter, quote, '\n', '\r'}) == std::string::npos) {
      header += name;
      continue;
    }
    header.push_back(quote);
    for (char ch : name) {
      if (ch == quote) header.push_back(quote);
      header.push_back(ch);
    }
    header.push_back(quote);
  }
  return header + "\n";
}

}  // namespace

Result<JudgedBatch> JudgeMessages(const Validator& validator, const std::vector<std::string_view>& values,
                                  const ValidationOptions& options, std::string* scratch) {
  const SourceOptions& source = validator.rules().source;
  InputFormat format = InputFormat::kJsonl;
  if (source.format == "csv") format = InputFormat::kCsv;
  if (source.format == "tsv") format = InputFormat::kTsv;
  const bool csv = format != InputFormat::kJsonl;
  const char delimiter = source.delimiter.value_or(format == InputFormat::kTsv ? '\t' : ',');
  JudgedBatch judged;
  judged.verdicts.resize(values.size());
  std::string local;
  std::string& text = scratch != nullptr ? *scratch : local;
  text.clear();  // keeps its capacity: no new pages for the next batch
  size_t total = 0;
  for (std::string_view value : values) total += value.size() + 1;
  if (csv && source.header) text = CsvHeader(validator.rules(), delimiter, source.quote);
  text.reserve(text.size() + total);
  std::vector<size_t> message_of_row;  // engine row -> message index
  message_of_row.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    std::string reason = csv ? AppendCsvRecord(values[i], source.quote, &text) : AppendJsonLine(values[i], &text);
    if (reason.empty()) {
      message_of_row.push_back(i);
    } else {
      judged.verdicts[i].errors.push_back({kMalformedCheckName, reason});
    }
  }
  ValidationOptions run_options = options;
  run_options.collect_bad_rows = true;
  ASSIGN_OR_RETURN(ValidationResult result, validator.ValidateText(text, format, "kafka", run_options));
  for (size_t b = 0; b < result.bad_row_indices.size(); ++b) {
    const int64_t row = result.bad_row_indices[b] - options.row_offset;  // ids start at row_offset
    if (row < 0 || static_cast<size_t>(row) >= message_of_row.size()) {
      return Status::Internal("JudgeMessages: the engine reported row " + std::to_string(row) + " of " +
                              std::to_string(message_of_row.size()));
    }
    MessageVerdict& verdict = judged.verdicts[message_of_row[row]];
    for (int64_t e = result.bad_error_offsets[b]; e < result.bad_error_offsets[b + 1]; ++e) {
      verdict.errors.push_back(std::move(result.bad_errors[e]));
    }
    // A bad row always has a reason; keep one if the engine listed none.
    if (verdict.errors.empty()) verdict.errors.push_back({"error", "rejected"});
  }
  judged.report = std::move(result.report);
  return judged;
}

}  // namespace griffin::kafka
