"""Use cases: each one loads, calls the pure domain, and saves atomically."""
