"""Florenza's commands and events in words: the generic descriptor-driven text with Florenza's ids named.

:class:`FlorenzaDescriber` extends :class:`shared.core.describe.Describer`: id fields are named by their
field name (``workshop``, ``artist``, ``preacher``, ``character``, ``work``), ``Goods`` read as goods,
a ``Presence`` as "who under which Life in Florenza card". The commands a player chooses between get
the facts needed to choose (a workshop's cost and effect, an artist's fee, a work's price and reward,
an offering's price, the workers a die gives), and the events a sentence each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from services.florenza.presentation.labels import Labels, amounts_text, goods_text, roman, skill_name
from services.florenza.rules.content_types import Skill
from services.florenza.rules.goods import GOODS_FIELDS, Goods
from services.florenza.rules.resolution import art_work_price, failure_loss
from shared.core.describe import LabelledDescriber, enum_label

Msg = Any
TITLE_NAMES = {1: "Captain of the People", 2: "Bishop"}


def goods_of(message: Msg) -> str:
    """A ``Goods`` message as ``"100 fiorini, 1 wood"``."""
    return amounts_text({f.name: getattr(message, f.name) for f in message.DESCRIPTOR.fields})


def goods_record(message: Msg) -> Goods:
    """A ``Goods`` message as the rules' record."""
    return Goods(**{f: int(getattr(message, f)) for f in GOODS_FIELDS})


def enum_of(message: Msg, field: str) -> str:
    return enum_label(message.DESCRIPTOR.fields_by_name[field].enum_type, getattr(message, field))


class FlorenzaDescriber(LabelledDescriber):
    labels: Labels

    def who(self, seat: int) -> str:
        """A seat by its display name alone (``Ada``), ``seat N`` without one."""
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"seat {seat}"

    # ------------------------------------------------------------ values
    def id_names(self) -> dict[str, Callable[[int], str]]:
        lab = self.labels
        return {
            "workshop": lab.workshop,
            "workshops": lab.workshop,
            "workshop_supply": lab.workshop,
            "starting_pool": lab.workshop,
            "artist": lab.character,
            "preacher": lab.character,
            "character": lab.character,
            "characters": lab.character,
            "bag": lab.character,
            "work": lab.work,
        }

    def label(self, fd: FieldDescriptor, raw: Any, context: str) -> str | None:
        if fd.type == FieldDescriptor.TYPE_MESSAGE and raw.DESCRIPTOR.name == "Goods":
            return goods_of(raw)
        if fd.type == FieldDescriptor.TYPE_MESSAGE and raw.DESCRIPTOR.name == "Presence":
            return f"{self.labels.character(raw.character)} under {roman(raw.card)}"
        return super().label(fd, raw, context)

    # ------------------------------------------------------------ commands
    def special(self, m: Msg, view: Msg | None) -> str | None:
        """E.g. ``Hire artist: Giotto (painting 200) for Affresco (Palazzo): painting; 2 marble ->
        3 prestige``."""
        lab = self.labels
        match m.DESCRIPTOR.name:
            case "ChooseStartingWorkshop" | "PlanWorkshop":
                return lab.workshop_text(m.workshop)
            case "WithholdWorker":
                return f"one worker of {self.who(m.seat)} goes to {lab.life(6)} this round"
            case "LureWorker":
                return f"one worker of {self.who(m.seat)} back to its reserve, one of yours onto your board"
            case "WithholdArtist":
                return f"{lab.artist_text(m.artist)}: nobody may hire him this round"
            case "ExpelPreacher":
                return f"{lab.preacher_text(m.preacher)}: no offering to him this round"
            case "WorkWorkshop":
                return self._work_workshop(m, view)
            case "HireArtist":
                return f"{lab.artist_text(m.artist)} for {lab.work_text(m.work)}"
            case "MakeOffering":
                where = "in the Duomo (two dice, keep one)" if m.duomo else "on your pulpit"
                return f"{lab.preacher_text(m.preacher)} {where}"
            case "ChooseDie":
                return self._choose_die(m, view)
            case "SellResource" | "BuyResource":
                return enum_of(m, "resource")
            case "ExchangeResources":
                return f"2 {enum_of(m, 'give')} for 1 {enum_of(m, 'get')}"
            case "CompleteArtWork":
                return self._complete(m, view)
        return None

    def _slot(self, view: Msg | None, owner: int, slot: int) -> Msg | None:
        players = list(getattr(getattr(view, "game", None), "players", []) or [])
        if 0 <= owner < len(players) and 0 < slot <= len(players[owner].district):
            return players[owner].district[slot - 1]
        return None

    def _work_workshop(self, m: Msg, view: Msg | None) -> str:
        x = self._slot(view, m.owner, m.slot)
        whose = "your" if view is not None and m.owner == view.viewer_seat else f"{self.who(m.owner)}'s"
        text = f"{whose} space {m.slot}"
        if x is not None and x.workshop:
            text += f", {self.labels.workshop(x.workshop)} ({self.labels.effect(x.workshop)})"
        if view is not None and m.owner != view.viewer_seat:
            text += f"; 1 prestige to {self.who(m.owner)}"
        return text

    def _choose_die(self, m: Msg, view: Msg | None) -> str:
        pending = getattr(getattr(view, "game", None), "pending", None)
        if pending is None or not pending.character:
            return str(m.die)
        if self.labels.is_preacher(pending.character):
            workers = self.labels.preacher_workers(pending.character, m.die)
            plural = "s" if workers != 1 else ""
            return f"{m.die} ({workers} worker{plural} from {self.labels.character(pending.character)})"
        return f"{m.die} ({self.labels.character(pending.character)}'s bonus die)"

    def _my_spot(self, view: Msg | None, work: int) -> Msg | None:
        """The viewer's hired spot of ``work`` (the artist on it), if any."""
        seat = view.viewer_seat if view is not None else -1
        spots = list(getattr(getattr(view, "game", None), "works", []) or [])
        return next((w for w in spots if w.work == work and w.worker == seat and seat >= 0), None)

    def _complete(self, m: Msg, view: Msg | None) -> str:
        text = f"{self.labels.work(m.work)} with {skill_name(m.skill)}"
        spot = self._my_spot(view, m.work)
        if spot is None or spot.artist not in self.labels.content.artist:
            return text
        price = art_work_price(self.labels.content, m.work, spot.artist, Skill(m.skill))
        text += f" by {self.labels.character(spot.artist)}; price {goods_text(price)}"
        return text + self.doomed(view, m.work, (Skill(m.skill),))

    def doomed(self, view: Msg | None, work: int, skills: Sequence[Skill] = ()) -> str:
        """Completing ``work`` can only fail: the viewer's goods cover its price with none of
        ``skills`` (default: every talent its artist and the work share). The warning, else ""."""
        c, spot = self.labels.content, self._my_spot(view, work)
        players = list(getattr(getattr(view, "game", None), "players", []) or [])
        if view is None or spot is None or spot.artist not in c.artist or work not in c.work or not players:
            return ""
        have = goods_record(players[view.viewer_seat].goods)
        skills = skills or [k for k in c.work[work].skills if k in c.artist[spot.artist].skills]
        prices = [art_work_price(c, work, spot.artist, k) for k in skills]
        if not prices or any(have.covers(p) for p in prices):
            return ""
        cheapest = min(prices, key=lambda p: p.money)
        lacking = Goods(**{f: max(getattr(cheapest - have, f), 0) for f in GOODS_FIELDS})
        loss = failure_loss(c, work, spot.artist)
        return f" - cannot be paid (you lack {goods_text(lacking)}): it can only fail, -{loss} prestige"

    # ------------------------------------------------------------ events
    def event(self, member: Msg) -> str:
        """One sentence for the events a player follows (:data:`EVENT_WORDS`); the generic wording else."""
        words_of = EVENT_WORDS.get(member.DESCRIPTOR.name)
        if words_of is None:
            return super().event(member)
        who = self.who(member.seat) if "seat" in member.DESCRIPTOR.fields_by_name else ""
        return words_of(self, member, who)


