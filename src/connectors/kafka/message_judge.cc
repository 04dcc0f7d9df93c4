#include "connectors/kafka/message_judge.h"

#include <string>

#include "io/input_source.h"
#include "rules/rule_set.h"

namespace griffin::kafka {
namespace {

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Appends `value` as one line (line breaks between tokens become spaces).
// Returns the reason it cannot be one line, or "" when it was appended.
std::string AppendAsLine(std::string_view value, std::string* text) {
  bool blank = true;
  for (char c : value) blank = blank && IsJsonWhitespace(c);
  if (blank) return "empty message";
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

}  // namespace

Result<JudgedBatch> JudgeJsonMessages(const Validator& validator, const std::vector<std::string_view>& values,
                                      const ValidationOptions& options) {
  JudgedBatch judged;
  judged.verdicts.resize(values.size());
  std::string text;
  size_t total = 0;
  for (std::string_view value : values) total += value.size() + 1;
  text.reserve(total);
  std::vector<size_t> message_of_row;  // engine row -> message index
  message_of_row.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    std::string reason = AppendAsLine(values[i], &text);
    if (reason.empty()) {
      message_of_row.push_back(i);
    } else {
      judged.verdicts[i].errors.push_back({kMalformedCheckName, reason});
    }
  }
  ValidationOptions run_options = options;
  run_options.collect_bad_rows = true;
  ASSIGN_OR_RETURN(ValidationResult result, validator.ValidateText(text, InputFormat::kJsonl, "kafka", run_options));
  for (size_t b = 0; b < result.bad_row_indices.size(); ++b) {
    const int64_t row = result.bad_row_indices[b];
    if (row < 0 || static_cast<size_t>(row) >= message_of_row.size()) {
      return Status::Internal("JudgeJsonMessages: the engine reported row " + std::to_string(row) + " of " +
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
