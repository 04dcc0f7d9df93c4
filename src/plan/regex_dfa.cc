#include "plan/regex_dfa.h"

#include <cctype>

#include <algorithm>
#include <array>
#include <bitset>
#include <cstring>
#include <map>

namespace griffin {
namespace {

using ByteSet = std::bitset<128>;  // ASCII bytes

constexpr int kMaxRepeat = 1000;   // RE2's own limit on {n,m}
constexpr int kMaxDepth = 200;     // nesting of groups
constexpr size_t kMaxByteTableBytes = size_t{1} << 16;  // MatchMany's byte table: L1-sized
constexpr int64_t kMaxCompileWork = int64_t{1} << 24;  // ~20 ms of subset construction

ByteSet Range(int lo, int hi) {
  ByteSet set;
  for (int b = lo; b <= hi; ++b) set.set(b);
  return set;
}
ByteSet Byte(int b) { return Range(b, b); }
ByteSet Digits() { return Range('0', '9'); }
ByteSet Word() { return Range('0', '9') | Range('A', 'Z') | Range('a', 'z') | Byte('_'); }
ByteSet Space() { return Byte('\t') | Byte('\n') | Byte('\f') | Byte('\r') | Byte(' '); }  // RE2's \s
ByteSet Ascii() { return ByteSet().set(); }

struct Node {
  enum Kind { kSet, kConcat, kAlt, kRepeat, kEmpty } kind = kEmpty;
  ByteSet set;
  std::vector<Node> kids;
  int min = 0, max = 0;  // kRepeat; max -1: unbounded
};

// Parses the DFA subset of RE2's syntax; fails (error_ set) on anything else.
class Parser {
 public:
  explicit Parser(std::string_view pattern) : p_(pattern) {}

  bool Parse(Node* out) {
    size_t end = p_.size();
    if (i_ < end && p_[i_] == '^') ++i_;                       // no-op in a full match
    if (end > i_ && p_[end - 1] == '$' && !Escaped(end - 1)) {  // likewise
      p_ = p_.substr(0, end - 1);
    }
    if (!Alt(out, 0)) return false;
    if (i_ != p_.size()) return Fail("an unmatched )");
    return true;
  }
  const std::string& error() const { return error_; }

