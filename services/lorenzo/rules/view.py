"""Per-viewer views, event visibility and determinization (resampling what a seat cannot see)."""

from __future__ import annotations

from dataclasses import replace

from services.lorenzo.rules.content_types import Content
from services.lorenzo.rules.events import (
    DecksShuffled,
    DraftHandReceived,
    Event,
    LeaderDrafted,
    LeadersDealt,
    VaticanAnswerGiven,
)
from services.lorenzo.rules.goods import Goods
from services.lorenzo.rules.model import (
    Decision,
    Deck,
    FinalScore,
    Member,
    Occupant,
    Phase,
    PlayedLeader,
    PlayerState,
    State,
)
from shared.core.decider import PUBLIC, SERVER_ONLY, Actor, Visibility
from shared.core.rng import Rng
from shared.core.wire import message, pb


@message
class PlayerView:
    """One seat's board as the viewer may see it (hands and Vatican answer: its own only)."""

    seat: int = pb(1)  # 0-based seat number
    goods: Goods = pb(2)  # resources and track positions (military, faith, victory points)
    territories: tuple[int, ...] = pb(3)  # card ids (GetContent cards), in the order taken
    buildings: tuple[int, ...] = pb(4)  # card ids
    characters: tuple[int, ...] = pb(5)  # card ids
    ventures: tuple[int, ...] = pb(6)  # card ids
    placed: tuple[Member, ...] = pb(7)  # family members already on the board this round
    bonus_tile: int = pb(8)  # personal bonus tile id (GetContent bonus_tiles); 0 before the choice
    # leader ids (GetContent leaders): empty unless it is the viewer's own (or the viewer is the system)
    hand: tuple[int, ...] = pb(9)
    hand_size: int = pb(10)  # leaders in hand, for every viewer
    draft_hand: tuple[int, ...] = pb(11)  # leaders offered in the draft now: the viewer's own only
    draft_hand_size: int = pb(12)
    played: tuple[PlayedLeader, ...] = pb(13)  # leaders in play, face up
    discarded: tuple[int, ...] = pb(14)  # leaders discarded (each for a council privilege)
    excommunications: tuple[int, ...] = pb(15)  # excommunication tile ids taken
    vatican_answered: bool = pb(16)  # answered this period's Vatican report (the answer itself is secret)
    vatican_answer: bool | None = pb(17)  # only the viewer's own: true = showed support (spent faith)
    six_member: Member | None = pb(18)  # Federico da Montefeltro: the member set to 6 this round


@message
class LorenzoView:
    """The match as one viewer may see it; the system sees everything, a seat only its own secrets."""

    viewer_seat: int = pb(1)  # -1 for spectators and the system
    phase: Phase = pb(2)
    round: int = pb(3)  # 1..6 (two rounds a period)
    period: int = pb(4)  # 1..3
    turn_order: tuple[int, ...] = pb(5)  # seats in this round's turn order (the council palace sets the next)
    turn_queue: tuple[int, ...] = pb(6)  # seats in the order they act this round, one entry per turn
    turn_index: int = pb(7)  # index of the current turn in turn_queue
    active_seat: int = pb(8)  # the seat whose turn it is; -1 outside the action phase
    acted: bool = pb(9)  # the active seat has placed a member this turn (it may still play leaders, then end)
    pending: tuple[Decision, ...] = pb(10)  # choices the active seat owes before its turn goes on
    budget: Goods = pb(11)  # what production exchanges may still be paid from in this action
    dice: tuple[int, ...] = pb(12)  # this round's dice: black, white, orange
    # Card id on each tower space 1..16 (index = space - 1; 0 = empty): spaces 1-4 are the territory
    # tower, 5-8 character, 9-12 building, 13-16 venture, each from floor 1 (bottom) to 4.
    towers: tuple[int, ...] = pb(13)
    occupants: tuple[Occupant, ...] = pb(14)  # every family member on an action space (GetContent spaces)
    excommunication_tiles: tuple[int, ...] = pb(15)  # this match's tile id per period (I, II, III)
    bonus_tiles_left: tuple[int, ...] = pb(16)  # personal bonus tiles still to choose (advanced game)
    tile_pickers: tuple[int, ...] = pb(17)  # seats still to choose a bonus tile, in order
    players: tuple[PlayerView, ...] = pb(18)  # one per seat, seat order
    deck_sizes: tuple[int, ...] = pb(19)  # cards left per deck: territory, building, character, venture
    decks: tuple[Deck, ...] = pb(20)  # the deck order: the system only (empty for seats and spectators)
    final: tuple[FinalScore, ...] = pb(21)  # the final scoring per seat, once the match is over
    placings: tuple[int, ...] = pb(22)  # per seat, 1 = winner (ties share), once the match is over


