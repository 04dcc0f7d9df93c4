#include "rules/training_rule_loader.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "util/value_parse.h"

namespace griffin::rules_internal {
namespace {

// The largest spike window: the service keeps this many values per series.
constexpr int64_t kMaxSpikeWindow = 100000;
// min_history when not given: enough values for a meaningful sample sd.
constexpr int64_t kDefaultMinHistory = 10;


Result<double> ReadFiniteNumber(const YamlContext& ctx, const Field& field) {
  constexpr double kMax = std::numeric_limits<double>::max();
  return ReadNumberInRange(ctx, field, -kMax, kMax);
}

Status LoadSpike(const YamlContext& ctx, const Field& field, TelemetryCheck* check) {
  if (!field.node.IsMap()) return ctx.Error(field, "expected a map like {sigma: 6, window: 100}");
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, field));
  std::optional<int64_t> min_history;
  bool has_sigma = false;
  for (const Field& entry : entries) {
    if (entry.key == "sigma") {
      ASSIGN_OR_RETURN(check->sigma, ReadNumberInRange(ctx, entry, 0.0, 1e6));
      if (check->sigma <= 0) return ctx.Error(entry, "must be greater than 0");
      has_sigma = true;
    } else if (entry.key == "window") {
      ASSIGN_OR_RETURN(check->window, ReadWholeNumber(ctx, entry, 2, kMaxSpikeWindow));
    } else if (entry.key == "min_history") {
      ASSIGN_OR_RETURN(min_history, ReadWholeNumber(ctx, entry, 2, kMaxSpikeWindow));
    } else if (entry.key == "direction") {
      ASSIGN_OR_RETURN(std::string direction, ReadString(ctx, entry));
      if (direction == "up") check->direction = SpikeDirection::kUp;
      else if (direction == "down") check->direction = SpikeDirection::kDown;
      else if (direction == "both") check->direction = SpikeDirection::kBoth;
      else return ctx.Error(entry, "expected up, down or both, found '" + direction + "'");
    } else {
      ASSIGN_OR_RETURN(bool is_option, ReadCheckOption(ctx, entry, /*allow_mostly=*/false, &check->options));
      if (!is_option) {
        return UnknownKey(ctx, entry, {"sigma", "window", "min_history", "direction", "severity", "message"});
      }
    }
  }
  if (!has_sigma) return ctx.Error(field, "missing sigma (standard deviations that make a spike)");
  if (check->window == 0) return ctx.Error(field, "missing window (how many previous steps to compare with)");
  check->min_history = min_history.value_or(std::min(check->window, kDefaultMinHistory));
  if (check->min_history > check->window) {
    return ctx.Error(field, "min_history (" + std::to_string(check->min_history) + ") cannot exceed window (" +
                                std::to_string(check->window) + ")");
  }
  return Status::OK();
}

// One check key of a series; nullopt for a flag set to false (no check).
Result<std::optional<TelemetryCheck>> LoadCheck(const YamlContext& ctx, const Field& field) {
  TelemetryCheck check;
  check.location = field.key_location;
  if (field.key == "spike") {
    check.kind = TelemetryCheckKind::kSpike;
    RETURN_IF_ERROR(LoadSpike(ctx, field, &check));
    return std::optional<TelemetryCheck>(check);
  }
  if (field.key == "required" || field.key == "finite") {
    check.kind = field.key == "required" ? TelemetryCheckKind::kRequired : TelemetryCheckKind::kFinite;
    ASSIGN_OR_RETURN(Field value, SplitLongForm(ctx, field, "value", /*allow_mostly=*/false, &check.options));
    ASSIGN_OR_RETURN(bool enabled, ReadBool(ctx, value));
    if (!enabled) return std::optional<TelemetryCheck>();
    return std::optional<TelemetryCheck>(check);
  }
  if (field.key == "min" || field.key == "max") {
    check.kind = field.key == "min" ? TelemetryCheckKind::kMin : TelemetryCheckKind::kMax;
    ASSIGN_OR_RETURN(Field value, SplitLongForm(ctx, field, "value", /*allow_mostly=*/false, &check.options));
    ASSIGN_OR_RETURN(check.bound, ReadFiniteNumber(ctx, value));
    return std::optional<TelemetryCheck>(check);
  }
  return UnknownKey(ctx, field, {"required", "finite", "min", "max", "spike"});
}

Result<TelemetrySeries> LoadSeries(const YamlContext& ctx, const Field& field, std::string name, bool is_loss) {
  TelemetrySeries series;
  series.name = std::move(name);
  series.is_loss = is_loss;
  series.location = field.key_location;
  if (field.node.IsNull()) return series;
  ASSIGN_OR_RETURN(std::vector<Field> entries, MapFields(ctx, field, "a map of checks, like {finite: true, max: 10}"));
  std::optional<double> min, max;
  for (const Field& entry : entries) {
    ASSIGN_OR_RETURN(std::optional<TelemetryCheck> check, LoadCheck(ctx, entry));
    if (!check) continue;
    if (check->kind == TelemetryCheckKind::kMin) min = check->bound;
    if (check->kind == TelemetryCheckKind::kMax) max = check->bound;
    if (min && max && *min > *max) return ctx.Error(entry, "min is greater than max");
    series.checks.push_back(*check);
  }
  return series;
}

}  // namespace

Result<TrainingRules> LoadTrainingRules(const YamlContext& ctx, const Field& training) {
  TrainingRules rules;
  rules.location = training.key_location;
  if (training.node.IsNull()) return rules;
  ASSIGN_OR_RETURN(std::vector<Field> entries,
                   MapFields(ctx, training, "a map with loss, metrics, unknown_batch, min_score"));
  for (const Field& entry : entries) {
    if (entry.key == "loss") {
      ASSIGN_OR_RETURN(TelemetrySeries loss, LoadSeries(ctx, entry, "loss", /*is_loss=*/true));
      rules.series.push_back(std::move(loss));
    } else if (entry.key == "metrics") {
      if (entry.node.IsNull()) continue;
      ASSIGN_OR_RETURN(std::vector<Field> metrics, MapFields(ctx, entry, "a map from metric names to checks"));
      for (const Field& metric : metrics) {
        ASSIGN_OR_RETURN(TelemetrySeries series, LoadSeries(ctx, metric, metric.key, /*is_loss=*/false));
        rules.series.push_back(std::move(series));
      }
    } else if (entry.key == "unknown_batch") {
      ASSIGN_OR_RETURN(std::string mode, ReadString(ctx, entry));
      if (mode == "fail") rules.unknown_batch = TrainingRules::UnknownBatch::kFail;
      else if (mode == "neutral") rules.unknown_batch = TrainingRules::UnknownBatch::kNeutral;
      else return ctx.Error(entry, "expected fail or neutral, found '" + mode + "'");
    } else if (entry.key == "min_score") {
      ASSIGN_OR_RETURN(rules.min_score, ReadNumberInRange(ctx, entry, 0.0, 1.0));
    } else {
      return UnknownKey(ctx, entry, {"loss", "metrics", "unknown_batch", "min_score"});
    }
  }
  return rules;
}

}  // namespace griffin::rules_internal