 private:
  bool Fail(const std::string& why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  bool Escaped(size_t at) const {  // whether p_[at] follows an odd run of backslashes
    size_t slashes = 0;
    while (at > slashes && p_[at - slashes - 1] == '\\') ++slashes;
    return slashes % 2 == 1;
  }
  bool More() const { return i_ < p_.size(); }
  char Peek() const { return p_[i_]; }

  bool Alt(Node* out, int depth) {
    if (depth > kMaxDepth) return Fail("groups nested too deep");
    Node first;
    if (!Concat(&first, depth)) return false;
    if (!More() || Peek() != '|') {
      *out = std::move(first);
      return true;
    }
    out->kind = Node::kAlt;
    out->kids.push_back(std::move(first));
    while (More() && Peek() == '|') {
      ++i_;
      Node next;
      if (!Concat(&next, depth)) return false;
      out->kids.push_back(std::move(next));
    }
    return true;
  }

  bool Concat(Node* out, int depth) {
    out->kind = Node::kConcat;
    while (More() && Peek() != '|' && Peek() != ')') {
      Node atom;
      if (!Atom(&atom, depth)) return false;
      if (!Quantifiers(&atom)) return false;
      out->kids.push_back(std::move(atom));
    }
    return true;
  }

  bool Quantifiers(Node* atom) {
    if (!More()) return true;
    int min = -2, max = -2;
    const char c = Peek();
    if (c == '*') min = 0, max = -1, ++i_;
    else if (c == '+') min = 1, max = -1, ++i_;
    else if (c == '?') min = 0, max = 1, ++i_;
    else if (c == '{' && !Braces(&min, &max)) return false;
    if (min == -2) return true;
    if (More() && Peek() == '?') ++i_;  // lazy: the same verdict
    if (More() && (Peek() == '*' || Peek() == '+' || Peek() == '?' || Peek() == '{'))
      return Fail("a repeated repetition");
    Node repeat;
    repeat.kind = Node::kRepeat;
    repeat.min = min;
    repeat.max = max;
    repeat.kids.push_back(std::move(*atom));
    *atom = std::move(repeat);
    return true;
  }

  bool Number(int* out) {
    size_t start = i_;
    long value = 0;
    while (More() && Peek() >= '0' && Peek() <= '9' && value <= kMaxRepeat) value = value * 10 + (p_[i_++] - '0');
    if (i_ == start) return false;
    if (value > kMaxRepeat) return Fail("a repeat count over 1000");
    *out = static_cast<int>(value);
    return true;
  }

  bool Braces(int* min, int* max) {
    ++i_;  // {
    if (!Number(min)) return Fail("a { that is not a repeat count");
    *max = *min;
    if (More() && Peek() == ',') {
      ++i_;
      *max = -1;
      if (More() && Peek() != '}' && !Number(max)) return Fail("a { that is not a repeat count");
    }
    if (!More() || Peek() != '}') return Fail("a { that is not a repeat count");
    ++i_;
    if (*max != -1 && *max < *min) return Fail("a repeat {n,m} with m < n");
    return true;
  }

  bool Atom(Node* out, int depth) {
    const unsigned char c = static_cast<unsigned char>(Peek());
    out->kind = Node::kSet;
    if (c >= 0x80) return Fail("a non-ASCII character");
    switch (c) {
      case '(':
        ++i_;
        if (More() && Peek() == '?') {
          if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') i_ += 2;
          else return Fail("a (? group or flag");
        }
        if (!Alt(out, depth + 1)) return false;
        if (!More() || Peek() != ')') return Fail("an unclosed (");
        ++i_;
        return true;
      case '[': return Class(&out->set);
      case '.': ++i_; out->set = Ascii().reset('\n'); return true;
      case '\\': {
        ++i_;
        bool is_set = false;
        return Escape(&out->set, &is_set);
      }
      case '*': case '+': case '?': case '{': return Fail("a repetition of nothing");
      case '^': return Fail("^ after the start");
      case '$': return Fail("$ before the end");
      default: ++i_; out->set = Byte(c); return true;
    }
  }

  // After a backslash: one character or a class (\d \w \s and their negations).
  bool Escape(ByteSet* out, bool* is_set) {
    if (!More()) return Fail("a trailing \\");
    const unsigned char c = static_cast<unsigned char>(p_[i_++]);
    *is_set = true;
    switch (c) {
      case 'd': *out = Digits(); return true;
      case 'D': *out = ~Digits(); return true;
      case 'w': *out = Word(); return true;
      case 'W': *out = ~Word(); return true;
      case 's': *out = Space(); return true;
      case 'S': *out = ~Space(); return true;
      default: break;
    }
    *is_set = false;
    switch (c) {
      case 't': *out = Byte('\t'); return true;
      case 'n': *out = Byte('\n'); return true;
      case 'r': *out = Byte('\r'); return true;
      case 'f': *out = Byte('\f'); return true;
      case 'v': *out = Byte('\v'); return true;
      case 'x': {
        auto hex = [](char h) {
          return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
        };
        if (i_ + 1 >= p_.size() || hex(p_[i_]) < 0 || hex(p_[i_ + 1]) < 0) return Fail("a \\x escape other than \\xHH");
        const int value = hex(p_[i_]) * 16 + hex(p_[i_ + 1]);
        i_ += 2;
        if (value >= 0x80) return Fail("a non-ASCII \\x escape");
        *out = Byte(value);
        return true;
      }
      default: break;
    }
    if (c < 0x80 && !std::isalnum(c) && c != '_' && c > ' ') {  // escaped punctuation: itself
      *out = Byte(c);
      return true;
    }
    return Fail(std::string("the escape \\") + static_cast<char>(c));
  }

  bool Class(ByteSet* out) {
    ++i_;  // [
    bool negate = false;
    if (More() && Peek() == '^') negate = true, ++i_;
    if (More() && Peek() == ']') return Fail("a class starting with ]");
    ByteSet set;
    while (true) {
      if (!More()) return Fail("an unclosed [");
      if (Peek() == ']') break;
      if (Peek() == '[' && i_ + 1 < p_.size() && p_[i_ + 1] == ':') return Fail("a [: :] class");
      ByteSet item;
      bool is_set = false;
      int lo = -1;
      if (!ClassChar(&item, &is_set, &lo)) return false;
      if (is_set && More() && Peek() == '-' && i_ + 1 < p_.size() && p_[i_ + 1] != ']')
        return Fail("a range starting with a class");
      if (!is_set && More() && Peek() == '-' && i_ + 1 < p_.size() && p_[i_ + 1] != ']') {
        ++i_;
        ByteSet end_item;
        int hi = -1;
        if (!ClassChar(&end_item, &is_set, &hi)) return false;
        if (is_set) return Fail("a range ending in a class");
        if (hi < lo) return Fail("a range out of order");
        item = Range(lo, hi);
      }
      set |= item;
    }
    ++i_;  // ]
    *out = negate ? ~set : set;
    return true;
  }

  bool ClassChar(ByteSet* item, bool* is_set, int* value) {
    const unsigned char c = static_cast<unsigned char>(Peek());
    if (c >= 0x80) return Fail("a non-ASCII character");
    if (c == '\\') {
      ++i_;
      if (!Escape(item, is_set)) return false;
      if (!*is_set) *value = static_cast<int>(item->_Find_first());
      return true;
    }
    ++i_;
    *is_set = false;
    *item = Byte(c);
    *value = c;
    return true;
  }

  std::string_view p_;
  size_t i_ = 0;
  std::string error_;
};

// A Thompson NFA built back to front: each state either consumes one byte of
// a set and goes to `out`, or moves without input to each of `eps`, or accepts.
struct Nfa {
  struct State {
    int set = -1;          // index into sets, or -1
    int out = -1;
    std::vector<int> eps;
    bool accept = false;
  };
  std::vector<State> states;
  std::vector<ByteSet> sets;
  bool too_big = false;

