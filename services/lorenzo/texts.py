"""Lorenzo's words in English, Simplified Chinese and Brazilian Portuguese, one wording for every
front-end: the ``text`` fields of GetContent (:func:`content_message`: the content's own records with
their texts), the terminal client's board, steps and ``? NAME`` look-up (``presentation/``) and the
web module (``web/lorenzo.js``, through ``ctx.t``).

:data:`TEXTS` declares every English text once, under a stable key: the templates below
(:data:`WORDS`), the components' names from the validated content (``card.12.name``: the content
files keep the English), the proto's command, event, field and enum names (as the generic wording
of ``shared.core.describe`` reads them) and the rules' refusals (``reason.<code>: <template>``).
Translations: ``locales/zh-CN.yaml`` and ``locales/pt-BR.yaml``.

The texts are generated from the validated content (``Content``, the records the rules read), so a
text cannot drift from the rules. :class:`Words` words each kind of component or effect in one
locale; what each effect means is the rules' (docs/rules/lorenzo.md): an immediate effect happens
once, in printed order, when the card is taken; harvest and production effects fire in actions of
at least their value; requirements are owned, not paid; excommunication names use the printed code
(``I/5`` for ``1_5``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from importlib import import_module
from pathlib import Path
from typing import Any, assert_never

from services.lorenzo.rules.content_types import (
    AbilityKind,
    ActionBonus,
    Board,
    BonusTile,
    Card,
    CardType,
    Content,
    Cost,
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
from services.lorenzo.rules.goods import GOODS_FIELDS, ZERO, Goods
from services.lorenzo.rules.model import Privilege
from shared.core.i18n import Catalog, Texts
from shared.core.manifest import manifest_texts
from shared.core.reasons import rule_reason_texts
from shared.core.wire import message, pb

ROMAN = {1: "I", 2: "II", 3: "III"}
UNITS = ("coins", "wood", "stone", "servants", "military", "faith", "victory", "privileges")

# Every English template of the package but the generated ones (names, proto words, refusals).
WORDS: dict[str, str] = {
    # ------------------------------------------------ goods and lists
    "goods.coins.one": "{count} coin",
    "goods.coins.other": "{count} coins",
    "goods.wood.one": "{count} wood",
    "goods.wood.other": "{count} wood",
    "goods.stone.one": "{count} stone",
    "goods.stone.other": "{count} stone",
    "goods.servants.one": "{count} servant",
    "goods.servants.other": "{count} servants",
    "goods.military.one": "{count} military",
    "goods.military.other": "{count} military",
    "goods.faith.one": "{count} faith",
    "goods.faith.other": "{count} faith",
    "goods.victory.one": "{count} VP",
    "goods.victory.other": "{count} VP",
    "goods.privileges.one": "{count} privilege",
    "goods.privileges.other": "{count} privileges",
    "goods.coins.name": "coins",
    "goods.wood.name": "wood",
    "goods.stone.name": "stone",
    "goods.servants.name": "servants",
    "goods.military.name": "military",
    "goods.faith.name": "faith",
    "goods.victory.name": "victory",
    "goods.nothing": "nothing",
    "list.comma": ", ",
    "list.and": "{items} and {last}",
    "list.or": " or ",
    "list.semicolon": "; ",
    "list.then": "; then ",
    "list.sentences": " ",
    # ------------------------------------------------ kinds
    "card_type.territory": "territory",
    "card_type.building": "building",
    "card_type.character": "character",
    "card_type.venture": "venture",
    "card_type.any": "any",
    "space_kind.harvest": "harvest",
    "space_kind.production": "production",
    "space_kind.market": "market",
    "space_kind.council": "council",
    "space_kind.tower": "tower",
    "action.take_territory": "action to take a territory card",
    "action.take_building": "action to take a building card",
    "action.take_character": "action to take a character card",
    "action.take_venture": "action to take a venture card",
    "action.harvest": "harvest action",
    "action.production": "production action",
    # ------------------------------------------------ card effects
    "effect.gain": "gain {gain}",
    "effect.gain_different": "{privileges} (different ones)",
    "effect.gain_per_card": "gain {goods} for each {type} card you own",
    "effect.gain_per_card_this": "gain {goods} for each {type} card you own, this one included",
    "effect.gain_per_military": "gain {goods} for every {every} military you own",
    "effect.take_card": "take {which} with a value {value} action, no family member needed",
    "effect.take_card_discount": (
        "take {which} with a value {value} action, no family member needed, paying {discount} less"
    ),
    "effect.take_card.typed": "a {type} card",
    "effect.take_card.any": "a card of any type",
    "effect.harvest_action": "perform a harvest action of value {value}",
    "effect.production_action": "perform a production action of value {value}",
    "effect.harvest": "Harvest (value {value} or more): gain {gain}",
    "effect.production": "Production (value {value} or more): {effects}",
    "effect.exchange": "pay {pay} for {gain}",
    "effect.exchange_one": "you may {choice}",
    "effect.exchange_choice": "you may do one: {choices}",
    "effect.action_bonus": "+{value} to the value of every {action} you make",
    "effect.action_bonus_discount": "{bonus}, and pay {discounts} less for the card",
    "cost.require_military": "{cost} (you must own {military} military)",
    "card.text": "{name}: {type} card, period {period}. {effects}",
    "card.cost": "Cost: {costs}.",
    "card.cost_or": "; or ",
    "card.immediate": "When taken: {effects}.",
    "card.sentence": "{text}.",
    "card.permanent": "Permanent: {effect}.",
    "card.no_floor_bonus": "Permanent: you take no bonus from tower spaces, also in card actions.",
    "card.end_victory": "End of the game: {victory} VP.",
    # ------------------------------------------------ leaders
    "requirement.cards_of.one": "{count} {type}",
    "requirement.cards_of.other": "{count} {type}",
    "requirement.cards.one": "{types} card",
    "requirement.cards.other": "{types} cards",
    "requirement.same_type": "{count} cards of one type",
    "ability.gain": "gain {gain}",
    "ability.harvest": "perform a harvest action of value {value} (only servants raise it)",
    "ability.production": "perform a production action of value {value} (only servants raise it)",
    "ability.occupied_spaces": (
        "you may place family members on occupied action spaces that hold one member "
        "(market, the first harvest and production spaces), not on tower spaces"
    ),
    "ability.no_tower_fee": "you pay no coins to place a family member in a tower that is already occupied",
    "ability.member_six": "one of your coloured family members not yet placed has value {value} this round",
    "ability.coin_discount": "pay {value} coins less for every card whose cost includes coins",
    "ability.church_bonus": "gain {gain} each time you support the Church in a Vatican Report",
    "ability.colored_bonus": "your coloured family members get +{value} value",
    "ability.neutral_bonus": "your neutral family member gets +{value} value",
    "ability.copy": "copy the ability of a leader another player has played (chosen when you play this one)",
    "ability.colored_value": "your coloured family members have value {value}, whatever the dice show",
    "ability.ignore_territory_requirement": "you need no Military Points to take territory cards",
    "ability.double_card_resources": (
        "coins, wood, stone and servants gained from cards' immediate effects are doubled"
    ),
    "ability.once_per_round": "Once per round (activate it): {ability}.",
    "ability.permanent": "Permanent, once played: {ability}.",
    "leader.text": "{name}: to play it you must own {requirement}. {ability}",
    # ------------------------------------------------ excommunications
    "penalty.gain_reduction": "each time you gain {names}, you gain {goods} less (per source)",
    "penalty.action_modifier": "{value} to the value of every {action} you make",
    "penalty.colored_member_modifier": "your coloured family members get {value} value",
    "penalty.no_market": "you cannot place family members in the market",
    "penalty.servant_rate": "you need {value} servants to raise an action value by 1",
    "penalty.skip_first_turn": (
        "each round you skip your first turn and place that family member after everyone else"
    ),
    "penalty.no_end_points": "at the end of the game your {type} cards score no Victory Points",
    "penalty.lose_per_victory": (
        "at the end of the game, before the final scoring, lose 1 VP for every {every} VP you have"
    ),
    "penalty.lose_per_military.one": "after the final scoring, lose 1 VP for each military point you own",
    "penalty.lose_per_military.other": (
        "after the final scoring, lose 1 VP for every {every} military you own"
    ),
    "penalty.lose_per_building_cost": (
        "after the final scoring, lose 1 VP for every wood and stone in your building cards' costs"
    ),
    "penalty.lose_per_resource": (
        "after the final scoring, lose 1 VP for every coin, wood, stone and servant you own"
    ),
    "excommunication.name": "Excommunication {period}/{number}",
    "excommunication.text": "{name}: {penalty}.",
    # ------------------------------------------------ tiles, spaces, privileges, the board
    "bonus_tile.text": (
        "Personal bonus tile {name}: each harvest action gives you {harvest}; "
        "each production action gives you {production}."
    ),
    "bonus_tile.text_advanced": (
        "Personal bonus tile {name} (advanced): each harvest action gives you {harvest}; "
        "each production action gives you {production}."
    ),
    "space.value": "action value {value} or more",
    "space.tower": "take the {type} card on this floor",
    "space.work": "perform a {kind} action",
    "space.council": "players here go first next round, in the order they came",
    "space.modifier": "{modifier} to the action's value",
    "space.any_number": "any number of family members",
    "space.capacity.one": "one family member",
    "space.capacity.other": "{count} family members",
    "space.min_players": "only with {count} or more players",
    "space.text": "{name}. {text}.",
    "privilege.text": "Council privilege {number}: {goods}.",
    "board.text": (
        "{periods} periods of {rounds} rounds; a Vatican Report ends each period "
        "(faith needed: {faith}). An occupied tower costs {fee} coins; at most {max_cards} cards of a "
        "type. End of the game: territories owned {territories} VP; characters owned {characters} VP; "
        "military track {military} VP for the first and second; 1 VP per {resources} resources."
    ),
    # ------------------------------------------------ labels (terminal and web)
    "label.card_unknown": "card #{id}",
    "label.leader_unknown": "leader #{id}",
    "label.tile_unknown": "tile #{id}",
    "label.excommunication_unknown": "excommunication #{id}",
    "label.space_unknown": "space #{id}",
    "label.privilege_unknown": "privilege #{id}",
    "label.option": "option {option}",
    "label.bonus_tile": "tile {name} (harvest {harvest}; production {production})",
    "label.tower_space": "{type} tower floor {floor} ({value})",
    "label.council": "council palace",
    "label.large": "{name} (large, {modifier})",
    "label.market": "{name}: {bonus}",
}
# The terminal presentation's words (presentation/): commands, events, the board, the steps.
PRESENTATION: dict[str, str] = {
    "describe.titled": "{title}: {text}",
    "describe.seat": "seat {seat}",
    "describe.seat_named": "{name} (seat {seat})",
    "describe.yes": "yes",
    "describe.no": "no",
    "describe.member": "{colour} member",
    "describe.member_die": "{colour} member (die {die})",
    "describe.member_worth": "{colour} member (die {die}, worth {worth})",
    "describe.privileges.one": "choose {count} council privilege",
    "describe.privileges.other": "choose {count} council privileges (all different)",
    "describe.exchange_of": "choose the exchange of {card}",
    "describe.take_card": "take a card ({type}) with action value {value}",
    "describe.take_card_discount": "take a card ({type}) with action value {value}, {discount} off",
    "describe.action": "take a {kind} action of value {value}",
    "describe.action_servants": "take a {kind} action of value {value} (servants only)",
    "describe.pay": "{card} (pay {cost})",
    "describe.cost_alternative": "cost alternative {number}",
    "describe.discount_alternative": "discount alternative {number}",
    "describe.servants.one": "+{count} servant",
    "describe.servants.other": "+{count} servants",
    "describe.on": "{member} on {space}",
    "describe.from": "from {space}",
    "describe.skip_exchange": "skip the exchange of {card}",
    "describe.exchange": "{card}: {exchange}",
    "describe.privilege": "{privilege} ({goods})",
    "describe.on_member": "{leader} on the {colour} member",
    "describe.support": "support the Church",
    "describe.no_support": "do not support (take the excommunication)",
    "describe.discard": "{leader} (for a council privilege)",
    "describe.needs": "{leader} (needs {requirement})",
    "describe.copying": "{leader}, copying {copied}",
    "describe.round_started": "Round {round} begins; turn order {order}",
    "describe.must": "{seat} must {decisions}",
    "board.title": "Lorenzo il Magnifico",
    "board.match": "  match {match}",
    "board.version": "  v{version}\n",
    "board.when": "Period {period}  Round {round}",
    "board.setup": "Setup",
    "board.phase": "{when}  Phase: {phase}",
    "board.turn": "  Turn: {seat}",
    "board.dice": "\nDice: {dice}",
    "board.die": "{colour} {value}",
    "board.worth": "  (your members are worth {worth}: your leaders and excommunications)",
    "board.turn_order": "\nTurn order: {order}",
    "board.towers": "Towers",
    "board.floor": "floor",
    "board.tower.territory": "Territory",
    "board.tower.building": "Building",
    "board.tower.character": "Character",
    "board.tower.venture": "Venture",
    "board.empty": "(empty)",
    "board.floor_value": "  [{space}] value {value}",
    "board.floor_bonus": ", bonus {bonus}",
    "board.spaces": "Action spaces",
    "board.space": "space",
    "board.occupied_by": "occupied by",
    "board.players": "Players",
    "board.player": "player",
    "board.column.coins": "coins",
    "board.column.wood": "wood",
    "board.column.stone": "stone",
    "board.column.servants": "servants",
    "board.column.military": "military",
    "board.column.faith": "faith",
    "board.column.victory": "VP",
    "board.members_placed": "members placed",
    "board.leaders": "leaders",
    "board.you": "{name} (you)",
    "board.in_hand": "{count} in hand",
    "board.played": "{hand}; played: {leaders}",
    "board.cards": "Cards",
    "board.column.territories": "territories",
    "board.column.characters": "characters",
    "board.column.buildings": "buildings",
    "board.column.ventures": "ventures",
    "board.tiles": "bonus tile / excommunications",
    "board.hand": "Your leaders in hand: ",
    "board.none": "none",
    "board.draft": "\nDraft hand (keep one, pass the rest):",
    "board.pending": "\nPending: ",
    "board.excommunications": "\nExcommunications of this match (period I, II, III):",
    "board.tiles_left": "\nPersonal bonus tiles left:",
    "board.final": "Final scoring",
    "board.final.before": "before",
    "board.final.territories": "territories",
    "board.final.characters": "characters",
    "board.final.ventures": "ventures",
    "board.final.military": "military",
    "board.final.resources": "resources",
    "board.final.penalty": "penalty",
    "board.final.total": "total",
    "step.what": "What do you do?",
    "step.member": "Which family member?",
    "step.place_family_member.space": "Where do you place it?",
    "step.take_bonus_card.space": "Which card do you take?",
    "step.servants": "How many servants do you add?",
    "step.cost_option": "Which cost do you pay?",
    "step.discount_option": "Which discount do you use?",
    "step.choose_council_privileges.privileges": "Which council privileges?",
    "step.choose_exchange.card": "Which building's exchange?",
    "step.choose_exchange.option": "Which exchange?",
    "step.choose_bonus_tile.tile": "Which personal bonus tile?",
    "step.draft_leader.leader": "Which leader do you keep?",
    "step.play_leader.leader": "Which leader do you play?",
    "step.play_leader.copy_of": "Which played leader does it copy?",
    "step.discard_leader.leader": "Which leader do you discard (for a council privilege)?",
    "step.activate_leader.leader": "Whose ability do you use?",
    "step.activate_leader.member": "Which coloured member becomes 6?",
    "step.answer_vatican_report.support": "Do you support the Church?",
    "step.floor_bonus": "{space} (floor bonus {bonus})",
    "step.space_card": "{space}: {card}",
    "step.servants.one": "{count} servant",
    "step.servants.other": "{count} servants",
    "step.no_servants": "no servants",
    "step.pay": "pay {cost}",
    "step.skip_exchange": "skip this exchange",
    "step.the_member": "the {colour} member",
    "step.support": "yes: score your faith points and go back to 0",
    "step.no_support": "no: keep your faith, take {tile}",
    "step.the_excommunication": "the excommunication",
}
# The web module's words (web/lorenzo.js reads them through ``ctx.t(key, values)``).
WEB: dict[str, str] = {
    "web.goods.coins.one": "{count} coin",
    "web.goods.coins.other": "{count} coins",
    "web.goods.wood.one": "{count} wood",
    "web.goods.wood.other": "{count} wood",
    "web.goods.stone.one": "{count} stone",
    "web.goods.stone.other": "{count} stone",
    "web.goods.servants.one": "{count} servant",
    "web.goods.servants.other": "{count} servants",
    "web.goods.military.one": "{count} military",
    "web.goods.military.other": "{count} military",
    "web.goods.faith.one": "{count} faith",
    "web.goods.faith.other": "{count} faith",
    "web.goods.victory.one": "{count} victory",
    "web.goods.victory.other": "{count} victory",
    "web.goods.privileges.one": "{count} privilege",
    "web.goods.privileges.other": "{count} privileges",
    "web.good.coins": "coins",
    "web.good.wood": "wood",
    "web.good.stone": "stone",
    "web.good.servants": "servants",
    "web.good.military": "military",
    "web.good.faith": "faith",
    "web.good.victory": "victory",
    "web.list": ", ",
    "web.unknown": "{what} #{id}",
    "web.what.card": "card",
    "web.what.leader": "leader",
    "web.what.tile": "tile",
    "web.tower.territory": "Territories",
    "web.tower.character": "Characters",
    "web.tower.building": "Buildings",
    "web.tower.venture": "Ventures",
    "web.area.market": "Market",
    "web.area.council": "Council palace",
    "web.area.harvest": "Harvest",
    "web.area.production": "Production",
    "web.space": "space {id}",
    "web.space.tower": "the {tower} tower, floor {floor}",
    "web.space.council": "the council palace",
    "web.space.area": "the {kind} space",
    "web.space.large": "the large {kind} space",
    "web.space.market": "the market space ({bonus})",
    "web.space.market_large": "the large market space ({bonus})",
    "web.players": "Players",
    "web.die": "{colour} die",
    "web.summary.round": "Round",
    "web.summary.period": "Period",
    "web.summary.phase": "Phase",
    "web.summary.dice": "Dice",
    "web.summary.turn_order": "Turn order",
    "web.summary.to_act": "To act",
    "web.summary.board_acts": "the board (round end)",
    "web.pawn": "{colour} family member",
    "web.floor": "floor {floor}",
    "web.bonus": "+{bonus}",
    "web.taken": "(taken)",
    "web.large": "large, {modifier} to the action",
    "web.small": "small",
    "web.label_join": " · ",
    "web.covered": "covered below {count} players",
    "web.value": "value {value}",
    "web.vatican": "Vatican",
    "web.period": "period {period}",
    "web.member_title": "{colour} family member, die {value}",
    "web.member_title_placed": "{colour} family member, die {value}, placed",
    "web.card_list": "{kind} ({count}):",
    "web.leaders_played": "leaders played:",
    "web.in_hand": "in hand:",
    "web.hand.one": "{count} leader",
    "web.hand.other": "{count} leaders",
    "web.draft": "draft:",
    "web.bonus_tile": "personal bonus tile:",
    "web.family": "family:",
    "web.excommunications": "excommunications:",
    "web.to_act": "to act",
    "web.final": "Final scoring",
    "web.final.player": "player",
    "web.final.before": "before",
    "web.final.territories": "territories",
    "web.final.characters": "characters",
    "web.final.ventures": "ventures",
    "web.final.military": "military",
    "web.final.resources": "resources",
    "web.final.penalty": "penalty",
    "web.final.total": "total",
    "web.cards.territories": "territories",
    "web.cards.characters": "characters",
    "web.cards.buildings": "buildings",
    "web.cards.ventures": "ventures",
    "web.legend.dice": "this round's dice: black, white, orange",
    "web.legend.members": "family members: black, white, orange, neutral",
    "web.legend.value": "the action value a tower floor needs",
    "web.legend.bonus_sample": "+1 wood",
    "web.legend.bonus": "the floor's bonus, taken with its card",
    "web.legend.occupied": "red border: a family member stands there",
    "web.legend.covered": "covered: not used with this many players",
    "web.legend.tile": "excommunication tile: period II, tile 5",
    "web.source.tower_fee": "the occupied tower's fee",
    "web.source.floor_bonus": "the floor's bonus",
    "web.source.card_cost": "the card's cost",
    "web.source.card_effect": "a card's effect",
    "web.event.game_started": "The game starts with {seats} players",
    "web.event.game_started_advanced": "The game starts with {seats} players (advanced rules)",
    "web.event.gained": "{seat} gained {goods} from {source}",
    "web.event.paid": "{seat} paid {goods} for {source}",
    "web.event.placed": "{seat} placed the {colour} family member (value {value}) on {space}",
    "web.event.card_taken": "{seat} took {card} ({type})",
    "web.event.dice": "Dice rolled: black {black}, white {white}, orange {orange}",
    "web.event.round_started": "Round {round} begins",
    "web.event.round_ended": "Round {round} ends",
    "web.event.towers_filled": "The towers are filled with {count} new cards",
    "web.event.passed": "{seat} passed",
    "web.event.turn_ended": "{seat} ended the turn",
    "web.event.privileges.one": "{seat} chose the council privilege {privileges}",
    "web.event.privileges.other": "{seat} chose the council privileges {privileges}",
    "web.event.leaders_dealt": "{seat} was dealt {leaders}",
    "web.event.leader_drafted": "{seat} drafted {leader}",
    "web.event.leader_played": "{seat} played {leader}",
    "web.event.leader_discarded": "{seat} discarded {leader}",
    "web.event.leader_activated": "{seat} activated {leader}",
    "web.event.supports": "{seat} supports the Church",
    "web.event.accepts": "{seat} accepts excommunication",
    "web.event.church_supported": (
        "{seat} showed support for the Church: {faith} faith for {victory} victory points"
    ),
    "web.event.excommunicated": "{seat} was excommunicated",
    "web.event.faith_converted": "{seat} converted {faith} faith into {victory} victory points",
    "web.event.phase": "Phase: {phase}",
    "web.event.final_score": "{seat} scores {total} victory points in all",
    "web.event.game_ended": "The game ends: {scores}",
    "web.event.bonus_tile_chosen": "{seat} chose personal bonus tile {tile}",
    "web.event.bonus_action": "{seat} took the bonus action (value {value})",
    "web.event.bonus_action_skipped": "{seat} skipped the bonus action",
    "web.event.must_decide": "{seat} must decide: {decisions}",
    "web.event.exchange": "{seat} used {card}",
    "web.event.exchange_paid": "{seat} used {card}, paying {goods}",
    "web.event.bonus_card_action": "{seat} may take a card with a bonus action of value {value}",
    "web.event.tiles_drawn": "The Vatican's excommunication tiles are drawn",
    "web.event.decks_shuffled": "The card decks are shuffled",
    "web.event.tile_selection": "Players choose their personal bonus tiles",
    "web.event.member_value": "{seat}'s {colour} family member is now worth {value}",
    "web.member_die": "{colour} member (die {die})",
    "web.member_zero": "{colour} member (value 0)",
    "web.space_card": "{space}: {card}",
    "web.servants.one": "{count} servant",
    "web.servants.other": "{count} servants",
    "web.no_servants": "no servants",
    "web.cost_alternative": "cost alternative {number}",
    "web.discount_alternative": "discount alternative {number}",
    "web.tile_option": "tile {tile}",
    "web.privilege_join": " + ",
    "web.exchange_option": "exchange {option}",
    "web.skip_exchange": "skip this exchange",
    "web.support": "yes: score your faith points and go back to 0",
    "web.no_support": "no: keep your faith, take the excommunication",
}


def _snake(name: str) -> str:
    """``PlaceFamilyMember`` -> ``place_family_member``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def proto_words() -> dict[str, str]:
    """The generic wording's words of Lorenzo's proto: command and event titles (``command.end_turn``:
    ``End turn``), field names (``field.cost_option``: ``cost option``) and enum values
    (``enum.member.black``: ``black``), as ``shared.core.describe`` words them in English."""
    from shared.core.describe import enum_label, words

    pb2: Any = import_module("tabula.lorenzo.v1.lorenzo_pb2")
    out: dict[str, str] = {}
    for wrapper, kind in ((pb2.Command, "command"), (pb2.Event, "event")):
        for fd in wrapper.DESCRIPTOR.fields:
            out[f"{kind}.{_snake(fd.message_type.name)}"] = words(fd.message_type.name)
    messages, enums, todo = set(), set(), [pb2.Command.DESCRIPTOR, pb2.Event.DESCRIPTOR]
    while todo:  # the messages and enums a command or an event holds, however deep
        descriptor = todo.pop()
        for fd in descriptor.fields:
            if fd.message_type is not None and fd.message_type.full_name not in messages:
                messages.add(fd.message_type.full_name)
                todo.append(fd.message_type)
            if fd.enum_type is not None:
                enums.add(fd.enum_type)
            if descriptor not in (pb2.Command.DESCRIPTOR, pb2.Event.DESCRIPTOR):
                out[f"field.{fd.name}"] = words(fd.name).lower()
    for enum in sorted(enums, key=lambda e: e.name):
        for value in enum.values:
            if value.number:
                out[f"enum.{_snake(enum.name)}.{enum_label(enum, value.number).replace(' ', '_')}"] = (
                    enum_label(enum, value.number)
                )
    return out


