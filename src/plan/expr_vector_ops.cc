// Vector kernels: loads, constants, casts, arithmetic, comparisons, logic.
// Every loop body is branch-free over plain arrays so the compiler can
// vectorize it. Validity bytes are 0 or 1 (TypedColumn's contract; every
// kernel here writes only 0 or 1).
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "plan/expr_vector_ops.h"

namespace griffin {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000 * 1000;
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

void CopyValid(const Register& in, int64_t count, uint8_t* valid) {
  std::memcpy(valid, in.valid, static_cast<size_t>(count));
}

void RunConstant(const VectorOp& op, int64_t count, Register* out) {
  uint8_t* valid = UseOwnBuffers(out);
  std::fill(valid, valid + count, op.constant_null ? 0 : 1);
  switch (out->kind) {
    case RegKind::kBool:
      std::fill(out->own_bools.begin(), out->own_bools.begin() + count, op.int_value ? 1 : 0);
      break;
    case RegKind::kInt:
      std::fill(out->own_ints.begin(), out->own_ints.begin() + count, op.int_value);
      break;
    case RegKind::kFloat:
      std::fill(out->own_floats.begin(), out->own_floats.begin() + count, op.float_value);
      break;
    case RegKind::kString:
      std::fill(out->own_strings.begin(), out->own_strings.begin() + count,
                std::string_view(op.string_value));
      break;
  }
}

// Kernels take their arrays as __restrict locals: the validity and bool
// arrays are uint8_t, which may alias anything, so without this the compiler
// would reload every pointer from the Register after each store and not
// vectorize.
#define GRIFFIN_RESTRICT __restrict

template <typename Checked>
void ArithInt(const Register& a, const Register& b, int64_t count, Register* out, Checked checked) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  int64_t* GRIFFIN_RESTRICT values = out->own_ints.data();
  const int64_t* GRIFFIN_RESTRICT x = a.ints;
  const int64_t* GRIFFIN_RESTRICT y = b.ints;
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  const uint8_t* GRIFFIN_RESTRICT y_valid = b.valid;
  for (int64_t r = 0; r < count; ++r) {
    int64_t result;
    const bool overflow = checked(x[r], y[r], &result);
    values[r] = result;
    valid[r] = x_valid[r] & y_valid[r] & static_cast<uint8_t>(!overflow);
  }
}

void RunArithInt(const VectorOp& op, const Register& a, const Register& b, int64_t count,
                 Register* out) {
  switch (op.arith) {
    // Add and subtract test the sign bits by hand (two's complement wraps in
    // unsigned arithmetic), which vectorizes where __builtin_*_overflow does not.
    case ArithOp::kAdd:
      return ArithInt(a, b, count, out, [](int64_t x, int64_t y, int64_t* z) {
        *z = static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
        return ((x ^ *z) & (y ^ *z)) < 0;  // both operands' signs differ from the sum's
      });
    case ArithOp::kSub:
      return ArithInt(a, b, count, out, [](int64_t x, int64_t y, int64_t* z) {
        *z = static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
        return ((x ^ y) & (x ^ *z)) < 0;  // signs differ and the result took y's sign
      });
    case ArithOp::kMul:
      return ArithInt(a, b, count, out,
                      [](int64_t x, int64_t y, int64_t* z) { return __builtin_mul_overflow(x, y, z); });
    case ArithOp::kDiv: break;  // the typechecker makes `/` float
  }
}

template <typename Fn>
void ArithFloat(const Register& a, const Register& b, int64_t count, Register* out, Fn fn) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  double* GRIFFIN_RESTRICT values = out->own_floats.data();
  const double* GRIFFIN_RESTRICT x = a.floats;
  const double* GRIFFIN_RESTRICT y = b.floats;
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  const uint8_t* GRIFFIN_RESTRICT y_valid = b.valid;
  for (int64_t r = 0; r < count; ++r) {
    values[r] = fn(x[r], y[r]);
    valid[r] = x_valid[r] & y_valid[r];
  }
}

