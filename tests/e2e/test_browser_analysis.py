"""The analysis of a finished match in the play app's replay (/play), in headless Chromium against the
whole stack (`tabula run`, as test_browser_play.py runs it): every step is a click on the page.

A Lorenzo match (the basic game) against a random bot is played to its end by clicks; *Analyse my
moves* asks the lobby to rate the player's seat; the worker of `tabula run` (its default queues take
the `analysis` one) rates every decision, and the page shows a bar per move as they come, each saying
in words what was played and what the best move found was. A click on a bar moves the replay there.
"""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.test_browser_play import _context, _create, _page, _shot, _sign_in, _whole_match
from tests.e2e.test_browser_play import browser as browser  # the module's Chromium fixture
from tests.e2e.test_browser_play import gateway as gateway  # the stack
from tests.e2e.test_browser_play import pytestmark as pytestmark  # skipped without Chromium
from tests.e2e.test_browser_play import stack as stack  # the gateway's `tabula run`

DONE = "() => document.getElementById('analysis')?.dataset.status === 'done'"


def test_the_replay_shows_a_bar_per_analysed_move(browser: Any, gateway: str) -> None:
    page, errors = _page(_context(browser), f"{gateway}/play")
    _sign_in(page, "Ada")
    _create(page, "lorenzo")
    _whole_match(page, phone=False)
    button = page.locator("#analyze-button")
    assert button.is_visible() and page.locator("#analysis .analysis-bar").count() == 0
    button.click()
    page.wait_for_function(DONE, timeout=300_000)
    said = page.locator("#analysis-status").inner_text()
    found = re.fullmatch(r"done: (\d+) of (\d+) moves rated", said)
    assert found and found.group(1) == found.group(2), said
    bars = page.locator("#analysis .analysis-bar")
    assert bars.count() == int(found.group(1)) > 0
    titles = [bars.nth(i).get_attribute("title") or "" for i in range(bars.count())]
    assert all(re.match(r"v\d+: ", t) for t in titles), titles[:3]
    assert any("best was" in t or "the best move found" in t for t in titles), titles[:5]
    assert not button.is_visible()  # done: nothing more to ask
    _shot(page, "desktop-analysis", whole=False)
    target = bars.nth(bars.count() // 2)
    version = int(target.get_attribute("data-version") or "0")
    target.click()
    page.wait_for_function("(v) => document.body.dataset.replayed === String(v)", arg=version)
    assert not errors, errors
    page.context.close()
