#include "io/source_registry.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

namespace griffin {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, SourceAdapter> adapters;  // by scheme
};

Registry& TheRegistry() {
  static Registry& registry = *new Registry();  // never destroyed: openers may run at exit
  return registry;
}

// Registers the built-in adapters once (they call RegisterSource).
void EnsureBuiltins() {
  static std::once_flag builtins;
  std::call_once(builtins, [] { RegisterBuiltinSources(); });
}

bool IsSchemeChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

Status UnknownScheme(const std::string& uri) {
  return Status::UsageError(RedactUri(uri) + ": unknown input scheme '" + UriScheme(uri).value_or("") +
                            "' (known: " + Joined(RegisteredSourceSchemes()) + ")");
}

// The adapter of `uri`'s scheme (a copy: openers run without the lock), or
// one with no functions when none is registered.
SourceAdapter AdapterOf(std::string_view uri) {
  std::optional<std::string> scheme = InputScheme(uri);
  EnsureBuiltins();
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  auto found = scheme ? registry.adapters.find(*scheme) : registry.adapters.end();
  return found == registry.adapters.end() ? SourceAdapter() : found->second;
}

}  // namespace

std::optional<std::string> UriScheme(std::string_view input) {
  const size_t end = input.find("://");
  if (end == std::string_view::npos || end == 0) return std::nullopt;
  if (!std::isalpha(static_cast<unsigned char>(input[0]))) return std::nullopt;
  std::string scheme;
  for (size_t i = 0; i < end; ++i) {
    if (!IsSchemeChar(input[i])) return std::nullopt;
    scheme += static_cast<char>(std::tolower(static_cast<unsigned char>(input[i])));
  }
  return scheme;
}

std::optional<std::string> InputScheme(std::string_view input) {
  EnsureBuiltins();
  std::vector<std::pair<std::string, std::function<bool(std::string_view)>>> claimers;
  {
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    for (const auto& [scheme, adapter] : registry.adapters)
      if (adapter.claims) claimers.emplace_back(scheme, adapter.claims);
  }
  for (const auto& [scheme, claims] : claimers)  // without the lock: a claim may look at the disk
    if (claims(input)) return scheme;
  return UriScheme(input);
}

void RegisterSource(const std::string& scheme, SourceAdapter adapter) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.adapters[scheme] = std::move(adapter);
}

std::vector<std::string> RegisteredSourceSchemes() {
  EnsureBuiltins();
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::vector<std::string> schemes = {"file"};
  for (const auto& [scheme, adapter] : registry.adapters) schemes.push_back(scheme);
  std::sort(schemes.begin(), schemes.end());
  return schemes;
}

bool IsFileInput(std::string_view input) {
  std::optional<std::string> scheme = InputScheme(input);
  return !scheme || *scheme == "file";
}

Result<std::string> FilePathOf(const std::string& input) {
  if (!UriScheme(input)) return input;
  std::string_view rest = std::string_view(input).substr(input.find("://") + 3);
  if (rest.substr(0, 9) == "localhost") rest.remove_prefix(9);
  if (rest.empty() || rest[0] != '/')
    return Status::UsageError(input + ": a file URI names a local path: file:///absolute/path");
  return std::string(rest);
}

Result<std::unique_ptr<InputSource>> OpenSource(const std::string& uri, const ReadOptions& options,
                                                int input_index) {
  const SourceAdapter adapter = AdapterOf(uri);
  if (!adapter.open) return UnknownScheme(uri);
  if (!options.where.empty() && !adapter.pushdown.filter)
    return Status::UsageError(RedactUri(uri) + ": this source cannot filter rows (where)");
  if (!options.query.empty() && !adapter.pushdown.query)
    return Status::UsageError(RedactUri(uri) + ": this source cannot run a query");
  if (!options.incremental_column.empty() && !adapter.pushdown.increment)
    return Status::UsageError(RedactUri(uri) + ": this source cannot be read incrementally (source.incremental)");
  return adapter.open(uri, options, input_index);
}

Result<std::optional<SourceWatermark>> ReadSourceWatermark(const std::string& uri, const ReadOptions& options) {
  const std::string shown = RedactUri(uri);
  if (IsFileInput(uri))
    return Status::UsageError(shown + ": a file cannot be read incrementally (source.incremental); that needs a "
                              "database table or query such as sqlite:///path.db?table=name");
  const SourceAdapter adapter = AdapterOf(uri);
  if (!adapter.open) return UnknownScheme(uri);
  if (!adapter.pushdown.increment || !adapter.watermark)
    return Status::UsageError(shown + ": this source cannot be read incrementally (source.incremental)");
  return adapter.watermark(uri, options);
}

Result<std::vector<std::string>> ExpandSource(const std::string& uri) {
  const SourceAdapter adapter = AdapterOf(uri);
  if (!adapter.open) return UnknownScheme(uri);
  if (!adapter.expand) return std::vector<std::string>{uri};
  return adapter.expand(uri);
}

std::optional<SourceIdentity> DescribeSource(const std::string& uri) {
  const SourceAdapter adapter = AdapterOf(uri);
  if (!adapter.describe) return std::nullopt;
  Result<SourceIdentity> identity = adapter.describe(uri);
  if (!identity.ok()) return std::nullopt;
  return *identity;
}

std::optional<int64_t> TableVersionRead(const std::string& input) {
  const SourceAdapter adapter = AdapterOf(input);
  return adapter.version_read ? adapter.version_read(input) : std::nullopt;
}

bool IsOutputObjectUri(std::string_view path) {
  return InputScheme(path) && AdapterOf(path).open_output != nullptr;
}

Result<std::unique_ptr<OutputObject>> OpenOutputObject(const std::string& uri, const OutputObjectOptions& options) {
  const SourceAdapter adapter = AdapterOf(uri);
  if (!adapter.open_output)
    return Status::UsageError(RedactUri(uri) + ": outputs cannot be written to this scheme");
  return adapter.open_output(uri, options);
}

bool AdapterOutputWritesParquet(const std::string& uri) {
  return InputScheme(uri) && AdapterOf(uri).output_writes_parquet;
}

std::optional<InputFormat> AdapterOutputFormat(const std::string& uri) {
  if (!InputScheme(uri)) return std::nullopt;
  return AdapterOf(uri).output_format;
}

std::string RedactUri(std::string_view input) {
  if (!UriScheme(input)) return std::string(input);
  std::string out(input);
  // user:password@host
  const size_t authority = out.find("://") + 3;
  const size_t authority_end = std::min(out.find_first_of("/?#", authority), out.size());
  const size_t at = out.rfind('@', authority_end);
  const size_t colon = out.find(':', authority);
  if (at != std::string::npos && at >= authority && colon < at)
    out = out.substr(0, colon + 1) + "***" + out.substr(at);
  // ?password=... (libpq's parameter)
  for (size_t from = out.find('?'); from != std::string::npos; from = out.find('&', from + 1)) {
    if (out.compare(from + 1, 9, "password=") != 0) continue;
    const size_t value = from + 10;
    const size_t value_end = std::min(out.find_first_of("&#", value), out.size());
    out = out.substr(0, value) + "***" + out.substr(value_end);
  }
  return out;
}

}  // namespace griffin
