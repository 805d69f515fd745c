"""Rendering a real Lorenzo view: towers with card names, goods, cards, your leaders, the result."""

from __future__ import annotations

from tabula.common.v1 import common_pb2

from services.client.describe import Describer
from services.client.labels import labels_for
from services.client.render import commands_table, outcome_table, render_view
from tests.unit.client.helpers import Step, playout, text_of, view_message

NAMES = ("Ada", "greedy bot", "mcts bot", "random bot")


def _first_action_step() -> Step:
    for step in playout(seats=4, seed=11):
        if step.state.phase.name == "ACTIONS" and step.state.players[0].hand and any(step.state.towers):
            return step
    raise AssertionError("no action phase with leaders in hand")


def test_board_shows_tower_card_names_goods_and_your_leaders() -> None:
    labels = labels_for("lorenzo")
    step = _first_action_step()
    view = view_message(step.state, 0)
    text = text_of(render_view(view, labels, NAMES, step.version, "m"))

    assert f"v{step.version}" in text and "Period 1" in text and "Round 1" in text and "actions" in text
    dice = step.state.dice
    assert f"Dice: black {dice[0]}  white {dice[1]}  orange {dice[2]}" in text
    for card in (c for c in step.state.towers if c):
        assert labels.card(card) in text  # every card on the towers by name
    for tower in ("Territory", "Character", "Building", "Venture"):
        assert tower in text
    assert "market: 5 coins" in text and "council palace" in text
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for p in step.state.players:  # each player's goods row: coins wood stone servants military faith VP
        g = p.goods
        row = " ".join(str(v) for v in (g.coins, g.wood, g.stone, g.servants, g.military, g.faith, g.victory))
        assert any(line.startswith(NAMES[p.seat]) and f" {row} " in line for line in lines), row
    assert "Ada (you)" in text
    for leader in step.state.players[0].hand:  # your leaders in hand, by name
        assert labels.leader(leader) in text
    for leader in step.state.players[1].hand:  # never another seat's hand
        assert labels.leader(leader) not in text or leader in step.state.players[0].hand
    for tile in step.state.excommunication_tiles:
        assert labels.excommunications[tile]["code"] in text


def test_cards_and_occupants_are_named() -> None:
    labels = labels_for("lorenzo")
    last = None
    for step in playout(seats=3, seed=4):
        if step.state.occupants and any(p.territories or p.buildings for p in step.state.players):
            last = step
            break
    assert last is not None
    text = text_of(render_view(view_message(last.state, 1), labels, NAMES[:3], last.version))
    for p in last.state.players:
        for card in (*p.territories, *p.buildings, *p.characters, *p.ventures):
            assert labels.card(card) in text
    for occ in last.state.occupants:
        assert f"{NAMES[occ.seat]} {occ.member.name.lower()}" in text
    assert "greedy bot (you)" in text


def test_spectator_view_and_final_scores() -> None:
    labels = labels_for("lorenzo")
    *_, end = playout(seats=2, seed=2)
    from services.games import load_game
    from shared.decider import SPECTATOR

    game = load_game("lorenzo")
    view = game.codec.to_message(game.rules.view(end.state, SPECTATOR))
    text = text_of(render_view(view, labels, ("Ada", "Bob"), end.version))
    assert "(you)" not in text and "Final scoring" in text
    outcome = game.rules.outcome(end.state)
    message = common_pb2.MatchOutcome(scores=outcome.scores, placings=outcome.placings)
    table = text_of(outcome_table(list(message.scores), list(message.placings), ("Ada", "Bob")))
    assert "Final scores" in table
    for seat, name in enumerate(("Ada", "Bob")):
        assert name in table and str(outcome.scores[seat]) in table


def test_commands_table_numbers_every_legal_command() -> None:
    labels = labels_for("lorenzo")
    step = _first_action_step()
    view = view_message(step.state, step.actor.seat)
    text = text_of(commands_table(step.commands, Describer(labels, NAMES), view))
    assert "Your legal commands" in text
    assert f" {len(step.commands)}   " in text
    assert "Place family member" in text
