#!/usr/bin/env python3
"""The benchmark chart: throughput (rows/s, log scale) per tool and scenario, and
peak RSS per tool (from CSV), for each size of a run_peers.py run.

    python bench/chart.py bench/data/peers_results.json docs/benchmarks.png

Runs in .venv-bench (matplotlib is pinned in bench/requirements.txt)."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(results_path, png_path):
    run = json.load(open(results_path))
    sizes = run["sizes"]
    tools = []
    for size in sizes:
        for scenario in ("csv", "memory"):
            for tool, r in size["scenarios"].get(scenario, {}).items():
                if "median_s" in r and tool not in tools:
                    tools.append(tool)
    panels = [(size, scenario) for size in sizes for scenario in ("csv", "memory")]
    figure, axes = plt.subplots(1, len(panels) + 1, figsize=(4.2 * (len(panels) + 1), 5.2), sharey=False)
    colors = {tool: ("#d62728" if tool.startswith("griffin") else "#1f77b4") for tool in tools}
    for axis, (size, scenario) in zip(axes, panels):
        results = size["scenarios"].get(scenario, {})
        names = [t for t in tools if "median_s" in results.get(t, {})]
        values = [results[t]["rows_per_s"] for t in names]
        axis.barh(names, values, color=[colors[t] for t in names])
        axis.set_xscale("log")
        axis.invert_yaxis()
        axis.set_title(f"{'from CSV' if scenario == 'csv' else 'in memory'}, {size['rows']:,} rows", fontsize=10)
        axis.set_xlabel("rows/s (log; higher is better)")
        axis.tick_params(axis="y", labelsize=8)
    axis = axes[-1]
    width = 0.8 / len(sizes)
    for index, size in enumerate(sizes):
        results = size["scenarios"].get("csv", {})
        ys = [i + index * width for i, t in enumerate(tools)]
        values = [results.get(t, {}).get("peak_rss_mb", 0) if "median_s" in results.get(t, {}) else 0
                  for t in tools]
        axis.barh(ys, values, height=width, label=f"{size['rows']:,} rows")
    axis.set_yticks([i + width * (len(sizes) - 1) / 2 for i in range(len(tools))], tools, fontsize=8)
    axis.invert_yaxis()
    axis.set_title("peak RSS, from CSV", fontsize=10)
    axis.set_xlabel("MB (lower is better)")
    axis.legend(fontsize=8)
    figure.suptitle(f"Griffin and its peers: the same 13 checks ({run['machine']['cores']} cores, "
                    f"{run['machine']['cpu']}); Griffin in red", fontsize=11)
    figure.tight_layout()
    figure.savefig(png_path, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