void RunArithFloat(const VectorOp& op, const Register& a, const Register& b, int64_t count,
                   Register* out) {
  switch (op.arith) {
    case ArithOp::kAdd: return ArithFloat(a, b, count, out, std::plus<double>());
    case ArithOp::kSub: return ArithFloat(a, b, count, out, std::minus<double>());
    case ArithOp::kMul: return ArithFloat(a, b, count, out, std::multiplies<double>());
    case ArithOp::kDiv: {
      uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
      double* GRIFFIN_RESTRICT values = out->own_floats.data();
      const double* GRIFFIN_RESTRICT x = a.floats;
      const double* GRIFFIN_RESTRICT y = b.floats;
      const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
      const uint8_t* GRIFFIN_RESTRICT y_valid = b.valid;
      for (int64_t r = 0; r < count; ++r) {
        const bool nonzero = y[r] != 0;
        values[r] = x[r] / (nonzero ? y[r] : 1.0);
        valid[r] = x_valid[r] & y_valid[r] & static_cast<uint8_t>(nonzero);
      }
      return;
    }
  }
}

// -x and abs(x) on int64: INT64_MIN has no positive counterpart, so it is null.
void RunNegateOrAbsInt(bool is_abs, const Register& a, int64_t count, Register* out) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  int64_t* GRIFFIN_RESTRICT values = out->own_ints.data();
  const int64_t* GRIFFIN_RESTRICT x = a.ints;
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  for (int64_t r = 0; r < count; ++r) {
    const int64_t value = x[r];
    // abs without a branch: mask is all ones for negative values.
    const uint64_t mask = is_abs ? 0 - static_cast<uint64_t>(value < 0) : ~uint64_t{0};
    values[r] = static_cast<int64_t>((static_cast<uint64_t>(value) ^ mask) - mask);
    valid[r] = x_valid[r] & static_cast<uint8_t>(value != kInt64Min);
  }
}

void RunNegateOrAbsFloat(bool is_abs, const Register& a, int64_t count, Register* out) {
  uint8_t* valid = UseOwnBuffers(out);
  double* GRIFFIN_RESTRICT values = out->own_floats.data();
  const double* GRIFFIN_RESTRICT x = a.floats;
  for (int64_t r = 0; r < count; ++r) values[r] = is_abs ? std::fabs(x[r]) : -x[r];
  CopyValid(a, count, valid);
}

template <typename T, typename Cmp>
void CompareLoop(const T* GRIFFIN_RESTRICT x, const T* GRIFFIN_RESTRICT y, const Register& a,
                 const Register& b, int64_t count, Register* out, Cmp cmp) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  uint8_t* GRIFFIN_RESTRICT values = out->own_bools.data();
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  const uint8_t* GRIFFIN_RESTRICT y_valid = b.valid;
  for (int64_t r = 0; r < count; ++r) {
    values[r] = static_cast<uint8_t>(cmp(x[r], y[r]));
    valid[r] = x_valid[r] & y_valid[r];
  }
}

template <typename T>
void Compare(CompareOp compare, const T* x, const T* y, const Register& a, const Register& b,
             int64_t count, Register* out) {
  switch (compare) {
    case CompareOp::kEq: return CompareLoop(x, y, a, b, count, out, std::equal_to<T>());
    case CompareOp::kNe: return CompareLoop(x, y, a, b, count, out, std::not_equal_to<T>());
    case CompareOp::kLt: return CompareLoop(x, y, a, b, count, out, std::less<T>());
    case CompareOp::kLe: return CompareLoop(x, y, a, b, count, out, std::less_equal<T>());
    case CompareOp::kGt: return CompareLoop(x, y, a, b, count, out, std::greater<T>());
    case CompareOp::kGe: return CompareLoop(x, y, a, b, count, out, std::greater_equal<T>());
  }
}

