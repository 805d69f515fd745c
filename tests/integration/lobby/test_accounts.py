"""Accounts over real gRPC and a real Redis: sign-up, sign-in, rotating refresh tokens, sign-out,
password change, verification and reset through the mail folder, and every refusal changing nothing
(Redis dumped before and after, the limits' counts aside)."""

from __future__ import annotations

import email
import email.policy
import logging
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb

from services.lobby.adapters import keys
from services.lobby.adapters.mail import Mail
from services.lobby.domain.sessions import ACCESS_TTL_S, REFRESH_TTL_S, digest
from shared.runtime.observability import JsonFormatter
from shared.serving.errors import error_info
from tests.integration.hardening.conftest import dump
from tests.integration.lobby.conftest import SIGNER, Guest, LobbyFactory, auth, fails, service_token
from tests.integration.lobby.conftest import sign_in as guest_sign_in
from tests.integration.lobby.test_limits import from_address, limited, stub_of
from tests.integration.lobby.test_ratings import eventually, leaderboard, play_to_the_end

F = grpc.StatusCode.FAILED_PRECONDITION
INVALID = grpc.StatusCode.INVALID_ARGUMENT
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
PASSWORD = "correct horse battery"
CODE = re.compile(r"^    ([A-Za-z0-9_-]{43})$", re.MULTILINE)
QUIET = {"TABULA_LIMIT_SIGN_IN_IP": "off"}  # many sign-ins from one address in a test


@pytest.fixture
def mail_dir(tmp_path: Path) -> Path:
    return tmp_path / "mail"


@pytest.fixture
def stub(make_lobby: LobbyFactory, mail_dir: Path) -> Any:
    return stub_of(make_lobby(background=False, env={"TABULA_MAIL_DIR": str(mail_dir), **QUIET}))


def mails(folder: Path) -> list[email.message.EmailMessage]:
    """The messages written to the folder, oldest first."""
    found = sorted(folder.glob("*.eml")) if folder.exists() else []
    parse = email.message_from_bytes
    return [parse(p.read_bytes(), policy=email.policy.default) for p in found]  # type: ignore[misc]


def code_of(message: email.message.EmailMessage) -> str:
    body = message.get_body()
    assert body is not None
    found = CODE.search(body.get_content())
    assert found, body.get_content()
    return found.group(1)


def sign_up(stub: Any, address: str = "ada@example.org", name: str = "Ada") -> Any:
    request = pb.SignUpRequest(email=address, password=PASSWORD, display_name=name)
    return stub.SignUp(request, timeout=10).session


def sign_in(stub: Any, address: str = "ada@example.org", password: str = PASSWORD, **kw: Any) -> Any:
    return stub.SignIn(pb.SignInRequest(email=address, password=password), timeout=10, **kw).session


def refresh(stub: Any, token: str) -> Any:
    return stub.RefreshSession(pb.RefreshSessionRequest(refresh_token=token), timeout=5).session


def unchanged(client: redis.Redis, call: Callable[[], Any], code: grpc.StatusCode, reason: str) -> None:
    """``call`` is refused with ``code`` and ``reason`` and leaves Redis as it was."""
    before = dump(client)
    fails(call, code, reason)
    assert dump(client) == before


def test_a_new_account_signs_in_and_its_access_token_works_like_a_guests(
    stub: Any, mail_dir: Path, redis_client: redis.Redis
) -> None:
    started = time.time()
    session = sign_up(stub, "  Ada@Example.org ", "Ada Lovelace")
    assert session.player_id.startswith("a-") and session.display_name == "Ada Lovelace"
    assert started + ACCESS_TTL_S - 2 <= session.access_expires_at <= time.time() + ACCESS_TTL_S + 1
    assert started + REFRESH_TTL_S - 2 <= session.refresh_expires_at <= time.time() + REFRESH_TTL_S + 1
    rooms = stub.ListRooms(pb.ListRoomsRequest(game="race"), metadata=auth(session.access_token), timeout=5)
    assert list(rooms.rooms) == []
    account = stub.GetAccount(pb.GetAccountRequest(), metadata=auth(session.access_token), timeout=5)
    assert (account.player_id, account.email, account.email_verified, account.display_name) == (
        session.player_id,
        "ada@example.org",
        False,
        "Ada Lovelace",
    )
    again = sign_in(stub, "ADA@example.org")
    assert again.player_id == session.player_id and again.refresh_token != session.refresh_token
    assert redis_client.ttl(keys.guest(session.player_id)) == -1, "an account's name is kept"
    stored = b"".join(str(v).encode() for v in dump(redis_client).values())
    assert PASSWORD.encode() not in stored and session.refresh_token.encode() not in stored
    (welcome,) = mails(mail_dir)
    assert welcome["To"] == "ada@example.org" and "Verify" in welcome["Subject"]


