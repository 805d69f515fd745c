"""Trajan in English, Simplified Chinese and Brazilian Portuguese: GetContent's texts, the terminal
presentation and the web module's words come from one catalog per locale (services/trajan/texts.py
TEXTS, locales/zh-CN.yaml and pt-BR.yaml), with the Chinese rulebook's terms; both translations cover
every key with the English placeholders."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from services.client.render import render_view
from services.games import load_game
from services.trajan.content import load_content
from services.trajan.presentation import load
from services.trajan.rules.content_types import Action, Colour, ForumTile
from services.trajan.rules.events import EVENT_TYPES, MarkerSown, PointsScored, ProvinceTileTaken
from services.trajan.rules.model import Reason
from services.trajan.texts import TEXTS, packaged_content_message
from shared.core.decider import Actor, RuleViolation
from shared.core.i18n import coverage
from shared.core.reasons import reason_key
from tests.support.playout import random_playout

GAME = load_game("trajan")
RULES, CODEC = GAME.rules, GAME.codec
CONTENT = load_content()
NAMES = ("Ada", "Bo")
JS = Path(__file__).resolve().parents[3] / "services/trajan/web/trajan.js"


def text_of(renderable: Any) -> str:
    console = Console(width=240, record=True, no_color=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


# ------------------------------------------------------------------ coverage
@pytest.mark.parametrize("locale", ["zh-CN", "pt-BR"])
def test_each_translation_covers_every_key_with_the_english_placeholders(locale: str) -> None:
    found = coverage(TEXTS, locale)
    assert (found.missing, found.unknown, found.mismatched) == ((), (), ())
    assert found.share == 1.0 and found.total == len(TEXTS.english) > 500
    english = TEXTS.english
    translated = TEXTS.translations(locale)
    same = [
        k
        for k, v in translated.items()
        if v == english[k] and re.search(r"[a-z]{4}", re.sub(r"\{\w+\}", "", v))
    ]
    # a text left as in English is a word both languages write alike (Alpes, total, extra, the title)
    assert all(
        k.startswith(("province.", "final.total", "web.final.total", "web.legend.extra", "game.title"))
        for k in same
    ), same


def test_every_refusal_the_rules_raise_has_its_key_and_translation() -> None:
    refusals = {k: v for k, v in TEXTS.english.items() if k.startswith("reason.")}
    assert "reason.bad_seats: Trajan seats 2 to 4 players, not {seats}" in refusals
    with pytest.raises(RuleViolation) as refused:
        RULES.make_config(5, {})
    v = refused.value
    key = reason_key(v.code, v.template)
    assert key in refusals and v.message == "Trajan seats 2 to 4 players, not 5"
    assert TEXTS.catalog("zh-CN").text(key, **v.values) == "图拉真可供 2 到 4 位玩家游玩，不是 5 位"
    assert TEXTS.catalog("pt-BR").text(key, **v.values) == "Trajano é para 2 a 4 jogadores, não 5"


# ------------------------------------------------------------------ GetContent
def test_getcontent_in_chinese_uses_the_rulebooks_terms() -> None:
    zh = packaged_content_message("zh-CN")
    assert [b.text.split("：")[0] for b in zh.bowls] == [
        "圆盘 I（海港）",
        "圆盘 II（论坛）",
        "圆盘 III（军事）",
        "圆盘 IV（元老院）",
        "圆盘 V（图拉真）",
        "圆盘 VI（建筑）",
    ]
    assert zh.bowls[3].text.endswith("然后执行元老院行动。")
    first = zh.trajan_tiles[0]
    assert (
        first.text.startswith(f"图拉真板块 {first.id}，第 {first.stack} 堆") and "抽 2 张商品卡" in first.text
    )
    forum = {t.tile: t.text for t in zh.forum_tiles}
    assert forum[ForumTile.WILD_COMMODITY].startswith("论坛板块 万用商品卡")
    assert forum[ForumTile.BREAD].startswith("论坛板块 面包")
    assert forum[ForumTile.SENATE_3].startswith("论坛板块 元老院 3 票")
    assert (
        zh.construction_tiles[0].text.startswith("建筑板块 ")
        and "可额外执行军事行动" in zh.construction_tiles[0].text
    )
    britannia = next(p for p in zh.provinces if p.key == "britannia")
    assert britannia.name == "布列坦尼亚" and "士兵得 10 分" in britannia.text
    assert all("船型板块" in s.text and "灰色面" in s.text for s in zh.ships)
    assert all(t.text.startswith(f"奖励板块 {t.id}：") for t in zh.bonus_tiles)


def test_getcontent_in_portuguese_and_english_keep_the_same_numbers() -> None:
    pt, en = packaged_content_message("pt-BR"), packaged_content_message("en")
    assert pt.bowls[0].text == "Tigela I (Porto): semeie a partir dela e faça a ação Porto."
    assert en.bowls[0].text == "Bowl I (seaport): sow from it, then take the seaport action."
    assert (
        pt.trajan_tiles[0].text.startswith("Peça de Trajano 1, pilha 1") and "PV" in pt.trajan_tiles[0].text
    )
    assert next(p for p in pt.provinces if p.key == "britannia").name == "Britânia"
    assert pt.ships[0].text.startswith("Navio de mercadorias iguais: 2/6/12/20 PV por 1-4 cartas")
    for a, b in zip(pt.trajan_tiles, en.trajan_tiles, strict=True):
        assert (a.id, a.vp, a.colours) == (b.id, b.vp, b.colours) and a.text != b.text
    numbers = re.compile(r"\d+")
    assert [numbers.findall(s.text) for s in pt.ships] == [numbers.findall(s.text) for s in en.ships]


# ------------------------------------------------------------------ the terminal presentation
EVENTS = (
    (
        MarkerSown(0, 4, Colour.ORANGE),
        "Ada 把一个橘色行动指示物放到圆盘 IV（元老院）",
        "Ada semeia um marcador laranja na tigela IV (Senado)",
    ),
    (
        PointsScored(1, -4, Reason.UNMET_DEMANDS),
        "Bo因未满足的需求扣 4 分",
        "Bo perde 4 PV por demandas não atendidas",
    ),
    (
        ProvinceTileTaken(0, 9, ForumTile.WILD_DEMAND),
        "Ada的军事领袖拿取布列坦尼亚的万用需求卡板块",
        "O líder de Ada pega a peça demanda curinga em Britânia",
    ),
)


@pytest.mark.parametrize(("event", "chinese", "portuguese"), EVENTS)
def test_events_are_described_in_each_locale(event: Any, chinese: str, portuguese: str) -> None:
    message = CODEC.to_message(event)
    assert load("zh-CN").describe_event(message, NAMES).replace(" 把", "把") == chinese.replace(" 把", "把")
    assert load("pt-BR").describe_event(message, NAMES) == portuguese
    assert load("en").describe_event(message, NAMES) == load().describe_event(message, NAMES)


@pytest.mark.parametrize("locale", ["zh-CN", "pt-BR"])
def test_a_whole_match_is_worded_and_drawn_in_each_locale(locale: str) -> None:
    """Every event of a random match, every legal command on the way and the board: in the locale's
    words, with every placeholder filled."""
    pres, english = load(locale), load("en")
    seen: set[str] = set()
    commands: list[str] = []

    def step(state: Any, actor: Actor, cmd: Any, legal: Any, events: Any) -> None:
        view = CODEC.to_message(RULES.view(state, actor))
        if len(commands) < 400:
            commands.append(pres.labels and pres.describe_command(CODEC.to_message(cmd), view, NAMES))

    events, final = random_playout(RULES, RULES.make_config(2, {}), 7, on_step=step)
    for event in events:
        text = pres.describe_event(CODEC.to_message(event), NAMES)
        assert "{" not in text and text != english.describe_event(CODEC.to_message(event), NAMES), text
        seen.add(type(event).__name__)
    assert len(seen) > len(EVENT_TYPES) - 5
    assert commands and not any("{" in c for c in commands)
    board = text_of(render_view(CODEC.to_message(RULES.view(final, Actor.of_seat(0))), pres, NAMES, 9, "m1"))
    assert "{" not in board
    words = {
        "zh-CN": ("行动圆环", "元老院", "船型板块", "省份", "建筑区"),
        "pt-BR": ("Círculos de ações", "Senado", "Navios", "Províncias"),
    }
    assert all(w in board for w in words[locale]), board
    final_table = text_of(pres.final(CODEC.to_message(RULES.view(final, Actor.of_seat(0))), NAMES))
    assert {"zh-CN": "最终结算", "pt-BR": "Pontuação final"}[locale] in final_table


def test_the_step_questions_and_explanations_in_each_locale() -> None:
    assert load("zh-CN").step_title("ChooseBowl", "bowl") == "你要拿起哪个圆盘？"
    assert load("pt-BR").step_title("TakeForumTile", "tile") == "Qual peça do fórum você pega?"
    assert load("zh-CN").step_title("ChooseBowl", "nothing") is None
    # ``? NAME`` finds a province by its name in the locale or in English
    assert load("zh-CN").explain("britannia") == load("zh-CN").explain("布列坦尼亚") != []
    assert load("pt-BR").explain("britânia")[0].startswith("Britânia: 10 PV")
    assert load("pt-BR").labels.action(Action.MILITARY) == "Militar"


# ------------------------------------------------------------------ the web module
def test_every_key_the_web_module_names_is_declared() -> None:
    """trajan.js words everything through ctx.t: each literal key it asks for is in TEXTS (keys built
    from enum values are checked by the families they belong to)."""
    source = JS.read_text(encoding="utf-8")
    literal = set(re.findall(r'\bt\(ctx, "([\w.-]+)"', source)) | {
        f"event.{k}" for k in re.findall(r'ev\("([\w.]+)"', source)
    }
    literal |= {f"n.{k}.other" for k in re.findall(r'count\(ctx, "(\w+)"', source)}
    assert len(literal) > 80
    assert sorted(k for k in literal if k not in TEXTS.english) == []
    built = set(re.findall(r"\bt\(ctx, `([a-z_]+)\.\$\{", source))
    built |= {f"event.{k}" for k in re.findall(r"\bev\(`([a-z_]+)[.$]", source)}
    families = {k.split(".")[0] for k in TEXTS.english} | {".".join(k.split(".")[:2]) for k in TEXTS.english}
    assert built <= families, built - families
    assert not re.search(r'text: "[A-Za-z][a-z ]+"', source)  # no English word drawn without ctx.t
