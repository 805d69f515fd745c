"""Trajan's components for front-ends: typed records with English texts (the ``GetContent`` RPC).

The manifest's ``content`` hook points here: :func:`message_type` is the root type rendered into
``trajan.proto``, :func:`build` its one instance, made once per process from the validated content
(by ``records.py``: a submodule named ``build`` would replace this function on the package once
imported).
"""

from __future__ import annotations

import functools

from services.trajan.catalog.messages import TrajanContent


def message_type() -> type:
    return TrajanContent


@functools.cache
def build() -> TrajanContent:
    from services.trajan.catalog.records import content_message
    from services.trajan.content import load_content

    return content_message(load_content())