def content_names(content: Content) -> dict[str, str]:
    """The components' names, in English as the content files give them."""
    return {
        **{f"card.{c.id}.name": c.name for c in content.cards},
        **{f"leader.{x.id}.name": x.name for x in content.leaders},
        **{f"bonus_tile.{t.id}.name": t.name for t in content.bonus_tiles},
    }


def english() -> dict[str, str]:
    from services.lorenzo.content import load_content
    from services.lorenzo.manifest import MANIFEST

    return {
        **manifest_texts(MANIFEST),  # its title, description and options' descriptions
        **WORDS,
        **PRESENTATION,
        **WEB,
        **content_names(load_content()),
        **proto_words(),
        **rule_reason_texts(RULES),
    }


RULES = Path(__file__).parent / "rules"  # its refusals: ``reason.<code>: <template>`` keys
TEXTS = Texts("lorenzo", Path(__file__).parent, english)


def enum_key(enum_name: str, label: str) -> str:
    """The key of an enum value's word: ``enum_key("Member", "black")`` -> ``enum.member.black``."""
    return f"enum.{_snake(enum_name)}.{label.replace(' ', '_')}"


class Words:
    """Lorenzo's components and effects worded in one locale (``Words.of("zh-CN")``)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.t = catalog.text

    @staticmethod
    @functools.cache
    def of(locale: str = "en") -> Words:
        return Words(TEXTS.catalog(locale))

    # ------------------------------------------------ names
    def card_name(self, c: Card) -> str:
        return self.catalog.get(f"card.{c.id}.name", c.name)

    def leader_name(self, x: Leader) -> str:
        return self.catalog.get(f"leader.{x.id}.name", x.name)

    def bonus_tile_name(self, t: BonusTile) -> str:
        return self.catalog.get(f"bonus_tile.{t.id}.name", t.name)

    def enum(self, enum_name: str, label: str) -> str:
        """An enum value's word (``label``: the English of ``shared.core.describe.enum_label``)."""
        return self.catalog.get(enum_key(enum_name, label), label)

    def lower(self, kind: object) -> str:
        """A card type's or space kind's word: ``CardType.TERRITORY`` -> ``territory``."""
        family = "card_type" if isinstance(kind, CardType) else "space_kind"
        name = str(getattr(kind, "name", kind)).lower()
        return self.catalog.get(f"{family}.{name}", name.replace("_", " "))

    # ------------------------------------------------ goods and lists
    def amount(self, key: str, amount: int) -> str:
        return self.t(f"goods.{key}.{'one' if abs(amount) == 1 else 'other'}", count=amount)

    def amounts_text(self, amounts: Mapping[str, int]) -> str:
        """``{"coins": 3, "wood": 1}`` -> ``"3 coins, 1 wood"``; zero amounts left out, ``nothing``
        if all are."""
        parts = [self.amount(key, amount) for key, amount in amounts.items() if amount]
        return self.t("list.comma").join(parts) or self.t("goods.nothing")

    def and_join(self, items: list[str]) -> str:
        """``["1 coin", "2 wood", "1 stone"]`` -> ``"1 coin, 2 wood and 1 stone"``."""
        if len(items) > 1:
            return self.t("list.and", items=self.t("list.comma").join(items[:-1]), last=items[-1])
        return "".join(items)

    def or_join(self, items: Iterable[str]) -> str:
        return self.t("list.or").join(items)

    def _amounts(self, g: Goods) -> list[str]:
        return [self.amount(name, getattr(g, name)) for name in GOODS_FIELDS if getattr(g, name)]

    def goods(self, g: Goods) -> str:
        """``"3 coins, 1 wood and 1 VP"``, ``"nothing"`` when empty."""
        return self.and_join(self._amounts(g)) or self.t("goods.nothing")

    def gain(self, g: Gain) -> str:
        """``"1 coin and 2 privileges (different ones)"``: privileges from one gain must all differ."""
        parts = self._amounts(g.goods)
        if g.privileges:
            privileges = self.amount("privileges", g.privileges)
            parts.append(
                self.t("effect.gain_different", privileges=privileges) if g.privileges > 1 else privileges
            )
        return self.and_join(parts) or self.t("goods.nothing")

    def card_type(self, t: CardType | None) -> str:
        return self.lower(t) if t is not None else self.t("card_type.any")

    # ------------------------------------------------ cards
    def cost(self, c: Cost) -> str:
        text = self.goods(c.pay)
        if c.require_military:
            text = self.t("cost.require_military", cost=text, military=c.require_military)
        return text

    def immediate(self, e: Immediate, card: Card) -> str:
        match e.kind:
            case ImmediateKind.GAIN:
                return self.t("effect.gain", gain=self.gain(e.gain))
            case ImmediateKind.GAIN_PER_CARD:
                key = "effect.gain_per_card_this" if e.card_type is card.card_type else "effect.gain_per_card"
                return self.t(key, goods=self.goods(e.gain.goods), type=self.card_type(e.card_type))
            case ImmediateKind.GAIN_PER_MILITARY:
                return self.t("effect.gain_per_military", goods=self.goods(e.gain.goods), every=e.value)
            case ImmediateKind.TAKE_CARD:
                which = (
                    self.t("effect.take_card.typed", type=self.lower(e.card_type))
                    if e.card_type is not None
                    else self.t("effect.take_card.any")
                )
                if e.discount.is_zero:
                    return self.t("effect.take_card", which=which, value=e.value)
                return self.t(
                    "effect.take_card_discount", which=which, value=e.value, discount=self.goods(e.discount)
                )
            case ImmediateKind.HARVEST:
                return self.t("effect.harvest_action", value=e.value)
            case ImmediateKind.PRODUCTION:
                return self.t("effect.production_action", value=e.value)
            case _:
                assert_never(e.kind)

    def harvest(self, h: Harvest) -> str:
        return self.t("effect.harvest", value=h.value, gain=self.gain(h.gain))

    def production(self, p: Production) -> str:
        parts = []
        if p.gain.privileges or not p.gain.goods.is_zero:
            parts.append(self.t("effect.gain", gain=self.gain(p.gain)))
        if p.per_card is not None:
            parts.append(
                self.t("effect.gain_per_card", goods=self.goods(p.per_card_gain), type=self.lower(p.per_card))
            )
        if p.exchanges:
            choices = self.or_join(self.exchange(x.pay, x.gain) for x in p.exchanges)
            if len(p.exchanges) == 1:
                parts.append(self.t("effect.exchange_one", choice=choices))
            else:
                parts.append(self.t("effect.exchange_choice", choices=choices))
        effects = self.t("list.semicolon").join(parts or [self.t("goods.nothing")])
        return self.t("effect.production", value=p.value, effects=effects)

    def exchange(self, pay: Goods, got: Gain) -> str:
        return self.t("effect.exchange", pay=self.goods(pay), gain=self.gain(got))

    def action_bonus(self, b: ActionBonus) -> str:
        text = self.t("effect.action_bonus", value=b.value, action=self.t(f"action.{b.action.name.lower()}"))
        if b.discounts:
            discounts = self.or_join(self.goods(d) for d in b.discounts)
            text = self.t("effect.action_bonus_discount", bonus=text, discounts=discounts)
        return text

    def card(self, c: Card) -> str:
        """The whole card: kind and period, then :meth:`card_effects`."""
        return self.t(
            "card.text",
            name=self.card_name(c),
            type=self.lower(c.card_type),
            period=c.period,
            effects=self.card_effects(c),
        ).rstrip()

    def card_effects(self, c: Card) -> str:
        """Cost, then the effects in the printed order of kinds ("" for none): a tower cell's text."""
        parts = []
        if c.costs:
            parts.append(
                self.t("card.cost", costs=self.t("card.cost_or").join(self.cost(x) for x in c.costs))
            )
        if c.immediate:
            effects = self.t("list.then").join(self.immediate(e, c) for e in c.immediate)
            parts.append(self.t("card.immediate", effects=effects))
        if c.harvest:
            parts.append(self.t("card.sentence", text=self.harvest(c.harvest)))
        if c.production:
            parts.append(self.t("card.sentence", text=self.production(c.production)))
        if c.action_bonus:
            parts.append(self.t("card.permanent", effect=self.action_bonus(c.action_bonus)))
        if c.no_floor_bonus:
            parts.append(self.t("card.no_floor_bonus"))
        if c.end_victory:
            parts.append(self.t("card.end_victory", victory=c.end_victory))
        return self.t("list.sentences").join(parts)

    # ------------------------------------------------ leaders
    def requirement(self, r: LeaderRequirement) -> str:
        """``"5 venture cards"``, ``"6 cards of one type"``, ``"10 wood"``: owned, not paid."""
        cards = [
            self.t(f"requirement.cards_of.{'one' if n == 1 else 'other'}", count=n, type=self.lower(t))
            for t, n in zip(CardType, r.counts, strict=True)
            if n
        ]
        key = "requirement.cards.other" if sum(r.counts) > 1 else "requirement.cards.one"
        parts = [self.t(key, types=self.and_join(cards))] if cards else []
        if r.same_type:
            parts.append(self.t("requirement.same_type", count=r.same_type))
        return self.and_join(parts + self._amounts(r.goods)) or self.t("goods.nothing")

    def ability(self, x: Leader) -> str:
        key = f"ability.{x.ability.name.lower()}"
        match x.ability:
            case AbilityKind.GAIN | AbilityKind.CHURCH_BONUS:
                return self.t(key, gain=self.gain(x.gain))
            case (
                AbilityKind.HARVEST
                | AbilityKind.PRODUCTION
                | AbilityKind.MEMBER_SIX
                | AbilityKind.COIN_DISCOUNT
                | AbilityKind.COLORED_BONUS
                | AbilityKind.NEUTRAL_BONUS
                | AbilityKind.COLORED_VALUE
            ):
                return self.t(key, value=x.value)
            case (
                AbilityKind.OCCUPIED_SPACES
                | AbilityKind.NO_TOWER_FEE
                | AbilityKind.COPY
                | AbilityKind.IGNORE_TERRITORY_REQUIREMENT
                | AbilityKind.DOUBLE_CARD_RESOURCES
            ):
                return self.t(key)
            case _:
                assert_never(x.ability)

    def ability_line(self, x: Leader) -> str:
        key = "ability.once_per_round" if x.once_per_round else "ability.permanent"
        return self.t(key, ability=self.ability(x))

    def leader(self, x: Leader) -> str:
        return self.t(
            "leader.text",
            name=self.leader_name(x),
            requirement=self.requirement(x.requirement),
            ability=self.ability_line(x),
        )

    # ------------------------------------------------ excommunications
    def penalty(self, t: ExcommunicationTile) -> str:
        key = f"penalty.{t.penalty.name.lower()}"
        match t.penalty:
            case PenaltyKind.GAIN_REDUCTION:
                names = self.or_join(self.t(f"goods.{n}.name") for n in GOODS_FIELDS if getattr(t.goods, n))
                return self.t(key, names=names, goods=self.goods(t.goods))
            case PenaltyKind.ACTION_MODIFIER:
                assert t.action is not None, "validated content has it"
                return self.t(key, value=f"{t.value:+d}", action=self.t(f"action.{t.action.name.lower()}"))
            case PenaltyKind.COLORED_MEMBER_MODIFIER:
                return self.t(key, value=f"{t.value:+d}")
            case PenaltyKind.SERVANT_RATE:
                return self.t(key, value=t.value)
            case PenaltyKind.NO_END_POINTS:
                return self.t(key, type=self.card_type(t.card_type))
            case PenaltyKind.LOSE_PER_VICTORY:
                return self.t(key, every=t.value)
            case PenaltyKind.LOSE_PER_MILITARY:
                return self.t(f"{key}.{'one' if t.value == 1 else 'other'}", every=t.value)
            case (
                PenaltyKind.NO_MARKET
                | PenaltyKind.SKIP_FIRST_TURN
                | PenaltyKind.LOSE_PER_BUILDING_COST
                | PenaltyKind.LOSE_PER_RESOURCE
            ):
                return self.t(key)
            case _:
                assert_never(t.penalty)

    def excommunication_name(self, t: ExcommunicationTile) -> str:
        """``Excommunication I/5`` for the printed code ``1_5``."""
        period, _, number = t.code.partition("_")
        roman = ROMAN.get(int(period), period) if period.isdigit() else period
        return self.t("excommunication.name", period=roman, number=number)

    def excommunication(self, t: ExcommunicationTile) -> str:
        return self.t("excommunication.text", name=self.excommunication_name(t), penalty=self.penalty(t))

    # ------------------------------------------------ tiles, spaces, privileges, the board
    def bonus_tile(self, t: BonusTile) -> str:
        return self.t(
            "bonus_tile.text_advanced" if t.advanced else "bonus_tile.text",
            name=self.bonus_tile_name(t),
            harvest=self.goods(t.harvest),
            production=self.goods(t.production),
        )

    def space(self, s: Space, name: str) -> str:
        """What placing a family member here does, and who may."""
        parts = [self.t("space.value", value=s.value)]
        match s.kind:
            case SpaceKind.TOWER:
                parts.append(self.t("space.tower", type=self.card_type(s.tower)))
            case SpaceKind.HARVEST | SpaceKind.PRODUCTION:
                parts.append(self.t("space.work", kind=self.lower(s.kind)))
            case SpaceKind.COUNCIL:
                parts.append(self.t("space.council"))
            case SpaceKind.MARKET:
                pass
            case _:
                assert_never(s.kind)
        if s.bonus.privileges or not s.bonus.goods.is_zero:
            parts.append(self.t("effect.gain", gain=self.gain(s.bonus)))
        if s.modifier:
            parts.append(self.t("space.modifier", modifier=f"{s.modifier:+d}"))
        if s.capacity == 0:
            parts.append(self.t("space.any_number"))
        else:
            parts.append(self.t(f"space.capacity.{'one' if s.capacity == 1 else 'other'}", count=s.capacity))
        if s.min_players > 2:
            parts.append(self.t("space.min_players", count=s.min_players))
        text = self.t("list.semicolon").join(parts)
        return self.t("space.text", name=name[:1].upper() + name[1:], text=text[:1].upper() + text[1:])

    def privilege(self, number: int, g: Goods) -> str:
        return self.t("privilege.text", number=number, goods=self.goods(g))

    def board(self, b: Board) -> str:
        """The structure and the end-game tables, as numbers a player reads."""
        comma = self.t("list.comma")
        return self.t(
            "board.text",
            periods=b.periods,
            rounds=b.rounds_per_period,
            faith=comma.join(map(str, b.vatican_faith_required)),
            fee=b.occupied_tower_fee,
            max_cards=b.max_cards_per_type,
            territories=comma.join(f"{n}: {vp}" for n, vp in enumerate(b.territory_victory) if vp),
            characters=comma.join(f"{n}: {vp}" for n, vp in enumerate(b.character_victory) if vp),
            military=self.and_join(list(map(str, b.military_victory))),
            resources=b.resources_per_victory,
        )


