"""``GET /texts/<name>``: a game's words (its manifest's ``texts``) or a registered package's (``play``,
the web app's own) in the locale of ``?lang=`` or else of ``Accept-Language``, English under every
key a translation leaves out; an unknown name is a 404 like the gateway's other routes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from services.gateway.registry import default_areas
from services.gateway.web_words import PLAY
from shared.core.i18n import LOCALES
from shared.runtime.redis_server import free_port
from tests.integration.gateway.support import GatewayThread, gateway
from tests.support.race.texts import TEXTS as RACE_TEXTS

RACE = "tests.support.race.manifest:MANIFEST"  # the test game, with a few words in three languages


@pytest.fixture
def gw(monkeypatch: pytest.MonkeyPatch) -> Iterator[GatewayThread]:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", RACE)
    nowhere = {f"TABULA_{area.upper()}_ADDR": f"127.0.0.1:{free_port()}" for area in default_areas()}
    with gateway(nowhere) as running:  # this route never calls a backend
        yield running


def get(gw: GatewayThread, path: str, **headers: str) -> tuple[int, dict[str, str], Any]:
    async def go() -> tuple[int, dict[str, str], Any]:
        async with aiohttp.ClientSession() as session, session.get(gw.url + path, headers=headers) as reply:
            return reply.status, dict(reply.headers), await reply.json()

    return asyncio.run(go())


def test_a_games_words_in_the_asked_locale_with_english_under_what_is_untranslated(gw: GatewayThread) -> None:
    status, headers, body = get(gw, "/texts/race?lang=pt-BR")
    assert status == 200 and body["locale"] == "pt-BR" and headers["Content-Language"] == "pt-BR"
    assert body["texts"] == {
        "game.title": "Corrida de dados",  # its manifest's words (manifest_texts)
        "game.description": "Role um dado na sua vez e corra até a chegada; um bônus secreto por assento "
        "decide a pontuação final.",
        "game.option.goal": "casa que termina a corrida",
        "game.option_label.goal": "Chegada",
        "web.position": "{seat} está na casa {square}",
        "web.goal": "Chegada: casa {goal}",
        "web.english_only": "Only in English",  # no translation: the English
    }
    status, _, body = get(gw, "/texts/race?lang=zh-CN")
    assert body["locale"] == "zh-CN" and body["texts"]["web.goal"] == "终点：第{goal}格"
    status, _, body = get(gw, "/texts/race")
    assert (status, body) == (200, {"locale": "en", "texts": dict(RACE_TEXTS.english)})


def test_the_locale_comes_from_lang_else_accept_language(gw: GatewayThread) -> None:
    _, headers, body = get(gw, "/texts/race", **{"Accept-Language": "zh-Hans-CN,zh;q=0.9,en;q=0.5"})
    assert body["locale"] == "zh-CN" and "Accept-Language" in headers["Vary"]
    _, _, body = get(gw, "/texts/race?lang=pt-BR", **{"Accept-Language": "zh-CN"})
    assert body["locale"] == "pt-BR"  # the page's own choice wins over the browser's
    _, _, body = get(gw, "/texts/race", **{"Accept-Language": "zh-TW,fr"})
    assert body["locale"] == "en"  # neither is one of ours
    _, _, body = get(gw, "/texts/race?lang=de")
    assert body["locale"] == "en"


def test_the_web_apps_own_words_are_the_registered_play_texts(gw: GatewayThread) -> None:
    for locale in LOCALES:
        status, _, body = get(gw, f"/texts/play?lang={locale}")
        catalog = PLAY.catalog(locale)
        assert status == 200 and body["locale"] == locale
        assert body["texts"] == {key: catalog.template(key) for key in PLAY.english}


def test_an_unknown_name_is_a_404(gw: GatewayThread) -> None:
    status, _, body = get(gw, "/texts/nosuchgame?lang=zh-CN")
    assert (status, body) == (404, {"code": "not_found", "message": "no texts 'nosuchgame'"})


def test_games_say_which_game_has_words(gw: GatewayThread) -> None:
    _, _, body = get(gw, "/games")
    for game in body["games"]:
        status, _, _ = get(gw, f"/texts/{game['name']}")
        assert game["texts"] == (status == 200), game  # the page asks only for those it has
    assert next(g for g in body["games"] if g["name"] == "race")["texts"] is True
