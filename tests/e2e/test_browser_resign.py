"""Resigning in the play app (/play), in headless Chromium against the whole stack (as
test_browser_play.py runs it): every step is a tap or a click on the page, never an RPC.

* Phone (touch): a guest plays a Trajan room against a bot, taps *Resign*, gets the page's own
  confirm (no browser dialog), cancels (nothing changes), then resigns: the only person has resigned,
  so the match ends at once, the bot first; the guest's chip is marked *resigned* and the events say
  so in words.
* Desktop: two people in a private room; one resigns by clicks, and the other's page, live, shows the
  match over, the resigner last and "... resigned" among the events.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.test_browser_play import (
    FINISHED,
    READY,
    _context,
    _create,
    _move,
    _page,
    _press,
    _shot,
    _sign_in,
    _turn,
    _two_in_a_room,
    _version,
    _wait,
)
from tests.e2e.test_browser_play import browser as browser  # the module's Chromium fixture
from tests.e2e.test_browser_play import gateway as gateway  # the stack
from tests.e2e.test_browser_play import pytestmark as pytestmark  # skipped without Chromium
from tests.e2e.test_browser_play import stack as stack  # the gateway's `tabula run`

SAID = "(t) => [...document.querySelectorAll('#event-log li .t')].some((n) => n.textContent === t)"


def _resign(page: Any, phone: bool) -> None:
    """Resign, then confirm on the page."""
    _press(page, page.locator("#resign-open"), phone)
    page.wait_for_selector("#resign-confirm")
    _press(page, page.locator("#resign-confirm"), phone)


def _placings(page: Any) -> list[tuple[str, str]]:
    rows = page.locator("#match-outcome tr").evaluate_all(
        "(rs) => rs.slice(1).map((r) => [r.cells[0].textContent, r.cells[1].textContent])"
    )
    return [(str(place), str(who)) for place, who in rows]


def test_on_a_phone_a_tap_resigns_after_the_page_s_own_confirm(browser: Any, gateway: str) -> None:
    context = _context(browser, phone=True)
    page, errors = _page(context, f"{gateway}/play")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    _sign_in(page, "Ada", phone=True)
    _create(page, "trajan", phone=True)
    assert _move(page, phone=True)
    page.wait_for_function(READY)

    before = _version(page)
    _press(page, page.locator("#resign-open"), True)
    page.wait_for_selector("#resign-confirm")
    assert "cannot be undone" in page.locator("#resign").inner_text()
    _shot(page, "phone-resign-confirm", whole=False)
    _press(page, page.locator("#resign-cancel"), True)  # cancelled: nothing sent
    page.wait_for_selector("#resign-open")
    assert _version(page) == before and not page.evaluate(FINISHED)

    _resign(page, phone=True)
    _wait(page, FINISHED)
    page.wait_for_selector("#match-seats .chip.me ~ .resigned")
    assert page.locator("#resign").inner_text() == "You resigned: a bot plays your seat."
    assert any(text == "Ada (you) resigned" for text in page.locator("#event-log li .t").all_inner_texts())
    assert _placings(page) == [("1", "random bot"), ("2", "Ada (you)")]
    _shot(page, "phone-resigned", whole=False)
    assert not dialogs and not errors, dialogs + errors
    context.close()


def test_two_people_one_resigns_by_clicks_and_the_other_sees_it_live(browser: Any, gateway: str) -> None:
    host, guest, errors, more_errors = _two_in_a_room(browser, gateway, "Gina", "Hugo")
    _wait(host, "() => document.getElementById('match-status')?.textContent !== 'connecting…'")

    _resign(guest, phone=False)  # whoever is to act: a resignation needs no turn
    for page in (guest, host):
        _wait(page, FINISHED)
        page.wait_for_selector('#match-seats [data-seat="1"] .resigned')
    _wait(host, SAID, "Hugo resigned")
    assert _placings(host) == [("1", "Gina (you)"), ("2", "Hugo")]
    assert not _turn(host) and not _turn(guest)
    _shot(host, "desktop-other-resigned")
    assert not errors and not more_errors, errors + more_errors
    host.context.close()
    guest.context.close()
