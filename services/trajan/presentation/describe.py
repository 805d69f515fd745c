"""Trajan's commands and events in words, from the typed records the rules use.

The terminal client hands protobuf messages; ``presentation/__init__.py`` turns them back into the rules'
dataclasses (``shared.core.codec.from_proto``), so every wording here works on typed records: a ``match`` over
the commands, a table of words per event type (:data:`EVENT_WORDS`), with ids named through :class:`Labels`
(in its catalog's locale) and seats by their players' names. :data:`WORDS` is the English of the keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from services.trajan.presentation.labels import Labels
from services.trajan.rules import commands as c
from services.trajan.rules import events as e
from services.trajan.rules.content_types import ShipKind
from services.trajan.rules.model import Payment, Pile, Place, StepKind
from services.trajan.rules.view import TrajanView
from shared.core.describe import seat_name

WORDS: dict[str, str] = {
    "ordinal.1": "1st",
    "ordinal.2": "2nd",
    "ordinal.3": "3rd",
    "ordinal.other": "{n}th",
    "n.marker.one": "{count} marker",
    "n.marker.other": "{count} markers",
    "n.figure.one": "{count} figure",
    "n.figure.other": "{count} figures",
    "n.wild_tile.one": "{count} wild tile",
    "n.wild_tile.other": "{count} wild tiles",
    "n.demand.one": "{count} demand",
    "n.demand.other": "{count} demands",
    "n.card.one": "{count} card",
    "n.card.other": "{count} cards",
    "n.space.one": "{count} space",
    "n.space.other": "{count} spaces",
    "n.tile.one": "{count} tile",
    "n.tile.other": "{count} tiles",
    # commands
    "command.place_start_markers": "Put {colours} markers into {bowl}",
    "command.draw_start_commodity": "Take a starting card from {pile}",
    "command.take_start_trajan_tile": "Take {top} from {stack} onto {slot}",
    "command.sow_marker": "Sow {marker}",
    "command.sow_marker.into": "Sow {marker} into {bowl}",
    "command.use_plus_two": "Use the Trajan tile: a [+2] marker beside the {action} action",
    "command.use_trajan_effect": "Use the Trajan tile: {effect}",
    "command.use_extra_action": "Spend the {tile} tile: {extra}",
    "command.draw_commodities": "Seaport: draw 2 cards, then discard one face up",
    "command.discard_commodity": "Discard {commodity} onto {pile}",
    "command.take_discard": "Seaport: take {pile}",
    "command.display_commodities": "Seaport: play {cards} face up, then draw {count}",
    "command.start_shipment": "Seaport: ship goods on {ship} ({values})",
    "command.load_commodity": "Load {commodity} onto the ship",
    "command.load_wild_commodity": "Load a wild commodity tile onto the ship",
    "command.deliver_shipment": "Deliver the shipment",
    "command.deliver_shipment.cargo": "Deliver the shipment ({cargo})",
    "command.deliver_shipment.vp": "Deliver the shipment ({cargo}) for {vp} VP",
    "command.take_forum_tile": "Forum: take {tile}",
    "command.recruit_legionnaire": "Military: a figure from your supply into the military camp",
    "command.move_leader": "Military: move your leader to {province}",
    "command.deploy_legionnaire": "Military: deploy a legionnaire",
    "command.deploy_legionnaire.in": "Military: deploy a legionnaire in {province} for {vp} VP",
    "command.take_trajan_tile": "Trajan: take {top} from {stack}",
    "command.take_trajan_tile.onto": "Trajan: take {top} from {stack} onto {slot}",
    "command.advance_in_senate": "Senate: advance one space",
    "command.advance_in_senate.vp": "Senate: advance one space for {vp} VP",
    "command.recruit_worker": "Construction: a figure from your supply into the work area",
    "command.place_worker": "Construction: a worker onto {site}",
    "command.place_worker.taking": "Construction: a worker onto {site}, taking {tile}",
    "command.place_worker.occupied": "Construction: a worker onto {site} (no tile; {workers} there)",
    "command.meet_demands": "Meet the demands: {payments}",
    "command.choose_bonus_tile": "Take bonus tile {tile} yellow side up ({label})",
    "command.end_round": "End the round",
    "command.score_quarter": "Score the quarter: demands and senate",
    "command.end_quarter": "End the quarter: remove and refill tiles",
    "command.end_game": "Final scoring",
    "command.pile.top": "{pile} ({top})",
    "command.top_tile": "the top tile",
    "command.tile": "tile {tile}: {label}",
    "command.choose_bowl": "Pick up {bowl}",
    "command.choose_bowl.sown": (
        "Pick up {bowl}: {markers} ({colours}), time +{count}, the last lands in {target}"
    ),
    "command.its_effect": "its effect",
    "command.decline": "Decline",
    "command.decline.trajan_effect": "Decline the Trajan tile's effect",
    "command.decline.step": "Decline {step}",
    "command.extra.once": "the action once more",
    "command.extra.action_once": "the {action} action once more",
    "command.extra.action_twice": "the {action} action twice more ([+2])",
    "command.side.yellow": "yellow side: {values}",
    "command.side.grey": "grey side: {values}",
    "command.cargo.none": "no cards",
    "command.cargo.wild": "{cards} and {wilds}",
    "command.province": "{name} ({vp} VP)",
    "command.province.tile": "{name} ({vp} VP), taking its {tile} tile",
    "command.demand": "demand {n}",
    "command.payment.unmet": "{demand} unmet",
    "command.payment": "{demand} with {payment}",
    "command.payments.penalty": "{payments} (-{vp} VP)",
    # events
    "event.game_started": (
        "The game starts: {seats} players, {tokens} figures each, a time track of {lap} spaces"
    ),
    "event.supplies_prepared": (
        "The supplies are laid out face down: {forum} forum tiles, {extra} extra action tiles, "
        "{cards} commodity cards, {bonus} bonus tiles, {demands} demand tiles, "
        "{trajan} Trajan tiles in {stacks} stacks"
    ),
    "event.construction_tiles_placed": "{count} construction tiles are laid on the construction sites",
    "event.province_tiles_placed": "Forum tiles into the provinces: {laid}",
    "event.province_tiles_placed.one": "{province} ({tile})",
    "event.forum_filled": "The forum is filled: {forum}; extra action tiles: {extra}",
    "event.tokens_moved": "{who}: {figures} from {source} to {destination}",
    "event.tokens_moved.workers": "{who}: {figures} from {source} to {destination} (workers)",
    "event.tokens_moved.legionnaires": "{who}: {figures} from {source} to {destination} (legionnaires)",
    "event.phase_changed": "Phase: {phase}",
    "event.start_markers_placed": "{who} puts {colours} markers into {bowl}",
    "event.trajan_stack_top_revealed": "Trajan {stack} shows tile {tile} on top: {label}",
    "event.start_player_chosen": "{who} is the start player",
    "event.senate_restacked": "The senate discs are stacked on the start space, bottom to top: {order}",
    "event.bonus_tile_dealt": "{who} draws bonus tile {tile}, yellow side up ({label})",
    "event.senate_offer_drawn": "Bonus tiles beside the senate: {tiles}",
    "event.senate_offer_drawn.one": "{tile} ({label})",
    "event.commodity_flipped": "A {commodity} card is turned face up onto {pile}",
    "event.commodities_drawn": "{who} draws {cards}",
    "event.discard_taken": "{who} takes {commodity} from {pile}",
    "event.trajan_tile_taken": "{who} takes Trajan tile {tile} ({label}) from stack {stack} onto {slot}",
    "event.arch_moved": "{who}'s arch moves to {slot}",
    "event.arch_moved.middle": "{who}'s arch moves to the middle of the circle (all six slots are full)",
    "event.round_started": "Round {round} of 16 begins",
    "event.turn_started": "{who}'s turn",
    "event.bowl_emptied": "{who} picks up {markers} from {bowl}: {colours}",
    "event.time_advanced": "The time marker moves {spaces}",
    "event.marker_sown": "{who} sows {marker} into {bowl}",
    "event.pending_set": "{who} to do: {steps}",
    "event.pending_set.none": "{who} has nothing more to do this turn",
    "event.trajan_tile_completed": "{who} completes Trajan tile {tile} on {slot}: {label}",
    "event.trajan_tile_kept": "{who} keeps Trajan tile {tile} on the mat to meet demands",
    "event.points_scored": "{who} scores {points} VP for {reason}",
    "event.points_lost": "{who} loses {points} VP for {reason}",
    "event.plus_two_placed": "{who} puts a [+2] marker beside the {action} action",
    "event.extra_action_tile_used": "{who} spends the {tile} tile",
    "event.commodity_discarded": "{who} discards {commodity} onto {pile}",
    "event.commodities_displayed": "{who} plays {cards} face up",
    "event.discards_reshuffled": (
        "The draw pile ran out: {cards} from under the discard piles' tops form a new one"
    ),
    "event.commodity_loaded": "{who} loads {commodity} onto the ship",
    "event.wild_commodity_loaded": "{who} loads a wild commodity tile onto the ship",
    "event.shipment_delivered": "{who} delivers the shipment on {ship}",
    "event.forum_tile_taken": "{who} takes {tile} from the forum",
    "event.leader_moved": "{who}'s leader moves to {province}",
    "event.province_tile_taken": "{who}'s leader takes the {tile} tile in {province}",
    "event.legionnaire_deployed": "{who} deploys a legionnaire in {province}",
    "event.senate_advanced": "{who} advances in the senate to the {votes} space",
    "event.worker_placed": "{who} places a worker on {site}",
    "event.construction_tile_taken": "{who} takes the {tile} tile from site {site}",
    "event.turn_ended": "{who} ends the turn",
    "event.round_ended": "Round {round} ends",
    "event.demand_revealed": "The people demand {demand}",
    "event.demand_choices_asked.none": "Every player has one way to meet the demands",
    "event.demand_choices_asked.one": "{seats} chooses how to meet the demands",
    "event.demand_choices_asked.other": "{seats} choose how to meet the demands",
    "event.demands_met.none": "{who} meets none of the {demands}",
    "event.demands_met": "{who} meets the demands: {paid}",
    "event.demands_met.spent": "{who} meets the demands: {paid}; {spent} leave the game",
    "event.senate_scored": "Senate votes: {ranks}",
    "event.senate_scored.consul": "Senate votes: {ranks}; consul {consul}",
    "event.senate_scored.proconsul": "Senate votes: {ranks}; consul {consul}, proconsul {proconsul}",
    "event.senate_scored.rank": "{who} {votes}",
    "event.bonus_tile_awarded.yellow": "{who} takes bonus tile {tile} yellow side up ({label})",
    "event.bonus_tile_awarded.grey": "{who} takes bonus tile {tile} grey side up ({label})",
    "event.mat_tiles_removed": "{who}'s senate tiles leave the game: {tiles}",
    "event.forum_cleared": "The forum is cleared: {tiles} leave the game",
    "event.ships_reset": "The ships turn back to their yellow sides",
    "event.quarter_ended": "Quarter {quarter} ends",
    "event.quarter_started": "Quarter {quarter} of 4 begins",
    "event.final_scored": "Final scoring: {scores}",
    "event.final_scored.one": "{who} {total} VP",
    "event.game_ended": "The game ends: {placings}",
    "event.game_ended.one": "{place} {who}",
}
"""The English of the commands' and events' keys."""


@dataclass(frozen=True)
class TrajanDescriber:
    labels: Labels
    names: Sequence[str] = ()

    def who(self, seat: int) -> str:
        return seat_name(self.names, seat)

    def t(self, key: str, **values: Any) -> str:
        return self.labels.t(key, **values)

    def n(self, key: str, count: int) -> str:
        """``3 markers``: the count with its word, singular or plural."""
        return self.labels.catalog.plural(f"n.{key}", count)

    def ordinal(self, n: int) -> str:
        return self.labels.catalog.get(f"ordinal.{n}", self.t("ordinal.other", n=n))

    def seats(self, seats: Sequence[int]) -> str:
        return self.labels.listed(self.who(s) for s in seats)

    # ------------------------------------------------------------ commands
    def command(self, cmd: c.Command, view: TrajanView | None = None) -> str:
        """One legal command, as the player chooses it (``view`` adds what the board shows)."""
        lab, t = self.labels, self.t
        match cmd:
            case c.PlaceStartMarkers(bowl, first, second):
                return t(
                    "command.place_start_markers", colours=lab.colours((first, second)), bowl=lab.bowl(bowl)
                )
            case c.DrawStartCommodity(pile):
                return t("command.draw_start_commodity", pile=self.pile(pile, view))
            case c.TakeStartTrajanTile(stack, slot):
                top = self.stack_top(stack, view)
                return t(
                    "command.take_start_trajan_tile",
                    top=top,
                    stack=lab.trajan_stack(stack),
                    slot=lab.slot(slot),
                )
            case c.ChooseBowl(bowl):
                return self._choose_bowl(bowl, view)
            case c.SowMarker(colour):
                if view is not None and view.next_bowl:
                    return t(
                        "command.sow_marker.into", marker=lab.marker(colour), bowl=lab.bowl(view.next_bowl)
                    )
                return t("command.sow_marker", marker=lab.marker(colour))
            case c.UseTrajanEffect(action):
                if action is not None:
                    return t("command.use_plus_two", action=lab.action(action))
                return t("command.use_trajan_effect", effect=self._effect(view))
            case c.Decline():
                return self._decline(view)
            case c.UseExtraAction(tile):
                return t("command.use_extra_action", tile=lab.forum_tile(tile), extra=self._extra(view))
            case c.DrawCommodities():
                return t("command.draw_commodities")
            case c.DiscardCommodity(commodity, pile):
                return t("command.discard_commodity", commodity=lab.word(commodity), pile=lab.word(pile))
            case c.TakeDiscard(pile):
                return t("command.take_discard", pile=self.pile(pile, view))
            case c.DisplayCommodities(cards):
                return t("command.display_commodities", cards=lab.commodities(cards), count=len(cards))
            case c.StartShipment(ship):
                return t("command.start_shipment", ship=lab.ship(ship), values=self._ship_values(ship, view))
            case c.LoadCommodity(commodity):
                return t("command.load_commodity", commodity=lab.word(commodity))
            case c.LoadWildCommodity():
                return t("command.load_wild_commodity")
            case c.DeliverShipment():
                return self._deliver(view)
            case c.TakeForumTile(tile):
                return t("command.take_forum_tile", tile=lab.forum_tile(tile))
            case c.RecruitLegionnaire():
                return t("command.recruit_legionnaire")
            case c.MoveLeader(province):
                return t("command.move_leader", province=self._province(province, view))
            case c.DeployLegionnaire():
                return self._deploy(view)
            case c.TakeTrajanTile(stack):
                top, name = self.stack_top(stack, view), lab.trajan_stack(stack)
                arch = self._arch(view)
                if arch is None:
                    return t("command.take_trajan_tile", top=top, stack=name)
                return t("command.take_trajan_tile.onto", top=top, stack=name, slot=arch)
            case c.AdvanceInSenate():
                vp = self._senate(view)
                return (
                    t("command.advance_in_senate") if vp is None else t("command.advance_in_senate.vp", vp=vp)
                )
            case c.RecruitWorker():
                return t("command.recruit_worker")
            case c.PlaceWorker(site):
                return self._site(site, view)
            case c.MeetDemands(payments):
                return t("command.meet_demands", payments=self._payments(payments, view))
            case c.ChooseBonusTile(tile):
                return t("command.choose_bonus_tile", tile=tile, label=lab.bonus_tile(tile))
            case c.EndRound():
                return t("command.end_round")
            case c.ScoreQuarter():
                return t("command.score_quarter")
            case c.EndQuarter():
                return t("command.end_quarter")
            case c.EndGame():
                return t("command.end_game")

    def _me(self, view: TrajanView | None) -> int:
        if view is None:
            return -1
        return view.viewer_seat if view.viewer_seat >= 0 else view.active_seat

    def pile(self, which: Pile, view: TrajanView | None) -> str:
        name = self.labels.word(which)
        if which is Pile.DECK or view is None:
            return name
        cards = view.left_pile if which is Pile.LEFT else view.right_pile
        return self.t("command.pile.top", pile=name, top=self.labels.word(cards[-1])) if cards else name

    def stack_top(self, stack: int, view: TrajanView | None) -> str:
        if view is None or not 1 <= stack <= len(view.trajan_stacks):
            return self.t("command.top_tile")
        top = view.trajan_stacks[stack - 1].top
        return (
            self.t("command.tile", tile=top, label=self.labels.trajan_tile(top))
            if top
            else self.t("command.top_tile")
        )

    def _choose_bowl(self, bowl: int, view: TrajanView | None) -> str:
        me = self._me(view)
        if view is None or not 0 <= me < len(view.players):
            return self.t("command.choose_bowl", bowl=self.labels.bowl(bowl))
        markers = view.players[me].bowls[bowl - 1].markers
        n = len(markers)
        target = (bowl - 1 + n) % len(view.players[me].bowls) + 1
        return self.t(
            "command.choose_bowl.sown",
            bowl=self.labels.bowl(bowl),
            markers=self.n("marker", n),
            colours=self.labels.colours(markers),
            count=n,
            target=self.labels.bowl(target),
        )

    def _effect(self, view: TrajanView | None) -> str:
        if view is None or not view.pending or not view.pending[0].tile:
            return self.t("command.its_effect")
        return self.labels.trajan_effect(view.pending[0].tile) or self.t("command.its_effect")

    def _decline(self, view: TrajanView | None) -> str:
        if view is None or not view.pending:
            return self.t("command.decline")
        step = view.pending[0]
        match step.kind:
            case StepKind.TRAJAN_EFFECT:
                return self.t("command.decline.trajan_effect")
            case StepKind.ACTION | StepKind.EXTRA_ACTION:
                return self.t("command.decline.step", step=self.labels.step(step.kind, step.action))
            case _:
                return self.t("command.decline")

    def _extra(self, view: TrajanView | None) -> str:
        if view is None or not view.pending or view.pending[0].action is None:
            return self.t("command.extra.once")
        action = view.pending[0].action
        me = self._me(view)
        twice = 0 <= me < len(view.players) and action in view.players[me].plus_two
        which = "command.extra.action_twice" if twice else "command.extra.action_once"
        return self.t(which, action=self.labels.action(action))

    def _ship_values(self, ship: int, view: TrajanView | None) -> str:
        yellow = view is None or ship > len(view.ships_yellow) or view.ships_yellow[ship - 1]
        which = "command.side.yellow" if yellow else "command.side.grey"
        return self.t(which, values=self.labels.ship_values(ship, yellow))

    def _deliver(self, view: TrajanView | None) -> str:
        if view is None:
            return self.t("command.deliver_shipment")
        cargo = self.labels.commodities(view.cargo) if view.cargo else self.t("command.cargo.none")
        if view.cargo_wilds:
            cargo = self.t("command.cargo.wild", cards=cargo, wilds=self.n("wild_tile", view.cargo_wilds))
        ship = view.pending[0].ship if view.pending and view.pending[0].kind is StepKind.LOAD_CARGO else 0
        spec = self.labels.content.ship.get(ship)
        if spec is not None:
            size = len(view.cargo) + view.cargo_wilds
            units = size // 2 if spec.kind is ShipKind.PAIRS else size
            table = spec.yellow if view.ships_yellow[ship - 1] else spec.grey
            if 1 <= units <= len(table):
                return self.t("command.deliver_shipment.vp", cargo=cargo, vp=table[units - 1])
        return self.t("command.deliver_shipment.cargo", cargo=cargo)

    def _province(self, province: int, view: TrajanView | None) -> str:
        name, vp = self.labels.province(province), self.labels.province_vp(province)
        tile = (
            view.provinces[province - 1].tile
            if view is not None and 1 <= province <= len(view.provinces)
            else None
        )
        if tile is None:
            return self.t("command.province", name=name, vp=vp)
        return self.t("command.province.tile", name=name, vp=vp, tile=self.labels.forum_tile(tile))

    def _deploy(self, view: TrajanView | None) -> str:
        me = self._me(view)
        if view is None or not 0 <= me < len(view.players) or not view.players[me].leader:
            return self.t("command.deploy_legionnaire")
        province = view.players[me].leader
        foreign = len(view.provinces[province - 1].legionnaires)
        malus = self.labels.content.scoring.legionnaire_malus
        vp = max(0, self.labels.province_vp(province) - malus * foreign)
        return self.t("command.deploy_legionnaire.in", province=self.labels.province(province), vp=vp)

    def _arch(self, view: TrajanView | None) -> str | None:
        me = self._me(view)
        if view is None or not 0 <= me < len(view.players):
            return None
        return self.labels.slot(view.players[me].arch)

    def _senate(self, view: TrajanView | None) -> int | None:
        me = self._me(view)
        track = self.labels.content.board.senate_track
        if view is None or not 0 <= me < len(view.players) or view.players[me].senate + 1 >= len(track):
            return None
        return track[view.players[me].senate + 1]

    def _site(self, site: int, view: TrajanView | None) -> str:
        name = self.labels.site(site)
        if view is None or not 1 <= site <= len(view.sites):
            return self.t("command.place_worker", site=name)
        here = view.sites[site - 1]
        if here.tile:
            return self.t(
                "command.place_worker.taking", site=name, tile=self.labels.construction_tile(here.tile)
            )
        if here.workers:
            return self.t("command.place_worker.occupied", site=name, workers=self.seats(here.workers))
        return self.t("command.place_worker", site=name)

    def _payments(self, payments: Sequence[Payment], view: TrajanView | None) -> str:
        demands = view.demands if view is not None else ()
        parts = []
        for i, payment in enumerate(payments):
            what = self.labels.demand(demands[i]) if i < len(demands) else self.t("command.demand", n=i + 1)
            if payment is Payment.UNMET:
                parts.append(self.t("command.payment.unmet", demand=what))
            else:
                parts.append(self.t("command.payment", demand=what, payment=self.labels.word(payment)))
        unmet = sum(1 for x in payments if x is Payment.UNMET)
        listed = self.labels.listed(parts)
        if not unmet:
            return listed
        return self.t(
            "command.payments.penalty", payments=listed, vp=self.labels.content.demands.penalties[unmet - 1]
        )

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
    return d.t(
        "event.supplies_prepared",
        forum=len(ev.forum_stack),
        extra=len(ev.extra_stack),
        cards=len(ev.deck),
        bonus=len(ev.bonus_bag),
        demands=len(ev.demand_pool),
        trajan=sum(len(s.rest) for s in ev.trajan_stacks),
        stacks=len(ev.trajan_stacks),
    )


def _province_tiles(d: TrajanDescriber, ev: e.ProvinceTilesPlaced) -> str:
    lab = d.labels
    laid = lab.listed(
        d.t("event.province_tiles_placed.one", province=lab.province(p), tile=lab.forum_tile(t))
        for p, t in zip(ev.provinces, ev.tiles, strict=False)
    )
    return d.t("event.province_tiles_placed", laid=laid)


def _tokens_moved(d: TrajanDescriber, ev: e.TokensMoved) -> str:
    which = {Place.WORK_AREA: ".workers", Place.CAMP: ".legionnaires"}.get(ev.destination, "")
    return d.t(
        f"event.tokens_moved{which}",
        who=d.who(ev.seat),
        figures=d.n("figure", ev.count),
        source=d.labels.word(ev.source),
        destination=d.labels.word(ev.destination),
    )


def _pending(d: TrajanDescriber, ev: e.PendingSet) -> str:
    if not ev.steps:
        return d.t("event.pending_set.none", who=d.who(ev.seat))
    steps = d.t("sep.then").join(d.labels.step(s.kind, s.action) for s in ev.steps)
    return d.t("event.pending_set", who=d.who(ev.seat), steps=steps)


def _points(d: TrajanDescriber, ev: e.PointsScored) -> str:
    reason = d.labels.word(ev.reason)
    if ev.points < 0:
        return d.t("event.points_lost", who=d.who(ev.seat), points=-ev.points, reason=reason)
    return d.t("event.points_scored", who=d.who(ev.seat), points=ev.points, reason=reason)


def _senate_advanced(d: TrajanDescriber, ev: e.SenateAdvanced) -> str:
    track = d.labels.content.board.senate_track
    votes = track[ev.space] if ev.space < len(track) else 0
    return d.t("event.senate_advanced", who=d.who(ev.seat), votes=votes)


def _choices_asked(d: TrajanDescriber, ev: e.DemandChoicesAsked) -> str:
    if not ev.seats:
        return d.t("event.demand_choices_asked.none")
    which = "one" if len(ev.seats) == 1 else "other"
    return d.t(f"event.demand_choices_asked.{which}", seats=d.seats(ev.seats))


def _demands_met(d: TrajanDescriber, ev: e.DemandsMet) -> str:
    if all(x is Payment.UNMET for x in ev.payments):
        return d.t("event.demands_met.none", who=d.who(ev.seat), demands=d.n("demand", len(ev.payments)))
    paid = d.labels.listed(d.labels.word(x) for x in ev.payments)
    if ev.spent:
        return d.t(
            "event.demands_met.spent", who=d.who(ev.seat), paid=paid, spent=d.labels.forum_tiles(ev.spent)
        )
    return d.t("event.demands_met", who=d.who(ev.seat), paid=paid)


def _senate_scored(d: TrajanDescriber, ev: e.SenateScored) -> str:
    who, ranking = d.who, ev.ranking
    ranks = d.labels.listed(d.t("event.senate_scored.rank", who=who(s), votes=ev.votes[s]) for s in ranking)
    if len(ranking) > 1:
        return d.t(
            "event.senate_scored.proconsul", ranks=ranks, consul=who(ranking[0]), proconsul=who(ranking[1])
        )
    if ranking:
        return d.t("event.senate_scored.consul", ranks=ranks, consul=who(ranking[0]))
    return d.t("event.senate_scored", ranks=ranks)


def _game_ended(d: TrajanDescriber, ev: e.GameEnded) -> str:
    placings = ev.placings
    ranked = sorted(range(len(placings)), key=lambda s: placings[s])
    listed = d.labels.listed(
        d.t("event.game_ended.one", place=d.ordinal(placings[s]), who=d.who(s)) for s in ranked
    )
    return d.t("event.game_ended", placings=listed)


EVENT_WORDS: dict[type[Any], Words] = dict(
    [
        _words(
            e.GameStarted,
            lambda d, ev: d.t("event.game_started", seats=ev.seats, tokens=ev.tokens, lap=ev.lap),
        ),
        _words(e.SuppliesPrepared, _supplies),
        _words(
            e.ConstructionTilesPlaced,
            lambda d, ev: d.t("event.construction_tiles_placed", count=len(ev.tiles)),
        ),
        _words(e.ProvinceTilesPlaced, _province_tiles),
        _words(
            e.ForumFilled,
            lambda d, ev: d.t(
                "event.forum_filled",
                forum=d.labels.forum_tiles(ev.forum_tiles),
                extra=d.labels.forum_tiles(ev.extra_tiles),
            ),
        ),
        _words(e.TokensMoved, _tokens_moved),
        _words(e.PhaseChanged, lambda d, ev: d.t("event.phase_changed", phase=d.labels.word(ev.phase))),
        _words(
            e.StartMarkersPlaced,
            lambda d, ev: d.t(
                "event.start_markers_placed",
                who=d.who(ev.seat),
                colours=d.labels.colours(ev.markers),
                bowl=d.labels.bowl(ev.bowl),
            ),
        ),
        _words(
            e.TrajanStackTopRevealed,
            lambda d, ev: d.t(
                "event.trajan_stack_top_revealed",
                stack=d.labels.trajan_stack(ev.stack),
                tile=ev.tile,
                label=d.labels.trajan_tile(ev.tile),
            ),
        ),
        _words(e.StartPlayerChosen, lambda d, ev: d.t("event.start_player_chosen", who=d.who(ev.seat))),
        _words(e.SenateRestacked, lambda d, ev: d.t("event.senate_restacked", order=d.seats(ev.order))),
        _words(
            e.BonusTileDealt,
            lambda d, ev: d.t(
                "event.bonus_tile_dealt", who=d.who(ev.seat), tile=ev.tile, label=d.labels.bonus_tile(ev.tile)
            ),
        ),
        _words(
            e.SenateOfferDrawn,
            lambda d, ev: d.t(
                "event.senate_offer_drawn",
                tiles="; ".join(
                    d.t("event.senate_offer_drawn.one", tile=t, label=d.labels.bonus_tile(t))
                    for t in ev.tiles
                ),
            ),
        ),
        _words(
            e.CommodityFlipped,
            lambda d, ev: d.t(
                "event.commodity_flipped", commodity=d.labels.word(ev.commodity), pile=d.labels.word(ev.pile)
            ),
        ),
        _words(
            e.CommoditiesDrawn,
            lambda d, ev: d.t(
                "event.commodities_drawn", who=d.who(ev.seat), cards=d.labels.commodities(ev.cards)
            ),
        ),
        _words(
            e.DiscardTaken,
            lambda d, ev: d.t(
                "event.discard_taken",
                who=d.who(ev.seat),
                commodity=d.labels.word(ev.commodity),
                pile=d.labels.word(ev.pile),
            ),
        ),
        _words(
            e.TrajanTileTaken,
            lambda d, ev: d.t(
                "event.trajan_tile_taken",
                who=d.who(ev.seat),
                tile=ev.tile,
                label=d.labels.trajan_tile(ev.tile),
                stack=ev.stack,
                slot=d.labels.slot(ev.slot),
            ),
        ),
        _words(
            e.ArchMoved,
            lambda d, ev: (
                d.t("event.arch_moved", who=d.who(ev.seat), slot=d.labels.slot(ev.slot))
                if ev.slot
                else d.t("event.arch_moved.middle", who=d.who(ev.seat))
            ),
        ),
        _words(e.RoundStarted, lambda d, ev: d.t("event.round_started", round=ev.round)),
        _words(e.TurnStarted, lambda d, ev: d.t("event.turn_started", who=d.who(ev.seat))),
        _words(
            e.BowlEmptied,
            lambda d, ev: d.t(
                "event.bowl_emptied",
                who=d.who(ev.seat),
                markers=d.n("marker", len(ev.markers)),
                bowl=d.labels.bowl(ev.bowl),
                colours=d.labels.colours(ev.markers),
            ),
        ),
        _words(e.TimeAdvanced, lambda d, ev: d.t("event.time_advanced", spaces=d.n("space", ev.spaces))),
        _words(
            e.MarkerSown,
            lambda d, ev: d.t(
                "event.marker_sown",
                who=d.who(ev.seat),
                marker=d.labels.marker(ev.colour),
                bowl=d.labels.bowl(ev.bowl),
            ),
        ),
        _words(e.PendingSet, _pending),
        _words(
            e.TrajanTileCompleted,
            lambda d, ev: d.t(
                "event.trajan_tile_completed",
                who=d.who(ev.seat),
                tile=ev.tile,
                slot=d.labels.slot(ev.slot),
                label=d.labels.trajan_tile(ev.tile),
            ),
        ),
        _words(
            e.TrajanTileKept, lambda d, ev: d.t("event.trajan_tile_kept", who=d.who(ev.seat), tile=ev.tile)
        ),
        _words(e.PointsScored, _points),
        _words(
            e.PlusTwoPlaced,
            lambda d, ev: d.t("event.plus_two_placed", who=d.who(ev.seat), action=d.labels.action(ev.action)),
        ),
        _words(
            e.ExtraActionTileUsed,
            lambda d, ev: d.t(
                "event.extra_action_tile_used", who=d.who(ev.seat), tile=d.labels.forum_tile(ev.tile)
            ),
        ),
        _words(
            e.CommodityDiscarded,
            lambda d, ev: d.t(
                "event.commodity_discarded",
                who=d.who(ev.seat),
                commodity=d.labels.word(ev.commodity),
                pile=d.labels.word(ev.pile),
            ),
        ),
        _words(
            e.CommoditiesDisplayed,
            lambda d, ev: d.t(
                "event.commodities_displayed", who=d.who(ev.seat), cards=d.labels.commodities(ev.cards)
            ),
        ),
        _words(
            e.DiscardsReshuffled,
            lambda d, ev: d.t("event.discards_reshuffled", cards=d.n("card", len(ev.cards))),
        ),
        _words(
            e.CommodityLoaded,
            lambda d, ev: d.t(
                "event.commodity_loaded", who=d.who(ev.seat), commodity=d.labels.word(ev.commodity)
            ),
        ),
        _words(e.WildCommodityLoaded, lambda d, ev: d.t("event.wild_commodity_loaded", who=d.who(ev.seat))),
        _words(
            e.ShipmentDelivered,
            lambda d, ev: d.t("event.shipment_delivered", who=d.who(ev.seat), ship=d.labels.ship(ev.ship)),
        ),
        _words(
            e.ForumTileTaken,
            lambda d, ev: d.t(
                "event.forum_tile_taken", who=d.who(ev.seat), tile=d.labels.forum_tile(ev.tile)
            ),
        ),
        _words(
            e.LeaderMoved,
            lambda d, ev: d.t(
                "event.leader_moved", who=d.who(ev.seat), province=d.labels.province(ev.province)
            ),
        ),
        _words(
            e.ProvinceTileTaken,
            lambda d, ev: d.t(
                "event.province_tile_taken",
                who=d.who(ev.seat),
                tile=d.labels.forum_tile(ev.tile),
                province=d.labels.province(ev.province),
            ),
        ),
        _words(
            e.LegionnaireDeployed,
            lambda d, ev: d.t(
                "event.legionnaire_deployed", who=d.who(ev.seat), province=d.labels.province(ev.province)
            ),
        ),
        _words(e.SenateAdvanced, _senate_advanced),
        _words(
            e.WorkerPlaced,
            lambda d, ev: d.t("event.worker_placed", who=d.who(ev.seat), site=d.labels.site(ev.site)),
        ),
        _words(
            e.ConstructionTileTaken,
            lambda d, ev: d.t(
                "event.construction_tile_taken",
                who=d.who(ev.seat),
                tile=d.labels.construction_tile(ev.tile),
                site=ev.site,
            ),
        ),
        _words(e.TurnEnded, lambda d, ev: d.t("event.turn_ended", who=d.who(ev.seat))),
        _words(e.RoundEnded, lambda d, ev: d.t("event.round_ended", round=ev.round)),
        _words(
            e.DemandRevealed, lambda d, ev: d.t("event.demand_revealed", demand=d.labels.demand(ev.demand))
        ),
        _words(e.DemandChoicesAsked, _choices_asked),
        _words(e.DemandsMet, _demands_met),
        _words(e.SenateScored, _senate_scored),
        _words(
            e.BonusTileAwarded,
            lambda d, ev: d.t(
                f"event.bonus_tile_awarded.{'yellow' if ev.yellow else 'grey'}",
                who=d.who(ev.seat),
                tile=ev.tile,
                label=d.labels.bonus_tile(ev.tile),
            ),
        ),
        _words(
            e.MatTilesRemoved,
            lambda d, ev: d.t(
                "event.mat_tiles_removed", who=d.who(ev.seat), tiles=d.labels.forum_tiles(ev.tiles)
            ),
        ),
        _words(e.ForumCleared, lambda d, ev: d.t("event.forum_cleared", tiles=d.n("tile", len(ev.tiles)))),
        _words(e.ShipsReset, lambda d, ev: d.t("event.ships_reset")),
        _words(e.QuarterEnded, lambda d, ev: d.t("event.quarter_ended", quarter=ev.quarter)),
        _words(e.QuarterStarted, lambda d, ev: d.t("event.quarter_started", quarter=ev.quarter)),
        _words(
            e.FinalScored,
            lambda d, ev: d.t(
                "event.final_scored",
                scores=d.labels.listed(
                    d.t("event.final_scored.one", who=d.who(f.seat), total=f.total) for f in ev.scores
                ),
            ),
        ),
        _words(e.GameEnded, _game_ended),
    ]
)
"""The words of each event type, looked up by :meth:`TrajanDescriber.event`."""
