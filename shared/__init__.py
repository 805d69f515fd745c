"""Tabula's common library: decider protocol and runner, event store, gRPC helpers."""
