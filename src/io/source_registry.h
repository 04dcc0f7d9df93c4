// The adapter registry: which code opens an input named by a URI scheme.
// Front ends (CLI, Python, server) never name a scheme: they call
// ExpandInputs / OpenInputs (io/input_source.h), which come here for URIs.
//
//   data/x.csv, "-", file:///data/x.csv   files, as OpenInput always read them
//   sqlite:///data/app.db?table=orders    the opener registered for "sqlite"
//   s3://bucket/key.parquet               the opener registered for "s3"
//
// A URI is "scheme://rest" with scheme = a letter, then letters, digits, '+',
// '-', '.' (RFC 3986), compared case-insensitively. Anything else is a path.
//
// The contract of an opener: given the whole URI, the ReadOptions and the
// input index, it returns an InputSource whose chunks decode into Batches
// (Arrow data checked by io/arrow_check.h, as typed inputs are), or a Status
// whose message names the URI with RedactUri (a password is never printed):
// InputError when the data cannot be reached or read (exit 3), UsageError
// when the URI itself is wrong (exit 2). What a source pushes down is declared
// when it registers (SourcePushdown); OpenSource refuses options the source
// cannot honour rather than ignoring them:
//   columns  it reads only ReadOptions::json_columns (the columns the rules
//            name) when that list is not empty; other sources read them all;
//   filter   it applies ReadOptions::where (rows it does not match are not
//            read at all, so they are not in the report);
//   query    it reads the result of ReadOptions::query instead of a table.
//
// Built-in adapters register themselves on first use of the registry, in
// RegisterBuiltinSources (src/connectors/builtin_sources.cc): the one place a
// new adapter adds a line. Tests may RegisterSource their own schemes.
// Thread safety: every function here may be called from any thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/input_source.h"
#include "util/status.h"

namespace griffin {

struct SourcePushdown {
  bool columns = false;
  bool filter = false;
  bool query = false;
};

using SourceOpener = std::function<Result<std::unique_ptr<InputSource>>(
    const std::string& uri, const ReadOptions& options, int input_index)>;

struct SourceAdapter {
  SourceOpener open;
  SourcePushdown pushdown;
  std::string example;  // a URI that shows the form, for help and errors
};

// The scheme of a URI, lowercased, or nullopt for a path ("-", "x.csv",
// "C:x", "dir/a://b" are paths).
std::optional<std::string> UriScheme(std::string_view input);

// Adds (or replaces) the adapter for `scheme` (lowercase, without "://").
void RegisterSource(const std::string& scheme, SourceAdapter adapter);

// The registered schemes, sorted, "file" included.
std::vector<std::string> RegisteredSourceSchemes();

// True for a path or a file:// URI: an input OpenInput reads as a file.
bool IsFileInput(std::string_view input);

// The path a file input names: itself, or a file:// URI's path
// ("file:///a/b" and "file://localhost/a/b" are "/a/b"). A file:// URI with
// another host is a UsageError.
Result<std::string> FilePathOf(const std::string& input);

// Opens a URI of a registered scheme other than file. An unknown scheme is a
// UsageError naming the URI and the known schemes; ReadOptions::where or
// ::query on a source that cannot apply them is a UsageError.
Result<std::unique_ptr<InputSource>> OpenSource(const std::string& uri, const ReadOptions& options,
                                                int input_index);

// `input` as messages and reports show it: a URI's password (the text between
// "user:" and "@" before the host) becomes "***"; a path is unchanged.
std::string RedactUri(std::string_view input);

// Defined in src/connectors/builtin_sources.cc; called once by the registry.
void RegisterBuiltinSources();

}  // namespace griffin
