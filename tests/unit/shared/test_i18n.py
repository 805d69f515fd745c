"""Locales: negotiation, fallback to English, plurals and the coverage report."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.core.i18n import TextError, Texts, coverage, locale_of, negotiate, placeholders


@pytest.mark.parametrize(
    ("wanted", "locale"),
    [
        (None, "en"),
        ("", "en"),
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt-BR"),
        ("pt-PT", "pt-BR"),
        ("zh_CN.UTF-8", "zh-CN"),
        ("zh-Hans-CN", "zh-CN"),
        ("zh-TW, en;q=0.5", "en"),
        ("fr-FR, pt;q=0.3, zh;q=0.7", "zh-CN"),
        ("zh;q=0, pt-BR;q=0.1", "pt-BR"),
        ("de", "en"),
        ("C.UTF-8", "en"),
        ("en-US", "en"),
        ("pt;q=abc", "en"),
    ],
)
def test_negotiate(wanted: str | None, locale: str) -> None:
    assert negotiate(wanted) == locale


def test_locale_of_metadata() -> None:
    assert locale_of((("x-other", "1"), ("accept-language", "pt-BR"))) == "pt-BR"
    assert locale_of((("accept-language", b"zh-CN"),)) == "zh-CN"
    assert locale_of(None) == "en"


ENGLISH = {
    "greeting": "Hello, {name}",
    "coins.one": "{count} coin",
    "coins.other": "{count} coins",
    "only_en": "English only",
}


def _texts(tmp_path: Path, files: dict[str, str]) -> Texts:
    (tmp_path / "locales").mkdir()
    for locale, body in files.items():
        (tmp_path / "locales" / f"{locale}.yaml").write_text(body, encoding="utf-8")
    return Texts("demo", tmp_path, ENGLISH)


def test_translations_fall_back_to_english(tmp_path: Path) -> None:
    texts = _texts(
        tmp_path,
        {
            "pt-BR": "greeting: 'Olá, {name}'\ncoins.one: '{count} moeda'\ncoins.other: '{count} moedas'\n",
            "zh-CN": "greeting: '你好，{name}'\ncoins.other: '{count} 枚钱币'\n",
        },
    )
    pt, zh, en = texts.catalog("pt-BR"), texts.catalog("zh-CN"), texts.catalog("fr")
    assert pt.text("greeting", name="Ana") == "Olá, Ana"
    assert pt.text("only_en") == "English only"
    assert [pt.plural("coins", n) for n in (1, 2)] == ["1 moeda", "2 moedas"]
    assert [zh.plural("coins", n) for n in (1, 3)] == ["1 枚钱币", "3 枚钱币"]
    assert en.locale == "en" and en.plural("coins", 1) == "1 coin"
    assert en.text("greeting") == "Hello, {name}"  # a value not given stays visible
    assert en.get("card.99.name", "Card 99") == "Card 99"
    with pytest.raises(KeyError):
        en.text("undeclared")


def test_coverage_reports_missing_unknown_and_mismatched(tmp_path: Path) -> None:
    pt = "greeting: 'Olá, {nome}'\ncoins.other: '{count} moedas'\nstale: 'x'\n"
    texts = _texts(tmp_path, {"pt-BR": pt})
    found = coverage(texts, "pt-BR")
    assert (found.translated, found.total) == (2, 4)
    assert found.missing == ("coins.one", "only_en")
    assert found.unknown == ("stale",)
    assert found.mismatched == ("greeting",)
    assert coverage(texts, "en").share == 1.0
    assert placeholders("{a} and {b}") == {"a", "b"}


def test_a_malformed_file_is_refused(tmp_path: Path) -> None:
    texts = _texts(tmp_path, {"zh-CN": "- a list\n- not a mapping\n"})
    with pytest.raises(TextError, match="flat mapping"):
        texts.catalog("zh-CN")
