"""The play app (/play) in headless Chromium against the whole stack (`tabula run` in a folder of its own,
as test_browser_play_link.py starts it; Debian's Chromium driven by Playwright, as
test_browser_spectator.py does). Everything the player does is a click or a tap on the page: the test
never calls an RPC.

* Desktop (1400x1000): a guest signs in, creates a basic Lorenzo room against a random bot and plays
  it to the end, the space of every placement by a click on the board, every other step the picker's
  first option; the final scores are shown. Streams end every
  few seconds (the gateway's stream deadline is short), so the events list is built from resumed
  streams: it must equal the list a fresh page reads in one stream. The first command's reply is lost
  on the way back (the request reached the server): the page sends the very same request again and
  the rule service answers it as a duplicate.
* A stale click: a second tab of the same player misses the match moving on (its WatchMatch is cut
  off); its click is refused in words (stale_version) and its board redrawn at the new version.
* Two players in two browsers: a private room joined by its invite code, ready, started; the one who
  waits is told live (a your-turn notice) when the other's move makes it their turn.
* Quick match: the queue fills the table with a bot and the match opens.
* Phone (390x844, touch): for every game, sign-in (the name remembered), a room with bots, a few
  moves by taps, a reload that rejoins the match with the seat kept on the device, and a page that
  needs no sideways scrolling.
* Whole matches against a random bot: Trajan at the desktop (each sowing one choice of order),
  Florenza on a phone, every value the board offers tapped on the board.
* Restarts: the rule service and the gateway SIGKILLed mid-match; a move clicked meanwhile is sent
  again (one command id) until it lands, once.

Screenshots go to ``test-artifacts/play/`` (git-ignored).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis

from shared.runtime.edge import wait
from shared.store.redis_store import RedisEventStore
from tests.e2e.stack_dir import running_stack
from tests.e2e.test_browser_spectator import ARTIFACTS, CHROMIUM, WAIT_MS
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
# every server stream ends this soon, so a match's is cut and resumed; not so soon that a page's
# streams (match, notices, chat) reopen faster than the lobby's and the services' watch rates allow
STREAM_DEADLINE_S = "2.5"
PHONE_MOVES = 4
READY = "() => document.getElementById('picker')?.dataset.ready === '1'"
FINISHED = "() => document.getElementById('match-status')?.textContent === 'finished'"
OPENED = "() => document.body.dataset.screen === 'match' && document.body.dataset.rendered"
# A later version drawn, or a refusal said.
SHOWN_AFTER = (
    "(v) => Number(document.body.dataset.rendered) > v || document.querySelector('#message.refused')"
)
# What the page shows when it does not move on.
SHOWING = """() => ({status: document.getElementById('match-status')?.textContent,
  message: document.getElementById('message')?.textContent,
  picker: document.getElementById('picker')?.innerText, rendered: document.body.dataset.rendered,
  screen: document.getElementById('screen').innerText.slice(0, 300)})"""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`tabula run` for the module: what it printed up to "all services up"."""
    folder = tmp_path_factory.mktemp("play-app")
    with running_stack(folder, TABULA_GATEWAY_STREAM_DEADLINE_S=STREAM_DEADLINE_S) as (_, output):
        yield output


@pytest.fixture(scope="module")
def gateway(stack: str) -> str:
    found = re.search(r"^gateway\s+(http://\S+?)/", stack, re.M)
    assert found, stack
    return found.group(1)


def _context(browser: Any, phone: bool = False) -> Any:
    if phone:
        return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    return browser.new_context(viewport=DESKTOP)


def _page(context: Any, url: str, deaf: bool = False) -> tuple[Any, list[str]]:
    """A page at ``url``; errors collects uncaught errors and console errors. ``deaf``: its WatchMatch
    streams are cut off before they reach the gateway."""
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    if deaf:
        page.route("**/WatchMatch", lambda route: route.abort())
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    return page, errors


