"""griffin.jax.batches (issue 4): only clean rows, in order or shuffled by a
seed, every clean row once; quarantined rows counted and written out as the
CLI writes them; batches handed to jax without a copy (buffer addresses);
frames as sources; clear errors for columns the rules cannot guarantee."""
import subprocess
import textwrap
import time

import jax
import jax.numpy as jnp
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv
import pytest

import griffin
from griffin.jax import batches
from griffin.jax._batches import _to_jax

from griffin_cli import require_binary
from gil_probe import ticks_during

RULES = textwrap.dedent("""\
    griffin: 1
    dataset: feats
    columns:
      id: {type: int64, not_null: true, min: 0}
      x: {type: float64, not_null: true, finite: true, max: 90}
      code: {type: string, not_null: true, in: [USD, EUR, GBP]}
      flag: {type: bool, not_null: true}
      note: {type: string, not_null: true}
    rows:
      - name: eur_small
        expr: "code != 'EUR' or x < 80"
    """)


def make_table(rows, seed=3):
    rng = np.random.default_rng(seed)
    ids = np.arange(rows, dtype=np.int64)
    ids[rng.integers(0, rows, rows // 50)] = -1
    x = np.round(rng.uniform(0, 100, rows), 3)
    x[rng.integers(0, rows, rows // 100)] = np.nan
    codes = np.array(["USD", "EUR", "GBP", "XXX"])[rng.choice(4, rows, p=[0.45, 0.35, 0.19, 0.01])]
    return pa.table({"id": ids, "x": x, "code": codes, "flag": rng.random(rows) < 0.3,
                     "note": np.array(["a", "b"])[rng.integers(0, 2, rows)]})


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    folder = tmp_path_factory.mktemp("feats")
    rules = folder / "feats.rules.yaml"
    rules.write_text(RULES)
    table = make_table(20_000)
    csv = folder / "feats.csv"
    pyarrow.csv.write_csv(table, csv)
    validator = griffin.Validator.from_yaml(rules)
    report = validator.validate(table)
    clean, _ = report.split(table)
    return {"folder": folder, "rules": rules, "table": table, "csv": csv, "validator": validator,
            "report": report, "clean": clean}


def collect(stream):
    out = {}
    for batch in stream:
        for name, value in batch.items():
            out.setdefault(name, []).append(np.asarray(value))
    return {name: np.concatenate(parts) for name, parts in out.items()}


def test_in_order_batches_hold_exactly_the_clean_rows(setup):
    stream = batches(setup["table"], setup["validator"], batch_size=100, columns=["id", "x", "code", "flag"],
                     drop_remainder=False)
    got = collect(stream)
    clean = setup["clean"]
    assert got["id"].tolist() == clean["id"].to_pylist()
    assert np.allclose(got["x"], np.asarray(clean["x"], dtype=np.float32))
    codes = {"USD": 0, "EUR": 1, "GBP": 2}
    assert got["code"].tolist() == [codes[c] for c in clean["code"].to_pylist()]
    assert got["flag"].tolist() == clean["flag"].to_pylist()
    assert got["x"].dtype == np.float32 and got["id"].dtype == np.int32 and got["code"].dtype == np.int32
    assert stream.quarantined_rows == setup["report"].bad_rows > 0
    assert stream.clean_rows == clean.num_rows and stream.dropped_rows == 0
    assert stream.report.bad_rows == setup["report"].bad_rows
    assert stream.columns[2] == ("code", "int32", ["USD", "EUR", "GBP"])


def test_drop_remainder_and_fixed_batch_shapes(setup):
    stream = batches(setup["csv"], setup["validator"], batch_size=128, columns=["id"])
    shapes = {tuple(batch["id"].shape) for batch in stream}
    assert shapes == {(128,)}
    assert stream.dropped_rows == setup["clean"].num_rows % 128
    assert stream.clean_rows == setup["clean"].num_rows


def test_shuffle_is_a_seeded_permutation(setup):
    def ids(seed):
        return collect(batches(setup["csv"], setup["validator"], batch_size=64, columns=["id"],
                               shuffle_buffer=1000, seed=seed, drop_remainder=False))["id"].tolist()

    first, again, other = ids(5), ids(5), ids(6)
    in_order = setup["clean"]["id"].to_pylist()
    assert first == again and first != other and first != in_order
    assert sorted(first) == sorted(in_order)


def test_csv_source_and_the_quarantine_equal_the_cli(setup, tmp_path):
    mine = tmp_path / "mine.csv"
    stream = batches(setup["csv"], setup["validator"], batch_size=256, columns=["id", "x"], quarantine=mine)
    for _ in stream:
        pass
    cli = tmp_path / "cli.csv"
    done = subprocess.run([str(require_binary()), "validate", "-r", str(setup["rules"]), str(setup["csv"]),
                           "--quarantine", str(cli), "--no-store"], capture_output=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert mine.read_bytes() == cli.read_bytes()
    assert stream.quarantine["rows"] == stream.quarantined_rows == setup["report"].bad_rows


def test_batches_reach_jax_without_a_copy(setup):
    stream = batches(setup["table"], setup["validator"], batch_size=512, columns=["id", "x", "flag"])
    arrays = stream.next_numpy()
    for name, array in arrays.items():
        assert not array.flags.owndata                     # a view over the C++ batch buffer
        assert array.ctypes.data % 64 == 0, name
        on_device = _to_jax(array, None)
        assert on_device.unsafe_buffer_pointer() == array.ctypes.data, name
    stream.close()


def test_batches_have_one_placement_with_or_without_a_transform(setup):
    import jax

    def shift(arrays):
        return {"x": arrays["x"] + 1, "id": arrays["id"][::-1].copy()}   # new numpy arrays, any alignment

    def placements(**kwargs):
        stream = batches(setup["table"], setup["validator"], batch_size=64, columns=["id", "x"], **kwargs)
        return {(name, array.committed, str(array.device)) for batch in stream for name, array in batch.items()}

    device = jax.devices()[0]
    expected_free = {("id", False, str(device)), ("x", False, str(device))}
    assert placements() == expected_free
    assert placements(transform=shift) == expected_free
    expected_committed = {("id", True, str(device)), ("x", True, str(device))}
    assert placements(device=device) == expected_committed
    assert placements(device=device, transform=shift) == expected_committed


def test_a_jitted_step_over_batches_compiles_once(setup):
    import jax

    @jax.jit
    def step(total, x):
        return total + x.sum()

    for transform in (None, lambda arrays: {"x": arrays["x"] * 2}):
        jax.clear_caches()
        total = jax.numpy.zeros(())   # uncommitted, as a model's parameters usually are
        with CompileCounter("jit(step)") as compiles:
            for batch in batches(setup["table"], setup["validator"], batch_size=64, columns=["x"],
                                 transform=transform):
                total = step(total, batch["x"])
        assert compiles.count == 1, (transform, compiles.count)


class CompileCounter:
    """Counts jax's "Finished XLA compilation of <name>" log records (jax.log_compiles)."""

    def __init__(self, name):
        import logging

        self.name, self.count = name, 0
        self._logger = logging.getLogger("jax")
        outer = self

        class Handler(logging.Handler):
            def emit(self, record):
                if "Finished XLA compilation of " + outer.name in record.getMessage():
                    outer.count += 1

        self._handler = Handler()

    def __enter__(self):
        import jax

        self._context = jax.log_compiles()
        self._context.__enter__()
        self._logger.addHandler(self._handler)
        return self

    def __exit__(self, *exc):
        self._logger.removeHandler(self._handler)
        self._context.__exit__(*exc)


def test_64_bit_columns_with_x64_are_not_copied_either(setup):
    script = textwrap.dedent(f"""\
        import jax; jax.config.update("jax_enable_x64", True)
        import griffin
        from griffin.jax import batches
        from griffin.jax._batches import _to_jax
        v = griffin.Validator.from_yaml({str(setup['rules'])!r})
        stream = batches({str(setup['csv'])!r}, v, batch_size=256, columns=["id", "x"])
        arrays = stream.next_numpy()
        for name, a in arrays.items():
            j = _to_jax(a, None)
            assert j.dtype == a.dtype and str(a.dtype) in ("int64", "float64"), (name, a.dtype)
            assert j.unsafe_buffer_pointer() == a.ctypes.data, name
        print("ok")
        """)
    import sys
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_frames_pandas_and_numpy_dicts(setup):
    frame = setup["table"].to_pandas()
    from_pandas = collect(batches(frame, setup["validator"], batch_size=100, columns=["id"], drop_remainder=False))
    assert from_pandas["id"].tolist() == setup["clean"]["id"].to_pylist()
    # Every required column is there: a missing one is a schema error, which makes every row bad.
    arrays = {"id": np.arange(10, dtype=np.int64), "x": np.linspace(0, 9, 10), "code": np.array(["USD"] * 10),
              "flag": np.zeros(10, dtype=bool), "note": np.array(["a"] * 10)}
    got = collect(batches(arrays, setup["validator"], batch_size=5, columns=["id", "x"]))
    assert got["id"].tolist() == list(range(10))


def test_transform_runs_before_the_hand_over(setup):
    stream = batches(setup["table"], setup["validator"], batch_size=32, columns=["x", "code"],
                     transform=lambda b: {"features": np.stack([b["x"], b["code"].astype(np.float32)], axis=1)})
    batch = next(stream)
    assert list(batch) == ["features"] and batch["features"].shape == (32, 2)
    assert isinstance(batch["features"], jax.Array)
    stream.close()


def test_reading_runs_ahead_and_close_stops_it(setup):
    stream = batches(setup["csv"], setup["validator"], batch_size=64, columns=["id"], prefetch=3)
    deadline = time.monotonic() + 10
    while stream.clean_rows == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stream.clean_rows > 0          # validated before anyone asked for a batch
    first = next(stream)
    assert first["id"].shape == (64,)
    stream.close()
    with pytest.raises(griffin.GriffinError, match="cancelled"):
        next(stream)


def test_columns_the_rules_cannot_guarantee_are_refused(setup):
    with pytest.raises(griffin.RuleError, match="column 'note' cannot feed batches: .*`in:` list"):
        batches(setup["table"], setup["validator"], columns=["note"])
    with pytest.raises(griffin.RuleError, match="'nope' is not declared"):
        batches(setup["table"], setup["validator"], columns=["nope"])
    with pytest.raises(ValueError, match="jax_enable_x64"):
        batches(setup["table"], setup["validator"], columns=["x"], dtypes={"x": "float64"})
    with pytest.raises(ValueError, match="batch_size"):
        batches(setup["table"], setup["validator"], batch_size=0)


def test_unreadable_input_raises_on_iteration(setup, tmp_path):
    stream = batches(tmp_path / "missing.csv", setup["validator"], columns=["id"])
    with pytest.raises(griffin.InputError, match="missing.csv"):
        next(stream)


def test_int32_overflow_is_an_error_not_a_wrap(setup):
    table = setup["table"].set_column(0, "id", pa.array(np.arange(20_000, dtype=np.int64) + 2**40))
    stream = batches(table, setup["validator"], columns=["id"])
    with pytest.raises(griffin.InputError, match="column 'id'.*does not fit int32"):
        next(stream)


def test_next_waits_without_the_gil(setup):
    # next() must wait for the first batch with the GIL released, so the spinning thread
    # runs meanwhile. The reading starts when the stream is made and may finish before
    # next() is called (a CI run saw 0 ticks: no wait at all), so a call that did not wait
    # is tried again on a larger input, whose first batch needs every row.
    for copies in (10, 40, 160):
        big = pa.concat_tables([setup["table"]] * copies)
        stream = batches(big, setup["validator"], batch_size=big.num_rows * 3 // 4, columns=["id"], threads=1)
        ticks, elapsed = ticks_during(lambda: next(stream), warmup_s=0)
        stream.close()
        if elapsed >= 0.01:
            break
    assert elapsed >= 0.01, f"next() never waited: {elapsed:.4f} s on {big.num_rows} rows"
    assert ticks > 10_000