def test_a_wrong_email_and_a_wrong_password_are_the_same_refusal_and_change_nothing(
    stub: Any, redis_client: redis.Redis
) -> None:
    sign_up(stub)
    answers = []
    for address, password in (("ada@example.org", "not my password"), ("eve@example.org", PASSWORD)):
        before = dump(redis_client)
        err = fails(lambda a=address, p=password: sign_in(stub, a, p), F, "wrong_credentials")
        assert dump(redis_client) == before
        answers.append(err.details())
    assert answers[0] == answers[1] == "wrong email or password"
    fails(lambda: sign_in(stub, "ada@example.org", ""), INVALID, "invalid_argument")
    assert sign_in(stub).display_name == "Ada"


def test_a_taken_email_or_name_is_refused_whatever_its_case_and_changes_nothing(
    stub: Any, redis_client: redis.Redis
) -> None:
    sign_up(stub, "ada@example.org", "Ada")
    taken_email = pb.SignUpRequest(email="ADA@example.org", password=PASSWORD, display_name="Other")
    unchanged(redis_client, lambda: stub.SignUp(taken_email, timeout=10), F, "email_taken")
    taken_name = pb.SignUpRequest(email="bob@example.org", password=PASSWORD, display_name="  ADA ")
    unchanged(redis_client, lambda: stub.SignUp(taken_name, timeout=10), F, "name_taken")
    short = pb.SignUpRequest(email="bob@example.org", password="short", display_name="Bob")
    unchanged(redis_client, lambda: stub.SignUp(short, timeout=10), INVALID, "invalid_argument")
    assert sign_up(stub, "bob@example.org", "Bob").display_name == "Bob"


def test_each_refresh_rotates_and_a_reused_token_ends_the_whole_session(
    stub: Any, redis_client: redis.Redis
) -> None:
    first = sign_up(stub)
    other = sign_in(stub)  # another device: another session
    second = refresh(stub, first.refresh_token)
    assert second.player_id == first.player_id and second.refresh_token != first.refresh_token
    assert second.access_token != first.access_token
    third = refresh(stub, second.refresh_token)
    fails(lambda: refresh(stub, first.refresh_token), F, "refresh_reused")
    for ended in (third.refresh_token, second.refresh_token):  # the family's head too, and spent ones
        unchanged(redis_client, lambda t=ended: refresh(stub, t), F, "refresh_revoked")
    assert refresh(stub, other.refresh_token).player_id == first.player_id, "another session goes on"


def test_a_refresh_token_that_was_never_issued_is_refused_and_changes_nothing(
    stub: Any, redis_client: redis.Redis
) -> None:
    session = sign_up(stub)
    family = session.refresh_token.split(".")[0]
    forged = f"{family}.{'x' * 43}"
    unchanged(redis_client, lambda: refresh(stub, forged), F, "refresh_expired")
    unchanged(redis_client, lambda: refresh(stub, f"{'0' * 32}.{'y' * 43}"), F, "refresh_expired")
    unchanged(redis_client, lambda: refresh(stub, "not a token"), INVALID, "invalid_argument")
    assert refresh(stub, session.refresh_token).player_id == session.player_id, "the forgery ended nothing"


