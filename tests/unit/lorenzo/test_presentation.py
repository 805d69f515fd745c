"""Lorenzo's terminal presentation on real views of random playouts: the board, the final scoring,
commands and events in words, and the labels, all from the validated content."""

from __future__ import annotations

import re
from typing import Any

from tabula.common.v1 import common_pb2

from services.client.presentation import presentation_for
from services.client.render import command_text, event_line, outcome_table, render_view
from services.client.steps import Chooser, Steps
from services.games import load_game
from services.lorenzo.content import load_content
from services.lorenzo.presentation import LorenzoPresentation, load
from services.lorenzo.presentation.labels import amounts_text
from shared.core.decider import SPECTATOR
from shared.core.describe import Describer, enum_label, union_member, words
from tests.unit.client.helpers import Step, playout, text_of, view_message

NAMES = ("Ada", "greedy bot", "mcts bot", "random bot")
CONTENT = load_content()


def _first_action_step() -> Step:
    for step in playout(seats=4, seed=11):
        if step.state.phase.name == "ACTIONS" and step.state.players[0].hand and any(step.state.towers):
            return step
    raise AssertionError("no action phase with leaders in hand")


# ------------------------------------------------------------------ the manifest and the labels
def test_the_client_finds_lorenzos_presentation_through_its_manifest() -> None:
    assert isinstance(presentation_for("lorenzo"), LorenzoPresentation)


def test_labels_name_every_component_from_the_validated_content() -> None:
    labels = load().labels
    for card in CONTENT.cards:
        assert labels.card(card.id) == card.name
    for leader in CONTENT.leaders:
        assert labels.leader(leader.id) == leader.name
    assert labels.card(999) == "card #999" and labels.leader(999) == "leader #999"
    assert labels.space(1) == "territory tower floor 1 (1)"
    assert labels.space(8) == "character tower floor 4 (7)"
    assert labels.space(17) == "market: 5 coins"
    assert labels.space(20) == "market: 2 privileges"
    assert labels.space(21) == "council palace"
    assert labels.space(23) == "harvest (large, -3)"
    assert labels.privilege(1) == "1 wood, 1 stone" and labels.privilege(9) == "privilege #9"
    assert labels.requirement(10) == "2 territory and 4 character cards"  # Leonardo da Vinci
    assert labels.requirement(17) == "3 building cards, 12 coins and 2 faith"  # Cesare Borgia
    assert labels.requirement(13) == "6 cards of one type"  # Lucrezia Borgia
    assert (
        labels.bonus_tile(2) == "tile A (harvest 1 wood, 1 stone, 1 military; production 1 coin, 2 servants)"
    )
    assert (
        labels.excommunication(5) == "Excommunication I/5: -3 to the value of every harvest action you make."
    )
    assert labels.excommunication(18) == (
        "Excommunication III/4: at the end of the game, before the final scoring, "
        "lose 1 VP for every 5 VP you have."
    )
    assert labels.excommunication(15) == (
        "Excommunication III/1: at the end of the game your character cards score no Victory Points."
    )
    assert labels.excommunication_name(9) == "Excommunication II/2" and labels.excommunication(99).endswith(
        "#99"
    )
    assert labels.costs(29) == ["1 coin and 2 wood"]
    assert labels.exchange(29, 2) == "pay 2 wood for 5 coins" and labels.exchange(29, 3) == "option 3"


def test_amounts_read_as_goods() -> None:
    assert amounts_text({"coins": 3, "wood": 1, "victory": 2}) == "3 coins, 1 wood, 2 VP"
    assert amounts_text({"coins": 1, "servants": 1, "privileges": 1}) == "1 coin, 1 servant, 1 privilege"
    assert amounts_text({"coins": 0}) == "nothing"


# ------------------------------------------------------------------ the board
def test_board_shows_tower_card_names_goods_and_your_leaders() -> None:
    presentation = load()
    step = _first_action_step()
    view = view_message(step.state, 0)
    text = text_of(render_view(view, presentation, NAMES, step.version, "m"))

    assert f"v{step.version}" in text and "Period 1" in text and "Round 1" in text and "actions" in text
    dice = step.state.dice
    assert f"Dice: black {dice[0]}  white {dice[1]}  orange {dice[2]}" in text
    for card in (c for c in step.state.towers if c):
        assert CONTENT.card[card].name in text  # every card on the towers by name
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
        assert CONTENT.leader[leader].name in text
    for leader in step.state.players[1].hand:  # never another seat's hand
        assert CONTENT.leader[leader].name not in text or leader in step.state.players[0].hand
    labels = presentation.labels
    for tile in step.state.excommunication_tiles:  # the match's excommunications, in words
        assert labels.excommunication(tile) in text and labels.excommunication(tile).startswith(
            "Excommunication"
        )
    for leader in step.state.players[0].hand:  # leaders with what they need and do
        assert labels.leader_text(leader) in text
    wide = text_of(render_view(view, presentation, NAMES, step.version, "m"), width=1200)
    for card in (c for c in step.state.towers if c):  # each tower card with its costs and effects
        assert labels.card_effects(card) in wide


