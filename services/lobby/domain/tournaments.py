"""Tournaments, pure: formats, pairings, results, standings and the state machine that moves a
tournament from registration through its rounds to the end (docs/tournaments.md).

No I/O here: the service layer reads and writes a :class:`Tournament` with compare-and-set and
calls these functions on it, so a change is decided once whatever the number of lobbies.

Seats of a table are its players in order, ``""`` for a bot's seat. A table of one player and no
match is a bye. Points per match: ``(seats beaten + half the seats tied with) / (seats - 1)`` (a win
of two is 1, a draw 1/2, a loss 0); a bye is 1; a forfeit (the player's turn clock ran out and the
lobby resigned the seat) is 0.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from shared.serving.errors import Conflict, InvalidArgument

MAX_ROUNDS = 20
MAX_PLAYERS = 256
PAIRING_BUDGET = 20_000  # backtracking steps before a Swiss round allows a repeat pairing
BYE = 1


class Format(enum.StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    SINGLE_ELIMINATION = "single_elimination"


class Status(enum.StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TableState(enum.StrEnum):
    PENDING = "pending"  # paired; its match not known to exist yet
    PLAYING = "playing"  # its match exists
    DONE = "done"  # its result is recorded (a bye is done at once)


@dataclass(frozen=True, slots=True)
class Entrant:
    player_id: str
    name: str
    registered_ms: int
    seed: float = 0.0  # the lobby rating (mu) when the tournament started: single elimination's seeding
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    number: int  # 1, 2, ... within its round
    seats: tuple[str, ...]  # player id per seat, "" for a bot; one player and no match: a bye
    match_id: str = ""
    state: TableState = TableState.PENDING
    placings: tuple[int, ...] = ()  # per seat, once done (1 = first, ties share)
    scores: tuple[int, ...] = ()  # the game's own scores per seat, once done
    forfeited: tuple[int, ...] = ()  # seats whose clock ran out: resigned by the lobby, 0 points

    @property
    def is_bye(self) -> bool:
        return not self.match_id

    @property
    def humans(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if p)

    def points(self, seat: int) -> Fraction:
        if self.is_bye:
            return Fraction(BYE)
        if self.state is not TableState.DONE or seat in self.forfeited:
            return Fraction(0)
        mine, count = self.placings[seat], len(self.placings)
        beaten = sum(1 for p in self.placings if p > mine)
        tied = sum(1 for p in self.placings if p == mine) - 1
        return Fraction(2 * beaten + tied, 2 * (count - 1))

    def winner(self) -> str:
        """Who goes on in single elimination: the first placed human; a tie goes to the first seat
        (the higher seed)."""
        if self.is_bye:
            return self.seats[0]
        seats = [s for s, p in enumerate(self.seats) if p and s not in self.forfeited]
        seats = seats or [s for s, p in enumerate(self.seats) if p]
        best = min(self.placings[s] for s in seats)
        return next(self.seats[s] for s in seats if self.placings[s] == best)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    started_ms: int

    @property
    def complete(self) -> bool:
        return all(t.state is TableState.DONE for t in self.tables)


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    name: str
    game: str
    creator: str
    format: Format
    options: tuple[tuple[str, str], ...]
    seats: int  # per table
    rounds: int  # Swiss: how many; round robin and single elimination: 0 until started, then the schedule's
    turn_seconds: int
    allow_bots: bool
    bot_level: str
    start_ms: int
    max_players: int
    created_ms: int
    status: Status = Status.REGISTERING
    entrants: tuple[Entrant, ...] = ()
    played: tuple[Round, ...] = ()
    schedule: tuple[tuple[tuple[str, str], ...], ...] = ()  # round robin: the pairs of every round
    ended_ms: int = 0
    ended_reason: str = ""  # "finished", "too_few_players", "cancelled"
    version: int = 0

    def entrant(self, player_id: str) -> Entrant | None:
        return next((e for e in self.entrants if e.player_id == player_id), None)

    @property
    def active(self) -> tuple[str, ...]:
        return tuple(e.player_id for e in self.entrants if not e.withdrawn)

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    def table_of(self, player_id: str) -> tuple[Table, int] | None:
        """The player's table of the current round and seat, if any."""
        now = self.current
        for table in now.tables if now else ():
            if player_id in table.seats:
                return table, table.seats.index(player_id)
        return None


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: str
    name: str
    points: Fraction
    buchholz: Fraction  # the sum of the final points of every human met
    game_score: int  # the sum of the game's own scores: the second tie-break
    wins: int  # matches placed first (alone or shared)
    played: int
    byes: int
    forfeits: int
    withdrawn: bool
    eliminated: bool = False  # single elimination: lost a match
    rank: int = 0


