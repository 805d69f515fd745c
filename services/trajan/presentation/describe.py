"""Trajan's commands and events in words, from the typed records the rules use.

The terminal client hands protobuf messages; ``presentation/__init__.py`` turns them back into the rules'
dataclasses (``shared.core.codec.from_proto``), so every wording here works on typed records: a ``match`` over
the commands, a table of words per event type (:data:`EVENT_WORDS`), with ids named through :class:`Labels`
and seats by their players' names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from services.trajan.presentation.labels import (
    PAYMENT,
    PILE,
    PLACE,
    REASON,
    Labels,
    colours,
    commodities,
    lower,
    phase,
)
from services.trajan.rules import commands as c
from services.trajan.rules import events as e
from services.trajan.rules.content_types import ShipKind
from services.trajan.rules.model import Payment, Pile, Place, StepKind
from services.trajan.rules.view import TrajanView
from shared.core.describe import seat_name

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


def article(word: str) -> str:
    """``an orange``, ``a pink``."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class TrajanDescriber:
    labels: Labels
    names: Sequence[str] = ()

    def who(self, seat: int) -> str:
        return seat_name(self.names, seat)

    # ------------------------------------------------------------ commands
    def command(self, cmd: c.Command, view: TrajanView | None = None) -> str:
        """One legal command, as the player chooses it (``view`` adds what the board shows)."""
        lab = self.labels
        match cmd:
            case c.PlaceStartMarkers(bowl, first, second):
                return f"Put {colours((first, second))} markers into {lab.bowl(bowl)}"
            case c.DrawStartCommodity(pile):
                return f"Take a starting card from {self._pile(pile, view)}"
            case c.TakeStartTrajanTile(stack, slot):
                top = self._stack_top(stack, view)
                return f"Take {top} from {lab.trajan_stack(stack)} onto {lab.slot(slot)}"
            case c.ChooseBowl(bowl):
                return self._choose_bowl(bowl, view)
            case c.SowMarker(colour):
                where = f" into {lab.bowl(view.next_bowl)}" if view is not None and view.next_bowl else ""
                return f"Sow {article(lower(colour))} marker{where}"
            case c.UseTrajanEffect(action):
                if action is not None:
                    return f"Use the Trajan tile: a [+2] marker beside the {lab.action(action)} action"
                return f"Use the Trajan tile: {self._effect(view)}"
            case c.Decline():
                return self._decline(view)
            case c.UseExtraAction(tile):
                return f"Spend the {lab.forum_tile(tile)} tile: {self._extra(view)}"
            case c.DrawCommodities():
                return "Seaport: draw 2 cards, then discard one face up"
            case c.DiscardCommodity(commodity, pile):
                return f"Discard {lower(commodity)} onto {PILE[pile]}"
            case c.TakeDiscard(pile):
                return f"Seaport: take {self._pile(pile, view)}"
            case c.DisplayCommodities(cards):
                return f"Seaport: play {commodities(cards)} face up, then draw {len(cards)}"
            case c.StartShipment(ship):
                return f"Seaport: ship goods on {lab.ship(ship)} ({self._ship_values(ship, view)})"
            case c.LoadCommodity(commodity):
                return f"Load {lower(commodity)} onto the ship"
            case c.LoadWildCommodity():
                return "Load a wild commodity tile onto the ship"
            case c.DeliverShipment():
                return f"Deliver the shipment{self._cargo(view)}"
            case c.TakeForumTile(tile):
                return f"Forum: take {lab.forum_tile(tile)}"
            case c.RecruitLegionnaire():
                return "Military: a figure from your supply into the military camp"
            case c.MoveLeader(province):
                return f"Military: move your leader to {self._province(province, view)}"
            case c.DeployLegionnaire():
                return f"Military: deploy a legionnaire{self._deploy(view)}"
            case c.TakeTrajanTile(stack):
                top = self._stack_top(stack, view)
                return f"Trajan: take {top} from {lab.trajan_stack(stack)}{self._arch(view)}"
            case c.AdvanceInSenate():
                return f"Senate: advance one space{self._senate(view)}"
            case c.RecruitWorker():
                return "Construction: a figure from your supply into the work area"
            case c.PlaceWorker(site):
                return f"Construction: a worker onto {lab.site(site)}{self._site(site, view)}"
            case c.MeetDemands(payments):
                return "Meet the demands: " + self._payments(payments, view)
            case c.ChooseBonusTile(tile):
                return f"Take bonus tile {tile} yellow side up ({lab.bonus_tile(tile)})"
            case c.EndRound():
                return "End the round"
            case c.ScoreQuarter():
                return "Score the quarter: demands and senate"
            case c.EndQuarter():
                return "End the quarter: remove and refill tiles"
            case c.EndGame():
                return "Final scoring"

    def _me(self, view: TrajanView | None) -> int:
        if view is None:
            return -1
        return view.viewer_seat if view.viewer_seat >= 0 else view.active_seat

    def _pile(self, which: Pile, view: TrajanView | None) -> str:
        if which is Pile.DECK or view is None:
            return PILE[which]
        cards = view.left_pile if which is Pile.LEFT else view.right_pile
        return f"{PILE[which]} ({lower(cards[-1])})" if cards else PILE[which]

    def _stack_top(self, stack: int, view: TrajanView | None) -> str:
        if view is None or not 1 <= stack <= len(view.trajan_stacks):
            return "the top tile"
        top = view.trajan_stacks[stack - 1].top
        return f"tile {top}: {self.labels.trajan_tile(top)}" if top else "the top tile"

    def _choose_bowl(self, bowl: int, view: TrajanView | None) -> str:
        me = self._me(view)
        if view is None or not 0 <= me < len(view.players):
            return f"Pick up {self.labels.bowl(bowl)}"
        markers = view.players[me].bowls[bowl - 1].markers
        n = len(markers)
        target = (bowl - 1 + n) % len(view.players[me].bowls) + 1
        return (
            f"Pick up {self.labels.bowl(bowl)}: {plural(n, 'marker')} ({colours(markers)}), "
            f"time +{n}, the last lands in {self.labels.bowl(target)}"
        )

    def _effect(self, view: TrajanView | None) -> str:
        if view is None or not view.pending or not view.pending[0].tile:
            return "its effect"
        return self.labels.trajan_effect(view.pending[0].tile) or "its effect"

    def _decline(self, view: TrajanView | None) -> str:
        if view is None or not view.pending:
            return "Decline"
        step = view.pending[0]
        match step.kind:
            case StepKind.TRAJAN_EFFECT:
                return "Decline the Trajan tile's effect"
            case StepKind.ACTION | StepKind.EXTRA_ACTION:
                return f"Decline {self.labels.step(step.kind, step.action)}"
            case _:
                return "Decline"

    def _extra(self, view: TrajanView | None) -> str:
        if view is None or not view.pending or view.pending[0].action is None:
            return "the action once more"
        action = view.pending[0].action
        me = self._me(view)
        twice = 0 <= me < len(view.players) and action in view.players[me].plus_two
        return f"the {self.labels.action(action)} action {'twice more ([+2])' if twice else 'once more'}"

    def _ship_values(self, ship: int, view: TrajanView | None) -> str:
        yellow = view is None or ship > len(view.ships_yellow) or view.ships_yellow[ship - 1]
        return f"{'yellow' if yellow else 'grey'} side: {self.labels.ship_values(ship, yellow)}"

    def _cargo(self, view: TrajanView | None) -> str:
        if view is None:
            return ""
        wild = f" and {plural(view.cargo_wilds, 'wild tile')}" if view.cargo_wilds else ""
        ship = view.pending[0].ship if view.pending and view.pending[0].kind is StepKind.LOAD_CARGO else 0
        vp = ""
        spec = self.labels.content.ship.get(ship)
        if spec is not None:
            size = len(view.cargo) + view.cargo_wilds
            units = size // 2 if spec.kind is ShipKind.PAIRS else size
            table = spec.yellow if view.ships_yellow[ship - 1] else spec.grey
            vp = f" for {table[units - 1]} VP" if 1 <= units <= len(table) else ""
        return f" ({commodities(view.cargo) if view.cargo else 'no cards'}{wild}){vp}"

    def _province(self, province: int, view: TrajanView | None) -> str:
        name = f"{self.labels.province(province)} ({self.labels.province_vp(province)} VP)"
        if view is None or not 1 <= province <= len(view.provinces):
            return name
        tile = view.provinces[province - 1].tile
        return f"{name}, taking its {self.labels.forum_tile(tile)} tile" if tile is not None else name

    def _deploy(self, view: TrajanView | None) -> str:
        me = self._me(view)
        if view is None or not 0 <= me < len(view.players) or not view.players[me].leader:
            return ""
        province = view.players[me].leader
        foreign = len(view.provinces[province - 1].legionnaires)
        malus = self.labels.content.scoring.legionnaire_malus
        vp = max(0, self.labels.province_vp(province) - malus * foreign)
        return f" in {self.labels.province(province)} for {vp} VP"

    def _arch(self, view: TrajanView | None) -> str:
        me = self._me(view)
        if view is None or not 0 <= me < len(view.players):
            return ""
        return f" onto {self.labels.slot(view.players[me].arch)}"

    def _senate(self, view: TrajanView | None) -> str:
        me = self._me(view)
        track = self.labels.content.board.senate_track
        if view is None or not 0 <= me < len(view.players) or view.players[me].senate + 1 >= len(track):
            return ""
        return f" for {track[view.players[me].senate + 1]} VP"

    def _site(self, site: int, view: TrajanView | None) -> str:
        if view is None or not 1 <= site <= len(view.sites):
            return ""
        here = view.sites[site - 1]
        if here.tile:
            return f", taking {self.labels.construction_tile(here.tile)}"
        return f" (no tile; {', '.join(self.who(s) for s in here.workers)} there)" if here.workers else ""

    def _payments(self, payments: Sequence[Payment], view: TrajanView | None) -> str:
        demands = view.demands if view is not None else ()
        parts = []
        for i, payment in enumerate(payments):
            what = self.labels.demand(demands[i]) if i < len(demands) else f"demand {i + 1}"
            parts.append(f"{what} unmet" if payment is Payment.UNMET else f"{what} with {PAYMENT[payment]}")
        unmet = sum(1 for x in payments if x is Payment.UNMET)
        penalty = f" (-{self.labels.content.demands.penalties[unmet - 1]} VP)" if unmet else ""
        return ", ".join(parts) + penalty

    # ------------------------------------------------------------ events
    def event(self, event: e.Event) -> str:
        """One event in words (:data:`EVENT_WORDS` holds the wording of each event type)."""
        return EVENT_WORDS[type(event)](self, event)


