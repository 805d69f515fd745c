"""Florenza's bot hooks: the valuation (final score at the end, the round's plan out of one purse before
it), the every-seat evaluation against the per-seat one, the pruning, and the levels on the real game."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.florenza import bots
from services.florenza.rules.commands import HireArtist, PlanWorkshop, WorkWorkshop
from services.florenza.rules.goods import Goods
from services.florenza.rules.model import NO_SEAT, Phase
from services.workers.policies import bot_policy
from shared.core.decider import Actor
from shared.core.rng import Rng
from shared.matches.simulate import play_game

from .helpers import RULES, C
from .test_presentation import STEPS

PLACEMENTS = [s for s in STEPS if s.state.phase is Phase.PLACEMENT and s.actor.is_seat and s.legal]


def test_the_final_state_is_worth_its_final_scores() -> None:
    final = STEPS[-1].state
    assert final.phase is Phase.FINISHED
    for seat in range(len(final.players)):
        assert bots.evaluate(RULES, final, seat) == final.final[seat].total
    assert bots.evaluate_all(RULES, final, 4) == tuple(float(f.total) for f in final.final)


def test_every_seat_evaluation_equals_the_per_seat_one_throughout_a_game() -> None:
    for step in STEPS[::7]:
        seats = len(step.state.players)
        assert bots.evaluate_all(RULES, step.state, seats) == tuple(
            bots.evaluate(RULES, step.state, seat) for seat in range(seats)
        )


def test_a_hired_work_is_worth_its_result_only_while_the_purse_pays_it() -> None:
    step = next(s for s in PLACEMENTS if any(w.worker == s.actor.seat for w in s.state.works))
    seat = step.actor.seat
    rich = replace(step.state.players[seat], goods=Goods(2000, 9, 9, 9, 9, 9, 9))
    poor = replace(step.state.players[seat], goods=Goods())
    with_rich = replace(step.state, players=tuple(rich if p.seat == seat else p for p in step.state.players))
    with_poor = replace(step.state, players=tuple(poor if p.seat == seat else p for p in step.state.players))
    hired = sum(1 for w in step.state.works if w.worker == seat)
    valuation = bots._Valuation(C, with_poor)
    # Broke: every hired work fails (its area's penalty, one more with a named artist).
    assert valuation._this_round(poor) <= -hired
    assert bots._Valuation(C, with_rich)._this_round(rich) > 0


def test_two_works_never_spend_the_same_cubes() -> None:
    s = next(x for x in PLACEMENTS if x.state.round >= 2).state
    seat = 0
    first, second = [
        x for x in s.works if x.district == NO_SEAT and x.worker == NO_SEAT and x.crest == NO_SEAT
    ][:2]
    painter = next(a for a in C.artists if a.anonymous)  # no fee, no die: the works' own price only
    purse = C.work[first.work].cost  # exactly the first work's price
    v = bots._Valuation(C, s)
    gained, paid = v.hired_work(seat, purse, first.work, NO_SEAT, painter.id)
    assert gained > 0 and paid == purse
    failed, nothing = v.hired_work(seat, purse - paid, second.work, NO_SEAT, painter.id)
    assert failed == -C.board.failure(C.work[second.work].area) and nothing == Goods()


def test_prune_keeps_a_non_empty_subset_and_one_anonymous_artist_per_talent_and_work() -> None:
    for step in PLACEMENTS[:40]:
        seat = step.actor.seat
        kept = bots.prune(RULES, step.state, seat, step.legal, False)
        assert kept and set(map(id, kept)) <= set(map(id, step.legal))
        assert len(kept) <= bots.OWN_BEST
        candidates = bots.candidates(RULES, step.state, seat, step.legal, False)
        anonymous = [
            (c.work, C.artist[c.artist].skills)
            for c in candidates
            if isinstance(c, HireArtist) and C.artist[c.artist].anonymous
        ]
        assert len(anonymous) == len(set(anonymous))
        rival = bots.prune(RULES, step.state, seat, step.legal, True)
        assert len(rival) == 1


def test_the_searching_seat_keeps_its_one_ply_best_command() -> None:
    for step in PLACEMENTS[:30]:
        seat, actor = step.actor.seat, step.actor
        kept = bots.prune(RULES, step.state, seat, step.legal, False)
        best = max(
            bots.candidates(RULES, step.state, seat, step.legal, False),
            key=lambda c: bots.evaluate(RULES, bots._apply(RULES, step.state, actor, c), seat),
        )
        assert best in kept


def test_a_placement_is_ranked_by_what_it_changes_in_the_valuation() -> None:
    """``added`` (the pruner's rank of hires, plans and workshops to work) is exactly the valuation's
    change when the command is applied, the placed worker's own worth aside: a build that spends the
    cubes of a work already hired costs that work, and is ranked so (it was not: docs/workers.md)."""
    checked = 0
    for step in PLACEMENTS[:25]:
        state, actor, seat = step.state, step.actor, step.actor.seat
        valuation = bots._Valuation(C, state)
        now = valuation.round_with(state.players[seat])
        before = bots.evaluate(RULES, state, seat)
        for command in step.legal:
            if not isinstance(command, HireArtist | PlanWorkshop | WorkWorkshop):
                continue
            after = bots._apply(RULES, state, actor, command)
            if after.phase is not Phase.PLACEMENT:
                continue
            change = bots.evaluate(RULES, after, seat) - before
            assert bots.added(valuation, seat, command, now) - bots.WORKER == pytest.approx(change)
            checked += 1
    assert checked > 100


def test_a_rival_plans_only_what_it_can_pay_in_step_6() -> None:
    for step in PLACEMENTS[:30]:
        p = step.state.players[step.actor.seat]
        _, purse = bots._Valuation(C, step.state).districts(p)
        for c in bots.candidates(RULES, step.state, step.actor.seat, step.legal, True):
            if isinstance(c, PlanWorkshop):
                assert purse.covers(C.workshop[c.workshop].cost)


def test_hires_are_judged_by_the_purse_of_step_7_not_the_goods_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """A work this round's production pays for is worth as much to ``greedy``: the pruner keeps it."""
    step = next(s for s in PLACEMENTS if any(isinstance(c, HireArtist) for c in s.legal))
    seat = step.actor.seat
    broke = replace(step.state.players[seat], goods=Goods())
    state = replace(step.state, players=tuple(broke if p.seat == seat else p for p in step.state.players))
    legal = RULES.legal_commands(state, step.actor)
    hires = [c for c in legal if isinstance(c, HireArtist) and bots.missing(Goods(), C.work[c.work].cost) > 2]
    assert hires and not set(hires) & set(bots.candidates(RULES, state, seat, legal, False))
    rich = Goods(2000, 9, 9, 9, 9, 9, 9)  # as if the seat's workers produced it all in step 6
    monkeypatch.setattr(bots._Valuation, "districts", lambda self, p, extra=None: (0.0, rich))
    assert set(hires) & set(bots.candidates(RULES, state, seat, legal, False))


def test_greedy_beats_random() -> None:
    config = RULES.make_config(3, {})
    wins = 0
    for seed in range(3):
        policies = {
            0: bot_policy(RULES, "greedy"),
            1: bot_policy(RULES, "random"),
            2: bot_policy(RULES, "random"),
        }
        result = play_game(RULES, config, 70 + seed, policies, check=False)
        assert result.outcome is not None
        wins += result.outcome.placings[0] == 1
    assert wins == 3


def test_mcts_plays_a_legal_command() -> None:
    from services.workers.bots import Budget, make_bot

    step = PLACEMENTS[10]
    bot = make_bot("florenza", "mcts", Budget(seconds=5, iterations=8))
    chosen = bot.choose(RULES, step.state, step.actor.seat, len(step.state.players), Rng(3))
    assert chosen in RULES.legal_commands(step.state, Actor.of_seat(step.actor.seat))


def test_a_search_line_ends_with_its_step_not_at_the_seats_next_turn() -> None:
    start = PLACEMENTS[0].state
    seat = start.active
    others = [x for x in start.turn_order if x != seat]
    assert not bots.horizon(RULES, start, replace(start, active=others[0]))  # the others reply
    assert not bots.horizon(RULES, start, replace(start, active=seat))  # the seat's next placement
    assert bots.horizon(RULES, start, replace(start, phase=Phase.MARKET))  # the step is over
    assert bots.horizon(RULES, start, replace(start, round=start.round + 1))
