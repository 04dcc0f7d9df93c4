#include "plan/plan_explain.h"

#include <vector>

namespace griffin {

std::string ExplainPlan(const Plan& plan) {
  std::vector<const CompiledColumnCheck*> column_check(plan.checks().size(), nullptr);
  for (const ColumnPlan& column : plan.columns())
    for (const CompiledColumnCheck& check : column.checks) column_check[check.check_index] = &check;
  std::string out = "plan of " + plan.rules().path + ": " + std::to_string(plan.checks().size()) + " checks\n";
  for (size_t c = 0; c < plan.checks().size(); ++c) {
    const CheckInfo& info = plan.checks()[c];
    out += "  " + info.name + "  " + info.check;
    const CompiledColumnCheck* check = column_check[c];
    if (check && (check->kind == ColumnCheckKind::kRegex || check->kind == ColumnCheckKind::kContains))
      out += " /" + check->bound_text + "/  path: " + check->regex_path;
    out += "\n";
  }
  return out;
}

}  // namespace griffin
