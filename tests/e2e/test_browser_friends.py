"""The play app's friends panel in headless Chromium against the whole stack (`tabula run` in a folder of
its own, as test_browser_play.py starts it), two people in two browser contexts, every step a click:

* Ivy asks Jon by the player id his panel shows; Jon's panel shows the request live (a notice), he
  accepts; Ivy's panel shows Jon as a friend, online, without a reload.
* Ivy opens a room with an open seat: her panel offers to invite Jon there; Jon is told live and
  joins by the notice's link.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_browser_play import _context, _page, _shot, _sign_in
from tests.e2e.test_browser_play import gateway as gateway  # the module's stack
from tests.e2e.test_browser_play import stack as stack  # the gateway's `tabula run`
from tests.e2e.test_browser_spectator import CHROMIUM
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)


def test_a_request_is_seen_live_accepted_and_the_friend_shows_online_and_invitable(
    browser: Any, gateway: str
) -> None:
    ivy_context, jon_context = _context(browser), _context(browser)
    ivy, errors = _page(ivy_context, f"{gateway}/play")
    _sign_in(ivy, "Ivy")
    jon, more_errors = _page(jon_context, f"{gateway}/play")
    _sign_in(jon, "Jon")
    ivy_id = ivy.locator("#my-player-id").inner_text()
    jon_id = jon.locator("#my-player-id").inner_text()

    # Ivy asks Jon by his player id; Jon sees it live, with a notice, and accepts.
    ivy.fill('#friend-add [name="friend"]', jon_id)
    ivy.locator("#friend-add button").click()
    ivy.wait_for_selector(f'#friend-outgoing .friend[data-player="{jon_id}"]')
    jon.wait_for_selector(f'#friend-requests .friend[data-player="{ivy_id}"]')
    assert "Ivy asks to be your friend" in jon.locator("#notices").inner_text()
    jon.locator(f'#friend-requests .friend[data-player="{ivy_id}"] button[name="accept"]').click()

    # Ivy's panel shows Jon as a friend, online, without a reload (the accepted notice).
    friend = ivy.locator(f'#friend-list .friend[data-player="{jon_id}"][data-online="1"]')
    friend.wait_for()
    assert friend.locator(".presence").inner_text() == "online"
    assert not ivy.locator("#friend-outgoing .friend").count()
    jon.wait_for_selector(f'#friend-list .friend[data-player="{ivy_id}"][data-online="1"]')
    _shot(ivy, "desktop-friends")

    # Ivy's room with an open seat: her panel invites Jon, who is told live and joins by the link.
    form = ivy.locator('form.new-match[data-game="lorenzo"]')
    form.locator('[name="seat-1"]').select_option("open")
    form.locator('[name="create"]').click()
    ivy.wait_for_selector("#invite-code")
    friend.locator('button[name="invite"]').click()
    ivy.wait_for_selector('#friends-status:text-is("Jon is invited")')
    jon.wait_for_selector(".notice.invited")
    invited = jon.locator(".notice.invited").inner_text()
    assert invited.startswith("Ivy invites you to a Lorenzo il Magnifico room"), invited
    jon.locator(".notice.invited .open").click()
    ivy.wait_for_selector('#room .room-seat[data-seat="1"] b:text-is("Jon")')
    assert not errors and not more_errors, (errors, more_errors)
    ivy_context.close()
    jon_context.close()
