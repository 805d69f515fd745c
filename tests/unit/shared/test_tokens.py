from __future__ import annotations

import base64
import json
from pathlib import Path

import jwt
import pytest

from shared.serving.tokens import (
    LOBBY,
    Keyring,
    Scope,
    SecretMissing,
    TokenError,
    TokenRefused,
    TokenSigner,
    dev_secret,
    game_audience,
    key_id,
    keyring_from_env,
)

SECRET = b"0123456789abcdef-unit-test-secret"
OLD = b"the-previous-secret-0123456789abcdef"
SIGNER = TokenSigner(SECRET)
RACE = game_audience("race")


def _segments(token: str) -> list[str]:
    return token.split(".")


def _payload(token: str) -> dict[str, object]:
    body = _segments(token)[1]
    return dict(json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))))


def test_a_seat_token_round_trips_its_scope_audience_match_and_seat() -> None:
    claims = SIGNER.verify(SIGNER.seat("race", "m1", 2, "p1"), RACE)
    assert (claims.player_id, claims.scope, claims.audience, claims.match_id, claims.seat) == (
        "p1",
        Scope.SEAT,
        "game:race",
        "m1",
        2,
    )
    assert (
        claims.token_id
        and claims.token_id != SIGNER.verify(SIGNER.seat("race", "m1", 2, "p1"), RACE).token_id
    )


def test_each_kind_of_token_carries_only_what_its_scope_names() -> None:
    player = _payload(SIGNER.player("p1", "Ada"))
    spectator = _payload(SIGNER.spectator("race", "m1", "p1", name="Ada"))
    service = _payload(SIGNER.service("race"))
    assert (player["aud"], player["scope"], player["name"]) == (LOBBY, "player", "Ada")
    assert "mid" not in player and "seat" not in player and "acct" not in player
    assert (spectator["aud"], spectator["scope"], spectator["mid"]) == ("game:race", "spectator", "m1")
    assert "seat" not in spectator
    assert (service["aud"], service["scope"], service["sub"]) == ("game:race", "service", "lobby")


def test_an_accounts_player_token_says_so_and_a_guests_does_not() -> None:
    account = SIGNER.verify(SIGNER.player("a-1", "Ada", account=True), LOBBY)
    guest = SIGNER.verify(SIGNER.player("g-1", "Ada"), LOBBY)
    assert (account.scope, account.account, guest.scope, guest.account) == (
        Scope.PLAYER,
        True,
        Scope.PLAYER,
        False,
    )


def test_a_token_for_another_service_is_refused_as_not_allowed() -> None:
    with pytest.raises(TokenRefused, match="not for the game:race"):
        SIGNER.verify(SIGNER.player("p1", "Ada"), RACE)
    with pytest.raises(TokenRefused):
        SIGNER.verify(SIGNER.seat("chess", "m1", 0, "p1"), RACE)
    with pytest.raises(TokenRefused):
        SIGNER.verify(SIGNER.seat("race", "m1", 0, "p1"), LOBBY)


def test_a_token_signed_with_another_secret_is_refused() -> None:
    other = TokenSigner(b"another-secret-0123456789abcdefgh")
    with pytest.raises(TokenError, match="unknown key"):
        SIGNER.verify(other.service("race"), RACE)
    # the same key id cannot help a forger: the signature is still checked
    forged = jwt.encode(
        {
            "iss": "tabula",
            "sub": "x",
            "aud": RACE,
            "scope": "service",
            "iat": 1,
            "exp": 9_999_999_999,
            "jti": "j",
        },
        b"another-secret-0123456789abcdefgh",
        algorithm="HS256",
        headers={"kid": key_id(SECRET)},
    )
    with pytest.raises(TokenError, match="signature"):
        SIGNER.verify(forged, RACE)


def test_changing_the_claims_or_the_algorithm_breaks_the_token() -> None:
    header, body, signature = _segments(SIGNER.player("p1", "Ada"))
    claims = _payload(SIGNER.player("p1", "Ada")) | {"scope": "service", "aud": RACE}
    tampered = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    with pytest.raises(TokenError):
        SIGNER.verify(f"{header}.{tampered}.{signature}", RACE)
    unsigned = jwt.encode(claims, None, algorithm="none", headers={"kid": key_id(SECRET)})
    with pytest.raises(TokenError):
        SIGNER.verify(unsigned, RACE)
    for junk in ("", "not-a-token", f"{header}.{body}", "a.b.c"):
        with pytest.raises(TokenError):
            SIGNER.verify(junk, LOBBY)