def test_an_expired_refresh_token_is_refused(stub: Any, redis_client: redis.Redis) -> None:
    session = sign_up(stub)
    family = session.refresh_token.split(".")[0]
    redis_client.delete(keys.session(family))  # what its expiry does
    fails(lambda: refresh(stub, session.refresh_token), F, "refresh_expired")


def test_signing_out_ends_one_session_and_signing_out_everywhere_ends_them_all(stub: Any) -> None:
    one, two, three = sign_up(stub), sign_in(stub), sign_in(stub)
    stub.SignOut(pb.SignOutRequest(refresh_token=one.refresh_token), timeout=5)
    fails(lambda: refresh(stub, one.refresh_token), F, "refresh_revoked")
    two = refresh(stub, two.refresh_token)
    stub.SignOut(pb.SignOutRequest(refresh_token=two.refresh_token, everywhere=True), timeout=5)
    for ended in (two, three):
        fails(lambda s=ended: refresh(stub, s.refresh_token), F, "refresh_revoked")
    assert refresh(stub, sign_in(stub).refresh_token).player_id == one.player_id, "a new sign-in works"


def test_a_password_change_ends_every_session_and_a_wrong_current_password_changes_nothing(
    stub: Any, mail_dir: Path, redis_client: redis.Redis
) -> None:
    session, elsewhere = sign_up(stub), sign_in(stub)
    md = auth(session.access_token)
    wrong = pb.ChangePasswordRequest(current_password="not it", new_password="a new password")
    unchanged(
        redis_client, lambda: stub.ChangePassword(wrong, metadata=md, timeout=10), F, "wrong_credentials"
    )
    right = pb.ChangePasswordRequest(current_password=PASSWORD, new_password="a new password")
    changed = stub.ChangePassword(right, metadata=md, timeout=10).session
    for ended in (session, elsewhere):
        fails(lambda s=ended: refresh(stub, s.refresh_token), F, "refresh_revoked")
    assert refresh(stub, changed.refresh_token).player_id == session.player_id
    fails(lambda: sign_in(stub), F, "wrong_credentials")
    assert sign_in(stub, password="a new password").player_id == session.player_id
    assert [m["X-Tabula-Kind"] for m in mails(mail_dir)] == ["verify", "changed"]


def test_account_calls_refuse_a_guests_token(stub: Any, redis_client: redis.Redis) -> None:
    guest = stub.SignInGuest(pb.SignInGuestRequest(display_name="Gus"), timeout=5)
    md = auth(guest.token)
    change = pb.ChangePasswordRequest(current_password=PASSWORD, new_password="a new password")
    unchanged(redis_client, lambda: stub.ChangePassword(change, metadata=md, timeout=5), F, "not_an_account")
    unchanged(
        redis_client,
        lambda: stub.GetAccount(pb.GetAccountRequest(), metadata=md, timeout=5),
        F,
        "not_an_account",
    )


def test_the_mailed_code_verifies_the_address_once(
    stub: Any, mail_dir: Path, redis_client: redis.Redis
) -> None:
    session = sign_up(stub)
    md = auth(session.access_token)
    first_code = code_of(mails(mail_dir)[0])
    stub.RequestEmailVerification(pb.RequestEmailVerificationRequest(), metadata=md, timeout=5)
    newer_code = code_of(mails(mail_dir)[1])
    replaced = pb.VerifyEmailRequest(code=first_code)
    unchanged(redis_client, lambda: stub.VerifyEmail(replaced, timeout=5), F, "code_invalid")
    proved = stub.VerifyEmail(pb.VerifyEmailRequest(code=newer_code), timeout=5)
    assert (proved.player_id, proved.email) == (session.player_id, "ada@example.org")
    assert stub.GetAccount(pb.GetAccountRequest(), metadata=md, timeout=5).email_verified
    again = pb.VerifyEmailRequest(code=newer_code)
    unchanged(redis_client, lambda: stub.VerifyEmail(again, timeout=5), F, "code_invalid")
    ask = pb.RequestEmailVerificationRequest()
    unchanged(
        redis_client,
        lambda: stub.RequestEmailVerification(ask, metadata=md, timeout=5),
        F,
        "already_verified",
    )
    stored = b"".join(str(v).encode() for v in dump(redis_client).values())
    assert newer_code.encode() not in stored, "codes are stored as digests only"


