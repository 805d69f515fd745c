"""`tabula play` and the spectator page, against the whole stack (`tabula run` in a folder of its own, as
a user runs it; headless Chromium as in test_browser_spectator.py).

* `tabula play --public` starts a public room's match: the page lists it, and the link `tabula play`
  prints opens it.
* `tabula play` (a private room) prints a link carrying the player's seat token in the URL fragment: the
  page reads the match as that seat (every call with that token), also after a reload; the same page
  without the token is refused (a private match), and the page's list does not show it.

The player's input ends at once (stdin empty): the client leaves the match at its first question and the
match waits there, live.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.stack_dir import cli, stack_in
from tests.e2e.test_browser_spectator import CHROMIUM, WAIT_MS, _open, _shot
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
LINK = re.compile(r"Watch it in a browser \(([^)]*)\): (http://\S+)")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from stack_in(tmp_path_factory, "play-link")


def _play(stack: tuple[Path, dict[str, str]], *args: str) -> tuple[str, str, str]:
    """(match id, what the link line says, the link) of a match `tabula play ARGS` started."""
    folder, env = stack
    result = cli(folder, env, "play", "--seats", "2", "--bots", "random", "--name", "Ada", *args)
    out = result.stdout
    assert result.returncode == 2, out[-3000:] + result.stderr[-3000:]  # left at the first question
    match = re.search(r"^Match (\S+): you are Ada", out, re.M)
    link = LINK.search(out)
    assert match and link, out[:3000]
    return match.group(1), link.group(1), link.group(2)


def _listed(page: Any, match_id: str) -> bool:
    page.wait_for_function("() => Number(document.getElementById('match-list').dataset.loads) > 0")
    return bool(page.locator(f'#match-list .match[data-match="{match_id}"]').count())


def test_play_public_starts_a_match_the_page_lists_and_its_link_opens(
    browser: Any, stack: tuple[Path, dict[str, str]]
) -> None:
    match_id, said, link = _play(stack, "--public")
    assert said == "listed on the spectator page" and "#" not in link, link
    gateway = link.split("/?")[0]
    page, errors = _open(browser, gateway + "/")
    # The lobby lists a match once its notice is read; the page reads the list again every 15 s.
    page.wait_for_selector(f'#match-list .match[data-match="{match_id}"]', timeout=WAIT_MS + 15_000)
    assert page.locator(f'#match-list .match[data-match="{match_id}"] .who').inner_text().startswith("Ada")
    page.close()
    page, errors = _open(browser, link)
    page.wait_for_selector("#status.live")
    assert "Ada" in page.locator("#seats .chip").all_inner_texts()
    _shot(page, "play-public")
    assert not errors, errors
    page.close()


def test_play_prints_a_link_that_opens_its_private_match_as_the_players_seat(
    browser: Any, stack: tuple[Path, dict[str, str]]
) -> None:
    match_id, said, link = _play(stack)
    assert said == "your seat's link, for you only", said
    page_url, _, fragment = link.partition("#")
    token = fragment.removeprefix("token=")
    assert token and f"match={match_id}" in page_url

    # Without the seat token the page may not read it, and its list does not show it.
    page, errors = _open(browser, page_url)
    page.wait_for_selector("#status.error")
    assert "PermissionDenied" in page.locator("#status").inner_text()
    assert not _listed(page, match_id)
    page.close()

    page, errors = _open(browser, link)
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.headers.get("authorization", "")) if "/GetView" in r.url else None,
    )
    page.wait_for_selector("#status.live")
    assert "Ada" in page.locator("#seats").inner_text()
    page.reload()  # the link keeps working: the token stays in the fragment
    page.wait_for_selector("#status.live")
    assert page.evaluate("() => location.hash") == f"#token={token}"
    assert sent and all(h == f"Bearer {token}" for h in sent), sent  # read as the seat, every time
    _shot(page, "play-private-seat")
    assert not [e for e in errors if "PermissionDenied" not in e], errors
    page.close()
