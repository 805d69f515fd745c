"""Undo in the play app (/play), in headless Chromium against the whole stack (as
test_browser_play.py runs it): every step is a click on the page, never an RPC.

Two people in a private Lorenzo room (the basic game): the one to act moves, sees *Undo your last
move* (the view says `undoable`), clicks it, and is to act again with the choices they had; the other's
page, live, says in words that the move was taken back. The other never sees the button.
"""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.test_browser_play import READY, _move, _shot, _turn, _two_in_a_room, _version, _wait
from tests.e2e.test_browser_play import browser as browser  # the module's Chromium fixture
from tests.e2e.test_browser_play import gateway as gateway  # the stack
from tests.e2e.test_browser_play import pytestmark as pytestmark  # skipped without Chromium
from tests.e2e.test_browser_play import stack as stack  # the gateway's `tabula run`

SAID = "(t) => [...document.querySelectorAll('#event-log li .t')].some((n) => n.textContent.startsWith(t))"


def test_a_player_takes_back_a_move_by_a_click_and_the_other_sees_it_live(browser: Any, gateway: str) -> None:
    host, guest, errors, more_errors = _two_in_a_room(browser, gateway, "Gina", "Hugo")
    deadline = time.monotonic() + 60
    while not (_turn(host) or _turn(guest)) and time.monotonic() < deadline:  # the round set up first
        time.sleep(0.2)
    mover, other, name = (host, guest, "Gina") if _turn(host) else (guest, host, "Hugo")
    assert mover.locator("#undo-button").count() == 0  # nothing to take back yet
    _wait(mover, READY)
    offered = mover.locator("#picker .options").inner_text()

    assert _move(mover)
    mover.wait_for_selector("#undo-button")
    before = _version(mover)
    assert other.locator("#undo-button").count() == 0
    _shot(mover, "desktop-undo-offered")
    mover.locator("#undo-button").click()
    _wait(mover, "(v) => Number(document.body.dataset.rendered) > v", before)
    _wait(mover, READY)
    assert _turn(mover) and mover.locator("#undo-button").count() == 0
    assert mover.locator("#picker .options").inner_text() == offered  # the choices it had before
    _wait(other, SAID, f"{name} took back a move")
    assert not _turn(other)
    assert not errors and not more_errors, errors + more_errors
    host.context.close()
    guest.context.close()
