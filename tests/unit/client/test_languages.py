"""The terminal client's language: ``--lang`` over ``LC_ALL`` over ``LC_MESSAGES`` over ``LANG``
(``shared.core.i18n.negotiate``), its words from ``services/client/locales`` (complete in both
translations, the English placeholders in each), and every call's metadata carrying it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.client import texts
from services.client.render import help_text, prompt_text
from services.client.rpc import auth
from services.client.steps import KIND, Choice, Option, Step
from shared.core.i18n import LOCALES, coverage


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    texts.use("en")


def test_the_locale_comes_from_the_option_else_the_environment() -> None:
    assert texts.locale_from("pt-BR", {"LANG": "zh_CN.UTF-8"}) == "pt-BR"
    assert texts.locale_from("", {"LANG": "zh_CN.UTF-8"}) == "zh-CN"
    assert texts.locale_from("", {"LC_ALL": "pt_BR.UTF-8", "LANG": "zh_CN.UTF-8"}) == "pt-BR"
    assert texts.locale_from("", {"LC_MESSAGES": "pt_BR", "LANG": "en_US.UTF-8"}) == "pt-BR"
    assert texts.locale_from("", {"LC_ALL": "", "LANG": "zh_CN.UTF-8"}) == "zh-CN"  # an empty one is unset
    assert texts.locale_from("", {"LANG": "C.UTF-8"}) == "en"
    assert texts.locale_from("", {"LANG": "zh_TW.UTF-8"}) == "en"  # not Simplified Chinese
    assert texts.locale_from("", {}) == "en"


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
def test_every_word_of_the_client_is_translated_with_its_placeholders(locale: str) -> None:
    found = coverage(texts.TEXTS, locale)
    assert (found.missing, found.unknown, found.mismatched) == ((), (), ())
    assert found.translated == found.total == len(texts.ENGLISH)


def test_the_words_and_every_calls_metadata_follow_the_chosen_locale() -> None:
    step = Step("?", (Option("a", Choice(KIND, "a"), ()), Option("b", Choice(KIND, "b"), ())))
    assert prompt_text(step, True) == "Your choice [1-2, b back, ? help]: "
    assert ("accept-language", "en") in auth("t0ken")
    texts.use("pt-BR")
    assert prompt_text(step, True) == "Sua escolha [1-2, b voltar, ? ajuda]: "
    assert help_text(step, True, False).plain.startswith("Entradas:\n  1-2 ")
    assert auth("t0ken") == (("authorization", "Bearer t0ken"), ("accept-language", "pt-BR"))
    texts.use("zh-CN")
    assert prompt_text(step, False) == "你的选择 [1-2，? 帮助]："
    assert texts.language() == (("accept-language", "zh-CN"),)
