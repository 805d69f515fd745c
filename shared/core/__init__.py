"""The pure core: the decider protocol, deterministic randomness, records, wire numbers, the codec,
content loading, reason codes and game manifests. No Redis, gRPC, Celery or clock."""
