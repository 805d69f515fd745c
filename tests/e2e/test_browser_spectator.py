"""The spectator page in headless Chromium (Debian's, driven by Playwright) against a real stack:
the Lorenzo rule service, the lobby and the gateway as ``tabula serve`` processes on a private Redis.

The page is a generic shell that speaks Connect to the gateway with the generated TypeScript client
(``tabula-client.js``); Lorenzo's drawing and event wording are its module, loaded from
/games/lorenzo/lorenzo.js. Matches are started through the lobby (public rooms of named guests), so
the page lists them with names. What the page shows is checked against the rule service's own public
view: live updates arrive as commands are submitted, the replay slider and buttons show earlier
versions and the event list follows them, a finished match shows its final scores. Without a module
the shell draws the view as a tree. Screenshots are written to ``test-artifacts/spectator/`` (git-ignored;
``TABULA_ARTIFACTS`` moves it) so a person can look at what the page shows.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import grpc
import pytest
from tabula.lobby.v1 import lobby_pb2, lobby_pb2_grpc

from services.games import load_game
from shared.core.rng import Rng
from shared.serving.tokens import TokenSigner
from tests.support.tabula_serve import tabula_serve
from tests.support.timing import scaled

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SECRET = "browser-test-secret-0123456789abcdef"
SIGNER = TokenSigner(SECRET.encode())
LIVE_NAMES = ("Ada", "Bruno", "Cosima")
FINISHED_NAMES = ("Dante", "Elena", "Fabio")
WAIT_MS = 15_000
S = TypeVar("S", bound="Stack")
ARTIFACTS = Path(os.environ.get("TABULA_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts"))


@dataclass
class Stack:
    gateway_url: str
    stub: Any
    pb2: Any
    folder: Path
    live: str = ""  # match ids, set once started through the lobby
    finished: str = ""
    GAME: ClassVar[str] = "lorenzo"

    def service(self) -> list[tuple[str, str]]:
        return [("authorization", "Bearer " + SIGNER.service(self.GAME))]

    def seat(self, seat: int, match: str = "") -> list[tuple[str, str]]:
        token = SIGNER.seat(self.GAME, match or self.live, seat, f"p{seat}")
        return [("authorization", f"Bearer {token}")]

    def spectator_token(self, match: str = "") -> str:
        return SIGNER.spectator(self.GAME, match or self.live, "watcher")

    def spectator(self, match: str = "") -> list[tuple[str, str]]:
        return [("authorization", "Bearer " + self.spectator_token(match))]

    def live_url(self, query: str = "") -> str:
        """The page of the live match (with more of the ``query``), a spectator's token in the fragment."""
        return f"{self.gateway_url}/?game={self.GAME}&match={self.live}{query}#token={self.spectator_token()}"

    def finished_url(self) -> str:
        return f"{self.gateway_url}/?game={self.GAME}&match={self.finished}"

    def view(self, match: str = "") -> Any:
        request = self.pb2.GetViewRequest(match_id=match or self.live)
        return self.stub.GetView(request, metadata=self.spectator(match), timeout=10)

    def replay(self, version: int) -> Any:
        request = self.pb2.ReplayRequest(match_id=self.live, version=version)
        return self.stub.Replay(request, metadata=self.spectator(), timeout=10)

    def public_versions(self, up_to: int, match: str = "") -> list[int]:
        """The versions of a match's events (the live one's by default) a spectator sees, up to
        ``up_to`` (WatchMatch)."""
        request = self.pb2.WatchMatchRequest(match_id=match or self.live, from_version=1)
        seen: list[int] = []
        for item in self.stub.WatchMatch(request, metadata=self.spectator(match), timeout=10):
            top = item.event.envelope.version if item.HasField("event") else item.keepalive.head_version
            if item.HasField("event") and top <= up_to:
                seen.append(top)
            if top >= up_to:
                return seen
        return seen

    def step(self, rng: Rng, n: int, match: str = "", prefer: tuple[str, ...] = ()) -> int:
        """Whoever is to act sends a random legal command, one of the kinds in ``prefer`` when any is
        legal; returns the new head version."""
        match = match or self.live
        get = self.pb2.GetViewRequest(match_id=match)
        head = self.stub.GetView(get, metadata=self.service(), timeout=10)
        assert head.system_to_act or head.seats_to_act, f"nobody is to act at version {head.version}"
        auth = self.service() if head.system_to_act else self.seat(rng.choice(list(head.seats_to_act)), match)
        mine = self.stub.GetView(get, metadata=auth, timeout=10)
        legal = list(mine.legal_commands)
        preferred = [c for c in legal if c.WhichOneof("kind") in prefer]
        request = self.pb2.SubmitCommandRequest(
            match_id=match,
            expected_version=mine.version,
            command_id=f"b{n}",
            command=rng.choice(preferred or legal),
        )
        last: int = self.stub.SubmitCommand(request, metadata=auth, timeout=10).last_version
        return last


def _lobby_match(lobby: Any, names: tuple[str, ...], game: str = "lorenzo") -> str:
    """A public room of named guests, all ready, started by the first: the match id."""
    tokens = [
        lobby.SignInGuest(lobby_pb2.SignInGuestRequest(display_name=n), timeout=10).token for n in names
    ]
    md = [[("authorization", f"Bearer {t}")] for t in tokens]
    create = lobby_pb2.CreateRoomRequest(
        game=game, seats=len(names), visibility=lobby_pb2.ROOM_VISIBILITY_PUBLIC
    )
    room_id = lobby.CreateRoom(create, metadata=md[0], timeout=10).room.room_id
    for guest in md[1:]:
        lobby.JoinRoom(lobby_pb2.JoinRoomRequest(room_id=room_id), metadata=guest, timeout=10)
        lobby.SetReady(lobby_pb2.SetReadyRequest(room_id=room_id, ready=True), metadata=guest, timeout=10)
    started = lobby.StartRoom(lobby_pb2.StartRoomRequest(room_id=room_id), metadata=md[0], timeout=10)
    return str(started.match_id)


