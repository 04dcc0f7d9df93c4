"""Correctness first: each tool's per-check counts against Griffin's.

compare() returns one row per (check, tool) that is not equal to Griffin's, with
the documented reason (bench/suite.ALLOWED_DIFFERENCES) or None when undocumented.
Checks a tool cannot express (its NOT_EXPRESSIBLE) are rows too, with that reason.
Table checks are compared as observed values, or as passed/failed for tools that
only report that (pandera: table_as_passed).
"""
import suite

REFERENCE = "griffin"

# Table check -> its bound in bench/suite.rules.yaml (both are `max`).
TABLE_MAX = {"email.null_fraction": 0.05, "label.mean": 0.05}


def within_bound(bound, reference, value, name, malformed, evaluated):
    """Whether `value` keeps to a documented difference's bound (bench/suite.py)."""
    if isinstance(value, bool) or value is None:
        return False
    if bound == suite.MALFORMED:
        if name in suite.TABLE_CHECKS:  # a fraction/mean moves by at most ~malformed/rows
            return abs(value - reference) <= 2.0 * malformed / max(1, evaluated)
        return abs(value - reference) <= malformed
    if bound == suite.ALL_COPIES_BOUND:
        return reference < value <= 2 * reference + malformed
    if bound == suite.FEWER:
        return value <= reference
    raise ValueError(f"unknown bound {bound!r}")


def compare(results, malformed_rows):
    """results: {tool: child job result with "counts"} for one scenario and size;
    malformed_rows: Griffin's count of malformed records in that input.
    -> (rows, ok): rows = [{check, tool, griffin, value, reason, allowed}]."""
    reference = results[REFERENCE]["counts"]
    rows, ok = [], True
    for tool, result in results.items():
        if tool == REFERENCE or "counts" not in result:
            continue
        counts = result["counts"]
        for name in suite.ALL_NAMES:
            expected = reference[name]
            if name in result.get("not_expressible", {}):
                rows.append({"check": name, "tool": tool, "griffin": expected, "value": None,
                             "reason": "cannot express: " + result["not_expressible"][name],
                             "allowed": True})
                continue
            value = counts.get(name)
            if name in suite.TABLE_CHECKS and isinstance(value, bool):
                expected = expected <= TABLE_MAX[name]  # compare passed with passed
            if suite.same_value(expected, value):
                continue
            documented = suite.allowed_difference(tool, result["scenario"], name)
            reason = documented[0] if documented else None
            allowed = documented is not None and within_bound(
                documented[1], reference[name], value, name, malformed_rows, reference["evaluated_rows"])
            ok &= allowed
            rows.append({"check": name, "tool": tool, "griffin": expected, "value": value,
                         "reason": reason, "allowed": allowed})
    return rows, ok


def format_value(value):
    if isinstance(value, bool):
        return "passed" if value else "failed"
    if isinstance(value, float):
        return f"{value:.6g}"
    return "-" if value is None else f"{value:,}"


def count_table(results):
    """Text table: one line per check, one column per tool (for the console)."""
    tools = [t for t in results if "counts" in results[t]]
    width = max(12, *(len(t) + 1 for t in tools))
    lines = [f"{'check':<22}" + "".join(f"{t:>{width}}" for t in tools)]
    for name in suite.ALL_NAMES:
        cells = [format_value(results[t]["counts"].get(name)) for t in tools]
        lines.append(f"{name:<22}" + "".join(f"{c:>{width}}" for c in cells))
    return "\n".join(lines)
