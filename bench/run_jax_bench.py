#!/usr/bin/env python3
"""JAX integration benchmarks (issue 4), each against a peer in the same run:

  1. QualityGate overhead per training step of examples/train_jax.py's model:
     the step alone vs the step plus gate.check(raw batch, loss), for a new
     batch each step (a validation) and for a batch seen before (a cache hit).
  2. griffin.jax.check (XLA FFI, one pass) vs the same counts written in
     jax.numpy (isnan / isinf / range, fused by XLA), under jit, on f32 tensors.
  3. griffin.jax.batches from CSV to jax arrays (validate, keep clean rows,
     batch) vs a hand-written pandas loader that only parses (no validation).

    .venv/bin/python bench/run_jax_bench.py            # full
    .venv/bin/python bench/run_jax_bench.py --quick    # small, for CI (no timing asserts)
    .venv/bin/python bench/run_jax_bench.py --json     # one JSON summary line at the end
"""
import argparse
import json
import os
import pathlib
import statistics
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

BENCH_DIR = pathlib.Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path[:0] = [str(REPO_ROOT / "examples")]

import griffin  # noqa: E402
from griffin.jax import QualityGate, batches, check  # noqa: E402
import train_jax  # noqa: E402


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def median_us(times):
    return statistics.median(times) * 1e6


def gate_overhead(steps, batch_size):
    """Median step time without and with gate.check, and the overhead in %."""
    validator = train_jax.training_rules()
    frame_batches = []
    from griffin import _readers
    # The raw shard as strings, as a loader would hand it over (malformed records skipped by pyarrow).
    table = _readers.read_table(str(REPO_ROOT / "examples" / "transactions.csv"), validator._compiled.source, [0])
    for start in range(0, min(table.num_rows, steps * batch_size), batch_size):
        frame_batches.append(table.slice(start, batch_size).combine_chunks())
    stream = batches(REPO_ROOT / "examples" / "transactions.csv", validator, batch_size=batch_size,
                     columns=["amount", "currency", "kind", "created_at", "label"], dtypes={"created_at": "int64"},
                     transform=train_jax.griffin_transform)
    model_batches = [next(stream) for _ in range(len(frame_batches))]
    stream.close()
    optimizer = optax.adam(3e-3)
    step_fn = train_jax.make_step(optimizer)
    params = train_jax.init_params(jax.random.PRNGKey(0), 11)
    state = optimizer.init(params)
    params, state, loss = step_fn(params, state, model_batches[0]["x"], model_batches[0]["y"])   # compile
    loss.block_until_ready()

    def run(gate_mode):
        nonlocal params, state
        gate = QualityGate(validator, threshold=0.5) if gate_mode else None
        if gate_mode == "hit":
            for raw in frame_batches:
                gate.check(raw)
        times = []
        for raw, batch in zip(frame_batches, model_batches):
            start = time.perf_counter()
            params, state, loss = step_fn(params, state, batch["x"], batch["y"])
            if gate is not None:
                gate.check(raw, loss=loss)
            else:
                float(loss)        # the same device sync the gate does when it reads the loss
            times.append(time.perf_counter() - start)
        return times

    base = run(None)
    miss = run("miss")
    hit = run("hit")
    b, m, h = median_us(base), median_us(miss), median_us(hit)
    return {"steps": len(base), "batch_rows": batch_size, "step_us": b, "step_with_gate_validate_us": m,
            "step_with_gate_cached_us": h, "overhead_validate_pct": 100 * (m - b) / b,
            "overhead_cached_pct": 100 * (h - b) / b}


def ffi_vs_jnp(elements, repeats):
    rng = np.random.default_rng(0)
    x = rng.normal(size=elements).astype(np.float32)
    x[rng.integers(0, elements, elements // 1000)] = np.nan
    x = jnp.asarray(x)
    ours = jax.jit(lambda v: check(v, min=-3.0, max=3.0))

    @jax.jit
    def theirs(v):
        nan = jnp.isnan(v)
        return jnp.stack([nan.sum(), jnp.isinf(v).sum(), (~nan & ((v < -3.0) | (v > 3.0))).sum()])

    assert ours(x).tolist() == theirs(x).tolist()
    ours(x).block_until_ready()
    theirs(x).block_until_ready()
    o = median_us(timed(lambda: ours(x).block_until_ready(), repeats))
    t = median_us(timed(lambda: theirs(x).block_until_ready(), repeats))
    return {"elements": elements, "griffin_check_us": o, "jnp_us": t, "jnp_over_griffin": t / o,
            "griffin_gb_per_s": elements * 4 / (o * 1e-6) / 1e9}


def loader(rows, repeats):
    sys.path.insert(0, str(BENCH_DIR))
    import run_core_bench
    path = run_core_bench.ensure_data(max(1, rows * 105 / 1e6))   # ~105 bytes per row
    validator = train_jax.training_rules()
    columns = ["amount", "currency", "kind", "created_at", "label"]

    def griffin_loader():
        count = 0
        for batch in batches(path, validator, batch_size=1024, columns=columns, dtypes={"created_at": "int64"},
                             transform=train_jax.griffin_transform):
            count += batch["x"].shape[0]
        return count

    def pandas_loader():
        count = 0
        for batch in train_jax.naive_batches(path, 1024):
            count += batch["x"].shape[0]
        return count

    counts = {"griffin": griffin_loader(), "pandas": pandas_loader()}
    g = statistics.median(timed(griffin_loader, repeats))
    p = statistics.median(timed(pandas_loader, repeats))
    size = os.path.getsize(path)
    return {"csv_mb": size / 1e6, "griffin_s": g, "pandas_s": p, "pandas_over_griffin": p / g,
            "griffin_rows_yielded": counts["griffin"], "pandas_rows_yielded": counts["pandas"],
            "griffin_mb_per_s": size / 1e6 / g}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    quick = args.quick
    summary = {"machine": {"cpus": os.cpu_count(), "loadavg": os.getloadavg(), "jax": jax.__version__}}
    summary["gate"] = gate_overhead(steps=10 if quick else 70, batch_size=256)
    g = summary["gate"]
    print("QualityGate per training step (%d steps, %d-row batches): step %.0f us; +validate %.0f us (%.1f%%); "
          "+cached %.0f us (%.1f%%)" % (g["steps"], g["batch_rows"], g["step_us"], g["step_with_gate_validate_us"],
                                        g["overhead_validate_pct"], g["step_with_gate_cached_us"],
                                        g["overhead_cached_pct"]))
    summary["check"] = ffi_vs_jnp(100_000 if quick else 20_000_000, 3 if quick else 15)
    c = summary["check"]
    print("griffin.jax.check on %d f32: %.0f us (%.1f GB/s) vs jax.numpy %.0f us: jnp/griffin = %.2f"
          % (c["elements"], c["griffin_check_us"], c["griffin_gb_per_s"], c["jnp_us"], c["jnp_over_griffin"]))
    summary["loader"] = loader(20_000 if quick else 1_000_000, 1 if quick else 3)
    l = summary["loader"]
    print("CSV (%.0f MB) to jax batches: griffin.jax.batches %.2f s (%.0f MB/s, validated, %d clean rows) vs "
          "pandas loader %.2f s (parse only, %d rows): pandas/griffin = %.2f"
          % (l["csv_mb"], l["griffin_s"], l["griffin_mb_per_s"], l["griffin_rows_yielded"], l["pandas_s"],
             l["pandas_rows_yielded"], l["pandas_over_griffin"]))
    summary["machine"]["loadavg_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
