#include "rules/history_check_loader.h"

#include <string>
#include <vector>

namespace griffin::rules_internal {

namespace {

// `last_passed`, `run:ID` or `profile:FILE`.
Status ParseBaseline(const YamlContext& ctx, const Field& field, DriftCheck* check) {
  ASSIGN_OR_RETURN(std::string text, ReadString(ctx, field));
  check->baseline_text = text;
  if (text == "last_passed") {
    check->baseline = DriftCheck::Baseline::kLastPassed;
    return Status::OK();
  }
  const auto rest = [&](const std::string& prefix) { return text.substr(prefix.size()); };
  if (text.rfind("run:", 0) == 0 && text.size() > 4) {
    check->baseline = DriftCheck::Baseline::kRun;
    check->reference = rest("run:");
    return Status::OK();
  }
  if (text.rfind("profile:", 0) == 0 && text.size() > 8) {
    check->baseline = DriftCheck::Baseline::kProfile;
    check->reference = rest("profile:");
    return Status::OK();
  }
  return ctx.Error(field, "unknown baseline '" + text +
                              "' (expected last_passed, run:RUN_ID or profile:FILE)");
}

}  // namespace

Result<DriftCheck> LoadDriftCheck(const YamlContext& ctx, const Field& field) {
  DriftCheck check;
  check.location = field.key_location;
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   MapFields(ctx, field, "a map like {baseline: last_passed, max: 0.1}"));
  bool has_baseline = false, has_max = false;
  for (const Field& entry : entries) {
    if (entry.key == "baseline") {
      RETURN_IF_ERROR(ParseBaseline(ctx, entry, &check));
      has_baseline = true;
    } else if (entry.key == "max") {
      ASSIGN_OR_RETURN(check.max, ReadNumberInRange(ctx, entry, 0.0, 1.0));
      has_max = true;
    } else if (entry.key == "mostly") {
      return ctx.Error(entry.key_location.line, entry.path,
                       "mostly does not apply to drift (it compares distributions, not rows)");
    } else {
      ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, false, &check.options));
      if (!is_option) return UnknownKey(ctx, entry, {"baseline", "max", "severity", "message"});
    }
  }
  if (!has_baseline) return ctx.Error(field, "needs a baseline (last_passed, run:RUN_ID or profile:FILE)");
  if (!has_max) return ctx.Error(field, "needs max (the largest distance that passes, 0 to 1)");
  return check;
}

}  // namespace griffin::rules_internal
