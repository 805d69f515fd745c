"""The play app's leaderboard screen (/play?leaderboard=) in headless Chromium against the whole stack
(`tabula run` with a configured season): the season picker offers the current season and all-time,
choosing one shows that board (its URL names it), and a season the lobby does not have is refused in
words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.stack_dir import running_stack
from tests.e2e.test_browser_play import _context, _page, _shot, _sign_in
from tests.e2e.test_browser_spectator import CHROMIUM
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
SEASON = "2020-01-01"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_stack(tmp_path_factory.mktemp("play-leaderboard"), TABULA_SEASONS=SEASON) as (_, output):
        found = re.search(r"^gateway\s+(http://\S+?)/", output, re.M)
        assert found, output
        yield found.group(1)


def test_the_season_picker_shows_each_season_board(browser: Any, gateway: str) -> None:
    page, errors = _page(_context(browser), f"{gateway}/play")
    _sign_in(page, "Ada")
    page.click("#leaderboards")
    page.wait_for_selector("#season-picker")
    picker = page.locator("#season-picker")
    options = picker.locator("option")
    assert [options.nth(k).inner_text() for k in range(options.count())] == [
        f"{SEASON} (current)",
        "all-time",
    ]
    assert picker.input_value() == SEASON
    game = page.locator("#leaderboard-game").input_value()
    assert page.locator("#leaderboard-status").inner_text().endswith(f", {SEASON} (current)")
    assert page.locator("#leaderboard-empty").count() == 1  # nobody rated yet
    _shot(page, "leaderboard-current")
    picker.select_option("all")
    page.wait_for_function("() => document.querySelector('#season-picker')?.value === 'all'")
    page.wait_for_function(
        "() => document.querySelector('#leaderboard-status')?.textContent.endsWith('all-time')"
    )
    assert page.url.endswith(f"/play?leaderboard={game}&season=all")
    page.goto(f"{gateway}/play?leaderboard={game}&season=2019-q4")
    page.wait_for_function(
        "() => document.querySelector('#leaderboard-status')?.textContent.includes('could not be read')"
    )
    assert "(season_unknown)" in page.locator("#leaderboard-status").inner_text()
    assert not [e for e in errors if "404" not in e], errors  # the refused call's status is logged
