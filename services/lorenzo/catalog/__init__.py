"""Lorenzo's components for front-ends: typed records with English texts (the ``GetContent`` RPC).

The manifest's ``content`` hook points here: :func:`message_type` is the root type rendered into
``lorenzo.proto``, :func:`build` its one instance, made once per process from the validated content
(by ``records.py``: a submodule named ``build`` would replace this function on the package once
imported).
"""

from __future__ import annotations

import functools

from services.lorenzo.catalog.messages import LorenzoContent


def message_type() -> type:
    return LorenzoContent


@functools.cache
def build() -> LorenzoContent:
    from services.lorenzo.catalog.records import content_message
    from services.lorenzo.content import load_content

    return content_message(load_content())
