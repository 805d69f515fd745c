"""Lorenzo in Simplified Chinese and Brazilian Portuguese: GetContent's texts use the rulebooks'
terms (seed 000, the Chinese rulebook; seed 003, the Portuguese one), the terminal presentation
speaks each locale, and both translations cover every English key with the same placeholders."""

from __future__ import annotations

import pytest

from services.games import load_game
from services.lorenzo.presentation import load
from services.lorenzo.texts import TEXTS, packaged_content_message
from shared.core.describe import union_member
from shared.core.i18n import coverage, placeholders
from tests.unit.client.helpers import playout, view_message

NAMES = ("Ada", "Bob")


def card(locale: str, english: str) -> str:
    """A card's GetContent text in ``locale``, found by its English name."""
    ids = {c.name: c.id for c in packaged_content_message().cards}
    return next(c.text for c in packaged_content_message(locale).cards if c.id == ids[english])


@pytest.mark.parametrize("locale", ["zh-CN", "pt-BR"])
def test_both_locales_translate_every_key_with_its_placeholders(locale: str) -> None:
    found = coverage(TEXTS, locale)
    assert (found.translated, found.missing, found.unknown, found.mismatched) == (found.total, (), (), ())
    translated = TEXTS.translations(locale)
    for key, english in TEXTS.english.items():  # the coverage's check, spelled out for the refusals
        assert placeholders(translated[key]) == placeholders(english), key
    assert sum(key.startswith("reason.") for key in translated) > 40


def test_chinese_cards_use_the_chinese_rulebooks_names_and_terms() -> None:
    # seed 000, "啟動永久效果": 森林, 大理石坑, 莊園別墅, 修道院 (harvest);
    # 金庫, 木匠的商店, 堡壘 (production)
    assert card("zh-CN", "Forest") == (
        "森林：领地卡，第 1 时期。立即性效果：获得 1 个木头。收获（5 点或以上）：获得 3 个木头。"
    )
    assert card("zh-CN", "Marble Pit").startswith("大理石坑：领地卡")
    assert card("zh-CN", "Manor House").startswith("庄园别墅：领地卡")
    assert card("zh-CN", "Monastery").startswith("修道院：")
    assert card("zh-CN", "Carpenter's Shop").startswith("木匠的商店：建筑卡")
    treasury = card("zh-CN", "Treasury")
    assert (
        treasury.startswith("金库：建筑卡")
        and "生产（3 点或以上）" in treasury
        and "支付 1 元，获得 3 分" in treasury
    )
    assert "议会特权" in card("zh-CN", "Fortress") and card("zh-CN", "Fortress").startswith("堡垒：")
    content = packaged_content_message("zh-CN")
    assert content.privileges[0].text == "议会特权 1：1 个木头和 1 个石头。"
    assert content.excommunications[0].text.startswith("逐出教会 I/1：")
    assert "梵蒂冈发言" in content.board.text


def test_portuguese_cards_use_the_portuguese_rulebooks_names_and_terms() -> None:
    # seed 003, "Ativando efeitos permanentes": Floresta, Pedreira de Mármore, Casa Senhoral, Monastério;
    # Tesouraria, Carpintaria, Fortaleza; the card table: Cavaleiro
    assert card("pt-BR", "Forest") == (
        "Floresta: carta de Território, período 1. Efeito Imediato: receba 1 Madeira. "
        "Coleta (valor 5 ou mais): receba 3 Madeiras."
    )
    assert card("pt-BR", "Marble Pit").startswith("Pedreira de Mármore: carta de Território")
    assert card("pt-BR", "Manor House").startswith("Casa Senhoral: ")
    assert card("pt-BR", "Monastery").startswith("Monastério: ")
    assert card("pt-BR", "Carpenter's Shop").startswith("Carpintaria: carta de Construção")
    assert card("pt-BR", "Treasury").startswith("Tesouraria: carta de Construção")
    assert "Privilégio do Concílio" in card("pt-BR", "Fortress")
    assert card("pt-BR", "Knight").startswith("Cavaleiro: carta de Personagem")
    content = packaged_content_message("pt-BR")
    assert content.privileges[4].text == "Privilégio do Concílio 5: 1 Ponto de Fé."
    assert content.excommunications[0].text.startswith("Excomunhão I/1: ")
    leader = next(x for x in content.leaders if x.name == "Cesare Borgia")
    assert leader.text.startswith(
        "Cesare Borgia: para jogá-la você precisa ter 3 cartas de Construção, 12 Moedas"
    )