def test_a_password_reset_mails_a_code_that_sets_a_new_password_once(
    stub: Any, mail_dir: Path, redis_client: redis.Redis
) -> None:
    before = sign_up(stub)
    stub.RequestPasswordReset(pb.RequestPasswordResetRequest(email="nobody@example.org"), timeout=5)
    assert len(mails(mail_dir)) == 1, "no account, no mail, and the same answer"
    stub.RequestPasswordReset(pb.RequestPasswordResetRequest(email="ADA@example.org"), timeout=5)
    reset = mails(mail_dir)[-1]
    assert (reset["To"], reset["X-Tabula-Kind"]) == ("ada@example.org", "reset")
    code = code_of(reset)
    weak = pb.ResetPasswordRequest(code=code, new_password="short")
    unchanged(redis_client, lambda: stub.ResetPassword(weak, timeout=10), INVALID, "invalid_argument")
    wrong_kind = pb.VerifyEmailRequest(code=code)
    unchanged(redis_client, lambda: stub.VerifyEmail(wrong_kind, timeout=5), F, "code_invalid")
    session = stub.ResetPassword(
        pb.ResetPasswordRequest(code=code, new_password="brand new words"), timeout=10
    )
    assert session.session.player_id == before.player_id
    fails(lambda: refresh(stub, before.refresh_token), F, "refresh_revoked")
    assert sign_in(stub, password="brand new words").player_id == before.player_id
    md = auth(session.session.access_token)
    assert stub.GetAccount(pb.GetAccountRequest(), metadata=md, timeout=5).email_verified
    used = pb.ResetPasswordRequest(code=code, new_password="another new one")
    unchanged(redis_client, lambda: stub.ResetPassword(used, timeout=10), F, "code_invalid")


def test_an_expired_code_is_refused_and_changes_nothing(
    stub: Any, mail_dir: Path, redis_client: redis.Redis
) -> None:
    sign_up(stub)
    stub.RequestPasswordReset(pb.RequestPasswordResetRequest(email="ada@example.org"), timeout=5)
    code = code_of(mails(mail_dir)[-1])
    redis_client.hset(keys.code(digest(code)), "expires", int(time.time()) - 1)  # an hour on
    request = pb.ResetPasswordRequest(code=code, new_password="brand new words")
    unchanged(redis_client, lambda: stub.ResetPassword(request, timeout=10), F, "code_expired")
    assert sign_in(stub).player_id, "the old password still works"


def locked_for(try_once: Callable[[], Any], refused: Callable[[], float]) -> float:
    """How long the lock set by ``try_once`` lasts, measured from just before the try (a try is
    counted, and the lock set, before its password is checked) to when ``refused`` says it ends."""
    before = time.monotonic()
    try_once()
    left = refused()
    return time.monotonic() + left - before


def test_password_tries_back_off_per_account_and_per_address(make_lobby: LobbyFactory) -> None:
    tries = {"TABULA_LIMIT_PASSWORD_TRIES_ACCOUNT": "3/1", "TABULA_LIMIT_PASSWORD_TRIES_IP": "5/1"}
    stub = stub_of(make_lobby(background=False, env={**QUIET, **tries}))
    sign_up(stub)
    here, there = from_address("203.0.113.7"), from_address("203.0.113.8")

    def wrong_try() -> None:
        fails(lambda: sign_in(stub, password="wrong guess", metadata=here), F, "wrong_credentials")

    def right_try_refused() -> float:  # even the right password waits, from anywhere
        return limited(lambda: sign_in(stub, metadata=there), "password_tries_account")

    for _ in range(2):
        wrong_try()
    first = locked_for(wrong_try, right_try_refused)  # the third try locks the account for 1 s
    assert 0.5 < first <= 1.1
    time.sleep(right_try_refused() + 0.05)
    second = locked_for(wrong_try, right_try_refused)
    assert 1.5 < second <= 2.1, "the lock doubled"
    time.sleep(right_try_refused() + 0.05)
    assert sign_in(stub, metadata=here).player_id, "the right password after the wait"
    # The account's count was cleared; the address's was not (4 of 5: the success was given back).
    fails(lambda: sign_in(stub, "x@example.org", metadata=here), F, "wrong_credentials")
    limited(lambda: sign_in(stub, "y@example.org", metadata=here), "password_tries_ip")
    assert sign_in(stub, metadata=from_address("203.0.113.9")).player_id, "another address is not locked"


