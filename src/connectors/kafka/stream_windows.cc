#include "connectors/kafka/stream_windows.h"

#include <algorithm>

namespace griffin::kafka {

Result<std::unique_ptr<StreamWindows>> StreamWindows::Open(Settings settings, const std::string& store_uri) {
  std::unique_ptr<RunStore> store;
  if (!store_uri.empty()) {
    ASSIGN_OR_RETURN(store, OpenRunStore(store_uri));
  }
  if (!store && settings.metrics == nullptr) return std::unique_ptr<StreamWindows>();
  return std::unique_ptr<StreamWindows>(new StreamWindows(std::move(settings), std::move(store)));
}

int64_t StreamWindows::WindowRecords(const RuleSet& rules) const {
  if (settings_.window_ms > 0) return 0;
  return rules.stream ? rules.stream->window_records : 0;
}

int64_t StreamWindows::CutBatch(int64_t limit, const RuleSet& rules) const {
  const int64_t window_records = WindowRecords(rules);
  if (window_records == 0) return limit;
  return std::max<int64_t>(1, std::min(limit, window_records - window_.messages()));
}

bool StreamWindows::IsDue(const RuleSet& rules) const {
  if (window_.empty() || WindowRecords(rules) > 0) return false;
  int64_t window_ms = settings_.window_ms;
  if (window_ms <= 0) window_ms = rules.stream && rules.stream->window_ms > 0 ? rules.stream->window_ms : kDefaultWindowMs;
  return window_.age_ms() >= window_ms;
}

void StreamWindows::Close(const RuleSet& rules) {
  if (window_.empty()) return;
  StreamWindow::Closed closed = window_.Close(store_.get(), rules);
  if (!closed.recorded.ok() && settings_.log) {
    settings_.log("the run store did not record a window: " + closed.recorded.message());
  }
  if (settings_.metrics != nullptr) settings_.metrics->CountWindow(closed.report.quality_score);
}

void StreamWindows::Add(const Validator& validator, const Report& batch, const std::string& state,
                        const std::map<int32_t, std::pair<int64_t, int64_t>>& offsets, int64_t messages) {
  Status added = window_.Add(validator.shared_plan(), batch, state, offsets, messages);
  if (!added.ok()) {  // not expected: the state is this batch's, of these rules
    if (settings_.log) settings_.log("a micro-batch did not join its window: " + added.message());
    return;
  }
  const RuleSet& rules = validator.rules();
  const int64_t window_records = WindowRecords(rules);
  if (window_records > 0 ? window_.messages() >= window_records : IsDue(rules)) Close(rules);
}

}  // namespace griffin::kafka
