"""Profiles and privacy over real gRPC and a real Redis: avatars, renaming, visibility on profiles,
history and leaderboards, and deleting an account (its seats shown as "deleted player" in the
finished match's view, replay, log and lists, the match replaying as before, none of its personal
data left in Redis). Every refusal leaves Redis as it was (dumped before and after)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb

from services.games import load_game
from services.lobby.adapters import keys
from services.lobby.domain.profiles import AVATARS, DELETED_NAME, HIDDEN_NAME
from services.lobby.server import Lobby
from shared.matches.archive import LocalArchive, archive_name, archived_lines
from shared.matches.archiver import archive_match
from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.integration.hardening.conftest import dump
from tests.integration.lobby.conftest import SIGNER, Guest, LobbyFactory, auth, fails
from tests.integration.lobby.conftest import sign_in as guest_sign_in
from tests.integration.lobby.test_accounts import PASSWORD, QUIET, refresh, sign_in, sign_up, unchanged
from tests.integration.lobby.test_limits import stub_of
from tests.integration.lobby.test_ratings import eventually, leaderboard, play_to_the_end
from tests.support.game_server import service_stub, serving

F = grpc.StatusCode.FAILED_PRECONDITION
INVALID = grpc.StatusCode.INVALID_ARGUMENT
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
NOT_FOUND = grpc.StatusCode.NOT_FOUND
EMAIL, NAME = "lovelace@example.org", "Augusta Ada King"


@pytest.fixture
def stub(make_lobby: LobbyFactory) -> Any:
    return stub_of(make_lobby(env=QUIET))


@pytest.fixture
def still(make_lobby: LobbyFactory) -> Any:
    """A lobby without its background threads: Redis changes only by the calls."""
    return stub_of(make_lobby(background=False, env=QUIET))


def quiet(lobby: Lobby) -> None:
    """Stop the lobby's background threads (the matcher's ticks write): Redis changes only by the calls."""
    lobby.stopping.set()
    for thread in lobby.threads:
        thread.join(30)
        assert not thread.is_alive(), thread.name


def account(stub: Any, email: str = EMAIL, name: str = NAME) -> Guest:
    session = sign_up(stub, email, name)
    return Guest(session.player_id, session.access_token)


def update(stub: Any, who: Guest, **fields: Any) -> Any:
    return stub.UpdateProfile(pb.UpdateProfileRequest(**fields), metadata=who.md, timeout=5)


def profile(stub: Any, viewer: Guest, player_id: str = "") -> Any:
    return stub.GetProfile(pb.GetProfileRequest(player_id=player_id), metadata=viewer.md, timeout=5)


def history(stub: Any, viewer: Guest, player_id: str = "") -> list[Any]:
    request = pb.GetMatchHistoryRequest(player_id=player_id)
    return list(stub.GetMatchHistory(request, metadata=viewer.md, timeout=5).entries)


# ---------------------------------------------------------------- avatars and names


def test_the_avatars_are_the_declared_set_default_first(stub: Any) -> None:
    avatars = stub.ListAvatars(pb.ListAvatarsRequest(), timeout=5).avatars
    assert [(a.avatar_id, a.shape, a.colour) for a in avatars] == [
        (a.avatar_id, a.shape, a.colour) for a in AVATARS
    ]
    assert len({a.avatar_id for a in avatars}) == len(avatars) and all(a.description for a in avatars)
    ada = account(stub)
    got = stub.GetAccount(pb.GetAccountRequest(), metadata=ada.md, timeout=5)
    assert (got.avatar_id, got.visibility) == (avatars[0].avatar_id, pb.PROFILE_VISIBILITY_EVERYONE)


def test_a_rename_frees_the_old_name_and_counts_at_once(stub: Any, redis_client: redis.Redis) -> None:
    ada = account(stub)
    changed = update(stub, ada, display_name="  Countess   Lovelace ", avatar_id="green-hexagon")
    assert (changed.profile.display_name, changed.profile.avatar_id) == ("Countess Lovelace", "green-hexagon")
    assert SIGNER.verify(changed.access_token, "lobby").name == "Countess Lovelace"
    got = stub.GetAccount(pb.GetAccountRequest(), metadata=ada.md, timeout=5)
    assert (got.display_name, got.avatar_id) == ("Countess Lovelace", "green-hexagon")
    # the old access token (signed with the old name) seats the player under the name they have now
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
    assert room.seats[0].display_name == "Countess Lovelace"
    assert sign_up(stub, "other@example.org", NAME.upper()).display_name == NAME.upper(), (
        "the old name is free"
    )
    assert redis_client.get(keys.account_name(NAME.casefold())) != ada.player_id.encode()
    session = sign_in(stub, EMAIL)
    assert session.display_name == "Countess Lovelace"
    assert update(stub, ada, display_name="COUNTESS lovelace").profile.display_name == "COUNTESS lovelace"


def test_profile_refusals_change_nothing(still: Any, redis_client: redis.Redis) -> None:
    stub = still
    ada, bob = account(stub), account(stub, "bob@example.org", "Bob")
    gus = guest_sign_in(stub, "Gus")
    cases = [
        (dict(display_name="bob"), F, "name_taken"),
        (dict(display_name="x" * 33), INVALID, "invalid_argument"),
        (dict(display_name="Ada\u0007"), INVALID, "invalid_argument"),
        (dict(avatar_id="smiley"), INVALID, "invalid_argument"),
        (dict(visibility=7), INVALID, "invalid_argument"),
        (dict(display_name="bob", avatar_id="red-circle", visibility=3), F, "name_taken"),
    ]
    for fields, code, reason in cases:
        unchanged(redis_client, lambda f=fields: update(stub, ada, **f), code, reason)  # type: ignore[misc]
    unchanged(redis_client, lambda: update(stub, gus, avatar_id="red-circle"), F, "not_an_account")
    unchanged(
        redis_client,
        lambda: stub.SignInGuest(pb.SignInGuestRequest(display_name=" BOB "), timeout=5),
        F,
        "name_taken",
    )
    assert profile(stub, bob, ada.player_id).display_name == NAME
    assert guest_sign_in(stub, NAME + " II").player_id, "a name close to an account's is fine"


# ---------------------------------------------------------------- privacy


def test_visibility_decides_who_sees_ratings_and_matches(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis
) -> None:
    lobby = make_lobby(env=QUIET)
    stub = stub_of(lobby)
    ada, bob = account(stub), guest_sign_in(stub, "Bob")
    match_id, placings = play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: len(leaderboard(stub, bob)) == 2)
    quiet(lobby)
    seen = profile(stub, bob, ada.player_id)
    assert (seen.display_name, seen.account, seen.visible) == (NAME, True, True)
    assert seen.visibility == pb.PROFILE_VISIBILITY_UNSPECIFIED, "the setting is shown only to its owner"
    assert [(r.game, r.matches) for r in seen.ratings] == [("race", 1)]
    assert [(h.match_id, h.placing) for h in seen.recent] == [(match_id, placings[0])]
    guest = profile(stub, ada, bob.player_id)
    assert (guest.display_name, guest.account, guest.visible, len(guest.recent)) == ("Bob", False, True, 1)

    for hidden in (pb.PROFILE_VISIBILITY_NOBODY, pb.PROFILE_VISIBILITY_FRIENDS):  # Bob is no friend of Ada's
        update(stub, ada, visibility=hidden)
        seen = profile(stub, bob, ada.player_id)
        assert (seen.display_name, seen.visible, list(seen.ratings), list(seen.recent)) == (
            NAME,
            False,
            [],
            [],
        )
        unchanged(redis_client, lambda: history(stub, bob, ada.player_id), F, "profile_private")
        board = leaderboard(stub, bob)
        assert sorted((e.player_id, e.display_name) for e in board) == sorted(
            [("", HIDDEN_NAME), (bob.player_id, "Bob")]
        )
        assert {e.rank for e in board} == {1, 2}, "the ranks stay"
        own = profile(stub, ada)
        assert (own.visible, own.visibility, len(own.recent)) == (True, hidden, 1)
        assert [h.match_id for h in history(stub, ada)] == [match_id]
        assert {e.display_name for e in leaderboard(stub, ada)} == {NAME, "Bob"}
    stub.SendFriendRequest(pb.SendFriendRequestRequest(player_id=ada.player_id), metadata=bob.md, timeout=5)
    stub.AcceptFriendRequest(
        pb.AcceptFriendRequestRequest(player_id=bob.player_id), metadata=ada.md, timeout=5
    )
    friend = profile(stub, bob, ada.player_id)  # FRIENDS still: Bob is a friend now
    assert (friend.visible, [r.game for r in friend.ratings], len(friend.recent)) == (True, ["race"], 1)
    assert [h.match_id for h in history(stub, bob, ada.player_id)] == [match_id]
    assert {e.display_name for e in leaderboard(stub, bob)} == {NAME, "Bob"}
    update(stub, ada, visibility=pb.PROFILE_VISIBILITY_NOBODY)
    assert not profile(stub, bob, ada.player_id).visible, "a friend does not see what is shown to nobody"
    update(stub, ada, visibility=pb.PROFILE_VISIBILITY_EVERYONE)
    assert [h.match_id for h in history(stub, bob, ada.player_id)] == [match_id]
    assert {e.display_name for e in leaderboard(stub, bob)} == {NAME, "Bob"}


def test_an_unknown_player_has_no_profile(stub: Any) -> None:
    ada = account(stub)
    fails(lambda: profile(stub, ada, "g-nobody"), NOT_FOUND)
    fails(lambda: profile(stub, ada, "not an id!"), INVALID, "invalid_argument")


# ---------------------------------------------------------------- deleting an account


def _seats(reply: Any) -> list[str]:
    return [s.display_name for s in reply.seats]


def _personal(client: redis.Redis, *texts: str) -> list[str]:
    """Every key whose name or content holds one of ``texts`` (case aside)."""
    found = []
    for key, value in dump(client).items():
        blob = (repr(key) + repr(value)).casefold()
        if any(t.casefold() in blob for t in texts):
            found.append(repr(key))
    return found


def test_a_deleted_account_leaves_its_matches_replayable_as_deleted_player(
    make_lobby: LobbyFactory, race_stub: Any, race_server: Any, redis_client: redis.Redis
) -> None:
    lobby = make_lobby(env=QUIET)
    stub = stub_of(lobby)
    session = sign_up(stub, EMAIL, NAME)
    ada, bob = Guest(session.player_id, session.access_token), guest_sign_in(stub, "Bob")
    update(stub, ada, avatar_id="teal-triangle", visibility=pb.PROFILE_VISIBILITY_NOBODY)
    match_id, _ = play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: len(history(stub, bob)) == 1 and len(leaderboard(stub, bob)) == 2)
    stub.SendFriendRequest(pb.SendFriendRequestRequest(player_id=ada.player_id), metadata=bob.md, timeout=5)
    stub.AcceptFriendRequest(
        pb.AcceptFriendRequestRequest(player_id=bob.player_id), metadata=ada.md, timeout=5
    )
    quiet(lobby)
    race = load_game("race").modules.pb2
    watch = stub.GetSpectatorToken(pb.GetSpectatorTokenRequest(match_id=match_id), metadata=bob.md, timeout=5)
    md = auth(watch.token)
    store = RedisEventStore(redis_client)

    def reads() -> tuple[Any, Any, Any]:
        view = race_stub.GetView(race.GetViewRequest(match_id=match_id), metadata=md, timeout=5)
        head = race_stub.Replay(
            race.ReplayRequest(match_id=match_id, version=view.version), metadata=md, timeout=5
        )
        log = race_stub.ExportLog(race.ExportLogRequest(match_id=match_id), metadata=md, timeout=5)
        return view, head, log

    def watched() -> str:
        """The name on the seat of the first event a seat sent (Ada's roll), as a watch shows it."""
        with service_stub(load_game("race"), race_server.port) as fresh:
            stream = fresh.WatchMatch(race.WatchMatchRequest(match_id=match_id), metadata=md, timeout=5)
            first = next(r for r in stream if r.HasField("event") and r.event.HasField("actor_seat"))
            stream.cancel()
        name: str = first.event.actor_seat.display_name
        return name

    view, head, log = reads()
    assert _seats(view)[0] == NAME and watched() == NAME
    events = wait(store.read(match_id))
    # refused: a wrong password, a room waited in; neither changes anything
    wrong = pb.DeleteAccountRequest(password="not the password")
    unchanged(
        redis_client, lambda: stub.DeleteAccount(wrong, metadata=ada.md, timeout=10), F, "wrong_credentials"
    )
    room = stub.CreateRoom(pb.CreateRoomRequest(game="race", seats=2), metadata=ada.md, timeout=5).room
    right = pb.DeleteAccountRequest(password=PASSWORD)
    unchanged(
        redis_client, lambda: stub.DeleteAccount(right, metadata=ada.md, timeout=10), F, "in_room_or_queue"
    )
    stub.LeaveRoom(pb.LeaveRoomRequest(room_id=room.room_id), metadata=ada.md, timeout=5)
    unchanged(
        redis_client, lambda: stub.DeleteAccount(right, metadata=bob.md, timeout=10), F, "not_an_account"
    )

    stub.DeleteAccount(right, metadata=ada.md, timeout=10)

    after_view, after_head, after_log = reads()
    assert (
        _seats(after_view)
        == [DELETED_NAME, "Bob"]
        == _seats(after_head)
        == [s.label for s in after_view.seats]
    )
    assert (
        after_view.view == view.view
        and after_view.outcome == view.outcome
        and after_view.version == view.version
    )
    assert after_head.view == head.view, "the match replays to the same final state"
    assert [e.envelope for e in after_log.events] == [e.envelope for e in log.events]
    assert {e.actor_seat.display_name for e in after_log.events if e.HasField("actor_seat")} <= {
        DELETED_NAME,
        "Bob",
    }
    assert wait(store.read(match_id)) == events, "no event was rewritten"
    assert watched() == DELETED_NAME, "a watch from the start: the events already shown are shown anew"
    (mine,) = stub.ListMyMatches(pb.ListMyMatchesRequest(), metadata=bob.md, timeout=5).matches
    assert [s.display_name for s in mine.seats] == [DELETED_NAME, "Bob"]
    listed = stub.ListMatches(pb.ListMatchesRequest(game="race"), metadata=bob.md, timeout=5).matches
    (summary,) = [m for m in listed if m.match_id == match_id]
    assert [s.display_name for s in summary.seats] == [DELETED_NAME, "Bob"]
    assert [h.match_id for h in history(stub, bob)] == [match_id], "the others' history stays"
    assert [e.display_name for e in leaderboard(stub, bob)] == ["Bob"]
    fails(lambda: profile(stub, bob, ada.player_id), NOT_FOUND)
    assert history(stub, bob, ada.player_id) == []
    # every token of the account is refused; its address and name are free
    fails(
        lambda: stub.GetAccount(pb.GetAccountRequest(), metadata=ada.md, timeout=5),
        UNAUTHENTICATED,
        "bad_token",
    )
    fails(lambda: refresh(stub, session.refresh_token), F)
    fails(lambda: sign_in(stub, EMAIL), F, "wrong_credentials")
    assert _personal(redis_client, EMAIL, NAME, "teal-triangle") == []
    left = {k for k in redis_client.scan_iter(f"*{ada.player_id}*") if not k.startswith(b"tabula:limit:")}
    assert left == {keys.deleted(ada.player_id).encode()}, "the rate limits' buckets aside (they run out)"
    friends = stub.ListFriends(pb.ListFriendsRequest(), metadata=bob.md, timeout=5)
    assert (
        list(friends.friends) == []
        and redis_client.zscore(keys.friends(bob.player_id), ada.player_id) is None
    )
    assert redis_client.zscore(keys.online(), ada.player_id) is None
    again = sign_up(stub, EMAIL, NAME)
    assert again.player_id != ada.player_id


def test_an_upgraded_guests_token_stays_refused_after_deletion(still: Any, redis_client: redis.Redis) -> None:
    stub = still
    gus = guest_sign_in(stub, "Gus")
    upgrade = pb.UpgradeGuestRequest(email="gus@example.org", password=PASSWORD)
    session = stub.UpgradeGuest(upgrade, metadata=gus.md, timeout=10).session
    stub.DeleteAccount(
        pb.DeleteAccountRequest(password=PASSWORD), metadata=auth(session.access_token), timeout=10
    )
    listing = pb.ListRoomsRequest(game="race")
    for token in (gus.token, session.access_token):
        fails(
            lambda t=token: stub.ListRooms(listing, metadata=auth(t), timeout=5), UNAUTHENTICATED, "bad_token"
        )
    assert not redis_client.exists(keys.guest(gus.player_id)), "the guest token revived nothing"
    assert _personal(redis_client, "gus@example.org", "Gus") == []


def test_an_archived_match_of_a_deleted_account_shows_deleted_player(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis, tmp_path: Path
) -> None:
    storage = LocalArchive(tmp_path / "archive")
    stub = stub_of(make_lobby(env={**QUIET, "TABULA_ARCHIVE_DIR": str(storage.root)}))
    ada, bob = account(stub), guest_sign_in(stub, "Bob")
    match_id, _ = play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: len(history(stub, bob)) == 1)
    game = load_game("race")
    store = RedisEventStore(redis_client)
    wait(archive_match(store, storage, match_id, lambda name: (game.rules, game.codec)))
    before = archived_lines(storage, match_id)
    assert before is not None and NAME in before[0]

    stub.DeleteAccount(pb.DeleteAccountRequest(password=PASSWORD), metadata=ada.md, timeout=10)

    after = archived_lines(storage, match_id)
    assert after is not None and after[1:] == before[1:], "the events are as they were"
    assert NAME not in after[0] and DELETED_NAME in after[0]
    assert (storage.root / archive_name(match_id)).exists()
    race = game.modules.pb2
    with (
        serving(game, redis_client, SIGNER, archive=storage) as archived,
        service_stub(game, archived.port) as s,
    ):
        token = SIGNER.spectator("race", match_id, bob.player_id, 60)
        log = s.ExportLog(race.ExportLogRequest(match_id=match_id), metadata=auth(token), timeout=5)
        head = race.ReplayRequest(match_id=match_id, version=len(log.events))
        replayed = s.Replay(head, metadata=auth(token), timeout=5)
    assert len(log.events) == len(after) - 1
    assert _seats(replayed) == [DELETED_NAME, "Bob"]
    assert {e.actor_seat.display_name for e in log.events if e.HasField("actor_seat")} <= {
        DELETED_NAME,
        "Bob",
    }
