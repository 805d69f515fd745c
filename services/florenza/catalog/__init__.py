"""Florenza's components for front-ends: typed records with English texts (the ``GetContent`` RPC).

The manifest's ``content`` hook points here: :func:`message_type` is the root type rendered into
``florenza.proto``, :func:`build` its one instance, made once per process from the validated content
and the content files' provenance (by ``records.py``: a submodule named ``build`` would replace this
function on the package once imported).
"""

from __future__ import annotations

import functools

from services.florenza.catalog.messages import FlorenzaContent


def message_type() -> type:
    return FlorenzaContent


@functools.cache
def build() -> FlorenzaContent:
    from services.florenza.catalog.records import content_message
    from services.florenza.content import load_content, provenance

    return content_message(load_content(), provenance())
