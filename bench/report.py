"""docs/benchmarks.md (and, through bench/chart.py, the PNG) from a run_peers.py run.
`python bench/report.py bench/data/peers_results.json` renders an earlier run again.

Everything in the page comes from the run's JSON (bench/data/peers_results.json),
except bench/findings.md, the hand-written profile notes, which is appended.
"""
import json
import pathlib
import subprocess

import compare
import suite

BENCH_DIR = pathlib.Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
REFERENCE = "griffin"
SCENARIO_TITLES = {"csv": "From CSV on disk to counts", "memory": "From an in-memory frame to counts",
                   "latency": "Small-batch latency: 10,000 rows in memory, per call"}


def _timed(results):
    return {tool: r for tool, r in results.items() if "median_s" in r}


def _ratio(result, reference):
    return result["median_s"] / reference["median_s"] if reference else None


def _seconds(value):
    if value < 1e-3:
        return f"{value * 1e6:,.0f} µs"
    if value < 1:
        return f"{value * 1e3:,.1f} ms"
    return f"{value:,.2f} s"


def scenario_rows(results):
    """Sorted (tool, result, ratio-to-Griffin) of the tools that ran, fastest first."""
    timed = _timed(results)
    reference = timed.get(REFERENCE)
    return [(tool, r, _ratio(r, reference)) for tool, r in sorted(timed.items(), key=lambda kv: kv[1]["median_s"])]