def _shot(page: Any, name: str, whole: bool = True) -> None:
    """The whole page, or (``whole`` False) what the screen shows now."""
    folder = ARTIFACTS / "play"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=whole)


def _press(page: Any, target: Any, phone: bool) -> None:
    target.tap() if phone else target.click()


def _sign_in(page: Any, name: str, phone: bool = False) -> None:
    page.wait_for_selector("#sign-in")
    page.fill("#name", name)
    _press(page, page.locator("#sign-in-button"), phone)
    page.wait_for_selector("form.new-match")
    assert page.locator("#me").inner_text() == name


def _create(page: Any, game: str, phone: bool = False) -> str:
    """A room of ``game`` with one random bot (Lorenzo: the basic game), started: the match id."""
    form = page.locator(f'form.new-match[data-game="{game}"]')
    if game == "lorenzo":
        form.locator('[name="option-advanced"]').uncheck()
    _press(page, form.locator('[name="create"]'), phone)
    page.wait_for_function(OPENED)
    return str(page.evaluate("() => new URLSearchParams(location.search).get('match')"))


def _version(page: Any) -> int:
    return int(page.evaluate("() => document.body.dataset.rendered"))


# What the page offers now, read at once: the match over, the question, whether the board has a target
# (and whether it sends), whether the first option sends, the field asked, the options' words, the
# version shown.
OFFER = (
    f"() => ({{finished: ({FINISHED})(),"
    """ question: document.querySelector('#picker .question')?.innerText ?? '',
  target: document.querySelector('#board .pick-target')?.dataset.sends ?? null,
  option: !!document.querySelector('#picker .options button')?.classList.contains('sends'),
  field: document.getElementById('picker')?.dataset.field ?? '',
  labels: [...document.querySelectorAll('#picker .options button')].map((b) => b.textContent),
  version: Number(document.body.dataset.rendered)})"""
)


def _move(
    page: Any,
    phone: bool = False,
    board: list[str] | None = None,
    asked: list[str] | None = None,
    prefer: tuple[str, ...] = (),
) -> bool:
    """The picker's first option, step after step, until a command is sent and the board shows its
    result; False when the match is over. With ``board``, a step the board offers targets for is
    answered by a tap on the board's first target instead (its field added to ``board``); ``asked``
    collects each question answered; an option whose words start with one of ``prefer`` is taken
    before the first."""
    while True:
        _wait(page, f"() => ({READY})() || ({FINISHED})()")
        offer = page.evaluate(OFFER)
        if offer["finished"]:
            return False
        if asked is not None:
            asked.append(offer["question"])
        on_board = board is not None and offer["target"] is not None
        if on_board:
            first = page.locator("#board .pick-target").first
            sends = offer["target"] == "1"
        else:
            labels = offer["labels"]
            chosen = next((n for n, label in enumerate(labels) if prefer and label.startswith(prefer)), 0)
            first = page.locator("#picker .options button").nth(chosen)
            sends = "sends" in (first.get_attribute("class") or "") if chosen else offer["option"]
        before = offer["version"]
        _press(page, first, phone)
        if on_board and board is not None:
            board.append(offer["field"])
        if sends:
            _wait(page, SHOWN_AFTER, before)
            if page.evaluate("() => !!document.querySelector('#message.refused')"):
                raise AssertionError(page.locator("#message").inner_text())
            return True


