"""docs/benchmarks.md (and, through bench/chart.py, the PNG) from a run_peers.py run.

Everything in the page comes from the run's JSON (bench/data/peers_results.json),
except bench/findings.md, the hand-written profile notes, which is appended.
"""
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


def targets(run):
    """The issue's targets, evaluated on this run: [(target, met, evidence)]."""
    out = []
    for size in run["sizes"]:
        label = f"{size['rows']:,} rows"
        for scenario, results in size["scenarios"].items():
            rows = scenario_rows(results)
            if not rows or rows[0][0] not in (REFERENCE, "griffin-cli"):
                fastest = rows[0][0] if rows else "-"
                out.append((f"Griffin fastest, {scenario}, {label}", False, f"fastest: {fastest}"))
            else:
                out.append((f"Griffin fastest, {scenario}, {label}", True, ""))
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
        lines += ["", f"**{SCENARIO_TITLES[scenario]}** ({size['rows']:,} rows): counts per check.", "",
                  "| check | " + " | ".join(tools) + " |", "| --- |" + " ---: |" * len(tools)]
        for name in suite.ALL_NAMES:
            lines.append(f"| {name} | " + " | ".join(compare.format_value(ran[t]["counts"].get(name))
                                                   for t in tools) + " |")
        diffs = size.get("differences", {}).get(scenario, [])
        if diffs:
            lines += ["", "Differences from Griffin's counts:", "", "| tool | check | Griffin | tool | why |",
                      "| --- | --- | ---: | ---: | --- |"]
            for d in diffs:
                lines.append(f"| {d['tool']} | {d['check']} | {compare.format_value(d['griffin'])} "
                             f"| {compare.format_value(d['value'])} | {d['reason'] or '**undocumented**'} |")
    return lines


def write_docs(run, md_path, png_path):
    import json
    results_path = BENCH_DIR / "data" / "peers_results.json"
    subprocess.run([str(REPO_ROOT / ".venv-bench" / "bin" / "python"), str(BENCH_DIR / "chart.py"),
                    str(results_path), str(png_path)], check=True)
    m = run["machine"]
    lines = ["# Benchmarks: Griffin and its peers", "",
             f"Generated by `make bench` (`{run['command']}`) on {run['started']}. Do not edit by hand:",
             "rerun the command. The profile notes at the end are bench/findings.md.", "",
             f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, "
             f"kernel {m['kernel']}, Python {m['python']}.",
             f"- Load average (1/5/15 min) before: {', '.join(f'{v:.2f}' for v in run['loadavg_before'])}; "
             f"after: {', '.join(f'{v:.2f}' for v in run['loadavg_after'])}. The machine is shared: "
             "compare ratios from one run, not absolute times.",
             f"- Each figure is the median of {run['runs']} runs after {run['warmup']} warm-up run(s), each "
             "tool in its own process; peak RSS is that process's (Spark: Python plus the JVM).",
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
    lines += ["", "## Correctness: the same counts", "",
              "Each count is compared with Griffin's; a difference is allowed only where bench/suite.py",
              "documents why (ALLOWED_DIFFERENCES), and the run fails otherwise."]
    for size in run["sizes"]:
        lines += _counts_section(size)
    findings = BENCH_DIR / "findings.md"
    if findings.exists():
        lines += ["", findings.read_text().rstrip()]
    md_path.write_text("\n".join(lines) + "\n")
    (BENCH_DIR / "data" / "peers_results.last.json").write_text(json.dumps(run, indent=1, default=str))