def _play_to_the_end(stack: Stack, match: str) -> None:
    rng = Rng(3)
    for n in range(5000):
        if stack.view(match).HasField("outcome"):
            return
        stack.step(rng, n, match)
    raise AssertionError("the match did not end in 5000 commands")


def _started(
    folder: Path, kind: type[S], finished: tuple[str, ...], live: tuple[str, ...], **extra: str
) -> Iterator[S]:
    """A ``kind.GAME`` rule service, the lobby and the gateway as ``tabula serve`` processes on a private
    Redis, with a ``finished`` match (played to the end) and a ``live`` one of named guests."""
    with tabula_serve(folder, (kind.GAME, "lobby", "gateway"), TABULA_SECRET=SECRET, **extra) as (_, ports):
        modules = load_game(kind.GAME).modules
        with (
            grpc.insecure_channel(f"127.0.0.1:{ports[kind.GAME]}") as channel,
            grpc.insecure_channel(f"127.0.0.1:{ports['lobby']}") as lobby_channel,
        ):
            stub = getattr(modules.pb2_grpc, f"{modules.name}ServiceStub")(channel)
            stack = kind(f"http://127.0.0.1:{ports['gateway']}", stub, modules.pb2, folder)
            lobby = lobby_pb2_grpc.LobbyServiceStub(lobby_channel)
            stack.finished = _lobby_match(lobby, finished, kind.GAME)
            _play_to_the_end(stack, stack.finished)
            stack.live = _lobby_match(lobby, live, kind.GAME)
            yield stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from _started(tmp_path_factory.mktemp("browser"), Stack, FINISHED_NAMES, LIVE_NAMES)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _open(browser: Any, url: str) -> tuple[Any, list[str]]:
    """A page at ``url``; errors collects uncaught errors and console errors (CSP violations among them)."""
    page = browser.new_page(viewport={"width": 1500, "height": 1400})
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    return page, errors


def _drawn_by_its_module(browser: Any, stack: Stack) -> tuple[Any, list[str], Any]:
    """The live match's page, drawn by the game's own module and stylesheet, at the head: the page, its
    errors and the head's view."""
    page, errors = _open(browser, stack.live_url())
    page.wait_for_selector("#status.live")
    assert page.evaluate("() => window.tabulaSpectator.module !== null")
    assert page.locator("#game-css").get_attribute("href") == f"/games/{stack.GAME}/{stack.GAME}.css"
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    return page, errors, head


def _drawn_one_version_back(
    page: Any, stack: Stack, shows: Callable[[Any, Any, Any], None], head: int
) -> None:
    """ "Previous" replays the version before ``head``, drawn by the module too (``shows`` checks it)."""
    page.click("#prev")
    _wait_label(page, f"replaying version {head - 1} of {head}")
    shows(page, stack.replay(head - 1).view, stack.pb2)


def _shows_its_final_scoring(
    browser: Any, stack: Stack, shows: Callable[[Any, Any, Any], None], table: str, names: tuple[str, ...]
) -> None:
    """The finished match's page: the module draws its final view (``shows`` checks it), the ``table``
    ranks the players by placing with their names and totals, and the newest event names them."""
    page, errors = _open(browser, stack.finished_url())
    page.wait_for_selector("#status.finished")
    final = stack.view(stack.finished)
    _wait_label(page, f"final version {final.version}")
    shows(page, final.view, stack.pb2)
    rows = page.locator(f"{table} tr").all_inner_texts()[1:]
    by_place = sorted(range(len(names)), key=lambda seat: final.outcome.placings[seat])
    for row, seat in zip(rows, by_place, strict=True):
        cells = [c.strip() for c in row.split("\t")]
        assert cells[:2] == [str(final.outcome.placings[seat]), names[seat]]
        assert cells[-1] == str(final.outcome.scores[seat])  # the total column
    newest = f"() => document.querySelector('#event-log li')?.dataset.version === '{final.version}'"
    page.wait_for_function(newest)
    texts = page.locator("#event-log li .t").all_inner_texts()
    assert texts[1].startswith("The game ends: ") and all(n in texts[1] for n in names)
    _shot(page, f"{stack.GAME}-finished")
    assert not errors, errors
    page.close()


def _shot(page: Any, name: str) -> None:
    folder = ARTIFACTS / "spectator"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def content(stack: Stack) -> Any:
    """The game's components with their English texts (GetContent), as the rule service serves them."""
    return stack.stub.GetContent(stack.pb2.GetContentRequest(), timeout=10).content


def tips(page: Any, selector: str, key: str) -> dict[str, str]:
    """The hover text (data-tip) of every node ``selector`` matches, by its ``data-<key>``."""
    found = page.locator(selector).evaluate_all(
        "(ns, key) => ns.map((n) => [n.dataset[key], n.dataset.tip ?? null])", key
    )
    return {str(k): v for k, v in found}


def hover_and_tap(page: Any, target: Any, text: str) -> None:
    """Pointing at ``target`` shows ``text`` in the tip box; a tap (click) on it keeps it shown when the
    pointer leaves; a tap elsewhere hides it."""
    target.hover()
    page.wait_for_selector("#tip:not([hidden])")
    assert page.locator("#tip").inner_text() == text
    page.mouse.move(1, 1)
    page.wait_for_selector("#tip", state="hidden")
    target.click()
    page.mouse.move(1, 1)
    assert page.locator("#tip").is_visible() and page.locator("#tip").inner_text() == text
    page.locator("h1").click()
    page.wait_for_selector("#tip", state="hidden")
    target.hover()  # shown again for the screenshot
    page.wait_for_selector("#tip:not([hidden])")