// Kleene logic on (valid, value) pairs: a side is known-false when valid and
// 0, known-true when valid and 1.
template <bool kIsAnd>
void RunAndOr(const Register& a, const Register& b, int64_t count, Register* out) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  uint8_t* GRIFFIN_RESTRICT values = out->own_bools.data();
  const uint8_t* GRIFFIN_RESTRICT x = a.bools;
  const uint8_t* GRIFFIN_RESTRICT y = b.bools;
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  const uint8_t* GRIFFIN_RESTRICT y_valid = b.valid;
  for (int64_t r = 0; r < count; ++r) {
    const uint8_t x_true = x_valid[r] & x[r];
    const uint8_t y_true = y_valid[r] & y[r];
    const uint8_t x_false = x_valid[r] & (x[r] ^ 1);
    const uint8_t y_false = y_valid[r] & (y[r] ^ 1);
    const uint8_t is_true = kIsAnd ? (x_true & y_true) : (x_true | y_true);
    const uint8_t is_false = kIsAnd ? (x_false | y_false) : (x_false & y_false);
    values[r] = is_true;
    valid[r] = is_true | is_false;
  }
}

void RunNot(const Register& a, int64_t count, Register* out) {
  uint8_t* valid = UseOwnBuffers(out);
  uint8_t* GRIFFIN_RESTRICT values = out->own_bools.data();
  const uint8_t* GRIFFIN_RESTRICT x = a.bools;
  for (int64_t r = 0; r < count; ++r) values[r] = x[r] ^ 1;
  CopyValid(a, count, valid);
}

void RunIsNull(bool negated, const Register& a, int64_t count, Register* out) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  uint8_t* GRIFFIN_RESTRICT values = out->own_bools.data();
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  const uint8_t flip = negated ? 0 : 1;
  for (int64_t r = 0; r < count; ++r) values[r] = x_valid[r] ^ flip;
  std::fill(valid, valid + count, 1);
}

void RunIntToFloat(const Register& a, int64_t count, Register* out) {
  uint8_t* valid = UseOwnBuffers(out);
  double* GRIFFIN_RESTRICT values = out->own_floats.data();
  const int64_t* GRIFFIN_RESTRICT x = a.ints;
  for (int64_t r = 0; r < count; ++r) values[r] = static_cast<double>(x[r]);
  CopyValid(a, count, valid);
}

void RunDateToTimestamp(const Register& a, int64_t count, Register* out) {
  uint8_t* GRIFFIN_RESTRICT valid = UseOwnBuffers(out);
  int64_t* GRIFFIN_RESTRICT values = out->own_ints.data();
  const int64_t* GRIFFIN_RESTRICT x = a.ints;
  const uint8_t* GRIFFIN_RESTRICT x_valid = a.valid;
  for (int64_t r = 0; r < count; ++r) {
    const bool overflow = __builtin_mul_overflow(x[r], kMicrosPerDay, &values[r]);
    valid[r] = x_valid[r] & static_cast<uint8_t>(!overflow);
  }
}

}  // namespace

uint8_t* UseOwnBuffers(Register* out) {
  out->valid = out->own_valid.data();
  out->bools = out->own_bools.data();
  out->ints = out->own_ints.data();
  out->floats = out->own_floats.data();
  out->strings = out->own_strings.data();
  return out->own_valid.data();
}

void InitRegisters(const VectorProgram& program, int64_t chunk_rows,
                   std::vector<Register>* registers) {
  const auto rows = static_cast<size_t>(chunk_rows);
  registers->resize(program.registers.size());
  for (size_t i = 0; i < registers->size(); ++i) {
    Register& reg = (*registers)[i];
    reg.kind = program.registers[i];
    reg.own_valid.assign(rows, 0);
    // Bool registers also back the bool copy of a loaded bool column.
    if (reg.kind == RegKind::kBool) reg.own_bools.assign(rows, 0);
    if (reg.kind == RegKind::kInt) reg.own_ints.assign(rows, 0);
    if (reg.kind == RegKind::kFloat) reg.own_floats.assign(rows, 0);
    if (reg.kind == RegKind::kString) reg.own_strings.assign(rows, std::string_view());
  }
}

