"""Florenza's terminal presentation on real views of a random playout: the board (tracks, districts,
city, Duomo, market, Life in Florenza, supply), the final scoring, commands and events in words, and
the labels, all from the validated content."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from services.client.presentation import presentation_for
from services.florenza.presentation import FlorenzaPresentation, load
from services.florenza.presentation.labels import amounts_text
from services.florenza.rules.goods import Resource
from services.florenza.rules.model import NO_SEAT, Phase, State
from services.games import load_game
from shared.core.decider import SPECTATOR, Actor
from shared.core.rng import Rng

from .helpers import C

NAMES = ("Ada", "Bruno", "Cosima", "Dante")
GAME = load_game("florenza")


@dataclass(frozen=True)
class Step:
    state: State
    actor: Actor
    legal: list[Any]
    events: list[Any]  # what the chosen command produced


def playout(seats: int = 4, seed: int = 3) -> Iterator[Step]:
    """Every decision of a random match with the events it produced; the last step is the final state."""
    rules = GAME.rules
    rng = Rng(seed)
    state = rules.initial_state()
    setup = list(rules.setup(rules.make_config(seats, {}), rng.fork("setup")))
    for e in setup:
        state = rules.evolve(state, e)
    yield Step(state, SPECTATOR, [], setup)
    n = 0
    while rules.to_act(state):
        actor = rng.choice(rules.to_act(state))
        legal = list(rules.legal_commands(state, actor))
        events = list(rules.decide(state, actor, rng.choice(legal), rng.fork(f"d{n}")))
        yield Step(state, actor, legal, events)
        for e in events:
            state = rules.evolve(state, e)
        n += 1
    yield Step(state, SPECTATOR, [], [])


STEPS = list(playout())


def view_of(state: State, seat: int = 0) -> Any:
    return GAME.codec.to_message(GAME.rules.view(state, Actor.of_seat(seat)))


def text_of(renderable: Any, width: int = 240) -> str:
    console = Console(width=width, record=True, no_color=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def mid_game() -> Step:
    """A placement turn of round 4 with workshops built, works hired and characters in Florence."""
    for step in STEPS:
        s = step.state
        if s.phase is Phase.PLACEMENT and s.round == 4 and any(w.worker != NO_SEAT for w in s.works):
            return step
    raise AssertionError("no such step in the playout")


# ------------------------------------------------------------------ the manifest and the labels
def test_the_client_finds_florenzas_presentation_through_its_manifest() -> None:
    assert isinstance(presentation_for("florenza"), FlorenzaPresentation)


def test_labels_name_every_component_from_the_validated_content() -> None:
    labels = load().labels
    for w in C.workshops:
        assert labels.workshop(w.id) == w.name and labels.workshop_text(w.id).startswith(f"{w.name}: costs ")
    for a in C.artists:
        assert labels.character(a.id) == a.name and labels.artist_text(a.id).startswith(a.name)
    for p in C.preachers:
        assert labels.character(p.id) == p.name and f"offering {p.offering}" in labels.preacher_text(p.id)
    for work in C.works:
        place = work.building or {"PALAZZO": "Palazzo", "CHIESA": "Chiesa", "DUOMO": "Duomo"}[work.area.name]
        assert labels.work(work.id) == f"{work.name} ({place})"
    assert labels.workshop(99) == "workshop #99" and labels.character(99) == "character #99"
    assert labels.work(99) == "art work #99" and labels.life(6) == "Life in Florenza VI"
    assert labels.effect(3) == "gives 1 wood"  # Boscaiuolo
    assert labels.effect(1) == "pays 2 fabric for 3 prestige"  # Arazziere, a formula
    assert labels.effect(6) == "income 50 fiorini, 1 worker (purple, no worker)"  # Casa
    assert labels.artist_text(41) == "Anonymous painter (painting, free)"


def test_amounts_read_as_goods() -> None:
    assert amounts_text({"money": 100, "wood": 1, "prestige": 2}) == "100 fiorini, 1 wood, 2 prestige"
    assert amounts_text({"workers": 1}) == "1 worker" and amounts_text({"workers": 2}) == "2 workers"
    assert amounts_text({"money": 0}) == "nothing"


# ------------------------------------------------------------------ the board
def test_the_board_shows_every_part_of_the_table_as_the_state_has_it() -> None:
    s = mid_game().state
    text = text_of(load().board(view_of(s, 1), 42, NAMES, "m1"))
    assert "Florenza  match m1  v42" in text and "Round 4 of 8  Phase: placement (step 4)" in text
    assert f"Turn: {NAMES[s.active]}" in text
    for section in ("Families and tracks", "The city", "The Duomo", "Market", "Life in Florenza"):
        assert section in text
    assert "Bruno (you)" in text  # the viewer
    for p in s.players:
        row = next(line for line in text.splitlines() if line.strip().startswith(NAMES[p.seat]))
        numbers = [int(n) for n in re.findall(r"-?\d+", row)]
        certificates = [p.certificates] if p.seat == 1 else []  # the others' are hidden from Bruno
        expected = [p.prestige, *certificates, p.church, p.goods.money, p.goods.marble]
        assert numbers[: len(expected)] == expected, row
        assert (" ? " in row) is (p.seat != 1), row
        for x in p.district:
            if x.workshop:
                assert C.workshop[x.workshop].name in text
    for work in C.public_works:
        assert work.name in text and (work.area.name == "DUOMO" or work.building in text)
    bank = ", ".join(f"{s.supply.count(r)} {r.name.lower()}" for r in Resource)
    assert f"Bank: {bank}" in text
    for here in s.present:
        assert load().labels.character(here.character) in text
    assert f"In the bag: {len(s.bag)}" in text and "Workshop supply: " in text


def test_a_hired_work_and_a_worked_workshop_show_who_is_on_them() -> None:
    s = mid_game().state
    text = text_of(load().board(view_of(s), 1, NAMES, ""))
    for spot in s.works:
        if spot.worker != NO_SEAT and spot.district == NO_SEAT:
            assert f"{NAMES[spot.worker]} hired {C.artist[spot.artist].name}" in text
        if spot.crest != NO_SEAT and spot.district == NO_SEAT:
            assert f"completed by {NAMES[spot.crest]}" in text


def test_the_final_scoring_lists_every_line_best_first_with_names() -> None:
    final = STEPS[-1].state
    assert final.phase is Phase.FINISHED
    text = text_of(load().final(view_of(final), NAMES))
    assert "Final scoring" in text and "empty Palazzo/Chiesa" in text
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == 4
    assert [int(r[0]) for r in rows] == sorted(final.placings)
    for row in rows:
        score = next(f for f in final.final if NAMES[f.seat] == row[1])
        assert int(row[-3]) == score.total and int(row[0]) == final.placings[score.seat]
    assert load().final(view_of(mid_game().state), NAMES) is None


# ------------------------------------------------------------------ commands and events in words
def _commands() -> Iterator[tuple[Any, Any]]:
    for step in STEPS:
        if step.actor.is_seat:
            view = view_of(step.state, step.actor.seat)
            yield from ((GAME.codec.to_message(c), view) for c in step.legal)


def test_every_kind_of_command_is_described_in_words_with_names_not_ids() -> None:
    presentation = load()
    seen: dict[str, str] = {}
    for command, view in _commands():
        text = presentation.describe_command(command, view, NAMES)
        assert "#" not in text and "{" not in text, text
        seen.setdefault(command.DESCRIPTOR.name, text)
    assert {"ChooseStartingWorkshop", "PlanWorkshop", "HireArtist", "WorkWorkshop", "MakeOffering"} <= set(
        seen
    )
    assert {"VisitMarket", "Pass", "CompleteArtWork", "SellResource", "BuyResource"} <= set(seen)
    assert re.fullmatch(r"Hire artist: .+ \(.+\) for .+ \(.+\): .+ -> .+ prestige.*", seen["HireArtist"])
    assert re.fullmatch(r"Plan workshop: .+: costs .+; (gives|pays|income) .+", seen["PlanWorkshop"])
    assert re.fullmatch(r"Complete art work: .+ with \w+ by .+; price .+", seen["CompleteArtWork"])


def test_a_duomo_die_choice_names_the_workers_or_the_bonus_it_keeps() -> None:
    seen = 0
    for seed in range(3, 40):
        for step in playout(seed=seed):
            pending = step.state.pending
            if pending is not None and step.legal:
                view = view_of(step.state, pending.seat)
                texts = [load().describe_command(GAME.codec.to_message(c), view, NAMES) for c in step.legal]
                assert all(t.startswith("Choose die: ") for t in texts)
                assert all(("worker" in t) or ("bonus die" in t) for t in texts), texts
                seen += 1
        if seen >= 3:
            return
    raise AssertionError("no Duomo dice in 37 playouts")


def test_events_read_as_sentences_naming_the_players() -> None:
    presentation = load()
    texts = [
        presentation.describe_event(GAME.codec.to_message(e), NAMES) for step in STEPS for e in step.events
    ]
    assert all("{" not in t and "#" not in t for t in texts)
    assert texts[0].startswith("The game starts with 4 families; turn order ")
    assert any(re.fullmatch(r"(Ada|Bruno|Cosima|Dante) hired .+ for .+ \(.+\)", t) for t in texts)
    assert any(re.fullmatch(r"Income die: \d, everybody takes \w+", t) for t in texts)
    assert any(t.startswith("Arrived in Florence: ") for t in texts)
    assert texts[-2].startswith("The game ends: ") and texts[-1] == "Step: finished"


def test_every_event_type_of_the_union_has_its_words_in_the_describers_table() -> None:
    """A type without an entry (or an entry naming no event) would fall back to the generic wording."""
    from services.florenza.presentation.describe import EVENT_WORDS
    from services.florenza.rules.events import EVENT_TYPES

    assert set(EVENT_WORDS) == {t.__name__ for t in EVENT_TYPES}


# ------------------------------------------------------------------ the terminal client's steps
def test_every_step_of_every_decision_is_asked_in_florenzas_words() -> None:
    """Walk every step of every seat decision of the playout (the options taken in turns): each question is
    Florenza's own or the client's first one, each option names its ids, no list is longer than 30."""
    from services.client.render import command_text
    from services.client.steps import Chooser, Steps
    from services.florenza.presentation.steps import FIELDS, step_title
    from shared.core.codec import wrap_union
    from shared.core.describe import Describer

    presentation = load()
    questions = {step_title(command, field) for command, field in FIELDS} | {
        "What do you do?",
        "The only possible command:",
    }
    asked: set[str] = set()
    turn = 0
    for step in STEPS:
        if not step.actor.is_seat or not step.legal:
            continue
        view = view_of(step.state, step.actor.seat)
        commands = [wrap_union(GAME.modules.pb2.Command(), GAME.codec.to_message(c)) for c in step.legal]

        def describe(c: Any, v: Any = view) -> str:
            return command_text(c, presentation, v, NAMES)

        steps = Steps(
            describe,
            Describer(NAMES),
            presentation,
            view,
            NAMES,
        )
        chooser = Chooser(steps, commands, [])
        while True:
            question = chooser.step()
            asked.add(question.title)
            assert question.title in questions, question.title
            assert len(question.options) <= 30, (question.title, len(question.options))
            for option in question.options:
                assert option.label and "#" not in option.label, (question.title, option.label)
            turn += 1
            chosen = chooser.pick(turn % len(question.options))
            if chosen is not None:
                assert chosen in commands
                break
    assert {"For which art work?", "Which artist?", "Which workshop do you plan?", "Whose workshop?"} <= asked
    assert {"Which starting workshop?", "With which talent?"} & asked


def test_explain_finds_components_with_their_costs_and_effects() -> None:
    presentation = load()
    assert presentation.explain("bosca") == [presentation.labels.workshop_text(3)]
    found = presentation.explain("facciata")
    assert len(found) == 4 and all(" -> " in text for text in found)  # Palazzo, two city, Duomo
    assert presentation.explain("savonarola")[0].startswith("Girolamo Savonarola (offering 200")
    assert presentation.explain("") == [] and presentation.explain("zzz") == []


# ------------------------------------------------------------------ what can only fail says so
def _art_work_turns() -> Iterator[tuple[Step, Any]]:
    """The art-works turns of a few random playouts, with the acting seat's view."""
    for seed in (3, 4, 5):
        for step in playout(seed=seed):
            if step.state.phase is Phase.ART_WORKS and step.actor.is_seat and step.state.pending is None:
                yield step, view_of(step.state, step.actor.seat)


