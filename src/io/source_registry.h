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
//   query    it reads the result of ReadOptions::query instead of a table;
//   increment  it reads only the rows past a watermark of
//            ReadOptions::incremental_column (ReadOptions, "increments"), and
//            says through `watermark` how far the rows reach now.
//
// An adapter may also (each optional: an empty function means it does not):
//   expand       say which inputs a URI stands for: a prefix of an object store
//                becomes its objects, as a local folder becomes its files
//                (ExpandInputs); without it a URI stands for itself;
//   describe     give the identity of what a URI names (size, modification
//                time, ETag or generation) for the run store's lineage and the
//                schema snapshot cache;
//   open_output  write an output (--clean, --quarantine) as an OutputObject,
//                which appears whole at its commit or not at all;
//   claims       take inputs that are not URIs of its scheme: "delta:PATH", or a
//                folder holding _delta_log, is the delta adapter's. Claims are
//                asked before schemes (an s3:// table is Delta's, not S3's).
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
#include "io/output_object.h"
#include "util/status.h"

namespace griffin {

struct SourcePushdown {
  bool columns = false;
  bool filter = false;
  bool query = false;
  bool increment = false;
};

// How far an incremental source's rows reach: the largest value of the
// incremental column, as the source serializes it (`value`, opaque to front
// ends, stored in the run store and handed back as ReadOptions::increment_after)
// and as people read it (`text`).
struct SourceWatermark {
  std::string value;
  std::string text;
};

using SourceOpener = std::function<Result<std::unique_ptr<InputSource>>(
    const std::string& uri, const ReadOptions& options, int input_index)>;

// What a store says identifies one version of an input.
struct SourceIdentity {
  int64_t size = -1;      // bytes, -1 unknown
  int64_t mtime_ns = -1;  // last modified, -1 unknown
  std::string etag;       // S3 ETag, GCS generation, a table's "schema:VERSION"; empty when none
  // A database table: its columns and types from the catalogue, JSON
  // [{"name": .., "type": ..}] (the schema cache's snapshot); empty otherwise.
  std::string schema_json;
};

using SourceExpander = std::function<Result<std::vector<std::string>>(const std::string& uri)>;
using SourceDescriber = std::function<Result<SourceIdentity>(const std::string& uri)>;
// The watermark of the rows `options` would read past options.increment_after
// (within its filter); nullopt when there are none.
using SourceWatermarker = std::function<Result<std::optional<SourceWatermark>>(const std::string& uri,
                                                                               const ReadOptions& options)>;
using OutputOpener =
    std::function<Result<std::unique_ptr<OutputObject>>(const std::string& uri, const OutputObjectOptions& options)>;

struct SourceAdapter {
  SourceOpener open;
  SourcePushdown pushdown;
  std::string example;  // a URI that shows the form, for help and errors
  SourceExpander expand = nullptr;
  SourceDescriber describe = nullptr;
  OutputOpener open_output = nullptr;
  // The format open_output takes when the URI names none by an extension (a
  // database table takes Arrow IPC and stores its rows); nullopt: by extension.
  std::optional<InputFormat> output_format;
  // Whether open_output writes the rows as Parquet data files itself (a Delta table),
  // so that OutputObjectOptions::parquet_codec applies to it.
  bool output_writes_parquet = false;
  std::function<bool(std::string_view input)> claims = nullptr;
  // A table format's version of `input` that this process read (Delta), for the report.
  std::function<std::optional<int64_t>(const std::string& input)> version_read = nullptr;
  // Sources with pushdown.increment: the current watermark.
  SourceWatermarker watermark = nullptr;
};

// The scheme of a URI, lowercased, or nullopt for a path ("-", "x.csv",
// "C:x", "dir/a://b" are paths).
std::optional<std::string> UriScheme(std::string_view input);

// The scheme `input` is read through: the scheme of an adapter that claims
// it (SourceAdapter::claims), else its URI scheme (UriScheme).
std::optional<std::string> InputScheme(std::string_view input);

// Adds (or replaces) the adapter for `scheme` (lowercase, without "://").
void RegisterSource(const std::string& scheme, SourceAdapter adapter);

// The registered schemes, sorted, "file" included.
std::vector<std::string> RegisteredSourceSchemes();

// True for a path or a file:// URI that no adapter claims: an input OpenInput
// reads as a file.
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

// The watermark of `uri`'s rows past options.increment_after (see
// SourceWatermarker). A path, or a source that cannot read increments, is a
// UsageError naming it.
Result<std::optional<SourceWatermark>> ReadSourceWatermark(const std::string& uri, const ReadOptions& options);

// The inputs a URI of a registered scheme stands for (its adapter's expand,
// else the URI itself). An unknown scheme is OpenSource's UsageError.
Result<std::vector<std::string>> ExpandSource(const std::string& uri);

// The identity of what a URI names, when its adapter can describe it;
// nullopt otherwise (or when the store cannot say now: lineage is best effort).
std::optional<SourceIdentity> DescribeSource(const std::string& uri);

// The table version of `input` that this process read (SourceAdapter::version_read),
// or nullopt (a file, an object, or a table not read).
std::optional<int64_t> TableVersionRead(const std::string& input);

// True when `path` is a URI (or a claimed input) whose adapter writes outputs
// (s3://, gs://, delta:).
bool IsOutputObjectUri(std::string_view path);

// Starts writing the output `uri` names through its adapter. Errors name the
// URI: a malformed URI or a prefix (UsageError), a missing bucket or refused
// credentials (InputError).
Result<std::unique_ptr<OutputObject>> OpenOutputObject(const std::string& uri, const OutputObjectOptions& options = {});

// The output format an adapter declares for `uri` (SourceAdapter::output_format).
std::optional<InputFormat> AdapterOutputFormat(const std::string& uri);

// Whether `uri`'s adapter writes its outputs as Parquet data files itself
// (SourceAdapter::output_writes_parquet): false for a path.
bool AdapterOutputWritesParquet(const std::string& uri);

// `input` as messages and reports show it: a URI's password (the text between
// "user:" and "@" before the host) becomes "***"; a path is unchanged.
std::string RedactUri(std::string_view input);

// Defined in src/connectors/builtin_sources.cc; called once by the registry.
void RegisterBuiltinSources();

}  // namespace griffin
