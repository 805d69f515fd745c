"""Trajan's commands and events in words, from the typed records the rules use.

The terminal client hands protobuf messages; ``presentation/__init__.py`` turns them back into the rules'
dataclasses (``shared.core.codec.from_proto``), so every wording here is a ``match`` over typed commands and
events, with ids named through :class:`Labels` and seats by their players' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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

    def _owed(self, view: TrajanView | None) -> StepKind | None:
        return view.pending[0].kind if view is not None and view.pending else None

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
        """One event in words."""
        lab, who = self.labels, self.who
        match event:
            case e.GameStarted(seats, lap, tokens):
                return (
                    f"The game starts: {seats} players, {tokens} figures each, a time track of {lap} spaces"
                )
            case e.SuppliesPrepared(forum, extra, deck, bag, demands, stacks):
                return (
                    f"The supplies are laid out face down: {len(forum)} forum tiles, "
                    f"{len(extra)} extra action tiles, {len(deck)} commodity cards, {len(bag)} bonus tiles, "
                    f"{len(demands)} demand tiles, {sum(len(s.rest) for s in stacks)} Trajan tiles "
                    f"in {len(stacks)} stacks"
                )
            case e.ConstructionTilesPlaced(tiles):
                return f"{len(tiles)} construction tiles are laid on the construction sites"
            case e.ProvinceTilesPlaced(provinces, tiles):
                laid = ", ".join(
                    f"{lab.province(p)} ({lab.forum_tile(t)})" for p, t in zip(provinces, tiles, strict=False)
                )
                return f"Forum tiles into the provinces: {laid}"
            case e.ForumFilled(forum, extra):
                extras = lab.forum_tiles(extra)
                return f"The forum is filled: {lab.forum_tiles(forum)}; extra action tiles: {extras}"
            case e.TokensMoved(seat, source, destination, count):
                role = {Place.WORK_AREA: " (workers)", Place.CAMP: " (legionnaires)"}.get(destination, "")
                moved = f"{plural(count, 'figure')} from {PLACE[source]} to {PLACE[destination]}"
                return f"{who(seat)}: {moved}{role}"
            case e.PhaseChanged(p):
                return f"Phase: {phase(p)}"
            case e.StartMarkersPlaced(seat, bowl, markers):
                return f"{who(seat)} puts {colours(markers)} markers into {lab.bowl(bowl)}"
            case e.TrajanStackTopRevealed(stack, tile):
                return f"Trajan {lab.trajan_stack(stack)} shows tile {tile} on top: {lab.trajan_tile(tile)}"
            case e.StartPlayerChosen(seat):
                return f"{who(seat)} is the start player"
            case e.SenateRestacked(order):
                discs = ", ".join(who(s) for s in order)
                return f"The senate discs are stacked on the start space, bottom to top: {discs}"
            case e.BonusTileDealt(seat, tile):
                return f"{who(seat)} draws bonus tile {tile}, yellow side up ({lab.bonus_tile(tile)})"
            case e.SenateOfferDrawn(tiles):
                offer = "; ".join(f"{t} ({lab.bonus_tile(t)})" for t in tiles)
                return f"Bonus tiles beside the senate: {offer}"
            case e.CommodityFlipped(pile, commodity):
                return f"A {lower(commodity)} card is turned face up onto {PILE[pile]}"
            case e.CommoditiesDrawn(seat, cards):
                return f"{who(seat)} draws {commodities(cards)}"
            case e.DiscardTaken(seat, pile, commodity):
                return f"{who(seat)} takes {lower(commodity)} from {PILE[pile]}"
            case e.TrajanTileTaken(seat, stack, slot, tile):
                taken = f"Trajan tile {tile} ({lab.trajan_tile(tile)}) from stack {stack}"
                return f"{who(seat)} takes {taken} onto {lab.slot(slot)}"
            case e.ArchMoved(seat, slot):
                where = lab.slot(slot) if slot else "the middle of the circle (all six slots are full)"
                return f"{who(seat)}'s arch moves to {where}"
            case e.RoundStarted(n):
                return f"Round {n} of 16 begins"
            case e.TurnStarted(seat):
                return f"{who(seat)}'s turn"
            case e.BowlEmptied(seat, bowl, markers):
                picked = plural(len(markers), "marker")
                return f"{who(seat)} picks up {picked} from {lab.bowl(bowl)}: {colours(markers)}"
            case e.TimeAdvanced(spaces):
                return f"The time marker moves {plural(spaces, 'space')}"
            case e.MarkerSown(seat, bowl, colour):
                return f"{who(seat)} sows {article(lower(colour))} marker into {lab.bowl(bowl)}"
            case e.PendingSet(seat, steps):
                if not steps:
                    return f"{who(seat)} has nothing more to do this turn"
                return f"{who(seat)} to do: " + ", then ".join(lab.step(s.kind, s.action) for s in steps)
            case e.TrajanTileCompleted(seat, slot, tile):
                return (
                    f"{who(seat)} completes Trajan tile {tile} on {lab.slot(slot)}: {lab.trajan_tile(tile)}"
                )
            case e.TrajanTileKept(seat, tile):
                return f"{who(seat)} keeps Trajan tile {tile} on the mat to meet demands"
            case e.PointsScored(seat, points, reason):
                if points < 0:
                    return f"{who(seat)} loses {-points} VP for {REASON[reason]}"
                return f"{who(seat)} scores {points} VP for {REASON[reason]}"
            case e.PlusTwoPlaced(seat, action):
                return f"{who(seat)} puts a [+2] marker beside the {lab.action(action)} action"
            case e.ExtraActionTileUsed(seat, tile):
                return f"{who(seat)} spends the {lab.forum_tile(tile)} tile"
            case e.CommodityDiscarded(seat, commodity, pile):
                return f"{who(seat)} discards {lower(commodity)} onto {PILE[pile]}"
            case e.CommoditiesDisplayed(seat, cards):
                return f"{who(seat)} plays {commodities(cards)} face up"
            case e.DiscardsReshuffled(cards):
                under = plural(len(cards), "card")
                return f"The draw pile ran out: {under} from under the discard piles' tops form a new one"
            case e.CommodityLoaded(seat, commodity):
                return f"{who(seat)} loads {lower(commodity)} onto the ship"
            case e.WildCommodityLoaded(seat):
                return f"{who(seat)} loads a wild commodity tile onto the ship"
            case e.ShipmentDelivered(seat, ship):
                return f"{who(seat)} delivers the shipment on {lab.ship(ship)}"
            case e.ForumTileTaken(seat, tile):
                return f"{who(seat)} takes {lab.forum_tile(tile)} from the forum"
            case e.LeaderMoved(seat, province):
                return f"{who(seat)}'s leader moves to {lab.province(province)}"
            case e.ProvinceTileTaken(seat, province, tile):
                return (
                    f"{who(seat)}'s leader takes the {lab.forum_tile(tile)} tile in {lab.province(province)}"
                )
            case e.LegionnaireDeployed(seat, province):
                return f"{who(seat)} deploys a legionnaire in {lab.province(province)}"
            case e.SenateAdvanced(seat, space):
                votes = (
                    lab.content.board.senate_track[space]
                    if space < len(lab.content.board.senate_track)
                    else 0
                )
                return f"{who(seat)} advances in the senate to the {votes} space"
            case e.WorkerPlaced(seat, site):
                return f"{who(seat)} places a worker on {lab.site(site)}"
            case e.ConstructionTileTaken(seat, site, tile):
                return f"{who(seat)} takes the {lab.construction_tile(tile)} tile from site {site}"
            case e.TurnEnded(seat):
                return f"{who(seat)} ends the turn"
            case e.RoundEnded(n):
                return f"Round {n} ends"
            case e.DemandRevealed(demand):
                return f"The people demand {lab.demand(demand)}"
            case e.DemandChoicesAsked(seats):
                if not seats:
                    return "Every player has one way to meet the demands"
                verb = "chooses" if len(seats) == 1 else "choose"
                return f"{', '.join(who(s) for s in seats)} {verb} how to meet the demands"
            case e.DemandsMet(seat, payments, spent):
                if all(x is Payment.UNMET for x in payments):
                    return f"{who(seat)} meets none of the {plural(len(payments), 'demand')}"
                paid = ", ".join(PAYMENT[x] for x in payments)
                gone = f"; {lab.forum_tiles(spent)} leave the game" if spent else ""
                return f"{who(seat)} meets the demands: {paid}{gone}"
            case e.SenateScored(ranking, votes):
                ranks = ", ".join(f"{who(s)} {votes[s]}" for s in ranking)
                consul = f"; consul {who(ranking[0])}" if ranking else ""
                proconsul = f", proconsul {who(ranking[1])}" if len(ranking) > 1 else ""
                return f"Senate votes: {ranks}{consul}{proconsul}"
            case e.BonusTileAwarded(seat, tile, yellow):
                side = "yellow" if yellow else "grey"
                return f"{who(seat)} takes bonus tile {tile} {side} side up ({lab.bonus_tile(tile)})"
            case e.MatTilesRemoved(seat, tiles):
                return f"{who(seat)}'s senate tiles leave the game: {lab.forum_tiles(tiles)}"
            case e.ForumCleared(tiles):
                return f"The forum is cleared: {plural(len(tiles), 'tile')} leave the game"
            case e.ShipsReset():
                return "The ships turn back to their yellow sides"
            case e.QuarterEnded(n):
                return f"Quarter {n} ends"
            case e.QuarterStarted(n):
                return f"Quarter {n} of 4 begins"
            case e.FinalScored(scores):
                return "Final scoring: " + ", ".join(f"{who(f.seat)} {f.total} VP" for f in scores)
            case e.GameEnded(placings):
                ranked = sorted(range(len(placings)), key=lambda s: placings[s])
                return "The game ends: " + ", ".join(f"{ordinal(placings[s])} {who(s)}" for s in ranked)
