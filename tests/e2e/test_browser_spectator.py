"""The spectator page in headless Chromium (Debian's, driven by Playwright) against a real stack:
a Lorenzo rule service and the gateway as ``tabula serve`` processes on a private Redis.

The page is a generic shell; Lorenzo's drawing is its module, loaded from /games/lorenzo/lorenzo.js
(the game's ``web`` folder). What the page shows is checked against the rule service's own public
view: live updates arrive as commands are submitted, and the replay slider and buttons show
earlier versions. Without a module (the game list says so) the shell draws the view as a tree.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

from services.cli.run import wait_healthy, wait_http_healthy
from services.games import load_game
from shared.redis_server import RedisServer, free_port, start_redis
from shared.rng import Rng
from shared.tokens import Role, TokenSigner

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SECRET = "browser-test-secret-0123456789"
SIGNER = TokenSigner(SECRET.encode())
MATCH = "spectated"
WAIT_MS = 15_000


@dataclass
class Stack:
    gateway_url: str
    stub: Any
    pb2: Any

    def service(self) -> list[tuple[str, str]]:
        return [("authorization", "Bearer " + SIGNER.issue("lobby", Role.SERVICE))]

    def seat(self, seat: int) -> list[tuple[str, str]]:
        token = SIGNER.issue(f"p{seat}", Role.PLAYER, match_id=MATCH, seat=seat)
        return [("authorization", f"Bearer {token}")]

    def spectator(self) -> list[tuple[str, str]]:
        return [("authorization", "Bearer " + SIGNER.issue("watcher", Role.SPECTATOR, match_id=MATCH))]

    def view(self) -> Any:
        return self.stub.GetView(
            self.pb2.GetViewRequest(match_id=MATCH), metadata=self.spectator(), timeout=10
        )

    def replay(self, version: int) -> Any:
        request = self.pb2.ReplayRequest(match_id=MATCH, version=version)
        return self.stub.Replay(request, metadata=self.spectator(), timeout=10)

    def step(self, rng: Rng, n: int) -> int:
        """Whoever is to act sends a random legal command; returns the new head version."""
        head = self.stub.GetView(self.pb2.GetViewRequest(match_id=MATCH), metadata=self.service(), timeout=10)
        auth = self.service() if head.system_to_act else self.seat(rng.choice(list(head.seats_to_act)))
        mine = self.stub.GetView(self.pb2.GetViewRequest(match_id=MATCH), metadata=auth, timeout=10)
        request = self.pb2.SubmitCommandRequest(
            match_id=MATCH,
            expected_version=mine.version,
            command_id=f"b{n}",
            command=rng.choice(list(mine.legal_commands)),
        )
        last: int = self.stub.SubmitCommand(request, metadata=auth, timeout=10).last_version
        return last


def _serve(name: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "services.cli", "serve", name], env=env, stderr=out)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("browser")
    redis: RedisServer = start_redis()
    lorenzo_port, lobby_port, gateway_port = free_port(), free_port(), free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis.url,
        "TABULA_SECRET": SECRET,
        "TABULA_LORENZO_PORT": str(lorenzo_port),
        "TABULA_GATEWAY_PORT": str(gateway_port),
        "TABULA_LOBBY_PORT": str(lobby_port),
        "TABULA_METRICS_PORT": "-1",
    }
    children = [_serve(name, env, folder / f"{name}.log") for name in ("lorenzo", "lobby", "gateway")]
    channel = grpc.insecure_channel(f"127.0.0.1:{lorenzo_port}")
    try:
        assert wait_healthy(lorenzo_port), (folder / "lorenzo.log").read_text()
        assert wait_healthy(lobby_port), (folder / "lobby.log").read_text()
        assert wait_http_healthy(gateway_port), (folder / "gateway.log").read_text()
        game = load_game("lorenzo")
        stack = Stack(
            f"http://127.0.0.1:{gateway_port}",
            game.modules.pb2_grpc.LorenzoServiceStub(channel),
            game.modules.pb2,
        )
        request = stack.pb2.CreateMatchRequest(match_id=MATCH, seats=3, seed=99)
        stack.stub.CreateMatch(request, metadata=stack.service(), timeout=10)
        yield stack
    finally:
        channel.close()
        for child in reversed(children):  # the gateway first: it ends its watch streams
            child.terminate()
        for child in children:
            child.wait(15)
        redis.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _open(browser: Any, url: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1300, "height": 1200})
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    return page, errors


@pytest.fixture(scope="module")
def page(browser: Any, stack: Stack) -> Iterator[Any]:
    token = SIGNER.issue("watcher", Role.SPECTATOR, match_id=MATCH)
    page, errors = _open(browser, f"{stack.gateway_url}/?match={MATCH}&token={token}")
    yield page
    assert not errors, errors
    page.close()


def _label(page: Any) -> str:
    return str(page.locator("#version-label").inner_text())


def _wait_label(page: Any, text: str) -> None:
    """Wait until the label says ``text`` and the version it names is the one rendered."""
    shown = text.split(" of ")[0].rsplit(" ", 1)[-1]
    page.wait_for_function(
        """([text, shown]) => document.getElementById('version-label').textContent === text
            && document.body.dataset.rendered === shown""",
        arg=[text, shown],
        timeout=WAIT_MS,
    )


def _phase(view: Any, pb2: Any) -> str:
    return str(pb2.Phase.Name(view.phase)).removeprefix("PHASE_").lower().replace("_", " ")


def shows(page: Any, view: Any, pb2: Any) -> None:
    """The page shows this view: round, period, phase, every seat's goods and cards, the towers."""
    assert page.locator("#round").inner_text() == str(view.round)
    assert page.locator("#period").inner_text() == str(view.period)
    assert page.locator("#phase").inner_text() == _phase(view, pb2)
    assert page.locator(".player").count() == len(view.players)
    for player in view.players:
        panel = page.locator(f'.player[data-seat="{player.seat}"]')
        for good in ("coins", "wood", "stone", "servants", "military", "faith", "victory"):
            shown = panel.locator(f'[data-good="{good}"] .v').inner_text()
            assert shown == str(getattr(player.goods, good)), (player.seat, good)
        for kind in ("territories", "characters", "buildings", "ventures"):
            text = panel.locator(f'[data-cards="{kind}"]').inner_text()
            assert text.startswith(f"{kind} ({len(getattr(player, kind))}):"), text
    empty = sum(1 for card in view.towers if card == 0)
    assert page.locator(".floor").count() == 16
    assert page.locator(".floor.empty").count() == empty


