"""Browser gateway: Connect and gRPC-Web in front of every gRPC service, plus the spectator page.

The routes are not written per RPC: they come from the protobuf descriptors of the generated
modules (``registry``); ``wire`` is the Connect / gRPC-Web wire format, ``rpc`` the one handler
that forwards any method to its backend, ``http`` the headers and errors every response gets,
``app`` the ASGI application (Starlette) and ``server`` the bootstrap (hypercorn: HTTP/1.1 and
cleartext HTTP/2 on one port).
"""
