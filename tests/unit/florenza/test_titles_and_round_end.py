"""Steps 2 and 3 (the Captain's and the Bishop's privileges), 8 (titles, turn order) and 9 (end of round)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from services.florenza.rules.commands import (
    DeclinePrivilege,
    EndRound,
    ExpelPreacher,
    HireArtist,
    LureWorker,
    MakeOffering,
    WithholdArtist,
    WithholdWorker,
)
from services.florenza.rules.events import (
    CardinalCreated,
    CharactersArrived,
    CharactersDeparted,
    PrestigeBanked,
    TitlesAssigned,
    WorkersGained,
)
from services.florenza.rules.model import NO_SEAT, Phase, Pulpit, Source
from shared.core.decider import Actor, RuleViolation
from shared.core.rng import Rng

from .helpers import (
    ANON_PAINTER,
    BOTTICELLI,
    BRUNO,
    DONATELLO,
    MICHELANGELO,
    RULES,
    SAVONAROLA,
    STATUA,
    church,
    fold,
    game,
    of_type,
    prestige,
    then,
    when,
    with_player,
)


def _captain(seats: int = 3) -> Any:
    s = game(seats=seats, phase=Phase.CAPTAIN)
    return replace(s, captain=0, active=0)


# ---------------------------------------------------------------- step 2: Captain of the People


def test_captain_withholds_a_worker_of_another_family_until_the_end_of_the_round() -> None:
    s = then(_captain(), 0, WithholdWorker(2))
    assert (s.players[2].workers, s.withheld_worker) == (3, 2)
    assert s.phase is Phase.PLACEMENT and s.active == 0  # no Bishop: step 4, Captain first
    s = replace(s, phase=Phase.ROUND_END)
    s = then(s, -1, EndRound())
    assert (s.players[2].workers, s.players[2].reserve, s.withheld_worker) == (0, 8, NO_SEAT)


def test_captain_may_not_withhold_his_own_worker() -> None:
    with pytest.raises(RuleViolation, match="bad_target"):
        when(_captain(), 0, WithholdWorker(0))


def test_captain_withholds_a_named_artist_and_nobody_may_hire_him() -> None:
    s = then(_captain(), 0, WithholdArtist(BOTTICELLI))
    assert s.withheld_artist == BOTTICELLI
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, 0, HireArtist(STATUA - 1, BOTTICELLI))  # Affresco asks for a painter
    assert HireArtist(2, BOTTICELLI) not in RULES.legal_commands(s, Actor.of_seat(0))


def test_captain_may_withhold_neither_an_anonymous_artist_nor_a_preacher() -> None:
    with pytest.raises(RuleViolation, match="not_available"):
        when(_captain(), 0, WithholdArtist(ANON_PAINTER))
    with pytest.raises(RuleViolation, match="not_available"):
        when(_captain(), 0, WithholdArtist(SAVONAROLA))


def test_captain_may_decline_and_the_bishop_acts_next() -> None:
    s = replace(_captain(), bishop=1)
    s = then(s, 0, DeclinePrivilege())
    assert (s.phase, s.active) == (Phase.BISHOP, 1)


# ---------------------------------------------------------------- step 3: Bishop


def _bishop() -> Any:
    return replace(game(seats=3, phase=Phase.BISHOP), bishop=1, active=1)


def test_bishop_lures_a_worker_onto_his_own_board() -> None:
    s = then(_bishop(), 1, LureWorker(0))
    assert [(p.workers, p.reserve) for p in s.players] == [(3, 5), (5, 3), (4, 4)]
    assert s.phase is Phase.PLACEMENT


def test_bishop_without_a_spare_worker_still_takes_one_away() -> None:
    s = with_player(_bishop(), 1, workers=8, reserve=0)
    events = when(s, 1, LureWorker(2))
    assert not of_type(events, WorkersGained)
    assert fold(events, s).players[2].workers == 3


def test_bishop_expels_a_named_preacher_for_the_round() -> None:
    s = then(_bishop(), 1, ExpelPreacher(SAVONAROLA))
    assert s.expelled == SAVONAROLA
    with pytest.raises(RuleViolation, match="not_available"):
        when(s, s.active, MakeOffering(SAVONAROLA))
    s = replace(s, phase=Phase.ROUND_END)
    assert then(s, -1, EndRound()).expelled == 0


def test_bishop_may_not_expel_an_artist_or_an_absent_preacher() -> None:
    with pytest.raises(RuleViolation, match="not_available"):
        when(_bishop(), 1, ExpelPreacher(MICHELANGELO))
    with pytest.raises(RuleViolation, match="not_available"):
        when(_bishop(), 1, ExpelPreacher(BRUNO))  # not in Florence


# ---------------------------------------------------------------- step 8: titles


def _end(seats: int = 3, order: tuple[int, ...] | None = None, **tracks: tuple[int, ...]) -> Any:
    s = game(seats=seats, phase=Phase.ROUND_END, order=order, round=3)
    for seat in range(seats):
        s = with_player(s, seat, **{k: v[seat] for k, v in tracks.items()})
    return s


def test_the_captain_is_the_single_leader_on_prestige_and_banks_it_as_certificates() -> None:
    s = _end(prestige=(4, 9, 2))
    events = when(s, -1, EndRound())
    assert of_type(events, PrestigeBanked) == [PrestigeBanked(1, 9)]
    s = fold(events, s)
    assert s.captain == 1
    assert (s.players[1].prestige, s.players[1].certificates) == (0, 9)
    assert s.turn_order == (1, 0, 2)


def test_a_tie_for_the_lead_on_prestige_means_no_captain() -> None:
    s = fold(when(_end(prestige=(7, 7, 2)), -1, EndRound()), _end(prestige=(7, 7, 2)))
    assert s.captain == NO_SEAT
    assert s.players[0].certificates == 0


def test_nobody_ahead_of_the_start_is_no_captain() -> None:
    s = _end(prestige=(0, -2, -1))
    assert fold(when(s, -1, EndRound()), s).captain == NO_SEAT


@pytest.mark.parametrize(
    ("influence", "bishop"), [((3, 1, 0), 0), ((2, 1, 0), NO_SEAT), ((4, 4, 0), NO_SEAT)]
)
def test_the_bishop_leads_on_church_influence_with_at_least_three(
    influence: tuple[int, ...], bishop: int
) -> None:
    s = _end(church=influence)
    assert of_type(when(s, -1, EndRound()), TitlesAssigned)[0].bishop == bishop


def test_bishop_exception_the_bishop_keeps_his_church_influence() -> None:
    # Seed 8.2: unlike the Captain's prestige, the Bishop's influence marker stays where it is.
    s = _end(prestige=(5, 0, 0), church=(0, 6, 2))
    s = fold(when(s, -1, EndRound()), s)
    assert (s.captain, s.bishop) == (0, 1)
    assert (s.players[0].prestige, s.players[1].church) == (0, 6)
    assert s.turn_order == (0, 1, 2)


def test_bishop_two_rounds_running_becomes_cardinal_with_five_prestige_and_no_influence() -> None:
    s = replace(_end(church=(0, 5, 1), prestige=(0, 2, 3)), bishop=1)
    events = when(s, -1, EndRound())
    assert of_type(events, CardinalCreated) == [CardinalCreated(1)]
    assert (prestige(events, 1, Source.CARDINAL), church(events, 1, Source.CARDINAL)) == (5, -5)
    assert fold(events, s).bishop == 1  # still the Bishop of the next round


def test_ten_church_influence_makes_a_cardinal_even_without_the_bishops_title() -> None:
    s = _end(church=(10, 10, 1))
    events = when(s, -1, EndRound())
    assert of_type(events, TitlesAssigned)[0].bishop == NO_SEAT
    assert [e.seat for e in of_type(events, CardinalCreated)] == [0, 1]


def test_both_ways_to_cardinal_give_five_prestige_only_once() -> None:
    s = replace(_end(church=(12, 1, 1)), bishop=0)
    events = when(s, -1, EndRound())
    assert len(of_type(events, CardinalCreated)) == 1
    assert prestige(events, 0, Source.CARDINAL) == 5


def test_captain_and_bishop_in_one_hand_go_first_once() -> None:
    s = _end(seats=4, order=(3, 2, 1, 0), prestige=(0, 0, 6, 0), church=(0, 0, 5, 0))
    s = fold(when(s, -1, EndRound()), s)
    assert (s.captain, s.bishop) == (2, 2)
    assert s.turn_order == (2, 3, 1, 0)


def test_only_a_bishop_goes_first_and_the_others_keep_their_order() -> None:
    s = _end(seats=4, order=(3, 2, 1, 0), church=(0, 4, 0, 0))
    s = fold(when(s, -1, EndRound()), s)
    assert s.turn_order == (1, 3, 2, 0)


def test_without_titles_the_order_does_not_change() -> None:
    s = replace(_end(seats=3, order=(2, 0, 1)), captain=2)
    s = fold(when(s, -1, EndRound()), s)
    assert s.turn_order == (2, 0, 1)
    assert s.captain == NO_SEAT  # the title is elected anew every round


# ---------------------------------------------------------------- step 9: end of the round


def test_end_of_round_returns_every_worker_preacher_and_withheld_character() -> None:
    s = _end()
    s = replace(
        s,
        pulpits=(Pulpit(0, SAVONAROLA, False),),
        withheld_artist=BOTTICELLI,
        withheld_worker=2,
    )
    s = with_player(s, 0, workers=1, reserve=6)
    s = with_player(s, 2, workers=3, reserve=4)
    s = fold(when(s, -1, EndRound()), s)
    assert all((p.workers, p.reserve) == (0, 8) for p in s.players)
    assert (s.pulpits, s.withheld_artist, s.withheld_worker) == ((), 0, NO_SEAT)


def test_life_in_florenza_card_one_leaves_the_others_shift_left_and_the_bag_refills() -> None:
    s = game(phase=Phase.ROUND_END, present={MICHELANGELO: 1, BOTTICELLI: 3, DONATELLO: 1, SAVONAROLA: 7})
    events = when(s, -1, EndRound(), Rng(5))
    assert of_type(events, CharactersDeparted)[0].characters == (MICHELANGELO, DONATELLO)
    arrived = of_type(events, CharactersArrived)[0].arrivals
    assert len(arrived) == 2
    s = fold(events, s)
    cards = {p.character: p.card for p in s.present}
    assert {k: v for k, v in cards.items() if k in (BOTTICELLI, SAVONAROLA)} == {BOTTICELLI: 2, SAVONAROLA: 6}
    assert all(cards[a.character] == a.card for a in arrived)
    assert set(s.departed) == {MICHELANGELO, DONATELLO}
    assert len(s.bag) == 40 - 4 - 2


def test_the_round_marker_moves_and_income_is_due() -> None:
    s = fold(when(_end(), -1, EndRound()), _end())
    assert (s.round, s.phase) == (4, Phase.INCOME)


def test_after_round_eight_the_game_ends() -> None:
    s = replace(_end(), round=8)
    s = fold(when(s, -1, EndRound()), s)
    assert (s.round, s.phase) == (8, Phase.GAME_END)


def test_an_empty_bag_refills_what_it_can() -> None:
    s = game(phase=Phase.ROUND_END, present={MICHELANGELO: 1, DONATELLO: 1})
    last = s.bag[0]
    s = replace(s, bag=(last,), departed=tuple(x for x in s.bag if x != last))
    events = when(s, -1, EndRound(), Rng(3))
    assert [a.character for a in of_type(events, CharactersArrived)[0].arrivals] == [last]
    assert fold(events, s).bag == ()
