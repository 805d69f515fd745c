"""Command and event descriptions are readable for every command type of a random playout."""

from __future__ import annotations

import re

from services.client.describe import Describer, enum_label, union_member, words
from services.client.labels import goods_text, labels_for
from services.games import load_game
from tests.unit.client.helpers import playout, view_message

NAMES = ("Ada", "greedy bot", "mcts bot", "random bot")


def test_words_and_enum_labels() -> None:
    pb2 = load_game("lorenzo").modules.pb2
    assert words("PlaceFamilyMember") == "Place family member"
    assert words("copy_of") == "Copy of"
    assert enum_label(pb2.Member.DESCRIPTOR, pb2.MEMBER_BLACK) == "black"
    assert enum_label(pb2.Privilege.DESCRIPTOR, pb2.PRIVILEGE_WOOD_AND_STONE) == "wood and stone"
    assert enum_label(pb2.DecisionKind.DESCRIPTOR, pb2.DECISION_KIND_TAKE_CARD) == "take card"
    assert goods_text({"coins": 3, "wood": 1, "victory": 2}) == "3 coins, 1 wood, 2 VP"


def _check(description: str, member: object, labels: object) -> None:
    """No raw ids: every id field appears by its label."""
    lab = labels_for("lorenzo")
    name = member.DESCRIPTOR.name  # type: ignore[attr-defined]
    assert description.startswith(words(name)), description
    assert "#" not in description, description  # no unknown-id fallback
    if hasattr(member, "space") and name != "Pass":
        assert lab.space(member.space) in description
    if name in ("DraftLeader", "DiscardLeader", "PlayLeader", "ActivateLeader"):
        assert lab.leader(member.leader) in description  # type: ignore[attr-defined]
    if name == "ChooseBonusTile":
        assert lab.bonus_tile(member.tile) in description  # type: ignore[attr-defined]
    if name == "ChooseExchange":
        assert lab.card(member.card) in description  # type: ignore[attr-defined]
    if name == "PlaceFamilyMember":
        colour = enum_label(member.DESCRIPTOR.fields_by_name["member"].enum_type, member.member)  # type: ignore[attr-defined]
        assert f"{colour} member" in description
        if member.servants:  # type: ignore[attr-defined]
            assert re.search(rf"\+{member.servants} servants?", description)  # type: ignore[attr-defined]
    if name == "ChooseCouncilPrivileges":
        for p in member.privileges:  # type: ignore[attr-defined]
            assert lab.privilege(p) in description
    if name == "AnswerVaticanReport":
        assert "support" in description


def test_every_command_type_of_random_playouts_is_described_readably() -> None:
    labels = labels_for("lorenzo")
    seen: dict[str, str] = {}
    for seats, seed, advanced in ((4, 1, True), (2, 2, True), (3, 9, False)):
        for step in playout(seats=seats, seed=seed, advanced=advanced):
            seat = step.actor.seat if step.actor.is_seat else 0
            view = view_message(step.state, seat)
            describer = Describer(labels, NAMES[:seats])
            for command in step.commands:
                member = union_member(command)
                text = describer.command(command, view)
                _check(text, member, labels)
                seen.setdefault(member.DESCRIPTOR.name, text)
    expected = {
        "ChooseBonusTile",
        "DraftLeader",
        "PlaceFamilyMember",
        "ChooseCouncilPrivileges",
        "DiscardLeader",
        "EndTurn",
        "AnswerVaticanReport",
        "StartRound",
        "EndRound",
        "ResolveVaticanReport",
        "EndGame",
    }
    assert expected <= set(seen), sorted(expected - set(seen))
    assert seen["EndTurn"] == "End turn"
    assert seen["StartRound"] == "Start round"


def test_tower_placement_names_the_card_and_its_cost() -> None:
    labels = labels_for("lorenzo")
    for step in playout(seats=4, seed=3):
        view = view_message(step.state, step.actor.seat if step.actor.is_seat else 0)
        for command in step.commands:
            member = union_member(command)
            if member.DESCRIPTOR.name != "PlaceFamilyMember" or labels.tower_space(member.space) is None:
                continue
            card = step.state.towers[member.space - 1]
            text = Describer(labels).command(command, view)
            assert labels.card(card) in text
            costs = labels.costs(card)
            if costs:
                assert f"pay {costs[member.cost_option]}" in text
            die = step.state.dice[member.member - 2] if member.member >= 2 else None
            if die is not None:
                assert f"(die {die})" in text
            return
    raise AssertionError("no tower placement")


def test_events_are_described_with_names() -> None:
    game = load_game("lorenzo")
    labels = labels_for("lorenzo")
    pb2 = game.modules.pb2
    event = pb2.MatchEvent()
    event.envelope.version = 12
    event.envelope.actor = "seat:0"
    event.event.card_taken.seat = 0
    event.event.card_taken.card = 1
    event.event.card_taken.card_type = pb2.CARD_TYPE_TERRITORY
    event.event.card_taken.space = 1
    text = Describer(labels, ("Ada",)).event(event)
    assert text.startswith("v12 Card taken")
    assert "Ada (seat 0)" in text and labels.card(1) in text and "territory" in text
    gained = pb2.MatchEvent()
    gained.envelope.version = 3
    gained.event.resources_gained.seat = 1
    gained.event.resources_gained.goods.coins = 5
    gained.event.resources_gained.source = pb2.SOURCE_MARKET
    assert Describer(labels).event(gained) == "v3 Resources gained: seat 1; goods 5 coins; source market"
