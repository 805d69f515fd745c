"""Load and validate Lorenzo il Magnifico's YAML content into the typed records of the rules package.

The only module of the game that reads files. Every record is checked; anything malformed raises
:class:`ContentError` naming the file, the record id and the field.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import yaml

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionBonus,
    ActionKind,
    Board,
    BonusTile,
    Card,
    CardType,
    Content,
    Cost,
    Exchange,
    ExcommunicationTile,
    Gain,
    Harvest,
    Immediate,
    ImmediateKind,
    Leader,
    LeaderRequirement,
    PenaltyKind,
    Production,
    Space,
    SpaceKind,
)
from services.lorenzo.rules.goods import GOODS_FIELDS, Goods
from services.lorenzo.rules.queries import MAX_ACTIVATION

if TYPE_CHECKING:
    from services.lorenzo.rules.rules import LorenzoRules

CONTENT_DIR = Path(__file__).parent
T = TypeVar("T")


class ContentError(ValueError):
    """Malformed content: names the file, the record and the field."""

    def __init__(self, file: str, record: object, field: str, problem: str) -> None:
        super().__init__(f"{file}: record {record}: field {field!r}: {problem}")
        self.file, self.record, self.field, self.problem = file, record, field, problem


class _Reader:
    """Typed access to one record, raising ContentError with full context."""

    def __init__(self, file: str, record: object, data: Any) -> None:
        if not isinstance(data, dict):
            raise ContentError(file, record, "<record>", "must be a mapping")
        self.file, self.record, self.data = file, record, data

    def fail(self, field: str, problem: str) -> ContentError:
        return ContentError(self.file, self.record, field, problem)

    def sub(self, field: str, data: Any) -> _Reader:
        r = _Reader.__new__(_Reader)
        if not isinstance(data, dict):
            raise self.fail(field, "must be a mapping")
        r.file, r.record, r.data = self.file, self.record, data
        return r

    def integer(self, field: str, default: int | None = None, lo: int | None = None) -> int:
        v = self.data.get(field, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(field, f"must be an integer, got {v!r}")
        if lo is not None and v < lo:
            raise self.fail(field, f"must be >= {lo}, got {v}")
        return v

    def text(self, field: str) -> str:
        v = self.data.get(field)
        if not isinstance(v, str) or not v:
            raise self.fail(field, f"must be a non-empty string, got {v!r}")
        return v

    def flag(self, field: str, default: bool = False) -> bool:
        v = self.data.get(field, default)
        if not isinstance(v, bool):
            raise self.fail(field, f"must be true or false, got {v!r}")
        return v

    def entries(self, field: str) -> list[Any]:
        v = self.data.get(field, [])
        if not isinstance(v, list):
            raise self.fail(field, "must be a list")
        return v

    def enum(self, field: str, kind: Callable[[str], T], default: str | None = None) -> T:
        v = self.data.get(field, default)
        try:
            return kind(str(v).upper())
        except (KeyError, ValueError):
            raise self.fail(field, f"unknown value {v!r}") from None

    def only(self, *fields: str) -> None:
        extra = sorted(set(self.data) - set(fields))
        if extra:
            raise self.fail(extra[0], "unknown field")

    def goods(self, field: str, data: Any = None, privileges: bool = False) -> Gain:
        m = self.data.get(field, {}) if data is None else data
        if not isinstance(m, dict):
            raise self.fail(field, "must be a mapping of goods")
        allowed = (*GOODS_FIELDS, "privileges") if privileges else GOODS_FIELDS
        counts: dict[str, int] = {}
        for k, v in m.items():
            if k not in allowed:
                raise self.fail(f"{field}.{k}", "unknown good")
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise self.fail(f"{field}.{k}", f"must be a non-negative integer, got {v!r}")
            counts[k] = v
        privs = counts.pop("privileges", 0)
        if privs > 5:
            raise self.fail(f"{field}.privileges", "at most 5 different privileges")
        return Gain(Goods(**counts), privs)


def _by_name(enum_type: Any) -> Callable[[str], Any]:
    return lambda name: enum_type[name]


def _records(directory: Path, file: str, key: str) -> list[Any]:
    path = directory / file
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ContentError(file, "-", "<yaml>", f"not valid YAML: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise ContentError(file, "-", key, "missing top-level list")
    return list(data[key])


def _id(file: str, raw: Any, index: int) -> object:
    return raw.get("id", f"#{index}") if isinstance(raw, dict) else f"#{index}"


def _immediate(r: _Reader, i: int, raw: Any) -> Immediate:
    f = f"immediate[{i}]"
    e = r.sub(f, raw)
    if "gain" in e.data:
        e.only("gain")
        return Immediate(ImmediateKind.GAIN, e.goods("gain", privileges=True))
    if "gain_per_card" in e.data:
        e.only("gain_per_card", "per")
        return Immediate(
            ImmediateKind.GAIN_PER_CARD, e.goods("gain_per_card"), e.enum("per", _by_name(CardType))
        )
    if "gain_per" in e.data:
        e.only("gain_per", "every_military")
        return Immediate(
            ImmediateKind.GAIN_PER_MILITARY, e.goods("gain_per"), value=e.integer("every_military", lo=1)
        )
    if "take_card" in e.data:
        e.only("take_card")
        t = e.sub(f"{f}.take_card", e.data["take_card"])
        t.only("type", "value", "discount")
        kind = None if t.data.get("type") == "any" else t.enum("type", _by_name(CardType))
        return Immediate(
            ImmediateKind.TAKE_CARD,
            card_type=kind,
            value=t.integer("value", lo=0),
            discount=t.goods("discount").goods,
        )
    for key, kind2 in (("harvest", ImmediateKind.HARVEST), ("production", ImmediateKind.PRODUCTION)):
        if key in e.data:
            e.only(key)
            return Immediate(kind2, value=e.integer(key, lo=0))
    raise r.fail(f, "unknown immediate effect")


def _card(r: _Reader) -> Card:
    r.only("id", "name", "type", "period", "costs", "immediate", "harvest", "production", "action_bonus",
           "no_floor_bonus", "end_victory")  # fmt: skip
    costs = []
    for i, raw in enumerate(r.entries("costs")):
        c = r.sub(f"costs[{i}]", raw)
        c.only("pay", "require_military")
        costs.append(Cost(c.goods("pay").goods, c.integer("require_military", 0, lo=0)))
    harvest = production = bonus = None
    if "harvest" in r.data:
        h = r.sub("harvest", r.data["harvest"])
        h.only("value", "gain")
        harvest = Harvest(h.integer("value", lo=1), h.goods("gain", privileges=True))
    if "production" in r.data:
        p = r.sub("production", r.data["production"])
        p.only("value", "gain", "gain_per_card", "per", "exchange")
        exchanges = []
        for i, raw in enumerate(p.entries("exchange")):
            x = p.sub(f"production.exchange[{i}]", raw)
            x.only("pay", "gain")
            exchanges.append(Exchange(x.goods("pay").goods, x.goods("gain", privileges=True)))
        per = p.enum("per", _by_name(CardType)) if "per" in p.data else None
        if (per is None) != ("gain_per_card" not in p.data):
            raise p.fail("production.per", "gain_per_card and per go together")
        production = Production(
            p.integer("value", lo=1), p.goods("gain", privileges=True), per, p.goods("gain_per_card").goods,
            tuple(exchanges),
        )  # fmt: skip
    if "action_bonus" in r.data:
        a = r.sub("action_bonus", r.data["action_bonus"])
        a.only("action", "value", "discount")
        discounts = tuple(a.goods("discount", d).goods for d in a.entries("discount"))
        bonus = ActionBonus(a.enum("action", _by_name(ActionKind)), a.integer("value"), discounts)
    card_type = r.enum("type", _by_name(CardType))
    if card_type is not CardType.TERRITORY and not costs:
        raise r.fail("costs", "only territories are free")
    return Card(
        id=r.integer("id", lo=1),
        name=r.text("name"),
        card_type=card_type,
        period=r.integer("period", lo=1),
        costs=tuple(costs),
        immediate=tuple(_immediate(r, i, raw) for i, raw in enumerate(r.entries("immediate"))),
        harvest=harvest,
        production=production,
        action_bonus=bonus,
        no_floor_bonus=r.flag("no_floor_bonus"),
        end_victory=r.integer("end_victory", 0, lo=0),
    )


def _leader(r: _Reader) -> Leader:
    r.only("id", "name", "requires", "once_per_round", "ability")
    q = r.sub("requires", r.data.get("requires"))
    q.only("cards", "same_type", "goods")
    cards = q.sub("requires.cards", q.data.get("cards", {}))
    for k in cards.data:
        if k.upper() not in CardType.__members__:
            raise q.fail(f"requires.cards.{k}", "unknown card type")
    counts = tuple(cards.integer(t.name.lower(), 0, lo=0) for t in CardType)
    req = LeaderRequirement(counts, q.integer("same_type", 0, lo=0), q.goods("goods").goods)  # type: ignore[arg-type]
    a = r.sub("ability", r.data.get("ability"))
    a.only("kind", "gain", "value")
    return Leader(
        id=r.integer("id", lo=1),
        name=r.text("name"),
        requirement=req,
        once_per_round=r.flag("once_per_round"),
        ability=a.enum("kind", _by_name(AbilityKind)),
        gain=a.goods("gain", privileges=True),
        value=a.integer("value", 0),
    )


def _tile(r: _Reader) -> ExcommunicationTile:
    r.only("id", "code", "period", "penalty")
    p = r.sub("penalty", r.data.get("penalty"))
    p.only("kind", "goods", "action", "type", "value", "every")
    return ExcommunicationTile(
        id=r.integer("id", lo=1),
        code=r.text("code"),
        period=r.integer("period", lo=1),
        penalty=p.enum("kind", _by_name(PenaltyKind)),
        goods=p.goods("goods").goods,
        action=p.enum("action", _by_name(ActionKind)) if "action" in p.data else None,
        card_type=p.enum("type", _by_name(CardType)) if "type" in p.data else None,
        value=p.integer("value", p.data.get("every", 0)),
    )


def _bonus_tile(r: _Reader) -> BonusTile:
    r.only("id", "name", "advanced", "harvest", "production")
    return BonusTile(
        r.integer("id", lo=1),
        r.text("name"),
        r.flag("advanced"),
        r.goods("harvest").goods,
        r.goods("production").goods,
    )


def _space(r: _Reader) -> Space:
    r.only("id", "kind", "tower", "floor", "value", "bonus", "capacity", "min_players", "modifier")
    kind = r.enum("kind", _by_name(SpaceKind))
    tower = r.enum("tower", _by_name(CardType)) if kind is SpaceKind.TOWER else None
    return Space(
        id=r.integer("id", lo=1),
        kind=kind,
        value=r.integer("value", lo=0),
        tower=tower,
        floor=r.integer("floor", 0, lo=0),
        bonus=r.goods("bonus", privileges=True),
        capacity=r.integer("capacity", 1, lo=0),
        min_players=r.integer("min_players", 2, lo=2),
        modifier=r.integer("modifier", 0),
    )


def _ints(r: _Reader, field: str, data: Any = None) -> tuple[int, ...]:
    v = r.data.get(field) if data is None else data
    if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        raise r.fail(field, "must be a list of integers")
    return tuple(v)


def _board(directory: Path, file: str) -> Board:
    path = directory / file
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise ContentError(file, "-", "<yaml>", f"not valid YAML: {e}") from None
    r = _Reader(file, "board", data)
    spaces = tuple(_space(_Reader(file, _id(file, s, i), s)) for i, s in enumerate(r.entries("spaces")))
    privileges = tuple(r.goods(f"privileges[{i}]", p).goods for i, p in enumerate(r.entries("privileges")))
    setup = r.sub("setup", r.data.get("setup"))
    end = r.sub("end_game", r.data.get("end_game"))
    board = Board(
        spaces=spaces,
        privileges=privileges,
        occupied_tower_fee=r.integer("occupied_tower_fee", lo=0),
        max_cards_per_type=r.integer("max_cards_per_type", lo=1),
        territory_slot_military=_ints(r, "territory_slot_military"),
        setup_goods=setup.goods("goods").goods,
        coins_by_turn_order=_ints(setup, "coins_by_turn_order"),
        periods=r.integer("periods", lo=1),
        rounds_per_period=r.integer("rounds_per_period", lo=1),
        cards_per_tower_per_round=r.integer("cards_per_tower_per_round", lo=1),
        vatican_faith_required=_ints(r, "vatican_faith_required"),
        faith_victory=_ints(r, "faith_victory"),
        territory_victory=_ints(end, "territory_victory"),
        character_victory=_ints(end, "character_victory"),
        military_victory=_ints(end, "military_victory"),
        resources_per_victory=end.integer("resources_per_victory", lo=1),
    )
    _check_board(r, board)
    return board


def _check_board(r: _Reader, b: Board) -> None:
    ids = [s.id for s in b.spaces]
    if len(set(ids)) != len(ids):
        raise r.fail("spaces", "duplicate space id")
    if len(b.privileges) != 5:
        raise r.fail("privileges", "must list the 5 council privileges")
    if len(b.territory_slot_military) != b.max_cards_per_type:
        raise r.fail("territory_slot_military", "one requirement per territory slot")
    if len(b.vatican_faith_required) != b.periods:
        raise r.fail("vatican_faith_required", "one threshold per period")
    for field, table in (
        ("territory_victory", b.territory_victory),
        ("character_victory", b.character_victory),
    ):
        if len(table) != b.max_cards_per_type + 1:
            raise r.fail(f"end_game.{field}", "one value per card count 0..max")


def _load_list(
    directory: Path, file: str, key: str, build: Callable[[_Reader], T], count: int
) -> tuple[T, ...]:
    out = []
    seen: set[object] = set()
    for i, raw in enumerate(_records(directory, file, key)):
        rid = _id(file, raw, i)
        rec = build(_Reader(file, rid, raw))
        if rid in seen:
            raise ContentError(file, rid, "id", "duplicate id")
        seen.add(rid)
        out.append(rec)
    if len(out) != count:
        raise ContentError(file, "-", key, f"expected {count} records, found {len(out)}")
    return tuple(out)


def _check_references(content: Content) -> None:
    for c in content.cards:
        if not 1 <= c.period <= content.board.periods:
            raise ContentError("cards.yaml", c.id, "period", "outside the game's periods")
    for t in content.excommunications:
        if not 1 <= t.period <= content.board.periods:
            raise ContentError("excommunications.yaml", t.id, "period", "outside the game's periods")
    for c in content.cards:
        for value in (c.harvest.value if c.harvest else 0, c.production.value if c.production else 0):
            if value > MAX_ACTIVATION:
                raise ContentError("cards.yaml", c.id, "value", f"activation values stop at {MAX_ACTIVATION}")
    for ct in CardType:
        for p in range(1, content.board.periods + 1):
            n = sum(1 for c in content.cards if c.card_type is ct and c.period == p)
            if n != 8:
                raise ContentError("cards.yaml", "-", "period", f"{ct.name} period {p} has {n} cards, not 8")


def load_from(directory: Path) -> Content:
    """Load content from a directory of the same five YAML files (tests use this for malformed files)."""
    content = Content(
        cards=_load_list(directory, "cards.yaml", "cards", _card, 96),
        leaders=_load_list(directory, "leaders.yaml", "leaders", _leader, 20),
        excommunications=_load_list(directory, "excommunications.yaml", "tiles", _tile, 21),
        bonus_tiles=_load_list(directory, "bonus_tiles.yaml", "tiles", _bonus_tile, 5),
        board=_board(directory, "board.yaml"),
    )
    _check_references(content)
    return content


@functools.cache
def load_content() -> Content:
    """The game's content, read and validated once per process."""
    return load_from(CONTENT_DIR)


def load_rules() -> LorenzoRules:
    """A ``LorenzoRules`` over the packaged content."""
    from services.lorenzo.rules import LorenzoRules

    return LorenzoRules(load_content())


__all__ = ["ContentError", "load_content", "load_from", "load_rules"]