def match_id_of(tournament_id: str, round_number: int, table: int) -> str:
    """The id of a table's match, the same whoever computes it: a match is created once."""
    return f"{tournament_id}-r{round_number}-t{table}"


# ------------------------------------------------------------------ creation and registration


def check_shape(fmt: Format, seats: int, rounds: int) -> None:
    """Format against seat count and round count (the game's seat range is checked by the caller)."""
    if fmt is not Format.SWISS and seats != 2:
        raise InvalidArgument(
            "{format} is played at tables of 2, not {seats}",
            "seats_per_table",
            "tournament_seats",
            format=fmt.value,
            seats=seats,
        )
    if fmt is Format.SWISS and not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidArgument(
            "a Swiss tournament has 1 to {most} rounds, not {rounds}",
            "round_count",
            "tournament_rounds",
            most=MAX_ROUNDS,
            rounds=rounds,
        )
    if fmt is not Format.SWISS and rounds != 0:
        raise InvalidArgument(
            "{format} sets its own rounds: round_count must be 0",
            "round_count",
            "tournament_rounds",
            format=fmt.value,
        )


def register(t: Tournament, player_id: str, name: str, now: int) -> Tournament:
    if t.status is not Status.REGISTERING:
        raise Conflict(f"tournament_{t.status.value}", "registration is closed: the tournament has started")
    if now >= t.start_ms:
        raise Conflict("registration_closed", "registration closed at the start time")
    if t.entrant(player_id) is not None:
        raise Conflict("already_registered", "the player is registered already")
    if len(t.entrants) >= t.max_players:
        raise Conflict("tournament_full", "the tournament takes {most} players", most=t.max_players)
    return replace(t, entrants=(*t.entrants, Entrant(player_id, name, now)))


def withdraw(t: Tournament, player_id: str) -> Tournament:
    """Before the start: off the list; once running: no more pairings (a match in play goes on)."""
    entrant = t.entrant(player_id)
    if entrant is None or entrant.withdrawn:
        raise Conflict("not_registered", "the player is not registered in this tournament")
    if t.status in (Status.FINISHED, Status.CANCELLED):
        raise Conflict(f"tournament_{t.status.value}", "the tournament is over")
    if t.status is Status.REGISTERING:
        return replace(t, entrants=tuple(e for e in t.entrants if e.player_id != player_id))
    kept = tuple(replace(e, withdrawn=True) if e.player_id == player_id else e for e in t.entrants)
    return replace(t, entrants=kept)


def cancel(t: Tournament, caller: str, now: int) -> Tournament:
    if caller != t.creator:
        raise Conflict("not_creator", "only the tournament's creator cancels it")
    if t.status in (Status.FINISHED, Status.CANCELLED):
        raise Conflict(f"tournament_{t.status.value}", "the tournament is over")
    return replace(t, status=Status.CANCELLED, ended_ms=now, ended_reason="cancelled")


# ------------------------------------------------------------------ pairings


def swiss_pairs(
    ranked: Sequence[str], met: Mapping[str, set[str]], had_bye: set[str], bots: bool = False
) -> list[tuple[str, ...]]:
    """Tables of two in ranking order: each player meets the best-ranked one not met before, where the
    whole round allows it (backtracking); an odd player out is the lowest-ranked without a bye yet and
    gets a bye (``bots``: plays a bot). If no round without a repeat exists, repeats are allowed."""
    players = list(ranked)
    candidates: list[str | None] = [None]
    if len(players) % 2:
        low_first = list(reversed(players))
        candidates = [*(p for p in low_first if p not in had_bye), *(p for p in low_first if p in had_bye)]
    for out in candidates:
        rest = [p for p in players if p != out]
        budget = [PAIRING_BUDGET]
        pairs = _pair(rest, met, budget)
        if pairs is not None:
            return pairs + _odd_table(out, bots)
    out = candidates[0]
    rest = [p for p in players if p != out]
    return [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)] + _odd_table(out, bots)


