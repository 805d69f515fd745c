"""Trajan's terminal presentation on real views of random playouts: the board, commands and events in
words, the final scoring, all through the protobuf messages the terminal client receives."""

from __future__ import annotations

import functools
import io
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, get_args

from rich.console import Console

from services.client.presentation import presentation_for
from services.client.render import command_text, render_view
from services.games import load_game
from services.trajan.presentation import TrajanPresentation, load
from services.trajan.presentation.labels import COLOUR_LETTER
from services.trajan.rules.commands import (
    AdvanceInSenate,
    ChooseBowl,
    Command,
    DeliverShipment,
    DeployLegionnaire,
    PlaceWorker,
)
from services.trajan.rules.content_types import Commodity
from services.trajan.rules.events import (
    EVENT_TYPES,
    BowlEmptied,
    ConstructionTileTaken,
    DiscardsReshuffled,
    Event,
    MarkerSown,
    PointsScored,
    WildCommodityLoaded,
)
from services.trajan.rules.model import Phase, Reason, State
from shared.core.codec import wrap_union
from shared.core.decider import SPECTATOR, Actor
from shared.core.describe import Describer
from shared.core.rng import Rng
from tests.support.playout import random_playout

NAMES = ("Ada", "greedy bot", "mcts bot", "random bot")
GAME = load_game("trajan")
RULES, CODEC, PB2 = GAME.rules, GAME.codec, GAME.modules.pb2
C = RULES.content


@dataclass(frozen=True)
class Point:
    state: State
    actor: Actor
    command: Command
    legal: list[Command]


@functools.cache
def game_points(seats: int = 4, seed: int = 3) -> tuple[tuple[Point, ...], tuple[Event, ...], State]:
    """Every decision point of one random match, its events and its final state."""
    points: list[Point] = []
    events, final = random_playout(
        RULES,
        RULES.make_config(seats, {}),
        seed,
        on_step=lambda s, a, cmd, legal, _events: points.append(Point(s, a, cmd, list(legal))),
    )
    return tuple(points), tuple(events), final


def view_message(state: State, viewer: Actor) -> Any:
    return CODEC.to_message(RULES.view(state, viewer))


