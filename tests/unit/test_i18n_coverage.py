"""Every package's translations: no key the English lacks, the English placeholders in every
translation, every template fills in every language; and ``tabula i18n`` reports the same.

The texts are every registered ``Texts`` (the platform's, the lobby's, ...) and every game's
``TEXTS`` (its manifest's ``texts``); each locale's coverage is printed (``pytest -s``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from services.cli.i18n import all_texts
from services.cli.main import app
from services.games import GAMES
from shared.core import i18n
from shared.core.i18n import DEFAULT, LOCALES, Texts, coverage, placeholders
from shared.core.manifest import GameManifest, manifest_texts, option_texts
from shared.core.undo import PLATFORM_OPTIONS
from shared.serving.refusals import PLATFORM_TEXTS, game_texts, game_words

TRANSLATED = [locale for locale in LOCALES if locale != DEFAULT]
TEXTS = all_texts()


def test_the_platform_and_the_lobby_have_texts() -> None:
    names = [t.name for t in TEXTS]
    assert {"platform", "lobby"} <= set(names)
    assert len(names) == len(set(names)), names


@pytest.mark.parametrize("texts", TEXTS, ids=lambda t: t.name)
def test_no_unknown_key_and_the_english_placeholders_in_every_language(texts: Texts) -> None:
    assert texts.english, f"{texts.name} declares no English"
    for locale in TRANSLATED:
        report = coverage(texts, locale)
        print(f"{texts.name} {locale}: {report.translated}/{report.total} ({report.share:.0%})")
        assert report.unknown == (), f"{texts.name} {locale}: keys the English does not declare"
        assert report.mismatched == (), f"{texts.name} {locale}: placeholders unlike the English"


@pytest.mark.parametrize("texts", TEXTS, ids=lambda t: t.name)
def test_every_template_with_placeholders_fills_in_every_language(texts: Texts) -> None:
    for key, english in texts.english.items():
        names = sorted(placeholders(english))
        if not names:
            continue
        values = {name: 101 + i for i, name in enumerate(names)}  # numbers suit every format spec
        for locale in LOCALES:
            text = texts.catalog(locale).text(key, **values)
            for name, value in values.items():
                assert str(value) in text, (
                    f"{texts.name} {locale} {key!r}: {{{name}}} is not filled: {text!r}"
                )
            assert "{" not in text.replace("{{", ""), f"{texts.name} {locale} {key!r}: {text!r}"


@pytest.mark.parametrize("game", GAMES, ids=lambda m: m.name)
def test_a_games_texts_word_its_manifest_and_translate_its_title(game: GameManifest) -> None:
    """Its title, description and options' descriptions and labels are among its texts, as the manifest
    declares them, and each language translates its title and its own options' labels: what the game
    lists, ListGames and tabula games show."""
    texts = game_texts(game)
    assert texts is not None
    declared = manifest_texts(game)
    assert {key: texts.english.get(key) for key in declared} == declared
    assert {"game.title", "game.description"} <= declared.keys()
    for locale in TRANSLATED:
        assert "game.title" in texts.translations(locale), (game.name, locale)
        words = game_words(game, locale)
        assert words.options.keys() == words.labels.keys() == {o.name for o in game.match_options}
        assert all(words.labels[o.name] != o.shown for o in game.options), (game.name, locale)
        assert words.description != game.description, (game.name, locale)


def test_the_platform_words_its_own_options() -> None:
    declared = option_texts(PLATFORM_OPTIONS)
    assert declared and {key: PLATFORM_TEXTS.english.get(key) for key in declared} == declared
    for locale in TRANSLATED:
        assert declared.keys() <= PLATFORM_TEXTS.translations(locale).keys(), locale


def test_the_platform_and_the_lobby_translate_every_refusal_they_word() -> None:
    for texts in TEXTS:
        if texts.name in ("platform", "lobby"):
            for locale in TRANSLATED:
                assert coverage(texts, locale).missing == (), (texts.name, locale)


# ---------------------------------------------------------------- tabula i18n


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Texts:
    """A registered package whose Chinese has an unknown key and a wrong placeholder, and whose
    Portuguese leaves one key out."""
    english = {"greet": "hello {name}", "bye": "goodbye", "count": "{count} stones"}
    (tmp_path / "locales").mkdir()
    zh = {"greet": "你好 {who}", "bye": "再见", "count": "{count} 颗石子", "ghost": "幽灵"}
    pt = {"greet": "olá {name}", "count": "{count} pedras"}
    for locale, texts in (("zh-CN", zh), ("pt-BR", pt)):
        (tmp_path / "locales" / f"{locale}.yaml").write_text(
            yaml.safe_dump(texts, allow_unicode=True), "utf-8"
        )
    found = Texts("broken", tmp_path, english)
    monkeypatch.setitem(i18n._REGISTERED, "broken", lambda: found)
    return found


def test_the_command_reports_coverage_and_fails_the_check_on_a_broken_file(broken: Texts) -> None:
    runner = CliRunner()
    report = runner.invoke(app, ["i18n", "--name", "broken"])
    assert report.exit_code == 0, report.output
    rows = [line.split() for line in report.output.splitlines()]
    assert ["broken", "zh-CN", "3/3", "100%"] in rows and ["broken", "pt-BR", "2/3", "67%"] in rows
    checked = runner.invoke(app, ["i18n", "--check"])
    assert checked.exit_code == 1
    assert "broken zh-CN: unknown key 'ghost'" in checked.output
    assert "broken zh-CN: placeholders unlike the English in 'greet'" in checked.output
    assert "platform" in checked.output  # every package is reported, not only the broken one
    missing = runner.invoke(app, ["i18n", "--missing", "pt-BR", "--name", "broken"])
    assert missing.exit_code == 0 and missing.output.split() == ["broken", "bye"]


def test_the_check_passes_on_the_committed_files() -> None:
    checked = CliRunner().invoke(app, ["i18n", "--check"])
    assert checked.exit_code == 0, checked.output
