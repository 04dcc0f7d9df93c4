# Entry points that are not the build (CMake does that: ./scripts/setup.sh).
#   make bench        Griffin vs its peers at 1M and 10M rows; writes docs/benchmarks.md
#                     and docs/benchmarks.png (long: about an hour on 2 cores)
#   make bench-1m     the same at 1M rows only
#   make bench-quick  the CI check: 20k rows, counts only
#   make hostile      the hostile-input attacks in full (tests/hostile: slowloris with 200
#                     connections, a burst of 2,000 requests); scripts/test.sh runs a short form
#   make stream-soak  griffin stream at 5,000 messages/s for 10 minutes: RSS stays flat (a broker
#                     is started unless GRIFFIN_TEST_KAFKA names one); scripts/test.sh runs 30 s
#   make stream-soak-quick  the same for 30 s (what scripts/test.sh runs)
#   make stream-bench     griffin stream vs the Python (pydantic) peer, 200,000 1 KB messages,
#                         three runs each, alternating; medians (bench/README.md)
#   make stream-latency   griffin stream's produce -> visible p50/p99 at 5,000 messages/s for 30 s
#   make profile-bench    griffin profile vs whylogs at 1M and 10M rows, statistics compared first
#   make stream-kill-full  griffin stream killed 20 times in a 200,000-message run (CI: the short form
#                     of tests/python/test_stream_failures.py)
#   make wheel-test   pip wheel . (pip's isolated build: recompiles the package, ~4 min), installed into a
#                     clean venv (CLI and Python run the example), and packed with venv-pack for a Spark
#                     local-cluster's executors (scripts/test.sh runs the same tests on a wheel built
#                     with --no-build-isolation from the set-up's build tree)
#   make fuzz         each libFuzzer target for 300 s (FUZZ_SECONDS=N to change; scripts/test.sh: 15 s)
#   make bench-rss    griffin validate's peak RSS and wall time at 1M, 10M and 100M rows under the default
#                     --memory-limit and under 64MB (and 1M/10M with no limit); the 100M CSV (~10.4 GB) is generated, then
#                     deleted (bench/run_rss_bench.py; scripts/test.sh runs --quick: 100k/1M)
#   make bench-heavy  issue 16's heavier suite (bench/heavy.rules.yaml, 30 checks) vs the 13-check one, MB/s
#                     at 1M and 10M rows (bench/run_heavy_bench.py; scripts/test.sh runs --quick)
#   make spark-bench      griffin.spark (native, sql) vs PyDeequ and Great Expectations on Spark,
#                         1M rows, local-cluster with 2 executors then 1, counts compared first
.PHONY: stream-kill-full wheel-test fuzz bench bench-rss bench-heavy bench-1m bench-quick hostile stream-soak stream-soak-quick stream-bench stream-latency profile-bench spark-bench spark-bench-quick

stream-kill-full:
	GRIFFIN_BIN=$(CURDIR)/build/griffin GRIFFIN_STREAM_FULL=1 .venv/bin/python -m pytest -q tests/python/test_stream_failures.py

wheel-test:
	GRIFFIN_BIN=$(CURDIR)/build/griffin GRIFFIN_WHEEL_TEST=1 .venv/bin/python -m pytest -q tests/python/test_wheel.py \
	  tests/python/test_spark_shipping.py

FUZZ_SECONDS ?= 300
fuzz:
	scripts/run_fuzzers.sh $(FUZZ_SECONDS)

profile-bench:
	.venv/bin/python bench/run_profile_bench.py

spark-bench:
	.venv/bin/python bench/run_spark_bench.py --rows 1000000

spark-bench-quick:
	.venv/bin/python bench/run_spark_bench.py --quick

bench:
	.venv/bin/python bench/run_peers.py

bench-rss:
	.venv/bin/python bench/run_rss_bench.py --limit 64MB

bench-heavy:
	.venv/bin/python bench/run_heavy_bench.py

bench-1m:
	.venv/bin/python bench/run_peers.py --rows 1000000

bench-quick:
	.venv/bin/python bench/run_peers.py --quick --require-all

hostile:
	GRIFFIN_BIN=$(CURDIR)/build/griffin .venv/bin/python -m pytest -q tests/hostile

stream-soak:
	.venv/bin/python bench/run_stream_bench.py --soak 600

stream-soak-quick:
	.venv/bin/python bench/run_stream_bench.py --soak 30

stream-bench:
	.venv/bin/python bench/run_stream_bench.py --repeat 3

stream-latency:
	.venv/bin/python bench/run_stream_bench.py --latency 30
