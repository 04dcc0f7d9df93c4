#include "server/ui_pages.h"

#include <strings.h>

#include <optional>

#include "report/html/html_index.h"
#include "report/html/stored_run_page.h"
#include "report/report_reader.h"

namespace griffin::server {
namespace {

constexpr const char* kRunPrefix = "/ui/runs/";

// Standard base64 (RFC 4648, padding optional); nullopt for anything else.
std::optional<std::string> DecodeBase64(std::string_view text) {
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '=') --end;
  if (text.size() - end > 2) return std::nullopt;
  for (size_t i = 0; i < end; ++i) {
    const char c = text[i];
    int value;
    if (c >= 'A' && c <= 'Z') value = c - 'A';
    else if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
    else if (c >= '0' && c <= '9') value = c - '0' + 52;
    else if (c == '+') value = 62;
    else if (c == '/') value = 63;
    else return std::nullopt;
    bits = (bits << 6) | static_cast<uint32_t>(value);
    if (++count == 4) {
      out += static_cast<char>((bits >> 16) & 0xFF);
      out += static_cast<char>((bits >> 8) & 0xFF);
      out += static_cast<char>(bits & 0xFF);
      bits = 0;
      count = 0;
    }
  }
  if (count == 1) return std::nullopt;
  if (count == 2) out += static_cast<char>((bits >> 4) & 0xFF);
  if (count == 3) {
    out += static_cast<char>((bits >> 10) & 0xFF);
    out += static_cast<char>((bits >> 2) & 0xFF);
  }
  return out;
}

}  // namespace

std::string UiAuthorization(std::string_view authorization) {
  std::string_view value = authorization;
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (value.size() < 6 || strncasecmp(value.data(), "basic ", 6) != 0) return std::string(authorization);
  value.remove_prefix(6);
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  const std::optional<std::string> decoded = DecodeBase64(value);
  const size_t colon = decoded ? decoded->find(':') : std::string::npos;
  if (colon == std::string::npos) return std::string(authorization);  // not credentials: refused as it is
  return "Bearer " + decoded->substr(colon + 1);
}

ServiceResult<std::string> UiIndexPage(ServiceCore& core, const Caller& caller) {
  std::vector<DatasetRuns> datasets;
  for (const auto& dataset : core.registry().All())
    if (core.MayUse(caller, dataset->name)) datasets.push_back({dataset->name, {}, ""});
  if (!core.recording()) {
    for (DatasetRuns& dataset : datasets) dataset.note = "The server runs with --no-store: no runs are recorded.";
    return RenderIndexPage("griffin serve", datasets, kRunPrefix);
  }
  return core.ReadStore([&](RunStore& store) -> Result<std::string> {
    for (DatasetRuns& dataset : datasets) {
      ASSIGN_OR_RETURN(dataset.runs, store.History(dataset.dataset, kUiIndexRuns));
    }
    return RenderIndexPage("griffin serve", datasets, kRunPrefix);
  });
}

ServiceResult<std::string> UiRunPage(ServiceCore& core, const Caller& caller, const std::string& run_id) {
  const Denial not_found{Refusal::kNotFound, "no finished run '" + run_id + "'"};
  ServiceResult<std::string> json = core.ReadStore([&](RunStore& store) -> Result<std::string> {
    ASSIGN_OR_RETURN(std::optional<std::string> stored, store.ReportJson(run_id));
    return stored.value_or("");
  });
  if (!json.ok()) return json.denial();
  if (json.value().empty()) return not_found;
  Result<Report> run = ReportFromJson(json.value(), "run " + run_id);
  if (!run.ok() || !core.MayUse(caller, run->dataset)) return not_found;
  return core.ReadStore([&](RunStore& store) {
    return StoredRunPage(store, run_id, {{{"all datasets", "/ui/"}}, kRunPrefix});
  });
}

}  // namespace griffin::server