def _wait(page: Any, condition: str, arg: Any = None) -> None:
    """Wait for ``condition``; when it does not come, fail with what the page shows."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(condition, arg=arg, timeout=60_000)
    except Timeout:
        with contextlib.suppress(Exception):  # a page whose script hangs takes no screenshot
            _shot(page, "did-not-move-on", whole=False)
        raise AssertionError(f"the page did not move on: {page.evaluate(SHOWING)}") from None


def _events(page: Any) -> list[tuple[int, str]]:
    found = page.locator("#event-log li").evaluate_all(
        "(ns) => ns.map((n) => [Number(n.dataset.version), n.querySelector('.t').textContent])"
    )
    return [(int(v), str(t)) for v, t in found]


def _lose_first_reply(page: Any) -> list[tuple[str, Any]]:
    """The first SubmitCommand reaches the server, but its reply never reaches the page (the
    connection resets); later ones pass. Returns (request body, reply) of each, as they go."""
    seen: list[tuple[str, Any]] = []

    def handle(route: Any) -> None:
        body = route.request.post_data
        reply = route.fetch()
        seen.append((body, reply.json()))
        if len(seen) == 1:
            route.abort("connectionreset")
        else:
            route.fulfill(response=reply)
            page.unroute("**/SubmitCommand")

    page.route("**/SubmitCommand", handle)
    return seen


def _two_in_a_room(
    browser: Any, gateway: str, host_name: str, guest_name: str
) -> tuple[Any, Any, list[str], list[str]]:
    """Two people in two browsers: the host creates a private basic Lorenzo room with one open seat,
    the guest joins by its code and says ready, the host starts it; both pages on the match. The two
    pages, and each one's errors (close each with ``page.context.close()``)."""
    host, errors = _page(_context(browser), f"{gateway}/play")
    _sign_in(host, host_name)
    form = host.locator('form.new-match[data-game="lorenzo"]')
    form.locator('[name="option-advanced"]').uncheck()
    form.locator('[name="seat-1"]').select_option("open")
    form.locator('[name="create"]').click()
    code = host.locator("#invite-code").inner_text()
    guest, more = _page(_context(browser), f"{gateway}/play")
    _sign_in(guest, guest_name)
    guest.fill('#join-form [name="code"]', code)
    guest.locator("#join-form button").click()
    guest.locator('#room button[name="SetReady"]').click()
    host.wait_for_selector('#room .room-seat[data-seat="1"] .ready:text-is("ready")')
    host.locator('#room button[name="StartRoom"]').click()
    for page in (host, guest):
        page.wait_for_function(OPENED)
    return host, guest, errors, more


def test_a_whole_match_played_by_clicks_on_the_desktop(browser: Any, gateway: str) -> None:
    context = _context(browser)
    page, errors = _page(context, f"{gateway}/play")
    watches: list[int] = []  # each WatchMatch's fromVersion (its body: a 5-byte envelope head, then JSON)
    page.on(
        "request",
        lambda r: (
            watches.append(int(json.loads(r.post_data_buffer[5:])["fromVersion"]))
            if r.url.endswith("/WatchMatch")
            else None
        ),
    )
    _sign_in(page, "Ada")
    _shot(page, "desktop-home")
    sent = _lose_first_reply(page)
    match_id = _create(page, "lorenzo")
    _wait(page, READY)
    _shot(page, "desktop-match")
    moves, taps = 0, []
    while _move(page, board=taps):  # a member and a space are chosen on the board, the rest in the picker
        moves += 1
    assert moves > 20 and len(taps) > 10 and {"member", "space"} <= set(taps), (moves, taps)

    # The lost reply: the same request (command id and expected version) sent again, applied once.
    assert len(sent) == 2 and sent[0][0] == sent[1][0], sent
    assert sent[0][1]["duplicate"] is False and sent[1][1]["duplicate"] is True, sent

    # The stream brings the last events soon after the view that shows the end.
    newest = "(v) => document.querySelector('#event-log li')?.dataset.version === String(v)"
    page.wait_for_function(newest, arg=_version(page))
    outcome = page.locator("#match-outcome")
    assert outcome.is_visible() and "final scores" in outcome.inner_text()
    assert "Ada (you)" in outcome.inner_text() and "random bot" in outcome.inner_text()
    events = _events(page)
    versions = [v for v, _ in events]
    assert versions == sorted(set(versions), reverse=True), versions[:20]  # newest first, none twice
    assert versions[0] == _version(page) and events[0][1].startswith("The game ends"), events[:3]
    # Streams were cut short and resumed, each from after the last version seen (never back).
    assert len(watches) >= 2 and all(a <= b for a, b in pairwise(watches)), watches
    assert watches[-1] > watches[0], watches
    _shot(page, "desktop-finished")
    _replay_and_export(page, match_id, events)

    # A fresh page reads the same list in one stream; the match stays on the device's list.
    page.reload()
    page.wait_for_function(FINISHED)
    page.wait_for_function("(n) => document.querySelectorAll('#event-log li').length >= n", arg=len(events))
    assert _events(page) == events
    page.goto(f"{gateway}/play")
    page.wait_for_selector(f'#my-matches .my-match.finished[data-match="{match_id}"]')
    assert errors == ["Failed to load resource: net::ERR_CONNECTION_RESET"], errors  # only the reply lost
    context.close()


