"""Chat in the play app (/play), two people in two browser contexts of headless Chromium against the whole
stack (`tabula run`, as test_browser_play.py starts it): they talk in a private room's chat while it
fills, then in the match's players' chat once it started; each line typed in one page appears live in
the other (WatchChat through the gateway), once, and the room's messages stay out of the match's chat.
Everything is typed and clicked on the page: the test never calls an RPC."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_browser_play import _context, _page, _shot, _sign_in
from tests.e2e.test_browser_play import gateway as gateway  # the module's stack fixture
from tests.e2e.test_browser_play import stack as stack  # the gateway's `tabula run`
from tests.e2e.test_browser_spectator import CHROMIUM
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)


def _say(page: Any, panel: str, text: str) -> None:
    page.locator(f'{panel} input[name="chat-text"]').fill(text)
    page.locator(f'{panel} button[name="chat-send"]').click()


def _lines(page: Any, panel: str) -> list[str]:
    return [t.strip() for t in page.locator(f"{panel} .chat-msg .chat-text").all_inner_texts()]


def _sees(page: Any, panel: str, text: str) -> None:
    page.wait_for_selector(f'{panel} .chat-msg .chat-text:text-is("{text}")')


def test_two_players_chat_in_a_room_then_in_its_match(browser: Any, gateway: str) -> None:
    host_context, guest_context = _context(browser), _context(browser)
    host, errors = _page(host_context, f"{gateway}/play")
    _sign_in(host, "Ines")
    form = host.locator('form.new-match[data-game="lorenzo"]')
    form.locator('[name="option-advanced"]').uncheck()
    form.locator('[name="seat-1"]').select_option("open")
    form.locator('[name="create"]').click()
    code = host.locator("#invite-code").inner_text()
    guest, more_errors = _page(guest_context, f"{gateway}/play")
    _sign_in(guest, "Jon")
    guest.fill('#join-form [name="code"]', code)
    guest.locator("#join-form button").click()
    guest.wait_for_selector('#room .room-seat[data-seat="1"] b:text-is("Jon")')

    room = '.chat[data-channel^="room:"]'
    _say(host, room, "hello Jon")
    _sees(guest, room, "hello Jon")
    _say(guest, room, "hi Ines, ready soon")
    _sees(host, room, "hi Ines, ready soon")
    for page in (host, guest):
        assert _lines(page, room) == ["hello Jon", "hi Ines, ready soon"]  # each line once
    assert host.locator(f"{room} .chat-msg.mine .chat-name").all_inner_texts() == ["Ines"]
    _shot(guest, "desktop-room-chat", whole=False)

    guest.locator('#room button[name="SetReady"]').click()
    host.wait_for_selector('#room .room-seat[data-seat="1"] .ready:text-is("ready")')
    host.locator('#room button[name="StartRoom"]').click()
    for page in (host, guest):
        page.wait_for_function(
            "() => document.body.dataset.screen === 'match' && document.body.dataset.rendered"
        )
    players = '.chat[data-channel^="match:"]'
    _say(guest, players, "good luck")
    _sees(host, players, "good luck")
    _say(host, players, "you too")
    _sees(guest, players, "you too")
    for page in (host, guest):
        assert _lines(page, players) == ["good luck", "you too"]  # the room's lines are not the match's
    # a player reads the spectators' chat but writes in the players' own
    assert host.locator('.chat[data-channel^="spectators:"]').count() == 1
    assert not host.locator('.chat[data-channel^="spectators:"] input').count()
    _shot(host, "desktop-match-chat")
    assert not errors and not more_errors, errors + more_errors
    host_context.close()
    guest_context.close()
