#include "rules/stream_rule_loader.h"

#include <cstdint>
#include <string>

namespace griffin::rules_internal {
namespace {

constexpr int64_t kMaxWindowRecords = 1'000'000'000;
constexpr int64_t kMaxWindowMs = 24LL * 3600 * 1000;

// "10m", "30s", "500ms", "1h" -> milliseconds; -1 when it is not one.
int64_t DurationMs(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 9) return -1;
  const int64_t number = std::stoll(text.substr(0, digits));
  const std::string unit = text.substr(digits);
  if (unit == "ms") return number;
  if (unit == "s") return number * 1000;
  if (unit == "m") return number * 60 * 1000;
  if (unit == "h") return number * 3600 * 1000;
  return -1;
}

Status LoadWindow(const YamlContext& ctx, const Field& field, StreamRules* rules) {
  ASSIGN_OR_RETURN(std::string text, ReadString(ctx, field));
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    ASSIGN_OR_RETURN(rules->window_records, ReadWholeNumber(ctx, field, 1, kMaxWindowRecords));
    return Status::OK();
  }
  const int64_t ms = DurationMs(text);
  if (ms < 0) {
    return ctx.Error(field, "expected a number of records (5000) or a duration (500ms, 30s, 10m, 1h), found '" +
                                text + "'");
  }
  if (ms < 1 || ms > kMaxWindowMs) return ctx.Error(field, "must be from 1ms to 24h, found '" + text + "'");
  rules->window_ms = ms;
  return Status::OK();
}

}  // namespace

Result<StreamRules> LoadStreamRules(const YamlContext& ctx, const Field& stream) {
  StreamRules rules;
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, stream, "a map like {window: 10m}"));
  for (const Field& entry : entries) {
    if (entry.key != "window") return UnknownKey(ctx, entry, {"window"});
    RETURN_IF_ERROR(LoadWindow(ctx, entry, &rules));
  }
  return rules;
}

}  // namespace griffin::rules_internal
