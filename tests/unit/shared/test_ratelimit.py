from __future__ import annotations

import ipaddress

import pytest

from shared.serving.ratelimit import (
    RATES,
    Rate,
    client_address,
    peer_address,
    quotas_from_env,
    rates_from_env,
    trusted_from_env,
)

LOOPBACK = trusted_from_env({})


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


def test_only_a_trusted_gateway_chooses_the_client_address() -> None:
    forwarded = [("authorization", "Bearer x"), ("x-forwarded-for", "198.51.100.1, 203.0.113.9")]
    assert client_address("ipv4:127.0.0.1:1", forwarded, LOOPBACK) == "203.0.113.9"  # the last hop
    assert client_address("ipv6:[::1]:1", forwarded, LOOPBACK) == "203.0.113.9"
    assert client_address("ipv4:192.0.2.5:1", forwarded, LOOPBACK) == "192.0.2.5"  # not trusted
    assert client_address("ipv4:127.0.0.1:1", [], LOOPBACK) == "127.0.0.1"  # nothing forwarded
    assert client_address("ipv4:127.0.0.1:1", [("x-forwarded-for", "not-an-ip")], LOOPBACK) == "127.0.0.1"
    gateways = trusted_from_env({"TABULA_TRUSTED_GATEWAYS": "10.0.0.0/8"})
    assert gateways == (ipaddress.ip_network("10.0.0.0/8"),)
    assert client_address("ipv4:10.4.0.2:1", forwarded, gateways) == "203.0.113.9"
    assert client_address("ipv4:127.0.0.1:1", forwarded, gateways) == "127.0.0.1"