def test_reset_mails_are_limited_per_address(make_lobby: LobbyFactory, mail_dir: Path) -> None:
    env = {"TABULA_MAIL_DIR": str(mail_dir), "TABULA_LIMIT_MAIL_ACCOUNT": "2/3600", **QUIET}
    stub = stub_of(make_lobby(background=False, env=env))
    sign_up(stub)  # the verification mail of a sign-up is not counted
    for _ in range(2):
        stub.RequestPasswordReset(pb.RequestPasswordResetRequest(email="ada@example.org"), timeout=5)
    request = pb.RequestPasswordResetRequest(email="ada@example.org")
    limited(lambda: stub.RequestPasswordReset(request, timeout=5), "mail_account")
    assert len(mails(mail_dir)) == 3
    for _ in range(2):  # an address without an account is limited alike (the limit tells nothing)
        stub.RequestPasswordReset(pb.RequestPasswordResetRequest(email="nobody@example.org"), timeout=5)
    nobody = pb.RequestPasswordResetRequest(email="nobody@example.org")
    limited(lambda: stub.RequestPasswordReset(nobody, timeout=5), "mail_account")


def test_account_calls_count_as_sign_ins_per_address(make_lobby: LobbyFactory) -> None:
    stub = stub_of(make_lobby(background=False, env={"TABULA_LIMIT_SIGN_IN_IP": "2/600"}))
    session = sign_up(stub)
    refresh(stub, session.refresh_token)
    limited(lambda: sign_in(stub), "sign_in_ip")


# ---------------------------------------------------------------- a guest becomes an account


def test_a_guest_upgraded_keeps_its_id_rating_history_and_open_match(
    make_lobby: LobbyFactory, mail_dir: Path, race_stub: Any, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(env={"TABULA_MAIL_DIR": str(mail_dir), **QUIET}))
    ada, bob = guest_sign_in(stub, "Ada"), guest_sign_in(stub, "Bob")
    finished, _ = play_to_the_end(stub, race_stub, ada, bob)
    rated = eventually(lambda: [e for e in leaderboard(stub, bob) if e.player_id == ada.player_id])
    open_match = start_long_race(stub, ada, bob)
    upgrade = pb.UpgradeGuestRequest(email="ada@example.org", password=PASSWORD)
    session = stub.UpgradeGuest(upgrade, metadata=ada.md, timeout=10).session
    assert (session.player_id, session.display_name) == (ada.player_id, "Ada")
    account = auth(session.access_token)
    (entry,) = [e for e in leaderboard(stub, bob) if e.player_id == ada.player_id]
    assert (entry.display_name, entry.rating, entry.matches) == ("Ada", rated[0].rating, 1)
    history = stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=account, timeout=5).entries
    assert [h.match_id for h in history] == [finished]
    mine = stub.ListMyMatches(pb.ListMyMatchesRequest(), metadata=account, timeout=5).matches
    assert {m.match_id: m.finished for m in mine} == {finished: True, open_match: False}
    assert next(m for m in mine if m.match_id == open_match).seat_token
    kept = (keys.guest(ada.player_id), keys.mine(ada.player_id), keys.history(ada.player_id))
    assert [redis_client.ttl(key) for key in kept] == [-1, -1, -1], "an account's keys are kept"
    listing = pb.ListRoomsRequest(game="race")
    fails(lambda: stub.ListRooms(listing, metadata=ada.md, timeout=5), UNAUTHENTICATED, "bad_token")
    assert [redis_client.ttl(key) for key in kept] == [-1, -1, -1], "the guest token touched nothing"
    assert sign_in(stub).player_id == ada.player_id
    assert [m["X-Tabula-Kind"] for m in mails(mail_dir)] == ["verify"]


