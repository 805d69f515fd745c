"""Step 4: worker placement, every choice the seed gives (4.1 to 4.5), passing, and whose turn it is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.florenza.rules.commands import (
    ChooseDie,
    HireArtist,
    MakeOffering,
    Pass,
    PlanWorkshop,
    VisitMarket,
    WorkWorkshop,
)
from services.florenza.rules.events import (
    DiceChoiceOffered,
    PlacementPassed,
    TurnBegan,
    WorkersGained,
    WorkshopPlanned,
)
from services.florenza.rules.goods import Goods
from services.florenza.rules.model import NO_SEAT, Phase, Pulpit, Source
from shared.core.decider import Actor, RuleViolation

from .helpers import (
    ABSIDE,
    AFFRESCO,
    ANON_PAINTER,
    ANON_PREACHER,
    ANON_SCULPTOR,
    BOSCAIUOLO,
    BOTTICELLI,
    CAMPANILE,
    CASA,
    DONATELLO,
    FABBRO,
    MICHELANGELO,
    PULPITO,
    RULES,
    SALONE_SIGNORIA,
    SAVONAROLA,
    STATUA,
    Dice,
    fold,
    game,
    net,
    of_type,
    prestige,
    then,
    when,
    with_goods,
    with_player,
    with_spot,
)


def _built(seats: int = 3) -> object:
    s = game(seats=seats)
    for seat in range(seats):
        s = with_player(s, seat, district={1: (BOSCAIUOLO, True), 2: (FABBRO, True)})
    return s


# ---------------------------------------------------------------- 4.1 working a workshop


def test_working_your_own_workshop_is_free() -> None:
    events = when(_built(), 0, WorkWorkshop(0, 2))
    assert prestige(events, 0) == 0
    s = fold(events, _built())
    assert (s.players[0].district[1].worker, s.players[0].workers) == (0, 3)


def test_working_another_familys_workshop_pays_it_one_prestige() -> None:
    events = when(_built(), 0, WorkWorkshop(2, 1))
    assert (prestige(events, 0, Source.WORKSHOP_FEE), prestige(events, 2, Source.WORKSHOP_FEE)) == (-1, 1)
    assert fold(events, _built()).players[2].district[0].worker == 0


def test_at_minus_three_you_may_still_work_for_others_below_it_not() -> None:
    # Seed 4.1: "已经低于-3则无法执行" (already below -3). The FAQ's "at -3" is the other reading.
    at_floor = with_player(_built(), 0, prestige=-3)
    assert prestige(when(at_floor, 0, WorkWorkshop(1, 1)), 0) == -1
    below = with_player(_built(), 0, prestige=-4)
    with pytest.raises(RuleViolation, match="prestige_too_low"):
        when(below, 0, WorkWorkshop(1, 1))
    assert WorkWorkshop(0, 1) in RULES.legal_commands(below, Actor.of_seat(0))  # your own: still free


def test_one_worker_per_workshop_and_round() -> None:
    s = then(_built(), 0, WorkWorkshop(2, 1))
    with pytest.raises(RuleViolation, match="occupied"):
        when(s, 1, WorkWorkshop(2, 1))


def test_unbuilt_empty_and_purple_workshops_take_no_worker() -> None:
    s = with_player(_built(), 0, district={3: (FABBRO, False), 4: (CASA, True)})
    with pytest.raises(RuleViolation, match="not_built"):
        when(s, 0, WorkWorkshop(0, 3))
    with pytest.raises(RuleViolation, match="purple"):
        when(s, 0, WorkWorkshop(0, 4))
    with pytest.raises(RuleViolation, match="not_built"):
        when(s, 0, WorkWorkshop(0, 5))
    with pytest.raises(RuleViolation, match="no_such_workshop"):
        when(s, 0, WorkWorkshop(0, 9))


# ---------------------------------------------------------------- 4.2 planning a workshop


def test_a_planned_workshop_goes_unbuilt_into_the_lowest_empty_space() -> None:
    s = with_player(_built(), 0, district={4: (CASA, True)})
    events = when(s, 0, PlanWorkshop(CASA))
    assert of_type(events, WorkshopPlanned) == [WorkshopPlanned(0, CASA, 3)]
    s = fold(events, s)
    assert s.players[0].district[2] == replace(s.players[0].district[2], workshop=CASA, built=False, worker=0)
    assert s.workshop_supply.count(CASA) == 1  # two Casa tiles, one taken


def test_planning_needs_no_resources_but_a_tile_and_an_empty_space() -> None:
    s = _built()
    assert s.players[0].goods == Goods()
    then(s, 0, PlanWorkshop(CASA))
    s = replace(s, workshop_supply=tuple(x for x in s.workshop_supply if x != CASA))
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, 0, PlanWorkshop(CASA))
    full = with_player(_built(), 0, district={n: (FABBRO, True) for n in range(1, 9)})
    with pytest.raises(RuleViolation, match="district_full"):
        when(full, 0, PlanWorkshop(CASA))


# ---------------------------------------------------------------- 4.3 hiring an artist


def test_hiring_puts_worker_and_artist_on_an_open_work_of_your_district() -> None:
    s = then(game(), 0, HireArtist(AFFRESCO, BOTTICELLI))
    spot = next(w for w in s.works if w.work == AFFRESCO and w.district == 0)
    assert (spot.worker, spot.artist) == (0, BOTTICELLI)
    assert next(w for w in s.works if w.work == AFFRESCO and w.district == 1).worker == NO_SEAT
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, 1, HireArtist(AFFRESCO, BOTTICELLI))  # his tile is not on his card any more


def test_the_artist_needs_a_talent_the_work_asks_for() -> None:
    with pytest.raises(RuleViolation, match="wrong_skill"):
        when(game(), 0, HireArtist(AFFRESCO, DONATELLO))  # a sculptor for a fresco
    then(game(), 0, HireArtist(STATUA, MICHELANGELO))


def test_anonymous_artists_are_always_in_florence_two_per_skill() -> None:
    s = then(game(present={}), 0, HireArtist(AFFRESCO, ANON_PAINTER))
    s = then(s, 1, HireArtist(SALONE_SIGNORIA, ANON_PAINTER + 1))
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, 0, HireArtist(ABSIDE, ANON_PAINTER))
    assert not [
        c for c in RULES.legal_commands(s, Actor.of_seat(0)) if isinstance(c, HireArtist) and c.artist < 43
    ]


def test_a_work_with_a_worker_or_a_crest_is_closed() -> None:
    s = with_spot(game(), SALONE_SIGNORIA, worker=1, artist=ANON_PAINTER)
    with pytest.raises(RuleViolation, match="occupied"):
        when(s, 0, HireArtist(SALONE_SIGNORIA, BOTTICELLI))
    s = with_spot(game(), SALONE_SIGNORIA, crest=1)
    with pytest.raises(RuleViolation, match="occupied"):
        when(s, 0, HireArtist(SALONE_SIGNORIA, BOTTICELLI))


def test_an_absent_named_artist_cannot_be_hired() -> None:
    with pytest.raises(RuleViolation, match="not_available"):
        when(game(present={}), 0, HireArtist(CAMPANILE, 7))


# ---------------------------------------------------------------- 4.4 market


def test_one_worker_per_family_at_the_market() -> None:
    s = then(game(), 0, VisitMarket())
    assert (s.players[0].market, s.players[0].workers) == (True, 3)
    s = then(s, 1, Pass())
    with pytest.raises(RuleViolation, match="already_there"):
        when(s, 0, VisitMarket())


# ---------------------------------------------------------------- 4.5 offering


def test_an_offering_is_paid_at_once_and_the_die_gives_workers_this_round() -> None:
    s = with_goods(game(), 0, money=300)
    events = when(s, 0, MakeOffering(SAVONAROLA), Dice(6))
    assert net(events, 0, Source.OFFERING) == Goods(money=-200)
    assert of_type(events, WorkersGained) == [WorkersGained(0, 3, Source.OFFERING)]
    s = fold(events, s)
    assert (s.players[0].workers, s.players[0].reserve) == (6, 1)  # and one on the pulpit
    assert s.pulpits == (Pulpit(0, SAVONAROLA, False),)


def test_the_offering_must_be_affordable_and_the_pulpit_free() -> None:
    with pytest.raises(RuleViolation, match="cannot_pay"):
        when(game(), 0, MakeOffering(SAVONAROLA))
    s = then(game(), 0, MakeOffering(ANON_PREACHER), Dice(3))  # anonymous preachers cost nothing
    s = then(s, 1, Pass())
    with pytest.raises(RuleViolation, match="occupied"):
        when(s, 0, MakeOffering(ANON_PREACHER + 1))


def test_a_preacher_takes_one_offering_per_round() -> None:
    s = then(game(), 0, MakeOffering(ANON_PREACHER), Dice(1))
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, 1, MakeOffering(ANON_PREACHER))


def test_workers_from_a_preacher_stop_at_the_familys_eight() -> None:
    s = with_player(game(), 0, workers=7, reserve=1)
    s = with_goods(s, 0, money=200)
    events = when(s, 0, MakeOffering(SAVONAROLA), Dice(6))
    assert of_type(events, WorkersGained) == [WorkersGained(0, 1, Source.OFFERING)]


def test_the_duomo_pulpit_needs_a_crest_in_the_duomo_and_rolls_two_dice_to_keep_one() -> None:
    with pytest.raises(RuleViolation, match="no_crest"):
        when(game(), 0, MakeOffering(ANON_PREACHER, duomo=True))
    s = with_spot(game(), ABSIDE, crest=0)
    events = when(s, 0, MakeOffering(ANON_PREACHER, duomo=True), Dice(1, 6))
    assert of_type(events, DiceChoiceOffered)[0].pending.dice == (1, 6)
    s = fold(events, s)
    assert RULES.to_act(s) == (Actor.of_seat(0),)
    assert list(RULES.legal_commands(s, Actor.of_seat(0))) == [ChooseDie(1), ChooseDie(6)]
    with pytest.raises(RuleViolation, match="choose_die"):
        when(s, 0, Pass())
    with pytest.raises(RuleViolation, match="not_rolled"):
        when(s, 0, ChooseDie(3))
    events = when(s, 0, ChooseDie(6))
    assert of_type(events, WorkersGained) == [WorkersGained(0, 2, Source.OFFERING)]
    assert of_type(events, TurnBegan) == [TurnBegan(1)]


def test_equal_dice_in_the_duomo_need_no_choice() -> None:
    s = with_spot(game(), ABSIDE, crest=0)
    events = when(s, 0, MakeOffering(ANON_PREACHER, duomo=True), Dice(4, 4))
    assert not of_type(events, DiceChoiceOffered)
    assert of_type(events, WorkersGained) == [WorkersGained(0, 1, Source.OFFERING)]


# ---------------------------------------------------------------- turns and passing


def test_turns_go_round_in_turn_order_one_worker_at_a_time() -> None:
    s = game(seats=3, order=(2, 0, 1))
    assert s.active == 2
    s = then(s, 2, VisitMarket())
    assert s.active == 0
    with pytest.raises(RuleViolation, match="not_your_turn"):
        when(s, 2, Pass())


def test_a_pass_is_final_and_a_family_without_workers_passes_by_itself() -> None:
    s = game(seats=3)
    s = then(s, 0, Pass())
    s = with_player(s, 1, workers=1, reserve=7)
    events = when(s, 1, VisitMarket())
    assert of_type(events, PlacementPassed) == []
    s = fold(events, s)
    s = then(s, 2, Pass())
    # seat 0 passed, seat 1 has no worker left: step 4 is over and the market opens
    assert s.players[1].passed and (s.phase, s.active) == (Phase.MARKET, 1)


def test_when_everybody_passed_without_market_or_districts_the_district_step_is_due() -> None:
    s = then(game(), 0, Pass())
    s = then(s, 1, Pass())
    assert (s.phase, RULES.to_act(s)) == (Phase.DISTRICTS, (RULES.to_act(s)[0],))
    assert RULES.to_act(s)[0].is_system


def test_placing_lists_every_choice() -> None:
    s = with_goods(_built(), 0, money=500)
    legal = RULES.legal_commands(s, Actor.of_seat(0))
    kinds = {type(c) for c in legal}
    assert kinds == {WorkWorkshop, PlanWorkshop, HireArtist, VisitMarket, MakeOffering, Pass}
    assert HireArtist(STATUA, ANON_SCULPTOR) in legal


def test_the_duomo_has_one_pulpit() -> None:
    s = with_spot(with_spot(game(), ABSIDE, crest=0), PULPITO, crest=1)
    s = then(s, 0, MakeOffering(ANON_PREACHER, duomo=True), Dice(2, 2))
    with pytest.raises(RuleViolation, match="occupied"):
        when(s, 1, MakeOffering(ANON_PREACHER + 1, duomo=True))
    then(s, 1, MakeOffering(ANON_PREACHER + 1), Dice(2))  # its own pulpit is still free
