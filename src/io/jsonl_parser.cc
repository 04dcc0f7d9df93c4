#include "io/jsonl_parser.h"

#include <simdjson.h>

#include <cstring>
#include <deque>
#include <unordered_map>

#include "io/arena.h"
#include "io/json_syntax.h"
#include "io/utf8.h"

namespace griffin {
namespace {

static_assert(kTextPadding >= simdjson::SIMDJSON_PADDING);

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view TrimRight(std::string_view text) {
  while (!text.empty() && IsJsonSpace(text.back())) text.remove_suffix(1);
  return text;
}

class JsonlDecoder {
 public:
  JsonlDecoder(const JsonlLayout& layout, const TextSpan& span)
      : layout_(layout), span_(span), num_columns_(layout.columns.size()) {
    batch_ = std::make_shared<Batch>();
    batch_->input_index = layout.input_index;
    if (span.owner) batch_->owned_memory.push_back(span.owner);
    const size_t max_rows = static_cast<size_t>(span.num_records);
    batch_->columns.resize(num_columns_);
    for (size_t c = 0; c < num_columns_; ++c) {
      InitColumn(c, layout.columns[c], max_rows);
      index_.emplace(batch_->columns[c].name, static_cast<int>(c));
    }
    batch_->column_seen.resize(num_columns_);
    batch_->raw_records.resize(max_rows);
    utf8_ok_ = IsValidUtf8(span.text);
  }

