#include "rules/alert_loader.h"

#include <optional>
#include <string>

namespace griffin::rules_internal {
namespace {

constexpr AlertEvent kEvents[] = {AlertEvent::kFailure, AlertEvent::kScoreDrop, AlertEvent::kDrift,
                                  AlertEvent::kAnomaly};

Status LoadEvents(const YamlContext& ctx, const Field& field, AlertTarget* target) {
  ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, field, "a list like [failure, drift]"));
  if (items.empty()) return ctx.Error(field, "needs at least one event (failure, score_drop, drift, anomaly)");
  target->on.clear();
  for (const Field& item : items) {
    ASSIGN_OR_RETURN(std::string name, ReadString(ctx, item));
    std::optional<AlertEvent> found;
    for (AlertEvent event : kEvents)
      if (name == AlertEventName(event)) found = event;
    if (!found) return ctx.Error(item, "unknown event '" + name + "' (expected failure, score_drop, drift or anomaly)");
    target->on.push_back(*found);
  }
  return Status::OK();
}

Result<AlertTarget> LoadTarget(const YamlContext& ctx, const Field& item) {
  AlertTarget target;
  target.line = item.line;
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, item, "a map like {url: https://..., format: slack}"));
  for (const Field& entry : entries) {
    if (entry.key == "url") {
      ASSIGN_OR_RETURN(target.url, ReadString(ctx, entry));
      if (target.url.rfind("http://", 0) != 0 && target.url.rfind("https://", 0) != 0)
        return ctx.Error(entry, "expected an http:// or https:// URL");
    } else if (entry.key == "url_env") {
      ASSIGN_OR_RETURN(target.url_env, ReadString(ctx, entry));
    } else if (entry.key == "format") {
      ASSIGN_OR_RETURN(std::string format, ReadString(ctx, entry));
      if (format == "json") target.format = AlertTarget::Format::kJson;
      else if (format == "slack") target.format = AlertTarget::Format::kSlack;
      else return ctx.Error(entry, "expected json or slack, found '" + format + "'");
    } else if (entry.key == "on") {
      RETURN_IF_ERROR(LoadEvents(ctx, entry, &target));
    } else if (entry.key == "min_score_drop") {
      ASSIGN_OR_RETURN(target.min_score_drop, ReadNumberInRange(ctx, entry, 0, 1));
    } else if (entry.key == "timeout_s") {
      ASSIGN_OR_RETURN(target.timeout_s, ReadNumberInRange(ctx, entry, 0.1, 60));
    } else if (entry.key == "retries") {
      ASSIGN_OR_RETURN(int64_t retries, ReadWholeNumber(ctx, entry, 0, 10));
      target.retries = static_cast<int>(retries);
    } else if (entry.key == "backoff_s") {
      ASSIGN_OR_RETURN(target.backoff_s, ReadNumberInRange(ctx, entry, 0, 60));
    } else if (entry.key == "deadline_s") {
      ASSIGN_OR_RETURN(target.deadline_s, ReadNumberInRange(ctx, entry, 0.1, 600));
    } else if (entry.key == "dedup_s") {
      ASSIGN_OR_RETURN(target.dedup_s, ReadNumberInRange(ctx, entry, 0, 30 * 86400));
    } else {
      return UnknownKey(ctx, entry, {"url", "url_env", "format", "on", "min_score_drop", "timeout_s", "retries",
                                     "backoff_s", "deadline_s", "dedup_s"});
    }
  }
  if (target.url.empty() == target.url_env.empty()) return ctx.Error(item, "needs either url or url_env");
  return target;
}

}  // namespace

Result<std::vector<AlertTarget>> LoadAlertTargets(const YamlContext& ctx, const Field& field) {
  std::vector<AlertTarget> targets;
  if (field.node.IsNull()) return targets;
  ASSIGN_OR_RETURN(std::vector<Field> items, ListItems(ctx, field, "a list of webhooks"));
  for (const Field& item : items) {
    ASSIGN_OR_RETURN(AlertTarget target, LoadTarget(ctx, item));
    targets.push_back(std::move(target));
  }
  return targets;
}

}  // namespace griffin::rules_internal

namespace griffin {

Result<std::vector<AlertTarget>> LoadRuleFileAlerts(const RuleSet& rules) {
  rules_internal::YamlContext ctx(rules.path);
  ASSIGN_OR_RETURN(YAML::Node root, rules_internal::ParseYamlText(ctx, rules.text));
  if (!root.IsMap()) return std::vector<AlertTarget>{};
  ASSIGN_OR_RETURN(std::vector<rules_internal::Field> entries, rules_internal::MapFields(ctx, rules_internal::RootField(root)));
  for (const rules_internal::Field& entry : entries)
    if (entry.key == "alerts") return rules_internal::LoadAlertTargets(ctx, entry);
  return std::vector<AlertTarget>{};
}

}  // namespace griffin
