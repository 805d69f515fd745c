"""``LorenzoRules``: the decider of Lorenzo il Magnifico (base game and advanced rules, 2-4 players)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from services.lorenzo.rules import actions, leaders, rounds
from services.lorenzo.rules import commands as cmd
from services.lorenzo.rules import events as ev
from services.lorenzo.rules.content_types import CardType, Content
from services.lorenzo.rules.effects import FOLDS, Ctx
from services.lorenzo.rules.events import Event, PlacementPassed
from services.lorenzo.rules.goods import ZERO
from services.lorenzo.rules.legal import has_placement, legal_commands, to_act
from services.lorenzo.rules.model import Config, Phase, State
from services.lorenzo.rules.queries import SeatCache
from services.lorenzo.rules.view import LorenzoView, determinize, view, visibility
from shared.core.decider import Actor, BaseRules, RuleViolation, Visibility
from shared.core.ranked_rules import RankedRules
from shared.core.rng import Rng

_BOOL = {"true": True, "false": False}


class LorenzoRules(RankedRules[Content], BaseRules[Config, State, cmd.Command, Event, LorenzoView]):
    """Pure rules over one ``Content``; holds nothing else."""

    folds = FOLDS
    finished = Phase.FINISHED
    # randomness recorded in events: a command that emitted one cannot be undone (shared.core.undo)
    revealing = frozenset(
        {
            ev.ExcommunicationTilesDrawn,
            ev.DecksShuffled,
            ev.LeadersDealt,
            ev.DraftHandReceived,
            ev.TowersFilled,
            ev.DiceRolled,
        }
    )

    def make_config(self, seats: int, options: Mapping[str, str]) -> Config:
        """Options: ``advanced`` = "true" (default: leaders and advanced bonus tiles) or "false"."""
        if not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation(
                "bad_seats", "Lorenzo il Magnifico seats 2 to 4 players, not {seats}", seats=seats
            )
        unknown = sorted(set(options) - {"advanced"})
        if unknown:
            raise RuleViolation("bad_option", "unknown option {option}", option=repr(unknown[0]))
        raw = options.get("advanced", "true").strip().lower()
        if raw not in _BOOL:
            raise RuleViolation(
                "bad_option", "advanced must be 'true' or 'false', not {value}", value=repr(raw)
            )
        return Config(seats=seats, advanced=_BOOL[raw])

    def setup(self, config: Config, rng: Rng) -> Sequence[Event]:
        ctx = Ctx(self.content, self.initial_state())
        rounds.setup(ctx, config, rng)
        return ctx.events

    def decide(self, state: State, actor: Actor, command: cmd.Command, rng: Rng) -> Sequence[Event]:
        if actor not in to_act(self.content, state):
            raise RuleViolation("not_your_turn", "{actor} may not act now", actor=actor)
        ctx = Ctx(self.content, state, actor.seat)
        if actor.is_system:
            self._system_step(ctx, command, rng)
        elif state.phase is Phase.ACTIONS:
            self._turn_step(ctx, actor.seat, command)
        else:
            self._setup_step(ctx, actor.seat, command)
        return ctx.events

    def _system_step(self, ctx: Ctx, command: cmd.Command, rng: Rng) -> None:
        phase = ctx.state.phase
        match command:
            case cmd.StartRound() if phase is Phase.ROUND_START:
                rounds.start_round(ctx, rng)
            case cmd.ResolveVaticanReport() if phase is Phase.VATICAN:
                rounds.resolve_vatican(ctx)
            case cmd.EndRound() if phase is Phase.ROUND_END:
                rounds.end_round(ctx)
            case cmd.EndGame() if phase is Phase.GAME_END:
                rounds.end_game(ctx)
            case _:
                raise RuleViolation(
                    "wrong_phase", "{command} is not the pending system step", command=type(command).__name__
                )

    def _setup_step(self, ctx: Ctx, seat: int, command: cmd.Command) -> None:
        phase = ctx.state.phase
        match command:
            case cmd.ChooseBonusTile(tile) if phase is Phase.CHOOSE_BONUS_TILES:
                rounds.choose_bonus_tile(ctx, seat, tile)
            case cmd.DraftLeader(leader) if phase is Phase.DRAFT_LEADERS:
                rounds.draft_leader(ctx, seat, leader)
            case cmd.AnswerVaticanReport(support) if phase is Phase.VATICAN:
                rounds.answer_vatican(ctx, seat, support)
            case _:
                raise RuleViolation(
                    "wrong_phase", "{command} is not possible now", command=type(command).__name__
                )

    def _turn_step(self, ctx: Ctx, seat: int, command: cmd.Command) -> None:
        c, s = self.content, ctx.state
        if s.pending:
            self._decision_step(ctx, seat, command)
        else:
            self._free_step(ctx, seat, command)
        ctx.flush()
        s = ctx.state
        if s.acted and not s.pending and not leaders.can_act_with_leaders(c, s, seat):
            rounds.end_turn(ctx, seat)

    def _decision_step(self, ctx: Ctx, seat: int, command: cmd.Command) -> None:
        c, s = self.content, ctx.state
        match command:
            case cmd.ChooseCouncilPrivileges(privileges):
                actions.choose_privileges(ctx, seat, privileges)
            case cmd.ChooseExchange(card, option):
                actions.choose_exchange(ctx, seat, card, option)
            case cmd.TakeBonusCard(space, servants, co, do):
                plan = actions.check_bonus_take(SeatCache(c, s, seat), space, servants, co, do)
                actions.take_bonus_card(ctx, seat, plan)
            case cmd.PerformBonusAction(servants):
                actions.perform_bonus_action(ctx, seat, servants)
            case cmd.SkipBonusAction():
                actions.skip_bonus_action(ctx, seat)
            case _:
                raise RuleViolation("decision_pending", "resolve the pending choice first")

    def _free_step(self, ctx: Ctx, seat: int, command: cmd.Command) -> None:
        c, s = self.content, ctx.state
        match command:
            case cmd.PlaceFamilyMember(member, space, servants, co, do):
                if s.acted:
                    raise RuleViolation("already_acted", "one family member per turn")
                plan = actions.check_place(SeatCache(c, s, seat), member, space, servants, co, do)
                actions.place(ctx, seat, member, plan)
            case cmd.Pass():
                if s.acted:
                    raise RuleViolation("already_acted", "you already acted this turn")
                if has_placement(c, s, seat):
                    raise RuleViolation("can_place", "you may pass only when no member can be placed")
                ctx.emit(PlacementPassed(seat))
            case cmd.EndTurn():
                if not s.acted:
                    raise RuleViolation("not_acted", "place a family member (or pass) first")
                rounds.end_turn(ctx, seat)
            case cmd.PlayLeader(leader, copy_of):
                leaders.play_leader(ctx, seat, leader, copy_of)
            case cmd.DiscardLeader(leader):
                leaders.discard_leader(ctx, seat, leader)
            case cmd.ActivateLeader(leader, member):
                leaders.activate_leader(ctx, seat, leader, member)
            case _:
                raise RuleViolation(
                    "wrong_phase", "{command} is not possible now", command=type(command).__name__
                )

    def legal_commands(self, state: State, actor: Actor) -> Sequence[cmd.Command]:
        return legal_commands(self.content, state, actor)

    def to_act(self, state: State) -> tuple[Actor, ...]:
        return to_act(self.content, state)

    def view(self, state: State, viewer: Actor) -> LorenzoView:
        return view(state, viewer)

    def visibility(self, event: Event) -> Visibility:
        return visibility(event)

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return determinize(self.content, state, seat, rng)

    def invariant_violations(self, state: State) -> Sequence[str]:
        """No negative goods, at most 6 cards of a kind (rulebook: a personal board holds 6),
        and the current action's budget never negative."""
        out = []
        for p in state.players:
            if p.goods.floor0() != p.goods:
                out.append(f"seat {p.seat}: negative goods {p.goods}")
            for kind in CardType:
                if len(p.cards_of(kind)) > 6:
                    out.append(f"seat {p.seat}: more than 6 {kind.name.lower()} cards")
        if not state.budget.covers(ZERO):
            out.append(f"negative action budget {state.budget}")
        return out
