"""Browser gateway: Connect and gRPC-Web in front of every gRPC service, plus the spectator page.

The routes are not written per RPC: they come from the protobuf descriptors of the generated
modules (``registry``); ``rpc`` builds connectrpc's endpoint table from them (the library speaks the
Connect and gRPC-Web wire formats) with one forwarding function per method kind, ``http`` the headers
and refusals every response gets, ``app`` the ASGI application (Starlette) and ``server`` the
bootstrap (hypercorn: HTTP/1.1 and cleartext HTTP/2 on one port).
"""