def _table(results, latency=False):
    if latency:
        lines = ["| tool | median per call | p99 per call | calls | peak RSS | median / Griffin's |",
                 "| --- | ---: | ---: | ---: | ---: | ---: |"]
    else:
        lines = ["| tool | median wall | median CPU | rows/s | MB/s | peak RSS | runs | time / Griffin's |",
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for tool, r, ratio in scenario_rows(results):
        ratio_text = f"{ratio:,.1f}×" if ratio is not None else "-"
        if latency:
            lines.append(f"| {tool} | {_seconds(r['median_s'])} | {_seconds(r['p99_s'])} | {r['n_runs']} "
                         f"| {r['peak_rss_mb']:,.0f} MB | {ratio_text} |")
        else:
            lines.append(f"| {tool} | {_seconds(r['median_s'])} | {_seconds(r['cpu_median_s'])} "
                         f"| {r['rows_per_s']:,.0f} | {r['mb_per_s']:,.1f} | {r['peak_rss_mb']:,.0f} MB "
                         f"| {r['n_runs']} | {ratio_text} |")
    for tool, r in results.items():
        if "median_s" not in r:
            lines.append(f"| {tool} | did not run: {r.get('error', 'no timed run')} |" + " |" * (4 if latency else 6))
    return lines


def _versions(run):
    found = {}
    for size in run["sizes"]:
        for results in size["scenarios"].values():
            for r in results.values():
                found.update(r.get("versions", {}))
    return found


def _hows(run):
    found = {"griffin-cli": "`griffin validate -r bench/suite.rules.yaml DATA.csv --format json --no-store`, "
                            "a process per run (its startup included)."}
    for size in run["sizes"]:
        for results in size["scenarios"].values():
            for tool, r in results.items():
                if r.get("how"):
                    found[tool] = r["how"]
    return found


def targets(run):
    """The issue's targets, evaluated on this run: [(target, met, evidence)]."""
    out = []
    for size in run["sizes"]:
        for scenario, results in size["scenarios"].items():
            label = "10,000 rows" if scenario == "latency" else f"{size['rows']:,} rows"
            rows = scenario_rows(results)
            if not rows or rows[0][0] not in (REFERENCE, "griffin-cli"):
                fastest = rows[0][0] if rows else "-"
                out.append((f"Griffin fastest, {scenario}, {label}", False, f"fastest: {fastest}"))
            else:
                out.append((f"Griffin fastest, {scenario}, {label}", True, ""))
        label = f"{size['rows']:,} rows"
        csv = _timed(size["scenarios"].get("csv", {}))
        if REFERENCE in csv:
            peers = {t: r for t, r in csv.items() if t not in (REFERENCE, "griffin-cli")}
            if peers:
                fastest = min(peers, key=lambda t: peers[t]["median_s"])
                ratio = _ratio(peers[fastest], csv[REFERENCE])
                out.append((f"CSV ≥ 2× the fastest peer, {label}", ratio >= 2, f"{fastest}: {ratio:.2f}×"))
            if "great-expectations" in csv:
                ratio = _ratio(csv["great-expectations"], csv[REFERENCE])
                out.append((f"CSV ≥ 50× Great Expectations, {label}", ratio >= 50, f"{ratio:.1f}×"))
            lowest = min(csv, key=lambda t: csv[t]["peak_rss_mb"])
            out.append((f"lowest peak RSS, csv, {label}", lowest in (REFERENCE, "griffin-cli"),
                        f"lowest: {lowest} {csv[lowest]['peak_rss_mb']:,.0f} MB; Griffin "
                        f"{csv[REFERENCE]['peak_rss_mb']:,.0f} MB"))
    if len(run["sizes"]) >= 2:
        small, large = run["sizes"][0], run["sizes"][-1]
        for tool in (REFERENCE, "griffin-cli"):
            a = small["scenarios"]["csv"].get(tool, {}).get("peak_rss_mb")
            b = large["scenarios"]["csv"].get(tool, {}).get("peak_rss_mb")
            if a and b:
                growth = b / a
                out.append((f"{tool} peak RSS flat from {small['rows']:,} to {large['rows']:,} rows (csv)",
                            growth <= 1.5, f"{a:,.0f} MB -> {b:,.0f} MB ({growth:.2f}×)"))
    return out


def summary_text(run):
    lines = []
    for size in run["sizes"]:
        for scenario, results in size["scenarios"].items():
            lines.append(f"{SCENARIO_TITLES[scenario]} ({size['rows']:,} rows):")
            for tool, r, ratio in scenario_rows(results):
                lines.append(f"  {tool:<20} median {_seconds(r['median_s']):>10}"
                             + (f"  p99 {_seconds(r['p99_s']):>10}" if "p99_s" in r else
                                f"  {r['rows_per_s']:>13,.0f} rows/s")
                             + f"  peak RSS {r['peak_rss_mb']:7,.0f} MB  ×{ratio:,.1f} of Griffin's time")
    return "\n".join(lines)


def _counts_section(size):
    lines = []
    for scenario, results in size["scenarios"].items():
        ran = {t: r for t, r in results.items() if "counts" in r}
        tools = list(ran)
        rows_label = "10,000 rows" if scenario == "latency" else f"{size['rows']:,} rows"
        lines += ["", f"**{SCENARIO_TITLES[scenario]}** ({rows_label}): counts per check.", "",
                  "| check | " + " | ".join(tools) + " |", "| --- |" + " ---: |" * len(tools)]
        for name in suite.ALL_NAMES:
            lines.append(f"| {name} | " + " | ".join(compare.format_value(ran[t]["counts"].get(name))
                                                   for t in tools) + " |")
        diffs = size.get("differences", {}).get(scenario, [])
        if diffs:
            lines += ["", "Differences from Griffin's counts (check: Griffin's → the tool's):", "",
                      "| tool | checks | why |", "| --- | --- | --- |"]
            grouped = {}
            for d in diffs:
                grouped.setdefault((d["tool"], d["reason"] or "**undocumented**"), []).append(
                    f"{d['check']}: {compare.format_value(d['griffin'])} → {compare.format_value(d['value'])}"
                    + ("" if d["allowed"] else " (**outside its bound**)"))
            for (tool, reason), items in grouped.items():
                lines.append(f"| {tool} | {'; '.join(items)} | {reason} |")
    return lines


def write_docs(run, md_path, png_path, results_path=BENCH_DIR / "data" / "peers_results.json"):
    """Writes the page, the run beside it as JSON (md_path with .json: what a later
    `run_peers.py --merge docs/benchmarks.json` builds on) and (bench/chart.py, from
    results_path: the run as JSON) the chart."""
    md_path.with_suffix(".json").write_text(json.dumps(run, indent=1, default=str) + "\n")
    subprocess.run([str(REPO_ROOT / ".venv-bench" / "bin" / "python"), str(BENCH_DIR / "chart.py"),
                    str(results_path), str(png_path)], check=True)
    m = run["machine"]
    lines = ["# Benchmarks: Griffin and its peers", "",
             f"Generated by bench/run_peers.py (`make bench` runs it; this page: `{run['command']}`, "
             f"{run['started']}), at commit "
             f"{run.get('commit', 'not recorded')}; Griffin as built then ("
             + (", ".join(f"{k} built {v} UTC" for k, v in run.get("griffin_builds", {}).items())
                or "build times not recorded") + "). "
             "Do not edit by hand:",
             "rerun the command. The profile notes at the end are bench/findings.md.", "",
             f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
             f"kernel {m['kernel']}, Python {m['python']}.",
             "- The machine is shared with other engineers' builds: compare ratios from one run, not "
             "absolute times. Load average (1/5/15 min) before and after each size:"]
    for size in run["sizes"]:
        loads = [", ".join(f"{v:.2f}" for v in size.get(key) or run.get(key, ()))
                 for key in ("loadavg_before", "loadavg_after")]
        lines.append(f"  {size['rows']:,} rows, started {size.get('started', run['started'])}: before {loads[0]};"
                     f" after {loads[1]}; median of {size.get('runs', run['runs'])} runs after "
                     f"{size.get('warmup', run['warmup'])} warm-up, at most {size.get('timeout_s', '?')} s "
                     "per tool process.")
        for rerun in size.get("reruns", []):
            loads = [", ".join(f"{v:.2f}" for v in rerun[key]) for key in ("loadavg_before", "loadavg_after")]
            lines.append(f"  {size['rows']:,} rows, scenarios {', '.join(rerun['scenarios'])} rerun "
                         f"{rerun['started']} at commit {rerun['commit']}: before {loads[0]}; after {loads[1]}; "
                         f"median of {rerun['runs']} runs after {rerun['warmup']} warm-up (these tables "
                         "replace the earlier run's).")
    lines += ["- Each tool runs in its own process; peak RSS is that process's (Spark: Python plus the JVM).",
             "- Rules: `bench/suite.rules.yaml` (13 checks), expressed per tool in `bench/tools/`.",
             "- Versions: " + ", ".join(f"{k} {v}" for k, v in sorted(_versions(run).items())) + ".", "",
             f"![throughput and memory]({png_path.name})", ""]
    lines += ["## Targets", "", "| target | met | evidence |", "| --- | --- | --- |"]
    lines += [f"| {t} | {'yes' if met else '**no**'} | {why} |" for t, met, why in targets(run)]
    for size in run["sizes"]:
        for scenario, results in size["scenarios"].items():
            title = SCENARIO_TITLES[scenario]
            if scenario == "latency":
                title += " (issue 4's figure: Griffin's `validator.validate(pyarrow_table)`, target median < 200 µs)"
            lines += ["", f"## {title}: {size['rows']:,} rows" if scenario != "latency" else f"## {title}", ""]
            lines += _table(results, latency=scenario == "latency")
    lines += ["", "## How each tool expresses the suite", "",
              "Every check of the suite was expressed in every tool (no tool lacks one outright); where a tool",
              "has no native check, the way around it is said here, from each adapter's own description",
              "(`bench/tools/*.py`).", "", "| tool | how |", "| --- | --- |"]
    lines += [f"| {tool} | {how} |" for tool, how in _hows(run).items()]
    lines += ["", "## Correctness: the same counts", "",
              "Each count is compared with Griffin's; a difference is allowed only where bench/suite.py",
              "documents why (ALLOWED_DIFFERENCES), and the run fails otherwise."]
    for size in run["sizes"]:
        lines += _counts_section(size)
    findings = BENCH_DIR / "findings.md"
    if findings.exists():
        lines += ["", findings.read_text().rstrip()]
    md_path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":  # re-render the page of an earlier run: report.py RESULTS.json
    import sys
    path = pathlib.Path(sys.argv[1])
    write_docs(json.loads(path.read_text()), REPO_ROOT / "docs" / "benchmarks.md",
               REPO_ROOT / "docs" / "benchmarks.png", path)
