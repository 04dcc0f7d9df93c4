// Second compiler pass: TypedExpr -> VectorProgram (plan/expr_vector_ops.h).
//
// Registers are allocated in post order and recycled as soon as their one
// reader has run, so a program needs about as many registers as its tree is
// deep, not as many as it has nodes. An op's output register is taken before
// its inputs are released, so an op never writes a register it reads.
#include <array>

#include "plan/expr_vector_ops.h"

namespace griffin {
namespace {

class Emitter {
 public:
  VectorProgram Finish(const TypedExpr& root) {
    program_.result = Emit(root);
    return std::move(program_);
  }

 private:
  int Allocate(RegKind kind) {
    std::vector<int>& free_list = free_[static_cast<int>(kind)];
    if (!free_list.empty()) {
      int reg = free_list.back();
      free_list.pop_back();
      return reg;
    }
    program_.registers.push_back(kind);
    return static_cast<int>(program_.registers.size()) - 1;
  }

  void Release(int reg) {
    if (reg >= 0) free_[static_cast<int>(program_.registers[reg])].push_back(reg);
  }

  // Emits the children, then `op` writing a fresh register of `out_kind`.
  int Push(VectorOp op, const TypedExpr& expr, RegKind out_kind) {
    if (!expr.children.empty()) op.in0 = Emit(*expr.children[0]);
    if (expr.children.size() > 1) op.in1 = Emit(*expr.children[1]);
    op.out = Allocate(out_kind);
    Release(op.in0);
    Release(op.in1);
    program_.ops.push_back(std::move(op));
    return program_.ops.back().out;
  }

  static OpCode ByKind(RegKind kind, OpCode for_bool, OpCode for_int, OpCode for_float,
                       OpCode for_string) {
    switch (kind) {
      case RegKind::kBool: return for_bool;
      case RegKind::kInt: return for_int;
      case RegKind::kFloat: return for_float;
      case RegKind::kString: return for_string;
    }
    return for_bool;
  }

  int Emit(const TypedExpr& expr) {
    VectorOp op;
    const RegKind out_kind = RegKindOf(expr.type);
    const RegKind in_kind =
        expr.children.empty() ? out_kind : RegKindOf(expr.children[0]->type);
    switch (expr.kind) {
      case TypedExpr::Kind::kColumn:
        op.code = OpCode::kLoadColumn;
        op.column_slot = expr.column_slot;
        op.column_kind = out_kind;
        break;
      case TypedExpr::Kind::kConstant:
        op.code = OpCode::kConstant;
        op.constant_null = expr.constant_null;
        op.int_value = expr.int_value;
        op.float_value = expr.float_value;
        op.string_value = expr.string_value;
        break;
      case TypedExpr::Kind::kCast:
        op.code = expr.cast_from == ExprType::kInt      ? OpCode::kIntToFloat
                  : expr.cast_from == ExprType::kString ? OpCode::kStringToFloat
                                                        : OpCode::kDateToTimestamp;
        break;
      case TypedExpr::Kind::kNegate:
        op.code = out_kind == RegKind::kInt ? OpCode::kNegateInt : OpCode::kNegateFloat;
        break;
      case TypedExpr::Kind::kAbs:
        op.code = out_kind == RegKind::kInt ? OpCode::kAbsInt : OpCode::kAbsFloat;
        break;
      case TypedExpr::Kind::kArith:
        op.code = out_kind == RegKind::kInt ? OpCode::kArithInt : OpCode::kArithFloat;
        op.arith = expr.arith;
        break;
      case TypedExpr::Kind::kCompare:
        op.code = ByKind(in_kind, OpCode::kCompareBool, OpCode::kCompareInt, OpCode::kCompareFloat,
                         OpCode::kCompareString);
        op.compare = expr.compare;
        break;
      case TypedExpr::Kind::kAnd: op.code = OpCode::kAnd; break;
      case TypedExpr::Kind::kOr: op.code = OpCode::kOr; break;
      case TypedExpr::Kind::kNot: op.code = OpCode::kNot; break;
      case TypedExpr::Kind::kIsNull:
        op.code = OpCode::kIsNull;
        op.negated = expr.negated;
        break;
      case TypedExpr::Kind::kIn:
        op.code = ByKind(in_kind, OpCode::kInInt, OpCode::kInInt, OpCode::kInFloat,
                         OpCode::kInString);
        op.negated = expr.negated;
        op.in_ints = expr.in_ints;
        op.in_floats = expr.in_floats;
        op.in_strings = expr.in_strings;
        op.in_has_null = expr.in_has_null;
        break;
      case TypedExpr::Kind::kLength: op.code = OpCode::kLength; break;
      case TypedExpr::Kind::kLower: op.code = OpCode::kLower; break;
      case TypedExpr::Kind::kUpper: op.code = OpCode::kUpper; break;
      case TypedExpr::Kind::kMatches:
        op.code = OpCode::kMatches;
        op.regex = expr.regex;
        break;
    }
    return Push(std::move(op), expr, out_kind);
  }

  VectorProgram program_;
  std::array<std::vector<int>, 4> free_;
};

}  // namespace

RegKind RegKindOf(ExprType type) {
  switch (type) {
    case ExprType::kNull:
    case ExprType::kBool: return RegKind::kBool;
    case ExprType::kInt:
    case ExprType::kDate:
    case ExprType::kTimestamp: return RegKind::kInt;
    case ExprType::kFloat: return RegKind::kFloat;
    case ExprType::kString: return RegKind::kString;
  }
  return RegKind::kBool;
}

VectorProgram EmitVectorOps(const TypedExpr& root) {
  Emitter emitter;
  return emitter.Finish(root);
}

}  // namespace griffin
