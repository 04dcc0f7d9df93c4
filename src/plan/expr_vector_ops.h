// The second compiler pass and the runtime of a row expression: a flat list
// of vector ops over registers. Each op reads whole registers and writes one
// whole register for a chunk of rows, in a tight loop; nothing walks the tree
// per row. Internal to plan/expr_program.cc.
//
// A register holds one value per row of the chunk plus a validity byte
// (1 = a value, 0 = null). Values under a null are unspecified but harmless
// for numeric kernels (overflow-checked, no traps); string kernels look at a
// value only where it is valid, because a column's string views under a null
// may be anything.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/typed_column.h"
#include "plan/expr_typed.h"

namespace griffin {

// The in-memory representation of a register (ExprType -> RegKind: bool ->
// kBool, int/date/timestamp -> kInt, float -> kFloat, string -> kString).
enum class RegKind { kBool, kInt, kFloat, kString };
RegKind RegKindOf(ExprType type);

enum class OpCode {
  kLoadColumn,      // column_slot; zero-copy except bools (int64 -> uint8)
  kConstant,        // fill with the constant (or null)
  kIntToFloat, kStringToFloat, kDateToTimestamp,
  kArithInt,        // arith; + - * overflow -> null
  kArithFloat,      // arith; x / 0 -> null
  kNegateInt, kNegateFloat, kAbsInt, kAbsFloat,  // INT64_MIN -> null
  kCompareBool, kCompareInt, kCompareFloat, kCompareString,
  kAnd, kOr, kNot,  // Kleene
  kIsNull,          // negated: is not null
  kInInt, kInFloat, kInString,
  kLength, kLower, kUpper, kMatches,
};

struct VectorOp {
  OpCode code = OpCode::kConstant;
  int out = -1;
  int in0 = -1;
  int in1 = -1;

  int column_slot = -1;
  RegKind column_kind = RegKind::kString;

  bool constant_null = false;
  int64_t int_value = 0;
  double float_value = 0;
  std::string string_value;

  CompareOp compare = CompareOp::kEq;
  ArithOp arith = ArithOp::kAdd;
  bool negated = false;

  std::vector<int64_t> in_ints;      // sorted
  std::vector<double> in_floats;     // sorted
  std::vector<std::string> in_strings;  // sorted
  bool in_has_null = false;

  std::shared_ptr<const re2::RE2> regex;
};

struct VectorProgram {
  std::vector<VectorOp> ops;
  std::vector<RegKind> registers;  // kind of each register
  int result = -1;                 // a kBool register
};

// Lowers a typed tree (root of type kBool) to ops, reusing a register once
// its value has been consumed.
VectorProgram EmitVectorOps(const TypedExpr& root);

// One register's storage for one evaluation. `valid`/`values` point either
// into the owned buffers or straight into a column (zero-copy loads).
struct Register {
  RegKind kind = RegKind::kBool;
  const uint8_t* valid = nullptr;
  const uint8_t* bools = nullptr;
  const int64_t* ints = nullptr;
  const double* floats = nullptr;
  const std::string_view* strings = nullptr;

  std::vector<uint8_t> own_valid;
  std::vector<uint8_t> own_bools;
  std::vector<int64_t> own_ints;
  std::vector<double> own_floats;
  std::vector<std::string_view> own_strings;
  std::string own_chars;  // bytes behind own_strings for lower()/upper()
};

// Points every value pointer of `out` at its owned buffers (the start of
// every kernel that computes); returns the validity buffer to fill.
uint8_t* UseOwnBuffers(Register* out);

// Sizes each register's owned buffers for chunks of up to `chunk_rows` rows.
void InitRegisters(const VectorProgram& program, int64_t chunk_rows,
                   std::vector<Register>* registers);

// Runs one op over rows [begin, begin + count) of the batch.
void RunVectorOp(const VectorOp& op, const std::vector<const TypedColumn*>& columns,
                 int64_t begin, int64_t count, std::vector<Register>* registers);

// Kernel families, split by file: expr_vector_ops.cc (load, constants, casts,
// arithmetic, comparisons, logic) and expr_string_ops.cc (strings, sets).
void RunLoadColumn(const VectorOp& op, const TypedColumn* column, int64_t begin, int64_t count,
                   Register* out);
void RunStringOp(const VectorOp& op, int64_t count, const Register& in0, const Register* in1,
                 Register* out);
void RunInSet(const VectorOp& op, int64_t count, const Register& in, Register* out);

}  // namespace griffin