def test_towers_are_in_board_order_top_floor_first() -> None:
    step = _first_action_step()
    text = text_of(load().board(view_message(step.state, 0), step.version, NAMES, ""))
    header = next(line for line in text.splitlines() if "Territory" in line)
    assert [w for w in header.split() if w != "floor"] == ["Territory", "Character", "Building", "Venture"]
    floors = [line.split()[0] for line in text.splitlines() if re.match(r"^\s+[1-4]\s", line)]
    assert floors[:4] == ["4", "3", "2", "1"]


def test_cards_and_occupants_are_named() -> None:
    last = None
    for step in playout(seats=3, seed=4):
        if step.state.occupants and any(p.territories or p.buildings for p in step.state.players):
            last = step
            break
    assert last is not None
    text = text_of(render_view(view_message(last.state, 1), load(), NAMES[:3], last.version))
    for p in last.state.players:
        for card in (*p.territories, *p.buildings, *p.characters, *p.ventures):
            assert CONTENT.card[card].name in text
    for occ in last.state.occupants:
        assert f"{NAMES[occ.seat]} {occ.member.name.lower()}" in text
    assert "greedy bot (you)" in text


def test_spectator_view_and_final_scores() -> None:
    *_, end = playout(seats=2, seed=2)
    game = load_game("lorenzo")
    view: Any = game.codec.to_message(game.rules.view(end.state, SPECTATOR))
    presentation = load()
    text = text_of(render_view(view, presentation, ("Ada", "Bob"), end.version))
    assert "(you)" not in text and "Final scoring" in text
    final = text_of(presentation.final(view, ("Ada", "Bob")))
    for score in view.final:  # each seat's breakdown ends with its total
        row = next(line for line in final.splitlines() if line.split()[:1] == [("Ada", "Bob")[score.seat]])
        assert row.split()[-1] == str(score.total)
    outcome = game.rules.outcome(end.state)
    message = common_pb2.MatchOutcome(scores=outcome.scores, placings=outcome.placings)
    table = text_of(outcome_table(list(message.scores), list(message.placings), ("Ada", "Bob")))
    assert "Final scores" in table
    for seat, name in enumerate(("Ada", "Bob")):
        assert name in table and str(outcome.scores[seat]) in table


def test_no_final_scoring_before_the_end() -> None:
    step = _first_action_step()
    assert load().final(view_message(step.state, 0), NAMES) is None


def test_a_first_turn_is_asked_in_lorenzos_words() -> None:
    step = _first_action_step()
    view = view_message(step.state, step.actor.seat)
    presentation = load()
    names = NAMES
    steps = Steps(
        lambda c: command_text(c, presentation, view, names), Describer(names), presentation, view, names
    )
    chooser = Chooser(steps, step.commands, [])
    kinds = chooser.step()
    assert kinds.title == "What do you do?" and len(kinds.options) < 10 < len(step.commands)
    place = next(i for i, o in enumerate(kinds.options) if o.label.startswith("Place family member ("))
    chooser.pick(place)
    members = chooser.step()
    assert members.title == "Which family member?"
    dice = dict(zip(("black", "white", "orange"), step.state.dice, strict=True))
    for option in members.options:
        colour = option.label.split()[0]
        assert option.label == (
            f"{colour} member (die {dice[colour]})" if colour in dice else "neutral member"
        )
    chooser.pick(next(i for i, o in enumerate(members.options) if "die" in o.label))
    spaces = chooser.step()
    assert spaces.title == "Where do you place it?"
    labels = presentation.labels
    towers = [o for o in spaces.options if "tower" in o.label]
    assert towers
    for option in towers:  # the card on the floor with its costs and effects
        space = option.choice.value
        card = step.state.towers[int(space) - 1]  # type: ignore[call-overload]
        assert option.label.endswith(labels.card_text(card)), option.label