def legend(page: Any) -> str:
    assert page.locator("#legend").is_visible()
    return str(page.locator("#legend-items").inner_text())


# Nodes of the board and the legend that cut their one-line content off (overflow hidden, or an
# ellipsis): each measured at its content's whole width (CSSOM, so the page's CSP allows it), to the
# fraction of a pixel, since a tiny overflow already turns "+2 cards" into "+2 car...".
CUT = """() => [...document.querySelectorAll('#board *, #legend *')].filter((n) => {
  const s = getComputedStyle(n);
  const clips = s.overflowX !== 'visible' && (s.whiteSpace === 'nowrap' || s.textOverflow !== 'clip');
  if (!clips || !n.textContent.trim()) return false;
  const shown = n.getBoundingClientRect().width;
  const saved = [n.style.width, n.style.flexShrink, n.style.maxWidth];
  Object.assign(n.style, { width: 'max-content', flexShrink: '0', maxWidth: 'none' });
  const whole = n.getBoundingClientRect().width;
  [n.style.width, n.style.flexShrink, n.style.maxWidth] = saved;
  return whole > shown + 0.01;
}).map((n) => `${n.className}: ${n.textContent.slice(0, 60)}`)"""


@pytest.fixture(scope="module")
def page(browser: Any, stack: Stack) -> Iterator[Any]:
    """The live match, opened with a spectator token in the URL fragment (never sent to a server)."""
    page, errors = _open(browser, stack.live_url())
    yield page
    assert not errors, errors
    page.close()


def _label(page: Any) -> str:
    return str(page.locator("#version-label").inner_text())


def _wait_label(page: Any, text: str) -> None:
    """Wait until the label says ``text`` and the version it names is the one rendered."""
    shown = text.split(" of ")[0].rsplit(" ", 1)[-1]
    page.wait_for_function(
        """([text, shown]) => document.getElementById('version-label').textContent === text
            && document.body.dataset.rendered === shown""",
        arg=[text, shown],
        timeout=WAIT_MS,
    )


def _phase(view: Any, pb2: Any) -> str:
    return str(pb2.Phase.Name(view.phase)).removeprefix("PHASE_").lower().replace("_", " ")


def shows(page: Any, view: Any, pb2: Any) -> None:
    """The page shows this view: round, period, phase, every seat's goods and cards, the towers, who
    stands on every action space."""
    assert page.locator("#round").inner_text() == str(view.round)
    assert page.locator("#period").inner_text() == str(view.period)
    assert page.locator("#phase").inner_text() == _phase(view, pb2)
    assert page.locator(".player").count() == len(view.players)
    for player in view.players:
        panel = page.locator(f'.player[data-seat="{player.seat}"]')
        for good in ("coins", "wood", "stone", "servants", "military", "faith", "victory"):
            shown = panel.locator(f'[data-good="{good}"] .v').inner_text()
            assert shown == str(getattr(player.goods, good)), (player.seat, good)
        for kind in ("territories", "characters", "buildings", "ventures"):
            text = panel.locator(f'[data-cards="{kind}"]').inner_text()
            assert text.startswith(f"{kind} ({len(getattr(player, kind))}):"), text
    empty = sum(1 for card in view.towers if card == 0)
    assert page.locator(".floor").count() == 16
    assert page.locator(".floor.empty").count() == empty
    for space in range(1, 26):  # every space of the board, towers and action spaces alike
        here = [o for o in view.occupants if o.space == space]
        chips = page.locator(f'[data-space="{space}"] .occupant').count()
        assert chips == len(here), (space, chips, here)


def _listed(page: Any) -> list[str]:
    return [
        str(m) for m in page.locator("#match-list .match").evaluate_all("ms => ms.map(m => m.dataset.match)")
    ]


def test_the_page_lists_live_and_finished_matches_with_names(browser: Any, stack: Stack) -> None:
    # A page of one match (newest first): the live match, then "more" asks for the next page
    page, errors = _open(browser, stack.gateway_url + "/?per_page=1")
    page.wait_for_selector(f'#match-list .match[data-match="{stack.live}"]')
    more = page.locator("#more-matches")
    assert _listed(page) == [stack.live] and more.is_visible()
    _shot(page, "list-first-page")
    more.click()
    page.wait_for_selector(f'#match-list .match[data-match="{stack.finished}"]')
    assert _listed(page) == [stack.live, stack.finished]
    page.wait_for_selector("#more-matches", state="hidden")  # the second page was the last
    loads = int(page.locator("#match-list").get_attribute("data-loads"))
    page.locator("#refresh-matches").click()  # the first page again; the second stays shown
    page.wait_for_function(f"() => Number(document.getElementById('match-list').dataset.loads) > {loads}")
    assert _listed(page) == [stack.live, stack.finished] and not more.is_visible()
    live = page.locator(f'#match-list .match[data-match="{stack.live}"]')
    finished = page.locator(f'#match-list .match[data-match="{stack.finished}"]')
    assert (
        live.locator(".badge").inner_text() == "live"
        and finished.locator(".badge").inner_text() == "finished"
    )
    assert live.locator(".who").inner_text() == ", ".join(LIVE_NAMES)
    assert finished.locator(".who").inner_text() == ", ".join(FINISHED_NAMES)
    assert "Lorenzo il Magnifico" in live.inner_text()  # the title from /games
    _shot(page, "list")
    live.click()  # a spectator token from the lobby, all through the gateway
    page.wait_for_selector("#status.live")
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    shows(page, head.view, stack.pb2)
    assert page.locator("#seats .chip").all_inner_texts() == list(LIVE_NAMES)
    assert not errors, errors
    page.close()


