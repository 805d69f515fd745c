"""Dice race: a tiny game, packaged exactly as a real game is (the platform's second game in tests).

``rules.py`` (pure rules), ``bots.py`` (bot hooks) and ``manifest.py`` (``MANIFEST``, what the
registry lists). It has no content files, no terminal presentation (the client's generic one shows
it) and no spectator module (the page draws its view as a tree). It is registered for one process
by ``TABULA_EXTRA_GAMES=tests.support.race.manifest:MANIFEST``, the test-time form of the one line
a game adds to ``services/games.py`` (docs/adding-a-game.md): the example of a game with secrets.
"""