  std::shared_ptr<Batch> Run() {
    const char* data = span_.text.data();
    const size_t size = span_.text.size();
    size_t pos = 0;
    while (pos < size) {
      const void* newline = std::memchr(data + pos, '\n', size - pos);
      size_t end = newline ? static_cast<const char*>(newline) - data : size;
      std::string_view line(data + pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      pos = end + 1;
      if (TrimRight(line).empty()) continue;  // a blank line is not a row
      DecodeLine(line);
      ++row_;
    }
    return FinishTextBatch(std::move(batch_), row_, std::move(arena_));
  }

 private:
  void DecodeLine(std::string_view line) {
    batch_->raw_records[row_] = line;
    if (!utf8_ok_) {
      size_t bad = FindInvalidUtf8(line);
      if (bad != std::string_view::npos)
        return MarkMalformed(line, "invalid UTF-8 at byte " + std::to_string(bad + 1) + " of the record");
    }
    // The DOM parser validates the whole line; on-demand then extracts tokens.
    thread_local simdjson::dom::parser validator;
    simdjson::dom::element root;
    auto error = validator.parse(line.data(), line.size(), /*realloc_if_needed=*/false).get(root);
    bool is_object = !error && root.is_object();
    if ((error == simdjson::NUMBER_ERROR || error == simdjson::NUMBER_OUT_OF_RANGE) &&
        IsValidJsonIgnoringNumberRange(line)) {  // 1e999: valid JSON, a type violation later
      error = simdjson::SUCCESS;
      is_object = line.substr(line.find_first_not_of(" \t\r\n")).front() == '{';
    }
    if (error) return MarkMalformed(line, std::string("invalid JSON: ") + simdjson::error_message(error));
    if (!is_object) return MarkMalformed(line, "line is not a JSON object");
    if (num_columns_ == 0 && !layout_.all_keys) return;
    error = Extract(line);
    if (error) {
      for (size_t c = 0; c < num_columns_; ++c) SetNull(c);
      return MarkMalformed(line, std::string("invalid JSON: ") + simdjson::error_message(error));
    }
  }

  simdjson::error_code Extract(std::string_view line) {
    thread_local simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    auto error = parser.iterate(line.data(), line.size(), line.size() + simdjson::SIMDJSON_PADDING)
                     .get(doc);
    if (error) return error;
    simdjson::ondemand::object object;
    if ((error = doc.get_object().get(object))) return error;
    for (auto field_result : object) {
      simdjson::ondemand::field field;
      if ((error = std::move(field_result).get(field))) return error;
      std::string_view key;
      if ((error = field.unescaped_key().get(key))) return error;
      auto found = index_.find(key);
      if (found == index_.end()) {
        if (!layout_.all_keys) continue;  // skipped by the iteration
        found = AddDiscoveredColumn(key);
      }
      const size_t c = static_cast<size_t>(found->second);
      batch_->column_seen[c] = 1;
      if ((error = ExtractValue(c, field.value()))) return error;
    }
    return simdjson::SUCCESS;
  }

  simdjson::error_code ExtractValue(size_t c, simdjson::ondemand::value value) {
    simdjson::ondemand::json_type type;
    auto error = value.type().get(type);
    if (error) return error;
    std::string_view text;
    switch (type) {
      case simdjson::ondemand::json_type::null:
        SetNull(c);
        return simdjson::SUCCESS;
      case simdjson::ondemand::json_type::boolean: {
        bool b;
        if ((error = value.get_bool().get(b))) return error;
        Set(c, b ? "true" : "false", JsonKind::kBool);
        return simdjson::SUCCESS;
      }
      case simdjson::ondemand::json_type::number:
        text = value.raw_json_token();
        Set(c, TrimRight(text), JsonKind::kNumber);
        return simdjson::SUCCESS;
      case simdjson::ondemand::json_type::string: {
        text = TrimRight(value.raw_json_token());
        if (text.size() >= 2 && text.find('\\') == std::string_view::npos) {
          Set(c, text.substr(1, text.size() - 2), JsonKind::kString);  // no escapes: a view
          return simdjson::SUCCESS;
        }
        if ((error = value.get_string().get(text))) return error;
        if (!arena_) arena_ = std::make_shared<Arena>();
        char* copy = arena_->Allocate(text.size());
        if (!text.empty()) std::memcpy(copy, text.data(), text.size());
        Set(c, std::string_view(copy, text.size()), JsonKind::kString);
        return simdjson::SUCCESS;
      }
      case simdjson::ondemand::json_type::object: {
        simdjson::ondemand::object object;
        if ((error = value.get_object().get(object))) return error;
        if ((error = object.raw_json().get(text))) return error;
        Set(c, TrimRight(text), JsonKind::kOther);
        return simdjson::SUCCESS;
      }
      case simdjson::ondemand::json_type::array: {
        simdjson::ondemand::array array;
        if ((error = value.get_array().get(array))) return error;
        if ((error = array.raw_json().get(text))) return error;
        Set(c, TrimRight(text), JsonKind::kOther);
        return simdjson::SUCCESS;
      }
    }
    return simdjson::INCORRECT_TYPE;
  }

  void InitColumn(size_t c, std::string name, size_t rows) {
    BatchColumn& column = batch_->columns[c];
    column.name = std::move(name);
    column.text.values.resize(rows);
    column.text.is_null.resize(rows, 1);
    column.text.json_kinds.resize(rows, JsonKind::kNull);
  }

  // JsonlLayout::all_keys: a key no earlier line of the batch had becomes
  // the batch's next column (null in the rows before).
  std::unordered_map<std::string_view, int>::iterator AddDiscoveredColumn(std::string_view key) {
    const std::string& name = discovered_names_.emplace_back(key);  // stable: index_ keys view it
    batch_->columns.emplace_back();
    InitColumn(num_columns_, name, batch_->raw_records.size());
    batch_->column_seen.push_back(0);
    return index_.emplace(name, static_cast<int>(num_columns_++)).first;
  }

  void Set(size_t c, std::string_view value, JsonKind kind) {
    if (kind == JsonKind::kString && layout_.nulls.Match(value)) return SetNull(c);
    TextColumn& column = batch_->columns[c].text;
    column.values[row_] = value;
    column.is_null[row_] = 0;
    column.json_kinds[row_] = kind;
  }

  void SetNull(size_t c) {
    TextColumn& column = batch_->columns[c].text;
    column.values[row_] = std::string_view();
    column.is_null[row_] = 1;
    column.json_kinds[row_] = JsonKind::kNull;
  }

  void MarkMalformed(std::string_view raw, std::string reason) {
    if (batch_->malformed.empty()) batch_->malformed.resize(batch_->raw_records.size());
    batch_->malformed[row_] = 1;
    batch_->malformed_records.push_back({row_, std::string(raw), std::move(reason)});
  }

  const JsonlLayout& layout_;
  const TextSpan& span_;
  size_t num_columns_;
  std::unordered_map<std::string_view, int> index_;  // key -> column
  std::deque<std::string> discovered_names_;
  std::shared_ptr<Batch> batch_;
  std::shared_ptr<Arena> arena_;
  int64_t row_ = 0;
  bool utf8_ok_ = true;
};

class JsonlChunk : public Chunk {
 public:
  JsonlChunk(std::shared_ptr<const JsonlLayout> layout, TextSpan span)
      : layout_(std::move(layout)), span_(std::move(span)) {}
  Result<std::shared_ptr<Batch>> Decode() override { return DecodeJsonl(*layout_, span_); }