def text_of(renderable: Any, width: int = 220) -> str:
    console = Console(width=width, record=True, no_color=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def describe(command: Command, state: State, actor: Actor) -> str:
    wrapped = wrap_union(PB2.Command(), CODEC.to_message(command))
    return command_text(wrapped, load(), view_message(state, actor), NAMES)


def after(point: Point, rng_seed: int = 1) -> list[Event]:
    return list(RULES.decide(point.state, point.actor, point.command, Rng(rng_seed)))


def mid_game(seats: int = 4) -> Point:
    points, _, _ = game_points(seats)
    return next(
        p for p in points if p.state.round == 6 and p.state.phase is Phase.TURNS and p.actor.seat == 0
    )


# ------------------------------------------------------------------ the manifest
def test_the_client_finds_trajans_presentation_through_its_manifest() -> None:
    assert isinstance(presentation_for("trajan"), TrajanPresentation)


# ------------------------------------------------------------------ the board
def test_the_board_shows_time_circles_supply_provinces_construction_and_players() -> None:
    point = mid_game()
    s = point.state
    text = text_of(render_view(view_message(s, Actor.of_seat(0)), load(), NAMES, 321, "m1"))

    assert "Trajan  match m1  v321" in text
    assert f"Quarter {s.quarter} of 4  Round {s.round} of 16  Phase: turns" in text
    assert f"space {s.time % s.lap} of {s.lap}" in text
    for p in s.players:  # every slot's Trajan tile by id, every player by name
        assert NAMES[p.seat] in text
        for tile in (t for t in p.slots if t):
            assert f"T{tile} {C.trajan_tile[tile].vp} VP" in text
    for stack in s.trajan_stacks:  # the face-up tops of the supply
        if stack.top:
            assert f"T{stack.top} {load().labels.trajan_tile(stack.top)}" in text
    for province in C.provinces:
        assert province.name in text
    for site in s.sites:  # the construction grid: tiles still there by kind and VP
        if site.tile:
            assert f"{site.site}: {load().labels.construction_tile(site.tile)}" in text
    for bowl in (
        "I (seaport)",
        "II (forum)",
        "III (military)",
        "IV (senate)",
        "V (Trajan)",
        "VI (construction)",
    ):
        assert bowl in text
    for tile in s.senate_offer:
        assert f"{tile}: {load().labels.bonus_tile(tile)}" in text
    assert "identical goods ship" in text and "pairs ship" in text
    assert f"draw pile: {len(s.deck)} cards face down" in text
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for p in s.players:  # each player's row: VP, senate votes, supply, work area, camp
        name = NAMES[p.seat] + (" (you)" if p.seat == 0 else "")
        row = f"{name} {p.vp} "
        assert any(
            line.startswith(row) and f" {p.supply} {p.work_area} {p.camp} " in line for line in lines
        ), row


def test_each_bowl_shows_the_players_markers_in_colour_letters() -> None:
    point = mid_game()
    text = text_of(render_view(view_message(point.state, Actor.of_seat(0)), load(), NAMES, 1, ""), width=400)
    me = point.state.players[0]
    row = next(line for line in text.splitlines() if line.strip().startswith("Ada (you)"))
    cells = [c.strip() for c in re.split(r"\s{3,}", row.strip())][1:]
    expected = [" ".join(COLOUR_LETTER[m] for m in b.markers) or "-" for b in me.bowls]
    assert [c.split("  ")[0] for c in cells] == expected


def test_your_hand_shows_and_no_one_elses_does() -> None:
    point = mid_game()
    s = point.state
    mine = text_of(load().board(view_message(s, Actor.of_seat(0)), 1, NAMES, ""))
    spectator = text_of(load().board(view_message(s, SPECTATOR), 1, NAMES, ""))
    shown = re.search(r"Your hand: ([^│\n]+)", mine)
    assert shown is not None and "Ada (you)" in mine
    assert shown.group(1).strip() == load().labels.commodities(s.players[0].hand)
    assert "Your hand" not in spectator and "(you)" not in spectator


def test_every_decision_point_lists_distinct_words_for_distinct_commands() -> None:
    points, _, _ = game_points(3, 8)
    for point in points[::7]:
        if not point.actor.is_seat:
            continue
        texts = [describe(c, point.state, point.actor) for c in point.legal]
        assert len(set(texts)) == len(texts), texts
        generic = {Describer(NAMES).command(CODEC.to_message(c)) for c in point.legal}
        assert not set(texts) & generic or (len(point.legal) == 1 and texts == ["Decline"])


def test_command_words_tell_what_the_rules_then_do() -> None:
    """The VP a command announces are the VP its decision scores, and a bowl's target is where the last
    marker lands."""
    checked: set[str] = set()
    for seed in (3, 4, 5):
        points, _, _ = game_points(4, seed)
        for point in points:
            cmd = point.command
            if not isinstance(cmd, AdvanceInSenate | DeployLegionnaire | PlaceWorker | DeliverShipment):
                if isinstance(cmd, ChooseBowl):
                    _check_bowl(point)
                    checked.add("ChooseBowl")
                continue
            text = describe(cmd, point.state, point.actor)
            events = after(point)
            scored = sum(
                e.points for e in events if isinstance(e, PointsScored) and e.reason is not Reason.TRAJAN_TILE
            )
            if isinstance(cmd, PlaceWorker):
                taken = [e.tile for e in events if isinstance(e, ConstructionTileTaken)]
                if taken:
                    assert text.endswith(f"taking {load().labels.construction_tile(taken[0])}"), text
                else:
                    assert "taking" not in text, text
            else:
                assert f"for {scored} VP" in text, (text, events)
            checked.add(type(cmd).__name__)
    assert checked == {"AdvanceInSenate", "DeployLegionnaire", "PlaceWorker", "DeliverShipment", "ChooseBowl"}


def _check_bowl(point: Point) -> None:
    cmd = point.command
    assert isinstance(cmd, ChooseBowl)
    text = describe(cmd, point.state, point.actor)
    state, rng = point.state, Rng(2)
    events = after(point)
    picked = next(e for e in events if isinstance(e, BowlEmptied))
    for e in events:
        state = RULES.evolve(state, e)
    sown = [e for e in events if isinstance(e, MarkerSown)]
    while state.in_hand:  # sow the rest, whatever the colours: the target does not depend on them
        new = RULES.decide(state, point.actor, RULES.legal_commands(state, point.actor)[0], rng)
        sown += [e for e in new if isinstance(e, MarkerSown)]
        for e in new:
            state = RULES.evolve(state, e)
    assert f"time +{len(picked.markers)}" in text
    assert text.endswith(f"the last lands in {load().labels.bowl(sown[-1].bowl)}"), (text, sown)


# ------------------------------------------------------------------ events
def test_every_event_type_has_its_own_words_naming_the_players() -> None:
    seen: dict[str, str] = {}
    for seed in (3, 4, 5):
        _, events, _ = game_points(4, seed)
        for event in events:
            text = load().describe_event(CODEC.to_message(event), NAMES)
            generic = Describer(NAMES).event(CODEC.to_message(event))
            assert text and text != generic, text
            assert "seat " not in text, text  # players by name, never by number
            seen.setdefault(type(event).__name__, text)
    assert {t.__name__ for t in EVENT_TYPES} - set(seen) <= {"DiscardsReshuffled", "WildCommodityLoaded"}
    assert seen["StartPlayerChosen"].endswith("is the start player")
    assert re.match(r"^The game ends: 1st \S", seen["GameEnded"])


def test_every_type_of_the_event_union_is_worded_by_the_describers_table() -> None:
    # one instance per type: the first of the random games, else built (random play never empties the deck)
    instances: dict[type, Event] = {DiscardsReshuffled: DiscardsReshuffled((Commodity.WINE,) * 3)}
    instances[WildCommodityLoaded] = WildCommodityLoaded(1)
    for seed in (3, 4, 5):
        for event in game_points(4, seed)[1]:
            instances.setdefault(type(event), event)
    assert set(instances) == set(get_args(Event)) == set(EVENT_TYPES)
    for kind, event in instances.items():
        text = load().describe_event(CODEC.to_message(event), NAMES)
        assert text and text != Describer(NAMES).event(CODEC.to_message(event)), kind
    assert load().describe_event(CODEC.to_message(instances[DiscardsReshuffled]), NAMES) == (
        "The draw pile ran out: 3 cards from under the discard piles' tops form a new one"
    )
    wild = load().describe_event(CODEC.to_message(instances[WildCommodityLoaded]), NAMES)
    assert wild == "greedy bot loads a wild commodity tile onto the ship"


def test_points_read_as_gains_and_losses() -> None:
    pres = load()
    gain = pres.describe_event(CODEC.to_message(PointsScored(0, 5, Reason.TRAJAN_TILE)), NAMES)
    loss = pres.describe_event(CODEC.to_message(PointsScored(1, -9, Reason.UNMET_DEMANDS)), NAMES)
    assert gain == "Ada scores 5 VP for a Trajan tile"
    assert loss == "greedy bot loses 9 VP for unmet demands"


# ------------------------------------------------------------------ the end
def test_the_final_scoring_table_lists_every_part_best_first() -> None:
    _, _, final = game_points(4, 3)
    view = view_message(final, SPECTATOR)
    text = text_of(load().final(view, NAMES))
    outcome = RULES.outcome(final)
    assert outcome is not None
    rows = [line.split() for line in text.splitlines() if re.match(r"^\s+\d(st|nd|rd|th)\s", line)]
    assert [r[0] for r in rows] == ["1st", "2nd", "3rd", "4th"]
    by_place = sorted(range(4), key=lambda s: outcome.placings[s])
    for row, seat in zip(rows, by_place, strict=True):
        f = final.final[seat]
        assert row[-8:] == [
            str(x)
            for x in (
                f.before,
                f.hand,
                f.work_area,
                f.camp,
                f.trajan_tiles,
                f.construction_sets,
                f.bonus_tiles,
                f.total,
            )
        ]
        assert f.total == outcome.scores[seat]
    assert load().final(view_message(mid_game().state, SPECTATOR), NAMES) is None


# ------------------------------------------------------------------ the steps of a choice
def test_the_steps_of_a_choice_have_questions_and_options_in_words() -> None:
    """The presentation's optional step wording: a question per command field the client asks, and each
    value in words that tell the options of one decision apart."""
    pres = load()
    worded: dict[str, set[str]] = {}
    points, _, _ = game_points(3, 8)
    for point in points:
        if not point.actor.is_seat or len(point.legal) < 2:
            continue
        view = view_message(point.state, point.actor)
        members = [CODEC.to_message(c) for c in point.legal]
        for field in members[0].DESCRIPTOR.fields:
            if (
                len(
                    {
                        getattr(m, field.name) if not field.is_repeated else tuple(getattr(m, field.name))
                        for m in members
                        if m.DESCRIPTOR is members[0].DESCRIPTOR
                    }
                )
                < 2
            ):
                continue
            title = pres.step_title(members[0].DESCRIPTOR.name, field.name)
            assert title and title.endswith("?"), (members[0].DESCRIPTOR.name, field.name)
            same = [m for m in members if m.DESCRIPTOR is members[0].DESCRIPTOR]
            texts = [pres.option_text(m, field.name, view, NAMES) for m in same]
            assert all(texts), texts
            worded.setdefault(title, set()).update(t for t in texts if t)
    bowls = worded["Which bowl do you pick up?"]
    pattern = r"Pick up bowl [IV]+ \(\w+\): \d+ markers? \(.+\), time \+\d+, the last lands in bowl [IV]+"
    assert all(re.match(pattern, b) for b in bowls), bowls
    assert all(t.startswith("tile ") for t in worded["From which stack do you take a starting Trajan tile?"])
    assert "the draw pile" in worded["Where do you take a starting card from?"]
    assert {"Which marker goes into the next bowl?", "How do you meet the demands?"} <= set(worded)
    assert pres.step_title("ChooseBowl", "nothing") is None


def test_a_name_typed_after_a_question_mark_explains_the_component() -> None:
    pres = load()
    assert pres.explain("T19") == [f"Trajan tile 19: {pres.labels.trajan_tile(19)}, stack 3 (workers)"]
    assert pres.explain("britannia")[0].startswith("Britannia: 10 VP for a legionnaire")
    assert "Lugdunensis" in pres.explain("britannia")[0]
    assert pres.explain("bonus 5") == [
        "Bonus tile 5: legionnaires: 2/1 VP each in a province (yellow/grey side)"
    ]
    assert pres.explain("roof") == ["Construction tile roof: the first one brings the Trajan action"]
    assert len(pres.explain("wild")) == 4 and pres.explain("nothing like this") == []


def test_every_forum_tile_explained_says_what_it_does() -> None:
    pres = load()
    wild = pres.explain("wild commodity")
    assert len(wild) == 1 and "stands for any commodity card in a shipment" in wild[0], wild
    for spec in pres.labels.content.forum_tiles:
        found = [t for t in pres.explain(pres.labels.forum_tile(spec.tile)) if t.startswith("Forum tile")]
        assert found and all(re.search(r"of the 70\): \w+", t) for t in found), found


# ------------------------------------------------------------------ the client's questions
def _chooser(point: Point) -> Any:
    from services.client.presentation import planner_of
    from services.client.steps import Chooser, Steps

    pres, view = load(), view_message(point.state, point.actor)
    commands = [wrap_union(PB2.Command(), CODEC.to_message(c)) for c in point.legal]
    steps = Steps(
        lambda c: command_text(c, pres, view, NAMES), Describer(NAMES), pres, view, NAMES, planner_of(pres)
    )
    return Chooser(steps, commands, [])


def test_the_start_markers_question_names_the_bowl_it_fills() -> None:
    points, _, _ = game_points(2, 3)
    first = next(p for p in points if p.actor.is_seat and p.state.phase is Phase.MARKERS)
    bowl = first.command.bowl  # type: ignore[union-attr]
    assert _chooser(first).step().title == f"The first marker for {load().labels.bowl(bowl)}?"


def test_sowing_is_one_choice_of_order_sent_as_the_rules_own_commands() -> None:
    """Each order of the markers in hand is one option; its commands, played one after the other,
    are each legal and put the markers where the option says; every order is there once."""
    from services.trajan.presentation.labels import NUMERALS, lower
    from services.trajan.rules.commands import SowMarker
    from services.trajan.rules.model import StepKind

    tried = 0
    for seed in (3, 4):
        points, _, _ = game_points(2, seed)
        for point in points:
            s = point.state
            if not point.actor.is_seat or not s.pending or s.pending[0].kind is not StepKind.SOW:
                continue
            if len(s.in_hand) > 4:
                continue  # more than ORDER_LIMIT orders may be asked marker by marker
            chooser = _chooser(point)
            step = chooser.step()
            assert step.title.startswith("In which order do you sow your markers"), step.title
            labels = [o.label for o in step.options]
            assert len(labels) == len(set(labels)) == len(set(itertools.permutations(s.in_hand)))
            for n, option in enumerate(step.options):
                state, sent = s, [chooser.pick(n), *chooser.then]
                for command in sent:
                    typed = CODEC.from_message(getattr(command, command.WhichOneof("kind")))
                    assert isinstance(typed, SowMarker) and typed in RULES.legal_commands(state, point.actor)
                    for e in RULES.decide(state, point.actor, typed, Rng(1)):
                        state = RULES.evolve(state, e)
                before, now = s.players[point.actor.seat].bowls, state.players[point.actor.seat].bowls
                sown = [
                    f"{NUMERALS[b]} {lower(c)}"
                    for b in range(1, 7)
                    for c in (Counter(now[b - 1].markers) - Counter(before[b - 1].markers)).elements()
                ]
                assert sorted(sown) == sorted(option.label.split(", ")), (option.label, sown)
                assert not state.in_hand  # the rules sowed the rest
            tried += len(s.in_hand) >= 3
    assert tried  # orders of three markers or more, once per marker before
