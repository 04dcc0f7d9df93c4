// Helpers the rule loader uses to walk yaml-cpp nodes while keeping the
// location and key path of every value, so that each problem becomes one
// RuleError "<file>:<line>: <key path>: <what>" (rule_loader.h).
//
//   YamlContext ctx("rules.yaml");
//   ASSIGN_OR_RETURN(std::vector<Field> fields, MapFields(ctx, root));
//   for (const Field& f : fields) if (f.key == "dataset") ...
//
// Internal to rules/. Functions never throw (they only read nodes that exist).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "rules/rule_set.h"
#include "util/status.h"

namespace griffin::rules_internal {

// A value in the rule file with where it is and how to name it.
struct Field {
  Field() = default;
  Field(const Field&) = default;
  // yaml-cpp's Node::operator= writes through to the node it refers to; a
  // Field assignment rebinds instead, leaving the document untouched.
  Field& operator=(const Field& other) {
    node.reset(other.node);
    key = other.key;
    path = other.path;
    line = other.line;
    key_location = other.key_location;
    return *this;
  }

  YAML::Node node;              // the value
  std::string key;              // the map key ("" for a list item or the root)
  std::string path;             // "columns.amount.min", "rows[0].expr"
  int line = 1;                 // 1-based line for messages: the key's (a list item's own)
  SourceLocation key_location;  // the key (for list items: the item itself)
};

// Builds messages for one rule file.
class YamlContext {
 public:
  explicit YamlContext(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  // "<file>:<line>: <path>: <what>" (no "<path>: " when path is empty).
  Status Error(int line, std::string_view path, std::string_view what) const;
  Status Error(const Field& field, std::string_view what) const {
    return Error(field.line, field.path, what);
  }

 private:
  std::string file_;
};

// Parses YAML text; a syntax error is "<file>:<line>: invalid YAML: ...".
Result<YAML::Node> ParseYamlText(const YamlContext& ctx, const std::string& text);

// The root of a document as a Field.
Field RootField(const YAML::Node& root);

// 1-based location of a node; {0, 0} when it has none.
SourceLocation LocationOf(const YAML::Node& node);

// The entries of a map in file order. Errors: not a map ("expected <what>"),
// a key that is not a plain string, a key given twice.
Result<std::vector<Field>> MapFields(const YamlContext& ctx, const Field& map,
                                     std::string_view what = "a map");

// The items of a list, with paths "<path>[i]". Errors when not a list.
Result<std::vector<Field>> ListItems(const YamlContext& ctx, const Field& list,
                                     std::string_view what = "a list");

// "unknown key (expected one of: a, b, c)".
Status UnknownKey(const YamlContext& ctx, const Field& field,
                  std::initializer_list<std::string_view> expected);

// A scalar as text. Errors for an empty value, a list or a map.
Result<std::string> ReadString(const YamlContext& ctx, const Field& field);

// true/false (YAML spellings true, True, TRUE, ...).
Result<bool> ReadBool(const YamlContext& ctx, const Field& field);

// A finite number within [low, high].
Result<double> ReadNumberInRange(const YamlContext& ctx, const Field& field, double low,
                                 double high);

// A whole number within [low, high].
Result<int64_t> ReadWholeNumber(const YamlContext& ctx, const Field& field, int64_t low, int64_t high);

// error | warn.
Result<Severity> ReadSeverity(const YamlContext& ctx, const Field& field);

// Reads `severity`, `mostly` (when allow_mostly) or `message` into `options`.
// Returns false when `field.key` is none of them (nothing is changed).
Result<bool> ReadCheckOption(const YamlContext& ctx, const Field& field, bool allow_mostly,
                             CheckOptions* options);

// Splits a long-form check ({value: .., severity: .., mostly: .., message: ..})
// into its value field and `options`; a short form is its own value.
// `value_key` is "value", "pattern" or "values".
Result<Field> SplitLongForm(const YamlContext& ctx, const Field& field, const char* value_key,
                            bool allow_mostly, CheckOptions* options);

// The text of a scalar with YAML's number spellings (.inf, -.inf, .nan)
// turned into the ones ParseFloat64 reads.
std::string NumberText(const std::string& scalar);

}  // namespace griffin::rules_internal
