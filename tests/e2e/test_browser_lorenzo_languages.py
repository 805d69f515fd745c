"""Lorenzo's spectator page in a Chinese and a Portuguese browser: the module draws the board in the
page's language (``ctx.t`` over ``services/lorenzo/locales``), and every component's hover text is
GetContent's text in that language, names and terms from the rulebooks."""

from __future__ import annotations

from typing import Any

import pytest

from shared.core.rng import Rng
from tests.e2e.test_browser_spectator import CUT, WAIT_MS, Stack, browser, legend, stack, tips

__all__ = ["browser", "stack"]  # the fixtures this module uses, from the spectator page's tests

WORDS = {
    "zh-CN": {
        "towers": ["领地", "角色", "建筑", "投资"],
        "players": "玩家",
        "legend": "本轮的骰子",
        "vatican": "梵蒂冈",
    },
    "pt-BR": {
        "towers": ["Territórios", "Personagens", "Construções", "Campanhas"],
        "players": "Jogadores",
        "legend": "os dados desta rodada",
        "vatican": "Vaticano",
    },
}


@pytest.mark.parametrize("locale", ["zh-CN", "pt-BR"])
def test_the_lorenzo_board_is_drawn_in_the_browsers_language(browser: Any, stack: Stack, locale: str) -> None:
    rng, n = Rng(4), 20_000
    while not any(stack.view().view.towers):
        stack.step(rng, n)  # through the set-up until the towers are filled
        n += 1
    head = stack.view()
    context = browser.new_context(locale=locale, viewport={"width": 1500, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(stack.live_url())
    page.wait_for_function(
        "(v) => Number(document.body.dataset.rendered) >= v", arg=head.version, timeout=WAIT_MS
    )
    words = WORDS[locale]
    page.wait_for_function(
        "(t) => document.querySelector('#towers h3')?.textContent === t",
        arg=words["towers"][0],
        timeout=WAIT_MS,
    )
    assert page.locator("#towers h3").all_inner_texts() == words["towers"]
    assert page.locator("section h2").first.inner_text() == words["players"]
    assert page.locator("#vatican h3").inner_text() == words["vatican"]
    assert words["legend"] in legend(page)
    request = stack.pb2.GetContentRequest()
    texts = stack.stub.GetContent(request, metadata=[("accept-language", locale)], timeout=10).content
    cards = {c.id: c.text for c in texts.cards}
    shown = stack.view()
    for space, card in enumerate(shown.view.towers, start=1):
        if card:
            tip = page.locator(f'.floor[data-space="{space}"] .card').get_attribute("data-tip")
            assert tip == cards[card] and tip.split("：" if locale == "zh-CN" else ":")[0], tip
    spaces = {str(x.id): x.text for x in texts.spaces if x.kind != stack.pb2.SPACE_KIND_TOWER}
    assert tips(page, "#spaces .space", "space") == spaces
    assert page.evaluate(CUT) == []  # the longer words of a language cut nothing off
    assert not errors, errors
    context.close()
