"""Names for the ids in Florenza views, commands and events, from the validated content, in one locale.

Views name workshops, characters (artists and preachers share one id space), art works and Life in
Florenza cards by id. :class:`Labels` turns them into words a player reads (``"Boscaiuolo"``,
``"Facciata (Duomo)"``, ``"Giotto (painting 200)"``), with the facts a player needs to choose: a
workshop's cost and effect, an artist's talents and fees, a preacher's offering and workers, a
work's place, talents, price and reward. Everything comes from the typed, checked content, worded by
the catalog of one locale (``services/florenza/texts.py``, ``TEXTS``; English by default); an unknown
id falls back to ``workshop #7`` and the like, so a label never fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.florenza.rules.content_types import Area, ArtWork, Content, EffectKind, Reward, Skill, Workshop
from services.florenza.rules.goods import GOODS_FIELDS, Goods
from shared.core.i18n import Catalog

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")
AREA_KEYS = {Area.PALAZZO: "palazzo", Area.CHIESA: "chiesa", Area.CITY: "city", Area.DUOMO: "duomo"}


def catalog(locale: str = "en") -> Catalog:
    """Florenza's texts in ``locale`` (the package's ``TEXTS``)."""
    from services.florenza.texts import TEXTS

    return TEXTS.catalog(locale)


def amounts_text(amounts: dict[str, int], t: Catalog | None = None) -> str:
    """``{"money": 100, "wood": 1}`` -> ``"100 fiorini, 1 wood"``; zero amounts left out."""
    t = t or catalog()
    parts = [t.plural(f"goods.{k.replace(' ', '_')}", n) for k, n in amounts.items() if n]
    return t.text("list.sep").join(parts) or t.text("goods.nothing")


def goods_text(goods: Goods, t: Catalog | None = None) -> str:
    return amounts_text({k: getattr(goods, k) for k in GOODS_FIELDS}, t)


def reward_text(r: Reward, t: Catalog | None = None) -> str:
    amounts = {k: getattr(r.goods, k) for k in GOODS_FIELDS}
    amounts |= {"prestige": r.prestige, "church": r.church, "workers": r.workers}
    return amounts_text(amounts, t)


def skill_name(skill: Skill | int, t: Catalog | None = None) -> str:
    t = t or catalog()
    if skill in Skill._value2member_map_:
        return t.text(f"skill.{Skill(skill).name.lower()}")
    return t.text("label.unknown_talent", id=skill)


def roman(n: int) -> str:
    return ROMAN[n] if 0 <= n < len(ROMAN) else str(n)


@dataclass(frozen=True)
class Labels:
    """The typed content with helpers that never fail on an unknown id, worded by ``t``."""

    content: Content
    t: Catalog = field(default_factory=catalog)

    def say(self, key: str, **values: object) -> str:
        """The text of ``key`` in this locale."""
        return self.t.text(key, **values)

    def sep(self) -> str:
        return self.t.text("list.sep")

    def goods(self, goods: Goods) -> str:
        return goods_text(goods, self.t)

    def reward(self, r: Reward) -> str:
        return reward_text(r, self.t)

    def amounts(self, amounts: dict[str, int]) -> str:
        return amounts_text(amounts, self.t)

    def skill(self, skill: Skill | int) -> str:
        return skill_name(skill, self.t)

    # ------------------------------------------------------------ names
    def workshop(self, kind: int) -> str:
        found = self.content.workshop.get(kind)
        if found is None:
            return self.say("label.unknown_workshop", id=kind)
        return self.t.get(f"workshop.{kind}.name", found.name)

    def character(self, character: int) -> str:
        """An artist's or a preacher's name (the anonymous ones are named "Anonymous painter" ...)."""
        artist = self.content.artist.get(character)
        if artist is not None:
            return self.t.get(f"artist.{character}.name", artist.name)
        preacher = self.content.preacher.get(character)
        if preacher is not None:
            return self.t.get(f"preacher.{character}.name", preacher.name)
        return self.say("label.unknown_character", id=character)

    def work_name(self, work: int) -> str:
        """The art work's own name (``"Facciata"``), without its place."""
        found = self.content.work.get(work)
        if found is None:
            return self.say("label.unknown_work", id=work)
        return self.t.get(f"work.{work}.name", found.name)

    def building(self, name: str) -> str:
        """A city building's name (``"Battistero"``)."""
        return self.t.get(f"building.{building_key(name)}.name", name)

    def work(self, work: int) -> str:
        """``"Facciata (Duomo)"``: names repeat across places, so the place is part of the name."""
        found = self.content.work.get(work)
        if found is None:
            return self.say("label.unknown_work", id=work)
        return self.say("label.work", name=self.work_name(work), place=self.place(found))

    def place(self, work: ArtWork) -> str:
        return self.building(work.building) if work.area is Area.CITY else self.area(work.area)

    def area(self, area: Area) -> str:
        return self.say(f"area.{AREA_KEYS[area]}")

    def life(self, number: int) -> str:
        return self.say("label.life", roman=roman(number))

    def is_artist(self, character: int) -> bool:
        return character in self.content.artist

    def is_preacher(self, character: int) -> bool:
        return character in self.content.preacher

    # ------------------------------------------------------------ facts
    def effect(self, kind: int) -> str:
        """What a workshop does: ``"gives 1 wood"``, ``"pays 2 fabric for 3 prestige"``, ``"income: ..."``."""
        found = self.content.workshop.get(kind)
        if found is None:
            return ""
        if found.effect is EffectKind.CONVERT:
            return self.say("effect.convert", pay=self.reward(found.pay), gain=self.reward(found.gain))
        if found.effect is EffectKind.INCOME:
            return self.say("effect.income", gain=self.reward(found.gain))
        return self.say("effect.gain", gain=self.reward(found.gain))

    def workshop_text(self, kind: int) -> str:
        """``"Fabbro: costs 1 marble, 1 wood; gives 1 metal"`` (and the prestige of building it)."""
        found: Workshop | None = self.content.workshop.get(kind)
        if found is None:
            return self.workshop(kind)
        cost = self.say("workshop.costs", cost=self.goods(found.cost))
        if found.build_prestige:
            cost += self.say("workshop.build_prestige", prestige=found.build_prestige)
        return self.say("workshop.text", name=self.workshop(kind), cost=cost, effect=self.effect(kind))

    def artist_text(self, artist: int) -> str:
        """``"Giotto (painting 200, architecture 150)"``; an anonymous artist works for free."""
        found = self.content.artist.get(artist)
        if found is None:
            return self.character(artist)
        if found.anonymous:
            talents = self.sep().join(self.skill(r.skill) for r in found.talents)
            return self.say("artist.anonymous_text", name=self.character(artist), talents=talents)
        talents = self.sep().join(
            self.say("artist.talent_fee", talent=self.skill(r.skill), fee=r.fee) for r in found.talents
        )
        return self.say("artist.text", name=self.character(artist), talents=talents)

    def preacher_text(self, preacher: int) -> str:
        """``"Savonarola (offering 200; workers by die 1,2,2,2,3,3)"``."""
        found = self.content.preacher.get(preacher)
        if found is None:
            return self.character(preacher)
        faces = ",".join(str(n) for n in found.faces)
        return self.say("preacher.text", name=self.character(preacher), offering=found.offering, faces=faces)

    def talents(self, skills: tuple[Skill, ...]) -> str:
        return "/".join(self.skill(k) for k in skills)

    def work_text(self, work: int) -> str:
        """``"Affresco (Palazzo): painting; 2 marble, 100 fiorini -> 3 prestige"``."""
        found = self.content.work.get(work)
        if found is None:
            return self.work(work)
        text = self.say(
            "work.text",
            work=self.work(work),
            talents=self.talents(found.skills),
            cost=self.goods(found.cost),
            reward=self.reward(found.reward),
        )
        if not found.income.is_empty:
            text += self.say("work.income", income=self.reward(found.income))
        return text

    def preacher_workers(self, preacher: int, face: int) -> int:
        found = self.content.preacher.get(preacher)
        return found.faces[face - 1] if found is not None and 1 <= face <= len(found.faces) else 0


def building_key(name: str) -> str:
    """A city building's key: its name in lower case, words joined by ``_`` (``palazzo_della_signoria``)."""
    return "_".join(name.lower().replace("'", " ").split())
