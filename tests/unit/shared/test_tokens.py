from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.tokens import Role, TokenError, TokenSigner, _b64, load_secret

SIGNER = TokenSigner(b"0123456789abcdef-secret")


def test_a_seat_token_round_trips_its_claims() -> None:
    claims = SIGNER.verify(SIGNER.issue("p1", Role.PLAYER, match_id="m1", seat=2, name="Ada"))
    assert (claims.player_id, claims.role, claims.match_id, claims.seat, claims.name) == (
        "p1",
        Role.PLAYER,
        "m1",
        2,
        "Ada",
    )


def test_a_token_signed_with_another_secret_is_refused() -> None:
    forged = TokenSigner(b"another-secret-0123456").issue("p1", Role.SERVICE)
    with pytest.raises(TokenError, match="signature"):
        SIGNER.verify(forged)


def test_changing_the_claims_breaks_the_signature() -> None:
    body, signature = SIGNER.issue("p1", Role.GUEST).split(".")
    tampered = _b64(
        json.dumps({"sub": "p1", "role": "service", "exp": 9_999_999_999, "mid": "", "seat": -1}).encode()
    )
    with pytest.raises(TokenError):
        SIGNER.verify(f"{tampered}.{signature}")
    with pytest.raises(TokenError):
        SIGNER.verify(body)


def test_expired_tokens_are_refused() -> None:
    token = SIGNER.issue("p1", Role.GUEST, ttl_s=60)
    SIGNER.verify(token)
    with pytest.raises(TokenError, match="expired"):
        SIGNER.verify(token, now=10_000_000_000)


def test_short_secrets_are_refused() -> None:
    with pytest.raises(ValueError):
        TokenSigner(b"short")


def test_the_development_secret_is_generated_once_and_kept(tmp_path: Path) -> None:
    secret_file = tmp_path / ".tabula" / "secret"
    first = load_secret({}, secret_file)
    assert len(first) == 64 and load_secret({}, secret_file) == first
    assert secret_file.stat().st_mode & 0o077 == 0
    assert load_secret({"TABULA_SECRET": "from-env-0123456789"}, secret_file) == b"from-env-0123456789"
