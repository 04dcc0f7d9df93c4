#!/usr/bin/env python3
"""Train a small fraud model with JAX on the example transactions, three ways.

    python examples/train_jax.py --mode raw       # no Griffin: bad rows reach training, the loss goes NaN
    python examples/train_jax.py --mode griffin   # griffin.jax.batches: clean rows only, a sensible loss
    python examples/train_jax.py --mode corrupt   # one shard is corrupted: QualityGate stops training
                                                  # (TrainingAbortError) before that shard's checkpoint

Features: amount (signed log scale), currency and kind one-hot, hour of day
(sin, cos). Label: fraud (0/1, ~2%; random in this synthetic feed, so the best
loss is the label entropy, ~0.098). Model: a one-hidden-layer MLP, optax adam.

The data is examples/transactions.csv split into --shards CSV shards; a
checkpoint (params as .npz) is written after each shard. --json prints a
summary line for scripts (tests/python/test_train_example.py runs all three).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import sys
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import optax
import yaml

import griffin
from griffin.jax import QualityGate, TrainingAbortError, batches

HERE = pathlib.Path(__file__).resolve().parent
CURRENCIES = ["USD", "EUR", "GBP", "JPY"]
KINDS = ["purchase", "refund", "transfer"]
MICROS_PER_HOUR = 3_600_000_000


def training_rules() -> griffin.Validator:
    """The feed's rules, tightened for training: every feature and the label
    must be present (warn-only or optional checks become errors)."""
    rules = yaml.safe_load((HERE / "transactions.rules.yaml").read_text())
    columns = rules["columns"]
    columns["label"]["not_null"] = True
    for name in ("currency", "kind"):
        columns[name]["not_null"] = True
    rules.pop("table", None)          # per-shard training data: no feed-level table checks
    rules.pop("score", None)
    return griffin.Validator.from_yaml(yaml.safe_dump(rules, sort_keys=False))


def features(amount: np.ndarray, currency: np.ndarray, kind: np.ndarray, hour: np.ndarray) -> np.ndarray:
    """[rows, 11] float32: signed log amount, currency one-hot (4), kind one-hot (3), hour sin/cos,
    and a bias-free constant 1."""
    amount = amount.astype(np.float64)
    columns = [np.sign(amount) * np.log1p(np.abs(amount)) / 10.0]
    columns += [(currency == i).astype(np.float64) for i in range(len(CURRENCIES))]
    columns += [(kind == i).astype(np.float64) for i in range(len(KINDS))]
    angle = 2 * np.pi * hour / 24.0
    columns += [np.sin(angle), np.cos(angle), np.ones_like(amount)]
    return np.stack(columns, axis=1).astype(np.float32)


def griffin_transform(batch: dict) -> dict:
    """griffin.jax.batches() columns (codes, micros) -> model inputs, on the host."""
    hour = (batch["created_at"] // MICROS_PER_HOUR) % 24
    return {"x": features(batch["amount"], batch["currency"], batch["kind"], hour.astype(np.float64)),
            "y": batch["label"].astype(np.float32)}


def naive_batches(path: pathlib.Path, batch_size: int):
    """What a training script without validation does: pandas, coercing what it
    cannot parse (NaN), unknown categories as all-zero one-hots."""
    import pandas as pd

    frame = pd.read_csv(path, on_bad_lines="skip", dtype=str, keep_default_na=False)
    amount = pd.to_numeric(frame["amount"], errors="coerce").to_numpy()
    currency = frame["currency"].map({c: i for i, c in enumerate(CURRENCIES)}).fillna(-1).to_numpy()
    kind = frame["kind"].map({k: i for i, k in enumerate(KINDS)}).fillna(-1).to_numpy()
    stamp = pd.to_datetime(frame["created_at"], errors="coerce", utc=True, format="ISO8601")
    hour = stamp.dt.hour.to_numpy(dtype=np.float64, na_value=np.nan)
    label = pd.to_numeric(frame["label"], errors="coerce").to_numpy(dtype=np.float64)
    x = features(amount, currency, kind, hour)
    for start in range(0, len(frame) - batch_size + 1, batch_size):
        yield {"x": jnp.asarray(x[start:start + batch_size]), "y": jnp.asarray(label[start:start + batch_size],
                                                                               dtype=jnp.float32)}


def init_params(key, inputs: int, hidden: int = 16):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (inputs, hidden)) * 0.3, "b1": jnp.zeros(hidden),
            "w2": jax.random.normal(k2, (hidden,)) * 0.3, "b2": jnp.zeros(())}


def loss_fn(params, x, y):
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    logits = hidden @ params["w2"] + params["b2"]
    return optax.sigmoid_binary_cross_entropy(logits, y).mean()


def make_step(optimizer):
    @jax.jit
    def step(params, state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss
    return step


def write_shards(source: pathlib.Path, out: pathlib.Path, shards: int, corrupt: int | None) -> list:
    """Splits the CSV into `shards` files by lines (records of the example have
    no embedded newlines); shard `corrupt` gets most of its amounts replaced by
    garbage and NaN, as a broken upstream job would write them."""
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    header, rows = lines[0], lines[1:]
    size = math.ceil(len(rows) / shards)
    paths = []
    rng = np.random.default_rng(7)
    for index in range(shards):
        part = rows[index * size:(index + 1) * size]
        if index == corrupt:
            part = [_corrupt(line, rng) for line in part]
        path = out / ("shard-%02d.csv" % index)
        path.write_text(header + "".join(part), encoding="utf-8")
        paths.append(path)
    return paths


def _corrupt(line: str, rng) -> str:
    fields = line.rstrip("\n").split(",")
    if len(fields) == 10 and rng.random() < 0.6:
        fields[2] = rng.choice(["NaN", "n/a", "1e400", ""])
    return ",".join(fields) + "\n"


def train(mode: str, shards: int, batch_size: int, epochs: int, workdir: pathlib.Path, threshold: float) -> dict:
    validator = training_rules()
    corrupt = shards - 2 if mode == "corrupt" else None
    paths = write_shards(HERE / "transactions.csv", workdir, shards, corrupt)
    optimizer = optax.adam(3e-3)
    step_fn = make_step(optimizer)
    params = init_params(jax.random.PRNGKey(0), 11)
    state = optimizer.init(params)
    gate = QualityGate(validator, threshold=threshold) if mode != "raw" else None
    losses, checkpoints, summary = [], [], {"mode": mode, "aborted": False, "corrupted_shard": corrupt}
    step = 0
    try:
        for epoch in range(epochs):
            for index, path in enumerate(paths):
                if gate is not None:
                    gate.check(str(path), step=step)   # the raw shard's quality, before training on it
                    stream = batches(str(path), validator, batch_size=batch_size, shuffle_buffer=1024,
                                     seed=epoch * 1000 + index,
                                     columns=["amount", "currency", "kind", "created_at", "label"],
                                     dtypes={"created_at": "int64"}, transform=griffin_transform)
                else:
                    stream = naive_batches(path, batch_size)
                for batch in stream:
                    params, state, loss = step_fn(params, state, batch["x"], batch["y"])
                    losses.append(float(loss))
                    step += 1
                    if gate is not None:
                        gate.check(str(path), loss=loss, step=step)   # cached score: a hash per step
                checkpoint = workdir / ("checkpoint-e%d-s%02d.npz" % (epoch, index))
                np.savez(checkpoint, **{k: np.asarray(v) for k, v in params.items()})
                checkpoints.append(checkpoint.name)
    except TrainingAbortError as e:
        summary.update(aborted=True, abort_step=e.step, abort_reasons=e.reasons, abort_score=e.score)
    finite = [l for l in losses if math.isfinite(l)]
    summary.update(steps=len(losses), checkpoints=checkpoints,
                   first_nan_step=next((i for i, l in enumerate(losses) if not math.isfinite(l)), None),
                   final_loss=losses[-1] if losses else None,
                   final_finite_loss=finite[-1] if finite else None,
                   mean_last_10=float(np.mean(losses[-10:])) if losses else None,
                   gate_cache_hits=gate.hits if gate else 0)
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["raw", "griffin", "corrupt"], default="griffin")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--threshold", type=float, default=0.9, help="QualityGate threshold")
    parser.add_argument("--workdir", help="where shards and checkpoints go (default: a temporary folder)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        workdir = pathlib.Path(args.workdir or scratch)
        workdir.mkdir(parents=True, exist_ok=True)
        summary = train(args.mode, args.shards, args.batch_size, args.epochs, workdir, args.threshold)
    if args.json:
        print(json.dumps(summary))
    else:
        print("mode %(mode)s: %(steps)d steps, final loss %(final_loss)s, checkpoints %(checkpoints)s" % summary)
        if summary["first_nan_step"] is not None:
            print("  the loss became NaN at step %d" % summary["first_nan_step"])
        if summary["aborted"]:
            print("  aborted at step %s: %s" % (summary["abort_step"], "; ".join(summary["abort_reasons"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