def test_an_accounts_later_matches_and_history_are_kept_and_a_guests_expire(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis
) -> None:
    stub = stub_of(make_lobby(env=QUIET))
    session = sign_up(stub)
    ada = Guest(session.player_id, session.access_token)
    bob = guest_sign_in(stub, "Bob")
    play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: redis_client.exists(keys.history(ada.player_id)))
    eventually(lambda: redis_client.exists(keys.history(bob.player_id)))
    assert redis_client.ttl(keys.history(ada.player_id)) == -1 == redis_client.ttl(keys.mine(ada.player_id))
    assert (
        redis_client.ttl(keys.history(bob.player_id)) > 0 and redis_client.ttl(keys.mine(bob.player_id)) > 0
    )


def test_upgrade_refusals_change_nothing(stub: Any, redis_client: redis.Redis) -> None:
    ada = sign_up(stub, "ada@example.org", "Ada")
    gus = guest_sign_in(stub, "Gus")
    taken_email = pb.UpgradeGuestRequest(email="Ada@Example.org", password=PASSWORD, display_name="Gus")
    unchanged(
        redis_client, lambda: stub.UpgradeGuest(taken_email, metadata=gus.md, timeout=10), F, "email_taken"
    )
    taken_name = pb.UpgradeGuestRequest(email="gus@example.org", password=PASSWORD, display_name="ADA")
    unchanged(
        redis_client, lambda: stub.UpgradeGuest(taken_name, metadata=gus.md, timeout=10), F, "name_taken"
    )
    again = pb.UpgradeGuestRequest(email="other@example.org", password=PASSWORD)
    md = auth(ada.access_token)
    unchanged(redis_client, lambda: stub.UpgradeGuest(again, metadata=md, timeout=10), F, "already_account")
    unchanged(redis_client, lambda: stub.UpgradeGuest(again, timeout=10), UNAUTHENTICATED, "bad_token")
    own = pb.UpgradeGuestRequest(email="gus@example.org", password=PASSWORD)  # the guest's own name
    upgraded = stub.UpgradeGuest(own, metadata=gus.md, timeout=10)
    assert upgraded.session.player_id == gus.player_id and upgraded.session.display_name == "Gus"


def start_long_race(stub: Any, ada: Guest, bob: Guest) -> str:
    """A 2-seat race to 100 started by Ada: a match that stays open."""
    request = pb.CreateRoomRequest(game="race", seats=2, options={"goal": "100"})
    room = stub.CreateRoom(request, metadata=ada.md, timeout=5).room
    stub.JoinRoom(pb.JoinRoomRequest(room_id=room.room_id), metadata=bob.md, timeout=5)
    stub.SetReady(pb.SetReadyRequest(room_id=room.room_id, ready=True), metadata=bob.md, timeout=5)
    match_id: str = stub.StartRoom(
        pb.StartRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=10
    ).match_id
    return match_id


# ---------------------------------------------------------------- secrets and mail


class FailingMail:
    """A mail provider that is down (``TABULA_MAIL`` names this class as its factory)."""

    def send(self, mail: Mail) -> None:
        raise ConnectionError("the provider is down")


def test_a_mail_providers_outage_does_not_undo_a_sign_up(
    make_lobby: LobbyFactory, caplog: pytest.LogCaptureFixture
) -> None:
    stub = stub_of(make_lobby(background=False, env={"TABULA_MAIL": f"{__name__}:FailingMail", **QUIET}))
    session = sign_up(stub)
    assert sign_in(stub).player_id == session.player_id
    assert [r.getMessage() for r in caplog.records if r.name == "tabula.lobby.accounts"] == ["mail failed"]