def test_the_page_shows_the_public_view_and_follows_commands_live(page: Any, stack: Stack) -> None:
    page.wait_for_selector("#status.live", timeout=WAIT_MS)
    assert page.evaluate("() => window.tabulaSpectator.module !== null")  # the game's own module draws
    assert page.locator("#game-css").get_attribute("href") == "/games/lorenzo/lorenzo.css"
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    shows(page, head.view, stack.pb2)
    rng = Rng(5)
    for n in range(400):  # through the set-up (bonus tiles, leader draft) until members stand on the board
        version = stack.step(rng, n)
        if n % 8 == 7:  # the page keeps up while commands arrive
            _wait_label(page, f"live at version {version} of {version}")
        if len(stack.view().view.occupants) >= 4:
            break
    _wait_label(page, f"live at version {version} of {version}")
    view = stack.view().view
    shows(page, view, stack.pb2)
    assert len(view.occupants) >= 4, "family members stand on the board"
    names = page.locator(".floor:not(.empty) .card").all_inner_texts()
    assert names and not any(name.startswith("card #") for name in names)  # names, not ids
    page.wait_for_function(f"() => document.querySelector('#event-log li')?.dataset.version === '{version}'")
    words = page.locator("#event-log li .t").all_inner_texts()
    assert len(words) > 20
    assert any(w.split(" ")[0] in LIVE_NAMES for w in words), words  # events name the players
    assert any(w.startswith("Dice rolled: black ") for w in words), words
    assert not any("{" in w for w in words), words  # words, not JSON
    _shot(page, "live")


def test_the_replay_slider_and_buttons_show_earlier_states(page: Any, stack: Stack) -> None:
    head = stack.view().version
    _wait_label(page, f"live at version {head} of {head}")
    page.click("#prev")
    _wait_label(page, f"replaying version {head - 1} of {head}")
    assert "replay" in (page.locator("#status").get_attribute("class") or "")
    early = 4
    page.locator("#replay-slider").fill(str(early))
    _wait_label(page, f"replaying version {early} of {head}")
    earlier = stack.replay(early)
    shows(page, earlier.view, stack.pb2)
    assert earlier.view != stack.view().view
    public = sorted(stack.public_versions(early), reverse=True)
    page.wait_for_function(  # the events come on their own stream, not with the replayed view
        "n => document.querySelectorAll('#event-log li').length >= n", arg=len(public), timeout=WAIT_MS
    )
    versions = [
        int(v) for v in page.locator("#event-log li").evaluate_all("ls => ls.map(l => l.dataset.version)")
    ]
    assert versions == public  # the list follows the version shown
    assert versions[0] == early
    assert page.locator("#event-log li.current").get_attribute("data-version") == str(early)
    page.click("#next")
    _wait_label(page, f"replaying version {early + 1} of {head}")
    shows(page, stack.replay(early + 1).view, stack.pb2)
    page.locator('#event-log li[data-version="2"]').click()  # an event of the list shows its version
    _wait_label(page, f"replaying version 2 of {head}")
    new_head = stack.step(Rng(11), 1000)  # while replaying, the head moves but the shown state stays
    _wait_label(page, f"replaying version 2 of {new_head}")
    page.click("#live")
    _wait_label(page, f"live at version {new_head} of {new_head}")
    shows(page, stack.view().view, stack.pb2)


def test_a_short_event_list_reads_the_events_before_a_replayed_version(browser: Any, stack: Stack) -> None:
    """With ?events=8 the list holds the 8 newest events up to the version shown: at the head only the
    newest are read; replaying an early version reads the ones before it (backwards) and lists those."""
    rng, n = Rng(13), 20_000
    while stack.view().version < 60:
        stack.step(rng, n)
        n += 1
    head = stack.view().version
    page, errors = _open(browser, stack.live_url("&events=8"))
    _wait_label(page, f"live at version {head} of {head}")
    public = sorted(stack.public_versions(head), reverse=True)

    def listed() -> list[int]:
        return [
            int(v) for v in page.locator("#event-log li").evaluate_all("ls => ls.map(l => l.dataset.version)")
        ]

    page.wait_for_function("() => document.querySelectorAll('#event-log li').length === 8")
    assert listed() == public[:8]
    early = 20
    page.locator("#replay-slider").fill(str(early))
    _wait_label(page, f"replaying version {early} of {head}")
    wanted = [v for v in public if v <= early][:8]
    page.wait_for_function(
        "v => document.querySelector('#event-log li')?.dataset.version === String(v)", arg=wanted[0]
    )
    page.wait_for_function("n => document.querySelectorAll('#event-log li').length === n", arg=len(wanted))
    assert listed() == wanted
    assert not errors, errors
    page.close()


