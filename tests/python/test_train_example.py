"""examples/train_jax.py, short (issue 4): without Griffin the bad rows make
the loss NaN; with griffin.jax.batches it trains to a sensible loss; with a
corrupted shard the QualityGate aborts before that shard's checkpoint. Each
mode compiles its jitted step once (JAX_LOG_COMPILES: jax logs every compile)."""
import json
import math
import os
import subprocess
import sys

import pytest

from griffin_cli import REPO_ROOT

SCRIPT = REPO_ROOT / "examples" / "train_jax.py"
LABEL_ENTROPY = 0.098   # fraud ~2%, independent of the features: the best achievable mean loss


def run(mode, tmp_path, *extra):
    done = subprocess.run([sys.executable, str(SCRIPT), "--mode", mode, "--json", "--workdir", str(tmp_path),
                           "--epochs", "1", "--shards", "4", *extra],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "JAX_LOG_COMPILES": "1"})
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    # batches() gave arrays of one placement (committed or not) every step.
    summary["step_compiles"] = done.stderr.count("Finished XLA compilation of jit(step)")
    files = sorted(p.name for p in tmp_path.glob("checkpoint-*.npz"))
    assert files == sorted(summary["checkpoints"])     # what it says it wrote is what is on disk
    return summary


def test_without_griffin_the_loss_goes_nan(tmp_path):
    summary = run("raw", tmp_path)
    assert summary["first_nan_step"] is not None
    assert math.isnan(summary["final_loss"])
    assert not summary["aborted"]
    assert summary["step_compiles"] == 1


def test_with_griffin_batches_it_trains_to_a_sensible_loss(tmp_path):
    summary = run("griffin", tmp_path)
    assert summary["first_nan_step"] is None and not summary["aborted"]
    assert summary["steps"] >= 70
    assert math.isfinite(summary["final_loss"])
    # From ln 2 = 0.69 at the start to near the label entropy.
    assert summary["mean_last_10"] < 2 * LABEL_ENTROPY
    assert summary["gate_cache_hits"] >= summary["steps"]          # per-step checks were cache hits
    assert len(summary["checkpoints"]) == 4
    assert summary["step_compiles"] == 1          # was 6: committed and uncommitted batches alternated


def test_a_corrupted_shard_stops_training_before_its_checkpoint(tmp_path):
    summary = run("corrupt", tmp_path)
    bad = summary["corrupted_shard"]
    assert summary["aborted"]
    assert summary["abort_score"] < 0.9
    assert any("amount." in reason for reason in summary["abort_reasons"])
    assert summary["checkpoints"] == ["checkpoint-e0-s%02d.npz" % i for i in range(bad)]
    assert summary["first_nan_step"] is None
    assert summary["step_compiles"] == 1
