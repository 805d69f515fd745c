"""Florenza in Simplified Chinese and Brazilian Portuguese: both translations cover every text with the
English's placeholders; GetContent, the terminal presentation and the refusals speak the rulebook's terms
(the Chinese rulebook's in Chinese, the project's own Portuguese), and English stays English."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

from services.client.render import command_text
from services.florenza.presentation import load
from services.florenza.texts import TEXTS, packaged_content_message
from shared.core.codec import wrap_union
from shared.core.decider import RuleViolation
from shared.core.i18n import coverage, placeholders
from shared.core.reasons import reason_key

from .helpers import ANON_PAINTER, ANON_PREACHER, BOSCAIUOLO, FACCIATA, RULES, SAVONAROLA, C
from .test_presentation import GAME, NAMES, STEPS, mid_game, text_of, view_of

TRANSLATED = ("zh-CN", "pt-BR")
GIOTTO = next(a.id for a in C.artists if a.name == "Giotto")
HAN = re.compile(r"[\u4e00-\u9fff]")
# English words of the game a Chinese text must not keep (Italian names stay, as the rulebook has them)
ENGLISH = re.compile(r"\b(fiorini|prestige|workshop|worker|church|resource|marble|wood|painting|round)\b")


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_text_is_translated_with_the_placeholders_of_its_english(locale: str) -> None:
    found = coverage(TEXTS, locale)
    assert found.missing == () and found.unknown == () and found.mismatched == ()
    assert found.translated == found.total == len(TEXTS.english) and found.share == 1.0


def test_the_english_declares_every_component_name_every_refusal_and_every_web_word() -> None:
    english = TEXTS.english
    assert (
        english[f"workshop.{BOSCAIUOLO}.name"] == "Boscaiuolo"
        and english[f"artist.{GIOTTO}.name"] == "Giotto"
    )
    assert english["building.palazzo_della_signoria.name"] == "Palazzo della Signoria"
    assert english["reason.bad_seats: Florenza seats 2 to 5 players, not {seats}"] == (
        "Florenza seats 2 to 5 players, not {seats}"
    )
    assert all(
        key == reason_key(key[7:].split(": ")[0], text)
        for key, text in english.items()
        if key[:7] == "reason."
    )
    # every key florenza.js names literally is declared (the ones it builds end in an id or a value)
    js = (Path(__file__).parents[3] / "services/florenza/web/florenza.js").read_text()
    literal = set(re.findall(r'(?:say\(ctx, |ctx\.t\(|sayOr\(ctx, |plural\(ctx, )"([a-zA-Z_.]+)"', js))
    assert len(literal) > 60
    missing = [k for k in literal if k not in english and f"{k}.other" not in english]
    assert not missing, missing
    built = set(re.findall(r"`((?:web|event|enum|goods|skill|area|final|step)\.)\$\{", js))
    assert built and all(any(k.startswith(p) for k in english) for p in built)


def test_getcontent_speaks_the_chinese_rulebooks_terms() -> None:
    zh = packaged_content_message("zh-CN")
    boscaiuolo = next(w for w in zh.workshops if w.id == BOSCAIUOLO)
    assert boscaiuolo.name == "Boscaiuolo"  # the rulebook keeps the workshops' Italian names
    assert (
        boscaiuolo.text.startswith(f"作坊 {BOSCAIUOLO}，Boscaiuolo：建造需 ")
        and "产出 1 木头" in boscaiuolo.text
    )
    giotto = next(a for a in zh.artists if a.id == GIOTTO)
    assert "绘画" in giotto.text and "大师级作品" in giotto.text and "银币" in giotto.text
    assert "佛罗伦萨的生活" in giotto.text  # drawn, goes under its Life in Florenza card
    assert next(a for a in zh.artists if a.id == ANON_PAINTER).name == "无名画家"
    assert next(p for p in zh.preachers if p.id == ANON_PREACHER).name == "无名传教士"
    savonarola = next(p for p in zh.preachers if p.id == SAVONAROLA)
    assert savonarola.text.startswith("Girolamo Savonarola（进贡 200；")
    facciata = next(w for w in zh.works if w.id == FACCIATA)
    assert "声望" in facciata.text and "Palazzo" in facciata.text
    sell = zh.trades[0]
    assert sell.text == f"卖出：卖给系统银行 1 个资源，获得 {sell.get_money} 银币，每次访问一次。"
    assert [t.text.split("：")[0] for t in zh.tracks] == ["声望", "教会影响力"]
    assert "人民领袖" not in zh.board.text and "每个称号" in zh.board.text
    texts = [w.text for w in zh.workshops] + [a.text for a in zh.artists] + [w.text for w in zh.works]
    texts += [c.text for c in zh.life] + [t.text for t in zh.trades] + [zh.board.text]
    assert all(HAN.search(t) and not ENGLISH.search(t) and "{" not in t for t in texts)


def test_getcontent_in_portuguese_is_the_projects_own_translation() -> None:
    pt = packaged_content_message("pt-BR")
    boscaiuolo = next(w for w in pt.workshops if w.id == BOSCAIUOLO)
    assert (
        boscaiuolo.text.startswith(f"Oficina {BOSCAIUOLO}, Boscaiuolo: custa ")
        and "dá 1 madeira" in boscaiuolo.text
    )
    giotto = next(a for a in pt.artists if a.id == GIOTTO)
    assert "pintura" in giotto.text and "obra-prima" in giotto.text and "Vida em Florença" in giotto.text
    assert next(a for a in pt.artists if a.id == ANON_PAINTER).name == "Pintor anônimo"
    facciata = next(w for w in pt.works if w.id == FACCIATA)
    assert "de prestígio" in facciata.text
    assert pt.trades[0].text.startswith("Vender: 1 recurso ao banco por ")
    assert pt.board.text.startswith(f"{C.board.rounds} rodadas para 2 a ")
    assert not ENGLISH.search(" ".join(w.text for w in pt.workshops))


def test_english_is_asked_for_by_default_and_other_locales_fall_back_to_it() -> None:
    assert packaged_content_message() == packaged_content_message("en") == packaged_content_message("fr")
    assert next(w for w in packaged_content_message().workshops if w.id == BOSCAIUOLO).text.startswith(
        f"Workshop {BOSCAIUOLO}, Boscaiuolo: costs "
    )


def _events(locale: str) -> list[str]:
    presentation = load(locale)
    return [presentation.describe_event(GAME.codec.to_message(e), NAMES) for s in STEPS for e in s.events]


@pytest.mark.parametrize(("locale", "started", "income"), [
    ("zh-CN", "游戏开始，共 4 个家族；玩家顺序 ", r"收益骰子：\d，每个玩家获得\S+"),
    ("pt-BR", "O jogo começa com 4 famílias; ordem de turno ", r"Dado de renda: \d, todos recebem \w+"),
])  # fmt: skip
def test_events_are_described_in_the_locale(locale: str, started: str, income: str) -> None:
    texts = _events(locale)
    assert texts[0].startswith(started)
    assert any(re.fullmatch(income, t) for t in texts)
    assert all("{" not in t and "#" not in t for t in texts)
    english = _events("en")
    assert len(texts) == len(english) and sum(a != b for a, b in zip(texts, english, strict=True)) == len(
        texts
    )
    if locale == "zh-CN":
        assert all(HAN.search(t) for t in texts)
        assert any(t.startswith("下一回合：人民领袖 ") for t in texts)


def _commands(locale: str) -> dict[str, str]:
    presentation = load(locale)
    seen: dict[str, str] = {}
    for step in STEPS:
        if step.actor.is_seat:
            view = view_of(step.state, step.actor.seat)
            for c in step.legal:
                wrapped = wrap_union(GAME.modules.pb2.Command(), GAME.codec.to_message(c))
                seen.setdefault(type(c).__name__, command_text(wrapped, presentation, view, NAMES))
    return seen


def test_commands_and_the_steps_questions_are_worded_in_the_locale() -> None:
    zh, pt = _commands("zh-CN"), _commands("pt-BR")
    assert zh["HireArtist"].startswith("雇佣艺术家：") and pt["HireArtist"].startswith("Contratar artista: ")
    assert zh["PlanWorkshop"].startswith("建造作坊：") and "建造需 " in zh["PlanWorkshop"]
    assert zh["Pass"] == "叫过" and pt["Pass"] == "Passar"
    assert re.fullmatch(r"完成艺术品：.+，使用\w+，由 .+ 完成；价格 .+", zh["CompleteArtWork"])
    assert all("{" not in t and "#" not in t for t in [*zh.values(), *pt.values()])
    assert load("zh-CN").step_title("HireArtist", "artist") == "雇佣哪位艺术家？"
    assert load("pt-BR").step_title("MakeOffering", "preacher") == "A qual pregador?"
    assert load("zh-CN").explain("savonarola")[0].startswith("Girolamo Savonarola（进贡 ")


def test_the_board_and_the_final_table_are_drawn_in_the_locale() -> None:
    view = view_of(mid_game().state, 1)
    zh = text_of(load("zh-CN").board(view, 42, NAMES, "m1"))
    for words in (
        "佛罗伦萨  对局 m1  v42",
        "第 4 回合（共 8 回合）  阶段：工人部署（步骤 4）",
        "家族与进程板块",
        "Bruno（你）",
        "居民区",
        "大教堂",
        "市场",
        "佛罗伦萨的生活",
        "作坊堆：",
        "银行：",
    ):
        assert words in zh, words
    pt = text_of(load("pt-BR").board(view, 42, NAMES, "m1"))
    for words in (
        "Rodada 4 de 8  Fase: colocação de trabalhadores (etapa 4)",
        "Famílias e trilhas",
        "Bruno (você)",
        "A cidade",
        "O Duomo",
        "Mercado",
        "Vida em Florença",
        "Reserva de oficinas: ",
    ):
        assert words in pt, words
    final = view_of(STEPS[-1].state, 0)
    assert "最终计分" in text_of(load("zh-CN").final(final, NAMES)) and "总分" in text_of(
        load("zh-CN").final(final, NAMES)
    )
    assert "Pontuação final" in text_of(load("pt-BR").final(final, NAMES))


def test_a_refusal_is_raised_with_a_template_whose_key_is_translated() -> None:
    with pytest.raises(RuleViolation) as refused:
        RULES.make_config(7, {})
    error: Any = refused.value
    assert error.message == "Florenza seats 2 to 5 players, not 7" and error.values == {"seats": 7}
    key = reason_key(error.code, error.template)
    assert TEXTS.catalog("zh-CN").text(key, **error.values) == "佛罗伦萨需要 2 到 5 名玩家，不能是 7 名"
    assert TEXTS.catalog("pt-BR").text(key, **error.values) == "Florenza é para 2 a 5 jogadores, não 7"
    # every raise site's template names its values plainly, so a translation can place them
    for key, template in TEXTS.english.items():
        if key.startswith("reason."):
            names = placeholders(template)
            assert all(n.isidentifier() for n in names), key
            assert all(p[2] == "" and p[3] is None for p in string.Formatter().parse(template) if p[1]), key
