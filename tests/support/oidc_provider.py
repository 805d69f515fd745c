"""A real OpenID Connect provider for the tests: ``tests/support/oidc/provider.mjs`` (oidc-provider,
pinned in its package-lock; ``make oidc`` installs it) on a free loopback port, and a browser-less
user who signs in on its development login and consent pages over plain HTTP."""

from __future__ import annotations

import html
import http.cookiejar
import json
import re
import shutil
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent / "oidc"
INSTALLED = HERE / "node_modules" / ".package-lock.json"
_FORM = re.compile(r'<form[^>]*action="([^"]+)"[^>]*>(.*?)</form>', re.DOTALL)
_HIDDEN = re.compile(r'<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"')


def missing() -> str:
    """Why the provider cannot run here ("": it can)."""
    if shutil.which("node") is None:
        return (
            "node not found: the tests' OpenID Connect provider cannot run (Debian: apt-get install nodejs)"
        )
    if not INSTALLED.exists():
        return "tests/support/oidc is not installed: run `make oidc` (npm ci)"
    return ""


@dataclass(frozen=True)
class Client:
    client_id: str
    redirect_uris: list[str]
    client_secret: str = ""

    def registration(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "client_id": self.client_id,
            "redirect_uris": self.redirect_uris,
            "grant_types": ["authorization_code"],
            "response_types": ["code"],
        }
        if self.client_secret:
            found["client_secret"] = self.client_secret
        else:
            found["token_endpoint_auth_method"] = "none"
        return found


@contextmanager
def provider(*clients: Client, port: int = 0) -> Iterator[str]:
    """The provider's issuer URL while it runs (on ``port``; 0: a free one)."""
    registered = json.dumps([c.registration() for c in clients])
    process = subprocess.Popen(
        ["node", str(HERE / "provider.mjs"), registered, str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"the OIDC provider did not start (exit {process.wait(5)})")
        yield str(json.loads(line)["issuer"])
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class User:
    """A person at the provider's pages: a cookie jar, a login name."""

    def __init__(self, login: str) -> None:
        self.login = login
        self.opener = urllib.request.build_opener(
            _NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def authorize(self, authorization_url: str, redirect_uri: str) -> dict[str, str]:
        """Follow the authorization URL, sign in and consent: the query the provider sends back to
        ``redirect_uri`` (``code``, ``state``, ``iss``; or ``error``)."""
        url, form = authorization_url, None
        for _ in range(20):
            data = urllib.parse.urlencode(form).encode() if form is not None else None
            try:
                with self.opener.open(urllib.request.Request(url, data=data), timeout=10) as answer:
                    page = answer.read().decode()
                    status, location = answer.status, answer.headers.get("Location")
            except urllib.error.HTTPError as err:
                page, status, location = err.read().decode(), err.code, err.headers.get("Location")
            if 300 <= status < 400 and location:
                url, form = urllib.parse.urljoin(url, location), None
                if url.startswith(redirect_uri):
                    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
                continue
            found = _FORM.search(page)
            if status != 200 or found is None:
                raise AssertionError(f"unexpected page at {url}: HTTP {status}\n{page[:2000]}")
            action, inner = html.unescape(found.group(1)), found.group(2)
            form = {name: html.unescape(value) for name, value in _HIDDEN.findall(inner)}
            if 'name="login"' in inner:
                form.update(login=self.login, password="anything")
            url = urllib.parse.urljoin(url, action)
        raise AssertionError("the provider's pages did not lead back to the redirect URI")
