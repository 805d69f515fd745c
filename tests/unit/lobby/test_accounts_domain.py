"""Accounts without I/O: refresh-token families (rotation, reuse, revocation, expiry), mailed codes'
expiry, and the shape checks of emails and passwords."""

from __future__ import annotations

import pytest

from services.lobby.domain import codes, sessions, validation
from services.lobby.domain.codes import Code, Judged, Purpose
from services.lobby.domain.sessions import KEEP_SPENT, REFRESH_TTL_S, Family, Presented, RefreshToken
from shared.serving.errors import InvalidArgument

NOW = 1_800_000_000
SECRETS = iter(f"{n:043d}" for n in range(10_000))  # distinct secrets of the right shape


def token_of(family_id: str = "f" * 32) -> RefreshToken:
    return RefreshToken.of(family_id, next(SECRETS))


def begin(epoch: int = 0) -> tuple[Family, RefreshToken]:
    token = token_of()
    return sessions.start("a-ada", epoch, NOW, token), token


def chain(length: int) -> tuple[Family, list[RefreshToken]]:
    """A family and its tokens, oldest first, after ``length - 1`` rotations (one a minute)."""
    family, token = begin()
    tokens = [token]
    for minute in range(1, length):
        following = token_of(family.family_id)
        family = family.rotated(following.digest, NOW + 60 * minute)
        tokens.append(following)
    return family, tokens


def test_a_new_family_accepts_its_first_token_until_it_expires() -> None:
    family, token = begin(epoch=3)
    assert family.player_id == "a-ada" and family.epoch == 3 and family.head == token.digest
    assert family.judge(token.digest, NOW, epoch=3) is Presented.CURRENT
    assert family.judge(token.digest, NOW + REFRESH_TTL_S - 1, epoch=3) is Presented.CURRENT
    assert family.judge(token.digest, NOW + REFRESH_TTL_S, epoch=3) is Presented.EXPIRED


def test_rotation_spends_the_head_and_renews_the_expiry() -> None:
    family, (first, second) = chain(2)
    assert family.head == second.digest and family.spent == (first.digest,)
    assert family.expires_at == NOW + 60 + REFRESH_TTL_S
    assert family.judge(second.digest, NOW + 120, epoch=0) is Presented.CURRENT
    assert second.family_id == first.family_id and second.secret != first.secret


def test_a_spent_token_is_a_reuse_and_revoking_ends_every_token_of_the_family() -> None:
    family, tokens = chain(5)
    for spent in tokens[:-1]:
        assert family.judge(spent.digest, NOW + 600, epoch=0) is Presented.REUSED
    revoked = family.revoke()
    for token in tokens:
        assert revoked.judge(token.digest, NOW + 600, epoch=0) is Presented.REVOKED


def test_a_new_epoch_of_the_account_ends_the_family() -> None:
    family, token = begin()
    assert family.judge(token.digest, NOW, epoch=1) is Presented.REVOKED
    assert family.judge(token.digest, NOW, epoch=None) is Presented.REVOKED  # no account any more


def test_an_unknown_secret_of_a_known_family_is_neither_current_nor_a_reuse() -> None:
    family, token = begin()
    forged = token_of(token.family_id)
    assert family.judge(forged.digest, NOW, epoch=0) is Presented.EXPIRED


def test_only_the_newest_spent_digests_are_kept() -> None:
    family, tokens = chain(KEEP_SPENT + 3)
    assert len(family.spent) == KEEP_SPENT
    assert family.judge(tokens[0].digest, NOW, epoch=0) is Presented.EXPIRED  # forgotten: not a reuse
    assert family.judge(tokens[3].digest, NOW, epoch=0) is Presented.REUSED


def test_a_refresh_token_round_trips_its_text_and_refuses_other_shapes() -> None:
    _, token = begin()
    assert RefreshToken.parse(token.text) == token
    for bad in ("", token.family_id, token.text + "x", "." + token.secret, token.text.replace(".", ":")):
        assert RefreshToken.parse(bad) is None


def test_a_digest_is_not_the_secret() -> None:
    secret = next(SECRETS)
    assert secret not in sessions.digest(secret)
    assert sessions.digest(secret) == sessions.digest(secret) != sessions.digest(secret + "x")


@pytest.mark.parametrize("purpose", list(Purpose))
def test_a_code_is_valid_until_its_lifetime_has_passed(purpose: Purpose) -> None:
    code = Code.issue(purpose, "a-ada", "ada@example.org", NOW)
    lifetime = codes.LIFETIME_S[purpose]
    assert code.expires_at == NOW + lifetime
    assert codes.judge(code, purpose, NOW + lifetime - 1) is Judged.VALID
    assert codes.judge(code, purpose, NOW + lifetime) is Judged.EXPIRED


def test_a_reset_code_lives_an_hour_and_a_verification_code_two_days() -> None:
    assert codes.LIFETIME_S == {Purpose.RESET: 3600, Purpose.VERIFY: 48 * 3600}


def test_a_missing_code_or_one_for_another_purpose_is_unknown() -> None:
    verify = Code.issue(Purpose.VERIFY, "a-ada", "ada@example.org", NOW)
    assert codes.judge(None, Purpose.VERIFY, NOW) is Judged.UNKNOWN
    assert codes.judge(verify, Purpose.RESET, NOW) is Judged.UNKNOWN


@pytest.mark.parametrize(
    ("raw", "address"),
    [("  Ada@Example.ORG ", "ada@example.org"), ("a.b+c@mail.example.co.uk", "a.b+c@mail.example.co.uk")],
)
def test_emails_are_trimmed_and_lower_cased(raw: str, address: str) -> None:
    assert validation.email(raw) == address


@pytest.mark.parametrize(
    "raw", ["", "ada", "ada@", "@example.org", "ada@example", "a b@example.org", "a@b@example.org",
            "ada@example..org", "ada@.example.org", "a\x07@example.org", "a" * 250 + "@x.org"],
)  # fmt: skip
def test_bad_emails_are_refused_with_their_field(raw: str) -> None:
    with pytest.raises(InvalidArgument) as refused:
        validation.email(raw, "email")
    assert refused.value.field == "email"


@pytest.mark.parametrize("raw", ["", "short", " " * 12, "x" * 129])
def test_bad_new_passwords_are_refused_without_repeating_them(raw: str) -> None:
    with pytest.raises(InvalidArgument) as refused:
        validation.new_password(raw, "new_password")
    assert refused.value.field == "new_password"
    assert not raw.strip() or raw not in str(refused.value)


def test_passwords_are_kept_as_given() -> None:
    assert validation.new_password("  correct horse  ") == "  correct horse  "
    assert validation.given_password("x") == "x"
    with pytest.raises(InvalidArgument):
        validation.given_password("")


def test_names_are_the_same_for_uniqueness_whatever_their_case() -> None:
    assert validation.name_key("Ada Lovelace") == validation.name_key("ADA LOVELACE")
    assert validation.name_key("Straße") == validation.name_key("STRASSE")
