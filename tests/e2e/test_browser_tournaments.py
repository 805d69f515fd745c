"""The play app's tournaments screen in headless Chromium against the whole stack (`tabula run`, as
test_browser_play.py starts it), two people in two browser contexts, every step a click: Ivy creates a
Swiss tournament of Lorenzo starting in a few seconds and registers; Jon finds it in the list and
registers; when round 1 starts both screens show it live (no reload): the standings, the table, and the
link to each one's own match, which opens the match with its seat."""

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


def test_two_players_register_and_round_one_opens_their_match(browser: Any, gateway: str) -> None:
    ivy_context, jon_context = _context(browser), _context(browser)
    ivy, errors = _page(ivy_context, f"{gateway}/play")
    _sign_in(ivy, "Ivy")
    jon, more_errors = _page(jon_context, f"{gateway}/play")
    _sign_in(jon, "Jon")

    ivy.locator("#tournaments-link").click()
    ivy.wait_for_selector("#tournament-create")
    form = ivy.locator("#tournament-create")
    form.locator('[name="name"]').fill("Spring Cup")
    form.locator('[name="game"]').select_option("lorenzo")
    form.locator('[name="rounds"]').fill("1")
    form.locator('[name="start"]').fill("0.25")  # 15 s: time for both to register
    form.locator('button[type="submit"]').click()
    ivy.wait_for_selector("#tournament-register")
    assert "Spring Cup" in ivy.locator("#tournament h2").inner_text()
    ivy.locator("#tournament-register").click()
    ivy.wait_for_selector("#tournament-withdraw")
    ivy.wait_for_selector('#tournament-standings tbody tr:has-text("Ivy")')

    jon.locator("#tournaments-link").click()
    jon.locator('#tournament-list .tournament a:text-is("Spring Cup")').click()
    jon.locator("#tournament-register").click()
    jon.wait_for_selector("#tournament-withdraw")
    ivy.wait_for_selector('#tournament-standings tbody tr:has-text("Jon")')  # live on Ivy's screen

    # round 1 starts by itself: both screens show the table and their match without a reload
    for page in (ivy, jon):
        page.wait_for_selector("#tournament-my-match", timeout=60_000)
        table = page.locator("#tournament-tables li").inner_text()
        assert table.startswith("Ivy vs Jon"), table
        assert "round 1 of 1" in page.locator("#tournament-summary").inner_text()
    _shot(jon, "desktop-tournament")
    match_id = jon.locator("#tournament-tables li").get_attribute("data-match")
    jon.locator("#tournament-my-match").click()
    jon.wait_for_url(f"**/play?match={match_id}")
    assert jon.evaluate("document.body.dataset.screen") == "match"
    assert not errors and not more_errors, (errors, more_errors)
    ivy_context.close()
    jon_context.close()
