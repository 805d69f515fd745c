"""Pure lobby logic: no Redis, no gRPC, no clock."""