# ------------------------------------------------------------------ commands and events in words
def _check(description: str, member: Any) -> None:
    """No raw ids: every id field appears by its name in the content."""
    name = member.DESCRIPTOR.name
    labels = load().labels
    assert description.startswith(words(name)), description
    assert "#" not in description, description  # no unknown-id fallback
    if hasattr(member, "space") and name != "Pass":
        assert labels.space(member.space) in description
    if name in ("DraftLeader", "DiscardLeader", "PlayLeader", "ActivateLeader"):
        assert CONTENT.leader[member.leader].name in description
    if name == "ChooseBonusTile":
        assert f"tile {CONTENT.bonus_tile[member.tile].name} " in description
    if name == "ChooseExchange":
        assert CONTENT.card[member.card].name in description
    if name == "PlaceFamilyMember":
        colour = enum_label(member.DESCRIPTOR.fields_by_name["member"].enum_type, member.member)
        assert f"{colour} member" in description
        if member.servants:
            assert re.search(rf"\+{member.servants} servants?", description)
    if name == "ChooseCouncilPrivileges":
        for p in member.privileges:
            assert labels.privilege(p) in description
    if name == "AnswerVaticanReport":
        assert "support" in description


def test_every_command_type_of_random_playouts_is_described_readably() -> None:
    presentation = load()
    seen: dict[str, str] = {}
    for seats, seed, advanced in ((4, 1, True), (2, 2, True), (3, 9, False)):
        for step in playout(seats=seats, seed=seed, advanced=advanced):
            seat = step.actor.seat if step.actor.is_seat else 0
            view = view_message(step.state, seat)
            for command in step.commands:
                member = union_member(command)
                text = command_text(command, presentation, view, NAMES[:seats])
                _check(text, member)
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


def test_every_step_of_every_decision_of_random_playouts_is_asked_in_lorenzos_words() -> None:
    """Walk every step of every seat decision (always the last option): each question is one of
    Lorenzo's own, each option names its ids (no ``#7`` fallback) and no option is empty."""
    from services.lorenzo.texts import PRESENTATION

    presentation = load()
    questions = {v for k, v in PRESENTATION.items() if v.endswith("?")} | {"The only possible command:"}
    asked: set[str] = set()
    for seats, seed, advanced in ((4, 1, True), (2, 2, True), (3, 9, False)):
        names = NAMES[:seats]
        for step in playout(seats=seats, seed=seed, advanced=advanced):
            if not step.actor.is_seat or not step.commands:
                continue
            view = view_message(step.state, step.actor.seat)
            steps = Steps(
                lambda c, v=view, n=names: command_text(c, presentation, v, n),
                Describer(names),
                presentation,
                view,
                names,
            )
            chooser = Chooser(steps, step.commands, [])
            while True:
                question = chooser.step()
                asked.add(question.title)
                assert question.title in questions, question.title
                for option in question.options:
                    assert option.label and "#" not in option.label, (question.title, option.label)
                chosen = chooser.pick(len(question.options) - 1)
                if chosen is not None:
                    assert chosen in step.commands
                    break
    assert {"Which family member?", "Where do you place it?", "Which leader do you keep?"} <= asked


def test_tower_placement_names_the_card_and_its_cost() -> None:
    presentation = load()
    for step in playout(seats=4, seed=3):
        view = view_message(step.state, step.actor.seat if step.actor.is_seat else 0)
        for command in step.commands:
            member = union_member(command)
            if member.DESCRIPTOR.name != "PlaceFamilyMember" or member.space > 16:
                continue
            card = CONTENT.card[step.state.towers[member.space - 1]]
            text = presentation.describe_command(member, view, ())
            assert card.name in text
            if card.costs:
                paid = amounts_text(
                    {
                        k: getattr(card.costs[member.cost_option].pay, k)
                        for k in ("coins", "wood", "stone", "servants", "military")
                    }
                )
                assert f"pay {paid}" in text
            die = step.state.dice[member.member - 2] if member.member >= 2 else None
            if die is not None:
                assert f"(die {die})" in text
            return
    raise AssertionError("no tower placement")