def test_an_art_work_that_cannot_be_paid_says_it_can_only_fail_and_what_it_costs() -> None:
    """The warning is the rules' own outcome: every command the rules then fail is marked, with the
    prestige they then take; no command the rules complete is."""
    presentation, rules = load(), GAME.rules
    warned = paid = 0
    for step, view in _art_work_turns():
        for command in step.legal:
            text = presentation.describe_command(GAME.codec.to_message(command), view, NAMES)
            events = list(rules.decide(step.state, step.actor, command, Rng(1)))
            failed = any(type(e).__name__ == "ArtWorkFailed" for e in events)
            lost = -sum(e.delta for e in events if type(e).__name__ == "PrestigeChanged" and e.delta < 0)
            assert ("can only fail" in text) == failed, text
            if failed:
                assert text.endswith(f"it can only fail, -{lost} prestige"), text
                assert re.search(r"you lack \d+ \w+", text), text
                warned += 1
            else:
                paid += 1
    assert warned and paid


def test_the_choice_of_an_unpayable_art_work_warns_before_it_is_chosen() -> None:
    from services.client.render import command_text
    from services.client.steps import Chooser, Steps
    from shared.core.codec import wrap_union
    from shared.core.describe import Describer

    presentation = load()
    for step, view in _art_work_turns():
        commands = [wrap_union(GAME.modules.pb2.Command(), GAME.codec.to_message(c)) for c in step.legal]
        texts = [command_text(c, presentation, view, NAMES) for c in commands]
        if not all("can only fail" in t for t in texts):
            continue
        steps = Steps(
            lambda c, v=view: command_text(c, presentation, v, NAMES), Describer(NAMES), presentation, view
        )
        options = Chooser(steps, commands, []).step().options
        assert all("can only fail" in o.label for o in options), [o.label for o in options]
        return
    raise AssertionError("no turn whose every art work fails")


