"""The gRPC servicer and the proto <-> domain translation."""