Words = Callable[[TrajanDescriber, Any], str]
E = TypeVar("E")


def _words(kind: type[E], words: Callable[[TrajanDescriber, E], str]) -> tuple[type[Any], Words]:
    """One entry of :data:`EVENT_WORDS`, ``words`` checked against the event type's fields."""
    return kind, words


def _supplies(d: TrajanDescriber, ev: e.SuppliesPrepared) -> str:
    return (
        f"The supplies are laid out face down: {len(ev.forum_stack)} forum tiles, "
        f"{len(ev.extra_stack)} extra action tiles, {len(ev.deck)} commodity cards, "
        f"{len(ev.bonus_bag)} bonus tiles, {len(ev.demand_pool)} demand tiles, "
        f"{sum(len(s.rest) for s in ev.trajan_stacks)} Trajan tiles in {len(ev.trajan_stacks)} stacks"
    )


def _province_tiles(d: TrajanDescriber, ev: e.ProvinceTilesPlaced) -> str:
    lab = d.labels
    laid = ", ".join(
        f"{lab.province(p)} ({lab.forum_tile(t)})" for p, t in zip(ev.provinces, ev.tiles, strict=False)
    )
    return f"Forum tiles into the provinces: {laid}"


def _tokens_moved(d: TrajanDescriber, ev: e.TokensMoved) -> str:
    role = {Place.WORK_AREA: " (workers)", Place.CAMP: " (legionnaires)"}.get(ev.destination, "")
    moved = f"{plural(ev.count, 'figure')} from {PLACE[ev.source]} to {PLACE[ev.destination]}"
    return f"{d.who(ev.seat)}: {moved}{role}"


