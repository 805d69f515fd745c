# ruff: noqa: E501  (the words as a player reads them: whole sentences)
"""The terminal client's own words, in the player's language: English declared once here (the
registered Texts ``client``), translations in ``services/client/locales/<locale>.yaml``.

The locale is the ``--lang`` option of ``tabula play | watch | replay | tournaments | leaderboard |
seasons | analyze``, else the environment's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``zh_CN.UTF-8``),
through ``shared.core.i18n.negotiate``;
:func:`use` sets it for the process (one player, one language). Every gRPC call the client makes
carries it as the metadata ``accept-language`` (:func:`language`), so the server's texts and
refusals come in it too; the game's presentation is loaded in it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from shared.core.i18n import DEFAULT, METADATA_KEY, Catalog, Texts, negotiate, register

ENGLISH: dict[str, str] = {
    # the match: waiting, moving on, leaving
    "busy": "busy, retrying in {seconds} s",
    "leaving": "Leaving the match; it goes on without you (a turn clock or a bot may act).",
    "rejoin": "Rejoin it with: tabula play --match {match}",
    "waiting": "(waiting for {who}; bots and system steps are played by the workers)",
    "waiting.system": "the system",
    "waiting.others": "the others",
    "moved.same": "your options are the same",
    "moved.kept": "your choice so far is kept",
    "moved.changed": "your options changed: choose again",
    "moved.while_choosing": "The match moved on while you were choosing (v{before} -> v{version}); {what}.",
    "not_your_turn": "It is not your turn. {waiting}",
    # resign, undo, chat, the glossary
    "resign.ask": "Resign this match? A bot plays your seat from now on and you place last (yes/no)",
    "resign.yes_answers": "y, yes",
    "resign.kept": "Not resigned: play on.",
    "resign.done": "You resigned: a bot plays your seat. q leaves the match.",
    "undo.done": "Taken back: the match is as it was at v{version}.",
    "chat.none": "There is no chat here (no lobby sign-in for this match).",
    "explain.none": "Nothing named {query} here.",
    # choosing and sending
    "choose.first_step": "Nothing to go back to: this is the first step.",
    "choose.range": "Please choose a number from 1 to {count}.",
    "choose.no_match": "No legal command matches {text}.",
    "choose.too_many": "{count} commands match {text}: add more words.",
    "send.rest_gone": "Not played: {command}. It is no longer possible; choose again.",
    "send.again": "The match moved on (v{before} -> v{version}); still possible: sending again.",
    "stale.choose_again": "choose again",
    "stale.not_your_turn": "it is not your turn now",
    "stale.typed": "The match moved on: {text} was typed for the previous question and was not used; {then}.",
    "gone.not_played": "Not played: {command}. ",
    "gone.why": "The match moved on before it arrived (v{before} -> v{version}) and it is no longer possible; see the recent events, and choose again.",
    # the screen: steps, prompt, help, scores, events, refusals
    "seat": "seat {n}",
    "empty_command": "(empty command)",
    "step.choice": "choice",
    "prompt": "Your choice [1-{count}{back}, ? help]: ",
    "prompt.back": ", b back",
    "help.title": "Inputs:",
    "help.option": "  1-{count}     choose that option of '{title}'",
    "help.back": "  b         back: undo your last choice",
    "help.words": "  WORDS     the legal commands whose description has all these words",
    "help.empty": "  (empty)   show the choice again",
    "help.board": "  v         show the board again",
    "help.say": "  say TEXT  write to the match's players' chat",
    "help.glossary": "  ? NAME    a component of the game (a card, a tile ...) with its costs and effects",
    "help.help": "  ?         this help",
    "help.undo": "  undo      take back your latest command (unless it drew, rolled or showed anything)",
    "help.resign": "  resign    give up the match (asks first): a bot plays your seat, you place last",
    "help.quit": "  q         leave the match (it goes on; rejoin with tabula play --match ID)",
    "scores.title": "Final scores",
    "scores.place": "place",
    "scores.player": "player",
    "scores.score": "score",
    "event.undone": "{seat} took back a move: back to v{version}",
    "event.resigned": "{seat} resigned",
    "refused": "Refused: ",
    "steps.what": "What do you do?",
    "steps.which_field": "{command}: {field}?",
    "steps.which_one": "{command}: which one?",
    "steps.ways": "{command} ({count} ways)",
    "steps.no_value": "no {field}",
    "steps.matching": "Commands matching {query}",
    "steps.only": "The only possible command:",
    # tabula play | watch | replay
    "cli.failed": "{what} failed ({code}):",
    "cli.what.starting": "starting the match",
    "cli.what.rejoining": "rejoining the match",
    "cli.what.playing": "playing",
    "cli.what.watching": "watching",
    "cli.what.spectator_token": "getting a spectator token",
    "cli.what.replay": "replay",
    "cli.rejoining": "Rejoining match {match}: you are {name} at seat {seat}",
    "cli.started": "Match {match}: you are {name} at seat {seat}; players: {players}",
    "cli.watch_public": "Watch it in a browser (listed on the spectator page): {link}",
    "cli.watch_private": "Watch it in a browser (your seat's link, for you only): {link}",
    "cli.no_room": "(the lobby did not answer GetRoom: {code}; using the saved seat token)",
    "cli.replay_hint": "replay it: tabula replay {match} --at VERSION",
    "cli.left": "Left the match; rejoin it with: tabula play --match {match}",
    "cli.stopped": "stopped at version {version}",
    "cli.no_player": "No player to act as: play a match first (tabula play), or give --token",
    # tabula tournaments
    # tabula friends
    "friends.needs_player": "{action} needs a player",
    "friends.unknown_action": "unknown action '{action}'",
    "friends.title.friends": "Friends",
    "friends.title.incoming": "Asking you",
    "friends.title.outgoing": "Waiting for their answer",
    "friends.title.blocked": "Blocked",
    "friends.heading": "{title}:",
    "friends.heading_none": "{title}: none",
    "friends.now": "{name} and you are friends now",
    "friends.asked": "asked {name}",
    "friends.declined": "declined",
    "friends.cancelled": "cancelled",
    "friends.removed": "removed",
    "friends.blocked": "blocked",
    "friends.unblocked": "unblocked",
    "friends.online": "online",
    "friends.playing": "playing {game}",
    "friends.playing_match": "playing {game} (match {match})",
    "friends.offline": "offline",
    "friends.last_seen": "offline, last seen {minutes} min ago",
    "tournaments.needs_id": "{action} needs a tournament id",
    "tournaments.bad_format": "format is one of {formats}",
    "tournaments.unknown_action": "unknown action '{action}'",
    "tournaments.none": "No tournaments",
    "tournaments.created": "created {id}",
    "tournaments.registered_for": "registered for {name}",
    "tournaments.withdrew_from": "withdrew from {name}",
    "tournaments.cancelled": "cancelled {name}",
    "tournaments.line": "{id}  {name}  {game}  {format}  {status}  {registered}/{most} players  round {round}/{rounds}  starts {start}",
    "tournaments.format.swiss": "swiss",
    "tournaments.format.round_robin": "round_robin",
    "tournaments.format.single_elimination": "single_elimination",
    "tournaments.status.registering": "registering",
    "tournaments.status.running": "running",
    "tournaments.status.finished": "finished",
    "tournaments.status.cancelled": "cancelled",
    "tournaments.table.pending": "pending",
    "tournaments.table.playing": "playing",
    "tournaments.table.done": "done",
    "tournaments.ended.finished": "finished",
    "tournaments.ended.cancelled": "cancelled",
    "tournaments.ended.too_few_players": "too_few_players",
    "tournaments.ended": "ended: {reason}",
    "tournaments.standings": "Standings:",
    "tournaments.standings_none": "Standings: nobody registered",
    "tournaments.standing": "  {rank}. {name} {points} pts  Buchholz {buchholz}  score {score}  wins {wins}  played {played}  byes {byes}  forfeits {forfeits}",
    "tournaments.marked": "{row}  ({marks})",
    "tournaments.withdrawn": "withdrawn",
    "tournaments.out": "out",
    "tournaments.round": "Round {n}:",
    "tournaments.table": "  table {n}: {seats}  ({status}) {match}",
    "tournaments.bye": "bye",
    "tournaments.bot": "bot",
    "tournaments.placed": "{who} #{placing}",
    "tournaments.placed_forfeit": "{who} #{placing} forfeit",
    "tournaments.your_match": "Your match: {match} (seat {seat})",
    "tournaments.you_registered": "You are registered",
    # tabula leaderboard | seasons
    "leaderboard.title": "{game}, season {season}",
    "leaderboard.none": "No rated matches yet.",
    "seasons.all_time": "{id}  all-time",
    "seasons.span": "{id}  {start} .. {end}",
    "seasons.no_end": "no end yet",
    "seasons.current": "{season}  (current)",
    "seasons.none": "No season has begun yet (leaderboards are all-time).",
    # tabula analyze
    "analyze.cancelled": "cancelled",
    "analyze.nothing_to_cancel": "nothing to cancel (not queued or running)",
    "analyze.title": "match {match}, seat {seat}",
    "analyze.col.version": "version",
    "analyze.col.played": "played",
    "analyze.col.rating": "rating",
    "analyze.col.best": "best was",
    "analyze.forced": "forced",
    "analyze.rating": "{played} vs {best}",
    "analyze.same": "(the same)",
    "analyze.status.queued": "queued",
    "analyze.status.running": "running",
    "analyze.status.done": "done",
    "analyze.status.cancelled": "cancelled",
    "analyze.status.failed": "failed",
    "analyze.rated": "{status}: {rated} decisions rated ({iterations} iterations each)",
    "analyze.rated_of": "{status}: {rated} of {total} decisions rated ({iterations} iterations each)",
    "analyze.best_played": "{line}; the best move found played in {best} of {searched} searched decisions",
    "analyze.failed": "{line}; {error}",
}

TEXTS = Texts("client", Path(__file__).parent, ENGLISH)
register(TEXTS.name, lambda: TEXTS)

LOCALE_ENV = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX order: the first one set decides
_catalog: Catalog = TEXTS.catalog(DEFAULT)


def locale_from(flag: str = "", env: Mapping[str, str] | None = None) -> str:
    """The client's locale: ``--lang`` if given, else the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set; English when none names one of ours (``C``, ``POSIX``, ``fr_FR``)."""
    env = os.environ if env is None else env
    wanted = flag or next((env[name] for name in LOCALE_ENV if env.get(name)), "")
    return negotiate(wanted)


def use(locale: str) -> None:
    """The client's words, and what its calls ask the servers for, from now on in ``locale``."""
    global _catalog
    _catalog = TEXTS.catalog(locale)


def locale() -> str:
    return _catalog.locale


def t(key: str, **values: Any) -> str:
    """One of the client's texts in its locale (English where the locale has none)."""
    return _catalog.text(key, **values)


def word(key: str, default: str, **values: Any) -> str:
    """``key``'s text in the client's locale, or ``default`` for a key the client does not declare
    (an enum value a newer server sends)."""
    return _catalog.get(key, default, **values)


def language() -> tuple[tuple[str, str], ...]:
    """The metadata every call carries: the client's locale."""
    return ((METADATA_KEY, _catalog.locale),)


def localized_message(err: grpc.RpcError) -> str:
    """A refusal's ``google.rpc.LocalizedMessage`` (its words in the locale the call asked for),
    "" when the server sent none."""
    status = rpc_status.from_call(err)
    for detail in status.details if status is not None else ():
        found = error_details_pb2.LocalizedMessage()
        if detail.Unpack(found):
            return str(found.message)
    return ""