def _player_view(p: PlayerState, sees_all: bool, own: bool) -> PlayerView:
    secret = sees_all or own
    return PlayerView(
        seat=p.seat,
        goods=p.goods,
        territories=p.territories,
        buildings=p.buildings,
        characters=p.characters,
        ventures=p.ventures,
        placed=p.placed,
        bonus_tile=p.bonus_tile,
        hand=p.hand if secret else (),
        hand_size=len(p.hand),
        draft_hand=p.draft_hand if secret else (),
        draft_hand_size=len(p.draft_hand),
        played=p.played,
        discarded=p.discarded,
        excommunications=p.excommunications,
        vatican_answered=p.vatican_answer is not None,
        vatican_answer=p.vatican_answer if secret else None,
        six_member=p.six_member,
    )


def view(s: State, viewer: Actor) -> LorenzoView:
    sees_all = viewer.is_system
    seat = viewer.seat if viewer.is_seat else -1
    return LorenzoView(
        viewer_seat=seat,
        phase=s.phase,
        round=s.round,
        period=s.period,
        turn_order=s.turn_order,
        turn_queue=s.turn_queue,
        turn_index=s.turn_index,
        active_seat=s.active_seat if s.phase is Phase.ACTIONS else -1,
        acted=s.acted,
        pending=s.pending,
        budget=s.budget,
        dice=s.dice,
        towers=s.towers,
        occupants=s.occupants,
        excommunication_tiles=s.excommunication_tiles,
        bonus_tiles_left=s.bonus_tiles_left,
        tile_pickers=s.tile_pickers,
        players=tuple(_player_view(p, sees_all, p.seat == seat) for p in s.players),
        deck_sizes=tuple(len(d.cards) for d in s.decks),
        decks=s.decks if sees_all else (),
        final=s.final,
        placings=s.placings,
    )


def visibility(event: Event) -> Visibility:
    match event:
        case DecksShuffled():
            return SERVER_ONLY
        case LeadersDealt(seat, _) | LeaderDrafted(seat, _) | DraftHandReceived(seat, _):
            return Visibility.to_seat(seat)
        case VaticanAnswerGiven(seat, _):
            return Visibility.to_seat(seat)
        case _:
            return PUBLIC


def determinize(c: Content, s: State, seat: int, rng: Rng) -> State:
    """A state consistent with what ``seat`` sees: other seats' leader hands (and draft hands) are dealt
    again from the leaders ``seat`` cannot see, each deck is reshuffled within its periods, and other
    seats' unrevealed Vatican answers are forgotten (they will be asked again)."""
    seen: set[int] = set()
    for p in s.players:
        seen.update(pl.leader for pl in p.played)
        seen.update(p.discarded)
    me = s.players[seat] if 0 <= seat < len(s.players) else None
    if me is not None:
        seen.update(me.hand)
        seen.update(me.draft_hand)
    unseen = [x.id for x in c.leaders if x.id not in seen]
    hidden_sizes = [(len(p.hand), len(p.draft_hand)) for p in s.players]
    pool = list(rng.shuffled(unseen))
    players = []
    for p in s.players:
        if p.seat == seat:
            players.append(p)
            continue
        n_hand, n_draft = hidden_sizes[p.seat]
        hand, pool = tuple(pool[:n_hand]), pool[n_hand:]
        draft, pool = tuple(pool[:n_draft]), pool[n_draft:]
        answer = p.vatican_answer if s.phase is not Phase.VATICAN else None
        players.append(replace(p, hand=hand, draft_hand=draft, vatican_answer=answer))
    decks = tuple(Deck(d.card_type, _reshuffle(c, d.cards, rng)) for d in s.decks)
    return replace(s, players=tuple(players), decks=decks)


def _reshuffle(c: Content, cards: tuple[int, ...], rng: Rng) -> tuple[int, ...]:
    out: tuple[int, ...] = ()
    for period in sorted({c.card[x].period for x in cards}):
        out += rng.shuffled([x for x in cards if c.card[x].period == period])
    return out