def test_expired_tokens_are_refused() -> None:
    SIGNER.verify(SIGNER.player("p1", "Ada", ttl_s=60), LOBBY)
    with pytest.raises(TokenError, match="expired"):
        SIGNER.verify(SIGNER.player("p1", "Ada", ttl_s=-5), LOBBY)


def test_a_token_without_a_scope_is_malformed() -> None:
    token = jwt.encode(
        {"iss": "tabula", "sub": "p", "aud": LOBBY, "iat": 1, "exp": 9_999_999_999, "jti": "j"},
        SECRET,
        algorithm="HS256",
        headers={"kid": key_id(SECRET)},
    )
    with pytest.raises(TokenError, match="malformed"):
        SIGNER.verify(token, LOBBY)


def test_rotation_signs_with_the_current_key_and_still_accepts_the_previous_one() -> None:
    before = TokenSigner(OLD)
    during = TokenSigner(Keyring.of(SECRET, OLD))
    after = TokenSigner(SECRET)
    old_token = before.player("p1", "Ada")
    new_token = during.player("p1", "Ada")
    assert jwt.get_unverified_header(new_token)["kid"] == key_id(SECRET) != key_id(OLD)
    assert during.verify(old_token, LOBBY).player_id == "p1"
    assert after.verify(new_token, LOBBY).player_id == "p1"
    with pytest.raises(TokenError, match="unknown key"):
        after.verify(old_token, LOBBY)


def test_the_keyring_comes_from_the_environment_and_there_is_no_default() -> None:
    with pytest.raises(SecretMissing, match="TABULA_SECRET"):
        keyring_from_env({})
    ring = keyring_from_env(
        {"TABULA_SECRET": SECRET.decode(), "TABULA_SECRET_PREVIOUS": f" {OLD.decode()} ,"}
    )
    assert ring.current.kid == key_id(SECRET) and [k.kid for k in ring.previous] == [key_id(OLD)]
    with pytest.raises(ValueError, match="32 bytes"):
        keyring_from_env({"TABULA_SECRET": "short-secret-0123456789"})


def test_secrets_stay_out_of_reprs() -> None:
    ring = Keyring.of(SECRET, OLD)
    assert SECRET.decode() not in repr(ring) and OLD.decode() not in repr(ring)
    assert SECRET.decode() not in repr(TokenSigner(ring).keys)


def test_the_development_secret_is_generated_once_and_kept(tmp_path: Path) -> None:
    secret_file = tmp_path / ".tabula" / "secret"
    first = dev_secret(secret_file)
    assert len(first) == 64 and dev_secret(secret_file) == first
    assert secret_file.stat().st_mode & 0o077 == 0
    assert TokenSigner(keyring_from_env({"TABULA_SECRET": first})).verify(
        TokenSigner(first.encode()).player("p", "P"), LOBBY
    )


def test_a_kept_token_still_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    signer = TokenSigner(SECRET)
    token = signer.seat("race", "m1", 0, "p1", ttl_s=60)
    claims = signer.verify(token, RACE)
    assert signer.verify(token, RACE) == claims  # kept: the same claims again
    later = claims.expires_at
    monkeypatch.setattr("shared.serving.tokens.time.time", lambda: float(later))
    with pytest.raises(TokenError, match="expired"):
        signer.verify(token, RACE)


def test_keeping_a_genuine_token_lets_no_other_token_or_audience_through() -> None:
    signer = TokenSigner(SECRET)
    token = signer.seat("race", "m1", 0, "p1")
    signer.verify(token, RACE)
    header, _, signature = _segments(token)
    claims = _payload(token) | {"seat": 1}
    tampered = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    with pytest.raises(TokenError):  # the kept one's signature on another body
        signer.verify(f"{header}.{tampered}.{signature}", RACE)
    with pytest.raises(TokenRefused):  # kept for its own audience only
        signer.verify(token, LOBBY)
    other = TokenSigner(Keyring.of(OLD))  # another keyring keeps nothing of this one's
    with pytest.raises(TokenError, match="unknown key"):
        other.verify(token, RACE)
