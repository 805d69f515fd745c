"""Where a gRPC client finds a service's instances: one target, or a list of them on one channel.

An address setting (``TABULA_<SERVICE>_ADDR``) holds either one gRPC target, used as it is (``host:port``,
or ``dns:///rules:50060`` for a headless Kubernetes Service: gRPC connects to every address the
name resolves to), or a comma-separated list of IP ``host:port`` (``127.0.0.1:50060,127.0.0.1:50061``,
``[::1]:1,[::1]:2``), which becomes one ``ipv4:`` or ``ipv6:`` target: one channel holding a
connection to each instance. The clients open their channels with ``ROUND_ROBIN``, so calls are
spread over every instance and a dead one is skipped, where one connection (the default
``pick_first``, or a plain Service) would send every call to a single instance.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping

ROUND_ROBIN = ("grpc.lb_policy_name", "round_robin")
# A deployment's convention for every service's address, ``{name}`` and ``{port}`` filled in:
# ``{name}:{port}`` (compose service names), ``dns:///{name}:{port}`` (Kubernetes Services).
ADDRESS_PATTERN = "TABULA_ADDRESS_PATTERN"
SCHEMES = ("dns:", "ipv4:", "ipv6:", "unix:", "unix-abstract:", "vsock:", "xds:")  # gRPC's own targets


def service_address(name: str, port: int | str, env: Mapping[str, str]) -> str:
    """Where a client reaches the service ``name`` (the lobby, a game) listening on ``port``:
    ``TABULA_<NAME>_ADDR`` when set, else ``TABULA_ADDRESS_PATTERN`` filled in with the name and port,
    else ``127.0.0.1:<port>``. So a deployment that names every service after itself lists none."""
    explicit = env.get(f"TABULA_{name.upper()}_ADDR")
    if explicit:
        return explicit
    return env.get(ADDRESS_PATTERN, "127.0.0.1:{port}").format(name=name, port=port)


def channel_target(address: str) -> str:
    """The gRPC target for an address setting (see the module): a list becomes an ``ipv4:`` or
    ``ipv6:`` target; a single address, or a target with gRPC's own scheme, is returned as given.
    ValueError for a list that names a host (gRPC's list targets take IP addresses only: give one DNS
    name that resolves to every instance) or mixes IPv4 and IPv6."""
    if address.startswith(SCHEMES):
        return address
    parts = [part.strip() for part in address.split(",") if part.strip()]
    if len(parts) <= 1:
        return parts[0] if parts else address
    versions = {_ip_version(part) for part in parts}
    if len(versions) > 1:
        raise ValueError(f"address list {address!r} mixes IPv4 and IPv6")
    return f"ipv{versions.pop()}:" + ",".join(parts)


def _ip_version(part: str) -> int:
    """4 or 6 for ``ip:port`` / ``[ip6]:port``; ValueError for anything else."""
    host, sep, port = part.rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]")
    try:
        ip = ipaddress.ip_address(host[1:-1] if bracketed else host)
        valid = bool(sep) and port.isdigit() and 0 < int(port) < 65536 and bracketed == (ip.version == 6)
    except ValueError:
        valid = False
    if not valid:
        raise ValueError(
            f"{part!r} in an address list is not IP:PORT (or [IPv6]:PORT); a list takes IP addresses, "
            "a name goes alone (dns:///NAME:PORT reaches every address it resolves to)"
        )
    return ip.version