def test_lorenzo_cards_tiles_and_spaces_have_their_texts_and_the_page_a_legend(
    page: Any, stack: Stack
) -> None:
    """Every card on the towers and in the players' hands, every leader, bonus tile, excommunication
    tile and action space shows its GetContent text (cost and effect) on hover or tap; the
    excommunication tiles read "II/5" with their penalty, not the code "2_5"; a legend says what the
    dice, pawns, values, borders and hatching mean."""
    rng, n = Rng(9), 10_000
    while not any(stack.view().view.towers):
        stack.step(rng, n)  # through the set-up until the towers are filled (when this test runs alone)
        n += 1
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    texts = content(stack)
    cards = {str(c.id): c.text for c in texts.cards}
    towers = {str(space): cards[str(card)] for space, card in enumerate(head.view.towers, start=1) if card}
    assert towers
    for space, text in towers.items():
        assert page.locator(f'.floor[data-space="{space}"] .card').get_attribute("data-tip") == text
    spaces = {str(x.id): x.text for x in texts.spaces if x.kind != stack.pb2.SPACE_KIND_TOWER}
    assert tips(page, "#spaces .space", "space") == spaces
    excommunications = {str(x.id): x for x in texts.excommunications}
    drawn = [str(t) for t in head.view.excommunication_tiles]
    assert drawn and tips(page, "#vatican .tile", "excommunication") == {
        t: excommunications[t].text for t in drawn
    }
    for tile in drawn:
        label = page.locator(f'#vatican [data-excommunication="{tile}"] b').inner_text()
        period, number = excommunications[tile].code.split("_")
        assert label == f"{'I' * int(period)}/{number}", label  # periods I, II, III
    owned = {
        cards[str(c)]
        for p in head.view.players
        for k in ("territories", "characters", "buildings", "ventures")
        for c in getattr(p, k)
    }
    shown = set(
        page.locator(".player [data-cards] .named").evaluate_all("ns => ns.map((n) => n.dataset.tip)")
    )
    assert shown == owned
    bonus = {x.text for x in texts.bonus_tiles if any(p.bonus_tile == x.id for p in head.view.players)}
    assert bonus <= set(page.locator(".player [data-tip]").evaluate_all("ns => ns.map((n) => n.dataset.tip)"))
    words = legend(page)
    assert "black, white, orange" in words and "excommunication tile" in words and "covered" in words
    assert page.evaluate(CUT) == []
    first = next(iter(towers))
    hover_and_tap(page, page.locator(f'.floor[data-space="{first}"] .card'), towers[first])
    _shot(page, "lorenzo-hover-card")
    hover_and_tap(
        page, page.locator(f'#vatican [data-excommunication="{drawn[0]}"]'), excommunications[drawn[0]].text
    )
    _shot(page, "lorenzo-hover-excommunication")
    page.mouse.move(1, 1)


def test_a_finished_match_shows_its_final_scores_with_names(browser: Any, stack: Stack) -> None:
    page, errors = _open(browser, stack.finished_url())
    page.wait_for_selector("#status.finished")
    final = stack.view(stack.finished)
    _wait_label(page, f"final version {final.version}")
    assert page.locator("#outcome h2").inner_text().startswith("Match finished")
    rows = page.locator("#outcome tr").all_inner_texts()[1:]
    by_place = sorted(range(3), key=lambda seat: final.outcome.placings[seat])
    for row, seat in zip(rows, by_place, strict=True):
        cells = row.split("\t")
        assert [c.strip() for c in cells] == [
            str(final.outcome.placings[seat]),
            FINISHED_NAMES[seat],
            str(final.outcome.scores[seat]),
        ]
    breakdown = page.locator("#final-scoring tr").all_inner_texts()[1:]
    assert len(breakdown) == 3 and all(row.split("\t")[0].strip() in FINISHED_NAMES for row in breakdown)
    newest = f"() => document.querySelector('#event-log li')?.dataset.version === '{final.version}'"
    page.wait_for_function(newest)  # the whole history has arrived
    assert page.locator("#event-log li").first.locator(".t").inner_text().startswith("The game ends: ")
    _shot(page, "finished")
    assert not errors, errors
    page.close()


def test_a_game_without_a_module_is_drawn_as_a_tree(browser: Any, stack: Stack) -> None:
    """The shell's fallback: the game list is answered as if the game shipped no module."""
    page = browser.new_page(viewport={"width": 1300, "height": 1200})
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    def no_module(route: Any) -> None:
        games = route.fetch().json()["games"]
        route.fulfill(json={"games": [{**g, "module": False} for g in games]})

    page.route("**/games", no_module)
    page.goto(stack.live_url())
    page.wait_for_selector("#status.live")
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    assert page.locator(".tree").count() == 1 and page.locator(".floor").count() == 0
    assert page.locator('.tree [data-field="round"] b').first.inner_text() == str(head.view.round)
    assert page.locator('.tree [data-field="period"] b').first.inner_text() == str(head.view.period)
    assert page.locator('.tree [data-field="phase"] b').first.inner_text() == stack.pb2.Phase.Name(
        head.view.phase
    )
    seats = page.locator(".tree summary", has_text="players").first.inner_text()
    assert f"({len(head.view.players)})" in seats
    assert not any("/games/lorenzo/" in url for url in requested)  # no module was fetched
    page.wait_for_selector("#event-log li .t")  # the history arrives after the first view
    words = page.locator("#event-log li .t").all_inner_texts()
    assert words and all("{" not in w for w in words[:50]), words  # the generic wording
    assert not errors, errors
    page.close()


# ------------------------------------------------------------------ Florenza
# The same page with Florenza's module (/games/florenza/florenza.js): its own rule service, lobby and
# gateway on a private Redis, matches started through the lobby and played with random legal commands.
FZ_LIVE = ("Ada", "Bruno", "Cosima", "Dante")
FZ_FINISHED = ("Elena", "Fabio")
FZ_CUBES = ("marble", "wood", "metal", "gold", "fabric", "spices")


class FlorenzaStack(Stack):
    GAME = "florenza"


@pytest.fixture(scope="module")
def florenza(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlorenzaStack]:
    yield from _started(tmp_path_factory.mktemp("browser-florenza"), FlorenzaStack, FZ_FINISHED, FZ_LIVE)


def _work_state(spot: Any) -> str:
    return "done" if spot.crest != -1 else "hired" if spot.worker != -1 else "open"


