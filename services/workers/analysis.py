"""The ``analysis`` queue's job: a finished match's decisions of one seat rated by the search bot.

For each decision the ``mcts`` bot searches the position from the seat's view (its ``search``, at
the analysis budget: ``TABULA_ANALYSIS_ITERATIONS``, a fixed number of iterations, with a time cap
only against runaway searches) and the command played is rated against the best root command found
(:func:`rate`): their mean searched rewards, the seat's chance of finishing ahead as the game's
evaluation judges it. Commands are put in words with the game's presentation
(``manifest.presentation``), as the terminal client shows them.

:func:`run` is one task: it claims the job (``shared.matches.analysis``), skips the decisions rated
already (a job taken over after its worker died goes on where it stopped), stores each rating as
soon as it has it, and stops between two moves when the job was cancelled. It returns after
``slice_s`` seconds with the rest sent as a new task of the queue (``again``), so no task comes near
the task time limit and other matches' jobs get their turn.
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from services.games import load_game, manifest
from services.workers.bots import Budget, MctsBot, make_bot
from services.workers.bots.heuristics import bot_hooks
from services.workers.bots.mcts import Node
from shared.core.decider import Actor
from shared.core.i18n import DEFAULT, LOCALES
from shared.core.rng import Rng
from shared.matches.analysis import QUEUE, TASK, AnalysisStore, Decision, Rating, decisions, has_search
from shared.matches.archive import archived_lines, archived_runner, storage_from_env
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.runtime.observability import log_fields
from shared.store import MatchMeta

log = logging.getLogger(__name__)


class NoSearch(ValueError):
    """The game's bots have no evaluation: its search would judge nothing but final outcomes."""


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    iterations: int = 400  # the search's fixed budget per decision
    seconds: float = 30.0  # a cap only: the iterations are the budget
    slice_s: float = 20.0  # a task rates moves this long, then sends the rest as a new task
    lease_s: float = 60.0  # a worker silent this long has died: its job is sent again

    @staticmethod
    def from_env(env: dict[str, str] | None = None) -> AnalysisSettings:
        e = env if env is not None else dict(os.environ)
        return AnalysisSettings(
            iterations=int(e.get("TABULA_ANALYSIS_ITERATIONS", "400")),
            seconds=float(e.get("TABULA_ANALYSIS_SECONDS", "30")),
            slice_s=float(e.get("TABULA_ANALYSIS_SLICE", "20")),
            lease_s=float(e.get("TABULA_ANALYSIS_LEASE", "60")),
        )


def analysis_bot(game: str, iterations: int, seconds: float) -> MctsBot:
    if not has_search(bot_hooks(game)):
        raise NoSearch(f"{game} has no search bot (its bot hooks have no evaluation)")
    bot = make_bot(game, "mcts", Budget(seconds=seconds, iterations=iterations))
    assert isinstance(bot, MctsBot)
    return bot


def _keeping(bot: MctsBot, played: Any) -> MctsBot:
    """The bot with its pruner keeping the command played wherever it is legal, so it is searched."""
    prune = bot.prune
    if prune is None:
        return bot

    def keep(rules: Any, world: Any, seat: int, commands: Any, coarse: bool) -> Any:
        kept = prune(rules, world, seat, commands, coarse)
        if played in commands and played not in kept:
            kept = [*kept, played]
        return kept

    return replace(bot, prune=keep)


@dataclass(frozen=True, slots=True)
class Rated:
    best: Any
    played_value: float
    best_value: float

    @property
    def same(self) -> bool:
        """The command played is among the best (a tie with it counts)."""
        return self.played_value >= self.best_value


def _mean(node: Node) -> float:
    """A root command's mean reward over all its visits (its one-ply prior counted as visits)."""
    return node.reward / node.visits if node.visits else 0.0


def rate(bot: MctsBot, rules: Any, decision: Decision, seat: int, seats: int, rng: Rng) -> Rated:
    """The command played against the best one the search finds from the seat's view: each root
    command's mean reward over its visits, the best the highest (the one played on a tie)."""
    root, _ = _keeping(bot, decision.command).search(rules, decision.state, seat, seats, rng)
    played = root.children.get(decision.command)
    played_value = _mean(played) if played is not None else 0.0
    best, node = max(root.children.items(), key=lambda item: _mean(item[1]))
    if played is not None and played_value >= _mean(node):
        return Rated(decision.command, played_value, played_value)
    return Rated(best, played_value, _mean(node))


class Describe:
    """Commands in words of ``locale``, as the terminal client shows them (the game's presentation;
    without one, the command's message in one line)."""

    def __init__(self, game: str, names: list[str], locale: str = DEFAULT) -> None:
        self.loaded, self.names = load_game(game), names
        loader = manifest(game).presentation
        self.presentation = loader(locale) if loader is not None else None

    def __call__(self, command: Any, state: Any, seat: int) -> str:
        message = self.loaded.codec.to_message(command)
        if self.presentation is None:
            from google.protobuf import text_format

            fields = text_format.MessageToString(message, as_one_line=True)
            return f"{message.DESCRIPTOR.name} {fields}".strip()
        view = self.loaded.codec.to_message(self.loaded.rules.view(state, Actor.of_seat(seat)))
        return str(self.presentation.describe_command(message, view, self.names))