def test_no_password_token_or_code_reaches_a_log_line(
    stub: Any, mail_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    session = sign_up(stub)
    fails(lambda: sign_in(stub, password="a wrong password"), F, "wrong_credentials")
    renewed = refresh(stub, session.refresh_token)
    fails(lambda: refresh(stub, session.refresh_token), F, "refresh_reused")
    stub.RequestPasswordReset(pb.RequestPasswordResetRequest(email="ada@example.org"), timeout=5)
    code = code_of(mails(mail_dir)[-1])
    reset = stub.ResetPassword(pb.ResetPasswordRequest(code=code, new_password="brand new words"), timeout=10)
    secrets = [PASSWORD, "a wrong password", "brand new words", code, session.refresh_token]
    secrets += [renewed.refresh_token, reset.session.refresh_token, session.access_token]
    text = "\n".join(JsonFormatter().format(record) for record in caplog.records)
    assert text, "nothing was logged: the check would prove nothing"
    for secret in secrets:
        assert secret not in text


# ---------------------------------------------------------------- races


def outcomes(calls: list[Callable[[], Any]]) -> list[str]:
    """Each call's outcome when all run at once: "ok" or the refusal's reason."""

    def run(call: Callable[[], Any]) -> str:
        try:
            call()
            return "ok"
        except grpc.RpcError as err:
            info = error_info(err)
            return info.reason if info is not None else err.code().name

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_of_refreshes_racing_with_one_token_one_wins_and_the_session_ends(stub: Any) -> None:
    session = sign_up(stub)
    won: list[Any] = []
    calls = [lambda: won.append(refresh(stub, session.refresh_token)) for _ in range(6)]
    answers = outcomes(calls)
    assert answers.count("ok") == 1 and set(answers) - {"ok"} <= {"refresh_reused", "refresh_revoked"}
    assert "refresh_reused" in answers, "a second use of a spent token is a reuse"
    fails(lambda: refresh(stub, won[0].refresh_token), F, "refresh_revoked")


def test_of_sign_ups_racing_for_one_email_or_name_one_wins(stub: Any, redis_client: redis.Redis) -> None:
    same_email = [lambda n=n: sign_up(stub, "ada@example.org", f"Ada {n}") for n in range(4)]
    assert sorted(outcomes(same_email)) == ["email_taken"] * 3 + ["ok"]
    same_name = [lambda n=n: sign_up(stub, f"bob{n}@example.org", "Bob") for n in range(4)]
    assert sorted(outcomes(same_name)) == ["name_taken"] * 3 + ["ok"]
    assert len(list(redis_client.scan_iter(keys.account("*")))) == 2


def test_the_account_calls_take_only_a_player_token(stub: Any, redis_client: redis.Redis) -> None:
    session = sign_up(stub)
    me = session.player_id
    others = [
        service_token(),
        auth(SIGNER.spectator("race", "m1", me)),
        auth(SIGNER.seat("race", "m1", 0, me)),
    ]
    change = pb.ChangePasswordRequest(current_password=PASSWORD, new_password="a new password")
    upgrade = pb.UpgradeGuestRequest(email="x@example.org", password=PASSWORD)
    calls = [
        lambda md: stub.GetAccount(pb.GetAccountRequest(), metadata=md, timeout=5),
        lambda md: stub.ChangePassword(change, metadata=md, timeout=10),
        lambda md: stub.RequestEmailVerification(
            pb.RequestEmailVerificationRequest(), metadata=md, timeout=5
        ),
        lambda md: stub.UpgradeGuest(upgrade, metadata=md, timeout=10),
    ]
    forged = auth(
        session.access_token[:-4] + ("AAAA" if not session.access_token.endswith("AAAA") else "BBBB")
    )
    for call in calls:
        for md in others:
            unchanged(redis_client, lambda c=call, m=md: c(m), grpc.StatusCode.PERMISSION_DENIED, "forbidden")
        unchanged(redis_client, lambda c=call: c(forged), UNAUTHENTICATED, "bad_token")
    no_account = auth(SIGNER.player("a-nobody", "Nobody", account=True))  # signed, but no such account
    unchanged(redis_client, lambda: calls[0](no_account), UNAUTHENTICATED, "bad_token")  # deleted, say