def florenza_shows(page: Any, view: Any, pb2: Any) -> None:
    """The page shows this Florenza view: round, step, every family's tracks, goods, workers and
    building spaces, every art work's state, the bank, and who is under each Life in Florenza card."""
    g = view.game
    assert page.locator("#round").inner_text() == str(g.round)
    assert page.locator("#summary").get_attribute("data-phase") == pb2.Phase.Name(g.phase)
    assert page.locator(".fz-players .player").count() == len(g.players)
    for p in g.players:
        panel = page.locator(f'.fz-players .player[data-seat="{p.seat}"]')
        for stat in ("prestige", "certificates", "church"):
            hidden = stat == "certificates" and p.seat in view.hidden_certificates  # until the end (D24)
            assert panel.locator(f'[data-stat="{stat}"] .v').inner_text() == (
                "?" if hidden else str(getattr(p, stat))
            ), (p.seat, stat)
        assert panel.locator('[data-stat="workers"] .v').inner_text() == f"{p.workers}+{p.reserve}"
        assert panel.locator('[data-good="money"] .v').inner_text() == str(p.goods.money)
        for cube in FZ_CUBES:
            assert panel.locator(f'[data-good="{cube}"] b').inner_text() == str(getattr(p.goods, cube))
        assert panel.locator(".slot.built").count() == sum(1 for x in p.district if x.workshop and x.built)
        assert panel.locator(".slot.planned").count() == sum(
            1 for x in p.district if x.workshop and not x.built
        )
    for spot in g.works:
        if spot.district == -1:
            shown = page.locator(f'.fz-work[data-work="{spot.work}"]').get_attribute("data-state")
        else:
            cls = page.locator(f'.player[data-seat="{spot.district}"] .dwork[data-work="{spot.work}"]')
            shown = (cls.get_attribute("class") or "").split()[-1]
        assert shown == _work_state(spot), (spot.work, spot.district, shown)
    for cube in FZ_CUBES:
        assert page.locator(f'#bank [data-cube="{cube}"] b').inner_text() == str(getattr(g.supply, cube))
    assert page.locator(".life-card li[data-character]").count() == len(g.present)
    for x in g.present:
        assert (
            page.locator(f'.life-card[data-life="{x.card}"] li[data-character="{x.character}"]').count() == 1
        )


def test_florenza_is_drawn_by_its_module_and_follows_commands_live(
    browser: Any, florenza: FlorenzaStack
) -> None:
    page, errors, head = _drawn_by_its_module(browser, florenza)
    florenza_shows(page, head.view, florenza.pb2)
    rng, version = Rng(7), head.version
    for n in range(600):  # the starting workshops, then round 1 until art works are hired and done
        version = florenza.step(rng, n)
        if n % 10 == 9:
            _wait_label(page, f"live at version {version} of {version}")
        g = florenza.view().view.game
        if g.round >= 2 and any(w.crest != -1 for w in g.works) and any(w.worker != -1 for w in g.works):
            break
    _wait_label(page, f"live at version {version} of {version}")
    view = florenza.view().view
    florenza_shows(page, view, florenza.pb2)
    assert any(w.worker != -1 for w in view.game.works), "an artist is hired"
    names = (
        page.locator(".fz-work .work-head b").all_inner_texts()
        + page.locator(".life-card li").all_inner_texts()
    )
    assert names and not any("#" in n for n in names)  # names from the content tables, not ids
    page.wait_for_function(f"() => document.querySelector('#event-log li')?.dataset.version === '{version}'")
    words = page.locator("#event-log li .t").all_inner_texts()
    assert len(words) > 50 and not any("{" in w or "#" in w for w in words), words
    assert any(re.match(rf"({'|'.join(FZ_LIVE)}) hired .+ for .+ \(.+\)$", w) for w in words), words
    assert any(w.startswith("Arrived in Florence: ") for w in words)
    _shot(page, "florenza-live")
    _drawn_one_version_back(page, florenza, florenza_shows, version)
    assert not errors, errors
    page.close()


def test_florenza_works_workshops_and_characters_have_their_texts_and_the_page_a_legend(
    browser: Any, florenza: FlorenzaStack
) -> None:
    """Every art work, workshop (supply and districts), artist, preacher and Life in Florenza card shows
    its GetContent text (cost and effect) on hover or tap; the legend says what P/A/S, the star, the cross
    and the colours mean; no label is cut off."""
    page, errors = _open(browser, florenza.live_url())
    rng, n = Rng(9), 10_000
    while not any(x.workshop for p in florenza.view().view.game.players for x in p.district):
        florenza.step(rng, n)  # the starting workshops (when this test runs alone)
        n += 1
    head = florenza.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    texts = content(florenza)
    works = {str(w.id): w.text for w in texts.works}
    workshops = {str(w.id): w.text for w in texts.workshops}
    people = {str(c.id): c.text for c in [*texts.artists, *texts.preachers]}
    g = head.view.game
    assert tips(page, ".fz-work", "work") == {
        str(w.work): works[str(w.work)] for w in g.works if w.district == -1
    }
    assert tips(page, ".fz-players .dwork", "work") == {
        str(w.work): works[str(w.work)] for w in g.works if w.district != -1
    }
    supply = tips(page, "#workshop-supply .tile", "workshop")
    assert supply and supply == {str(w): workshops[str(w)] for w in g.workshop_supply}
    built = tips(page, ".slot:not(.empty)", "workshop")
    assert built and built == {k: workshops[k] for k in built}
    assert tips(page, ".life-card li[data-character]", "character") == {
        str(x.character): people[str(x.character)] for x in g.present
    }
    life = page.locator(".life-card .numeral").evaluate_all("ns => ns.map((n) => n.dataset.tip)")
    assert life == [x.text for x in texts.life]
    words = legend(page)
    assert all(
        w in words for w in ("P painting", "A architecture", "S sculpture", "prestige", "church influence")
    )
    assert "★" in words and "✝" in words
    assert page.evaluate(CUT) == []
    work = next(w for w in g.works if w.district == -1)
    hover_and_tap(page, page.locator(f'.fz-work[data-work="{work.work}"]'), works[str(work.work)])
    _shot(page, "florenza-hover")
    assert not errors, errors
    page.close()


