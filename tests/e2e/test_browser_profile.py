"""The play app's profile screen (/play?profile=) in headless Chromium against the whole stack (`tabula
run`, as test_browser_play.py starts it). The account is made through the gateway (the play app's
sign-up screen is another's); everything after is clicks: the owner changes the avatar and hides
their matches, a guest in another browser sees the name but not the matches, the owner deletes the
account with the password (a wrong one refused in words) and is signed out, and the profile is gone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.e2e.stack_dir import running_stack
from tests.e2e.test_browser_play import _context, _page, _shot, _sign_in
from tests.e2e.test_browser_spectator import CHROMIUM
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
LOBBY = "/tabula.lobby.v1.LobbyService/"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_stack(tmp_path_factory.mktemp("play-profile")) as (_, output):
        found = re.search(r"^gateway\s+(http://\S+?)/", output, re.M)
        assert found, output
        yield found.group(1)


def _call(gateway: str, method: str, request: dict[str, Any], token: str = "") -> requests.Response:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    return requests.post(gateway + LOBBY + method, data=json.dumps(request), headers=headers, timeout=30)


def test_an_account_edits_hides_and_deletes_its_profile(browser: Any, gateway: str) -> None:
    reply = _call(
        gateway, "SignUp", {"email": "ada@example.org", "password": PASSWORD, "displayName": "Ada Lovelace"}
    )
    session = reply.json()["session"]
    kept = {
        "name": session["displayName"],
        "playerId": session["playerId"],
        "token": session["accessToken"],
        "expiresAt": int(session["accessExpiresAt"]),
    }
    owner = _context(browser)
    owner.add_init_script(f"localStorage.setItem('tabula.play.guest', {json.dumps(json.dumps(kept))})")
    page, errors = _page(owner, f"{gateway}/play")
    page.click("#my-profile")
    page.wait_for_selector("#profile-edit")
    assert page.locator("#profile-name").inner_text().strip() == "Ada Lovelace"
    assert page.locator("#profile h2 svg").get_attribute("data-avatar") == "initials"
    page.check('input[name="avatar"][value="teal-triangle"]')
    page.select_option('select[name="visibility"]', "PROFILE_VISIBILITY_NOBODY")
    page.click("#profile-edit button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('#profile h2 svg')?.dataset.avatar === 'teal-triangle'"
    )
    assert page.locator('select[name="visibility"]').input_value() == "PROFILE_VISIBILITY_NOBODY"
    _shot(page, "profile-own")

    other = _context(browser)
    seen, other_errors = _page(other, f"{gateway}/play")
    _sign_in(seen, "Bob")
    seen.goto(f"{gateway}/play?profile={kept['playerId']}")
    seen.wait_for_selector("#profile-hidden")
    assert seen.locator("#profile-name").inner_text().strip() == "Ada Lovelace"
    assert not seen.locator("#profile-edit").count() and not seen.locator("#profile-recent").count()

    page.fill('#profile-delete input[name="password"]', "not the password")
    page.click("#profile-delete button[type=submit]")
    page.wait_for_function(
        "() => /wrong_credentials/.test(document.getElementById('delete-status').textContent)"
    )
    page.fill('#profile-delete input[name="password"]', PASSWORD)
    page.click("#profile-delete button[type=submit]")
    page.wait_for_selector("#sign-in")
    gone = _call(gateway, "GetAccount", {}, kept["token"])
    assert gone.status_code == 401 and gone.json()["code"] == "unauthenticated", gone.text
    seen.reload()
    seen.wait_for_function(
        "() => /could not be read/.test(document.getElementById('profile-status')?.textContent)"
    )
    # the browser logs the refused calls (the wrong password: 400, the deleted profile: 404); nothing else
    unexpected = [e for e in errors + other_errors if not e.startswith("Failed to load resource")]
    assert unexpected == [] and len(errors + other_errors) == 2, (errors, other_errors)
    owner.close()
    other.close()