def test_events_read_as_sentences_without_jargon() -> None:
    """No "(seat 0)", "forced yes" or raw field lists in any event of a playout."""
    presentation = load()
    for step in STEPS:
        for e in step.events:
            text = presentation.describe_event(GAME.codec.to_message(e), NAMES)
            assert "(seat" not in text and "forced" not in text and "; slot" not in text, text


def test_no_question_offers_two_options_worded_alike() -> None:
    """Two anonymous painters are one option of "Which artist?"."""
    from services.client.render import command_text
    from services.client.steps import Chooser, Steps
    from shared.core.codec import wrap_union
    from shared.core.describe import Describer

    presentation = load()
    hires = 0
    for step in STEPS:
        if not step.actor.is_seat or not any(type(c).__name__ == "HireArtist" for c in step.legal):
            continue
        view = view_of(step.state, step.actor.seat)
        commands = [wrap_union(GAME.modules.pb2.Command(), GAME.codec.to_message(c)) for c in step.legal]
        steps = Steps(
            lambda c, v=view: command_text(c, presentation, v, NAMES), Describer(NAMES), presentation, view
        )
        chooser = Chooser(steps, commands, [])
        kinds = chooser.step().options
        if chooser.pick(next(i for i, o in enumerate(kinds) if o.label.startswith("Hire artist"))):
            continue  # a single hire: no question
        question = chooser.step()
        while question.title != "Which artist?" and chooser.pick(0) is None:
            question = chooser.step()
        labels = [o.label for o in question.options]
        assert len(labels) == len(set(labels)), labels
        hires += any(label.startswith("Anonymous") for label in labels)
    assert hires