# Every state the event list passes through, newest first (a MutationObserver on #event-log).
RECORD_LIST = """() => {
  window.listStates = [];
  const log = document.getElementById('event-log');
  const versions = () => [...log.children].map((li) => Number(li.dataset.version));
  new MutationObserver(() => window.listStates.push(versions()))
    .observe(log, { childList: true });
}"""


def test_the_event_list_is_newest_first_and_current_however_slowly_events_come(
    browser: Any, florenza: FlorenzaStack
) -> None:
    """Over a slow network (Chromium's throttling, set once the page has loaded): the list's top line is
    the newest event, marked current, within seconds of the board being drawn, and every state the list
    passes through is a run of the newest events without a gap. (The page used to read the history from
    version 1, so meanwhile it showed the oldest events, or none, below a board at the head.)"""
    final = florenza.view(florenza.finished)
    public = sorted(florenza.public_versions(final.version, florenza.finished), reverse=True)
    shown = 120  # ?events=120: the list's length
    page, errors = _open(browser, f"{florenza.gateway_url}/?events={shown}")
    item = page.locator(f'#match-list .match[data-match="{florenza.finished}"]')
    item.wait_for()
    page.evaluate(RECORD_LIST)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    slow = {"offline": False, "latency": 20, "downloadThroughput": 6000, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", slow)
    item.click()
    page.wait_for_function(f"() => document.body.dataset.rendered === '{final.version}'", timeout=60_000)
    drawn = time.monotonic()
    top = f"() => document.querySelector('#event-log li.current')?.dataset.version === '{public[0]}'"
    page.wait_for_function(top, timeout=60_000)
    assert time.monotonic() - drawn < scaled(5), "the newest event came long after the board"
    assert page.locator("#event-log li").first.get_attribute("data-version") == str(public[0])
    whole = f"() => document.querySelectorAll('#event-log li').length === {min(shown, len(public))}"
    page.wait_for_function(whole, timeout=120_000)
    states = [s for s in page.evaluate("() => window.listStates") if s]
    assert states and all(s == public[: len(s)] for s in states), [s[:5] for s in states]
    assert not errors, errors
    page.close()


def test_a_finished_florenza_match_shows_its_final_scoring_with_names(
    browser: Any, florenza: FlorenzaStack
) -> None:
    _shows_its_final_scoring(browser, florenza, florenza_shows, "#final-scoring", FZ_FINISHED)


# ------------------------------------------------------------------ Trajan
# The same page with Trajan's module (/games/trajan/trajan.js): its own rule service, lobby and gateway on
# a private Redis, matches started through the lobby and played with random legal commands.
TJ_LIVE = ("Ada", "Bruno", "Cosima", "Dante")
TJ_FINISHED = ("Elena", "Fabio")


class TrajanStack(Stack):
    GAME = "trajan"


@pytest.fixture(scope="module")
def trajan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TrajanStack]:
    off = {"TABULA_LIMIT_COMMAND_PLAYER": "off", "TABULA_LIMIT_COMMAND_IP": "off"}  # whole matches, fast
    yield from _started(tmp_path_factory.mktemp("browser-trajan"), TrajanStack, TJ_FINISHED, TJ_LIVE, **off)


def trajan_shows(page: Any, view: Any, pb2: Any) -> None:
    """The page shows this Trajan view: quarter, round and phase, the time marker, every player's VP and
    figures, every bowl's markers and the Trajan tile beside it, the legionnaires and forum tiles of every
    province, the workers and tiles of every construction site, the senate discs, the stacks' tops, the
    ships' sides."""
    assert page.locator("#tj-quarter").inner_text() == f"{view.quarter} of 4"
    assert page.locator("#tj-round").inner_text() == f"{view.round} of 16"
    assert page.locator("#tj-phase").inner_text() == _phase(view, pb2)
    assert page.locator(".tj-time .cell.here").inner_text() in (str(view.time_space), "S")
    assert page.locator(".tj-players .player").count() == len(view.players)
    for p in view.players:
        panel = page.locator(f'.tj-players .player[data-seat="{p.seat}"]')
        assert panel.locator(".pvp").inner_text() == f"{p.vp} VP"
        for stat, value in (("supply", p.supply), ("work-area", p.work_area), ("camp", p.camp)):
            assert panel.locator(f'[data-stat="{stat}"] .v').inner_text() == str(value), (p.seat, stat)
        assert panel.locator('[data-stat="cards"] .v').inner_text() == str(p.hand_size)
        for bowl, (markers, tile) in enumerate(zip(p.bowls, p.slots, strict=True), start=1):
            box = panel.locator(f'.bowl-box[data-bowl="{bowl}"]')
            assert box.locator(".bowl .mk").count() == len(markers.markers), (p.seat, bowl)
            shown = box.locator(".ttile").get_attribute("data-trajan-tile")
            assert shown == (str(tile) if tile else None), (p.seat, bowl, shown, tile)
    for x in view.provinces:
        here = page.locator(f'.prov[data-province="{x.province}"]')
        assert here.locator(".fig").count() == len(x.legionnaires)
        assert here.locator(".ftile").count() == int(x.HasField("tile"))
    for x in view.sites:
        here = page.locator(f'.site[data-site="{x.site}"]')
        assert here.locator(".fig").count() == len(x.workers)
        assert ("taken" in (here.get_attribute("class") or "").split()) == (x.tile == 0)
    for space in range(8):
        discs = page.locator(f'[data-senate="{space}"] .chip').count()
        assert discs == sum(1 for p in view.players if p.senate == space), space
    for stack, s in enumerate(view.trajan_stacks, start=1):
        top = page.locator(f'[data-stack="{stack}"] .ttile').get_attribute("data-trajan-tile")
        assert top == (str(s.top) if s.top else None)
    for ship, yellow in enumerate(view.ships_yellow, start=1):
        side = (page.locator(f'[data-ship="{ship}"]').get_attribute("class") or "").split()[-1]
        assert side == ("yellow" if yellow else "grey")