def _worded(say: Describe, decision: Decision, best: Any, seat: int) -> list[str]:
    """The command played and the best one (``None``: the one played) in ``say``'s words."""
    played = say(decision.command, decision.state, seat)
    return [played, played if best is None else say(best, decision.state, seat)]


def match_runner(runner: MatchRunner[Any], match_id: str, game: str) -> MatchRunner[Any]:
    """The live runner, or one over the archived log of a match archived out of Redis."""
    if wait(runner.store.get_meta(match_id)):
        return runner
    storage = storage_from_env()
    lines = archived_lines(storage, match_id) if storage is not None else None
    if lines is None:
        return runner
    loaded = load_game(game)
    return archived_runner(loaded.rules, loaded.codec, lines)


def rate_all(
    runner: MatchRunner[Any],
    match_id: str,
    seat: int,
    bot: MctsBot,
    seed: int,
    done: set[int],
    emit: Callable[[Rating], bool],
    total: Callable[[int], None] = lambda _: None,
    until: float = float("inf"),
) -> bool:
    """Rate the seat's decisions not in ``done`` (versions), in order, each passed to ``emit`` (False:
    stop), until ``until`` (``time.monotonic``; one decision at least). Returns True when every
    decision is rated, False when stopped or out of time."""
    meta = MatchMeta.of(wait(runner.store.get_meta(match_id)))
    events = wait(runner.store.read(match_id))
    found = decisions(runner.rules, runner.decode, events, meta.seed, seat)
    total(len(found))
    names = [n or f"seat {s}" for s, n in enumerate(meta.names)] or [
        f"seat {s}" for s in range(meta.seat_count)
    ]
    describe = Describe(meta.game, names)
    others = {locale: Describe(meta.game, names, locale) for locale in LOCALES if locale != DEFAULT}
    rated_here = False
    for decision in found:
        if decision.version in done:
            continue
        if rated_here and time.monotonic() >= until:  # a task rates one move at least
            return False
        if decision.choices <= 1:
            words = {locale: _worded(say, decision, None, seat) for locale, say in others.items()}
            played = describe(decision.command, decision.state, seat)
            rating = Rating(decision.version, played, played, 0.0, 0.0, True, forced=True, words=words)
        else:
            rng = Rng.derive(meta.seed, decision.version, f"analysis:{seat}:{seed}")
            rated = rate(bot, runner.rules, decision, seat, meta.seat_count, rng)
            other = None if rated.same else rated.best
            played, best = _worded(describe, decision, other, seat)
            rating = Rating(
                decision.version,
                played,
                best,
                rated.played_value,
                rated.best_value,
                rated.same,
                choices=decision.choices,
                words={locale: _worded(say, decision, other, seat) for locale, say in others.items()},
            )
        if not emit(rating):
            return False
        rated_here = True
    return True


def analysis_sender(app: Any) -> Callable[[str, str, int], None]:
    """Sends one analysis job (match, game, seat) to the ``analysis`` queue through ``app``."""
    return lambda match_id, game, seat: app.send_task(TASK, args=[match_id, game, seat], queue=QUEUE)


def resume_stalled(
    records: AnalysisStore, send: Callable[[str, str, int], None], shards: Sequence[int]
) -> int:
    """Send again every job of ``shards`` under way whose lease ran out (its worker died, or its
    message was lost): the reactor's sweep. Returns how many."""
    sent = 0
    for shard in shards:
        for job in records.resume(shard):
            send(job.match_id, job.game, job.seat)
            log.warning("stalled analysis sent again", extra=log_fields(match_id=job.match_id, seat=job.seat))
            sent += 1
    return sent


def _read_back(records: AnalysisStore, match_id: str, seat: int, owner: str, count: int) -> None:
    """The seat's decisions are read back from the log (a long replay for a long match): their count
    stored, and the lease renewed before the first search, so no sweep takes the job over meanwhile."""
    records.set_decisions(match_id, seat, count)
    records.renew(match_id, seat, owner)


def owner_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def run(
    runner: MatchRunner[Any],
    records: AnalysisStore,
    match_id: str,
    game: str,
    seat: int,
    settings: AnalysisSettings,
    again: Callable[[], None],
) -> str:
    """One task of a job: "taken" (another worker has it, or it is done or cancelled), "done",
    "stopped" (cancelled meanwhile), "continued" (the rest sent again), "failed"."""
    owner = owner_name()
    if not records.claim(match_id, seat, owner):
        return "taken"
    record = records.read(match_id, seat)
    try:
        source = match_runner(runner, match_id, game)
        bot = analysis_bot(game, record.iterations or settings.iterations, settings.seconds)
        until = time.monotonic() + settings.slice_s
        finished = rate_all(
            source,
            match_id,
            seat,
            bot,
            record.seed,
            {r.version for r in record.ratings},
            lambda rating: records.renew(match_id, seat, owner, rating),
            lambda count: _read_back(records, match_id, seat, owner, count),
            until,
        )
    except (NoSearch, ValueError, KeyError) as err:
        records.fail(match_id, seat, owner, str(err))
        return "failed"
    if finished:
        return "done" if records.finish(match_id, seat, owner) else "stopped"
    if records.release(match_id, seat, owner):  # out of time, still ours: the rest is a new task
        again()
        return "continued"
    return "stopped"
