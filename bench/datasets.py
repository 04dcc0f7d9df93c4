"""The benchmarks' data: examples/generate_transactions.py output, generated once
per size and seed into bench/data/ (git-ignored), in a child process (see
bench/measure.py), under a temporary name renamed when complete."""
import pathlib
import subprocess
import sys
import time

BENCH_DIR = pathlib.Path(__file__).resolve().parent
DATA_DIR = BENCH_DIR / "data"
GENERATOR = BENCH_DIR.parent / "examples" / "generate_transactions.py"
SEED = 20240601


def generate(rows, path, seed=SEED, python=sys.executable):
    """Writes `rows` rows to `path` (.csv or .parquet: the same rows and faults;
    the CSV also holds the generator's malformed records) unless it exists."""
    path = pathlib.Path(path)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + ".partial" + path.suffix)
    started = time.perf_counter()
    subprocess.run([str(python), str(GENERATOR), "--rows", str(rows), "--seed", str(seed), "--out", str(partial)],
                   check=True, stdout=subprocess.DEVNULL)
    partial.rename(path)
    print(f"generated {path.name}: {rows:,} rows, {path.stat().st_size / 1e6:,.1f} MB in "
          f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
    return path


def transactions(rows, suffix, seed=SEED):
    """The cached bench/data/transactions_<rows>r_seed<seed>.<suffix> (generated if absent)."""
    return generate(rows, DATA_DIR / f"transactions_{rows}r_seed{seed}.{suffix}", seed)
