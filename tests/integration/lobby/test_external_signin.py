"""Sign-in with an OpenID Connect provider, end to end: a real provider process (oidc-provider on a
free loopback port, ``tests/support/oidc_provider.py``), its login and consent pages driven over
plain HTTP, and the lobby over real gRPC and Redis. Every refusal changes nothing (Redis dumped
before and after)."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import grpc
import jwt
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb

from services.lobby.adapters import keys
from services.lobby.adapters.oidc import OidcClient, ProviderConfig, code_challenge
from services.lobby.domain.sessions import digest
from shared.serving.errors import Conflict
from tests.integration.hardening.conftest import dump
from tests.integration.lobby.conftest import LobbyFactory, auth, fails
from tests.integration.lobby.conftest import sign_in as guest_sign_in
from tests.integration.lobby.test_limits import stub_of
from tests.support.oidc_provider import Client, User, missing, provider

pytestmark = pytest.mark.skipif(bool(missing()), reason=missing() or "the provider runs")

F = grpc.StatusCode.FAILED_PRECONDITION
CALLBACK = "http://127.0.0.1:9/play/auth/callback"  # never opened: the test reads the redirect
SECRET = "a client secret for the tests"


@pytest.fixture(scope="module")
def issuer() -> Iterator[str]:
    with provider(Client("tabula", [CALLBACK], SECRET), Client("tabula-public", [CALLBACK])) as url:
        yield url


def env_of(issuer: str) -> dict[str, str]:
    return {
        "TABULA_LIMIT_SIGN_IN_IP": "off",
        "TABULA_OIDC_PROVIDERS": "test,public",
        "TABULA_OIDC_TEST_ISSUER": issuer,
        "TABULA_OIDC_TEST_CLIENT_ID": "tabula",
        "TABULA_OIDC_TEST_CLIENT_SECRET": SECRET,
        "TABULA_OIDC_TEST_LABEL": "Test ID",
        "TABULA_OIDC_PUBLIC_ISSUER": issuer,
        "TABULA_OIDC_PUBLIC_CLIENT_ID": "tabula-public",
    }


@pytest.fixture
def stub(make_lobby: LobbyFactory, issuer: str) -> Any:
    return stub_of(make_lobby(background=False, env=env_of(issuer)))


def start(stub: Any, provider: str = "test", token: str = "") -> Any:
    request = pb.StartExternalSignInRequest(provider=provider, redirect_uri=CALLBACK)
    return stub.StartExternalSignIn(request, metadata=auth(token) if token else None, timeout=10)


def at_provider(stub: Any, login: str, provider: str = "test", token: str = "") -> tuple[str, str]:
    """Start a sign-in and sign in as ``login`` at the provider: the state and code sent back."""
    started = start(stub, provider, token)
    back = User(login).authorize(started.authorization_url, CALLBACK)
    assert back["state"] == started.state, back
    return back["state"], back["code"]


def complete(stub: Any, state: str, code: str) -> Any:
    request = pb.CompleteExternalSignInRequest(state=state, code=code)
    return stub.CompleteExternalSignIn(request, timeout=10)


def account_of(stub: Any, session: Any) -> Any:
    return stub.GetAccount(pb.GetAccountRequest(), metadata=auth(session.access_token), timeout=5)


def unchanged(client: redis.Redis, call: Any, code: grpc.StatusCode, reason: str) -> None:
    before = dump(client)
    fails(call, code, reason)
    assert dump(client) == before


def test_the_first_sign_in_makes_the_account_and_the_next_signs_in_to_it(
    stub: Any, redis_client: redis.Redis
) -> None:
    listed = stub.ListSignInProviders(pb.ListSignInProvidersRequest(), timeout=5).providers
    assert [(p.name, p.label) for p in listed] == [("public", "public"), ("test", "Test ID")]
    started = start(stub)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(started.authorization_url).query))
    assert query["state"] == started.state and query["client_id"] == "tabula"
    assert query["code_challenge_method"] == "S256" and len(query["code_challenge"]) == 43
    (stored,) = [v for k, v in dump(redis_client).items() if k.startswith(b"{lobby}:external-state:")]
    assert code_challenge(json.loads(stored)["verifier"]) == query["code_challenge"], "the verifier stays"
    back = User("ada").authorize(started.authorization_url, CALLBACK)

    first = complete(stub, back["state"], back["code"])
    assert first.created and first.session.player_id.startswith("a-")
    account = account_of(stub, first.session)
    assert (account.email, account.email_verified, account.display_name) == ("ada@example.org", True, "ada")
    assert list(account.external_providers) == ["test"] and not account.has_password
    assert not redis_client.keys("{lobby}:external-state:*"), "the state is spent"

    second = complete(stub, *at_provider(stub, "ada"))
    assert not second.created and second.session.player_id == first.session.player_id
    assert second.session.refresh_token != first.session.refresh_token
    renewed = stub.RefreshSession(pb.RefreshSessionRequest(refresh_token=second.session.refresh_token))
    assert renewed.session.player_id == first.session.player_id
    # an account without a password: no password signs in to it, not even the throwaway hash's
    for password in ("not anybody's password", "anything"):
        request = pb.SignInRequest(email="ada@example.org", password=password)
        fails(lambda r=request: stub.SignIn(r, timeout=10), F, "wrong_credentials")  # type: ignore[misc]


def test_a_public_client_signs_in_with_pkce_alone_and_a_name_taken_gets_a_number(stub: Any) -> None:
    up = pb.SignUpRequest(email="b@example.org", password="correct horse battery", display_name="Bea")
    stub.SignUp(up, timeout=10)
    first = complete(stub, *at_provider(stub, "bea", "public"))
    assert first.created and first.session.display_name == "bea 2"
    # the same issuer through its other client: the same identity (issuer, subject), the same account
    again = complete(stub, *at_provider(stub, "bea", "test"))
    assert not again.created and again.session.player_id == first.session.player_id


def test_a_wrong_or_reused_state_is_refused_and_changes_nothing(stub: Any, redis_client: redis.Redis) -> None:
    state, code = at_provider(stub, "cleo")
    unchanged(redis_client, lambda: complete(stub, "not-a-state", code), F, "state_invalid")
    assert complete(stub, state, code).created
    unchanged(redis_client, lambda: complete(stub, state, code), F, "state_invalid")
    new_state, new_code = at_provider(stub, "cleo")
    unchanged(redis_client, lambda: complete(stub, state, new_code), F, "state_invalid")
    assert not complete(stub, new_state, new_code).created


def test_a_tampered_code_is_refused_by_the_provider_and_changes_nothing(
    stub: Any, redis_client: redis.Redis
) -> None:
    state, code = at_provider(stub, "dan")
    unchanged(redis_client, lambda: complete(stub, state, code[:-2] + "xx"), F, "external_code_invalid")
    other_state, other_code = at_provider(stub, "dan")  # a real code, but another sign-in's verifier
    unchanged(redis_client, lambda: complete(stub, state, other_code), F, "external_code_invalid")
    assert complete(stub, state, code).created
    assert not complete(stub, other_state, other_code).created, "its own sign-in takes it"


def test_an_id_token_for_another_nonce_is_refused_and_changes_nothing(
    stub: Any, redis_client: redis.Redis
) -> None:
    state, code = at_provider(stub, "eve")
    key = keys.external_state(digest(state))
    pending = json.loads(redis_client.get(key) or b"{}")
    redis_client.set(key, json.dumps({**pending, "nonce": "another sign-in's nonce"}), keepttl=True)
    unchanged(redis_client, lambda: complete(stub, state, code), F, "external_nonce_mismatch")
    assert redis_client.get(b"{lobby}:email:" + digest("eve@example.org").encode()) is None


def test_the_id_token_checks_against_the_real_providers_token_and_keys(issuer: str) -> None:
    """The verification alone, on an ID token the provider issued: the audience, the issuer, the
    signature and the algorithm are each checked."""
    oidc, nonce, verifier = OidcClient(), "the nonce", "v" * 64
    config = ProviderConfig("test", "Test", issuer, "tabula", SECRET)
    url = oidc.authorization_url(config, CALLBACK, "s", nonce, code_challenge(verifier))
    code = User("fay").authorize(url, CALLBACK)["code"]
    id_token = oidc.exchange(config, code, CALLBACK, verifier)
    assert oidc.verify(config, id_token, nonce).subject == "fay"

    def refused(config: ProviderConfig, token: str, reason: str = "external_token_invalid") -> None:
        with pytest.raises(Conflict) as err:
            oidc.verify(config, token, nonce)
        assert err.value.reason == reason, err.value

    refused(ProviderConfig("test", "Test", issuer, "another-client", SECRET), id_token)  # audience
    head, body, signature = id_token.split(".")
    claims = json.loads(jwt.utils.base64url_decode(body))
    forged = jwt.utils.base64url_encode(json.dumps({**claims, "sub": "mallory"}).encode()).decode()
    refused(config, f"{head}.{forged}.{signature}")  # the signature no longer matches
    refused(config, jwt.encode({**claims}, key="", algorithm="none"))  # unsigned
    refused(config, jwt.encode({**claims}, key=SECRET * 2, algorithm="HS256"))  # a MAC with the secret
    with pytest.raises(Conflict) as err:
        oidc.verify(config, id_token, "another nonce")
    assert err.value.reason == "external_nonce_mismatch"
    metadata = json.loads(urllib.request.urlopen(issuer + "/.well-known/openid-configuration").read())
    assert metadata["issuer"] == issuer


def test_an_unverified_address_is_not_taken(stub: Any) -> None:
    done = complete(stub, *at_provider(stub, "unverified-gil"))
    account = account_of(stub, done.session)
    assert (account.email, account.email_verified) == ("", False)
    request = pb.RequestEmailVerificationRequest()
    fails(
        lambda: stub.RequestEmailVerification(request, metadata=auth(done.session.access_token)),
        F,
        "no_email",
    )


def test_a_guest_links_a_provider_and_becomes_that_account(stub: Any, redis_client: redis.Redis) -> None:
    guest = guest_sign_in(stub, "Hal")
    done = complete(stub, *at_provider(stub, "hal", token=guest.token))
    assert done.created and done.session.player_id == guest.player_id
    again = complete(stub, *at_provider(stub, "hal"))
    assert again.session.player_id == guest.player_id and not again.created
    rooms = pb.ListRoomsRequest(game="race")
    fails(lambda: stub.ListRooms(rooms, metadata=guest.md, timeout=5), grpc.StatusCode.UNAUTHENTICATED)


def test_an_account_links_a_provider_whose_address_it_has(stub: Any, redis_client: redis.Redis) -> None:
    up = pb.SignUpRequest(email="ivy@example.org", password="correct horse battery", display_name="Ivy")
    session = stub.SignUp(up, timeout=10).session
    unchanged_before = at_provider(stub, "ivy")
    fails(lambda: complete(stub, *unchanged_before), F, "email_taken")  # not linked by address alone
    linked = complete(stub, *at_provider(stub, "ivy", token=session.access_token))
    assert linked.session.player_id == session.player_id and not linked.created
    assert list(account_of(stub, linked.session).external_providers) == ["test"]
    assert complete(stub, *at_provider(stub, "ivy")).session.player_id == session.player_id
    other = complete(stub, *at_provider(stub, "jo"))
    state, code = at_provider(stub, "jo", token=session.access_token)
    fails(lambda: complete(stub, state, code), F, "external_linked")
    assert account_of(stub, other.session).player_id == other.session.player_id


def test_an_unknown_provider_or_a_bad_redirect_is_refused_and_changes_nothing(
    stub: Any, redis_client: redis.Redis
) -> None:
    unchanged(redis_client, lambda: start(stub, "nobody"), F, "provider_unknown")
    bad = pb.StartExternalSignInRequest(provider="test", redirect_uri="javascript:alert(1)")
    unchanged(
        redis_client,
        lambda: stub.StartExternalSignIn(bad, timeout=5),
        grpc.StatusCode.INVALID_ARGUMENT,
        "invalid_argument",
    )
    unchanged(redis_client, lambda: start(stub, token="forged"), grpc.StatusCode.UNAUTHENTICATED, "bad_token")


def test_a_provider_that_cannot_be_reached_is_unavailable_and_changes_nothing(
    make_lobby: LobbyFactory, redis_client: redis.Redis, refused_port: Any
) -> None:
    down = f"http://127.0.0.1:{refused_port.getsockname()[1]}"
    env = {**env_of(down), "TABULA_OIDC_PROVIDERS": "test"}
    stub = stub_of(make_lobby(background=False, env=env))
    unchanged(redis_client, lambda: start(stub), grpc.StatusCode.UNAVAILABLE, "external_unavailable")


def test_an_account_without_a_password_is_deleted_after_a_sign_in_with_its_provider(
    stub: Any, redis_client: redis.Redis
) -> None:
    made = complete(stub, *at_provider(stub, "eve"))
    player_id, md = made.session.player_id, auth(made.session.access_token)
    delete = pb.DeleteAccountRequest(password="")
    assert redis_client.delete(f"{{lobby}}:signed-in-again:{player_id}") == 1  # as if minutes had passed
    unchanged(redis_client, lambda: stub.DeleteAccount(delete, metadata=md, timeout=10), F, "sign_in_again")

    again = complete(stub, *at_provider(stub, "eve"))  # a sign-in with the provider: delete at once
    assert again.session.player_id == player_id
    stub.DeleteAccount(delete, metadata=auth(again.session.access_token), timeout=10)
    assert [k for k in redis_client.scan_iter(f"*{player_id}*") if not k.startswith(b"tabula:limit:")] == [
        f"{{lobby}}:deleted:{player_id}".encode()
    ]
    assert not redis_client.keys("{lobby}:external:*"), "the link to the provider's identity is gone"
    fresh = complete(stub, *at_provider(stub, "eve"))  # the identity makes a new account next time
    assert fresh.created and fresh.session.player_id != player_id
