"""Florenza's commands and events in words: the generic descriptor-driven text with Florenza's ids named.

:class:`FlorenzaDescriber` extends :class:`shared.core.describe.Describer`: id fields are named by their
field name (``workshop``, ``artist``, ``preacher``, ``character``, ``work``), ``Goods`` read as goods,
a ``Presence`` as "who under which Life in Florenza card". The commands a player chooses between get
the facts needed to choose (a workshop's cost and effect, an artist's fee, a work's price and reward,
an offering's price, the workers a die gives), and the events a sentence each. Every word comes from
the labels' catalog (one locale of ``services/florenza/texts.py``'s ``TEXTS``): commands' titles under
``command.<Name>``, events' sentences under ``event.<Name>``, enum values under ``enum.<enum>.<value>``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.descriptor import FieldDescriptor

from services.florenza.presentation.labels import Labels, catalog, roman
from services.florenza.rules.content_types import Skill
from services.florenza.rules.goods import GOODS_FIELDS, Goods
from services.florenza.rules.resolution import art_work_price, failure_loss
from shared.core.describe import LabelledDescriber, enum_label, words
from shared.core.i18n import Catalog

Msg = Any
TITLE_KEYS = {1: "title.captain", 2: "title.bishop"}
ENUMS = ("Phase", "Resource", "Source", "Trade", "Title", "DieUse")  # the enums a player reads, by name


def enum_key(enum_name: str) -> str:
    """``DieUse`` -> ``die_use``: an enum's part of its values' keys (``enum.die_use.preacher``)."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in enum_name).lstrip("_")


def goods_of(message: Msg, t: Catalog | None = None) -> str:
    """A ``Goods`` message as ``"100 fiorini, 1 wood"``."""
    from services.florenza.presentation.labels import amounts_text

    return amounts_text({f.name: getattr(message, f.name) for f in message.DESCRIPTOR.fields}, t)


def goods_record(message: Msg) -> Goods:
    """A ``Goods`` message as the rules' record."""
    return Goods(**{f: int(getattr(message, f)) for f in GOODS_FIELDS})


def enum_value(enum: Any, number: int, t: Catalog | None = None) -> str:
    """An enum value in words (``enum.phase.placement``), the generic label where none is declared."""
    english = enum_label(enum, number)
    return (t or catalog()).get(f"enum.{enum_key(enum.name)}.{english.replace(' ', '_')}", english)


def enum_of(message: Msg, field: str, t: Catalog | None = None) -> str:
    return enum_value(message.DESCRIPTOR.fields_by_name[field].enum_type, getattr(message, field), t)


