"""What the gateway serves the spectator page about games, all from the registry's manifests: the list
of games, each game's drawing module (``manifest.web``) and content tables (``manifest.content_tables``),
and the backend addresses (areas from ``game_names()``, ports from the manifests)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from services.games import game_names, manifest
from services.gateway.registry import backend_address, default_areas
from shared.runtime.redis_server import free_port
from tests.integration.gateway.support import GatewayThread, gateway

RACE = "tests.support.race.manifest:MANIFEST"  # a registered game with no module, no content tables


@pytest.fixture
def gw(monkeypatch: pytest.MonkeyPatch) -> Iterator[GatewayThread]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", RACE)
    nowhere = {f"TABULA_{area.upper()}_ADDR": f"127.0.0.1:{free_port()}" for area in default_areas()}
    with gateway(nowhere) as running:  # these routes never call a backend
        yield running


def get(gw: GatewayThread, path: str) -> tuple[int, str, bytes]:
    async def go() -> tuple[int, str, bytes]:
        async with aiohttp.ClientSession() as session, session.get(gw.url + path) as reply:
            return reply.status, reply.content_type, await reply.read()

    return asyncio.run(go())


def get_json(gw: GatewayThread, path: str) -> tuple[int, Any]:
    async def go() -> tuple[int, Any]:
        async with aiohttp.ClientSession() as session, session.get(gw.url + path) as reply:
            return reply.status, await reply.json()

    return asyncio.run(go())


def _with_module() -> str:
    """A registered game that ships a spectator module."""
    found = [name for name in game_names() if manifest(name).web is not None]
    assert found, "no registered game has a spectator module"
    return found[0]


def test_games_lists_every_registered_game_with_its_title_and_module(gw: GatewayThread) -> None:
    status, body = get_json(gw, "/games")
    assert status == 200
    listed = {g["name"]: g for g in body["games"]}
    assert list(listed) == game_names() and "race" in listed
    for name, game in listed.items():
        m = manifest(name)
        assert (game["title"], game["minSeats"], game["maxSeats"]) == (m.title, m.min_seats, m.max_seats)
        assert game["module"] == (m.web is not None and (m.web / f"{name}.js").is_file())
        assert game["content"] == (m.content_tables is not None)
    assert listed["race"]["module"] is False and listed["race"]["content"] is False
    assert listed[_with_module()]["module"] is True


def get_games(gw: GatewayThread, path: str, **headers: str) -> tuple[dict[str, str], dict[str, Any]]:
    async def go() -> tuple[dict[str, str], dict[str, Any]]:
        async with aiohttp.ClientSession() as session, session.get(gw.url + path, headers=headers) as reply:
            assert reply.status == 200
            return dict(reply.headers), {g["name"]: g for g in (await reply.json())["games"]}

    return asyncio.run(go())


def test_games_titles_follow_the_accept_language(gw: GatewayThread) -> None:
    """Each title in the asked language from the game's texts (``game.title``), English where the
    language leaves it out; everything else as in English."""
    _, english = get_games(gw, "/games")
    headers, portuguese = get_games(gw, "/games", **{"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.8"})
    assert headers["Content-Language"] == "pt-BR" and "Accept-Language" in headers["Vary"]
    assert portuguese["race"]["title"] == "Corrida de dados" and english["race"]["title"] == "Dice race"
    assert portuguese["lorenzo"]["title"] == "Lorenzo il Magnifico"  # as the Portuguese rulebook prints it
    assert {name: {**g, "title": ""} for name, g in portuguese.items()} == {
        name: {**g, "title": ""} for name, g in english.items()
    }
    _, chinese = get_games(gw, "/games", **{"Accept-Language": "zh-CN"})
    assert (chinese["lorenzo"]["title"], chinese["trajan"]["title"], chinese["florenza"]["title"]) == (
        "伟大的罗伦佐",
        "图拉真",
        "佛罗伦萨",
    )
    assert chinese["race"]["title"] == "Dice race"  # its Chinese leaves the title in English
    _, asked = get_games(gw, "/games?lang=zh-CN", **{"Accept-Language": "pt-BR"})  # ?lang= first
    assert asked["lorenzo"]["title"] == "伟大的罗伦佐"
    headers, other = get_games(gw, "/games", **{"Accept-Language": "fr-FR"})
    assert other == english and headers["Content-Language"] == "en"


def test_a_games_module_and_stylesheet_are_served_from_its_web_folder(gw: GatewayThread) -> None:
    name = _with_module()
    folder = manifest(name).web
    assert folder is not None
    status, kind, body = get(gw, f"/games/{name}/{name}.js")
    assert status == 200 and kind in ("text/javascript", "application/javascript")
    assert body == (folder / f"{name}.js").read_bytes()
    assert b"export function render(" in body  # what the page's shell calls
    status, kind, body = get(gw, f"/games/{name}/{name}.css")
    assert status == 200 and kind == "text/css" and body == (folder / f"{name}.css").read_bytes()


def test_unknown_games_and_missing_files_are_404(gw: GatewayThread) -> None:
    status, body = get_json(gw, "/games/nosuchgame/nosuchgame.js")
    assert status == 404 and body == {"code": "not_found", "message": "no game 'nosuchgame'"}
    status, body = get_json(gw, "/games/race/race.js")  # registered, but without a module
    assert status == 404 and body == {"code": "not_found", "message": "race has no web file 'race.js'"}
    name = _with_module()
    for path in (f"/games/{name}/missing.js", f"/games/{name}/.hidden", f"/games/{name}/..%2Fmanifest.py"):
        status, _, _ = get(gw, path)
        assert status == 404, path


def test_content_serves_the_manifests_tables(gw: GatewayThread) -> None:
    with_tables = [name for name in game_names() if manifest(name).content_tables is not None]
    assert with_tables, "no registered game has content tables"
    for name in with_tables:
        tables = manifest(name).content_tables
        assert tables is not None
        status, body = get_json(gw, f"/content/{name}")
        assert status == 200 and body == tables()
    status, body = get_json(gw, "/content/race")
    assert status == 404 and body == {"code": "not_found", "message": "race has no content tables"}
    status, body = get_json(gw, "/content/nosuchgame")
    assert status == 404 and body == {"code": "not_found", "message": "no game 'nosuchgame'"}


def test_backends_are_the_lobby_and_every_registered_game_at_its_manifests_port(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", RACE)
    assert default_areas() == ["lobby", *game_names()] and "race" in default_areas()
    for name in game_names():
        assert backend_address(name, {}) == f"127.0.0.1:{manifest(name).default_port}"
    assert backend_address("race", {}) == "127.0.0.1:50090"
    assert backend_address("race", {"TABULA_RACE_PORT": "6000"}) == "127.0.0.1:6000"
    assert backend_address("race", {"TABULA_RACE_ADDR": "h:1"}) == "h:1"
    assert backend_address("lobby", {}) == "127.0.0.1:50051"
    assert backend_address("nosuchgame", {}) is None
