"""Nim: the smallest game, written on ``BaseRules`` (``rules.py``) with its manifest (``manifest.py``).

Exactly two seats, no hidden information, no options but the heap's size, no bot hooks, no
presentation, no spectator module: everything else is the platform's default. It is registered for
one process by ``TABULA_EXTRA_GAMES=tests.support.nim.manifest:MANIFEST``, the test-time form of the
one line a game adds to ``services/games.py`` (docs/adding-a-game.md).
"""
