// ExprProgram: typecheck (expr_typecheck.cc, expr_coerce.cc), lower to vector
// ops (expr_emit.cc), and run them chunk by chunk (expr_vector_ops.cc,
// expr_string_ops.cc).
#include "plan/expr_program.h"

#include <algorithm>

#include "plan/expr_typed.h"
#include "plan/expr_vector_ops.h"

namespace griffin {
namespace {

// Rows per chunk: small enough that a chunk's registers stay in L1/L2 cache,
// large enough that per-op dispatch is negligible.
constexpr int64_t kChunkRows = 2048;

class VectorExprProgram final : public ExprProgram {
 public:
  VectorExprProgram(VectorProgram program, std::vector<int> slots)
      : program_(std::move(program)), slots_(std::move(slots)) {}

  void Evaluate(const std::vector<const TypedColumn*>& columns, int64_t num_rows,
                std::vector<uint8_t>* out) const override {
    out->assign(static_cast<size_t>(std::max<int64_t>(num_rows, 0)), 2);
    if (num_rows <= 0) return;
    // Scratch is local to this call: the program itself is never written.
    std::vector<Register> registers;
    InitRegisters(program_, std::min(num_rows, kChunkRows), &registers);
    for (int64_t begin = 0; begin < num_rows; begin += kChunkRows) {
      const int64_t count = std::min(kChunkRows, num_rows - begin);
      for (const VectorOp& op : program_.ops) RunVectorOp(op, columns, begin, count, &registers);
      const uint8_t* __restrict valid = registers[program_.result].valid;
      const uint8_t* __restrict values = registers[program_.result].bools;
      uint8_t* __restrict verdicts = out->data() + begin;
      for (int64_t r = 0; r < count; ++r) verdicts[r] = valid[r] ? values[r] : 2;
    }
  }

  const std::vector<int>& column_slots() const override { return slots_; }

 private:
  const VectorProgram program_;
  const std::vector<int> slots_;
};

}  // namespace

Result<std::unique_ptr<ExprProgram>> ExprProgram::Compile(const ExprNode& root,
                                                          const std::string& text,
                                                          const ExprColumnResolver& resolver) {
  std::vector<int> slots;
  Result<std::unique_ptr<TypedExpr>> typed = TypecheckExpression(root, resolver, &slots);
  if (!typed.ok()) return Status::RuleError(text + ": " + typed.status().message());
  VectorProgram program = EmitVectorOps(**typed);
  return std::unique_ptr<ExprProgram>(
      std::make_unique<VectorExprProgram>(std::move(program), std::move(slots)));
}

}  // namespace griffin
