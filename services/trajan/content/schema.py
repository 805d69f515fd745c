"""The shape of Trajan's YAML files, as pydantic models, and the typed records they build.

One model per kind of YAML mapping, named ``...Yaml``, with the field names the files use; each turns
itself into the frozen records the rules read (``record()``). Every check is a field constraint or a
validator, so :func:`shared.core.content.load` reports it with file, entry and field. ``provinces.yaml`` is
loaded first: the board names provinces by key, and gets them as the validation context.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Annotated, Self

from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator

from services.trajan.rules.content_types import (
    Action,
    Board,
    BonusKind,
    BonusTile,
    Colour,
    Commodity,
    ConstructionKind,
    ConstructionTile,
    Demand,
    Demands,
    ForumKind,
    ForumTile,
    ForumTileSpec,
    Province,
    Scoring,
    Ship,
    ShipKind,
    Site,
    TrajanEffect,
    TrajanTile,
)
from shared.core.content import CONTENT_CONFIG, UNIQUE_IDS, by_name

# Component counts printed in the rulebook's component list (seed (p1-2) 游戏配件).
TRAJAN_TILES, FORUM_TILES, EXTRA_ACTION_TILES, CONSTRUCTION_TILES = 54, 70, 12, 20
DEMAND_TILES, BONUS_TILES, SHIP_TILES, COMMODITY_CARDS, COMMODITY_KINDS = 15, 12, 3, 60, 12
PROVINCES, BOWLS = 10, 6

Count = Annotated[int, Field(ge=0)]
Positive = Annotated[int, Field(ge=1)]
Text = Annotated[str, Field(min_length=1)]
ActionName = Annotated[Action, by_name(Action)]
ColourName = Annotated[Colour, by_name(Colour)]
CommodityName = Annotated[Commodity, by_name(Commodity)]
DemandName = Annotated[Demand, by_name(Demand)]


class _Yaml(BaseModel):
    model_config = CONTENT_CONFIG


def _distinct(values: list[object], what: str) -> None:
    repeated = [v for v, n in Counter(values).items() if n > 1]
    if repeated:
        raise ValueError(f"{what} {repeated[0]} appears more than once")


# ---------------------------------------------------------------- provinces


class ProvinceYaml(_Yaml):
    id: Positive
    key: Text
    name: Text
    vp: Count
    adjacent: list[Text]


class ProvincesYaml(_Yaml):
    provinces: Annotated[list[ProvinceYaml], UNIQUE_IDS]

    @model_validator(mode="after")
    def _graph(self) -> Self:
        if len(self.provinces) != PROVINCES:
            raise ValueError(f"expected {PROVINCES} provinces, found {len(self.provinces)}")
        if sorted(p.id for p in self.provinces) != list(range(1, PROVINCES + 1)):
            raise ValueError("province ids must be 1..10")
        keys = {p.key: p for p in self.provinces}
        _distinct([p.key for p in self.provinces], "province key")
        for p in self.provinces:
            for other in p.adjacent:
                if other not in keys:
                    raise ValueError(f"{p.key}: unknown neighbour {other}")
                if p.key not in keys[other].adjacent:
                    raise ValueError(f"{p.key} - {other}: adjacency must go both ways")
        return self

    def records(self) -> tuple[Province, ...]:
        ids = {p.key: p.id for p in self.provinces}
        return tuple(
            Province(p.id, p.key, p.name, p.vp, tuple(ids[k] for k in p.adjacent))
            for p in sorted(self.provinces, key=lambda p: p.id)
        )


# ---------------------------------------------------------------- board


class LapYaml(_Yaml):
    players: Annotated[int, Field(ge=2, le=4)]
    spaces: Positive


class SiteYaml(_Yaml):
    id: Positive
    row: Positive
    column: Positive
    adjacent: list[Positive]


class BoardYaml(_Yaml):
    bowls: list[ActionName]
    colours: list[ColourName]
    markers_per_colour: Positive
    markers_per_bowl: Positive
    tokens: Positive
    tokens_in_camp: Count
    tokens_in_work_area: Count
    starting_hand: Count
    start_slots: list[Annotated[int, Field(ge=1, le=BOWLS)]]
    arch_start: Annotated[int, Field(ge=1, le=BOWLS)]
    plus_two_markers: Count
    quarter_tiles: Positive
    time_track: list[LapYaml]
    rounds_per_quarter: Positive
    quarters: Positive
    senate_track: list[Count]
    forum_tiles_per_player: Count
    forum_extra_action_tiles: Count
    senate_offer: Count
    bonus_tiles_per_player: Count
    camp_exits: list[Text]
    construction_sites: Annotated[list[SiteYaml], UNIQUE_IDS]

    @field_validator("bowls")
    @classmethod
    def _every_action_once(cls, bowls: list[Action]) -> list[Action]:
        if sorted(bowls) != sorted(Action):
            raise ValueError("the six bowls hold the six actions, each once")
        return bowls

    @field_validator("colours")
    @classmethod
    def _every_colour_once(cls, colours: list[Colour]) -> list[Colour]:
        if sorted(colours) != sorted(Colour):
            raise ValueError("the six marker colours, each once")
        return colours

    @field_validator("start_slots")
    @classmethod
    def _distinct_slots(cls, slots: list[int]) -> list[int]:
        _distinct(list(slots), "slot")
        return slots

    @field_validator("time_track")
    @classmethod
    def _one_lap_per_player_count(cls, laps: list[LapYaml]) -> list[LapYaml]:
        if sorted(x.players for x in laps) != [2, 3, 4]:
            raise ValueError("one lap length for each of 2, 3 and 4 players")
        return laps

    @field_validator("senate_track")
    @classmethod
    def _rising(cls, track: list[int]) -> list[int]:
        if len(track) < 2 or track[0] != 0 or any(b <= a for a, b in pairwise(track)):
            raise ValueError("starts at 0 and rises space by space")
        return track

    @field_validator("camp_exits")
    @classmethod
    def _known_provinces(cls, exits: list[str], info: ValidationInfo) -> list[str]:
        keys = {p.key for p in _provinces(info)}
        unknown = [k for k in exits if k not in keys]
        if unknown or not exits:
            raise ValueError(f"unknown province {unknown[0]}" if unknown else "the camp needs an exit")
        return exits

    @field_validator("construction_sites")
    @classmethod
    def _orthogonal_grid(cls, sites: list[SiteYaml]) -> list[SiteYaml]:
        at = {(s.row, s.column): s.id for s in sites}
        if sorted(s.id for s in sites) != list(range(1, len(sites) + 1)) or len(at) != len(sites):
            raise ValueError("sites are numbered 1..n, one per row and column")
        for s in sites:
            around = [
                (s.row - 1, s.column),
                (s.row + 1, s.column),
                (s.row, s.column - 1),
                (s.row, s.column + 1),
            ]
            wanted = sorted(at[x] for x in around if x in at)
            if sorted(s.adjacent) != wanted:
                raise ValueError(f"site {s.id}: neighbours must be the orthogonal ones {wanted}")
        return sites

    def record(self, provinces: tuple[Province, ...]) -> Board:
        ids = {p.key: p.id for p in provinces}
        return Board(
            bowls=tuple(self.bowls),
            colours=tuple(self.colours),
            markers_per_colour=self.markers_per_colour,
            markers_per_bowl=self.markers_per_bowl,
            tokens=self.tokens,
            tokens_in_camp=self.tokens_in_camp,
            tokens_in_work_area=self.tokens_in_work_area,
            starting_hand=self.starting_hand,
            start_slots=tuple(self.start_slots),
            arch_start=self.arch_start,
            time_track=tuple((x.players, x.spaces) for x in self.time_track),
            rounds_per_quarter=self.rounds_per_quarter,
            quarters=self.quarters,
            senate_track=tuple(self.senate_track),
            forum_tiles_per_player=self.forum_tiles_per_player,
            forum_extra_action_tiles=self.forum_extra_action_tiles,
            senate_offer=self.senate_offer,
            bonus_tiles_per_player=self.bonus_tiles_per_player,
            sites=tuple(Site(s.id, s.row, s.column, tuple(s.adjacent)) for s in self.construction_sites),
            camp_exits=tuple(ids[k] for k in self.camp_exits),
            plus_two_markers=self.plus_two_markers,
            quarter_tiles=self.quarter_tiles,
        )


def _provinces(info: ValidationInfo) -> tuple[Province, ...]:
    provinces: tuple[Province, ...] = (info.context or {})["provinces"]
    return provinces


# ---------------------------------------------------------------- Trajan tiles


class TrajanKindYaml(_Yaml):
    kind: Text
    stack: Annotated[int, Field(ge=1, le=6)]
    vp: Count
    effect: Annotated[TrajanEffect, by_name(TrajanEffect)]
    amount: Count = 0
    demand: DemandName | None = None

    @model_validator(mode="after")
    def _effect_fields(self) -> Self:
        counted = self.effect in (TrajanEffect.DRAW_CARDS, TrajanEffect.WORKERS, TrajanEffect.LEGIONNAIRES)
        if counted != (self.amount > 0):
            raise ValueError("amount goes with draw_cards, workers and legionnaires, and only with them")
        if (self.effect is TrajanEffect.DEMAND) != (self.demand is not None):
            raise ValueError("demand goes with the demand effect, and only with it")
        return self


class TrajanTileYaml(_Yaml):
    id: Positive
    kind: Text
    colours: Annotated[list[ColourName], Field(min_length=2, max_length=2)]


class TrajanTilesYaml(_Yaml):
    kinds: list[TrajanKindYaml]
    tiles: Annotated[list[TrajanTileYaml], UNIQUE_IDS]

    @field_validator("tiles")
    @classmethod
    def _known_kinds(cls, tiles: list[TrajanTileYaml], info: ValidationInfo) -> list[TrajanTileYaml]:
        kinds = {k.kind for k in info.data.get("kinds", [])}
        for t in tiles:
            if t.kind not in kinds:
                raise ValueError(f"tile {t.id}: unknown kind {t.kind}")
        return tiles

    @model_validator(mode="after")
    def _counts(self) -> Self:
        if len(self.tiles) != TRAJAN_TILES:
            raise ValueError(f"expected {TRAJAN_TILES} Trajan tiles, found {len(self.tiles)}")
        stack = {k.kind: k.stack for k in self.kinds}
        per_stack = Counter(stack[t.kind] for t in self.tiles)
        if sorted(per_stack) != [1, 2, 3, 4, 5, 6] or set(per_stack.values()) != {9}:
            raise ValueError("six stacks of nine tiles")
        colours = Counter(c for t in self.tiles for c in t.colours)
        if set(colours.values()) != {18}:  # R trajan_tiles.yaml: 108 colour slots, 18 per colour
            raise ValueError("every colour appears on the tiles 18 times")
        return self

    def records(self) -> tuple[TrajanTile, ...]:
        kinds = {k.kind: k for k in self.kinds}
        out = []
        for t in self.tiles:
            k = kinds[t.kind]
            a, b = sorted(t.colours)
            out.append(TrajanTile(t.id, k.stack, (a, b), k.vp, k.effect, k.amount, k.demand))
        return tuple(sorted(out, key=lambda x: x.id))


# ---------------------------------------------------------------- forum and extra action tiles


class ForumTileYaml(_Yaml):
    tile: Annotated[ForumTile, by_name(ForumTile)]
    kind: Annotated[ForumKind, by_name(ForumKind)]
    count: Positive
    votes: Count = 0
    demand: DemandName | None = None
    action: ActionName | None = None

    @model_validator(mode="after")
    def _kind_fields(self) -> Self:
        if (self.kind is ForumKind.SENATE) != (self.votes > 0):
            raise ValueError("votes go with senate tiles, and only with them")
        if (self.kind is ForumKind.DEMAND) != (self.demand is not None):
            raise ValueError("demand goes with demand tiles, and only with them")
        if (self.kind is ForumKind.EXTRA_ACTION) != (self.action is not None):
            raise ValueError("action goes with extra action tiles, and only with them")
        return self

    def record(self) -> ForumTileSpec:
        return ForumTileSpec(self.tile, self.kind, self.count, self.votes, self.demand, self.action)


class ExtraActionYaml(_Yaml):
    action: ActionName
    count: Positive


class ForumTilesYaml(_Yaml):
    forum_tiles: list[ForumTileYaml]
    extra_action_tiles: list[ExtraActionYaml]

    @field_validator("forum_tiles")
    @classmethod
    def _seventy(cls, tiles: list[ForumTileYaml]) -> list[ForumTileYaml]:
        if sorted(t.tile for t in tiles) != sorted(ForumTile):
            raise ValueError("every forum tile kind exactly once")
        if sum(t.count for t in tiles) != FORUM_TILES:
            raise ValueError(f"the counts must add up to {FORUM_TILES}")
        extra = [t.action for t in tiles if t.action is not None]
        _distinct(list(extra), "extra action")
        return tiles

    @field_validator("extra_action_tiles")
    @classmethod
    def _twelve(cls, tiles: list[ExtraActionYaml]) -> list[ExtraActionYaml]:
        if sorted(t.action for t in tiles) != sorted(Action):
            raise ValueError("every action exactly once")
        if sum(t.count for t in tiles) != EXTRA_ACTION_TILES:
            raise ValueError(f"the counts must add up to {EXTRA_ACTION_TILES}")
        return tiles

    @model_validator(mode="after")
    def _every_action_has_a_tile(self) -> Self:
        if sorted(t.action for t in self.forum_tiles if t.action is not None) != sorted(Action):
            raise ValueError("an extra action forum tile kind for every action")
        return self


# ---------------------------------------------------------------- bonus tiles, ships, commodities


class BonusTileYaml(_Yaml):
    id: Positive
    kind: Annotated[BonusKind, by_name(BonusKind)]
    yellow: Count
    grey: Count
    per_units: Positive = 1
    demand: DemandName | None = None
    commodities: list[CommodityName] = []

    @model_validator(mode="after")
    def _kind_fields(self) -> Self:
        if (self.kind is BonusKind.DEMAND) != (self.demand is not None):
            raise ValueError("demand goes with demand bonus tiles, and only with them")
        if (self.kind is BonusKind.COMMODITIES) != bool(self.commodities):
            raise ValueError("commodities go with commodity bonus tiles, and only with them")
        if self.grey > self.yellow:
            raise ValueError("the grey side is worth at most the yellow side")
        return self

    def record(self) -> BonusTile:
        return BonusTile(
            self.id, self.kind, self.yellow, self.grey, self.per_units, self.demand, tuple(self.commodities)
        )


class BonusTilesYaml(_Yaml):
    tiles: Annotated[list[BonusTileYaml], UNIQUE_IDS]

    @field_validator("tiles")
    @classmethod
    def _twelve(cls, tiles: list[BonusTileYaml]) -> list[BonusTileYaml]:
        if len(tiles) != BONUS_TILES:
            raise ValueError(f"expected {BONUS_TILES} bonus tiles, found {len(tiles)}")
        return tiles

    def records(self) -> tuple[BonusTile, ...]:
        return tuple(t.record() for t in sorted(self.tiles, key=lambda t: t.id))


class ShipYaml(_Yaml):
    id: Positive
    kind: Annotated[ShipKind, by_name(ShipKind)]
    yellow: Annotated[list[Count], Field(min_length=1)]
    grey: Annotated[list[Count], Field(min_length=1)]

    @field_validator("grey")
    @classmethod
    def _one_value_per_size(cls, grey: list[int], info: ValidationInfo) -> list[int]:
        if len(grey) != len(info.data.get("yellow", [])):
            raise ValueError("one grey value per yellow value")
        return grey


class ShipsYaml(_Yaml):
    ships: Annotated[list[ShipYaml], UNIQUE_IDS]

    @field_validator("ships")
    @classmethod
    def _three_kinds(cls, ships: list[ShipYaml]) -> list[ShipYaml]:
        if sorted(s.kind for s in ships) != sorted(ShipKind):
            raise ValueError(f"{SHIP_TILES} ships, one of each kind")
        return ships

    def records(self) -> tuple[Ship, ...]:
        return tuple(Ship(s.id, s.kind, tuple(s.yellow), tuple(s.grey)) for s in self.ships)


class CommodityYaml(_Yaml):
    commodity: CommodityName
    count: Positive


class CommoditiesYaml(_Yaml):
    commodities: list[CommodityYaml]

    @field_validator("commodities")
    @classmethod
    def _sixty(cls, cards: list[CommodityYaml]) -> list[CommodityYaml]:
        if sorted(c.commodity for c in cards) != sorted(Commodity):
            raise ValueError(f"the {COMMODITY_KINDS} commodities, each once")
        if sum(c.count for c in cards) != COMMODITY_CARDS:
            raise ValueError(f"the counts must add up to {COMMODITY_CARDS}")
        return cards

    def records(self) -> tuple[tuple[Commodity, int], ...]:
        return tuple((c.commodity, c.count) for c in self.commodities)


# ---------------------------------------------------------------- construction, demands, scoring


class ConstructionKindYaml(_Yaml):
    kind: Text
    bonus_action: ActionName

    @field_validator("bonus_action")
    @classmethod
    def _not_construction(cls, action: Action) -> Action:
        if action is Action.CONSTRUCTION:
            raise ValueError("no construction tile grants a construction action")
        return action


class ConstructionTileYaml(_Yaml):
    id: Positive
    kind: Text
    vp: Count


class ConstructionYaml(_Yaml):
    kinds: list[ConstructionKindYaml]
    tiles: Annotated[list[ConstructionTileYaml], UNIQUE_IDS]

    @field_validator("tiles")
    @classmethod
    def _twenty(cls, tiles: list[ConstructionTileYaml], info: ValidationInfo) -> list[ConstructionTileYaml]:
        kinds = {k.kind for k in info.data.get("kinds", [])}
        for t in tiles:
            if t.kind not in kinds:
                raise ValueError(f"tile {t.id}: unknown kind {t.kind}")
        if len(tiles) != CONSTRUCTION_TILES:
            raise ValueError(f"expected {CONSTRUCTION_TILES} construction tiles, found {len(tiles)}")
        return tiles

    def records(self) -> tuple[tuple[ConstructionKind, ...], tuple[ConstructionTile, ...]]:
        kinds = tuple(ConstructionKind(k.kind, k.bonus_action) for k in self.kinds)
        return kinds, tuple(
            ConstructionTile(t.id, t.kind, t.vp) for t in sorted(self.tiles, key=lambda t: t.id)
        )


class DemandTilesYaml(_Yaml):
    demand: DemandName
    count: Positive


class DemandsYaml(_Yaml):
    tiles: list[DemandTilesYaml]
    reveal_after_rounds: list[Positive]
    penalties: Annotated[list[Positive], Field(min_length=1)]

    @field_validator("tiles")
    @classmethod
    def _fifteen(cls, tiles: list[DemandTilesYaml]) -> list[DemandTilesYaml]:
        if sorted(t.demand for t in tiles) != sorted(Demand):
            raise ValueError("each demand once")
        if sum(t.count for t in tiles) != DEMAND_TILES:
            raise ValueError(f"the counts must add up to {DEMAND_TILES}")
        return tiles

    @model_validator(mode="after")
    def _one_penalty_per_demand(self) -> Self:
        if len(self.penalties) != len(self.reveal_after_rounds):
            raise ValueError("one penalty for each number of unmet demands")
        return self

    def record(self) -> Demands:
        return Demands(
            tuple((t.demand, t.count) for t in self.tiles),
            tuple(self.reveal_after_rounds),
            tuple(self.penalties),
        )


class SetYaml(_Yaml):
    tiles: Positive
    vp: Count


class FinalYaml(_Yaml):
    per_hand_card: Count
    per_work_area_worker: Count
    per_camp_legionnaire: Count
    per_trajan_tile: Count
    construction_sets: list[SetYaml]

    @field_validator("construction_sets")
    @classmethod
    def _largest_first(cls, sets: list[SetYaml]) -> list[SetYaml]:
        if [s.tiles for s in sets] != sorted((s.tiles for s in sets), reverse=True):
            raise ValueError("list the largest set first")
        return sets


class ScoringYaml(_Yaml):
    final: FinalYaml
    legionnaire_malus: Count

    def record(self) -> Scoring:
        f = self.final
        return Scoring(
            f.per_hand_card,
            f.per_work_area_worker,
            f.per_camp_legionnaire,
            f.per_trajan_tile,
            tuple((s.tiles, s.vp) for s in f.construction_sets),
            self.legionnaire_malus,
        )
