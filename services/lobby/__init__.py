"""The lobby: guest identity, rooms, matchmaking, ratings and match history, for every game.

Layers (Cosmic Python): ``domain`` is pure (rooms, grouping, ratings, validation);
``adapters`` talk to Redis and the game services; ``service_layer`` orchestrates one use case
each; ``entrypoints`` is the thin gRPC servicer; ``server`` is the one bootstrap.
"""
