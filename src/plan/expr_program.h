// A row expression compiled against the column types into a vector program:
// evaluated once per batch over whole columns, never per row through the AST.
//
//   ASSIGN_OR_RETURN(auto program, ExprProgram::Compile(*node, text, resolver));
//   std::vector<uint8_t> verdicts;               // per row: 1 true, 0 false, 2 null
//   program->Evaluate(columns, num_rows, &verdicts);
//
// Semantics (rules-v1 plus docs/semantics.md): SQL three-valued logic; a null
// operand makes comparisons and arithmetic null; `and`/`or` follow Kleene
// logic; integer + - * overflow gives null; `/` is float division and x/0 is
// null; comparing a string with a number parses the string as a number (null
// when it does not parse); date/timestamp columns compare with string literals
// parsed as dates/timestamps at compile time. A compiled program is immutable
// and thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/typed_column.h"
#include "rules/expr_ast.h"
#include "util/status.h"

namespace griffin {

// What the compiler knows about a column named in an expression.
struct ExprColumnInfo {
  int column_slot;   // index into the `columns` passed to Evaluate
  ValueType type;
  // The column's `format:` (date/timestamp). A string literal compared with the
  // column may also be written in it (after ISO 8601 is tried), as the rule
  // loader accepts.
  std::optional<std::string> timestamp_format = std::nullopt;
};

// Returns info for a column name, or nullopt when it does not exist.
using ExprColumnResolver = std::function<std::optional<ExprColumnInfo>(const std::string&)>;

class ExprProgram {
 public:
  virtual ~ExprProgram() = default;

  // Compiles `root`. Errors (unknown column, unknown function, bad regex in
  // matches(), type errors such as 'a' + 1 or `not 5`) are RuleErrors whose
  // message is "<expr text>: at offset N: <what>".
  static Result<std::unique_ptr<ExprProgram>> Compile(const ExprNode& root, const std::string& text,
                                                      const ExprColumnResolver& resolver);

  // Evaluates over `num_rows` rows. columns[slot] is the TypedColumn of the
  // resolver's slot. Writes one verdict per row into *out: 1 = true,
  // 0 = false, 2 = null. Thread-safe (no mutable state).
  virtual void Evaluate(const std::vector<const TypedColumn*>& columns, int64_t num_rows,
                        std::vector<uint8_t>* out) const = 0;

  // The column slots the program reads.
  virtual const std::vector<int>& column_slots() const = 0;
};

}  // namespace griffin