class FlorenzaDescriber(LabelledDescriber):
    labels: Labels

    def say(self, key: str, **values: Any) -> str:
        return self.labels.say(key, **values)

    def enum(self, message: Msg, field: str) -> str:
        return enum_of(message, field, self.labels.t)

    def goods_of(self, message: Msg) -> str:
        return goods_of(message, self.labels.t)

    def who(self, seat: int) -> str:
        """A seat by its display name alone (``Ada``), ``seat N`` without one."""
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.say("label.seat", seat=seat)

    def seat(self, seat: int) -> str:
        if 0 <= seat < len(self.names) and self.names[seat]:
            return self.say("label.named_seat", name=self.names[seat], seat=seat)
        return self.say("label.seat", seat=seat)

    def order(self, seats: Sequence[int]) -> str:
        return self.labels.sep().join(self.who(s) for s in seats)

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
            return self.goods_of(raw)
        if fd.type == FieldDescriptor.TYPE_MESSAGE and raw.DESCRIPTOR.name == "Presence":
            return self.say(
                "label.presence", character=self.labels.character(raw.character), card=roman(raw.card)
            )
        if fd.type == FieldDescriptor.TYPE_ENUM and fd.enum_type is not None and fd.enum_type.name in ENUMS:
            return enum_value(fd.enum_type, int(raw), self.labels.t)
        return super().label(fd, raw, context)

    # ------------------------------------------------------------ commands
    def command(self, member: Msg, view: Msg | None = None) -> str:
        """One command, its title from the catalog (``command.HireArtist``: ``Hire artist``)."""
        name = member.DESCRIPTOR.name
        title = self.labels.t.get(f"command.{name}", words(name))
        special = self.special(member, view)
        if special is not None:
            return self.say("command.with_detail", title=title, detail=special) if special else title
        rest = self.fields(member)
        return self.say("command.with_detail", title=title, detail=rest) if rest else title

    def special(self, m: Msg, view: Msg | None) -> str | None:
        """E.g. ``Hire artist: Giotto (painting 200) for Affresco (Palazzo): painting; 2 marble ->
        3 prestige``."""
        lab = self.labels
        match m.DESCRIPTOR.name:
            case "ChooseStartingWorkshop" | "PlanWorkshop":
                return lab.workshop_text(m.workshop)
            case "WithholdWorker":
                return self.say("command.withhold_worker", who=self.who(m.seat), card=lab.life(6))
            case "LureWorker":
                return self.say("command.lure_worker", who=self.who(m.seat))
            case "WithholdArtist":
                return self.say("command.withhold_artist", artist=lab.artist_text(m.artist))
            case "ExpelPreacher":
                return self.say("command.expel_preacher", preacher=lab.preacher_text(m.preacher))
            case "WorkWorkshop":
                return self._work_workshop(m, view)
            case "HireArtist":
                return self.say(
                    "command.hire_artist", artist=lab.artist_text(m.artist), work=lab.work_text(m.work)
                )
            case "MakeOffering":
                key = "command.offering_duomo" if m.duomo else "command.offering_pulpit"
                return self.say(key, preacher=lab.preacher_text(m.preacher))
            case "ChooseDie":
                return self._choose_die(m, view)
            case "SellResource" | "BuyResource":
                return self.enum(m, "resource")
            case "ExchangeResources":
                return self.say("command.exchange", give=self.enum(m, "give"), get=self.enum(m, "get"))
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
        mine = view is not None and m.owner == view.viewer_seat
        if mine:
            text = self.say("command.work_own_space", slot=m.slot)
        else:
            text = self.say("command.work_space_of", who=self.who(m.owner), slot=m.slot)
        if x is not None and x.workshop:
            text += self.say(
                "command.work_workshop",
                workshop=self.labels.workshop(x.workshop),
                effect=self.labels.effect(x.workshop),
            )
        if view is not None and not mine:
            text += self.say("command.work_fee", who=self.who(m.owner))
        return text

    def _choose_die(self, m: Msg, view: Msg | None) -> str:
        pending = getattr(getattr(view, "game", None), "pending", None)
        if pending is None or not pending.character:
            return str(m.die)
        character = self.labels.character(pending.character)
        if self.labels.is_preacher(pending.character):
            workers = self.labels.preacher_workers(pending.character, m.die)
            return self.labels.t.plural("command.die_workers", workers, die=m.die, preacher=character)
        return self.say("command.die_bonus", die=m.die, artist=character)

    def _my_spot(self, view: Msg | None, work: int) -> Msg | None:
        """The viewer's hired spot of ``work`` (the artist on it), if any."""
        seat = view.viewer_seat if view is not None else -1
        spots = list(getattr(getattr(view, "game", None), "works", []) or [])
        return next((w for w in spots if w.work == work and w.worker == seat and seat >= 0), None)

    def _complete(self, m: Msg, view: Msg | None) -> str:
        return self.say("command.complete", work=self.labels.work(m.work), talent=self.talent_choice(m, view))

    def talent_choice(self, m: Msg, view: Msg | None) -> str:
        """A CompleteArtWork's talent with its artist, the price and whether it can only fail."""
        text = self.labels.skill(m.skill)
        spot = self._my_spot(view, m.work)
        if spot is None or spot.artist not in self.labels.content.artist:
            return text
        price = art_work_price(self.labels.content, m.work, spot.artist, Skill(m.skill))
        text += self.say(
            "command.complete_by", artist=self.labels.character(spot.artist), price=self.labels.goods(price)
        )
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
        return self.say("command.doomed", lacking=self.labels.goods(lacking), loss=loss)

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


