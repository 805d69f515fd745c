"""The OpenID Connect providers' settings and the names a new account is offered, on their own (the
flow, PKCE's challenge among it, against a real provider: tests/integration/lobby/test_external_signin.py)."""

from __future__ import annotations

import pytest

from services.lobby.adapters.oidc import ExternalIdentity, providers_from_env
from services.lobby.service_layer.external import _names

pytestmark = pytest.mark.unit


def test_providers_are_read_by_name_with_their_defaults() -> None:
    env = {
        "TABULA_OIDC_PROVIDERS": "corp, my-id",
        "TABULA_OIDC_CORP_ISSUER": "https://id.example.org/",
        "TABULA_OIDC_CORP_CLIENT_ID": "tabula",
        "TABULA_OIDC_CORP_CLIENT_SECRET": "s3cret",
        "TABULA_OIDC_MY_ID_ISSUER": "https://my.example.org",
        "TABULA_OIDC_MY_ID_CLIENT_ID": "public",
        "TABULA_OIDC_MY_ID_LABEL": "My ID",
        "TABULA_OIDC_MY_ID_REDIRECT_URIS": "https://a.example/play/auth/callback,https://b.example/cb",
    }
    found = providers_from_env(env)
    assert sorted(found) == ["corp", "my-id"]
    corp, mine = found["corp"], found["my-id"]
    assert (corp.issuer, corp.client_secret, corp.label, corp.scopes) == (
        "https://id.example.org/",  # as configured: an ID token's iss must be this exactly
        "s3cret",
        "corp",
        "openid email profile",
    )
    assert (mine.label, mine.client_secret) == ("My ID", "")
    assert mine.redirect_uris == ("https://a.example/play/auth/callback", "https://b.example/cb")
    assert "s3cret" not in repr(corp)
    assert providers_from_env({}) == {}


@pytest.mark.parametrize(
    "env",
    [
        {"TABULA_OIDC_PROVIDERS": "Corp"},
        {"TABULA_OIDC_PROVIDERS": "corp", "TABULA_OIDC_CORP_ISSUER": "https://id.example.org"},
        {"TABULA_OIDC_PROVIDERS": "corp", "TABULA_OIDC_CORP_CLIENT_ID": "tabula"},
    ],
)
def test_a_provider_without_a_good_name_an_issuer_or_a_client_id_stops_the_start(
    env: dict[str, str],
) -> None:
    with pytest.raises(ValueError):
        providers_from_env(env)


def test_a_new_accounts_names_come_from_the_token_then_numbered_then_random() -> None:
    named = _names(ExternalIdentity("i", "s", "ada@example.org", True, "Ada  Lovelace"))
    assert named[:3] == ["Ada Lovelace", "Ada Lovelace 2", "Ada Lovelace 3"]
    assert named[-1].startswith("Ada Lovelace ") and len(named[-1]) == len("Ada Lovelace ") + 6
    assert _names(ExternalIdentity("i", "s", "bob@example.org", True, ""))[0] == "bob"
    assert _names(ExternalIdentity("i", "s", "", False, "\x00\x01"))[0] == "Player"
    assert all(len(n) <= 32 for n in _names(ExternalIdentity("i", "s", "", False, "x" * 40)))