def _odd_table(out: str | None, bots: bool) -> list[tuple[str, ...]]:
    if out is None:
        return []
    return [(out, "")] if bots else [(out,)]


def _pair(rest: list[str], met: Mapping[str, set[str]], budget: list[int]) -> list[tuple[str, ...]] | None:
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for i, other in enumerate(others):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if other in met.get(first, set()):
            continue
        tail = _pair(others[:i] + others[i + 1 :], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def score_groups(
    ranked: Sequence[str], met: Mapping[str, set[str]], had_bye: set[str], seats: int, bots: bool
) -> list[tuple[str, ...]]:
    """Tables of ``seats`` in ranking order (score groups), then swaps between neighbouring tables
    that lower the number of pairs at one table who met before. With ``bots`` every player plays: as
    few tables as hold everyone, humans spread evenly, bots in the empty seats; without, the players
    left over are byes (the lowest-ranked without a bye yet)."""
    players = list(ranked)
    if bots:
        count = math.ceil(len(players) / seats)
        sizes = [len(players) // count + (1 if i < len(players) % count else 0) for i in range(count)]
        byes: list[str] = []
    else:
        count, left = divmod(len(players), seats)
        low_first = list(reversed(players))
        byes = [*(p for p in low_first if p not in had_bye), *(p for p in low_first if p in had_bye)][:left]
        players = [p for p in players if p not in byes]
        sizes = [seats] * count
    tables, at = [], 0
    for size in sizes:
        tables.append(players[at : at + size])
        at += size
    _untangle(tables, met)
    out = [tuple(t) + ("",) * (seats - len(t)) for t in tables]
    return out + [(p,) for p in sorted(byes, key=ranked.index)]


def repeats(tables: Iterable[Sequence[str]], met: Mapping[str, set[str]]) -> int:
    """Pairs of players at one table who met before."""
    total = 0
    for table in tables:
        humans = [p for p in table if p]
        total += sum(1 for i, a in enumerate(humans) for b in humans[i + 1 :] if b in met.get(a, set()))
    return total


def _untangle(tables: list[list[str]], met: Mapping[str, set[str]]) -> None:
    """Swap players between neighbouring tables (a swap keeps the score groups) while a swap lowers
    the repeats of the two tables; each kept swap lowers the total, so this ends."""
    improved = True
    while improved:
        improved = False
        for upper, lower in itertools.pairwise(tables):
            for a, b in itertools.product(range(len(upper)), range(len(lower))):
                before = repeats((upper, lower), met)
                upper[a], lower[b] = lower[b], upper[a]
                if repeats((upper, lower), met) < before:
                    improved = True
                else:
                    upper[a], lower[b] = lower[b], upper[a]


def round_robin(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The circle method: the first player stays, the others turn one place per round; with an odd
    count a ``""`` joins and whoever meets it has a bye. Every pair meets once in ``n - 1`` rounds."""
    circle = list(players) + ([""] if len(players) % 2 else [])
    n, rounds = len(circle), []
    for _ in range(n - 1):
        rounds.append([(circle[i], circle[n - 1 - i]) for i in range(n // 2)])
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def bracket(seeded: Sequence[str]) -> list[tuple[str, ...]]:
    """Single elimination's first round: the bracket of the next power of two, seed 1 against the
    last, the seeds kept apart until the final (standard order); missing opponents are byes, to the
    top seeds."""
    size = 1 << max(1, (len(seeded) - 1).bit_length())
    order = [1]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) + 1 - s)]
    out: list[tuple[str, ...]] = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        pair = tuple(seeded[s - 1] for s in (a, b) if s <= len(seeded))
        out.append(pair)
    return out


def elimination_rounds(entrants: int) -> int:
    return max(1, (entrants - 1).bit_length())


# ------------------------------------------------------------------ results and standings


def standings(t: Tournament) -> list[Standing]:
    """Ranked: points, then Buchholz, then the game's own score, then wins; single elimination ranks
    who went further first. Equal on every count: the same rank shown, listed by seed (the rating at
    the start) then registration order (so a Swiss round 1 pairs by rating)."""
    points: dict[str, Fraction] = {e.player_id: Fraction(0) for e in t.entrants}
    met: dict[str, list[str]] = {p: [] for p in points}
    counts: dict[str, list[int]] = {p: [0, 0, 0, 0, 0] for p in points}  # score, wins, played, byes, forfeits
    out_of: set[str] = set()
    for rnd in t.played:
        for table in rnd.tables:
            if table.state is not TableState.DONE:
                continue
            for seat, player in enumerate(table.seats):
                if not player or player not in points:
                    continue
                points[player] += table.points(seat)
                c = counts[player]
                if table.is_bye:
                    c[3] += 1
                    continue
                c[2] += 1
                c[0] += table.scores[seat] if seat < len(table.scores) else 0
                c[1] += int(table.placings[seat] == min(table.placings) and seat not in table.forfeited)
                c[4] += int(seat in table.forfeited)
                met[player].extend(p for p in table.humans if p != player)
                if t.format is Format.SINGLE_ELIMINATION and table.winner() != player:
                    out_of.add(player)
    rows = [
        Standing(
            e.player_id,
            e.name,
            points[e.player_id],
            sum((points[o] for o in met[e.player_id] if o in points), Fraction(0)),
            counts[e.player_id][0],
            counts[e.player_id][1],
            counts[e.player_id][2],
            counts[e.player_id][3],
            counts[e.player_id][4],
            e.withdrawn,
            e.player_id in out_of,
        )
        for e in t.entrants
    ]
    order = {e.player_id: i for i, e in enumerate(t.entrants)}

    def key(s: Standing) -> tuple[object, ...]:
        out = s.eliminated or (s.withdrawn and t.format is Format.SINGLE_ELIMINATION)
        return (out, -s.points, -s.buchholz, -s.game_score, -s.wins)

    seed = {e.player_id: e.seed for e in t.entrants}
    rows.sort(key=lambda s: (key(s), -seed[s.player_id], order[s.player_id]))
    ranked, rank = [], 0
    for i, row in enumerate(rows):
        if i == 0 or key(row) != key(rows[i - 1]):
            rank = i + 1
        ranked.append(replace(row, rank=rank))
    return ranked


def _met(t: Tournament) -> dict[str, set[str]]:
    met: dict[str, set[str]] = {e.player_id: set() for e in t.entrants}
    for rnd in t.played:
        for table in rnd.tables:
            for p in table.humans:
                met.setdefault(p, set()).update(q for q in table.humans if q != p)
    return met


def _had_bye(t: Tournament) -> set[str]:
    """Who sat a round out: a bye, or (with bots) the one human at a table of bots, so the odd one out
    turns over as it would with byes."""
    return {
        table.humans[0]
        for rnd in t.played
        for table in rnd.tables
        if table.humans and (table.is_bye or len(table.humans) == 1)
    }


def record(t: Tournament, match_id: str, placings: Sequence[int], scores: Sequence[int]) -> Tournament:
    """A table's match ended with these placings and scores (once: a done table is kept as it is)."""
    return _with_table(
        t,
        match_id,
        lambda table: (
            table
            if table.state is TableState.DONE
            else replace(table, state=TableState.DONE, placings=tuple(placings), scores=tuple(scores))
        ),
    )


def mark_playing(t: Tournament, match_id: str) -> Tournament:
    return _with_table(
        t,
        match_id,
        lambda table: (
            replace(table, state=TableState.PLAYING) if table.state is TableState.PENDING else table
        ),
    )


def forfeit(t: Tournament, match_id: str, seat: int) -> Tournament:
    return _with_table(
        t,
        match_id,
        lambda table: (
            table
            if seat in table.forfeited or table.state is TableState.DONE
            else replace(table, forfeited=(*table.forfeited, seat))
        ),
    )


def _with_table(t: Tournament, match_id: str, change: Callable[[Table], Table]) -> Tournament:
    rnd = t.current
    if rnd is None or t.status is not Status.RUNNING:
        return t
    tables = tuple(change(table) if table.match_id == match_id else table for table in rnd.tables)
    return replace(t, played=(*t.played[:-1], replace(rnd, tables=tables)))


# ------------------------------------------------------------------ the state machine


def start(t: Tournament, now: int, min_seats: int, seeds: Mapping[str, float]) -> Tournament:
    """At the start time: round 1, or cancelled when too few players came (two, and a full table
    unless bots may fill one)."""
    if t.status is not Status.REGISTERING or now < t.start_ms:
        return t
    players = len(t.entrants)
    enough = players >= 2 and (t.allow_bots or players >= max(t.seats, min_seats))
    if not enough:
        return replace(t, status=Status.CANCELLED, ended_ms=now, ended_reason="too_few_players")
    entrants = tuple(replace(e, seed=seeds.get(e.player_id, 0.0)) for e in t.entrants)
    t = replace(t, status=Status.RUNNING, entrants=entrants)
    if t.format is Format.ROUND_ROBIN:
        schedule = round_robin(t.active)
        t = replace(t, schedule=tuple(tuple(r) for r in schedule), rounds=len(schedule))
    elif t.format is Format.SINGLE_ELIMINATION:
        t = replace(t, rounds=elimination_rounds(players))
    return _open_round(t, 1, now)


def advance(t: Tournament, now: int) -> Tournament:
    """The current round complete: the next one, or the end."""
    rnd = t.current
    if t.status is not Status.RUNNING or rnd is None or not rnd.complete:
        return t
    alive = _alive(t)
    short = t.format is Format.SWISS and not t.allow_bots and len(alive) < t.seats  # no full table left
    if rnd.number >= t.rounds or len(alive) < 2 or short:
        return replace(t, status=Status.FINISHED, ended_ms=now, ended_reason="finished")
    return _open_round(t, rnd.number + 1, now)


def _alive(t: Tournament) -> list[str]:
    """Who may be paired next: the players not withdrawn (single elimination: and not knocked out)."""
    if t.format is not Format.SINGLE_ELIMINATION or t.current is None:
        return list(t.active)
    return [p for p in _positions(t) if p is not None]


def _positions(t: Tournament) -> list[str | None]:
    """Single elimination: the current round's winners in bracket order, ``None`` where the winner
    withdrew (their next opponent has a bye), so the bracket keeps its shape."""
    active = set(t.active)
    rnd = t.current
    winners = [table.winner() for table in rnd.tables] if rnd is not None else []
    return [p if p in active else None for p in winners]


def _by_seed(t: Tournament, players: Iterable[str]) -> tuple[str, ...]:
    """Higher seed first (then registration order): the first seat, who goes on after a draw."""
    order = {e.player_id: i for i, e in enumerate(t.entrants)}
    return tuple(sorted(players, key=lambda p: (-_seed(t, p), order.get(p, len(order)))))


def _open_round(t: Tournament, number: int, now: int) -> Tournament:
    seats_of = _pairings(t, number)
    tables = []
    for i, seats in enumerate(seats_of, start=1):
        if len(seats) == 1:
            tables.append(Table(i, seats, "", TableState.DONE))
        else:
            tables.append(Table(i, seats, match_id_of(t.tournament_id, number, i)))
    return replace(t, played=(*t.played, Round(number, tuple(tables), now)))


def _pairings(t: Tournament, number: int) -> list[tuple[str, ...]]:
    active = set(t.active)
    if t.format is Format.ROUND_ROBIN:
        out: list[tuple[str, ...]] = []
        for a, b in t.schedule[number - 1]:
            pair = tuple(p for p in (a, b) if p in active)
            if pair:
                out.append(pair)
        return out
    if t.format is Format.SINGLE_ELIMINATION:
        if number == 1:
            return bracket(_by_seed(t, t.active))
        positions = _positions(t)
        out = []
        for i in range(0, len(positions), 2):
            met_here = [p for p in positions[i : i + 2] if p is not None]
            if met_here:
                out.append(_by_seed(t, met_here))
        return out
    ranked = [s.player_id for s in standings(t) if not s.withdrawn]
    met, byes = _met(t), _had_bye(t)
    if t.seats == 2:
        return swiss_pairs(ranked, met, byes, t.allow_bots)
    return score_groups(ranked, met, byes, t.seats, t.allow_bots)


def _seed(t: Tournament, player_id: str) -> float:
    entrant = t.entrant(player_id)
    return entrant.seed if entrant else 0.0
