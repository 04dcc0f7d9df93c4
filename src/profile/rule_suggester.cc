#include "profile/rule_suggester.h"

#include <cmath>
#include <cstdio>

#include "profile/profile_facts.h"
#include "util/value_parse.h"

namespace griffin {
namespace {

constexpr double kWaldZ = 1.96;  // 95%

std::string Count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

std::string Percent(double share) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", share * 100);
  return buffer;
}

// `value` rounded up (down) at 6 decimals: a readable bound the value meets
// (a step further when the rounding of value * 1e6 crossed it).
double CeilMicro(double value) {
  const double bound = std::ceil(value * 1e6) / 1e6;
  return bound < value ? bound + 1e-6 : bound;
}
double FloorMicro(double value) {
  const double bound = std::floor(value * 1e6) / 1e6;
  return bound > value ? bound - 1e-6 : bound;
}

bool IsIdentifier(std::string_view text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
  for (char c : text)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  // Words a YAML 1.1 reader takes for booleans or null.
  static const char* kReserved[] = {"true", "false", "yes", "no", "on", "off", "y", "n", "null"};
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* word : kReserved)
    if (lower == word) return false;
  return true;
}

// Accumulates one column's rules, each with its evidence comment.
class ColumnRules {
 public:
  void Add(const std::string& rule, const std::string& evidence) { lines_.push_back({rule, evidence}); }
  bool empty() const { return lines_.empty(); }
  void Write(const std::string& name, std::string* out) const {
    *out += "  " + YamlScalar(name) + ":\n";
    for (const auto& [rule, evidence] : lines_) {
      std::string line = "    " + rule;
      if (line.size() < 44) line.resize(44, ' ');
      *out += line + "  # " + evidence + "\n";
    }
  }

 private:
  std::vector<std::pair<std::string, std::string>> lines_;
};

struct TableRule {
  std::string rule, evidence;
};

void SuggestRange(const ColumnState& c, ValueType type, ColumnRules* rules) {
  const NumberStats& n = c.numbers();
  if (type == ValueType::kInt64 && n.ints > 0) {
    rules->Add("min: " + std::to_string(n.int_min), "smallest of " + Count(n.ints) + " values");
    rules->Add("max: " + std::to_string(n.int_max), "largest of " + Count(n.ints) + " values");
  } else if (type == ValueType::kFloat64) {
    if (n.nan + n.pos_inf + n.neg_inf > 0 || n.finite == 0) return;  // NaN fails min and max
    rules->Add("finite: true", "no NaN or infinity in " + Count(n.finite) + " values");
    rules->Add("min: " + FormatDouble(n.min), "smallest of " + Count(n.finite) + " values");
    rules->Add("max: " + FormatDouble(n.max), "largest of " + Count(n.finite) + " values");
  } else if ((type == ValueType::kDate || type == ValueType::kTimestamp) && c.times() > 0) {
    rules->Add("min: " + YamlScalar(FormatTime(c.time_min(), type)), "earliest of " + Count(c.times()) + " values");
    rules->Add("max: " + YamlScalar(FormatTime(c.time_max(), type)), "latest of " + Count(c.times()) + " values");
  }
}

// `in` for a low-cardinality string or int64 column whose values are all
// known; true when suggested.
bool SuggestIn(const ColumnState& c, ValueType type, ColumnRules* rules) {
  if (type != ValueType::kString && type != ValueType::kInt64) return false;
  if (!c.distinct_exact() || !c.top_values().exact() || c.distinct() > kMaxInValues || c.distinct() < 1) return false;
  if (c.values() < 2 * c.distinct()) return false;  // too few values to call the list complete
  const auto values = c.top_values().Top(static_cast<size_t>(kMaxInValues));
  if (static_cast<int64_t>(values.size()) != c.distinct()) return false;
  std::vector<std::pair<int64_t, std::string>> ints;  // int64: by value
  std::vector<std::string> texts;                      // string: by text
  for (const TopValues::Entry& entry : values) {
    if (entry.cut) return false;
    if (type == ValueType::kInt64) {
      const std::optional<int64_t> v = ParseInt64(entry.value);
      if (!v) return false;
      ints.emplace_back(*v, std::to_string(*v));
    } else {
      texts.push_back(entry.value);
    }
  }
  std::sort(ints.begin(), ints.end());
  std::sort(texts.begin(), texts.end());
  std::vector<std::string> listed;
  for (const auto& [value, text] : ints) listed.push_back(text);
  for (const std::string& text : texts) listed.push_back(YamlScalar(text));
  std::string rule = "in: [";
  for (size_t i = 0; i < listed.size(); ++i) rule += (i ? ", " : "") + listed[i];
  rules->Add(rule + "]", Count(c.distinct()) + " distinct values in " + Count(c.values()) + " rows");
  return true;
}

void SuggestText(const ColumnState& c, ColumnRules* rules) {
  const TextStats& t = c.text();
  if (t.values == 0) return;
  rules->Add("length: {min: " + std::to_string(t.min_length) + ", max: " + std::to_string(t.max_length) + "}",
             "observed lengths over " + Count(t.values) + " values");
  for (int f = 1; f < kValueFormats; ++f) {
    if (t.formats[static_cast<size_t>(f)] != t.values) continue;
    rules->Add("regex: " + YamlScalar(FormatRegex(static_cast<ValueFormat>(f))),
               std::string("every value is an ") + ValueFormatName(static_cast<ValueFormat>(f)) + " (" +
                   Count(t.values) + ")");
    return;
  }
  const auto patterns = c.patterns().Top(2);
  if (c.patterns().exact() && patterns.size() == 1 && patterns[0].count == t.values) {
    if (const std::optional<std::string> regex = PatternRegex(patterns[0].value))
      rules->Add("regex: " + YamlScalar(*regex), "every value has the pattern " + patterns[0].value);
  }
}

