"""The English of the web module's own words (``web/trajan.js`` reads them through ``ctx.t(key, values)``;
the words it shares with the terminal, such as commodities, colours, actions and step questions, are
the other presentation modules' keys)."""

from __future__ import annotations

WORDS: dict[str, str] = {}