def _pending(d: TrajanDescriber, ev: e.PendingSet) -> str:
    if not ev.steps:
        return f"{d.who(ev.seat)} has nothing more to do this turn"
    return f"{d.who(ev.seat)} to do: " + ", then ".join(d.labels.step(s.kind, s.action) for s in ev.steps)


def _points(d: TrajanDescriber, ev: e.PointsScored) -> str:
    if ev.points < 0:
        return f"{d.who(ev.seat)} loses {-ev.points} VP for {REASON[ev.reason]}"
    return f"{d.who(ev.seat)} scores {ev.points} VP for {REASON[ev.reason]}"


def _senate_advanced(d: TrajanDescriber, ev: e.SenateAdvanced) -> str:
    track = d.labels.content.board.senate_track
    votes = track[ev.space] if ev.space < len(track) else 0
    return f"{d.who(ev.seat)} advances in the senate to the {votes} space"


def _choices_asked(d: TrajanDescriber, ev: e.DemandChoicesAsked) -> str:
    if not ev.seats:
        return "Every player has one way to meet the demands"
    verb = "chooses" if len(ev.seats) == 1 else "choose"
    return f"{', '.join(d.who(s) for s in ev.seats)} {verb} how to meet the demands"


def _demands_met(d: TrajanDescriber, ev: e.DemandsMet) -> str:
    if all(x is Payment.UNMET for x in ev.payments):
        return f"{d.who(ev.seat)} meets none of the {plural(len(ev.payments), 'demand')}"
    paid = ", ".join(PAYMENT[x] for x in ev.payments)
    gone = f"; {d.labels.forum_tiles(ev.spent)} leave the game" if ev.spent else ""
    return f"{d.who(ev.seat)} meets the demands: {paid}{gone}"