  int Add(State state) {
    if (states.size() >= static_cast<size_t>(RegexDfa::kMaxNfaStates)) {
      too_big = true;
      return 0;
    }
    states.push_back(std::move(state));
    return static_cast<int>(states.size() - 1);
  }

  // The start of `node` followed by state `next`.
  int Build(const Node& node, int next) {
    if (too_big) return 0;
    switch (node.kind) {
      case Node::kEmpty: return next;
      case Node::kSet: {
        sets.push_back(node.set);
        return Add({static_cast<int>(sets.size() - 1), next, {}, false});
      }
      case Node::kConcat:
        for (auto kid = node.kids.rbegin(); kid != node.kids.rend(); ++kid) next = Build(*kid, next);
        return next;
      case Node::kAlt: {
        State split;
        for (const Node& kid : node.kids) split.eps.push_back(Build(kid, next));
        return Add(std::move(split));
      }
      case Node::kRepeat: {
        const Node& body = node.kids[0];
        int tail = next;
        if (node.max < 0) {  // body* : a loop
          const int loop = Add({});
          if (too_big) return 0;
          const int inner = Build(body, loop);
          if (too_big) return 0;
          states[loop].eps = {inner, next};
          tail = loop;
        } else {
          for (int i = node.min; i < node.max && !too_big; ++i) {
            State optional;
            optional.eps = {Build(body, tail), next};
            tail = Add(std::move(optional));
          }
        }
        for (int i = 0; i < node.min && !too_big; ++i) tail = Build(body, tail);
        return tail;
      }
    }
    return next;
  }
};

void Closure(const Nfa& nfa, std::vector<int>* set, std::vector<uint8_t>* mark) {
  std::vector<int> stack(set->begin(), set->end());
  set->clear();
  for (int s : stack) (*mark)[s] = 1;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    set->push_back(s);
    for (int e : nfa.states[s].eps)
      if (!(*mark)[e]) (*mark)[e] = 1, stack.push_back(e);
  }
  for (int s : *set) (*mark)[s] = 0;
  std::sort(set->begin(), set->end());
}

}  // namespace

class RegexDfaBuilder {
 public:
  static std::unique_ptr<RegexDfa> Build(std::string_view pattern, std::string* why_not) {
    Parser parser(pattern);
    Node root;
    if (!parser.Parse(&root)) {
      *why_not = parser.error() + " is not in the DFA subset";
      return nullptr;
    }
    Nfa nfa;
    const int accept = nfa.Add({-1, -1, {}, true});
    const int start = nfa.Build(root, accept);
    if (nfa.too_big) {
      *why_not = "its NFA passes " + std::to_string(RegexDfa::kMaxNfaStates) + " states";
      return nullptr;
    }
    // Byte classes: ASCII bytes that every set treats alike share a class;
    // bytes >= 0x80 are one more class, which sends a value to RE2.
    auto dfa = std::unique_ptr<RegexDfa>(new RegexDfa());
    std::map<std::vector<bool>, int> class_of_signature;
    std::vector<int> representative;
    for (int b = 0; b < 128; ++b) {
      std::vector<bool> signature(nfa.sets.size());
      for (size_t s = 0; s < nfa.sets.size(); ++s) signature[s] = nfa.sets[s].test(b);
      auto [it, inserted] = class_of_signature.emplace(signature, static_cast<int>(representative.size()));
      if (inserted) representative.push_back(b);
      dfa->classes_[b] = static_cast<uint8_t>(it->second);
    }
    const int high = static_cast<int>(representative.size());
    for (int b = 128; b < 256; ++b) dfa->classes_[b] = static_cast<uint8_t>(high);
    const uint32_t stride = static_cast<uint32_t>(high + 1);
    dfa->stride_ = stride;

    // Subset construction. State 0: no NFA state left (no match, sticky);
    // state 1: a byte >= 0x80 was seen (ask RE2, sticky).
    std::vector<uint8_t> mark(nfa.states.size(), 0);
    std::map<std::vector<int>, int> ids;
    std::vector<std::vector<int>> sets = {{}, {}};
    ids[{}] = 0;
    std::vector<int> first = {start};
    Closure(nfa, &first, &mark);
    auto id_of = [&](std::vector<int>& set) -> int {
      auto [it, inserted] = ids.emplace(set, static_cast<int>(sets.size()));
      if (inserted) sets.push_back(set);
      return it->second;
    };
    const int start_id = first.empty() ? 0 : id_of(first);
    std::vector<uint32_t> table;
    int64_t work = 0;  // NFA states visited: bounds the compile time of any pattern
    for (size_t d = 0; d < sets.size(); ++d) {
      work += static_cast<int64_t>(sets[d].size()) * high;
      if (work > kMaxCompileWork) {
        *why_not = "its DFA takes too long to build";
        return nullptr;
      }
      if (sets.size() > static_cast<size_t>(RegexDfa::kMaxStates)) {
        *why_not = "its DFA passes " + std::to_string(RegexDfa::kMaxStates) + " states";
        return nullptr;
      }
      table.resize((d + 1) * stride, 0);
      for (int c = 0; c < high; ++c) {
        int next = d == 1 ? 1 : 0;  // both special states are sticky
        if (d >= 2) {
          std::vector<int> moved;
          for (int s : sets[d]) {
            const Nfa::State& state = nfa.states[s];
            if (state.set >= 0 && nfa.sets[state.set].test(representative[c])) moved.push_back(state.out);
          }
          std::sort(moved.begin(), moved.end());
          moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
          Closure(nfa, &moved, &mark);
          next = moved.empty() ? 0 : id_of(moved);
        }
        table[d * stride + c] = static_cast<uint32_t>(next) * stride;
      }
      table[d * stride + high] = (d == 0 ? 0 : 1) * stride;
    }
    // A small DFA also gets a table indexed by the byte itself, after the
    // class table: MatchMany's loop then has one load per byte, not two.
    const size_t base = table.size();
    if (sets.size() * 256 * sizeof(uint32_t) <= kMaxByteTableBytes) {
      table.resize(base + sets.size() * 256);
      for (size_t d = 0; d < sets.size(); ++d)
        for (int b = 0; b < 256; ++b)
          table[base + d * 256 + b] =
              static_cast<uint32_t>(base + table[d * stride + dfa->classes_[b]] / stride * 256);
    }
    dfa->table_ = std::move(table);
    dfa->start_ = static_cast<uint32_t>(start_id) * stride;
    dfa->verdict_.resize(sets.size(), RegexDfa::kNoMatch);
    dfa->verdict_[1] = RegexDfa::kAskRe2;
    for (size_t d = 2; d < sets.size(); ++d)
      for (int s : sets[d])
        if (nfa.states[s].accept) dfa->verdict_[d] = RegexDfa::kMatch;
    return dfa;
  }
};

std::unique_ptr<RegexDfa> RegexDfa::Compile(std::string_view pattern, std::string* why_not) {
  return RegexDfaBuilder::Build(pattern, why_not);
}

void RegexDfa::MatchMany(const std::string_view* values, size_t count, Verdict* verdicts) const {
  constexpr size_t kLanes = 8;
  const size_t base = verdict_.size() * stride_;  // where the byte table starts, if there is one
  if (table_.size() == base) {
    for (size_t i = 0; i < count; ++i) verdicts[i] = Match(values[i]);
    return;
  }
  const uint32_t* table = table_.data();
  const uint32_t start = static_cast<uint32_t>(base + start_ / stride_ * 256);
  auto verdict_of = [&](uint32_t state) { return static_cast<Verdict>(verdict_[(state - base) >> 8]); };
  size_t i = 0;
  for (; i + kLanes <= count; i += kLanes) {
    uint32_t state[kLanes];
    const uint8_t* p[kLanes];
    size_t common = values[i].size();
    for (size_t j = 0; j < kLanes; ++j) {
      state[j] = start;
      p[j] = reinterpret_cast<const uint8_t*>(values[i + j].data());
      common = std::min(common, values[i + j].size());
    }
    size_t k = 0;
    for (; k + 8 <= common; k += 8) {  // 8 bytes per load, 8 lanes at once
      uint64_t word[kLanes];
      for (size_t j = 0; j < kLanes; ++j) std::memcpy(&word[j], p[j] + k, 8);
      for (int b = 0; b < 8; ++b)
        for (size_t j = 0; j < kLanes; ++j) {
          state[j] = table[state[j] + (word[j] & 0xff)];
          word[j] >>= 8;
        }
    }
    for (; k < common; ++k)
      for (size_t j = 0; j < kLanes; ++j) state[j] = table[state[j] + p[j][k]];
    for (size_t j = 0; j < kLanes; ++j) {
      uint32_t s = state[j];
      for (size_t r = common; r < values[i + j].size(); ++r) s = table[s + p[j][r]];
      verdicts[i + j] = verdict_of(s);
    }
  }
  for (; i < count; ++i) {
    uint32_t s = start;
    const uint8_t* q = reinterpret_cast<const uint8_t*>(values[i].data());
    for (size_t r = 0; r < values[i].size(); ++r) s = table[s + q[r]];
    verdicts[i] = verdict_of(s);
  }
}

}  // namespace griffin