def test_trajan_is_drawn_by_its_module_and_follows_commands_live(browser: Any, trajan: TrajanStack) -> None:
    page, errors, head = _drawn_by_its_module(browser, trajan)
    trajan_shows(page, head.view, trajan.pb2)
    rng, version = Rng(7), head.version
    # Through the set-up and into the second quarter, until the board fills. Random play alone may end
    # the match before any legionnaire and worker stand on the board (it did, twice), so a command that
    # puts one there is chosen whenever one is legal.
    for n in range(1500):
        version = trajan.step(rng, n, prefer=("deploy_legionnaire", "place_worker"))
        if n % 25 == 24:
            _wait_label(page, f"live at version {version} of {version}")
        v = trajan.view().view
        filled = any(x.legionnaires for x in v.provinces) and any(x.workers for x in v.sites)
        if v.quarter >= 2 and filled and v.phase == trajan.pb2.PHASE_TURNS:
            break
    _wait_label(page, f"live at version {version} of {version}")
    view = trajan.view().view
    trajan_shows(page, view, trajan.pb2)
    assert any(x.legionnaires for x in view.provinces) and any(x.workers for x in view.sites)
    names = (
        page.locator(".prov-head b").all_inner_texts() + page.locator(".site .site-tile").all_inner_texts()
    )
    assert "Britannia" in names and not any("#" in n for n in names)  # names from the content tables
    page.wait_for_function(f"() => document.querySelector('#event-log li')?.dataset.version === '{version}'")
    words = page.locator("#event-log li .t").all_inner_texts()
    assert len(words) > 50 and not any("{" in w or "#" in w for w in words), words
    assert any(
        re.match(rf"({'|'.join(TJ_LIVE)}) sows an? [a-z ]+ marker into bowl [IV]+ \(", w) for w in words
    )
    _shot(page, "trajan-live")
    _drawn_one_version_back(page, trajan, trajan_shows, version)
    assert not errors, errors
    page.close()


def test_trajan_tiles_provinces_and_bowls_have_their_texts_and_the_page_a_legend(
    browser: Any, trajan: TrajanStack
) -> None:
    """Every Trajan tile, forum tile, construction site, province, ship and bowl shows its GetContent text
    on hover or tap; the legend says what the tiles' parts, markers, figures and symbols mean; no label is
    cut off (the tiles' effects used to end in "+2 car...")."""
    page, errors = _open(browser, trajan.live_url())
    rng, n = Rng(9), 10_000
    while not any(tile for p in trajan.view().view.players for tile in p.slots):
        trajan.step(rng, n)  # the set-up's Trajan tiles (when this test runs alone)
        n += 1
    head = trajan.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    texts = content(trajan)
    tiles = tips(page, ".ttile[data-trajan-tile]", "trajanTile")
    assert tiles and tiles == {str(t.id): t.text for t in texts.trajan_tiles if str(t.id) in tiles}
    names = {t: trajan.pb2.ForumTile.Name(t) for t in trajan.pb2.ForumTile.values()}
    forum = {names[x.tile]: x.text for x in texts.forum_tiles}
    shown = tips(page, ".ftile[data-forum]", "forum")
    assert shown and shown == {k: forum[k] for k in shown}
    assert tips(page, ".site", "site") == {
        str(x.site): " ".join(
            [t.text for t in texts.construction_tiles if t.id == x.tile]
            + [s.text for s in texts.sites if s.id == x.site]
        )
        for x in head.view.sites
    }
    provinces = page.locator(".prov[data-province] .prov-head b").evaluate_all(
        "ns => ns.map((n) => n.dataset.tip)"
    )
    assert provinces == [p.text for x in head.view.provinces for p in texts.provinces if p.id == x.province]
    assert tips(page, ".ship", "ship") == {str(s.id): s.text for s in texts.ships}
    bowls = page.locator('.tj-players .player[data-seat="0"] .bowl').evaluate_all(
        "ns => ns.map((n) => n.dataset.tip)"
    )
    assert bowls == [b.text for b in texts.bowls]
    words = legend(page)
    assert all(
        w in words for w in ("Trajan tile", "legionnaire", "leader", "arch", "forum tiles", "yellow side")
    )
    assert page.evaluate(CUT) == []
    tile = page.locator(".tj-players .ttile[data-trajan-tile]").first
    hover_and_tap(page, tile, tiles[str(tile.get_attribute("data-trajan-tile"))])
    _shot(page, "trajan-hover")
    assert not errors, errors
    page.close()


def test_a_finished_trajan_match_shows_its_final_scoring_with_names(
    browser: Any, trajan: TrajanStack
) -> None:
    _shows_its_final_scoring(browser, trajan, trajan_shows, "#tj-final", TJ_FINISHED)