Words = Callable[[FlorenzaDescriber, Msg, str], str]
"""An event's words from the describer, the event and the name of its seat (``""`` without one)."""


def _track_moved(e: Msg, who: str, track: str) -> str:
    return f"{who} {'+' if e.delta > 0 else ''}{e.delta} {track} ({enum_of(e, 'source')})"


def _titles(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    captain = d.who(e.captain) if e.captain >= 0 else "nobody"
    bishop = d.who(e.bishop) if e.bishop >= 0 else "nobody"
    return f"Next round: Captain of the People {captain}, Bishop {bishop}"


EVENT_WORDS: dict[str, Words] = {
    "GameStarted": lambda d, e, who: (
        f"The game starts with {e.seats} families; turn order " + ", ".join(d.who(s) for s in e.turn_order)
    ),
    "CharactersArrived": lambda d, e, who: (
        "Arrived in Florence: "
        + ", ".join(f"{d.labels.character(p.character)} ({roman(p.card)})" for p in e.arrivals)
    ),
    "RoundStarted": lambda d, e, who: (
        f"Round {e.round} begins; turn order " + ", ".join(d.who(s) for s in e.turn_order)
    ),
    "PhaseChanged": lambda d, e, who: f"Step: {enum_of(e, 'phase')}",
    "TurnBegan": lambda d, e, who: f"{who} is to act",
    "GoodsGained": lambda d, e, who: f"{who} gained {goods_of(e.goods)} ({enum_of(e, 'source')})",
    "GoodsPaid": lambda d, e, who: f"{who} paid {goods_of(e.goods)} ({enum_of(e, 'source')})",
    "PrestigeChanged": lambda d, e, who: _track_moved(e, who, "prestige"),
    "ChurchInfluenceChanged": lambda d, e, who: _track_moved(e, who, "church influence"),
    "WorkersGained": lambda d, e, who: (
        f"{who} +{e.count} worker{'s' if e.count != 1 else ''} ({enum_of(e, 'source')})"
    ),
    "IncomeDieRolled": lambda d, e, who: f"Income die: {e.face}, everybody takes {enum_of(e, 'resource')}",
    "ArtistHired": lambda d, e, who: (
        f"{who} hired {d.labels.character(e.artist)} for {d.labels.work(e.work)}"
    ),
    "WorkshopPlanned": lambda d, e, who: f"{who} planned {d.labels.workshop(e.workshop)} in space {e.slot}",
    "WorkerSentToWorkshop": lambda d, e, who: f"{who} sent a worker to {d.who(e.owner)}'s space {e.slot}",
    "OfferingMade": lambda d, e, who: (
        f"{who} made an offering to {d.labels.character(e.preacher)}{' in the Duomo' if e.duomo else ''}"
    ),
    "ArtWorkCompleted": lambda d, e, who: (
        f"{who} completed {d.labels.work(e.work)} with {d.labels.character(e.artist)} ({skill_name(e.skill)})"
    ),
    "ArtWorkFailed": lambda d, e, who: f"{who} could not pay for {d.labels.work(e.work)}",
    "CertificatesKeptHidden": lambda d, e, who: (
        "Each family's certificates stay hidden from the others until the final scoring"
    ),
    "CertificatesTaken": lambda d, e, who: (
        f"{who} banks {e.amount} prestige as certificates (seen by {who} alone)"
    ),
    "PrestigeBankedHidden": lambda d, e, who: (
        f"{who} banks the prestige track as hidden certificates; the track goes back to 0"
    ),
    "GameScored": lambda d, e, who: (
        "The game ends: " + ", ".join(f"{d.who(s.seat)} {s.total}" for s in e.scores)
    ),
    # the privileges, the market, the districts, the art works and the round's end
    "StartingWorkshopChosen": lambda d, e, who: (
        f"{who} takes {d.labels.workshop(e.workshop)} as a starting workshop (space {e.slot})"
    ),
    "StartingPoolReturned": lambda d, e, who: (
        "The starting workshops nobody chose go back to the supply: "
        + (", ".join(d.labels.workshop(w) for w in e.workshops) or "none")
    ),
    "WorkerWithheld": lambda d, e, who: (
        f"{d.who(e.captain)} holds one worker of {who} on {d.labels.life(6)} this round"
    ),
    "ArtistWithheld": lambda d, e, who: (
        f"{d.who(e.captain)} holds {d.labels.character(e.artist)} back this round"
    ),
    "WorkerLured": lambda d, e, who: f"{d.who(e.bishop)} lures one worker of {who} back to its reserve",
    "PreacherExpelled": lambda d, e, who: (
        f"{d.who(e.bishop)} expels {d.labels.character(e.preacher)} this round"
    ),
    "PrivilegeDeclined": lambda d, e, who: (
        f"{who} uses no privilege of the {TITLE_NAMES.get(e.title, 'title')}"
    ),
    "MarketVisited": lambda d, e, who: f"{who} sends a worker to the market",
    "DiceRolled": lambda d, e, who: (
        f"{who} rolls {' and '.join(str(x) for x in e.dice)} for {d.labels.character(e.character)}"
    ),
    "DiceChoiceOffered": lambda d, e, who: f"{d.who(e.pending.seat)} keeps one of the dice rolled",
    "DieChosen": lambda d, e, who: f"{who} keeps the {e.die}",
    "PlacementPassed": lambda d, e, who: (
        f"{who} has no worker left to place this round"
        if e.forced
        else f"{who} places no more workers this round"
    ),
    "MarketTraded": lambda d, e, who: f"{who} trades at the market: {goods_of(e.paid)} for {goods_of(e.got)}",
    "MarketLeft": lambda d, e, who: f"{who} leaves the market",
    "WorkshopWorked": lambda d, e, who: (
        f"{d.labels.workshop(e.workshop)}{'' if e.owner == e.seat else f' of {d.who(e.owner)}'} "
        f"(space {e.slot}) produces for {who}"
    ),
    "WorkshopBuilt": lambda d, e, who: f"{who} builds {d.labels.workshop(e.workshop)} in space {e.slot}",
    "WorkshopBuildFailed": lambda d, e, who: (
        f"{who} cannot pay for {d.labels.workshop(e.workshop)}: it goes back to the supply"
    ),
    "MasterpieceCreated": lambda d, e, who: f"{who} makes {d.labels.character(e.artist)}'s masterpiece",
    "TitlesAssigned": _titles,
    "PrestigeBanked": lambda d, e, who: f"{who} banks {e.amount} prestige as certificates",
    "CardinalCreated": lambda d, e, who: f"{who} becomes Cardinal",
    "WorkersReturned": lambda d, e, who: f"{who}'s workers are back in the reserve",
    "RoundCleared": lambda d, e, who: (
        "Withheld and expelled characters and the preachers on pulpits go back to their cards"
    ),
    "CharactersDeparted": lambda d, e, who: (
        "Left Florence: " + (", ".join(d.labels.character(x) for x in e.characters) or "nobody")
    ),
    "LifeShifted": lambda d, e, who: "Every character moves one Life in Florenza card to the left",
}
"""The words of each event a player follows, by message name, looked up by :meth:`FlorenzaDescriber.event`."""