def _senate_scored(d: TrajanDescriber, ev: e.SenateScored) -> str:
    who, ranking = d.who, ev.ranking
    ranks = ", ".join(f"{who(s)} {ev.votes[s]}" for s in ranking)
    consul = f"; consul {who(ranking[0])}" if ranking else ""
    proconsul = f", proconsul {who(ranking[1])}" if len(ranking) > 1 else ""
    return f"Senate votes: {ranks}{consul}{proconsul}"


def _game_ended(d: TrajanDescriber, ev: e.GameEnded) -> str:
    placings = ev.placings
    ranked = sorted(range(len(placings)), key=lambda s: placings[s])
    return "The game ends: " + ", ".join(f"{ordinal(placings[s])} {d.who(s)}" for s in ranked)


EVENT_WORDS: dict[type[Any], Words] = dict(
    [
        _words(
            e.GameStarted,
            lambda d, ev: (
                f"The game starts: {ev.seats} players, {ev.tokens} figures each, "
                f"a time track of {ev.lap} spaces"
            ),
        ),
        _words(e.SuppliesPrepared, _supplies),
        _words(
            e.ConstructionTilesPlaced,
            lambda d, ev: f"{len(ev.tiles)} construction tiles are laid on the construction sites",
        ),
        _words(e.ProvinceTilesPlaced, _province_tiles),
        _words(
            e.ForumFilled,
            lambda d, ev: (
                f"The forum is filled: {d.labels.forum_tiles(ev.forum_tiles)}; "
                f"extra action tiles: {d.labels.forum_tiles(ev.extra_tiles)}"
            ),
        ),
        _words(e.TokensMoved, _tokens_moved),
        _words(e.PhaseChanged, lambda d, ev: f"Phase: {phase(ev.phase)}"),
        _words(
            e.StartMarkersPlaced,
            lambda d, ev: (
                f"{d.who(ev.seat)} puts {colours(ev.markers)} markers into {d.labels.bowl(ev.bowl)}"
            ),
        ),
        _words(
            e.TrajanStackTopRevealed,
            lambda d, ev: (
                f"Trajan {d.labels.trajan_stack(ev.stack)} shows tile {ev.tile} on top: "
                f"{d.labels.trajan_tile(ev.tile)}"
            ),
        ),
        _words(e.StartPlayerChosen, lambda d, ev: f"{d.who(ev.seat)} is the start player"),
        _words(
            e.SenateRestacked,
            lambda d, ev: (
                "The senate discs are stacked on the start space, bottom to top: "
                + ", ".join(d.who(s) for s in ev.order)
            ),
        ),
        _words(
            e.BonusTileDealt,
            lambda d, ev: (
                f"{d.who(ev.seat)} draws bonus tile {ev.tile}, yellow side up "
                f"({d.labels.bonus_tile(ev.tile)})"
            ),
        ),
        _words(
            e.SenateOfferDrawn,
            lambda d, ev: (
                "Bonus tiles beside the senate: "
                + "; ".join(f"{t} ({d.labels.bonus_tile(t)})" for t in ev.tiles)
            ),
        ),
        _words(
            e.CommodityFlipped,
            lambda d, ev: f"A {lower(ev.commodity)} card is turned face up onto {PILE[ev.pile]}",
        ),
        _words(e.CommoditiesDrawn, lambda d, ev: f"{d.who(ev.seat)} draws {commodities(ev.cards)}"),
        _words(
            e.DiscardTaken,
            lambda d, ev: f"{d.who(ev.seat)} takes {lower(ev.commodity)} from {PILE[ev.pile]}",
        ),
        _words(
            e.TrajanTileTaken,
            lambda d, ev: (
                f"{d.who(ev.seat)} takes Trajan tile {ev.tile} ({d.labels.trajan_tile(ev.tile)}) "
                f"from stack {ev.stack} onto {d.labels.slot(ev.slot)}"
            ),
        ),
        _words(
            e.ArchMoved,
            lambda d, ev: (
                f"{d.who(ev.seat)}'s arch moves to "
                + (d.labels.slot(ev.slot) if ev.slot else "the middle of the circle (all six slots are full)")
            ),
        ),
        _words(e.RoundStarted, lambda d, ev: f"Round {ev.round} of 16 begins"),
        _words(e.TurnStarted, lambda d, ev: f"{d.who(ev.seat)}'s turn"),
        _words(
            e.BowlEmptied,
            lambda d, ev: (
                f"{d.who(ev.seat)} picks up {plural(len(ev.markers), 'marker')} "
                f"from {d.labels.bowl(ev.bowl)}: {colours(ev.markers)}"
            ),
        ),
        _words(e.TimeAdvanced, lambda d, ev: f"The time marker moves {plural(ev.spaces, 'space')}"),
        _words(
            e.MarkerSown,
            lambda d, ev: (
                f"{d.who(ev.seat)} sows {article(lower(ev.colour))} marker into {d.labels.bowl(ev.bowl)}"
            ),
        ),
        _words(e.PendingSet, _pending),
        _words(
            e.TrajanTileCompleted,
            lambda d, ev: (
                f"{d.who(ev.seat)} completes Trajan tile {ev.tile} on {d.labels.slot(ev.slot)}: "
                f"{d.labels.trajan_tile(ev.tile)}"
            ),
        ),
        _words(
            e.TrajanTileKept,
            lambda d, ev: f"{d.who(ev.seat)} keeps Trajan tile {ev.tile} on the mat to meet demands",
        ),
        _words(e.PointsScored, _points),
        _words(
            e.PlusTwoPlaced,
            lambda d, ev: (
                f"{d.who(ev.seat)} puts a [+2] marker beside the {d.labels.action(ev.action)} action"
            ),
        ),
        _words(
            e.ExtraActionTileUsed,
            lambda d, ev: f"{d.who(ev.seat)} spends the {d.labels.forum_tile(ev.tile)} tile",
        ),
        _words(
            e.CommodityDiscarded,
            lambda d, ev: f"{d.who(ev.seat)} discards {lower(ev.commodity)} onto {PILE[ev.pile]}",
        ),
        _words(
            e.CommoditiesDisplayed,
            lambda d, ev: f"{d.who(ev.seat)} plays {commodities(ev.cards)} face up",
        ),
        _words(
            e.DiscardsReshuffled,
            lambda d, ev: (
                f"The draw pile ran out: {plural(len(ev.cards), 'card')} "
                "from under the discard piles' tops form a new one"
            ),
        ),
        _words(
            e.CommodityLoaded,
            lambda d, ev: f"{d.who(ev.seat)} loads {lower(ev.commodity)} onto the ship",
        ),
        _words(
            e.WildCommodityLoaded,
            lambda d, ev: f"{d.who(ev.seat)} loads a wild commodity tile onto the ship",
        ),
        _words(
            e.ShipmentDelivered,
            lambda d, ev: f"{d.who(ev.seat)} delivers the shipment on {d.labels.ship(ev.ship)}",
        ),
        _words(
            e.ForumTileTaken,
            lambda d, ev: f"{d.who(ev.seat)} takes {d.labels.forum_tile(ev.tile)} from the forum",
        ),
        _words(
            e.LeaderMoved,
            lambda d, ev: f"{d.who(ev.seat)}'s leader moves to {d.labels.province(ev.province)}",
        ),
        _words(
            e.ProvinceTileTaken,
            lambda d, ev: (
                f"{d.who(ev.seat)}'s leader takes the {d.labels.forum_tile(ev.tile)} tile "
                f"in {d.labels.province(ev.province)}"
            ),
        ),
        _words(
            e.LegionnaireDeployed,
            lambda d, ev: f"{d.who(ev.seat)} deploys a legionnaire in {d.labels.province(ev.province)}",
        ),
        _words(e.SenateAdvanced, _senate_advanced),
        _words(
            e.WorkerPlaced,
            lambda d, ev: f"{d.who(ev.seat)} places a worker on {d.labels.site(ev.site)}",
        ),
        _words(
            e.ConstructionTileTaken,
            lambda d, ev: (
                f"{d.who(ev.seat)} takes the {d.labels.construction_tile(ev.tile)} tile from site {ev.site}"
            ),
        ),
        _words(e.TurnEnded, lambda d, ev: f"{d.who(ev.seat)} ends the turn"),
        _words(e.RoundEnded, lambda d, ev: f"Round {ev.round} ends"),
        _words(e.DemandRevealed, lambda d, ev: f"The people demand {d.labels.demand(ev.demand)}"),
        _words(e.DemandChoicesAsked, _choices_asked),
        _words(e.DemandsMet, _demands_met),
        _words(e.SenateScored, _senate_scored),
        _words(
            e.BonusTileAwarded,
            lambda d, ev: (
                f"{d.who(ev.seat)} takes bonus tile {ev.tile} {'yellow' if ev.yellow else 'grey'} side up "
                f"({d.labels.bonus_tile(ev.tile)})"
            ),
        ),
        _words(
            e.MatTilesRemoved,
            lambda d, ev: f"{d.who(ev.seat)}'s senate tiles leave the game: {d.labels.forum_tiles(ev.tiles)}",
        ),
        _words(
            e.ForumCleared,
            lambda d, ev: f"The forum is cleared: {plural(len(ev.tiles), 'tile')} leave the game",
        ),
        _words(e.ShipsReset, lambda d, ev: "The ships turn back to their yellow sides"),
        _words(e.QuarterEnded, lambda d, ev: f"Quarter {ev.quarter} ends"),
        _words(e.QuarterStarted, lambda d, ev: f"Quarter {ev.quarter} of 4 begins"),
        _words(
            e.FinalScored,
            lambda d, ev: "Final scoring: " + ", ".join(f"{d.who(f.seat)} {f.total} VP" for f in ev.scores),
        ),
        _words(e.GameEnded, _game_ended),
    ]
)
"""The words of each event type, looked up by :meth:`TrajanDescriber.event`."""