def _replay_and_export(page: Any, match_id: str, events: list[tuple[int, str]]) -> None:
    """The finished match's replay slider shows the board and the events as they were at a version, its
    steps go one version at a time; the log downloads as JSON with every event of the match."""
    head = _version(page)
    board_at_end = page.locator("#board").inner_text()
    middle = head // 2
    page.locator("#replay-slider").fill(str(middle))
    page.wait_for_function("(v) => document.body.dataset.replayed === String(v)", arg=middle)
    assert page.locator("#replay-label").inner_text() == f"version {middle} of {head}"
    assert page.locator("#board").inner_text() != board_at_end
    assert _events(page) == [e for e in events if e[0] <= middle]
    _shot(page, "desktop-replay", whole=False)
    page.locator("#replay-next").click()
    page.wait_for_function("(v) => document.body.dataset.replayed === String(v)", arg=middle + 1)
    page.locator("#replay-slider").fill(str(head))
    page.wait_for_function("(v) => document.body.dataset.replayed === String(v)", arg=head)
    assert page.locator("#board").inner_text() == board_at_end and _events(page) == events

    with page.expect_download() as download:
        page.locator("#export-log").click()
    assert download.value.suggested_filename == f"lorenzo-{match_id}.json"
    log = json.loads(Path(download.value.path()).read_text())
    assert log["matchId"] == match_id
    versions = [int(e["envelope"]["version"]) for e in log["events"]]
    assert versions == list(range(1, head + 1)), versions[-5:]  # every event, the hidden ones revealed
    assert log["events"][-1]["envelope"]["type"] == "GameEnded", log["events"][-1]["envelope"]


def test_a_stale_click_is_refused_in_words_and_the_board_redrawn(browser: Any, gateway: str) -> None:
    context = _context(browser)
    first, errors = _page(context, f"{gateway}/play")
    _sign_in(first, "Cleo")
    _create(first, "lorenzo")
    _wait(first, READY)
    # The second tab (the same player and seat, from the device) hears nothing of the match moving.
    second, more_errors = _page(context, first.url, deaf=True)
    second.wait_for_function(READY)
    seen = _version(second)
    assert _move(first)
    moved = _version(first)
    assert moved > seen and _version(second) == seen
    while True:  # the second tab's first option, step by step, until it sends
        option = second.locator("#picker .options button").first
        sends = "sends" in (option.get_attribute("class") or "")
        option.click()
        if sends:
            break
    second.wait_for_selector("#message.refused")
    said = second.locator("#message").inner_text()
    assert "moved on" in said and "(stale_version)" in said and "nothing changed" in said, said
    second.wait_for_function("(v) => Number(document.body.dataset.rendered) >= v", arg=moved)
    _shot(second, "desktop-stale-refused")
    assert not errors, errors
    assert not [e for e in more_errors if "WatchMatch" not in e and "Failed to load" not in e], more_errors
    context.close()


