"""Accounts in the play app (clients/ts/src/play/account.ts), in headless Chromium against the whole
stack (`tabula run` in a folder of its own, its mail in the folder's .tabula/mail/) and a real
OpenID Connect provider (tests/support/oidc_provider.py) the lobby is configured with. Everything is
a click or a key on the page: the test reads the mail folder, never calls an RPC.

* Sign up, the address not verified, verified with the mailed code; sign out, sign in again, reload:
  still signed in; sign out everywhere.
* A guest kept as an account: the same player, signed in as the account.
* Two tabs whose access token is due: one RefreshSession between them, both stay signed in.
* "Sign in with Test ID": the provider's login and consent pages, back to /play/auth/callback, signed
  in; a second time, the same account; a callback the tab did not start signs nobody in.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.runtime.redis_server import free_port
from tests.e2e.stack_dir import running_stack
from tests.e2e.test_browser_spectator import CHROMIUM, WAIT_MS
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture
from tests.support.oidc_provider import Client, missing, provider

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
PASSWORD = "correct horse battery"
CODE = re.compile(r"^    ([A-Za-z0-9_-]{43})$", re.MULTILINE)
TEXT_HAS = "([id, text]) => (document.getElementById(id)?.textContent || '').includes(text)"
SIGNED_IN = "() => document.body.dataset.screen === 'home' && !!document.getElementById('me')"


class Stack:
    def __init__(self, gateway: str, folder: Path, issuer: str) -> None:
        self.gateway, self.folder, self.issuer = gateway, folder, issuer

    def code(self, to: str) -> str:
        """The code of the latest mail to ``to``."""
        found = sorted((self.folder / ".tabula" / "mail").glob("*.eml"))
        for path in reversed(found):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] == to:
                body = message.get_body()
                assert body is not None
                match = CODE.search(body.get_content())
                assert match, body.get_content()
                return match.group(1)
        raise AssertionError(f"no mail to {to} in {found}")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("play-accounts")
    provider_port = free_port()
    issuer = f"http://127.0.0.1:{provider_port}"
    settings = {
        "TABULA_OIDC_PROVIDERS": "test",
        "TABULA_OIDC_TEST_ISSUER": issuer,
        "TABULA_OIDC_TEST_CLIENT_ID": "tabula",
        "TABULA_OIDC_TEST_CLIENT_SECRET": "a secret of the tests",
        "TABULA_OIDC_TEST_LABEL": "Test ID",
    }
    with running_stack(folder, **({} if missing() else settings)) as (_, output):
        found = re.search(r"^gateway\s+(http://\S+?)/", output, re.M)
        assert found, output
        gateway = found.group(1)
        if missing():  # the password parts run; the provider's test is skipped
            yield Stack(gateway, folder, "")
            return
        client = Client("tabula", [f"{gateway}/play/auth/callback"], "a secret of the tests")
        with provider(client, port=provider_port):
            yield Stack(gateway, folder, issuer)


def _page(context: Any, url: str) -> tuple[Any, list[str]]:
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url)
    return page, errors


def _submit(page: Any, form: str, **values: str) -> None:
    for name, value in values.items():
        page.fill(f'#{form} [name="{name}"]', value)
    page.locator(f'#{form} button[type="submit"]').click()


def _account_panel(page: Any) -> str:
    page.locator("#account").click()
    page.wait_for_selector("#account-panel h2")
    return str(page.locator("#account-panel").inner_text())


def _stored(page: Any) -> Any:
    return json.loads(page.evaluate("() => localStorage.getItem('tabula.play.session') || 'null'"))


def test_sign_up_verify_sign_out_sign_in_and_a_reload_keeps_the_session(browser: Any, stack: Stack) -> None:
    context = browser.new_context()
    page, errors = _page(context, f"{stack.gateway}/play")
    _submit(page, "sign-up", email="ada@example.org", password=PASSWORD, displayName="Ada")
    page.wait_for_function(SIGNED_IN)
    assert page.locator("#me").inner_text() == "Ada"
    assert "ada@example.org: not verified" in _account_panel(page)
    _submit(page, "verify", code=stack.code("ada@example.org"))
    page.wait_for_function(TEXT_HAS, arg=["account-email", ": verified"])
    page.locator("#sign-out").click()
    page.wait_for_selector("#account-sign-in")
    assert _stored(page) is None
    _submit(page, "account-sign-in", email="ada@example.org", password="not the password")
    page.wait_for_function(TEXT_HAS, arg=["account-sign-in-status", "wrong"])
    _submit(page, "account-sign-in", email="ADA@example.org", password=PASSWORD)
    page.wait_for_function(SIGNED_IN)
    page.reload()
    page.wait_for_function(SIGNED_IN)
    assert page.locator("#me").inner_text() == "Ada"
    assert "verified" in _account_panel(page)
    other, _ = _page(context, f"{stack.gateway}/play")  # a second tab shares the session
    other.wait_for_function(SIGNED_IN)
    page.locator("#sign-out-everywhere").click()
    page.wait_for_selector("#account-sign-in")
    other.reload()
    other.wait_for_selector("#account-sign-in")
    refused = "the server responded with a status of 400"  # the wrong password's answer, said on the page
    assert [e for e in errors if refused not in e] == [] and len(errors) <= 1, errors
    context.close()


def test_a_guest_kept_as_an_account_is_the_same_player(browser: Any, stack: Stack) -> None:
    context = browser.new_context()
    page, errors = _page(context, f"{stack.gateway}/play")
    page.fill("#name", "Bea")
    page.locator("#sign-in-button").click()
    page.wait_for_function(SIGNED_IN)
    guest = page.evaluate("() => JSON.parse(localStorage.getItem('tabula.play.guest')).playerId")
    page.locator("#account").click()
    _submit(page, "upgrade", email="bea@example.org", password=PASSWORD)
    page.wait_for_function("() => document.getElementById('account')?.textContent === 'account'")
    assert _stored(page)["playerId"] == guest
    assert "bea@example.org: not verified" in _account_panel(page)
    assert not errors, errors
    context.close()


def test_two_tabs_renew_a_due_access_token_once_and_both_stay_signed_in(browser: Any, stack: Stack) -> None:
    """Both tabs come to the due token at once (each told the session changed): one of them holds the
    lock and renews it; the other, behind it, reads the renewed session and takes it. What must never
    happen is one refresh token spent twice (the second use ends the session everywhere)."""
    context = browser.new_context()
    page, errors = _page(context, f"{stack.gateway}/play")
    _submit(page, "sign-up", email="cleo@example.org", password=PASSWORD, displayName="Cleo")
    page.wait_for_function(SIGNED_IN)
    other, other_errors = _page(context, f"{stack.gateway}/play")
    other.wait_for_function(SIGNED_IN)
    refreshes: list[str] = []  # the refresh token of each RefreshSession sent (a unary call: JSON)
    for tab in (page, other):
        tab.on(
            "request",
            lambda r: (
                refreshes.append(json.loads(r.post_data or "{}").get("refreshToken", ""))
                if r.url.endswith("/RefreshSession")
                else None
            ),
        )
    first = _stored(page)
    due = {**first, "accessExpiresAt": first["accessExpiresAt"] - 14 * 60 - 30}  # due in 30 s: renew now
    page.evaluate("(s) => localStorage.setItem('tabula.play.session', JSON.stringify(s))", due)
    told = "() => dispatchEvent(new StorageEvent('storage', {key: 'tabula.play.session', newValue: 'x'}))"
    for tab in (page, other):
        tab.evaluate(told)
    renewed = "(t) => JSON.parse(localStorage.getItem('tabula.play.session')).refreshToken !== t"
    page.wait_for_function(renewed, arg=first["refreshToken"])
    page.wait_for_timeout(1000)  # time for a second renewal, were there one
    assert refreshes and refreshes[0] == first["refreshToken"], refreshes
    assert len(set(refreshes)) == len(refreshes), "a refresh token spent twice"
    for tab in (page, other):
        assert "cleo@example.org" in _account_panel(tab), "the renewed session works in both tabs"
    assert _stored(page)["refreshToken"] == _stored(other)["refreshToken"] != first["refreshToken"]
    assert not errors and not other_errors, errors + other_errors
    context.close()


def _at_provider(page: Any, login: str) -> None:
    """The provider's development pages: a login form, then a consent form."""
    page.wait_for_selector('input[name="login"]')
    page.fill('input[name="login"]', login)
    page.fill('input[name="password"]', "anything")
    page.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"(/interaction/|/play)"))
    if "/interaction/" in page.url:
        page.locator('button[type="submit"]').click()


@pytest.mark.skipif(bool(missing()), reason=missing() or "the provider runs")
def test_sign_in_with_the_provider_in_the_browser(browser: Any, stack: Stack) -> None:
    players = []
    for _ in range(2):
        context = browser.new_context()
        page, _errors = _page(context, f"{stack.gateway}/play")
        page.locator("#external-test").click()
        page.wait_for_url(f"{stack.issuer}/**")
        _at_provider(page, "dora")
        page.wait_for_function(SIGNED_IN)
        assert page.url == f"{stack.gateway}/play", "the code left the address bar"
        assert page.locator("#me").inner_text() == "dora"
        text = _account_panel(page)
        assert "dora@example.org: verified" in text and "Signs in with test" in text
        players.append(_stored(page)["playerId"])
        context.close()
    assert players[0] == players[1]
    # a callback this tab did not start (a link someone sent) signs nobody in, and says so
    context = browser.new_context()
    page, _errors = _page(context, f"{stack.gateway}/play/auth/callback?state=theirs&code=theirs")
    page.wait_for_function(TEXT_HAS, arg=["external-status", "not started on this page"])
    assert page.url == f"{stack.gateway}/play" and _stored(page) is None
    context.close()
