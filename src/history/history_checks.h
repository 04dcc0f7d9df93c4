// Judges a run's history checks (a column's `drift:`, docs/rules.md "Drift
// checks"; a table `anomaly:`, history/anomaly_checks.h) once its rows are
// merged: the merger reported each as "not evaluated"; this replaces those
// reports with the comparison against the baseline or the history and
// recomputes the run's verdict. It never fails the run as a
// whole: every problem lands in its check.
//
//   last_passed   the newest complete run of the dataset that passed, with a
//                 stored profile (RunStore::LastPassedRunWithProfile)
//   run:ID        that run (a unique id prefix), its stored profile
//   profile:FILE  a profile state (griffin profile --state) or data file;
//                 a relative FILE is found from the rule file's folder
//
// Outcomes (docs/rules.md): no history yet (no passed run with a profile;
// the column absent from, or without values in, the baseline) passes with a
// `note`. A baseline that was named but cannot be had (an unknown or
// ambiguous run, a run without a stored profile, an unreadable file, no run
// store) fails the check with a message saying so.
#pragma once

#include <string>

#include "history/history_context.h"
#include "plan/plan.h"
#include "report/report.h"

namespace griffin {

void EvaluateHistoryChecks(const Plan& plan, const HistoryContext& context, Report* report);

}  // namespace griffin
