#include "io/json_syntax.h"

#include <simdjson.h>

namespace griffin {
namespace {

namespace od = simdjson::ondemand;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view TrimJsonSpace(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n'))
    text.remove_suffix(1);
  return text;
}

// Visits every value below `value` so the on-demand parser checks it all;
// numbers are checked by their grammar, never converted.
bool WalkValue(od::value value) {
  od::json_type type;
  if (value.type().get(type)) return false;
  switch (type) {
    case od::json_type::object: {
      od::object object;
      if (value.get_object().get(object)) return false;
      for (auto field_result : object) {
        od::field field;
        std::string_view key;
        if (std::move(field_result).get(field) || field.unescaped_key().get(key)) return false;
        if (!WalkValue(field.value())) return false;
      }
      return true;
    }
    case od::json_type::array: {
      od::array array;
      if (value.get_array().get(array)) return false;
      for (auto element_result : array) {
        od::value element;
        if (std::move(element_result).get(element) || !WalkValue(element)) return false;
      }
      return true;
    }
    case od::json_type::string: {
      std::string_view text;
      return !value.get_string().get(text);
    }
    case od::json_type::number: return IsJsonNumberToken(TrimJsonSpace(value.raw_json_token()));
    case od::json_type::boolean: {
      bool b;
      return !value.get_bool().get(b);
    }
    case od::json_type::null: {
      bool is_null = false;
      return !value.is_null().get(is_null) && is_null;
    }
  }
  return false;
}

}  // namespace

bool IsJsonNumberToken(std::string_view token) {
  size_t i = 0;
  const size_t n = token.size();
  if (i < n && token[i] == '-') ++i;
  if (i >= n) return false;
  if (token[i] == '0') {
    ++i;
  } else if (token[i] >= '1' && token[i] <= '9') {
    while (i < n && IsDigit(token[i])) ++i;
  } else {
    return false;
  }
  if (i < n && token[i] == '.') {
    const size_t start = ++i;
    while (i < n && IsDigit(token[i])) ++i;
    if (i == start) return false;
  }
  if (i < n && (token[i] == 'e' || token[i] == 'E')) {
    ++i;
    if (i < n && (token[i] == '+' || token[i] == '-')) ++i;
    const size_t start = i;
    while (i < n && IsDigit(token[i])) ++i;
    if (i == start) return false;
  }
  return i == n;
}

bool IsValidJsonIgnoringNumberRange(std::string_view text) {
  thread_local od::parser parser;
  // Pass 1: where the root value ends; only whitespace may follow it.
  std::string_view root_text;
  {
    od::document doc;
    if (parser.iterate(text.data(), text.size(), text.size() + simdjson::SIMDJSON_PADDING).get(doc)) return false;
    od::json_type type;
    if (doc.type().get(type)) return false;
    if (type == od::json_type::object) {
      od::object object;
      if (doc.get_object().get(object) || object.raw_json().get(root_text)) return false;
    } else if (type == od::json_type::array) {
      od::array array;
      if (doc.get_array().get(array) || array.raw_json().get(root_text)) return false;
    } else if (type == od::json_type::number) {
      if (doc.raw_json_token().get(root_text)) return false;
      root_text = TrimJsonSpace(root_text);
      return IsJsonNumberToken(root_text) && TrimJsonSpace(text.substr(root_text.data() + root_text.size() -
                                                                         text.data())).empty();
    } else {
      return false;  // other scalars: the DOM parser's number error cannot come from them
    }
  }
  const size_t root_end = static_cast<size_t>(root_text.data() + root_text.size() - text.data());
  if (!TrimJsonSpace(text.substr(root_end)).empty()) return false;
  // Pass 2: every value inside.
  od::document doc;
  od::value root;
  if (parser.iterate(text.data(), text.size(), text.size() + simdjson::SIMDJSON_PADDING).get(doc) ||
      doc.get_value().get(root))
    return false;
  return WalkValue(root);
}

}  // namespace griffin