@pytest.mark.parametrize("game", ["lorenzo", "trajan", "florenza"])
def test_every_game_on_a_phone_by_taps(browser: Any, gateway: str, game: str) -> None:
    context = _context(browser, phone=True)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Bea", phone=True)
    _shot(page, f"phone-home-{game}", whole=False)
    match_id = _create(page, game, phone=True)
    for _ in range(PHONE_MOVES):
        assert _move(page, phone=True)
    page.wait_for_function(READY)
    assert page.locator("#board").inner_text().strip()  # the game's module drew the board
    assert page.locator("#event-log li").count() > 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#picker").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    _shot(page, f"phone-match-{game}", whole=False)

    # Closing the tab and coming back: the name, the guest and the match's seat are on the device.
    page.close()
    page, more_errors = _page(context, f"{gateway}/play?match={match_id}")
    page.wait_for_function(READY)
    assert page.locator("#me").inner_text() == "Bea"
    assert page.locator("#match-seats .chip.me").inner_text() == "Bea (you)"
    assert _move(page, phone=True)
    assert not errors and not more_errors, errors + more_errors
    context.close()


def test_the_name_is_remembered_after_signing_out(browser: Any, gateway: str) -> None:
    context = _context(browser, phone=True)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Dario", phone=True)
    page.locator("#sign-out").tap()
    page.wait_for_selector("#sign-in")
    assert page.locator("#name").input_value() == "Dario"
    assert not errors, errors
    context.close()


def _turn(page: Any) -> bool:
    return bool(page.locator("#match-status.your-turn").count())


def test_two_players_meet_in_a_room_and_a_your_turn_notice_arrives_live(browser: Any, gateway: str) -> None:
    """Two people in two browsers: a private room, its invite code, ready and start; then the one who
    waits goes to the home screen and is told live when the other's move makes it their turn."""
    host_context, guest_context = _context(browser), _context(browser)
    host, errors = _page(host_context, f"{gateway}/play")
    _sign_in(host, "Gina")
    form = host.locator('form.new-match[data-game="lorenzo"]')
    form.locator('[name="option-advanced"]').uncheck()
    form.locator('[name="seat-1"]').select_option("open")
    form.locator('[name="create"]').click()
    code = host.locator("#invite-code").inner_text()

    guest, more_errors = _page(guest_context, f"{gateway}/play")
    _sign_in(guest, "Hugo")
    guest.fill('#join-form [name="code"]', code)
    guest.locator("#join-form button").click()
    guest.locator('#room button[name="SetReady"]').click()
    host.wait_for_selector('#room .room-seat[data-seat="1"] .ready:text-is("ready")')
    host.locator('#room button[name="StartRoom"]').click()
    for page in (host, guest):  # the guest's room stream carries its seat token: its page opens the match
        page.wait_for_function(OPENED)
    deadline = time.monotonic() + 60  # the system starts the round first
    while not (_turn(host) or _turn(guest)) and time.monotonic() < deadline:
        time.sleep(0.1)
    mover, waiter = (host, guest) if _turn(host) else (guest, host)
    assert _turn(mover) and not _turn(waiter)
    match_id = waiter.evaluate("() => new URLSearchParams(location.search).get('match')")

    waiter.locator("#nav-home").click()
    waiter.wait_for_selector(f'#my-matches .my-match[data-match="{match_id}"]:not(.my-turn)')
    while _turn(mover):
        assert _move(mover)
    waiter.wait_for_selector(".notice.your-turn")
    assert waiter.locator(".notice.your-turn").inner_text().startswith("Your turn in Lorenzo il Magnifico")
    waiter.wait_for_selector(f'#my-matches .my-match.my-turn[data-match="{match_id}"]')
    _shot(waiter, "desktop-your-turn-notice")
    waiter.locator(".notice.your-turn .open").click()
    _wait(waiter, READY)
    assert _turn(waiter) and not waiter.locator(".notice.your-turn").count()
    assert not errors and not more_errors, errors + more_errors
    host_context.close()
    guest_context.close()


