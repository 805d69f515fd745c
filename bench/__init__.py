"""``make bench``: the benchmark suites (store, games, bots, memory, load, watch) and their report.
Tooling, not product: no service imports it."""
