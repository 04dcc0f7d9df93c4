#include "io/json_array_stream.h"

#include <cstring>
#include <vector>

namespace griffin {
namespace {

constexpr size_t kReadSize = 256 << 10;

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

class JsonArrayStream : public ByteStream {
 public:
  JsonArrayStream(std::unique_ptr<ByteStream> inner, std::string name)
      : inner_(std::move(inner)), name_(std::move(name)), in_(kReadSize) {}

  Result<size_t> Read(char* buf, size_t n) override {
    size_t out = 0;
    while (out < n) {
      if (in_at_ == in_size_) {
        if (eof_) break;
        ASSIGN_OR_RETURN(in_size_, inner_->Read(in_.data(), in_.size()));
        in_at_ = 0;
        if (in_size_ == 0) {
          eof_ = true;
          RETURN_IF_ERROR(CheckEnd());
          break;
        }
      }
      RETURN_IF_ERROR(Step(buf, n, &out));
    }
    return out;
  }

  int64_t bytes_consumed() const override { return inner_->bytes_consumed(); }

 private:
  enum class State { kBeforeArray, kBeforeFirst, kBeforeNext, kInElement, kAfterArray };

  // Consumes input bytes into buf[*out, n) until either runs out.
  Status Step(char* buf, size_t n, size_t* out) {
    while (in_at_ < in_size_ && *out < n) {
      const char c = in_[in_at_];
      switch (state_) {
        case State::kBeforeArray:
          if (!SkipBom(c)) {
            if (c == '[') {
              state_ = State::kBeforeFirst;
            } else if (!IsJsonSpace(c)) {
              return Error("expected a JSON array of objects ('[' first), found '" +
                           std::string(1, c) + "' (one JSON object per line is a .jsonl input)");
            }
          }
          break;
        case State::kBeforeFirst:
        case State::kBeforeNext:
          if (c == ']') {
            if (state_ == State::kBeforeNext) return Error("a comma before ']' leaves element " +
                                                           std::to_string(elements_) + " empty");
            state_ = State::kAfterArray;
          } else if (c == ',') {
            return Error("element " + std::to_string(elements_) + " is empty (two commas)");
          } else if (!IsJsonSpace(c)) {
            state_ = State::kInElement;
            depth_ = 0;
            in_string_ = escaped_ = false;
            continue;  // the element's first byte, copied below
          }
          break;
        case State::kInElement:
          if (Copy(c, buf, out)) {
            ++in_at_;
            return Status::OK();  // a line end was written; there may be no room for more
          }
          break;
        case State::kAfterArray:
          if (!IsJsonSpace(c)) {
            return Error("text after the array's closing ']': '" + std::string(1, c) + "'");
          }
          break;
      }
      ++in_at_;
      ++offset_;
    }
    return Status::OK();
  }

  // A UTF-8 byte order mark before the array is skipped.
  bool SkipBom(char c) {
    static constexpr char kBom[] = "\xEF\xBB\xBF";
    if (offset_ < 3 && bom_matched_ == offset_ && c == kBom[offset_]) {
      ++bom_matched_;
      return true;
    }
    return false;
  }

  // Copies one byte of an element; at the ',' or ']' that ends the element it
  // writes a line end instead and returns true.
  bool Copy(char c, char* buf, size_t* out) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      } else if (c == '\n') {
        c = '\t';  // still not valid JSON, and no longer a line end
      }
      buf[(*out)++] = c;
      return false;
    }
    if (depth_ == 0 && (c == ',' || c == ']')) {
      buf[(*out)++] = '\n';
      ++elements_;
      state_ = c == ',' ? State::kBeforeNext : State::kAfterArray;
      ++offset_;
      return true;
    }
    if (c == '"') {
      in_string_ = true;
    } else if (c == '{' || c == '[') {
      ++depth_;
    } else if ((c == '}' || c == ']') && depth_ > 0) {
      --depth_;
    } else if (c == '\n') {
      c = ' ';
    }
    buf[(*out)++] = c;
    return false;
  }

  Status CheckEnd() const {
    switch (state_) {
      case State::kBeforeArray:
      case State::kAfterArray:
        return Status::OK();
      default:
        return Status::InputError(name_ + ": the input ends before the array's closing ']' (in element " +
                                  std::to_string(elements_) + ", after byte " + std::to_string(offset_) + ")");
    }
  }

  Status Error(const std::string& what) const {
    return Status::InputError(name_ + ": " + what + " at byte " + std::to_string(offset_ + 1));
  }

  std::unique_ptr<ByteStream> inner_;
  std::string name_;
  std::vector<char> in_;
  size_t in_at_ = 0, in_size_ = 0;
  bool eof_ = false;
  State state_ = State::kBeforeArray;
  int64_t offset_ = 0;     // bytes of the input consumed before in_[in_at_]
  int64_t elements_ = 0;   // elements written so far: the next element's row
  int64_t bom_matched_ = 0;
  int64_t depth_ = 0;      // open '{' and '[' inside the current element
  bool in_string_ = false, escaped_ = false;
};

}  // namespace

std::unique_ptr<ByteStream> MakeJsonArrayStream(std::unique_ptr<ByteStream> inner, std::string name) {
  return std::make_unique<JsonArrayStream>(std::move(inner), std::move(name));
}

}  // namespace griffin
