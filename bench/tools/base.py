"""The contract of a tool module (bench/tools/<module>.py), run by bench/child.py.

Every function but setup() receives the context setup() returned.

  VERSIONS          -> list of distribution names whose versions the report shows
  NOT_EXPRESSIBLE   -> {check: reason} for suite checks the tool cannot express
  setup()           -> context (sessions, compiled schemas; untimed)
  from_csv(ctx, p)  -> counts: read the CSV at p and count (timed: the CSV scenario)
  load(ctx, p)      -> the tool's in-memory frame of the Parquet file p (untimed)
  from_frame(ctx, f)-> counts of frame f (timed: the memory and latency scenarios)
  rss_extra_kib(ctx)-> peak RSS of helper processes (Spark's JVM), else 0
  cpu_extra_s(ctx)  -> CPU seconds of helper processes so far, else 0.0
  teardown(ctx)

Counts follow bench/suite.py: evaluated_rows, each suite.CHECKS count, each
suite.TABLE_CHECKS observed value.
"""


def rss_extra_kib(ctx):
    return 0


def cpu_extra_s(ctx):
    return 0.0


def teardown(ctx):
    pass
