"""`tabula games` in the language of `--lang` (else of LC_ALL / LANG): the titles and options' labels and
descriptions from the games' and the platform's translations, English as the manifests have it."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from services.cli.main import app
from services.games import manifests


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def listed(*args: str, env: dict[str, str] | None = None) -> dict[str, dict[str, object]]:
    result = CliRunner().invoke(app, ["games", "--json", *args], env=env)
    assert result.exit_code == 0, result.output
    return {g["name"]: g for g in json.loads(result.output)}


def options(game: dict[str, object]) -> dict[str, str]:
    return {o["name"]: o["description"] for o in game["options"]}  # type: ignore[attr-defined]


def labels(game: dict[str, object]) -> dict[str, str]:
    return {o["name"]: o["label"] for o in game["options"]}  # type: ignore[attr-defined]


def test_english_is_the_manifests() -> None:
    games = listed()
    for m in manifests():
        assert games[m.name]["title"] == m.title
        assert options(games[m.name]) == {o.name: o.description for o in m.match_options}
        assert labels(games[m.name]) == {o.name: o.shown for o in m.match_options}
    assert labels(games["florenza"]) == {"hidden_certificates": "Hidden certificates", "undo": "Undo"}
    assert listed("--lang", "en") == games


def test_chinese_titles_and_options() -> None:
    games = listed("--lang", "zh-CN")
    assert (games["lorenzo"]["title"], games["trajan"]["title"], games["florenza"]["title"]) == (
        "伟大的罗伦佐",
        "图拉真",
        "佛罗伦萨",
    )
    assert "领袖卡" in options(games["lorenzo"])["advanced"]
    assert options(games["trajan"])["undo"].startswith("玩家可以撤回")  # the platform's option
    text = CliRunner().invoke(app, ["games", "--lang", "zh-CN"]).output
    assert "lorenzo: 伟大的罗伦佐, 2-4 seats" in text and "--option advanced=true|false" in text
    assert "--option advanced=true|false (default true)  进阶规则" in text  # the name sent, the label read
    assert labels(games["florenza"]) == {"hidden_certificates": "隐藏声望点数纸牌", "undo": "允许撤回"}


def test_the_environment_chooses_when_no_flag_does() -> None:
    games = listed(env={"LANG": "pt_BR.UTF-8"})
    assert options(games["florenza"])["hidden_certificates"].startswith("Os certificados de cada família")
    assert labels(games["florenza"])["hidden_certificates"] == "Certificados ocultos"
    english = listed("--lang", "en", env={"LANG": "pt_BR.UTF-8"})["florenza"]  # the flag first
    assert options(english)["hidden_certificates"].startswith("Each family's certificates")
