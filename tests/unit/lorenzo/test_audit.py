"""Rules audit against the rulebook seeds and the reference tables: the checks that had no test of their own.

The reference cross-check reads ``../shared/ref/lorenzo`` beside the project (or ``$LORENZO_REF_DIR``)
and is skipped where those files are not present; everything else is self-contained.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from services.lorenzo.rules.commands import (
    AnswerVaticanReport,
    PlaceFamilyMember,
    ResolveVaticanReport,
    TakeBonusCard,
)
from services.lorenzo.rules.content_types import Card, CardType, ImmediateKind
from services.lorenzo.rules.events import (
    CardTaken,
    ChurchSupported,
    Excommunicated,
    FaithPointsConverted,
    FamilyMemberPlaced,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, ZERO, Goods
from services.lorenzo.rules.model import Decision, DecisionKind, Member, Phase, PlayedLeader, Source
from shared.core.decider import SYSTEM, Actor, RuleViolation

from .helpers import RULES, C, game, net, of_type, then, when, with_player

B, N = Member.BLACK, Member.NEUTRAL
# the reference material lies beside the project (../shared/ref/lorenzo), here and in CI
REF = Path(
    os.environ.get("LORENZO_REF_DIR", Path(__file__).resolve().parents[4] / "shared" / "ref" / "lorenzo")
)
_KEYS = {"military_points": "military", "faith_points": "faith", "victory_points": "victory"}


def _ref_goods(d: dict[str, int] | None) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((_KEYS.get(k, k).replace("council_privileges", "privileges"), v)
                        for k, v in (d or {}).items() if v))  # fmt: skip


def _goods(g: Goods, privileges: int = 0) -> tuple[tuple[str, int], ...]:
    out = [(k, getattr(g, k)) for k in GOODS_FIELDS if getattr(g, k)]
    return tuple(sorted([*out, ("privileges", privileges)] if privileges else out))


def _ref_card(r: dict[str, Any]) -> dict[str, Any]:
    imm: list[Any] = []
    for e in r["immediate"]:
        if "gain" in e:
            imm.append(("gain", _ref_goods(e["gain"])))
        elif "gain_per_card" in e:
            imm.append(("per_card", _ref_goods(e["gain_per_card"]), e["card_type"]))
        elif "gain_per" in e:
            imm.append(("per_military", _ref_goods(e["gain_per"]), e["for_every"]["military_points"]))
        elif e.get("action") == "take_card":
            kind = None if e["card_type"] == "any" else e["card_type"]
            imm.append(("take", kind, e["value"], _ref_goods(e.get("discount"))))
        else:
            imm.append((e["action"], e["value"]))
    perm = r.get("permanent") or {}
    out: dict[str, Any] = {
        "name": r["name"], "type": r["type"], "period": r["period"], "immediate": imm,
        "costs": [(_ref_goods(x.get("pay")), (x.get("require") or {}).get("military_points", 0))
                  for x in r["cost"]],
    }  # fmt: skip
    if "harvest" in perm:
        out["harvest"] = (perm["harvest"]["value"], _ref_goods(perm["harvest"]["gain"]))
    if "production" in perm:
        p = perm["production"]
        alts = [p["exchange"]] if "exchange" in p else p.get("exchange_one_of", [])
        per = p.get("card_type") if "gain_per_card" in p else None
        out["production"] = (p["value"], _ref_goods(p.get("gain")), per, _ref_goods(p.get("gain_per_card")),
                             tuple((_ref_goods(x["pay"]), _ref_goods(x["gain"])) for x in alts))  # fmt: skip
    if "action_bonus" in perm:
        a = perm["action_bonus"]
        target = a["target"] if a["target"] in ("harvest", "production") else f"take_{a['target']}"
        discounts = [a["discount"]] if "discount" in a else a.get("discount_one_of", [])
        out["bonus"] = (target, a["value"], tuple(_ref_goods(d) for d in discounts))
    if perm.get("no_tower_space_bonus"):
        out["no_floor_bonus"] = True
    if perm.get("end_game_victory_points"):
        out["end_victory"] = perm["end_game_victory_points"]
    return out


def _our_card(c: Card) -> dict[str, Any]:
    imm: list[Any] = []
    for e in c.immediate:
        kind = e.card_type.name.lower() if e.card_type else None
        match e.kind:
            case ImmediateKind.GAIN:
                imm.append(("gain", _goods(e.gain.goods, e.gain.privileges)))
            case ImmediateKind.GAIN_PER_CARD:
                imm.append(("per_card", _goods(e.gain.goods), kind))
            case ImmediateKind.GAIN_PER_MILITARY:
                imm.append(("per_military", _goods(e.gain.goods), e.value))
            case ImmediateKind.TAKE_CARD:
                imm.append(("take", kind, e.value, _goods(e.discount)))
            case _:
                imm.append((e.kind.name.lower(), e.value))
    out: dict[str, Any] = {
        "name": c.name, "type": c.card_type.name.lower(), "period": c.period, "immediate": imm,
        "costs": [(_goods(x.pay), x.require_military) for x in c.costs],
    }  # fmt: skip
    if c.harvest:
        out["harvest"] = (c.harvest.value, _goods(c.harvest.gain.goods, c.harvest.gain.privileges))
    if c.production:
        p = c.production
        out["production"] = (
            p.value, _goods(p.gain.goods, p.gain.privileges), p.per_card.name.lower() if p.per_card else None,
            _goods(p.per_card_gain),
            tuple((_goods(x.pay), _goods(x.gain.goods, x.gain.privileges)) for x in p.exchanges),
        )  # fmt: skip
    if c.action_bonus:
        a = c.action_bonus
        out["bonus"] = (a.action.name.lower(), a.value, tuple(_goods(d) for d in a.discounts))
    if c.no_floor_bonus:
        out["no_floor_bonus"] = True
    if c.end_victory:
        out["end_victory"] = c.end_victory
    return out


@pytest.mark.skipif(not (REF / "development_cards.yaml").exists(), reason="reference tables not present")
def test_all_96_cards_match_the_reference_tables_field_by_field() -> None:
    ref = yaml.safe_load((REF / "development_cards.yaml").read_text(encoding="utf-8"))["cards"]
    assert len(ref) == 96
    diffs = {r["id"]: (_ref_card(r), _our_card(C.card[r["id"]])) for r in ref}
    assert {i: d for i, d in diffs.items() if d[0] != d[1]} == {}


@pytest.mark.skipif(not (REF / "leaders.yaml").exists(), reason="reference tables not present")
def test_all_20_leader_requirements_match_the_reference_tables() -> None:
    for r in yaml.safe_load((REF / "leaders.yaml").read_text(encoding="utf-8"))["leaders"]:
        leader = C.leader[r["id"]]
        req = r["requirement"]
        owned = {**(req.get("resources") or {}), **(req.get("points") or {})}
        cards = tuple(req.get("cards", {}).get(t.name.lower(), 0) for t in CardType)
        assert leader.name == r["name"]
        assert leader.requirement.counts == cards
        assert leader.requirement.same_type == req.get("cards_of_one_type", 0)
        assert _goods(leader.requirement.goods) == _ref_goods(owned)
        assert leader.once_per_round == (r["kind"] == "once_per_round")
        gain = r["ability"].get("gain") or r["ability"].get("on_church_support")
        if gain is not None:
            assert _goods(leader.gain.goods, leader.gain.privileges) == _ref_goods(gain)


@pytest.mark.skipif(not (REF / "personal_bonus_tiles.yaml").exists(), reason="reference tables not present")
def test_the_bonus_tiles_match_the_reference_tables() -> None:
    ref = yaml.safe_load((REF / "personal_bonus_tiles.yaml").read_text(encoding="utf-8"))
    tiles = [ref["basic"], *ref["advanced"]]
    for ours, r in zip(C.bonus_tiles, tiles, strict=True):
        assert _goods(ours.harvest) == _ref_goods(r["harvest"]["gain"])
        assert _goods(ours.production) == _ref_goods(r["production"]["gain"])


def _report(round: int, faith: int, seats: int = 2) -> Any:
    return with_player(
        replace(game(seats=seats, round=round), phase=Phase.VATICAN), 0, goods=Goods(faith=faith)
    )


@pytest.mark.parametrize(("round", "need"), [(2, 3), (4, 4), (6, 5)])
def test_the_vatican_report_needs_three_four_and_five_faith_in_periods_one_two_and_three(
    round: int, need: int
) -> None:
    # Seed 000 C: "第 1 / 2 / 3 時期分別需要 3 / 4 / 5 點信仰點數"
    assert RULES.to_act(_report(round, need - 1)) == (SYSTEM,)
    assert RULES.to_act(_report(round, need)) == (Actor.of_seat(0),)


def test_supporting_the_church_spends_every_faith_point_for_the_track_value() -> None:
    # Seed 003: "ele deve gastar todos os seus Pontos de Fé ... igual ao número do espaço"
    s = then(_report(2, 9), 0, AnswerVaticanReport(True))
    events = when(s, -1, ResolveVaticanReport())
    assert of_type(events, ChurchSupported)[0].victory == 13
    assert then(s, -1, ResolveVaticanReport()).players[0].goods == Goods(victory=13)


def test_declining_the_last_report_keeps_the_faith_and_does_not_score_it() -> None:
    # Seed 003: only players "que não tiverem os Pontos de Fé requeridos" score their faith after round 6
    s = then(_report(6, 7), 0, AnswerVaticanReport(False))
    events = when(s, -1, ResolveVaticanReport())
    assert [e.seat for e in of_type(events, Excommunicated)] == [0, 1]
    assert [e.seat for e in of_type(events, FaithPointsConverted)] == [1]
    assert then(s, -1, ResolveVaticanReport()).players[0].goods == Goods(faith=7)


def _card_action(card_type: CardType | None, value: int, discount: Goods = ZERO, **player: Any) -> Any:
    s = with_player(game(), 0, **player)
    return replace(s, pending=(Decision(DecisionKind.TAKE_CARD, card_type=card_type, value=value,
                                        discount=discount),), acted=True)  # fmt: skip


def test_pico_discount_adds_to_the_patron_card_action_discount() -> None:
    # Patron: character at 6, 2 coins off; Pico: 3 more coins off a card whose cost shows coins.
    s = _card_action(CardType.CHARACTER, 6, Goods(coins=2), leaders=(11,), goods=Goods(coins=0))
    assert of_type(when(s, 0, TakeBonusCard(6)), CardTaken)[0].card == 50  # Stonemason, 4 coins -> 0


def test_a_territory_card_action_still_needs_the_military_points_of_the_next_slot() -> None:
    # Seed 000: "所有的規則同樣適用於該行動" (Captain: territory at 6)
    s = _card_action(CardType.TERRITORY, 6, territories=(5, 6))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, TakeBonusCard(1))
    assert e.value.code == "territory_slot_locked"
    assert of_type(when(with_player(s, 0, goods=Goods(military=3)), 0, TakeBonusCard(1)), CardTaken)


def test_the_six_card_limit_also_binds_card_actions() -> None:
    s = _card_action(None, 6, buildings=(29, 30, 31, 32, 33, 34), goods=Goods(coins=9, wood=9, stone=9))
    with pytest.raises(RuleViolation) as e:
        when(s, 0, TakeBonusCard(9))
    assert e.value.code == "card_limit"
    assert all(not isinstance(c, TakeBonusCard) or c.space not in (9, 10, 11, 12)
               for c in RULES.legal_commands(s, Actor.of_seat(0)))  # fmt: skip


def test_lorenzo_de_medici_copying_brunelleschi_waives_the_occupied_tower_fee() -> None:
    s = then(game(dice=(6, 6, 6)), 0, PlaceFamilyMember(B, 1))
    s = with_player(s, 1, leaders=(PlayedLeader(15, 3),))
    assert net(when(s, 1, PlaceFamilyMember(B, 2)), 1, Source.TOWER_FEE) == Goods()
    s = with_player(s, 1, played=(), goods=Goods(coins=3))
    assert net(when(s, 1, PlaceFamilyMember(B, 2)), 1, Source.TOWER_FEE) == Goods(coins=-3)


def test_the_neutral_member_may_join_a_coloured_one_on_the_large_harvest_space() -> None:
    # Seed 000 收穫與生產行動: "玩家可以把一個有色以及一個無色的家族成員放在這裡" (one coloured and one
    # neutral member may be placed here), "或者只放在大行動區域" (or both in the large space)
    s = with_player(game(seats=3, dice=(6, 6, 6)), 0, goods=Goods(servants=4))
    s = then(s, 0, PlaceFamilyMember(B, 23))
    s = replace(s, turn_index=3, acted=False)
    assert of_type(when(s, 0, PlaceFamilyMember(N, 23, servants=4)), FamilyMemberPlaced)[0].value == 1
    with pytest.raises(RuleViolation) as e:
        when(s, 0, PlaceFamilyMember(Member.WHITE, 22))
    assert e.value.code == "colored_member_in_area"
