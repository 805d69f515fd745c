"""``tabula balance GAME``: seeded all-``greedy`` games, and for every item the game names (workshops,
cards, characters, openings ...) how often the seat that took it won, against the share of a seat.

The game supplies what to count through its manifest's ``balance`` (a ``shared.core.manifest.BalanceHook``:
the item families in report order, every item of every family so that an item nobody took is listed
too, the ``(family, item, seat)`` a game's log shows, and the file the report goes into, between the
markers below). Everything else is generic: the games (``shared.matches.simulate.play_game`` with the
``greedy`` level for every seat, in parallel processes), the tally, the bound and the Markdown.

The bound: a seat wins a game with probability ``share`` (wins over seat-games, ties counted for every
tied seat). An item is **far above its share** when it was taken in at least ``MIN_SAMPLES`` seat-games,
its takers' win rate is above ``RATIO`` x share, and a one-sided exact binomial test at that share gives
p < ``ALPHA``; **far below** mirrors it. Fewer samples: "too few to judge". The command exits 1 when an
item is far above its share.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import typer

from services.cli.main import app
from services.games import game_names, load_rules, manifest
from shared.core.manifest import BalanceHook

MIN_SAMPLES = 30
RATIO = 1.5
ALPHA = 0.05
BEGIN = "<!-- balance report: begin (written by `tabula balance {game}`; do not edit by hand) -->"
END = "<!-- balance report: end -->"


@dataclass(frozen=True)
class Row:
    family: str
    item: str
    samples: int  # seat-games in which a seat took the item
    wins: int  # of those, the seat won

    @property
    def rate(self) -> float:
        return self.wins / self.samples if self.samples else 0.0


@dataclass(frozen=True)
class Tally:
    games: int
    seats: int
    seed: int
    wins: int  # winning seat-games (ties: every tied seat)
    rows: tuple[Row, ...]

    @property
    def share(self) -> float:
        return self.wins / (self.games * self.seats)


def hook_for(game: str) -> BalanceHook:
    loader = manifest(game).balance
    if loader is None:
        raise typer.BadParameter(f"{game} names nothing to count (its manifest has no balance hook)")
    return loader()


# ---------------------------------------------------------------- playing and counting


def play_one(game: str, players: int, seed: int) -> tuple[list[tuple[str, str, int]], list[int]]:
    """One all-greedy game: what each seat took, and the placings."""
    from services.workers.policies import bot_policy
    from shared.matches.simulate import play_game

    rules = load_rules(game)
    config = rules.make_config(players, manifest(game).parse_options({}))
    policies = {seat: bot_policy(rules, "greedy") for seat in range(players)}
    result = play_game(rules, config, seed, policies, check=False)
    if result.outcome is None:
        raise RuntimeError(f"{game} seed {seed}: the game did not end ({result.violations[:3]})")
    taken = sorted(set(hook_for(game).takers(rules, result.log)))
    return taken, list(result.outcome.placings)


def tally(game: str, games: int, players: int, seed: int, processes: int) -> Tally:
    hook = hook_for(game)
    rules = load_rules(game)
    with ProcessPoolExecutor(processes) as pool:
        played = list(pool.map(play_one, [game] * games, [players] * games, range(seed, seed + games)))
    samples: Counter[tuple[str, str]] = Counter()
    wins: Counter[tuple[str, str]] = Counter()
    for taken, placings in played:
        for family, item, seat in taken:
            samples[family, item] += 1
            wins[family, item] += placings[seat] == 1
    listed = hook.items(rules)
    rows = [Row(f, item, samples[f, item], wins[f, item]) for f in hook.families for item in listed[f]]
    rows += [Row(f, i, samples[f, i], wins[f, i]) for f, i in sorted(samples) if i not in listed.get(f, [])]
    total_wins = sum(p.count(1) for _, p in played)
    return Tally(games, players, seed, total_wins, tuple(rows))


# ---------------------------------------------------------------- the bound


def p_at_least(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def verdict(row: Row, share: float) -> str:
    """ "far above", "far below", "too few" or "ok" (the bound of the module docstring)."""
    if row.samples < MIN_SAMPLES:
        return "too few"
    if row.rate > RATIO * share and p_at_least(row.wins, row.samples, share) < ALPHA:
        return "far above"
    if row.rate < share / RATIO and 1 - p_at_least(row.wins + 1, row.samples, share) < ALPHA:
        return "far below"
    return "ok"


# ---------------------------------------------------------------- the report


def render(game: str, t: Tally) -> str:
    families = dict.fromkeys(r.family for r in t.rows)
    above = [r for r in t.rows if verdict(r, t.share) == "far above"]
    lines = [
        BEGIN.format(game=game),
        "",
        f"`tabula balance {game} --games {t.games} --players {t.seats} --seed {t.seed}`: "
        f"{t.games} games of {t.seats} `greedy` bots, seeds {t.seed} to {t.seed + t.games - 1}. "
        f"A seat's share of the wins is {t.share:.3f} ({t.wins} wins in {t.games * t.seats} seat-games, "
        "ties counted for every tied seat).",
        "",
        f"**Bound.** An item is *far above its share* when its takers (seat-games in which the seat took it) "
        f"number at least {MIN_SAMPLES}, their win rate is above {RATIO} x share ({RATIO * t.share:.3f}) and "
        f"a one-sided exact binomial test at the share gives p < {ALPHA}; *far below* mirrors it; fewer than "
        f"{MIN_SAMPLES} takers: *too few* to judge.",
        "",
        f"**Result:** {len(above)} item(s) far above their share"
        + (": " + ", ".join(f"{r.family} {r.item}" for r in above) if above else "")
        + ".",
    ]
    for family in families:
        lines += [
            "",
            f"| {family} | taken | wins | win rate | x share | verdict |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for r in (r for r in t.rows if r.family == family):
            ratio = f"{r.rate / t.share:.2f}" if r.samples else "-"
            lines.append(
                f"| {r.item} | {r.samples} | {r.wins} | {r.rate:.3f} | {ratio} | {verdict(r, t.share)} |"
            )
    lines += ["", END.format(game=game)]
    return "\n".join(lines)


def write(path: Path, game: str, report: str) -> None:
    """Replace the text between the markers (both must be there already, once each)."""
    text = path.read_text()
    begin = BEGIN.format(game=game)
    if text.count(begin) != 1 or text.count(END) != 1:
        raise typer.BadParameter(f"{path} needs the markers {begin!r} and {END!r}, once each")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(END, 1)
    path.write_text(head + report + tail)


ROW = re.compile(
    r"^\| (?P<item>.+?) \| (?P<n>\d+) \| (?P<w>\d+) \| [\d.]+ \| (?:[\d.]+|-) \| (?P<v>[a-z ]+) \|$"
)


def parse(text: str, game: str) -> tuple[float, list[tuple[str, Row, str]]]:
    """The share and the rows (family, row, verdict) of a written report (for checks and tests)."""
    section = text.split(BEGIN.format(game=game), 1)[1].split(END, 1)[0]
    share = float(re.search(r"share of the wins is ([\d.]+)", section).group(1))  # type: ignore[union-attr]
    rows, family = [], ""
    for line in section.splitlines():
        header = re.match(r"^\| (\w+) \| taken \|", line)
        if header:
            family = header.group(1)
            continue
        m = ROW.match(line)
        if m and family:
            rows.append((family, Row(family, m["item"], int(m["n"]), int(m["w"])), m["v"]))
    return share, rows


@app.command()
def balance(
    game: str = typer.Argument(..., help="a registered game whose manifest names what to count"),
    games: int = typer.Option(200, min=1, help="greedy games to play"),
    players: int = typer.Option(4, min=1, help="seats per game"),
    seed: int = typer.Option(1, help="seed of the first game (then seed+1, ...)"),
    processes: int = typer.Option(2, min=1),
    doc: Path | None = typer.Option(None, help="file to write the report into (default: the game's)"),
    dry_run: bool = typer.Option(False, "--dry-run", help="print the report, write nothing"),
) -> None:
    """Play GAMES all-greedy games and report each item's win rate against a seat's share."""
    if game not in game_names():
        raise typer.BadParameter(f"unknown game {game!r}; known: {', '.join(game_names())}")
    target = doc or Path(hook_for(game).doc)
    result = tally(game, games, players, seed, processes)
    report = render(game, result)
    typer.echo(report)
    if not dry_run:
        write(target, game, report)
        typer.echo(f"written into {target}")
    if any(verdict(r, result.share) == "far above" for r in result.rows):
        raise typer.Exit(1)