def test_quick_match_waits_in_the_queue_until_bots_fill_it(browser: Any, gateway: str) -> None:
    context = _context(browser)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Iris")
    form = page.locator('form.new-match[data-game="lorenzo"]')
    form.locator('[name="option-advanced"]').uncheck()
    form.locator('[name="quick"]').click()
    page.wait_for_selector('#ticket-status:has-text("Waiting in the Lorenzo il Magnifico queue")')
    _wait(page, READY)  # filled with a bot after the wait the form asks for
    assert page.evaluate("() => document.body.dataset.screen") == "match"
    assert page.locator("#match-seats .chip.me").inner_text() == "Iris (you)"
    assert not errors, errors
    context.close()


MY_CLOCK = "#match-seats .seat:has(.chip.me) .clock"


def _left(page: Any) -> tuple[int, bool]:
    """(seconds left, away) on the player's own turn clock: "0:27 left" or "0:04 left · away"."""
    text = page.locator(MY_CLOCK).inner_text()
    found = re.match(r"(\d+):(\d\d) left", text)
    assert found, text
    return int(found.group(1)) * 60 + int(found.group(2)), text.endswith("· away")


def test_a_turn_clock_counts_down_and_a_seat_that_lets_it_run_out_is_marked_away(
    browser: Any, gateway: str
) -> None:
    """A 30-second clock beside the player's chip, counting down; left to run out, a bot plays the
    move and the seat is marked away with a short clock; the player's own move clears the mark."""
    context = _context(browser)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Jan")
    page.locator('form.new-match[data-game="lorenzo"] [name="clock"]').select_option("30")
    _create(page, "lorenzo")
    _wait(page, READY)
    left, away = _left(page)
    assert 20 < left <= 30 and not away, (left, away)
    time.sleep(2.2)
    assert _left(page)[0] < left  # it counts down between two views
    _shot(page, "desktop-turn-clock", whole=False)

    # Let it run out: a bot moves for the seat, which is marked away, its clock short.
    away_turn = f"() => ({READY})() && document.querySelector('{MY_CLOCK}')?.textContent.endsWith('· away')"
    page.wait_for_function(away_turn, timeout=60_000)
    left, away = _left(page)
    assert away and left <= 5, (left, away)
    assert _move(page)  # in time: the player acts, the mark goes
    back = f"() => ({READY})() && !document.querySelector('{MY_CLOCK}')?.textContent.includes('away')"
    page.wait_for_function(back, timeout=60_000)
    assert 20 < _left(page)[0] <= 30
    assert not errors, errors
    context.close()


def test_an_invite_link_opens_the_app_signs_in_and_joins_the_room(browser: Any, gateway: str) -> None:
    """A private room's invite link, opened by someone not yet signed in: sign in, and they sit in it."""
    host_context, guest_context = _context(browser), _context(browser, phone=True)
    host, errors = _page(host_context, f"{gateway}/play")
    _sign_in(host, "Kai")
    form = host.locator('form.new-match[data-game="trajan"]')
    form.locator('[name="seat-1"]').select_option("open")
    form.locator('[name="create"]').click()
    link = host.locator("#invite-link").input_value()
    code = host.locator("#invite-code").inner_text()
    assert link == f"{gateway}/play?invite={code}", link
    _shot(host, "desktop-invite-link", whole=False)

    guest, more_errors = _page(guest_context, link)
    assert "invited to a room" in guest.locator("#sign-in-status").inner_text()
    _sign_in_to(guest, "Lea")
    guest.wait_for_selector('#room .room-seat[data-seat="1"] b:text-is("Lea")')
    assert guest.evaluate("() => document.body.dataset.screen") == "room"
    assert "invite=" not in guest.url and "room=" in guest.url  # the join is not in the history twice
    host.wait_for_selector('#room .room-seat[data-seat="1"] b:text-is("Lea")')
    guest.locator('#room button[name="SetReady"]').tap()
    host.wait_for_selector('#room .room-seat[data-seat="1"] .ready:text-is("ready")')
    host.locator('#room button[name="StartRoom"]').click()
    guest.wait_for_function(OPENED)
    assert guest.locator("#match-seats .chip.me").inner_text() == "Lea (you)"
    assert not errors and not more_errors, errors + more_errors
    host_context.close()
    guest_context.close()