 private:
  std::shared_ptr<const JsonlLayout> layout_;
  TextSpan span_;
};

class JsonlSource : public InputSource {
 public:
  JsonlSource(std::unique_ptr<ByteStream> in, std::string name, const ReadOptions& options,
              int input_index, int64_t total_bytes)
      : chunker_(std::move(in), &scanner_, name, options.batch_rows, options.chunk_bytes),
        total_bytes_(total_bytes) {
    auto layout = std::make_shared<JsonlLayout>();
    layout->name = std::move(name);
    layout->columns = options.json_columns;
    layout->all_keys = options.json_all_keys;
    layout->nulls = NullMatcher(options.null_values);
    layout->input_index = input_index;
    layout_ = std::move(layout);
  }

  Result<std::unique_ptr<Chunk>> NextChunk() override {
    if (done_) return std::unique_ptr<Chunk>();
    ASSIGN_OR_RETURN(TextSpan span, chunker_.Next());
    if (span.num_records == 0) {
      done_ = true;
      if (emitted_) return std::unique_ptr<Chunk>();
    }
    emitted_ = true;
    return std::unique_ptr<Chunk>(std::make_unique<JsonlChunk>(layout_, std::move(span)));
  }
  int64_t bytes_read() const override { return chunker_.bytes_consumed(); }
  int64_t total_bytes() const override { return total_bytes_; }
  bool is_text() const override { return true; }

 private:
  LineScanner scanner_;
  TextChunker chunker_;
  std::shared_ptr<const JsonlLayout> layout_;
  int64_t total_bytes_;
  bool emitted_ = false, done_ = false;
};

}  // namespace

size_t LineScanner::Scan(const char* data, size_t size, size_t begin, size_t stop_at,
                         int64_t max_records, int64_t* num_records) {
  size_t pos = begin;
  int64_t records = 0;
  while (records < max_records && pos < size) {
    const void* newline = std::memchr(data + pos, '\n', size - pos);
    if (newline == nullptr) break;
    pos = static_cast<const char*>(newline) - data + 1;
    ++records;
    if (pos >= stop_at) break;
  }
  *num_records += records;
  return pos;
}

std::shared_ptr<Batch> DecodeJsonl(const JsonlLayout& layout, const TextSpan& span) {
  return JsonlDecoder(layout, span).Run();
}

std::unique_ptr<InputSource> MakeJsonlSource(std::unique_ptr<ByteStream> in, std::string name,
                                             const ReadOptions& options, int input_index,
                                             int64_t total_bytes) {
  return std::make_unique<JsonlSource>(std::move(in), std::move(name), options, input_index,
                                       total_bytes);
}

}  // namespace griffin