bool SuggestUnique(const ColumnState& c, ValueType type) {
  if (c.values() < 2 || !c.distinct_exact() || c.distinct() != c.values()) return false;
  if (type == ValueType::kString) return true;
  // Distinct spellings are distinct integers only when each is spelled canonically.
  return type == ValueType::kInt64 && c.numbers().noncanonical_ints == 0;
}

std::string SourceSection(const TableProfile& profile, const SuggestOptions& options) {
  std::string source;
  if (options.format) source += "  format: " + *options.format + "\n";
  if (options.delimiter) source += "  delimiter: " + YamlScalar(std::string(1, *options.delimiter)) + "\n";
  if (!options.header) source += "  header: false\n";
  if (options.null_values != std::vector<std::string>{""}) {
    source += "  null_values: [";
    for (size_t i = 0; i < options.null_values.size(); ++i)
      source += (i ? ", " : "") + YamlScalar(options.null_values[i]);
    source += "]\n";
  }
  if (profile.malformed_rows() > 0) {
    const double pass_rate = static_cast<double>(profile.rows() - profile.malformed_rows()) /
                             static_cast<double>(profile.rows());
    source += "  malformed: {mostly: " + FormatDouble(FloorMicro(pass_rate)) + "}  # " +
              Count(profile.malformed_rows()) + " of " + Count(profile.rows()) + " records unreadable\n";
  }
  return source.empty() ? "" : "source:\n" + source;
}

}  // namespace

std::string YamlScalar(std::string_view text) {
  if (IsIdentifier(text)) return std::string(text);
  std::string out = "\"";
  for (char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string DatasetNameFor(const std::string& input) {
  if (input == "-" || input.empty()) return "data";
  std::string name = input;
  while (!name.empty() && name.back() == '/') name.pop_back();
  const size_t slash = name.rfind('/');
  if (slash != std::string::npos) name = name.substr(slash + 1);
  const size_t dot = name.find('.');
  if (dot != std::string::npos && dot > 0) name = name.substr(0, dot);
  return name.empty() ? "data" : name;
}

std::string SuggestRules(const TableProfile& profile, const SuggestOptions& options) {
  std::string out = "# Suggested by griffin suggest from";
  for (const std::string& input : options.inputs) out += " " + input;
  out += " (" + Count(profile.rows()) + " rows). Each rule's comment gives its evidence;\n"
         "# the data it was made from passes every rule. Review before use: bounds are the observed ones.\n"
         "griffin: 1\ndataset: " + YamlScalar(options.dataset) + "\n";
  out += SourceSection(profile, options);
  std::vector<TableRule> table;
  if (profile.rows() > 0) table.push_back({"row_count: {min: 1}", Count(profile.rows()) + " rows read"});
  std::string columns;
  bool any_column = false;
  for (const auto& [name, c] : profile.columns()) {
    if (c.unsupported()) {
      columns += "  # " + YamlScalar(name) + ": a nested Arrow type; no rule suggested\n";
      continue;
    }
    if (c.values() == 0) {
      columns += "  # " + YamlScalar(name) + ": every value is null (" + Count(c.rows()) + " rows); no rule suggested\n";
      continue;
    }
    const InferredType inferred = InferType(c);
    const bool typed = inferred.type == ValueType::kString || inferred.confidence == 1.0;
    const ValueType type = typed ? inferred.type : ValueType::kString;
    ColumnRules rules;
    if (typed)
      rules.Add(std::string("type: ") + ValueTypeName(type),
                type == ValueType::kString ? "text (" + Percent(inferred.confidence) + " read as no other type)"
                                           : "all " + Count(c.values()) + " values read as " + ValueTypeName(type));
    else
      rules.Add("type: string", "mixed: " + Percent(inferred.confidence) + " read as " +
                                    ValueTypeName(inferred.type) + ", not all");
    if (c.nulls() == 0) {
      rules.Add("not_null: true", "no nulls in " + Count(c.rows()) + " rows");
    } else {
      const double n = static_cast<double>(c.rows());
      const double p = static_cast<double>(c.nulls()) / n;
      const double upper = std::min(1.0, CeilMicro(p + kWaldZ * std::sqrt(p * (1 - p) / n)));
      table.push_back({"null_fraction: {column: " + YamlScalar(name) + ", max: " + FormatDouble(upper) + "}",
                       Count(c.nulls()) + " nulls in " + Count(c.rows()) + " rows (" + Percent(p) +
                           "); 95% Wald upper bound"});
    }
    if (SuggestUnique(c, type)) rules.Add("unique: true", "all " + Count(c.values()) + " values distinct");
    const bool listed = SuggestIn(c, type, &rules);
    SuggestRange(c, type, &rules);
    if (type == ValueType::kString && !listed) SuggestText(c, &rules);  // an `in` list says more
    rules.Write(name, &columns);
    any_column = true;
  }
  out += any_column ? "columns:\n" + columns : columns;  // comments only: no empty `columns:`
  if (!table.empty()) out += "table:\n";
  for (const TableRule& rule : table) {
    std::string line = "  - " + rule.rule;
    if (line.size() < 44) line.resize(44, ' ');
    out += line + "  # " + rule.evidence + "\n";
  }
  return out;
}

}  // namespace griffin
