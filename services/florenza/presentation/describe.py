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

from services.florenza.presentation.labels import Labels, amounts_text, roman, skill_name
from shared.core.describe import Describer, enum_label, words

Msg = Any


def goods_of(message: Msg) -> str:
    """A ``Goods`` message as ``"100 fiorini, 1 wood"``."""
    return amounts_text({f.name: getattr(message, f.name) for f in message.DESCRIPTOR.fields})


def enum_of(message: Msg, field: str) -> str:
    return enum_label(message.DESCRIPTOR.fields_by_name[field].enum_type, getattr(message, field))


class FlorenzaDescriber(Describer):
    def __init__(self, labels: Labels, names: Sequence[str] = ()) -> None:
        super().__init__(names)
        self.labels = labels

    def who(self, seat: int) -> str:
        """A seat by its display name alone (``Ada``), ``seat N`` without one."""
        return self.names[seat] if 0 <= seat < len(self.names) and self.names[seat] else f"seat {seat}"

    # ------------------------------------------------------------ values
    def _id_names(self) -> dict[str, Callable[[int], str]]:
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
        if fd.type != FieldDescriptor.TYPE_INT32 or isinstance(raw, bool):
            return None
        name = self._id_names().get(fd.name)
        return name(raw) if name is not None else None

    # ------------------------------------------------------------ commands
    def command(self, member: Msg, view: Msg | None = None) -> str:
        """E.g. ``Hire artist: Giotto (painting 200) for Affresco (Palazzo): painting; 2 marble ->
        3 prestige``."""
        special = self._special(member, view)
        if special is None:
            return super().command(member, view)
        title = words(member.DESCRIPTOR.name)
        return f"{title}: {special}" if special else title

    def _special(self, m: Msg, view: Msg | None) -> str | None:
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

    def _complete(self, m: Msg, view: Msg | None) -> str:
        skill = skill_name(m.skill)
        spots = list(getattr(getattr(view, "game", None), "works", []) or [])
        seat = view.viewer_seat if view is not None else -1
        spot = next((w for w in spots if w.work == m.work and w.worker == seat and seat >= 0), None)
        text = f"{self.labels.work(m.work)} with {skill}"
        if spot is not None:
            price = self.labels.work_price(m.work, spot.artist, m.skill)
            text += f" by {self.labels.character(spot.artist)}; price {price}"
        return text

    # ------------------------------------------------------------ events
    def event(self, member: Msg) -> str:
        special = self._event(member)
        return special if special is not None else super().event(member)

    def _event(self, e: Msg) -> str | None:
        """One sentence for the events a player follows; None: the generic wording."""
        lab = self.labels
        who = self.who(e.seat) if "seat" in e.DESCRIPTOR.fields_by_name else ""
        match e.DESCRIPTOR.name:
            case "GameStarted":
                order = ", ".join(self.who(s) for s in e.turn_order)
                return f"The game starts with {e.seats} families; turn order {order}"
            case "CharactersArrived":
                return "Arrived in Florence: " + ", ".join(
                    f"{lab.character(p.character)} ({roman(p.card)})" for p in e.arrivals
                )
            case "RoundStarted":
                return f"Round {e.round} begins; turn order " + ", ".join(self.who(s) for s in e.turn_order)
            case "PhaseChanged":
                return f"Step: {enum_of(e, 'phase')}"
            case "TurnBegan":
                return f"{who} is to act"
            case "GoodsGained" | "GoodsPaid":
                verb = "gained" if e.DESCRIPTOR.name == "GoodsGained" else "paid"
                return f"{who} {verb} {goods_of(e.goods)} ({enum_of(e, 'source')})"
            case "PrestigeChanged" | "ChurchInfluenceChanged":
                track = "prestige" if e.DESCRIPTOR.name == "PrestigeChanged" else "church influence"
                return f"{who} {'+' if e.delta > 0 else ''}{e.delta} {track} ({enum_of(e, 'source')})"
            case "WorkersGained":
                return f"{who} +{e.count} worker{'s' if e.count != 1 else ''} ({enum_of(e, 'source')})"
            case "IncomeDieRolled":
                return f"Income die: {e.face}, everybody takes {enum_of(e, 'resource')}"
            case "ArtistHired":
                return f"{who} hired {lab.character(e.artist)} for {lab.work(e.work)}"
            case "WorkshopPlanned":
                return f"{who} planned {lab.workshop(e.workshop)} in space {e.slot}"
            case "WorkerSentToWorkshop":
                return f"{who} sent a worker to {self.who(e.owner)}'s space {e.slot}"
            case "OfferingMade":
                where = " in the Duomo" if e.duomo else ""
                return f"{who} made an offering to {lab.character(e.preacher)}{where}"
            case "ArtWorkCompleted":
                artist = f"{lab.character(e.artist)} ({skill_name(e.skill)})"
                return f"{who} completed {lab.work(e.work)} with {artist}"
            case "ArtWorkFailed":
                return f"{who} could not pay for {lab.work(e.work)}"
            case "CertificatesKeptHidden":
                return "Each family's certificates stay hidden from the others until the final scoring"
            case "CertificatesTaken":
                return f"{who} banks {e.amount} prestige as certificates (seen by {who} alone)"
            case "PrestigeBankedHidden":
                return f"{who} banks the prestige track as hidden certificates; the track goes back to 0"
            case "GameScored":
                scores = ", ".join(f"{self.who(s.seat)} {s.total}" for s in e.scores)
                return f"The game ends: {scores}"
        return None
