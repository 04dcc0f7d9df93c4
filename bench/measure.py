"""Measuring a child process: wall time, CPU time and peak RSS from os.wait4.

Each tool runs in its own child so that its peak RSS is its own. Linux carries
the parent's RSS high-water mark into a child's ru_maxrss (fork/vfork, then
exec records the old memory's peak), so a measuring parent must stay small: it
imports no numpy/pyarrow, and data is generated in children (bench/datasets.py).
Python children also report their own VmHWM (peak_rss_kib()), which exec resets.
"""
import json
import os
import subprocess
import time


def run_child(command, env=None, stderr=None):
    """{status, stdout (bytes), wall_s, cpu_s (user + system), peak_rss_mb} of `command`."""
    started = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, env=env) as child:
        stdout = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    return {"status": child.returncode, "stdout": stdout, "wall_s": time.perf_counter() - started,
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024}  # ru_maxrss is KiB on Linux


def run_validate(argv, rows, who):
    """run_child(argv) of a `griffin validate ... --format json` command, and its report.
    Exits naming `who` when griffin fails (an exit other than 0 or 1) or when the report
    does not hold `rows` rows (every generated record is a row, malformed ones included)."""
    run = run_child(argv)
    if run["status"] not in (0, 1):
        raise SystemExit(f"{who}: exit {run['status']}: {' '.join(argv)}")
    report = json.loads(run["stdout"])
    if report["rows"] != rows:
        raise SystemExit(f"{who}: the report has {report['rows']:,} rows, the input {rows:,}")
    return run, report


def peak_rss_kib(pid="self"):
    """VmHWM (peak resident set, KiB) of a live process, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0