void RunLoadColumn(const VectorOp& op, const TypedColumn* column, int64_t begin, int64_t count,
                   Register* out) {
  const bool usable = column != nullptr && column->present &&
                      static_cast<int64_t>(column->valid.size()) >= begin + count &&
                      RegKindOf(ExprTypeOf(column->type)) == op.column_kind;
  const void* data = nullptr;
  if (usable) {
    switch (op.column_kind) {
      case RegKind::kBool:
      case RegKind::kInt: data = column->ints; break;
      case RegKind::kFloat: data = column->floats; break;
      case RegKind::kString: data = column->strings; break;
    }
  }
  if (data == nullptr) {  // absent, short or mistyped column: every row is null
    uint8_t* valid = UseOwnBuffers(out);
    std::fill(valid, valid + count, 0);
    return;
  }
  UseOwnBuffers(out);
  out->valid = column->valid.data() + begin;
  switch (op.column_kind) {
    case RegKind::kBool: {
      uint8_t* values = out->own_bools.data();
      for (int64_t r = 0; r < count; ++r) values[r] = column->ints[begin + r] != 0;
      break;
    }
    case RegKind::kInt: out->ints = column->ints + begin; break;
    case RegKind::kFloat: out->floats = column->floats + begin; break;
    case RegKind::kString: out->strings = column->strings + begin; break;
  }
}

void RunVectorOp(const VectorOp& op, const std::vector<const TypedColumn*>& columns,
                 int64_t begin, int64_t count, std::vector<Register>* registers) {
  Register* out = &(*registers)[op.out];
  const Register* a = op.in0 >= 0 ? &(*registers)[op.in0] : nullptr;
  const Register* b = op.in1 >= 0 ? &(*registers)[op.in1] : nullptr;
  switch (op.code) {
    case OpCode::kLoadColumn: {
      const TypedColumn* column =
          op.column_slot >= 0 && static_cast<size_t>(op.column_slot) < columns.size()
              ? columns[op.column_slot]
              : nullptr;
      return RunLoadColumn(op, column, begin, count, out);
    }
    case OpCode::kConstant: return RunConstant(op, count, out);
    case OpCode::kIntToFloat: return RunIntToFloat(*a, count, out);
    case OpCode::kDateToTimestamp: return RunDateToTimestamp(*a, count, out);
    case OpCode::kArithInt: return RunArithInt(op, *a, *b, count, out);
    case OpCode::kArithFloat: return RunArithFloat(op, *a, *b, count, out);
    case OpCode::kNegateInt: return RunNegateOrAbsInt(false, *a, count, out);
    case OpCode::kAbsInt: return RunNegateOrAbsInt(true, *a, count, out);
    case OpCode::kNegateFloat: return RunNegateOrAbsFloat(false, *a, count, out);
    case OpCode::kAbsFloat: return RunNegateOrAbsFloat(true, *a, count, out);
    case OpCode::kCompareBool: return Compare(op.compare, a->bools, b->bools, *a, *b, count, out);
    case OpCode::kCompareInt: return Compare(op.compare, a->ints, b->ints, *a, *b, count, out);
    case OpCode::kCompareFloat: return Compare(op.compare, a->floats, b->floats, *a, *b, count, out);
    case OpCode::kAnd: return RunAndOr<true>(*a, *b, count, out);
    case OpCode::kOr: return RunAndOr<false>(*a, *b, count, out);
    case OpCode::kNot: return RunNot(*a, count, out);
    case OpCode::kIsNull: return RunIsNull(op.negated, *a, count, out);
    case OpCode::kInInt:
    case OpCode::kInFloat:
    case OpCode::kInString: return RunInSet(op, count, *a, out);
    case OpCode::kStringToFloat:
    case OpCode::kCompareString:
    case OpCode::kLength:
    case OpCode::kLower:
    case OpCode::kUpper:
    case OpCode::kMatches: return RunStringOp(op, count, *a, b, out);
  }
}

}  // namespace griffin
