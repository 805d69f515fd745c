"""`tabula play` in Portuguese (``--lang pt-BR``) and in Chinese (``LANG=zh_CN.UTF-8``) against the
whole stack: the client's own words (the match line, the prompt, the help, a refusal, leaving) in
that language, from ``services/client/locales``; English stays the default."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from services.client.texts import TEXTS
from tests.e2e.stack_dir import cli, stack_in

SCRIPT = "?\nundo\nq\n"  # the help, an undo the match refuses (nothing to take back), leave


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from stack_in(tmp_path_factory, "languages")


def _play(stack: tuple[Path, dict[str, str]], *flags: str, **env: str) -> str:
    folder, tools = stack
    shell = {k: v for k, v in tools.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    result = cli(
        folder,
        {**shell, **env},
        "play",
        "--seats",
        "2",
        "--bots",
        "random",
        "--name",
        "Ada",
        *flags,
        stdin=SCRIPT,
    )
    assert result.returncode == 2, result.stdout + result.stderr  # left before the end
    return result.stdout


def _said(locale: str, key: str) -> str:
    """A fixed text of the client in ``locale`` (the part before its first placeholder)."""
    return TEXTS.catalog(locale).template(key).split("{")[0]


@pytest.mark.parametrize(
    ("flags", "env", "locale"),
    [(("--lang", "pt-BR"), {"LANG": "en_US.UTF-8"}, "pt-BR"), ((), {"LANG": "zh_CN.UTF-8"}, "zh-CN")],
    ids=["lang-option", "LANG"],
)
def test_the_terminal_client_speaks_the_players_language(
    stack: tuple[Path, dict[str, str]], flags: tuple[str, ...], env: dict[str, str], locale: str
) -> None:
    out = _play(stack, *flags, **env)
    for key in ("prompt", "help.title", "help.board", "refused", "leaving"):
        assert _said(locale, key) in out, (key, out[-3000:])
    assert _said("en", "prompt") not in out and "Inputs:" not in out
    if locale == "pt-BR":
        assert "Partida " in out and "você é Ada no lugar" in out and "Sua escolha [1-" in out
    else:
        assert "对局 " in out and "你是座位" in out and "你的选择 [1-" in out


def test_english_without_a_language(stack: tuple[Path, dict[str, str]]) -> None:
    out = _play(stack, LANG="C.UTF-8")
    assert "Your choice [1-" in out and "Inputs:" in out and "Leaving the match" in out
