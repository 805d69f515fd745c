"""``evolve``: apply one event to the state. No rule checks, no conditions on the game: decide did that."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar, assert_never

from services.lorenzo.rules.content_types import CardType
from services.lorenzo.rules.events import (
    BonusActionPerformed,
    BonusActionSkipped,
    BonusCardActionTaken,
    BonusTileChosen,
    BonusTileSelectionStarted,
    CardTaken,
    ChurchSupported,
    CouncilPrivilegesChosen,
    DecisionsQueued,
    DecksShuffled,
    DiceRolled,
    DraftHandReceived,
    Event,
    ExchangeBudgetSet,
    ExchangeChosen,
    Excommunicated,
    ExcommunicationTilesDrawn,
    FaithPointsConverted,
    FamilyMemberPlaced,
    FamilyMemberValueSet,
    FinalScoreComputed,
    GameEnded,
    GameStarted,
    LeaderActivated,
    LeaderDiscarded,
    LeaderDrafted,
    LeaderPlayed,
    LeadersDealt,
    PhaseChanged,
    PlacementPassed,
    ResourcesGained,
    ResourcesPaid,
    RoundEnded,
    RoundStarted,
    TowersFilled,
    TurnEnded,
    VaticanAnswerGiven,
)
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import Config, Deck, Occupant, Phase, PlayedLeader, PlayerState, State
from shared.core.records import Copier, copier

_Record = TypeVar("_Record", State, PlayerState)
_COPIERS: dict[type, Copier[Any]] = {cls: copier(cls) for cls in (State, PlayerState)}


def _copy(record: _Record, **changes: Any) -> _Record:
    """``dataclasses.replace`` for the two records ``evolve`` copies most (``shared.core.records``)."""
    new: _Record = _COPIERS[type(record)](record, changes)
    return new


def _with_card(p: PlayerState, card_type: CardType, card: int) -> PlayerState:
    match card_type:
        case CardType.TERRITORY:
            return _copy(p, territories=(*p.territories, card))
        case CardType.BUILDING:
            return _copy(p, buildings=(*p.buildings, card))
        case CardType.CHARACTER:
            return _copy(p, characters=(*p.characters, card))
        case CardType.VENTURE:
            return _copy(p, ventures=(*p.ventures, card))


def _players(state: State, player: PlayerState) -> tuple[PlayerState, ...]:
    players = list(state.players)
    players[player.seat] = player
    return tuple(players)


def _set(state: State, player: PlayerState) -> State:
    return _copy(state, players=_players(state, player))


def _add(state: State, seat: int, goods: Goods) -> State:
    p = state.players[seat]
    return _set(state, _copy(p, goods=p.goods + goods))


def _without(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _use_leader(played: tuple[PlayedLeader, ...], leader: int) -> tuple[PlayedLeader, ...]:
    return tuple(replace(x, used=True) if x.leader == leader else x for x in played)


def evolve(state: State, event: Event) -> State:
    match event:
        case ResourcesGained(seat, goods, _):
            return _add(state, seat, goods)
        case ResourcesPaid(seat, goods, _):
            return _add(state, seat, Goods() - goods)
        case FamilyMemberPlaced(seat, member, space, _):
            p = _copy(state.players[seat], placed=(*state.players[seat].placed, member))
            occupants = (*state.occupants, Occupant(space, seat, member))
            return _copy(state, players=_players(state, p), occupants=occupants, acted=True)
        case CardTaken(seat, card, card_type, space):
            p = _with_card(state.players[seat], card_type, card)
            towers = (*state.towers[: space - 1], 0, *state.towers[space:])
            return _copy(state, players=_players(state, p), towers=towers)
        case DecisionsQueued(_, decisions):
            return _copy(state, pending=decisions + state.pending)
        case (
            CouncilPrivilegesChosen() | BonusCardActionTaken() | BonusActionPerformed() | BonusActionSkipped()
        ):
            return _copy(state, pending=state.pending[1:])
        case ExchangeChosen(_, _, _, paid):
            return _copy(state, pending=state.pending[1:], budget=state.budget - paid)
        case ExchangeBudgetSet(_, goods):
            return _copy(state, budget=goods)
        case TurnEnded():
            return _copy(state, turn_index=state.turn_index + 1, acted=False)
        case PlacementPassed():
            return _copy(state, acted=True)
        case LeaderPlayed(seat, leader, copy_of):
            p = state.players[seat]
            return _set(
                state,
                _copy(p, hand=_without(p.hand, leader), played=(*p.played, PlayedLeader(leader, copy_of))),
            )
        case LeaderDiscarded(seat, leader):
            p = state.players[seat]
            return _set(state, _copy(p, hand=_without(p.hand, leader), discarded=(*p.discarded, leader)))
        case LeaderActivated(seat, leader):
            p = state.players[seat]
            return _set(state, _copy(p, played=_use_leader(p.played, leader)))
        case FamilyMemberValueSet(seat, member, _):
            return _set(state, _copy(state.players[seat], six_member=member))
        case _:
            return _evolve_rare(state, event)


def _evolve_rare(state: State, event: Event) -> State:
    match event:
        case GameStarted(seats, advanced, turn_order):
            return replace(
                state,
                config=Config(seats, advanced),
                turn_order=turn_order,
                players=tuple(PlayerState(seat=i) for i in range(seats)),
                towers=(0,) * 16,
            )
        case ExcommunicationTilesDrawn(tiles):
            return replace(state, excommunication_tiles=tiles)
        case DecksShuffled(decks):
            return replace(state, decks=decks)
        case BonusTileSelectionStarted(pickers, tiles):
            return replace(
                state, phase=Phase.CHOOSE_BONUS_TILES, tile_pickers=pickers, bonus_tiles_left=tiles
            )
        case BonusTileChosen(seat, tile):
            state = _set(state, replace(state.players[seat], bonus_tile=tile))
            left = tuple(t for t in state.bonus_tiles_left if t != tile)
            return replace(state, bonus_tiles_left=left, tile_pickers=state.tile_pickers[1:])
        case LeadersDealt(seat, leaders) | DraftHandReceived(seat, leaders):
            return _set(state, replace(state.players[seat], draft_hand=leaders))
        case LeaderDrafted(seat, leader):
            p = state.players[seat]
            return _set(state, replace(p, draft_hand=_without(p.draft_hand, leader), hand=(*p.hand, leader)))
        case PhaseChanged(phase):
            return replace(state, phase=phase)
        case RoundStarted(number, queue):
            return replace(
                state,
                round=number,
                turn_queue=queue,
                turn_index=0,
                acted=False,
                pending=(),
                phase=Phase.ACTIONS,
            )
        case TowersFilled(cards):
            n = len(cards) // len(state.decks)
            return replace(
                state, towers=cards, decks=tuple(Deck(d.card_type, d.cards[n:]) for d in state.decks)
            )
        case DiceRolled(black, white, orange):
            return replace(state, dice=(black, white, orange))
        case VaticanAnswerGiven(seat, support):
            return _set(state, replace(state.players[seat], vatican_answer=support))
        case ChurchSupported(seat, faith, victory) | FaithPointsConverted(seat, faith, victory):
            return _add(state, seat, Goods(faith=-faith, victory=victory))
        case Excommunicated(seat, tile):
            p = state.players[seat]
            return _set(state, replace(p, excommunications=(*p.excommunications, tile)))
        case RoundEnded(_, turn_order):
            players = tuple(
                replace(
                    p,
                    placed=(),
                    six_member=None,
                    vatican_answer=None,
                    played=tuple(replace(x, used=False) for x in p.played),
                )
                for p in state.players
            )
            return replace(
                state, turn_order=turn_order, towers=(0,) * 16, occupants=(), players=players, turn_queue=()
            )
        case FinalScoreComputed(score):
            return replace(state, final=(*state.final, score))
        case GameEnded(_, placings):
            return replace(state, placings=placings, phase=Phase.FINISHED)
        case (
            ResourcesGained() | ResourcesPaid() | FamilyMemberPlaced() | CardTaken() | DecisionsQueued()
            | CouncilPrivilegesChosen() | BonusCardActionTaken() | BonusActionPerformed()
            | BonusActionSkipped() | ExchangeChosen() | ExchangeBudgetSet() | TurnEnded()
            | PlacementPassed() | LeaderPlayed() | LeaderDiscarded() | LeaderActivated()
            | FamilyMemberValueSet()
        ):  # fmt: skip
            return evolve(state, event)
        case _:
            assert_never(event)
