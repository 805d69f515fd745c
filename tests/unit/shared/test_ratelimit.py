from __future__ import annotations

import time

import pytest

from shared.serving import forwarded
from shared.serving.ratelimit import (
    RATES,
    Rate,
    client_address,
    peer_address,
    quotas_from_env,
    rates_from_env,
)
from shared.serving.tokens import Keyring

OLD, NEW, OTHER = (bytes([n]) * 32 for n in (1, 2, 3))
KEYS = Keyring.of(NEW, OLD)  # the services' ring during a rotation


def test_rates_read_count_per_seconds_or_off() -> None:
    assert Rate.parse("30/60") == Rate(30, 60.0)
    assert Rate.parse(" 5/0.5 ") == Rate(5, 0.5)
    assert Rate.parse("off") is None and Rate.parse("0") is None
    for bad in ("30", "x/60", "0/60", "3/0", "-1/5", "3/-2"):
        with pytest.raises(ValueError):
            Rate.parse(bad)


def test_every_limit_has_a_default_and_the_environment_overrides_it() -> None:
    rates = rates_from_env({"TABULA_LIMIT_SIGN_IN_IP": "3/1", "TABULA_LIMIT_WATCH_IP": "off"})
    assert set(rates) == set(RATES)
    assert rates["sign_in_ip"] == Rate(3, 1.0) and rates["watch_ip"] is None
    assert rates["command_player"] == Rate.parse(RATES["command_player"])
    assert quotas_from_env({"TABULA_LIMIT_WATCHES_PER_TOKEN": "2"}) == {"watches_per_token": 2}


def test_the_peer_address_is_read_from_grpc_peer_strings() -> None:
    assert peer_address("ipv4:10.1.2.3:5555") == "10.1.2.3"
    assert peer_address("ipv6:[2001:db8::1]:5555") == "2001:db8::1"
    assert peer_address("unix:/tmp/sock") == "unix:/tmp/sock"


def signed(secret: bytes, address: str, now: float | None = None) -> list[tuple[str, str]]:
    return [
        ("authorization", "Bearer x"),
        (forwarded.HEADER, forwarded.sign(Keyring.of(secret).current, address, now)),
    ]


def test_the_address_the_gateway_signed_is_believed_from_any_peer() -> None:
    assert client_address("ipv4:10.4.0.2:1", signed(NEW, "203.0.113.9"), KEYS) == "203.0.113.9"
    assert client_address("ipv6:[::1]:1", signed(NEW, "2001:db8::7"), KEYS) == "2001:db8::7"
    assert client_address("ipv4:10.4.0.2:1", signed(OLD, "203.0.113.9"), KEYS) == "203.0.113.9"  # rotation


def test_a_caller_cannot_choose_its_address_without_the_secret() -> None:
    peer = "ipv4:127.0.0.1:1"
    assert client_address(peer, [], KEYS) == "127.0.0.1"  # nothing forwarded
    assert client_address(peer, [("x-forwarded-for", "203.0.113.9")], KEYS) == "127.0.0.1"
    assert client_address(peer, signed(OTHER, "203.0.113.9"), KEYS) == "127.0.0.1"  # another secret
    assert client_address(peer, signed(NEW, "203.0.113.9"), None) == "127.0.0.1"  # no keys: nothing believed
    stale = time.time() - forwarded.TTL_S - 1
    assert client_address(peer, signed(NEW, "203.0.113.9", now=stale), KEYS) == "127.0.0.1"
    value = forwarded.sign(KEYS.current, "203.0.113.9")
    address, expires, kid, mac = value.split(" ")
    for forged in (
        f"203.0.113.10 {expires} {kid} {mac}",  # another address under the same mac
        f"{address} {int(expires) + 3600} {kid} {mac}",  # a later expiry
        f"{address} {expires} {kid} {'0' * len(mac)}",  # a made-up mac
        f"{address} {expires} {mac}",
        f"{address} soon {kid} {mac}",
        "",
    ):
        assert client_address(peer, [(forwarded.HEADER, forged)], KEYS) == "127.0.0.1", forged
    not_an_ip = forwarded.sign(KEYS.current, "gateway.local")
    assert client_address(peer, [(forwarded.HEADER, not_an_ip)], KEYS) == "127.0.0.1"
