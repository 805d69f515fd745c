"""``FlorenzaRules``: the decider of Florenza (2 to 5 players)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.florenza.rules import commands as cmd
from services.florenza.rules import events as ev
from services.florenza.rules import placement, resolution, rounds
from services.florenza.rules.content_types import Content
from services.florenza.rules.effects import FOLDS, Ctx
from services.florenza.rules.events import Event, PlacementPassed
from services.florenza.rules.flow import next_placer
from services.florenza.rules.invariants import violations
from services.florenza.rules.legal import legal_commands, to_act
from services.florenza.rules.model import Config, Phase, State, Title, Trade
from services.florenza.rules.view import FlorenzaView, determinize, view, visibility
from shared.core.decider import Actor, BaseRules, RuleViolation, Visibility
from shared.core.ranked_rules import RankedRules
from shared.core.rng import Rng

_BOOL = {"true": True, "false": False}


class FlorenzaRules(RankedRules[Content], BaseRules[Config, State, cmd.Command, Event, FlorenzaView]):
    """Pure rules over one ``Content``; holds nothing else."""

    folds = FOLDS
    finished = Phase.FINISHED
    # randomness recorded in events: a command that emitted one cannot be undone (shared.core.undo)
    revealing = frozenset({ev.GameStarted, ev.CharactersArrived, ev.IncomeDieRolled, ev.DiceRolled})

    def make_config(self, seats: int, options: Mapping[str, str]) -> Config:
        """Options: ``hidden_certificates`` = "true" (default: each family's certificates hidden from
        the others until the end, D24) or "false" (open on the table)."""
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_seats", "Florenza seats 2 to 5 players, not {seats}", seats=seats)
        unknown = sorted(set(options) - {"hidden_certificates"})
        if unknown:
            raise RuleViolation("bad_option", "unknown option {option}", option=repr(unknown[0]))
        raw = options.get("hidden_certificates", "true").strip().lower()
        if raw not in _BOOL:
            raise RuleViolation(
                "bad_option", "hidden_certificates must be 'true' or 'false', not {value}", value=repr(raw)
            )
        return Config(seats, hidden_certificates=_BOOL[raw])

    def setup(self, config: Config, rng: Rng) -> Sequence[Event]:
        ctx = Ctx(self.content, self.initial_state())
        rounds.setup(ctx, config, rng)
        return ctx.events

    def decide(self, state: State, actor: Actor, command: cmd.Command, rng: Rng) -> Sequence[Event]:
        if actor not in to_act(state):
            raise RuleViolation("not_your_turn", "{actor} may not act now", actor=actor)
        ctx = Ctx(self.content, state)
        if actor.is_system:
            _system_step(ctx, command, rng)
        elif state.pending is not None:
            if not isinstance(command, cmd.ChooseDie):
                raise RuleViolation("choose_die", "keep one of the two dice first")
            resolution.choose_die(ctx, actor.seat, command.die)
        else:
            _seat_step(ctx, actor.seat, command, rng)
        return ctx.events

    def legal_commands(self, state: State, actor: Actor) -> Sequence[cmd.Command]:
        return legal_commands(self.content, state, actor)

    def to_act(self, state: State) -> tuple[Actor, ...]:
        return to_act(state)

    def view(self, state: State, viewer: Actor) -> FlorenzaView:
        return view(state, viewer)

    def visibility(self, event: Event) -> Visibility:
        return visibility(event)

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return determinize(state, seat, rng)

    def invariant_violations(self, state: State) -> Sequence[str]:
        """No negative count; each family's eight workers, the 84 cubes, the 45 workshop tiles and the
        40 named characters all somewhere, once."""
        return violations(self.content, state)


def _system_step(ctx: Ctx, command: cmd.Command, rng: Rng) -> None:
    phase = ctx.state.phase
    match command:
        case cmd.CollectIncome() if phase is Phase.INCOME:
            rounds.collect_income(ctx, rng)
        case cmd.ResolveDistricts() if phase is Phase.DISTRICTS:
            resolution.resolve_districts(ctx)
        case cmd.EndRound() if phase is Phase.ROUND_END:
            rounds.end_round(ctx, rng)
        case cmd.ScoreGame() if phase is Phase.GAME_END:
            rounds.score_game(ctx)
        case _:
            raise RuleViolation(
                "wrong_phase", "{command} is not the pending system step", command=type(command).__name__
            )


def _seat_step(ctx: Ctx, seat: int, command: cmd.Command, rng: Rng) -> None:
    match ctx.state.phase, command:
        case Phase.CHOOSE_WORKSHOPS, cmd.ChooseStartingWorkshop(workshop):
            rounds.choose_starting_workshop(ctx, seat, workshop)
        case Phase.CAPTAIN, cmd.WithholdWorker(target):
            placement.withhold_worker(ctx, seat, target)
        case Phase.CAPTAIN, cmd.WithholdArtist(artist):
            placement.withhold_artist(ctx, seat, artist)
        case Phase.CAPTAIN, cmd.DeclinePrivilege():
            placement.decline(ctx, seat, Title.CAPTAIN)
        case Phase.BISHOP, cmd.LureWorker(target):
            placement.lure_worker(ctx, seat, target)
        case Phase.BISHOP, cmd.ExpelPreacher(preacher):
            placement.expel_preacher(ctx, seat, preacher)
        case Phase.BISHOP, cmd.DeclinePrivilege():
            placement.decline(ctx, seat, Title.BISHOP)
        case Phase.PLACEMENT, _:
            _placement_step(ctx, seat, command, rng)
        case Phase.MARKET, cmd.SellResource(r):
            resolution.trade(ctx, seat, Trade.SELL, r, r)
        case Phase.MARKET, cmd.BuyResource(r):
            resolution.trade(ctx, seat, Trade.BUY, r, r)
        case Phase.MARKET, cmd.ExchangeResources(give, get):
            resolution.trade(ctx, seat, Trade.EXCHANGE, give, get)
        case Phase.MARKET, cmd.LeaveMarket():
            resolution.leave_market(ctx, seat)
        case Phase.ART_WORKS, cmd.CompleteArtWork(work, skill):
            resolution.complete_art_work(ctx, seat, work, skill, rng)
        case _:
            raise RuleViolation(
                "wrong_phase", "{command} is not possible now", command=type(command).__name__
            )


def _placement_step(ctx: Ctx, seat: int, command: cmd.Command, rng: Rng) -> None:
    match command:
        case cmd.WorkWorkshop(owner, slot):
            placement.work_workshop(ctx, seat, owner, slot)
        case cmd.PlanWorkshop(workshop):
            placement.plan_workshop(ctx, seat, workshop)
        case cmd.HireArtist(work, artist):
            placement.hire_artist(ctx, seat, work, artist)
        case cmd.VisitMarket():
            placement.visit_market(ctx, seat)
        case cmd.MakeOffering(preacher, duomo):
            placement.make_offering(ctx, seat, preacher, duomo, rng)
        case cmd.Pass():
            ctx.emit(PlacementPassed(seat, False))
            next_placer(ctx, seat)
        case _:
            raise RuleViolation(
                "wrong_phase", "{command} is not possible in step 4", command=type(command).__name__
            )