def _sign_in_to(page: Any, name: str) -> None:
    """Sign in where the page goes on to another screen than the home screen (a link it was opened by)."""
    page.fill("#name", name)
    page.locator("#sign-in-button").tap()
    page.wait_for_selector("#me")


SOW = "Which marker goes into the next bowl?"  # Trajan's sowing asked marker by marker
ORDER = "In which order do you sow your markers"  # ... and as one choice of their order


def _whole_match(page: Any, phone: bool, prefer: tuple[str, ...] = ()) -> tuple[int, list[str], list[str]]:
    """Every move by the board's first target or the picker's first option (``prefer``: of those
    kinds first), to the final scores: (moves, the field of each board target tapped, the questions
    answered)."""
    moves, taps, asked = 0, list[str](), list[str]()
    while _move(page, phone=phone, board=taps, asked=asked, prefer=prefer):
        moves += 1
    outcome = page.locator("#match-outcome")
    assert outcome.is_visible() and "final scores" in outcome.inner_text()
    return moves, taps, asked


def test_a_whole_trajan_match_by_clicks_on_the_desktop(browser: Any, gateway: str) -> None:
    """Trajan against a random bot to its end: bowls, stacks, piles, cards in hand and tiles chosen on
    the board where it offers them; each sowing one choice of the markers' order."""
    context = _context(browser)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Mia")
    _create(page, "trajan")
    early: list[str] = []  # the setup's taps: a stack, a pile
    while True:  # up to the first sowing: its question and the player's mat
        _wait(page, READY)
        if page.locator("#picker .question").inner_text().startswith(ORDER):
            break
        assert _move(page, board=early)
    page.evaluate("() => { document.querySelector('.match-layout .column').scrollTop = 0; }")
    page.mouse.move(1, 1)  # no hover text over the mat
    page.wait_for_selector("#tip", state="hidden")
    _shot(page, "desktop-trajan-sowing")
    moves, taps, asked = _whole_match(page, phone=False)
    taps += early
    assert moves > 40 and len(taps) > 20 and {"bowl", "stack", "pile"} <= set(taps), (moves, set(taps))
    orders = [n for n, q in enumerate(asked) if q.startswith(ORDER)]
    assert orders, sorted(set(asked))
    # The order chosen, its markers are sown by the page: no marker is asked after it.
    assert not [n for n in orders if n + 1 < len(asked) and asked[n + 1] == SOW], asked
    assert page.locator("#tj-final").is_visible()
    _shot(page, "desktop-trajan-finished")
    assert not errors, errors
    context.close()


# Florenza's commands that name an artist or a preacher, taken whenever they are offered.
ARTISTS_AND_PREACHERS = ("Hire artist", "Make offering", "Expel preacher", "Withhold artist")


def test_a_whole_florenza_match_by_taps_on_a_phone(browser: Any, gateway: str) -> None:
    """Florenza against a random bot to its end on a phone: workshops, slots, works and artists
    tapped on the board (an artist's or preacher's command taken whenever it is offered)."""
    context = _context(browser, phone=True)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Noa", phone=True)
    _create(page, "florenza", phone=True)
    moves, taps, _ = _whole_match(page, phone=True, prefer=ARTISTS_AND_PREACHERS)
    assert moves > 20 and len(taps) > 10 and {"workshop", "artist"} <= set(taps), (moves, set(taps))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    _shot(page, "phone-florenza-finished", whole=False)
    assert not errors, errors
    context.close()