def test_english_stays_the_english_and_an_unknown_locale_is_english() -> None:
    assert packaged_content_message("fr") == packaged_content_message("en") == packaged_content_message()
    assert card("en", "Forest").startswith("Forest: territory card, period 1.")


def test_the_terminal_presentation_speaks_each_locale() -> None:
    game = load_game("lorenzo")
    pb2 = game.modules.pb2
    taken = pb2.CardTaken(seat=0, card=5, card_type=pb2.CARD_TYPE_TERRITORY, space=1)
    said = {locale: load(locale).describe_event(taken, NAMES) for locale in ("en", "zh-CN", "pt-BR")}
    assert (
        said["en"]
        == "Card taken: Ada (seat 0); card Forest; card type territory; space territory tower floor 1 (1)"
    )
    assert (
        said["zh-CN"] == "拿取了卡片：Ada（座位 0）；卡片 森林；卡片种类 领地；行动区域 领地高塔第 1 层（1）"
    )
    assert said["pt-BR"] == (
        "Carta pega: Ada (lugar 0); carta Floresta; tipo de carta Território; "
        "espaço torre de Território andar 1 (1)"
    )
    supported = pb2.AnswerVaticanReport(support=True)
    assert load("zh-CN").describe_command(supported, None, NAMES) == "回应梵蒂冈发言：支持教堂"
    assert (
        load("pt-BR").describe_command(supported, None, NAMES)
        == "Responder ao Juízo do Vaticano: apoiar a Igreja"
    )
    assert load("zh-CN").step_title("PlaceFamilyMember", "space") == "你要把它放到哪里？"
    assert load("pt-BR").step_title("PlaceFamilyMember", "member") == "Qual Familiar?"


def test_a_placement_reads_in_each_locale_on_a_real_view() -> None:
    """A legal PlaceFamilyMember of a random playout: the member by its colour and die, the space and
    the card on it, all in the locale's words (no English left over, no unknown id)."""
    step = next(s for s in playout(seats=2, seed=2) if s.state.phase.name == "ACTIONS" and s.commands)
    view = view_message(step.state, step.actor.seat)
    pb2 = load_game("lorenzo").modules.pb2
    place = next(
        m
        for m in map(union_member, step.commands)
        if m.DESCRIPTOR.name == "PlaceFamilyMember" and m.member != pb2.MEMBER_NEUTRAL
    )
    chinese = load("zh-CN").describe_command(place, view, NAMES)
    portuguese = load("pt-BR").describe_command(place, view, NAMES)
    assert chinese.startswith("放置家族成员：") and "家族成员（骰子 " in chinese and "放到" in chinese
    assert portuguese.startswith("Colocar Familiar: Familiar ") and "(dado " in portuguese
    for text in (chinese, portuguese):
        assert "#" not in text and " member" not in text and " on " not in text, text


def test_the_board_and_the_final_table_are_worded_in_the_locale() -> None:
    from tests.unit.client.helpers import text_of

    *_, end = playout(seats=2, seed=2)
    game = load_game("lorenzo")
    from shared.core.decider import SPECTATOR

    view = game.codec.to_message(game.rules.view(end.state, SPECTATOR))
    chinese = load("zh-CN")
    board = text_of(chinese.board(view, end.version, NAMES, "m1"))
    assert "高塔" in board and "行动区域" in board and "玩家" in board and "对局 m1" in board
    final = text_of(chinese.final(view, NAMES))
    assert "最终计分" in final and "总分" in final
    assert "Pontuação Final" in text_of(load("pt-BR").final(view, NAMES))
