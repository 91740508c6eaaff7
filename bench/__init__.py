"""Benchmarks, evaluations, generated corpora and load tests: the top floor, which imports every app and which no
product module imports. Installed only in development and test (or with ``ORGMEMORY_BENCH=1``); see
docs/BENCHMARKS.md for the current figures and the commands that reproduce them."""