def amounts_text(amounts: Mapping[str, int]) -> str:
    """:meth:`Words.amounts_text` in English."""
    return Words.of("en").amounts_text(amounts)


# ---------------------------------------------------------------- GetContent


@message
class PrivilegeInfo:
    """A council privilege, as `ChooseCouncilPrivileges` names it."""

    privilege: Privilege = pb(1)
    goods: Goods = pb(2, default=ZERO)
    text: str = pb(3, default="")


@message
class LorenzoContent:
    """Every component of Lorenzo il Magnifico, as the rules read it, with texts in one locale."""

    cards: tuple[Card, ...] = pb(1, default=())
    leaders: tuple[Leader, ...] = pb(2, default=())
    excommunications: tuple[ExcommunicationTile, ...] = pb(3, default=())
    bonus_tiles: tuple[BonusTile, ...] = pb(4, default=())
    spaces: tuple[Space, ...] = pb(5, default=())
    privileges: tuple[PrivilegeInfo, ...] = pb(6, default=())  # in printed order
    board: Board | None = pb(7, default=None)


def content_message(content: Content, locale: str = "en") -> LorenzoContent:
    """The content's records with their names and texts in ``locale`` (what ``GetContent`` answers)."""
    from services.lorenzo.presentation.labels import Labels

    w = Words.of(locale)
    labels = Labels(content, w)
    b = content.board
    return LorenzoContent(
        cards=tuple(_card(c, w) for c in content.cards),
        leaders=tuple(
            replace(
                x,
                name=w.leader_name(x),
                requirement=replace(x.requirement, text=w.requirement(x.requirement)),
                ability_text=w.ability_line(x),
                text=w.leader(x),
            )
            for x in content.leaders
        ),
        excommunications=tuple(replace(t, text=w.excommunication(t)) for t in content.excommunications),
        bonus_tiles=tuple(
            replace(t, name=w.bonus_tile_name(t), text=w.bonus_tile(t)) for t in content.bonus_tiles
        ),
        spaces=tuple(
            replace(s, name=labels.space(s.id), text=w.space(s, labels.space(s.id))) for s in b.spaces
        ),
        privileges=tuple(
            PrivilegeInfo(Privilege(n), goods, w.privilege(n, goods))
            for n, goods in enumerate(b.privileges, start=1)
        ),
        board=replace(b, spaces=(), privileges=(), text=w.board(b)),  # spaces and privileges: above
    )


def _card(c: Card, w: Words) -> Card:
    p, h, b = c.production, c.harvest, c.action_bonus
    return replace(
        c,
        name=w.card_name(c),
        costs=tuple(replace(x, text=w.cost(x)) for x in c.costs),
        immediate=tuple(replace(e, text=w.immediate(e, c)) for e in c.immediate),
        harvest=replace(h, text=w.harvest(h)) if h else None,
        production=replace(
            p,
            exchanges=tuple(replace(x, text=w.exchange(x.pay, x.gain)) for x in p.exchanges),
            text=w.production(p),
        )
        if p
        else None,
        action_bonus=replace(b, text=w.action_bonus(b)) if b else None,
        text=w.card(c),
    )


@functools.cache
def packaged_content_message(locale: str = "en") -> LorenzoContent:
    """:func:`content_message` of the packaged content in ``locale``, made once per process and locale."""
    from services.lorenzo.content import load_content

    return content_message(load_content(), locale)