def test_the_page_shows_the_public_view_and_follows_commands_live(page: Any, stack: Stack) -> None:
    page.wait_for_selector("#status.live", timeout=WAIT_MS)
    assert page.evaluate("() => window.tabulaSpectator.module !== null")  # the game's own module draws
    assert page.locator("#game-css").get_attribute("href") == "/games/lorenzo/lorenzo.css"
    assert page.locator("#game option:checked").inner_text() == "Lorenzo il Magnifico"  # title from /games
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    shows(page, head.view, stack.pb2)
    rng = Rng(5)
    for n in range(40):
        version = stack.step(rng, n)
        if n % 8 == 7:  # the page keeps up while commands arrive
            _wait_label(page, f"live at version {version} of {version}")
    _wait_label(page, f"live at version {version} of {version}")
    shows(page, stack.view().view, stack.pb2)
    names = page.locator(".floor:not(.empty) .card").all_inner_texts()
    assert names and not any(name.startswith("card #") for name in names)  # names, not ids
    newest = page.locator("#event-log li").first.get_attribute("data-version")
    assert newest is not None and int(newest) <= version and page.locator("#event-log li").count() > 10


def test_the_replay_slider_and_buttons_show_earlier_states(page: Any, stack: Stack) -> None:
    head = stack.view().version
    _wait_label(page, f"live at version {head} of {head}")
    page.click("#prev")
    _wait_label(page, f"replaying version {head - 1} of {head}")
    assert "replay" in (page.locator("#status").get_attribute("class") or "")
    early = 4
    page.locator("#replay-slider").fill(str(early))
    _wait_label(page, f"replaying version {early} of {head}")
    earlier = stack.replay(early)
    shows(page, earlier.view, stack.pb2)
    assert earlier.view != stack.view().view
    page.click("#next")
    _wait_label(page, f"replaying version {early + 1} of {head}")
    shows(page, stack.replay(early + 1).view, stack.pb2)
    new_head = stack.step(Rng(11), 1000)  # while replaying, the head moves but the shown state stays
    _wait_label(page, f"replaying version {early + 1} of {new_head}")
    page.click("#live")
    _wait_label(page, f"live at version {new_head} of {new_head}")
    shows(page, stack.view().view, stack.pb2)


def test_a_match_id_and_a_spectator_token_from_the_lobby_are_enough(browser: Any, stack: Stack) -> None:
    page, errors = _open(browser, stack.gateway_url + "/")
    page.fill("#match-id", MATCH)
    page.click("#lobby-token")  # signs in as a guest and asks the lobby, all through the gateway
    page.wait_for_function("() => document.getElementById('token').value.length > 20")
    page.click("#watch")
    page.wait_for_selector("#status.live")
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    shows(page, head.view, stack.pb2)
    assert not errors, errors
    page.close()


def test_a_game_without_a_module_is_drawn_as_a_tree(browser: Any, stack: Stack) -> None:
    """The shell's fallback: the game list is answered as if the game shipped no module."""
    page = browser.new_page(viewport={"width": 1300, "height": 1200})
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    def no_module(route: Any) -> None:
        games = route.fetch().json()["games"]
        route.fulfill(json={"games": [{**g, "module": False} for g in games]})

    page.route("**/games", no_module)
    token = SIGNER.issue("watcher", Role.SPECTATOR, match_id=MATCH)
    page.goto(f"{stack.gateway_url}/?match={MATCH}&token={token}")
    page.wait_for_selector("#status.live")
    head = stack.view()
    _wait_label(page, f"live at version {head.version} of {head.version}")
    assert page.locator(".tree").count() == 1 and page.locator(".floor").count() == 0
    assert page.locator('.tree [data-field="round"] b').first.inner_text() == str(head.view.round)
    assert page.locator('.tree [data-field="period"] b').first.inner_text() == str(head.view.period)
    assert page.locator('.tree [data-field="phase"] b').first.inner_text() == stack.pb2.Phase.Name(
        head.view.phase
    )
    seats = page.locator(".tree summary", has_text="players").first.inner_text()
    assert f"({len(head.view.players)})" in seats
    assert not any("/games/lorenzo/" in url for url in requested)  # no module was fetched
    assert not errors, errors
    page.close()
