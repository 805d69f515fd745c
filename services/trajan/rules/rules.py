"""``TrajanRules``: the decider of Trajan (2-4 players, the whole rulebook)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.trajan.rules import commands as cmd
from services.trajan.rules import events as ev
from services.trajan.rules import invariants, legal, quarter, setup, turn
from services.trajan.rules.content_types import Content
from services.trajan.rules.ctx import FOLDS, Ctx
from services.trajan.rules.events import Event
from services.trajan.rules.model import Config, Phase, State
from services.trajan.rules.view import TrajanView, determinize, view, visibility
from shared.core.decider import Actor, BaseRules, RuleViolation, Visibility
from shared.core.ranked_rules import RankedRules
from shared.core.rng import Rng


class TrajanRules(RankedRules[Content], BaseRules[Config, State, cmd.Command, Event, TrajanView]):
    """Pure rules over one ``Content``; holds nothing else."""

    folds = FOLDS
    finished = Phase.FINISHED
    # randomness recorded in events: a command that emitted one cannot be undone (shared.core.undo)
    revealing = frozenset(
        {
            ev.ConstructionTilesPlaced,
            ev.ProvinceTilesPlaced,
            ev.ForumFilled,
            ev.TrajanStackTopRevealed,
            ev.StartPlayerChosen,
            ev.SenateRestacked,
            ev.BonusTileDealt,
            ev.SenateOfferDrawn,
            ev.CommodityFlipped,
            ev.CommoditiesDrawn,
            ev.DiscardsReshuffled,
            ev.DemandRevealed,
        }
    )

    def make_config(self, seats: int, options: Mapping[str, str]) -> Config:
        """Trajan has no options; the seat count picks the time track."""
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_seats", "Trajan seats 2 to 4 players, not {seats}", seats=seats)
        if options:
            raise RuleViolation("bad_option", "unknown option {option}", option=repr(sorted(options)[0]))
        return Config(seats)

    def setup(self, config: Config, rng: Rng) -> Sequence[Event]:
        ctx = Ctx(self.content, self.initial_state(), rng)
        setup.prepare(ctx, config)
        return ctx.events

    def decide(self, state: State, actor: Actor, command: cmd.Command, rng: Rng) -> Sequence[Event]:
        c = self.content
        if actor not in legal.to_act(c, state):
            raise RuleViolation("not_your_turn", "{actor} may not act now", actor=actor)
        ctx = Ctx(c, state, rng)
        if actor.is_system:
            self._system_step(ctx, command)
            return ctx.events
        legal.check(c, state, actor.seat, command)
        match command:
            case cmd.PlaceStartMarkers():
                setup.place_markers(ctx, actor.seat, command)
            case cmd.DrawStartCommodity():
                setup.take_card(ctx, actor.seat, command)
            case cmd.TakeStartTrajanTile():
                setup.take_tile(ctx, actor.seat, command)
            case cmd.MeetDemands(plan):
                quarter.meet(ctx, actor.seat, plan)
            case cmd.ChooseBonusTile(tile):
                quarter.choose_bonus_tile(ctx, tile)
            case _:
                turn.play(ctx, actor.seat, command)
        return ctx.events

    def _system_step(self, ctx: Ctx, command: cmd.Command) -> None:
        if command != legal.system_command(ctx.state):
            raise RuleViolation(
                "wrong_phase", "{command} is not the pending system step", command=type(command).__name__
            )
        match command:
            case cmd.EndRound():
                quarter.end_round(ctx)
            case cmd.ScoreQuarter():
                quarter.score_quarter(ctx)
            case cmd.EndQuarter():
                quarter.end_quarter(ctx)
            case cmd.EndGame():
                quarter.end_game(ctx)

    def legal_commands(self, state: State, actor: Actor) -> Sequence[cmd.Command]:
        return legal.legal_commands(self.content, state, actor)

    def to_act(self, state: State) -> tuple[Actor, ...]:
        return legal.to_act(self.content, state)

    def view(self, state: State, viewer: Actor) -> TrajanView:
        return view(state, viewer)

    def visibility(self, event: Event) -> Visibility:
        return visibility(event)

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return determinize(state, seat, rng)

    def invariant_violations(self, state: State) -> Sequence[str]:
        """12 markers a player (2 of each colour), 15 figures conserved and none negative, 60 commodity
        cards conserved, one own legionnaire per province and worker per site, sane senate and arch."""
        return invariants.violations(self.content, state)
