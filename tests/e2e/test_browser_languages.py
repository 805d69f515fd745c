"""The play app in Chinese and in Portuguese, in headless Chromium against the whole stack (the
fixtures of test_browser_play.py): the language picker switches the page (kept in localStorage
``tabula.lang``), and then the app's own words (services/gateway/web_words.py through /texts/play),
a refusal (its LocalizedMessage: the lobby's words, asked for with the page's accept-language) and
the game module's words (``ctx.t``: the game's TEXTS through /texts/<game>) are in that language."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from services.games import manifest
from services.gateway.web_words import PLAY
from services.lobby.texts import TEXTS as LOBBY
from shared.serving.refusals import game_words
from tests.e2e.test_browser_play import OPENED, _context, _create, _page, _shot
from tests.e2e.test_browser_play import gateway as gateway  # the stack of test_browser_play.py, once here
from tests.e2e.test_browser_play import stack as stack
from tests.e2e.test_browser_spectator import CHROMIUM
from tests.e2e.test_browser_spectator import browser as browser  # the module's Chromium fixture

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium is missing: `make browser` (deploy/setup-browser.sh) apt-get installs it",
)
GAME = "lorenzo"
BAD_CODE = "nope"  # not an invite code: the lobby refuses it (invalid_argument, its length said)


def _ours(locale: str, key: str) -> str:
    return PLAY.catalog(locale).template(key)


def _refusal(locale: str) -> re.Pattern[str]:
    """The lobby's refusal of a malformed invite code in ``locale``, its value a number."""
    keys = [k for k in LOBBY.english if k.startswith("reason.invalid_argument: an invite code is")]
    assert len(keys) == 1, keys
    template = LOBBY.catalog(locale).template(keys[0])
    assert template != LOBBY.english[keys[0]], f"{locale} does not translate {keys[0]}"
    return re.compile(re.escape(template).replace(re.escape("{length}"), r"\d+") + r" \(invalid_argument\)")


def _game_words(gateway: str, locale: str) -> list[str]:
    """The game's module words in ``locale`` without a value to fill (GET /texts/<game>, as the page
    reads them); none while the game declares no TEXTS."""
    games = json.loads(urllib.request.urlopen(f"{gateway}/games").read())["games"]
    if not next(g for g in games if g["name"] == GAME).get("texts"):
        return []
    body = json.loads(urllib.request.urlopen(f"{gateway}/texts/{GAME}?lang={locale}").read())
    assert body["locale"] == locale
    return [text for key, text in body["texts"].items() if key.startswith("web.") and "{" not in text]


@pytest.mark.parametrize(("locale", "label"), [("zh-CN", "中文"), ("pt-BR", "Português")])
def test_the_play_app_switched_to_a_language(browser: Any, gateway: str, locale: str, label: str) -> None:
    context = _context(browser)
    page, errors = _page(context, f"{gateway}/play")
    page.wait_for_selector("#sign-in")
    assert page.locator("#sign-in h2").inner_text() == _ours("en", "main.guest_title")  # Chromium's en-US

    page.locator("#language").select_option(label=label)  # the page loads again in it
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=locale)
    page.wait_for_selector("#sign-in")
    assert page.evaluate("() => localStorage.getItem('tabula.lang')") == locale
    assert page.locator("#sign-in h2").inner_text() == _ours(locale, "main.guest_title")
    assert page.locator("#nav-home").inner_text() == _ours(locale, "page.nav_home")
    assert page.title() == _ours(locale, "main.page_title")

    page.fill("#name", "Ada")
    page.locator("#sign-in-button").click()
    page.wait_for_selector("form.new-match")
    assert _ours(locale, "home.my_matches") in page.locator("section.mine h2").inner_text()
    assert page.locator(f'form.new-match[data-game="{GAME}"] [name="quick"]').inner_text() == _ours(
        locale, "home.quick_match"
    )
    # The game's title, description and options' labels and descriptions (GET /games, ListGames) in it too.
    words = game_words(manifest(GAME), locale)
    card = page.locator(f'article.game[data-game="{GAME}"]')
    assert card.locator("h3").inner_text() == words.title
    assert card.locator("details.about p").text_content() == words.description
    helps = card.locator("label.option small.help").all_text_contents()
    english = [o.description for o in manifest(GAME).match_options]
    assert helps == list(words.options.values()) and helps != english
    labels = card.locator("label.option span.option-label").all_text_contents()
    shown = [o.shown for o in manifest(GAME).match_options]
    assert labels == list(words.labels.values()) and labels != shown
    expected = {"zh-CN": ["进阶规则", "允许撤回"], "pt-BR": ["Regras Avançadas", "Desfazer jogadas"]}
    assert labels == expected[locale]

    # A refusal in the page's language: the lobby's LocalizedMessage, with its reason code.
    page.fill('#join-form [name="code"]', BAD_CODE)
    page.locator('#join-form button[type="submit"]').click()
    page.wait_for_function("() => document.querySelector('#join-form .status-line.error')")
    said = page.locator("#join-form .status-line").inner_text()
    assert _refusal(locale).fullmatch(said), said

    # A match: the app's chrome and the game module's words.
    _create(page, GAME)
    page.wait_for_function(OPENED)
    assert page.locator(".events h2").inner_text().startswith(_ours(locale, "match.events"))
    status = page.locator("#match-status").inner_text()
    waiting = _ours(locale, "match.waiting_for").split("{")[0]
    assert status == _ours(locale, "match.your_turn") or status.startswith(waiting), status
    shown = page.locator("#screen").inner_text()
    words = _game_words(gateway, locale)
    if words:  # the game's TEXTS: its module words the board, legend and picker through ctx.t
        assert any(w in shown for w in words), shown[:3000]
    else:  # no words yet: the module's ctx.t answers keys, and the page still draws
        assert page.locator("#board").inner_text().strip()

    # The tournaments screen: its words, and the lobby's refusal of a Swiss tournament of 21 rounds.
    page.locator("#tournaments-link").click()
    page.wait_for_selector("#tournament-create")
    assert page.locator("#screen h2").first.inner_text() == _ours(locale, "tournament.title")
    form = page.locator("#tournament-create")
    swiss = form.locator('[name="format"] option[value="TOURNAMENT_FORMAT_SWISS"]').inner_text()
    assert swiss == _ours(locale, "tournament.format.swiss") != _ours("en", "tournament.format.swiss")
    form.locator('[name="game"]').select_option(GAME)
    form.locator('[name="rounds"]').fill("21")
    form.locator('button[type="submit"]').click()
    page.wait_for_function(
        "() => /tournament_rounds/.test(document.querySelector('#tournament-create-status').textContent)"
    )
    said = page.locator("#tournament-create-status").inner_text()
    key = "reason.tournament_rounds: a Swiss tournament has 1 to {most} rounds, not {rounds}"
    assert LOBBY.catalog(locale).text(key, most=20, rounds=21) in said, said
    _shot(page, f"languages-{locale}")
    refused = "Failed to load resource: the server responded with a status of 400 ()"  # the bad code's
    assert [e for e in errors if e != refused] == [], errors
    context.close()