def _track_moved(d: FlorenzaDescriber, e: Msg, who: str, track: str) -> str:
    delta = f"{'+' if e.delta > 0 else ''}{e.delta}"
    return d.say(f"event.{track}", who=who, delta=delta, source=d.enum(e, "source"))


def _titles(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    captain = d.who(e.captain) if e.captain >= 0 else d.say("label.nobody")
    bishop = d.who(e.bishop) if e.bishop >= 0 else d.say("label.nobody")
    return d.say("event.TitlesAssigned", captain=captain, bishop=bishop)


def _say(key: str, **fields: Callable[[FlorenzaDescriber, Msg], Any]) -> Words:
    """An event's words: the template ``event.<key>`` with ``who`` and each field's value filled in."""

    def words_of(d: FlorenzaDescriber, e: Msg, who: str) -> str:
        return d.say(f"event.{key}", who=who, **{name: value(d, e) for name, value in fields.items()})

    return words_of


def _names(d: FlorenzaDescriber, ids: Sequence[int], name: Callable[[int], str]) -> str:
    return d.labels.sep().join(name(x) for x in ids) or d.say("label.nobody")


def _offering(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    key = "event.OfferingMade.duomo" if e.duomo else "event.OfferingMade"
    return d.say(key, who=who, preacher=d.labels.character(e.preacher))


def _passed(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    return d.say("event.PlacementPassed.forced" if e.forced else "event.PlacementPassed", who=who)


def _worked(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    workshop = d.labels.workshop(e.workshop)
    if e.owner == e.seat:
        return d.say("event.WorkshopWorked", who=who, workshop=workshop, slot=e.slot)
    return d.say("event.WorkshopWorked.other", who=who, workshop=workshop, slot=e.slot, owner=d.who(e.owner))


def _workers_gained(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    return d.labels.t.plural("event.WorkersGained", e.count, who=who, source=d.enum(e, "source"))


def _declined(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    title = d.say(TITLE_KEYS.get(e.title, "title.any"))
    return d.say("event.PrivilegeDeclined", who=who, title=title)


def _pool_returned(d: FlorenzaDescriber, e: Msg, who: str) -> str:
    workshops = d.labels.sep().join(d.labels.workshop(w) for w in e.workshops) or d.say("label.none")
    return d.say("event.StartingPoolReturned", workshops=workshops)


EVENT_WORDS: dict[str, Words] = {
    "GameStarted": _say("GameStarted", seats=lambda d, e: e.seats, order=lambda d, e: d.order(e.turn_order)),
    "CharactersArrived": _say(
        "CharactersArrived",
        arrivals=lambda d, e: d.labels.sep().join(
            d.say("label.arrival", character=d.labels.character(p.character), card=roman(p.card))
            for p in e.arrivals
        ),
    ),
    "RoundStarted": _say(
        "RoundStarted", round=lambda d, e: e.round, order=lambda d, e: d.order(e.turn_order)
    ),
    "PhaseChanged": _say("PhaseChanged", phase=lambda d, e: d.enum(e, "phase")),
    "TurnBegan": _say("TurnBegan"),
    "GoodsGained": _say(
        "GoodsGained", goods=lambda d, e: d.goods_of(e.goods), source=lambda d, e: d.enum(e, "source")
    ),
    "GoodsPaid": _say(
        "GoodsPaid", goods=lambda d, e: d.goods_of(e.goods), source=lambda d, e: d.enum(e, "source")
    ),
    "PrestigeChanged": lambda d, e, who: _track_moved(d, e, who, "PrestigeChanged"),
    "ChurchInfluenceChanged": lambda d, e, who: _track_moved(d, e, who, "ChurchInfluenceChanged"),
    "WorkersGained": _workers_gained,
    "IncomeDieRolled": _say(
        "IncomeDieRolled", face=lambda d, e: e.face, resource=lambda d, e: d.enum(e, "resource")
    ),
    "ArtistHired": _say(
        "ArtistHired",
        artist=lambda d, e: d.labels.character(e.artist),
        work=lambda d, e: d.labels.work(e.work),
    ),
    "WorkshopPlanned": _say(
        "WorkshopPlanned", workshop=lambda d, e: d.labels.workshop(e.workshop), slot=lambda d, e: e.slot
    ),
    "WorkerSentToWorkshop": _say(
        "WorkerSentToWorkshop", owner=lambda d, e: d.who(e.owner), slot=lambda d, e: e.slot
    ),
    "OfferingMade": _offering,
    "ArtWorkCompleted": _say(
        "ArtWorkCompleted",
        work=lambda d, e: d.labels.work(e.work),
        artist=lambda d, e: d.labels.character(e.artist),
        talent=lambda d, e: d.labels.skill(e.skill),
    ),
    "ArtWorkFailed": _say("ArtWorkFailed", work=lambda d, e: d.labels.work(e.work)),
    "CertificatesKeptHidden": _say("CertificatesKeptHidden"),
    "CertificatesTaken": _say("CertificatesTaken", amount=lambda d, e: e.amount),
    "PrestigeBankedHidden": _say("PrestigeBankedHidden"),
    "GameScored": _say(
        "GameScored",
        scores=lambda d, e: d.labels.sep().join(
            d.say("label.score", who=d.who(s.seat), total=s.total) for s in e.scores
        ),
    ),
    # the privileges, the market, the districts, the art works and the round's end
    "StartingWorkshopChosen": _say(
        "StartingWorkshopChosen",
        workshop=lambda d, e: d.labels.workshop(e.workshop),
        slot=lambda d, e: e.slot,
    ),
    "StartingPoolReturned": _pool_returned,
    "WorkerWithheld": _say(
        "WorkerWithheld", captain=lambda d, e: d.who(e.captain), card=lambda d, e: d.labels.life(6)
    ),
    "ArtistWithheld": _say(
        "ArtistWithheld",
        captain=lambda d, e: d.who(e.captain),
        artist=lambda d, e: d.labels.character(e.artist),
    ),
    "WorkerLured": _say("WorkerLured", bishop=lambda d, e: d.who(e.bishop)),
    "PreacherExpelled": _say(
        "PreacherExpelled",
        bishop=lambda d, e: d.who(e.bishop),
        preacher=lambda d, e: d.labels.character(e.preacher),
    ),
    "PrivilegeDeclined": _declined,
    "MarketVisited": _say("MarketVisited"),
    "DiceRolled": _say(
        "DiceRolled",
        dice=lambda d, e: d.say("label.and").join(str(x) for x in e.dice),
        character=lambda d, e: d.labels.character(e.character),
    ),
    "DiceChoiceOffered": _say("DiceChoiceOffered", chooser=lambda d, e: d.who(e.pending.seat)),
    "DieChosen": _say("DieChosen", die=lambda d, e: e.die),
    "PlacementPassed": _passed,
    "MarketTraded": _say(
        "MarketTraded", paid=lambda d, e: d.goods_of(e.paid), got=lambda d, e: d.goods_of(e.got)
    ),
    "MarketLeft": _say("MarketLeft"),
    "WorkshopWorked": _worked,
    "WorkshopBuilt": _say(
        "WorkshopBuilt", workshop=lambda d, e: d.labels.workshop(e.workshop), slot=lambda d, e: e.slot
    ),
    "WorkshopBuildFailed": _say("WorkshopBuildFailed", workshop=lambda d, e: d.labels.workshop(e.workshop)),
    "MasterpieceCreated": _say("MasterpieceCreated", artist=lambda d, e: d.labels.character(e.artist)),
    "TitlesAssigned": _titles,
    "PrestigeBanked": _say("PrestigeBanked", amount=lambda d, e: e.amount),
    "CardinalCreated": _say("CardinalCreated"),
    "WorkersReturned": _say("WorkersReturned"),
    "RoundCleared": _say("RoundCleared"),
    "CharactersDeparted": _say(
        "CharactersDeparted", characters=lambda d, e: _names(d, e.characters, d.labels.character)
    ),
    "LifeShifted": _say("LifeShifted"),
}
"""The words of each event a player follows, by message name, looked up by :meth:`FlorenzaDescriber.event`."""
