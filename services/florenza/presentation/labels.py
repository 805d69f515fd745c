"""Names for the ids in Florenza views, commands and events, from the validated content.

Views name workshops, characters (artists and preachers share one id space), art works and Life in
Florenza cards by id. :class:`Labels` turns them into words a player reads (``"Boscaiuolo"``,
``"Facciata (Duomo)"``, ``"Giotto (painting 200)"``), with the facts a player needs to choose: a
workshop's cost and effect, an artist's talents and fees, a preacher's offering and workers, a
work's place, talents, price and reward. Everything comes from the typed, checked content; an
unknown id falls back to ``workshop #7`` and the like, so a label never fails.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.florenza.rules.content_types import Area, ArtWork, Content, EffectKind, Reward, Skill, Workshop
from services.florenza.rules.goods import GOODS_FIELDS, Goods

ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")
UNITS = {"money": "fiorini"}
SINGULAR = {"workers": "worker"}
AREA_NAMES = {Area.PALAZZO: "Palazzo", Area.CHIESA: "Chiesa", Area.CITY: "city", Area.DUOMO: "Duomo"}


def amounts_text(amounts: dict[str, int]) -> str:
    """``{"money": 100, "wood": 1}`` -> ``"100 fiorini, 1 wood"``; zero amounts left out."""
    parts = [f"{n} {SINGULAR.get(k, k) if n == 1 else UNITS.get(k, k)}" for k, n in amounts.items() if n]
    return ", ".join(parts) or "nothing"


def goods_text(goods: Goods) -> str:
    return amounts_text({k: getattr(goods, k) for k in GOODS_FIELDS})


def reward_text(r: Reward) -> str:
    amounts = {k: getattr(r.goods, k) for k in GOODS_FIELDS}
    amounts |= {"prestige": r.prestige, "church influence": r.church, "workers": r.workers}
    return amounts_text(amounts)


def skill_name(skill: Skill | int) -> str:
    return Skill(skill).name.lower() if skill in Skill._value2member_map_ else f"talent {skill}"


def roman(n: int) -> str:
    return ROMAN[n] if 0 <= n < len(ROMAN) else str(n)


@dataclass(frozen=True)
class Labels:
    """The typed content with helpers that never fail on an unknown id."""

    content: Content

    # ------------------------------------------------------------ names
    def workshop(self, kind: int) -> str:
        found = self.content.workshop.get(kind)
        return found.name if found else f"workshop #{kind}"

    def character(self, character: int) -> str:
        """An artist's or a preacher's name (the anonymous ones are named "Anonymous painter" ...)."""
        artist = self.content.artist.get(character)
        if artist is not None:
            return artist.name
        preacher = self.content.preacher.get(character)
        if preacher is not None:
            return preacher.name
        return f"character #{character}"

    def work(self, work: int) -> str:
        """``"Facciata (Duomo)"``: names repeat across places, so the place is part of the name."""
        found = self.content.work.get(work)
        if found is None:
            return f"art work #{work}"
        return f"{found.name} ({self.place(found)})"

    def place(self, work: ArtWork) -> str:
        return work.building if work.area is Area.CITY else AREA_NAMES[work.area]

    def life(self, number: int) -> str:
        return f"Life in Florenza {roman(number)}"

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
            return f"pays {reward_text(found.pay)} for {reward_text(found.gain)}"
        if found.effect is EffectKind.INCOME:
            return f"income {reward_text(found.gain)} (purple, no worker)"
        return f"gives {reward_text(found.gain)}"

    def workshop_text(self, kind: int) -> str:
        """``"Fabbro: costs 1 marble, 1 wood; gives 1 metal"`` (and the prestige of building it)."""
        found: Workshop | None = self.content.workshop.get(kind)
        if found is None:
            return self.workshop(kind)
        cost = f"costs {goods_text(found.cost)}"
        if found.build_prestige:
            cost += f" (+{found.build_prestige} prestige when built)"
        return f"{found.name}: {cost}; {self.effect(kind)}"

    def artist_text(self, artist: int) -> str:
        """``"Giotto (painting 200, architecture 150)"``; an anonymous artist works for free."""
        found = self.content.artist.get(artist)
        if found is None:
            return self.character(artist)
        if found.anonymous:
            return f"{self.character(artist)} ({', '.join(skill_name(r.skill) for r in found.talents)}, free)"
        return f"{found.name} ({', '.join(f'{skill_name(r.skill)} {r.fee}' for r in found.talents)})"

    def preacher_text(self, preacher: int) -> str:
        """``"Savonarola (offering 200; workers 1,2,2,2,3,3)"``."""
        found = self.content.preacher.get(preacher)
        if found is None:
            return self.character(preacher)
        faces = ",".join(str(n) for n in found.faces)
        return f"{self.character(preacher)} (offering {found.offering}; workers by die {faces})"

    def work_text(self, work: int) -> str:
        """``"Affresco (Palazzo): painting; 2 marble, 100 fiorini -> 3 prestige"``."""
        found = self.content.work.get(work)
        if found is None:
            return self.work(work)
        talents = "/".join(skill_name(k) for k in found.skills)
        text = f"{self.work(work)}: {talents}; {goods_text(found.cost)} -> {reward_text(found.reward)}"
        if not found.income.is_empty:
            text += f"; income {reward_text(found.income)} a round"
        return text

    def preacher_workers(self, preacher: int, face: int) -> int:
        found = self.content.preacher.get(preacher)
        return found.faces[face - 1] if found is not None and 1 <= face <= len(found.faces) else 0