@pytest.mark.parametrize(("game", "phone"), [("lorenzo", True), ("trajan", True), ("florenza", False)])
def test_a_whole_match_of_each_game_at_its_other_viewport(
    browser: Any, gateway: str, game: str, phone: bool
) -> None:
    """Each game is played to its end at both viewports: the tests above at one, this at the other,
    against a random bot by taps (phone) or clicks (desktop), on the board where it offers a value."""
    context = _context(browser, phone=phone)
    page, errors = _page(context, f"{gateway}/play")
    _sign_in(page, "Lia", phone=phone)
    _create(page, game, phone=phone)
    moves, taps, _ = _whole_match(page, phone=phone)
    assert moves > 20 and len(taps) > 10, (moves, set(taps))
    if phone:
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    _shot(page, f"{'phone' if phone else 'desktop'}-{game}-finished", whole=False)
    assert not errors, errors
    context.close()


def _service(stack: str, name: str) -> psutil.Process:
    """The process of the stack's service ``name`` that listens on its port (`tabula run` printed it)."""
    found = re.search(rf"^{name}\s+.*?127\.0\.0\.1:(\d+)", stack, re.M)
    assert found, stack
    port = int(found.group(1))
    for process in psutil.Process().children(recursive=True):
        try:
            listening = process.net_connections("inet")
            if any(c.laddr.port == port and c.status == psutil.CONN_LISTEN for c in listening):
                return process
        except psutil.Error:
            continue
    raise AssertionError(f"nothing listens on {name}'s port {port}")


def _to_the_sending_click(page: Any) -> Any:
    """The picker's first option, step after step, up to the click that sends: that option."""
    while True:
        _wait(page, READY)
        option = page.locator("#picker .options button").first
        if "sends" in (option.get_attribute("class") or ""):
            return option
        option.click()


def test_a_gateway_and_a_rule_service_restart_mid_match(browser: Any, stack: str, gateway: str) -> None:
    """The rule service, then the gateway, SIGKILLed mid-match (`tabula run` starts each again on its
    port): a move clicked while it is down is sent again with the same command id until it lands,
    once; the board shows it and the match goes on."""
    redis_url = re.search(r"^redis\s+(redis://\S+)", stack, re.M)
    assert redis_url, stack
    store = RedisEventStore(redis.Redis.from_url(redis_url.group(1)))
    context = _context(browser)
    page, errors = _page(context, f"{gateway}/play")
    sent: list[str] = []  # every SubmitCommand's body (JSON)
    page.on(
        "request",
        lambda r: sent.append(r.post_data_buffer.decode()) if r.url.endswith("/SubmitCommand") else None,
    )
    _sign_in(page, "Otto")
    match_id = _create(page, "lorenzo")
    for _ in range(2):
        assert _move(page)
    for name in ("lorenzo", "gateway"):
        process = _service(stack, name)
        click = _to_the_sending_click(page)
        before, first = _version(page), len(sent)
        process.kill()
        process.wait(10)
        click.click()
        page.wait_for_selector("#message:has-text('sending it again')")  # the first try found nobody
        _wait(page, SHOWN_AFTER, before)
        assert not page.locator("#message.refused").count(), page.locator("#message").inner_text()
        assert _service(stack, name).pid != process.pid  # started again
        tries = sent[first:]
        assert len(tries) >= 2 and len(set(tries)) == 1, tries  # the very same request, sent again
        command_id = json.loads(tries[0])["commandId"]
        appends = [e.version for e in wait(store.read(match_id)) if e.command_id == command_id]
        assert appends and appends == list(range(appends[0], appends[0] + len(appends))), appends  # once
        page.wait_for_function("(v) => Number(document.body.dataset.rendered) >= v", arg=appends[-1])
        assert _move(page)  # the match goes on
    assert not [e for e in errors if "Failed to load resource" not in e], errors
    context.close()
