"""Address settings: one target as given, a list of instances as one ``ipv4:``/``ipv6:`` target, and a
channel over a list spreading its calls over every instance (round_robin) and skipping a dead one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest

from shared.serving.addresses import ROUND_ROBIN, channel_target, service_address


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1:50060", "lorenzo:50060", "dns:///lorenzo.default.svc:50060", "ipv4:10.0.0.1:1,10.0.0.2:1"],
)
def test_one_target_is_used_as_given(address: str) -> None:
    assert channel_target(address) == address


def test_a_list_of_ip_addresses_becomes_one_target() -> None:
    assert channel_target("127.0.0.1:50060, 127.0.0.1:50061,") == "ipv4:127.0.0.1:50060,127.0.0.1:50061"
    assert channel_target("[::1]:1,[fe80::2]:2") == "ipv6:[::1]:1,[fe80::2]:2"
    assert channel_target(" 127.0.0.1:5 ,") == "127.0.0.1:5"


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("lorenzo-0:50060,lorenzo-1:50060", "not IP:PORT"),
        ("127.0.0.1:50060,127.0.0.1", "not IP:PORT"),
        ("127.0.0.1:50060,127.0.0.1:0", "not IP:PORT"),
        ("127.0.0.1:50060,127.0.0.1:65536", "not IP:PORT"),
        ("127.0.0.1:1,::1:2", "not IP:PORT"),  # an IPv6 address without brackets
        ("127.0.0.1:1,[127.0.0.1]:2", "not IP:PORT"),
        ("127.0.0.1:1,[::1]:2", "mixes IPv4 and IPv6"),
    ],
)
def test_a_list_takes_ip_addresses_of_one_family(address: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        channel_target(address)


class _Instance:
    """A gRPC server with one raw method that answers with its own port."""

    def __init__(self, calls: Counter[int]) -> None:
        self.server = grpc.server(ThreadPoolExecutor(2))
        self.port = self.server.add_insecure_port("127.0.0.1:0")

        def ping(request: bytes, context: grpc.ServicerContext) -> bytes:
            calls[self.port] += 1
            return b""

        handler = grpc.unary_unary_rpc_method_handler(ping)
        self.server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("t.T", {"Ping": handler})])
        self.server.start()


@pytest.fixture
def instances() -> Iterator[tuple[list[_Instance], Counter[int]]]:
    calls: Counter[int] = Counter()
    running = [_Instance(calls) for _ in range(3)]
    yield running, calls
    for instance in running:
        instance.server.stop(0)


def test_a_channel_over_a_list_spreads_calls_over_every_instance_and_skips_a_dead_one(
    instances: tuple[list[_Instance], Counter[int]],
) -> None:
    running, calls = instances
    address = ",".join(f"127.0.0.1:{i.port}" for i in running)
    with grpc.insecure_channel(channel_target(address), [ROUND_ROBIN]) as channel:
        ping = channel.unary_unary("/t.T/Ping")
        for _ in range(30):
            ping(b"", timeout=10, wait_for_ready=True)
        # round_robin: every instance gets about a third (pick_first would send all 30 to one)
        assert len(calls) == 3 and min(calls.values()) >= 5, calls
        running[0].server.stop(0)
        calls.clear()
        answered = 0
        for _ in range(30):
            try:
                ping(b"", timeout=10, wait_for_ready=True)
                answered += 1
            except grpc.RpcError as err:  # a call already on its way to the stopped instance
                assert err.code() == grpc.StatusCode.UNAVAILABLE
        assert answered >= 28 and set(calls) == {running[1].port, running[2].port}


def test_a_service_address_is_its_setting_else_the_deployments_convention_else_loopback() -> None:
    assert service_address("nim", 50091, {}) == "127.0.0.1:50091"
    convention = {"TABULA_ADDRESS_PATTERN": "dns:///{name}:{port}"}
    assert service_address("nim", 50091, convention) == "dns:///nim:50091"  # the k8s Service named nim
    assert service_address("nim", 50091, {**convention, "TABULA_NIM_ADDR": "10.0.0.5:1"}) == "10.0.0.5:1"
