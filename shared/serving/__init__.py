"""Serving: the gRPC server bootstrap, errors, request bounds, tokens, rate limits, watch fan-out and
the rule service every game runs."""
