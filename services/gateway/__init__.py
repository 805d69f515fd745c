"""Browser gateway: HTTP/JSON and WebSocket in front of every gRPC service, plus the spectator page.

The routes are not written per RPC: they come from the protobuf descriptors of the generated
modules (``registry``), requests and responses use the protobuf JSON mapping (``transcode``), and
one aiohttp application (``app``) serves them; ``server`` is the bootstrap.
"""