def test_events_are_described_with_names() -> None:
    pb2 = load_game("lorenzo").modules.pb2
    presentation = load()
    event = pb2.MatchEvent()
    event.envelope.version = 12
    event.envelope.actor = "seat:0"
    event.event.card_taken.seat = 0
    event.event.card_taken.card = 1
    event.event.card_taken.card_type = pb2.CARD_TYPE_TERRITORY
    event.event.card_taken.space = 1
    text = text_of(event_line(event, presentation, ("Ada",)))
    assert text.startswith("[Ada] v12 Card taken")
    assert "Ada (seat 0)" in text and CONTENT.card[1].name in text and "territory" in text
    gained = pb2.ResourcesGained(seat=1, source=pb2.SOURCE_MARKET)
    gained.goods.coins = 5
    assert presentation.describe_event(gained, ()) == "Resources gained: seat 1; goods 5 coins; source market"
    excommunicated = pb2.Excommunicated(seat=0, tile=5)
    assert presentation.describe_event(excommunicated, ("Ada",)) == (
        "Excommunicated: Ada (seat 0); tile Excommunication I/5: "
        "-3 to the value of every harvest action you make."
    )
    shuffled = pb2.DecksShuffled()
    shuffled.decks.add(cards=[1, 2, 3])
    assert presentation.describe_event(shuffled, ()) == "Decks shuffled"  # deck orders are not shown


def test_action_spaces_covered_at_this_player_count_are_left_out() -> None:
    *_, two = (step for _, step in zip(range(3), playout(seats=2, seed=2), strict=False))
    *_, four = (step for _, step in zip(range(3), playout(seats=4, seed=2), strict=False))
    two_text = text_of(load().board(view_message(two.state, 0), two.version, (), ""))
    four_text = text_of(load().board(view_message(four.state, 0), four.version, (), ""))
    for covered in ("market: 2 privileges", "market: 2 coins, 3 military", "harvest (large, -3)"):
        assert covered not in two_text and covered in four_text  # min_players 4 and 3 in board.yaml
    assert "market: 5 coins" in two_text and "council palace" in two_text


# ------------------------------------------------------------------ wording a new player reads
def test_the_setup_is_called_setup_not_period_0_round_0() -> None:
    first = next(iter(playout(seats=2, seed=3)))
    text = text_of(load().board(view_message(first.state, 0), 1, NAMES, "m"))
    assert "Setup  Phase:" in text and "Period 0" not in text and "Round 0" not in text


def test_events_name_the_players_of_a_turn_queue_and_word_the_decisions_owed() -> None:
    pb2, presentation = load_game("lorenzo").modules.pb2, load()
    started = pb2.RoundStarted(round=1, turn_queue=[1, 0, 1, 0])
    assert presentation.describe_event(started, NAMES) == "Round 1 begins; turn order greedy bot, Ada"
    game = pb2.GameStarted(seats=2, turn_order=[1, 0])
    assert presentation.describe_event(game, NAMES).endswith("turn order: greedy bot, Ada")
    queued = pb2.DecisionsQueued(seat=0)
    queued.decisions.add(kind=pb2.DECISION_KIND_PRIVILEGES, count=2)
    assert (
        presentation.describe_event(queued, NAMES) == "Ada must choose 2 council privileges (all different)"
    )
    for step in playout(seats=4, seed=5):  # the pending decisions under the board read alike
        if step.state.pending and step.actor.is_seat:
            text = text_of(presentation.board(view_message(step.state, step.actor.seat), 1, NAMES, "m"))
            pending = text[text.index("Pending: ") :].splitlines()[0]
            assert "kind" not in pending and "(" not in pending.split("Pending: ")[1][:3], pending
            assert re.search(r"Pending: (choose|take) ", pending), pending
            return
    raise AssertionError("no pending decision in the playout")


def test_a_die_is_shown_with_the_value_the_rules_give_it_under_an_excommunication() -> None:
    """Excommunication I/7 (every coloured member 1 less): the member's option shows the die and
    what it is worth, the rules' own value; so does the board."""
    from dataclasses import replace

    from services.lorenzo.rules.content_types import PenaltyKind
    from services.lorenzo.rules.model import Member
    from services.lorenzo.rules.queries import member_value

    tile = next(t for t in CONTENT.tile.values() if t.penalty is PenaltyKind.COLORED_MEMBER_MODIFIER)
    step = _first_action_step()
    players = list(step.state.players)
    players[0] = replace(players[0], excommunications=(tile.id,))
    state = replace(step.state, players=tuple(players))
    view, presentation = view_message(state, 0), load()
    for command in step.commands:
        member = union_member(command)
        if member.DESCRIPTOR.name != "PlaceFamilyMember" or member.member == Member.NEUTRAL:
            continue
        worth = member_value(CONTENT, state, state.players[0], Member(member.member))
        die = state.dice[(Member.BLACK, Member.WHITE, Member.ORANGE).index(Member(member.member))]
        assert worth == die + tile.value != die
        assert f"(die {die}, worth {worth})" in command_text(command, presentation, view, NAMES)
    assert "your members are worth" in text_of(presentation.board(view, 1, NAMES, "m"))
